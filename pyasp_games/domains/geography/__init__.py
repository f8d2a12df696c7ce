"""Generalized Geography: who wins, a winning first move, and a line of play.

``BACKENDS`` maps each backend's name to ``(instance, limits, **options) ->
Claim`` with answer ``first`` (the player to move at the start wins) or
``second`` and witness the winning first move (the next vertex; in edge
geography the arc ``[start, next]``) or ``None``. ``native`` searches the game
(every variant), ``asp`` lets clingo derive the game tree (every variant, small
graphs), ``matching`` is the polynomial algorithm for undirected vertex
geography. :func:`solve` runs one under limits and verifies its answer by an
independent brute-force minimax (small graphs; larger ones are cross-checked).

There is no SAT backend (so no ``sat.py``): Generalized Geography is
PSPACE-complete, a quantified (alternating) question that a plain SAT formula of
polynomial size cannot state.

>>> from pyasp_games.domains.geography.model import parse_instance
>>> g = parse_instance("a b\\nb c\\nc d\\n", "b", "vertex", undirected=True)
>>> [(b, solve(g, b).answer, solve(g, b).verdict.verified) for b in BACKENDS]
[('native', 'first', True), ('asp', 'first', True), ('matching', 'first', True)]
>>> solve(g, "native", line=True).stats["line"]
['b', 'a']
"""

from __future__ import annotations

from typing import Any

from pyasp_games.domains.geography.matching import applies
from pyasp_games.domains.geography.model import (
    Geography,
    known_winner,
    load_instance,
    load_instances,
)
from pyasp_games.domains.geography.questions import BACKENDS, QUESTIONS, REFERENCE, SOLVE
from pyasp_games.domains.geography.verify import check_outcome
from pyasp_games.engines.domain import DomainSpec
from pyasp_games.engines.fuzzing import Family, Fuzzing, plural
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome

__all__ = [
    "BACKENDS",
    "QUESTIONS",
    "REFERENCE",
    "check_outcome",
    "domain",
    "load_instance",
    "solve",
]


def solve(game: Geography, backend: str, limits: Limits = Limits(), **options: Any) -> Outcome:
    """Decide who wins a Generalized Geography game and a winning first move, verified.

    Parameters
    ----------
    game : Geography
        The game (:func:`~pyasp_games.domains.geography.model.load_instance`,
        :func:`~pyasp_games.domains.geography.model.parse_instance`): graph, start, variant
        (``vertex`` or ``edge``), directed or not.
    backend : str
        One of :data:`BACKENDS`: ``native`` (every variant), ``asp`` (every variant, small
        graphs), ``matching`` (undirected vertex geography only).
    limits : Limits, optional
        What the run may spend (:class:`~pyasp_games.engines.limits.Limits`): wall-clock and
        CPU seconds, memory. The default sets none but the memory cap
        (:func:`~pyasp_games.engines.limits.default_memory_limit`).
    **options
        ``native`` takes ``line`` (a line of play in ``stats["line"]``); ``asp`` takes
        ``encoding`` and ``emit_lp``; the clingo options ``clingo_option=[...]``,
        ``const=[...]``, ``parallel_mode`` (``asp``); and ``trust_encoding=True`` (a user
        encoding's claims that no checker confirms alone are then marked trusted instead of
        cross-checked against the reference backend).

    Returns
    -------
    Outcome
        ``answer`` ``first`` (the player to move at the start wins) or ``second``;
        ``witness`` the winning first move (the next vertex; in edge geography the arc
        ``[start, next]``) or ``None``. Checked by an independent brute-force minimax on
        small graphs.

    Raises
    ------
    InputError
        An unknown ``backend``, an option the backend does not take (named, with the nearest
        one), or a bad option value (e.g. an encoding file that does not exist, a clingo
        option clingo refuses).

    Notes
    -----
    Generalized Geography is PSPACE-complete [1]_, so ``native`` and ``asp`` are
    exponential in the worst case (``native`` remembers each position it solves).
    Undirected vertex geography is polynomial [2]_: the first player wins exactly when
    every maximum matching covers the start, which ``matching`` decides with one maximum
    matching (Edmonds' blossom algorithm) and one augmenting-path search.

    References
    ----------
    .. [1] T. J. Schaefer, "On the complexity of some two-person perfect-information
       games", Journal of Computer and System Sciences 16(2), 1978.
    .. [2] A. S. Fraenkel, E. R. Scheinerman and D. Ullman, "Undirected edge geography",
       Theoretical Computer Science 112(2), 1993.
    """
    return SOLVE.solve(game, backend, limits, **options)


def _known(game: Geography) -> tuple[bool, Any]:
    winner = known_winner(game)
    return (False, None) if winner is None else (True, winner)


def _applies(game: Geography, backend: str) -> bool:
    return backend != "matching" or applies(game)


def domain() -> DomainSpec:
    """The geography domain for crosscheck: the winner by every backend that applies
    (``matching`` answers undirected vertex geography only)."""
    from pyasp_games.domains.geography.model import random_game

    return DomainSpec.asking(
        SOLVE, load_instances, _known, applies=_applies, generators={"random": random_game},
        questions=QUESTIONS, fuzzing=fuzzing(),
    )  # fmt: skip


def fuzzing() -> Fuzzing:
    """What ``pyasp-games fuzz geography`` draws: one family per variant and direction,
    every small game first. An encoding answers one variant (its header line
    ``% variant: edge``; vertex when it says nothing), and is fuzzed on that variant's
    families, directed and undirected."""
    from functools import partial

    from pyasp_games.domains.geography.model import (
        VARIANTS,
        format_game,
        game_parts,
        game_strategy,
        small_games,
    )

    families = tuple(
        Family(
            variant + ("-undirected" if undirected else ""),
            f"{variant} geography on {'undirected' if undirected else 'directed'} graphs "
            "from the start a",
            strategy=partial(game_strategy, variant=variant, undirected=undirected),
            small=partial(small_games, variant, undirected),
            small_help=f"every {'undirected' if undirected else 'directed'} graph on at most "
            "3 vertices, up to isomorphism keeping the start",
            sizes=(3, 7),
            answers={"variant": variant},
            parts=game_parts,
        )
        for undirected in (False, True)
        for variant in VARIANTS
    )
    return Fuzzing(
        ("solve",), families, size=len, unit="vertices", write=format_game,
        defaults={"variant": "vertex"},
        witness=lambda game, out: [("first_wins", out.answer == "first")],
        measure=lambda game: f"{plural(len(game), 'vertex', 'vertices')}, "
        f"{plural(game.edge_count, 'arc' if game.directed else 'edge')}",
    )  # fmt: skip
