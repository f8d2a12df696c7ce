"""Pattern databases: exact on the abstract space, admissible, and IDA* with them optimal."""

from __future__ import annotations

import json
import math
from collections import deque

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyasp_games.domains.puzzle import load_boards, solve
from pyasp_games.domains.puzzle.abstract_search import build_table
from pyasp_games.domains.puzzle.databases import (
    cached_databases,
    cell_bits,
    clear_cache,
    pattern_database,
    tile_partition,
)
from pyasp_games.domains.puzzle.model import goal_tiles, moves_of
from pyasp_games.engines.limits import Deadline, LimitReached, Limits
from pyasp_games.errors import InputError

from .conftest import random_walk_board, run_cli, run_cli_process
from .test_puzzle_model import reachable


def abstract_distances(rows: int, cols: int, goal: str, tiles: tuple[int, ...]) -> dict:
    """Dijkstra with 0/1 costs (a deque) over (placement, blank): moves of pattern tiles cost 1."""
    home = {v: p for p, v in enumerate(goal_tiles(rows, cols, goal))}
    start = (tuple(home[t] for t in tiles), home[0])
    dist = {start: 0}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        placement, blank = state
        for cell in moves_of(blank, rows, cols).values():
            if cell in placement:
                moved = list(placement)
                moved[placement.index(cell)] = blank
                nxt, cost = (tuple(moved), cell), 1
            else:
                nxt, cost = (placement, cell), 0
            d = dist[state] + cost
            if d < dist.get(nxt, 1 << 30):
                dist[nxt] = d
                (queue.appendleft if cost == 0 else queue.append)(nxt)
    best: dict = {}
    for (placement, _), d in dist.items():
        best[placement] = min(best.get(placement, 1 << 30), d)
    return best


@pytest.mark.parametrize(
    ("rows", "cols", "goal", "tiles"),
    [
        (2, 3, "blank-last", (1, 2)),
        (2, 3, "blank-first", (3, 4, 5)),
        (3, 3, "blank-last", (1, 2, 3)),
        (3, 3, "blank-first", (5, 7, 8)),
        (2, 4, "blank-last", (1, 2, 5, 6)),
        (4, 4, "blank-first", (13, 14, 15)),
        (4, 4, "blank-last", (1, 2, 3)),
    ],
)
def test_database_equals_search_on_the_abstract_space(rows, cols, goal, tiles):
    table = build_table(rows, cols, goal, tiles)
    bits = cell_bits(rows * cols)
    expected = abstract_distances(rows, cols, goal, tiles)
    for placement, d in expected.items():
        assert table[sum(p << (bits * i) for i, p in enumerate(placement))] == d, placement


@pytest.mark.parametrize("goal", [pytest.param("blank-last", marks=pytest.mark.slow), "blank-first"])
def test_partition_sum_is_admissible_on_every_eight_puzzle_board(goal):
    true = reachable(3, 3, goal)
    dbs = [pattern_database(3, 3, goal, p) for p in tile_partition(3, 3, goal)]
    exact = 0
    for tiles, d in true.items():
        h = sum(db.value(tiles) for db in dbs)
        assert h <= d, (tiles, h, d)
        exact += h == d
    assert exact > 1000  # and informative: exact on many boards


def test_partitions_cover_every_tile_once():
    for goal in ("blank-last", "blank-first"):
        for name in ("default", "6-6-3", "5-5-5", "4-4-4-3"):
            groups = tile_partition(4, 4, goal, name)
            assert sorted(t for g in groups for t in g) == list(range(1, 16))
    assert sorted(t for g in tile_partition(5, 5, "blank-last") for t in g) == list(range(1, 25))
    with pytest.raises(InputError, match="unknown partition"):
        tile_partition(3, 3, "blank-last", "6-6-3")


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 30), st.integers(0, 10**6), st.sampled_from(["blank-last", "blank-first"]))
def test_pdb_search_matches_astar_on_random_boards(steps, seed, goal):
    for rows, cols, partition in ((3, 3, "default"), (4, 4, "4-4-4-3")):
        board = random_walk_board(rows, cols, steps if rows == 3 else min(steps, 20), seed, goal)
        ours = solve(board, "pdb", Limits(time_limit=60), partition=partition)
        reference = solve(board, "astar", Limits(time_limit=60))
        assert ours.status == "solved" and ours.verdict.verified is True
        assert ours.answer == reference.answer


def test_fifteen_puzzle_heuristic_never_exceeds_the_optimum(puzzles):
    boards = load_boards(puzzles / "korf100.txt")
    dbs = [
        pattern_database(4, 4, "blank-first", p)
        for p in tile_partition(4, 4, "blank-first", "4-4-4-3")
    ]
    for board in boards:
        assert sum(db.value(board.tiles) for db in dbs) <= board.known


def test_building_honours_the_deadline_and_saves_nothing():
    with pytest.raises(LimitReached):
        pattern_database(4, 4, "blank-first", (1, 2, 3, 4, 5, 6), deadline=Deadline(0.3))
    assert not any((db.rows, db.tiles) == (4, (1, 2, 3, 4, 5, 6)) for db in cached_databases())


