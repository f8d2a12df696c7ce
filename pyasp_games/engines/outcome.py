"""The checked answer of one backend on one instance, as every tool reads it.

A backend returns a :class:`~pyasp_games.engines.claim.Claim`; the runner
(:func:`~pyasp_games.engines.runner.run_backend`) stamps its name, the problem's name,
the seconds and the CPU, runs the domain's checker and builds the :class:`Outcome` with
its :class:`~pyasp_games.engines.verdict.Verdict`.

>>> o = Outcome("puzzle:board1", "astar", "solved", 24, "RDLU", 0.01, {"nodes": 10})
>>> o.status == "solved", o.to_dict()["status"]
(True, 'solved')

Saved as JSON (:meth:`Outcome.to_dict`) and read back (:meth:`Outcome.from_dict`), an
outcome keeps its answer, witness, certificate and verdict:

>>> import json
>>> from fractions import Fraction
>>> o = Outcome("m", "lp", "solved", Fraction(1, 12), certificate={(0, 1): Fraction(7, 12)})
>>> back = Outcome.from_dict(json.loads(json.dumps(o.to_dict(), default=str)))
>>> back.certificate, back.status is Status.SOLVED
({(0, 1): Fraction(7, 12)}, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass, replace
from fractions import Fraction
from typing import Any

from pyasp_games.engines.claim import Status
from pyasp_games.engines.verdict import STATS_KEYS, Verdict

#: The statuses' values (:class:`~pyasp_games.engines.claim.Status`): ``solved``, an
#: answer with a verified witness; ``no-solution``, proved that none exists (within the
#: stated bounds); ``unknown``, a limit was reached, never a guess; ``error``, the backend
#: failed (a bug or an unsupported instance, see ``stats``) or its answer failed its check.
STATUSES = tuple(s.value for s in Status)


@dataclass
class Outcome:
    """What one backend said about one problem instance.

    Attributes:
        problem: a name for the instance (file name, set id, ...).
        backend: the backend's name as registered in the domain's ``BACKENDS``.
        status: a :class:`~pyasp_games.engines.claim.Status` (a string of one is taken as
            it; it compares equal to its string).
        answer: the domain's answer (puzzle: the optimal plan length, or ``None``); how
            it is confirmed is :attr:`verdict`.
        witness: the evidence for the answer (puzzle: the plan as a ``UDLR`` string).
        seconds: wall-clock time of the whole call.
        stats: solver statistics and explanations (nodes expanded, clingo summary,
            horizons tried, the parity proof of unsolvability, ...).
        certificate: what a checker needs beyond the witness, or what the answer rests
            on (:attr:`Claim.certificate <pyasp_games.engines.claim.Claim.certificate>`:
            a Hex proof, the counter function of a generalized Sprague-Grundy function,
            the grounds of an optimum). JSON's ``certificate`` (only when there is one),
            written exactly (:func:`to_json`) so that a saved answer can be checked again.
        verdict: how the answer is confirmed and what kind of answer it is
            (:class:`~pyasp_games.engines.verdict.Verdict`): the kind the backend claimed,
            the checker's word, a cross-check. In JSON its fields are keys of ``stats``
            (:meth:`Verdict.to_stats <pyasp_games.engines.verdict.Verdict.to_stats>`,
            the shape scripts read); :meth:`from_dict` takes them back.
    """

    problem: str
    backend: str
    status: Status | str
    answer: Any = None
    witness: Any = None
    seconds: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)
    certificate: Any = field(default=None, repr=False, compare=False)
    verdict: Verdict = field(default_factory=Verdict, compare=False)

    def __post_init__(self) -> None:
        self.status = Status.of(self.status)
        keys = STATS_KEYS.intersection(self.stats)
        if keys:  # plain data (a saved answer, a bench row) is read by from_dict
            raise ValueError(f"an outcome's stats carry the verdict's keys {sorted(keys)}: "
                             "give the verdict, or read plain data with Outcome.from_dict")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Outcome:
        """The outcome :meth:`to_dict` wrote (a saved answer, a bench row): the verdict's
        keys of ``stats`` back into :attr:`verdict`, the certificate decoded
        (:func:`from_json`). A field missing or of the wrong type is a
        :class:`ValueError` naming it."""
        if not isinstance(data, dict):
            raise ValueError("an outcome is a JSON object")
        for key in ("problem", "backend", "status"):
            if not isinstance(data.get(key), str):
                raise ValueError(f"an outcome needs {key!r} (a string)")
        stats = data.get("stats", {})
        if not isinstance(stats, dict):
            raise ValueError("an outcome's 'stats' is a JSON object")
        stats = dict(stats)
        verdict = Verdict.take_from(stats)
        seconds = data.get("seconds", 0.0)
        return cls(
            data["problem"], data["backend"], data["status"], data.get("answer"),
            data.get("witness"), seconds if isinstance(seconds, int | float) else 0.0, stats,
            from_json(data.get("certificate")), verdict,
        )  # fmt: skip

    def claim_failed(self) -> None:
        """The answer failed its check (or its cross-check): the status becomes ``error``
        and the answer is withdrawn, kept only as the failed claim
        (``verdict.failed_answer``, JSON ``stats["failed_answer"]``), so nobody reads a
        refuted answer as one. The witness stays: it is what failed, for the message."""
        self.status = Status.ERROR
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
        """The outcome as plain data, for JSON: nested dataclasses become dicts,
        containers are copied (a witness of millions of numbers in about a second:
        ``dataclasses.asdict`` deep-copies every number and took ten times longer); the
        verdict's fields are keys of ``stats``; the certificate, when there is one, is
        ``certificate``, written exactly (:func:`to_json`)."""
        out = {
            f.name: _plain(getattr(self, f.name))
            for f in fields(self)
            if f.name not in ("certificate", "verdict")
        }
        out["status"] = Status.of(self.status).value  # a status set after building: its string too
        out["stats"].update(_plain(self.verdict.to_stats()))
        if self.certificate is not None:
            out["certificate"] = to_json(self.certificate)
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

        >>> Outcome("g", "native", "solved", "first", verdict=Verdict(unconfirmed="too large")).exit_code
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


#: The tags of what JSON cannot hold as it is (:func:`to_json`).
_PAIRS, _FRACTION, _SET = "__pairs__", "__fraction__", "__set__"


def to_json(value: Any) -> Any:
    """``value`` as JSON data that :func:`from_json` reads back to an equal value, for a
    certificate a checker must read again as it was: a dict whose keys are not all
    strings becomes ``{"__pairs__": [[key, value], ...]}``, a fraction
    ``{"__fraction__": "p/q"}``, a set ``{"__set__": [...]}``; tuples become lists (read
    back as tuples where they are keys), dataclasses dicts of their fields. Plain JSON
    data (a Hex proof) stays as it is.

    >>> to_json({(0, 1): Fraction(1, 3), "a": [1, (2, 3)]})
    {'__pairs__': [[[0, 1], {'__fraction__': '1/3'}], ['a', [1, [2, 3]]]]}
    """
    if isinstance(value, _PRIMITIVE):
        return value
    if isinstance(value, Fraction):
        return {_FRACTION: str(value)}
    if isinstance(value, list | tuple):
        if all(isinstance(x, _PRIMITIVE) for x in value):
            return list(value)
        return [to_json(x) for x in value]
    if isinstance(value, set | frozenset):
        return {_SET: [to_json(x) for x in sorted(value, key=repr)]}
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value) and not {_PAIRS, _FRACTION, _SET} & set(value):
            return {k: to_json(v) for k, v in value.items()}
        return {_PAIRS: [[to_json(k), to_json(v)] for k, v in value.items()]}
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in fields(value)}
    if hasattr(value, "tolist"):  # a numpy array or scalar
        return to_json(value.tolist())
    return str(value)


def from_json(value: Any) -> Any:
    """The value :func:`to_json` wrote (lists stay lists, except as keys: tuples).

    >>> from_json(to_json({(0, 1): Fraction(1, 3), "a": {2, 3}}))
    {(0, 1): Fraction(1, 3), 'a': frozenset({2, 3})}
    """
    if isinstance(value, list):
        return [from_json(x) for x in value]
    if not isinstance(value, dict):
        return value
    if len(value) == 1:
        if _FRACTION in value and isinstance(value[_FRACTION], str):
            return Fraction(value[_FRACTION])
        if _SET in value and isinstance(value[_SET], list):
            return frozenset(_key(from_json(x)) for x in value[_SET])
        if _PAIRS in value and isinstance(value[_PAIRS], list):
            return {_key(from_json(k)): from_json(v) for k, v in value[_PAIRS]}
    return {k: from_json(v) for k, v in value.items()}


def _key(value: Any) -> Any:
    """A JSON list read back where a key was: the tuple it was written from."""
    return tuple(_key(x) for x in value) if isinstance(value, list) else value
