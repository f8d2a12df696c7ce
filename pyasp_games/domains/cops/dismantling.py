"""One cop: a graph is cop-win exactly when it is dismantlable (Nowakowski and Winkler
1983; Quilliot 1983), the polynomial special case of the cop number.

A *corner* ``u`` is a vertex whose closed neighbourhood lies inside another vertex's
(the cop on that vertex covers every escape of a robber on ``u``); a graph is
dismantlable when corners can be removed one after another until one vertex is left.
``cops number`` decides one cop by this test and by the retrograde table alike, and an
answer where they disagree is an error.

>>> from pyasp_games.domains.cops.model import read_graph
>>> dismantling_order(read_graph("path:3"))
[0, 1, 2]
>>> dismantling_order(read_graph("cycle:4")) is None
True
"""

from __future__ import annotations

from pyasp_games.engines.graphs import Graph


def dismantling_order(graph: Graph) -> list[int] | None:
    """The vertices in an order of removal, each a corner of the graph left (its closed
    neighbourhood inside another's), the last one alone; ``None``: not dismantlable.

    A corner can be removed whenever it is one (removing vertices keeps a corner a
    corner or removes its dominator's rival), so the greedy order decides.
    """
    alive = set(range(len(graph)))
    closed = [set(a) | {v} for v, a in enumerate(graph.adj)]
    order = []
    changed = True
    while len(alive) > 1 and changed:
        changed = False
        for u in sorted(alive):
            here = closed[u] & alive
            if any(v != u and here <= (closed[v] & alive) for v in here):
                alive.discard(u)
                order.append(u)
                changed = True
                break
    if len(alive) > 1:
        return None
    return order + sorted(alive)


# -- the backends -------------------------------------------------------------------------
