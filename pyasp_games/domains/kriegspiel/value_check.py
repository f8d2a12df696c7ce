"""The checker's compiled half: a table of metapositions and their values, confirmed.

Part of the independent checker (:mod:`~pyasp_games.domains.kriegspiel.verify`): it
shares nothing with the solvers (its rules are written here again, square by square,
as :class:`~pyasp_games.domains.kriegspiel.verify.Game` states them), and takes a
**value table** (:class:`ValueTable`): metapositions as ``(king, piece square,
belief)`` with each one's claimed worst-case number of White moves to mate (at least
:data:`NO_MATE`: no forced mate). The solver keeps that table with the board's cached
table (``kriegspiel table``), or hands over the one it has just computed: it is the
certificate of every value in it, in a form that costs a few bytes a metaposition.

:func:`confirm` walks from the metapositions asked about and checks, at every
metaposition the walk meets, the retrograde equation with its own move generator:

    value(m) = min over attempts a of max(value(m where a is illegal),
                                           1 + max over answers of value(next))

(an attempt that lets some square stalemate or take the piece counts as no mate; a
``mate`` answer as 0 after the move), where each metaposition on the right is looked up
in the table under the symmetry of the board that brings it to its least image. Two
halves, by induction:

- **no faster mate**: every attempt does at least as badly as ``value(m)``; the walk
  goes on to the answer (or illegal part) that makes it so, whose own value must hold
  in turn. Together they form a refutation of a mate within ``value(m) - 1`` (and of
  any mate where the value is :data:`NO_MATE`), its links found by look-up;
- **a mate that fast**: some attempt does exactly as well; the walk goes on to all of
  its answers, each at least one move shorter (the illegal part: a smaller belief).

A metaposition the walk needs that the table lacks, a duplicate, a value of 0 or one
that breaks the equation is a :class:`Refuted` naming it. The walk runs compiled
(numba, :mod:`~pyasp_games.engines.compiled`; on small boards as plain Python first):
an 8 x 8 start needs about 120,000 metapositions, checked in about a second.

>>> import numpy as np
>>> keys = np.array([[1, 3, 1 << 8]], dtype=np.uint64)  # 3 x 3: Kb1 Ra2, the king on c3
>>> confirm(ValueTable(3, 3, "R", keys, np.array([1], np.int32)), [(1, 3, 1 << 8)])
Traceback (most recent call last):
...
pyasp_games.domains.kriegspiel.value_check.Refuted: 2k/R2/1K1: after Kc1 (silent) White is at a metaposition the table lacks

(Ra3 mates, but the equation holds only if every attempt's metapositions are there too.)
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from pyasp_games.engines.compiled import compile_kernels, kernel, run_sliced
from pyasp_games.engines.limits import Deadline


class Refuted(Exception):
    """The value table does not hold (the message names the metaposition)."""


#: Boards of at most this many squares, and tables of at most this many metapositions,
#: are checked by the kernels as plain Python first (:func:`~pyasp_games.engines.compiled.run_sliced`
#: compiles them once that takes more than half a second): a 4 x 4 answer is checked in
#: milliseconds, where loading numba would take half a second.
INTERPRETED_SQUARES, INTERPRETED_TABLE = 16, 5_000
#: A value at least this large: no forced mate (the value tables' convention).
NO_MATE = 1_000_000
#: Infinity inside the walk (1 + infinity stays infinity).
_INF = 1 << 40
#: The referee's answers, as codes: 0 silent, 1-4 a check by rank, file, long and short
#: diagonal, then mate, stalemate, the piece taken, and a square White's men stand on.
_NAMES = ("silent", "check-rank", "check-file", "check-long-diagonal", "check-short-diagonal")
MATE, STALEMATE, CAPTURE, OCCUPIED = 5, 6, 7, 8
#: What a failed walk reports (``fail[0]``).
_MISSING, _DUPLICATE, _FASTER, _SLOWER, _ZERO, _BAD, _SHORT = 1, 2, 3, 4, 5, 6, 7


@dataclass
class ValueTable:
    """Metapositions (rows of ``keys``: White's king, its piece, the belief bitmask; the
    squares numbered ``rank * cols + file``) and their claimed values; ``file``: where it
    was read from, if it was."""

    rows: int
    cols: int
    piece: str
    keys: Any
    values: Any
    file: str | None = None

    def __len__(self) -> int:
        return len(self.values)


# -- the rules, square by square (compiled) ------------------------------------------


@kernel
def _line(rows: int, cols: int, queen: bool, p: int, k: int, target: int) -> int:
    """How the piece on ``p`` reaches ``target`` with White's king on ``k`` as the only
    obstacle: 0 not at all, 1 along the rank, 2 the file, 3 the longer diagonal through
    ``target`` (or one as long), 4 the shorter."""
    pr, pf = p // cols, p % cols
    tr, tf = target // cols, target % cols
    for d in range(8 if queen else 4):
        dr = (1, -1, 0, 0, 1, 1, -1, -1)[d]
        df = (0, 0, 1, -1, 1, -1, 1, -1)[d]
        r, f = pr + dr, pf + df
        while 0 <= r < rows and 0 <= f < cols and r * cols + f != k:
            if r == tr and f == tf:
                if dr == 0:
                    return 1
                if df == 0:
                    return 2
                up = 1 + min(rows - 1 - tr, cols - 1 - tf) + min(tr, tf)  # the a1-h8 way
                down = 1 + min(rows - 1 - tr, tf) + min(tr, cols - 1 - tf)  # the a8-h1 way
                mine = up if dr == df else down
                return 3 if mine >= max(up, down) else 4
            r, f = r + dr, f + df
    return 0


@kernel
def _referee(rows: int, cols: int, queen: bool, code: Any, reply: Any) -> None:
    """For White's men on every ``(k, p)`` after its move and the black king on every
    ``b``: the referee's answer (``code``) and Black's legal steps (``reply``)."""
    n = rows * cols
    for k in range(n):
        kr, kf = k // cols, k % cols
        for p in range(n):
            if p == k:
                continue
            for b in range(n):
                if b == k or b == p:  # noqa: SIM109 - numba compiles comparisons
                    code[k, p, b] = OCCUPIED
                    continue
                br, bf = b // cols, b % cols
                steps = np.uint64(0)
                count = 0
                takes = False
                for dr in range(-1, 2):
                    for df in range(-1, 2):
                        r, f = br + dr, bf + df
                        if (dr == 0 and df == 0) or not (0 <= r < rows and 0 <= f < cols):
                            continue
                        t = r * cols + f
                        if max(abs(r - kr), abs(f - kf)) <= 1 or _line(rows, cols, queen, p, k, t):
                            continue  # White's king, next to it, or the piece's lines
                        steps |= np.uint64(1) << np.uint64(t)
                        count += 1
                        takes = takes or t == p
                check = _line(rows, cols, queen, p, k, b)
                reply[k, p, b] = steps
                if takes:
                    code[k, p, b] = CAPTURE
                elif count == 0:
                    code[k, p, b] = MATE if check else STALEMATE
                else:
                    code[k, p, b] = check


@kernel
def _image(perm: Any, g: int, belief: np.uint64, n: int) -> np.uint64:
    out = np.uint64(0)
    for s in range(n):
        if (belief >> np.uint64(s)) & np.uint64(1):
            out |= np.uint64(1) << np.uint64(perm[g, s])
    return out


@kernel
def _find(k: int, p: int, belief: np.uint64, n: int, perm: Any, least: Any, group: Any,
          offset: Any, beliefs: Any) -> int:
    """The row of the table holding the least symmetric image of ``(k, p, belief)``,
    or -1."""
    men = k * n + p
    best = np.uint64(0)
    first = True
    for g in range(perm.shape[0]):
        if (group[men] >> g) & 1:
            image = _image(perm, g, belief, n)
            if first or image < best:
                best, first = image, False
    lo, hi = offset[least[men]], offset[least[men] + 1]
    while lo < hi:
        mid = (lo + hi) // 2
        if beliefs[mid] < best:
            lo = mid + 1
        else:
            hi = mid
    if lo < offset[least[men] + 1] and beliefs[lo] == best:
        return lo
    return -1


@kernel
def _push(queue: Any, ends: Any, entry: int) -> None:
    """Add ``entry`` to the ring ``queue`` (``ends``: the head and the tail, counted)."""
    queue[ends[1] % queue.shape[0]] = entry
    ends[1] += 1


@kernel
def _walk(budget: int, rows: int, cols: int, queen: bool, code: Any, reply: Any, near: Any,
          perm: Any, least: Any, group: Any, offset: Any, men: Any, beliefs: Any, values: Any,
          queue: Any, ends: Any, flags: Any, asked: Any, done_to: Any, fail: Any) -> bool:
    """Check up to ``budget`` entries of the ring ``queue`` (``ends``: head and tail; an
    entry is a row and 1 if its upper bound is asked, 0 its lower), adding those the
    asked bound rests on; true when done. ``flags``: 1 and 2, the row waits in the queue
    for its lower or upper bound, 4: its upper bound is taken care of; ``asked``: the
    most moves within which a mate from the row is to be refuted (``done_to``: refuted
    so far). A failure: ``fail`` = (what, row, attempt number, detail)."""
    n = rows * cols
    masks = np.zeros(5, dtype=np.uint64)
    rows_of = np.zeros(6, dtype=np.int64)
    worths = np.zeros(6, dtype=np.int64)
    depths = np.zeros(6, dtype=np.int64)
    best_children = np.zeros(6, dtype=np.int64)
    done = 0
    while ends[0] < ends[1] and done < budget:
        entry = queue[ends[0] % queue.shape[0]]
        ends[0] += 1
        done += 1
        i, upper = entry >> 1, entry & 1
        flags[i] &= ~np.int8(2 if upper else 1)
        d = asked[i]
        if not upper:
            if d <= done_to[i]:
                continue  # refuted that far already
            done_to[i] = d
        k, p = men[i] // n, men[i] % n
        belief = beliefs[i]
        v = np.int64(values[i])
        if v >= NO_MATE:
            v = _INF
        if v <= 0 or (not upper and d < _INF and v <= d):
            fail[0] = _ZERO if v <= 0 else _SHORT
            fail[1] = i
            fail[3] = d
            return True
        best = _INF + 1
        best_count = 0
        number = -1
        # the attempts: the king's steps, then the piece's slides
        for a in range(8 + 56):
            if a < 8:
                dr, df = (1, 1, 1, 0, 0, -1, -1, -1)[a], (1, 0, -1, 1, -1, 1, 0, -1)[a]
                r, f = k // cols + dr, k % cols + df
                if not (0 <= r < rows and 0 <= f < cols) or r * cols + f == p:
                    continue
                k2, p2 = r * cols + f, p
                illegal = belief & near[k2]
            else:
                dd, step = (a - 8) // 7, (a - 8) % 7 + 1  # 4 or 8 directions, 7 steps at most
                if dd >= (8 if queen else 4):
                    break
                dr, df = (1, -1, 0, 0, 1, 1, -1, -1)[dd], (0, 0, 1, -1, 1, -1, 1, -1)[dd]
                r, f = p // cols, p % cols
                blocked = False
                for _ in range(step):
                    r, f = r + dr, f + df
                    if not (0 <= r < rows and 0 <= f < cols) or r * cols + f == k:
                        blocked = True
                        break
                if blocked:
                    continue
                k2, p2 = k, r * cols + f
                illegal = np.uint64(0)
            number += 1
            legal = belief ^ illegal
            if legal == 0:
                continue  # illegal wherever the black king is: nothing learnt, nothing done
            for c in range(5):
                masks[c] = 0
            draw, mate = False, False
            for b in range(n):
                if (legal >> np.uint64(b)) & np.uint64(1):
                    c = code[k2, p2, b]
                    if c == OCCUPIED:
                        fail[0] = _BAD
                        fail[1] = i
                        fail[2] = number
                        return True
                    if c == STALEMATE or c == CAPTURE:  # noqa: SIM109
                        draw = True
                    elif c == MATE:
                        mate = True
                    else:
                        masks[c] |= reply[k2, p2, b]
            if draw:
                continue  # no mate: this attempt refutes nothing, and mates nothing
            outcome = np.int64(1 if mate else 0)
            count = 0
            for c in range(6):
                if c < 5 and masks[c]:
                    j = _find(k2, p2, masks[c], n, perm, least, group, offset, beliefs)
                    later = 1  # a move made: one move less to go
                elif c == 5 and illegal:
                    j = _find(k, p, illegal, n, perm, least, group, offset, beliefs)
                    later = 0  # illegal: no move made, a smaller belief
                else:
                    continue
                if j < 0:
                    fail[0] = _MISSING
                    fail[1] = i
                    fail[2] = number
                    fail[3] = c
                    return True
                w = np.int64(values[j])
                w = _INF if w >= NO_MATE else w + later
                rows_of[count] = j
                worths[count] = w
                depths[count] = d if (d >= _INF or later == 0) else d - 1
                count += 1
                if w > outcome:
                    outcome = w
            if outcome < v:  # this attempt mates faster than the value says
                fail[0] = _FASTER
                fail[1] = i
                fail[2] = number
                fail[3] = outcome
                return True
            if not upper and d > 0:  # (no mate within 0 moves needs nothing)
                # the answer that keeps this attempt from mating within d: one refuted
                # that far already if there is one, else the one of least value
                chosen, least_worth = -1, _INF + 1
                for c in range(count):
                    if worths[c] > d or worths[c] >= _INF:
                        if done_to[rows_of[c]] >= depths[c] or asked[rows_of[c]] >= depths[c]:
                            chosen, least_worth = c, -1
                        elif worths[c] < least_worth:
                            chosen, least_worth = c, worths[c]
                if chosen < 0:
                    fail[0] = _FASTER
                    fail[1] = i
                    fail[2] = number
                    fail[3] = outcome
                    return True
                j = rows_of[chosen]
                if depths[chosen] > 0 and depths[chosen] > asked[j]:
                    asked[j] = depths[chosen]
                    if not flags[j] & 1:
                        flags[j] |= 1
                        _push(queue, ends, j << 1)
            if outcome < best:
                best, best_count = outcome, count
                for c in range(count):
                    best_children[c] = rows_of[c]
        if v < _INF and best != v:  # no attempt mates within the value
            fail[0] = _SLOWER
            fail[1] = i
            fail[3] = best
            return True
        if upper and v < _INF:
            for c in range(best_count):  # the mate that fast rests on these
                j = best_children[c]
                if not flags[j] & 4:
                    flags[j] |= 6
                    _push(queue, ends, (j << 1) | 1)
    return ends[0] >= ends[1]


def warm_up() -> None:
    """Compile (or load) every kernel on the 3 x 3 board (called by compile_kernels)."""
    keys = np.array([[6, 0, 1 << 2]], dtype=np.uint64)
    with contextlib.suppress(Refuted):
        confirm(ValueTable(3, 3, "R", keys, np.array([1], np.int32)), [(6, 0, 1 << 2)])


# -- the board: symmetries, the table sorted for look-up -------------------------------


def _symmetries(rows: int, cols: int) -> Any:
    """``perm[g, s]``: the image of square ``s`` under the board's symmetry ``g`` (8 on
    a square board, 4 otherwise)."""
    maps = [lambda r, f: (r, f), lambda r, f: (rows - 1 - r, f),
            lambda r, f: (r, cols - 1 - f), lambda r, f: (rows - 1 - r, cols - 1 - f)]
    if rows == cols:
        maps += [lambda r, f: (f, r), lambda r, f: (cols - 1 - f, r),
                 lambda r, f: (f, rows - 1 - r), lambda r, f: (cols - 1 - f, rows - 1 - r)]
    return np.array([[(lambda rf: rf[0] * cols + rf[1])(m(s // cols, s % cols))
                      for s in range(rows * cols)] for m in maps], dtype=np.int64)  # fmt: skip


@dataclass
class _Board:
    rows: int
    cols: int
    queen: bool
    code: Any
    reply: Any
    near: Any
    perm: Any
    least: Any
    group: Any


_BOARDS: dict[tuple[int, int, str], _Board] = {}


def _board(rows: int, cols: int, piece: str) -> _Board:
    key = (rows, cols, piece)
    if key not in _BOARDS:
        n = rows * cols
        code = np.full((n, n, n), OCCUPIED, dtype=np.int8)
        reply = np.zeros((n, n, n), dtype=np.uint64)
        _referee(rows, cols, piece == "Q", code, reply)
        near = np.zeros(n, dtype=np.uint64)
        for s in range(n):
            for t in range(n):
                if max(abs(s // cols - t // cols), abs(s % cols - t % cols)) <= 1:
                    near[s] |= np.uint64(1 << t)
        perm = _symmetries(rows, cols)
        men = np.arange(n * n)
        images = perm[:, men // n] * n + perm[:, men % n]  # (g, men): the men's images
        least = images.min(axis=0)
        group = ((images == least) * (1 << np.arange(len(perm)))[:, None]).sum(axis=0)
        _BOARDS[key] = _Board(rows, cols, piece == "Q", code, reply, near, perm, least, group)
    return _BOARDS[key]


def confirm(
    table: ValueTable, roots: list[tuple[int, int, int]], deadline: Deadline | None = None
) -> tuple[list[int], int]:
    """Check the table's values on every metaposition ``roots`` need (module doc); the
    value of each root (:data:`NO_MATE` for none) and how many metapositions were
    checked. :class:`Refuted` if the table does not hold there."""
    rows, cols, n = table.rows, table.cols, table.rows * table.cols
    if n > INTERPRETED_SQUARES or len(table) > INTERPRETED_TABLE:
        compile_kernels(__name__)  # else plain Python, compiled by run_sliced if it lasts
    board = _board(rows, cols, table.piece)
    keys = np.asarray(table.keys, dtype=np.uint64).reshape(-1, 3)
    values = np.asarray(table.values, dtype=np.int64)
    if len(keys) != len(values):
        raise Refuted(f"the table has {len(keys)} metapositions and {len(values)} values")
    if len(keys) and (keys[:, :2].max() >= n or (keys[:, 0] == keys[:, 1]).any()):
        raise Refuted("the table has a metaposition whose men are not on the board apart")
    men = (keys[:, 0] * n + keys[:, 1]).astype(np.int64)
    order = np.lexsort((keys[:, 2], men))
    men, beliefs, values = men[order], keys[order, 2].copy(), values[order]
    same = (men[1:] == men[:-1]) & (beliefs[1:] == beliefs[:-1])
    if same.any():
        where = int(np.argmax(same))
        raise Refuted(f"the table holds {_fen(table, men[where], beliefs[where])} twice")
    offset = np.searchsorted(men, np.arange(n * n + 1)).astype(np.int64)
    flags = np.zeros(len(values), dtype=np.int8)
    asked = np.full(len(values), -1, dtype=np.int64)
    done_to = np.full(len(values), -1, dtype=np.int64)
    queue = np.zeros(2 * len(values) + 2, dtype=np.int64)  # a ring: each row waits once a bound
    ends = np.zeros(2, dtype=np.int64)
    fail = np.zeros(4, dtype=np.int64)
    found = []
    for king, square, belief in roots:
        j = _find(king, square, np.uint64(belief), n, board.perm, board.least, board.group, offset, beliefs)
        if j < 0:
            raise Refuted(f"{_fen(table, king * n + square, belief)}: not in the table")
        found.append(j)
        value = int(values[j])
        claim = _INF if value >= NO_MATE else value - 1  # no mate within one move less
        if claim > asked[j]:
            asked[j] = claim
            if not flags[j] & 1:
                flags[j] |= 1
                queue[ends[1]], ends[1] = j << 1, ends[1] + 1
        if not flags[j] & 4:
            flags[j] |= 6
            queue[ends[1]], ends[1] = (j << 1) | 1, ends[1] + 1
    b = board

    def step(budget: int) -> bool:
        return _walk(budget, rows, cols, b.queen, b.code, b.reply, b.near, b.perm, b.least,
                     b.group, offset, men, beliefs, values, queue, ends, flags, asked, done_to,
                     fail) or bool(fail[0])  # fmt: skip

    run_sliced(step, deadline, __name__, first=1 << 10)
    if fail[0]:
        raise Refuted(_failure(table, board, men, beliefs, values, fail))
    return [int(min(values[j], NO_MATE)) for j in found], int(((done_to >= 0) | (flags & 4 != 0)).sum())


def _fen(table: ValueTable, men: int, belief: int) -> str:
    """A metaposition's one-line form (the checker's own writing of it)."""
    n = table.rows * table.cols
    king, piece = int(men) // n, int(men) % n
    rows = []
    single = bin(int(belief)).count("1") == 1
    for r in reversed(range(table.rows)):
        text, empty = "", 0
        for f in range(table.cols):
            s = r * table.cols + f
            mark = "K" if s == king else table.piece if s == piece else (
                ("k" if single else "?") if int(belief) >> s & 1 else ".")
            if mark == ".":
                empty += 1
                continue
            text += (str(empty) if empty else "") + mark
            empty = 0
        rows.append(text + (str(empty) if empty else ""))
    return "/".join(rows)


def _attempt(table: ValueTable, board: _Board, men: int, number: int) -> str:
    """The name of attempt ``number`` (the walk's order: king steps, then slides)."""
    n, cols = table.rows * table.cols, table.cols
    k, p = int(men) // n, int(men) % n
    names = []
    for dr, df in ((1, 1), (1, 0), (1, -1), (0, 1), (0, -1), (-1, 1), (-1, 0), (-1, -1)):
        r, f = k // cols + dr, k % cols + df
        if 0 <= r < table.rows and 0 <= f < cols and r * cols + f != p:
            names.append(f"K{'abcdefgh'[f]}{r + 1}")
    steps = ((1, 0), (-1, 0), (0, 1), (0, -1)) + (((1, 1), (1, -1), (-1, 1), (-1, -1)) if board.queen else ())
    for dr, df in steps:
        r, f = p // cols + dr, p % cols + df
        while 0 <= r < table.rows and 0 <= f < cols and r * cols + f != k:
            names.append(f"{table.piece}{'abcdefgh'[f]}{r + 1}")
            r, f = r + dr, f + df
    return names[number] if 0 <= number < len(names) else f"attempt {number}"


def _failure(table: ValueTable, board: _Board, men: Any, beliefs: Any, values: Any, fail: Any) -> str:
    what, i, number, detail = (int(x) for x in fail)
    where = _fen(table, men[i], beliefs[i])
    value = int(values[i])
    said = "no forced mate" if value >= NO_MATE else f"value {value}"
    if what == _ZERO:
        return f"{where}: value {value}, but White needs a move to mate"
    if what == _BAD:
        return f"{where}: a square of the black king where White's men stand"
    if what == _SHORT:
        return f"{where}: {said}, short of the {detail} moves a refutation needs from it"
    if what == _SLOWER:
        return f"{where}: {said}, but no attempt mates within it (the best takes {detail})"
    attempt = _attempt(table, board, men[i], number)
    if what == _MISSING:
        answer = "illegal" if detail == 5 else _NAMES[detail]
        return f"{where}: after {attempt} ({answer}) White is at a metaposition the table lacks"
    faster = "never" if detail >= _INF else f"within {detail}"
    return f"{where}: {said}, but {attempt} mates {faster} moves"
