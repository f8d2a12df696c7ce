"""``pyasp-games puzzle``: check, solve and show sliding-tile puzzles."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path

import typer

from pyasp_games.cli.common import (
    JSON,
    MEMORY_LIMIT,
    TIME_LIMIT,
    TRUST_ENCODING,
    exit_code,
    limits,
    new_file,
    print_json,
    progress_reporter,
    report_error,
    trust_encoding,
    verdict,
)
from pyasp_games.errors import InputError

app = typer.Typer(
    help="Sliding-tile puzzles (R x C; the 15-puzzle is 4 x 4).", no_args_is_help=True
)


class Goal(StrEnum):
    blank_last = "blank-last"
    blank_first = "blank-first"


class Backend(StrEnum):
    astar = "astar"
    idastar = "idastar"
    pdb = "pdb"
    greedy = "greedy"
    asp = "asp"
    sat = "sat"


FILE = typer.Argument(
    ..., help="A board file (R lines of C integers, 0 = blank) or a set file ('# size: RxC')."
)
GOAL = typer.Option(
    None, "--goal", help="Goal convention (default: the file's '# goal:' header, else blank-last)."
)


def _load(path: Path, goal: Goal | None) -> list:
    from pyasp_games.puzzle.model import load_boards

    return load_boards(path, goal.value if goal else None)


@app.command()
def check(file: Path = FILE, goal: Goal = GOAL, json: bool = JSON) -> None:
    """Is the board solvable? With the reason: inversions, blank row, width parity."""
    from dataclasses import asdict

    from pyasp_games.puzzle.model import solvability

    for board in _load(file, goal):
        result = solvability(board)
        if json:
            print_json({"problem": board.name, **asdict(result)})
        else:
            typer.echo(f"{board.name}: {result.reason}")


@app.command()
def solve(
    file: Path = FILE,
    backend: Backend = typer.Option(Backend.astar, "--backend", "-b", help="Which solver."),
    encoding: str = typer.Option(
        None, "--encoding", help="asp: a bundled encoding (sliding, seed) or an .lp file."
    ),
    solver: str = typer.Option(
        None, "--solver", help="sat: the PySAT solver (glucose4, cadical195, minisat22, ...)."
    ),
    partition: str = typer.Option(
        None,
        "--partition",
        help="pdb: the tile partition (4x4: 6-6-3, 5-5-5, 4-4-4-3; default: 6-6-3).",
    ),
    lower_bound: str = typer.Option(
        None,
        "--lower-bound",
        help="asp/sat: first horizon from manhattan (default) or pdb[:PARTITION].",
    ),
    prune: str = typer.Option(
        None,
        "--prune",
        help="asp/sat: none (default) or pdb[:PARTITION]: cut partial plans by pattern databases"
        " inside the solver (sat: needs cadical195, the default then).",
    ),
    workers: int = typer.Option(
        1, "--workers", help="Solve the boards of a set file in this many processes."
    ),
    time_limit: float = TIME_LIMIT,
    memory_limit: float = MEMORY_LIMIT,
    max_length: int = typer.Option(
        None,
        "--max-length",
        help="asp/sat/astar/idastar: give up beyond this plan length (no-solution within it).",
    ),
    goal: Goal = GOAL,
    emit_lp: Path = typer.Option(
        None, "--emit-lp", help="asp: write the facts and the encoding to run by hand."
    ),
    emit_cnf: Path = typer.Option(
        None, "--emit-cnf", help="sat: write the last horizon's CNF as DIMACS."
    ),
    force: bool = typer.Option(
        False, "--force", help="Overwrite files given to --emit-lp/--emit-cnf."
    ),
    trust: bool = TRUST_ENCODING,
    json: bool = JSON,
) -> None:
    """Solve optimally and verify the plan (U D L R: the direction the blank moves)."""
    from pyasp_games.puzzle.asp import write_lp

    if encoding is not None and backend is not Backend.asp:
        raise InputError("--encoding applies to --backend asp only")
    if (solver is not None or emit_cnf is not None) and backend is not Backend.sat:
        raise InputError("--solver and --emit-cnf apply to --backend sat only")
    if emit_lp is not None and backend is not Backend.asp:
        raise InputError("--emit-lp applies to --backend asp only")
    if lower_bound is not None and backend not in (Backend.asp, Backend.sat):
        raise InputError("--lower-bound applies to --backend asp and sat only")
    if prune is not None and backend not in (Backend.asp, Backend.sat):
        raise InputError("--prune applies to --backend asp and sat only")
    if partition is not None and backend is not Backend.pdb:
        raise InputError("--partition applies to --backend pdb only")
    if max_length is not None and backend in (Backend.pdb, Backend.greedy):
        raise InputError("--max-length applies to --backend astar, idastar, asp and sat only")
    if workers < 1:
        raise InputError(f"--workers must be at least 1, got {workers}")
    lim = limits(time_limit, max_length, memory_limit, whole_command=False)  # per board
    boards = _load(file, goal)
    if (emit_lp or emit_cnf) and len(boards) > 1:
        raise InputError("--emit-lp/--emit-cnf take a single board, not a set file")
    new_file(emit_lp, force, "--emit-lp")
    new_file(emit_cnf, force, "--emit-cnf")
    options: dict = {}
    if backend is Backend.asp:
        options["encoding"] = encoding or "sliding"
    options.update(trust_encoding("puzzle", trust, encoding))
    if lower_bound is not None:
        options["lower_bound"] = lower_bound
    if prune is not None:
        options["prune"] = prune
    if backend is Backend.pdb:
        options["partition"] = partition or "default"
    if backend is Backend.sat:
        if solver is not None:  # else the backend's default (glucose4; cadical195 with --prune)
            options["solver"] = solver
        if emit_cnf is not None:
            options["emit_cnf"] = emit_cnf
    outcomes = []
    for board, outcome in zip(
        boards, _solve_all(boards, backend.value, lim, options, workers), strict=True
    ):
        outcomes.append(outcome)
        if emit_lp is not None:
            write_lp(board, options["encoding"], emit_lp, outcome.answer)
        if json:
            print_json(outcome.to_dict())
        else:
            _print_outcome(outcome)
    raise typer.Exit(exit_code(outcomes))


def _solve_all(boards: list, backend: str, lim, options: dict, workers: int):
    """Outcomes in input order; boards after the first in ``workers`` processes when asked.

    The first board is always solved here, so whatever a backend prepares once
    (the pdb backend's databases, built under the time limit with a progress bar)
    is ready, cached, before the pool starts.
    """
    from pyasp_games.puzzle import solve as run

    with progress_reporter() as report:
        extra = {"progress": report("pattern databases for " + boards[0].name)} if backend == "pdb" else {}
        yield run(boards[0], backend, lim, **options, **extra)
    rest = boards[1:]
    if workers == 1 or not rest:
        for board in rest:
            yield run(board, backend, lim, **options)
        return
    from concurrent.futures import ProcessPoolExecutor
    from functools import partial

    with ProcessPoolExecutor(max_workers=min(workers, len(rest))) as pool:  # never idle ones
        yield from pool.map(partial(_solve_one, backend=backend, lim=lim, options=options), rest)


def _solve_one(board, backend: str, lim, options: dict):
    from pyasp_games.puzzle import solve as run

    return run(board, backend, lim, **options)


def _print_outcome(outcome) -> None:
    verified = verdict(outcome)
    line = f"{outcome.problem}: {outcome.status}"
    if outcome.answer is not None:
        line += f", {outcome.answer} moves"
        if outcome.stats.get("optimal") is False:
            line += " (not optimal)"
    line += f" ({outcome.backend}, {outcome.seconds:.3f} s, {verified})"
    typer.echo(line)
    if outcome.witness:
        typer.echo(f"  plan: {outcome.witness}")
    if "proof" in outcome.stats:
        typer.echo(f"  proof: {outcome.stats['proof']}")
    if "nodes" in outcome.stats:
        typer.echo(f"  nodes expanded: {outcome.stats['nodes']}")
    if "horizons" in outcome.stats:
        typer.echo(f"  horizons tried: {outcome.stats['horizons']}")
    report_error(outcome)


@app.command()
def show(
    file: Path = FILE,
    plan: str = typer.Option(
        None, "--plan", help="A plan of U D L R moves to play out board by board."
    ),
    goal: Goal = GOAL,
    json: bool = typer.Option(
        False,
        "--json",
        help="One JSON object per board: its tiles, and with --plan the tiles after every "
        "move and whether the plan reaches the goal.",
    ),
) -> None:
    """Print the board and, with --plan, the board after every move."""
    from pyasp_games.puzzle.model import format_board
    from pyasp_games.puzzle.verify import replay, verify_plan

    boards = _load(file, goal)
    if plan is not None and len(boards) > 1:
        raise InputError("--plan takes a single board, not a set file")

    def shape(board) -> dict:
        return {"problem": board.name, "rows": board.rows, "cols": board.cols,
                "goal": board.goal, "tiles": list(board.tiles)}  # fmt: skip

    if plan is None:
        for board in boards:
            if json:
                print_json(shape(board))
            else:
                typer.echo(f"{board.name} ({board.rows}x{board.cols}, goal {board.goal})")
                typer.echo(format_board(board, header=False))
        return
    board = boards[0]
    plan = plan.strip().upper()
    steps, tiles = [], board.tiles
    for i, move in enumerate(plan, 1):  # one move at a time: linear in the plan's length
        try:
            tiles = tuple(replay(board.rows, board.cols, tiles, move))
        except ValueError as err:
            reason = str(err).split(": ", 1)[-1]  # replay numbers the moves it was given
            raise InputError(f"--plan: move {i}: {reason}") from None
        steps.append(tiles)
    result = verify_plan(board.rows, board.cols, board.tiles, board.goal, plan)
    if json:
        print_json({**shape(board), "plan": plan, "after_each_move": [list(t) for t in steps],
                    "reaches_goal": result.ok, "verification": result.message})  # fmt: skip
        return
    typer.echo(f"{board.name} ({board.rows}x{board.cols}, goal {board.goal})")
    typer.echo(format_board(board, header=False))
    for i, tiles in enumerate(steps, 1):
        step = type(board)(board.rows, board.cols, tiles, board.goal, board.name)
        typer.echo(f"move {i}: {plan[i - 1]}")
        typer.echo(format_board(step, header=False))
    typer.echo(result.message)


pdb_app = typer.Typer(
    help="Pattern databases for the pdb backend: build, inspect, clear the cache.",
    no_args_is_help=True,
)
app.add_typer(pdb_app, name="pdb")

PDB_JSON = typer.Option(False, "--json", help="Print the result as one JSON object.")


@pdb_app.command("build")
def pdb_build(
    size: str = typer.Option("4x4", "--size", help="Board size RxC."),
    goal: Goal = typer.Option(Goal.blank_last, "--goal", help="Goal convention."),
    partition: str = typer.Option(
        "default", "--partition", help="4x4: 6-6-3 (default), 5-5-5, 4-4-4-3."
    ),
    json: bool = PDB_JSON,
) -> None:
    """Build the pattern databases of a partition (or confirm they are cached)."""
    from pyasp_games.puzzle.model import Board, goal_tiles

    rows, cols = _size(size)
    board = Board(rows, cols, goal_tiles(rows, cols, goal.value), goal.value)
    from pyasp_games.engines.domain import BackendSpec
    from pyasp_games.puzzle import prepare

    with progress_reporter() as report:
        prepare([board], [BackendSpec("pdb", "pdb", {"partition": partition})], report)
    pdb_info(json)


@pdb_app.command("info")
def pdb_info(json: bool = PDB_JSON) -> None:
    """List the cached pattern databases."""
    from pyasp_games.puzzle.pattern_databases import cache_dir, cached_databases

    found = cached_databases()
    if json:
        fields = ("rows", "cols", "goal", "tiles", "bytes", "stale")
        print_json({"cache": str(cache_dir()), "databases": [
            {"file": str(db.path), **{k: getattr(db, k) for k in fields}} for db in found]})  # fmt: skip
        return
    typer.echo(f"cache: {cache_dir()} ({len(found)} databases)")
    for db in found:
        state = "stale (another format version)" if db.stale else "current"
        typer.echo(
            f"  {db.rows}x{db.cols} {db.goal} tiles {list(db.tiles)}: {db.bytes:,} bytes, {state}"
        )


@pdb_app.command("clear")
def pdb_clear(
    stale: bool = typer.Option(False, "--stale", help="Delete only stale databases."),
    json: bool = PDB_JSON,
) -> None:
    """Delete cached pattern databases."""
    from pyasp_games.puzzle.pattern_databases import clear_cache

    removed = clear_cache(stale_only=stale)
    if json:
        print_json({"removed": [str(p) for p in removed]})
        return
    typer.echo(f"removed {len(removed)} database files")


def _size(text: str) -> tuple[int, int]:
    import re

    match = re.fullmatch(r"(\d+)x(\d+)", text.strip().lower())
    if not match or int(match.group(1)) < 2 or int(match.group(2)) < 2:
        raise InputError(f"--size {text!r}: expected RxC with R, C >= 2, e.g. 4x4")
    return int(match.group(1)), int(match.group(2))
