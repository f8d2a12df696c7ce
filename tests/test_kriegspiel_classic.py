"""Classic (perfect-information) endings with two White pieces, KBBK and KBNK: the compiled
retrograde analysis (``kriegspiel/classic.py``) against a naive solver written here
(its own move generator on (rank, file) pairs, and a different algorithm: values
propagated backwards from the mates through the predecessor lists, a position with
Black to move valued once its last reply is), on every position of small boards; the
published longest mates on 8 x 8 (slow)."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pytest

from pyasp_games.domains.kriegspiel.classic import ILLEGAL, classic_table, classic_values, longest
from pyasp_games.domains.kriegspiel.model import Board
from pyasp_games.domains.kriegspiel.tablebase import NO_MATE

STEPS = [(dr, df) for dr in (-1, 0, 1) for df in (-1, 0, 1) if (dr, df) != (0, 0)]
JUMPS = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
DIAGONALS = [(1, 1), (1, -1), (-1, 1), (-1, -1)]


def naive_values(rows: int, cols: int, pieces: str) -> dict[tuple, int]:
    """Every legal position (White to move) of K + ``pieces`` (``B``/``N``) against K, as
    ((king, piece, piece, black king) squares as (rank, file)) and its moves to mate."""
    squares = [(r, f) for r in range(rows) for f in range(cols)]

    def on(s: tuple[int, int]) -> bool:
        return 0 <= s[0] < rows and 0 <= s[1] < cols

    def near(a: tuple[int, int], b: tuple[int, int]) -> bool:
        return max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1

    def reach(kind: str, s: tuple[int, int], blockers: set) -> list[tuple[int, int]]:
        """The squares a piece attacks (a line ends on its first blocker)."""
        if kind == "N":
            return [t for t in ((s[0] + a, s[1] + b) for a, b in JUMPS) if on(t)]
        out = []
        for dr, df in DIAGONALS:
            t = (s[0] + dr, s[1] + df)
            while on(t):
                out.append(t)
                if t in blockers:
                    break
                t = (t[0] + dr, t[1] + df)
        return out

    def attacked(men: tuple, t: tuple[int, int]) -> bool:
        king, *ps = men
        if near(king, t):
            return True
        return any(t in reach(kind, s, set(men)) for kind, s in zip(pieces, ps, strict=True))

    def white_moves(men: tuple, black: tuple[int, int]) -> list[tuple]:
        king, *ps = men
        out = [(t, *ps) for t in (((king[0] + a, king[1] + b) for a, b in STEPS))
               if on(t) and t not in ps and not near(t, black)]  # fmt: skip
        for i, (kind, s) in enumerate(zip(pieces, ps, strict=True)):
            for t in reach(kind, s, set(men)):
                if t not in men:
                    moved = list(ps)
                    moved[i] = t
                    out.append((king, *moved))
        return out

    placements = [(k, *ps) for k in squares for ps in _tuples(squares, len(pieces))
                  if len({k, *ps}) == len(pieces) + 1]  # fmt: skip
    white_to_move = [(men, b) for men in placements for b in squares
                     if b not in men and not near(men[0], b) and not attacked(men, b)]  # fmt: skip
    legal = set(white_to_move)
    # Black to move: each position's fate (mate, draw) or its replies
    before: dict[tuple, list[tuple]] = defaultdict(list)  # a Black position: White's positions before it
    replies: dict[tuple, list[tuple]] = {}
    for men, b in white_to_move:
        for after in white_moves(men, b):
            before[after, b].append((men, b))
    value: dict[tuple, int] = {}
    black_value: dict[tuple, int] = {}
    waiting: dict[tuple, int] = {}
    layer = []
    for men, b in before:
        steps = [t for t in ((b[0] + a, b[1] + c) for a, c in STEPS) if on(t)]
        free = [t for t in steps if t != men[0] and not attacked(men, t)]
        if any(t in men for t in free):
            continue  # takes a piece: a draw
        if not free:
            if attacked(men, b):
                black_value[men, b] = 0
                layer.append((men, b))
            continue  # (stalemate: a draw)
        replies[men, b] = [(men, t) for t in free]
        waiting[men, b] = len(free)
    after_of: dict[tuple, list[tuple]] = defaultdict(list)  # a White position: the Black ones leading to it
    for position, rs in replies.items():
        for r in rs:
            assert r in legal
            after_of[r].append(position)
    depth = 0
    while layer:  # the Black positions lost in exactly `depth` White moves
        depth += 1
        won = []
        for position in layer:
            for w in before[position]:
                if w not in value:
                    value[w] = depth
                    won.append(w)
        layer = []
        for w in won:
            for position in after_of[w]:
                waiting[position] -= 1
                if waiting[position] == 0:
                    black_value[position] = depth
                    layer.append(position)
    return {(men, b): value.get((men, b), NO_MATE) for men, b in white_to_move}


def _tuples(squares: list, k: int) -> list[tuple]:
    if k == 0:
        return [()]
    return [(s, *rest) for s in squares for rest in _tuples(squares, k - 1)]


def _compare(rows: int, cols: int, pieces: str) -> np.ndarray:
    table = classic_table(Board(rows, cols), pieces)
    naive = naive_values(rows, cols, pieces)
    index = {(men, b): tuple(r * cols + f for r, f in (*men, b)) for men, b in naive}
    assert int((table != ILLEGAL).sum()) == len(naive)  # the same legal positions
    for position, v in naive.items():
        assert table[index[position]] == v, (position, v)
    return table


@pytest.mark.parametrize(("rows", "cols", "pieces", "most"), [
    (3, 4, "BN", 20), pytest.param(4, 4, "BN", 14, marks=pytest.mark.slow), (3, 5, "BB", 12),
])  # fmt: skip
def test_two_piece_tables_agree_with_a_naive_solver(rows: int, cols: int, pieces: str, most: int) -> None:
    table = _compare(rows, cols, pieces)
    assert table[table < NO_MATE].max() == most


def test_one_piece_tables_agree_with_the_referee_based_solver() -> None:
    for n, piece in ((4, "R"), (4, "Q"), (3, "R")):
        table = classic_table(Board(n, n), piece)
        values = classic_values(Board(n, n), piece)
        assert int((table != ILLEGAL).sum()) == len(values)
        assert all(table[p] == v for p, v in values.items())


def _same_colour(table: np.ndarray, cols: int) -> np.ndarray:
    n = table.shape[0]
    colour = np.array([sum(divmod(s, cols)) % 2 for s in range(n)])
    return (colour[:, None] == colour[None, :])[None, :, :, None]


def test_bishops_on_one_colour_never_mate() -> None:
    """Two bishops on squares of one colour: every legal position a draw (no mate
    position exists); on squares of both colours most positions are won."""
    table = classic_table(Board(5, 5), "BB")
    same = np.broadcast_to(_same_colour(table, 5), table.shape) & (table != ILLEGAL)
    assert same.sum() > 0 and (table[same] == NO_MATE).all()
    other = np.broadcast_to(~_same_colour(table, 5), table.shape) & (table != ILLEGAL)
    assert (table[other] < NO_MATE).mean() > 0.5


@pytest.mark.slow
def test_naive_solver_agrees_on_more_boards() -> None:
    table = _compare(4, 4, "BB")
    assert table[table < NO_MATE].max() == 9
    _compare(5, 5, "BN")
    _compare(5, 5, "BB")


@pytest.mark.slow
def test_published_longest_mates_on_8x8() -> None:
    """KBBK: 19 moves (bishops on opposite colours), KBNK: 33 (White to move)."""
    assert longest(Board(8, 8), "BB") == 19
    assert longest(Board(8, 8), "BN") == 33
