"""Routing permutations on graphs: the instance (graph + arrangement + target), files, generators.

A connected graph carries one pebble on every vertex; the pebble on vertex ``u``
must reach vertex ``pi(u)``. Three move rules:

- ``matching``: one step swaps the pebbles at both ends of every edge of a matching
  (Alon, Chung, Graham 1994: the routing number rt(G, pi));
- ``swap``: one step swaps the pebbles at the ends of one edge (token swapping);
- ``blank``: one vertex is empty; one step slides a neighbouring pebble into it
  (the 15-puzzle on any graph). The blank is a pebble too: it must reach ``pi(blank)``.

A state is a tuple ``s`` with ``s[v]`` the target vertex of the pebble now on ``v``;
the goal is the identity ``s[v] == v``. Every move exchanges two entries.

Files: the graph in any format the other graph commands read (an edge list ``u v``
per line, ``.adjlist``, ``.graphml``, node-link ``.json``; edges undirected); the
arrangement as lines ``u v`` (the pebble on ``u`` goes to ``v``; vertices not named
stay) and optionally ``blank u``, with ``# moves: matching|swap|blank``, ``# known: N``
and ``# graph: FILE`` (relative to the arrangement) headers.

Graph specs (instead of a file): ``path:N``, ``cycle:N``, ``star:M`` (K_{1,M}),
``complete:N``, ``bipartite:A,B``, ``grid:RxC``, ``hypercube:D``, ``tree:N:SEED``,
``random:N:SEED`` (connected, about ``2N`` edges), ``random:N:M:SEED``.

>>> g = graph_spec("path:3")
>>> g.names, g.edges
(('0', '1', '2'), ((0, 1), (1, 2)))
>>> inst = parse_arrangement("0 2\\n2 0\\n", g)
>>> inst.state, inst.moves
((2, 1, 0), 'matching')
"""

from __future__ import annotations

import random
import re
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from pyasp_games.errors import InputError, read_text
from pyasp_games.graphs import format_of, parse_networkx

#: The move rules.
MOVES = ("matching", "swap", "blank")


@dataclass(eq=False)
class Graph:
    """An undirected simple connected graph on named vertices ``0..n-1``."""

    names: tuple[str, ...]
    edges: tuple[tuple[int, int], ...]  # u < v, sorted
    name: str = "graph"
    #: ``(rows, cols)`` when the vertices are the grid's cells ``r,c`` (row-major)
    grid: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        self.index = {v: i for i, v in enumerate(self.names)}
        adj: list[list[int]] = [[] for _ in self.names]
        for u, v in self.edges:
            adj[u].append(v)
            adj[v].append(u)
        self.adj = tuple(tuple(sorted(a)) for a in adj)

    def __len__(self) -> int:
        return len(self.names)

    def vertex(self, name: str) -> int:
        try:
            return self.index[name]
        except KeyError:
            raise InputError(f"{self.name}: no vertex named {name!r}") from None

    @cached_property
    def distances(self) -> tuple[tuple[int, ...], ...]:
        """All-pairs shortest-path lengths (BFS from every vertex)."""
        rows = []
        for s in range(len(self.names)):
            d = [-1] * len(self.names)
            d[s] = 0
            queue = deque([s])
            while queue:
                u = queue.popleft()
                for w in self.adj[u]:
                    if d[w] < 0:
                        d[w] = d[u] + 1
                        queue.append(w)
            rows.append(tuple(d))
        return tuple(rows)

    @cached_property
    def max_matching(self) -> int:
        """The size of a maximum matching (networkx)."""
        return len(self.to_networkx_matching())

    def to_networkx_matching(self) -> set:
        import networkx as nx

        return nx.max_weight_matching(self.to_networkx(), maxcardinality=True)

    def to_networkx(self) -> Any:
        import networkx as nx

        g = nx.Graph()
        g.add_nodes_from(range(len(self.names)))
        g.add_edges_from(self.edges)
        return g

    def format_edges(self) -> str:
        lines = [f"{self.names[u]} {self.names[v]}" for u, v in self.edges]
        return "\n".join(lines) + "\n"


