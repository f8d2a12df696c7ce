"""Interactive proofs: graph non-isomorphism, Arthur-Merlin, and IP = PSPACE.

The lecture notes' sections 11 and 12, as protocols that run: a prover of unbounded
power (networkx's isomorphism test; the exact polynomials of a QBF's program) against a
randomised verifier whose coins are drawn from a seed, so that every run is replayed and
every transcript checked afterwards (:mod:`~pyasp_games.domains.ip.verify`). ``ip gni``
runs the private-coin protocol for graph non-isomorphism and public-coin ones;
``ip qbf`` the interactive evaluation of the polynomial program of a QBF over Z_p, with
an honest or a cheating prover, beside the bound on its error; ``ip reach`` the same
evaluation on the program of proposition 2 (walks in a configuration graph).

There is no ASP or SAT backend (so no ``asp.py``, no ``sat.py``): a protocol is a
dialogue with random coins, not a search for a model; the formula's truth, which the
honest protocol must reach, is the ``direct`` backend (and ``geography solve`` on
``reduce qbf-to-geography``'s graph).

>>> from pyasp_games.domains.ip.model import parse_program
>>> q = parse_program("p cnf 2 2\\ne 1 0\\na 2 0\\n1 -2 0\\n-1 2 0\\n")
>>> [(b, solve(q, b).answer, solve(q, b).verdict.verified) for b in ("protocol", "direct")]
[('protocol', 'reject', True), ('direct', 'reject', True)]
"""

from __future__ import annotations

from typing import Any

from pyasp_games.domains.ip.model import (
    GraphPair,
    Program,
    Reachability,
    load_pair,
    load_program,
    load_reach,
)
from pyasp_games.domains.ip.questions import GNI, QBF, QUESTIONS, REACH, REFERENCE
from pyasp_games.engines.domain import DomainSpec
from pyasp_games.engines.fuzzing import Family, Fuzzing, plural
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome

BACKENDS = QBF.backends

__all__ = ["BACKENDS", "GNI", "QBF", "QUESTIONS", "REACH", "REFERENCE", "domain", "load_pair", "load_program",
           "load_reach", "solve"]


def solve(instance: Program | GraphPair | Reachability, backend: str = "protocol", limits: Limits = Limits(),
          **options: Any) -> Outcome:  # fmt: skip
    """Run a protocol of the ip domain on ``instance``, its transcript checked.

    Parameters
    ----------
    instance : Program, GraphPair or Reachability
        A QBF (:func:`~pyasp_games.domains.ip.model.load_program`): ``ip qbf``; a pair of
        graphs (:func:`~pyasp_games.domains.ip.model.load_pair`): ``ip gni``; a
        configuration graph (:func:`~pyasp_games.domains.ip.model.load_reach`): ``ip reach``.
    backend : str, optional
        ``protocol`` (every question) or ``direct`` (a QBF's truth, the walks counted).
    limits : Limits, optional
        What the run may spend (:class:`~pyasp_games.engines.limits.Limits`).
    **options
        ``runs``, ``seed``, ``prover`` (both); ``prime`` (qbf); ``rounds`` and ``coins``
        (gni).

    Returns
    -------
    Outcome
        ``answer`` ``accept``, ``reject`` or ``accept K of R``; ``witness`` the counts and
        bounds; ``certificate`` the transcript, replayed by the checker.

    Raises
    ------
    InputError
        An unknown backend or option, a prime that is not prime or below ``2 N d``.
    """
    question = GNI if isinstance(instance, GraphPair) else REACH if isinstance(instance, Reachability) else QBF
    return question.solve(instance, backend, limits, **options)


def _known(q: Program) -> tuple[bool, Any]:
    return (False, None) if q.known is None else (True, "accept" if q.known else "reject")


def _load(path: Any) -> list[Program]:
    return [load_program(path)]


def domain() -> DomainSpec:
    """The ip domain for crosscheck, bench and fuzz: ``ip qbf`` (the protocol against the
    direct evaluation)."""
    from pyasp_games.domains.ip.model import random_program

    return DomainSpec.asking(QBF, _load, _known, generators={"random": random_program},
                             questions=QUESTIONS, fuzzing=fuzzing())  # fmt: skip


def fuzzing() -> Fuzzing:
    """What ``pyasp-games fuzz ip --backend protocol`` draws: QBFs on up to 6 variables."""
    from pyasp_games.domains.ip.model import format_program, qbf_parts, small_programs, strategy

    family = Family(
        "qbfs", "CNF formulas under a prefix of e and a quantifiers", strategy=strategy,
        small=small_programs, small_help="every formula on 1 or 2 variables with at most 2 clauses",
        sizes=(2, 6), unit="variables", parts=qbf_parts,
    )  # fmt: skip
    return Fuzzing(
        ("qbf",), (family,), size=len, unit="variables", write=format_program,
        measure=lambda q: f"{plural(len(q), 'variable')}, {plural(len(q.clauses), 'clause')}",
    )  # fmt: skip
