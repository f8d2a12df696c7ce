"""``pyasp-games puzzle``: sliding-tile puzzles. ``check`` and ``solve`` are generated
from :data:`pyasp_games.domains.puzzle.questions.QUESTIONS`; ``show`` plays a plan and ``pdb``
manages the pattern databases.

``pyasp-games puzzle solve FILE --backend astar|idastar|pdb|greedy|asp|sat [--json]``.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path

import typer

from pyasp_games.cli.common import MEMORY_LIMIT, TIME_LIMIT, print_json, progress_reporter, warn
from pyasp_games.cli.questions import domain_group
from pyasp_games.domains.puzzle.model import GOALS
from pyasp_games.domains.puzzle.questions import FILE, GOAL
from pyasp_games.errors import InputError

#: The domain's questions (generated), and below the commands that are none.
app = domain_group("puzzle")

#: The goal conventions as choices.
Goal = StrEnum("Goal", {g: g for g in GOALS})


def _load(path: Path, goal: Goal | None) -> list:
    from pyasp_games.domains.puzzle.questions import read_boards

    return read_boards(path, goal.value if goal else None)


@app.command()
def show(
    file: Path = typer.Argument(..., help=FILE.help),
    plan: str = typer.Option(
        None, "--plan", help="A plan of U D L R moves to play out board by board."
    ),
    goal: Goal = typer.Option(None, "--goal", help=GOAL.help),
    json: bool = typer.Option(
        False,
        "--json",
        help="One JSON object per board: its tiles, and with --plan the tiles after every "
        "move and whether the plan reaches the goal.",
    ),
) -> None:
    """Print the board and, with --plan, the board after every move."""
    from pyasp_games.domains.puzzle.model import format_board, play
    from pyasp_games.domains.puzzle.verify import verify_plan

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
    try:
        steps = play(board, plan)
    except InputError as err:
        raise InputError(f"--plan: {err}") from None
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
    goal: Goal = typer.Option(GOALS[0], "--goal", help="Goal convention."),
    partition: str = typer.Option(
        "default",
        "--partition",
        help="4x4: 6-6-3 (default), 5-5-5, 4-4-4-3; 5x5: 6-6-6-6 (default); any board: quick, "
        "or group sizes such as 5-5-5-5-4.",
    ),
    time_limit: float = TIME_LIMIT,
    memory_limit: float = MEMORY_LIMIT,
    json: bool = PDB_JSON,
) -> None:
    """Build the pattern databases of a partition (or confirm they are cached).

    Each table is saved as soon as it is built: when a limit stops a later one, the
    finished ones stay in the cache (exit 3, the missing ones named)."""
    from pyasp_games.domains.puzzle.databases import (
        build_databases,
        database_path,
        shared_table,
        tile_partition,
    )
    from pyasp_games.domains.puzzle.model import parse_size
    from pyasp_games.engines.enforcement import arm
    from pyasp_games.engines.limits import LimitReached, Limits

    try:
        rows, cols = parse_size(size)
    except InputError as err:
        raise InputError(f"--size {err}") from None
    limits = Limits.given(time_limit, memory_megabytes=memory_limit)
    patterns = tile_partition(rows, cols, goal.value, partition)
    arm(limits)
    try:
        with progress_reporter() as report:
            build_databases(rows, cols, goal.value, partition, report, limits.deadline())
    except (LimitReached, MemoryError) as stop:
        limit = "memory" if isinstance(stop, MemoryError) else "time"
        shape = (rows, cols, goal.value)
        tables = dict.fromkeys(shared_table(*shape, p)[0] for p in patterns)  # shared ones once
        missing = [list(t) for t in tables if not database_path(*shape, t).is_file()]
        if json:
            print_json({"status": "unknown", "limit": limit, "missing": missing,
                        "built": len(tables) - len(missing)})  # fmt: skip
        else:
            typer.echo(f"unknown: the {limit} limit stopped the build; "
                       f"{len(tables) - len(missing)} of {len(tables)} databases are cached")  # fmt: skip
            warn(f"not built: tiles {', '.join(map(str, missing))}")
        raise typer.Exit(3) from None
    pdb_info(json)


@pdb_app.command("info")
def pdb_info(json: bool = PDB_JSON) -> None:
    """List the cached pattern databases."""
    from pyasp_games.domains.puzzle.databases import cache_dir, cached_databases

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
    from pyasp_games.domains.puzzle.databases import clear_cache

    removed = clear_cache(stale_only=stale)
    if json:
        print_json({"removed": [str(p) for p in removed]})
        return
    typer.echo(f"removed {len(removed)} database files")
