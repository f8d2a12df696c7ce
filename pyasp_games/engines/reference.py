"""Cross-checking what no checker can confirm alone: a user encoding's claims, and the
claims any backend makes beyond what its checker can decide.

Every witness (a cover, a plan, a Grundy function) is verified by the domain's
checker whatever produced it. Some claims have no witness to check: "none
exists", a count (are all solutions there?), a plan's optimality (is there no
shorter plan?). The bundled encodings keep their documented standing for these
(argued in ``encodings/<domain>/README.md``, tested against the native backends).
A user's encoding (``--encoding FILE``: any encoding that is not a bundled name)
has no such standing, so :func:`cross_check` asks the domain's *reference
backend* -- a native algorithm, declared per domain by a :class:`Reference` --
the same question under what is left of the same limits (the encoding's started
limits handed on: one clock, the same memory limit and maximum length):

- it agrees (:func:`~pyasp_games.engines.agreement.relation`: equal, or consistent
  bounds): the claim stands as the reference's own answer does (``agrees``);
- it disagrees: the outcome becomes an ``error`` naming both answers and the
  reference's verified witness (``disagrees``, ``verified`` false);
- it gives no answer in time (or fails): the claim is kept but marked
  ``not verified`` with the reason, ``verified`` false and exit code 3.

A bundled backend's claim is cross-checked too when the checker could not decide it
within its own limit (it raised :class:`~pyasp_games.errors.Unconfirmed`: a count too
large to recount, a "none" too large to search by brute force): then by the reference
backend, or where the reference is the very backend that answered, by the
:attr:`Reference.second` independent backend, under what is left of the time limit and
at most :data:`CONFIRM_SECONDS` when there is none (a claim that stands unconfirmed
after that is printed as NOT VERIFIED, exit 3, as before).

The answers are told in words by the question's own formatter (``words``, from
:meth:`~pyasp_games.engines.question.Question.solve`): one formatter per question.
``trust_encoding=True`` (CLI ``--trust-encoding``) skips the reference (the checker still
confirms what it can alone, in every domain): the claim reads "trusted, not cross-checked"
(:func:`trusted`). The outcome's verdict records it
(:class:`~pyasp_games.engines.verdict.CrossCheck`: the result, why not verified, the
reference, its status, answer, seconds and, on a disagreement, its witness; in JSON the
``stats`` keys ``cross_check``, ``cross_check_reason``, ``reference``,
``reference_status``, ``reference_answer``, ``reference_seconds``,
``reference_witness``).

>>> from pyasp_games.engines.outcome import Outcome
>>> from pyasp_games.engines.verdict import Verdict
>>> ref = Reference("toy", lambda inst, opts: ("exact", {}))
>>> mine = Outcome("i", "asp", "no-solution", False)
>>> ref.user_encoding({"encoding": "mine.lp"}), ref.needs_check(mine)
('mine.lp', True)
>>> def run(backend, limits, options):
...     return Outcome("i", backend, "solved", True, [1],
...                    verdict=Verdict(verified=True, message="checked"))
>>> words = lambda outcome: f"{outcome.answer} {outcome.witness}"
>>> cross_check(ref, None, mine, {"encoding": "mine.lp"}, Limits().started(), run, words)
>>> mine.status, mine.verdict.cross_check.result, mine.verdict.verified
('error', 'disagrees', False)
>>> print(mine.verdict.message)
the encoding mine.lp answers False None, but the reference backend exact answers True [1] (checked)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from pyasp_games.engines.agreement import Refinement, relation
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.verdict import AGREES, DISAGREES, NOT_VERIFIED, TRUSTED, CrossCheck

#: Below this many seconds left there is no point starting the reference.
MIN_SECONDS = 0.05

#: Without a time limit, the seconds a bundled backend's unconfirmed claim may spend on
#: its cross-check (a user encoding's claims get the reference's whole answer).
CONFIRM_SECONDS = 30.0


def unchecked_claim(outcome: Outcome) -> bool:
    """The default: an answer the domain's checker could not confirm alone."""
    return outcome.status in ("solved", "no-solution") and outcome.verdict.verified is None


