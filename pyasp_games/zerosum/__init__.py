"""Two-person zero-sum games solved exactly: matrix games and games in extensive form.

``BACKENDS`` maps each backend's name to ``(game, limits, **options) -> Outcome``:
``simplex`` (the seed's tableau method, exact; an extensive game goes through its
normal form, the reduced one with ``reduced=True``) and ``lp`` (HiGHS, made
exact; an extensive game through its sequence form) and ``asp`` (clingo guesses
square supports, Python solves their indifference equations exactly; matrix
games only). :func:`solve` runs one
under its limits and checks the certificate exactly: the answer is the value,
the witness both players' optimal strategies (behaviour strategies per
information set for a tree).

>>> from pyasp_games.zerosum.model import make_game
>>> game = make_game([[-2, 3], [3, -4]], name="odd-even")
>>> out = solve(game, "simplex")
>>> out.answer, [str(p) for p in out.witness["row"]], out.stats["verified"]
(Fraction(1, 12), ['7/12', '5/12'], True)
>>> [solve(game, b).answer for b in BACKENDS]
[Fraction(1, 12), Fraction(1, 12), Fraction(1, 12)]
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from pyasp_games.engines.domain import DomainSpec, bundled_files
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.runner import run_backend
from pyasp_games.zerosum.asp import solve_asp
from pyasp_games.zerosum.extensive import ExtensiveGame, load_extensive
from pyasp_games.zerosum.lp import solve_lp
from pyasp_games.zerosum.model import MatrixGame, load_matrix
from pyasp_games.zerosum.native import solve_simplex
from pyasp_games.zerosum.verify import check_outcome

Game = MatrixGame | ExtensiveGame


def _simplex(game: Game, limits: Limits = Limits(), **options: Any) -> Outcome:
    if isinstance(game, ExtensiveGame):
        from pyasp_games.zerosum.extensive import solve_normal_form

        return solve_normal_form(game, limits, **options)
    return solve_simplex(game, limits)


def _lp(game: Game, limits: Limits = Limits(), **options: Any) -> Outcome:
    if isinstance(game, ExtensiveGame):
        from pyasp_games.zerosum.extensive import solve_sequence_form

        return solve_sequence_form(game, limits)
    return solve_lp(game, limits)


BACKENDS: dict[str, Callable[..., Outcome]] = {
    "simplex": _simplex,
    "lp": _lp,
    "asp": solve_asp,
}

__all__ = ["BACKENDS", "ExtensiveGame", "MatrixGame", "check_outcome", "domain", "load_game",
           "solve"]


def load_game(path: Path | str) -> Game:
    """A game file: ``.json`` is an extensive-form tree, anything else a text matrix."""
    path = Path(path)
    if path.suffix == ".json":
        return load_extensive(path)
    return load_matrix(path)


def solve(game: Game, backend: str, limits: Limits = Limits(), **options: Any) -> Outcome:
    """Run ``backend`` on ``game`` under ``limits``; time it and check its certificate."""
    return run_backend(BACKENDS, backend, game, game.name, limits, check_outcome, **options)


def _known(game: Game) -> tuple[bool, Any]:
    return (game.known is not None), game.known


def _applies(game: Game, backend: str) -> bool:
    if isinstance(game, ExtensiveGame):
        return backend == "lp" or (backend == "simplex" and game.small_normal_form())
    return True


def domain() -> DomainSpec:
    """The zerosum domain for crosscheck and bench (answers: the exact value)."""
    from pyasp_games.zerosum.model import random_matrix
    from pyasp_games.zerosum.poker import kuhn_poker, leduc_poker

    return DomainSpec(
        name="zerosum",
        backend_names=list(BACKENDS),
        solve=solve,
        load_file=lambda path: [load_game(path)],
        bundled_files=lambda: bundled_files("zerosum"),
        known=_known,
        applies=_applies,
        generators={"matrix": random_matrix, "kuhn": kuhn_poker, "leduc": leduc_poker},
    )
