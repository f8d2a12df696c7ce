"""Exact cover in ASP: instance -> facts, the encodings, answer sets -> covers.

Encodings live in ``encodings/cover/`` (see its README): ``x3c`` (default; one
choice rule per element) and ``x3c-card`` (a choice per subset, a count per
element and the redundant cover size); ``--encoding PATH`` takes any file with
the same interface: input ``element(E)``, ``member(S,E)``, ``size(Q)``; output
``chosen(S)``. Counting and listing enumerate answer sets under the deadline,
projected on ``chosen/1``: each cover is decoded, checked exact and counted once,
however many answer sets an encoding gives it (its auxiliary atoms never
multiply the count).

>>> from pyasp_games.domains.cover.model import X3C
>>> inst = X3C(6, ((0, 1, 2), (3, 4, 5), (1, 2, 3), (0, 1, 4)))
>>> out = solve_asp(inst)
>>> out.status, out.answer, out.witness
('solved', True, [0, 1])
>>> solve_asp(inst, mode="count", encoding="x3c-card").answer
1
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pyasp_games.domains.cover.model import X3C
from pyasp_games.domains.cover.verify import check_cover
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.clingo_runner import ClingoSession, int_arguments, write_facts
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.question import checked_mode
from pyasp_games.engines.resources import encoding_path

DOMAIN = "cover"
DEFAULT_ENCODING = "x3c"


def facts(inst: X3C) -> str:
    """``element/1``, ``member/2`` (subset index, element) and ``size/1``."""
    out = [f"element(0..{inst.size - 1})." if inst.size else "", f"size({inst.q})."]
    out += [f"member({k},{e})." for k, s in enumerate(inst.subsets) for e in s]
    return "\n".join(out) + "\n"


def cover_from_symbols(symbols: list[Any]) -> list[int]:
    """The sorted subset indices of the ``chosen/1`` atoms."""
    return sorted(
        int_arguments(s, "chosen", 1, "a subset index")[0] for s in symbols if s.name == "chosen"
    )


def write_lp(inst: X3C, encoding: str, path: Path | str) -> None:
    """Write the facts of ``inst`` and how to run ``encoding`` on them by hand."""
    notes = ["for every cover: add 0 to the call"]
    write_facts(path, facts(inst), [encoding_path(DOMAIN, encoding)], f"cover instance {inst.name}",
                notes=notes)  # fmt: skip


def solve_asp(
    inst: X3C,
    limits: Limits = Limits(),
    mode: str = "one",
    encoding: str = DEFAULT_ENCODING,
    emit_lp: Path | str | None = None,
) -> Claim:
    """Solve with clingo: ``one`` cover, ``count`` covers, or ``all`` covers;
    ``emit_lp`` writes the facts run (:func:`write_lp`) first."""
    checked_mode(mode)
    if emit_lp is not None:
        write_lp(inst, encoding, emit_lp)
    deadline = limits.deadline()
    project = [] if mode == "one" else ["chosen/1"]
    session = ClingoSession(
        [encoding_path(DOMAIN, encoding)], facts(inst), deadline=deadline, project=project
    )
    session.ground([("base", [])])
    if mode == "one":
        result = session.solve()
        stats = session.statistics()
        if result.status == "unknown":
            return Claim.unknown(stats)
        if result.status == "unsat":
            return Claim.none(False, stats=stats)
        return Claim.solved(True, cover_from_symbols(result.symbols), stats=stats)
    found = session.enumerate_distinct(
        cover_from_symbols,
        check=lambda cover: check_cover(inst.size, inst.subsets, cover),
        keep=mode == "all",
    )
    stats = session.statistics()
    stats["models_seen"] = found.models
    if found.status == "unknown":
        stats["found_before_limit"] = found.count
        return Claim.unknown(stats)
    if found.invalid is not None:
        cover, why = found.invalid
        # a failed verification (the runner fails the claim), like a bad first answer
        stats["invalid_witness"] = cover
        return Claim.refuted(f"an answer set gives {cover}, not an exact cover: {why}", stats)
    status = "solved" if found.count else "no-solution"
    witness = sorted(found.solutions) if mode == "all" else None
    return Claim(status, found.count, witness, stats=stats)
