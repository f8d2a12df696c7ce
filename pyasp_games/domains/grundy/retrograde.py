"""Win/lose/draw (P/N/D) of loopy games by retrograde labelling, independent of ``γ``.

>>> from pyasp_games.domains.grundy.model import parse_graph
>>> retrograde_classes(parse_graph("a b\\nb a\\nb c\\nd e\\ne d\\n"))
['P', 'N', 'P', 'D', 'D']
"""

from __future__ import annotations

from collections.abc import Sequence

from pyasp_games.engines.graphs import Digraph


def retrograde_classes(graph: Digraph) -> list[str]:
    """Win/lose/draw by retrograde labelling, O(|S| + |A|), independent of ``γ``.

    Sinks lose (``P``); a predecessor of a losing vertex wins (``N``); a vertex all
    of whose successors win loses; what is never labelled is a draw (``D``).
    """
    return retrograde_labels(graph.succ, graph.pred)


def retrograde_labels(succ: Sequence[Sequence[int]], pred: Sequence[Sequence[int]]) -> list[str]:
    """:func:`retrograde_classes` on a game graph given as successor and predecessor
    lists (positions ``0..n-1``): for game graphs built without names, such as the
    token positions of ``annihilation`` and ``catch``."""
    remaining = [len(s) for s in succ]
    cls = ["D"] * len(succ)
    queue = [v for v, d in enumerate(remaining) if d == 0]
    for v in queue:
        cls[v] = "P"
    i = 0
    while i < len(queue):
        v = queue[i]
        i += 1
        for u in pred[v]:
            if cls[u] != "D":
                continue
            if cls[v] == "P":
                cls[u] = "N"
                queue.append(u)
            else:
                remaining[u] -= 1
                if remaining[u] == 0:
                    cls[u] = "P"
                    queue.append(u)
    return cls
