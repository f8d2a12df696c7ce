"""Our sliding-puzzle backends side by side with the Python solvers on PyPI.

Compares, in one run, the native backends ``astar``, ``idastar`` and ``pdb`` (6-6-3
pattern databases) with the search algorithms of two PyPI packages that are
benchmark-only tools here, never runtime dependencies:

- ``slidingpuzzle`` 0.1.5: ``a_star`` and ``ida_star`` with the package's default
  heuristic ``linear_conflict_distance`` (Manhattan + linear conflicts + corner tiles +
  last moves). Boards are numpy arrays, the goal is blank-last, a solution is the
  list of cells the blank moves to.
- ``fifteen-puzzle-solvers`` 2.0.3: ``BreadthFirst`` (optimal by construction) and
  ``AStar`` with its default heuristic ``total``. Boards are square lists of rows,
  the goal is blank-last, a solution is the list of boards from the start to the goal.

Neither package supports Korf's blank-first goal, so a Korf board is given to them
turned half-way round (cell ``p -> N-1-p``) and relabelled (tile ``v -> N-v``, blank
stays 0): an equivalent blank-last board with the same optimal length (and the same
Manhattan and linear-conflict values); our backends solve the original board.

Every (solver, instance) runs in a fresh child process, with a hard wall-clock limit
(``--time-limit``) and an address-space limit (``--memory-limit``); the child times
only the solver call (not the imports, nor loading or building the pattern databases,
which the parent does once beforehand and reports separately). Every returned
solution is turned into a U/D/L/R plan (the blank's moves), replayed by
``pyasp_games.domains.puzzle.verify.verify_plan`` (for a turned Korf board on both the turned
and the original board) and its length compared with the known optimum. Instances
run in increasing optimal length per board size; once a solver reaches the time or
memory limit, its harder-or-equal instances of that size are skipped (``--no-skip``
runs them anyway).

    python benchmarks/puzzle_pypi_compare.py --time-limit 60 --fresh-cache --out /tmp/pypi-compare.md
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing as mp
import os
import platform
import resource
import shutil
import statistics
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from multiprocessing.connection import Connection
from pathlib import Path

from pyasp_games.domains.puzzle.model import Board, load_boards
from pyasp_games.domains.puzzle.verify import verify_plan
from pyasp_games.engines.resources import instance_dir

#: Instance sets selectable with ``--instances``.
SETS = ("thesis", "eight", "random", "korf10", "korf100")
DEFAULT_SETS = ("thesis", "eight", "random", "korf10")

#: Solver name -> (package, what it runs).
SOLVERS: dict[str, tuple[str, str]] = {
    "astar": ("pyasp-games", "native A*, Manhattan + linear conflicts"),
    "idastar": ("pyasp-games", "native IDA*, Manhattan + linear conflicts"),
    "pdb": ("pyasp-games", "native IDA*, additive 6-6-3 pattern databases"),
    "sp-astar": ("slidingpuzzle", "search(board, 'a*'), default heuristic"),
    "sp-idastar": ("slidingpuzzle", "search(board, 'ida*'), default heuristic"),
    "fps-bfs": ("fifteen-puzzle-solvers", "BreadthFirst"),
    "fps-astar": ("fifteen-puzzle-solvers", "AStar, default heuristic 'total'"),
}

OPPOSITE = {"U": "D", "D": "U", "L": "R", "R": "L"}
STEP = {(-1, 0): "U", (1, 0): "D", (0, -1): "L", (0, 1): "R"}


@dataclass(frozen=True)
class Instance:
    """A benchmark board: ``board`` for our backends, ``blank_last`` for the packages."""

    name: str
    board: Board
    blank_last: tuple[int, ...]
    optimum: int
    turned: bool


@dataclass
class Result:
    solver: str
    instance: str
    status: str  # solved, timeout, memory, error, skipped
    seconds: float | None = None
    length: int | None = None
    valid: bool | None = None
    optimal: bool | None = None
    note: str = ""


# -- instances --------------------------------------------------------------------------


def turn_round(tiles: tuple[int, ...]) -> tuple[int, ...]:
    """Blank-first board -> the equivalent blank-last board (half-turn and v -> N-v)."""
    n = len(tiles)
    return tuple((n - tiles[n - 1 - p]) % n for p in range(n))


def make_instance(board: Board, name: str) -> Instance:
    if not isinstance(board.known, int):
        raise SystemExit(f"{name}: no known optimal length in the instance file")
    if board.goal == "blank-last":
        return Instance(name, board, board.tiles, board.known, False)
    return Instance(name, board, turn_round(board.tiles), board.known, True)


def load_instances(sets: list[str]) -> list[Instance]:
    folder = instance_dir("puzzle")
    out: list[Instance] = []
    for s in sets:
        if s == "thesis":
            for f in ("thesis-board1.txt", "thesis-board2.txt"):
                out += [make_instance(b, f.removesuffix(".txt")) for b in load_boards(folder / f)]
        elif s == "eight":
            boards = load_boards(folder / "eight-puzzle-hardest.txt")
            out += [make_instance(b, "8p-" + b.name.split(":")[-1]) for b in boards]
        elif s == "random":
            boards = load_boards(folder / "random-30-40.txt")
            out += [make_instance(b, b.name.split(":")[-1]) for b in boards]
        else:
            boards = load_boards(folder / "korf100.txt")
            if s == "korf10":
                boards = sorted(boards, key=lambda b: int(b.known))[:10]  # stable: by id
            out += [make_instance(b, "korf-" + b.name.split(":")[-1]) for b in boards]
    return out


# -- plans and checks -------------------------------------------------------------------


def plan_from_blank_cells(cols: int, cells: list[int]) -> str:
    """The U/D/L/R plan of a sequence of blank cells (start included); ValueError if not unit steps."""
    letters = []
    for a, b in itertools.pairwise(cells):
        (ra, ca), (rb, cb) = divmod(a, cols), divmod(b, cols)
        letter = STEP.get((rb - ra, cb - ca))
        if letter is None:
            raise ValueError(f"blank jumps from cell {a} to cell {b}")
        letters.append(letter)
    return "".join(letters)


def check_plan(inst: Instance, plan: str, ours: bool) -> tuple[bool, str]:
    """Replay a plan: ours on the original board, a package's on the blank-last board given
    to it (for a turned board then also, directions swapped, on the original)."""
    b = inst.board
    if ours:
        verdict = verify_plan(b.rows, b.cols, b.tiles, b.goal, plan)
        return verdict.ok, verdict.message
    verdict = verify_plan(b.rows, b.cols, inst.blank_last, "blank-last", plan)
    if not verdict.ok or not inst.turned:
        return verdict.ok, verdict.message
    back = "".join(OPPOSITE[m] for m in plan)
    verdict = verify_plan(b.rows, b.cols, b.tiles, b.goal, back)
    return verdict.ok, "on the original board: " + verdict.message


# -- the solvers, each run in a child ---------------------------------------------------


def prepare_ours(solver: str, inst: Instance) -> Callable[[], str | None]:
    from pyasp_games.domains.puzzle import solve
    from pyasp_games.domains.puzzle.databases import pattern_database, tile_partition

    b = inst.board
    if solver == "pdb":  # load the databases from the cache before the clock starts
        for tiles in tile_partition(b.rows, b.cols, b.goal, "default"):
            pattern_database(b.rows, b.cols, b.goal, tiles)

    def run() -> str | None:
        # no Limits: with a time limit the library forks a child of its own; the
        # parent's hard wall-clock limit stops this process instead
        out = solve(b, solver)
        if out.status != "solved":
            raise RuntimeError(f"status {out.status}: {out.stats}")
        return str(out.witness)

    return run


def prepare_sp(solver: str, inst: Instance) -> Callable[[], str | None]:
    import numpy as np
    import slidingpuzzle

    b = inst.board
    array = np.array(inst.blank_last, dtype=int).reshape(b.rows, b.cols)
    alg = "a*" if solver == "sp-astar" else "ida*"

    def run() -> str | None:
        result = slidingpuzzle.search(array, alg)
        if result.solution is None:
            return None
        start = slidingpuzzle.find_blank(array)
        cells = [int(y) * b.cols + int(x) for y, x in [start, *result.solution]]
        return plan_from_blank_cells(b.cols, cells)

    return run


def prepare_fps(solver: str, inst: Instance) -> Callable[[], str | None]:
    from fifteen_puzzle_solvers.domain import Puzzle
    from fifteen_puzzle_solvers.services.algorithms import AStar, BreadthFirst
    from fifteen_puzzle_solvers.services.solver import PuzzleSolver

    b = inst.board
    rows = [list(inst.blank_last[r * b.cols : (r + 1) * b.cols]) for r in range(b.rows)]
    puzzle = Puzzle(rows)
    strategy = BreadthFirst(puzzle) if solver == "fps-bfs" else AStar(puzzle)

    def run() -> str | None:
        solver_ = PuzzleSolver(strategy)
        solver_.run()
        path = solver_.get_solution()
        if not path:
            return None
        boards = [[t for row in p.position for t in row] for p in path]
        if boards[0] != list(inst.blank_last):
            raise ValueError("the returned path does not start at the board")
        plan = plan_from_blank_cells(b.cols, [x.index(0) for x in boards])
        # the listed boards must be what the plan gives, move by move
        from pyasp_games.domains.puzzle.verify import replay

        for i, expected in enumerate(boards):
            if replay(b.rows, b.cols, inst.blank_last, plan[:i]) != expected:
                raise ValueError(f"board {i} of the returned path is not one move on")
        return plan

    return run


def child(solver: str, inst: Instance, time_limit: float, memory: int, conn: Connection) -> None:
    """Set up ``solver``, report ready, run it once and send back (status, plan, seconds, note)."""
    try:
        if memory > 0:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        if SOLVERS[solver][0] == "pyasp-games":
            run = prepare_ours(solver, inst)
        elif solver.startswith("sp-"):
            import logging

            logging.disable(logging.INFO)  # slidingpuzzle turns INFO logging on at import
            run = prepare_sp(solver, inst)
        else:
            run = prepare_fps(solver, inst)
        conn.send("ready")
        start = time.perf_counter()
        try:
            plan = run()
            seconds = time.perf_counter() - start
            conn.send(("solved" if plan is not None else "error", plan, seconds, "no solution"))
        except MemoryError:
            conn.send(("memory", None, time.perf_counter() - start, "memory limit"))
    except Exception as err:  # a third-party failure is a result, not a crash
        note = f"{type(err).__name__}: {err}".splitlines()[0][:200]
        try:
            conn.send(("error", None, None, note))
        except Exception:
            traceback.print_exc()
    finally:
        conn.close()


def run_one(solver: str, inst: Instance, time_limit: float, memory: int) -> Result:
    """Run one (solver, instance) in a child process under a hard wall-clock limit."""
    ctx = mp.get_context("fork")
    parent, end = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=child, args=(solver, inst, time_limit, memory, end), daemon=True)
    proc.start()
    end.close()
    result = Result(solver, inst.name, "error")
    try:
        if not parent.poll(120):  # setup: imports, reading the databases
            result.note = "setup took over 120 s"
            return result
        first = parent.recv()
        if first != "ready":
            _, _, _, result.note = first
            return result
        # a small allowance over the limit: our backends stop themselves at it
        if not parent.poll(time_limit + 2):
            result.status, result.note = "timeout", "killed at the wall-clock limit"
            return result
        status, plan, seconds, note = parent.recv()
        result.status, result.seconds = status, seconds
        if status == "timeout" or (seconds is not None and seconds > time_limit):
            result.status, result.note = "timeout", note
        elif status == "solved":
            result.length = len(plan)
            result.valid, result.note = check_plan(inst, plan, SOLVERS[solver][0] == "pyasp-games")
            result.optimal = result.valid and result.length == inst.optimum
        else:
            result.note = note
        return result
    except EOFError:
        result.note = f"the child died (exit code {proc.exitcode})"
        return result
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()
        parent.close()


# -- pattern databases ------------------------------------------------------------------


def prepare_databases(instances: list[Instance]) -> list[tuple[str, float, bool]]:
    """Load or build the default databases of every (size, goal): (label, seconds, built?)."""
    from pyasp_games.domains.puzzle.databases import cache_dir, pattern_database, tile_partition

    out = []
    for rows, cols, goal in sorted({(i.board.rows, i.board.cols, i.board.goal) for i in instances}):
        before = set(cache_dir().glob("*.bin")) if cache_dir().is_dir() else set()
        start = time.perf_counter()
        for tiles in tile_partition(rows, cols, goal, "default"):
            pattern_database(rows, cols, goal, tiles)
        seconds = time.perf_counter() - start
        built = set(cache_dir().glob("*.bin")) - before
        out.append((f"{rows}x{cols} {goal}", seconds, bool(built)))
    return out


# -- report -----------------------------------------------------------------------------


def cell(r: Result) -> str:
    if r.status == "solved":
        text = f"{r.seconds:.2f}"
        if not r.valid:
            return f"{text} ✗ invalid"
        if not r.optimal:
            return f"{text} ✗ {r.length}"
        return text
    if r.status == "timeout":
        return "timeout"
    if r.status == "memory":
        return "out of memory"
    if r.status == "skipped":
        return "skip"
    return "error"


def report(
    instances: list[Instance],
    solvers: list[str],
    results: dict[tuple[str, str], Result],
    header: list[str],
) -> str:
    lines = [*header, ""]
    lines.append("| instance | optimum | " + " | ".join(solvers) + " |")
    lines.append("| --- | ---: | " + " | ".join("---:" for _ in solvers) + " |")
    for inst in instances:
        row = [cell(results[(s, inst.name)]) for s in solvers]
        lines.append(f"| {inst.name} | {inst.optimum} | " + " | ".join(row) + " |")
    lines += ["", "| solver | package: algorithm | solved | optimal | median s (solved) |"]
    lines.append("| --- | --- | ---: | ---: | ---: |")
    for s in solvers:
        rs = [results[(s, i.name)] for i in instances]
        solved = [r for r in rs if r.status == "solved" and r.valid]
        optimal = [r for r in solved if r.optimal]
        median = f"{statistics.median(r.seconds for r in solved):.2f}" if solved else "-"
        package, what = SOLVERS[s]
        lines.append(
            f"| {s} | {package}: {what} | {len(solved)}/{len(rs)} | {len(optimal)} | {median} |"
        )
    notes = [
        f"- {r.solver} on {r.instance}: {r.status}, {r.note}"
        for r in results.values()
        if r.status == "error" or (r.status == "solved" and not r.valid)
    ]
    lines += [
        "",
        "Cells: seconds of the solver call; `✗ L` a valid plan of non-optimal length L; "
        "`skip`: not run, the solver had already reached the limit on an instance of the "
        "same size with a smaller or equal optimum.",
    ]
    if notes:
        lines += ["", *notes]
    return "\n".join(lines) + "\n"


def versions() -> str:
    parts = [f"Python {platform.python_version()}"]
    for dist in ("pyasp-games", "slidingpuzzle", "fifteen-puzzle-solvers", "numpy"):
        try:
            parts.append(f"{dist} {metadata.version(dist)}")
        except metadata.PackageNotFoundError:
            parts.append(f"{dist} not installed")
    return ", ".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--instances", nargs="+", choices=SETS, default=list(DEFAULT_SETS), metavar="SET"
    )
    parser.add_argument("--solvers", nargs="+", choices=list(SOLVERS), default=list(SOLVERS))
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per run")
    parser.add_argument(
        "--memory-limit", type=float, default=4.0, help="GiB of address space per run (0: none)"
    )
    parser.add_argument("--no-skip", action="store_true", help="run harder boards after a limit")
    parser.add_argument(
        "--fresh-cache",
        action="store_true",
        help="build the databases in a temporary cache (deleted at the end) to time the build",
    )
    parser.add_argument("--out", type=Path, help="also write the Markdown report here")
    args = parser.parse_args(argv)
    fresh = tempfile.mkdtemp(prefix="pdb-pypi-compare-") if args.fresh_cache else None
    if fresh:
        os.environ["XDG_CACHE_HOME"] = fresh

    instances = load_instances(args.instances)
    memory = int(args.memory_limit * 2**30)
    load_before = os.getloadavg()
    started = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    print(f"load average before: {load_before}", file=sys.stderr)

    databases: list[tuple[str, float, bool]] = []
    if "pdb" in args.solvers:
        databases = prepare_databases(instances)
        for label, seconds, built in databases:
            print(
                f"databases {label}: {'built' if built else 'loaded'} in {seconds:.1f} s",
                file=sys.stderr,
            )

    order = sorted(instances, key=lambda i: (i.board.size, i.optimum))
    results: dict[tuple[str, str], Result] = {}
    for s in args.solvers:
        limit_at: dict[int, int] = {}  # board size -> smallest optimum that hit a limit
        for inst in order:
            size = inst.board.size
            if not args.no_skip and size in limit_at and inst.optimum >= limit_at[size]:
                results[(s, inst.name)] = Result(s, inst.name, "skipped")
                continue
            r = run_one(s, inst, args.time_limit, memory)
            results[(s, inst.name)] = r
            if r.status in ("timeout", "memory"):
                limit_at[size] = min(limit_at.get(size, inst.optimum), inst.optimum)
            print(
                f"{s:10} {inst.name:14} opt {inst.optimum:2}: {r.status} {cell(r)} "
                f"[load {os.getloadavg()[0]:.2f}] {r.note if r.status != 'solved' else ''}",
                file=sys.stderr,
                flush=True,
            )

    load_after = os.getloadavg()
    header = [
        f"Started {started}; {versions()}; `nproc` {os.cpu_count()}; "
        f"time limit {args.time_limit:g} s and {args.memory_limit:g} GiB per run.",
        f"Load average (1, 5, 15 min) before: {', '.join(f'{x:.2f}' for x in load_before)}; "
        f"after: {', '.join(f'{x:.2f}' for x in load_after)}.",
    ]
    for label, seconds, built in databases:
        header.append(
            f"Pattern databases {label} (6-6-3 / default): "
            f"{'built' if built else 'loaded from the cache'} in {seconds:.1f} s (not in the times below)."
        )
    if fresh:
        shutil.rmtree(fresh, ignore_errors=True)
    text = report(instances, args.solvers, results, header)
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
