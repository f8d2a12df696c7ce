"""Token swapping's depth-first search, one kernel that runs in slices
(:mod:`pyasp_games.engines.compiled`): the exact search (IDA*, :func:`optimal_swaps`) and
the bounded searches of the ``swapper`` bound (:mod:`~pyasp_games.domains.routing.swapping`) are
both :class:`SwapSearch`.

The search: depth-first under ``f = g + max(ceil(D / 2), n - c)`` (``D`` the pebbles'
total distance to their targets: a swap moves two pebbles one edge each; ``c`` the
cycles of the arrangement: a swap changes their number by one), kept up to date swap by
swap; budgets two apart (every schedule has the arrangement's parity); children tried
best bound first. Two sequences that differ only in the order of swaps on disjoint edges
reach the same arrangement, so only one order is searched: the lexicographically least
(Anisimov and Knuth's normal form of a trace: no swap ``a`` may follow ``b u`` with
``a < b`` where ``a`` commutes with ``b`` and with all of ``u``), and a swap that meets
its own earlier copy across commuting swaps (they cancel) is never searched either. The
exact search adds three things; the bound's searches add a node limit instead (at most
about a thousand nodes each: :class:`NodeLimit`):

- **Pebbles at home in the way** (a stronger bound, computed as a child is entered).
  Count moves: a schedule of ``T`` swaps makes ``2T`` pebble moves, at least ``D``. Take
  a pebble ``p`` away from home and a level of its shortest paths (the vertices ``k``
  edges from it on one) whose every vertex holds a pebble at home: ``p`` either passes
  through that level, and one of those pebbles leaves home and comes back (2 more
  moves), or avoids it (2 more moves for ``p`` in a bipartite graph, where every walk
  has the parity of the distance; 1 more in any graph). With such (pebble, level) pairs
  whose pebbles are distinct and levels disjoint, the extra moves belong to distinct
  pebbles: ``2T >= D + e * pairs`` (``e`` = 2 or 1), so
  ``T >= ceil((D + e * pairs) / 2)``. The pairs are chosen greedily (fewer than the
  most pairs only weakens the bound).

- **Duplicate arrangements.** A table (Zobrist hashing, a fixed number of slots) keeps
  the fewest swaps with which each arrangement was reached; a path that reaches one with
  more is cut. That is sound whatever else prunes: the arrangement is then two swaps
  closer to the start than this path says, so a schedule through here would have a twin
  two swaps shorter, which the budget before (exhausted) would have found. A slot taken
  by another arrangement only loses pruning, never an answer (the full 64-bit key is
  compared).
- **A known schedule ends the search early.** Given a schedule of length ``U`` (the
  ``swapper`` bound's), budgets stop at ``U - 2``: once it is exhausted, ``U`` is optimal.

The whole path lives in arrays (the arrangement, each depth's sorted children stacked
on the ones before and the next one to try, the distance sum, cycles and hash at each
depth), so a slice of at most ``budget`` nodes returns and the next one resumes; the
first slices run as Python on lists, the rest compiled
(:func:`~pyasp_games.engines.compiled.run_sliced`): a search of a few nodes (most of the
bound's) never loads numba. A search is iterative, as deep as its budget (no recursion
limit), and its stack of children grows as the search needs it.

>>> from pyasp_games.engines.limits import Limits
>>> from pyasp_games.domains.routing.model import Instance
>>> from pyasp_games.domains.routing.specs import graph_spec
>>> inst = Instance(graph_spec("grid:3x3"), (8, 7, 6, 5, 4, 3, 2, 1, 0), "swap")
>>> found = optimal_swaps(inst, Limits().deadline())
>>> len(found.swaps), found.proved, found.iterations
(16, 16, 3)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pyasp_games.domains.routing.model import Instance, cycle_count
from pyasp_games.engines.compiled import is_compiled, kernel, run_sliced
from pyasp_games.engines.limits import Deadline, LimitReached

Swap = tuple[int, int]

# positions in the state array
_DEPTH, _BOUND, _NODES, _PHASE, _CUT = range(5)
_SEARCHING, _FOUND, _EXHAUSTED, _ROOM = 0, 1, 2, 3

#: Slots of the duplicate table once compiled (a power of two; two int64 arrays of this
#: size, 16 MiB); the interpreted start uses :data:`FIRST_SLOTS`.
TABLE_SLOTS = 1 << 20
FIRST_SLOTS = 1 << 12


@kernel
def _search(n, m, eu, ew, dist, zob, levels, nlevels, width, detour, s, cand, cand_dc, ncand,
            pos, took, total, cycles, key, tkey, tdepth, state, budget):  # fmt: skip
    """One slice of the depth-first search under ``state[_BOUND]``: it enters at most
    ``budget`` nodes and stops before trying one more. The children of depth ``d`` are
    ``cand[pos[d]:ncand[d]]`` still to try (edges, best first; ``ncand[d] < 0``: not
    generated yet), stacked above those of depth ``d - 1``; ``took[d]`` is the edge that
    led to depth ``d``; ``dist[v][t]`` the distance of ``v`` to ``t``. The duplicate table
    (``tkey``, ``tdepth``) prunes only when it has slots, the bound of pebbles at home in
    the way only when ``detour > 0``. Sets ``state[_PHASE]`` to ``_FOUND`` (the schedule
    is ``took[1..depth]``), ``_EXHAUSTED``, or ``_ROOM`` (``cand`` must grow first)."""
    d = state[_DEPTH]
    bound = state[_BOUND]
    nodes = state[_NODES]
    cut = state[_CUT]
    table = len(tkey) > 0
    mask = len(tkey) - 1
    steps = 0
    h2 = 0
    slot = 0
    while True:
        if ncand[d] < 0:  # generate the children of depth d, sorted by their bound
            base = ncand[d - 1] if d > 0 else 0
            if base + m > len(cand):
                state[_PHASE] = _ROOM
                break
            count = 0
            room = bound - d - 1  # swaps left after this one
            for e in range(m):
                u = eu[e]
                w = ew[e]
                tu = s[u]
                tw = s[w]
                du = dist[u]
                dw = dist[w]
                new_total = total[d] + dw[tu] - du[tu] + du[tw] - dw[tw]
                if (new_total + 1) // 2 > room:
                    continue
                dc = -1  # a swap merges two cycles, or splits one
                v = tu
                while v != u:
                    if v == w:
                        dc = 1
                        break
                    v = s[v]
                h = n - cycles[d] - dc
                if (new_total + 1) // 2 > h:
                    h = (new_total + 1) // 2
                if h > room:
                    continue
                # lexicographically least order of commuting swaps, no cancelling pair
                ok = True
                k = d
                while k > 0:
                    f = took[k]
                    if f == e:
                        ok = False
                        break
                    if eu[f] == u or eu[f] == w or ew[f] == u or ew[f] == w:
                        break
                    if f > e:
                        ok = False
                        break
                    k -= 1
                if not ok:
                    continue
                i = base + count  # insertion by bound (stable: edge order among equals)
                while i > base and cand_dc[i - 1] // 4 > h:
                    cand[i] = cand[i - 1]
                    cand_dc[i] = cand_dc[i - 1]
                    i -= 1
                cand[i] = e
                cand_dc[i] = 4 * h + dc + 1  # bound and cycle change in one
                count += 1
            ncand[d] = base + count
            pos[d] = base
        if pos[d] >= ncand[d]:  # every child tried: back up one swap
            if d == 0:
                state[_PHASE] = _EXHAUSTED
                break
            e = took[d]
            u = eu[e]
            w = ew[e]
            t = s[u]
            s[u] = s[w]
            s[w] = t
            d -= 1
            continue
        if steps >= budget:  # the slice is done: the next one tries this child
            break
        i = pos[d]
        pos[d] += 1
        e = cand[i]
        dc = cand_dc[i] % 4 - 1
        u = eu[e]
        w = ew[e]
        tu = s[u]
        tw = s[w]
        if table:
            h2 = (key[d] ^ zob[u * n + tu] ^ zob[w * n + tw]
                  ^ zob[u * n + tw] ^ zob[w * n + tu])  # fmt: skip
            slot = h2 & mask
            if tkey[slot] == h2 and tdepth[slot] < d + 1:  # reached before with fewer swaps
                cut += 1
                continue
        du = dist[u]
        dw = dist[w]
        new_total = total[d] + dw[tu] - du[tu] + du[tw] - dw[tw]
        s[u] = tw
        s[w] = tu
        if detour > 0 and new_total > 0:  # pebbles at home in the way (module docstring)
            home = 0
            for v in range(n):
                if s[v] == v:
                    home |= 1 << v
            used = 0
            blocked = 0
            for v in range(n):
                if s[v] != v:
                    pair = v * n + s[v]
                    for k in range(nlevels[pair]):
                        level = levels[pair * width + k]
                        if level & home == level and level & used == 0:
                            used |= level
                            blocked += 1
                            break
            if d + 1 + (new_total + detour * blocked + 1) // 2 > bound:
                s[u] = tu
                s[w] = tw
                cut += 1
                continue
        if table:
            tkey[slot] = h2
            tdepth[slot] = d + 1
            key[d + 1] = h2
        total[d + 1] = new_total
        cycles[d + 1] = cycles[d] + dc
        d += 1
        took[d] = e
        ncand[d] = -1
        nodes += 1
        steps += 1
        if cycles[d] == n:
            state[_PHASE] = _FOUND
            break
    state[_DEPTH] = d
    state[_NODES] = nodes
    state[_CUT] = cut


def path_levels(g: Any) -> tuple[list[int], list[int], int, int]:
    """For every pair ``v, t``: the levels of the shortest paths from ``v`` to ``t``
    (the vertices ``k`` edges from ``v`` on one, for ``0 < k < dist(v, t)``), as bit
    masks, fewest vertices first (``levels[(v * n + t) * width + i]``, ``nlevels[v * n +
    t]`` of them); and what passing around a level costs a pebble at least (2 moves in a
    bipartite graph, else 1). No levels (and cost 0) beyond 62 vertices."""
    n = len(g)
    dist = g.distances
    width = max(max(row) for row in dist) if n > 1 else 1
    if n > 62:
        return [0], [0] * (n * n), 1, 0
    levels = [0] * (n * n * width)
    nlevels = [0] * (n * n)
    for v in range(n):
        for t in range(n):
            d = dist[v][t]
            masks = [0] * d
            for x in range(n):
                k = dist[v][x]
                if 0 < k < d and k + dist[x][t] == d:
                    masks[k] |= 1 << x
            found = sorted((mk for mk in masks if mk), key=lambda mk: (mk.bit_count(), mk))
            nlevels[v * n + t] = len(found)
            levels[(v * n + t) * width : (v * n + t) * width + len(found)] = found
    colour = [-1] * n
    colour[0] = 0
    bipartite = True
    for u in sorted(range(n), key=lambda x: dist[0][x]):
        for w in g.adj[u]:
            if colour[w] < 0:
                colour[w] = 1 - colour[u]
            elif colour[w] == colour[u]:
                bipartite = False
    return levels, nlevels, width, 2 if bipartite else 1


@dataclass
class Optimum:
    """What the search proved: an optimal schedule (``None`` when stopped by
    ``max_length``), the proved lower bound (the optimum when a schedule is given), and
    the search's statistics."""

    swaps: list[Swap] | None
    proved: int
    iterations: int = 0
    nodes: int = 0
    cut: int = 0
    budgets: list[int] = field(default_factory=list)
    #: "search" (found at the proved bound) or "known" (the given schedule, every budget
    #: below it exhausted)
    how: str = "search"


