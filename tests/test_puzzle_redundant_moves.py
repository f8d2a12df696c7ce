"""Duplicate-path pruning (``puzzle/redundant_moves.py``): the pruned search still reaches
every board at its distance, from blanks in corners, on edges and in the middle, and the
``pdb`` search with it stays optimal."""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest

from pyasp_games.domains.puzzle import load_boards, redundant_moves, solve
from pyasp_games.domains.puzzle.databases import pattern_database, tile_partition
from pyasp_games.domains.puzzle.model import DIRECTIONS, goal_tiles, moves_of, parse_board
from pyasp_games.domains.puzzle.pattern_search import PatternSearch
from pyasp_games.domains.puzzle.redundant_moves import (
    DEFAULT_LENGTH,
    _effect,
    automaton_of,
    forbidden_strings,
    redundant_move_automaton,
    walk,
)
from pyasp_games.engines.limits import Deadline, LimitReached, Limits

from .conftest import random_walk_board, run_cli

LETTERS = list(DIRECTIONS)


def distances(rows: int, cols: int, blank: int, depth: int, automaton: np.ndarray | None) -> dict:
    """Each board within ``depth`` moves of the board ``1 2 ... `` with the blank on
    ``blank``, with the fewest moves that reach it: by breadth-first search over the
    boards (``automaton`` None), or over the pairs (board, automaton state) of the pruned
    search, which reaches exactly the boards a depth-first search with the automaton
    reaches, at the lengths of its paths."""
    tiles = list(range(1, rows * cols))
    tiles.insert(blank, 0)
    start = (tuple(tiles), blank, 0)
    seen = {start[:2] if automaton is None else start}
    first = {start[0]: 0}
    frontier = deque([(start, 0)])
    neighbours = [[moves_of(c, rows, cols).get(x, -1) for x in LETTERS] for c in range(rows * cols)]
    while frontier:
        (board, b, state), d = frontier.popleft()
        if d == depth:
            continue
        for k, t in enumerate(neighbours[b]):
            if t < 0:
                continue
            follow = 0 if automaton is None else int(automaton[state, k])
            if follow < 0:
                continue
            child = list(board)
            child[b], child[t] = child[t], 0
            node = (tuple(child), t, follow)
            key = node[:2] if automaton is None else node
            if key in seen:
                continue
            seen.add(key)
            first.setdefault(node[0], d + 1)
            frontier.append((node, d + 1))
    return first


@pytest.mark.parametrize(
    ("rows", "cols", "blanks", "depth"),
    [(3, 3, (0, 1, 4), 13), (4, 4, (0, 1, 5), 9), (5, 5, (0, 2, 12), 8)],
)
def test_the_pruned_search_reaches_every_board_at_its_distance(rows, cols, blanks, depth):
    automaton = redundant_move_automaton(DEFAULT_LENGTH)
    for blank in blanks:  # a corner, an edge, the middle (or next to it)
        plain = distances(rows, cols, blank, depth, None)
        pruned = distances(rows, cols, blank, depth, automaton)
        assert pruned == plain, (rows, cols, blank)


def test_a_wrong_forbidden_string_loses_boards():
    # the check above can fail: forbid one circuit round a 2 x 2 block (it has no
    # equivalent), and the boards it leads to are reached late or not at all
    wrong = automaton_of([*forbidden_strings(8), (3, 1, 2, 0)])
    plain = distances(3, 3, 0, 10, None)
    pruned = distances(3, 3, 0, 10, wrong)
    assert any(pruned.get(board) != d for board, d in plain.items())


@pytest.mark.slow
def test_the_pruned_search_reaches_every_eight_puzzle_board_at_its_distance():
    """Opt-in (``pytest -m slow``): all 181,440 boards, from the blank in a corner, on an
    edge and in the middle."""
    automaton = redundant_move_automaton(DEFAULT_LENGTH)
    for blank in (0, 1, 4):
        plain = distances(3, 3, blank, 40, None)
        assert len(plain) == 181_440
        assert distances(3, 3, blank, 40, automaton) == plain


