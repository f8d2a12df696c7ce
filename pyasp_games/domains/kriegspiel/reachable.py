"""The reachable metapositions of a large board, compiled (the solver's build, in numba).

:func:`~pyasp_games.domains.kriegspiel.tablebase.build` walks the metapositions reachable
from its roots in Python; on boards of more than :data:`COMPILED_FROM` squares it hands
the walk to :func:`build_arrays`, which does the same in a compiled kernel
(:mod:`~pyasp_games.engines.compiled`): the set-wise referee of
:mod:`~pyasp_games.domains.kriegspiel.metaposition` laid out as arrays (for every
placement of White's men, each attempt with the squares where it is illegal and the
board after it: the piece's lines, where the piece could be taken, where the black king
may step, the announced check lines), the board's symmetries as per-rank look-up tables
(:class:`~pyasp_games.domains.kriegspiel.symmetry.Symmetry`), and an open-addressing hash
of the states met. The states are numbered in the same order as the Python walk's, and
each attempt's row is the same: the tables are equal (``tests/test_kriegspiel_solve.py``).

>>> from pyasp_games.domains.kriegspiel.model import Board, starts
>>> from pyasp_games.domains.kriegspiel.tablebase import build
>>> ms = starts(Board(4, 4))
>>> slow, fast = build(ms, compiled=False), build(ms, compiled=True)
>>> slow.keys == fast.keys and bool((slow.after == fast.after).all())
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pyasp_games.domains.kriegspiel.metaposition import rules_for
from pyasp_games.domains.kriegspiel.model import answers_width, piece_squares, placements
from pyasp_games.engines.compiled import compile_kernels, kernel, run_sliced
from pyasp_games.engines.limits import Deadline

#: Boards of more squares than this are walked compiled (a 6 x 6 start: 1.7 s in Python).
COMPILED_FROM = 25
#: At most this many attempts for one placement of White's men (8 king steps, 27 slides;
#: two bishops: 8 + 13 + 13).
_ATTEMPTS = 8 + 28


@kernel
def _spread(mask: np.uint64, cols: int, not_first: np.uint64, not_last: np.uint64,
            full: np.uint64) -> np.uint64:
    """The squares a king step away from some square of ``mask`` (Board.spread)."""
    east = (mask << np.uint64(1)) & not_first
    west = (mask >> np.uint64(1)) & not_last
    row = mask | east | west
    return (east | west | (row << np.uint64(cols)) | (row >> np.uint64(cols))) & full


@kernel
def _image(tables: Any, g: int, belief: np.uint64, rows: int, cols: int) -> np.uint64:
    out = np.uint64(0)
    mask = np.uint64((1 << cols) - 1)
    for r in range(rows):
        bits = (belief >> np.uint64(r * cols)) & mask
        if bits:
            out |= tables[g, r, int(bits)]
    return out


@kernel
def _number(men: int, belief: np.uint64, n: int, tables: Any, least: Any, group: Any,
            rows: int, cols: int, key_men: Any, key_belief: Any, slots: Any, count: Any) -> int:
    """The number of the canonical image of ``(men, belief)``, added if new (-1: no
    room left: the caller grows the arrays)."""
    best = np.uint64(0)
    first = True
    for g in range(tables.shape[0]):
        if (group[men] >> g) & 1:
            image = _image(tables, g, belief, rows, cols)
            if first or image < best:
                best, first = image, False
    canon = least[men]
    size = slots.shape[0]
    h = (np.uint64(canon) * np.uint64(0x9E3779B97F4A7C15)) ^ (best * np.uint64(0xC2B2AE3D27D4EB4F))
    h ^= h >> np.uint64(29)
    at = np.int64(h & np.uint64(size - 1))
    while True:
        slot = slots[at]
        if slot < 0:
            if count[0] >= key_men.shape[0] or 2 * count[0] >= size:
                return -1
            number = count[0]
            slots[at] = number
            key_men[number] = canon
            key_belief[number] = best
            count[0] += 1
            return number
        if key_men[slot] == canon and key_belief[slot] == best:
            return slot
        at = (at + 1) & (size - 1)


@kernel
def _walk(budget: int, n: int, rows: int, cols: int, not_first: np.uint64, not_last: np.uint64,
          full: np.uint64, tables: Any, least: Any, group: Any, tries: Any, near: Any, lines: Any,
          zone: Any, free: Any, can_move: Any, checks: Any, moved: Any, key_men: Any,
          key_belief: Any, slots: Any, count: Any, cursor: Any, owner: Any, illegal: Any,
          after: Any) -> int:
    """Walk up to ``budget`` states from ``cursor[0]``: 1 when every state is walked, 0
    when the budget is spent, -1 when the arrays are full (nothing of the state at the
    cursor is kept: it is walked again once they have grown)."""
    kinds = checks.shape[2]
    nexts = np.zeros(kinds + 1, dtype=np.int64)
    done = 0
    while cursor[0] < count[0]:
        if done >= budget:
            return 0
        i = cursor[0]
        men = key_men[i]
        belief = key_belief[i]
        start = cursor[1]
        for t in range(tries[men]):
            sub = belief & near[men, t]
            legal = belief ^ sub
            if legal == 0:
                continue
            if legal & zone[men, t]:
                continue  # the black king takes the piece: a draw
            checked = legal & lines[men, t]
            if (legal ^ checked) & ~can_move[men, t]:
                continue  # a stalemate: a draw
            k = 0
            checked &= can_move[men, t]
            after_men = moved[men, t]
            silent = legal & ~lines[men, t]
            for c in range(kinds + 1):  # the announced checks in their order, then silence
                part = (checked & checks[men, t, c]) if c < kinds else silent
                if part:
                    j = _number(after_men, _spread(part, cols, not_first, not_last, full) & free[men, t],
                                n, tables, least, group, rows, cols, key_men, key_belief, slots, count)
                    if j < 0:
                        cursor[1] = start
                        return -1
                    nexts[k] = j
                    k += 1
            row = cursor[1]
            if row >= owner.shape[0]:
                cursor[1] = start
                return -1
            lost = -1
            if sub:
                lost = _number(men, sub, n, tables, least, group, rows, cols, key_men, key_belief,
                               slots, count)
                if lost < 0:
                    cursor[1] = start
                    return -1
            owner[row] = i
            illegal[row] = lost
            for c in range(after.shape[1]):
                after[row, c] = nexts[c] if c < k else -2
            cursor[1] = row + 1
        cursor[0] = i + 1
        done += 1
    return 1


def _rules_arrays(board: Any, piece: str) -> dict[str, Any]:
    """The set-wise referee of every placement of White's men, as arrays (the men as
    ``king * P + placement``, P the number of the pieces' placements; each attempt's
    board after it)."""
    rules = rules_for(board, piece)
    n, places = board.size, board.size ** len(piece)
    shape = (n * places, _ATTEMPTS)
    out = {
        "tries": np.zeros(n * places, dtype=np.int64),
        "near": np.zeros(shape, dtype=np.uint64), "lines": np.zeros(shape, dtype=np.uint64),
        "zone": np.zeros(shape, dtype=np.uint64), "free": np.zeros(shape, dtype=np.uint64),
        "can_move": np.zeros(shape, dtype=np.uint64), "moved": np.zeros(shape, dtype=np.int64),
        "checks": np.zeros((*shape, answers_width(piece) - 1 + (len(piece) == 1)), dtype=np.uint64),
    }  # fmt: skip
    squares = set(placements(board, piece))
    for king in range(n):
        for square in range(places):
            if square not in squares or king in piece_squares(board, piece, square):
                continue
            men = king * places + square
            tries = rules.tries(king, square)
            out["tries"][men] = len(tries)
            for t, (_attempt, near, after) in enumerate(tries):
                out["near"][men, t] = near
                out["lines"][men, t] = after.lines
                out["zone"][men, t] = after.capture_zone
                out["free"][men, t] = after.free
                out["can_move"][men, t] = after.can_move
                out["moved"][men, t] = after.king * places + after.square
                for c, (_name, mask) in enumerate(after.checks):
                    out["checks"][men, t, c] = mask
    return out


def build_arrays(
    roots: list[tuple[int, int, int]], board: Any, piece: str, symmetry: Any,
    deadline: Deadline | None = None, progress: Any = None,
) -> tuple[list[tuple[int, int, int]], list[int], Any, Any, Any]:
    """The canonical states reachable from ``roots`` (numbered in the Python walk's
    order), the roots' numbers, and the attempts' ``owner``, ``illegal``, ``after``."""
    compile_kernels(__name__)
    n, rows, cols = board.size, board.rows, board.cols
    places = n ** len(piece)
    arrays = _rules_arrays(board, piece)
    tables = np.zeros((len(symmetry.perm), rows, 1 << cols), dtype=np.uint64)
    for g, per_rank in enumerate(symmetry._rank_tables):
        for r, table in enumerate(per_rank):
            tables[g, r, : len(table)] = table
    least = np.zeros(n * places, dtype=np.int64)
    group = np.zeros(n * places, dtype=np.int64)
    for k in range(n):
        for s in range(places):
            (a, b), gs = symmetry.least(k, s)
            least[k * places + s] = a * places + b
            group[k * places + s] = sum(1 << g for g in gs)
    not_first, not_last = (np.uint64(x) for x in board._edges)
    full = np.uint64(board.full)
    states = 1 << 16
    key_men = np.zeros(states, dtype=np.int64)
    key_belief = np.zeros(states, dtype=np.uint64)
    slots = np.full(4 * states, -1, dtype=np.int64)
    count = np.zeros(1, dtype=np.int64)
    cursor = np.zeros(2, dtype=np.int64)
    owner = np.zeros(16 * states, dtype=np.int32)
    illegal = np.zeros(16 * states, dtype=np.int32)
    after = np.zeros((16 * states, answers_width(piece)), dtype=np.int32)
    numbers = []
    for king, square, belief in roots:
        j = _number(king * places + square, np.uint64(belief), n, tables, least, group, rows, cols,
                    key_men, key_belief, slots, count)  # fmt: skip
        if j < 0:
            raise MemoryError("more roots than room")
        numbers.append(int(j))
    def step(budget: int) -> bool:
        nonlocal key_men, key_belief, slots, owner, illegal, after
        said = _walk(budget, n, rows, cols, not_first, not_last, full, tables, least, group,
                     arrays["tries"], arrays["near"], arrays["lines"], arrays["zone"], arrays["free"],
                     arrays["can_move"], arrays["checks"], arrays["moved"], key_men, key_belief, slots,
                     count, cursor, owner, illegal, after)  # fmt: skip
        if progress is not None:
            progress(int(cursor[0]))
        if said >= 0:
            return said == 1
        if count[0] + 1 >= len(key_men):  # the states: twice the room, hashed again
            key_men = np.concatenate([key_men, np.zeros(len(key_men), dtype=np.int64)])
            key_belief = np.concatenate([key_belief, np.zeros(len(key_belief), dtype=np.uint64)])
            slots = np.full(4 * len(key_men), -1, dtype=np.int64)
            _rehash(key_men, key_belief, slots, int(count[0]))
        if cursor[1] + _ATTEMPTS >= len(owner):  # the attempts: twice the room
            owner = np.concatenate([owner, np.zeros(len(owner), dtype=np.int32)])
            illegal = np.concatenate([illegal, np.zeros(len(illegal), dtype=np.int32)])
            after = np.concatenate([after, np.zeros_like(after)])
        return False

    run_sliced(step, deadline, __name__, first=1 << 12)
    total, rows_used = int(count[0]), int(cursor[1])
    keys = list(zip((key_men[:total] // places).tolist(), (key_men[:total] % places).tolist(),
                    key_belief[:total].tolist(), strict=True))  # fmt: skip
    return keys, numbers, owner[:rows_used].copy(), illegal[:rows_used].copy(), after[:rows_used].copy()


@kernel
def _rehash(key_men: Any, key_belief: Any, slots: Any, count: int) -> None:
    size = slots.shape[0]
    for number in range(count):
        h = (np.uint64(key_men[number]) * np.uint64(0x9E3779B97F4A7C15)) ^ (
            key_belief[number] * np.uint64(0xC2B2AE3D27D4EB4F))
        h ^= h >> np.uint64(29)
        at = np.int64(h & np.uint64(size - 1))
        while slots[at] >= 0:
            at = (at + 1) & (size - 1)
        slots[at] = number


def warm_up() -> None:
    """Compile (or load) the kernels on the 3 x 3 board (called by compile_kernels)."""
    from pyasp_games.domains.kriegspiel.model import Board, starts
    from pyasp_games.domains.kriegspiel.symmetry import Symmetry

    board = Board(3, 3)
    roots = [(m.king, m.piece_square, m.belief) for m in starts(board)]
    build_arrays(roots, board, "R", Symmetry(board))
    roots = [(m.king, m.piece_square, m.belief) for m in starts(board, "BN")]
    build_arrays(roots, board, "BN", Symmetry(board, "BN"))
    # the compiled rounds of the tables' fixpoint (one state, no move)
    fixpoint_rounds(1, np.zeros(1, np.int64), np.full(1, -1, np.int32), np.full((1, 1), -2, np.int32), 100, None)


@kernel
def _round(value: Any, old: Any, starts: Any, illegal: Any, after: Any, n: int, top: int) -> bool:
    """One round of :func:`~pyasp_games.domains.kriegspiel.tablebase.fixpoint` (every
    state from the values of the round before, ``old``): whether some value fell."""
    improved = False
    for i in range(n):
        lo, hi = starts[i], starts[i + 1]
        if lo == hi:
            continue
        best = top
        for j in range(lo, hi):
            worst = 0
            for c in range(after.shape[1]):
                a = after[j, c]
                w = 0 if a == -2 else old[a]  # -2: a mate, no move more
                if w > worst:
                    worst = w
            outcome = worst + 1
            lost = illegal[j]
            if lost >= 0 and old[lost] > outcome:
                outcome = old[lost]
            if outcome < best:
                best = outcome
        if best < old[i]:
            value[i] = best
            improved = True
    return improved


def fixpoint_rounds(n: int, owner: Any, illegal: Any, after: Any, top: int, deadline: Deadline | None) -> Any:
    """The least fixpoint by compiled rounds (the same rounds as the numpy ones)."""
    compile_kernels(__name__)
    value = np.full(n, top, dtype=np.int64)
    starts = np.searchsorted(owner, np.arange(n + 1)).astype(np.int64)
    while True:
        if deadline is not None:
            deadline.check()
        old = value.copy()
        if not _round(value, old, starts, illegal, after, n, top):
            return value.astype(np.int32)
