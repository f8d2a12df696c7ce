"""Korf's 100 15-puzzle instances solved optimally with the pdb backend.

Measures, in a fresh cache folder unless ``--keep-cache``: the time to build the
6-6-3 pattern databases (blank-first goal), then every instance with IDA* + the
databases, in ``--workers`` processes, and checks every length against Korf's
published optimum. Prints a Markdown summary (total, build, per-instance nodes
and seconds: mean, median, max) and writes per-instance rows with ``--csv FILE``.

    python benchmarks/puzzle_korf100.py --workers 2 --csv benchmarks/out/korf100.csv
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path


def solve_one(board_and_partition: tuple) -> tuple:
    from pyasp_games.domains.puzzle import solve

    board, partition = board_and_partition
    out = solve(board, "pdb", partition=partition)
    return (
        board.name,
        board.known,
        out.answer,
        out.stats.get("nodes"),
        out.seconds,
        out.verdict.verified,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--partition", default="6-6-3")
    parser.add_argument("--first", type=int, default=100, help="only the first N instances")
    parser.add_argument("--keep-cache", action="store_true", help="reuse the user's database cache")
    parser.add_argument("--csv", type=Path)
    args = parser.parse_args(argv)
    if not args.keep_cache:
        os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="pdb-bench-")

    from pyasp_games.domains.puzzle import load_boards
    from pyasp_games.domains.puzzle.databases import pattern_database, tile_partition
    from pyasp_games.engines.resources import instance_dir

    boards = load_boards(instance_dir("puzzle") / "korf100.txt")[: args.first]
    start = time.perf_counter()
    for tiles in tile_partition(4, 4, "blank-first", args.partition):
        pattern_database(4, 4, "blank-first", tiles)
    build = time.perf_counter() - start
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        rows = list(pool.map(solve_one, [(b, args.partition) for b in boards]))
    total = time.perf_counter() - start
    wrong = [r for r in rows if r[1] != r[2] or r[5] is not True]
    nodes = [r[3] for r in rows]
    seconds = [r[4] for r in rows]
    print(
        "| instances | workers | partition | build (s) | total incl. build (s) | all optimal and verified |"
    )
    print("|---|---|---|---|---|---|")
    print(
        f"| {len(rows)} | {args.workers} | {args.partition} | {build:.1f} | {total:.1f} | {'yes' if not wrong else 'NO: ' + str(wrong)} |"
    )
    print()
    print("| per instance | mean | median | max | sum |")
    print("|---|---|---|---|---|")
    print(
        f"| nodes expanded | {statistics.mean(nodes):,.0f} | {statistics.median(nodes):,.0f} | {max(nodes):,} | {sum(nodes):,} |"
    )
    print(
        f"| seconds | {statistics.mean(seconds):.2f} | {statistics.median(seconds):.2f} | {max(seconds):.2f} | {sum(seconds):.1f} |"
    )
    if args.csv:
        args.csv.parent.mkdir(parents=True, exist_ok=True)
        with open(args.csv, "w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(["instance", "published", "found", "nodes", "seconds", "verified"])
            writer.writerows(rows)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
