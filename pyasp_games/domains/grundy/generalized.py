"""Smith's generalized Sprague–Grundy function on loopy graphs, its classes, moves and sums.

>>> from pyasp_games.domains.grundy.model import parse_graph
>>> [str(v) for v in generalized_grundy(parse_graph("a b\\nb a\\nb c\\n"))[0]]
['0', '1', '0']
"""

from __future__ import annotations

from collections.abc import Sequence

from pyasp_games.domains.grundy.model import Infinity, Value, nim_sum, outcome_class
from pyasp_games.domains.grundy.sums import SumMove
from pyasp_games.engines.graphs import Digraph, from_arcs
from pyasp_games.engines.limits import Deadline

_POLL = 4096  # steps between deadline checks


def generalized_grundy(
    graph: Digraph, deadline: Deadline | None = None
) -> tuple[list[Value], list[int | None]]:
    """Smith's generalized Sprague–Grundy function ``γ`` and a counter function ``c``.

    Round ``i = 0, 1, ...`` (the labelling that goes with Smith's definition, C. A. B.
    Smith, "Graphs and composite games", J. Combinatorial Theory 1, 1966): an unlabelled vertex
    ``u`` gets value ``i`` (and counter ``m``, then ``m += 1``) when no successor has
    value ``i`` and every successor that is unlabelled or ``∞`` already has a
    successor of value ``i``; at the end of the round every unlabelled vertex
    without a successor of value ``i`` gets ``∞``. Stated directly it re-scans every
    vertex after every labelling, O(|S|²|A|) overall. Here each round is a retrograde pass
    with counters: ``bad[u]`` counts the successors that are unlabelled or ``∞``
    and have no successor of value ``i`` yet; when a vertex gets value ``i`` its
    predecessors are marked (they now have a successor of value ``i``) and the
    first time a vertex is marked its predecessors' counters drop. A round costs
    O(|S| + |A|), and a vertex still unlabelled after round ``i`` has successors of
    values ``0..i``, so there are at most ``Δ⁺ + 2`` rounds (``Δ⁺`` the largest
    out-degree; in practice the largest finite value + 2): O((Δ⁺ + 2)(|S| + |A|)).

    Returns ``(values, counters)``: ``values[v]`` an ``int`` or :class:`Infinity`
    (``K`` = finite values of the successors), ``counters[v]`` for finite values.
    """
    deadline = deadline or Deadline(None)
    succ, pred = graph.succ, graph.pred
    n = len(succ)
    UNLABELLED, INF = -1, -2
    label = [UNLABELLED] * n
    counter: list[int | None] = [None] * n
    mark = [-1] * n  # mark[v] == i: v has a successor of value i (round i)
    bad = [0] * n
    m = 0
    i = 0
    live = list(range(n))
    steps = 0
    while live:
        deadline.check()
        queue = []
        for u in live:
            c = 0
            for v in succ[u]:
                if label[v] < 0:
                    c += 1
            bad[u] = c
            if c == 0:
                queue.append(u)
        while queue:
            u = queue.pop()
            if label[u] != UNLABELLED or mark[u] == i:
                continue
            label[u] = i
            counter[u] = m
            m += 1
            steps += 1
            if steps % _POLL == 0:
                deadline.check()
            for p in pred[u]:
                if mark[p] == i:
                    continue
                mark[p] = i
                if label[p] < 0:  # p unlabelled or infinite: it now reverses to i
                    for q in pred[p]:
                        if label[q] == UNLABELLED:
                            bad[q] -= 1
                            if bad[q] == 0 and mark[q] != i:
                                queue.append(q)
        rest = []
        for u in live:
            if label[u] == UNLABELLED:
                if mark[u] == i:
                    rest.append(u)
                else:
                    label[u] = INF
        live = rest
        i += 1
    values: list[Value] = []
    for u in range(n):
        if label[u] >= 0:
            values.append(label[u])
        else:
            values.append(Infinity(frozenset(label[v] for v in succ[u] if label[v] >= 0)))
    return values, counter


def classes(values: Sequence[Value]) -> list[str]:
    """``P``/``N``/``D`` for every vertex from its generalized value."""
    return [outcome_class(v) for v in values]


def loopy_move(graph: Digraph, values: Sequence[Value], v: int) -> int | None:
    """For an N-position a winning move (to a P-position); for a D-position a move
    keeping the draw (to a D-position); ``None`` for a P-position.

    N with a finite value or ``∞(K)``, ``0 ∈ K``: a successor of value 0. D
    (``∞(K)``, ``0 ∉ K``): a successor ``∞(L)`` with ``0 ∉ L``, which exists by
    Smith's condition (c) with ``mex(K) = 0``.
    """
    cls = outcome_class(values[v])
    if cls == "P":
        return None
    want = "P" if cls == "N" else "D"
    for w in graph.succ[v]:
        if outcome_class(values[w]) == want:
            return w
    raise AssertionError(f"no {want} successor of a {cls}-position")  # pragma: no cover


def generalized_sum(values: Sequence[Value]) -> Value:
    """The generalized nim-sum of the components' values (Smith)."""
    total: Value = 0
    for v in values:
        total = nim_sum(total, v)
    return total


def loopy_sum_move(
    graphs: Sequence[Digraph], values: Sequence[Sequence[Value]], positions: Sequence[int]
) -> SumMove | None:
    """A winning move (N) or a draw-keeping move (D) of a sum of loopy games; ``None`` for P.

    By Smith's theorem the generalized value of the sum is the generalized nim-sum
    of the components' values, so a move's result is known without building the
    sum's graph: try every move of every component (O(sum of out-degrees)) and take
    the first to a P-position (from N) or to a D-position (from D); the classes of
    generalized values (Smith 1966) guarantee one exists.
    """
    comp = [vals[p] for vals, p in zip(values, positions, strict=True)]
    cls = outcome_class(generalized_sum(comp))
    if cls == "P":
        return None
    want = "P" if cls == "N" else "D"
    for i, (g, p) in enumerate(zip(graphs, positions, strict=True)):
        for w in g.succ[p]:
            after = generalized_sum([*comp[:i], values[i][w], *comp[i + 1 :]])
            if outcome_class(after) == want:
                return SumMove(i, p, w)
    raise AssertionError(f"no move to {want} from a {cls}-sum")  # pragma: no cover


def sum_graph(graphs: Sequence[Digraph], positions: Sequence[int]) -> tuple[Digraph, int]:
    """The explicit game graph of a sum, restricted to what ``positions`` can reach.

    Vertices are tuples of component positions written ``a|b|c``; a move moves one
    component. Returns the graph and the start vertex. Exponential in the number
    of components: for checking the generalized nim-sum on small games.
    """
    start = tuple(positions)
    seen = {start}
    todo = [start]
    arcs = []
    while todo:
        state = todo.pop()
        for i, p in enumerate(state):
            for w in graphs[i].succ[p]:
                nxt = (*state[:i], w, *state[i + 1 :])
                arcs.append((state, nxt))
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)

    def label(s: tuple[int, ...]) -> str:
        return "|".join(graphs[i].names[p] for i, p in enumerate(s))

    g = from_arcs(((label(a), label(b)) for a, b in arcs), [label(start)], name="sum")
    return g, g.index[label(start)]
