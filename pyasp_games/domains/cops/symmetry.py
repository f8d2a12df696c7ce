"""The graph's automorphisms, and the orbits of Cops and Robbers positions under them.

An automorphism ``g`` of the graph maps a position (cops on ``c_1..c_k``, robber on
``r``, a side to move) to the position ``(g(c_1)..g(c_k), g(r))`` with the same side to
move, and maps every move to a move: the two positions have the same value, and the
winner's move in one is the image of the winner's move in the other. So the retrograde
analysis (:mod:`~pyasp_games.domains.cops.retrograde`) need only decide one position of
each orbit, its *representative*: the one of least number (placement rank times ``n``
plus robber), ``min`` over the group of the position's images.

:class:`Symmetry` holds, for the group ``G`` (identity first):

- ``vertex[g]``: the permutation of the vertices;
- ``placement[g]``: the permutation of the placements (colex ranks);
- ``rep[p]``: the representative of position ``p``, ``which[p]`` an element taking
  ``p`` to it, ``inverse[g]`` the element undoing ``g``;
- ``canonical[c]``: whether placement ``c`` is the least of its orbit (the
  representatives' placements: only theirs need their moves listed).

**The rule** (:func:`symmetry_of`): the group is enumerated by networkx (VF2, the graph
matched onto itself) up to :data:`MAX_GROUP` elements within :data:`FIND_SECONDS` of
CPU; the reduction is skipped (``None``) on tables of fewer than :data:`MIN_POSITIONS`
positions (decided whole in milliseconds: listing the group would cost more), where the
group is trivial, where it is larger
than that or takes longer to enumerate (complete graphs, hypercubes from ``Q_5``), on
graphs of more than :data:`MAX_VERTICES` vertices, and where the orbit tables
(``|G|`` x positions) would pass :data:`MAX_WORK`. The checker
(:mod:`~pyasp_games.domains.cops.verify`) knows nothing of this: it replays the
strategies, expanded to every position, with its own move generator.

>>> from pyasp_games.domains.cops.model import read_graph
>>> from pyasp_games.domains.cops.retrograde import placements
>>> s = symmetry_of(read_graph("dodecahedron"), *placements(20, 3, True), classic=True)
>>> s.order, s.orbits, len(s.rep)
(120, 286, 30800)
>>> symmetry_of(read_graph("complete:30"), *placements(30, 3, True), classic=True) is None
True
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from pyasp_games.engines.graphs import Graph

#: Tables of fewer positions (placements x robber vertices) are decided whole.
MIN_POSITIONS = 10_000
#: The largest group the reduction enumerates (larger: skipped).
MAX_GROUP = 1_000
#: CPU seconds the enumeration of the group may take (longer: skipped).
FIND_SECONDS = 0.25
#: Graphs above this many vertices are not searched for automorphisms.
MAX_VERTICES = 200
#: The most (group elements x positions) the orbit tables may cost.
MAX_WORK = 200_000_000


@dataclass
class Symmetry:
    """The group acting on the positions (see the module docstring)."""

    vertex: np.ndarray  # (|G|, n)
    placement: np.ndarray  # (|G|, placements)
    inverse: np.ndarray  # (|G|,)
    rep: np.ndarray  # (positions,)
    which: np.ndarray  # (positions,)
    canonical: np.ndarray  # (placements,): 1 where the placement is its orbit's least

    @property
    def order(self) -> int:
        return len(self.vertex)

    @property
    def orbits(self) -> int:
        return int(np.count_nonzero(self.rep == np.arange(len(self.rep))))


def automorphisms(graph: Graph) -> np.ndarray | None:
    """Every automorphism of ``graph`` as rows of an array (identity first), or ``None``
    if there are more than :data:`MAX_GROUP` or listing them takes more than
    :data:`FIND_SECONDS` of CPU. Remembered for the last few graphs (``cops number``
    asks again for every number of cops)."""
    return _automorphisms(len(graph), graph.edges, MAX_GROUP, FIND_SECONDS)


@lru_cache(maxsize=8)
def _automorphisms(n: int, edges: tuple[tuple[int, int], ...], most: int, seconds: float) -> np.ndarray | None:
    import networkx as nx
    from networkx.algorithms.isomorphism import GraphMatcher

    g = nx.Graph()
    g.add_nodes_from(range(n))
    g.add_edges_from(edges)
    found = [list(range(n))]
    started = time.process_time()
    for mapping in GraphMatcher(g, g).isomorphisms_iter():
        if time.process_time() - started > seconds:
            return None
        row = [mapping[v] for v in range(n)]
        if row != found[0]:
            found.append(row)
            if len(found) > most:
                return None
    return np.array(found, dtype=np.int64).reshape(len(found), n)


def symmetry_of(graph: Graph, confs: np.ndarray, binom: np.ndarray, classic: bool) -> Symmetry | None:
    """The orbits of the positions of the placements ``confs`` (colex order, ranked by
    ``binom``) under the graph's automorphisms, or ``None`` where the rule of the module
    docstring skips the reduction."""
    n, (m, k) = len(graph), confs.shape
    if n > MAX_VERTICES or n < 2 or m * n < MIN_POSITIONS:
        return None
    group = automorphisms(graph)
    if group is None or len(group) == 1 or len(group) * m * n > MAX_WORK:
        return None
    size = len(group)
    placement = np.empty((size, m), dtype=np.int64)
    for g in range(size):
        images = np.sort(group[g][confs], axis=1)
        placement[g] = sum(binom[images[:, i] + (i if classic else 0), i + 1] for i in range(k))
    inverse = np.empty(size, dtype=np.int64)
    rows = {tuple(row): i for i, row in enumerate(group.tolist())}
    for g in range(size):
        inv = np.empty(n, dtype=np.int64)
        inv[group[g]] = np.arange(n)
        inverse[g] = rows[tuple(inv.tolist())]
    # the representative: the least image number over the group, and the element giving it
    rep = np.arange(m * n, dtype=np.int64)
    which = np.zeros(m * n, dtype=np.int16)
    for g in range(1, size):
        image = (placement[g][:, None] * n + group[g][None, :]).reshape(-1)
        better = image < rep
        rep[better] = image[better]
        which[better] = g
    canonical = np.all(placement >= np.arange(m), axis=0).astype(np.uint8)
    return Symmetry(group, placement, inverse, rep, which, canonical)
