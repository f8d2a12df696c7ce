"""Sliding-tile puzzles (R x C, the 15-puzzle first): model, native, asp, sat, verify.

``BACKENDS`` maps each backend's name to a function ``(board, limits, **options)
-> Outcome``; :func:`solve` is the one entry point the CLI, crosscheck and bench
use: it runs a backend under its limits, times it, and verifies its answer.

>>> board = parse_board("1 2 3\\n4 5 6\\n7 0 8")
>>> out = solve(board, "sat")
>>> out.status, out.answer, out.witness, out.stats["verified"]
('solved', 1, 'R', True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pyasp_games.engines.domain import DomainSpec, bundled_files
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.reference import Reference, unchecked_claim
from pyasp_games.engines.runner import run_backend
from pyasp_games.errors import InputError
from pyasp_games.puzzle.asp import solve_asp
from pyasp_games.puzzle.model import Board, load_boards, parse_board, parse_set, solvability
from pyasp_games.puzzle.native import solve_astar, solve_greedy, solve_idastar, solve_pdb
from pyasp_games.puzzle.sat import solve_sat
from pyasp_games.puzzle.verify import check_outcome

BACKENDS: dict[str, Callable[..., Outcome]] = {
    "astar": solve_astar,
    "idastar": solve_idastar,
    "pdb": solve_pdb,
    "greedy": solve_greedy,
    "asp": solve_asp,
    "sat": solve_sat,
}

__all__ = [
    "BACKENDS",
    "Board",
    "check_outcome",
    "domain",
    "load_boards",
    "parse_board",
    "parse_set",
    "solvability",
    "solve",
]


def describe(outcome: Outcome, options: dict[str, Any] | None = None) -> str:
    """The answer in words: an optimal plan (shown) or none (within a bound)."""
    if outcome.status == "solved":
        return f"an optimal plan of {outcome.answer} moves ({outcome.witness})"
    bound = outcome.stats.get("bounded")
    return "no plan (unsolvable)" if bound is None else f"no plan of length <= {bound}"


def _reference(board: Board, options: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """IDA* with additive pattern databases where they are already built (cached), else
    IDA* with Manhattan distance and linear conflicts: both optimal, both in bounded
    memory, neither with one-off work inside the limit."""
    from pyasp_games.puzzle.pattern_databases import database_path, tile_partition

    try:
        patterns = tile_partition(board.rows, board.cols, board.goal)
    except InputError:
        return "idastar", {}
    cached = all(
        database_path(board.rows, board.cols, board.goal, tuple(sorted(p))).is_file()
        for p in patterns
    )
    return ("pdb", {}) if cached else ("idastar", {})


def _claims_optimum(outcome: Outcome) -> bool:
    # a plan is checked by replaying it, but not that none is shorter
    return outcome.status == "solved" or unchecked_claim(outcome)


#: A user encoding's plan lengths (optimality) and "no plan within the bound" are
#: cross-checked against an optimal native search.
REFERENCE = Reference("puzzle", _reference, describe, _claims_optimum)


def solve(board: Board, backend: str, limits: Limits = Limits(), **options: Any) -> Outcome:
    """Run ``backend`` on ``board`` under ``limits``; time and verify the outcome.

    A reached limit gives ``unknown``; a witness that fails verification turns
    the outcome into ``error`` with the reason in ``stats`` (never dropped). A user
    encoding's optimality and bounded "no plan" claims are cross-checked against
    ``pdb``/``idastar`` (:data:`REFERENCE`) unless ``trust_encoding=True``.
    """
    return run_backend(
        BACKENDS, backend, board, board.name, limits, check_outcome, REFERENCE, **options
    )


def _known(board: Board) -> tuple[bool, Any]:
    if board.known is None:
        return False, None
    return True, None if board.known == "none" else board.known


def domain() -> DomainSpec:
    """The puzzle domain for crosscheck and bench."""
    from pyasp_games.puzzle.model import random_walk_board

    return DomainSpec(
        name="puzzle",
        backend_names=list(BACKENDS),
        solve=solve,
        load_file=load_boards,
        bundled_files=lambda: bundled_files("puzzle"),
        known=_known,
        encoding_backend="asp",
        default_encodings=["sliding"],
        prepare=prepare,
        generators={"walk": random_walk_board},
    )


def prepare(boards: Sequence[Board], backends: Sequence[Any], progress: Any = None) -> None:
    """Build (or load) the pattern databases the ``pdb`` backends will need.

    ``progress(label)`` may return a callback for the build's progress reports.
    """
    from pyasp_games.puzzle.pattern_databases import pattern_database, tile_partition

    needed = set()
    for spec in backends:
        if spec.backend == "pdb":
            partition = spec.options.get("partition", "default")
            for b in boards:
                needed |= {
                    (b.rows, b.cols, b.goal, p)
                    for p in tile_partition(b.rows, b.cols, b.goal, partition)
                }
    for rows, cols, goal, tiles in sorted(needed):
        label = f"pattern database {rows}x{cols} {goal} tiles {list(tiles)}"
        pattern_database(rows, cols, goal, tiles, progress=progress(label) if progress else None)
