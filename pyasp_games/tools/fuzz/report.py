"""What a fuzz session found: the :class:`FuzzReport` (what it covered) and its
:class:`Failure` (the smallest instance on which the encoding is wrong), in words, with
the command that reproduces it.

>>> shown("x" * 50)
'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'
"""

from __future__ import annotations

import shlex
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.question import Question


@dataclass
class Failure:
    """The smallest instance found on which the encoding is wrong."""

    instance: Any
    mode: str | None
    tested: Outcome
    reference: Outcome
    reason: str
    phase: str  # "small scope" or "random"
    size: int  # in the domain's unit (what shrinking reduces)
    shape: str  # the instance's size in words
    found_shape: str  # its shape when first found (before shrinking)
    file: Path | None = None
    command: str = ""
    #: the rules of the user's file to blame, as ``file:line: text`` lines
    #: (:mod:`pyasp_games.tools.fuzz.blame`), or why none can be named
    blame: list[str] = field(default_factory=list)
    #: the regression case written for it (``fuzz --export``), its instance file
    case: Path | None = None
    #: the assertion that fails, as ``FILE:LINE`` (``None``: a difference from the
    #: reference; :mod:`pyasp_games.tools.fuzz.assertions`)
    assertion: str | None = None


@dataclass
class Undecided:
    """An instance on which a limit left the comparison undecided, and who reached it."""

    shape: str
    mode: str | None
    why: str  # "asp reached the time limit", "native reached the time limit", ...
    text: str  # the instance as the domain's file

    def to_dict(self) -> dict[str, Any]:
        return {"shape": self.shape, "mode": self.mode, "why": self.why, "instance": self.text}


@dataclass
class FuzzReport:
    """What a fuzz session covered, and its failure if it found one."""

    domain: str
    question: str
    backend: str
    encoding: str | None
    reference: str
    family: str
    seed: int
    runs: int = 0  # instances answered (each in every compared mode)
    planned: int = 0
    small_scope: tuple[int, int, str] = (0, 0, "")  # tried, of, which
    unit: str = ""
    sizes: Counter = field(default_factory=Counter)  # instance sizes seen (in unit)
    answers: dict[str, Counter] = field(default_factory=dict)  # mode -> reference answers
    unknown: int = 0  # runs where a limit was reached
    out_of_reach: int = 0  # instances the tested backend does not take (skipped, not runs)
    #: the largest size the random phase grew to past its planned sizes (time allowed)
    grown_to: int | None = None
    shrink_steps: int = 0
    failure: Failure | None = None
    #: the smallest instance on which the tested backend alone ran out of time or
    #: memory (its phase: grounding or solving): a finding, though not a wrong answer
    timeout: Failure | None = None
    stopped: str | None = None  # why the session ended before its runs
    first_found: float | None = None  # seconds to the first failure (before shrinking)
    seconds: float = 0.0
    #: what the encoding does not handle of the domain's documented interface, in words
    #: (:func:`pyasp_games.engines.interface.check`)
    interface: list[str] = field(default_factory=list)
    #: the encoding's assertions (``%! assert:`` lines), checked on every instance
    assertions: int = 0
    assertions_note: str = ""  # why they are not checked, if they are not
    #: which rules the instances fired (``fuzz --coverage``:
    #: :class:`~pyasp_games.tools.fuzz.coverage.Coverage`), or ``None``
    coverage: Any = None
    #: the first instances left undecided by a limit (``unknown`` counts them all)
    undecided: list[Undecided] = field(default_factory=list)

    def exit_code(self) -> int:
        """1 on a failure; 3 when the total time limit ended the session or some run
        reached its time limit (not every instance was decided); else 0."""
        if self.failure is not None:
            return 1
        return 3 if self.stopped or self.unknown else 0

    def one_sided(self) -> list[str]:
        """The modes in which only one answer ever occurred (the other case untested)."""
        return [mode for mode, seen in self.answers.items() if len(seen) < 2]

    def to_dict(self) -> dict[str, Any]:
        return {**self._dict(), "timeout": _failure_dict(self.timeout)}

    def _dict(self) -> dict[str, Any]:
        failure = _failure_dict(self.failure)
        return {
            "domain": self.domain,
            "question": self.question,
            "backend": self.backend,
            "encoding": self.encoding,
            "reference": self.reference,
            "family": self.family,
            "seed": self.seed,
            "runs": self.runs,
            "planned": self.planned,
            "small_scope": dict(zip(("tried", "of", "which"), self.small_scope, strict=True)),
            "unit": self.unit,
            "sizes": {str(k): v for k, v in sorted(self.sizes.items())},
            "answers": {m: {str(k): v for k, v in c.items()} for m, c in self.answers.items()},
            "one_sided": self.one_sided(),
            "unknown": self.unknown,
            "out_of_reach": self.out_of_reach,
            "grown_to": self.grown_to,
            "shrink_steps": self.shrink_steps,
            "failure": failure,
            "stopped": self.stopped,
            "seconds": round(self.seconds, 3),
            "first_found": None if self.first_found is None else round(self.first_found, 3),
            "interface": self.interface,
            "undecided": [u.to_dict() for u in self.undecided],
            "assertions": self.assertions,
            "assertions_note": self.assertions_note or None,
            "coverage": None if self.coverage is None else self.coverage.to_dict(),
            "ok": self.failure is None,
        }


