"""The result type shared by every backend of every domain.

>>> o = Outcome("puzzle:board1", "astar", "solved", 24, "RDLU", 0.01, {"nodes": 10})
>>> o.to_dict()["status"]
'solved'
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any

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
    """

    problem: str
    backend: str
    status: str
    answer: Any = None
    witness: Any = None
    seconds: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)
    certificate: Any = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown status {self.status!r}")

    def to_dict(self) -> dict[str, Any]:
        """The outcome as plain data (no certificate), for JSON: nested dataclasses become
        dicts, containers are copied (a witness of millions of numbers in about a second:
        ``dataclasses.asdict`` deep-copies every number and took ten times longer)."""
        return {
            f.name: _plain(getattr(self, f.name)) for f in fields(self) if f.name != "certificate"
        }

    @property
    def reason(self) -> str | None:
        """Why an ``error`` outcome failed: the failed check's message, or the backend's
        own reason (``None`` for other statuses).

        >>> Outcome("i", "asp", "error", stats={"error": "no answer set"}).reason
        'no answer set'
        """
        if self.status != "error":
            return None
        failed = self.stats.get("verified") is False
        why = self.stats.get("verification" if failed else "error")
        return str(why) if why else "the backend gave no reason"

    @property
    def exit_code(self) -> int:
        """The CLI exit code this outcome maps to (0 answered, 3 limit, 1 error).

        An unconfirmed claim exits 3 like a reached limit: a user encoding's claim that
        no reference confirmed in time (``stats["cross_check"] == "not verified"``), or
        one the checker could not decide within its own limit (``stats["unconfirmed"]``)
        unless the reference agreed or the user took it on trust (``--trust-encoding``).
        0 is kept for answers that stand.

        >>> Outcome("g", "native", "solved", "first", stats={"unconfirmed": "too large"}).exit_code
        3
        """
        if self.status != "error" and self.unconfirmed is not None:
            return 3
        return {"solved": 0, "no-solution": 0, "unknown": 3, "error": 1}[self.status]

    @property
    def unconfirmed(self) -> str | None:
        """Why the claim of this outcome stands unconfirmed, or ``None``: the reference
        gave no answer in time, or the checker could not decide within its own limit
        (and neither the reference nor the user's trust settled it)."""
        crosscheck = self.stats.get("cross_check")
        if crosscheck == "not verified":
            return str(self.stats.get("cross_check_reason", "no reference answer"))
        if self.stats.get("unconfirmed") and crosscheck not in ("agrees", "trusted"):
            return str(self.stats["unconfirmed"])
        return None


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
