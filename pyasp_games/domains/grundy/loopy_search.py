"""Grundy functions and kernels of loopy graphs, by propagation and backtracking.

Existence and enumeration (NP-complete in general): :func:`grundy_functions` searches
over strongly connected components with domains propagated to a fixpoint;
:func:`kernels` enumerates the independent absorbing sets.

>>> from pyasp_games.domains.grundy.model import parse_graph
>>> c4 = parse_graph("a b\\nb c\\nc d\\nd a\\n")
>>> sorted(grundy_functions(c4))
[[0, 1, 0, 1], [1, 0, 1, 0]]
"""

from __future__ import annotations

from collections.abc import Iterator

from pyasp_games.engines.graphs import Digraph
from pyasp_games.engines.limits import Deadline

_POLL = 4096  # steps between deadline checks


class _Contradiction(Exception):
    pass


class _GrundySearch:
    """Domains of values as bit masks, propagated to a fixpoint at every search node.

    A vertex ``u`` with successors ``S`` may take ``k`` only if no successor is
    fixed to ``k``, every ``j < k`` is still possible for some successor, and ``k``
    is at least the mex of the values fixed among ``S``. Conversely when every value
    left for ``u`` is at least ``k``, each ``j < k`` needs a successor that can take
    it (forced when only one can), and a fixed ``u`` forbids its value to every
    successor. Values never exceed the out-degree.
    """

    def __init__(self, graph: Digraph, deadline: Deadline) -> None:
        self.succ, self.pred = graph.succ, graph.pred
        self.deadline = deadline
        self.nodes = 0
        self.steps = 0
        n = len(self.succ)
        self.dom = [(1 << (len(self.succ[v]) + 1)) - 1 for v in range(n)]
        # branch in reverse topological order of the components: sinks first, so
        # values flow from the acyclic parts into the cycles
        order = []
        for comp in graph.strongly_connected_components():
            order += comp
        self.order = order

    def propagate(self, dom: list[int], queue: list[int]) -> None:
        succ, pred = self.succ, self.pred
        pending = set(queue)
        while queue:
            self.steps += 1
            if self.steps % _POLL == 0:
                self.deadline.check()
            u = queue.pop()
            pending.discard(u)
            old = dom[u]
            out = succ[u]
            possible = 0
            fixed = 0
            for v in out:
                d = dom[v]
                possible |= d
                if d & (d - 1) == 0:
                    fixed |= d
            # mex of what successors can take bounds u from above
            t = 0
            while possible >> t & 1:
                t += 1
            new = old & ((1 << (t + 1)) - 1) & ~fixed
            # mex of what successors must take bounds u from below
            f = 0
            while fixed >> f & 1:
                f += 1
            new &= ~((1 << f) - 1)
            if new == 0:
                raise _Contradiction
            changed = [u] if new != old else []
            dom[u] = new
            # backwards: every j below u's least possible value needs a supporter
            least = (new & -new).bit_length() - 1
            for j in range(least):
                bit = 1 << j
                support = [v for v in out if dom[v] & bit]
                if not support:
                    raise _Contradiction
                if len(support) == 1 and dom[support[0]] != bit:
                    dom[support[0]] = bit
                    changed.append(support[0])
            if new & (new - 1) == 0:
                for v in out:
                    if dom[v] & new:
                        d = dom[v] & ~new
                        if d == 0:
                            raise _Contradiction
                        dom[v] = d
                        changed.append(v)
            for x in changed:
                for y in (x, *pred[x]):
                    if y not in pending:
                        pending.add(y)
                        queue.append(y)

    def solutions(self) -> Iterator[list[int]]:
        dom = list(self.dom)
        try:
            self.propagate(dom, list(range(len(dom))))
        except _Contradiction:
            return
        yield from self._search(dom, 0)

    def _search(self, dom: list[int], start: int) -> Iterator[list[int]]:
        self.nodes += 1
        order = self.order
        i = start
        while i < len(order) and dom[order[i]] & (dom[order[i]] - 1) == 0:
            i += 1
        if i == len(order):
            yield [d.bit_length() - 1 for d in dom]
            return
        # first fail: the open vertex with fewest values left, earliest component first
        v, fewest = order[i], dom[order[i]].bit_count()
        if fewest > 2:
            for x in order[i + 1 :]:
                c = dom[x].bit_count()
                if 1 < c < fewest:
                    v, fewest = x, c
                    if c == 2:
                        break
        d = dom[v]
        while d:
            bit = d & -d
            d ^= bit
            child = list(dom)
            child[v] = bit
            try:
                self.propagate(child, [v, *self.pred[v]])
            except _Contradiction:
                continue
            yield from self._search(child, i)