@dataclass(eq=False)
class Instance:
    """A routing problem: ``state[v]`` is the target vertex of the pebble on ``v``."""

    graph: Graph
    state: tuple[int, ...]
    moves: str = "matching"
    #: the vertex that is empty (``blank`` moves only)
    blank: int | None = None
    name: str = "routing"
    known: int | str | None = None
    headers: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.moves not in MOVES:
            raise InputError(
                f"{self.name}: unknown move rule {self.moves!r} (choose from {', '.join(MOVES)})"
            )
        n = len(self.graph)
        if sorted(self.state) != list(range(n)):
            raise InputError(f"{self.name}: the arrangement is not a permutation of the vertices")
        if self.moves == "blank" and self.blank is None:
            raise InputError(f"{self.name}: the blank move rule needs a 'blank VERTEX' line")
        if self.moves != "blank":
            self.blank = None

    def format_arrangement(self) -> str:
        g = self.graph
        lines = [f"# moves: {self.moves}"]
        if self.known is not None:
            lines.append(f"# known: {self.known}")
        lines += [f"{g.names[u]} {g.names[t]}" for u, t in enumerate(self.state) if u != t]
        if self.blank is not None:
            lines.append(f"blank {g.names[self.blank]}")
        return "\n".join(lines) + "\n"


# -- graphs ------------------------------------------------------------------------


def graph_from_edges(
    edges: Sequence[tuple[Any, Any]], vertices: Sequence[Any] = (), name: str = "graph"
) -> Graph:
    """A validated :class:`Graph` (simple, connected, at least one vertex) from labelled edges."""
    index: dict[str, int] = {}

    def number(label: Any) -> int:
        key = str(label)
        if key not in index:
            if not key or any(c.isspace() for c in key) or "#" in key:
                raise InputError(f"{name}: vertex name {key!r} is not a token (no spaces, no '#')")
            index[key] = len(index)
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
    g = Graph(names, tuple(sorted(pairs)), name, _grid_shape(names, pairs))
    if len(names) > 1 and -1 in g.distances[0]:
        lost = names[g.distances[0].index(-1)]
        raise InputError(
            f"{name}: the graph is not connected ({lost!r} cannot be reached from {names[0]!r})"
        )
    return g


def _grid_shape(names: Sequence[str], pairs: set) -> tuple[int, int] | None:
    """``(R, C)`` when the vertices are exactly the cells ``r,c`` of an R x C grid, row-major, with its edges."""
    cells = []
    for nm in names:
        m = re.fullmatch(r"(\d+),(\d+)", nm)
        if not m:
            return None
        cells.append((int(m[1]), int(m[2])))
    rows, cols = max(r for r, _ in cells) + 1, max(c for _, c in cells) + 1
    if cells != [(r, c) for r in range(rows) for c in range(cols)]:
        return None
    expect = {(r * cols + c, r * cols + c + 1) for r in range(rows) for c in range(cols - 1)}
    expect |= {(r * cols + c, (r + 1) * cols + c) for r in range(rows - 1) for c in range(cols)}
    return (rows, cols) if expect == pairs else None


def graph_from_networkx(g: Any, name: str = "graph") -> Graph:
    return graph_from_edges(list(g.edges()), list(g.nodes()), name)


def read_graph(path: Path | str, fmt: str | None = None) -> Graph:
    """Read a graph file (edge list, ``.adjlist``, ``.graphml``, node-link ``.json``); edges undirected.

    A graph spec such as ``grid:3x3`` (see the module docstring) is accepted in place
    of a file name when no such file exists.
    """
    path = Path(path)
    if not path.exists() and SPEC.fullmatch(str(path)):
        return graph_spec(str(path))
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
    return graph_from_networkx(parse_networkx(text, fmt, name, directed=False), name)


