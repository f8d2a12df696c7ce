"""The questions the cover domain answers, declared once (``pyasp-games cover ...``).

``solve``: is there an exact cover of an X3C or 3DM instance (one, ``all``, or their
``count``), by Algorithm X over dancing links (``dlx``), a bitset search, ASP or SAT.
Every cover is verified; a user encoding's "no cover" and counts are cross-checked
against ``dlx`` (:data:`REFERENCE`).

>>> from pyasp_games.domains.cover.model import parse_instance
>>> inst = parse_instance("6\\n0 1 2\\n3 4 5\\n1 2 3\\n0 1 4\\n")
>>> out = SOLVE.ask(inst, "sat", mode="count")
>>> out.answer, out.verdict.verified
(1, None)
>>> describe_covers(inst, SOLVE.ask(inst), {})
('an exact cover exists', ['  cover: 0 1', '  exact cover: 2 subsets cover all 6 elements once'])
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any

from pyasp_games.domains.cover.asp import solve_asp
from pyasp_games.domains.cover.model import X3C, ThreeDM, as_x3c, load_instance
from pyasp_games.domains.cover.native import solve_bitset, solve_dlx
from pyasp_games.domains.cover.sat import solve_sat
from pyasp_games.domains.cover.verify import check_outcome
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.question import (
    EMIT_CNF,
    EMIT_LP,
    MODES,
    SOLVER,
    Param,
    Question,
    encoding_param,
)
from pyasp_games.engines.reference import Reference, unchecked_claim


def on_x3c(backend: Callable[..., Claim]) -> Callable[..., Claim]:
    """``backend`` (which solves X3C) for X3C and 3DM instances: a 3DM instance is solved
    as X3C over ``W + X + Y``, triple ``i`` = subset ``i`` (converted here, once for every
    backend; the checker still checks a 3DM witness as a matching)."""

    @wraps(backend)
    def run(instance: X3C | ThreeDM, limits: Limits, **options: Any) -> Claim:
        return backend(as_x3c(instance), limits, **options)

    return run


#: The backends: ``backend(instance, limits, mode=..., **options) -> Claim``.
BACKENDS: dict[str, Callable[..., Claim]] = {
    name: on_x3c(backend)
    for name, backend in {
        "dlx": solve_dlx, "asp": solve_asp, "sat": solve_sat, "bitset": solve_bitset,
    }.items()
}  # fmt: skip


def _reference(instance: X3C | ThreeDM, options: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    # Algorithm X over dancing links: exact, the default native backend, same mode
    return "dlx", {"mode": options.get("mode", "one")}


def _claims_all(outcome: Outcome) -> bool:
    # listed covers are each checked, but not that no cover is missing
    counted = isinstance(outcome.answer, int) and not isinstance(outcome.answer, bool)
    return unchecked_claim(outcome) or (outcome.status in ("solved", "no-solution") and counted)


#: A user encoding's "no cover", counts and lists of all covers are cross-checked
#: against ``dlx``.
REFERENCE = Reference("cover", _reference, _claims_all, example=lambda o: {**o, "mode": "one"})


def _subsets(instance: X3C | ThreeDM, cover: list[int]) -> str:
    """A cover as its subsets' indices (X3C) or its triples with their elements (3DM)."""
    if isinstance(instance, ThreeDM):
        return "; ".join(
            f"{k}=({instance.W[w]} {instance.X[x]} {instance.Y[y]})"
            for k in cover
            for w, x, y in [instance.triples[k]]
        )
    return " ".join(map(str, cover))


def describe_covers(
    instance: X3C | ThreeDM, outcome: Outcome, options: dict[str, Any]
) -> tuple[str, list[str]]:
    """The formatter: whether a cover exists (or how many), then each cover listed."""
    answer = outcome.answer
    if isinstance(answer, bool):
        said = "an exact cover exists" if answer else "no exact cover"
    elif answer is None:
        said = None
    else:
        said = f"{answer} exact cover{'' if answer == 1 else 's'}"
    covers = outcome.witness if isinstance(outcome.witness, list) else []
    if isinstance(answer, bool) and covers:  # one cover
        covers = [covers]
    lines = [f"  cover: {_subsets(instance, cover)}" for cover in covers]
    if outcome.status != "error" and outcome.verdict.verified is not None:
        lines.append(f"  {outcome.verdict.message}")
    return said, lines


SOLVE = Question(
    "solve",
    "Find an exact cover (or count/list them); every cover is verified before printing.\n\n"
    "With --json: answer true/false (or the count), witness the chosen subsets as "
    "0-based indices in input order (with --all: the list of covers).",
    backends=BACKENDS,
    check=check_outcome,
    read=lambda file: load_instance(file),
    describe=describe_covers,
    params=(
        Param(
            "file",
            help="An instance. X3C text: the universe size 3q on the first line, then one "
            "subset per line (three elements of 0..3q-1); 3DM text: lines 'W: a b', 'X: c d', "
            "'Y: e f', then one triple 'a c e' per line; or JSON {\"type\": \"x3c\", "
            "\"universe\": 6, \"subsets\": [[0, 1, 2], ...]} or {\"type\": \"3dm\", \"W\": "
            "[...], \"X\": [...], \"Y\": [...], \"triples\": [[w, x, y], ...]}. A "
            "'# known: cover|none' line states the answer.",
            type=Path,
            to="read",
        ),
        encoding_param("a bundled encoding (x3c, x3c-card) or an .lp file.", default="x3c"),
        SOLVER,
        Param(
            "card",
            "--card",
            "the at-most-one encoding (auto, pairwise, seqcounter, ...).",
            default="auto",
            backends=("sat",),
        ),
    ),
    modes=MODES,
    emits=(EMIT_LP, EMIT_CNF),
    reference=REFERENCE,
    unchecked="not checkable alone",
)

#: The cover domain's questions.
QUESTIONS = (SOLVE,)
