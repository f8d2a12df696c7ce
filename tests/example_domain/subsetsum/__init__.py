"""Subset sum: is there a choice of the numbers that adds up to the target?

The worked example of a new domain (CONTRIBUTING.md, "A new domain"): one package with
model, native, asp, verify and questions, its encoding in ``encodings/subsetsum/``, its
instances in ``instances/subsetsum/``, and one line in the registry of domains;
``tests/test_new_domain.py`` runs it through the command line, crosscheck and fuzz.

>>> from subsetsum.model import parse_instance
>>> out = solve(parse_instance("7\\n3 4 5"), "asp")
>>> out.answer, out.witness, out.verdict.verified
(True, [0, 1], True)
"""

from __future__ import annotations

from typing import Any

from pyasp_games.engines.domain import DomainSpec
from pyasp_games.engines.fuzzing import Family, Fuzzing, plural
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome
from subsetsum.model import SubsetSum, load_instances
from subsetsum.questions import BACKENDS, QUESTIONS, SOLVE

__all__ = ["BACKENDS", "QUESTIONS", "SubsetSum", "domain", "solve"]


def solve(instance: SubsetSum, backend: str, limits: Limits = Limits(), **options: Any) -> Outcome:
    """Run ``backend`` on ``instance`` under ``limits``, verified (:data:`SOLVE`)."""
    return SOLVE.solve(instance, backend, limits, **options)


def _known(instance: SubsetSum) -> tuple[bool, Any]:
    return instance.known is not None, instance.known


def domain() -> DomainSpec:
    """The domain for crosscheck, bench and fuzz."""
    from subsetsum.model import random_instance

    return DomainSpec.asking(
        SOLVE, load_instances, _known, generators={"random": random_instance},
        questions=QUESTIONS, fuzzing=fuzzing(),
    )  # fmt: skip


def fuzzing() -> Fuzzing:
    """What ``pyasp-games fuzz subsetsum`` draws: every tiny instance, then random ones."""
    from subsetsum.model import format_instance, small_instances, strategy

    numbers = Family(
        "numbers",
        "up to N numbers of 0..9 and a target of 0..20",
        strategy=strategy,
        small=small_instances,
        small_help="every instance of at most 2 numbers of 1..2 and a target of 0..3",
        sizes=(2, 8),
        unit="numbers",
    )
    return Fuzzing(
        ("solve",), (numbers,), size=lambda inst: len(inst.numbers), unit="numbers",
        write=format_instance,
        measure=lambda inst: f"{plural(len(inst.numbers), 'number')}, target {inst.target}",
    )  # fmt: skip
