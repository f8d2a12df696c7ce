"""Graphs: one graph type for every domain (an undirected :class:`Graph` is a
:class:`Digraph`), and one reader of graph files.

A :class:`Digraph` has arbitrary token names for its vertices, numbered ``0..n-1`` in
order of first appearance, and for every vertex the tuple of its successors (duplicate
arcs are dropped, self-loops kept): the game graphs of ``grundy`` and ``geography``,
whose vertices are positions and arcs moves. A :class:`Graph` is an undirected simple
graph, a :class:`Digraph` whose every edge is the two arcs ``u -> v`` and ``v -> u``,
with its edges, neighbours and shortest-path distances: the graphs of ``routing``.

Formats, chosen by ``fmt`` or else by the file's extension; :func:`read_graph` reads each
one as a :class:`Digraph`, or with ``undirected=True`` as a :class:`Graph` (a line or arc
``u v`` is then the edge ``{u, v}``):

- ``arcs`` (any other extension, e.g. ``.txt``): one arc ``u v`` per line; a line
  with one name declares a vertex; ``#`` starts a comment. A comment
  ``# key: value`` before the first arc is kept in :attr:`Digraph.headers`.
- ``adjlist`` (``.adjlist``): networkx's adjacency list, ``u v1 v2 ...`` per line.
- ``graphml`` (``.graphml``): GraphML, read by networkx (a game graph's must be directed).
- ``json`` (``.json``): networkx node-link JSON (a game graph's must be directed); or a
  coupling map as qiskit writes it (a list of pairs of qubit numbers ``[[0, 1], [1, 0],
  [1, 2], ...]``), or an IBM backend configuration (an object with a ``coupling_map``).

>>> g = parse_arcs("# a 3-cycle\\na b\\nb c\\nc a\\nd\\n", name="c3")
>>> g.names, g.succ, g.arc_count
(('a', 'b', 'c', 'd'), ((1,), (2,), (0,), ()), 3)
>>> g.find_cycle() is not None, g.position("d")
(True, 3)
>>> h = graph_from_edges([("a", "b"), ("c", "b")])
>>> h.names, h.edges, h.adj, h.distances[0]
(('a', 'b', 'c'), ((0, 1), (1, 2)), ((1,), (0, 2), (1,)), (0, 1, 2))
>>> parse_coupling_map("[[0, 1], [1, 0], [1, 2]]", "map.json", undirected=True).edges
((0, 1), (1, 2))
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from pyasp_games.engines.files import comment_header, parse_json
from pyasp_games.errors import InputError, checked_int, read_text

#: Formats :func:`read_graph` understands, and the extensions that select them.
FORMATS = ("arcs", "adjlist", "graphml", "json")
_BY_EXTENSION = {".adjlist": "adjlist", ".graphml": "graphml", ".json": "json"}


@dataclass(eq=False)
class Digraph:
    """A directed graph on named vertices ``0..n-1``.

    Attributes:
        names: vertex names (tokens), by number.
        succ: for every vertex, its successors (the positions one move away).
        name: a label for messages and outcomes (usually the file name).
        headers: ``# key: value`` comments of an arc-list file (lower-case keys).
    """

    names: tuple[str, ...]
    succ: tuple[tuple[int, ...], ...]
    name: str = "graph"
    headers: dict[str, str] = field(default_factory=dict)

    #: whether an arc ``u -> v`` is a move one way only (a :class:`Graph`'s are edges)
    directed = True

    def __post_init__(self) -> None:
        self.index = {v: i for i, v in enumerate(self.names)}
        self._pred: tuple[tuple[int, ...], ...] | None = None

    def __len__(self) -> int:
        return len(self.names)

    @property
    def arc_count(self) -> int:
        return sum(len(s) for s in self.succ)

    @property
    def pred(self) -> tuple[tuple[int, ...], ...]:
        """For every vertex, its predecessors (computed once)."""
        if self._pred is None:
            lists: list[list[int]] = [[] for _ in self.names]
            for u, out in enumerate(self.succ):
                for v in out:
                    lists[v].append(u)
            self._pred = tuple(map(tuple, lists))
        return self._pred

    def arcs(self) -> Iterable[tuple[int, int]]:
        for u, out in enumerate(self.succ):
            for v in out:
                yield u, v

    def position(self, name: str) -> int:
        """The number of the vertex ``name``; an :class:`InputError` if there is none."""
        try:
            return self.index[name]
        except KeyError:
            raise InputError(f"{self.name}: no position named {name!r}") from None

    def topological_order(self) -> list[int] | None:
        """Vertices with every successor before its predecessors (sinks first), or ``None`` if cyclic."""
        remaining = [len(s) for s in self.succ]
        order = [v for v, d in enumerate(remaining) if d == 0]
        pred = self.pred
        i = 0
        while i < len(order):
            for u in pred[order[i]]:
                remaining[u] -= 1
                if remaining[u] == 0:
                    order.append(u)
            i += 1
        return order if len(order) == len(self.names) else None

    def find_cycle(self) -> list[int] | None:
        """One directed cycle as a vertex list ``[v0, v1, ..., vk]`` (arc vk -> v0), or ``None``."""
        colour = [0] * len(self.names)  # 0 new, 1 on the stack, 2 done
        for root in range(len(self.names)):
            if colour[root]:
                continue
            stack = [(root, iter(self.succ[root]))]
            path = [root]
            colour[root] = 1
            while stack:
                v, it = stack[-1]
                for w in it:
                    if colour[w] == 1:
                        return path[path.index(w) :]
                    if colour[w] == 0:
                        colour[w] = 1
                        stack.append((w, iter(self.succ[w])))
                        path.append(w)
                        break
                else:
                    colour[v] = 2
                    stack.pop()
                    path.pop()
        return None

    def strongly_connected_components(self) -> list[list[int]]:
        """SCCs in reverse topological order: every arc leaving a component goes to an earlier one.

        Iterative Tarjan, O(|V| + |A|).
        """
        n = len(self.names)
        index = [-1] * n
        low = [0] * n
        on_stack = [False] * n
        stack: list[int] = []
        out: list[list[int]] = []
        counter = 0
        succ = self.succ
        for root in range(n):
            if index[root] >= 0:
                continue
            work = [(root, 0)]
            index[root] = low[root] = counter
            counter += 1
            stack.append(root)
            on_stack[root] = True
            while work:
                v, i = work[-1]
                out_v = succ[v]
                if i < len(out_v):
                    work[-1] = (v, i + 1)
                    w = out_v[i]
                    if index[w] < 0:
                        index[w] = low[w] = counter
                        counter += 1
                        stack.append(w)
                        on_stack[w] = True
                        work.append((w, 0))
                    elif on_stack[w] and index[w] < low[v]:
                        low[v] = index[w]
                    continue
                work.pop()
                if work:
                    parent = work[-1][0]
                    if low[v] < low[parent]:
                        low[parent] = low[v]
                if low[v] == index[v]:
                    component = []
                    while True:
                        w = stack.pop()
                        on_stack[w] = False
                        component.append(w)
                        if w == v:
                            break
                    out.append(component)
        return out

    def to_networkx(self) -> Any:
        """The graph in networkx (a ``DiGraph``, a :class:`Graph`'s a ``Graph``), on the
        vertices' names."""
        import networkx as nx

        g = nx.DiGraph() if self.directed else nx.Graph()
        g.add_nodes_from(self.names)
        g.add_edges_from((self.names[u], self.names[v]) for u, v in self.arcs())
        return g

    def format_arcs(self) -> str:
        """The graph in the arc-list format (isolated vertices on their own line)."""
        lines = [f"# {k}: {v}" for k, v in self.headers.items()]
        has_arc = [False] * len(self.names)
        for u, v in self.arcs():
            has_arc[u] = has_arc[v] = True
            lines.append(f"{self.names[u]} {self.names[v]}")
        lines += [self.names[v] for v in range(len(self.names)) if not has_arc[v]]
        return "\n".join(lines) + "\n"


class OnGraph:
    """An instance played on a graph (its attribute ``graph``): its name, its vertex
    names and its size are the graph's. A mixin of the domains' dataclasses.

    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class Game(OnGraph):
    ...     graph: Digraph
    >>> g = Game(parse_arcs("a b\\n", name="g.txt"))
    >>> g.name, g.names, len(g)
    ('g.txt', ('a', 'b'), 2)
    """

    graph: Digraph

    @property
    def name(self) -> str:
        return self.graph.name

    @property
    def names(self) -> tuple[str, ...]:
        return self.graph.names

    def __len__(self) -> int:
        return len(self.graph)


class Graph(Digraph):
    """An undirected simple graph on named vertices ``0..n-1``: a :class:`Digraph` whose
    every edge ``{u, v}`` is the arcs ``u -> v`` and ``v -> u``, without self-loops.

    Attributes (beside the :class:`Digraph`'s):
        edges: every edge once, as ``(u, v)`` with ``u < v``, sorted.
        adj: every vertex's neighbours, sorted (its ``succ``).
    """

    directed = False

    def __init__(self, names: Sequence[str], edges: Sequence[tuple[int, int]], name: str = "graph",
                 headers: dict[str, str] | None = None) -> None:  # fmt: skip
        """``edges``: pairs ``(u, v)`` with ``u < v``, sorted, none twice (see
        :func:`graph_from_edges` for a graph from any labelled edges)."""
        lists: list[list[int]] = [[] for _ in names]
        for u, v in edges:
            lists[u].append(v)
            lists[v].append(u)
        adj = tuple(tuple(sorted(a)) for a in lists)
        super().__init__(tuple(names), adj, name, dict(headers or {}))
        self.edges = tuple(edges)

    @property
    def adj(self) -> tuple[tuple[int, ...], ...]:
        return self.succ

    def bfs(self, source: int) -> list[int]:
        """Shortest-path lengths from ``source`` (-1: unreachable)."""
        d = [-1] * len(self.names)
        d[source] = 0
        queue = deque([source])
        while queue:
            u = queue.popleft()
            for w in self.succ[u]:
                if d[w] < 0:
                    d[w] = d[u] + 1
                    queue.append(w)
        return d

    @cached_property
    def distances(self) -> tuple[tuple[int, ...], ...]:
        """All-pairs shortest-path lengths (BFS from every vertex; -1: unreachable)."""
        return tuple(tuple(self.bfs(s)) for s in range(len(self.names)))

    @cached_property
    def max_matching(self) -> int:
        """The size of a maximum matching (networkx)."""
        import networkx as nx

        return len(nx.max_weight_matching(self.to_networkx(), maxcardinality=True))

    def named_edges(self) -> set[frozenset[str]]:
        """The edges as sets of vertex names (what two graphs of the same vertices compare)."""
        return {frozenset((self.names[u], self.names[v])) for u, v in self.edges}

    def format_arcs(self) -> str:
        """The graph in the arc-list format, one line ``u v`` per edge (a vertex without
        edges on its own line)."""
        lines = [f"# {k}: {v}" for k, v in self.headers.items()]
        lines += [f"{self.names[u]} {self.names[v]}" for u, v in self.edges]
        lines += [nm for v, nm in enumerate(self.names) if not self.succ[v]]
        return "\n".join(lines) + "\n"


#: The most arcs a random game graph may have (bench generators): about a gigabyte of
#: Python tuples; a larger one is a typing slip, not a plan.
MAX_RANDOM_ARCS = 5_000_000


def check_random_size(vertices: int, arcs: int, possible: int) -> None:
    """Refuse a random graph of ``arcs`` arcs on ``vertices`` vertices before drawing it:
    beyond :data:`MAX_RANDOM_ARCS`, or more than the ``possible`` distinct arcs (the
    drawing would never end).

    >>> check_random_size(10, 200, 90)
    Traceback (most recent call last):
        ...
    pyasp_games.errors.InputError: a random graph on 10 vertices has at most 90 distinct arcs, not 200
    """
    checked_int(vertices, "a random graph's number of vertices", 1, MAX_RANDOM_ARCS)
    if arcs > possible:
        raise InputError(
            f"a random graph on {vertices:,} vertices has at most {possible:,} distinct arcs, not {arcs:,}"
        )
    if arcs > MAX_RANDOM_ARCS:
        raise InputError(f"a random graph of {arcs:,} arcs: this tool's limit is {MAX_RANDOM_ARCS:,}")


def from_arcs(
    arcs: Iterable[tuple[Any, Any]],
    vertices: Iterable[Any] = (),
    name: str = "graph",
    headers: dict[str, str] | None = None,
) -> Digraph:
    """A :class:`Digraph` from arcs between hashable vertex labels (written with ``str``)."""
    index: dict[str, int] = {}
    succ: list[list[int]] = []
    seen: list[set[int]] = []

    def number(label: Any) -> int:
        key = str(label)
        i = index.get(key)
        if i is None:
            i = index[key] = len(succ)
            succ.append([])
            seen.append(set())
        return i

    for v in vertices:
        number(v)
    for u, v in arcs:
        a, b = number(u), number(v)
        if b not in seen[a]:
            seen[a].add(b)
            succ[a].append(b)
    return Digraph(tuple(index), tuple(map(tuple, succ)), name, dict(headers or {}))


def parse_arcs(text: str, name: str = "graph", undirected: bool = False) -> Digraph:
    """Parse the arc-list format (see the module docstring).

    Parameters
    ----------
    text : str
        One arc ``u v`` a line, or one name (a vertex); ``#`` starts a comment, and a
        ``# key: value`` comment before the first arc is a header.
    name : str, optional
        The graph's name, in messages.
    undirected : bool, optional
        Read each line ``u v`` as an edge.

    Returns
    -------
    Digraph
        Vertices numbered in order of first appearance, duplicate arcs dropped,
        self-loops kept; with ``undirected``, a :class:`Graph`.

    Raises
    ------
    InputError
        A line of more than two names, no vertex, or (undirected) a self-loop.

    Notes
    -----
    O(V + E).
    """
    index: dict[str, int] = {}
    succ: list[list[int]] = []
    pairs: list[tuple[int, int]] = []
    headers: dict[str, str] = {}
    any_arc = False
    for number, raw in enumerate(text.splitlines(), 1):
        header = None if any_arc else comment_header(raw)
        if header is not None:
            headers[header[0]] = header[1]
        parts = raw.partition("#")[0].split()
        if not parts:
            continue
        if len(parts) > 2:
            what = "an edge" if undirected else "an arc"
            raise InputError(
                f"{name}, line {number}: expected 'u v' ({what}) or one name, got {raw.strip()!r}"
            )
        ids = []
        for token in parts:
            i = index.get(token)
            if i is None:
                i = index[token] = len(succ)
                succ.append([])
            ids.append(i)
        if len(ids) == 2:
            any_arc = True
            succ[ids[0]].append(ids[1])
            pairs.append((ids[0], ids[1]))
    if not succ:
        raise InputError(f"{name}: the graph is empty (no vertices)")
    if undirected:
        return _simple_graph(tuple(index), pairs, name, headers)
    out = tuple(tuple(dict.fromkeys(s)) if len(s) > 1 else tuple(s) for s in succ)
    return Digraph(tuple(index), out, name, headers)


class _Names:
    """Vertex labels (any hashable, written with ``str``) numbered in order of first
    appearance: a name that is no token, or two labels with the same text (the number
    ``0`` and the string ``"0"`` of a node-link file), is an :class:`InputError`."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.index: dict[str, int] = {}
        self.label_of: dict[str, Any] = {}

    def number(self, label: Any) -> int:
        key = str(label)
        if key not in self.index:
            if not key or any(c.isspace() for c in key) or "#" in key:
                raise InputError(
                    f"{self.name}: vertex name {key!r} is not a token (no spaces, no '#')"
                )
            self.index[key] = len(self.index)
            self.label_of[key] = label
        elif type(self.label_of[key]) is not type(label) or self.label_of[key] != label:
            raise InputError(
                f"{self.name}: the vertices {self.label_of[key]!r} and {label!r} are different"
                " but have the same name"
            )
        return self.index[key]


def _simple_graph(names: tuple[str, ...], pairs: Iterable[tuple[int, int]], name: str,
                  headers: dict[str, str] | None = None) -> Graph:  # fmt: skip
    """The :class:`Graph` of numbered ``pairs`` (either order, repeats merged); a self-loop
    or no vertex at all is an :class:`InputError`."""
    if not names:
        raise InputError(f"{name}: the graph is empty (no vertices)")
    edges = set()
    for u, v in pairs:
        if u == v:
            raise InputError(f"{name}: self-loop at {names[u]!r} (the graph must be simple)")
        edges.add((u, v) if u < v else (v, u))
    return Graph(names, tuple(sorted(edges)), name, headers)


def graph_from_edges(
    edges: Iterable[tuple[Any, Any]], vertices: Iterable[Any] = (), name: str = "graph"
) -> Graph:
    """A :class:`Graph` from edges between labelled vertices (``vertices`` first, then
    the edges' ends, numbered in order of first appearance; a label is written with
    ``str``, two different labels with the same text are refused, not merged)."""
    names = _Names(name)
    for v in vertices:
        names.number(v)
    pairs = [(names.number(a), names.number(b)) for a, b in edges]
    return _simple_graph(tuple(names.index), pairs, name)


def numbered_graph(n: int, edges: Sequence[tuple[int, int]], name: str = "graph") -> Graph:
    """The :class:`Graph` on the vertices ``0..n-1`` (named by number) with ``edges``
    between distinct vertices (no labels to check: large generated graphs)."""
    pairs = [(u, v) if u < v else (v, u) for u, v in edges]
    if any(pairs[i] >= pairs[i + 1] for i in range(len(pairs) - 1)):  # generated in order, mostly
        pairs = sorted(set(pairs))
    return Graph(tuple(map(str, range(n))), tuple(pairs), name)


def graph_from_networkx(g: Any, name: str = "graph", undirected: bool = False) -> Digraph:
    """Convert a networkx graph.

    Parameters
    ----------
    g : networkx.Graph or networkx.DiGraph
        The graph; directed unless ``undirected``.
    name : str, optional
        The graph's name, in messages.
    undirected : bool, optional
        Build a :class:`Graph` from any graph (a directed one's arcs are its edges).

    Returns
    -------
    Digraph
        Node labels written with ``str``; with ``undirected``, a :class:`Graph`.

    Raises
    ------
    InputError
        An undirected graph where arcs are needed, no node, a label that is no token,
        or two labels that read the same.
    """
    if not undirected and not g.is_directed():
        raise InputError(f"{name}: the graph is undirected; a game graph needs directed arcs")
    if g.number_of_nodes() == 0:
        raise InputError(f"{name}: the graph is empty (no vertices)")
    if undirected:
        return graph_from_edges(list(g.edges()), list(g.nodes()), name)
    names = _Names(name)
    for v in g.nodes:
        names.number(v)
    return from_arcs(g.edges(), g.nodes, name)


def format_of(path: Path, fmt: str | None = None) -> str:
    """The format of a graph file.

    Parameters
    ----------
    path : Path
        The file.
    fmt : str or None, optional
        The format given, if any (checked).

    Returns
    -------
    str
        ``fmt`` if given, else by the extension (``arcs`` for any other).

    Raises
    ------
    InputError
        An unknown ``fmt``.
    """
    if fmt is not None:
        if fmt not in FORMATS:
            raise InputError(f"unknown graph format {fmt!r} (choose from {', '.join(FORMATS)})")
        return fmt
    return _BY_EXTENSION.get(path.suffix.lower(), "arcs")


def parse_networkx(text: str, fmt: str, name: str, directed: bool = True) -> Any:
    """Read a networkx graph from text.

    Parameters
    ----------
    text : str
        The text, in format ``fmt``.
    fmt : {"adjlist", "graphml", "json"}
        Adjacency list, GraphML or node-link JSON.
    name : str
        The graph's name, in messages.
    directed : bool, optional
        Read a ``DiGraph`` (game graphs); ``False``: an undirected ``Graph`` (a directed
        file's arcs become edges).

    Returns
    -------
    networkx.Graph or networkx.DiGraph
        The graph as networkx reads it.

    Raises
    ------
    InputError
        Text networkx cannot read, naming ``name`` and the format.
    """
    import networkx as nx

    try:
        if fmt == "adjlist":
            lines = [ln for ln in text.splitlines() if ln.split("#", 1)[0].strip()]
            if not lines:
                raise InputError(f"{name}: the graph is empty (no vertices)")
            g = nx.parse_adjlist(lines, create_using=nx.DiGraph if directed else nx.Graph)
        elif fmt == "graphml":
            g = nx.parse_graphml(text)
        else:
            data = parse_json(text)
            if not isinstance(data, dict) or "nodes" not in data:
                raise InputError(_not_json_graph(name))
            key = "edges" if "edges" in data else "links"
            g = nx.node_link_graph(data, edges=key)
    except InputError:
        raise
    except Exception as err:  # networkx and the XML/JSON parsers raise many types
        detail = " ".join(str(err).split()) or err.__class__.__name__
        raise InputError(f"{name}: cannot read it as {fmt}: {detail}") from None
    return g.to_undirected() if not directed and g.is_directed() else g


def _not_json_graph(name: str) -> str:
    return (
        f"{name}: not a graph: a JSON graph is node-link JSON (an object with 'nodes' and edges)"
        " or a coupling map (a list of pairs of qubit numbers, e.g. [[0, 1], [1, 2]])"
    )


def _is_coupling_map(text: str) -> bool:
    """Whether JSON ``text`` is a coupling map (a list) or a backend configuration holding
    one, rather than node-link JSON."""
    start = text.lstrip()[:1]
    return start == "[" or ('"coupling_map"' in text and '"nodes"' not in text)


def parse_coupling_map(text: str, name: str = "coupling map", undirected: bool = False) -> Digraph:
    """Read a coupling map: a JSON list of pairs of qubit numbers.

    Parameters
    ----------
    text : str
        qiskit's ``CouplingMap`` edge list, or an object with one under
        ``coupling_map`` (an IBM backend configuration).
    name : str, optional
        The graph's name, in messages.
    undirected : bool, optional
        Read each pair as an edge rather than an arc (a coupler one way).

    Returns
    -------
    Digraph
        Qubits named by number, in increasing order; with ``undirected``, a
        :class:`Graph`.

    Raises
    ------
    InputError
        Text that is not such a list, or no qubit.
    """
    data = parse_json(text, name)
    if isinstance(data, dict):
        data = data.get("coupling_map")
    if not isinstance(data, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(type(q) is int and q >= 0 for q in p)
        for p in data
    ):
        raise InputError(_not_json_graph(name))
    qubits = sorted({q for pair in data for q in pair})
    if not qubits:
        raise InputError(f"{name}: the graph is empty (no vertices)")
    pairs = [(p[0], p[1]) for p in data]
    return graph_from_edges(pairs, qubits, name) if undirected else from_arcs(pairs, qubits, name)


def read_graph(path: Path | str, fmt: str | None = None, undirected: bool = False) -> Digraph:
    """Read a graph file in one of :data:`FORMATS`.

    Parameters
    ----------
    path : path-like or str
        The file.
    fmt : {"arcs", "adjlist", "graphml", "json"} or None, optional
        The format; ``None``: by the extension (``arcs`` for any other).
    undirected : bool, optional
        Read a line or arc ``u v`` as the edge ``{u, v}``.

    Returns
    -------
    Digraph
        The graph, named after the file; with ``undirected``, a :class:`Graph`.

    Raises
    ------
    InputError
        A missing or unreadable file, an unknown format, or text that is no graph.

    Notes
    -----
    O(V + E) for an arc list; the other formats go through networkx.
    """
    path = Path(path)
    fmt = format_of(path, fmt)
    name = path.name
    text = read_text(path)
    if fmt == "arcs":
        return parse_arcs(text, name, undirected)
    if fmt == "json" and _is_coupling_map(text):
        return parse_coupling_map(text, name, undirected)
    g = parse_networkx(text, fmt, name, directed=not undirected)
    return graph_from_networkx(g, name, undirected)


def reachable_from(adjacency: Sequence[Iterable[int]], start: int) -> set[int]:
    """The vertices reachable from ``start`` (itself included) along ``adjacency``
    (successor lists by vertex number); depth-first, ``O(V + E)``.

    >>> sorted(reachable_from([[1], [2], [], [0]], 0))
    [0, 1, 2]
    """
    seen = {start}
    stack = [start]
    while stack:
        u = stack.pop()
        for v in adjacency[u]:
            if v not in seen:
                seen.add(v)
                stack.append(v)
    return seen


def set_bits(mask: int) -> list[int]:
    """The vertices of a vertex set written as a bitmask (bit ``v`` for vertex ``v``), in
    increasing order: the one way the bitset searches walk a set.

    >>> set_bits(0b101001)
    [0, 3, 5]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# -- small digraphs, for fuzzing ----------------------------------------------------------


def vertex_name(v: int) -> str:
    """A short readable name for vertex number ``v``: ``a`` .. ``z``, then ``v26``, ..."""
    return "abcdefghijklmnopqrstuvwxyz"[v] if v < 26 else f"v{v}"


def numbered_digraph(
    n: int, arcs: Iterable[tuple[int, int]], name: str = "graph", headers: dict[str, str] | None = None
) -> Digraph:
    """The digraph on vertices ``0..n-1`` (named ``a``, ``b``, ...) with ``arcs``."""
    return from_arcs(
        ((vertex_name(u), vertex_name(v)) for u, v in sorted(set(arcs))),
        (vertex_name(v) for v in range(n)),
        name,
        headers,
    )


def small_digraphs(
    max_vertices: int, loops: bool = True, rooted: bool = False, undirected: bool = False
) -> Iterable[tuple[int, tuple[tuple[int, int], ...]]]:
    """Every digraph on ``1..max_vertices`` vertices up to isomorphism, smallest first
    (fewer vertices, then fewer arcs), as ``(n, arcs)``; ``rooted``: vertex 0 is fixed
    (a start vertex), so only isomorphisms keeping it count; ``undirected``: every
    graph, each edge ``{u, v}`` given once as ``(u, v)`` with ``u <= v``.

    >>> [len([g for g in small_digraphs(3) if g[0] == n]) for n in (1, 2, 3)]
    [2, 10, 104]
    >>> len([g for g in small_digraphs(3, loops=False, rooted=True) if g[0] == 3])
    36
    >>> [g for g in small_digraphs(3, loops=False, undirected=True) if g[0] == 3]
    [(3, ()), (3, ((0, 1),)), (3, ((0, 1), (0, 2))), (3, ((0, 1), (0, 2), (1, 2)))]
    """
    from itertools import combinations, permutations

    def arc(u: int, v: int) -> tuple[int, int]:
        return (min(u, v), max(u, v)) if undirected else (u, v)

    for n in range(1, max_vertices + 1):
        pairs = [
            (u, v) for u in range(n) for v in range(n)
            if (loops or u != v) and (not undirected or u <= v)
        ]  # fmt: skip
        if rooted:
            maps = [(0, *p) for p in permutations(range(1, n))]
        else:
            maps = list(permutations(range(n)))
        seen: set[tuple[tuple[int, int], ...]] = set()
        for k in range(len(pairs) + 1):
            for arcs in combinations(pairs, k):
                canonical = min(tuple(sorted(arc(p[u], p[v]) for u, v in arcs)) for p in maps)
                if canonical not in seen:
                    seen.add(canonical)
                    yield n, canonical


def digraph_strategy(max_vertices: int, loops: bool = True, min_vertices: int = 1) -> Any:
    """A hypothesis strategy of ``(n, arcs)``: ``n`` vertices (at most ``max_vertices``)
    and a set of arcs among them; hypothesis shrinks towards fewer vertices and arcs."""
    from hypothesis import strategies as st

    def arcs(n: int) -> Any:
        pair = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
        if not loops:
            pair = pair.filter(lambda a: a[0] != a[1])
        return st.lists(pair, max_size=n * n, unique=True).map(
            lambda found: (n, tuple(sorted(found)))
        )

    return st.integers(min_vertices, max(min_vertices, max_vertices)).flatmap(arcs)


def digraph_parts(
    n: int, arcs: Iterable[tuple[int, int]], keep: int = 0
) -> Iterator[tuple[int, tuple[tuple[int, int], ...]]]:
    """``(n, arcs)`` with one part deleted, for every part: each vertex but the first
    ``keep`` (a start), its arcs with it and the rest renumbered, then each arc: what
    the fuzzer's shrinker tries.

    >>> list(digraph_parts(2, [(0, 1)]))
    [(1, ()), (1, ()), (2, ())]
    """
    arcs = sorted(set(arcs))
    for gone in range(keep, n):
        if n <= 1:
            break
        def renamed(v, g=gone):
            return (v - (v > g))
        yield n - 1, tuple(sorted((renamed(u), renamed(v)) for u, v in arcs if gone not in (u, v)))
    for k in range(len(arcs)):
        yield n, tuple(arcs[:k] + arcs[k + 1 :])


def digraph_relabellings(
    n: int, arcs: Iterable[tuple[int, int]], keep: int = 0
) -> Iterator[tuple[int, tuple[tuple[int, int], ...]]]:
    """``(n, arcs)`` under other vertex numbers, the first ``keep`` fixed: the canonical
    smallest numbering first (up to 7 vertices), then reversed, then rotated by one —
    a program may depend on the numbers, which a scope taken up to isomorphism hides.

    >>> [a for _, a in digraph_relabellings(3, [(1, 2)])]
    [((0, 1),), ((1, 0),), ((2, 0),)]
    """
    from itertools import permutations

    arcs = sorted(set(arcs))
    free = list(range(keep, n))

    def mapped(p: dict[int, int]) -> tuple[tuple[int, int], ...]:
        return tuple(sorted((p.get(u, u), p.get(v, v)) for u, v in arcs))

    if len(free) <= 7:
        yield n, min(mapped(dict(zip(free, perm, strict=True))) for perm in permutations(free))
    yield n, mapped(dict(zip(free, reversed(free), strict=True)))
    yield n, mapped(dict(zip(free, free[1:] + free[:1], strict=True)))
