"""Games against Nature: stochastic SAT, the maximum probability of satisfaction.

A formula ``Q1 x1 ... Qn xn . C1 ∧ ... ∧ Cm`` where each ``Qi`` is ∃ (the player sets
``xi``) or R (Nature tosses a coin, fair or biased): the player's best strategy
satisfies the formula with some probability, computed exactly (Papadimitriou, "Games
against Nature", JCSS 31, 1985; the lecture notes' section 11: a probabilistic
alternating machine, whose acceptance probability proposition 1 computes in polynomial
space by a depth-first walk of the game tree). ``dpll`` walks it with memo and
simplification and gives the player's policy; ``expand`` walks all of it.

There is no ASP or SAT backend (so no ``asp.py``, no ``sat.py``): the question is a
number, a maximum of expectations over exponentially many branches, which neither an
answer set nor a satisfying assignment states; a SAT-based count of models would only
repeat the expansion.

>>> from pyasp_games.domains.ssat.model import parse_ssat
>>> f = parse_ssat("p cnf 3 2\\ne 1 0\\nr 2 0\\ne 3 0\\n1 2 0\\n-1 -2 3 0\\n")
>>> [(b, solve(f, b).answer, solve(f, b).verdict.verified) for b in BACKENDS]
[('dpll', '1', True), ('expand', '1', True)]
"""

from __future__ import annotations

from typing import Any

from pyasp_games.domains.ssat.model import Ssat, load_instances, load_ssat
from pyasp_games.domains.ssat.questions import BACKENDS, QUESTIONS, REFERENCE, SOLVE
from pyasp_games.engines.domain import DomainSpec
from pyasp_games.engines.fuzzing import Family, Fuzzing, plural
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome

__all__ = ["BACKENDS", "QUESTIONS", "REFERENCE", "Ssat", "domain", "load_ssat", "solve"]


def solve(formula: Ssat, backend: str, limits: Limits = Limits(), **options: Any) -> Outcome:
    """The maximum probability that the player satisfies ``formula`` against Nature, verified.

    Parameters
    ----------
    formula : Ssat
        The formula (:func:`~pyasp_games.domains.ssat.model.load_ssat`,
        :func:`~pyasp_games.domains.ssat.model.parse_ssat`).
    backend : str
        ``dpll`` (memoised expectation, with the player's policy) or ``expand`` (the
        whole tree, at most 22 variables).
    limits : Limits, optional
        What the run may spend (:class:`~pyasp_games.engines.limits.Limits`).
    **options
        ``dpll`` takes ``policy`` (``False``: no witness).

    Returns
    -------
    Outcome
        ``answer`` the probability as text (``"3/4"``), ``witness`` the policy (a
        decision tree) or ``None``, ``certificate`` (``dpll``) the value of every
        position met. Checked by the policy's own probability, the table position by
        position, or (without one, up to 16 variables) the checker's recomputation.

    Raises
    ------
    InputError
        An unknown backend or option; a formula beyond the backend's limit.
    """
    return SOLVE.solve(formula, backend, limits, **options)


def _known(formula: Ssat) -> tuple[bool, Any]:
    return (False, None) if formula.known is None else (True, str(formula.known))


def domain() -> DomainSpec:
    """The ssat domain for crosscheck, bench and fuzz (``expand`` fuzzed against ``dpll``)."""
    from pyasp_games.domains.ssat.model import random_ssat

    return DomainSpec.asking(SOLVE, load_instances, _known, generators={"random": random_ssat},
                             questions=QUESTIONS, fuzzing=fuzzing())  # fmt: skip


def fuzzing() -> Fuzzing:
    """What ``pyasp-games fuzz ssat --backend expand`` draws: every formula on two
    variables, then random ones."""
    from pyasp_games.domains.ssat.model import format_ssat, small_ssats, ssat_parts, strategy

    formulas = Family(
        "formulas", "CNF formulas under a prefix of e, r and r 1/3, 1/2, 3/4 quantifiers",
        strategy=strategy, small=small_ssats,
        small_help="every formula on 1 or 2 variables with at most 2 clauses of 1 or 2 literals",
        sizes=(2, 8), unit="variables", parts=ssat_parts,
    )  # fmt: skip
    return Fuzzing(
        ("solve",), (formulas,), size=len, unit="variables", write=format_ssat,
        measure=lambda f: f"{plural(len(f), 'variable')}, {plural(len(f.clauses), 'clause')}",
    )  # fmt: skip
