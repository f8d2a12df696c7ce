"""Annihilation: tokens on a digraph slide along arcs and vanish in pairs; who wins, or a draw.

``BACKENDS`` maps each backend's name to ``(instance, limits, **options) ->
Claim`` with answer ``first`` (the player to move wins), ``second`` or ``draw``
and witness the move ``[from, to]`` that wins or keeps the draw. ``native`` labels
every reachable position by retrograde analysis, ``asp`` derives them with clingo
from the rules (small instances), ``poly`` builds the linear space of lost positions
until it proves it complete (:mod:`~pyasp_games.domains.annihilation.poly`: every
answer, ``draw`` included, comes with a proof the checker replays). :func:`solve` runs one
under limits and verifies its answer (:mod:`~pyasp_games.domains.annihilation.verify`).

The Catch domain (``pyasp_games.domains.catch``) plays the partisan version on the
same machinery (:mod:`~pyasp_games.domains.annihilation.positions`).

There is no SAT backend (so no ``sat.py``): the outcome of a loopy game is a
fixpoint (win, loss, draw) over exponentially many positions, not one satisfiable
formula (``poly`` asks a SAT solver only narrow questions on the way). Fraenkel and
Yesha's own polynomial algorithm was not available here; the one shipped is derived and
checked in ``docs/annihilation.md``, "The polynomial algorithm".

>>> from pyasp_games.domains.annihilation.model import parse_instance
>>> inst = parse_instance("a b\\nb a\\nb c\\n", "b c")
>>> [(b, solve(inst, b).answer, solve(inst, b).verdict.verified) for b in ("native", "asp")]
[('native', 'first', True), ('asp', 'first', True)]
>>> dag = parse_instance("a b\\nb c\\nc d\\nd e\\n", "b c e")
>>> [(b, solve(dag, b).answer, solve(dag, b).verdict.verified) for b in BACKENDS]
[('native', 'first', True), ('asp', 'first', True), ('poly', 'first', True)]
"""

from __future__ import annotations

from typing import Any

from pyasp_games.domains.annihilation.model import Annihilation, known_outcome, load_instances
from pyasp_games.domains.annihilation.questions import BACKENDS, QUESTIONS, REFERENCE, SOLVE
from pyasp_games.engines.domain import DomainSpec, within_limits
from pyasp_games.engines.fuzzing import Family, Fuzzing, plural
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome

__all__ = ["BACKENDS", "QUESTIONS", "REFERENCE", "domain", "solve"]


def solve(inst: Annihilation, backend: str, limits: Limits = Limits(), **options: Any) -> Outcome:
    """Decide who wins an Annihilation game (or that it is a draw) and a good move, verified.

    Parameters
    ----------
    inst : Annihilation
        The digraph and its tokens
        (:func:`~pyasp_games.domains.annihilation.model.load_instance`,
        :func:`~pyasp_games.domains.annihilation.model.parse_instance`).
    backend : str
        One of :data:`BACKENDS`: ``native`` (retrograde analysis), ``asp`` (small
        instances), ``poly`` (the linear space of lost positions, with a proof).
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
        the move ``[from, to]`` that wins or keeps the draw, or ``None``. Checked from the
        rules (``poly``'s proof replayed).

    Raises
    ------
    InputError
        An unknown ``backend``, an option the backend does not take (named, with the nearest
        one), or a bad option value (e.g. an encoding file that does not exist, a clingo
        option clingo refuses).

    Notes
    -----
    ``native`` and ``asp`` label every reachable position: exponentially many in the
    number of tokens. ``poly`` is polynomial but for narrow SAT questions on the way
    (docs/annihilation.md, "The polynomial algorithm"); [1]_ decides the game in
    polynomial time through a generalized Sprague-Grundy function.

    References
    ----------
    .. [1] A. S. Fraenkel and Y. Yesha, "Theory of annihilation games - I", Journal of
       Combinatorial Theory, Series B 33(1), 1982.
    """
    return SOLVE.solve(inst, backend, limits, **options)


def _known(inst: Annihilation) -> tuple[bool, Any]:
    outcome = known_outcome(inst)
    return (False, None) if outcome is None else (True, outcome)


def domain() -> DomainSpec:
    """The annihilation domain for crosscheck, bench and fuzz."""
    from pyasp_games.domains.annihilation.model import random_instance

    return DomainSpec.asking(
        SOLVE, load_instances, _known, generators={"random": random_instance},
        questions=QUESTIONS, fuzzing=fuzzing(), applies=within_limits("asp", "pyasp_games.domains.annihilation.asp:check_size"),
    )  # fmt: skip


def fuzzing() -> Fuzzing:
    """What ``pyasp-games fuzz annihilation`` draws: every digraph on at most 3 vertices
    with every placement of tokens, then random ones."""
    from pyasp_games.domains.annihilation.asp import outcome_atoms
    from pyasp_games.domains.annihilation.model import format_instance, small_instances, strategy

    family = Family(
        "digraphs",
        "digraphs on up to N vertices (self-loops allowed) with any tokens",
        strategy=strategy,
        small=small_instances,
        small_help="every digraph on at most 3 vertices up to isomorphism, every token placement",
        sizes=(3, 6),
        unit="vertices",
    )
    return Fuzzing(
        ("solve",), (family,), size=len, unit="vertices", write=format_instance,
        witness=outcome_atoms, open_outputs=("option/3",),
        measure=lambda inst: f"{plural(len(inst), 'vertex', 'vertices')}, "
        f"{plural(len(inst.tokens), 'token')}",
    )  # fmt: skip
