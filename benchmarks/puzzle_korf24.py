"""Korf and Taylor's ten 24-puzzle instances with IDA* and the 6-6-6-6 pattern databases.

First the four databases (blank-first goal): read from the user's cache, or built and
timed (``--fresh-cache``: in a new cache folder; wall and CPU seconds per table, its
size). Then each instance asked for (``--instances 2 6``; default instance 2, the
95-move one) is solved in this process with the ``pdb`` backend under ``--time-limit``
seconds each; its length is checked against the published optimum and its plan
replayed (the verdict). Prints Markdown: per instance the nodes expanded, wall and CPU
seconds of the search and the node rate (nodes per CPU second), and the machine's load.

    nice -n 10 python benchmarks/puzzle_korf24.py --instances 2 --time-limit 600 --pruning 12

``--checkpoint FILE`` resumes each instance from FILE and saves its state there (every
minute and when its limit stops it): an instance can be run over several sittings.

The campaign of all ten (an hour each) is ``pyasp-games bench
benchmarks/suites/puzzle-korf24.toml``.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time


def cpu_seconds() -> float:
    """CPU seconds of this process and its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, nargs="*", default=[2], help="ids 1-10")
    parser.add_argument("--time-limit", type=float, default=3600.0, help="seconds per instance")
    parser.add_argument("--lookups", default="reflected", help="reflected (default), dual or dual-bpmx")
    parser.add_argument("--pruning", type=int, default=None,
                        help="the longest redundant move strings pruned (default: the search's, 0: none)")
    parser.add_argument("--checkpoint", default=None,
                        help="a checkpoint file: resume each instance from it, save its state there")
    parser.add_argument("--fresh-cache", action="store_true", help="build the databases anew")
    args = parser.parse_args(argv)
    if args.fresh_cache:
        os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="pdb24-bench-")

    from pyasp_games.domains.puzzle import load_boards, solve
    from pyasp_games.domains.puzzle.databases import (
        database_path,
        pattern_database,
        shared_table,
        tile_partition,
    )
    from pyasp_games.engines.limits import Limits
    from pyasp_games.engines.resources import instance_dir

    if args.lookups not in ("reflected", "dual", "dual-bpmx"):
        parser.error(f"unknown lookups {args.lookups!r}")
    print(f"lookups: {args.lookups}, pruning: {args.pruning if args.pruning is not None else 'default'}")
    print(f"load average at the start: {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)\n")
    print("| pattern (tiles) | table (tiles) | bytes | source | wall s | CPU s |")
    print("|---|---|---|---|---|---|")
    for tiles in tile_partition(5, 5, "blank-first", "6-6-6-6"):
        base = shared_table(5, 5, "blank-first", tiles)[0]
        cached = database_path(5, 5, "blank-first", base).is_file()
        wall, cpu = time.perf_counter(), cpu_seconds()
        db = pattern_database(5, 5, "blank-first", tiles)
        wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
        source = "cache" if cached else "built"
        print(
            f"| {' '.join(map(str, tiles))} | {' '.join(map(str, base))} | {len(db.table):,} | "
            f"{source} | {wall:.1f} | {cpu:.1f} |"
        )
    boards = {
        int(b.name.rsplit(":", 1)[1]): b
        for b in load_boards(instance_dir("puzzle") / "korf-taylor24.txt")
    }
    print()
    print(
        "| instance | published optimum | found | verified | h0 | nodes expanded | wall s | CPU s | nodes per CPU s | load |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    wrong = 0
    for i in args.instances:
        board = boards[i]
        wall, cpu = time.perf_counter(), cpu_seconds()
        out = solve(board, "pdb", Limits(time_limit=args.time_limit), partition="6-6-6-6",
                    lookups=args.lookups, pruning=args.pruning, checkpoint=args.checkpoint)
        wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
        nodes = out.stats.get("nodes") or 0
        ok = out.answer == board.known and out.verdict.verified is True
        wrong += out.status == "solved" and not ok
        found = (
            out.answer
            if out.answer is not None
            else f"{out.status} (bound {out.stats.get('thresholds', [None])[-1]})"
        )
        this_run = nodes
        if out.stats.get("resumed"):  # nodes are the search's total, CPU this run's only
            found = f"{found} (resumed {out.stats['resumed']})"
            this_run = nodes - int(out.stats.get("nodes_before") or nodes)  # the rate: this run's
        print(f"| {i} | {board.known} | {found} | {out.verdict.verified} | {out.stats.get('h0')} | {nodes:,} | "
              f"{wall:.1f} | {cpu:.1f} | {this_run / max(cpu, 1e-9):,.0f} | {os.getloadavg()[0]:.1f} |", flush=True)  # fmt: skip
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
