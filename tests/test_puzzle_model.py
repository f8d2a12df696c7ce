"""Boards: parsing, formatting, validation, and solvability against exhaustive search."""

from __future__ import annotations

from collections import deque
from itertools import permutations
from math import factorial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyasp_games.domains.puzzle.model import (
    Board,
    format_board,
    format_set,
    goal_tiles,
    load_boards,
    manhattan_lower_bound,
    moves_of,
    parse_board,
    parse_set,
    solvability,
)
from pyasp_games.domains.puzzle.verify import verify_unsolvable
from pyasp_games.errors import InputError


def reachable(rows: int, cols: int, goal: str) -> dict[tuple[int, ...], int]:
    """Breadth-first search from the goal: every reachable board and its distance."""
    start = goal_tiles(rows, cols, goal)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        blank = state.index(0)
        for target in moves_of(blank, rows, cols).values():
            nxt = list(state)
            nxt[blank], nxt[target] = nxt[target], 0
            nxt = tuple(nxt)
            if nxt not in dist:
                dist[nxt] = dist[state] + 1
                queue.append(nxt)
    return dist


boards = st.sampled_from([(2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (3, 4), (4, 4), (5, 3)]).flatmap(
    lambda rc: st.tuples(
        st.just(rc),
        st.permutations(range(rc[0] * rc[1])),
        st.sampled_from(["blank-last", "blank-first"]),
    )
)


@given(boards)
def test_board_file_round_trips(data):
    (rows, cols), tiles, goal = data
    board = Board(rows, cols, tuple(tiles), goal, "b", 7)
    again = parse_board(format_board(board), name="b")
    assert again == board and again.known == 7


@given(st.lists(boards, min_size=1, max_size=5))
def test_set_file_round_trips(items):
    (rows, cols), _, goal = items[0]
    n = rows * cols
    made = [
        Board(rows, cols, tuple(t) if len(t) == n else tuple(range(n)), goal, f"s:{i}")
        for i, (_, t, _) in enumerate(items)
    ]
    again = parse_set(format_set(made), name="s")
    assert [b.tiles for b in again] == [b.tiles for b in made]
    assert [b.name for b in again] == [b.name for b in made]


@pytest.mark.parametrize(
    ("rows", "cols", "goal"),
    [
        (2, 2, "blank-last"),
        (2, 3, "blank-last"),
        (2, 3, "blank-first"),
        (3, 2, "blank-first"),
        # the 8-puzzle's 362,880 boards: 7 s for the odd-width rule that 2 x 3 proves by
        # default in 720 (the rule depends on the width's parity only, not on the rows)
        pytest.param(3, 3, "blank-last", marks=pytest.mark.slow),
        pytest.param(3, 3, "blank-first", marks=pytest.mark.slow),
        (2, 4, "blank-last"),
        (4, 2, "blank-first"),
    ],
)
def test_solvability_is_exactly_reachability(rows, cols, goal):
    """Every board of a size, against a BFS from the goal. The 3 x 3 sweeps are slow
    (``pytest -m slow``): the odd-width rule they check is checked by default on 2 x 3,
    with both goals."""
    dist = reachable(rows, cols, goal)
    n = rows * cols
    count = 0
    for tiles in permutations(range(n)):
        board = Board(rows, cols, tiles, goal)
        solvable = solvability(board).solvable
        assert solvable == (tiles in dist), tiles
        if solvable:
            # the Manhattan bound is admissible and has the plan length's parity
            assert manhattan_lower_bound(board) <= dist[tiles]
            assert (dist[tiles] - manhattan_lower_bound(board)) % 2 == 0
        count += solvable
    assert count * 2 == factorial(n)  # exactly half of all boards are solvable


@pytest.mark.parametrize(
    ("rows", "cols", "goal"), [(2, 3, "blank-first"), (3, 2, "blank-last"), (2, 4, "blank-last")]
)
def test_independent_unsolvability_check_agrees(rows, cols, goal):
    dist = reachable(rows, cols, goal)
    for tiles in permutations(range(rows * cols)):
        assert verify_unsolvable(rows, cols, tiles, goal).ok == (tiles not in dist)


@pytest.mark.parametrize("name", ["small-2x3.txt", "small-2x4.txt"])
def test_bundled_small_boards_state_their_bfs_distances(puzzles, name):
    boards = load_boards(puzzles / name)
    first = boards[0]
    dist = reachable(first.rows, first.cols, first.goal)
    for board in boards:
        assert board.known == dist.get(board.tiles, "none")


def test_thesis_boards_and_reasons(puzzles):
    b1, b2, b3 = (load_boards(puzzles / f"thesis-board{i}.txt")[0] for i in (1, 2, 3))
    assert (b1.known, b2.known, b3.known) == (24, 12, "none")
    assert solvability(b1).solvable and solvability(b2).solvable
    s3 = solvability(b3)
    assert not s3.solvable and s3.inversions == 1 and s3.width_even and "unsolvable" in s3.reason


def test_korf_set_is_read_with_its_optimal_lengths(puzzles):
    boards = load_boards(puzzles / "korf100.txt")
    assert len(boards) == 100 and all(b.goal == "blank-first" and b.size == 16 for b in boards)
    assert boards[0].known == 57 and all(41 <= b.known <= 66 for b in boards)
    assert all(solvability(b).solvable for b in boards)
    assert all(manhattan_lower_bound(b) <= b.known for b in boards)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1 2 3\n4 5 6\n7 8", "ragged"),
        ("1 2 3\n4 5 6\n7 8 8", "appears twice"),
        ("1 2 3\n4 5 6\n7 8 9", "out of range"),
        ("1 2 3\n4 x 6\n7 8 0", "not an integer"),
        ("1 2 3\n4 5.5 6\n7 8 0", "not an integer"),
        ("1 2 0 3", "1 x 4"),
        ("0\n1\n2", "3 x 1"),
        ("", "empty"),
        ("# only a comment\n", "empty"),
        ("1 2 3\n4 5 6\n7 0 -8", "out of range"),
        ("# goal: sideways\n1 0\n2 3", "unknown goal"),
        ("# optimal: lots\n1 0\n2 3", "not an integer"),
    ],
)
def test_bad_boards_give_one_clear_message(text, message):
    with pytest.raises(InputError, match=message):
        parse_board(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1 2 3 0\n", "size"),
        ("# size: 2by2\n1 2 3 0\n", "bad size"),
        ("# size: 2x2\n1 2 3\n", "needs 4 entries"),
        ("# size: 2x2\na 1 2 3 0\na 1 2 0 3\n", "duplicate id"),
        ("# size: 2x2\n1 2 3 3\n", "line 2: tile 3 appears twice"),
        ("# size: 2x2\n", "no boards"),
    ],
)
def test_bad_sets_give_one_clear_message(text, message):
    with pytest.raises(InputError, match=message):
        parse_set(text)


def test_goal_option_overrides_header(tmp_path):
    path = tmp_path / "b.txt"
    path.write_text("# goal: blank-first\n1 0\n2 3\n")
    assert load_boards(path)[0].goal == "blank-first"
    assert load_boards(path, "blank-last")[0].goal == "blank-last"
    with pytest.raises(InputError, match="no such file"):
        load_boards(tmp_path / "missing.txt")


@settings(max_examples=30)
@given(st.sampled_from([(3, 3), (4, 4), (2, 5)]), st.data())
def test_moves_stay_on_board_and_are_symmetric(rc, data):
    rows, cols = rc
    p = data.draw(st.integers(0, rows * cols - 1))
    for q in moves_of(p, rows, cols).values():
        assert p in moves_of(q, rows, cols).values()
