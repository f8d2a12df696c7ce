"""The exhaustive backend: every position reachable from the start, labelled by
retrograde analysis (win, loss or draw), with a move that keeps the answer.

A move keeps the number of tokens or removes two, and no token leaves the ``r`` vertices
reachable from the start's tokens, so from ``k`` tokens at most ``C(r,k) + C(r,k-2) +
...`` positions are reachable
(:meth:`~pyasp_games.domains.annihilation.model.Annihilation.reachable_bound`); they
are built breadth-first (:mod:`~pyasp_games.domains.annihilation.positions`) and
labelled by the ``grundy`` domain's retrograde labelling. Past
:data:`~pyasp_games.domains.annihilation.positions.MAX_POSITIONS` positions the answer
is ``unknown`` (``stats['limit'] = 'positions'``), never a guess.

>>> from pyasp_games.domains.annihilation.model import parse_instance
>>> claim = solve_native(parse_instance("a b\\nb c\\n", "a"))
>>> claim.status, claim.answer, claim.witness, claim.stats["positions"]
('solved', 'second', None, 3)
>>> [solve_native(parse_instance("a b\\nb a\\n", t)).answer for t in ("a", "a b")]
['draw', 'first']
"""

from __future__ import annotations

from pyasp_games.domains.annihilation.model import Annihilation
from pyasp_games.domains.annihilation.positions import solve_by_labelling
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.limits import Limits


def solve_native(inst: Annihilation, limits: Limits = Limits()) -> Claim:
    """Who wins from the start (``first``: the player to move, ``second``, or ``draw``),
    with a winning move (from ``first``) or a draw-keeping move (from ``draw``) as
    ``[from, to]``."""
    return solve_by_labelling(inst, limits)