def grundy_functions(
    graph: Digraph, deadline: Deadline | None = None, stats: dict | None = None
) -> Iterator[list[int]]:
    """Every Grundy function of ``graph`` (each once), by propagation and backtracking.

    Deciding existence is NP-complete; the search branches on vertices in reverse
    topological order of the strongly connected components (sinks first), so an
    acyclic part is fixed by propagation alone and never branched on. Raises
    :class:`~pyasp_games.engines.limits.LimitReached` at the deadline. ``stats``
    (if given) receives the numbers of search nodes and propagation steps.
    """
    search = _GrundySearch(graph, deadline or Deadline(None))
    try:
        yield from search.solutions()
    finally:
        if stats is not None:
            stats["nodes"] = search.nodes
            stats["propagations"] = search.steps


def kernels(graph: Digraph, deadline: Deadline | None = None) -> Iterator[list[int]]:
    """Every kernel (independent and absorbing vertex set), as sorted vertex lists.

    ``in(u)`` iff no successor is in; propagation: a vertex in forces its
    successors and predecessors out, a vertex out needs a successor in (forced
    when only one is left), a vertex whose successors are all out is in.
    Branching follows reverse topological order of the components.
    """
    deadline = deadline or Deadline(None)
    succ, pred = graph.succ, graph.pred
    n = len(succ)
    order = [v for comp in graph.strongly_connected_components() for v in comp]
    steps = [0]

    def propagate(state: list[int], queue: list[int]) -> bool:  # state: -1 unknown, 0 out, 1 in
        pending = set(queue)
        while queue:
            steps[0] += 1
            if steps[0] % _POLL == 0:
                deadline.check()
            u = queue.pop()
            pending.discard(u)
            changed = []
            outs = succ[u]
            if state[u] == 1:
                for v in (*outs, *pred[u]):
                    if state[v] == 1:
                        return False
                    if state[v] == -1:
                        state[v] = 0
                        changed.append(v)
            ins = [v for v in outs if state[v] == 1]
            open_ = [v for v in outs if state[v] == -1]
            if ins:
                if state[u] == 1:
                    return False
                if state[u] == -1:
                    state[u] = 0
                    changed.append(u)
            elif not open_:
                if state[u] == 0:
                    return False
                if state[u] == -1:
                    state[u] = 1
                    changed.append(u)
            elif state[u] == 0 and len(open_) == 1:
                state[open_[0]] = 1
                changed.append(open_[0])
            for x in changed:
                for y in (x, *pred[x], *succ[x]):
                    if y not in pending:
                        pending.add(y)
                        queue.append(y)
        return True

    def search(state: list[int], i: int) -> Iterator[list[int]]:
        while i < n and state[order[i]] != -1:
            i += 1
        if i == n:
            yield [v for v in range(n) if state[v] == 1]
            return
        v = order[i]
        for choice in (1, 0):
            child = list(state)
            child[v] = choice
            if propagate(child, [v, *pred[v], *succ[v]]):
                yield from search(child, i + 1)

    start = [-1] * n
    if propagate(start, list(range(n))):
        yield from search(start, 0)
