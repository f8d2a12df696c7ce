"""Kriegspiel endings: White's king and rook (or queen, two bishops, bishop and knight)
against a king White cannot see,
with a referee who answers every attempt (solved exactly as in Ciancarini and Favini,
"Playing the perfect Kriegspiel endgame", Theoretical Computer Science 411, 2010).

White's knowledge is a **metaposition** (the squares where the black king may be);
the questions (:mod:`pyasp_games.domains.kriegspiel.questions`) ask whether White forces mate
from one in the worst case, how fast, and with which strategy. ``native`` computes the
exact worst-case value by retrograde analysis over the reachable metapositions
(:mod:`~pyasp_games.domains.kriegspiel.tablebase`); ``asp`` lets clingo decide "mate within d"
level by level with the referee's rules stated in ASP (small boards); ``heuristic`` is
an evaluation-function player after Bolognesi and Ciancarini
(:mod:`~pyasp_games.domains.kriegspiel.heuristic`), its strategy an upper bound when it mates.
Every strategy is replayed by an independent checker with its own move generator
(:mod:`~pyasp_games.domains.kriegspiel.verify`).

There is no SAT backend (so no ``sat.py``): "White forces mate within k" alternates
White's choices with the referee's answers and Black's replies k times over, a
quantified question that a plain SAT formula of polynomial size cannot state.

>>> from pyasp_games.domains.kriegspiel.model import parse_metaposition
>>> out = solve(parse_metaposition("4/4/1R2/K3 unknown"), "native")
>>> out.status, out.answer, out.verdict.verified
('solved', 8, True)
"""

from __future__ import annotations

from typing import Any

from pyasp_games.domains.kriegspiel.model import (
    Metaposition,
    known_value,
    load_metaposition,
    load_metapositions,
    parse_metaposition,
)
from pyasp_games.domains.kriegspiel.questions import BACKENDS, QUESTIONS, SOLVE
from pyasp_games.domains.kriegspiel.verify import check_outcome
from pyasp_games.engines.domain import DomainSpec
from pyasp_games.engines.fuzzing import Family, Fuzzing
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome

__all__ = [
    "BACKENDS",
    "QUESTIONS",
    "check_outcome",
    "domain",
    "load_metaposition",
    "parse_metaposition",
    "solve",
]


def solve(m: Metaposition, backend: str, limits: Limits = Limits(), **options: Any) -> Outcome:
    """Run ``backend`` on ``m`` under ``limits``, timed and verified
    (:data:`~pyasp_games.domains.kriegspiel.questions.SOLVE`)."""
    return SOLVE.solve(m, backend, limits, **options)


def domain() -> DomainSpec:
    """The kriegspiel domain for crosscheck and bench: ``solve`` by every backend, the
    answers compared with the value stated in each bundled start's name."""
    from pyasp_games.domains.kriegspiel.model import random_start

    return DomainSpec.asking(
        SOLVE, load_metapositions, known_value, generators={"start": random_start},
        questions=QUESTIONS, applies=_applies, fuzzing=fuzzing(),
    )  # fmt: skip


def fuzzing() -> Fuzzing:
    """What ``pyasp-games fuzz kriegspiel`` draws: metapositions on boards the ASP
    backend reaches (up to 4 x 4), every 3 x 3 start first; KRK, or KQK (``--family kqk``)."""
    from functools import partial

    from pyasp_games.domains.kriegspiel.model import (
        ONE_PIECE,
        format_metaposition,
        metaposition_strategy,
        small_metapositions,
    )

    families = tuple(
        Family(
            f"k{piece.lower()}k",
            f"K{piece}K metapositions on 3 x 3 to 4 x 4 boards, the black king on some of its "
            "legal squares",
            strategy=partial(metaposition_strategy, piece=piece),
            small=partial(small_metapositions, piece),
            small_help="every full-uncertainty start on 3 x 3",
            sizes=(3, 4),
            unit="board side",
        )
        for piece in ONE_PIECE
    )
    return Fuzzing(
        ("solve",), families, size=lambda m: m.board.size, unit="squares",
        write=format_metaposition, measure=lambda m: m.describe(),
    )  # fmt: skip


def _applies(m: Metaposition, backend: str) -> bool:
    # the asp backend grounds every reachable metaposition: boards of up to 16 squares,
    # one piece besides the king (so does the heuristic player's evaluation)
    if backend in ("asp", "heuristic") and len(m.piece) != 1:
        return False
    return backend != "asp" or m.board.size <= 16
