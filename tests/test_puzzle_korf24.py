"""The 24-puzzle's machinery on small boards: placement ranks, ranked databases, the
reflection, shared tables, IDA* over them, the cache. The 6-6-6-6 tables themselves (two of
127,512,000 bytes) are built by benchmarks only (benchmarks/puzzle_korf24.py)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyasp_games.domains.puzzle import abstract_search, load_boards, solve
from pyasp_games.domains.puzzle.abstract_search import (
    build_table,
    placement_cells,
    placement_rank,
    ranked_index,
    table_entries,
)
from pyasp_games.domains.puzzle.databases import (
    build_databases,
    cached_databases,
    database_path,
    pattern_database,
    shared_table,
    tile_partition,
)
from pyasp_games.domains.puzzle.model import Board, goal_tiles
from pyasp_games.domains.puzzle.pattern_search import PatternSearch
from pyasp_games.engines.limits import Deadline, LimitReached, Limits

from .conftest import random_walk_board, run_cli
from .test_puzzle_pdb import abstract_distances


@pytest.fixture
def ranked_everywhere(monkeypatch):
    """Every pattern indexed by rank (as the 24-puzzle's 6-tile patterns are)."""
    monkeypatch.setattr(abstract_search, "MAX_SPARSE_ENTRIES", 1)


@pytest.fixture
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path


def test_ranks_number_the_placements_one_to_one():
    for n, k in ((6, 3), (9, 2), (7, 4)):
        ranks = []
        for cells in itertools.permutations(range(n), k):
            rank = placement_rank(cells, n)
            assert placement_cells(rank, k, n) == list(cells)
            ranks.append(rank)
        assert sorted(ranks) == list(range(math.perm(n, k)))
    # the compiled build's own encoder and decoder (their Python source here) agree
    cells = np.zeros(4, np.int64)
    for rank in range(0, math.perm(25, 4), 9973):
        abstract_search._decode(rank, 4, 5, 25, True, cells)
        assert list(cells) == placement_cells(rank, 4, 25)
        assert abstract_search._encode(cells, 4, 5, 25, True) == rank


def test_only_large_patterns_are_ranked():
    assert (ranked_index(25, 6), ranked_index(25, 5), ranked_index(16, 7)) == (True, False, False)
    assert table_entries(25, 6) == 127_512_000 == math.perm(25, 6)


@pytest.mark.parametrize(
    ("rows", "cols", "goal", "tiles"),
    [(2, 3, "blank-last", (1, 2)), (3, 3, "blank-first", (5, 7, 8)), (2, 4, "blank-last", (1, 2, 5, 6)),
     (3, 3, "blank-last", (1, 2, 3, 4))],
)  # fmt: skip
def test_the_ranked_build_is_the_breadth_first_search_on_a_tiny_partition(
    ranked_everywhere, rows, cols, goal, tiles
):
    n = rows * cols
    table = build_table(rows, cols, goal, tiles)
    assert len(table) == math.perm(n, len(tiles))
    expected = abstract_distances(rows, cols, goal, tiles)
    assert len(expected) == len(table)  # every placement reached, each at its distance
    for placement, d in expected.items():
        assert table[placement_rank(placement, n)] == d, placement


def reflected(board: Board) -> Board:
    """The board mirrored in its main diagonal, each tile renamed to the tile whose home
    is the mirror of its own (the goal maps to itself)."""
    n, cols = board.size, board.cols
    sigma = [(c % cols) * cols + c // cols for c in range(n)]
    goal = goal_tiles(board.rows, cols, board.goal)
    home = {v: c for c, v in enumerate(goal)}
    tiles = [0] * n
    for c, v in enumerate(board.tiles):
        tiles[sigma[c]] = goal[sigma[home[v]]]
    return Board(board.rows, cols, tuple(tiles), board.goal, board.name)


@pytest.mark.parametrize("goal", ["blank-first", "blank-last"])
def test_the_six_six_six_six_partition_and_its_reflection(goal):
    parts = tile_partition(5, 5, goal, "6-6-6-6")
    assert parts == tile_partition(5, 5, goal)  # the 5 x 5 default
    assert sorted(t for g in parts for t in g) == list(range(1, 25)) and {
        len(g) for g in parts
    } == {6}
    target = goal_tiles(5, 5, goal)
    # the tile whose home is the mirror image of tile t's home
    mirror = {t: target[(c % 5) * 5 + c // 5] for c, t in enumerate(target)}
    assert all(mirror[mirror[t]] == t for t in target) and mirror[0] == 0
    groups = {frozenset(mirror[t] for t in g) for g in parts}
    # the reflection is another partition (looked up in the same tables), not this one
    assert sorted(t for g in groups for t in g) == list(range(1, 25)) and groups != set(
        map(frozenset, parts)
    )


@pytest.mark.parametrize(("rows", "cols", "partition"), [(3, 3, "4-4"), (4, 4, "4-4-4-3")])
def test_reflected_lookups_are_the_direct_lookups_of_the_mirrored_board(
    ranked_everywhere, rows, cols, partition
):
    for seed in range(4):
        goal = ("blank-first", "blank-last")[seed % 2]
        board = random_walk_board(rows, cols, 60, seed, goal)
        parts = tile_partition(rows, cols, goal, partition)
        dbs = [pattern_database(rows, cols, goal, p, cache=False) for p in parts]
        direct, mirrored = searching(board, dbs), searching(reflected(board), dbs)
        assert (direct.h_dir[0], direct.h_ref[0]) == (mirrored.h_ref[0], mirrored.h_dir[0])


def searching(board: Board, dbs: list) -> PatternSearch:
    return PatternSearch(board, [db.tiles for db in dbs], [db.table for db in dbs], [db.cell_map for db in dbs])


def test_idastar_over_ranked_and_shared_tables_is_idastar_over_sparse_ones(monkeypatch, own_cache):
    # 4 x 4 with 4-4-4-3: ranked, the 4-tile patterns share one table by the board's
    # symmetries and the 3-tile one keeps its sparse index (a mixed partition)
    for seed in range(4):
        goal = ("blank-first", "blank-last")[seed % 2]
        board = random_walk_board(4, 4, 45, seed, goal)
        parts = tile_partition(4, 4, goal, "4-4-4-3")
        runs = []
        for limit in (1 << 28, 1 << 12):
            monkeypatch.setattr(abstract_search, "MAX_SPARSE_ENTRIES", limit)
            dbs = [pattern_database(4, 4, goal, p) for p in parts]
            if limit < 1 << 28:
                assert len({id(db.table) for db in dbs}) < len(dbs)  # some table is shared
            search = searching(board, dbs)
            assert search.run(None)
            runs.append((search.plan(), search.nodes, search.h0))
        assert runs[0] == runs[1]
        assert len(runs[0][0]) == solve(board, "astar", Limits(time_limit=60)).answer


def test_a_shared_table_gives_the_patterns_own_values(ranked_everywhere):
    # the corner 2 x 2 blocks of the 4 x 4 board away from the blank read one table
    for goal in ("blank-first", "blank-last"):
        shared = 0
        for cells in ((2, 3, 6, 7), (10, 11, 14, 15), (8, 9, 12, 13), (0, 1, 4, 5)):
            tiles = tuple(sorted(goal_tiles(4, 4, goal)[c] for c in cells))
            if 0 in tiles:
                continue
            base, order, cell_map = shared_table(4, 4, goal, tiles)
            view = pattern_database(4, 4, goal, tiles, cache=False)
            assert view.cell_map == cell_map and sorted(order) == list(tiles) and len(base) == 4
            shared += cell_map is not None
            table = build_table(4, 4, goal, tiles)  # the pattern's own table
            for placement in itertools.islice(itertools.permutations(range(16), 4), 0, None, 7):
                board = [None] * 16
                for t, c in zip(tiles, placement, strict=True):
                    board[c] = t
                assert view.value(board) == table[placement_rank(placement, 16)]
        assert shared == 2


def test_ranked_tables_are_cached_and_a_finished_table_survives_a_stopped_build(
    own_cache, ranked_everywhere
):
    parts = tile_partition(4, 4, "blank-first", "4-4-4-3")
    first = database_path(4, 4, "blank-first", parts[0])

    class StopsAfterTheFirstTable(Deadline):
        def expired(self) -> bool:
            return first.is_file()

    with pytest.raises(LimitReached):
        build_databases(4, 4, "blank-first", "4-4-4-3", deadline=StopsAfterTheFirstTable(None))
    cached = cached_databases()
    assert [db.tiles for db in cached] == [parts[0]] and not cached[0].stale
    assert cached[0].bytes == math.perm(16, 4)
    again = pattern_database(4, 4, "blank-first", parts[0])  # read back, not rebuilt
    assert again.table == build_table(4, 4, "blank-first", parts[0])
    assert not list(first.parent.glob("*.part"))


def test_pdb_build_stops_at_its_time_limit_and_says_what_is_missing(own_cache):
    run = run_cli(
        "puzzle",
        "pdb",
        "build",
        "--size",
        "4x4",
        "--partition",
        "6-6-3",
        "--time-limit",
        "0.3",
        "--json",
    )
    out = run.json()
    assert run.code == 3 and out["status"] == "unknown" and out["limit"] == "time"
    assert out["built"] < 3 and len(out["missing"]) == 3 - out["built"]
    run = run_cli("puzzle", "pdb", "build", "--size", "3x3", "--time-limit", "nan")
    assert run.code == 2 and "--time-limit" in run.stderr


def test_the_korf_taylor_instances_are_bundled_with_their_published_optima(puzzles):
    boards = load_boards(puzzles / "korf-taylor24.txt")
    assert [b.known for b in boards] == [100, 95, 108, 98, 101, 96, 104, 97, 113, 114]
    from pyasp_games.domains.puzzle.model import manhattan_lower_bound, solvability

    for b in boards:
        assert (b.rows, b.cols, b.goal) == (5, 5, "blank-first") and sorted(b.tiles) == list(
            range(25)
        )
        assert solvability(b).solvable and (b.known - manhattan_lower_bound(b)) % 2 == 0


# -- dual lookups (issue 32, section 1) -------------------------------------------------


@pytest.mark.parametrize("goal", ["blank-first", "blank-last"])
def test_dual_lookups_never_exceed_the_optimum_on_eight_puzzle_boards(goal):
    """Every 1000th board of the 181,440 (the tables read at the legal dual state, less the
    moves on the blank's path): never above the exact distance, above the direct and
    reflected sums on some boards. The naive dual reading (the tiles on each pattern's
    cells, no correction) exceeds the optimum on many of them."""
    from .test_puzzle_model import reachable

    true = reachable(3, 3, goal)
    # two patterns of four tiles: tables of 2**16 entries, built in a blink (the default
    # 6-2 partition's table of 2**24 cost 3 s of building per goal), and lookups that
    # cross each other's cells as the 24-puzzle's 6-6-6-6 do
    tiles = [t for t in goal_tiles(3, 3, goal) if t]
    dbs = [pattern_database(3, 3, goal, p) for p in (tiles[:4], tiles[4:])]
    args = ([db.tiles for db in dbs], [db.table for db in dbs], [db.cell_map for db in dbs])
    home = {v: c for c, v in enumerate(goal_tiles(3, 3, goal))}
    better = naive_over = 0
    for tiles, d in list(true.items())[::1000]:
        board = Board(3, 3, tuple(tiles), goal)
        plain, dual = PatternSearch(board, *args).h0, PatternSearch(board, *args, lookups="dual").h0
        assert plain <= dual <= d, (tiles, plain, dual, d)
        better += dual > plain
        # tile v of the naive reading stands on the home of the tile on v's home cell
        naive = sum(db.table[db.cells_index([home[tiles[home[v]]] for v in db.tiles])] for db in dbs)
        naive_over += naive > d
    assert better > 5 and naive_over > 5


@pytest.mark.slow  # IDA* with dual lookups on 4 x 4 walks; the 8-puzzle test above is the quick one
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 30), st.integers(0, 10**6), st.sampled_from(["blank-last", "blank-first"]),
       st.sampled_from(["dual", "dual-bpmx"]))  # fmt: skip
def test_dual_lookup_plans_are_optimal_on_random_boards(steps, seed, goal, lookups):
    for rows, cols, partition in ((3, 3, "default"), (4, 4, "4-4-4-3"), (3, 4, "quick")):
        board = random_walk_board(rows, cols, steps if rows == 3 else min(steps, 20), seed, goal)
        ours = solve(board, "pdb", Limits(time_limit=60), partition=partition, lookups=lookups)
        reference = solve(board, "astar", Limits(time_limit=60))
        assert ours.status == "solved" and ours.verdict.verified is True
        assert ours.answer == reference.answer, (board.tiles, lookups)


def test_a_move_along_the_blank_path_keeps_the_dual_state():
    from pyasp_games.domains.puzzle.pattern_search import (
        blank_path,
        blank_path_positions,
        on_one_path,
    )

    assert blank_path(0, 8, 3) == [0, 3, 6, 7, 8]
    assert on_one_path(0, 6, 7, 3) and on_one_path(0, 3, 6, 3) and not on_one_path(0, 4, 7, 3)
    # X = Y o a^-1 (as home cells) is the same for a board and its child along the path
    board = random_walk_board(3, 3, 40, 5, "blank-first")
    a = list(board.tiles)  # blank-first: a tile's home is its number

    def dual(a):
        b = a.index(0)
        ypos = blank_path_positions(0, b, 3, 9)
        return [a[ypos[u]] for u in range(9)]  # the cell of object u in X

    b = a.index(0)
    for t in range(9):
        if abs(t - b) in (1, 3) and (t // 3 == b // 3 or t % 3 == b % 3):
            child = a.copy()
            child[b], child[t] = child[t], 0
            assert (dual(child) == dual(a)) == on_one_path(0, b, t, 3)
