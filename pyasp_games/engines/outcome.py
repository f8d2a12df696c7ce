"""The result type shared by every backend of every domain.

>>> o = Outcome("puzzle:board1", "astar", "solved", 24, "RDLU", 0.01, {"nodes": 10})
>>> o.to_dict()["status"]
'solved'
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass, replace
from typing import Any

from pyasp_games.engines.verdict import Verdict

#: ``solved``: an answer with a verified witness; ``no-solution``: proved that none
#: exists (within the stated bounds); ``unknown``: a limit was reached, never a guess;
#: ``error``: the backend failed (a bug or an unsupported instance, see ``stats``).
STATUSES = ("solved", "no-solution", "unknown", "error")


@dataclass
class Outcome:
    """What one backend said about one problem instance.

    Attributes:
        problem: a name for the instance (file name, set id, ...).
        backend: the backend's name as registered in the domain's ``BACKENDS``.
        status: one of :data:`STATUSES`.
        answer: the domain's verdict (puzzle: the optimal plan length, or ``None``).
        witness: the evidence for the answer (puzzle: the plan as a ``UDLR`` string).
        seconds: wall-clock time of the whole call.
        stats: solver statistics and explanations (nodes expanded, clingo summary,
            horizons tried, the parity proof of unsolvability, ...).
        certificate: what a checker needs beyond the witness and the JSON answer
            carries no room for (e.g. the counter function that certifies a
            generalized Sprague-Grundy function, the raw values behind a formatted
            witness); left out of :meth:`to_dict`.
        verdict: how the answer is confirmed and what kind of answer it is
            (:class:`~pyasp_games.engines.verdict.Verdict`). A backend declares the kind
            in ``stats`` (``optimal``: false for an upper bound; ``bounded``: none within
            it); those keys, and every other key of the verdict's
            (:data:`~pyasp_games.engines.verdict.STATS_KEYS`), are taken out of ``stats``
            into the record when the outcome is built, and :meth:`to_dict` writes them
            back: the JSON keeps its shape.
    """

    problem: str
    backend: str
    status: str
    answer: Any = None
    witness: Any = None
    seconds: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)
    certificate: Any = field(default=None, repr=False, compare=False)
    verdict: Verdict = field(default_factory=Verdict, compare=False)

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown status {self.status!r}")
        Verdict.take_from(self.stats, self.verdict)

    def take_verdict(self) -> Verdict:
        """Take the verdict's keys a backend wrote into :attr:`stats` after the outcome
        was built (``stats["optimal"] = False``, ``stats["bounded"] = n``) into
        :attr:`verdict`; the runner calls it on every backend's outcome."""
        return Verdict.take_from(self.stats, self.verdict)

    def claim_failed(self) -> None:
        """The answer failed its check (or its cross-check): the status becomes ``error``
        and the answer is withdrawn, kept only as the failed claim
        (``verdict.failed_answer``, JSON ``stats["failed_answer"]``), so nobody reads a
        refuted answer as one. The witness stays: it is what failed, for the message."""
        self.status = "error"
        if self.answer is not None:
            self.verdict.failed_answer, self.answer = self.answer, None

    @property
    def claimed(self) -> Outcome:
        """The outcome as its backend claimed it (a failed claim's answer put back), for
        the words that say what failed."""
        if self.verdict.failed_answer is None:
            return self
        return replace(self, answer=self.verdict.failed_answer, stats=dict(self.stats),
                       verdict=self.verdict)

    def to_dict(self) -> dict[str, Any]:
        """The outcome as plain data (no certificate), for JSON: nested dataclasses become
        dicts, containers are copied (a witness of millions of numbers in about a second:
        ``dataclasses.asdict`` deep-copies every number and took ten times longer)."""
        out = {
            f.name: _plain(getattr(self, f.name))
            for f in fields(self)
            if f.name not in ("certificate", "verdict")
        }
        out["stats"].update(_plain(self.verdict.to_stats()))
        return out

    @property
    def reason(self) -> str | None:
        """Why an ``error`` outcome failed: the failed check's message, or the backend's
        own reason (``None`` for other statuses).

        >>> Outcome("i", "asp", "error", stats={"error": "no answer set"}).reason
        'no answer set'
        """
        if self.status != "error":
            return None
        why = self.verdict.message if self.verdict.failed else self.stats.get("error")
        return str(why) if why else "the backend gave no reason"

    @property
    def exit_code(self) -> int:
        """The CLI exit code this outcome maps to (0 answered, 3 limit, 1 error).

        An unconfirmed claim exits 3 like a reached limit: a user encoding's claim that
        no reference confirmed in time, or one the checker could not decide within its
        own limit, unless the reference agreed or the user took it on trust
        (``--trust-encoding``): :attr:`unconfirmed`. 0 is kept for answers that stand.

        >>> Outcome("g", "native", "solved", "first", stats={"unconfirmed": "too large"}).exit_code
        3
        """
        if self.status != "error" and self.unconfirmed is not None:
            return 3
        return {"solved": 0, "no-solution": 0, "unknown": 3, "error": 1}[self.status]

    @property
    def unconfirmed(self) -> str | None:
        """Why the claim of this outcome stands unconfirmed, or ``None``
        (:attr:`Verdict.unconfirmed_because <pyasp_games.engines.verdict.Verdict.unconfirmed_because>`)."""
        return self.verdict.unconfirmed_because


_PRIMITIVE = (str, int, float, bool, type(None))


def _plain(value: Any) -> Any:
    """``value`` with dataclasses turned into dicts and containers copied, as
    :func:`dataclasses.asdict` does for a dataclass's fields, but with a fast path for
    lists of plain values (witnesses of huge games)."""
    if isinstance(value, _PRIMITIVE):
        return value
    if isinstance(value, list | tuple):
        if all(isinstance(x, _PRIMITIVE) for x in value):
            items = list(value)
        else:
            items = [_plain(x) for x in value]
        if isinstance(value, list):
            return items
        return type(value)(*items) if hasattr(value, "_fields") else tuple(items)
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    return value
