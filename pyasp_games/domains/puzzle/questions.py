"""The questions the puzzle domain answers, declared once (``pyasp-games puzzle ...``).

``check``: is the board solvable, and why (the inversion-parity invariant; the answer
is verified by a different invariant). ``solve``: an optimal plan by A*, IDA*, IDA*
with pattern databases (``pdb``), ASP or SAT (or a fast non-optimal one, ``greedy``);
every plan is replayed to the goal, and a user encoding's optimality and "no plan
within the bound" are cross-checked against ``pdb``/``idastar`` (:data:`REFERENCE`).
A board file may hold several boards (a set file): each is answered under its own
time limit, after the first in ``--workers`` processes.

>>> from pyasp_games.domains.puzzle.model import parse_board
>>> board = parse_board("1 2 3\\n4 5 6\\n0 7 8")
>>> out = SOLVE.ask(board, "sat")
>>> out.answer, out.witness, out.verdict.verified
(2, 'RR', True)
>>> describe_plan(board, out, {})[0]
'2 moves'
>>> describe_solvability(board, CHECK.ask(board), {})
('solvable', ['  width 3 is odd, so the inversion parity is invariant; 0 inversions is even, the goal has 0'])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from pyasp_games.domains.puzzle.asp import solve_asp
from pyasp_games.domains.puzzle.model import GOALS, Board, load_boards
from pyasp_games.domains.puzzle.native import (
    decide_solvability,
    solve_astar,
    solve_greedy,
    solve_idastar,
    solve_pdb,
)
from pyasp_games.domains.puzzle.sat import solve_sat
from pyasp_games.domains.puzzle.verify import check_outcome, check_solvability
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.question import EMIT_CNF, EMIT_LP, SOLVER, Param, Question, encoding_param
from pyasp_games.engines.reference import Reference, unchecked_claim
from pyasp_games.engines.verdict import UPPER_BOUND
from pyasp_games.errors import InputError

#: The planners: ``backend(board, limits, **options) -> Claim``.
BACKENDS: dict[str, Callable[..., Claim]] = {
    "astar": solve_astar,
    "idastar": solve_idastar,
    "pdb": solve_pdb,
    "greedy": solve_greedy,
    "asp": solve_asp,
    "sat": solve_sat,
}


def _reference(board: Board, options: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """IDA* with additive pattern databases, compiled: with the default partition where
    its databases are cached, else with the ``quick`` partition, whose databases build
    within a fraction of a second of the limit; on boards without databases, IDA* with
    Manhattan distance and linear conflicts. All optimal, all in bounded memory."""
    from pyasp_games.domains.puzzle.databases import database_path, shared_table, tile_partition

    try:
        patterns = tile_partition(board.rows, board.cols, board.goal)
    except InputError:
        return "idastar", {}
    shape = (board.rows, board.cols, board.goal)
    cached = all(database_path(*shape, shared_table(*shape, p)[0]).is_file() for p in patterns)
    return "pdb", {"partition": "default" if cached else "quick"}


def _claims_optimum(outcome: Outcome) -> bool:
    # a plan is checked by replaying it, but not that none is shorter
    return outcome.status == "solved" or unchecked_claim(outcome)


#: A user encoding's plan lengths (optimality) and "no plan within the bound" are
#: cross-checked against an optimal native search.
REFERENCE = Reference("puzzle", _reference, _claims_optimum)


def read_boards(file: Path, goal: str | None = None) -> list[Board]:
    """The boards of a board file or a set file, under ``goal`` (else the file's own)."""
    return load_boards(file, goal)


def describe_plan(board: Board, outcome: Outcome, options: dict[str, Any]) -> tuple[str | None, list[str]]:
    """The formatter of ``solve``: the plan's length (or no plan: unsolvable, or none
    within a bound), then the plan and how it was found."""
    said = None
    if outcome.answer is not None:
        said = f"{outcome.answer} moves"
        if outcome.verdict.kind == UPPER_BOUND:
            said += " (not optimal)"
    elif outcome.status == "no-solution" or outcome.verdict.failed_status == "no-solution":
        bound = outcome.verdict.bound
        said = "no plan (unsolvable)" if bound is None else f"no plan of length <= {bound}"
    lines = []
    if outcome.witness:
        lines.append(f"  plan: {outcome.witness}")
    # a user encoding's "none" is a proof only once the reference confirmed it
    check = outcome.verdict.cross_check
    claimed = check is not None and check.result in ("trusted", "not verified")
    grounds = outcome.certificate
    if isinstance(grounds, dict):  # an unsolvable board: the invariant's terms
        grounds = grounds.get("reason")
    if grounds is not None:
        label = "the encoding's claim" if claimed else "proof"
        lines.append(f"  {label}: {grounds}")
    for key, label in (("nodes", "nodes expanded"), ("horizons", "horizons tried")):
        if key in outcome.stats:
            lines.append(f"  {label}: {outcome.stats[key]}")
    return said, lines


def describe_solvability(
    board: Board, outcome: Outcome, options: dict[str, Any]
) -> tuple[str | None, list[str]]:
    """The formatter of ``check``: solvable or not, then the invariant's argument."""
    if not isinstance(outcome.answer, bool):
        return None, []
    terms = outcome.certificate if isinstance(outcome.certificate, dict) else {}
    reason = str(terms.get("reason", ""))
    return ("solvable" if outcome.answer else "unsolvable"), [f"  {reason.split(': ', 1)[-1]}"]


FILE = Param(
    "file",
    help="A board file: R lines of C integers, 0 the blank ('# goal: blank-first' picks "
    "Korf's goal, '# optimal: N' states the answer); or a set file: '# size: RxC', then one "
    "board per line, an id and its R*C tiles row by row.",
    type=Path,
    to="read",
)
GOAL = Param(
    "goal",
    "--goal",
    "Goal convention (default: the file's '# goal:' header, else blank-last).",
    type=GOALS,
    to="read",
)

CHECK = Question(
    "check",
    "Is the board solvable? With the reason: inversions, blank row, width parity.\n\n"
    "With --json: answer true/false, certificate the invariant's terms and the reason"
    " (counted again by the checker).",
    backends={"native": decide_solvability},
    check=check_solvability,
    read=read_boards,
    describe=describe_solvability,
    params=(FILE, GOAL),
    several=True,
)

SOLVE = Question(
    "solve",
    "Solve optimally and verify the plan (U D L R: the direction the blank moves).\n\n"
    "With --json: answer the plan's length, witness the plan, stats how it was found,"
    " certificate the grounds of a \"no plan\" (the parity invariant's terms, or the bound).",
    backends=BACKENDS,
    check=check_outcome,
    read=read_boards,
    describe=describe_plan,
    params=(
        FILE,
        encoding_param("a bundled encoding (sliding, seed) or an .lp file.", default="sliding"),
        replace(SOLVER, default=None, help="the PySAT solver (default: glucose4, cadical195 with --prune)."),
        Param(
            "partition",
            "--partition",
            "the tile partition (4x4: 6-6-3, 5-5-5, 4-4-4-3; 5x5: 6-6-6-6; any board: quick, or"
            " group sizes such as 4-4; default: 6-6-3 on 4x4, 6-6-6-6 on 5x5).",
            backends=("pdb",),
        ),
        Param(
            "pruning",
            "--pruning",
            "never search a path ending with a redundant move string of up to N moves (0-14,"
            " default 10; 12 pays on 5x5, its automaton takes 10 s to build once; 0: none).",
            type=int,
            backends=("pdb",),
            metavar="N",
        ),
        Param(
            "checkpoint",
            "--checkpoint",
            "a checkpoint file: resume the search from it when it holds this board's state,"
            " save the state there every minute and when a limit stops the search (a new file,"
            " or one written by --checkpoint before; any other file is refused).",
            type=Path,
            backends=("pdb",),
            metavar="FILE",
        ),
        Param(
            "lower_bound",
            "--lower-bound",
            "first horizon from manhattan (default) or pdb[:PARTITION].",
            backends=("asp", "sat"),
        ),
        Param(
            "prune",
            "--prune",
            "none (default) or pdb[:PARTITION]: cut partial plans by pattern databases"
            " inside the solver (sat: needs cadical195, the default then).",
            backends=("asp", "sat"),
        ),
        Param(
            "max_length",
            "--max-length",
            "give up beyond this plan length (no-solution within it).",
            type=int,
            backends=("astar", "idastar", "asp", "sat"),
            to="limits",
        ),
        GOAL,
    ),
    emits=(EMIT_LP, EMIT_CNF),
    reference=REFERENCE,
    several=True,
    workers=True,
    progress={"pdb": "pattern databases"},
)

#: The puzzle domain's questions.
QUESTIONS = (CHECK, SOLVE)
