"""Exact token swapping, compiled: the IDA* of :mod:`~pyasp_games.routing.swapping` as a
kernel that runs in slices (:mod:`pyasp_games.engines.compiled`).

The search is the same: depth-first under ``f = g + max(ceil(D / 2), n - c)`` (``D`` the
pebbles' total distance to their targets, ``c`` the cycles of the arrangement), budgets
two apart (every schedule has the arrangement's parity), only the lexicographically
least order of commuting swaps, never a swap that cancels with its earlier copy across
commuting swaps, children tried best bound first. Three more things:

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

The whole path lives in arrays (the arrangement, each depth's sorted children and the
next one to try, the distance sum, cycles and hash at each depth), so a slice of at
most ``budget`` nodes returns and the next one resumes; the first slices run as Python
on lists, the rest compiled (:func:`~pyasp_games.engines.compiled.run_sliced`).

>>> from pyasp_games.engines.limits import Limits
>>> from pyasp_games.routing.model import Instance
>>> from pyasp_games.routing.specs import graph_spec
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

from pyasp_games.engines.compiled import is_compiled, kernel, run_sliced
from pyasp_games.engines.limits import Deadline, LimitReached
from pyasp_games.routing.model import Instance, cycle_count

Swap = tuple[int, int]

# positions in the state array
_DEPTH, _BOUND, _NODES, _PHASE, _CUT = range(5)
_SEARCHING, _FOUND, _EXHAUSTED = 0, 1, 2

#: Slots of the duplicate table once compiled (a power of two; two int64 arrays of this
#: size, 16 MiB); the interpreted start uses :data:`FIRST_SLOTS`.
TABLE_SLOTS = 1 << 20
FIRST_SLOTS = 1 << 12


@kernel
def _search(n, m, eu, ew, dist, zob, levels, nlevels, width, detour, s, cand, cand_dc, ncand,
            pos, took, total, cycles, key, tkey, tdepth, state, budget):  # fmt: skip
    """One slice of the depth-first search under ``state[_BOUND]``: at most ``budget``
    nodes. Depth ``d`` has ``ncand[d]`` children ``cand[d * m + i]`` (edges, best first;
    ``ncand[d] < 0``: not generated yet) of which ``pos[d]`` were tried; ``took[d]`` is
    the edge that led to depth ``d``. Sets ``state[_PHASE]`` to ``_FOUND`` (the schedule
    is ``took[1..depth]``) or ``_EXHAUSTED``."""
    d = state[_DEPTH]
    bound = state[_BOUND]
    nodes = state[_NODES]
    cut = state[_CUT]
    mask = len(tkey) - 1
    steps = 0
    while True:
        if ncand[d] < 0:  # generate the children of depth d, sorted by their bound
            count = 0
            base = d * m
            room = bound - d - 1  # swaps left after this one
            for e in range(m):
                u = eu[e]
                w = ew[e]
                tu = s[u]
                tw = s[w]
                new_total = (total[d] + dist[w * n + tu] - dist[u * n + tu]
                             + dist[u * n + tw] - dist[w * n + tw])  # fmt: skip
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
                i = count  # insertion by bound (stable: edge order among equals)
                while i > 0 and cand_dc[base + i - 1] // 4 > h:
                    cand[base + i] = cand[base + i - 1]
                    cand_dc[base + i] = cand_dc[base + i - 1]
                    i -= 1
                cand[base + i] = e
                cand_dc[base + i] = 4 * h + dc + 1  # bound and cycle change in one
                count += 1
            ncand[d] = count
            pos[d] = 0
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
        i = d * m + pos[d]
        pos[d] += 1
        e = cand[i]
        dc = cand_dc[i] % 4 - 1
        u = eu[e]
        w = ew[e]
        tu = s[u]
        tw = s[w]
        h2 = (key[d] ^ zob[u * n + tu] ^ zob[w * n + tw]
              ^ zob[u * n + tw] ^ zob[w * n + tu])  # fmt: skip
        slot = h2 & mask
        if tkey[slot] == h2 and tdepth[slot] < d + 1:  # reached before with fewer swaps
            cut += 1
            continue
        new_total = (total[d] + dist[w * n + tu] - dist[u * n + tu]
                     + dist[u * n + tw] - dist[w * n + tw])  # fmt: skip
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
        tkey[slot] = h2
        tdepth[slot] = d + 1
        total[d + 1] = new_total
        cycles[d + 1] = cycles[d] + dc
        key[d + 1] = h2
        d += 1
        took[d] = e
        ncand[d] = -1
        nodes += 1
        if cycles[d] == n:
            state[_PHASE] = _FOUND
            break
        steps += 1
        if steps >= budget:
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


class CompiledSwapSearch:
    """The arrays of one instance's search (lists while interpreted, numpy compiled)."""

    def __init__(self, inst: Instance, slots: int = TABLE_SLOTS) -> None:
        self.slots = slots
        g = inst.graph
        n, m = len(g), len(g.edges)
        self.n, self.m, self.edges = n, m, list(g.edges)
        state0 = list(inst.state)
        total0 = sum(g.distances[v][t] for v, t in enumerate(state0))
        cycles0 = cycle_count(state0)
        depth = self.start_bound(total0, n, cycles0) + 3  # grown by _reach as budgets grow
        rng = random.Random(0x5EED)
        zob = [rng.getrandbits(62) for _ in range(n * n)]
        key0 = 0
        for v, t in enumerate(state0):
            key0 ^= zob[v * n + t]
        self.depth = depth
        levels, nlevels, self.width, self.detour = path_levels(g)
        self.arrays: dict[str, Any] = {
            "levels": levels, "nlevels": nlevels,
            "eu": [u for u, _ in self.edges], "ew": [w for _, w in self.edges],
            "dist": [d for row in g.distances for d in row], "zob": zob, "s": state0,
            "cand": [0] * (depth * m), "cand_dc": [0] * (depth * m), "ncand": [-1] * depth,
            "pos": [0] * depth, "took": [0] * depth,
            "total": [total0] + [0] * (depth - 1), "cycles": [cycles0] + [0] * (depth - 1),
            "key": [key0] + [0] * (depth - 1), "tkey": [-1] * min(slots, FIRST_SLOTS),
            "tdepth": [0] * min(slots, FIRST_SLOTS),
            "state": [0] * 5,
        }  # fmt: skip
        self.start = self.start_bound(total0, n, cycles0)
        self.solved = cycles0 == n

    @staticmethod
    def start_bound(total: int, n: int, cycles: int) -> int:
        """``max(ceil(D / 2), n - c)`` rounded up to the arrangement's parity."""
        h = max((total + 1) // 2, n - cycles)
        return h + (n - cycles - h) % 2

    def _reach(self, bound: int) -> None:
        """Grow the per-depth arrays to hold a path of ``bound`` swaps."""
        if bound + 2 <= self.depth:
            return
        grow = bound + 2 - self.depth
        a = self.arrays
        for name, per in (("cand", self.m), ("cand_dc", self.m), ("ncand", 1), ("pos", 1),
                          ("took", 1), ("total", 1), ("cycles", 1), ("key", 1)):  # fmt: skip
            if isinstance(a[name], list):
                a[name] = a[name] + [0] * (grow * per)
            else:
                import numpy as np

                a[name] = np.concatenate([a[name], np.zeros(grow * per, np.int64)])
        self.depth += grow

    def _to_numpy(self) -> None:
        """Move the arrays to numpy for the compiled kernel; the duplicate table grows to
        its full size (emptied: what it forgets costs pruning, never an answer)."""
        import numpy as np

        self.arrays = {k: np.array(v, dtype=np.int64) if isinstance(v, list) else v
                       for k, v in self.arrays.items()}  # fmt: skip
        self.arrays["tkey"] = np.full(self.slots, -1, np.int64)
        self.arrays["tdepth"] = np.zeros(self.slots, np.int64)

    @property
    def state(self) -> Any:
        return self.arrays["state"]

    def iterate(self, bound: int, deadline: Deadline | None) -> bool:
        """Search every schedule of ``bound`` swaps: true when one is found."""
        a = self.arrays
        st = a["state"]
        st[_DEPTH], st[_BOUND], st[_PHASE] = 0, bound, _SEARCHING
        a["ncand"][0] = -1

        def step(budget: int) -> bool:
            if is_compiled(__name__) and isinstance(self.arrays["s"], list):
                self._to_numpy()
            b = self.arrays
            _search(self.n, self.m, b["eu"], b["ew"], b["dist"], b["zob"], b["levels"],
                    b["nlevels"], self.width, self.detour, b["s"], b["cand"],
                    b["cand_dc"], b["ncand"], b["pos"], b["took"], b["total"], b["cycles"],
                    b["key"], b["tkey"], b["tdepth"], b["state"], budget)  # fmt: skip
            return int(b["state"][_PHASE]) != _SEARCHING

        run_sliced(step, deadline, __name__, first=1 << 10, stats=self.statistics)
        return int(self.arrays["state"][_PHASE]) == _FOUND

    def schedule(self) -> list[Swap]:
        d = int(self.state[_DEPTH])
        return [self.edges[int(e)] for e in self.arrays["took"][1 : d + 1]]

    def statistics(self) -> dict[str, Any]:
        return {"nodes": int(self.state[_NODES]), "cut": int(self.state[_CUT])}

    def run(self, deadline: Deadline | None, max_length: int | None = None,
            known: Sequence[Swap] | None = None) -> Optimum:  # fmt: skip
        """Budgets from the lower bound up, two apart: the first schedule found is
        optimal. With ``known`` (a schedule of ``U`` swaps) the budgets stop at ``U - 2``:
        all exhausted, ``known`` is optimal. Budgets beyond ``max_length`` are not
        searched (then ``swaps`` is ``None``). Raises
        :class:`~pyasp_games.engines.limits.LimitReached` with the statistics and the
        bound proved so far."""
        out = Optimum(None, self.start)
        if self.solved:
            out.swaps = []
            return out
        bound = self.start
        while max_length is None or bound <= max_length:
            if known is not None and len(known) <= bound:
                out.swaps, out.proved, out.how = list(known), len(known), "known"
                break
            self._reach(bound)
            out.budgets.append(bound)
            try:
                found = self.iterate(bound, deadline)
            except LimitReached:
                stats = {**self.statistics(), "lower_bound": self.start, "bound": bound}
                raise LimitReached({**stats, "iterations": len(out.budgets)}) from None
            if found:
                out.swaps, out.proved = self.schedule(), bound
                break
            bound += 2
            out.proved = bound
        out.iterations = len(out.budgets)
        out.nodes, out.cut = int(self.state[_NODES]), int(self.state[_CUT])
        return out


def optimal_swaps(inst: Instance, deadline: Deadline | None, max_length: int | None = None,
                  known: Sequence[Swap] | None = None,
                  slots: int = TABLE_SLOTS) -> Optimum:  # fmt: skip
    """An optimal schedule of ``inst`` (``swap`` moves) with its proof (see
    :meth:`CompiledSwapSearch.run`)."""
    return CompiledSwapSearch(inst, slots).run(deadline, max_length, known)


def warm_up() -> None:
    """Compile (or load from numba's cache) the kernel with the argument types of a
    search (called by :func:`~pyasp_games.engines.compiled.compile_kernels`)."""
    from pyasp_games.routing.specs import graph_spec

    search = CompiledSwapSearch(Instance(graph_spec("path:3"), (2, 1, 0), "swap"), slots=4)
    search._to_numpy()
    search.run(None)
