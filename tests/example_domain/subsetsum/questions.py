"""The question the domain answers, declared once: ``pyasp-games subsetsum solve``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.question import EMIT_LP, Param, Question, encoding_param
from pyasp_games.engines.reference import Reference, unchecked_claim
from subsetsum.asp import solve_asp
from subsetsum.model import SubsetSum, load_instance
from subsetsum.native import solve_dp
from subsetsum.verify import check_outcome

#: The backends, ``backend(instance, limits, **options) -> Claim``; the first is the default.
BACKENDS = {"dp": solve_dp, "asp": solve_asp}

#: A user encoding's "none" and counts are cross-checked against ``dp`` (same mode).
REFERENCE = Reference("subsetsum", lambda inst, opts: ("dp", {"mode": opts.get("mode", "one")}),
                      unchecked_claim)  # fmt: skip


def describe(inst: SubsetSum, outcome: Outcome, options: dict[str, Any]) -> tuple[str | None, list[str]]:
    """The answer in words, then the chosen numbers."""
    answer = outcome.answer
    if isinstance(answer, bool):
        said = "a choice adds up to the target" if answer else "no choice adds up to the target"
    else:
        said = None if answer is None else f"{answer} choices add up to the target"
    lines = []
    if isinstance(outcome.witness, list):
        lines.append("  chosen: " + " + ".join(str(inst.numbers[i]) for i in outcome.witness))
    return said, lines


SOLVE = Question(
    "solve",
    "Is there a choice of the numbers that adds up to the target (or how many)?",
    backends=BACKENDS,
    check=check_outcome,
    read=lambda file: load_instance(file),
    describe=describe,
    params=(
        Param("file", help="The target on the first line, the numbers on the second.",
              type=Path, to="read"),
        encoding_param("a bundled encoding (subsetsum) or an .lp file.", default="subsetsum"),
    ),
    modes=("one", "count"),
    emits=(EMIT_LP,),
    reference=REFERENCE,
    unchecked="not checkable alone",
)

QUESTIONS = (SOLVE,)
