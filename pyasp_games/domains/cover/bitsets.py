"""Algorithm X over bit sets, compiled: the ``bitset`` backend's search and memoised count.

The same Algorithm X as :mod:`pyasp_games.domains.cover.dancing_links` -- the same column
rule, the same tie-breaking, hence the same search tree and the same covers in the
same order -- over bit sets in arrays of 64-bit words: an option is the set of its
items (``rows``), an item the set of options that hold it (``columns``), and the
state of a node is two bit sets (the covered items, the live options). Choosing an
option is one AND-NOT with its precomputed conflict set (``keep``, the complement
of the options sharing an item with it; up to :attr:`BitsetCover.CONFLICT_BYTES`
of them, else one AND-NOT per item), undoing it is moving up one level of the
stack, and the smallest column is found by popcounts of ``column & live``. A node
scans items x options / 64 words, so small dense matrices (the 6 x 10 pentomino
tiling: 72 items, 2056 options) are fast and huge sparse ones (the Garey-Johnson
instances of ``reduce chain``, 288,920 options) slow, where dancing links touch
only the live part: ``dlx`` stays the default.

The live options are determined by the covered items (an option is live iff it
misses every covered item), so the covered items alone name a subproblem:
:meth:`BitsetCover.count` memoises the count of each finished subproblem in a hash
table keyed by them (Knuth's memo cache of Algorithm X, as in his DXZ) and takes
the stored count when a subproblem comes back. Compiled as explained in
:mod:`pyasp_games.engines.compiled` (from the first node: the words are numpy's
unsigned 64-bit integers, whose wrapping arithmetic Python's integers do not
have); the pure-Python version of this search, over Python's big integers, ran
2-2.5x behind ``xcover`` on the pentomino count.

>>> bits = BitsetCover(6, [(0, 1, 2), (3, 4, 5), (1, 2, 3), (0, 1, 4)])
>>> list(bits.search())
[[1, 0]]
>>> BitsetCover(8, [(0, 1), (2, 3), (0, 2), (1, 3), (4, 5), (6, 7), (4, 6), (5, 7)]).count()
4
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from pyasp_games.domains.cover.dancing_links import flatten
from pyasp_games.engines.compiled import compile_kernels, kernel, run_sliced
from pyasp_games.engines.limits import Deadline, LimitReached

# positions in the state array
_DEPTH, _PHASE, _NODES, _COVERS, _HITS, _STORED, _OVERFLOW = range(7)
_ENTER, _ADVANCE, _DONE = 0, 1, 2
_EXHAUSTED, _FOUND, _PAUSED = 0, 1, 2

_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_MIX = np.uint64(0x9E3779B97F4A7C15)
_COUNT_MAX = np.iinfo(np.int64).max


@kernel
def _popcount(x):
    x = x - ((x >> np.uint64(1)) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    x = x + (x >> np.uint64(8))
    x = x + (x >> np.uint64(16))
    x = x + (x >> np.uint64(32))
    return np.int64(x & np.uint64(127))


@kernel
def _lowest(x):
    """The index of the lowest set bit of ``x`` (not 0)."""
    low = x ^ (x & (x - _ONE))
    return _popcount(low - _ONE)


@kernel
def _choose_column(columns, cov, live, full):
    """The first uncovered item with the fewest live options, and their number
    (``-1, 0`` when every item is covered)."""
    best = -1
    size = np.int64(1) << 62
    for w in range(cov.size):
        left = full[w] & ~cov[w]
        while left != _ZERO and size > 1:
            i = w * 64 + _lowest(left)
            left = left & (left - _ONE)
            k = 0
            column = columns[i]
            for v in range(live.size):
                k += _popcount(column[v] & live[v])
            if k < size:
                best = i
                size = k
        if size <= 1:
            break
    if best < 0:
        return best, 0
    return best, size


@kernel
def _choose(r, rows, columns, keep, flat, starts, cov, live, cov_out, live_out):
    """The node below ``(cov, live)`` once option ``r`` is chosen."""
    for w in range(cov.size):
        cov_out[w] = cov[w] | rows[r, w]
    if keep.shape[0] > 0:
        for v in range(live.size):
            live_out[v] = live[v] & keep[r, v]
    else:
        for v in range(live.size):
            live_out[v] = live[v]
        for k in range(starts[r], starts[r + 1]):
            column = columns[flat[k]]
            for v in range(live.size):
                live_out[v] &= ~column[v]


@kernel
def _complete(cov, full):
    for w in range(cov.size):  # noqa: SIM110 - numba compiles loops, not all() of a generator
        if cov[w] != full[w]:
            return False
    return True


@kernel
def _search(rows, columns, keep, flat, starts, full, cov, live, untried, picked, state,
            budget, stop_at_cover):  # fmt: skip
    """Algorithm X for at most ``budget`` nodes from ``state``: ``_FOUND`` with the cover
    in ``picked[:state[_DEPTH]]`` (when ``stop_at_cover``), ``_EXHAUSTED`` or ``_PAUSED``.

    Node ``d`` of the current path has the bit sets ``cov[d]``, ``live[d]``; a node
    that branches keeps its options still to try in ``untried[d]``. ``_ADVANCE`` at
    depth ``d``: the node at ``d`` is finished, try the next option of node ``d - 1``.
    """
    d = state[_DEPTH]
    phase = state[_PHASE]
    nodes = state[_NODES]
    found = state[_COVERS]
    steps = 0
    while True:
        if phase == _ENTER:
            if steps >= budget:
                break
            steps += 1
            nodes += 1
            phase = _ADVANCE
            if _complete(cov[d], full):
                found += 1
                if stop_at_cover:
                    state[_DEPTH] = d
                    state[_PHASE] = phase
                    state[_NODES] = nodes
                    state[_COVERS] = found
                    return _FOUND
                continue
            best, size = _choose_column(columns, cov[d], live[d], full)
            if size > 0:
                for v in range(live.shape[1]):
                    untried[d, v] = columns[best, v] & live[d, v]
                d += 1  # as if the node's first child had finished: try its first option
            continue
        # advance: the next untried option of the deepest node that has one
        if d == 0:
            phase = _DONE
            break
        level = d - 1
        r = -1
        for v in range(untried.shape[1]):
            x = untried[level, v]
            if x != _ZERO:
                r = v * 64 + _lowest(x)
                untried[level, v] = x & (x - _ONE)
                break
        if r < 0:
            d = level
            continue
        picked[level] = r
        _choose(r, rows, columns, keep, flat, starts, cov[level], live[level], cov[d], live[d])
        phase = _ENTER
    state[_DEPTH] = d
    state[_PHASE] = phase
    state[_NODES] = nodes
    state[_COVERS] = found
    return _EXHAUSTED if phase == _DONE else _PAUSED


@kernel
def _slot(keys, counts, key):
    """The slot of ``key`` in the open-addressing table ``keys`` (its own, or the empty
    one, ``counts`` -1, where it would go): a multiplicative hash of its words, linear
    probing."""
    h = _ZERO
    for w in range(key.size):
        h = (h ^ key[w]) * _MIX
        h = h ^ (h >> np.uint64(29))
    mask = keys.shape[0] - 1
    s = np.int64(h & np.uint64(mask))
    while True:
        if counts[s] < 0:
            return s
        same = True
        for w in range(key.size):
            if keys[s, w] != key[w]:
                same = False
                break
        if same:
            return s
        s = (s + 1) & mask


@kernel
def _count(rows, columns, keep, flat, starts, full, cov, live, untried, totals, keys, counts,
           room, state, budget):  # fmt: skip
    """Count the covers by the search of :func:`_search`, memoising finished subproblems
    (up to ``room`` of them) in ``keys``/``counts``; the count ends in ``state[_COVERS]``."""
    d = state[_DEPTH]
    phase = state[_PHASE]
    nodes = state[_NODES]
    hits = state[_HITS]
    stored = state[_STORED]
    steps = 0
    while True:
        if phase == _ENTER:
            if steps >= budget:
                break
            steps += 1
            nodes += 1
            value = -1
            if _complete(cov[d], full):
                value = 1
            elif stored > 0:
                s = _slot(keys, counts, cov[d])
                if counts[s] >= 0:
                    value = counts[s]
                    hits += 1
            if value < 0:
                best, size = _choose_column(columns, cov[d], live[d], full)
                if size == 0:
                    value = 0
                else:
                    for v in range(live.shape[1]):
                        untried[d, v] = columns[best, v] & live[d, v]
                    totals[d] = 0
                    d += 1
                    phase = _ADVANCE
                    continue
            # a finished node: its count goes to its parent
            if d == 0:
                state[_COVERS] = value
                phase = _DONE
                break
            if totals[d - 1] > _COUNT_MAX - value:
                state[_OVERFLOW] = 1
                phase = _DONE
                break
            totals[d - 1] += value
            phase = _ADVANCE
            continue
        level = d - 1
        r = -1
        for v in range(untried.shape[1]):
            x = untried[level, v]
            if x != _ZERO:
                r = v * 64 + _lowest(x)
                untried[level, v] = x & (x - _ONE)
                break
        if r < 0:  # every option of node ``level`` tried: remember its count
            total = totals[level]
            if stored < room:
                s = _slot(keys, counts, cov[level])
                if counts[s] < 0:
                    keys[s] = cov[level]
                    counts[s] = total
                    stored += 1
            if level == 0:
                state[_COVERS] = total
                phase = _DONE
                break
            if totals[level - 1] > _COUNT_MAX - total:
                state[_OVERFLOW] = 1
                phase = _DONE
                break
            totals[level - 1] += total
            d = level
            continue
        _choose(r, rows, columns, keep, flat, starts, cov[level], live[level], cov[d], live[d])
        phase = _ENTER
    state[_DEPTH] = d
    state[_PHASE] = phase
    state[_NODES] = nodes
    state[_HITS] = hits
    state[_STORED] = stored
    return _EXHAUSTED if phase == _DONE else _PAUSED


def _bits(sets: Sequence[Sequence[int]], width: int) -> np.ndarray:
    """One row of ``ceil(width / 64)`` words per set: bit ``i`` of a row = ``i`` in the set."""
    out = np.zeros((len(sets), (width + 63) // 64), np.uint64)
    for r, members in enumerate(sets):
        for i in members:
            out[r, i >> 6] |= np.uint64(1) << np.uint64(i & 63)
    return out


class BitsetCover:
    """An exact-cover matrix as bit sets: ``items`` columns, one row per option."""

    #: The most bytes of precomputed conflict sets (``keep``); beyond, choosing an option
    #: clears its items' columns one by one.
    CONFLICT_BYTES = 1 << 24
    #: The most subproblems :meth:`count` remembers.
    MEMO_ENTRIES = 1 << 21
    #: The most bytes the memo's table may take (it shrinks for wide item sets).
    MEMO_BYTES = 1 << 27

    def __init__(self, items: int, options: Sequence[Sequence[int]]) -> None:
        self.items = items
        self.options = len(options)
        compile_kernels(__name__)  # bit sets are numpy's words: no interpreted start
        flat, starts = flatten(items, options)
        self.flat, self.starts = np.array(flat, np.int64), np.array(starts, np.int64)
        members: list[list[int]] = [[] for _ in range(items)]
        for r, option in enumerate(options):
            for e in option:
                members[e].append(r)
        self.rows = _bits(options, items)
        self.columns = _bits(members, len(options))
        words = self.columns.shape[1]
        if len(options) * words * 8 <= self.CONFLICT_BYTES:
            self.keep = np.empty((len(options), words), np.uint64)
            for r, option in enumerate(options):
                conflicts = np.zeros(words, np.uint64)
                for e in option:
                    conflicts |= self.columns[e]
                self.keep[r] = ~conflicts
        else:
            self.keep = np.empty((0, words), np.uint64)
        self.full = _bits([range(items)], items)[0]
        depth = min(items, len(options)) + 1
        self.cov = np.zeros((depth + 1, self.rows.shape[1]), np.uint64)
        self.live = np.zeros((depth + 1, words), np.uint64)
        self.live[0] = _bits([range(len(options))], len(options))[0]
        self.untried = np.zeros((depth + 1, words), np.uint64)
        self.picked = np.zeros(depth + 1, np.int64)
        self.state = np.zeros(7, np.int64)
        # a node scans items x options bits: start with one node per slice on huge matrices
        self.first = max(1, min(256, 10**7 // max(1, items * words)))

    @property
    def nodes(self) -> int:
        return int(self.state[_NODES])

    @property
    def memo_hits(self) -> int:
        return int(self.state[_HITS])

    def search(self, deadline: Deadline | None = None) -> Iterator[list[int]]:
        """Yield every exact cover as a list of option indices (in the order chosen), as
        :meth:`DancingLinks.search <pyasp_games.domains.cover.dancing_links.DancingLinks.search>`
        does; raises :class:`LimitReached` (with the statistics) once ``deadline`` passes."""
        self._start()
        outcome = {"code": _PAUSED}
        arrays = (self.rows, self.columns, self.keep, self.flat, self.starts, self.full,
                  self.cov, self.live, self.untried, self.picked, self.state)  # fmt: skip

        def step(budget: int) -> bool:
            outcome["code"] = _search(*arrays, budget, True)
            return outcome["code"] != _PAUSED

        while self.state[_PHASE] != _DONE:
            run_sliced(step, deadline, __name__, self.first, self.statistics)
            if outcome["code"] == _FOUND:
                yield [int(r) for r in self.picked[: self.state[_DEPTH]]]

    def count(self, deadline: Deadline | None = None) -> int:
        """The number of exact covers, memoising subproblems (see the module doc)."""
        self._start()
        width = self.rows.shape[1]
        entries = min(self.MEMO_ENTRIES, self.MEMO_BYTES // (16 * (width + 1)))
        capacity = 1 << max(1, (2 * entries - 1).bit_length())  # load factor at most 1/2
        keys = np.zeros((capacity, width), np.uint64)
        counts = np.full(capacity, -1, np.int64)
        totals = np.zeros(self.cov.shape[0], np.int64)
        arrays = (self.rows, self.columns, self.keep, self.flat, self.starts, self.full,
                  self.cov, self.live, self.untried, totals, keys, counts, entries, self.state)  # fmt: skip
        run_sliced(lambda budget: _count(*arrays, budget) != _PAUSED, deadline, __name__,
                   self.first, self.statistics)  # fmt: skip
        if self.state[_OVERFLOW]:
            raise LimitReached({**self.statistics(), "limit": "count", "stopped": "more than 2**63 - 1 covers"})
        return int(self.state[_COVERS])

    def _start(self) -> None:
        if self.state[_NODES]:
            raise ValueError("a matrix runs one search (search or count): build another")

    def statistics(self) -> dict[str, Any]:
        return {
            "nodes": self.nodes,
            "items": self.items,
            "options": self.options,
            "memo_hits": self.memo_hits,
        }


def warm_up() -> None:
    """Compile (or load from numba's cache) the kernels with the argument types of a
    search and a count (called by :func:`~pyasp_games.engines.compiled.compile_kernels`)."""
    list(BitsetCover(2, [[0], [1], [0, 1]]).search())
    BitsetCover(2, [[0], [1], [0, 1]]).count()
