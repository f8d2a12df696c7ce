"""Sliding-tile puzzles (R x C; the 15-puzzle is 4 x 4).

The domain started from A. Aleksic, "Instradamento di permutazioni su grafi tramite
accoppiamenti con applicazione al gioco del 15" (thesis, University of Udine, 2025):
its ASP encoding is the bundled ``seed`` encoding, the baseline; its three test boards
are ``instances/puzzle/thesis-board*.txt``.

``BACKENDS`` maps each backend's name to a function ``(board, limits, **options)
-> Claim``; :func:`solve` is the one entry point the CLI, crosscheck and bench
use: it runs a backend under its limits, times it, verifies its claim and gives the
:class:`~pyasp_games.engines.outcome.Outcome`.

>>> board = parse_board("1 2 3\\n4 5 6\\n7 0 8")
>>> out = solve(board, "sat")
>>> out.status, out.answer, out.witness, out.verdict.verified
('solved', 1, 'R', True)
"""

from __future__ import annotations

from typing import Any

from pyasp_games.domains.puzzle.model import Board, load_boards, parse_board, parse_set, solvability
from pyasp_games.domains.puzzle.questions import BACKENDS, CHECK, QUESTIONS, REFERENCE, SOLVE
from pyasp_games.domains.puzzle.verify import check_outcome
from pyasp_games.engines.domain import DomainSpec
from pyasp_games.engines.fuzzing import Family, Fuzzing
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome

__all__ = [
    "BACKENDS",
    "CHECK",
    "QUESTIONS",
    "REFERENCE",
    "SOLVE",
    "Board",
    "check_outcome",
    "domain",
    "load_boards",
    "parse_board",
    "parse_set",
    "solvability",
    "solve",
]


def solve(board: Board, backend: str, limits: Limits = Limits(), **options: Any) -> Outcome:
    """Run ``backend`` on ``board`` under ``limits``; time and verify the outcome
    (:data:`~pyasp_games.domains.puzzle.questions.SOLVE`).

    A reached limit gives ``unknown``; a witness that fails verification turns
    the outcome into ``error`` with the reason in ``stats`` (never dropped). A user
    encoding's optimality and bounded "no plan" claims are cross-checked against
    ``pdb``/``idastar`` (:data:`REFERENCE`) unless ``trust_encoding=True``.
    """
    return SOLVE.solve(board, backend, limits, **options)


def _known(board: Board) -> tuple[bool, Any]:
    if board.known is None:
        return False, None
    return True, None if board.known == "none" else board.known


def domain() -> DomainSpec:
    """The puzzle domain for crosscheck and bench."""
    from pyasp_games.domains.puzzle.model import random_walk_board

    return DomainSpec.asking(
        SOLVE, load_boards, _known, generators={"walk": random_walk_board},
        questions=QUESTIONS, fuzzing=fuzzing(),
    )  # fmt: skip


def fuzzing() -> Fuzzing:
    """What ``pyasp-games fuzz puzzle`` draws: small boards, every 2 x 2 board first,
    then random scrambles (some made unsolvable)."""
    from pyasp_games.domains.puzzle.model import board_strategy, format_board, small_boards

    boards = Family(
        "scramble",
        "boards 2 x 2 to 3 x 3 (square or not) a random walk away from either goal (blank "
        "last or first), some made unsolvable",
        strategy=board_strategy,
        small=small_boards,
        small_help="every 2 x 2 board, and every 2 x 3 and 3 x 2 board within 4 moves of "
        "the goal, for both goal conventions",
        sizes=(4, 16),
        unit="scramble moves",
    )
    return Fuzzing(
        ("solve",), (boards,), size=lambda board: board.size, unit="cells", write=format_board,
        measure=lambda board: f"{board.rows} x {board.cols} board",
    )  # fmt: skip
