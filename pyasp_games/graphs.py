"""Game graphs: reading directed graphs whose vertices are positions and arcs are moves.

Domain-neutral (impartial games, Generalized Geography, ...): a :class:`Digraph`
has arbitrary token names for its vertices, numbered ``0..n-1`` in order of first
appearance, and for every vertex the tuple of its successors (duplicate arcs are
dropped, self-loops kept).

Formats, chosen by ``fmt`` or else by the file's extension:

- ``arcs`` (any other extension, e.g. ``.txt``): one arc ``u v`` per line; a line
  with one name declares an isolated position; ``#`` starts a comment. A comment
  ``# key: value`` before the first arc is kept in :attr:`Digraph.headers`.
- ``adjlist`` (``.adjlist``): networkx's adjacency list, ``u v1 v2 ...`` per line.
- ``graphml`` (``.graphml``): GraphML, read by networkx (must be directed).
- ``json`` (``.json``): networkx node-link JSON (must be directed).

>>> g = parse_arcs("# a 3-cycle\\na b\\nb c\\nc a\\nd\\n", name="c3")
>>> g.names, g.succ, g.arc_count
(('a', 'b', 'c', 'd'), ((1,), (2,), (0,), ()), 3)
>>> g.find_cycle() is not None, g.position("d")
(True, 3)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
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
        import networkx as nx

        g = nx.DiGraph()
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


def parse_arcs(text: str, name: str = "graph") -> Digraph:
    """Parse the arc-list format (see the module docstring)."""
    index: dict[str, int] = {}
    succ: list[list[int]] = []
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
            raise InputError(
                f"{name}, line {number}: expected 'u v' (an arc) or one name, got {raw.strip()!r}"
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
    if not succ:
        raise InputError(f"{name}: the graph is empty (no positions)")
    out = tuple(tuple(dict.fromkeys(s)) if len(s) > 1 else tuple(s) for s in succ)
    return Digraph(tuple(index), out, name, headers)


def graph_from_networkx(g: Any, name: str = "graph") -> Digraph:
    """A :class:`Digraph` from a directed networkx graph (node labels written with ``str``)."""
    if not g.is_directed():
        raise InputError(f"{name}: the graph is undirected; a game graph needs directed arcs")
    if g.number_of_nodes() == 0:
        raise InputError(f"{name}: the graph is empty (no positions)")
    labels = [str(v) for v in g.nodes]
    if len(set(labels)) != len(labels):
        raise InputError(f"{name}: two nodes have the same name when written as text")
    bad = [lab for lab in labels if not lab or any(c.isspace() for c in lab) or "#" in lab]
    if bad:
        raise InputError(f"{name}: node name {bad[0]!r} is not a token (no spaces, no '#')")
    return from_arcs(g.edges(), g.nodes, name)


def format_of(path: Path, fmt: str | None = None) -> str:
    """The format of ``path``: ``fmt`` if given, else by extension (default ``arcs``)."""
    if fmt is not None:
        if fmt not in FORMATS:
            raise InputError(f"unknown graph format {fmt!r} (choose from {', '.join(FORMATS)})")
        return fmt
    return _BY_EXTENSION.get(path.suffix.lower(), "arcs")


def parse_networkx(text: str, fmt: str, name: str, directed: bool = True) -> Any:
    """A networkx graph from ``text`` in format ``fmt`` (``adjlist``, ``graphml`` or
    node-link ``json``): a ``DiGraph`` (game graphs), or with ``directed=False`` an
    undirected ``Graph`` (a directed file's arcs become edges). Bad text raises
    :class:`InputError` naming ``name`` and the format."""
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
                raise InputError(f"{name}: not node-link JSON (an object with 'nodes' and edges)")
            key = "edges" if "edges" in data else "links"
            g = nx.node_link_graph(data, edges=key)
    except InputError:
        raise
    except Exception as err:  # networkx and the XML/JSON parsers raise many types
        detail = " ".join(str(err).split()) or err.__class__.__name__
        raise InputError(f"{name}: cannot read it as {fmt}: {detail}") from None
    return g.to_undirected() if not directed and g.is_directed() else g


def read_graph(path: Path | str, fmt: str | None = None) -> Digraph:
    """Read a game graph file in one of :data:`FORMATS`; bad files raise :class:`InputError`."""
    path = Path(path)
    fmt = format_of(path, fmt)
    name = path.name
    text = read_text(path)
    if fmt == "arcs":
        return parse_arcs(text, name)
    return graph_from_networkx(parse_networkx(text, fmt, name), name)


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
