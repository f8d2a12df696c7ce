"""What a backend says about one instance: a claim, before anyone has checked it.

Every backend of every domain returns a :class:`Claim`: the status, the answer, the
evidence for it (the witness, and a certificate or proof where a checker needs more),
what kind of answer it is (exact, a bound, none within a bound, about one strategy) and
its statistics. It says nothing about itself that it cannot know: not its name, its
time or its CPU, and not whether it holds. The runner
(:func:`~pyasp_games.engines.runner.run_backend`) alone stamps those, runs the
domain's checker and builds the :class:`~pyasp_games.engines.outcome.Outcome` and its
:class:`~pyasp_games.engines.verdict.Verdict`.

>>> c = Claim.solved(24, "RDLU", stats={"nodes": 10})
>>> c.status, c.status is Status.SOLVED, c.kind
('solved', True, 'exact')
>>> Claim.solved(30, "RRDD", kind=Kind.UPPER_BOUND).exact
False
>>> Claim.none(bound=20).kind, Claim.none(bound=20).bound
('within bound', 20)
>>> Claim("maybe")
Traceback (most recent call last):
...
ValueError: unknown status 'maybe' (one of solved, no-solution, unknown, error)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Status(StrEnum):
    """The status of an answer. A :class:`~enum.StrEnum`: it compares equal to its value
    (``Status.SOLVED == "solved"``) and is written as that value in JSON.

    ``solved``: an answer with its evidence; ``no-solution``: none exists (within the
    stated bound, :attr:`Claim.kind`); ``unknown``: a limit was reached, never a guess;
    ``error``: the backend failed, or its answer failed its check.
    """

    SOLVED = "solved"
    NO_SOLUTION = "no-solution"
    UNKNOWN = "unknown"
    ERROR = "error"

    def __repr__(self) -> str:  # reads as the string it stands for, in a tuple too
        return repr(self.value)

    @classmethod
    def of(cls, value: str | Status) -> Status:
        """``value`` as a status; a value that is none is a :class:`ValueError`."""
        try:
            return cls(value)
        except ValueError:
            known = ", ".join(s.value for s in cls)
            raise ValueError(f"unknown status {value!r} (one of {known})") from None


class Kind(StrEnum):
    """What kind of answer a claim is (:attr:`Claim.kind`, :attr:`Verdict.kind
    <pyasp_games.engines.verdict.Verdict.kind>`).

    ``exact``: the answer itself (optimal, where the question asks for an optimum);
    ``upper bound``: a value not claimed optimal, at least the exact one (a greedy plan, a
    heuristic strategy's worst case); ``within bound``: "none exists" only within a bound
    (``--max-length``), the bound in :attr:`Claim.bound`; ``about a strategy``: a claim
    about one strategy, not about the position (a heuristic's strategy that does not
    mate), the strategy's name in :attr:`Claim.bound`.
    """

    EXACT = "exact"
    UPPER_BOUND = "upper bound"
    WITHIN_BOUND = "within bound"
    ABOUT_STRATEGY = "about a strategy"

    def __repr__(self) -> str:
        return repr(self.value)

    @classmethod
    def of(cls, value: str | Kind) -> Kind:
        """``value`` as a kind; a value that is none is a :class:`ValueError`."""
        try:
            return cls(value)
        except ValueError:
            raise ValueError(f"unknown kind of answer {value!r}") from None


@dataclass
class Claim:
    """One backend's claim about one instance.

    Attributes:
        status: a :class:`Status` (a string of one is taken as it).
        answer: the domain's answer (puzzle: the optimal plan length; Hex: the winner).
        witness: the evidence for the answer, shown to the user (the plan, the function,
            the strategy's first move, the cover).
        kind: a :class:`Kind`: exact, an upper bound, none within a bound, about a
            strategy.
        bound: the bound a ``within bound`` answer holds within (a maximum length), or
            the name of the strategy an ``about a strategy`` answer is about.
        certificate: what a checker needs beyond the witness, or what the answer rests on
            where nothing more is checkable: a proof tree (Hex), the counter function of a
            generalized Sprague-Grundy function, the raw values behind a formatted
            witness, the stated grounds of an optimum ("every bound below 12
            exhausted"). Written to JSON as the outcome's ``certificate``, so a saved
            answer can be checked again (``pyasp-games verify``).
        stats: solver statistics (nodes expanded, clingo's summary, horizons tried) and,
            for an ``error``, the reason under ``"error"``. Never a verdict's fact.
        malformed: the backend found its own answer to be no answer (an answer set of
            the wrong shape, or one that is no solution, met while counting): the runner
            fails the claim with this reason and runs no checker.
    """

    status: Status | str
    answer: Any = None
    witness: Any = None
    kind: Kind | str = Kind.EXACT
    bound: Any = None
    certificate: Any = field(default=None, repr=False)
    stats: dict[str, Any] = field(default_factory=dict)
    malformed: str | None = None

    def __post_init__(self) -> None:
        self.status = Status.of(self.status)
        self.kind = Kind.of(self.kind)

    @property
    def exact(self) -> bool:
        """Claimed exact (optimal where the question asks for an optimum)."""
        return self.kind is Kind.EXACT

    # -- the common claims, by name ----------------------------------------------------

    @classmethod
    def solved(cls, answer: Any, witness: Any = None, **rest: Any) -> Claim:
        """An answer with its evidence (``rest``: the other fields)."""
        return cls(Status.SOLVED, answer, witness, **rest)

    @classmethod
    def none(cls, answer: Any = None, witness: Any = None, bound: Any = None, **rest: Any) -> Claim:
        """None exists; with a ``bound``, none within it (kind ``within bound``)."""
        if bound is not None:
            rest.setdefault("kind", Kind.WITHIN_BOUND)
        return cls(Status.NO_SOLUTION, answer, witness, bound=bound, **rest)

    @classmethod
    def unknown(cls, stats: dict[str, Any] | None = None, **rest: Any) -> Claim:
        """A limit was reached (``stats["limit"]``: which; the runner says ``time`` when
        the backend does not)."""
        return cls(Status.UNKNOWN, stats=dict(stats or {}), **rest)

    @classmethod
    def error(cls, reason: str, stats: dict[str, Any] | None = None, **rest: Any) -> Claim:
        """The backend failed (an unsupported instance, a solver's failure): ``reason``
        is said to the user."""
        return cls(Status.ERROR, stats={**(stats or {}), "error": reason}, **rest)

    @classmethod
    def refuted(cls, reason: str, stats: dict[str, Any] | None = None, **rest: Any) -> Claim:
        """An answer the backend found to be no answer (:attr:`malformed`)."""
        return cls(Status.SOLVED, stats=dict(stats or {}), malformed=reason, **rest)


__all__ = ["Claim", "Kind", "Status"]