def test_cache_round_trip_and_clear(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # clears: not the run's shared cache
    first = pattern_database(3, 3, "blank-first", (1, 2, 3))
    assert any(db.tiles == (1, 2, 3) and not db.stale for db in cached_databases())
    again = pattern_database(3, 3, "blank-first", (1, 2, 3))
    assert again.table == first.table
    assert clear_cache() and not cached_databases()


def test_pdb_cli_build_info_clear(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # clears: not the run's shared cache
    run = run_cli("puzzle", "pdb", "build", "--size", "3x3", "--goal", "blank-first")
    assert run.code == 0 and "3x3 blank-first tiles [1, 2, 3, 4, 5, 6]" in run.stdout
    run = run_cli(
        "puzzle",
        "solve",
        puzzles_dir() / "eight-puzzle-hardest.txt",
        "-b",
        "pdb",
        "--workers",
        "2",
        "--json",
    )
    assert run.code == 0 and [line.count('"answer": 31') for line in run.stdout.splitlines()] == [
        1,
        1,
    ]
    run = run_cli("puzzle", "pdb", "clear")
    assert run.code == 0 and "removed" in run.stdout
    run = run_cli("puzzle", "pdb", "build", "--size", "1x9")
    assert run.code == 2 and "--size" in run.stderr


def puzzles_dir():
    from pyasp_games.engines.resources import instance_dir

    return instance_dir("puzzle")


@pytest.mark.slow
def test_korf_instances_with_the_shortest_optima(puzzles):
    """Opt-in (``pytest -m slow``): builds the 6-6-3 databases, then solves the easiest Korf boards."""
    boards = sorted(load_boards(puzzles / "korf100.txt"), key=lambda b: b.known)[:5]
    for board in boards:
        out = solve(board, "pdb")
        assert out.answer == board.known and out.verdict.verified is True


# -- issue 20: a database build is part of the run that needs it, under its limits ------


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    """An empty pattern-database cache for the commands run from here (no database built)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path


def five_by_five(folder) -> str:
    from pyasp_games.domains.puzzle.model import format_board

    path = folder / "b5.txt"
    path.write_text(format_board(random_walk_board(5, 5, 400, 3), header=False) + "\n")
    return str(path)


@pytest.mark.xdist_group("timing")
def test_crosscheck_builds_the_databases_inside_the_runs_limit(fresh_cache):
    # was: the 5 x 5 databases built before the runs, outside their limits (120 s, 1.4 GB)
    # (child processes here: the limits held on a command's process, as a user runs it)
    run = run_cli_process("crosscheck", "puzzle", five_by_five(fresh_cache), "-b", "pdb",
                  "--time-limit", "1", "--json")  # fmt: skip
    rows = [json.loads(line) for line in run.stdout.splitlines() if '"backend"' in line]
    assert run.code == 3 and [r["status"] for r in rows] == ["unknown"], run.stdout
    assert run.seconds < 30


def test_a_database_build_holds_the_memory_limit(fresh_cache):
    # a 5 x 5 pattern's build marks 2**30 bits: beyond 300 MB it stops, unknown
    run = run_cli_process("puzzle", "solve", five_by_five(fresh_cache), "-b", "pdb",
                  "--time-limit", "20", "--memory-limit", "300", "--json")  # fmt: skip
    out = run.json()
    assert run.code == 3 and out["status"] == "unknown" and out["stats"]["limit"] == "memory"
    assert out["backend"] == "pdb", out  # the build ran out, not the reading of the board


@pytest.mark.xdist_group("timing")
def test_every_phase_of_a_build_stops_at_the_time_limit(fresh_cache, puzzles):
    # was: a Korf board with the blank-first databases uncached overran a 30 s limit by
    # 4-9 s; without --json the build runs in the command's own process (its progress shown)
    from pyasp_games.domains.puzzle.model import format_board

    board = fresh_cache / "korf1.txt"
    board.write_text(format_board(load_boards(puzzles / "korf100.txt")[0]) + "\n")
    run = run_cli_process("puzzle", "solve", board, "-b", "pdb", "--time-limit", "0.5")
    assert run.code == 3 and "unknown" in run.stdout + run.stderr
    assert run.seconds < 10


def test_the_quick_partition_is_small_on_every_board_with_databases():
    # what the reference builds inside a user's limit: valid, small tables, every tile once
    from pyasp_games.domains.puzzle.databases import QUICK_INDEX_BITS, QUICK_PLACEMENTS
    from pyasp_games.domains.puzzle.model import cell_bits

    for rows in range(2, 9):
        for cols in range(2, 9):
            n = rows * cols
            groups = tile_partition(rows, cols, "blank-last", "quick")
            assert sorted(t for g in groups for t in g) == list(range(1, n))
            for g in groups:
                assert cell_bits(n) * len(g) <= QUICK_INDEX_BITS
                assert math.perm(n, len(g)) <= QUICK_PLACEMENTS
    with pytest.raises(InputError, match="limit of 64 cells"):
        tile_partition(9, 9, "blank-last")
