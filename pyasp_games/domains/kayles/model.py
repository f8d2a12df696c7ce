"""Node Kayles positions: undirected graphs, the families of ``kayles sequence``, and the
generators of bench and fuzz.

A position is a simple undirected :class:`~pyasp_games.engines.graphs.Graph`, read from
any graph format the project reads (:func:`~pyasp_games.engines.graphs.read_graph`:
an edge list ``u v`` per line, ``.adjlist``, ``.graphml``, node-link ``.json``; a
directed file's arcs are edges). An edge-list file may state its known Grundy value in a
``# value: N`` header (crosscheck compares it).

Families (``kayles sequence FAMILY --upto N``; member ``n`` for ``n = 0..N``, the
first few may be empty):

- ``path``: ``P_n``; ``cycle``: ``C_n`` (``n >= 3``); ``star``: ``K_(1,n)``;
  ``complete``: ``K_n``;
- ``complete-bipartite:M``: ``K_(M,n)``; ``grid:M``: ``P_M x P_n``;
  ``caterpillar:K``: the path ``P_n`` with ``K`` leaves on every vertex;
  ``wheel``: a hub joined to every vertex of ``C_n`` (``n >= 3``);
- from Brown et al., "Nimber sequences of Node-Kayles games" (J. Integer Sequences 23,
  2020, Article 20.3.5), with the vertex names of the OEIS entries it deposited:
  ``3-path``: ``P_n(3)``, the path ``P_n`` plus an edge between every two vertices 3
  apart (A317367); ``linked-diamonds``: ``n`` diamonds ``v_(i-1) v_i u_i w_i``, each
  spine edge ``v_(i-1) v_i`` their diagonal (A316781); ``linked-4-cycles``: the path
  ``u_0 .. u_n`` with a 4-cycle ``u_i v_i w_i u_(i+1)`` on each of its edges (A316629);
  ``chained-4-cycles``: ``n`` 4-cycles ``u_i v_i u_(i+1) w_i`` joined at the cut
  vertices ``u_i`` (the comment of A316629: value 0 for odd ``n``, 1 for even);
  ``prism``: ``C_n x K_2`` (``n >= 3``); ``hypercube``: ``Q_n`` (``2^n`` vertices);
  ``generalized-petersen:K``: ``GP(n, K)``, the outer cycle ``0..n-1``, spokes
  ``i - (n+i)`` and the inner edges ``(n+i) - (n+(i+K) mod n)`` (``n >= 2K + 1``;
  ``GP(5, 2)`` is Petersen's graph). The article studies these too; no table of their
  values was found to compare with (``docs/kayles.md``).

>>> g = family_graph(parse_family("grid:2"), 3)
>>> len(g), len(g.edges), g.name
(6, 7, 'grid:2(3)')
>>> [len(family_graph(parse_family("caterpillar:2"), n)) for n in range(4)]
[0, 3, 6, 9]
>>> petersen = family_graph(parse_family("generalized-petersen:2"), 5)
>>> len(petersen), len(petersen.edges), sorted({len(a) for a in petersen.adj})
(10, 15, [3])
>>> [len(family_graph(parse_family("hypercube"), n).edges) for n in range(5)]
[0, 1, 4, 12, 32]
>>> parse_family("grid:0")
Traceback (most recent call last):
...
pyasp_games.errors.InputError: the grid family's M must be an integer from 1 to 1,000 (this tool's limit), got 0
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pyasp_games.engines.graphs import (
    Graph,
    check_random_size,
    numbered_graph,
    read_graph,
    small_digraphs,
)
from pyasp_games.errors import InputError, checked_int, checked_real, parsed_int

#: The most vertices a position may have (a file, a family member): beyond any search.
MAX_VERTICES = 100_000
#: The largest ``--upto`` of a family other than paths and cycles (each member is searched).
MAX_MEMBER = 10_000
#: The largest ``--upto`` of the path and cycle families (by formula: one line per term).
MAX_PATH_UPTO = 1_000_000

#: The families and the parameter each takes (``None``: none).
FAMILIES: dict[str, str | None] = {
    "path": None,
    "cycle": None,
    "star": None,
    "complete": None,
    "wheel": None,
    "complete-bipartite": "M",
    "grid": "M",
    "caterpillar": "K",
    "3-path": None,
    "linked-diamonds": None,
    "linked-4-cycles": None,
    "chained-4-cycles": None,
    "prism": None,
    "hypercube": None,
    "generalized-petersen": "K",
}


@dataclass(frozen=True)
class Family:
    """A family of graphs and its parameter; :attr:`upto` the last member asked for."""

    kind: str
    parameter: int | None = None
    upto: int = 0
    #: the play convention: misère (the player who moves last loses) or normal
    misere: bool = False

    @property
    def name(self) -> str:
        return self.kind if self.parameter is None else f"{self.kind}:{self.parameter}"

    @property
    def first(self) -> int:
        """The first member that is a graph (``C_n``, wheels and prisms from ``n = 3``,
        the generalized Petersen graph ``GP(n, K)`` from ``n = 2K + 1``)."""
        if self.kind == "generalized-petersen":
            return 2 * (self.parameter or 1) + 1
        return 3 if self.kind in ("cycle", "wheel", "prism") else 0


def parse_family(text: str, upto: int | None = None) -> Family:
    """``path``, ``grid:3``, ... (see the module docstring); ``upto`` checked against
    the family's limit."""
    kind, _, param = text.partition(":")
    if kind not in FAMILIES:
        raise InputError(f"unknown family {kind!r} (choose from {', '.join(FAMILIES)})")
    needs = FAMILIES[kind]
    parameter = None
    if needs is None and param:
        raise InputError(f"the family {kind} takes no parameter, got {text!r}")
    if needs is not None:
        if not param:
            raise InputError(f"the family {kind} needs its parameter: {kind}:{needs}")
        parameter = parsed_int(param, f"the {kind} family's {needs}", 1, 1_000)
    family = Family(kind, parameter, 0)
    if upto is None:
        return family
    high = MAX_PATH_UPTO if kind in ("path", "cycle") else MAX_MEMBER
    upto = checked_int(upto, "--upto", family.first, high)
    if _vertex_count(family, upto) > MAX_VERTICES:  # a huge grid or caterpillar member
        raise InputError(f"{family.name}({upto}) has more than {MAX_VERTICES:,} vertices: "
                         "beyond this tool's limit")  # fmt: skip
    return Family(kind, parameter, upto)


