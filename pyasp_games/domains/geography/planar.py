"""Planar Geography: a vertex-geography digraph redrawn as a planar one with the same winner.

The notes (section 9, proposition 2) reduce Geography to planar Geography: draw the
digraph, and replace every pair of crossing arcs by a crossing gadget. This module builds
that reduction for **vertex geography on a digraph**, with a proof for every output.

**The gadget.** Arcs ``a -> b`` and ``c -> d`` cross at a point; the crossing becomes a
centre ``x`` shared by both, four private vertices per arc and two punishers::

    a -> u1 -> u2 -> x -> v1 -> b          (arc one: 5 moves instead of 1)
    c -> w1 -> w2 -> x -> z1 -> d          (arc two)
    z1 -> y -> u2,   v1 -> y' -> w2        (the punishers)

The player P who moves ``a -> u1`` also moves ``u2 -> x`` and ``v1 -> b``: P enters ``b``
exactly as with the one arc, and the opponent moves next from ``b``. Every deviation loses
for whoever makes it, inside the gadget, whatever the rest of the board:

- at ``x`` the opponent Q chooses; ``x -> z1`` (towards ``d``) lets P answer ``z1 -> y``,
  and Q is stuck at ``y`` because ``u2`` is used;
- at ``v1`` P may try ``v1 -> y'``: Q answers ``y' -> w2`` and P is stuck (``x`` is used);
- if ``b`` is used already, P is stuck at ``v1`` (his only other move ``y'`` loses), as
  ``a -> b`` was no move at all: an extra *losing* option changes no outcome;
- entering a gadget whose centre is used (the other arc crossed it before) leaves the
  entrant P stuck at ``u2``: again a losing option.

The same holds for arc two by the symmetric punishers. Several crossings on one arc chain
the gadgets (``v1`` of one moves into ``u1`` of the next), 4 vertices each, so the parity is
kept. ``y`` sits in the face between ``u2`` and ``z1`` (arc one's incoming half and arc two's
outgoing half are neighbours around ``x`` in every drawing, as are ``v1`` and ``w2``), so
the gadget is planar.

**What no gadget can do.** A gadget lives in a small disk around the crossing, with the four
half-arcs leaving it in the order a, c, b, d (or a, d, b, c). The token's passage from
``a`` to ``b`` is a path across the disk that separates ``c`` from ``d``, and in a planar
graph every ``c``-``d`` path inside the disk shares a vertex with it. So after one arc has
been crossed, the other cannot be: **a play that uses both arcs of a crossing cannot be
carried by any crossing gadget** in vertex geography. (The notes' proof argues only the
first passage, "suppose without loss of generality that (a, b) is used before (c, d)".)
The reduction here is therefore proved, not assumed: every crossing of the chosen drawing
is checked to be *safe*, meaning no play from the start uses both of its arcs (an
exhaustive search over the simple paths from the start, pruned by reachability), and the
winner is preserved exactly when every crossing is safe (above). A digraph whose every
drawing tried has an unsafe crossing is refused, with a play that uses both arcs.

Before drawing, what no play can use is dropped: vertices not reachable from the start,
arcs into the start and self-loops. A digraph whose underlying graph is planar is returned
as it is (no gadget needed).

>>> from pyasp_games.engines.graphs import from_arcs
>>> g = from_arcs([("s", "l1"), ("s", "l2"), ("s", "l3")] +
...     [(f"l{i}", f"r{j}") for i in (1, 2, 3) for j in (1, 2, 3)], headers={"start": "s"})
>>> p = planarize(g, "s")
>>> p.crossings > 0, p.planar_output, all(c.safe for c in p.crossing_list)
(True, True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from pyasp_games.engines.graphs import Digraph, from_arcs
from pyasp_games.engines.limits import Deadline
from pyasp_games.errors import InputError

Point = tuple[Fraction, Fraction]
Arc = tuple[int, int]

#: How many drawings are tried before a non-planar digraph is refused.
DRAWINGS = 12
#: The largest digraph (after dropping what no play can use) that is redrawn.
MAX_VERTICES = 400


class UnsafeCrossing(Exception):
    """Every drawing tried has a crossing whose two arcs are used by one play."""

    def __init__(self, arcs: tuple[tuple[str, str], tuple[str, str]], play: list[str]) -> None:
        (a, b), (c, d) = arcs
        super().__init__(
            f"the arcs {a} -> {b} and {c} -> {d} cross in every drawing tried, and the play "
            f"{' '.join(play)} uses both: no crossing gadget can carry two passages"
        )
        self.arcs = arcs
        self.play = play


@dataclass
class Crossing:
    """One crossing of the drawing: its two arcs (names) and why it is safe."""

    first: tuple[str, str]
    second: tuple[str, str]
    safe: bool
    reason: str


@dataclass
class Planarized:
    """The planar digraph with the same winner, and the proof's parts."""

    graph: Digraph
    start: str
    crossings: int
    crossing_list: list[Crossing] = field(default_factory=list)
    dropped_vertices: int = 0
    dropped_arcs: int = 0
    planar_input: bool = False
    planar_output: bool = False
    search_nodes: int = 0


