"""Duplicate-path pruning in the ``pdb`` search (``puzzle/redundant_moves.py``), measured by
the length of the forbidden move strings: the automaton's size and build time, and the
nodes and CPU seconds of the search with it, each length in this process.

``--table``: per length, the forbidden strings, the automaton's states and the CPU seconds
of building it. ``--korf100``: Korf's 100 fifteen-puzzle boards with the 6-6-3 tables
(built in the cache if missing), every length compared with the published optimum.
``--instance I --top T``: Korf and Taylor's 24-puzzle instance ``I`` (6-6-6-6 tables from
the cache), the IDA* iterations up to threshold ``T``, nodes per iteration. Length 0 is
the search without the automaton (it only never undoes the last move).

    python benchmarks/puzzle_redundant_moves.py --table --lengths 8 10 12
    python benchmarks/puzzle_redundant_moves.py --korf100 --lengths 0 8 10 12
    python benchmarks/puzzle_redundant_moves.py --instance 1 --top 96 --lengths 0 10 12
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from puzzle_dual_lookups import iterations_row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", action="store_true", help="the automaton per length")
    parser.add_argument("--korf100", action="store_true", help="Korf's 100 fifteen-puzzle boards")
    parser.add_argument("--instance", type=int, default=None, help="a 24-puzzle instance, 1-10")
    parser.add_argument("--top", type=int, default=91, help="the last IDA* threshold searched")
    parser.add_argument("--lengths", type=int, nargs="*", default=[0, 10], help="0 to 14")
    args = parser.parse_args(argv)
    if args.instance is not None and not 1 <= args.instance <= 10:
        parser.error("--instance is 1-10")
    if any(not 0 <= n <= 14 for n in args.lengths):
        parser.error("--lengths are 0 to 14")

    from pyasp_games.domains.puzzle import load_boards
    from pyasp_games.domains.puzzle.databases import pattern_database, tile_partition
    from pyasp_games.domains.puzzle.pattern_search import PatternSearch
    from pyasp_games.domains.puzzle.redundant_moves import build_automaton, forbidden_strings
    from pyasp_games.engines.resources import instance_dir

    print(f"load average at the start: {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)\n")
    if args.table:
        print("| length | forbidden strings | automaton states | build CPU s | load |")
        print("|---|---|---|---|---|")
        for n in args.lengths:
            start = time.process_time()
            strings = forbidden_strings(n)
            table = build_automaton(n)  # the strings again, and the automaton
            cpu = (time.process_time() - start) / 2
            print(f"| {n} | {len(strings):,} | {table.shape[0]:,} | {cpu:.1f} (strings and automaton, "
                  f"halved: each found twice) | {os.getloadavg()[0]:.1f} |", flush=True)  # fmt: skip
        print()
    if args.korf100:
        boards = load_boards(instance_dir("puzzle") / "korf100.txt")
        dbs = [pattern_database(4, 4, "blank-first", p) for p in tile_partition(4, 4, "blank-first")]
        tables = ([db.tiles for db in dbs], [db.table for db in dbs], [db.cell_map for db in dbs])
        print("| Korf's 100, 6-6-3 | nodes expanded | search CPU s | nodes per CPU s | lengths = published | load |")
        print("|---|---|---|---|---|---|")
        for n in args.lengths:
            PatternSearch(boards[0], *tables, pruning=n).run(None)  # compiled, automaton built
            nodes, cpu, right = 0, 0.0, 0
            for board in boards:
                search = PatternSearch(board, *tables, pruning=n)
                start = time.process_time()
                search.run(None)
                cpu += time.process_time() - start
                nodes += search.nodes
                right += len(search.plan()) == board.known
            print(f"| {n} | {nodes:,} | {cpu:.2f} | {nodes / cpu:,.0f} | {right}/100 | "
                  f"{os.getloadavg()[0]:.1f} |", flush=True)  # fmt: skip
        print()
    if args.instance is not None:
        boards = {
            int(b.name.rsplit(":", 1)[1]): b
            for b in load_boards(instance_dir("puzzle") / "korf-taylor24.txt")
        }
        dbs = [pattern_database(5, 5, "blank-first", p) for p in tile_partition(5, 5, "blank-first")]
        tables = ([db.tiles for db in dbs], [db.table for db in dbs], [db.cell_map for db in dbs])
        print(f"| instance {args.instance}, thresholds to {args.top}: length | thresholds | nodes per iteration | "
              "nodes expanded | CPU s | nodes per CPU s | load |")  # fmt: skip
        print("|---|---|---|---|---|---|---|")
        for n in args.lengths:
            print(iterations_row(n, boards[args.instance], tables, args.top, pruning=n), flush=True)
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
