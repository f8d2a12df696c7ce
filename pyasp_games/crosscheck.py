"""Cross-checking: every backend of a domain on every instance, verified and compared.

A domain is described by a :class:`DomainSpec` (how to load instances, its
bundled instances, its ``solve`` entry point and backend table); the checks are
domain-agnostic: each outcome must pass the domain's verification, all definite
answers for an instance must be equal, and must equal the instance's known answer.

>>> spec = domain_spec("puzzle")
>>> from pyasp_games.puzzle import parse_board
>>> report = crosscheck(spec, [parse_board("1 2 3\\n4 5 6\\n7 0 8")], spec.backends())
>>> report.ok, [row.outcome.answer for row in report.rows]
(True, [1, 1, 1, 1, 1, 1])
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pyasp_games.engines.domain import BackendSpec, DomainSpec
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.errors import InputError


@dataclass
class Row:
    backend: str
    outcome: Outcome
    agrees: bool = True
    known_ok: bool = True

    @property
    def ok(self) -> bool:
        return self.outcome.status != "error" and self.agrees and self.known_ok

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.outcome.to_dict(),
            "label": self.backend,
            "agrees": self.agrees,
            "matches_known": self.known_ok,
            "ok": self.ok,
        }


@dataclass
class Report:
    domain: str
    rows: list[Row] = field(default_factory=list)
    instances: int = 0

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.rows)

    def summary(self) -> dict[str, Any]:
        statuses: dict[str, int] = {}
        for r in self.rows:
            statuses[r.outcome.status] = statuses.get(r.outcome.status, 0) + 1
        return {
            "domain": self.domain,
            "instances": self.instances,
            "runs": len(self.rows),
            "statuses": statuses,
            "verified": sum(1 for r in self.rows if r.outcome.stats.get("verified") is True),
            "failed_verification": sum(
                1 for r in self.rows if r.outcome.stats.get("verified") is False
            ),
            "disagreements": sum(1 for r in self.rows if not r.agrees),
            "wrong_known_answers": sum(1 for r in self.rows if not r.known_ok),
            "ok": self.ok,
        }

    def summary_line(self) -> str:
        s = self.summary()
        parts = [
            f"{s['instances']} instances, {s['runs']} runs",
            ", ".join(f"{n} {k}" for k, n in sorted(s["statuses"].items())),
            f"{s['verified']} verified",
        ]
        if self.ok:
            parts.append("all answers verified and agreeing")
        else:
            parts.append(
                f"PROBLEMS: {s['failed_verification']} failed verification, "
                f"{s['disagreements']} disagreements, {s['wrong_known_answers']} wrong known answers"
            )
        return "; ".join(parts)

    def exit_code(self) -> int:
        if not self.ok:
            return 1
        return 3 if any(r.outcome.status == "unknown" for r in self.rows) else 0


def _definite(outcome: Outcome) -> bool:
    """A definite answer: solved, or no-solution not relative to a bound (``stats["bounded"]``)."""
    if outcome.status == "no-solution":
        return outcome.stats.get("bounded") is None
    return outcome.status == "solved"


def _upper(outcome: Outcome) -> bool:
    """A solved outcome whose answer is not claimed optimal (``stats["optimal"]`` false):
    it bounds the exact answer from above, e.g. a greedy plan's length."""
    return outcome.status == "solved" and outcome.stats.get("optimal") is False


def _at_least(bound: Any, exact: Any) -> bool:
    try:
        return exact is not None and bound >= exact
    except TypeError:
        return False


def agreement(
    outcomes: Sequence[Outcome], known: tuple[bool, Any] = (False, None)
) -> list[tuple[bool, bool]]:
    """``(agrees, matches_known)`` for each of several outcomes on one instance.

    Definite answers (:func:`_definite`) must all be equal; an answer not claimed
    optimal (:func:`_upper`) must be at least every exact one; ``known`` is the
    instance's ``(has_known, answer)``. Unknown and error outcomes agree vacuously.
    Shared by :func:`crosscheck` and the bench report.

    >>> a = Outcome("i", "x", "solved", 4, stats={})
    >>> b = Outcome("i", "y", "solved", 6, stats={"optimal": False})
    >>> c = Outcome("i", "z", "unknown")
    >>> agreement([a, b, c], (True, 4))
    [(True, True), (True, True), (True, True)]
    >>> agreement([a, Outcome("i", "w", "solved", 5, stats={})])
    [(False, True), (False, True)]
    """
    exact = [o.answer for o in outcomes if _definite(o) and not _upper(o)]
    answers = {repr(a) for a in exact}
    has_known, value = known
    verdicts = []
    for o in outcomes:
        agrees = known_ok = True
        if _upper(o):  # a bound on the answer: at least the exact one
            agrees = all(_at_least(o.answer, a) for a in exact)
            if has_known:
                known_ok = _at_least(o.answer, value)
        elif _definite(o):
            agrees = len(answers) <= 1
            if has_known:
                known_ok = o.answer == value
        verdicts.append((agrees, known_ok))
    return verdicts


def crosscheck(
    spec: DomainSpec,
    instances: Sequence[Any],
    backends: Sequence[BackendSpec],
    limits: Limits = Limits(),
    on_row: Callable[[Row], None] | None = None,
    prepare: bool = True,
) -> Report:
    """Run every backend on every instance and compare their verified answers.

    Unless ``prepare`` is false (the caller did it), the domain's one-off
    preparation (``spec.prepare``) runs first, outside the per-run limits.
    """
    if prepare and spec.prepare is not None:
        spec.prepare(instances, backends, None)
    report = Report(spec.name, instances=len(instances))
    for instance in instances:
        rows = []
        for b in backends:
            if spec.applies is not None and not spec.applies(instance, b.backend):
                continue
            outcome = spec.solve(instance, b.backend, limits, **b.options)
            rows.append(Row(b.label, outcome))
        verdicts = agreement([r.outcome for r in rows], spec.known(instance))
        for r, (agrees, known_ok) in zip(rows, verdicts, strict=True):
            r.agrees, r.known_ok = agrees, known_ok
            if on_row:
                on_row(r)
        report.rows += rows
    return report


# -- the domains ---------------------------------------------------------------------

#: Domains by name; each is the package ``pyasp_games.<name>`` whose ``domain()``
#: returns its :class:`DomainSpec`.
DOMAINS = ("puzzle", "grundy", "cover", "geography", "routing")


def domain_spec(name: str) -> DomainSpec:
    """The :class:`DomainSpec` of a domain by name."""
    if name not in DOMAINS:
        raise InputError(f"unknown domain {name!r} (choose from {', '.join(DOMAINS)})")
    return importlib.import_module(f"pyasp_games.{name}").domain()
