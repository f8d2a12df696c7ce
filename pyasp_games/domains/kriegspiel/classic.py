"""Classic endings (perfect information) by retrograde analysis: the test of the move generators.

Every position with White to move, its value the number of White moves to mate with
best play on both sides (Black also avoids nothing: it takes an unprotected piece and
stalemates where it can, which are draws: a lone bishop or knight cannot mate).

Two solvers, each checked against the other on small boards and against the published
figures on 8 x 8:

- :func:`classic_values` (one piece: KRK, KQK) runs the same "mate within k" fixpoint as
  the metaposition tables (:func:`~pyasp_games.domains.kriegspiel.tablebase.fixpoint`) on
  the referee's rules (:mod:`~pyasp_games.domains.kriegspiel.referee`). The longest KRK mate
  with White to move is 16 moves on 8 x 8 (the published figure); 3 x 3 to 7 x 7 give 3,
  7, 10, 12 and 14.
- :func:`classic_table` (one or two pieces: KRK, KQK, **KBBK**, **KBNK**) is a compiled
  retrograde analysis over every index slot ``(king, piece, [second piece,] black king)``
  (8 x 8 KBNK: 64^4 = 16.8 million slots with White to move, as many with Black to move),
  its own move generator in numba kernels (:mod:`~pyasp_games.engines.compiled`): round k
  finds every position mated in exactly k moves. The longest mates on 8 x 8 are 19 moves
  (KBBK, the bishops on squares of opposite colours) and 33 (KBNK), the published figures
  (``tests/test_kriegspiel_classic.py``, a slow test, and ``benchmarks/RESULTS.md``).
  Two bishops on squares of the same colour never mate: no position with them is a mate
  at all (the black king always has a flight square of the other colour), so every such
  position of the table is a draw (:data:`NO_MATE`), which the tests check too.

>>> longest(Board(4, 4))
7
>>> longest(Board(4, 4), "BN"), longest(Board(4, 4), "BB")
(14, 9)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pyasp_games.domains.kriegspiel.metaposition import rules_for
from pyasp_games.domains.kriegspiel.model import Board, legal_squares
from pyasp_games.domains.kriegspiel.referee import black_moves, white_answer
from pyasp_games.domains.kriegspiel.tablebase import NO_MATE, fixpoint
from pyasp_games.engines.compiled import compile_kernels, kernel, run_sliced
from pyasp_games.engines.limits import Deadline

Position = tuple[int, int, int]

#: The pieces :func:`classic_table` knows, by letter (its kernels' codes are the indices).
KINDS = "RQBN"
#: In the tables: a slot that is no legal position (two men on a square, the black king
#: next to White's king, or in check with White to move).
ILLEGAL = -1
#: Values inside the kernels: not (yet) mated; and, with Black to move, never mated (the
#: black king takes a piece or is stalemated).
_OPEN, _DRAWN = 32_000, 32_001
#: At most this many White moves in a placement (8 king steps, 27 for a queen, 13 for a
#: bishop: two pieces never exceed 8 + 27 + 27).
_MOVES = 64


def classic_values(
    board: Board, piece: str = "R", deadline: Deadline | None = None
) -> dict[Position, int]:
    """Every legal position ``(king, piece square, black king)`` of KRK or KQK with White
    to move and its number of White moves to mate (:data:`NO_MATE`: a draw), on the
    referee's rules."""
    rules = rules_for(board, piece)
    positions = [
        (k, s, b)
        for k in range(board.size)
        for s in range(board.size)
        if k != s
        for b in board.squares(legal_squares(board, k, piece, s))
    ]
    index = {p: i for i, p in enumerate(positions)}
    owner, after = [], []
    for i, (k, s, b) in enumerate(positions):
        if deadline is not None and i % 4096 == 0:
            deadline.check()
        for attempt in rules.attempts(k, s):
            illegal, _ = rules.split(k, s, 1 << b, attempt)
            if illegal:
                continue
            k2, s2 = (attempt[1], s) if attempt[0] == "K" else (k, attempt[1])
            said = white_answer(board, piece, k2, s2, b)
            replies = black_moves(board, piece, k2, s2, b)
            if said == "stalemate" or s2 in replies:
                continue  # a draw
            owner.append(i)
            after.append([index[(k2, s2, r)] for r in replies])
    width = max((len(a) for a in after), default=1)
    padded = np.full((len(after), width), -2, dtype=np.int32)
    for j, a in enumerate(after):
        padded[j, : len(a)] = a
    owners = np.array(owner, dtype=np.int32)
    value = fixpoint(len(positions), owners, np.full(len(owner), -1, np.int32), padded, deadline)
    return {p: int(v) for p, v in zip(positions, value, strict=True)}


