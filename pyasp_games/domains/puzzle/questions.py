"""The questions the puzzle domain answers, declared once (``pyasp-games puzzle ...``).

``check``: is the board solvable, and why (the inversion-parity invariant; the answer
is verified by a different invariant, the thesis's permutation parity, also shown).
``permutation``: a permutation's notations, inverse, order and parity both ways.
``search``: A* or IDA* on a weighted graph with a heuristic table, expansion by
expansion, the cost checked against networkx. ``solve``: an optimal plan by A*, IDA*, IDA*
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
>>> said, (invariant, thesis) = describe_solvability(board, CHECK.ask(board), {})
>>> said, invariant
('solvable', '  width 3 is odd, so the inversion parity is invariant; 0 inversions is even, the goal has 0')
>>> thesis
"  as the thesis argues: the cells' permutation (7 9 8) (the blank as 9) is 2 transpositions (even), the blank is 2 moves from home (even): the parities agree"
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from pyasp_games.domains.puzzle.asp import solve_asp
from pyasp_games.domains.puzzle.graph_search import SearchProblem, read_search
from pyasp_games.domains.puzzle.model import GOALS, Board, load_boards
from pyasp_games.domains.puzzle.native import (
    decide_solvability,
    search_astar,
    search_idastar,
    solve_astar,
    solve_greedy,
    solve_idastar,
    solve_pdb,
    solve_permutation,
)
from pyasp_games.domains.puzzle.permutations import PermutationQuery, read_permutation
from pyasp_games.domains.puzzle.sat import solve_sat
from pyasp_games.domains.puzzle.verify import (
    check_outcome,
    check_permutation,
    check_search,
    check_solvability,
)
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
    lines = [f"  {reason.split(': ', 1)[-1]}"]
    if "permutation" in terms:  # the thesis's argument (3.1.4): the same parity, another way
        t, d = terms["transpositions"], terms["blank_distance"]
        lines.append(
            f"  as the thesis argues: the cells' permutation {terms['permutation']} (the blank "
            f"as {board.size if board.goal == 'blank-last' else 1}) is {t} transposition{'' if t == 1 else 's'} "
            f"({'even' if t % 2 == 0 else 'odd'}), the blank is {d} moves from home "
            f"({'even' if d % 2 == 0 else 'odd'}): the parities {'agree' if t % 2 == d % 2 else 'differ'}"
        )
    return ("solvable" if outcome.answer else "unsolvable"), lines


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

def _shown(items: list[int], most: int = 30) -> str:
    """An array, its middle left out beyond ``most`` entries (``--json`` has them all)."""
    if len(items) <= most:
        return "[" + ", ".join(map(str, items)) + "]"
    return "[" + ", ".join(map(str, items[:most])) + f", ... ({len(items)} in all)]"


def _short(text: str, most: int = 300) -> str:
    return text if len(text) <= most else text[:most] + " ... (--json has it all)"


def describe_permutation(
    query: PermutationQuery, outcome: Outcome, options: dict[str, Any]
) -> tuple[str | None, list[str]]:
    """``permutation``: the cycle notation, then the array, the inverse, the order and
    the parity both ways (and the compositions)."""
    if outcome.answer is None:
        return None, []
    w, n = outcome.witness, len(query.perm)
    lines = [f"  array: {_shown(w['array'])}"]
    if query.blank is not None:
        lines.append(f"  (cell i holds what belongs in cell sigma(i); the blank reads as {query.blank})")
    lines += [
        f"  inverse: {_shown(w['inverse'])} = {_short(w['inverse_cycles'])}",
        f"  order: {w['order']}",
        f"  parity: {w['parity']}: {w['inversions']} inversions; {n} - {w['cycles']} cycles = "
        f"{w['transpositions']} transpositions: {_short(w['as_transpositions'])}",
    ]
    if query.other is not None:
        lines += [
            f"  sigma then tau, k -> tau(sigma(k)): {_shown(w['then_other'])} = {_short(w['then_other_cycles'])}",
            f"  tau then sigma, k -> sigma(tau(k)): {_shown(w['other_then'])} = {_short(w['other_then_cycles'])}",
        ]
    return _short(outcome.answer), lines


PERMUTATION = Question(
    "permutation",
    "A permutation in array and cycle notation, its inverse, order and parity (the thesis, "
    "3.1.2-3.1.4).\n\n"
    "PERMUTATION is an array [2,9,5,6,3,4,7,1,8] (the images of 1, 2, ...), cycles "
    "(1 2 9 8)(3 5)(4 6), or a board file (cell i, row by row, holds the tile whose goal "
    "cell is sigma(i); the blank reads as its goal cell's number, the thesis's 16). The "
    "parity is counted both ways: by inversions and by transpositions (n minus the number "
    "of cycles, fixed points included); every fact is counted again by the checker.",
    backends={"native": solve_permutation},
    check=check_permutation,
    read=read_permutation,
    describe=describe_permutation,
    params=(
        Param(
            "permutation",
            help="An array [2,1,3] or '2 1 3', cycles '(1 2)(3 4)', or a board file.",
            to="read",
            metavar="PERMUTATION",
        ),
        Param(
            "compose",
            "--compose",
            "A second permutation tau (array or cycles): both compositions, sigma then tau "
            "(the thesis's definition 2) and tau then sigma.",
            to="read",
            metavar="TAU",
        ),
        Param(
            "size",
            "--size",
            "The degree n of a permutation in cycles (default: its largest number).",
            type=int,
            to="read",
            metavar="N",
        ),
        GOAL,
    ),
)

#: the most expansions a line shows (``--json`` has them all)
SHOWN = 60


def describe_search(
    problem: SearchProblem, outcome: Outcome, options: dict[str, Any]
) -> tuple[str | None, list[str]]:
    """``search``: the cost and path, then A*'s expansions or IDA*'s rounds with f values."""
    w = outcome.witness if isinstance(outcome.witness, dict) else {}
    lines = []
    if "expanded" in w:
        rows = w["expanded"]
        shown = ", ".join(f"{n} ({g}+{h}={f})" for n, g, h, f in rows[:SHOWN])
        more = f", ... ({len(rows)} in all; --json lists them)" if len(rows) > SHOWN else ""
        lines.append(f"  expanded, in order (g+h=f): {shown or 'none'}{more}")
        if outcome.answer is not None:
            lines.append(f"  then {problem.graph.goal} is selected with f = {outcome.answer}: the goal")
    for i, r in enumerate(w.get("rounds", []), 1):
        shown = ", ".join(f"{n} (f={f})" for n, _, f in r["expanded"][:SHOWN]) or "none"
        if len(r["expanded"]) > SHOWN:
            shown += f", ... ({len(r['expanded'])} in all)"
        end = f"next threshold {r['next']}" if r["next"] is not None else (
            f"{problem.graph.goal} reached" if outcome.answer is not None else "nothing over it: no path"
        )
        lines.append(f"  round {i}, threshold {r['threshold']}: expanded {shown}; {end}")
    if outcome.answer is None:
        return ("no path" if outcome.status == "no-solution" else None), lines
    said = f"cost {outcome.answer}" + (" (not claimed cheapest)" if outcome.verdict.kind == UPPER_BOUND else "")
    return said, [f"  path: {' -> '.join(w['path'])}", *lines]


SEARCH = Question(
    "search",
    "A* or IDA* on a weighted graph with a heuristic table, expansion by expansion (the "
    "thesis, 3.2.5).\n\n"
    "GRAPH holds one arc 'u v cost' per line (directed, costs non-negative integers) and "
    "the headers '# start: S' and '# goal: G'; --heuristic FILE gives 'NODE VALUE' per line "
    "(nodes it omits: 0). Prints the path, then A*'s expansions with g+h=f, or IDA*'s "
    "rounds with their thresholds. The cost is checked against networkx (Dijkstra, and "
    "its astar_path_length with the same heuristic); with a heuristic that is not "
    "consistent the path found is not claimed cheapest.",
    backends={"astar": search_astar, "idastar": search_idastar},
    check=check_search,
    read=read_search,
    describe=describe_search,
    params=(
        Param("graph", help="A weighted graph file (arcs 'u v cost').", type=Path, to="read",
              metavar="GRAPH"),
        Param("heuristic", "--heuristic", "The heuristic table, 'NODE VALUE' per line (default: 0).",
              type=Path, to="read", metavar="FILE"),
        Param("start", "--start", "The start node (default: the file's '# start:').", to="read"),
        Param("goal_node", "--goal", "The goal node (default: the file's '# goal:').", to="read"),
    ),
)

#: The puzzle domain's questions.
QUESTIONS = (CHECK, SOLVE, PERMUTATION, SEARCH)
