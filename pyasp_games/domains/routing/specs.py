"""Graph specs: generated routing graphs named on the command line instead of a file.

| spec | graph |
|---|---|
| ``path:N``, ``cycle:N``, ``complete:N`` | the path, cycle, complete graph on ``N`` vertices ``0..N-1`` |
| ``star:M`` | the star K_{1,M} (centre ``0``, leaves ``1..M``) |
| ``bipartite:A,B`` | the complete bipartite graph K_{A,B} (sides ``0..A-1`` and ``A..A+B-1``) |
| ``grid:RxC`` | the R x C grid, vertices ``r,c`` |
| ``grid:RxC-r,c-r,c...`` | the grid without the cells listed after ``-`` (it must stay connected) |
| ``hypercube:D`` | the D-dimensional hypercube |
| ``heavy-hex:27``, ``heavy-hex:127`` | IBM's heavy-hex coupling graphs: the 27-qubit Falcon and the 127-qubit Eagle, qubits numbered as IBM numbers them |
| ``tree:N[:SEED]`` | a uniformly random labelled tree (random Prüfer sequence) |
| ``random:N[:SEED]``, ``random:N:M:SEED`` | a random tree plus random edges, ``M`` edges in all (default ``2N``) |

:func:`read_graph` takes a file (:func:`pyasp_games.engines.graphs.read_graph`) or a spec; either
way the graph must be connected (:func:`~pyasp_games.domains.routing.graph.connected`).

>>> from pyasp_games.domains.routing.graph import grid_layout
>>> g = graph_spec("grid:2x3-0,0")
>>> g.names, len(g.edges), grid_layout(g) is None
(('0,1', '0,2', '1,0', '1,1', '1,2'), 5, True)
>>> h = graph_spec("heavy-hex:27")
>>> len(h), len(h.edges), max(len(a) for a in h.adj)
(27, 28, 3)
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import cast

from pyasp_games.domains.routing.graph import connected
from pyasp_games.engines import graphs
from pyasp_games.engines.graphs import Graph, graph_from_edges, numbered_graph
from pyasp_games.errors import InputError

#: The largest generated graph: a routing instance keeps all-pairs distances (n^2 ints).
MAX_VERTICES = 5_000
MAX_EDGES = 500_000

#: Each family's parameters, as the whole spec must read.
FAMILIES = {
    "path": (r"(\d+)", "path:N"),
    "cycle": (r"(\d+)", "cycle:N"),
    "star": (r"(\d+)", "star:M"),
    "complete": (r"(\d+)", "complete:N"),
    "bipartite": (r"(\d+),(\d+)", "bipartite:A,B"),
    "grid": (r"(\d+)x(\d+)((?:-\d+,\d+)*)", "grid:RxC or grid:RxC-r,c-r,c (cells left out)"),
    "hypercube": (r"(\d+)", "hypercube:D"),
    "heavy-hex": (r"(27|127)", "heavy-hex:27 or heavy-hex:127"),
    "tree": (r"(\d+)(?::(\d+))?", "tree:N or tree:N:SEED"),
    "random": (r"(\d+)(?::(\d+))?(?::(\d+))?", "random:N, random:N:SEED or random:N:M:SEED"),
}


def looks_like_spec(text: str) -> bool:
    """Whether ``text`` names a spec's family (``grid:...``), well-formed or not."""
    family, colon, _ = text.partition(":")
    return bool(colon) and family in FAMILIES


def read_graph(path: Path | str, fmt: str | None = None) -> Graph:
    """A connected graph file, or a spec such as ``grid:3x3`` where no file of that name
    exists."""
    if not Path(path).exists() and looks_like_spec(str(path)):
        return graph_spec(str(path))
    graph = cast(Graph, graphs.read_graph(path, fmt, undirected=True))
    if len(graph) > MAX_VERTICES or len(graph.edges) > MAX_EDGES:  # a file, as a spec
        raise InputError(
            f"{path}: a graph of {len(graph):,} vertices and {len(graph.edges):,} edges is "
            f"too large: at most {MAX_VERTICES:,} vertices and {MAX_EDGES:,} edges"
        )
    return connected(graph)


def graph_spec(spec: str) -> Graph:
    """The generated graph of ``spec`` (see the module docstring)."""
    return connected(_generated(spec))


def _generated(spec: str) -> Graph:
    family, _, rest = spec.partition(":")
    if family not in FAMILIES:
        raise InputError(
            f"unknown graph spec {spec!r} (families: {', '.join(FAMILIES)}; e.g. path:5, grid:2x3)"
        )
    pattern, usage = FAMILIES[family]
    m = re.fullmatch(pattern, rest, re.ASCII)  # '３' is no digit to a user (it is to \d)
    if not m:
        raise InputError(f"graph spec {spec!r}: expected {usage}")
    if family == "heavy-hex":
        return heavy_hex(int(m[1]))
    if family == "grid":
        rows, cols = int(m[1]), int(m[2])
        holes = [tuple(int(x) for x in cell.split(",")) for cell in m[3].split("-")[1:]]
        _check_size(spec, rows * cols, 2 * rows * cols)
        return grid_graph(rows, cols, holes)
    args = [int(x) for x in m.groups() if x is not None]
    n = args[0]
    _check_size(spec, *_size(family, args))
    if family == "tree":
        return random_tree(n, args[1] if len(args) > 1 else 0)
    if family == "random":
        m_edges = args[1] if len(args) == 3 else 2 * n
        return random_connected_graph(n, m_edges, args[-1] if len(args) > 1 else 0)
    if n < 1 or (family == "cycle" and n < 3) or (family == "bipartite" and min(args) < 1):
        raise InputError(f"graph spec {spec!r}: too small")
    return _networkx_family(family, args, spec)


