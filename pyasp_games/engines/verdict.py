"""The verdict on one answer: how it is confirmed, and what kind of answer it is.

Every :class:`~pyasp_games.engines.outcome.Outcome` carries one :class:`Verdict`. The
backend says what *kind* of answer it gives (:attr:`Verdict.kind`: exact, an upper or
lower bound, none within a bound, a claim about one strategy); the runner records what
the domain's checker said of its witness (:attr:`Verdict.verified`,
:attr:`Verdict.message`, or why the checker could not decide within its own limit,
:attr:`Verdict.unconfirmed`); a question that cross-checks a claim no checker confirms
alone records the reference backend's answer (:class:`CrossCheck`). Every tool over
all domains (the CLI's words, crosscheck, fuzz, the bench report) reads the record,
never free-form keys.

>>> v = Verdict(verified=True, message="the plan replays to the goal")
>>> v.stands, v.unconfirmed_because
(True, None)
>>> Verdict(kind=UPPER_BOUND).exact
False

A checker that confirmed only part of a claim says what it did not re-check
(:attr:`Verdict.not_checked`): the verdict is then *verified in part*, a state of its own
that no reader counts as a full check (JSON writes ``"verified": "partial"``):

>>> part = Verdict(verified=True, message="3 of 50 options recomputed", not_checked="47 options")
>>> part.in_part, part.fully_verified, part.to_stats()["verified"]
(True, False, 'partial')

In JSON the record keeps the shape scripts read: its fields are keys of ``stats``
(``verified``, ``verification``, ``cross_check``, ``reference``, ``optimal``,
``bounded``, ...; :meth:`Verdict.to_stats`), and :meth:`Verdict.take_from` reads them
back (a bench row, an outcome built from plain data):

>>> stats = {"nodes": 7, "verified": None, "verification": "", "optimal": False}
>>> v = Verdict.take_from(stats)
>>> stats, v.verified, v.kind
({'nodes': 7}, None, 'upper bound')
>>> v.to_stats()
{'optimal': False, 'verified': None, 'verification': ''}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pyasp_games.engines.claim import Kind

#: The kinds of answer (:attr:`Verdict.kind`, :class:`~pyasp_games.engines.claim.Kind`),
#: by their short names.
EXACT = Kind.EXACT
#: A value not claimed optimal: at least the exact one (a greedy plan, a heuristic
#: strategy's worst case, an upper-bound schedule).
UPPER_BOUND = Kind.UPPER_BOUND
#: "None exists" only within a bound (``--max-length``): :attr:`Verdict.bound` is it.
WITHIN_BOUND = Kind.WITHIN_BOUND
#: A claim about one strategy, not about the position (a heuristic's strategy that does
#: not mate): :attr:`Verdict.bound` names the strategy.
ABOUT_STRATEGY = Kind.ABOUT_STRATEGY
KINDS = tuple(Kind)

#: How a partly verified answer reads in JSON's ``stats["verified"]``.
PARTIAL = "partial"

#: What a cross-check concluded (:attr:`CrossCheck.result`).
AGREES, DISAGREES, NOT_VERIFIED, TRUSTED = "agrees", "disagrees", "not verified", "trusted"


@dataclass
class CrossCheck:
    """A claim asked again of the domain's reference backend (or the user's trust).

    Attributes:
        result: ``agrees``, ``disagrees``, ``not verified`` (the reference gave no answer:
            a limit, a failure) or ``trusted`` (``--trust-encoding``: not asked).
        reference: the reference backend's name (``None`` when trusted).
        reason: why the claim is not verified.
        status, answer, seconds: the reference's status, answer and time.
        witness: the reference's verified witness, on a disagreement.
    """

    result: str
    reference: str | None = None
    reason: str | None = None
    status: str | None = None
    answer: Any = None
    seconds: float | None = None
    witness: Any = None

    @property
    def settles(self) -> bool:
        """The claim stands on this cross-check: the reference agreed, or the user
        takes it on trust (never as a proof: the CLI says "trusted")."""
        return self.result in (AGREES, TRUSTED)


@dataclass
class Verdict:
    """How one answer is confirmed, and what kind of answer it is.

    Attributes:
        verified: ``True``: the checker confirmed the witness; ``False``: it failed
            (the outcome is then an ``error``, or a claim a cross-check left not
            verified); ``None``: nothing a checker can confirm alone (or not checked).
        message: the checker's message (``None``: no checker ran).
        failed_status: the status a backend claimed before its answer failed.
        failed_answer: the answer it claimed then (the outcome's answer is withdrawn:
            :meth:`~pyasp_games.engines.outcome.Outcome.claim_failed`).
        unconfirmed: why the checker could not decide within its own limit (a count too
            large to recount, a "none" too large to search): the claim stands unconfirmed
            unless a cross-check settles it.
        not_checked: the part of a claim the checker confirmed no further, with what it
            rests on: with ``verified`` true, the answer is *verified in part*
            (:attr:`in_part`), never counted as a full check.
        cross_check: the reference's word on a claim no checker confirms alone.
        kind: a :class:`~pyasp_games.engines.claim.Kind`, as the backend claimed it.
        bound: what a :data:`WITHIN_BOUND` answer holds within (a maximum length), or the
            strategy an :data:`ABOUT_STRATEGY` answer is about (its name).
    """

    verified: bool | None = None
    message: str | None = None
    failed_status: str | None = None
    failed_answer: Any = None
    unconfirmed: str | None = None
    not_checked: str | None = None
    cross_check: CrossCheck | None = None
    kind: Kind = Kind.EXACT
    bound: Any = None

    def __post_init__(self) -> None:
        self.kind = Kind.of(self.kind)

    # -- reading ---------------------------------------------------------------------

    @property
    def exact(self) -> bool:
        """Claimed exact (optimal where the question asks an optimum)."""
        return self.kind == EXACT

    @property
    def in_part(self) -> bool:
        """Verified in part: the checker confirmed the answer except what
        :attr:`not_checked` says (which rests on the backend's own search)."""
        return self.verified is True and bool(self.not_checked)

    @property
    def verified_as_written(self) -> bool | str | None:
        """The checker's word as JSON writes it (``stats["verified"]``, a bench row's
        ``verified``, a table file's): ``True``, ``False``, ``None``, or ``"partial"``
        for an answer verified in part."""
        return PARTIAL if self.in_part else self.verified

    @property
    def fully_verified(self) -> bool:
        """The checker confirmed the whole answer alone (not in part, not by a
        cross-check)."""
        return self.verified is True and not self.not_checked

    @property
    def failed(self) -> bool:
        """The witness or the claim failed its check (or the reference disagreed)."""
        return self.verified is False and not self.not_verified

    @property
    def not_verified(self) -> bool:
        """A claim left unconfirmed by its cross-check: no reference answer in time."""
        return self.cross_check is not None and self.cross_check.result == NOT_VERIFIED

    @property
    def unconfirmed_because(self) -> str | None:
        """Why the claim stands unconfirmed, or ``None``: its reference gave no answer in
        time, or the checker could not decide within its own limit (and neither the
        reference nor the user's trust settled it)."""
        check = self.cross_check
        if check is not None and check.result == NOT_VERIFIED:
            return check.reason or "no reference answer"
        if self.unconfirmed and not (check is not None and check.settles):
            return self.unconfirmed
        return None

    @property
    def stands(self) -> bool:
        """The claim stands as proven: verified, or cross-checked and agreeing."""
        if self.unconfirmed_because is not None or self.failed:
            return False
        check = self.cross_check
        return self.verified is True or (check is not None and check.result == AGREES)

    # -- recording -------------------------------------------------------------------

    def checked(self, ok: bool | None, message: str, status: str) -> None:
        """Record the checker's word on an answer claimed with ``status``."""
        self.verified, self.message = ok, message
        if ok is False:
            self.failed_status = status

    def disagreed(self, check: CrossCheck, message: str, status: str) -> None:
        """The reference disagrees: the claim (made with ``status``) fails."""
        self.cross_check = check
        self.verified, self.message, self.failed_status = False, message, status

    def left_unverified(self, check: CrossCheck) -> None:
        """The reference gave no answer: the claim stays, marked not verified (a plan that
        replays keeps saying so; what is not verified is the claim beyond it)."""
        checked = self.message if self.verified else None
        self.cross_check = check
        self.verified = False
        self.message = f"not verified: {check.reason}" + (f"; {checked}" if checked else "")

    # -- plain data (JSON) -----------------------------------------------------------

    def to_stats(self) -> dict[str, Any]:
        """The record as the ``stats`` keys of the JSON output (their names and values
        as they always were: scripts read them)."""
        out: dict[str, Any] = {}
        if self.kind in (UPPER_BOUND, ABOUT_STRATEGY):
            out["optimal"] = False
        if self.kind in (WITHIN_BOUND, ABOUT_STRATEGY):
            out["bounded"] = self.bound
        if self.unconfirmed is not None:
            out["unconfirmed"] = self.unconfirmed
        if self.message is not None:
            out["verified"] = self.verified_as_written
            out["verification"] = self.message
        if self.failed_status is not None:
            out["failed_status"] = self.failed_status
        if self.failed_answer is not None:
            out["failed_answer"] = self.failed_answer
        if self.not_checked is not None:
            out["not_checked"] = self.not_checked
        check = self.cross_check
        if check is not None:
            out["cross_check"] = check.result
            if check.reason is not None:
                out["cross_check_reason"] = check.reason
            if check.reference is not None:
                out["reference"] = check.reference
            if check.seconds is not None:
                out["reference_seconds"] = check.seconds
            if check.status is not None:
                out["reference_status"] = check.status
                out["reference_answer"] = check.answer
            if check.witness is not None:
                out["reference_witness"] = check.witness
        return out

    @classmethod
    def take_from(cls, stats: dict[str, Any], into: Verdict | None = None) -> Verdict:
        """Move the verdict's keys out of ``stats`` (in place) into a record (``into``,
        or a new one): the inverse of :meth:`to_stats`, for an outcome read back from
        plain data (a bench row, a saved answer: ``stats["optimal"] = False``, an upper
        bound; ``stats["bounded"] = n``, none within ``n``; ``stats["bounded"] = "name"``,
        a claim about the strategy named; ``stats["verified"] = "partial"``, verified in
        part)."""
        v = cls() if into is None else into
        if not any(key in stats for key in STATS_KEYS):
            return v
        pop = stats.pop
        if "optimal" in stats and pop("optimal") is False:
            v.kind = UPPER_BOUND
        if "bounded" in stats:
            bound = pop("bounded")
            if bound is not None:  # a number bounds the answer; a name, a strategy
                v.kind = ABOUT_STRATEGY if isinstance(bound, str) else WITHIN_BOUND
                v.bound = bound
        if "unconfirmed" in stats:
            v.unconfirmed = pop("unconfirmed")
        if "verified" in stats or "verification" in stats:
            v.verified, v.message = pop("verified", None), pop("verification", None)
            if v.verified == PARTIAL:
                v.verified = True
        if "failed_status" in stats:
            v.failed_status = pop("failed_status")
        if "failed_answer" in stats:
            v.failed_answer = pop("failed_answer")
        if "not_checked" in stats:
            v.not_checked = pop("not_checked")
        if "cross_check" in stats:
            v.cross_check = CrossCheck(
                pop("cross_check"),
                reference=pop("reference", None),
                reason=pop("cross_check_reason", None),
                status=pop("reference_status", None),
                answer=pop("reference_answer", None),
                seconds=pop("reference_seconds", None),
                witness=pop("reference_witness", None),
            )
        return v


#: The ``stats`` keys that are the verdict's (:meth:`Verdict.to_stats`).
STATS_KEYS = frozenset(
    {
        "optimal",
        "bounded",
        "unconfirmed",
        "verified",
        "verification",
        "failed_status",
        "failed_answer",
        "not_checked",
        "cross_check",
        "cross_check_reason",
        "reference",
        "reference_seconds",
        "reference_status",
        "reference_answer",
        "reference_witness",
    }
)
