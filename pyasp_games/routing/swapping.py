"""Token swapping (one edge a step) on any graph: an exact IDA* and a bound that improves on
the 4-approximation.

Both search sequences of swaps under the admissible bound ``h = max(ceil(D / 2), n - c)``
(``D`` the pebbles' total distance to their targets: a swap moves two pebbles one edge
each; ``c`` the cycles of the arrangement: a swap changes their number by one), kept up to
date swap by swap. Two sequences that differ only in the order of swaps on disjoint edges
reach the same arrangement, so only one order is searched: the lexicographically least
(Anisimov and Knuth's normal form of a trace: no swap ``a`` may follow ``b u`` with
``a < b`` where ``a`` commutes with ``b`` and with all of ``u``), and a swap that meets
its own earlier copy across commuting swaps (they cancel) is never searched either.

- :func:`idastar_swaps`: IDA* from the bound, two at a time (every schedule has the
  arrangement's parity): the first schedule found is optimal, and every budget exhausted
  below it is the proof.
- :func:`bound_swaps`: randomised greedy schedules (in the manner of Miltzow et al. 2016:
  swaps that bring both pebbles closer, preferring those that split a cycle; a directed
  cycle of pebbles that each want the next vertex rotated; else a swap that moves a pebble
  closer and a pebble at home away), half of them for the inverse arrangement (a schedule
  for it, reversed, routes the arrangement); windows of the best ones replaced by
  shorter sequences with the same effect (found by the same search); then depth-first
  searches with a node limit, from the lower bound up (an exhausted budget raises the
  proved lower bound) and just below the best schedule (one found replaces it).
  The answer is a schedule and the best lower bound proved on the way.

>>> from pyasp_games.engines.limits import Limits
>>> from pyasp_games.routing.model import Instance
>>> from pyasp_games.routing.specs import graph_spec
>>> inst = Instance(graph_spec("grid:3x3"), (8, 7, 6, 5, 4, 3, 2, 1, 0), "swap")
>>> schedule, proved = idastar_swaps(inst, Limits().deadline())
>>> len(schedule), proved
(16, 16)
>>> found = bound_swaps(inst, Limits().deadline(), seed=0)
>>> len(found.swaps), found.lower_bound    # the optimum 16 found; 14 proved within the nodes
(16, 14)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from pyasp_games.engines.limits import Deadline, LimitReached
from pyasp_games.routing.graph import Graph
from pyasp_games.routing.model import Instance, cycle_count

Swap = tuple[int, int]


class NodeLimit(Exception):
    """A depth-first search used up its nodes."""


class SwapSearch:
    """Depth-first search for swap sequences within a budget (see the module docstring)."""

    def __init__(self, graph: Graph, state: Sequence[int], deadline: Deadline) -> None:
        self.graph, self.deadline = graph, deadline
        self.dist = graph.distances
        self.edges = list(graph.edges)
        self.rows = [(u, w, self.dist[u], self.dist[w]) for u, w in self.edges]
        self.state = list(state)
        self.n = len(self.state)
        self.total = sum(self.dist[v][t] for v, t in enumerate(self.state))
        self.cycles = cycle_count(self.state)
        self.path: list[int] = []  # edge numbers
        self.nodes = 0
        self.limit: int | None = None

    def bound(self) -> int:
        return max((self.total + 1) // 2, self.n - self.cycles)

    def start(self) -> int:
        """The first budget: the bound, rounded up to the arrangement's parity (every swap
        changes the number of cycles by one, so a schedule has the parity of n - c)."""
        h = self.bound()
        return h + (self.n - self.cycles - h) % 2

    def _same_cycle(self, u: int, w: int) -> bool:
        s, v = self.state, self.state[u]
        while v != u:
            if v == w:
                return True
            v = s[v]
        return False

    def _normal(self, e: int) -> bool:
        """Whether the path followed by ``e`` is still in lexicographic normal form and
        has no swap that cancels with ``e`` across commuting swaps."""
        u, w = self.edges[e]
        for f in reversed(self.path):
            if f == e:
                return False
            x, y = self.edges[f]
            if x in (u, w) or y in (u, w):
                return True
            if f > e:
                return False
        return True

    def children(self, budget: int) -> list[tuple[int, int, int]]:
        """The swaps worth trying with ``budget`` swaps left: ``(new bound, edge, cycle
        change)``, best first."""
        s, out = self.state, []
        room = 2 * (budget - 1) - self.total  # the distance change that still fits
        fixed = self.n - self.cycles
        for e, (u, w, du, dw) in enumerate(self.rows):
            tu, tw = s[u], s[w]
            change = dw[tu] - du[tu] + du[tw] - dw[tw]
            if change > room + 1:
                continue
            dc = 1 if self._same_cycle(u, w) else -1
            h = max((self.total + change + 1) // 2, fixed - dc)
            if h < budget and self._normal(e):
                out.append((h, e, dc))
        out.sort()
        return out

    def swap(self, e: int, dc: int) -> None:
        u, w = self.edges[e]
        s, dist = self.state, self.dist
        self.total += dist[w][s[u]] - dist[u][s[u]] + dist[u][s[w]] - dist[w][s[w]]
        s[u], s[w] = s[w], s[u]
        self.cycles += dc

    def search(self, budget: int) -> bool:
        """Depth-first: a sequence of at most ``budget`` swaps that routes the state."""
        self.nodes += 1
        if self.nodes & 1023 == 0:
            self.deadline.check()
            if self.limit is not None and self.nodes > self.limit:
                raise NodeLimit
        if self.cycles == self.n:
            return True
        for _, e, dc in self.children(budget):
            self.swap(e, dc)
            self.path.append(e)
            if self.search(budget - 1):
                return True
            self.path.pop()
            self.swap(e, -dc)
        return False

    def schedule(self) -> list[Swap]:
        return [self.edges[e] for e in self.path]


def idastar_swaps(
    inst: Instance, deadline: Deadline, max_length: int | None = None, stats: dict | None = None
) -> tuple[list[Swap] | None, int]:
    """An optimal swap sequence (``None`` if none within ``max_length``) and the last
    budget searched (the optimum, or the proved lower bound when ``None``); ``stats``
    (if given) gets the nodes, iterations and the first bound."""
    search = SwapSearch(inst.graph, inst.state, deadline)
    budget = search.start()
    stats = {} if stats is None else stats
    stats.update(lower_bound=budget, iterations=0)
    try:
        while max_length is None or budget <= max_length:
            stats["iterations"] += 1
            stats["bound"] = budget
            if search.search(budget):
                return search.schedule(), budget
            budget += 2
        return None, budget
    finally:
        stats["nodes"] = search.nodes


# -- the bound -----------------------------------------------------------------------


@dataclass
class Bound:
    """A schedule found, the best lower bound proved on the way, and how."""

    swaps: list[Swap]
    lower_bound: int
    greedy: int
    searched: int  # the largest budget whose search ran (exhausted or found)


def greedy_swaps(graph: Graph, state: Sequence[int], rng: random.Random) -> list[Swap]:
    """One randomised greedy schedule (see the module docstring)."""
    dist, adj = graph.distances, graph.adj
    s, n, out = list(state), len(state), []

    def do(u: int, v: int) -> None:
        s[u], s[v] = s[v], s[u]
        out.append((u, v) if u < v else (v, u))

    while True:
        away = [v for v in range(n) if s[v] != v]
        if not away:
            return out
        happy = [(u, w) for u in away for w in adj[u] if u < w and s[w] != w
                 and dist[w][s[u]] < dist[u][s[u]] and dist[u][s[w]] < dist[w][s[w]]]  # fmt: skip
        if happy:
            label, seen = [0] * n, 0
            for v in range(n):
                if not label[v]:
                    seen += 1
                    while not label[v]:
                        label[v] = seen
                        v = s[v]
            splitting = [e for e in happy if label[e[0]] == label[e[1]]]
            do(*rng.choice(splitting or happy))
            continue
        walk = [rng.choice(away)]
        where = {walk[0]: 0}
        while True:  # follow pebbles that want the next vertex
            v = walk[-1]
            wanted = [x for x in adj[v] if dist[x][s[v]] < dist[v][s[v]]]
            moving = [x for x in wanted if s[x] != x]
            if not moving:  # only pebbles at home are in the way: one steps aside
                do(v, rng.choice(wanted))
                break
            w = rng.choice(moving)
            if w in where:  # a directed cycle: rotate it, every pebble one edge closer
                cyc = walk[where[w]:]
                for i in range(len(cyc) - 2, -1, -1):
                    do(cyc[i], cyc[i + 1])
                break
            where[w] = len(walk)
            walk.append(w)


def _net(graph: Graph, n: int, swaps: Sequence[Swap]) -> list[int]:
    """The arrangement that ``swaps`` route (``state[v]``: where the pebble on ``v`` goes)."""
    perm = list(range(n))  # perm[v]: the start vertex of the pebble now on v
    for u, w in swaps:
        perm[u], perm[w] = perm[w], perm[u]
    state = [0] * n
    for v, start in enumerate(perm):
        state[start] = v
    return state


def improve_windows(graph: Graph, swaps: list[Swap], deadline: Deadline, width: int = 8,
                    nodes: int = 2000) -> list[Swap]:  # fmt: skip
    """Replace windows of ``swaps`` by shorter sequences with the same effect, each found
    by a depth-first search of at most ``nodes`` nodes; repeat while any shortens."""
    n = len(graph)
    improved = True
    while improved:
        improved = False
        i = 0
        while i + 2 <= len(swaps):
            if deadline.expired():
                return swaps
            window = swaps[i : i + width]
            target = _net(graph, n, window)
            search = SwapSearch(graph, target, deadline)
            search.limit = nodes
            budget = search.start()
            found = None
            try:
                while budget < len(window):
                    if search.search(budget):
                        found = search.schedule()
                        break
                    budget += 2
            except NodeLimit:
                pass
            if found is not None:
                swaps = swaps[:i] + found + swaps[i + len(window) :]
                improved = True
            else:
                i += 1
    return swaps


def bound_swaps(
    inst: Instance,
    deadline: Deadline,
    seed: int = 0,
    trials: int = 96,
    nodes: int = 1000,
    keep: int = 4,
) -> Bound:
    """A short schedule and a proved lower bound (see the module docstring): the best
    ``keep`` of ``trials`` greedy schedules improved window by window; depth-first
    searches of at most ``nodes`` nodes each, from the lower bound up while they exhaust
    their budget (each raises the proved bound by two), then just below the best schedule
    while they find a shorter one."""
    rng = random.Random(seed)
    g = inst.graph
    # half the trials route the inverse arrangement: reversed, its schedule routes this one
    inverse = [0] * len(inst.state)
    for v, t in enumerate(inst.state):
        inverse[t] = v
    runs = [greedy_swaps(g, inst.state, rng) for _ in range(trials - trials // 2)]
    runs += [greedy_swaps(g, inverse, rng)[::-1] for _ in range(trials // 2)]
    runs.sort(key=len)
    greedy = len(runs[0])
    best = min((improve_windows(g, r, deadline) for r in runs[:keep]), key=len)
    search = SwapSearch(g, inst.state, deadline)
    start_total, start_cycles = search.total, search.cycles

    def attempt(budget: int) -> bool | None:
        """Search ``budget``: True (found, ``best`` replaced), False (exhausted) or None."""
        nonlocal best
        search.nodes, search.limit, search.path = 0, nodes, []
        search.state, search.total, search.cycles = list(inst.state), start_total, start_cycles
        try:
            if search.search(budget):
                best = search.schedule()
                return True
            return False
        except (NodeLimit, LimitReached):
            return None

    # raise the proved bound while budgets are exhausted within the nodes
    proved = searched = search.start()
    while proved < len(best):
        searched = proved
        found = attempt(proved)
        if found is None:
            break
        if found:
            return Bound(best, proved, greedy, searched)
        proved += 2
    # then look for shorter schedules just below the best one
    while len(best) - 2 >= proved and not deadline.expired():
        searched = len(best) - 2
        if not attempt(searched):
            break
    return Bound(best, proved, greedy, searched)