def _failure_dict(f: Failure | None) -> dict[str, Any] | None:
    if f is None:
        return None
    return {
        "file": None if f.file is None else str(f.file),
        "size": f.size,
        "shape": f.shape,
        "mode": f.mode,
        "reason": f.reason,
        "phase": f.phase,
        "found_shape": f.found_shape,
        "tested": f.tested.to_dict(),
        "reference": f.reference.to_dict(),
        "command": f.command,
        "blame": f.blame,
        "case": None if f.case is None else str(f.case),
        "assertion": f.assertion,
    }


def shown(answer: Any) -> str:
    text = str(answer)
    return text if len(text) <= 40 else text[:37] + "..."


def said(outcome: Outcome) -> str:
    if outcome.status == "error" and not outcome.verdict.failed:  # no answer at all
        return "no answer (an error, said above)"
    if outcome.status == "error":
        claimed = outcome.verdict.failed_status
        return "an answer that fails verification" + (f" (claimed {claimed})" if claimed else "")
    return f"{shown(outcome.answer)} ({outcome.status})"


def reproduce(
    domain: str, question: Question, failure: Failure, backend: str, encoding: str | None,
    arguments: Callable[[Any, str], list[str]] | None = None,
) -> str:
    """The command that answers the failing instance with the tested encoding (and, for a
    user encoding, cross-checks it against the reference); ``arguments(instance, file)``:
    the words that give the instance (default: the file alone,
    :meth:`~pyasp_games.engines.fuzzing.Fuzzing.command_words`)."""
    given = [str(failure.file)] if arguments is None else arguments(failure.instance, str(failure.file))
    words = ["pyasp-games", domain, question.name, *given, "--backend", backend]
    if encoding is not None:
        words += ["--encoding", encoding]
    if failure.mode == "count":
        words.append("--count")
    elif failure.mode == "all":
        words.append("--all")
    return " ".join(shlex.quote(w) for w in words)


def instance_text_lines(text: str, most: int = 12) -> list[str]:
    """The lines of an instance's text, at most ``most`` (the rest said as a count)."""
    lines = text.splitlines()
    return lines if len(lines) <= most else [*lines[:most], f"... ({len(lines) - most} more lines)"]


