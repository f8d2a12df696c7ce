"""Native Cops and Robbers: retrograde analysis, the strategies read off its tables, and
dismantlability for one cop.

:func:`solve_native` answers ``cops solve`` (who wins from the start, in how many moves
of the cops, with both sides' strategies); :func:`cop_number_native` answers ``cops
number`` (c(G), with the cops' winning strategy from their chosen start and the robber's
escape from every placement of one cop fewer). Both read the tables of
:mod:`~pyasp_games.domains.cops.retrograde`: a strategy is the positions reachable from
the start when the winner plays the table's move and the loser plays every move.

One cop is the polynomial special case: a graph is cop-win exactly when it is
dismantlable (Nowakowski and Winkler 1983: a corner ``u``, whose closed neighbourhood
lies inside another vertex's, can be removed, until one vertex is left).
:func:`dismantling_order` finds the order; ``cops number`` asks both it and the
retrograde table for one cop, and an answer where they disagree is an error.

>>> from pyasp_games.domains.cops.model import load_graph_game, parse_instance
>>> out = cop_number_native(load_graph_game("petersen"))
>>> out.answer, out.witness["start"], len(out.witness["escape"]) > 0
(3, ['1', '4', '5'], True)
>>> out = solve_native(parse_instance("a b\\nb c\\nc d\\n", cops="a", robber="d"))
>>> out.answer
{'winner': 'cops', 'moves': 3}
>>> dismantling_order(load_graph_game("path:3").graph)
[0, 1, 2]
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from pyasp_games.domains.cops.model import CopsGame, check_size
from pyasp_games.domains.cops.retrograde import Table
from pyasp_games.domains.cops.strategies import cops_strategy, escape_set, names_of, solve_outcome
from pyasp_games.engines.graphs import Graph
from pyasp_games.engines.limits import LimitReached, Limits
from pyasp_games.engines.outcome import Outcome


def dismantling_order(graph: Graph) -> list[int] | None:
    """The vertices in an order of removal, each a corner of the graph left (its closed
    neighbourhood inside another's), the last one alone; ``None``: not dismantlable.

    A corner can be removed whenever it is one (removing vertices keeps a corner a
    corner or removes its dominator's rival), so the greedy order decides.

    >>> from pyasp_games.domains.cops.model import read_graph
    >>> dismantling_order(read_graph("cycle:4")) is None
    True
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


def solve_native(game: CopsGame, limits: Limits = Limits()) -> Outcome:
    """The ``native`` backend of ``cops solve``: who wins from the start and in how many
    moves of the cops, with the winner's strategy and, where the cops win, the robber's
    longest resistance (the lower bound that makes the number of moves exact)."""
    started = time.perf_counter()
    try:
        t = Table.build(game, game.k, limits.deadline())
    except LimitReached:
        return Outcome(game.name, "native", "unknown", None, None, 0.0, {"limit": "time"})
    stats = {"positions": 2 * t.placements * t.n,
             "table_seconds": round(time.perf_counter() - started, 3)}  # fmt: skip
    return solve_outcome(game, t, "native", stats)


def cop_number_native(game: CopsGame, limits: Limits = Limits()) -> Outcome:
    """The ``native`` backend of ``cops number``: the least ``k`` for which some
    placement of ``k`` cops catches the robber wherever it starts, with that
    placement's strategy (the one of fastest worst-case capture) and, for ``k - 1``
    cops, the robber's escape: a set of positions with the cops to move, one for every
    placement, closed under the play (whatever the cops do, the robber has a move back
    into the set)."""
    deadline = limits.deadline()
    n = len(game)
    order = dismantling_order(game.graph)
    stats: dict[str, Any] = {"dismantlable": order is not None, "tables": []}
    previous: Table | None = None
    k = 1
    try:
        while True:
            check_size(game, k)
            t = Table.build(game, k, deadline)
            values = t.cops_value.reshape(t.placements, n)
            won = np.all(values >= 0, axis=1)
            stats["tables"].append({"cops": k, "positions": 2 * t.placements * n})
            if k == 1 and bool(won.any()) != (order is not None):
                stats["error"] = "retrograde analysis and dismantlability disagree on one cop"
                return Outcome(game.name, "native", "error", None, None, 0.0, stats)
            if won.any():
                break
            previous = t
            k += 1
    except LimitReached:
        stats["limit"] = "time"
        return Outcome(game.name, "native", "unknown", None, None, 0.0, stats)
    worst = np.where(won, values.max(axis=1), np.iinfo(np.int32).max)
    best = int(np.argmin(worst))
    starts = [best * n + r for r in range(n) if values[best, r] > 0]
    witness: dict[str, Any] = {
        "cops": k,
        "start": names_of(t, best),
        "capture_within": int(worst[best]),
        "strategy": cops_strategy(t, starts),
        "escape": [] if previous is None else escape_set(previous),
    }
    if order is not None:
        stats["dismantling_order"] = [game.names[v] for v in order]
    return Outcome(game.name, "native", "solved", k, witness, 0.0, stats)


