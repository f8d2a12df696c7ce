"""Routing permutations on graphs: matchings (rt(G, pi)), token swapping, the sliding puzzle on any graph.

``BACKENDS`` maps each backend's name to ``(instance, limits, **options) -> Outcome``;
:func:`solve` runs one under its limits and verifies the schedule it returns. Exact
backends set ``stats["optimal"] = True``; the upper-bound algorithms of
:mod:`pyasp_games.domains.routing.bounds` set it to ``False`` (crosscheck compares them as bounds)
unless they prove their schedule optimal (``swapper``, where it meets its lower bound).

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
        questions=QUESTIONS,
    )  # fmt: skip