def _vertex_count(family: Family, n: int) -> int:
    m = family.parameter or 0
    if family.kind in ("star", "wheel"):
        return n + 1
    if family.kind == "complete-bipartite":
        return m + n
    if family.kind == "grid":
        return m * n
    if family.kind == "caterpillar":
        return n * (m + 1)
    if family.kind in ("linked-diamonds", "linked-4-cycles", "chained-4-cycles"):
        return 3 * n + 1
    if family.kind in ("prism", "generalized-petersen"):
        return 2 * n
    if family.kind == "hypercube":
        return 2**n
    return n


def _edges(family: Family, n: int) -> tuple[range, list[tuple[int, int]]]:
    """The vertices and edges of member ``n`` (vertices numbered from 0)."""
    kind, m = family.kind, family.parameter or 0
    if kind == "path":
        return range(n), [(i, i + 1) for i in range(n - 1)]
    if kind == "cycle":
        return range(n), [(i, (i + 1) % n) for i in range(n)]
    if kind == "star":
        return range(n + 1), [(0, i) for i in range(1, n + 1)]
    if kind == "complete":
        return range(n), [(i, j) for i in range(n) for j in range(i + 1, n)]
    if kind == "wheel":
        return range(n + 1), [(i, (i + 1) % n) for i in range(n)] + [(i, n) for i in range(n)]
    if kind == "complete-bipartite":
        return range(m + n), [(i, m + j) for i in range(m) for j in range(n)]
    if kind == "grid":  # row r, column c is vertex r * n + c
        edges = [(r * n + c, r * n + c + 1) for r in range(m) for c in range(n - 1)]
        edges += [(r * n + c, (r + 1) * n + c) for r in range(m - 1) for c in range(n)]
        return range(m * n), edges
    if kind == "3-path":
        return range(n), [(i, i + 1) for i in range(n - 1)] + [(i, i + 3) for i in range(n - 3)]
    if kind in ("linked-diamonds", "linked-4-cycles", "chained-4-cycles"):
        return range(3 * n + 1), _linked(kind, n)
    if kind in ("prism", "generalized-petersen"):  # outer cycle 0..n-1, spokes i - n+i
        step = 1 if kind == "prism" else m  # the inner cycle's step: 1 for C_n x K_2
        edges = [(i, (i + 1) % n) for i in range(n)] + [(i, n + i) for i in range(n)]
        return range(2 * n), edges + [(n + i, n + (i + step) % n) for i in range(n)]
    if kind == "hypercube":  # vertices 0..2^n-1, an edge between masks one bit apart
        return range(2**n), [(x, x | 1 << b) for x in range(2**n) for b in range(n) if not x >> b & 1]
    # caterpillar: spine 0..n-1, the leaves of spine vertex i after it
    edges = [(i, i + 1) for i in range(n - 1)]
    edges += [(i, n + i * m + j) for i in range(n) for j in range(m)]
    return range(n * (m + 1)), edges