def report_lines(report: FuzzReport, instance_text: Callable[[Any], str]) -> Iterable[str]:
    """The report in words, for the terminal."""
    tested = report.backend + (f"[{report.encoding}]" if report.encoding else "")
    head = f"fuzz {report.domain} {report.question}: {tested} against {report.reference}"
    yield f"{head}, family {report.family}, seed {report.seed}"
    if report.failure is None:  # beside the failure's reason, where there is one
        yield from (f"  interface: {note}" for note in report.interface)
    if report.assertions:
        yield (f"  assertions: {report.assertions} (%! assert: lines), "
               + (report.assertions_note or "checked on every instance where both agree"))  # fmt: skip
    tried, total, which = report.small_scope
    yield f"  small scope: {tried} of {total} instances ({which})" if total else "  small scope: skipped"
    yield f"  runs: {report.runs} of {report.planned} in {report.seconds:.1f} s" + (
        f"; {report.unknown} undecided (a limit reached)" if report.unknown else ""
    )
    for mode, seen in report.answers.items():
        answers = ", ".join(f"{k} x{v}" for k, v in sorted(seen.items(), key=lambda kv: -kv[1]))
        yield f"  answers seen{'' if mode == 'answer' else f' ({mode})'}: {answers}"
    for mode in report.one_sided() if report.failure is None else ():
        yield f"  note: only one answer occurred ({mode}): the other case was not tested"
    sizes = ", ".join(f"{k} x{v}" for k, v in sorted(report.sizes.items()))
    yield f"  sizes ({report.unit}): {sizes}"
    if report.grown_to is not None:
        yield (f"  grown: the random phase went on to size {report.grown_to} in the time left "
               "(--max-size bounds it)")  # fmt: skip
    if report.out_of_reach:
        yield (f"  skipped: {report.out_of_reach} instances beyond what {report.backend} "
               "takes (its size limit)")  # fmt: skip
    for u in report.undecided:
        mode = f" (mode {u.mode})" if u.mode else ""
        yield f"  undecided{mode}: {u.shape}: {u.why}"
        yield from (f"    | {line}" for line in instance_text_lines(u.text))
    if report.unknown > len(report.undecided):
        yield f"  ... and {report.unknown - len(report.undecided)} more undecided"
    if report.stopped and report.failure is None:
        yield f"  stopped by {report.stopped}"
    if report.coverage is not None:
        yield from (f"  {line}" for line in report.coverage.lines())
    f = report.failure
    if f is None and report.timeout is not None:
        t = report.timeout
        yield (f"TIMEOUT{f' (mode {t.mode})' if t.mode else ''}: {tested} did not finish "
               f"{t.phase} on {t.shape}, the smallest such instance")  # fmt: skip
        yield f"  why: {t.reason}"
        for line in instance_text(t.instance).splitlines():
            yield f"    | {line}"
        if t.file is not None:
            yield f"  written to {t.file}"
            yield f"  reproduce: {t.command}"
    if f is None:
        if report.unknown:
            yield (f"no disagreement where both answered; {report.unknown} undecided (a limit "
                   "reached), so not every instance was decided")  # fmt: skip
        elif not report.stopped:
            yield f"no disagreement in {report.runs} runs"
        return
    shrunk = (
        "" if f.phase == "small scope"
        else f", shrunk from {f.found_shape} in {report.shrink_steps} steps"
    )  # fmt: skip
    mode = f" (mode {f.mode})" if f.mode else ""
    where = {"small scope": "in the small scope", "random": "among random instances",
             "earlier counterexample": "replaying an earlier counterexample"}[f.phase]  # fmt: skip
    wrong = f"breaks its assertion {f.assertion}" if f.assertion else "is wrong"
    yield f"FAILED{mode}: {tested} {wrong} on {f.shape} (found {where}{shrunk})"
    yield f"  why: {f.reason}"
    yield from (f"  interface: {note}" for note in report.interface)
    for line in instance_text(f.instance).splitlines():
        yield f"    | {line}"
    yield f"  {tested}: {said(f.tested)}"
    yield f"  {f.reference.backend}: {said(f.reference)}"
    if f.reference.witness is not None and len(str(f.reference.witness)) <= 200:
        yield f"  {f.reference.backend}'s witness: {f.reference.witness}"
    yield from f.blame
    if f.case is not None:
        yield f"  regression case: {f.case} (replay: pyasp-games test-encoding {f.case.parent} --encoding FILE)"
    if f.file is not None and f.phase == "earlier counterexample":
        yield f"  replayed from {f.file} (an earlier session wrote it; nothing new written)"
    elif f.file is not None:
        yield f"  written to {f.file}"
        yield f"  reproduce: {f.command}"
