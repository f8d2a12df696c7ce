"""Sliding puzzles in ASP: board -> facts, the encodings' names, answer set -> plan.

Two interfaces exist:

- ``sliding`` (ours, and every user encoding given by path): multi-shot, parts
  ``base``/``step(t)``/``check(t)`` with ``#external query(t)``; input
  ``dim/2``, ``init/3``, ``goal/3``; output ``move(T,D)``, ``D`` in ``u d l r``.
  Horizons run from the Manhattan lower bound upwards in steps of two, so the
  first satisfiable horizon is optimal (see ``encodings/puzzle/README.md``).
- ``seed`` (the thesis' encoding, the baseline): single-shot with ``#const t``,
  input ``cell(0,X,Y,V)``, output ``move(T,up|down|left|right)``, 4 x 4 and
  blank-last only. It is re-ground for each horizon.

>>> from pyasp_games.puzzle.model import parse_board
>>> out = solve_asp(parse_board("1 2 3\\n4 5 6\\n0 7 8"))
>>> out.status, out.answer, out.witness
('solved', 2, 'RR')
"""

from __future__ import annotations

from pathlib import Path

from pyasp_games.engines.clingo_runner import ClingoSession
from pyasp_games.engines.limits import Deadline, Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.resources import encoding_path
from pyasp_games.errors import InputError
from pyasp_games.puzzle.model import Board, manhattan_lower_bound, solvability
from pyasp_games.puzzle.pattern_databases import start_horizon

DOMAIN = "puzzle"
#: Bundled encodings with the thesis' single-shot interface; all others are multi-shot.
THESIS_INTERFACE = {"seed"}
_LETTER = {
    "u": "U",
    "d": "D",
    "l": "L",
    "r": "R",
    "up": "U",
    "down": "D",
    "left": "L",
    "right": "R",
}
_NO_LIMIT = 10_000


def facts(board: Board) -> str:
    """Facts of the multi-shot interface: ``dim/2``, ``init/3``, ``goal/3``."""
    c = board.cols
    out = [f"dim({board.rows},{c})."]
    out += [f"init({i // c},{i % c},{v})." for i, v in enumerate(board.tiles)]
    out += [f"goal({i // c},{i % c},{v})." for i, v in enumerate(board.goal_tiles)]
    return "\n".join(out) + "\n"


def seed_facts(board: Board) -> str:
    """Facts of the thesis' interface: ``cell(0,X,Y,V)``."""
    if (board.rows, board.cols, board.goal) != (4, 4, "blank-last"):
        raise InputError("the seed encoding only handles 4x4 boards with the blank-last goal")
    return "\n".join(f"cell(0,{i // 4},{i % 4},{v})." for i, v in enumerate(board.tiles)) + "\n"


def plan_from_symbols(symbols: list) -> str:
    """Order ``move(T,D)`` atoms by time and spell them as ``UDLR``."""
    moves = []
    for sym in symbols:
        if sym.name == "move" and len(sym.arguments) == 2:
            step, direction = sym.arguments
            letter = _LETTER.get(direction.name)
            if letter is None:
                raise ValueError(f"unexpected direction in {sym}")
            moves.append((step.number, letter))
    moves.sort()
    return "".join(letter for _, letter in moves)


def _path(encoding: str) -> Path:
    try:
        return encoding_path(DOMAIN, encoding)
    except FileNotFoundError as err:
        raise InputError(str(err)) from None


def write_lp(board: Board, encoding: str, path: Path | str, horizon: int | None = None) -> None:
    """Write the facts of ``board`` for ``encoding`` plus how to run it by hand."""
    enc = _path(encoding)
    h = horizon if horizon is not None else manhattan_lower_bound(board)
    if encoding in THESIS_INTERFACE:
        body = seed_facts(board)
        run = f"clingo {enc} {path} -c t={h}"
        extra = ""
    else:
        body = facts(board)
        run = f"clingo {enc} {path}    (clingo's incmode; needs a clingo with scripting)"
        extra = f"#include <incmode>.\n#const imin={h}.\n"
    header = (
        f"% pyasp-games puzzle instance {board.name} ({board.rows}x{board.cols}, goal {board.goal})\n"
        f"% encoding: {enc}\n% run: {run}\n"
    )
    Path(path).write_text(header + extra + body)


def solve_asp(
    board: Board,
    limits: Limits = Limits(),
    encoding: str = "sliding",
    lower_bound: str = "manhattan",
) -> Outcome:
    """Optimal plan with clingo: horizons from an admissible bound, step two.

    The first satisfiable horizon is optimal: every shorter horizon of the same
    parity was refuted or lies below the bound, and horizons of the other parity
    are impossible. ``lower_bound`` is ``manhattan`` or ``pdb[:PARTITION]`` (see
    :func:`~pyasp_games.puzzle.pattern_databases.start_horizon`).
    """
    if encoding in THESIS_INTERFACE:
        seed_facts(board)  # reject unsupported boards before anything else
    path = _path(encoding)
    check = solvability(board)
    if not check.solvable:
        return Outcome(board.name, "", "no-solution", None, None, 0.0, {"proof": check.reason})
    deadline = limits.deadline()
    start, bound = start_horizon(board, lower_bound, deadline)
    stop = limits.max_length
    if encoding in THESIS_INTERFACE:
        return _solve_single_shot(board, path, start, stop, deadline, bound)
    session = ClingoSession([path], facts(board), deadline=deadline)
    session.ground([("base", [])])
    h, result, tried = session.solve_horizons(start, stop if stop is not None else _NO_LIMIT, 2)
    stats = {"encoding": str(path), "lower_bound": bound, "horizons": tried, **session.statistics()}
    if session.messages:
        stats["messages"] = session.messages[:5]
    return _outcome(board, h, result.status, result.symbols, stats, stop)


def _solve_single_shot(
    board: Board, path: Path, start: int, stop: int | None, deadline: Deadline, bound: dict
) -> Outcome:
    tried: list[int] = []
    stats: dict = {"encoding": str(path), "lower_bound": bound, "horizons": tried}
    h = start
    while stop is None or h <= stop:
        session = ClingoSession([path], seed_facts(board), consts={"t": h}, deadline=deadline)
        session.ground([("base", [])])
        tried.append(h)
        result = session.solve()
        stats.update(session.statistics())
        if result.status != "unsat":
            return _outcome(
                board,
                h if result.status == "sat" else None,
                result.status,
                result.symbols,
                stats,
                stop,
            )
        h += 2
    return _outcome(board, None, "unsat", [], stats, stop)


def _outcome(
    board: Board, h: int | None, status: str, symbols: list, stats: dict, stop: int | None
) -> Outcome:
    if status == "sat":
        plan = plan_from_symbols(symbols)
        return Outcome(board.name, "", "solved", len(plan), plan, 0.0, stats)
    if status == "unsat":
        stats["proof"] = f"no plan of length <= {stop}"
        stats["bounded"] = stop
        return Outcome(board.name, "", "no-solution", None, None, 0.0, stats)
    return Outcome(board.name, "", "unknown", None, None, 0.0, stats)