def test_every_forbidden_string_has_a_kept_equivalent_inside_its_box():
    strings = forbidden_strings(8)
    assert strings[:4] == [(0, 1), (1, 0), (2, 3), (3, 2)]  # UD DU LR RL: undoing a move
    automaton = redundant_move_automaton(8)
    for string in strings:
        plan = "".join(LETTERS[d] for d in string)
        assert walk(automaton, plan) is None and walk(automaton, plan[:-1]) is not None
    # the twelve-move circuits round a 2 x 2 block: three times one way is the identity
    assert _effect(bytes([3, 1, 2, 0] * 3)) == ((0, 0), frozenset())


def test_the_automaton_is_cached_and_read_back(private_cache, monkeypatch):
    monkeypatch.setattr(redundant_moves, "_AUTOMATA", {})
    table = redundant_move_automaton(6)
    assert list(private_cache.glob("pyasp-games/pdb/redundant-moves-6-*.npy"))
    monkeypatch.setattr(redundant_moves, "_AUTOMATA", {})
    assert np.array_equal(redundant_move_automaton(6), table)
    with pytest.raises(ValueError, match="0 to 30"):
        redundant_move_automaton(31)


def test_pdb_search_with_pruning_is_optimal_on_eight_puzzle_boards():
    goal = "blank-first"
    dbs = [pattern_database(3, 3, goal, p, cache=False) for p in tile_partition(3, 3, goal, "4-4")]
    tables = ([db.tiles for db in dbs], [db.table for db in dbs])
    exact = distances(3, 3, 0, 40, None)  # the goal board: blank-first
    assert goal_tiles(3, 3, goal) == (0, *range(1, 9))
    for seed in range(20):
        board = random_walk_board(3, 3, 200, seed, goal)
        pruned, plain = PatternSearch(board, *tables), PatternSearch(board, *tables, pruning=0)
        assert pruned.run(None) and plain.run(None)
        assert len(pruned.plan()) == len(plain.plan()) == exact[board.tiles]
        assert pruned.nodes <= plain.nodes
        out = solve(board, "pdb", Limits(time_limit=30), partition="4-4")
        assert out.answer == exact[board.tiles] and out.verdict.verified is True


@pytest.mark.slow
def test_korf_100_optima_with_pruning(puzzles):
    """Opt-in (``pytest -m slow``): builds the 6-6-3 databases, then all of Korf's 100."""
    for board in load_boards(puzzles / "korf100.txt"):
        out = solve(board, "pdb")
        assert out.answer == board.known and out.verdict.verified is True



def test_the_cli_takes_the_pruning_length(tmp_path):
    board = random_walk_board(3, 3, 200, 5, "blank-first")
    path = tmp_path / "b.txt"
    path.write_text("# goal: blank-first\n" + "\n".join(" ".join(map(str, r)) for r in board.grid()) + "\n")
    runs = [run_cli("puzzle", "solve", str(path), "-b", "pdb", "--pruning", n, "--json") for n in ("0", "8")]
    outs = [r.json() for r in runs]
    assert [o["stats"]["pruning"] for o in outs] == [0, 8] and outs[0]["answer"] == outs[1]["answer"]
    assert outs[1]["stats"]["nodes"] <= outs[0]["stats"]["nodes"]
    bad = run_cli("puzzle", "solve", str(path), "-b", "pdb", "--pruning", "15")
    assert bad.code == 2 and "0 to 14" in bad.stderr and "Traceback" not in bad.stderr


def test_the_automaton_is_built_under_the_time_limit(private_cache, monkeypatch):
    # the build of a long automaton (length 12: about 10 s) stops at the deadline, and
    # a solve on a fresh cache answers unknown instead of overrunning --time-limit
    monkeypatch.setattr(redundant_moves, "_AUTOMATA", {})
    with pytest.raises(LimitReached):
        redundant_move_automaton(12, Deadline(0.0))
    assert not list(private_cache.glob("pyasp-games/pdb/redundant-moves-12-*"))
    board = parse_board("1 2 3\n4 5 6\n7 0 8")
    outcome = solve(board, "pdb", Limits(time_limit=1e-9), pruning=12)
    assert outcome.status == "unknown"