def _linked(kind: str, n: int) -> list[tuple[int, int]]:
    """The edges of ``n`` linked diamonds or 4-cycles: the spine ``u_0..u_n`` is vertices
    ``0..n``, the ``i``-th link's two other vertices ``v_i = n+1+2i``, ``w_i = n+2+2i``."""
    edges = []
    for i in range(n):
        u, nxt, v, w = i, i + 1, n + 1 + 2 * i, n + 2 + 2 * i
        if kind == "linked-diamonds":  # u v_ w_ nxt a diamond, its diagonal on the spine
            edges += [(u, nxt), (u, v), (u, w), (v, nxt), (w, nxt)]
        elif kind == "linked-4-cycles":  # spine edge u nxt, and the 4-cycle u v w nxt
            edges += [(u, nxt), (u, v), (v, w), (w, nxt)]
        else:  # chained: the 4-cycle u v nxt w, no spine edge
            edges += [(u, v), (v, nxt), (u, w), (w, nxt)]
    return edges


def family_graph(family: Family, n: int) -> Graph:
    """Member ``n`` of ``family`` (an empty graph has no vertices: a :class:`Graph` of none)."""
    vertices, edges = _edges(family, n)
    return numbered_graph(len(vertices), edges, f"{family.name}({n})")


def load_graph(path: Path | str, fmt: str | None = None) -> Graph:
    """Read a Node Kayles position from a graph file.

    Parameters
    ----------
    path : path-like or str
        Any file :func:`~pyasp_games.engines.graphs.read_graph` reads, read as undirected;
        an optional ``# value:`` header states the known Grundy value.
    fmt : str or None, optional
        The graph format; ``None``: by the extension.

    Returns
    -------
    Graph
        The position.

    Raises
    ------
    InputError
        A bad file, a graph beyond ``MAX_VERTICES`` vertices, or a bad ``# value:``
        header.
    """
    graph = read_graph(path, fmt, undirected=True)
    assert isinstance(graph, Graph)
    if len(graph) > MAX_VERTICES:
        raise InputError(f"{graph.name}: {len(graph):,} vertices, beyond this tool's limit of "
                         f"{MAX_VERTICES:,}")  # fmt: skip
    known_value(graph)  # a bad header is bad input now, not in crosscheck
    return graph


def load_graphs(path: Path) -> list[Graph]:
    """One-element list (crosscheck's loader)."""
    return [load_graph(path)]


def known_value(graph: Graph) -> int | None:
    """The Grundy value a ``# value: N`` header states."""
    text = graph.headers.get("value")
    if text is None:
        return None
    if not text.isascii() or not text.isdigit():
        raise InputError(f"{graph.name}: '# value:' needs a number, got {text!r}")
    return int(text)


