"""ASP and SAT on the 30-40-move 15-puzzle boards: each idea on each board, by CPU time.

Runs every (variant, board) pair in a fresh child process (``python THIS --one ...``)
through the library call ``pyasp_games.domains.puzzle.solve(board, backend, Limits(...),
**options)``, so each run has its own process, caches and statistics, and the plan
is replayed and verified as always. Two limits hold for each run:

- a wall-clock ``--time-limit`` (the library's own, status ``unknown`` when reached);
- a CPU budget ``--cpu-limit`` (``RLIMIT_CPU`` on the child, which the library's
  forked solver process inherits): on a machine shared with other jobs the wall
  clock measures the load, the CPU budget measures the solver. A run killed by it
  is reported as ``cpu>N``.

The reported ``cpu s`` is the backend's own ``stats["cpu_seconds"]``
(``time.process_time`` inside the solving process, all threads; it includes loading
the pattern databases when they are used). Conflicts and choices (clingo) or
conflicts and decisions (PySAT) are summed over all horizons.

Variants are ``NAME=BACKEND:JSON-OPTIONS``; by default the ones measured in
``benchmarks/RESULTS.md`` (session 3). Example::

    python benchmarks/puzzle_deep.py --time-limit 900 --cpu-limit 60 \\
        --variant 'asp-prune=asp:{"lower_bound": "pdb", "prune": "pdb"}' --out /tmp/deep.md

Pattern databases come from the user cache (``pyasp-games puzzle pdb build`` first,
or the first run builds them, which then counts in its CPU time).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

BOARDS = "random-30-40.txt"
DEFAULT_VARIANTS = {
    "asp": 'asp:{"lower_bound": "pdb"}',
    "asp-prune": 'asp:{"lower_bound": "pdb", "prune": "pdb"}',
    "asp-prune-md-start": 'asp:{"prune": "pdb"}',
    "sat-plain": 'sat:{"lower_bound": "pdb", "away_counter": false}',
    "sat": 'sat:{"lower_bound": "pdb"}',
    "sat-md-start": "sat:{}",
    "sat-prune": 'sat:{"lower_bound": "pdb", "prune": "pdb", "away_counter": false}',
}


def run_one(board_name: str, backend: str, options: dict, time_limit: float, cpu: int) -> dict:
    """In the child: solve one board, return a summary (the CPU budget is already set)."""
    from pyasp_games.domains.puzzle import load_boards, solve
    from pyasp_games.engines.limits import Limits
    from pyasp_games.engines.resources import instance_dir

    boards = {b.name.split(":")[-1]: b for b in load_boards(instance_dir("puzzle") / BOARDS)}
    board = boards[board_name]
    started = time.perf_counter()
    out = solve(board, backend, Limits(time_limit=time_limit), **options)
    s = out.stats
    status = out.status
    if status == "error" and "cpu_seconds" not in s:  # the solver child was killed by RLIMIT_CPU
        status = f"cpu>{cpu}"
    return {
        "board": board_name,
        "known": board.known,
        "status": status,
        "answer": out.answer,
        "verified": s.get("verified"),
        "wall": round(time.perf_counter() - started, 2),
        "cpu": s.get("cpu_seconds"),
        "horizons": s.get("horizons"),
        "conflicts": s.get("conflicts"),
        "choices": s.get("choices", s.get("decisions")),
        "propagator": s.get("propagator"),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--time-limit", type=float, default=60.0, help="wall seconds per run")
    parser.add_argument("--cpu-limit", type=int, default=60, help="CPU seconds per run")
    parser.add_argument("--variant", action="append", help="NAME=BACKEND:JSON (repeatable)")
    parser.add_argument("--board", action="append", help="r30 r34 r36 r38 r40 (default: all)")
    parser.add_argument("--out", type=Path, help="also write the Markdown table here")
    parser.add_argument("--one", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        board, backend, options, _ = args.one
        resource.setrlimit(resource.RLIMIT_CPU, (args.cpu_limit, args.cpu_limit + 5))
        print(
            json.dumps(
                run_one(board, backend, json.loads(options), args.time_limit, args.cpu_limit)
            )
        )
        return
    variants = dict(v.split("=", 1) for v in args.variant) if args.variant else DEFAULT_VARIANTS
    boards = args.board or ["r30", "r34", "r36", "r38", "r40"]
    lines = [
        f"load average before: {Path('/proc/loadavg').read_text().split()[:3]}",
        "",
        "| board (optimum) | variant | status | answer | cpu s | wall s | horizons | conflicts | choices | cuts |",
        "| --- | --- | --- | ---: | ---: | ---: | --- | ---: | ---: | ---: |",
    ]
    print("\n".join(lines), flush=True)
    for name, spec in variants.items():
        backend, options = spec.split(":", 1)
        for board in boards:
            cmd = [sys.executable, __file__, "--time-limit", str(args.time_limit)]
            cmd += ["--cpu-limit", str(args.cpu_limit), "--one", board, backend, options, name]
            proc = subprocess.run(cmd, capture_output=True, text=True)
            try:
                r = json.loads(proc.stdout.strip().splitlines()[-1])
            except (IndexError, json.JSONDecodeError):
                r = {"board": board, "status": f"failed: {proc.stderr.strip()[-200:]}"}
            prop = r.get("propagator") or {}
            cuts = prop.get("nogoods", prop.get("clauses", "-"))
            horizons = ",".join(map(str, r.get("horizons") or [])) or "-"
            line = (
                f"| {board} ({r.get('known', '?')}) | {name} | {r['status']} | {r.get('answer') or '-'} "
                f"| {r.get('cpu') or '-'} | {r.get('wall', '-')} | {horizons} | {r.get('conflicts') or '-'} "
                f"| {r.get('choices') or '-'} | {cuts} |"
            )
            lines.append(line)
            print(line, flush=True)
    if args.out:
        args.out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
