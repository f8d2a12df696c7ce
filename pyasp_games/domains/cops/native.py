"""Native Cops and Robbers: retrograde analysis, the strategies read off its tables, and
dismantlability for one cop.

:func:`solve_native` answers ``cops solve`` (who wins from the start, in how many moves
of the cops, with both sides' strategies); :func:`cop_number_native` answers ``cops
number`` (c(G), with the cops' winning strategy from their chosen start and the robber's
escape from every placement of one cop fewer). Both read the tables of
:mod:`~pyasp_games.domains.cops.retrograde`: a strategy is the positions reachable from
the start when the winner plays the table's move and the loser plays every move.

One cop is the polynomial special case (:mod:`~pyasp_games.domains.cops.dismantling`):
``cops number`` asks both it and the table for one cop, and an answer where they
disagree is an error.

>>> from pyasp_games.domains.cops.model import load_graph_game, parse_instance
>>> claim = cop_number_native(load_graph_game("petersen"))
>>> claim.status, claim.answer, claim.witness["start"], len(claim.witness["escape"]) > 0
('solved', 3, ['1', '4', '5'], True)
>>> claim.certificate
{'dismantlable': False, 'dismantling_order': None}
>>> claim = solve_native(parse_instance("a b\\nb c\\nc d\\n", cops="a", robber="d"))
>>> claim.answer
{'winner': 'cops', 'moves': 3}
"""

from __future__ import annotations

import time

from pyasp_games.domains.cops.model import CopsGame
from pyasp_games.domains.cops.retrograde import Table
from pyasp_games.domains.cops.strategies import cop_number_claim, solve_claim
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.limits import LimitReached, Limits


def solve_native(game: CopsGame, limits: Limits = Limits()) -> Claim:
    """The ``native`` backend of ``cops solve``: who wins from the start and in how many
    moves of the cops, with the winner's strategy and, where the cops win, the robber's
    longest resistance (the lower bound that makes the number of moves exact)."""
    started = time.perf_counter()
    try:
        t = Table.build(game, game.k, limits.deadline())
    except LimitReached:
        return Claim.unknown({"limit": "time"})
    stats = {"positions": 2 * t.placements * t.n,
             "table_seconds": round(time.perf_counter() - started, 3),
             "automorphisms": t.reduction["automorphisms"],
             "decided": 2 * t.reduction["decided"]}  # fmt: skip
    return solve_claim(game, t, stats)


def cop_number_native(game: CopsGame, limits: Limits = Limits()) -> Claim:
    """The ``native`` backend of ``cops number``: the retrograde tables for 1, 2, ...
    cops (:func:`~pyasp_games.domains.cops.strategies.cop_number_claim`); one cop is
    decided by dismantlability too, and an answer where they disagree is an error."""
    return cop_number_claim(game, lambda k, deadline: Table.build(game, k, deadline),
                              "native", limits)  # fmt: skip
