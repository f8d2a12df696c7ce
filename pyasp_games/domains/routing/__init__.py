"""Routing permutations on graphs: matchings (rt(G, pi)), token swapping, the sliding puzzle on any graph.

``BACKENDS`` maps each backend's name to ``(instance, limits, **options) -> Claim``;
:func:`solve` runs one under its limits and verifies the schedule it claims. Exact
backends claim an exact answer, with the grounds of its optimality as the certificate;
the upper-bound algorithms of :mod:`pyasp_games.domains.routing.bounds` claim an upper
bound (crosscheck compares them as bounds) unless they prove their schedule optimal
(``swapper``, where it meets its lower bound).

>>> from pyasp_games.domains.routing.model import parse_arrangement
>>> from pyasp_games.domains.routing.specs import graph_spec
>>> inst = parse_arrangement("0 3\\n3 0\\n", graph_spec("path:4"))
>>> [(b, solve(inst, b).answer) for b in ("native", "asp", "sat")]
[('native', 3), ('asp', 3), ('sat', 3)]
"""

from __future__ import annotations

from typing import Any

from pyasp_games.domains.routing.model import Instance, load_instances, random_instance
from pyasp_games.domains.routing.questions import BACKENDS, QUESTIONS, SOLVE
from pyasp_games.domains.routing.verify import check_outcome
from pyasp_games.engines.domain import DomainSpec
from pyasp_games.engines.fuzzing import Family, Fuzzing
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome

__all__ = [
    "BACKENDS",
    "QUESTIONS",
    "Instance",
    "check_outcome",
    "domain",
    "load_instances",
    "solve",
]


def solve(inst: Instance, backend: str, limits: Limits = Limits(), **options: Any) -> Outcome:
    """Run ``backend`` on ``inst`` under ``limits``; time and verify the outcome
    (:data:`~pyasp_games.domains.routing.questions.SOLVE`)."""
    return SOLVE.solve(inst, backend, limits, **options)


def _known(inst: Instance) -> tuple[bool, Any]:
    if inst.known is None:
        return False, None
    return True, None if inst.known == "none" else inst.known


def _applies(inst: Instance, backend: str) -> bool:
    from pyasp_games.domains.routing import bounds

    if backend == "bfs":
        return len(inst.graph) <= 9
    if backend in bounds.ALGORITHMS or backend == "swapper":
        return bounds.applies(inst, backend)
    return True


def domain() -> DomainSpec:
    """The routing domain for crosscheck and bench."""
    return DomainSpec.asking(
        SOLVE, load_instances, _known, applies=_applies, generators={"random": random_instance},
        questions=QUESTIONS, fuzzing=fuzzing(),
    )  # fmt: skip


def fuzzing() -> Fuzzing:
    """What ``pyasp-games fuzz routing`` draws: arrangements on paths, cycles, stars and
    complete graphs, every one on at most 4 vertices first, under matching and under
    swap moves (the move rule's file is added to the dynamics under test)."""
    from functools import partial

    from pyasp_games.domains.routing.model import (
        arrangement_strategy,
        format_fuzzed,
        small_arrangements,
    )

    families = tuple(
        Family(
            moves,
            f"arrangements under {moves} moves on paths, cycles, stars and complete graphs",
            strategy=partial(arrangement_strategy, moves=moves),
            small=partial(small_arrangements, moves),
            small_help="every arrangement on a path, cycle, star and complete graph of 2 to 4 "
            "vertices",
            sizes=(3, 7),
        )
        for moves in ("matching", "swap")
    )
    return Fuzzing(
        ("solve",), families, size=lambda inst: len(inst.graph), unit="vertices",
        write=format_fuzzed,
        measure=lambda inst: f"{inst.headers['graph']}, {inst.moves} moves",
    )  # fmt: skip
