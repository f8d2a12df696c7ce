"""Two-person zero-sum games solved exactly: matrix games and games in extensive form.

``BACKENDS`` maps each backend's name to ``(game, limits, **options) -> Claim``:
``simplex`` (the simplex tableau's pivot method, exact; an extensive game goes through its
normal form, the reduced one with ``reduced=True``) and ``lp`` (HiGHS, made
exact; an extensive game through its sequence form) and ``asp`` (clingo guesses
square supports, Python solves their indifference equations exactly; matrix
games only). :func:`solve` runs one
under its limits and checks the certificate exactly: the answer is the value,
the witness both players' optimal strategies (behaviour strategies per
information set for a tree; mixed strategies over pure ones, with the exact bracket of
what behaviour strategies guarantee, for a tree without perfect recall,
:mod:`~pyasp_games.domains.zerosum.recall`). A typed (Bayesian) game is solved by its
Harsanyi tree (:mod:`~pyasp_games.domains.zerosum.bayesian`).

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
    """Solve a two-person zero-sum game exactly: its value and optimal strategies, checked.

    Parameters
    ----------
    game : MatrixGame or ExtensiveGame
        A matrix game or a game tree
        (:func:`~pyasp_games.domains.zerosum.questions.load_game`,
        :func:`~pyasp_games.domains.zerosum.model.make_game`, the Gambit readers of
        :mod:`~pyasp_games.domains.zerosum.gambit`).
    backend : str
        One of :data:`BACKENDS`: ``simplex`` (exact pivoting; a tree through its normal
        form), ``lp`` (HiGHS, made exact; a tree through its sequence form), ``asp``
        (support enumeration, matrix games only).
    limits : Limits, optional
        What the run may spend (:class:`~pyasp_games.engines.limits.Limits`): wall-clock and
        CPU seconds, memory. The default sets none but the memory cap
        (:func:`~pyasp_games.engines.limits.default_memory_limit`).
    **options
        ``simplex`` takes ``reduced`` (a tree through its reduced normal form); ``asp``
        takes ``emit_lp``; and the clingo options ``clingo_option=[...]``, ``const=[...]``,
        ``parallel_mode`` (``asp``).

    Returns
    -------
    Outcome
        ``answer`` the value of the game (a :class:`~fractions.Fraction`, what player II
        pays player I), ``witness`` both players' optimal strategies (``row`` and ``col``
        for a matrix game; behaviour strategies per information set for a tree), checked
        exactly: each strategy guarantees the value against every pure reply.

    Raises
    ------
    InputError
        An unknown ``backend``, an option the backend does not take (named, with the nearest
        one), or a bad option value (e.g. an encoding file that does not exist, a clingo
        option clingo refuses); ``reduced`` given for a matrix game.

    Notes
    -----
    The value exists by the minimax theorem [1]_ and is a linear program. The simplex
    method (Dantzig's rule, then Bland's against cycling) is exact over the rationals
    but exponential in the worst case; an extensive game's normal form is exponential in the
    tree, its
    sequence form [2]_ linear. ``asp`` enumerates square supports, exponentially many.

    References
    ----------
    .. [1] J. von Neumann, "Zur Theorie der Gesellschaftsspiele", Mathematische Annalen
       100, 1928.
    .. [2] D. Koller, N. Megiddo and B. von Stengel, "Efficient computation of
       equilibria for extensive two-person games", Games and Economic Behavior 14(2),
       1996.
    """
    return SOLVE.solve(game, backend, limits, **options)


def _known(game: Game) -> tuple[bool, Any]:
    return (game.known is not None), game.known


def _applies(game: Game, backend: str) -> bool:
    from pyasp_games.domains.zerosum.lp import floating_point_trouble

    if isinstance(game, ExtensiveGame) and game.recall is not None:
        # mixed strategies only: no sequence form
        return backend == "simplex" and game.small_normal_form()
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
