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
The reduction here is therefore proved, not assumed: every crossing of the drawing is
*safe*, meaning no play from the start uses both of its arcs (proved in polynomial time
where it can: after one arc, the other's tail is unreachable without the dominators of the
first arc's tail, :class:`SafetyProof`; else an exhaustive search over the simple paths from
the start, pruned by reachability), and then the winner is preserved
(above). The drawing is made for it, by edge insertion (as crossing-minimising
planarizers do): a breadth-first tree of the plays, every arc that keeps it planar, then
each remaining arc along the cheapest way through the faces of the drawing so far (Dijkstra
on the dual graph), where an unsafe crossing is forbidden and a safe one costs one. On
Schaefer's graphs of QBFs the back arcs from the literals then cross only one another
(after one of them the play is over), as in Lichtenstein and Sipser's drawing. A digraph
for which no drawing tried avoids an unsafe crossing is refused, with a play that uses
both arcs.

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

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from pyasp_games.engines.graphs import Digraph, from_arcs
from pyasp_games.engines.limits import Deadline
from pyasp_games.errors import InputError

Arc = tuple[int, int]
T = TypeVar("T")

#: The largest digraph (after dropping what no play can use) that is redrawn.
MAX_VERTICES = 400
#: How many drawings are tried (each draws first an arc the one before could not draw).
ATTEMPTS = 20


def polled(items: Iterable[T], deadline: Deadline | None, every: int = 4096) -> Iterator[T]:
    """``items`` one by one, the deadline checked every ``every`` of them: a long loop (or
    a library call consuming an iterable, such as ``from_arcs``) stops at the time limit
    by itself, without the whole command's alarm (which a program calling in-process
    does not have).

    >>> list(polled(range(3), Deadline(60)))
    [0, 1, 2]
    """
    for count, item in enumerate(items):
        if deadline is not None and count % every == 0:
            deadline.check()
        yield item