SPEC = re.compile(r"(path|cycle|star|complete|bipartite|grid|hypercube|tree|random):[0-9x,:]+")


def graph_spec(spec: str) -> Graph:
    """A generated graph from a spec such as ``grid:2x3`` (see the module docstring)."""
    import networkx as nx

    m = SPEC.fullmatch(spec)
    if not m:
        raise InputError(f"unknown graph spec {spec!r} (e.g. path:5, cycle:6, star:4, grid:2x3)")
    family = m[1]
    args = [int(x) for x in re.split(r"[x,:]", spec.split(":", 1)[1]) if x]
    want = {
        "path": 1,
        "cycle": 1,
        "star": 1,
        "complete": 1,
        "bipartite": 2,
        "grid": 2,
        "hypercube": 1,
        "tree": (1, 2),
        "random": (1, 2, 3),
    }[family]
    if (len(args) not in want) if isinstance(want, tuple) else len(args) != want:
        raise InputError(f"graph spec {spec!r}: wrong number of parameters")
    vertices, edges = _spec_size(family, args)
    if vertices > MAX_VERTICES or edges > MAX_EDGES:
        raise InputError(
            f"graph spec {spec!r} is too large: at most {MAX_VERTICES:,} vertices and "
            f"{MAX_EDGES:,} edges"
        )
    if family == "grid":
        return grid_graph(*args)
    if family == "tree":
        return random_tree(args[0], args[1] if len(args) > 1 else 0)
    if family == "random":
        n = args[0]
        m_edges = args[1] if len(args) == 3 else 2 * n
        return random_connected_graph(n, m_edges, args[-1] if len(args) > 1 else 0)
    n = args[0]
    if n < 1 or (family in ("cycle",) and n < 3):
        raise InputError(f"graph spec {spec!r}: too small")
    g = {
        "path": lambda: nx.path_graph(n),
        "cycle": lambda: nx.cycle_graph(n),
        "star": lambda: nx.star_graph(n),
        "complete": lambda: nx.complete_graph(n),
        "bipartite": lambda: nx.complete_bipartite_graph(*args),
        "hypercube": lambda: nx.convert_node_labels_to_integers(nx.hypercube_graph(n)),
    }[family]()
    return graph_from_edges(list(g.edges()), list(g.nodes()), spec)


#: The largest generated graph: a routing instance keeps all-pairs distances (n^2 ints).
MAX_VERTICES = 5_000
MAX_EDGES = 500_000


def _spec_size(family: str, args: list[int]) -> tuple[int, int]:
    """(vertices, edges) of a spec's graph, computed without building it (an upper bound)."""
    n = args[0]
    if family == "bipartite":
        return args[0] + args[1], args[0] * args[1]
    if family == "grid":
        return args[0] * args[1], 2 * args[0] * args[1]
    if family == "hypercube":
        return (2**n, n * 2 ** (n - 1)) if n < 64 else (2**64, 2**64)  # "too large" either way
    if family == "complete":
        return n, n * (n - 1) // 2
    if family == "random":
        return n, args[1] if len(args) == 3 else 2 * n
    return n + 1, n  # path, cycle, star, tree


def grid_graph(rows: int, cols: int) -> Graph:
    """The R x C grid, vertices ``r,c`` row-major."""
    if rows < 1 or cols < 1:
        raise InputError(f"grid {rows}x{cols}: needs at least one row and column")
    names = [f"{r},{c}" for r in range(rows) for c in range(cols)]
    edges = [(f"{r},{c}", f"{r},{c + 1}") for r in range(rows) for c in range(cols - 1)]
    edges += [(f"{r},{c}", f"{r + 1},{c}") for r in range(rows - 1) for c in range(cols)]
    return graph_from_edges(edges, names, f"grid:{rows}x{cols}")


