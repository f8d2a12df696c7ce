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
    """Who wins from the start, verified (:data:`~pyasp_games.domains.cops.questions.SOLVE`)."""
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
    )  # fmt: skip