def usable_part(graph: Digraph, start: int) -> tuple[list[int], list[Arc]]:
    """The vertices reachable from ``start`` and the arcs a play can use among them (no
    self-loops, none into the start: the start is used before the first move)."""
    seen = [False] * len(graph)
    seen[start] = True
    stack = [start]
    while stack:
        u = stack.pop()
        for v in graph.succ[u]:
            if not seen[v]:
                seen[v] = True
                stack.append(v)
    vertices = [v for v in range(len(graph)) if seen[v]]
    arcs = [(u, v) for u in vertices for v in graph.succ[u] if v != u and v != start]
    return vertices, arcs


def play_using(
    succ: Sequence[Sequence[int]], start: int, first: Arc, second: Arc, deadline: Deadline | None,
    count: list[int] | None = None,
) -> list[int] | None:
    """A play from ``start`` (a simple path) that moves along both arcs, or ``None``.

    Exhaustive depth-first search over the simple paths from ``start``, cut where an arc
    still to be used has its tail unreachable through unused vertices or its head used.
    Exponential in the worst case (the question is NP-complete: it contains two disjoint
    paths); ``deadline`` bounds it (:class:`~pyasp_games.errors.LimitReached`).
    """
    n = len(succ)
    wanted = (first, second)

    def reachable(v: int, used: int, tail: int) -> bool:
        if v == tail:
            return True
        seen = used | (1 << v)
        stack = [v]
        while stack:
            u = stack.pop()
            for w in succ[u]:
                if not (seen >> w) & 1:
                    if w == tail:
                        return True
                    seen |= 1 << w
                    stack.append(w)
        return False

    def promising(v: int, used: int, done: int) -> bool:
        for k, (tail, head) in enumerate(wanted):
            if not (done >> k) & 1:
                if (used >> head) & 1 or (tail != v and (used >> tail) & 1):
                    return False
                if not reachable(v, used, tail):
                    return False
        return True

    path = [start]
    # the stack holds, per depth, an iterator over the moves still to try
    frames = [(iter(succ[start]), 1 << start, 0)]
    if not promising(start, 1 << start, 0):
        return None
    nodes = 0
    while frames:
        moves, used, done = frames[-1]
        v = path[-1]
        step = next(moves, None)
        if step is None:
            frames.pop()
            path.pop()
            continue
        if (used >> step) & 1:
            continue
        nodes += 1
        if deadline is not None and nodes % 2048 == 0:
            deadline.check()
        now = done | (1 if (v, step) == first else 0) | (2 if (v, step) == second else 0)
        path.append(step)
        if now == 3:
            if count is not None:
                count[0] += nodes
            return path
        used2 = used | (1 << step)
        if promising(step, used2, now):
            frames.append((iter(succ[step]), used2, now))
        else:
            path.pop()
    if count is not None:
        count[0] += nodes
    del n
    return None


def _cross(p: Point, q: Point, r: Point, s: Point) -> tuple[Fraction, Fraction] | None:
    """Where the segments ``pq`` and ``rs`` cross properly (as the parameters along each),
    or ``None``; exact arithmetic, so a touch or an overlap is seen as what it is."""
    dx1, dy1 = q[0] - p[0], q[1] - p[1]
    dx2, dy2 = s[0] - r[0], s[1] - r[1]
    den = dx1 * dy2 - dy1 * dx2
    if den == 0:
        return None
    t = ((r[0] - p[0]) * dy2 - (r[1] - p[1]) * dx2) / den
    u = ((r[0] - p[0]) * dy1 - (r[1] - p[1]) * dx1) / den
    if 0 < t < 1 and 0 < u < 1:
        return t, u
    return None


def _on_segment(p: Point, q: Point, x: Point) -> bool:
    cross = (q[0] - p[0]) * (x[1] - p[1]) - (q[1] - p[1]) * (x[0] - p[0])
    if cross != 0:
        return False
    return min(p[0], q[0]) <= x[0] <= max(p[0], q[0]) and min(p[1], q[1]) <= x[1] <= max(p[1], q[1])