def longest(board: Board, pieces: str = "R") -> int:
    """The longest forced mate (White to move) on ``board`` with White's ``pieces``
    (``R``, ``Q``, ``BB``, ``BN``...; :func:`classic_table`)."""
    table = classic_table(board, pieces)
    return int(table[table < NO_MATE].max())


# -- the compiled retrograde analysis (one or two pieces) --------------------------------


@kernel
def _attacks(rows: int, cols: int, kind: int, square: int, occupied: np.uint64) -> np.uint64:
    """The squares a piece of ``kind`` (0 R, 1 Q, 2 B, 3 N) on ``square`` attacks, its
    lines stopping at the first square of ``occupied`` (which it defends)."""
    r0, f0 = square // cols, square % cols
    out = np.uint64(0)
    if kind == 3:
        for d in range(8):
            r = r0 + (1, 2, 2, 1, -1, -2, -2, -1)[d]
            f = f0 + (2, 1, -1, -2, -2, -1, 1, 2)[d]
            if 0 <= r < rows and 0 <= f < cols:
                out |= np.uint64(1) << np.uint64(r * cols + f)
        return out
    first = 4 if kind == 2 else 0
    last = 4 if kind == 0 else 8
    for d in range(first, last):
        dr = (1, -1, 0, 0, 1, 1, -1, -1)[d]
        df = (0, 0, 1, -1, 1, -1, 1, -1)[d]
        r, f = r0 + dr, f0 + df
        while 0 <= r < rows and 0 <= f < cols:
            bit = np.uint64(1) << np.uint64(r * cols + f)
            out |= bit
            if occupied & bit:
                break
            r, f = r + dr, f + df
    return out


