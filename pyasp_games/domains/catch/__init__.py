"""Catch: red and black tokens on a digraph, each player moves his colour and captures the other's.

The partisan version of Annihilation (the notes' example 5 of section 8): the rules and
where the notes leave them open are in :mod:`~pyasp_games.domains.catch.model` and
``docs/catch.md``. ``native`` labels every reachable position by retrograde analysis
and ``asp`` derives them with clingo, on Annihilation's machinery
(:mod:`~pyasp_games.domains.annihilation.positions`,
:mod:`~pyasp_games.domains.annihilation.asp`); every answer is checked from the rules
(:mod:`~pyasp_games.domains.catch.verify`).

There is no SAT backend (so no ``sat.py``), for Annihilation's reason: the outcome of a
loopy game is a fixpoint over exponentially many positions.

>>> from pyasp_games.domains.catch.model import parse_instance
>>> inst = parse_instance("a b\\nb c\\nc a\\n", "a", "c")
>>> [(b, solve(inst, b).answer, solve(inst, b).verdict.verified) for b in BACKENDS]
[('native', 'draw', True), ('asp', 'draw', True)]
"""

from __future__ import annotations

from typing import Any

from pyasp_games.domains.catch.model import Catch, known_outcome, load_instances
from pyasp_games.domains.catch.questions import BACKENDS, QUESTIONS, REFERENCE, SOLVE
from pyasp_games.engines.domain import DomainSpec, within_limits
from pyasp_games.engines.fuzzing import Family, Fuzzing, plural
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome

__all__ = ["BACKENDS", "QUESTIONS", "REFERENCE", "domain", "solve"]


def solve(inst: Catch, backend: str, limits: Limits = Limits(), **options: Any) -> Outcome:
    """Decide who wins a Catch game (or that it is a draw) and a good move, verified.

    Parameters
    ----------
    inst : Catch
        The digraph, the red and black tokens and who moves first
        (:func:`~pyasp_games.domains.catch.model.load_instance`,
        :func:`~pyasp_games.domains.catch.model.parse_instance`).
    backend : str
        One of :data:`BACKENDS`: ``native`` (retrograde analysis), ``asp``.
    limits : Limits, optional
        What the run may spend (:class:`~pyasp_games.engines.limits.Limits`): wall-clock and
        CPU seconds, memory. The default sets none but the memory cap
        (:func:`~pyasp_games.engines.limits.default_memory_limit`).
    **options
        ``asp`` takes ``encoding`` and ``emit_lp``; the clingo options
        ``clingo_option=[...]``, ``const=[...]``, ``parallel_mode`` (``asp``); and
        ``trust_encoding=True`` (a user encoding's claims that no checker confirms alone are
        then marked trusted instead of cross-checked against the reference backend).

    Returns
    -------
    Outcome
        ``answer`` ``first`` (the player to move wins), ``second`` or ``draw``; ``witness``
        a move that wins or keeps the draw, or ``None``. Checked from the rules
        (:mod:`~pyasp_games.domains.catch.verify`).

    Raises
    ------
    InputError
        An unknown ``backend``, an option the backend does not take (named, with the nearest
        one), or a bad option value (e.g. an encoding file that does not exist, a clingo
        option clingo refuses).

    Notes
    -----
    Both backends label every reachable position, exponentially many in the number of
    tokens; the rules and their sources are in docs/catch.md (Catch is in PSPACE on
    acyclic digraphs, in EXPTIME in general).
    """
    return SOLVE.solve(inst, backend, limits, **options)


def _known(inst: Catch) -> tuple[bool, Any]:
    outcome = known_outcome(inst)
    return (False, None) if outcome is None else (True, outcome)


def domain() -> DomainSpec:
    """The catch domain for crosscheck, bench and fuzz."""
    from pyasp_games.domains.catch.model import random_instance

    return DomainSpec.asking(
        SOLVE, load_instances, _known, generators={"random": random_instance},
        questions=QUESTIONS, fuzzing=fuzzing(), applies=within_limits("asp", "pyasp_games.domains.catch.asp:check_size"),
    )  # fmt: skip


def fuzzing() -> Fuzzing:
    """What ``pyasp-games fuzz catch`` draws: every digraph on at most 3 vertices with
    every colouring of its vertices (red to move), then random ones."""
    from pyasp_games.domains.annihilation.asp import outcome_atoms
    from pyasp_games.domains.catch.model import format_instance, small_instances, strategy

    family = Family(
        "digraphs",
        "digraphs on up to N vertices (self-loops allowed), any red and black tokens",
        strategy=strategy,
        small=small_instances,
        small_help="every digraph on at most 3 vertices up to isomorphism, every colouring, red to move",
        sizes=(3, 5),
        unit="vertices",
    )
    return Fuzzing(
        ("solve",), (family,), size=len, unit="vertices", write=format_instance,
        witness=outcome_atoms, open_outputs=("option/3",),
        measure=lambda inst: f"{plural(len(inst), 'vertex', 'vertices')}",
    )  # fmt: skip