@dataclass(frozen=True)
class Reference:
    """How a domain cross-checks a user encoding's claims.

    Attributes:
        domain: the domain's name (its bundled encodings are trusted as documented).
        choose: ``(instance, options) -> (backend, options)``: the reference backend
            for the question the options ask (same mode, same kind of solution).
        needs_check: whether an outcome's claim needs the reference (default: the
            checker could not confirm it, :func:`unchecked_claim`).
        example: ``options -> options`` asking the reference for one solution, shown
            when the encoding counted none but the reference counts some.
        second: ``(instance, options) -> (backend, options)``: an independent backend
            that cross-checks the reference backend's own unconfirmed claims (``None``:
            they stand unconfirmed).
        out_of_reach: ``(instance, backend, seconds) -> reason or None``: why ``backend``
            cannot answer within ``seconds`` (``None`` seconds: no time limit), decided
            before it runs so a hopeless cross-check costs nothing (``None``: try it).
    """

    domain: str
    choose: Callable[[Any, dict[str, Any]], tuple[str, dict[str, Any]]]
    needs_check: Callable[[Outcome], bool] = unchecked_claim
    example: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    second: Callable[[Any, dict[str, Any]], tuple[str, dict[str, Any]]] | None = None
    out_of_reach: Callable[[Any, str, float | None], str | None] | None = None

    def checker_of(
        self, instance: Any, options: dict[str, Any], backend: str
    ) -> tuple[str, dict[str, Any]] | None:
        """The backend (and its options) that cross-checks a claim of ``backend``: the
        reference, unless it is ``backend`` itself (then :attr:`second`, if any).

        >>> ref = Reference("toy", lambda i, o: ("exact", {}), second=lambda i, o: ("sat", {}))
        >>> ref.checker_of(None, {}, "asp"), ref.checker_of(None, {}, "exact")
        (('exact', {}), ('sat', {}))
        """
        chosen = self.choose(instance, options)
        if chosen[0] != backend:
            return chosen
        return None if self.second is None else self.second(instance, options)

    def user_encoding(self, options: dict[str, Any]) -> str | None:
        """The encoding in ``options`` if it is the user's own (a file, not a bundled name)."""
        from pyasp_games.engines.resources import ENCODING, user_encoding

        return user_encoding(self.domain, options.get(ENCODING))


