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
    """Run ``backend`` under ``limits``; time and verify it (a user encoding's unverified
    winner is cross-checked against ``native`` unless ``trust_encoding=True``;
    :data:`~pyasp_games.domains.geography.questions.SOLVE`)."""
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
