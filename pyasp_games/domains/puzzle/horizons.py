"""Planning horizons shared by the ASP and SAT planners: which plan lengths to try.

A planner tries ``start``, ``start + 2``, ... up to ``stop``: ``start`` is an
admissible lower bound with the parity of every plan, ``upper`` the length of a plan
found by the native greedy solver (no optimal plan is longer), ``stop`` is ``upper``
or a smaller ``--max-length``. :meth:`Horizons.exhausted` says what refuting every
horizon means. The loop over them is the one every planner shares,
:func:`~pyasp_games.engines.horizon_search.search_horizons`.

>>> from pyasp_games.domains.puzzle.model import parse_board
>>> h = horizons(parse_board("1 2 3\\n4 5 6\\n0 7 8"), "manhattan", Limits(max_length=1))
>>> claim = h.exhausted(parse_board("1 2 3\\n4 5 6\\n0 7 8"), {})
>>> (h.start, h.stop), claim.status, claim.kind, claim.bound, claim.certificate
((2, 1), 'no-solution', 'within bound', 1, 'no plan of length <= 1')
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from pyasp_games.domains.puzzle.model import Board, manhattan_lower_bound
from pyasp_games.domains.puzzle.native import none_within, solve_greedy
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.limits import Deadline, LimitReached, Limits
from pyasp_games.errors import InputError


@dataclass(frozen=True)
class Horizons:
    """The plan lengths a planner (ASP, SAT) tries: ``start``, ``start + 2``, ... ``stop``.

    ``start`` is an admissible lower bound with the parity of every plan (``lower``
    describes it); ``upper`` is the length of a plan found by :func:`solve_greedy`,
    so no optimal plan is longer and the planner never needs a longer horizon;
    ``stop`` is ``upper`` or a smaller ``--max-length``.
    """

    start: int
    stop: int
    upper: int
    lower: dict[str, Any] = field(default_factory=dict)

    def exhausted(self, board: Board, stats: dict[str, Any]) -> Claim:
        """The claim when the planner refuted every horizon up to ``stop``.

        Below a ``--max-length`` cap that is "no plan within the bound"; up to
        ``upper`` it contradicts a plan we hold, so the encoding is wrong (a user's
        encoding that does not follow the interface): an ``error``, never a
        claim that the board has no solution.
        """
        if self.stop < self.upper:
            return none_within(self.stop, stats)
        return Claim.error(
            f"the encoding refutes every plan length up to {self.upper}, but a plan of "
            f"{self.upper} moves exists: it is wrong or does not follow the interface "
            "(encodings/puzzle/README.md)",
            stats,
        )


def start_horizon(
    board: Board, lower_bound: str = "manhattan", deadline: Deadline | None = None
) -> tuple[int, dict]:
    """Where planners start: an admissible bound with the parity of every plan length.

    ``manhattan`` is the tiles' Manhattan sum; ``pdb`` (or ``pdb:PARTITION``) is the
    larger of that and the additive pattern-database sum, which has the same parity:
    every move moves one tile of one pattern by one cell. Returns the bound and a
    description for ``stats``.

    >>> from pyasp_games.domains.puzzle.model import parse_board
    >>> start_horizon(parse_board("4 1 2\\n0 5 3\\n7 8 6"), "pdb:4-4")
    (5, {'kind': 'pdb:4-4', 'value': 5, 'manhattan': 5})
    """
    md = manhattan_lower_bound(board)
    if lower_bound == "manhattan":
        return md, {"kind": "manhattan", "value": md}
    kind, _, name = lower_bound.partition(":")
    if kind != "pdb":
        raise InputError(
            f"unknown lower bound {lower_bound!r}: use manhattan, pdb or pdb:PARTITION"
        )
    from pyasp_games.domains.puzzle.bounds import additive_bound

    name = name or "default"
    value = additive_bound(board, name, deadline).value(board.tiles)
    return max(md, value), {"kind": f"pdb:{name}", "value": value, "manhattan": md}


def horizons(board: Board, lower_bound: str, limits: Limits) -> Horizons:
    """The :class:`Horizons` of a solvable board (``lower_bound`` as in
    :func:`start_horizon`), up to
    ``limits.max_length``; the lower bound and the greedy plan (the upper bound) are
    found within ``limits``, which the caller passes started to share its clock.

    >>> from pyasp_games.domains.puzzle.model import parse_board
    >>> h = horizons(parse_board("1 2 3\\n4 5 6\\n0 7 8"), "manhattan", Limits())
    >>> h.start, h.stop == h.upper, h.upper % 2
    (2, True, 0)
    """
    start, lower = start_horizon(board, lower_bound, limits.deadline())
    limits.deadline().check()  # no time left for the upper bound: LimitReached, unknown
    greedy = solve_greedy(board, replace(limits, max_length=None))  # any plan: an upper bound
    if greedy.status != "solved":
        raise LimitReached({"lower_bound": lower})
    upper = greedy.answer
    stop = upper if limits.max_length is None else min(limits.max_length, upper)
    return Horizons(start, stop, upper, lower)
