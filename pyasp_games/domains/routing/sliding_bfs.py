"""The sliding puzzle's state graph, searched breadth-first with two bits a state.

A sliding arrangement on a graph of ``n`` vertices is a permutation ``s`` (``s[v]``: the
target of the pebble on ``v``) whose blank is the pebble with target ``home``. Its index
is ``p * block + rank``: ``p`` the blank's vertex, ``rank`` the lexicographic rank of
the other ``n - 1`` pebbles' targets read in vertex order (a Lehmer code, ``block =
(n - 1)!``). On a bipartite graph every slide is a transposition that moves the blank to
the other colour, so a reachable arrangement's parity is fixed by where its blank is:
the tiles' order has one parity per blank vertex (:func:`tile_parities`), the ranks
``2k`` and ``2k + 1`` (the last two tiles swapped) are one reachable and one not, and
the index drops the last bit (``block = (n - 1)! / 2``): the 3 x 4 board's 239,500,800
arrangements are 239,500,800 indices, 60 MB of two-bit entries. A slide between
consecutive vertices (along a board's row) keeps the other pebbles' order: only the
blank's part of the index changes.

The breadth-first search is Korf's (2008, "Linear-time disk-based implicit graph
search", in memory): an entry is 0 (not reached) or ``depth % 3 + 1``. Layer ``d`` is
expanded by one scan of the table: each arrangement of ``d``'s value is unranked, every
slide applied and ranked, and a neighbour not reached gets ``d + 1``'s value (a
neighbour is one layer away at most, so the three values tell the layers ``d - 1``,
``d`` and ``d + 1`` apart). The layer that reaches nothing new is the last: its
arrangements are the antipodes (the first :data:`LISTED` indices of each layer are
kept), and an optimal plan of each is read back from the table alone, one slide to a
neighbour of the layer before at a time.

The scan is a kernel (:mod:`pyasp_games.engines.compiled`): it runs a slice of at most
``budget`` bytes and expansions, the deadline read between slices; the table is a
``bytearray`` allocated before the first slice (a memory cap fails there, as
:class:`MemoryError`), seen by the compiled kernel as a numpy view of the same bytes.

>>> from pyasp_games.domains.routing.specs import graph_spec
>>> found = sliding_layers(graph_spec("grid:2x3"), 5)
>>> found.counts[:6], found.eccentricity, sum(found.counts)
([1, 2, 3, 5, 6, 7], 21, 360)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pyasp_games.engines.compiled import is_compiled, kernel, run_sliced
from pyasp_games.engines.graphs import Graph
from pyasp_games.engines.limits import Deadline

#: The first arrangements of each layer the search keeps: the antipodes it lists.
LISTED = 16

# positions in the state array
_POS, _NEW, _KEPT = range(3)


def _has_value() -> list[int]:
    """``table[v * 256 + b]``: whether byte ``b`` holds a two-bit entry equal to ``v``."""
    return [
        int(any((b >> (2 * k)) & 3 == v for k in range(4))) for v in range(4) for b in range(256)
    ]


@kernel
def _unrank(index, n, half, block, req, home, fact, s):  # fmt: skip
    """Write the arrangement of ``index`` into ``s`` (the blank's pebble ``home``);
    return the blank's vertex."""
    m = n - 1
    p = index // block
    r = index - p * block
    if half:
        r *= 2
    unused = 0  # the targets not placed yet, in order, four bits each
    for v in range(m - 1, -1, -1):
        unused = (unused << 4) | v
    parity = 0
    c = 0
    for i in range(m):
        f = fact[m - 1 - i]
        d = r // f
        r -= d * f
        if half and i == m - 2:  # rank 2k's digit here is 0: the parity chooses it
            d = (parity & 1) ^ req[p]
        parity += d
        low = (1 << (4 * d)) - 1
        v = (unused >> (4 * d)) & 15  # the d-th unused target, taken out
        unused = (unused & low) | ((unused >> (4 * d + 4)) << (4 * d))
        if c == p:
            s[c] = home
            c += 1
        s[c] = v + 1 if v >= home else v
        c += 1
    if c == p:
        s[c] = home
    return p


@kernel
def _rank(s, q, n, half, block, home, fact):  # fmt: skip
    """The index of arrangement ``s`` whose blank is on ``q``."""
    m = n - 1
    unused = (1 << m) - 1
    rank = 0
    i = 0
    for c in range(n):
        if c == q:
            continue
        v = s[c]
        if v > home:
            v -= 1
        x = unused & ((1 << v) - 1)  # the unused targets below v: a population count
        x = x - ((x >> 1) & 0x55555555)
        x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
        x = (x + (x >> 4)) & 0x0F0F0F0F
        x = ((x * 0x01010101) & 0xFFFFFFFF) >> 24
        rank += x * fact[m - 1 - i]
        unused &= ~(1 << v)
        i += 1
    if half:
        rank >>= 1
    return q * block + rank


@kernel
def _expand(bits, has, n, half, block, adj_start, adj, req, home, fact, now, then, st, kept,
            s, budget):  # fmt: skip
    """One slice of a layer's scan: from byte ``st[_POS]``, every arrangement whose entry
    is ``now`` has its neighbours not reached marked ``then`` (counted in ``st[_NEW]``,
    the first ``len(kept)`` of them kept). Stops after about ``budget`` units of work
    (a byte scanned is one, an arrangement expanded eight) or at the table's end."""
    pos = st[_POS]
    end = len(bits)
    work = 0
    row = now * 256
    while pos < end and work < budget:
        b = bits[pos]
        work += 1
        if has[row + b] == 0:
            pos += 1
            continue
        for k in range(4):
            if (b >> (2 * k)) & 3 != now:
                continue
            work += 8
            index = pos * 4 + k
            p = _unrank(index, n, half, block, req, home, fact, s)
            for j in range(adj_start[p], adj_start[p + 1]):
                q = adj[j]
                s[p] = s[q]  # slide the pebble on q into the blank
                s[q] = home
                if q == p + 1 or q == p - 1:  # the other pebbles keep their order
                    other = index + (q - p) * block
                else:
                    other = _rank(s, q, n, half, block, home, fact)
                at = other >> 2
                shift = (other & 3) * 2
                if (bits[at] >> shift) & 3 == 0:
                    bits[at] = bits[at] | (then << shift)
                    if st[_KEPT] < len(kept):
                        kept[st[_KEPT]] = other
                        st[_KEPT] += 1
                    st[_NEW] += 1
                s[q] = s[p]
                s[p] = home
        pos += 1
    st[_POS] = pos
    return pos >= end


@dataclass
class Layers:
    """What the search from one solved arrangement found.

    Attributes
    ----------
    home : int
        The blank's vertex in the solved arrangement.
    counts : list of int
        How many arrangements lie at each distance (``counts[0] == 1``).
    antipodes : list of tuple of int
        The first :data:`LISTED` arrangements at the largest distance (``s[v]``: the
        target of the pebble on ``v``).
    plans : list of list of tuple of int
        An optimal plan of each antipode: the slides, as edges, that solve it.
    indices : int
        The size of the index space searched (``n!`` or ``n! / 2``).
    """

    home: int
    counts: list[int]
    antipodes: list[tuple[int, ...]] = field(default_factory=list)
    plans: list[list[tuple[int, int]]] = field(default_factory=list)
    indices: int = 0

    @property
    def eccentricity(self) -> int:
        """The largest distance: the most slides a solvable arrangement needs."""
        return len(self.counts) - 1


def bipartite_colours(graph: Graph) -> list[int] | None:
    """Each vertex's side of a bipartite (connected) graph, else ``None``."""
    colour = [-1] * len(graph)
    colour[0] = 0
    queue = [0]
    for u in queue:
        for w in graph.adj[u]:
            if colour[w] < 0:
                colour[w] = colour[u] ^ 1
                queue.append(w)
            elif colour[w] == colour[u]:
                return None
    return colour


def tile_parities(graph: Graph, home: int) -> list[int] | None:
    """Per blank vertex ``p``, the parity of the tiles' order (as :func:`_rank` reads them)
    of every arrangement reachable from the solved one; ``None`` on a graph that is not
    bipartite (no such invariant: every index is searched).

    The arrangement's parity is the blank's colour change; dropping the blank's pebble
    (``home``) from position ``p`` changes the number of inversions by ``home + p``
    modulo 2."""
    colour = bipartite_colours(graph)
    if colour is None or len(graph) < 3:
        return None
    return [colour[p] ^ colour[home] ^ ((home + p) & 1) for p in range(len(graph))]


def index_space(graph: Graph) -> int:
    """How many two-bit entries the table of ``graph`` has: ``n!``, or ``n! / 2`` on a
    bipartite graph of at least 3 vertices."""
    n = len(graph)
    half = n >= 3 and bipartite_colours(graph) is not None
    return math.factorial(n) // (2 if half else 1)


def table_bytes(graph: Graph) -> int:
    """The bytes of the search's table (two bits an index)."""
    return -(-index_space(graph) // 4)


class _Search:
    """The arrays of one search (Python lists until the kernels are compiled)."""

    def __init__(self, graph: Graph, home: int) -> None:
        n = len(graph)
        req = tile_parities(graph, home)
        self.n, self.home, self.half = n, home, int(req is not None)
        self.block = math.factorial(n - 1) // (2 if self.half else 1)
        self.indices = self.block * n
        self.bits: Any = bytearray(-(-self.indices // 4))
        starts = [0]
        for row in graph.adj:
            starts.append(starts[-1] + len(row))
        self.arrays: dict[str, Any] = {
            "has": _has_value(),
            "adj_start": starts,
            "adj": [w for row in graph.adj for w in row],
            "req": req or [0] * n,
            "fact": [math.factorial(k) for k in range(n)],
            "st": [0, 0, 0],
            "kept": [0] * LISTED,
            "s": [0] * n,
        }
        self.compiled = False

    def numpy(self) -> None:
        """The arrays as numpy arrays, the table a view of the same bytes."""
        import numpy as np

        self.arrays = {k: np.array(v, dtype=np.int64) for k, v in self.arrays.items()}
        self.bits = np.frombuffer(self.bits, dtype=np.uint8)
        self.compiled = True

    def layer(self, depth: int, deadline: Deadline | None, counts: list[int]) -> int:
        """Expand layer ``depth`` (one scan of the table, in slices): how many
        arrangements it reached that nothing had reached before."""
        now, then = depth % 3 + 1, (depth + 1) % 3 + 1
        st = self.arrays["st"]
        st[_POS] = st[_NEW] = st[_KEPT] = 0

        def step(budget: int) -> bool:
            if is_compiled(__name__) and not self.compiled:
                self.numpy()
            b = self.arrays
            return bool(_expand(self.bits, b["has"], self.n, self.half, self.block,
                                b["adj_start"], b["adj"], b["req"], self.home, b["fact"], now,
                                then, b["st"], b["kept"], b["s"], budget))  # fmt: skip

        def stats() -> dict[str, Any]:
            return {"depth": depth, "layers": counts[:], "home": self.home}

        run_sliced(step, deadline, __name__, first=1 << 12, stats=stats)
        return int(self.arrays["st"][_NEW])

    def entry(self, index: int) -> int:
        return (int(self.bits[index >> 2]) >> ((index & 3) * 2)) & 3

    def unrank(self, index: int) -> tuple[list[int], int]:
        a = self.arrays
        s = a["s"]
        p = _unrank(index, self.n, self.half, self.block, a["req"], self.home, a["fact"], s)
        return [int(x) for x in s], int(p)

    def rank(self, state: list[int], blank: int) -> int:
        a = self.arrays
        s = a["s"]
        s[:] = state
        return int(_rank(s, blank, self.n, self.half, self.block, self.home, a["fact"]))


def sliding_layers(
    graph: Graph,
    home: int,
    deadline: Deadline | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Layers:
    """Breadth-first search of every arrangement reachable from the solved one whose
    blank is on ``home``: the layers' sizes, the first :data:`LISTED` antipodes and an
    optimal plan of each (see the module docstring). ``progress(depth, count)`` is told
    each layer. Raises :class:`~pyasp_games.engines.limits.LimitReached` past
    ``deadline``, :class:`MemoryError` where the table does not fit."""
    n = len(graph)
    if n == 1:
        return Layers(home, [1], [(0,)], [[]], 1)
    search = _Search(graph, home)
    start = search.rank(list(range(n)), home)
    search.bits[start >> 2] |= 1 << ((start & 3) * 2)  # depth 0: entry 1
    counts = [1]
    last = [start]
    depth = 0
    while True:
        new = search.layer(depth, deadline, counts)
        if new == 0:
            break
        counts.append(new)
        a = search.arrays
        last = [int(x) for x in a["kept"][: min(int(a["st"][_KEPT]), LISTED)]]
        depth += 1
        if progress is not None:
            progress(depth, new)
    antipodes, plans = [], []
    for index in sorted(last):
        state, blank = search.unrank(index)
        antipodes.append(tuple(state))
        plans.append(_descent(search, graph, state, blank, depth))
    return Layers(home, counts, antipodes, plans, search.indices)


def _descent(search: _Search, graph: Graph, state: list[int], blank: int, depth: int) -> list[tuple[int, int]]:
    """An optimal plan of ``state`` (at ``depth``) read from the table: each slide to a
    neighbour whose entry is the layer before's (neighbours are one layer apart at most,
    so the entry tells that layer from the two others)."""
    plan = []
    state = list(state)
    home = search.home
    for d in range(depth, 0, -1):
        want = (d - 1) % 3 + 1
        for q in graph.adj[blank]:
            state[blank], state[q] = state[q], home
            if search.entry(search.rank(state, q)) == want:
                plan.append((min(blank, q), max(blank, q)))
                blank = q
                break
            state[q], state[blank] = state[blank], home
        else:  # pragma: no cover - a table the search filled always has a descent
            raise AssertionError("no neighbour in the layer before")
    return plan


def warm_up() -> None:
    """Compile (or load from numba's cache) the kernels with the argument types of a
    search (called by :func:`~pyasp_games.engines.compiled.compile_kernels`)."""
    from pyasp_games.domains.routing.specs import graph_spec

    sliding_layers(graph_spec("grid:2x2"), 0)
