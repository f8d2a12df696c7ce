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
    """Solve a Kriegspiel ending: White's worst-case moves to mate and a strategy, verified.

    Parameters
    ----------
    m : Metaposition
        White's men and the squares where the unseen black king may be
        (:func:`~pyasp_games.domains.kriegspiel.model.load_metaposition`,
        :func:`~pyasp_games.domains.kriegspiel.model.parse_metaposition`).
    backend : str
        One of :data:`BACKENDS`: ``native`` (retrograde analysis over metapositions),
        ``asp`` (``encoding``, ``emit_lp``; one piece besides the king), ``heuristic`` (an
        evaluation-function player: an upper bound).
    limits : Limits, optional
        What the run may spend (:class:`~pyasp_games.engines.limits.Limits`): wall-clock and
        CPU seconds, memory, and ``max_length``, the most White moves to look for. The
        default sets none but the memory cap
        (:func:`~pyasp_games.engines.limits.default_memory_limit`).
    **options
        ``native`` takes ``progress``; ``asp`` ``encoding`` and ``emit_lp``; the clingo
        options ``clingo_option=[...]``, ``const=[...]``, ``parallel_mode`` (``asp``); and
        ``trust_encoding=True`` (a user encoding's claims that no checker confirms alone are
        then marked trusted instead of cross-checked against the reference backend).

    Returns
    -------
    Outcome
        ``answer`` the number of White moves that mates against every answer of the referee,
        ``witness`` the strategy (nodes keyed by the referee's answers), replayed by the
        checker; the table the answer rests on is ``certificate``. ``no-solution`` when no
        mate is forced within ``limits.max_length`` moves.

    Raises
    ------
    InputError
        An unknown ``backend``, an option the backend does not take (named, with the nearest
        one), or a bad option value (e.g. an encoding file that does not exist, a clingo
        option clingo refuses).

    Notes
    -----
    ``native`` labels every metaposition reachable from the start, round by round;
    the number of metapositions (White's placement times a set of king squares) grows
    exponentially with the board, which keeps the boards small. The approach is that of
    [2]_, on the metapositions of [1]_.

    References
    ----------
    .. [1] A. Bolognesi and P. Ciancarini, "Computer programming of Kriegspiel endings:
       the case of KR vs. K", Advances in Computer Games 10, 2003.
    .. [2] P. Ciancarini and G. P. Favini, "Playing the perfect Kriegspiel endgame",
       Theoretical Computer Science 411, 2010.
    """
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
        # the intended values of the whole universe, and no answer leading outside it:
        # the bundled retrograde program's (the reference answers the root alone); its
        # other atoms fix the interpretation of the encoding's predicates it names (the
        # relaxed program over every metaposition grounds 2.7 million atoms on the
        # smallest KRK failure, 49 s of CPU: benchmarks/RESULTS.md, "The rule to blame in
        # the multi-shot domains"; so bounded, some 16,000 and half a second)
        fixpoint=lambda m: ("retrograde", ("value", "missing")), auxiliary=True,
    )  # fmt: skip


def _applies(m: Metaposition, backend: str) -> bool:
    # the asp backend grounds every reachable metaposition: boards of up to 16 squares,
    # one piece besides the king (so does the heuristic player's evaluation)
    if backend in ("asp", "heuristic") and len(m.piece) != 1:
        return False
    return backend != "asp" or m.board.size <= 16
