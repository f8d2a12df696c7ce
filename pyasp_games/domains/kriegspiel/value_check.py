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
#: White's pieces, by letter (the kernels' codes are the indices).
KINDS = "RQBN"
#: The referee's answers, as codes: 0 silent; a check, the sum of its ways (1 the rank, 2
#: the file, 4 the longer diagonal, 8 the shorter, 16 a knight: a double check sums two;
#: named in alphabetical order, ``check-knight+long-diagonal``); then mate, stalemate, a
#: piece taken, and a square White's men stand on.
_WAYS = ("rank", "file", "long-diagonal", "short-diagonal", "knight")
_ANSWERS = 32
MATE, STALEMATE, CAPTURE, OCCUPIED = 32, 33, 34, 35
#: What a failed walk reports (``fail[0]``).
_MISSING, _DUPLICATE, _FASTER, _SLOWER, _ZERO, _BAD, _SHORT = 1, 2, 3, 4, 5, 6, 7


@dataclass
class ValueTable:
    """Metapositions (rows of ``keys``: White's king, its piece (two pieces: their
    placement, ``first * squares + second``), the belief bitmask; the squares numbered
    ``rank * cols + file``) and their claimed values; ``file``: where it was read from,
    if it was. ``piece``: ``R``, ``Q``, ``BB`` or ``BN``."""

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
def _reaches(rows: int, cols: int, kind: int, p: int, occupied: np.uint64, target: int) -> int:
    """How the piece of ``kind`` (0 rook, 1 queen, 2 bishop, 3 knight) on ``p`` reaches
    ``target``, its lines stopping at the first square of ``occupied`` (White's men, which
    it defends): 0 not at all, else the check's way: 1 along the rank, 2 the file, 4 the
    longer diagonal through ``target`` (or one as long), 8 the shorter, 16 a knight's jump."""
    pr, pf = p // cols, p % cols
    tr, tf = target // cols, target % cols
    if kind == 3:
        ar, af = abs(tr - pr), abs(tf - pf)
        return 16 if (ar == 1 and af == 2) or (ar == 2 and af == 1) else 0
    for d in range(4 if kind == 2 else 0, 4 if kind == 0 else 8):
        dr = (1, -1, 0, 0, 1, 1, -1, -1)[d]
        df = (0, 0, 1, -1, 1, -1, 1, -1)[d]
        r, f = pr + dr, pf + df
        while 0 <= r < rows and 0 <= f < cols:
            if r == tr and f == tf:
                if dr == 0:
                    return 1
                if df == 0:
                    return 2
                up = 1 + min(rows - 1 - tr, cols - 1 - tf) + min(tr, tf)  # the a1-h8 way
                down = 1 + min(rows - 1 - tr, tf) + min(tr, cols - 1 - tf)  # the a8-h1 way
                mine = up if dr == df else down
                return 4 if mine >= max(up, down) else 8
            if (occupied >> np.uint64(r * cols + f)) & np.uint64(1):
                break
            r, f = r + dr, f + df
    return 0


