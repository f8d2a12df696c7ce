"""Cops and Robbers: who wins, in how many moves, and the cop number, each proved.

Two rule sets, named in every answer: the classic one (every cop moves or stays, a cop on
the robber's vertex captures; the cop number c(G)) and the notes' "robber and k cops" (one
cop moves to a free neighbour, the robber is trapped when every neighbour holds a cop).
``native`` is retrograde analysis over positions (cop placements as sorted tuples, the
robber, the side to move), compiled; one cop is also decided by dismantlability. ``asp``
derives the cop-win positions as a least fixpoint, round by round; ``sat`` unrolls "the
cops capture within t rounds".

>>> from pyasp_games.domains.cops.model import load_graph_game, parse_instance
>>> number(load_graph_game("petersen")).answer
3
>>> g = parse_instance("a b\\nb c\\nc d\\n", cops="a", robber="d", variant="notes")
>>> out = solve(g, "native")
>>> out.answer, out.verdict.verified
({'winner': 'robber', 'moves': None}, True)
"""

from __future__ import annotations

from typing import Any

from pyasp_games.domains.cops.model import CopsGame, known_answer, load_instances
from pyasp_games.domains.cops.questions import BACKENDS, NUMBER, QUESTIONS, SOLVE
from pyasp_games.engines.domain import DomainSpec
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome

__all__ = ["BACKENDS", "QUESTIONS", "CopsGame", "domain", "number", "solve"]


def solve(game: CopsGame, backend: str, limits: Limits = Limits(), **options: Any) -> Outcome:
    """Decide who wins a game of Cops and Robbers from its start, and in how many moves, verified.

    Parameters
    ----------
    game : CopsGame
        The graph, the start (cops, robber, who moves) and the rule set, ``classic`` or
        ``notes`` (:func:`~pyasp_games.domains.cops.model.load_game`,
        :func:`~pyasp_games.domains.cops.model.parse_instance`).
    backend : str
        One of :data:`BACKENDS`: ``native`` (retrograde analysis), ``asp`` (the cop-win
        positions as a least fixpoint), ``sat`` (capture within t rounds, unrolled).
    limits : Limits, optional
        What the run may spend (:class:`~pyasp_games.engines.limits.Limits`): wall-clock and
        CPU seconds, memory. The default sets none but the memory cap
        (:func:`~pyasp_games.engines.limits.default_memory_limit`).
    **options
        ``asp`` takes ``encoding`` and ``emit_lp``; ``sat`` ``solver``; the clingo options
        ``clingo_option=[...]``, ``const=[...]``, ``parallel_mode`` (``asp``); and
        ``trust_encoding=True`` (a user encoding's claims that no checker confirms alone are
        then marked trusted instead of cross-checked against the reference backend).

    Returns
    -------
    Outcome
        ``answer`` ``{"winner": "cops" | "robber", "moves": n | None}`` (``moves``: the
        moves to capture under optimal play, when the cops win); ``witness`` the winner's
        strategy table keyed by positions, replayed by the checker.

    Raises
    ------
    InputError
        An unknown ``backend``, an option the backend does not take (named, with the nearest
        one), or a bad option value (e.g. an encoding file that does not exist, a clingo
        option clingo refuses).

    Notes
    -----
    ``native`` labels O(n^(k+1)) positions (``n`` vertices, ``k`` cops: the cop
    placements, the robber, the side to move), polynomial for a fixed ``k``; the cop
    number itself (:func:`number`) is NP-hard in general [3]_. The classic rules are
    those of [1]_ and [2]_.

    References
    ----------
    .. [1] R. Nowakowski and P. Winkler, "Vertex-to-vertex pursuit in a graph",
       Discrete Mathematics 43, 1983.
    .. [2] A. Quilliot, "Problèmes de jeux, de point fixe, de connectivité et de
       représentation sur des graphes, des ensembles ordonnés et des hypergraphes",
       thèse d'État, Université Paris VI, 1983.
    .. [3] F. V. Fomin, P. A. Golovach, J. Kratochvíl, N. Nisse and K. Suchan,
       "Pursuing a fast robber on a graph", Theoretical Computer Science 411, 2010.
    """
    return SOLVE.solve(game, backend, limits, **options)


def number(game: CopsGame, backend: str = "native", limits: Limits = Limits()) -> Outcome:
    """The cop number with both proofs, verified
    (:data:`~pyasp_games.domains.cops.questions.NUMBER`)."""
    return NUMBER.solve(game, backend, limits)


#: crosscheck runs the asp backend on games it grounds in about a second or two.
CROSSCHECK_GROUND = 200_000


def _applies(game: CopsGame, backend: str) -> bool:
    from pyasp_games.domains.cops.asp import ground_size

    return backend != "asp" or ground_size(game, game.k) <= CROSSCHECK_GROUND


def _known(game: CopsGame) -> tuple[bool, Any]:
    answer = known_answer(game)
    return (False, None) if answer is None else (True, answer)


def domain() -> DomainSpec:
    """The cops domain: crosscheck and bench ask ``solve`` of every backend."""
    from pyasp_games.domains.cops.model import random_game

    return DomainSpec.asking(
        SOLVE, load_instances, _known, applies=_applies, generators={"random": random_game},
        questions=QUESTIONS, fuzzing=fuzzing(),
    )  # fmt: skip


def fuzzing() -> Any:
    """What ``pyasp-games fuzz cops`` draws: one family per rule set, the small graphs
    first."""
    from functools import partial

    from pyasp_games.domains.cops.model import VARIANTS, format_game, game_strategy, small_games
    from pyasp_games.engines.fuzzing import Family, Fuzzing, plural

    families = tuple(
        Family(
            variant,
            f"{variant} Cops and Robbers on random graphs, one or two cops",
            strategy=partial(game_strategy, variant=variant),
            small=partial(small_games, variant),
            small_help="every connected graph on 2 to 4 vertices, one cop on a, the robber "
            "on each other vertex",
            sizes=(3, 6),
            answers={"variant": variant},
        )
        for variant in VARIANTS
    )
    return Fuzzing(
        ("solve",), families, size=len, unit="vertices", write=format_game,
        defaults={"variant": "classic"},
        measure=lambda g: f"{plural(len(g), 'vertex', 'vertices')}, "
        f"{plural(len(g.graph.edges), 'edge')}, {plural(g.k, 'cop')}",
        # the intended rounds of every position and the cops' moves: the bundled program
        # of the game's rules (the reference answers the start alone)
        fixpoint=lambda g: (g.variant, ("cw_at", "rw_at", "jmove" if g.variant == "classic" else "cmove")),
    )  # fmt: skip
