"""Whether two answers to one question agree: the one rule, for every tool.

The reference cross-check of a user encoding, ``fuzz``, ``crosscheck`` and the bench
report all ask :func:`relation`; a question may refine it
(:attr:`~pyasp_games.engines.question.Question.compare`) where its answers need more
than the general rule.

>>> from pyasp_games.engines.outcome import Outcome
>>> from pyasp_games.engines.verdict import UPPER_BOUND, WITHIN_BOUND, Verdict
>>> exact = Outcome("i", "astar", "solved", 24)
>>> greedy = Outcome("i", "greedy", "solved", 30, verdict=Verdict(kind=UPPER_BOUND))
>>> relation(exact, greedy), relation(exact, Outcome("i", "asp", "solved", 22))
(<Relation.CONSISTENT: 'consistent bounds'>, <Relation.DIFFERS: 'differs'>)
>>> relation(exact, Outcome("i", "sat", "unknown"))
<Relation.NOT_COMPARABLE: 'not comparable'>
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from fractions import Fraction
from numbers import Rational
from typing import TYPE_CHECKING, Any

from pyasp_games.engines.verdict import EXACT, UPPER_BOUND, WITHIN_BOUND

if TYPE_CHECKING:
    from pyasp_games.engines.outcome import Outcome


class Relation(Enum):
    """How two answers to one question stand to each other."""

    #: the same exact answer
    EQUAL = "equal"
    #: both can hold: an upper bound at least the exact value, "none within n" beside an
    #: exact value beyond n, an existence beside a count that says the same
    CONSISTENT = "consistent bounds"
    #: they cannot both hold
    DIFFERS = "differs"
    #: nothing to compare: no answer (a limit, an error), or claims about different things
    #: (a strategy, a bound beside a bound)
    NOT_COMPARABLE = "not comparable"

    @property
    def agrees(self) -> bool:
        """Nothing contradicts: equal, consistent or not comparable."""
        return self is not Relation.DIFFERS


#: ``compare(a, b) -> Relation | None``: a question's own rule (``None``: the general one).
Refinement = Callable[["Outcome", "Outcome"], "Relation | None"]

_ANSWERED = ("solved", "no-solution")


def relation(a: Outcome, b: Outcome, refine: Refinement | None = None) -> Relation:
    """How the answers of ``a`` and ``b`` (one question, one instance) stand.

    Parameters
    ----------
    a, b : Outcome
        Two outcomes of one question on one instance, in either order.
    refine : callable or None, optional
        The question's own rule, ``refine(a, b) -> Relation | None``, asked first
        (:attr:`~pyasp_games.engines.question.Question.compare`); ``None`` from it, or
        no rule, means the general one.

    Returns
    -------
    Relation
        ``EQUAL``, ``CONSISTENT`` (bounds that can both hold), ``DIFFERS`` or
        ``NOT_COMPARABLE``.

    Notes
    -----
    The general rule, in order: an outcome without an answer (``unknown``, ``error``)
    compares with nothing; two exact answers are equal when their statuses and answers
    are (:func:`same_answer`), else they differ; an upper bound is consistent with an
    exact answer at most it and with another upper bound; "none within n" is consistent
    with an answer (exact, or an upper bound found) beyond n and with another "none
    within", and differs from one within n; a claim about a strategy compares with
    nothing. O(size of the answers).

    Examples
    --------
    >>> from pyasp_games.engines.outcome import Outcome
    >>> from pyasp_games.engines.verdict import Verdict
    >>> none_within = Outcome("i", "asp", "no-solution", verdict=Verdict(kind=WITHIN_BOUND, bound=20))
    >>> relation(none_within, Outcome("i", "astar", "solved", 24)).value
    'consistent bounds'
    >>> relation(none_within, Outcome("i", "astar", "solved", 18)).value
    'differs'
    >>> exists, count = Outcome("i", "a", "solved", True), Outcome("i", "b", "solved", 3)
    >>> relation(exists, count).value, relation(exists, Outcome("i", "b", "solved", 0)).value
    ('consistent bounds', 'differs')
    """
    if refine is not None:
        said = refine(a, b)
        if said is not None:
            return said
    if a.status not in _ANSWERED or b.status not in _ANSWERED:
        return Relation.NOT_COMPARABLE
    ka, kb = a.verdict.kind, b.verdict.kind
    if ka not in (EXACT, UPPER_BOUND, WITHIN_BOUND) or kb not in (EXACT, UPPER_BOUND, WITHIN_BOUND):
        return Relation.NOT_COMPARABLE
    if ka == EXACT and kb == EXACT:
        return _exact(a, b)
    if ka == kb != EXACT:  # two bounds of one kind hold together
        return Relation.CONSISTENT
    # a bound beside an exact answer, or "none within n" beside an upper bound (found)
    if WITHIN_BOUND in (ka, kb):
        within, other = (a, b) if ka == WITHIN_BOUND else (b, a)
        return _beyond(other, within.verdict.bound)
    upper, exact = (a, b) if ka == UPPER_BOUND else (b, a)
    return _within(exact.answer, upper.answer, exact.status)


def same_answer(x: Any, y: Any) -> bool:
    """Equal answers: numbers by value (``2 == Fraction(2)``), but a truth value is no
    number (``True`` is not ``1``: an existence is not a count); lists and tuples alike
    (an answer read back from JSON); everything else by type and ``==``.

    >>> same_answer(True, 1), same_answer(2, Fraction(4, 2)), same_answer([1, 2], (1, 2))
    (False, True, True)
    """
    if isinstance(x, bool) or isinstance(y, bool):
        return type(x) is type(y) and x == y
    if isinstance(x, Rational) and isinstance(y, Rational):
        return Fraction(x) == Fraction(y)
    if isinstance(x, list | tuple) and isinstance(y, list | tuple):
        return len(x) == len(y) and all(same_answer(p, q) for p, q in zip(x, y, strict=True))
    if isinstance(x, dict) and isinstance(y, dict):
        return x.keys() == y.keys() and all(same_answer(x[k], y[k]) for k in x)
    return type(x) is type(y) and x == y


def _exact(a: Outcome, b: Outcome) -> Relation:
    if same_answer(a.answer, b.answer) and (a.answer is not None or a.status == b.status):
        return Relation.EQUAL
    existence = _existence_and_count(a.answer, b.answer)
    if existence is not None:
        return existence
    return Relation.DIFFERS


def _existence_and_count(x: Any, y: Any) -> Relation | None:
    """An existence (``True``/``False``) beside a count: consistent when the count says
    the same (some / none)."""
    if isinstance(y, bool):
        x, y = y, x
    if not isinstance(x, bool) or isinstance(y, bool) or not isinstance(y, int):
        return None
    return Relation.CONSISTENT if x == (y > 0) else Relation.DIFFERS


def _within(exact: Any, bound: Any, status: str) -> Relation:
    """An upper bound beside an exact value: consistent when at least it."""
    if status != "solved":  # a bound found where the exact answer says there is none
        return Relation.DIFFERS
    try:
        return Relation.CONSISTENT if bound >= exact else Relation.DIFFERS
    except TypeError:
        return Relation.NOT_COMPARABLE


def _beyond(exact: Outcome, bound: Any) -> Relation:
    """"None within ``bound``" beside another answer (exact, or an upper bound found):
    consistent when it is none, or a number beyond the bound."""
    if exact.status == "no-solution":
        return Relation.CONSISTENT
    value = exact.answer
    if isinstance(value, bool) or not isinstance(value, int | Fraction) or bound is None:
        return Relation.NOT_COMPARABLE
    try:
        return Relation.CONSISTENT if value > bound else Relation.DIFFERS
    except TypeError:
        return Relation.NOT_COMPARABLE


def known_outcome(value: Any) -> Outcome:
    """An instance's known answer as an exact outcome, to compare answers with it
    (``None``: known to have none)."""
    from pyasp_games.engines.outcome import Outcome

    return Outcome("known", "known", "no-solution" if value is None else "solved", value)