def cross_check(
    reference: Reference,
    instance: Any,
    outcome: Outcome,
    options: dict[str, Any],
    limits: Limits,
    run: Callable[[str, Limits, dict[str, Any]], Outcome],
    words: Callable[[Outcome], str],
    refine: Refinement | None = None,
) -> None:
    """Check ``outcome`` (a user encoding's claim, or any backend's claim its checker left
    unconfirmed) against the reference; records the result in its verdict (in place).

    ``limits`` are the encoding's, started (:meth:`Limits.started`): the reference
    runs under them, on the same clock (what is left of the time limit), with the same
    memory limit and ``max_length``. ``run(backend, limits, options)`` runs and
    verifies one backend (:func:`pyasp_games.engines.runner.run_backend`); ``words(outcome)``
    is an answer in words (the question's formatter); ``refine`` the question's own rule
    of agreement (:func:`~pyasp_games.engines.agreement.relation`).
    """
    verdict = outcome.verdict
    encoding = reference.user_encoding(options)
    unconfirmed = verdict.unconfirmed
    if encoding is not None and (reference.needs_check(outcome) or unconfirmed):
        source, budget = f"the encoding {encoding}", None
    elif unconfirmed and outcome.status in ("solved", "no-solution"):
        source, budget = f"the backend {outcome.backend}", CONFIRM_SECONDS
    else:
        return
    chosen = reference.checker_of(instance, options, "" if encoding else outcome.backend)
    if chosen is None:  # nothing independent to ask: the claim stands unconfirmed
        return
    backend, ref_options = chosen
    limits = limits.started()
    left = limits.deadline().remaining()
    if left is None and budget is not None:  # a bundled claim's check: bounded all the same
        limits = replace(limits, time_limit=budget, clock=None).started()
    if left is not None and left < MIN_SECONDS:
        why = f"no time was left within the limit for the reference {backend}"
        verdict.left_unverified(CrossCheck(NOT_VERIFIED, backend, why))
        return
    seconds = limits.deadline().remaining()
    why = None if reference.out_of_reach is None else reference.out_of_reach(instance, backend, seconds)
    if why is not None:  # it could not finish: say so at once rather than after trying
        verdict.left_unverified(CrossCheck(NOT_VERIFIED, backend, f"the reference {backend} was not run: {why}"))
        return
    started = time.perf_counter()
    ref = run(backend, limits, ref_options)
    check = CrossCheck(
        NOT_VERIFIED, backend, None, ref.status, ref.answer,
        round(time.perf_counter() - started, 4),
    )  # fmt: skip
    if ref.status == "unknown":
        given = f" (it had the {left:.2f} s left of the limit)" if left is not None else (
            f" (its {budget:g} s)" if budget is not None else ""
        )
        check.reason = f"the reference {backend} reached the {_limit(ref)} limit{given}"
        verdict.left_unverified(check)
        return
    if ref.status == "error":
        why = ref.verdict.message or ref.stats.get("error") or "no reason given"
        check.reason = f"the reference {backend} failed ({why})"
        verdict.left_unverified(check)
        return
    said = words(outcome)
    if relation(outcome, ref, refine).agrees:
        check.result = AGREES
        verdict.cross_check = check
        note = f"cross-checked: the reference {backend} agrees"
        if unconfirmed:  # what the checker could not decide alone, the reference settles
            verdict.message = f"{said}: {unconfirmed} alone; {note}"
        else:
            verdict.message = f"{verdict.message or said}; {note}"
        return
    check.result, check.witness = DISAGREES, ref.witness
    checked = ref.verdict.message if ref.verdict.verified else None
    text = f"{source} answers {said}, but the reference backend {backend} answers {words(ref)}"
    missing = _missing(outcome.witness, ref.witness)
    if missing is not None:
        text += f"; e.g. the encoding misses {missing}"
    elif outcome.answer == 0 and ref.witness is None and reference.example is not None:
        # counted none: any one solution the reference finds is one the encoding missed
        left = limits.deadline().remaining()
        if left is None or left >= MIN_SECONDS:
            one = run(backend, limits, reference.example(ref_options))
            if one.verdict.verified is True:
                check.witness = one.witness
                text += f"; e.g. {words(one)} ({one.verdict.message})"
    told = checked and checked not in text  # a formatter may show the check already
    verdict.disagreed(check, f"{text} ({checked})" if told else text, outcome.status)
    outcome.claim_failed()


def trusted(reference: Reference, outcome: Outcome, options: dict[str, Any]) -> None:
    """Mark a user encoding's claim the user takes on trust (``--trust-encoding``): what
    :func:`cross_check` would have checked reads "trusted, not cross-checked"
    (a :class:`~pyasp_games.engines.verdict.CrossCheck` ``trusted``), never as a proof.

    >>> ref = Reference("toy", lambda inst, opts: ("exact", {}))
    >>> mine = Outcome("i", "asp", "no-solution", False)
    >>> trusted(ref, mine, {"encoding": "mine.lp"})
    >>> mine.verdict.cross_check.result, mine.exit_code
    ('trusted', 0)
    """
    if reference.user_encoding(options) is not None and reference.needs_check(outcome):
        outcome.verdict.cross_check = CrossCheck(TRUSTED)


def _limit(outcome: Outcome) -> str:
    return str(outcome.stats.get("limit", "time"))


def _missing(mine: Any, theirs: Any) -> Any:
    """A solution the reference lists and the encoding does not (both enumerations)."""
    if not (isinstance(mine, list) and isinstance(theirs, list)):
        return None
    have = {_key(w) for w in mine}
    return next((w for w in theirs if _key(w) not in have), None)


def _key(solution: Any) -> str:
    return repr(sorted(solution.items())) if isinstance(solution, dict) else repr(solution)
