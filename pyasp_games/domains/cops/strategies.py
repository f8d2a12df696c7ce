"""The strategies of a Cops and Robbers answer, read off a table of values.

Every backend ends in a :class:`~pyasp_games.domains.cops.retrograde.Table`: the native
one computes it, the ``asp`` and ``sat`` ones fill it with the values their solvers
derived (:meth:`~pyasp_games.domains.cops.retrograde.Table.from_values`). A strategy is
the positions reachable from the start when the winner plays the table's move and the
loser every move; :func:`solve_claim` is the answer of ``cops solve`` with them, and
:func:`cop_number_claim` the one of ``cops number``.

>>> from pyasp_games.domains.cops.model import parse_instance
>>> from pyasp_games.domains.cops.retrograde import Table
>>> g = parse_instance("a b\\nb c\\n", cops="a", robber="c")
>>> claim = solve_claim(g, Table.build(g, 1), {})
>>> claim.status, claim.answer, [e["move"] for e in claim.witness["cops_strategy"]]
('solved', {'winner': 'cops', 'moves': 2}, [['b'], ['c']])
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

import numpy as np

from pyasp_games.domains.cops.dismantling import dismantling_order
from pyasp_games.domains.cops.model import CopsGame, check_size
from pyasp_games.domains.cops.retrograde import Table
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.limits import Deadline, LimitReached, Limits
from pyasp_games.errors import InputError, MalformedAnswer


def names_of(t: Table, placement: int) -> list[str]:
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
        table.append({"cops": names_of(t, c), "robber": names[r], "move": names_of(t, to),
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
    """The robber's table from the robber's positions ``starts`` (all escaping): a move
    to a position still escaping, for every position reached against every move of the
    cops."""
    n, names = t.n, t.game.names
    seen = set(starts)
    queue = deque(starts)
    table = []
    while queue:
        q = queue.popleft()
        c, r = divmod(q, n)
        to = next((w for w in t.robber_moves(c, r) if t.cops_value[c * n + w] == -1), None)
        if to is None:
            raise MalformedAnswer(
                f"every move of the robber from {r} against the cops on {t.cops_of(c)} is won "
                "by the cops, yet the position is not: the values are no fixpoint of the rules"
            )
        table.append({"cops": names_of(t, c), "robber": names[r], "move": names[to]})
        for c2 in _cop_moves_from(t, c, to):
            q2 = c2 * n + to
            if q2 not in seen:
                seen.add(q2)
                queue.append(q2)
    return table


def robber_defence(t: Table, starts: list[int], need: int) -> list[dict[str, Any]]:
    """The robber's longest resistance from the robber's positions ``starts``, each of
    which the cops need at least ``need`` moves to win: the move of longest resistance
    (a position the table leaves undecided counts as the longest: it is worth more than
    any decided one) and, as ``survives``, the moves the cops still need, one fewer at
    every round, down to 1. A position reached at several rounds keeps the largest."""
    n, names = t.n, t.game.names
    level = [q for q in dict.fromkeys(starts)]
    seen = set(level)
    table = []
    while level and need >= 1:
        after: list[int] = []
        for q in level:
            c, r = divmod(q, n)
            value = t.cops_value
            to = max(t.robber_moves(c, r),
                     key=lambda w: (value[c * n + w] == -1, value[c * n + w]))  # fmt: skip
            table.append({"cops": names_of(t, c), "robber": names[r], "move": names[to],
                          "survives": need})  # fmt: skip
            if need > 1:
                for c2 in _cop_moves_from(t, c, to):
                    q2 = c2 * n + to
                    if q2 not in seen:
                        seen.add(q2)
                        after.append(q2)
        level, need = after, need - 1
    return table


def _robber_starts(t: Table, p: int, to_move: str) -> list[int]:
    """The robber's positions the robber's table starts from: the start itself, or every
    position the cops' first move makes (not a capture)."""
    if to_move == "robber":
        return [p]
    c, r = divmod(p, t.n)
    made = {c2 * t.n + r for c2 in _cop_moves_from(t, c, r)}
    return sorted(q for q in made if t.robber_value[q] != 0)


def _after_robber(t: Table, q: int) -> list[int]:
    """The cops' positions the robber's moves from ``q`` make (not captured)."""
    c, r = divmod(q, t.n)
    return sorted({c * t.n + w for w in t.robber_moves(c, r) if t.cops_value[c * t.n + w] > 0})


def solve_claim(game: CopsGame, t: Table, stats: dict[str, Any]) -> Claim:
    """The answer of ``cops solve`` from the table ``t`` of ``game``'s cops: who wins from
    the start and in how many moves of the cops, with the winner's strategy and, where
    the cops win, the robber's longest resistance (the lower bound that makes the
    number of moves exact)."""
    p = t.position(game.cops, game.robber)
    cops_turn = game.to_move == "cops"
    value = int((t.cops_value if cops_turn else t.robber_value)[p])
    witness: dict[str, Any] = {"rules": game.variant}
    if value >= 0:
        answer = {"winner": "cops", "moves": value}
        if value > 0:
            starts = [p] if cops_turn else _after_robber(t, p)
            witness["cops_strategy"] = cops_strategy(t, starts)
            need = value if not cops_turn else value - 1
            witness["robber_defence"] = robber_defence(t, _robber_starts(t, p, game.to_move), need)
    else:
        answer = {"winner": "robber", "moves": None}
        witness["robber_strategy"] = robber_strategy(t, _robber_starts(t, p, game.to_move))
    return Claim.solved(answer, witness, stats=stats)


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
        out.append({"cops": names_of(t, c), "robber": names[r]})
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


def cop_number_claim(
    game: CopsGame, table_for: Callable[[int, Deadline], Table], backend: str, limits: Limits
) -> Claim:
    """The answer of ``cops number`` from the tables ``table_for(k, deadline)`` of 1, 2,
    ... cops (every position): the least ``k`` for which some placement of ``k`` cops
    catches the robber wherever it starts, with that placement's strategy (the one of
    fastest worst-case capture) and, for ``k - 1`` cops, the robber's escape: a set of
    positions with the cops to move, one for every placement, closed under the play
    (whatever the cops do, the robber has a move back into the set). The witness's
    ``capture_within`` is that strategy's worst case over the robber's starts. One cop is
    decided by dismantlability too; an answer where the two disagree is an error; the
    certificate says whether the graph is dismantlable and, if so, the order of removal
    (the checker replays it)."""
    deadline = limits.deadline()
    n = len(game)
    order = dismantling_order(game.graph)
    stats: dict[str, Any] = {"tables": []}
    previous: Table | None = None
    k = 1
    try:
        while True:
            check_size(game, k)
            t = table_for(k, deadline)
            values = t.cops_value.reshape(t.placements, n)
            won = np.all(values >= 0, axis=1)
            stats["tables"].append({"cops": k, "positions": 2 * t.placements * n,
                                    "automorphisms": t.reduction["automorphisms"],
                                    "decided": 2 * t.reduction["decided"]})  # fmt: skip
            if k == 1 and bool(won.any()) != (order is not None):
                return Claim.error(f"the {backend} table and dismantlability disagree on one cop", stats)
            if won.any():
                break
            previous = t
            k += 1
    except LimitReached:
        return Claim.unknown({**stats, "limit": "time"})
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
    certificate = {
        "dismantlable": order is not None,
        "dismantling_order": None if order is None else [game.names[v] for v in order],
    }
    return Claim.solved(k, witness, certificate=certificate, stats=stats)