def format_graph(graph: Graph) -> str:
    """The position as an edge-list file (isolated vertices on lines of their own)."""
    return graph.format_arcs()


def witness(graph: Graph, value: int, options: dict[int, int]) -> dict[str, Any]:
    """The witness every backend of ``kayles value`` gives (vertices by name)."""
    names = graph.names
    return {
        "value": value,
        "outcome": "first" if value else "second",
        "options": {names[v]: options[v] for v in sorted(options)},
        "winning_moves": [names[v] for v in sorted(options) if options[v] == 0],
    }


def misere_witness(graph: Graph, cls: str, options: dict[int, str]) -> dict[str, Any]:
    """The witness of ``kayles value --misere``: the class (``P``/``N``) each move
    leaves, by vertex name, and the winning moves (those leaving a P-position)."""
    names = graph.names
    return {
        "class": cls,
        "outcome": "first" if cls == "N" else "second",
        "options": {names[v]: options[v] for v in sorted(options)},
        "winning_moves": [names[v] for v in sorted(options) if options[v] == "P"],
    }


# -- generators (bench) and small graphs (fuzz) ---------------------------------------------


#: The ``format`` of the native backend's certificate before 0.3 (:func:`encode_k_set_table`
#: wrote it so; the checker still reads it: answers saved then, ``docs/examples``): each
#: set less the one before it as 8 bytes, both columns zlib-compressed in base 64.
K_SET_FORMAT = "kayles K-set table: vertex sets as bit masks, increasing, each with its Grundy value"

#: The ``format`` of the native backend's certificate (:func:`encode_k_set_table`).
K_SET_FORMAT_XZ = ("kayles K-set table 2: vertex sets as bit masks, increasing, each less the one "
                   "before it in LEB128, with its Grundy value; both columns xz in base 85")  # fmt: skip

#: The xz preset of the certificate's columns (``benchmarks/RESULTS.md``, "Kayles
#: certificates": 6 saves 7% more than 1 for four times the CPU).
XZ_PRESET = 1


def leb128(numbers: Any) -> bytes:
    """Non-negative integers below ``2**63`` as LEB128: 7 bits a byte, low bits first,
    the high bit set on every byte but a number's last.

    >>> leb128([1, 127, 128, 300]).hex()
    '017f8001ac02'
    """
    import numpy as np

    left = np.asarray(numbers, dtype=np.uint64)
    size = np.ones(len(left), dtype=np.int64)  # bytes of each number
    rest = left >> np.uint64(7)
    while rest.any():
        size += rest > 0
        rest >>= np.uint64(7)
    start = np.cumsum(size) - size
    out = np.zeros(int(size.sum()), dtype=np.uint8)
    for k in range(int(size.max(initial=0))):
        here = size > k
        more = (size[here] > k + 1).astype(np.uint8) << np.uint8(7)
        out[start[here] + k] = (left[here] & np.uint64(0x7F)).astype(np.uint8) | more
        left[here] >>= np.uint64(7)
    return out.tobytes()


def encode_k_set_table(sets: Any, values: Any) -> dict[str, Any]:
    """The native backend's certificate of ``kayles value``: connected vertex sets of
    the graph (bit masks, bit ``v`` for vertex ``v``, in increasing order) and their
    Grundy values, which the checker confirms by the mex rule
    (:mod:`~pyasp_games.domains.kayles.k_set_check`). JSON data: ``count``, then
    ``sets`` (each set less the one before it, in LEB128: :func:`leb128`) and ``values``
    (a byte each), each compressed (xz, :data:`XZ_PRESET`) and in base 85: about 1.3
    bytes a set in all on 40 vertices (the earlier :data:`K_SET_FORMAT`, 8-byte steps in
    zlib and base 64: 2.3).

    >>> cert = encode_k_set_table([0b111, 0b1110], [1, 2])
    >>> cert["count"], sorted(cert)
    (2, ['count', 'format', 'sets', 'values'])
    """
    import base64
    import lzma

    import numpy as np

    masks = np.asarray(sets, dtype=np.uint64)
    steps = np.diff(masks, prepend=np.uint64(0))

    def packed(raw: bytes) -> str:
        return base64.b85encode(lzma.compress(raw, preset=XZ_PRESET)).decode("ascii")

    return {"format": K_SET_FORMAT_XZ, "count": len(masks), "sets": packed(leb128(steps)),
            "values": packed(np.asarray(values, dtype=np.uint8).tobytes())}  # fmt: skip


