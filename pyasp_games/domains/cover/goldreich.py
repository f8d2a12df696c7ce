"""X3C -> the 15-puzzle on a graph: a cover within the bound's moves, and back.

O. Goldreich showed that the shortest move sequence of the graph-generalized 15-puzzle
(one blank, a distinct pebble on every other vertex, a move slides a pebble into the
blank along an edge) is NP-hard by a reduction from exact cover by 3-sets ("Finding the
shortest move-sequence in the graph-generalized 15-puzzle is NP-hard", Technion TR 792,
1984; in *Studies in Complexity and Cryptography*, LNCS 6650, 2011). His gadget is not
reproduced here: this module is a **reconstruction of the same shape** (X3C -> graph,
start and target arrangements, a bound ``B``), with its own proof.

The construction, for an X3C instance of ``3q`` elements and subsets ``S_0 .. S_{m-1}``:

- a **hub** ``hub``, where the blank starts and must end;
- a **gate** ``s<j>`` per subset, adjacent to the hub; its pebble is at home;
- per element ``e`` a **path** ``e<e>a - e<e>b - e<e>c`` whose pebbles must turn one
  step: the pebble on ``a`` goes to ``c``, on ``b`` to ``a``, on ``c`` to ``b``
  (distances 2, 1, 1); ``a`` and ``c`` are adjacent to the gate of every subset that
  contains ``e``;
- an element in fewer than two subsets also gets a gate of its own, ``u<e>`` (hub -
  ``u<e>`` - ``a``, ``c``), which the proof below counts like a one-element subset;
- a second hub ``hub2`` (its pebble at home) adjacent to every gate;
- the bound ``B = 14q``.

The own gates and ``hub2`` make the graph 2-connected (and it is bipartite), so that
Wilson's theorem (1974) tells the puzzle's solvers at once that the arrangement is
solvable; the proof never uses them but to count an own gate as a gate. With ``k`` the
gates (``m`` plus the own ones, ``u``) the graph has ``2 + k + 9q`` vertices and
``2k + 6m + 2u + 6q`` edges.

**A cover gives a plan of exactly B moves.** For each subset ``j`` of the cover the
blank enters the gate (1 move: the gate's pebble steps onto the hub), turns each of the
subset's three paths by the closed walk ``s - a - b - c - s`` (4 moves each: the pebble
of ``a`` goes through the gate to ``c``, those of ``b`` and ``c`` one step each) and
leaves (1 move: the gate's pebble steps home): 14 moves per subset, ``14q`` in all.

**A plan of at most B moves gives a cover.** Every move slides one pebble one edge, so
a plan's length is the sum over the pebbles of the edges each travels. The element
pebbles travel at least their distances, ``4`` per element, ``12q`` in all; a pebble at
home that moves at all moves at least twice (out and back). The blank starts on the
hub; a path's pebbles can only move once the blank is next to the path, and the path's
only neighbours outside it are the gates of its element, so for every element the blank
stood on (and so moved the pebble of) a gate of a subset containing it or the
element's own gate. Let ``J`` be the gates whose pebble moved: they reach every
element, so ``|J| >= q`` (a gate reaches at most 3 elements) and the plan has at least
``12q + 2|J|`` moves. At most ``14q`` forces ``|J| = q``: ``q`` gates reaching ``3q``
elements, each at most 3, reach each exactly once and none is an own gate (it reaches
one): the subsets of ``J`` are an exact cover. The same count shows the optimum is
``12q + 2k``, ``k`` the fewest gates (subsets and own gates) reaching every element:
a minimum set cover.

>>> from pyasp_games.domains.cover.model import X3C
>>> x3c = X3C(6, ((0, 1, 2), (3, 4, 5), (1, 2, 3), (0, 1, 4)))
>>> puzzle, back = x3c_to_puzzle(x3c)
>>> len(puzzle.graph), len(puzzle.graph.edges), back["bound"]
(25, 48, 28)
>>> plan = plan_from_cover(x3c, [0, 1])
>>> len(plan), plan[:3]
(28, [[['hub', 's0']], [['s0', 'e0a']], [['e0a', 'e0b']]])
>>> cover_from_plan(back, plan)
[0, 1]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any

from pyasp_games.domains.cover.model import X3C
from pyasp_games.domains.routing.model import Instance
from pyasp_games.engines.graphs import graph_from_edges
from pyasp_games.errors import InputError

#: The moves of an element's path turned once (its lower bound), and of a gate's visit
#: (the blank in and out): a cover of ``q`` subsets is a plan of ``(3 * 4 + 2) q`` moves.
PATH_MOVES = 4
GATE_MOVES = 2

#: The most elements the reduction takes: the graph has ``9q`` element vertices and the
#: routing instance keeps all-pairs distances (its graphs stop at 5,000 vertices).
MAX_ELEMENTS = 450
#: The most subsets (each a gate vertex of the graph).
MAX_SUBSETS = 1_500


def bound(q: int) -> int:
    """The reduction's bound ``B = 14q``: the moves of a cover's plan.

    >>> bound(2)
    28
    """
    return (3 * PATH_MOVES + GATE_MOVES) * q


def gate(j: int) -> str:
    """The gate vertex of subset ``j``.

    >>> gate(3)
    's3'
    """
    return f"s{j}"


def own_gate(e: int) -> str:
    """The gate of element ``e`` of its own, when fewer than two subsets contain it.

    >>> own_gate(5)
    'u5'
    """
    return f"u{e}"


def path(e: int) -> tuple[str, str, str]:
    """Element ``e``'s path ``a - b - c``: the pebbles go a -> c, b -> a, c -> b.

    >>> path(0)
    ('e0a', 'e0b', 'e0c')
    """
    return f"e{e}a", f"e{e}b", f"e{e}c"


HUB = "hub"
#: The second hub: with it (and the own gates) the graph is 2-connected.
HUB2 = "hub2"


def _own_gated(x3c: X3C) -> list[int]:
    """The elements in fewer than two subsets: they get a gate of their own."""
    count = [0] * x3c.size
    for subset in x3c.subsets:
        for e in subset:
            count[e] += 1
    return [e for e in range(x3c.size) if count[e] < 2]


def x3c_to_puzzle(x3c: X3C) -> tuple[Instance, dict[str, Any]]:
    """The sliding puzzle of ``x3c`` (blank on the hub, which is also its target) and
    the map back (the X3C instance itself, and the bound).

    Raises:
        InputError: beyond :data:`MAX_ELEMENTS` elements or :data:`MAX_SUBSETS` subsets.
    """
    if x3c.size > MAX_ELEMENTS or len(x3c.subsets) > MAX_SUBSETS:
        raise InputError(
            f"x3c-to-puzzle of {x3c.size:,} elements and {len(x3c.subsets):,} subsets: beyond "
            f"this tool's limits of {MAX_ELEMENTS} elements and {MAX_SUBSETS:,} subsets "
            "(the graph has 9q vertices for the elements and one a subset)"
        )
    own = _own_gated(x3c)
    gates = [*map(gate, range(len(x3c.subsets))), *map(own_gate, own)]
    vertices = [HUB, *gates] + ([HUB2] if gates else [])
    edges: list[tuple[str, str]] = [(h, s) for s in gates for h in (HUB, HUB2)]
    for j, subset in enumerate(x3c.subsets):
        for e in subset:
            a, _, c = path(e)
            edges += [(gate(j), a), (gate(j), c)]
    for e in own:
        a, _, c = path(e)
        edges += [(own_gate(e), a), (own_gate(e), c)]
    for e in range(x3c.size):
        a, b, c = path(e)
        vertices += [a, b, c]
        edges += [(a, b), (b, c)]
    graph = graph_from_edges(edges, vertices, name=f"{x3c.name}-puzzle")
    state = list(range(len(graph)))  # state[v]: the target of the pebble on v
    for e in range(x3c.size):
        a, b, c = (graph.index[v] for v in path(e))
        state[a], state[b], state[c] = c, a, b
    puzzle = Instance(graph, tuple(state), "blank", graph.index[HUB], f"{x3c.name}-puzzle")
    back = {
        "reduction": "x3c-to-puzzle",
        "q": x3c.q,
        "bound": bound(x3c.q),
        "size": x3c.size,
        "subsets": [list(s) for s in x3c.subsets],
        "vertices": len(graph),
        "edges": len(graph.edges),
    }
    return puzzle, back


def lower_bound(q: int) -> int:
    """The element pebbles' distances, ``12q``: every plan has at least these moves.

    >>> lower_bound(2)
    24
    """
    return 3 * PATH_MOVES * q


def plan_from_cover(x3c: X3C, cover: Sequence[int]) -> list[list[list[str]]]:
    """The plan of an exact cover: ``14q`` moves, as a routing schedule (a list of
    steps, each one edge ``[blank's vertex, the vertex it moves to]``).

    Raises:
        InputError: when ``cover`` is not an exact cover of ``x3c``.
    """
    from pyasp_games.domains.cover.verify import check_cover

    ok, why = check_cover(x3c.size, x3c.subsets, list(cover))
    if not ok:
        raise InputError(f"not an exact cover: {why}")
    plan: list[list[list[str]]] = []
    for j in sorted(cover):
        s = gate(j)
        walk = [HUB, s]
        for e in x3c.subsets[j]:
            a, b, c = path(e)
            walk += [a, b, c, s]
        walk.append(HUB)
        plan += [[[u, v]] for u, v in pairwise(walk)]
    return plan


def _edges_of(plan: Any) -> list[tuple[str, str]]:
    """A plan as its moves: a routing schedule (steps of one edge) or a list of edges."""
    if not isinstance(plan, list):
        raise InputError("a plan is a list of moves (a routing schedule: steps of one edge [u, v])")
    moves = []
    for i, step in enumerate(plan, 1):
        if (isinstance(step, list) and len(step) == 1 and isinstance(step[0], list | tuple)):
            step = step[0]
        if not (isinstance(step, list | tuple) and len(step) == 2
                and all(isinstance(v, str) for v in step)):  # fmt: skip
            raise InputError(f"move {i}: {step!r} is not an edge [u, v] of vertex names")
        moves.append((step[0], step[1]))
    return moves


def cover_from_plan(back: Mapping[str, Any], plan: Any) -> list[int]:
    """The exact cover a plan of at most ``B`` moves gives: the subsets whose gate the
    blank entered (the module's proof). The plan is replayed on the rebuilt puzzle
    first: legal slides, every pebble on its target at the end.

    Raises:
        InputError: a plan that is not legal, does not solve the puzzle, or is longer
        than the bound (such a plan proves nothing about covers).
    """
    try:
        x3c = X3C(int(back["size"]), tuple(tuple(s) for s in back["subsets"]), name="map")
    except (KeyError, TypeError, ValueError):
        raise InputError("not an x3c-to-puzzle map (no 'size' and 'subsets')") from None
    puzzle, _ = x3c_to_puzzle(x3c)
    g = puzzle.graph
    moves = _edges_of(plan)
    limit = bound(x3c.q)
    if len(moves) > limit:
        raise InputError(
            f"the plan has {len(moves)} moves, more than the bound {limit}: only a plan "
            "within the bound maps back to a cover"
        )
    where = list(puzzle.state)
    blank = g.index[HUB]
    entered: set[int] = set()
    for i, (u, v) in enumerate(moves, 1):
        if u not in g.index or v not in g.index:
            raise InputError(f"move {i}: {u}-{v} names a vertex not in the puzzle")
        x, y = g.index[u], g.index[v]
        if blank not in (x, y) or y not in g.adj[x]:
            raise InputError(
                f"move {i}: {u}-{v} is not an edge at the blank (on {g.names[blank]})"
            )
        to = y if x == blank else x
        where[blank], where[to] = where[to], where[blank]
        blank = to
        entered.add(blank)
    wrong = [g.names[v] for v, t in enumerate(where) if v != t]
    if wrong:
        raise InputError(f"the plan does not solve the puzzle: the pebble on {wrong[0]} is not home")
    chosen = sorted(j for j in range(len(x3c.subsets)) if g.index[gate(j)] in entered)
    from pyasp_games.domains.cover.verify import check_cover

    ok, why = check_cover(x3c.size, x3c.subsets, chosen)
    if not ok:  # the proof says this cannot happen: a bug in the construction if it does
        raise RuntimeError(f"a plan within the bound entered gates that are no exact cover: {why}")
    return chosen


#: The largest puzzle (in vertices) whose "no plan within B" the puzzle's own search is
#: asked for by :func:`check_both_ways`; beyond it the "no" side rests on the X3C side.
MAX_SEARCH_VERTICES = 40


def check_both_ways(
    x3c: X3C, limits: Any = None, max_vertices: int = MAX_SEARCH_VERTICES
) -> dict[str, Any]:
    """Both directions of the reduction on ``x3c``, each side by its own solver.

    The X3C side: dancing links (a cover checked exact by the cover domain's checker).
    A cover's plan (:func:`plan_from_cover`, ``cover_plan.plan``) is replayed by the routing domain's checker
    (it must have exactly ``B`` moves) and mapped back (:func:`cover_from_plan`). The
    puzzle side, where the puzzle has at most ``max_vertices`` vertices: the routing
    domain's IDA* within ``B`` moves (optimal: it exhausts every smaller budget), its
    plan replayed and mapped back to a cover checked exact. ``agree``: the two sides
    answer alike (``None`` where the puzzle was not searched: the "no" side then rests
    on the X3C side only; ``puzzle.stopped`` where the search met the time limit).
    Raises :class:`~pyasp_games.engines.limits.LimitReached` where the X3C side does.

    >>> from pyasp_games.domains.cover.model import X3C
    >>> report = check_both_ways(X3C(6, ((0, 1, 2), (0, 3, 4), (1, 3, 5), (2, 4, 5))))
    >>> report["cover"], report["puzzle"]["within_bound"], report["agree"]
    (None, False, True)
    """
    from pyasp_games.domains.cover.native import solve_dlx
    from pyasp_games.domains.cover.verify import check_cover
    from pyasp_games.domains.routing.native import idastar
    from pyasp_games.domains.routing.verify import verify_schedule
    from pyasp_games.engines.limits import LimitReached, Limits

    limits = (limits or Limits()).started()
    deadline = limits.deadline()
    puzzle, back = x3c_to_puzzle(x3c)
    g = puzzle.graph
    edges = [(g.names[u], g.names[v]) for u, v in g.edges]
    start = {g.names[v]: g.names[t] for v, t in enumerate(puzzle.state)}
    report: dict[str, Any] = {
        "q": x3c.q, "subsets": len(x3c.subsets), "vertices": len(g),
        "edges": len(g.edges), "bound": back["bound"], "lower_bound": lower_bound(x3c.q),
    }  # fmt: skip
    claim = solve_dlx(x3c, limits)
    if claim.status == "unknown":
        raise LimitReached(report)
    cover = claim.witness if claim.status == "solved" else None
    report["cover"] = cover
    if cover is not None:
        ok, why = check_cover(x3c.size, x3c.subsets, cover)
        if not ok:
            raise RuntimeError(f"dancing links gave a cover that is not exact: {why}")
        plan = plan_from_cover(x3c, cover)
        replay = verify_schedule(edges, start, "blank", plan, HUB)
        report["cover_plan"] = {
            "moves": len(plan), "replayed": replay.ok, "message": replay.message,
            "maps_back": cover_from_plan(back, plan) == sorted(cover), "plan": plan,
        }  # fmt: skip
    searched: dict[str, Any] = {"searched": len(g) <= max_vertices}
    report["puzzle"] = searched
    if searched["searched"]:
        try:
            found, stats = idastar(puzzle, deadline, back["bound"])
        except LimitReached:  # the X3C side stands; the puzzle's is unknown
            searched.update(within_bound=None, stopped="the time limit was reached")
            report["agree"] = None
            return report
        searched["nodes"] = stats.get("nodes")
        searched["within_bound"] = found is not None
        if found is not None:
            steps = [[[g.names[u], g.names[v]] for u, v in step] for step in found]
            replay = verify_schedule(edges, start, "blank", steps, HUB)
            mapped = cover_from_plan(back, steps)
            searched.update(moves=len(steps), replayed=replay.ok, mapped_cover=mapped,
                            mapped_exact=check_cover(x3c.size, x3c.subsets, mapped)[0])  # fmt: skip
        report["agree"] = searched["within_bound"] == (cover is not None)
    else:
        searched["why"] = (f"{len(g)} vertices, beyond {max_vertices}: 'no plan within the "
                           "bound' rests on the X3C side only")  # fmt: skip
        report["agree"] = None
    return report
