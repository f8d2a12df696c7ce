"""Components known up to isomorphism: an invariant key, and an exact check behind it.

Two isomorphic components have the same Grundy value, so the search keeps the values it
computed in a :class:`ComponentTable` and looks a new component up there. The table is
keyed by an isomorphism *invariant* (equal for isomorphic graphs, perhaps equal for
others too): the number of vertices and edges and the whole run of colour refinement
(1-dimensional Weisfeiler-Leman: a vertex's colour is refined by the multiset of its
neighbours' colours until the partition is stable), each round's signatures written out,
never hashed to a number that could collide. A key can still be shared by graphs that
are not isomorphic (refinement does not tell every pair apart: two regular graphs of one
degree and size look alike to it), so a value is only taken after an **exact** check:
:func:`isomorphic` searches a bijection that keeps the colours and every adjacency, by
backtracking along a breadth-first order. Its search is bounded (:data:`CHECK_STEPS`);
a check out of steps counts as "not isomorphic", which only costs a recomputation.

>>> k4_minus = Shape.of([0b0110, 0b1101, 0b1011, 0b0110])   # K4 less the edge 0-3
>>> c4 = Shape.of([0b1010, 0b0101, 0b1010, 0b0101])
>>> k4_minus.key == c4.key
False
>>> a = Shape.of([0b10, 0b101, 0b10])          # the path a-b-c
>>> b = Shape.of([0b100, 0b100, 0b011])        # the path a-c-b
>>> a.key == b.key, isomorphic(a, b)
(True, True)
>>> table = ComponentTable()
>>> table.add(a, 2)
>>> table.find(b)
2
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from pyasp_games.engines.graphs import set_bits

#: Backtracking steps one exact check may take before it gives up (as "not isomorphic").
CHECK_STEPS = 20_000


@dataclass(frozen=True)
class Shape:
    """A graph on local vertices ``0..k-1`` (``adj[i]``: a bitmask of ``i``'s neighbours),
    with its stable colouring and the invariant :attr:`key`."""

    adj: tuple[int, ...]
    colours: tuple[int, ...]
    key: tuple[Any, ...]

    @classmethod
    def of(cls, adj: list[int] | tuple[int, ...]) -> Shape:
        """Refine colours from the degrees until stable; the key is every round's
        signatures with their multiplicities (an exact record of the run, no hash)."""
        k = len(adj)
        nbrs = [set_bits(a) for a in adj]
        colours = [len(x) for x in nbrs]
        rounds: list[Any] = [tuple(sorted(Counter(colours).items()))]
        count = len(set(colours))
        while True:
            sigs = [(colours[i], tuple(sorted(colours[j] for j in nbrs[i]))) for i in range(k)]
            distinct = sorted(set(sigs))
            rank = {s: r for r, s in enumerate(distinct)}
            rounds.append(tuple(sorted(Counter(sigs).items())))
            colours = [rank[s] for s in sigs]
            if len(distinct) == count:
                break
            count = len(distinct)
        edges = sum(len(x) for x in nbrs) // 2
        return cls(tuple(adj), tuple(colours), (k, edges, tuple(rounds)))


def isomorphic(a: Shape, b: Shape, steps: int = CHECK_STEPS) -> bool:
    """Whether a bijection maps ``a`` onto ``b`` keeping colours and adjacency (found by
    backtracking within ``steps``; out of steps: ``False``). The shapes must share a key,
    so their colours name the same classes."""
    k = len(a.adj)
    if k != len(b.adj) or a.key != b.key:
        return False
    if k == 0:
        return True
    by_colour: dict[int, int] = {}
    for j, c in enumerate(b.colours):
        by_colour[c] = by_colour.get(c, 0) | (1 << j)
    # a breadth-first order of a from a vertex of its rarest colour: every later vertex
    # has a neighbour placed before it (a component is connected), whose image limits it
    sizes = Counter(a.colours)
    root = min(range(k), key=lambda i: (sizes[a.colours[i]], i))
    order, parent, seen = [root], [-1], 1 << root
    i = 0
    while i < len(order):
        for w in set_bits(a.adj[order[i]] & ~seen):
            seen |= 1 << w
            order.append(w)
            parent.append(order[i])
        i += 1
    if len(order) != k:  # not connected: place the rest without a parent
        for w in range(k):
            if not seen >> w & 1:
                order.append(w)
                parent.append(-1)
    image = [-1] * k
    used = 0
    stack: list[int] = []  # candidates left, per placed depth

    def candidates(depth: int) -> int:
        v = order[depth]
        cand = by_colour.get(a.colours[v], 0) & ~used
        if parent[depth] >= 0:
            cand &= b.adj[image[parent[depth]]]
        return cand

    depth, left = 0, candidates(0)
    while True:
        steps -= 1
        if steps < 0:
            return False
        if not left:
            if depth == 0:
                return False
            depth -= 1  # backtrack: undo the vertex placed at this depth
            v = order[depth]
            used &= ~(1 << image[v])
            image[v] = -1
            left = stack.pop()
            continue
        low = left & -left
        left ^= low
        w = low.bit_length() - 1
        v = order[depth]
        # every placed neighbour of v must map to a neighbour of w, and no other
        want = 0
        for u in set_bits(a.adj[v]):
            if image[u] >= 0:
                want |= 1 << image[u]
        if b.adj[w] & used != want:
            continue
        image[v] = w
        used |= low
        if depth + 1 == k:
            return True
        stack.append(left)
        depth += 1
        left = candidates(depth)


class ComponentTable:
    """Grundy values of components up to isomorphism (shared across graphs: a family's
    members meet the same pieces)."""

    def __init__(self) -> None:
        self.classes: dict[tuple[Any, ...], list[tuple[Shape, int]]] = {}
        self.checks = 0

    def find(self, shape: Shape) -> int | None:
        """The value of a stored component isomorphic to ``shape`` (checked exactly)."""
        for known, value in self.classes.get(shape.key, ()):
            self.checks += 1
            if isomorphic(shape, known):
                return value
        return None

    def add(self, shape: Shape, value: int) -> None:
        self.classes.setdefault(shape.key, []).append((shape, value))

    def __len__(self) -> int:
        return sum(len(v) for v in self.classes.values())
