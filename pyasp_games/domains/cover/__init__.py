"""Exact cover (X3C, 3DM) and the reductions SAT -> 3SAT -> 3DM -> X3C.

``BACKENDS`` maps each backend's name to a function ``(instance, limits,
**options) -> Claim`` (options: ``mode`` = ``one``/``count``/``all``, and
``encoding`` for asp, ``solver``/``card`` for sat); :func:`solve` runs one under
its limits, times it and verifies every cover it reports (3DM instances are
solved as X3C over ``W + X + Y``, triple ``i`` = subset ``i``, and their
matchings are checked as matchings too).

>>> inst = parse_instance("6\\n0 1 2\\n3 4 5\\n1 2 3\\n0 1 4\\n")
>>> out = solve(inst, "dlx")
>>> out.status, out.answer, out.witness, out.verdict.verified
('solved', True, [0, 1], True)
>>> [solve(inst, b, mode="count").answer for b in BACKENDS]
[1, 1, 1, 1]
"""

from __future__ import annotations

from typing import Any

from pyasp_games.domains.cover.cnf import CNF
from pyasp_games.domains.cover.model import (
    X3C,
    ThreeDM,
    load_instance,
    load_instances,
    parse_instance,
)
from pyasp_games.domains.cover.questions import BACKENDS, QUESTIONS, REFERENCE, SOLVE
from pyasp_games.domains.cover.verify import check_outcome
from pyasp_games.engines.domain import DomainSpec
from pyasp_games.engines.fuzzing import Family, Fuzzing, plural
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome

__all__ = [
    "BACKENDS",
    "CNF",
    "QUESTIONS",
    "REFERENCE",
    "X3C",
    "ThreeDM",
    "check_outcome",
    "domain",
    "load_instance",
    "parse_instance",
    "solve",
]


def solve(
    instance: X3C | ThreeDM, backend: str, limits: Limits = Limits(), **options: Any
) -> Outcome:
    """Run ``backend`` on ``instance`` under ``limits``; time and verify the outcome
    (:data:`~pyasp_games.domains.cover.questions.SOLVE`).

    A user encoding's claims that no checker confirms alone ("no cover", a count)
    are cross-checked against ``dlx`` (:data:`REFERENCE`) unless
    ``trust_encoding=True``.
    """
    return SOLVE.solve(instance, backend, limits, **options)


def _known(instance: X3C | ThreeDM) -> tuple[bool, Any]:
    return (instance.known is not None), instance.known


def domain() -> DomainSpec:
    """The cover domain for crosscheck and bench (answers: is there an exact cover)."""
    from pyasp_games.domains.cover.model import random_x3c

    return DomainSpec.asking(
        SOLVE, load_instances, _known, generators={"x3c-regular": random_x3c}, questions=QUESTIONS,
        fuzzing=fuzzing(),
    )  # fmt: skip


def fuzzing() -> Fuzzing:
    """What ``pyasp-games fuzz cover`` draws: X3C instances, every small one first."""
    from pyasp_games.domains.cover.model import (
        format_x3c,
        small_x3c,
        x3c_parts,
        x3c_relabellings,
        x3c_strategy,
    )

    x3c = Family(
        "x3c",
        "X3C instances over 3 to 24 elements (q grows with the size), some with a planted cover",
        strategy=x3c_strategy,
        small=small_x3c,
        small_help="every X3C instance with q = 1 and at most 2 subsets, and with q = 2 and "
        "at most 3 subsets, up to renaming (and relabelled); for q = 3 and 4, disjoint "
        "triples, one missing, one extra subset, a planted cover among decoys",
        sizes=(2, 10),
        unit="subsets",
        relabel=x3c_relabellings,
        parts=x3c_parts,
    )
    return Fuzzing(
        ("solve",), (x3c,), size=lambda inst: len(inst.subsets), unit="subsets", write=format_x3c,
        witness=lambda inst, out: [(f"chosen({s})", s in set(out.witness))
                                   for s in range(len(inst.subsets))],
        measure=lambda inst: f"{plural(len(inst.subsets), 'subset')} over {inst.size} elements",
    )  # fmt: skip
