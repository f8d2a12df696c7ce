"""Planar Geography for every digraph: Geography -> TQBF -> Schaefer's graph, drawn so that
every crossing is used by at most one play, then planarized.

:mod:`~pyasp_games.domains.geography.planar` redraws a digraph with crossing gadgets and
must refuse a digraph whose every drawing tried has a crossing whose two arcs one play
uses (no gadget carries two passages). This module is the route that never refuses (the
notes, section 9, proposition 2, made total; the layout idea is Lichtenstein and Sipser's,
J. ACM 27(2), 1980):

1. Geography -> TQBF (:func:`~pyasp_games.domains.geography.tqbf.game_to_qbf`): a QBF,
   one block of variables per move, true exactly when the first player wins;
2. TQBF -> Geography (:func:`~pyasp_games.domains.geography.tqbf.to_geography`,
   Schaefer's construction, vertex geography): the chain of diamonds ``in_k -> up_k |
   down_k -> out_k``, then ``c``, a clause vertex ``c_j`` per clause and a literal vertex
   per literal, with a *back arc* from each literal vertex to a diamond side;
3. the drawing (:func:`schaefer_drawing`): the vertices on a circle, in the order
   ``in_1 up_1 out_1 ... in_n up_n out_n c c_1 ... c_m`` (clauses ordered by where their
   literals point), the literal vertices (ordered by the side they point to), and
   ``down_n ... down_1``; the chain and the arcs ``c_j -> literal`` drawn inside the
   circle, the arcs ``c -> c_j`` and the back arcs outside. Outside, nothing crosses (the
   back arcs nest: literals pointing to later sides come first); inside, the chain's
   chords nest around the clause part, so **the only crossings are between two arcs
   ``c_j -> literal`` of different clauses**, and a play uses at most one of those (after
   it: the literal, the side, and the side's only successor ``out_k`` is used);
4. every crossing replaced by the crossing gadget of
   :mod:`~pyasp_games.domains.geography.planar` (which keeps the winner when no play
   uses both arcs of a crossing, proved there).

Each step keeps the winner, and the output is checked: planar (networkx's planarity
test, up to :data:`PLANARITY_TESTED` vertices), and every crossing *proved* safe by a polynomial test (:func:`crossing_safe`:
after the first arc, the tail of the second is unreachable without the dominators of
the first arc's tail, which every play to it has used). The winner of the result can
be solved and checked where it is small (the tests, ``benchmarks/geography_planar_qbf.py``);
its size grows fast: O(N·n²) clauses for n vertices and N moves, and up to one crossing
per pair of literal occurrences.

>>> from pyasp_games.domains.geography.tqbf import parse_qdimacs, qbf_true
>>> q = parse_qdimacs("p cnf 3 3\\ne 1 0\\na 2 0\\ne 3 0\\n1 2 3 0\\n-1 -2 0\\n-3 2 1 0\\n")
>>> d = schaefer_drawing(q)
>>> len(d.schaefer), d.crossings, len(d.graph), d.planar, d.safe, qbf_true(q)
(24, 3, 51, True, True, False)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from pyasp_games.domains.geography.planar import SafetyProof, _fresh_prefix, polled, with_gadgets
from pyasp_games.domains.geography.tqbf import GameQbf, Qbf, game_to_qbf, to_geography
from pyasp_games.engines.graphs import Digraph, from_arcs
from pyasp_games.engines.limits import Deadline
from pyasp_games.errors import InputError

Arc = tuple[int, int]

#: The largest drawing made (crossings; each becomes 9 vertices: a shared centre, three per arc, two punishers).
MAX_CROSSINGS = 200_000
#: Rounds of the barycentre ordering of clauses and literals (:func:`circle_order`).
ROUNDS = 4
#: The largest output whose planarity networkx tests again (beyond: by construction).
PLANARITY_TESTED = 50_000


@dataclass
class SchaeferDrawing:
    """Schaefer's graph of a QBF and its planar redrawing.

    Attributes:
        schaefer: the graph of :func:`~pyasp_games.domains.geography.tqbf.to_geography`.
        graph: the planar digraph (start ``in1``, vertex geography).
        crossings: how many crossings the drawing has (each a gadget).
        planar: networkx's planarity test on the output (``True``, or a bug; ``None``: not
            run, beyond :data:`PLANARITY_TESTED` vertices, planar by construction).
        safe: every crossing proved safe by :func:`crossing_safe` (``True``, or a bug).
    """

    schaefer: Digraph
    graph: Digraph
    crossings: int
    planar: bool | None
    safe: bool


def circle_order(schaefer: Digraph) -> list[int]:
    """The vertices of Schaefer's graph in the drawing's order around the circle
    (module docstring, step 3)."""
    index, succ, names = schaefer.index, schaefer.succ, schaefer.names
    chain: list[int] = []
    downs: list[int] = []
    k = 1
    while f"in{k}" in index:
        chain += [index[f"in{k}"], index[f"up{k}"], index[f"out{k}"]]
        downs.append(index[f"down{k}"])
        k += 1
    position = {v: p for p, v in enumerate(chain)}
    # a side's place: the up sides in chain order, the down sides after everything
    side_place = {v: p for p, v in enumerate(chain)}
    side_place.update({v: len(names) + len(downs) - p for p, v in enumerate(downs)})
    c = index["c"]
    clauses = list(succ[c])
    owner = {lit: cj for cj in clauses for lit in succ[cj]}
    rank = {cj: k for k, cj in enumerate(clauses)}
    for _ in range(ROUNDS):
        # literals pointing to up sides, latest side first; then to down sides, the last
        # down side (drawn first after the literals) first: the back arcs then nest
        # outside. Literals of one side in the reverse order of their clauses, and the
        # clauses by the mean place of their literals, the last first (the barycentre
        # heuristic of layered drawings, a few rounds): chords c_j -> literal inside the
        # circle then nest rather than cross where they can
        ordered = sorted(owner, key=lambda lit: (succ[lit][0] not in position,
                                                 -side_place[succ[lit][0]], -rank[owner[lit]]))
        place = {lit: p for p, lit in enumerate(ordered)}
        clauses.sort(key=lambda cj: -sum(place[lit] for lit in succ[cj]) / max(1, len(succ[cj])))
        rank = {cj: k for k, cj in enumerate(clauses)}
    order = [*chain, c, *clauses, *ordered, *reversed(downs)]
    if len(order) != len(names) or len(set(order)) != len(order):  # pragma: no cover - shape
        raise AssertionError("Schaefer's graph does not have the expected shape")
    return order


def _chords_cross(p: Sequence[int], q: Sequence[int]) -> bool:
    a, b = sorted(p)
    c, d = sorted(q)
    if len({a, b, c, d}) < 4:
        return False
    return (a < c < b) != (a < d < b)


def count_crossings(chords: Sequence[tuple[int, int]]) -> int:
    """How many pairs of chords of a circle (pairs of places) cross (endpoints
    interleaved; chords sharing an endpoint do not). O(k log k) comparisons.

    >>> count_crossings([(0, 2), (1, 3), (2, 4), (0, 4)])
    2
    """
    from bisect import bisect_left, bisect_right, insort

    spans = sorted(tuple(sorted(c)) for c in chords)
    ends: list[int] = []
    total = 0
    k = 0
    while k < len(spans):
        a = spans[k][0]
        group = []
        while k + len(group) < len(spans) and spans[k + len(group)][0] == a:
            group.append(spans[k + len(group)][1])
        for b in group:  # earlier chords (a1 < a) whose end lies strictly inside (a, b)
            total += bisect_left(ends, b) - bisect_right(ends, a)
        for b in group:
            insort(ends, b)
        k += len(group)
    return total


def _along(p: Sequence[float], q: Sequence[float], r: Sequence[float], s: Sequence[float]) -> float:
    """Where segment ``p -> q`` meets segment ``r -> s``, as a fraction of ``p -> q``."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    ex, ey = s[0] - r[0], s[1] - r[1]
    denominator = dx * ey - dy * ex
    return ((r[0] - p[0]) * ey - (r[1] - p[1]) * ex) / denominator


