"""Independent checks of Catch answers (imports nothing from native/asp).

The checker's own move generator, written from the rules (the mover slides one of his
tokens along an arc to a vertex without another token of his colour, capturing an
opponent's token there), over positions from the mover's side; the answer is decided
as in Annihilation (:func:`~pyasp_games.domains.annihilation.verify.check_positions`:
the greatest set of positions from which the player to move can avoid losing, and the
draw-keeping strategy closed under play).

>>> from pyasp_games.domains.catch.model import parse_instance
>>> inst = parse_instance("a b\\nb c\\n", "a", "b")
>>> check_answer(inst, "first", ["a", "b"])[0], check_answer(inst, "second", None)[0]
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from pyasp_games.domains.annihilation.verify import check_claim
from pyasp_games.domains.catch.model import Catch
from pyasp_games.engines.outcome import Outcome

Position = tuple[int, int]


def _after(position: Position, u: int, v: int) -> Position:
    mine, theirs = position
    if u == v:
        return theirs, mine
    mine = mine & ~(1 << u) | (1 << v)
    return theirs & ~(1 << v), mine


def _successors(inst: Catch) -> Callable[[Position], Iterable[Position]]:
    succ = inst.graph.succ

    def moves(position: Position) -> Iterable[Position]:
        mine = position[0]
        for u in range(len(succ)):
            if mine >> u & 1:
                for v in succ[u]:
                    if v == u or not mine >> v & 1:
                        yield _after(position, u, v)

    return moves


def check_answer(inst: Catch, answer: Any, witness: Any) -> tuple[bool, str]:
    """Check a claimed answer and its move (``[from, to]``; ``None`` for ``second``)."""
    mine = inst.start[0]

    def after(u: int, v: int, shown: str) -> tuple[int, int] | str:
        if not mine >> u & 1:
            return f"{shown} moves no {inst.first} token"
        if u != v and mine >> v & 1:
            return f"{shown} lands on a {inst.first} token"
        return _after(inst.start, u, v)

    return check_claim(inst, answer, witness, _successors(inst), after)


def check_outcome(inst: Catch, outcome: Outcome) -> tuple[bool | None, str]:
    """Verify a solved outcome from the rules (within the checker's budget)."""
    if outcome.status != "solved":
        return None, "nothing to verify"
    return check_answer(inst, outcome.answer, outcome.witness)