class NodeLimit(Exception):
    """A depth-first search would visit more nodes than its limit."""


class SwapSearch:
    """One arrangement's depth-first searches for swap schedules: the kernel's arrays
    (Python lists while interpreted, numpy arrays once compiled) and the driver that runs
    them in slices.

    ``edges``: the swaps searched (default: every edge of ``graph``); ``moved``: the only
    vertices whose pebbles may be away from home, the ends of every edge searched (a
    window's: the search then runs on them alone, so that setting up costs their number,
    not the graph's); ``slots``: the duplicate table's size (0: no table);
    ``detour``: prune by the pebbles at home in the way too. The optimal search uses both
    (:meth:`run`), the swapper's searches of a few nodes neither
    (:mod:`~pyasp_games.domains.routing.swapping`). Nothing is allocated for the kernel before
    the first :meth:`search` (most windows of a schedule are never searched).
    """

    def __init__(self, graph: Any, state: Sequence[int], edges: Sequence[Swap] | None = None,
                 moved: Sequence[int] | None = None, slots: int = 0,
                 detour: bool = False) -> None:  # fmt: skip
        self.graph, self.slots, self.detour = graph, slots, detour
        self.edges = list(graph.edges if edges is None else edges)
        dist = graph.distances
        if moved is None:
            self.vertices: list[int] | None = None
            self.state = list(state)
            self.total = sum(dist[v][t] for v, t in enumerate(self.state))
        else:  # the search runs on the moved vertices alone, numbered in their order
            self.vertices = list(moved)
            local = {v: i for i, v in enumerate(self.vertices)}
            self.state = [local[state[v]] for v in self.vertices]
            self.total = sum(dist[v][state[v]] for v in self.vertices)
        self.n, self.m = len(self.state), len(self.edges)
        self.cycles = cycle_count(self.state)
        #: the start's bound, rounded up to the arrangement's parity
        self.start = self.start_bound(self.total, self.n, self.cycles)
        #: nodes visited (each search's start included); :meth:`search` adds to it
        self.nodes = 0
        self.found: list[Swap] = []
        self.arrays: dict[str, Any] = {}
        self.depth, self.width, self.detour_moves = 0, 1, 0

    @staticmethod
    def start_bound(total: int, n: int, cycles: int) -> int:
        """``max(ceil(D / 2), n - c)`` rounded up to the arrangement's parity (every swap
        changes the number of cycles by one, so a schedule has the parity of ``n - c``)."""
        h = max((total + 1) // 2, n - cycles)
        return h + (n - cycles - h) % 2

    def _build(self) -> None:
        """The kernel's arrays, at their first search."""
        n, m, g = self.n, self.m, self.graph
        if self.vertices is None:
            eu, ew = [u for u, _ in self.edges], [w for _, w in self.edges]
            dist: Any = g.distances
        else:
            local = {v: i for i, v in enumerate(self.vertices)}
            eu, ew = [local[u] for u, _ in self.edges], [local[w] for _, w in self.edges]
            rows = [g.distances[v] for v in self.vertices]
            dist = [[row[t] for t in self.vertices] for row in rows]
        zob, key0 = [0], 0
        if self.slots:
            rng = random.Random(0x5EED)
            zob = [rng.getrandbits(62) for _ in range(n * n)]
            for v, t in enumerate(self.state):
                key0 ^= zob[v * n + t]
        levels, nlevels = [0], [0]
        if self.detour:
            levels, nlevels, self.width, self.detour_moves = path_levels(g)
        self.depth = depth = self.start + 3  # grown by _reach as budgets grow
        table = min(self.slots, FIRST_SLOTS)
        self.arrays = {
            "levels": levels, "nlevels": nlevels, "eu": eu, "ew": ew, "dist": dist, "zob": zob,
            "s": list(self.state), "cand": [0] * (4 * m), "cand_dc": [0] * (4 * m),
            "ncand": [-1] * depth, "pos": [0] * depth, "took": [0] * depth,
            "total": [self.total] + [0] * (depth - 1), "cycles": [self.cycles] + [0] * (depth - 1),
            "key": [key0] + [0] * (depth - 1), "tkey": [-1] * table, "tdepth": [0] * table,
            "state": [0] * 5,
        }  # fmt: skip
        if is_compiled(__name__):
            self._to_numpy()

    def _grow(self, name: str, more: int) -> None:
        a = self.arrays
        if isinstance(a[name], list):
            a[name] = a[name] + [0] * more
        else:
            import numpy as np

            a[name] = np.concatenate([a[name], np.zeros(more, np.int64)])

    def _reach(self, bound: int) -> None:
        """Grow the per-depth arrays to hold a path of ``bound`` swaps."""
        if bound + 2 <= self.depth:
            return
        grow = bound + 2 - self.depth
        for name in ("ncand", "pos", "took", "total", "cycles", "key"):
            self._grow(name, grow)
        self.depth += grow

    def _to_numpy(self) -> None:
        """Move the arrays to numpy for the compiled kernel; the duplicate table grows to
        its full size (emptied: what it forgets costs pruning, never an answer)."""
        import numpy as np

        self.arrays = {k: np.array(v, dtype=np.int64) if not isinstance(v, np.ndarray) else v
                       for k, v in self.arrays.items()}  # fmt: skip
        self.arrays["tkey"] = np.full(self.slots, -1, np.int64)
        self.arrays["tdepth"] = np.zeros(self.slots, np.int64)

    @property
    def kernel_state(self) -> Any:
        return self.arrays["state"] if self.arrays else [0] * 5

    def search(self, budget: int, deadline: Deadline | None, limit: int | None = None) -> bool:
        """Depth-first from the start arrangement: true when a schedule of at most
        ``budget`` swaps routes it (:meth:`schedule`), false when none does. Adds its
        nodes to :attr:`nodes` and raises :class:`NodeLimit` where one more would pass
        ``limit``, :class:`~pyasp_games.engines.limits.LimitReached` past ``deadline``."""
        self.nodes += 1  # the start
        if limit is not None and self.nodes > limit:
            raise NodeLimit
        if self.cycles == self.n:
            self.found = []
            return True
        if not self.arrays:
            self._build()
        self._reach(budget if limit is None else min(budget, limit))
        a = self.arrays
        st = a["state"]
        st[_DEPTH], st[_BOUND], st[_PHASE] = 0, budget, _SEARCHING
        a["ncand"][0] = -1
        a["s"][:] = self.state
        before = self.nodes - int(st[_NODES])  # nodes counted outside the kernel

        def step(slice_budget: int) -> bool:
            if is_compiled(__name__) and isinstance(self.arrays["s"], list):
                self._to_numpy()
            b = self.arrays
            if limit is not None:
                slice_budget = min(slice_budget, limit - before - int(b["state"][_NODES]))
            _search(self.n, self.m, b["eu"], b["ew"], b["dist"], b["zob"], b["levels"],
                    b["nlevels"], self.width, self.detour_moves, b["s"], b["cand"],
                    b["cand_dc"], b["ncand"], b["pos"], b["took"], b["total"], b["cycles"],
                    b["key"], b["tkey"], b["tdepth"], b["state"], slice_budget)  # fmt: skip
            phase = int(b["state"][_PHASE])
            if phase == _ROOM:  # more children than the stack holds: it doubles
                more = max(len(b["cand"]), self.m)
                self._grow("cand", more)
                self._grow("cand_dc", more)
                b["state"][_PHASE] = _SEARCHING
                return False
            if phase != _SEARCHING:
                return True
            if limit is not None and before + int(b["state"][_NODES]) >= limit:
                raise NodeLimit  # the next node would be one too many
            return False

        try:
            run_sliced(step, deadline, __name__, first=1 << 10, stats=self.statistics)
        finally:
            self.nodes = before + int(self.arrays["state"][_NODES])
        if int(self.arrays["state"][_PHASE]) != _FOUND:
            return False
        depth = int(self.arrays["state"][_DEPTH])
        self.found = [self.edges[int(e)] for e in self.arrays["took"][1 : depth + 1]]
        return True

    def schedule(self) -> list[Swap]:
        """The schedule the last search found."""
        return list(self.found)

    def statistics(self) -> dict[str, Any]:
        st = self.kernel_state
        return {"nodes": int(st[_NODES]), "cut": int(st[_CUT])}

    def run(self, deadline: Deadline | None, max_length: int | None = None,
            known: Sequence[Swap] | None = None) -> Optimum:  # fmt: skip
        """Budgets from the lower bound up, two apart: the first schedule found is
        optimal. With ``known`` (a schedule of ``U`` swaps) the budgets stop at ``U - 2``:
        all exhausted, ``known`` is optimal. Budgets beyond ``max_length`` are not
        searched (then ``swaps`` is ``None``). Raises
        :class:`~pyasp_games.engines.limits.LimitReached` with the statistics and the
        bound proved so far."""
        out = Optimum(None, self.start)
        if self.cycles == self.n:
            out.swaps = []
            return out
        bound = self.start
        while max_length is None or bound <= max_length:
            if known is not None and len(known) <= bound:
                out.swaps, out.proved, out.how = list(known), len(known), "known"
                break
            out.budgets.append(bound)
            try:
                found = self.search(bound, deadline)
            except LimitReached:
                stats = {**self.statistics(), "lower_bound": self.start, "bound": bound}
                raise LimitReached({**stats, "iterations": len(out.budgets)}) from None
            if found:
                out.swaps, out.proved = self.schedule(), bound
                break
            bound += 2
            out.proved = bound
        out.iterations = len(out.budgets)
        stats = self.statistics()
        out.nodes, out.cut = stats["nodes"], stats["cut"]
        return out


def optimal_swaps(inst: Instance, deadline: Deadline | None, max_length: int | None = None,
                  known: Sequence[Swap] | None = None,
                  slots: int = TABLE_SLOTS) -> Optimum:  # fmt: skip
    """An optimal schedule of ``inst`` (``swap`` moves) with its proof (see
    :meth:`SwapSearch.run`)."""
    return SwapSearch(inst.graph, inst.state, slots=slots, detour=True).run(
        deadline, max_length, known
    )


def warm_up() -> None:
    """Compile (or load from numba's cache) the kernel with the argument types of a
    search (called by :func:`~pyasp_games.engines.compiled.compile_kernels`)."""
    from pyasp_games.domains.routing.specs import graph_spec

    inst = Instance(graph_spec("path:3"), (2, 1, 0), "swap")
    SwapSearch(inst.graph, inst.state, slots=4, detour=True).run(None)