def crossing_safe(
    succ: Sequence[Sequence[int]], start: int, pairs: Sequence[tuple[Arc, Arc]],
    deadline: Deadline | None = None,
) -> list[bool]:
    """:meth:`SafetyProof.safe` for each pair of arcs.

    >>> succ = [[1, 2], [3], [3], []]          # s -> a -> t, s -> b -> t
    >>> crossing_safe(succ, 0, [((0, 1), (2, 3)), ((0, 1), (1, 3))])
    [True, False]
    """
    proof = SafetyProof(succ, start)
    return [proof.safe(first, second) for first, second in polled(pairs, deadline, 256)]


def drawing_size(q: Qbf) -> tuple[int, int]:
    """``(vertices, crossings)`` of Schaefer's graph of ``q`` and of its drawing, without
    drawing it: the planar graph has ``vertices + 9 * crossings`` vertices.

    >>> from pyasp_games.domains.geography.tqbf import parse_qdimacs
    >>> drawing_size(parse_qdimacs("p cnf 3 3\\ne 1 0\\na 2 0\\ne 3 0\\n1 2 3 0\\n-1 -2 0\\n-3 2 1 0\\n"))
    (24, 3)
    """
    schaefer = to_geography(q, "vertex")
    place = {v: p for p, v in enumerate(circle_order(schaefer))}
    return len(schaefer), count_crossings([(place[u], place[v]) for u, v in _inside(schaefer)])


def _inside(schaefer: Digraph) -> list[Arc]:
    """The arcs drawn inside the circle: the chain, ``out_n -> c`` and ``c_j -> literal``
    (outside: ``c -> c_j`` and the back arcs from the literals)."""
    c = schaefer.index["c"]
    literals = {lit for cj in schaefer.succ[c] for lit in schaefer.succ[cj]}
    return [(u, v) for u, v in schaefer.arcs() if u != c and u not in literals]


