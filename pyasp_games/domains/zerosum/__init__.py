"""Two-person zero-sum games solved exactly: matrix games and games in extensive form.

``BACKENDS`` maps each backend's name to ``(game, limits, **options) -> Claim``:
``simplex`` (the simplex tableau's pivot method, exact; an extensive game goes through its
normal form, the reduced one with ``reduced=True``) and ``lp`` (HiGHS, made
exact; an extensive game through its sequence form) and ``asp`` (clingo guesses
square supports, Python solves their indifference equations exactly; matrix
games only). :func:`solve` runs one
under its limits and checks the certificate exactly: the answer is the value,
the witness both players' optimal strategies (behaviour strategies per
information set for a tree).

>>> from pyasp_games.domains.zerosum.model import make_game
>>> game = make_game([[-2, 3], [3, -4]], name="odd-even")
>>> out = solve(game, "simplex")
>>> out.answer, [str(p) for p in out.witness["row"]], out.verdict.verified
(Fraction(1, 12), ['7/12', '5/12'], True)
>>> [solve(game, b).answer for b in BACKENDS]
[Fraction(1, 12), Fraction(1, 12), Fraction(1, 12)]
"""

from __future__ import annotations

from typing import Any

from pyasp_games.domains.zerosum.extensive import ExtensiveGame
from pyasp_games.domains.zerosum.model import MatrixGame
from pyasp_games.domains.zerosum.questions import BACKENDS, QUESTIONS, SOLVE, Game, load_game
from pyasp_games.domains.zerosum.verify import check_outcome
from pyasp_games.engines.domain import DomainSpec
from pyasp_games.engines.fuzzing import Family, Fuzzing
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome

__all__ = ["BACKENDS", "QUESTIONS", "ExtensiveGame", "MatrixGame", "check_outcome", "domain",
           "load_game", "solve"]


def solve(game: Game, backend: str, limits: Limits = Limits(), **options: Any) -> Outcome:
    """Run ``backend`` on ``game`` under ``limits``; time it and check its certificate
    (:data:`~pyasp_games.domains.zerosum.questions.SOLVE`)."""
    return SOLVE.solve(game, backend, limits, **options)


def _known(game: Game) -> tuple[bool, Any]:
    return (game.known is not None), game.known


def _applies(game: Game, backend: str) -> bool:
    from pyasp_games.domains.zerosum.lp import floating_point_trouble

    if backend == "lp":  # payoffs floating point cannot hold: the exact backends answer
        return floating_point_trouble(game) is None
    if isinstance(game, ExtensiveGame):
        return backend == "simplex" and game.small_normal_form()
    return True


def domain() -> DomainSpec:
    """The zerosum domain for crosscheck and bench (answers: the exact value)."""
    from pyasp_games.domains.zerosum.model import random_matrix
    from pyasp_games.domains.zerosum.poker import kuhn_poker, leduc_poker

    return DomainSpec.asking(
        SOLVE,
        lambda path: [load_game(path)],
        _known,
        applies=_applies,
        generators={"matrix": random_matrix, "kuhn": kuhn_poker, "leduc": leduc_poker},
        questions=QUESTIONS, fuzzing=fuzzing(),
    )  # fmt: skip


def fuzzing() -> Fuzzing:
    """What ``pyasp-games fuzz zerosum`` draws, for ``saddle``: every tiny matrix first
    (ties included), then random integer matrices up to 6 x 6."""
    from pyasp_games.domains.zerosum.model import format_matrix, matrix_strategy, small_matrices

    matrices = Family(
        "matrix", "integer payoff matrices of 1 x 2 to 6 x 6, entries -3..3",
        strategy=matrix_strategy, small=small_matrices,
        small_help="every 2 x 2 (and 1 x 2, 2 x 1) matrix over -1, 0, 1 and every 2 x 3 and "
        "3 x 2 one over 0, 1",
        sizes=(2, 6), unit="rows and columns",
    )
    return Fuzzing(
        ("saddle",), (matrices,), size=lambda game: game.shape[0] * game.shape[1],
        unit="entries", write=format_matrix,
        measure=lambda game: f"{game.shape[0]} x {game.shape[1]} matrix",
        witness=lambda game, out: [(f"saddle({i},{j})", True) for i, j in out.witness],
    )  # fmt: skip
