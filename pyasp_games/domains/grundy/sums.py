"""Sums of games on acyclic graphs: the XOR sum (Sprague–Grundy) and the OR sum.

The OR sum (a move changes any non-empty set of components) is the *selective
compound* of C. A. B. Smith, "Graphs and composite games", J. Combinatorial Theory 1
(1966), and of Conway, *On Numbers and Games*, chapter 14.

>>> from pyasp_games.domains.grundy.acyclic import grundy_values
>>> from pyasp_games.domains.grundy.model import parse_graph
>>> g = parse_graph("a b\\nb c\\n")
>>> sum_winning_moves([g, g], [grundy_values(g)] * 2, [1, 0])
(1, [SumMove(component=0, source=1, target=2), SumMove(component=1, source=0, target=1)])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pyasp_games.engines.graphs import Digraph


@dataclass(frozen=True)
class SumMove:
    """A move of a sum: in component ``component`` from ``source`` to ``target``."""

    component: int
    source: int
    target: int


def sum_winning_moves(
    graphs: Sequence[Digraph], values: Sequence[Sequence[int]], positions: Sequence[int]
) -> tuple[int, list[SumMove]]:
    """Value of the XOR sum at ``positions`` and every winning move (to a sum of value 0).

    Sprague–Grundy: ``g(p1,...,pk) = g1(p1) XOR ... XOR gk(pk)``. The winning moves
    are exactly the moves of a component ``i`` to a successor of value ``gi(pi) XOR d``
    (``d`` the total): the theorem guarantees one with ``gi(pi) XOR d < gi(pi)``, but in a
    graph a move to a higher value can win too, and those are listed as well.
    """
    total = 0
    for vals, p in zip(values, positions, strict=True):
        total ^= vals[p]
    moves: list[SumMove] = []
    if total:
        for i, (g, vals, p) in enumerate(zip(graphs, values, positions, strict=True)):
            target = vals[p] ^ total
            moves += [SumMove(i, p, w) for w in g.succ[p] if vals[w] == target]
    return total, moves


def or_sum_winning_moves(
    graphs: Sequence[Digraph], values: Sequence[Sequence[int]], positions: Sequence[int]
) -> tuple[bool, list[list[int]]]:
    """The OR sum (a move changes any non-empty set of components: the selective compound).

    Returns ``(first player wins, options)``: a position is losing iff every
    component has value 0; a winning move moves every nonzero component ``i`` to
    one of ``options[i]`` (its successors of value 0) and leaves the others alone
    (``options[i]`` is empty for them).
    """
    options = [
        [w for w in g.succ[p] if vals[w] == 0] if vals[p] else []
        for g, vals, p in zip(graphs, values, positions, strict=True)
    ]
    return any(vals[p] for vals, p in zip(values, positions, strict=True)), options
