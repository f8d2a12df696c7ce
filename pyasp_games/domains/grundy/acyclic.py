"""Grundy values of acyclic game graphs: a queue-based retrograde pass, O(|S|+|A|).

>>> from pyasp_games.domains.grundy.model import parse_graph
>>> g = parse_graph("a b\\nb c\\na c\\n")
>>> grundy_values(g), winning_moves(g, grundy_values(g), 0)
([2, 1, 0], [2])
"""

from __future__ import annotations

from collections.abc import Sequence

from pyasp_games.domains.grundy.model import mex
from pyasp_games.engines.graphs import Digraph
from pyasp_games.engines.limits import Deadline
from pyasp_games.errors import InputError

_POLL = 4096  # steps between deadline checks


class CyclicGraphError(InputError):
    """Grundy values by the acyclic algorithm were asked for on a graph with a cycle."""


def grundy_values(graph: Digraph, deadline: Deadline | None = None) -> list[int]:
    """The Grundy function of an acyclic graph (a queue-based retrograde pass, O(|S|+|A|)).

    A vertex enters the queue once all its successors have values; its value is
    the mex of theirs. Raises :class:`CyclicGraphError` naming a cycle otherwise.
    """
    succ, pred = graph.succ, graph.pred
    remaining = [len(s) for s in succ]
    values = [-1] * len(succ)
    queue = [v for v, d in enumerate(remaining) if d == 0]
    i = 0
    while i < len(queue):
        v = queue[i]
        i += 1
        if deadline is not None and i % _POLL == 0:
            deadline.check()
        values[v] = mex({values[w] for w in succ[v]})
        for u in pred[v]:
            remaining[u] -= 1
            if remaining[u] == 0:
                queue.append(u)
    if len(queue) < len(succ):
        cycle = graph.find_cycle() or []
        names = [graph.names[v] for v in cycle]
        shown = " -> ".join([*names, names[0]]) if names else "?"
        raise CyclicGraphError(
            f"{graph.name} has a cycle ({shown}): Grundy values by the acyclic algorithm need "
            "an acyclic graph; use 'grundy loopy' (generalized values) or 'grundy exists'"
        )
    return values


def winning_moves(graph: Digraph, values: Sequence[int], position: int) -> list[int]:
    """The successors of ``position`` with value 0 (empty for a P-position)."""
    return [w for w in graph.succ[position] if values[w] == 0]
