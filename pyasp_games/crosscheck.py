"""Cross-checking: every backend of a domain on every instance, verified and compared.

A domain is described by a :class:`DomainSpec` (how to load instances, its
bundled instances, its ``solve`` entry point and backend table); the checks are
domain-agnostic: each outcome must pass the domain's verification, all definite
answers for an instance must be equal, and must equal the instance's known answer.

>>> from pyasp_games.domains import domain_spec
>>> spec = domain_spec("puzzle")
>>> from pyasp_games.puzzle import parse_board
>>> report = crosscheck(spec, [parse_board("1 2 3\\n4 5 6\\n7 0 8")], spec.backends())
>>> report.ok, [row.outcome.answer for row in report.rows]
(True, [1, 1, 1, 1, 1, 1])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any

from pyasp_games.engines.agreement import Relation, known_outcome, relation
from pyasp_games.engines.domain import BackendSpec, DomainSpec
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.processes import process_pool


@dataclass
class Row:
    backend: str
    outcome: Outcome
    agrees: bool = True
    known_ok: bool = True
    #: how the answer is confirmed: "verified" (an independent check of its witness),
    #: "agreed" (not checkable alone, equal to another backend's or the known answer),
    #: "unconfirmed" (not checkable alone, nothing to compare with), "not verified" (a user
    #: encoding's claim whose reference backend gave no answer in time) or "" (no answer)
    confirmed: str = ""
    #: whether the answer was compared with anything: another backend's answer on the
    #: instance or its known answer (``False``: no answer, or nothing to compare it with,
    #: and ``agrees`` holds vacuously)
    compared: bool = False
    #: the instance and the backend's options (for the question's formatter)
    instance: Any = field(default=None, repr=False, compare=False)
    options: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def ok(self) -> bool:
        return self.outcome.status != "error" and self.agrees and self.known_ok

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.outcome.to_dict(),
            "label": self.backend,
            "agrees": self.agrees,
            "compared": self.compared,
            "matches_known": self.known_ok,
            "confirmed": self.confirmed,
            "category": category(self),
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
        """Counts of the runs: by status, and by :data:`CATEGORIES` (every run in one)."""
        statuses: dict[str, int] = {}
        for r in self.rows:
            statuses[r.outcome.status] = statuses.get(r.outcome.status, 0) + 1
        kinds = [category(r) for r in self.rows]
        return {
            "domain": self.domain,
            "instances": self.instances,
            "runs": len(self.rows),
            "statuses": statuses,
            **{key: kinds.count(kind) for kind, key in CATEGORIES.items()},
            "disagreements": sum(1 for r in self.rows if not r.agrees),
            "wrong_known_answers": sum(1 for r in self.rows if not r.known_ok),
            "ok": self.ok,
        }

    def summary_line(self) -> str:
        """One line: the statuses, then how the answers are confirmed, then the verdict.

        >>> r = Report("d", [Row("a", Outcome("i", "a", "solved", 1), confirmed="verified"),
        ...                  Row("b", Outcome("i", "b", "solved", 1), confirmed="agreed")], 1)
        >>> r.summary_line()
        '1 instances, 2 runs: 2 solved; 1 verified by an independent check, 1 not checkable alone but agreeing; no failed check, no disagreement'
        >>> r.rows.append(Row("c", Outcome("i", "c", "unknown", stats={"limit": "time"})))
        >>> r.summary_line()
        '1 instances, 3 runs: 2 solved, 1 unknown; 1 verified by an independent check, 1 not checkable alone but agreeing, 1 without an answer (a limit reached); no failed check, no disagreement'
        """
        return summary_text(self.summary())

    def exit_code(self) -> int:
        """1 for a problem; 3 when a run reached its limit or a claim is not verified (a
        claim its checker could not decide alone is confirmed here by another backend's
        equal answer)."""
        if not self.ok:
            return 1
        return 3 if any(r.outcome.exit_code == 3 and r.confirmed != "agreed" for r in self.rows) else 0


#: How a run counts in the summary, each run in exactly one category: the ways an answer
#: is confirmed (:attr:`Row.confirmed`), then the runs without a confirmed answer. Category
#: -> its key in :meth:`Report.summary`.
CATEGORIES = {
    "verified": "verified",
    "agreed": "agreed_only",
    "unconfirmed": "unconfirmed",
    "not verified": "not_verified",
    "failed": "failed_verification",
    "error": "backend_errors",
    "unknown": "no_answer",
    "bounded": "bounded",
}


def category(row: Row) -> str:
    """The one category of :data:`CATEGORIES` a run counts in."""
    if failed_verification(row.outcome):
        return "failed"
    if row.confirmed:
        return row.confirmed
    if row.outcome.status in ("error", "unknown"):
        return row.outcome.status
    return "bounded"  # a no-solution that only holds within a bound (--max-length)


def failed_verification(outcome: Outcome) -> bool:
    """A witness or claim that failed its check (the runner made it an ``error``); a
    claim only left not verified by its cross-check is no failure."""
    return outcome.status == "error" and outcome.verdict.failed


def summary_text(s: dict[str, Any]) -> str:
    """The summary line of :meth:`Report.summary` (or of several added together)."""
    head = f"{s['instances']} instances, {s['runs']} runs"
    statuses = s.get("statuses")
    if statuses:
        head += ": " + ", ".join(f"{n} {k}" for k, n in sorted(statuses.items()))
    how = [f"{s['verified']} verified by an independent check"]
    told = {
        "agreed_only": "not checkable alone but agreeing",
        "unconfirmed": "not checkable alone and nothing to compare with (unconfirmed)",
        "not_verified": "not verified (the reference gave no answer in time)",
        "failed_verification": "FAILED verification",
        "backend_errors": "backend errors",
        "no_answer": "without an answer (a limit reached)",
        "bounded": "no answer within the bound",
    }  # every run is in one of these or verified (CATEGORIES)
    how += [f"{s[key]} {text}" for key, text in told.items() if s.get(key)]
    if s["ok"]:
        verdict = "no failed check, no disagreement"
    else:
        verdict = (
            f"PROBLEMS: {s['failed_verification']} failed verification, "
            f"{s.get('backend_errors', 0)} backend errors, "
            f"{s['disagreements']} disagreements, {s['wrong_known_answers']} wrong known answers"
        )
    return "; ".join([head, ", ".join(how), verdict])


def confirmation(outcomes: Sequence[Outcome], has_known: bool) -> list[str]:
    """How each answer on one instance is confirmed (see :attr:`Row.confirmed`).

    >>> a = Outcome("i", "x", "no-solution", False, stats={"verified": None})
    >>> b = Outcome("i", "y", "no-solution", False, stats={"verified": None})
    >>> confirmation([a, b], False), confirmation([a], False), confirmation([a], True)
    (['agreed', 'agreed'], ['unconfirmed'], ['agreed'])
    >>> c = Outcome("i", "z", "no-solution", False,
    ...             stats={"verified": False, "verification": "", "cross_check": "not verified"})
    >>> confirmation([c, a], False)
    ['not verified', 'agreed']
    """
    definite = [o for o in outcomes if _definite(o)]
    out = []
    for o in outcomes:
        verdict = o.verdict
        if o.status != "error" and verdict.not_verified:
            out.append("not verified")
        elif verdict.verified is True:
            out.append("verified")
        elif not _definite(o) or verdict.verified is False:
            out.append("")
        elif has_known or len(definite) > 1:
            out.append("agreed")
        else:
            out.append("unconfirmed")
    return out


def _definite(outcome: Outcome) -> bool:
    """A definite answer: solved or no-solution, exact (not a bound, not about a strategy)."""
    return outcome.status in ("solved", "no-solution") and outcome.verdict.exact


def _answered(outcome: Outcome) -> bool:
    """An answer to compare: exact, or a solution found that bounds the exact one."""
    return _definite(outcome) or (outcome.status == "solved" and not outcome.verdict.exact)


def agreement(
    outcomes: Sequence[Outcome],
    known: tuple[bool, Any] = (False, None),
    relate: Callable[[Outcome, Outcome], Relation] = relation,
) -> list[tuple[bool, bool]]:
    """``(agrees, matches_known)`` for each of several outcomes on one instance.

    An outcome agrees when no other outcome's answer differs from its own, and matches
    the instance's known answer (``known``: ``(has_known, answer)``) when that does not
    differ from it: :func:`~pyasp_games.engines.agreement.relation`, or ``relate`` (the
    question's own rule, :meth:`DomainSpec.relation`). An upper bound agrees with an
    exact answer at most it; outcomes without an answer agree vacuously. Shared by
    :func:`crosscheck` and the bench report.

    >>> a = Outcome("i", "x", "solved", 4, stats={})
    >>> b = Outcome("i", "y", "solved", 6, stats={"optimal": False})
    >>> c = Outcome("i", "z", "unknown")
    >>> agreement([a, b, c], (True, 4))
    [(True, True), (True, True), (True, True)]
    >>> agreement([a, Outcome("i", "w", "solved", 5, stats={})])
    [(False, True), (False, True)]
    """
    has_known, value = known
    reference = known_outcome(value) if has_known else None
    verdicts = []
    for i, o in enumerate(outcomes):
        agrees = all(relate(o, p) is not Relation.DIFFERS for j, p in enumerate(outcomes) if j != i)
        known_ok = reference is None or relate(o, reference) is not Relation.DIFFERS
        verdicts.append((agrees, known_ok))
    return verdicts


def crosscheck(
    spec: DomainSpec,
    instances: Sequence[Any],
    backends: Sequence[BackendSpec],
    limits: Limits = Limits(),
    on_row: Callable[[Row], None] | None = None,
    workers: int = 1,
) -> Report:
    """Run every backend on every instance and compare their verified answers.

    Every run, whatever it builds first (e.g. pattern databases), is under the
    per-run limits. With ``workers > 1`` the runs go to that many processes (rows
    keep their order).
    """
    report = Report(spec.name, instances=len(instances))
    jobs = [
        [b for b in backends if spec.applies is None or spec.applies(instance, b.backend)]
        for instance in instances
    ]
    pool_size = min(workers, sum(map(len, jobs)) or 1)
    # a pool is stopped at once (its runs too) when the check is interrupted
    with process_pool(pool_size) if workers > 1 else nullcontext() as pool:
        if pool is not None:
            pending = [
                [pool.submit(spec.solve, instance, b.backend, limits, **b.options) for b in bs]
                for instance, bs in zip(instances, jobs, strict=True)
            ]
        for k, (instance, bs) in enumerate(zip(instances, jobs, strict=True)):
            if pool is None:
                outcomes = [spec.solve(instance, b.backend, limits, **b.options) for b in bs]
            else:
                outcomes = [f.result() for f in pending[k]]
            rows = [
                Row(b.label, o, instance=instance, options=b.options)
                for b, o in zip(bs, outcomes, strict=True)
            ]
            known = spec.known(instance)
            verdicts = agreement(outcomes, known, spec.relation)
            confirmed = confirmation(outcomes, known[0])
            answered = [i for i, o in enumerate(outcomes) if _answered(o)]
            for i, (r, (agrees, known_ok), how) in enumerate(
                zip(rows, verdicts, confirmed, strict=True)
            ):
                r.agrees, r.known_ok, r.confirmed = agrees, known_ok, how
                r.compared = i in answered and (known[0] or len(answered) > 1)
                if on_row:
                    on_row(r)
            report.rows += rows
    return report