@kernel
def _referee(rows: int, cols: int, kinds: Any, code: Any, reply: Any, lo: int, hi: int) -> None:
    """For White's king on every ``k`` from ``lo`` to ``hi`` and its pieces on every
    placement ``p`` (one piece: its square; two: ``first * squares + second``) after its
    move, and the black king on every ``b``: the referee's answer (``code``) and Black's
    legal steps (``reply``)."""
    n = rows * cols
    m = kinds.shape[0]
    for k in range(lo, hi):
        kr, kf = k // cols, k % cols
        for p in range(code.shape[1]):
            a = p if m == 1 else p // n
            c2 = -1 if m == 1 else p % n
            if a == k or c2 == k or a == c2:  # noqa: SIM109 - numba compiles comparisons
                continue  # (no such placement: every square OCCUPIED)
            occupied = (np.uint64(1) << np.uint64(k)) | (np.uint64(1) << np.uint64(a))
            if m == 2:
                occupied |= np.uint64(1) << np.uint64(c2)
            for b in range(n):
                if (occupied >> np.uint64(b)) & np.uint64(1):
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
                        if max(abs(r - kr), abs(f - kf)) <= 1 or _reaches(rows, cols, kinds[0], a, occupied, t):
                            continue  # White's king, next to it, or the first piece's lines
                        if m == 2 and _reaches(rows, cols, kinds[1], c2, occupied, t):
                            continue  # the second piece's
                        steps |= np.uint64(1) << np.uint64(t)
                        count += 1
                        if t == a:
                            takes = True  # an undefended piece: the black king may take it
                        if t == c2:
                            takes = True
                check = _reaches(rows, cols, kinds[0], a, occupied, b)
                if m == 2:
                    check |= _reaches(rows, cols, kinds[1], c2, occupied, b)
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
def _find(k: int, p: int, belief: np.uint64, n: int, places: int, perm: Any, least: Any,
          group: Any, offset: Any, beliefs: Any) -> int:
    """The row of the table holding the least symmetric image of ``(k, p, belief)``,
    or -1."""
    men = k * places + p
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
def _moved(rows: int, cols: int, kinds: Any, k: int, p: int, a: int) -> int:
    """Attempt ``a`` from White's king ``k`` and pieces' placement ``p``, as the king's
    new square times the placements plus their new placement; -1 where there is none.
    The order: the king's 8 steps, then each piece's 56 (a slide: 8 directions of up to
    7 squares, stopping before White's men; a knight: its 8 jumps)."""
    n = rows * cols
    m = kinds.shape[0]
    places = n if m == 1 else n * n
    first = p if m == 1 else p // n
    second = -1 if m == 1 else p % n
    if a < 8:
        r = k // cols + (1, 1, 1, 0, 0, -1, -1, -1)[a]
        f = k % cols + (1, 0, -1, 1, -1, 1, 0, -1)[a]
        if not (0 <= r < rows and 0 <= f < cols) or r * cols + f == first or r * cols + f == second:
            return -1
        return (r * cols + f) * places + p
    i, rest = (a - 8) // 56, (a - 8) % 56
    if i >= m:
        return -1
    kind = kinds[i]
    sq = first if i == 0 else second
    if kind == 3:
        if rest >= 8:
            return -1
        r = sq // cols + (1, 2, 2, 1, -1, -2, -2, -1)[rest]
        f = sq % cols + (2, 1, -1, -2, -2, -1, 1, 2)[rest]
        if not (0 <= r < rows and 0 <= f < cols):
            return -1
        t = r * cols + f
        if t == k or t == first or t == second:  # noqa: SIM109 - numba compiles comparisons
            return -1
    else:
        dd, step = rest // 7, rest % 7 + 1
        if dd >= (8 if kind == 1 else 4):
            return -1
        d = dd + 4 if kind == 2 else dd
        dr, df = (1, -1, 0, 0, 1, 1, -1, -1)[d], (0, 0, 1, -1, 1, -1, 1, -1)[d]
        r, f = sq // cols, sq % cols
        for _ in range(step):
            r, f = r + dr, f + df
            if not (0 <= r < rows and 0 <= f < cols):
                return -1
            t = r * cols + f
            if t == k or t == first or t == second:  # noqa: SIM109 - numba compiles comparisons
                return -1
        t = r * cols + f
    if m == 1:
        return k * places + t
    x, y = (t, second) if i == 0 else (first, t)
    if kinds[0] == kinds[1] and y < x:  # two bishops: the lower square first
        x, y = y, x
    return k * places + x * n + y


@kernel
def _walk(budget: int, rows: int, cols: int, kinds: Any, code: Any, reply: Any, near: Any,
          perm: Any, least: Any, group: Any, offset: Any, men: Any, beliefs: Any, values: Any,
          queue: Any, ends: Any, flags: Any, asked: Any, done_to: Any, fail: Any) -> bool:
    """Check up to ``budget`` entries of the ring ``queue`` (``ends``: head and tail; an
    entry is a row and 1 if its upper bound is asked, 0 its lower), adding those the
    asked bound rests on; true when done. ``flags``: 1 and 2, the row waits in the queue
    for its lower or upper bound, 4: its upper bound is taken care of; ``asked``: the
    most moves within which a mate from the row is to be refuted (``done_to``: refuted
    so far). A failure: ``fail`` = (what, row, attempt number, detail)."""
    n = rows * cols
    places = code.shape[1]
    masks = np.zeros(_ANSWERS, dtype=np.uint64)
    rows_of = np.zeros(_ANSWERS + 1, dtype=np.int64)
    worths = np.zeros(_ANSWERS + 1, dtype=np.int64)
    depths = np.zeros(_ANSWERS + 1, dtype=np.int64)
    best_children = np.zeros(_ANSWERS + 1, dtype=np.int64)
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
        k, p = men[i] // places, men[i] % places
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
        for a in range(8 + 56 * kinds.shape[0]):  # the king's steps, then each piece's moves
            after = _moved(rows, cols, kinds, k, p, a)
            if after < 0:
                continue
            k2, p2 = after // places, after % places
            illegal = belief & near[k2] if a < 8 else np.uint64(0)
            number += 1
            legal = belief ^ illegal
            if legal == 0:
                continue  # illegal wherever the black king is: nothing learnt, nothing done
            for c in range(_ANSWERS):
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
            for c in range(_ANSWERS + 1):
                if c < _ANSWERS and masks[c]:
                    j = _find(k2, p2, masks[c], n, places, perm, least, group, offset, beliefs)
                    later = 1  # a move made: one move less to go
                elif c == _ANSWERS and illegal:
                    j = _find(k, p, illegal, n, places, perm, least, group, offset, beliefs)
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
    """Compile (or load) every kernel on the 3 x 3 board (called by compile_kernels), with
    one piece and with two (a two-piece table's walk takes arrays of other shapes)."""
    keys = np.array([[6, 0, 1 << 2]], dtype=np.uint64)
    with contextlib.suppress(Refuted):
        confirm(ValueTable(3, 3, "R", keys, np.array([1], np.int32)), [(6, 0, 1 << 2)])
    pair = np.array([[0, 1 * 9 + 2, 1 << 8]], dtype=np.uint64)  # Ka1 Bb1 Nc1, the king on c3
    with contextlib.suppress(Refuted):
        confirm(ValueTable(3, 3, "BN", pair, np.array([1], np.int32)), [(0, 11, 1 << 8)])


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
    kinds: Any
    code: Any
    reply: Any
    near: Any
    perm: Any
    least: Any
    group: Any

    @property
    def places(self) -> int:
        return int(self.code.shape[1])


