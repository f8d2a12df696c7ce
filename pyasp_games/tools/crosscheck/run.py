"""Cross-checking: every backend of a domain on every instance, verified and compared.

A domain is described by a :class:`DomainSpec` (how to load instances, its
bundled instances, its ``solve`` entry point and backend table); the checks are
domain-agnostic: each outcome must pass the domain's verification, all definite
answers for an instance must be equal, and must equal the instance's known answer.

>>> from pyasp_games.domains import domain_spec
>>> spec = domain_spec("puzzle")
>>> from pyasp_games.domains.puzzle import parse_board
>>> report = crosscheck(spec, [parse_board("1 2 3\\n4 5 6\\n7 0 8")], spec.backends())
>>> report.ok, [row.outcome.answer for row in report.rows]
(True, [1, 1, 1, 1, 1, 1])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import nullcontext
from typing import Any

from pyasp_games.engines.agreement import Relation, known_outcome, relation
from pyasp_games.engines.domain import BackendSpec, DomainSpec
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.processes import process_pool
from pyasp_games.engines.resources import ENCODING, encoding_path
from pyasp_games.tools.crosscheck.report import Report, Row


def confirmation(outcomes: Sequence[Outcome], has_known: bool) -> list[str]:
    """How each answer on one instance is confirmed (see :attr:`Row.confirmed`).

    >>> from pyasp_games.engines.verdict import CrossCheck, Verdict
    >>> a = Outcome("i", "x", "no-solution", False)
    >>> b = Outcome("i", "y", "no-solution", False)
    >>> confirmation([a, b], False), confirmation([a], False), confirmation([a], True)
    (['agreed', 'agreed'], ['unconfirmed'], ['agreed'])
    >>> c = Outcome("i", "z", "no-solution", False, verdict=Verdict(
    ...     verified=False, message="", cross_check=CrossCheck("not verified")))
    >>> confirmation([c, a], False)
    ['not verified', 'agreed']
    """
    definite = [o for o in outcomes if _definite(o)]
    out = []
    for o in outcomes:
        verdict = o.verdict
        if o.status != "error" and verdict.not_verified:
            out.append("not verified")
        elif verdict.in_part:  # never counted as a full check
            out.append("verified in part")
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

    >>> from pyasp_games.engines.verdict import UPPER_BOUND, Verdict
    >>> a = Outcome("i", "x", "solved", 4, stats={})
    >>> b = Outcome("i", "y", "solved", 6, verdict=Verdict(kind=UPPER_BOUND))
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


def answer(
    solve: Callable[..., Outcome], instance: Any, backend: BackendSpec, limits: Limits
) -> Outcome:
    """One run of crosscheck: ``backend`` on ``instance``; a run its backend refuses (a
    user's encoding clingo cannot ground, an option clingo refuses) is an ``error`` row
    with the reason, and the other runs go on."""
    from pyasp_games.errors import InputError

    try:
        return solve(instance, backend.backend, limits, **backend.options)
    except InputError as err:
        name = getattr(instance, "name", "")
        return Outcome(name, backend.backend, "error", stats={"error": str(err)})


def answer_in_worker(domain: str, instance: Any, backend: BackendSpec, limits: Limits) -> Outcome:
    """:func:`answer` in a worker process, the domain found there by its registered name:
    a question's backends and formatters may be closures or lambdas, which do not cross a
    process boundary (``crosscheck --workers`` on cover and zerosum was a PicklingError)."""
    from pyasp_games.domains import domain_spec

    return answer(domain_spec(domain).solve, instance, backend, limits)


def _submit(pool: Any, spec: DomainSpec, instance: Any, backend: BackendSpec, limits: Limits) -> Any:
    from pyasp_games.domains import DOMAINS

    if spec.name in DOMAINS:  # by name: nothing of the spec itself is pickled
        return pool.submit(answer_in_worker, spec.name, instance, backend, limits)
    return pool.submit(answer, spec.solve, instance, backend, limits)  # a spec of the caller's


def crosscheck(
    spec: DomainSpec,
    instances: Sequence[Any],
    backends: Sequence[BackendSpec],
    limits: Limits = Limits(),
    on_row: Callable[[Row], None] | None = None,
    workers: int = 1,
) -> Report:
    """Run every backend on every instance and compare their verified answers.

    Parameters
    ----------
    spec : DomainSpec
        The domain (:func:`~pyasp_games.domains.domain_spec`): how to solve, which
        backend applies to which instance, the known answers, the relation.
    instances : sequence
        The instances (e.g. ``spec.bundled()``).
    backends : sequence of BackendSpec
        The backends to run, each with its options and label.
    limits : Limits, optional
        The limits of each run (whatever it builds first, e.g. pattern databases,
        included).
    on_row : callable or None, optional
        Called with each :class:`Row` as soon as its instance is compared.
    workers : int, optional
        Processes to run in; with more than 1 the rows keep their order.

    Returns
    -------
    Report
        One :class:`Row` per run: the outcome, whether it agrees with the others (by
        :func:`~pyasp_games.engines.agreement.relation`) and with the known answer.

    Raises
    ------
    InputError
        An encoding file that is missing or binary, before any run.

    Notes
    -----
    Runs ``len(instances) * len(backends)`` backends (those that apply), each under
    ``limits``, and compares the answers of one instance pairwise.
    """
    for b in backends:  # a missing or binary program is bad input, before any run
        if ENCODING in b.options:
            encoding_path(spec.name, b.options[ENCODING])
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
                [_submit(pool, spec, instance, b, limits) for b in bs]
                for instance, bs in zip(instances, jobs, strict=True)
            ]
        for k, (instance, bs) in enumerate(zip(instances, jobs, strict=True)):
            if pool is None:
                outcomes = [answer(spec.solve, instance, b, limits) for b in bs]
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