def schaefer_drawing(q: Qbf, deadline: Deadline | None = None) -> SchaeferDrawing:
    """Schaefer's graph of ``q`` (vertex geography, start ``in1``) redrawn planar with the
    same winner: the drawing of the module docstring, a gadget at every crossing.

    Raises :class:`~pyasp_games.errors.InputError` beyond :data:`MAX_CROSSINGS`, and
    :class:`~pyasp_games.errors.LimitReached` at the deadline.
    """
    import networkx as nx

    schaefer = to_geography(q, "vertex")
    names = list(schaefer.names)
    order = circle_order(schaefer)
    place = {v: p for p, v in enumerate(order)}
    arcs = list(schaefer.arcs())
    index = schaefer.index
    drawn = set(_inside(schaefer))
    inside = [k for k, arc in enumerate(arcs) if arc in drawn]
    total = len(order)
    point = [(math.cos(2 * math.pi * p / total), math.sin(2 * math.pi * p / total)) for p in range(total)]
    chords = [(place[arcs[k][0]], place[arcs[k][1]]) for k in inside]
    if count_crossings(chords) > MAX_CROSSINGS:
        raise InputError(f"{q.name}: the drawing of Schaefer's graph would have "
                         f"{count_crossings(chords):,} crossings, more than the {MAX_CROSSINGS:,} "
                         "drawn at most (each a gadget of 9 vertices)")
    crossed: list[tuple[int, int]] = []
    for x, k in enumerate(inside):
        if deadline is not None and x % 256 == 0:
            deadline.check()
        pk = (place[arcs[k][0]], place[arcs[k][1]])
        for j in inside[x + 1:]:
            if _chords_cross(pk, (place[arcs[j][0]], place[arcs[j][1]])):
                crossed.append((k, j))
    drawn_inside = set(inside)
    outside = [k for k in range(len(arcs)) if k not in drawn_inside]
    if count_crossings([(place[arcs[k][0]], place[arcs[k][1]]) for k in outside]):
        raise AssertionError("two arcs outside the circle cross")  # pragma: no cover - the docstring
    safe = all(crossing_safe(schaefer.succ, index["in1"],
                             [(arcs[k], arcs[j]) for k, j in crossed], deadline))
    along: list[list[tuple[float, int, int]]] = [[] for _ in arcs]
    for number, (k, j) in enumerate(crossed):
        (a, b), (e, f) = arcs[k], arcs[j]
        pa, pb, pe, pf = (point[place[v]] for v in (a, b, e, f))
        along[k].append((_along(pa, pb, pe, pf), number, 0))
        along[j].append((_along(pe, pf, pa, pb), number, 1))
    chains = [[(number, role) for _, number, role in sorted(row)] for row in along]
    prefix = _fresh_prefix(names)
    headers = {"source": f"{q.name} (TQBF -> planar Geography)", "start": "in1",
               "variant": "vertex", "undirected": "no"}
    graph = from_arcs(polled(with_gadgets(names, arcs, chains, prefix), deadline), ["in1", *names],
                      name=f"{q.name}.planar", headers=headers)
    planar = None
    if deadline is not None:
        deadline.check()
    if len(graph) <= PLANARITY_TESTED:
        planar = bool(nx.check_planarity(graph.to_networkx().to_undirected())[0])
    return SchaeferDrawing(schaefer, graph, len(crossed), planar, safe)


@dataclass
class QbfRoute:
    """Geography -> TQBF -> planar Geography: the sizes of each step and the result."""

    graph: Digraph
    qbf_variables: int
    qbf_clauses: int
    moves: int
    schaefer_vertices: int
    crossings: int
    planar: bool | None
    safe: bool
    qbf: GameQbf


def planarize_via_qbf(
    graph: Digraph, start: str, variant: str = "vertex", directed: bool = True,
    deadline: Deadline | None = None,
) -> QbfRoute:
    """A planar vertex-geography digraph whose first player wins exactly when the first
    player wins ``variant`` geography on ``graph`` from ``start`` (module docstring).

    >>> from pyasp_games.engines.graphs import from_arcs
    >>> route = planarize_via_qbf(from_arcs([("s", "a")]), "s")
    >>> route.moves, route.planar, route.safe, route.graph.headers["start"]
    (3, True, True, 'in1')
    """
    s = graph.position(start)
    succ = [list(vs) for vs in graph.succ]
    game = game_to_qbf(succ, s, variant, directed, list(graph.names), deadline)
    q = game.qbf(graph.name)
    drawing = schaefer_drawing(q, deadline)
    return QbfRoute(drawing.graph, game.variables, len(game.clauses), game.moves,
                    len(drawing.schaefer), drawing.crossings, drawing.planar, drawing.safe, game)
