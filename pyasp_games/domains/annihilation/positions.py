"""The game graph of a token game, explored from its start, and its win/lose/draw labels.

Annihilation and Catch state the same kind of game: a position (a bitmask of token
vertices; in Catch the red and black masks and the player to move) and a move
generator. :func:`explore` builds the positions reachable from the start
(breadth-first, every position once, under a limit on their number), and
:func:`outcome_of` labels them by the retrograde analysis of the ``grundy`` domain
(:func:`~pyasp_games.domains.grundy.retrograde.retrograde_labels`: a position without
moves is lost for the player to move, ``P``; one with a move to a ``P`` position is
won, ``N``; one whose every move leads to ``N`` is ``P``; what is never labelled is a
draw, ``D``) and names the answer at the start with a move that keeps it.

>>> moves = lambda p: [(("down", p), p - 1)] if p > 0 else []
>>> graph = explore(3, moves)
>>> graph.positions, outcome_of(graph)
([3, 2, 1, 0], ('first', ('down', 3), 'N'))
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any

from pyasp_games.domains.grundy.retrograde import retrograde_labels
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.limits import Deadline, Limits

#: Positions the exhaustive backends build at most (about a gigabyte of Python lists).
MAX_POSITIONS = 3_000_000

_POLL = 4096

#: Positions a second the exhaustive backends build and label at best on this machine
#: (measured 20,000-120,000 a CPU second, fewer the more there are: RESULTS.md, "The
#: hopeless cross-check"): a search whose bound needs more than this rate allows
#: cannot finish in time.
BEST_RATE = 150_000

#: The answer at the start by its class: ``N`` the player to move wins (``first``).
ANSWERS = {"N": "first", "P": "second", "D": "draw"}


class TooManyPositions(Exception):
    """More positions are reachable than the limit allows (the answer is unknown)."""


@dataclass
class PositionGraph:
    """The reachable positions (``positions[0]`` the start), the moves of each as
    ``(move, index of the next position)``, and the predecessor lists."""

    positions: list[Hashable]
    moves: list[list[tuple[Any, int]]]
    pred: list[list[int]] = field(default_factory=list)

    @property
    def succ(self) -> list[list[int]]:
        return [sorted({j for _, j in out}) for out in self.moves]


def explore(
    start: Hashable,
    moves: Callable[[Any], Iterable[tuple[Any, Hashable]]],
    deadline: Deadline | None = None,
    limit: int = MAX_POSITIONS,
) -> PositionGraph:
    """Every position reachable from ``start`` by ``moves(position) -> (move, next)``;
    :class:`TooManyPositions` past ``limit``."""
    deadline = deadline or Deadline(None)
    index = {start: 0}
    positions = [start]
    out: list[list[tuple[Any, int]]] = []
    i = 0
    while i < len(positions):
        if i % _POLL == 0:
            deadline.check()
        here = []
        for move, nxt in moves(positions[i]):
            j = index.get(nxt)
            if j is None:
                j = index[nxt] = len(positions)
                positions.append(nxt)
                if len(positions) > limit:
                    raise TooManyPositions(f"more than {limit:,} positions are reachable")
            here.append((move, j))
        out.append(here)
        i += 1
    return PositionGraph(positions, out)


def labels(graph: PositionGraph) -> list[str]:
    """``P``/``N``/``D`` for every position (retrograde analysis, O(positions + moves))."""
    succ = graph.succ
    pred: list[list[int]] = [[] for _ in succ]
    for u, out in enumerate(succ):
        for v in out:
            pred[v].append(u)
    graph.pred = pred
    return retrograde_labels(succ, pred)


def outcome_of(graph: PositionGraph) -> tuple[str, Any, str]:
    """The answer at the start (``first``, ``second``, ``draw``), a move that keeps it
    (to a ``P`` position from ``N``, to a ``D`` position from ``D``; ``None`` from
    ``P``), and the start's class."""
    cls = labels(graph)
    here = cls[0]
    want = {"N": "P", "D": "D"}.get(here)
    move = next((m for m, j in graph.moves[0] if cls[j] == want), None) if want else None
    return ANSWERS[here], move, here


def solve_by_labelling(inst: Any, limits: Limits = Limits()) -> Claim:
    """The exhaustive backend of a token game (Annihilation, Catch): every position
    reachable from ``inst.start`` through ``inst.moves(position)`` (``(from, to, next)``
    triples), labelled (:func:`outcome_of`): the answer at the start with a move that
    keeps it as ``inst.move_name`` writes it; ``unknown`` past :data:`MAX_POSITIONS`."""

    def moves(position: Any) -> Iterable[tuple[tuple[int, int], Any]]:
        for u, v, nxt in inst.moves(position):
            yield (u, v), nxt

    try:
        graph = explore(inst.start, moves, limits.deadline())
    except TooManyPositions as why:
        stats = {"limit": "positions", "reason": str(why)}
        return Claim.unknown(stats)
    answer, move, _ = outcome_of(graph)
    witness = None if move is None else inst.move_name(move)
    stats = {"positions": len(graph.positions), "moves": sum(map(len, graph.moves))}
    return Claim.solved(answer, witness, stats=stats)


def out_of_reach(inst: Any, seconds: float | None) -> str | None:
    """Why the exhaustive search from ``inst`` cannot finish within ``seconds``, or
    ``None``: the bound on its positions (``inst.reachable_bound()``) against
    :data:`MAX_POSITIONS` and, under a time limit, against :data:`BEST_RATE` per second.
    The bound may be far above the positions actually reachable, so it only rules out
    what even the best rate and every position counted once could not do.

    >>> from pyasp_games.domains.annihilation.model import random_instance
    >>> inst = random_instance(30, seed=1, tokens=6)
    >>> out_of_reach(inst, 30.0) is None
    True
    >>> print(out_of_reach(inst, 1.0))
    up to 397,594 reachable positions: more than it can visit in 1 s (at best about 150,000 a second)
    >>> print(out_of_reach(random_instance(200, tokens=8, degree=2.5), None))
    up to 20,389,611,228,647 reachable positions: more than its limit of 3,000,000
    """
    bound = inst.reachable_bound()
    if bound > MAX_POSITIONS:
        return f"up to {bound:,} reachable positions: more than its limit of {MAX_POSITIONS:,}"
    if seconds is not None and bound > BEST_RATE * seconds:
        return (
            f"up to {bound:,} reachable positions: more than it can visit in {seconds:.3g} s "
            f"(at best about {BEST_RATE:,} a second)"
        )
    return None
