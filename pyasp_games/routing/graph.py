"""The routing graph: an undirected simple connected graph on named vertices, and its files.

Files (the format by ``fmt`` or by extension): an edge list ``u v`` per line (a line with
one name declares a vertex, ``#`` starts a comment), networkx's ``.adjlist``,
``.graphml``, and ``.json``: node-link JSON, a coupling map as qiskit writes it (a list
of pairs ``[[0, 1], [1, 0], [1, 2], ...]``), or an IBM backend configuration (an object
with a ``coupling_map``). Edges are undirected: a directed pair and its reverse are one
edge. Generated graphs (``grid:3x3``, ``heavy-hex:27``) are :mod:`~pyasp_games.routing.specs`.

A graph whose vertices are the cells of a full R x C grid (named ``r,c`` in any order, or
unnamed but shaped like one) carries its :class:`GridLayout`, which row-column routing needs.

>>> g = graph_from_edges([("a", "b"), ("b", "c")])
>>> g.names, g.edges, g.adj
(('a', 'b', 'c'), ((0, 1), (1, 2)), ((1,), (0, 2), (1,)))
>>> g.grid.rows, g.grid.cols, g.grid.cells    # a path is a 1 x 3 grid
(1, 3, (0, 1, 2))
>>> parse_coupling_map("[[0, 1], [1, 0], [1, 2]]", "map.json").edges
((0, 1), (1, 2))
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from pyasp_games.engines.files import parse_json
from pyasp_games.errors import InputError, read_text
from pyasp_games.graphs import format_of, parse_networkx


@dataclass(frozen=True)
class GridLayout:
    """Where each vertex sits in a full R x C grid: ``cells[r * cols + c]`` is a vertex."""

    rows: int
    cols: int
    cells: tuple[int, ...]

    def cell(self, vertex: int) -> tuple[int, int]:
        """The ``(row, column)`` of ``vertex``."""
        i = self.position[vertex]
        return divmod(i, self.cols)

    @cached_property
    def position(self) -> dict[int, int]:
        return {v: i for i, v in enumerate(self.cells)}


@dataclass(eq=False)
class Graph:
    """An undirected simple connected graph on named vertices ``0..n-1``."""

    names: tuple[str, ...]
    edges: tuple[tuple[int, int], ...]  # u < v, sorted
    name: str = "graph"
    #: the grid layout when the graph is a full R x C grid (by names ``r,c`` or by shape)
    grid: GridLayout | None = None

    def __post_init__(self) -> None:
        self.index = {v: i for i, v in enumerate(self.names)}
        adj: list[list[int]] = [[] for _ in self.names]
        for u, v in self.edges:
            adj[u].append(v)
            adj[v].append(u)
        self.adj = tuple(tuple(sorted(a)) for a in adj)

    def __len__(self) -> int:
        return len(self.names)

    def bfs(self, source: int) -> list[int]:
        """Shortest-path lengths from ``source`` (-1: unreachable)."""
        d = [-1] * len(self.names)
        d[source] = 0
        queue = deque([source])
        while queue:
            u = queue.popleft()
            for w in self.adj[u]:
                if d[w] < 0:
                    d[w] = d[u] + 1
                    queue.append(w)
        return d

    @cached_property
    def distances(self) -> tuple[tuple[int, ...], ...]:
        """All-pairs shortest-path lengths (BFS from every vertex)."""
        return tuple(tuple(self.bfs(s)) for s in range(len(self.names)))

    @cached_property
    def max_matching(self) -> int:
        """The size of a maximum matching (networkx)."""
        import networkx as nx

        return len(nx.max_weight_matching(self.to_networkx(), maxcardinality=True))

    def to_networkx(self) -> Any:
        import networkx as nx

        g = nx.Graph()
        g.add_nodes_from(range(len(self.names)))
        g.add_edges_from(self.edges)
        return g

    def named_edges(self) -> set[frozenset[str]]:
        """The edges as sets of vertex names (what two graphs of the same vertices compare)."""
        return {frozenset((self.names[u], self.names[v])) for u, v in self.edges}

    def format_edges(self) -> str:
        lines = [f"{self.names[u]} {self.names[v]}" for u, v in self.edges]
        lines += [nm for v, nm in enumerate(self.names) if not self.adj[v]]  # one vertex alone
        return "\n".join(lines) + "\n"


def graph_from_edges(
    edges: Sequence[tuple[Any, Any]], vertices: Sequence[Any] = (), name: str = "graph"
) -> Graph:
    """A validated :class:`Graph` (simple, connected, at least one vertex) from labelled edges.

    Labels are written with ``str``; two different labels with the same text (the
    number ``0`` and the string ``"0"`` of a node-link file) are refused, not merged.
    """
    index: dict[str, int] = {}
    label_of: dict[str, Any] = {}

    def number(label: Any) -> int:
        key = str(label)
        if key not in index:
            if not key or any(c.isspace() for c in key) or "#" in key:
                raise InputError(f"{name}: vertex name {key!r} is not a token (no spaces, no '#')")
            index[key] = len(index)
            label_of[key] = label
        elif type(label_of[key]) is not type(label) or label_of[key] != label:
            raise InputError(
                f"{name}: the vertices {label_of[key]!r} and {label!r} are different but have the same name"
            )
        return index[key]

    for v in vertices:
        number(v)
    pairs = set()
    for a, b in edges:
        u, v = number(a), number(b)
        if u == v:
            raise InputError(f"{name}: self-loop at {a!r} (a routing graph is simple)")
        pairs.add((min(u, v), max(u, v)))
    if not index:
        raise InputError(f"{name}: the graph is empty (no vertices)")
    names = tuple(index)
    g = Graph(names, tuple(sorted(pairs)), name)
    reach = g.bfs(0)
    if -1 in reach:
        lost = names[reach.index(-1)]
        raise InputError(
            f"{name}: the graph is not connected ({lost!r} cannot be reached from {names[0]!r})"
        )
    g.grid = grid_layout(g)
    return g


def numbered_graph(n: int, edges: Sequence[tuple[int, int]], name: str = "graph") -> Graph:
    """A validated :class:`Graph` on the vertices ``0..n-1`` (named by number) from
    generated edges between distinct vertices (no labels to check: large generated graphs)."""
    pairs = [(u, v) if u < v else (v, u) for u, v in edges]
    if any(pairs[i] >= pairs[i + 1] for i in range(len(pairs) - 1)):  # generated in order, mostly
        pairs = sorted(set(pairs))
    g = Graph(tuple(map(str, range(n))), tuple(pairs), name)
    reach = g.bfs(0)
    if -1 in reach:
        raise InputError(f"{name}: the graph is not connected ({reach.index(-1)} cannot be reached from 0)")
    g.grid = grid_layout(g)
    return g


# -- grids ---------------------------------------------------------------------------


def grid_layout(g: Graph) -> GridLayout | None:
    """The layout of ``g`` as a full R x C grid: by its ``r,c`` names where they name
    the cells of one, else by its shape; ``None`` if it is no grid."""
    layout = _layout_by_names(g)
    return layout if layout is not None else _layout_by_shape(g)


def _layout_by_names(g: Graph) -> GridLayout | None:
    cells = []
    for nm in g.names:
        m = re.fullmatch(r"(\d+),(\d+)", nm)
        if not m:
            return None
        cells.append((int(m[1]), int(m[2])))
    rows, cols = max(r for r, _ in cells) + 1, max(c for _, c in cells) + 1
    if len(set(cells)) != len(cells) or rows * cols != len(cells):  # "00,1" is "0,1" again
        return None  # a cell named twice, or cells missing
    where = {cell: v for v, cell in enumerate(cells)}
    layout = GridLayout(rows, cols, tuple(where[r, c] for r in range(rows) for c in range(cols)))
    return layout if _is_layout(g, layout) else None


def _layout_by_shape(g: Graph) -> GridLayout | None:
    """Coordinates from the distances to two corners: from the corner (0, 0) a cell
    (r, c) is r + c away, from the corner (0, C-1) r + C-1-c; then every edge checked."""
    n = len(g)
    if len(g.edges) != n - 1 or any(len(a) > 2 for a in g.adj):
        corners = [v for v in range(n) if len(g.adj[v]) == 2]
        if len(corners) != 4:
            return None
        d0 = g.bfs(corners[0])
        far = max(corners, key=lambda v: d0[v])  # the opposite corner (R-1, C-1)
        c1 = next(v for v in corners[1:] if v != far)
        cols = d0[c1] + 1
        d1 = g.bfs(c1)
        if n % cols:
            return None
        rows = n // cols
        cells: list[int | None] = [None] * n
        for v in range(n):
            twice_r, twice_c = d0[v] + d1[v] - (cols - 1), d0[v] - d1[v] + cols - 1
            if twice_r % 2 or twice_c % 2 or not (0 <= twice_r < 2 * rows and 0 <= twice_c < 2 * cols):
                return None
            i = twice_r // 2 * cols + twice_c // 2
            if cells[i] is not None:
                return None
            cells[i] = v
        layout = GridLayout(rows, cols, tuple(v for v in cells if v is not None))
        return layout if len(layout.cells) == n and _is_layout(g, layout) else None
    # a path (or one vertex): a 1 x n grid, from one end to the other
    start = next(v for v in range(n) if len(g.adj[v]) <= 1)
    order = [start]
    while len(order) < n:
        order.append(next(w for w in g.adj[order[-1]] if len(order) < 2 or w != order[-2]))
    return GridLayout(1, n, tuple(order))


def _is_layout(g: Graph, layout: GridLayout) -> bool:
    rows, cols, at = layout.rows, layout.cols, layout.cells
    expect = {tuple(sorted((at[r * cols + c], at[r * cols + c + 1])))
              for r in range(rows) for c in range(cols - 1)}
    expect |= {tuple(sorted((at[r * cols + c], at[(r + 1) * cols + c])))
               for r in range(rows - 1) for c in range(cols)}
    return expect == set(g.edges)


# -- files ---------------------------------------------------------------------------


def read_graph_file(path: Path | str, fmt: str | None = None) -> Graph:
    """Read a graph file (see the module docstring); bad files raise :class:`InputError`."""
    path = Path(path)
    fmt = format_of(path, fmt)
    name = path.name
    text = read_text(path)
    if fmt == "arcs":
        edges, vertices = [], []
        for number, raw in enumerate(text.splitlines(), 1):
            parts = raw.split("#", 1)[0].split()
            if len(parts) == 1:
                vertices.append(parts[0])
            elif len(parts) == 2:
                edges.append((parts[0], parts[1]))
            elif parts:
                raise InputError(
                    f"{name}, line {number}: expected 'u v' (an edge) or one name, got {raw.strip()!r}"
                )
        return graph_from_edges(edges, vertices, name)
    if (fmt == "json" and text.lstrip()[:1] == "[") or _is_configuration(text, fmt):
        return parse_coupling_map(text, name)
    g = parse_networkx(text, fmt, name, directed=False)
    return graph_from_edges(list(g.edges()), list(g.nodes()), name)


def _is_configuration(text: str, fmt: str) -> bool:
    return fmt == "json" and '"coupling_map"' in text and '"nodes"' not in text


def parse_coupling_map(text: str, name: str = "coupling map") -> Graph:
    """A coupling map: a JSON list of pairs of qubit numbers (qiskit's ``CouplingMap``
    edge list), or an object with one under ``coupling_map`` (an IBM backend
    configuration). Directed pairs become undirected edges; qubits are named by number."""
    data = parse_json(text, name)
    if isinstance(data, dict):
        data = data.get("coupling_map")
    if not isinstance(data, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(type(q) is int and q >= 0 for q in p)
        for p in data
    ):
        raise InputError(f"{name}: a coupling map is a list of pairs of qubit numbers, e.g. [[0, 1], [1, 2]]")
    qubits = sorted({q for pair in data for q in pair})
    return graph_from_edges([tuple(p) for p in data], qubits, name)


def graph_from_networkx(g: Any, name: str = "graph") -> Graph:
    """A :class:`Graph` from an undirected networkx graph (node labels written with ``str``)."""
    return graph_from_edges(list(g.edges()), list(g.nodes()), name)