def _networkx_family(family: str, args: list[int], spec: str) -> Graph:
    n = args[0]
    if family == "path":
        return numbered_graph(n, [(i, i + 1) for i in range(n - 1)], spec)
    if family == "cycle":
        return numbered_graph(n, [(i, (i + 1) % n) for i in range(n)], spec)
    if family == "star":
        return numbered_graph(n + 1, [(0, i) for i in range(1, n + 1)], spec)
    if family == "complete":
        return numbered_graph(n, [(i, j) for i in range(n) for j in range(i + 1, n)], spec)
    if family == "bipartite":
        a, b = args
        return numbered_graph(a + b, [(i, j) for i in range(a) for j in range(a, a + b)], spec)
    import networkx as nx

    g = nx.convert_node_labels_to_integers(nx.hypercube_graph(n))
    return graph_from_edges(list(g.edges()), list(g.nodes()), spec)


def _size(family: str, args: list[int]) -> tuple[int, int]:
    """(vertices, edges) of a spec's graph, computed without building it (exact, but
    for ``random``, whose edges are an upper bound).

    >>> _size("path", [5000]), _size("star", [5000]), _size("cycle", [7])
    ((5000, 4999), (5001, 5000), (7, 7))
    """
    n = args[0]
    if family == "bipartite":
        return args[0] + args[1], args[0] * args[1]
    if family == "hypercube":
        return (2**n, n * 2 ** (n - 1)) if n < 64 else (2**64, 2**64)  # "too large" either way
    if family == "complete":
        return n, n * (n - 1) // 2
    if family == "random":
        return n, args[1] if len(args) == 3 else 2 * n
    if family == "star":
        return n + 1, n  # the centre and M leaves
    return n, n if family == "cycle" else n - 1  # path, tree


def _check_size(spec: str, vertices: int, edges: int) -> None:
    if vertices > MAX_VERTICES or edges > MAX_EDGES:
        raise InputError(
            f"graph spec {spec!r} is too large: at most {MAX_VERTICES:,} vertices and "
            f"{MAX_EDGES:,} edges"
        )


def grid_graph(rows: int, cols: int, holes: list[tuple[int, ...]] | tuple = ()) -> Graph:
    """The R x C grid, vertices ``r,c`` row-major, without the cells ``holes``."""
    if rows < 1 or cols < 1:
        raise InputError(f"grid {rows}x{cols}: needs at least one row and column")
    out = set(holes)
    for r, c in out:
        if not (r < rows and c < cols):
            raise InputError(f"grid {rows}x{cols}: no cell {r},{c} to leave out")
    name = f"grid:{rows}x{cols}" + "".join(f"-{r},{c}" for r, c in holes)
    if len(out) == rows * cols:
        raise InputError(f"{name}: every cell is left out")
    cells = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in out]
    kept = set(cells)
    edges = [((r, c), (r, c + 1)) for r, c in cells if (r, c + 1) in kept]
    edges += [((r, c), (r + 1, c)) for r, c in cells if (r + 1, c) in kept]
    label = "{0[0]},{0[1]}".format
    return graph_from_edges(
        [(label(a), label(b)) for a, b in edges], [label(cell) for cell in cells], name
    )


# -- IBM's heavy-hex devices ------------------------------------------------------------

#: The 27-qubit Falcon (ibmq_montreal, ibm_hanoi, ...; their configurations' coupling map): IBM's numbering.
FALCON_27 = (
    (0, 1), (1, 2), (1, 4), (2, 3), (3, 5), (4, 7), (5, 8), (6, 7), (7, 10), (8, 9),
    (8, 11), (10, 12), (11, 14), (12, 13), (12, 15), (13, 14), (14, 16), (15, 18),
    (16, 19), (17, 18), (18, 21), (19, 20), (19, 22), (21, 23), (22, 25), (23, 24),
    (24, 25), (25, 26),
)  # fmt: skip


def eagle_127() -> list[tuple[int, int]]:
    """The 127-qubit Eagle in IBM's numbering (ibm_sherbrooke's coupling map; the
    ibm_washington snapshot qiskit ships lacks two of its 144 couplers, 8-9 and 109-114).

    Seven rows of qubits on 15 columns (the first row on columns 0-13, the last on
    1-14, the others on all 15), each a path; between two rows four bridge qubits, each
    joined to both rows in one column: columns 0, 4, 8, 12 below rows 0, 2, 4 and
    columns 2, 6, 10, 14 below rows 1, 3, 5. Qubits are numbered row by row, left to
    right, the bridges below a row right after it.
    """
    edges: list[tuple[int, int]] = []
    q = 0
    above: dict[int, int] = {}  # column -> bridge qubit waiting for the next row
    for r in range(7):
        first, last = (0, 13) if r == 0 else (1, 14) if r == 6 else (0, 14)
        row = {col: q + i for i, col in enumerate(range(first, last + 1))}
        q += len(row)
        edges += [(row[c], row[c + 1]) for c in range(first, last)]
        edges += [(bridge, row[c]) for c, bridge in above.items()]
        if r < 6:
            columns = (0, 4, 8, 12) if r % 2 == 0 else (2, 6, 10, 14)
            above = {c: q + k for k, c in enumerate(columns)}
            q += 4
            edges += [(row[c], bridge) for c, bridge in above.items()]
    return edges


def heavy_hex(qubits: int) -> Graph:
    """IBM's heavy-hex device graph of ``qubits`` (27 or 127) qubits."""
    edges = list(FALCON_27) if qubits == 27 else eagle_127()
    return graph_from_edges(edges, range(qubits), f"heavy-hex:{qubits}")


# -- random graphs ---------------------------------------------------------------------


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
