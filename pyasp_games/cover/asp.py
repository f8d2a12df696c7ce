"""Exact cover in ASP: instance -> facts, the encodings, answer sets -> covers.

Encodings live in ``encodings/cover/`` (see its README): ``x3c`` (default; one
choice rule per element) and ``x3c-card`` (a choice per subset, a count per
element and the redundant cover size); ``--encoding PATH`` takes any file with
the same interface: input ``element(E)``, ``member(S,E)``, ``size(Q)``; output
``chosen(S)``. Counting and listing enumerate every answer set under the
deadline.

>>> from pyasp_games.cover.model import X3C
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

from pyasp_games.cover.model import X3C, ThreeDM, as_x3c
from pyasp_games.engines.clingo_runner import ClingoSession, int_arguments
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.resources import encoding_path
from pyasp_games.errors import InputError

DOMAIN = "cover"
DEFAULT_ENCODING = "x3c"
MODES = ("first", "count", "all")


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


def encoding_file(encoding: str) -> Path:
    try:
        return encoding_path(DOMAIN, encoding)
    except FileNotFoundError as err:
        raise InputError(str(err)) from None


def write_lp(instance: X3C | ThreeDM, encoding: str, path: Path) -> None:
    """Write the facts of ``instance`` with a comment naming the encoding to run them with."""
    inst = as_x3c(instance)
    with open(path, "w") as f:
        enc = encoding_file(encoding)
        f.write(f"% pyasp-games cover instance {inst.name}\n% encoding: {enc}\n")
        f.write(f"% run: python -m clingo {enc} {path}    (add 0 for every cover)\n")
        f.write(facts(inst))


def solve_asp(
    instance: X3C | ThreeDM,
    limits: Limits = Limits(),
    mode: str = "first",
    encoding: str = DEFAULT_ENCODING,
) -> Outcome:
    """Solve with clingo: ``first`` cover, ``count`` covers, or ``all`` covers."""
    if mode not in MODES:
        raise InputError(f"unknown mode {mode!r} (choose from {', '.join(MODES)})")
    inst = as_x3c(instance)
    deadline = limits.deadline()
    session = ClingoSession([encoding_file(encoding)], facts(inst), deadline=deadline)
    session.ground([("base", [])])
    if mode == "first":
        result = session.solve()
        stats = session.statistics()
        if result.status == "unknown":
            return Outcome(inst.name, "asp", "unknown", None, None, 0.0, stats)
        if result.status == "unsat":
            return Outcome(inst.name, "asp", "no-solution", False, None, 0.0, stats)
        return Outcome(
            inst.name, "asp", "solved", True, cover_from_symbols(result.symbols), 0.0, stats
        )
    covers: list[list[int]] = []

    def on_model(symbols: list[Any]) -> None:
        if mode == "all":
            covers.append(cover_from_symbols(symbols))

    result = session.enumerate(on_model)
    count = result.models
    stats = session.statistics()
    stats["models_seen"] = count
    if result.status == "unknown":
        return Outcome(inst.name, "asp", "unknown", None, None, 0.0, stats)
    status = "solved" if count else "no-solution"
    return Outcome(
        inst.name, "asp", status, count, sorted(covers) if mode == "all" else None, 0.0, stats
    )