def _polylines(arcs: Sequence[Arc], pos: dict[int, Point]) -> list[list[Point]]:
    """Each arc as a polyline: straight, or bent off the line when the opposite arc exists
    (the two arcs of a pair ``u -> v``, ``v -> u`` bend to opposite sides)."""
    present = set(arcs)
    lines = []
    for u, v in arcs:
        p, q = pos[u], pos[v]
        if (v, u) in present:
            mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
            nx_, ny = -(q[1] - p[1]) / 12, (q[0] - p[0]) / 12
            lines.append([p, (mx + nx_, my + ny), q])
        else:
            lines.append([p, q])
    return lines


def _crossings(
    arcs: Sequence[Arc], pos: dict[int, Point]
) -> list[tuple[int, tuple[int, Fraction], int, tuple[int, Fraction]]] | None:
    """The proper crossings of the drawing: ``(arc i, where along i, arc j, where along j)``;
    ``None`` if the drawing is degenerate (a vertex on an arc, three arcs through a point,
    overlapping arcs), and another is drawn."""
    lines = _polylines(arcs, pos)
    points = set(pos.values())
    if len(points) < len(pos):
        return None
    segments = [(i, k, line[k], line[k + 1]) for i, line in enumerate(lines) for k in range(len(line) - 1)]
    for i, _, p, q in segments:
        ends = {pos[arcs[i][0]], pos[arcs[i][1]]}
        for x in points:
            if x not in ends and _on_segment(p, q, x):
                return None
    found = []
    meeting: set[Point] = set()
    for a in range(len(segments)):
        i, k, p, q = segments[a]
        for b in range(a + 1, len(segments)):
            j, m, r, s = segments[b]
            if i == j:
                continue
            hit = _cross(p, q, r, s)
            if hit is None:
                # parallel and overlapping segments are degenerate
                if ((q[0] - p[0]) * (s[1] - r[1]) == (q[1] - p[1]) * (s[0] - r[0])) and (
                    (_on_segment(p, q, r) and r not in (p, q)) or (_on_segment(p, q, s) and s not in (p, q))
                ):
                    return None
                continue
            t, u = hit
            point = (p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]))
            if point in meeting:
                return None
            meeting.add(point)
            found.append((i, (k, t), j, (m, u)))
    return found


def _layouts(vertices: list[int], arcs: list[Arc], seed: int) -> list[dict[int, Point]]:
    """Candidate drawings: force-directed and circular layouts on an integer grid, jittered
    into general position (a seeded random, so the output is reproducible)."""
    import networkx as nx

    g = nx.Graph()
    g.add_nodes_from(vertices)
    g.add_edges_from(arcs)
    shapes = [nx.circular_layout(g), nx.kamada_kawai_layout(g) if len(vertices) <= 150 else None]
    shapes += [nx.spring_layout(g, seed=seed + k) for k in range(DRAWINGS)]
    rnd = random.Random(seed)
    drawn = []
    for shape in shapes:
        if shape is None:
            continue
        drawn.append({
            v: (Fraction(round(x * 10**6) + rnd.randrange(997)), Fraction(round(y * 10**6) + rnd.randrange(997)))
            for v, (x, y) in shape.items()
        })
    return drawn[:DRAWINGS]