def random_tree(n: int, seed: int = 0) -> Graph:
    """A uniformly random labelled tree on ``n`` vertices (random Prüfer sequence)."""
    if n < 1:
        raise InputError("a tree needs at least one vertex")
    rng = random.Random(seed)
    if n == 1:
        return graph_from_edges([], [0], f"tree:{n}:{seed}")
    import networkx as nx

    t = (
        nx.from_prufer_sequence([rng.randrange(n) for _ in range(n - 2)])
        if n > 2
        else nx.path_graph(2)
    )
    return graph_from_edges(list(t.edges()), list(range(n)), f"tree:{n}:{seed}")


def random_connected_graph(n: int, m: int, seed: int = 0) -> Graph:
    """A random tree on ``n`` vertices plus random further edges up to ``m`` edges in all."""
    tree = random_tree(n, seed)
    rng = random.Random(seed + 1)
    edges = set(tree.edges)
    others = [(u, v) for u in range(n) for v in range(u + 1, n) if (u, v) not in edges]
    rng.shuffle(others)
    edges |= set(others[: max(0, m - len(edges))])
    return graph_from_edges(sorted(edges), list(range(n)), f"random:{n}:{m}:{seed}")


# -- arrangements --------------------------------------------------------------------


def parse_arrangement(
    text: str, graph: Graph, name: str = "routing", moves: str | None = None
) -> Instance:
    """Parse an arrangement (``u v`` lines, ``blank u``, headers) against ``graph``."""
    headers: dict[str, str] = {}
    target: dict[int, int] = {}
    blank = None
    for number, raw in enumerate(text.splitlines(), 1):
        line, _, comment = raw.partition("#")
        if not line.strip() and ":" in comment:
            key, value = comment.split(":", 1)
            if key.strip() and " " not in key.strip():
                headers[key.strip().lower()] = value.strip()
        parts = line.split()
        if not parts:
            continue
        where = f"{name}, line {number}"
        if len(parts) != 2:
            raise InputError(
                f"{where}: expected 'u v' (the pebble on u goes to v) or 'blank u', got {raw.strip()!r}"
            )
        if parts[0] == "blank" and "blank" not in graph.index:
            if blank is not None:
                raise InputError(f"{where}: a second blank")
            blank = _vertex(graph, parts[1], where)
            continue
        u, v = _vertex(graph, parts[0], where), _vertex(graph, parts[1], where)
        if u in target:
            raise InputError(
                f"{where}: vertex {parts[0]!r} already has its pebble's target (duplicate pebble)"
            )
        target[u] = v
    taken: dict[int, int] = {}
    for u, v in target.items():
        if v in taken:
            raise InputError(
                f"{name}: the pebbles on {graph.names[taken[v]]!r} and {graph.names[u]!r} both go to {graph.names[v]!r}"
            )
        taken[v] = u
    for u in range(len(graph)):  # vertices not named keep their pebble, unless that target is taken
        if u not in target:
            if u in taken:
                raise InputError(
                    f"{name}: vertex {graph.names[u]!r} is the target of {graph.names[taken[u]]!r} but its own pebble has no target (wrong count)"
                )
            target[u] = u
    moves = moves or headers.get("moves", "blank" if blank is not None else "matching")
    known = headers.get("known")
    if known is not None and known != "none":
        try:
            known = int(known)
        except ValueError:
            raise InputError(
                f"{name}: '# known:' must be a number or 'none', got {known!r}"
            ) from None
    state = tuple(target[u] for u in range(len(graph)))
    return Instance(graph, state, moves, blank, name, known, headers)


def _vertex(graph: Graph, token: str, where: str) -> int:
    if token not in graph.index:
        raise InputError(f"{where}: unknown vertex {token!r} (not in the graph {graph.name})")
    return graph.index[token]


