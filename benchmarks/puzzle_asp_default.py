"""Which ASP encoding should be the puzzle's default? ``sliding.lp`` and its ablations over a suite.

The suite: the thesis boards 1 and 2, the two hardest 8-puzzles and the five random
15-puzzle boards with optima 30-40 (``instances/puzzle``); the variants: ``sliding``
and the ablations of ``benchmarks/puzzle_encodings.py`` (each written to a temporary
file). Every (variant, board) runs in a child process of its own through the library
call ``solve(board, "asp", Limits(time_limit=...), encoding=FILE, trust_encoding=True)``
(the default configuration: Manhattan start, no pattern-database pruning; the
cross-check of a user's file is off, since these are ours) under a CPU budget
(``RLIMIT_CPU``: on the shared machine the wall clock measures the load). The score of
a variant is its PAR-2 CPU time: the sum of its CPU seconds, a run that did not finish
counted at twice the budget.

``--bare`` also measures, on thesis board 1, the backend against two bare clingo calls
of the same encoding: ground and solve the single-shot program of horizon 22 (the
unsatisfiable one below the optimum) and of horizon 24 (the optimum), each in a fresh
``clingo.Control``; the backend's ratio to their sum (CPU seconds of this process,
medians of ``--repeat`` runs; the backend runs in-process without a time limit).

``--processes`` measures the same as whole processes, as a user times them: the command
``pyasp-games puzzle solve thesis-board1.txt -b asp`` (start-up, reading, the horizons,
verification) against two fresh Python processes that import clingo and nothing else and
make one bare call each (the board's facts written to a file first) (CPU seconds of the children, ``RUSAGE_CHILDREN``,
and their wall seconds; issue 46 adds the ratio by wall and the ratio of the least CPU
of each, the runs least disturbed by a loaded machine).

    python benchmarks/puzzle_asp_default.py --cpu-limit 30 --bare --repeat 3
    python benchmarks/puzzle_asp_default.py --bare-only --processes --variants sliding --repeat 5
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from puzzle_encodings import ABLATIONS, write_ablations

BOARDS = ("thesis-board1.txt", "thesis-board2.txt", "eight-puzzle-hardest.txt", "random-30-40.txt")


def boards() -> list:
    from pyasp_games.domains.puzzle import load_boards
    from pyasp_games.engines.resources import instance_dir

    return [b for name in BOARDS for b in load_boards(instance_dir("puzzle") / name)]


def run_one(index: int, encoding: str, time_limit: float) -> dict:
    """In the child: solve board ``index`` with ``encoding`` (the CPU budget is already set)."""
    from pyasp_games.domains.puzzle import solve
    from pyasp_games.engines.limits import Limits

    board = boards()[index]
    out = solve(board, "asp", Limits(time_limit=time_limit), encoding=encoding, trust_encoding=True)
    status = out.status
    if status == "error" and "cpu_seconds" not in out.stats:  # the solver killed by RLIMIT_CPU
        status = "cpu>limit"
    return {"status": status, "answer": out.answer, "known": board.known,
            "verified": out.verdict.verified, "cpu": out.stats.get("cpu_seconds"),
            "wall": out.seconds, "conflicts": out.stats.get("conflicts")}  # fmt: skip


def bare_call(encoding: str, horizon: int) -> tuple[float, str]:
    """Ground and solve the single-shot program of ``horizon`` for thesis board 1."""
    import clingo

    from pyasp_games.domains.puzzle.asp import facts

    board = boards()[0]
    started = time.process_time()
    ctl = clingo.Control(["--warn=none"])
    ctl.load(encoding)
    ctl.add("base", [], facts(board))
    parts = [("base", [])] + [("step", [clingo.Number(t)]) for t in range(1, horizon + 1)]
    ctl.ground([*parts, ("check", [clingo.Number(horizon)])])
    ctl.assign_external(clingo.Function("query", [clingo.Number(horizon)]), True)
    result = ctl.solve()
    return time.process_time() - started, "sat" if result.satisfiable else "unsat"


def backend_call(encoding: str) -> tuple[float, int]:
    from pyasp_games.domains.puzzle import solve

    started = time.process_time()  # no time limit: the backend runs in this process
    out = solve(boards()[0], "asp", encoding=encoding, trust_encoding=True)
    return time.process_time() - started, out.answer


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--time-limit", type=float, default=600.0, help="wall seconds per run")
    parser.add_argument("--cpu-limit", type=int, default=30, help="CPU seconds per run")
    parser.add_argument("--variants", nargs="+", default=["sliding", *ABLATIONS])
    parser.add_argument("--bare", action="store_true", help="thesis board 1 against two bare clingo calls")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each --bare measurement")
    parser.add_argument("--bare-only", action="store_true", help="only the --bare measurement")
    parser.add_argument("--processes", action="store_true", help="--bare as whole processes")
    parser.add_argument("--one", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--one-bare", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one_bare:
        print(bare_call(args.one_bare[0], int(args.one_bare[1]))[1])
        return
    if args.one:
        resource.setrlimit(resource.RLIMIT_CPU, (args.cpu_limit, args.cpu_limit + 5))
        print(json.dumps(run_one(int(args.one[0]), args.one[1], args.time_limit)))
        return
    from pyasp_games.engines.resources import encoding_path

    with tempfile.TemporaryDirectory(prefix="pyasp-ablations-") as tmp:
        files = {"sliding": str(encoding_path("puzzle", "sliding"))}
        files.update({k: str(v) for k, v in write_ablations(Path(tmp)).items()})
        files = {name: files[name] for name in args.variants}
        if args.bare_only:
            (bare_processes if args.processes else bare)(files, args.repeat)
            return
        print(f"load average before: {Path('/proc/loadavg').read_text().split()[:3]}")
        names = [b.name.split(":")[-1] for b in boards()]
        print("| board (optimum) | " + " | ".join(files) + " |")
        print("|---|" + "---:|" * len(files))
        par2 = dict.fromkeys(files, 0.0)
        for i, board in enumerate(boards()):
            cells = []
            for name, path in files.items():
                cmd = [sys.executable, __file__, "--cpu-limit", str(args.cpu_limit),
                       "--time-limit", str(args.time_limit), "--one", str(i), path]  # fmt: skip
                proc = subprocess.run(cmd, capture_output=True, text=True)
                try:
                    r = json.loads(proc.stdout.strip().splitlines()[-1])
                except (IndexError, json.JSONDecodeError):
                    r = {"status": "cpu>limit"}
                ok = r["status"] == "solved" and r["answer"] == r["known"] and r["verified"]
                if ok:
                    par2[name] += r["cpu"]
                    cells.append(f"{r['cpu']:.2f}")
                else:
                    par2[name] += 2 * args.cpu_limit
                    cells.append(f"{r['status']}" if r["status"] != "solved" else "WRONG")
            print(f"| {names[i]} ({board.known}) | " + " | ".join(cells) + " |", flush=True)
        print("| **PAR-2 CPU s** | " + " | ".join(f"**{par2[n]:.1f}**" for n in files) + " |")
        print(f"load average after: {Path('/proc/loadavg').read_text().split()[:3]}")
        if args.bare:
            bare(files, args.repeat)


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _process_cpu(cmd: list[str]) -> tuple[float, float, str]:
    """CPU and wall seconds of one child process, and its first line of output."""
    cpu, wall = _children_cpu(), time.monotonic()
    done = subprocess.run(cmd, capture_output=True, text=True)
    first = (done.stdout.splitlines() or [""])[0]
    return _children_cpu() - cpu, time.monotonic() - wall, first


#: One bare clingo call in a fresh Python that imports clingo and nothing else.
_BARE = """
import sys, clingo
encoding, facts, horizon = sys.argv[1], sys.argv[2], int(sys.argv[3])
ctl = clingo.Control(["--warn=none"])
ctl.load(encoding)
ctl.load(facts)
parts = [("base", [])] + [("step", [clingo.Number(t)]) for t in range(1, horizon + 1)]
ctl.ground([*parts, ("check", [clingo.Number(horizon)])])
ctl.assign_external(clingo.Function("query", [clingo.Number(horizon)]), True)
print("sat" if ctl.solve().satisfiable else "unsat")
"""


def _bare_process(encoding: str, facts: Path, horizon: int) -> list[str]:
    return [sys.executable, "-P", "-c", _BARE, encoding, str(facts), str(horizon)]


def bare_processes(files: dict[str, str], repeat: int) -> None:
    """:func:`bare` as whole processes: the command against two fresh bare calls."""
    from pyasp_games.domains.puzzle.asp import facts
    from pyasp_games.engines.child import python_command
    from pyasp_games.engines.resources import instance_dir

    board = str(instance_dir("puzzle") / "thesis-board1.txt")
    facts_file = Path(tempfile.mkdtemp(prefix="pyasp-bare-")) / "board1.lp"
    facts_file.write_text(facts(boards()[0]))
    print(f"load average before: {Path('/proc/loadavg').read_text().split()[:3]}")
    print(
        "| encoding | command cpu s (wall) | bare h=22 cpu s (wall) | bare h=24 cpu s (wall)"
        " | ratio (cpu) | ratio (wall) | ratio of the minima (cpu) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, path in files.items():
        command = python_command("pyasp_games", "puzzle", "solve", board, "-b", "asp",
                                 "--encoding", path, "--trust-encoding")
        # in rounds (the command, then the two bare calls): a load that drifts during the
        # measurement weighs on both sides alike
        runs, low, high = [], [], []
        for _ in range(repeat):
            runs.append(_process_cpu(command))
            low.append(_process_cpu(_bare_process(path, facts_file, 22)))
            high.append(_process_cpu(_bare_process(path, facts_file, 24)))
        assert all("solved" in first and "24" in first for _, _, first in runs), runs
        assert {f for _, _, f in low} == {"unsat"} and {f for _, _, f in high} == {"sat"}
        b = statistics.median(c for c, _, _ in runs)
        w = statistics.median(w for _, w, _ in runs)
        lo, hi = (statistics.median(c for c, _, _ in x) for x in (low, high))
        wlo, whi = (statistics.median(w for _, w, _ in x) for x in (low, high))
        least = min(c for c, _, _ in runs) / (min(c for c, _, _ in low) + min(c for c, _, _ in high))
        print(
            f"| {name} | {b:.3f} ({w:.2f}) | {lo:.3f} ({wlo:.2f}) | {hi:.3f} ({whi:.2f})"
            f" | {b / (lo + hi):.2f} | {w / (wlo + whi):.2f} | {least:.2f} |",
            flush=True,
        )
    print(f"load average after: {Path('/proc/loadavg').read_text().split()[:3]}")


def bare(files: dict[str, str], repeat: int) -> None:
    """The table of the backend against two bare clingo calls on thesis board 1."""
    print()
    print("| encoding | backend cpu s (median) | bare h=22 cpu s | bare h=24 cpu s | ratio |")
    print("|---|---:|---:|---:|---:|")
    for name, path in files.items():
        runs = [backend_call(path)[0] for _ in range(repeat)]
        low = [bare_call(path, 22) for _ in range(repeat)]
        high = [bare_call(path, 24) for _ in range(repeat)]
        assert {s for _, s in low} == {"unsat"} and {s for _, s in high} == {"sat"}
        b, lo, hi = (statistics.median(x) for x in (runs, [t for t, _ in low], [t for t, _ in high]))
        print(f"| {name} | {b:.3f} | {lo:.3f} | {hi:.3f} | {b / (lo + hi):.2f} |", flush=True)


if __name__ == "__main__":
    main()