_BOARDS: dict[tuple[int, int, str], _Board] = {}


def _kinds(piece: str) -> Any:
    if not piece or len(piece) > 2 or set(piece) - set(KINDS):
        raise Refuted(f"{piece!r} is no ending this checker knows (R, Q, BB, BN)")
    return np.array([KINDS.index(x) for x in piece], dtype=np.int64)


def _board(rows: int, cols: int, piece: str, deadline: Deadline | None = None) -> _Board:
    key = (rows, cols, piece)
    if key not in _BOARDS:
        n = rows * cols
        kinds = _kinds(piece)
        places = n ** len(piece)
        code = np.full((n, places, n), OCCUPIED, dtype=np.int8)
        reply = np.zeros((n, places, n), dtype=np.uint64)
        done = [0]

        def step(budget: int) -> bool:  # a few king squares at a time (8 x 8 KBNK: n^4 entries)
            hi = min(n, done[0] + budget)
            _referee(rows, cols, kinds, code, reply, done[0], hi)
            done[0] = hi
            return hi >= n

        run_sliced(step, deadline, __name__, first=1)
        near = np.zeros(n, dtype=np.uint64)
        for s in range(n):
            for t in range(n):
                if max(abs(s // cols - t // cols), abs(s % cols - t % cols)) <= 1:
                    near[s] |= np.uint64(1 << t)
        perm = _symmetries(rows, cols)
        men = np.arange(n * places)
        king, placed = men // places, men % places
        if len(piece) == 1:
            moved = perm[:, placed]
        else:  # each piece's image; two bishops: the lower square first
            first, second = perm[:, placed // n], perm[:, placed % n]
            if piece[0] == piece[1]:
                first, second = np.minimum(first, second), np.maximum(first, second)
            moved = first * n + second
        images = perm[:, king] * places + moved  # (g, men): the men's images
        least = images.min(axis=0)
        group = ((images == least) * (1 << np.arange(len(perm)))[:, None]).sum(axis=0)
        _BOARDS[key] = _Board(rows, cols, kinds, code, reply, near, perm, least, group)
    return _BOARDS[key]


def confirm(
    table: ValueTable, roots: list[tuple[int, int, int]], deadline: Deadline | None = None
) -> tuple[list[int], int]:
    """Check the table's values on every metaposition ``roots`` need (module doc); the
    value of each root (:data:`NO_MATE` for none) and how many metapositions were
    checked. :class:`Refuted` if the table does not hold there."""
    rows, cols, n = table.rows, table.cols, table.rows * table.cols
    if n > INTERPRETED_SQUARES or len(table) > INTERPRETED_TABLE or len(table.piece) > 1:
        # (two pieces: the referee's table alone has n^4 entries, a second in Python on 4 x 4)
        compile_kernels(__name__)  # else plain Python, compiled by run_sliced if it lasts
    board = _board(rows, cols, table.piece, deadline)
    places = board.places
    keys = np.asarray(table.keys, dtype=np.uint64).reshape(-1, 3)
    values = np.asarray(table.values, dtype=np.int64)
    if len(keys) != len(values):
        raise Refuted(f"the table has {len(keys)} metapositions and {len(values)} values")
    if len(keys) and (keys[:, 0].max() >= n or keys[:, 1].max() >= places):
        raise Refuted("the table has a metaposition whose men are not on the board")
    men = (keys[:, 0] * places + keys[:, 1]).astype(np.int64)
    order = np.lexsort((keys[:, 2], men))
    men, beliefs, values = men[order], keys[order, 2].copy(), values[order]
    same = (men[1:] == men[:-1]) & (beliefs[1:] == beliefs[:-1])
    if same.any():
        where = int(np.argmax(same))
        raise Refuted(f"the table holds {_fen(table, men[where], beliefs[where])} twice")
    offset = np.searchsorted(men, np.arange(n * places + 1)).astype(np.int64)
    flags = np.zeros(len(values), dtype=np.int8)
    asked = np.full(len(values), -1, dtype=np.int64)
    done_to = np.full(len(values), -1, dtype=np.int64)
    queue = np.zeros(2 * len(values) + 2, dtype=np.int64)  # a ring: each row waits once a bound
    ends = np.zeros(2, dtype=np.int64)
    fail = np.zeros(4, dtype=np.int64)
    found = []
    for king, square, belief in roots:
        if not (0 <= king < n and 0 <= square < places):
            raise Refuted(f"({king}, {square}) places no men on the board")
        j = _find(king, square, np.uint64(belief), n, places, board.perm, board.least, board.group, offset, beliefs)
        if j < 0:
            raise Refuted(f"{_fen(table, king * places + square, belief)}: not in the table")
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
        return _walk(budget, rows, cols, b.kinds, b.code, b.reply, b.near, b.perm, b.least,
                     b.group, offset, men, beliefs, values, queue, ends, flags, asked, done_to,
                     fail) or bool(fail[0])  # fmt: skip

    run_sliced(step, deadline, __name__, first=1 << 10)
    if fail[0]:
        raise Refuted(_failure(table, board, men, beliefs, values, fail))
    return [int(min(values[j], NO_MATE)) for j in found], int(((done_to >= 0) | (flags & 4 != 0)).sum())


def _squares_of(table: ValueTable, men: int) -> tuple[int, list[int]]:
    """White's king and its pieces' squares from the walk's number of the men."""
    n = table.rows * table.cols
    places = n ** len(table.piece)
    king, placed = int(men) // places, int(men) % places
    return king, [placed] if len(table.piece) == 1 else [placed // n, placed % n]


def _fen(table: ValueTable, men: int, belief: int) -> str:
    """A metaposition's one-line form (the checker's own writing of it)."""
    king, pieces = _squares_of(table, men)
    rows = []
    single = bin(int(belief)).count("1") == 1
    for r in reversed(range(table.rows)):
        text, empty = "", 0
        for f in range(table.cols):
            s = r * table.cols + f
            mark = "K" if s == king else next(
                (letter for letter, q in zip(table.piece, pieces, strict=True) if q == s),
                ("k" if single else "?") if int(belief) >> s & 1 else ".")  # fmt: skip
            if mark == ".":
                empty += 1
                continue
            text += (str(empty) if empty else "") + mark
            empty = 0
        rows.append(text + (str(empty) if empty else ""))
    return "/".join(rows)


def _attempt(table: ValueTable, board: _Board, men: int, number: int) -> str:
    """The name of attempt ``number`` (the walk's order: king steps, then each piece's)."""
    n, cols, places = table.rows * table.cols, table.cols, board.places
    k, p = int(men) // places, int(men) % places
    _king, pieces = _squares_of(table, men)
    names = []
    for a in range(8 + 56 * len(table.piece)):
        after = _moved(table.rows, cols, board.kinds, k, p, a)
        if after < 0:
            continue
        k2, placed = divmod(int(after), places)
        if a < 8:
            names.append(f"K{'abcdefgh'[k2 % cols]}{k2 // cols + 1}")
            continue
        i = (a - 8) // 56
        moved = [placed] if len(table.piece) == 1 else [placed // n, placed % n]
        target = next(s for s in moved if s not in pieces)
        names.append(f"{table.piece[i]}{'abcdefgh'[target % cols]}{target // cols + 1}")
    return names[number] if 0 <= number < len(names) else f"attempt {number}"


def _answer_name(code: int) -> str:
    """An answer's name from its code (module doc)."""
    if code == 0:
        return "silent"
    return "check-" + "+".join(sorted(w for bit, w in enumerate(_WAYS) if code >> bit & 1))


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
        answer = "illegal" if detail == _ANSWERS else _answer_name(detail)
        return f"{where}: after {attempt} ({answer}) White is at a metaposition the table lacks"
    faster = "never" if detail >= _INF else f"within {detail}"
    return f"{where}: {said}, but {attempt} mates {faster} moves"
