"""What a cross-check found: one :class:`Row` per run, the :class:`Report` of a domain,
the categories every run counts in, and the summary in words.

>>> from pyasp_games.engines.outcome import Outcome
>>> r = Report("d", [Row("a", Outcome("i", "a", "solved", 1), confirmed="verified")], 1)
>>> r.ok, category(r.rows[0])
(True, 'verified')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pyasp_games.engines.outcome import Outcome


@dataclass
class Row:
    backend: str
    outcome: Outcome
    agrees: bool = True
    known_ok: bool = True
    #: how the answer is confirmed: "verified" (an independent check of its witness),
    #: "verified in part" (the checker confirmed part of it, the rest rests on the
    #: backend's search: never counted as verified), "agreed" (not checkable alone, equal to another backend's or the known answer),
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
    "verified in part": "verified_in_part",
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
        "verified_in_part": "verified in part (the rest not re-checked)",
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