class UnsafeCrossing(Exception):
    """Every drawing tried has a crossing whose two arcs are used by one play."""

    def __init__(self, arcs: tuple[tuple[str, str], tuple[str, str]], play: list[str]) -> None:
        (a, b), (c, d) = arcs
        super().__init__(
            f"no drawing tried keeps the arcs {a} -> {b} and {c} -> {d} from crossing, and the "
            f"play {' '.join(play)} uses both: no crossing gadget can carry two passages"
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


def without_two_cycles(graph: Digraph) -> Digraph:
    """Directed *edge* geography's game with every 2-cycle ``a -> b``, ``b -> a`` left out:
    the same winner, from every position where both arcs are unused.

    The player who wins without the pair wins with it: whenever the opponent moves along
    one of its arcs, he answers along the other, back to the same vertex with the same
    player to move and the pair used up (a position of the game without it), and he never
    enters it himself. (The native search uses the same rule, ``native.py``.) A smaller
    line digraph, with fewer crossings to make safe.

    >>> from pyasp_games.engines.graphs import from_arcs
    >>> g = without_two_cycles(from_arcs([("s", "a"), ("a", "s"), ("a", "b"), ("b", "b")]))
    >>> sorted((g.names[u], g.names[v]) for u, v in g.arcs())
    [('a', 'b'), ('b', 'b')]
    """
    arcs = set(graph.arcs())
    kept = [(graph.names[u], graph.names[v]) for u, v in graph.arcs() if u == v or (v, u) not in arcs]
    return from_arcs(kept, graph.names, name=graph.name, headers=graph.headers)


def line_digraph(graph: Digraph, start: str) -> Digraph:
    """Directed *edge* geography on ``graph`` as *vertex* geography: its line digraph.

    A vertex per arc ``u -> v`` (named ``u>v``: the token stands on ``v``, the arc used
    up), an arc ``u>v -> v>w`` for every arc out of ``v``, and the start (its own name)
    with an arc to every arc out of it. A play of edge geography is a walk using each arc
    once; here, a path through the arcs' vertices using each once: the same plays, move
    for move, so the same winner. Vertex geography is what the drawing route keeps (its
    gadgets are vertices used up), so edge geography is redrawn through this.

    >>> from pyasp_games.engines.graphs import from_arcs
    >>> g = line_digraph(from_arcs([("s", "a"), ("a", "s"), ("s", "b")]), "s")
    >>> sorted((g.names[u], g.names[v]) for u, v in g.arcs())
    [('a>s', 's>a'), ('a>s', 's>b'), ('s', 's>a'), ('s', 's>b'), ('s>a', 'a>s')]
    """
    names = graph.names
    label = [[f"{names[u]}>{names[v]}" for v in graph.succ[u]] for u in range(len(graph))]
    if len({x for row in label for x in row}) < graph.arc_count:  # names with '>' in them
        label = [[f"{u}>{v}" for v in graph.succ[u]] for u in range(len(graph))]
    taken = {x for row in label for x in row}
    first = start
    while first in taken:
        first = "_" + first  # a start that is not also an arc's name
    s = graph.position(start)
    arcs = [(first, label[s][k]) for k in range(len(graph.succ[s]))]
    for u in range(len(graph)):
        for k, v in enumerate(graph.succ[u]):
            arcs += [(label[u][k], label[v][j]) for j in range(len(graph.succ[v]))]
    headers = {"source": f"{graph.headers.get('source', graph.name)} (line digraph)", "start": first,
               "variant": "vertex", "undirected": "no"}
    return from_arcs(arcs, [first], name=f"{graph.name}.line", headers=headers)


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


class SafetyProof:
    """Whether no play from ``start`` uses two given arcs, by a polynomial sufficient test:
    a play that uses ``a -> b`` has used every dominator of ``a`` (every vertex on all
    paths from the start to ``a``) and ``a`` itself, so the other arc's tail must be
    reachable from ``b`` without them; both orders are tested. :meth:`safe` is ``False``
    for "not proved" (a play may or may not use both). The dominators are computed once
    (networkx), each arc's reach after it once.

    >>> proof = SafetyProof([[1, 2], [3], [3], []], 0)   # s -> a -> t, s -> b -> t
    >>> proof.safe((0, 1), (2, 3)), proof.safe((0, 1), (1, 3))
    (True, False)
    """

    def __init__(self, succ: Sequence[Sequence[int]], start: int) -> None:
        import networkx as nx

        g = nx.DiGraph()
        g.add_nodes_from(range(len(succ)))
        g.add_edges_from((u, v) for u, vs in enumerate(succ) for v in vs)
        self.idom = dict(nx.immediate_dominators(g, start))
        self.idom[start] = start  # (networkx 3.5 leaves the start out)
        self.succ = succ
        self.reach: dict[Arc, set[int]] = {}

    def reachable_after(self, arc: Arc) -> set[int]:
        """The vertices a play can still reach after moving along ``arc``."""
        if arc not in self.reach:
            a, b = arc
            idom, succ = self.idom, self.succ
            blocked = {a}
            x = a
            while idom[x] != x:
                x = idom[x]
                blocked.add(x)
            seen = {b} if b not in blocked else set()
            stack = list(seen)
            while stack:
                u = stack.pop()
                for w in succ[u]:
                    if w not in seen and w not in blocked:
                        seen.add(w)
                        stack.append(w)
            self.reach[arc] = seen
        return self.reach[arc]

    def safe(self, first: Arc, second: Arc) -> bool:
        if first[0] not in self.idom or second[0] not in self.idom:  # a tail no play reaches
            return True
        return (second[0] not in self.reachable_after(first)
                and first[0] not in self.reachable_after(second))


class _Drawing:
    """A planar drawing grown arc by arc: a planar embedding (networkx) in which every edge
    carries one arc, and a crossing is a vertex of degree four (two arcs through it)."""

    def __init__(self, n: int, arcs: Sequence[Arc], tree: set[int], rest: Sequence[int],
                 deadline: Deadline | None = None) -> None:
        import networkx as nx

        self.arcs = arcs
        g = nx.Graph()
        g.add_nodes_from(range(n))
        self.carrier: dict[frozenset[int], int] = {}
        self.later: list[int] = []
        for k in polled([*tree, *rest], deadline, 16):  # a spanning tree, then every arc keeping it planar
            u, v = arcs[k]
            g.add_edge(u, v)
            if k not in tree and not nx.check_planarity(g)[0]:
                g.remove_edge(u, v)
                self.later.append(k)
            else:
                self.carrier[frozenset((u, v))] = k
        planar, self.embedding = nx.check_planarity(g)
        assert planar
        self.next_vertex = n
        self.crossings: dict[int, tuple[int, int]] = {}

    def faces(self) -> dict[tuple[int, int], int]:
        """Every half-edge's face (the one networkx's ``traverse_face`` walks from it)."""
        emb, face, count = self.embedding, {}, 0
        for v in emb:
            for w in emb.neighbors_cw_order(v):
                if (v, w) in face:
                    continue
                half = (v, w)
                while half not in face:
                    face[half] = count
                    half = emb.next_face_half_edge(*half)
                count += 1
        return face

    def route(self, k: int, cost: Callable[[int, int], float]) -> list[tuple[int, int]] | None:
        """The cheapest way for arc ``k`` through the faces (Dijkstra on the dual graph):
        the edges it crosses, in order; ``cost(k, j)`` prices crossing arc ``j``."""
        import heapq

        a, b = self.arcs[k]
        emb, face = self.embedding, self.faces()
        ends = {face[(b, t)] for t in emb.neighbors_cw_order(b)}
        across: dict[int, list[tuple[int, int]]] = {}
        for (v, w), f in face.items():
            across.setdefault(f, []).append((v, w))
        best = {face[(a, t)]: 0.0 for t in emb.neighbors_cw_order(a)}
        came: dict[int, tuple[int, tuple[int, int]] | None] = dict.fromkeys(best)
        heap = [(0.0, f) for f in best]
        while heap:
            d, f = heapq.heappop(heap)
            if d > best[f]:
                continue
            if f in ends:
                path = []
                while came[f] is not None:
                    f, edge = came[f]
                    path.append(edge)
                return path[::-1]
            for v, w in across[f]:
                g = face[(w, v)]
                step = d + cost(k, self.carrier[frozenset((v, w))])
                if g != f and step < best.get(g, float("inf")):
                    best[g], came[g] = step, (f, (v, w))
                    heapq.heappush(heap, (step, g))
        return None

    def insert(self, k: int, crossed: list[tuple[int, int]]) -> None:
        """Draw arc ``k`` across the edges ``crossed`` (each ``(v, w)`` as walked from the
        face it is left by), a crossing vertex on each."""
        a, b = self.arcs[k]
        emb, face = self.embedding, self.faces()
        # the corner of a (of b) in the first (last) face: the new edge goes in clockwise
        # next to the half-edge that starts that face's walk there
        first = face[crossed[0]] if crossed else None
        last = face[(crossed[-1][1], crossed[-1][0])] if crossed else None
        if not crossed:
            shared = {face[(a, t)] for t in emb.neighbors_cw_order(a)} & {
                face[(b, t)] for t in emb.neighbors_cw_order(b)}
            first = last = min(shared)
        t_a = next(t for t in emb.neighbors_cw_order(a) if face[(a, t)] == first)
        t_b = next(t for t in emb.neighbors_cw_order(b) if face[(b, t)] == last)
        previous, at_previous = a, t_a
        for v, w in crossed:
            x = self.next_vertex
            self.next_vertex += 1
            j = self.carrier.pop(frozenset((v, w)))
            emb.add_half_edge(v, x, ccw=w)
            emb.add_half_edge(w, x, ccw=v)
            emb.remove_edge(v, w)
            emb.add_half_edge_first(x, v)
            emb.add_half_edge(x, w, ccw=v)
            # (v, w) walks the face the arc comes from: at x that face lies between v and w
            emb.add_half_edge(x, previous, ccw=w)
            emb.add_half_edge(previous, x, ccw=at_previous)
            self.carrier[frozenset((v, x))] = self.carrier[frozenset((x, w))] = j
            self.carrier[frozenset((previous, x))] = k
            self.crossings[x] = (k, j)
            previous, at_previous = x, v  # the next face lies between w and v at x
        emb.add_half_edge(b, previous, ccw=t_b)
        emb.add_half_edge(previous, b, ccw=at_previous)
        self.carrier[frozenset((previous, b))] = k

    def chain(self, k: int) -> list[int]:
        """The crossing vertices arc ``k`` passes, from its tail to its head."""
        a, b = self.arcs[k]
        out, before, here = [], None, a
        while here != b:
            step = next(w for w in self.embedding.neighbors_cw_order(here)
                        if w != before and self.carrier.get(frozenset((here, w))) == k)
            before, here = here, step
            if here != b:
                out.append(here)
        return out


def planarize(
    graph: Digraph, start: str, deadline: Deadline | None = None,
    progress: Callable[[str], None] | None = None, attempts: int = ATTEMPTS, exhaustive: bool = True,
) -> Planarized:
    """The planar vertex-geography digraph with the same winner from ``start`` (module docstring).

    The drawing is grown as planarizing heuristics do (edge insertion): a spanning tree of
    the plays (breadth first from the start), then every arc that keeps the drawing
    planar, then each remaining arc along the cheapest way through the faces, where
    crossing an arc that some play uses together with it is forbidden (it could not be
    carried) and any other crossing costs one. Raises :class:`UnsafeCrossing` when an arc
    has no such way, :class:`~pyasp_games.errors.InputError` for a digraph too large to
    redraw, :class:`~pyasp_games.errors.LimitReached` at the deadline. The safety search is
    exponential in the worst case (``exhaustive=False`` leaves it out: only the crossings
    the dominators prove safe are made); the rest is one planarity test per arc and one
    Dijkstra run on the dual graph per arc left out of the planar part.
    """
    import networkx as nx

    s = graph.position(start)
    vertices, usable = usable_part(graph, s)
    dropped_vertices = len(graph) - len(vertices)
    dropped_arcs = graph.arc_count - len(usable)
    if len(vertices) > MAX_VERTICES:
        raise InputError(
            f"{graph.name}: {len(vertices):,} vertices reachable from {start}; planarize redraws "
            f"at most {MAX_VERTICES:,}"
        )
    headers = {"source": f"{graph.headers.get('source', graph.name)} (planarized)", "start": start,
               "variant": "vertex", "undirected": "no"}
    names = list(graph.names)
    under = nx.Graph(list(usable))
    under.add_nodes_from(vertices)
    if nx.check_planarity(under)[0]:
        out = from_arcs([(names[u], names[v]) for u, v in usable], [names[v] for v in vertices],
                        name=f"{graph.name}.planar", headers=headers)
        return Planarized(out, start, 0, [], dropped_vertices, dropped_arcs, True, True)
    prefix = _fresh_prefix(names)
    # an arc whose opposite arc exists runs through two private vertices of its own (an even
    # subdivision keeps the winner: entering it when the head is used loses, as the move
    # was none), so every edge of the drawing carries exactly one arc
    arcs: list[Arc] = []
    origin: list[Arc] = []  # the input's arc each arc of the drawing is (a part of)
    present = set(usable)
    for u, v in usable:
        if (v, u) in present and u > v:
            m1, m2 = len(names), len(names) + 1
            names += [f"{prefix}{names[u]}s{names[v]}a", f"{prefix}{names[u]}s{names[v]}b"]
            arcs += [(u, m1), (m1, m2), (m2, v)]
            origin += [(u, v)] * 3
        else:
            arcs.append((u, v))
            origin.append((u, v))
    succ: list[list[int]] = [[] for _ in names]
    for u, v in arcs:
        succ[u].append(v)
    verdicts: dict[frozenset[int], list[int] | None] = {}
    nodes = [0]

    proof = SafetyProof(succ, s)

    def shared_play(k: int, j: int) -> list[int] | None:
        key = frozenset((k, j))
        if key not in verdicts:
            # proved safe in polynomial time (dominators), else the exhaustive search
            # (without the search, a crossing not proved safe is taken as unsafe: a drawing
            # may then be refused that exists, never one made that is wrong)
            verdicts[key] = None if proof.safe(arcs[k], arcs[j]) else play_using(
                succ, s, arcs[k], arcs[j], deadline, nodes) if exhaustive else []
        return verdicts[key]

    unsafe = float(len(arcs) ** 2 + 1)  # dearer than every safe way together

    def price(k: int, j: int) -> float:
        return unsafe if shared_play(k, j) is not None else 1.0

    tree, rest = _plays_first(succ, s, arcs)
    refusal: UnsafeCrossing | None = None
    for _attempt in range(attempts):
        drawing = _Drawing(len(names), arcs, tree, rest, deadline)
        for count, k in enumerate(drawing.later):
            if deadline is not None:
                deadline.check()
            crossed = drawing.route(k, price)
            assert crossed is not None  # the dual graph of a connected plane graph is connected
            blocked = [j for j in (drawing.carrier[frozenset(e)] for e in crossed)
                       if shared_play(k, j) is not None]
            if blocked:
                j = blocked[0]
                play = [names[v] for v in shared_play(k, j) or [] if v < len(graph)]
                (a, b), (c, d) = origin[k], origin[j]  # as the input names them
                refusal = UnsafeCrossing(((names[a], names[b]), (names[c], names[d])), play)
                # draw it earlier next time, before the arcs that walled it in
                rest = [k, *(r for r in rest if r != k)]
                break
            drawing.insert(k, crossed)
            if progress is not None:
                progress(f"arc {count + 1} of {len(drawing.later)} drawn, {len(drawing.crossings)} crossings")
        else:
            break
    else:
        assert refusal is not None
        raise refusal
    drawing.embedding.check_structure()  # a plane embedding, or a bug here
    if deadline is not None:
        deadline.check()
    out_graph, crossing_list = _with_gadgets(names, len(graph), vertices, arcs, drawing, prefix, headers)
    if deadline is not None:
        deadline.check()
    out_graph.name = f"{graph.name}.planar"
    planar = bool(nx.check_planarity(out_graph.to_networkx().to_undirected())[0])
    return Planarized(out_graph, start, len(drawing.crossings), crossing_list, dropped_vertices,
                      dropped_arcs, False, planar, nodes[0])


def _plays_first(
    succ: Sequence[Sequence[int]], start: int, arcs: Sequence[Arc]
) -> tuple[set[int], list[int]]:
    """The arcs in the order the drawing takes them: a breadth-first tree of the plays
    from the start, then the others by how early a play can reach their tail."""
    depth = {start: 0}
    queue, tree = [start], []
    index = {arc: k for k, arc in enumerate(arcs)}
    for u in queue:
        for v in succ[u]:
            if v not in depth:
                depth[v] = depth[u] + 1
                queue.append(v)
                tree.append(index[(u, v)])
    chosen = set(tree)
    rest = sorted((k for k in range(len(arcs)) if k not in chosen), key=lambda k: depth[arcs[k][0]])
    return chosen, rest


def _fresh_prefix(names: Sequence[str]) -> str:
    prefix = "X"
    while any(n.startswith(prefix) for n in names):
        prefix = "_" + prefix
    return prefix


def with_gadgets(
    names: Sequence[str], arcs: Sequence[Arc], along: Sequence[Sequence[tuple[int, int]]], prefix: str
) -> Iterator[tuple[str, str]]:
    """The arcs (by name, one by one) with a gadget at every crossing (module docstring): ``along[a]``
    lists the crossings on arc ``a`` from its tail to its head, each as ``(crossing number,
    role)``; a crossing has one arc in role 0 (``u``, ``v`` in the docstring) and one in
    role 1 (``w``, ``z``). Gadget vertices are named ``<prefix><crossing><part>``."""

    def gadget(k: int, role: int, part: str) -> str:
        # part "1", "2": before the centre; "3": after it
        return f"{prefix}{k}{'uw'[role]}{part}"

    for k in sorted({k for crossings in along for k, _ in crossings}):
        centre = f"{prefix}{k}x"
        # the punishers: z1 -> y -> u2 and v1 -> y' -> w2
        yield from [(gadget(k, 1, "3"), f"{prefix}{k}ya"), (f"{prefix}{k}ya", gadget(k, 0, "2"))]
        yield from [(gadget(k, 0, "3"), f"{prefix}{k}yb"), (f"{prefix}{k}yb", gadget(k, 1, "2"))]
        for role in (0, 1):
            yield from [(gadget(k, role, "1"), gadget(k, role, "2")), (gadget(k, role, "2"), centre),
                        (centre, gadget(k, role, "3"))]
    for a, (u, v) in enumerate(arcs):
        here = names[u]
        for k, role in along[a]:
            yield here, gadget(k, role, "1")
            here = gadget(k, role, "3")
        yield here, names[v]


def _with_gadgets(
    names: list[str], original: int, vertices: list[int], arcs: list[Arc], drawing: _Drawing,
    prefix: str, headers: dict[str, str],
) -> tuple[Digraph, list[Crossing]]:
    """The drawing's digraph with a gadget at every crossing, and the crossings' record."""
    number = {x: k for k, x in enumerate(sorted(drawing.crossings))}
    along = [[(number[x], 0 if drawing.crossings[x][0] == a else 1) for x in drawing.chain(a)]
             for a in range(len(arcs))]

    def shown(k: int) -> tuple[str, str]:
        # a subdivided arc is shown as the arc it replaces
        u, v = arcs[k]
        while u >= original:
            u = next(t for t, h in arcs if h == u)
        while v >= original:
            v = next(h for t, h in arcs if t == v)
        return names[u], names[v]

    crossing_list = [Crossing(shown(k), shown(j), True, "no play from the start uses both arcs "
                              "(dominators, or exhaustive search)")
                     for x, (k, j) in sorted(drawing.crossings.items())]
    out = from_arcs(with_gadgets(names, arcs, along, prefix), [names[v] for v in vertices],
                    name=headers.get("source", "graph").removesuffix(" (planarized)") + ".planar",
                    headers=headers)
    return out, crossing_list