def random_graph(seed: int = 0, n: int = 40, degree: float = 3.0) -> Graph:
    """G(n, m) with ``m = round(n * degree / 2)`` edges: average degree ``degree`` (bench's
    generator ``random``; deterministic in its arguments)."""
    n = checked_int(n, "n", 1, 10_000)
    degree = checked_real(degree, "degree", 0.0, n - 1)
    rng = random.Random(checked_int(seed, "seed"))
    m = round(n * degree / 2)
    check_random_size(n, m, n * (n - 1) // 2)
    pairs: set[tuple[int, int]] = set()
    while len(pairs) < m:
        u, v = rng.sample(range(n), 2)
        pairs.add((min(u, v), max(u, v)))
    return numbered_graph(n, sorted(pairs), f"random-{n}-{degree:g}#{seed}")


def random_tree(seed: int = 0, n: int = 60) -> Graph:
    """A uniformly random labelled tree on ``n`` vertices (a random Pruefer sequence;
    bench's generator ``tree``)."""
    n = checked_int(n, "n", 1, 10_000)
    rng = random.Random(checked_int(seed, "seed"))
    if n == 1:
        return numbered_graph(1, [], f"tree-1#{seed}")
    code = [rng.randrange(n) for _ in range(n - 2)]
    degree = [1] * n
    for v in code:
        degree[v] += 1
    edges = []
    for v in code:
        leaf = min(u for u in range(n) if degree[u] == 1)
        edges.append((leaf, v))
        degree[leaf] -= 1
        degree[v] -= 1
    u, w = (x for x in range(n) if degree[x] == 1)
    edges.append((u, w))
    return numbered_graph(n, edges, f"tree-{n}#{seed}")


def grid_graph(seed: int = 0, rows: int = 4, cols: int = 4) -> Graph:
    """The grid ``P_rows x P_cols`` (bench's generator ``grid``; ``seed`` is ignored)."""
    rows = checked_int(rows, "rows", 1, 1_000)
    cols = checked_int(cols, "cols", 1, 1_000)
    checked_int(seed, "seed")
    if rows * cols > MAX_VERTICES:
        raise InputError(f"a {rows} x {cols} grid: beyond this tool's limit of {MAX_VERTICES:,} vertices")
    graph = family_graph(Family("grid", rows), cols)
    graph.name = f"grid-{rows}x{cols}"
    return graph


def _named(n: int, edges: tuple[tuple[int, int], ...], name: str) -> Graph:
    graph = numbered_graph(n, list(edges), name)
    letters = "abcdefghijklmnopqrstuvwxyz"
    return Graph(tuple(letters[i] for i in range(n)), graph.edges, name)


def small_graphs() -> Iterator[Graph]:
    """Every graph on 1..4 vertices up to isomorphism, smallest first (fuzz's small scope)."""
    for n, edges in small_digraphs(4, loops=False, undirected=True):
        yield _named(n, edges, f"small-{n}")


def strategy(size: int) -> Any:
    """A hypothesis strategy of graphs on at most ``size`` vertices (fuzz's random phase)."""
    from hypothesis import strategies as st

    def graphs(n: int) -> Any:
        pair = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(lambda p: p[0] < p[1])
        return st.lists(pair, max_size=n * (n - 1) // 2, unique=True).map(
            lambda edges: _named(n, tuple(sorted(edges)), "drawn")
        )

    return st.integers(1, max(1, size)).flatmap(graphs)