@kernel
def _placements(rows: int, cols: int, kinds: Any, valid: Any, attack: Any, men: Any,
                near: Any, count: Any, moves: Any, king_to: Any) -> None:
    """For every placement ``p`` of White's king and pieces (``p = king * n^m + first *
    n^(m-1) + ...``, m pieces): whether its men stand on distinct squares, the squares
    they attack (``attack``), the squares of the pieces (``men``), and White's moves:
    the placement each leads to and, for a king step, its target (``-1``: a piece moved)."""
    n = rows * cols
    m = kinds.shape[0]
    total = valid.shape[0]
    for s in range(n):
        r0, f0 = s // cols, s % cols
        mask = np.uint64(0)
        for t in range(n):
            if t != s and abs(t // cols - r0) <= 1 and abs(t % cols - f0) <= 1:
                mask |= np.uint64(1) << np.uint64(t)
        near[s] = mask
    squares = np.zeros(3, dtype=np.int64)
    for p in range(total):
        rest = p
        for i in range(m, -1, -1):
            squares[i] = rest % n
            rest //= n
        occupied = np.uint64(0)
        ok = True
        for i in range(m + 1):
            bit = np.uint64(1) << np.uint64(squares[i])
            if occupied & bit:
                ok = False
            occupied |= bit
        valid[p] = ok
        if not ok:
            continue
        king = squares[0]
        hit = near[king]
        pieces = np.uint64(0)
        for i in range(m):
            hit |= _attacks(rows, cols, kinds[i], squares[i + 1], occupied)
            pieces |= np.uint64(1) << np.uint64(squares[i + 1])
        attack[p] = hit
        men[p] = pieces
        c = 0
        for t in range(n):  # the king's steps
            if near[king] >> np.uint64(t) & np.uint64(1) and not occupied >> np.uint64(t) & np.uint64(1):
                moves[p, c] = p + (t - king) * n**m
                king_to[p, c] = t
                c += 1
        for i in range(m):  # each piece's moves (its lines stop before White's men)
            reach = _attacks(rows, cols, kinds[i], squares[i + 1], occupied) & ~occupied
            for t in range(n):
                if reach >> np.uint64(t) & np.uint64(1):
                    moves[p, c] = p + (t - squares[i + 1]) * n ** (m - 1 - i)
                    king_to[p, c] = -1
                    c += 1
        count[p] = c


@kernel
def _black_round(lo: int, hi: int, n: int, valid: Any, attack: Any, men: Any, near: Any,
                 white: Any, black: Any) -> None:
    """Black to move, placements ``lo`` to ``hi``: a position is lost once every reply
    is (its value the longest), drawn for good when the king can take a piece or is
    stalemated, mated (0) when it is in check without a reply."""
    one = np.uint64(1)
    for p in range(lo, hi):
        if not valid[p]:
            continue
        base = p * n
        hit = attack[p]
        for x in range(n):
            if black[base + x] != _OPEN:
                continue
            steps = near[x] & ~hit
            if steps & men[p]:
                black[base + x] = _DRAWN  # it takes an unprotected piece
                continue
            if steps == 0:
                black[base + x] = 0 if hit >> np.uint64(x) & one else _DRAWN
                continue
            worst = 0
            for t in range(n):
                if steps >> np.uint64(t) & one:
                    v = white[base + t]
                    if v > worst:
                        worst = v
            if worst < _OPEN:
                black[base + x] = worst


@kernel
def _white_round(lo: int, hi: int, n: int, valid: Any, attack: Any, men: Any, near: Any,
                 count: Any, moves: Any, king_to: Any, white: Any, black: Any) -> int:
    """White to move, placements ``lo`` to ``hi``: a position not yet mated is mated in
    one move more than its best move's position with Black to move (when that one is
    lost). The number of positions newly valued."""
    one = np.uint64(1)
    found = 0
    for p in range(lo, hi):
        if not valid[p]:
            continue
        base = p * n
        for x in range(n):
            if white[base + x] != _OPEN:
                continue
            best = _OPEN
            for c in range(count[p]):
                t = king_to[p, c]
                if t >= 0 and near[t] >> np.uint64(x) & one:
                    continue  # the kings would stand side by side
                v = black[moves[p, c] * n + x]
                if v < _OPEN and v + 1 < best:
                    best = v + 1
            if best < _OPEN:
                white[base + x] = best
                found += 1
    return found


def classic_table(board: Board, pieces: str = "BN", deadline: Deadline | None = None) -> np.ndarray:
    """The value of every position with White to move, White's king and ``pieces`` (one
    or two of ``R Q B N``) against the lone king: an array indexed ``[king, piece,
    (second piece,) black king]`` of the number of White moves to mate,
    :data:`NO_MATE` for a draw and :data:`ILLEGAL` for a slot that is no legal position."""
    if not 1 <= len(pieces) <= 2 or set(pieces) - set(KINDS):
        raise ValueError(f"one or two of the pieces {KINDS}, got {pieces!r}")
    n, m = board.size, len(pieces)
    places = n ** (m + 1)
    kinds = np.array([KINDS.index(p) for p in pieces], dtype=np.int64)
    valid = np.zeros(places, dtype=np.bool_)
    attack = np.zeros(places, dtype=np.uint64)
    men = np.zeros(places, dtype=np.uint64)
    near = np.zeros(n, dtype=np.uint64)
    count = np.zeros(places, dtype=np.int64)
    moves = np.zeros((places, _MOVES), dtype=np.int32)
    king_to = np.zeros((places, _MOVES), dtype=np.int8)
    white = np.full(places * n, _OPEN, dtype=np.int16)
    black = np.full(places * n, _OPEN, dtype=np.int16)
    compile_kernels(__name__)  # (the interpreted kernels would take minutes on 5 x 5)
    _placements(board.rows, board.cols, kinds, valid, attack, men, near, count, moves, king_to)
    found = [0]

    def black_round(lo: int, hi: int) -> None:
        _black_round(lo, hi, n, valid, attack, men, near, white, black)

    def white_round(lo: int, hi: int) -> None:
        found[0] += _white_round(lo, hi, n, valid, attack, men, near, count, moves, king_to, white, black)

    while True:  # round k: every position mated in exactly k moves
        found[0] = 0
        _sliced(black_round, places, deadline)
        _sliced(white_round, places, deadline)
        if not found[0]:
            break
    out = white.astype(np.int32).reshape(places, n)
    out[out == _OPEN] = NO_MATE
    king = np.arange(places) // n**m
    blocked = attack | men | (np.uint64(1) << king.astype(np.uint64))
    legal = valid[:, None] & ((blocked[:, None] >> np.arange(n, dtype=np.uint64)) & np.uint64(1) == 0)
    out[~legal] = ILLEGAL
    return out.reshape((n,) * (m + 2))


def _sliced(run: Any, places: int, deadline: Deadline | None) -> None:
    """``run(lo, hi)`` over every placement, a slice at a time (the deadline read between)."""
    at = [0]

    def step(budget: int) -> bool:
        hi = min(places, at[0] + budget)
        run(at[0], hi)
        at[0] = hi
        return hi >= places

    run_sliced(step, deadline, first=64)


def warm_up() -> None:
    """Compile (or load) the kernels on the 3 x 3 board (called by compile_kernels)."""
    classic_table(Board(3, 3), "BN")
    classic_table(Board(3, 3), "R")
