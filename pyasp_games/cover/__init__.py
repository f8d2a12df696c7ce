"""Exact cover (X3C, 3DM) and the reductions SAT -> 3SAT -> 3DM -> X3C.

``BACKENDS`` maps each backend's name to a function ``(instance, limits,
**options) -> Outcome`` (options: ``mode`` = ``first``/``count``/``all``, and
``encoding`` for asp, ``solver``/``card`` for sat); :func:`solve` runs one under
its limits, times it and verifies every cover it reports (3DM instances are
solved as X3C over ``W + X + Y``, triple ``i`` = subset ``i``, and their
matchings are checked as matchings too).

>>> inst = parse_instance("6\\n0 1 2\\n3 4 5\\n1 2 3\\n0 1 4\\n")
>>> out = solve(inst, "dlx")
>>> out.status, out.answer, out.witness, out.stats["verified"]
('solved', True, [0, 1], True)
>>> [solve(inst, b, mode="count").answer for b in BACKENDS]
[1, 1, 1, 1]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pyasp_games.cover.asp import solve_asp
from pyasp_games.cover.model import CNF, X3C, ThreeDM, load_instance, load_instances, parse_instance
from pyasp_games.cover.native import solve_bitset, solve_dlx
from pyasp_games.cover.sat import solve_sat
from pyasp_games.cover.verify import check_outcome
from pyasp_games.engines.domain import DomainSpec, bundled_files
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.reference import Reference, unchecked_claim
from pyasp_games.engines.runner import run_backend

BACKENDS: dict[str, Callable[..., Outcome]] = {
    "dlx": solve_dlx,
    "asp": solve_asp,
    "sat": solve_sat,
    "bitset": solve_bitset,
}

__all__ = [
    "BACKENDS",
    "CNF",
    "X3C",
    "ThreeDM",
    "check_outcome",
    "domain",
    "load_instance",
    "parse_instance",
    "solve",
]


def describe(outcome: Outcome, options: dict[str, Any] | None = None) -> str:
    """The answer in words: an exact cover (with its subsets), none, or a count."""
    answer = outcome.answer
    if isinstance(answer, bool):
        if not answer:
            return "no exact cover"
        return f"an exact cover ({' '.join(map(str, outcome.witness or []))})"
    if answer is None:
        return "no answer"
    return f"{answer} exact cover{'' if answer == 1 else 's'}"


def _reference(instance: X3C | ThreeDM, options: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    # Algorithm X over dancing links: exact, the default native backend, same mode
    return "dlx", {"mode": options.get("mode", "first")}


def _claims_all(outcome: Outcome) -> bool:
    # listed covers are each checked, but not that no cover is missing
    counted = isinstance(outcome.answer, int) and not isinstance(outcome.answer, bool)
    return unchecked_claim(outcome) or (outcome.status in ("solved", "no-solution") and counted)


#: A user encoding's "no cover", counts and lists of all covers are cross-checked
#: against ``dlx``.
REFERENCE = Reference(
    "cover", _reference, describe, _claims_all, example=lambda o: {**o, "mode": "first"}
)


def solve(
    instance: X3C | ThreeDM, backend: str, limits: Limits = Limits(), **options: Any
) -> Outcome:
    """Run ``backend`` on ``instance`` under ``limits``; time and verify the outcome.

    A user encoding's claims that no checker confirms alone ("no cover", a count)
    are cross-checked against ``dlx`` (:data:`REFERENCE`) unless
    ``trust_encoding=True``.
    """
    return run_backend(
        BACKENDS, backend, instance, instance.name, limits, check_outcome, REFERENCE, **options
    )


def _known(instance: X3C | ThreeDM) -> tuple[bool, Any]:
    return (instance.known is not None), instance.known


def domain() -> DomainSpec:
    """The cover domain for crosscheck and bench (answers: is there an exact cover)."""
    from pyasp_games.cover.model import random_x3c

    return DomainSpec(
        name="cover",
        backend_names=list(BACKENDS),
        solve=solve,
        load_file=load_instances,
        bundled_files=lambda: bundled_files("cover"),
        known=_known,
        encoding_backend="asp",
        default_encodings=["x3c"],
        generators={"x3c-regular": random_x3c},
    )