def load_instances(
    path: Path | str, graph: Graph | None = None, moves: str | None = None
) -> list[Instance]:
    """Read an arrangement file; without ``graph`` its ``# graph:`` header names the graph file."""
    path = Path(path)
    text = read_text(path)
    if graph is None:
        m = re.search(r"^#\s*graph:\s*(\S+)", text, re.MULTILINE)
        if not m:
            raise InputError(f"{path.name}: no graph given (pass one, or a '# graph: FILE' header)")
        ref = m[1]
        graph = read_graph(ref if SPEC.fullmatch(ref) else path.parent / ref)
    return [parse_arrangement(text, graph, path.name, moves)]


def random_arrangement(
    graph: Graph, seed: int = 0, moves: str = "matching", name: str | None = None
) -> Instance:
    """A random arrangement on ``graph``, deterministic in ``seed``.

    ``matching``/``swap``: a uniformly random permutation. ``blank``: the blank starts
    on vertex 0 and must return there; the arrangement is a long random walk of the
    blank from the solved one, hence always solvable.
    """
    rng = random.Random(seed)
    state = list(range(len(graph)))
    blank = None
    if moves == "blank":
        blank = 0
        for _ in range(200 + 20 * len(graph)):
            w = rng.choice(graph.adj[blank])
            state[blank], state[w] = state[w], state[blank]
            blank = w
    else:
        rng.shuffle(state)
    return Instance(graph, tuple(state), moves, blank, name or f"{graph.name}#{seed}")


def random_instance(graph: str = "grid:4x4", seed: int = 0, moves: str = "matching") -> Instance:
    """A random arrangement (:func:`random_arrangement`) on a generated graph (a spec)."""
    return random_arrangement(graph_spec(graph), seed, moves, f"{graph}#{seed}:{moves}")


def identity_instance(graph: Graph, moves: str = "matching") -> Instance:
    return Instance(
        graph, tuple(range(len(graph))), moves, 0 if moves == "blank" else None, graph.name
    )


# -- permutations, bounds and schedules (shared by every backend and the checker) --------


def cycle_count(state: tuple[int, ...] | list[int]) -> int:
    """The number of cycles of the permutation (fixed points included)."""
    seen = [False] * len(state)
    cycles = 0
    for i in range(len(state)):
        if not seen[i]:
            cycles += 1
            j = i
            while not seen[j]:
                seen[j] = True
                j = state[j]
    return cycles


def permutation_parity(state: tuple[int, ...] | list[int]) -> int:
    """0 for an even permutation, 1 for odd (by counting cycles)."""
    seen = [False] * len(state)
    parity = 0
    for i in range(len(state)):
        if not seen[i]:
            j, length = i, 0
            while not seen[j]:
                seen[j] = True
                j = state[j]
                length += 1
            parity ^= (length - 1) & 1
    return parity


def lower_bound(inst: Instance, state: tuple[int, ...] | None = None) -> int:
    """An admissible bound on the steps still needed (see the module docstring).

    Under ``swap`` and ``blank`` every step is one transposition, so a schedule's length
    has the parity of the arrangement (as a permutation): the bound is rounded up to it.
    """
    state = inst.state if state is None else state
    d = inst.graph.distances
    if inst.moves == "blank":
        token = inst.state[inst.blank]
        bound = sum(d[v][t] for v, t in enumerate(state) if t != token)
    else:
        dists = [d[v][t] for v, t in enumerate(state)]
        total = sum(dists)
        if inst.moves == "swap":
            # a swap moves two pebbles one edge each, and changes the number of cycles by one
            bound = max(-(-total // 2), len(state) - cycle_count(state))
        else:
            mm = max(inst.graph.max_matching, 1)
            return max(max(dists, default=0), -(-total // (2 * mm)))
    return bound + ((permutation_parity(state) - bound) % 2)


def stride(inst: Instance) -> int:
    """How far apart the possible schedule lengths are: 2 when every step is one transposition."""
    return 1 if inst.moves == "matching" else 2


def schedule_names(g: Graph, schedule: list) -> list[list[list[str]]]:
    """A schedule with vertex names (the witness format)."""
    return [[[g.names[u], g.names[v]] for u, v in step] for step in schedule]
