"""The exhaustive backend of Catch: every position reachable from the start (from the
mover's side: the mover's tokens, the opponent's), labelled by retrograde analysis as
in Annihilation (:mod:`~pyasp_games.domains.annihilation.positions`).

>>> from pyasp_games.domains.catch.model import parse_instance
>>> claim = solve_native(parse_instance("a b\\nb c\\n", "a", "b"))
>>> claim.status, claim.answer, claim.witness
('solved', 'first', ['a', 'b'])
"""

from __future__ import annotations

from pyasp_games.domains.annihilation.positions import solve_by_labelling
from pyasp_games.domains.catch.model import Catch
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.limits import Limits


def solve_native(inst: Catch, limits: Limits = Limits()) -> Claim:
    """Who wins from the start (``first``: the player to move, ``second``, or ``draw``),
    with a winning move (from ``first``) or a draw-keeping move (from ``draw``) as
    ``[from, to]``."""
    return solve_by_labelling(inst, limits)