def planarize(
    graph: Digraph, start: str, deadline: Deadline | None = None, seed: int = 0,
    progress: Callable[[str], None] | None = None,
) -> Planarized:
    """The planar vertex-geography digraph with the same winner from ``start`` (module docstring).

    Raises :class:`UnsafeCrossing` when every drawing tried has a crossing used twice by
    one play, :class:`~pyasp_games.errors.InputError` for a digraph too large to redraw,
    and :class:`~pyasp_games.errors.LimitReached` at the deadline. The safety search is
    exponential in the worst case; the rest is O(m^2) exact arithmetic per drawing.
    """
    import networkx as nx

    s = graph.position(start)
    vertices, arcs = usable_part(graph, s)
    dropped_vertices = len(graph) - len(vertices)
    dropped_arcs = graph.arc_count - len(arcs)
    names = graph.names
    if len(vertices) > MAX_VERTICES:
        raise InputError(
            f"{graph.name}: {len(vertices):,} vertices reachable from {start}; planarize redraws "
            f"at most {MAX_VERTICES:,}"
        )
    under = nx.Graph()
    under.add_nodes_from(vertices)
    under.add_edges_from(arcs)
    headers = {"start": start, "variant": "vertex", "undirected": "no"}
    kept = dict(graph.headers)
    if nx.check_planarity(under)[0]:
        out = from_arcs([(names[u], names[v]) for u, v in arcs], [names[v] for v in vertices],
                        name=f"{graph.name}.planar", headers={**_source(kept, graph), **headers})
        return Planarized(out, start, 0, [], dropped_vertices, dropped_arcs, True, True)

    succ: list[list[int]] = [[] for _ in range(len(graph))]
    for u, v in arcs:
        succ[u].append(v)
    verdicts: dict[frozenset[Arc], list[int] | None] = {}
    nodes = [0]
    best: tuple[int, int, list] | None = None
    first_unsafe: tuple[Arc, Arc, list[int]] | None = None
    for pos in _layouts(vertices, arcs, seed):
        if deadline is not None:
            deadline.check()
        found = _crossings(arcs, pos)
        if found is None:
            continue
        unsafe = 0
        for i, _, j, _ in found:
            key = frozenset((arcs[i], arcs[j]))
            if key not in verdicts:
                verdicts[key] = play_using(succ, s, arcs[i], arcs[j], deadline, nodes)
            if verdicts[key] is not None:
                unsafe += 1
                if first_unsafe is None:
                    first_unsafe = (arcs[i], arcs[j], verdicts[key])
        if best is None or (unsafe, len(found)) < best[:2]:
            best = (unsafe, len(found), found)
        if progress is not None:
            progress(f"drawing: {len(found)} crossings, {unsafe} unsafe")
    if best is None:
        raise InputError(f"{graph.name}: no drawing in general position found")
    if best[0] > 0:
        assert first_unsafe is not None
        (a, b), (c, d), play = first_unsafe
        raise UnsafeCrossing(((names[a], names[b]), (names[c], names[d])), [names[v] for v in play])
    out_graph, crossing_list = _with_gadgets(graph, vertices, arcs, best[2], start, kept)
    planar = bool(nx.check_planarity(out_graph.to_networkx().to_undirected())[0])
    return Planarized(out_graph, start, len(best[2]), crossing_list, dropped_vertices, dropped_arcs,
                      False, planar, nodes[0])


def _source(headers: dict[str, str], graph: Digraph) -> dict[str, str]:
    return {"source": f"{headers.get('source', graph.name)} (planarized)"}


def _with_gadgets(
    graph: Digraph, vertices: list[int], arcs: list[Arc], found: list, start: str, headers: dict[str, str]
) -> tuple[Digraph, list[Crossing]]:
    """The digraph with a gadget at every crossing (module docstring), chained along each arc
    in the order of the crossings on it."""
    names = graph.names
    taken = set(names)
    prefix = "X"
    while any(n.startswith(prefix) for n in taken):
        prefix = "_" + prefix
    # per arc: its crossings in order along it, each as (crossing number, role 0 or 1)
    along: list[list[tuple[tuple[int, Fraction], int, int]]] = [[] for _ in arcs]
    crossing_list = []
    for k, (i, at_i, j, at_j) in enumerate(found):
        along[i].append((at_i, k, 0))
        along[j].append((at_j, k, 1))
        crossing_list.append(Crossing(
            (names[arcs[i][0]], names[arcs[i][1]]), (names[arcs[j][0]], names[arcs[j][1]]), True,
            "no play from the start uses both arcs (exhaustive search)",
        ))
    new_arcs: list[tuple[str, str]] = []

    def gadget(k: int, role: int, part: str) -> str:
        # part: "1", "2" before the centre, "3" after it; role 0 is arc one (u, v), 1 arc two (w, z)
        return f"{prefix}{k}{'uw'[role]}{part}"

    for k in range(len(found)):
        centre = f"{prefix}{k}x"
        # the punishers: z1 -> y -> u2 and v1 -> y' -> w2
        new_arcs += [(gadget(k, 1, "3"), f"{prefix}{k}ya"), (f"{prefix}{k}ya", gadget(k, 0, "2"))]
        new_arcs += [(gadget(k, 0, "3"), f"{prefix}{k}yb"), (f"{prefix}{k}yb", gadget(k, 1, "2"))]
        for role in (0, 1):
            new_arcs += [(gadget(k, role, "1"), gadget(k, role, "2")), (gadget(k, role, "2"), centre),
                         (centre, gadget(k, role, "3"))]
    for a, (u, v) in enumerate(arcs):
        here = names[u]
        for _, k, role in sorted(along[a]):
            new_arcs.append((here, gadget(k, role, "1")))
            here = gadget(k, role, "3")
        new_arcs.append((here, names[v]))
    out = from_arcs(new_arcs, [names[v] for v in vertices], name=f"{graph.name}.planar",
                    headers={**_source(headers, graph), "start": start, "variant": "vertex",
                             "undirected": "no"})
    return out, crossing_list
