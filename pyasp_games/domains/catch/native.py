"""The exhaustive backend of Catch: every position reachable from the start (from the
mover's side: the mover's tokens, the opponent's), labelled by retrograde analysis as
in Annihilation (:mod:`~pyasp_games.domains.annihilation.positions`).

>>> from pyasp_games.domains.catch.model import parse_instance
>>> out = solve_native(parse_instance("a b\\nb c\\n", "a", "b"))
>>> out.answer, out.witness
('first', ['a', 'b'])
"""

from __future__ import annotations

from collections.abc import Iterator

from pyasp_games.domains.annihilation.positions import TooManyPositions, explore, outcome_of
from pyasp_games.domains.catch.model import Catch
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome


def solve_native(inst: Catch, limits: Limits = Limits()) -> Outcome:
    """Who wins from the start (``first``: the colour to move), with a move that keeps it."""

    def moves(position: tuple[int, int]) -> Iterator[tuple[tuple[int, int], tuple[int, int]]]:
        for u, v, nxt in inst.moves(position):
            yield (u, v), nxt

    try:
        graph = explore(inst.start, moves, limits.deadline())
    except TooManyPositions as why:
        stats = {"limit": "positions", "reason": str(why)}
        return Outcome(inst.name, "native", "unknown", None, None, 0.0, stats)
    answer, move, _ = outcome_of(graph)
    witness = None if move is None else inst.move_name(move)
    stats = {"positions": len(graph.positions), "moves": sum(map(len, graph.moves))}
    return Outcome(inst.name, "native", "solved", answer, witness, 0.0, stats)
