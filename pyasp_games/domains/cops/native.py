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
from collections import deque
from typing import Any

import numpy as np

from pyasp_games.domains.cops.model import CopsGame, check_size
from pyasp_games.domains.cops.retrograde import Table
from pyasp_games.engines.graphs import Graph
from pyasp_games.engines.limits import LimitReached, Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.errors import InputError


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


# -- reading strategies off the tables ----------------------------------------------------


def _names(t: Table, placement: int) -> list[str]:
    return [t.game.names[c] for c in t.cops_of(placement)]


def _cop_moves_from(t: Table, placement: int, robber: int) -> list[int]:
    """The placements the cops can move to with the robber on ``robber`` (notes: a move
    may not land on it; a cops' player without a move passes)."""
    moves = t.cop_moves(placement)
    if t.classic:
        return [int(m) for m in moves]
    land = t.landings(placement)
    out = [int(m) for m, w in zip(moves, land, strict=True) if w != robber]
    return out or [placement]


def cops_strategy(t: Table, starts: list[int]) -> list[dict[str, Any]]:
    """The cops' table from the cops' positions ``starts`` (all won): for every position
    reachable when the cops play the fastest move and the robber any move, the move and
    the number of cops' moves within which it captures."""
    n, names = t.n, t.game.names
    seen = set(starts)
    queue = deque(starts)
    table = []
    while queue:
        p = queue.popleft()
        c, r = divmod(p, n)
        to = int(t.cops_best[p])
        table.append({"cops": _names(t, c), "robber": names[r], "move": _names(t, to),
                      "within": int(t.cops_value[p])})  # fmt: skip
        if t.robber_value[to * n + r] == 0:
            continue  # captured (trapped) by the move
        for r2 in t.robber_moves(to, r):
            q = to * n + r2
            if t.cops_value[q] > 0 and q not in seen:
                seen.add(q)
                queue.append(q)
    return table


def robber_strategy(t: Table, starts: list[int]) -> list[dict[str, Any]]:
    """The robber's table from the robber's positions ``starts``: where the robber
    escapes for ever, a move to a position still escaping (``survives`` absent); where
    the cops win, the move of longest resistance, with the number of cops' moves the
    robber survives (a lower bound on the capture)."""
    n, names = t.n, t.game.names
    seen = set(starts)
    queue = deque(starts)
    table = []
    while queue:
        q = queue.popleft()
        c, r = divmod(q, n)
        value = int(t.robber_value[q])
        if value < 0:
            to = next(w for w in t.robber_moves(c, r) if t.cops_value[c * n + w] == -1)
        else:
            to = int(t.robber_best[q])
        entry: dict[str, Any] = {"cops": _names(t, c), "robber": names[r], "move": names[to]}
        if value >= 0:
            entry["survives"] = value
        table.append(entry)
        if value == 1:
            continue  # the next move of the cops may capture: nothing more to survive
        for c2 in _cop_moves_from(t, c, to):
            q2 = c2 * n + to
            if t.robber_value[q2] != 0 and q2 not in seen:
                seen.add(q2)
                queue.append(q2)
    return table


def _robber_starts(t: Table, p: int, to_move: str) -> list[int]:
    """The robber's positions the robber's table starts from: the start itself, or every
    position the cops' first move makes (not a capture)."""
    if to_move == "robber":
        return [p]
    c, r = divmod(p, t.n)
    made = {c2 * t.n + r for c2 in _cop_moves_from(t, c, r)}
    return sorted(q for q in made if t.robber_value[q] != 0)


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
    p = t.position(game.cops, game.robber)
    cops_turn = game.to_move == "cops"
    value = int((t.cops_value if cops_turn else t.robber_value)[p])
    stats: dict[str, Any] = {"positions": 2 * t.placements * t.n,
                             "table_seconds": round(time.perf_counter() - started, 3)}  # fmt: skip
    witness: dict[str, Any] = {"rules": game.variant}
    if value >= 0:
        answer = {"winner": "cops", "moves": value}
        if value > 0:
            starts = [p] if cops_turn else _after_robber(t, p)
            witness["cops_strategy"] = cops_strategy(t, starts)
            robber_starts = _robber_starts(t, p, game.to_move)
            witness["robber_defence"] = robber_strategy(
                t, [q for q in robber_starts if t.robber_value[q] > 0]
            )
    else:
        answer = {"winner": "robber", "moves": None}
        robber_starts = _robber_starts(t, p, game.to_move)
        witness["robber_strategy"] = robber_strategy(t, robber_starts)
    return Outcome(game.name, "native", "solved", answer, witness, 0.0, stats)


def _after_robber(t: Table, q: int) -> list[int]:
    """The cops' positions the robber's moves from ``q`` make (not captured)."""
    c, r = divmod(q, t.n)
    return sorted({c * t.n + w for w in t.robber_moves(c, r) if t.cops_value[c * t.n + w] > 0})


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
        "start": _names(t, best),
        "capture_within": int(worst[best]),
        "strategy": cops_strategy(t, starts),
        "escape": [] if previous is None else escape_set(previous),
    }
    if order is not None:
        stats["dismantling_order"] = [game.names[v] for v in order]
    return Outcome(game.name, "native", "solved", k, witness, 0.0, stats)


def escape_set(t: Table) -> list[dict[str, Any]]:
    """The robber's escape from ``t``'s cops: for every placement a robber start where
    the robber escapes, and every position with the cops to move that the robber's
    replies (the first escaping one) reach against every move of the cops."""
    n, names = t.n, t.game.names
    values = t.cops_value
    starts = []
    for c in range(t.placements):
        r = next((r for r in range(n) if values[c * n + r] == -1), None)
        if r is None:
            raise InputError("internal: a placement without an escape")  # the cops won
        starts.append(c * n + r)
    seen = set(starts)
    queue = deque(starts)
    out = []
    while queue:
        p = queue.popleft()
        c, r = divmod(p, n)
        out.append({"cops": _names(t, c), "robber": names[r]})
        for c2 in t.cop_moves(c):
            c2 = int(c2)
            for w in t.robber_moves(c2, r):
                q = c2 * n + w
                if values[q] == -1:
                    if q not in seen:
                        seen.add(q)
                        queue.append(q)
                    break
    return out
