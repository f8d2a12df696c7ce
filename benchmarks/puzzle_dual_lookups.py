"""Dual lookups and BPMX in the ``pdb`` search, measured against the plain (direct and
reflected) lookups: nodes, CPU seconds and the node rate, each mode in this process.

``--korf100``: Korf's 100 fifteen-puzzle boards with the 6-6-3 tables (built in the cache
if missing, a few seconds), every length compared with the published optimum.
``--instance I --top T``: Korf and Taylor's 24-puzzle instance ``I`` (6-6-6-6 tables from
the cache, ``python benchmarks/puzzle_korf24.py`` builds them), the IDA* iterations up to
threshold ``T``, nodes per iteration. ``--h0``: the heuristic's value at the root of all
ten 24-puzzle instances with and without the dual lookups. ``--eight-puzzle``: every
8-puzzle board (blank-first goal, tables of the 1-4 / 5-8 partition), the naive reading
(the tables at the inverse permutation) and the legal dual (module docstring of
``pattern_search``, recomputed here in plain Python) against the exact distances.

    python benchmarks/puzzle_dual_lookups.py --korf100
    python benchmarks/puzzle_dual_lookups.py --eight-puzzle
    python benchmarks/puzzle_dual_lookups.py --instance 2 --top 91 --h0
"""

from __future__ import annotations

import argparse
import os
import sys
import time

MODES = ("reflected", "dual", "dual-bpmx")


def iterations_row(label: object, board: object, tables: tuple, top: int, **options: object) -> str:
    """A table row: the IDA* iterations of ``board`` up to threshold ``top`` with the
    search ``options`` (its nodes per iteration, CPU and node rate), compiled first
    outside the timing; shared with ``puzzle_redundant_moves.py``."""
    from pyasp_games.domains.puzzle.pattern_search import PatternSearch

    warm = PatternSearch(board, *tables, **options)
    warm.iterate(warm.h0, None)  # compiled or loaded outside the timing
    search = PatternSearch(board, *tables, **options)
    start, bound, per = time.process_time(), search.h0, []
    while bound is not None and bound <= top:
        before = search.nodes
        bound = search.iterate(bound, None)
        per.append(f"{search.nodes - before:,}")
    cpu = time.process_time() - start
    return (f"| {label} | {' '.join(map(str, search.thresholds))} | {' / '.join(per)} | "
            f"{search.nodes:,} | {cpu:.1f} | {search.nodes / cpu:,.0f} | {os.getloadavg()[0]:.1f} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--korf100", action="store_true", help="Korf's 100 fifteen-puzzle boards")
    parser.add_argument("--instance", type=int, default=None, help="a 24-puzzle instance, 1-10")
    parser.add_argument("--top", type=int, default=91, help="the last IDA* threshold searched")
    parser.add_argument("--h0", action="store_true", help="the ten 24-puzzle instances' h0")
    parser.add_argument("--eight-puzzle", action="store_true", help="every 8-puzzle board")
    parser.add_argument("--modes", nargs="*", default=list(MODES), choices=MODES)
    args = parser.parse_args(argv)
    if args.instance is not None and not 1 <= args.instance <= 10:
        parser.error("--instance is 1-10")

    from pyasp_games.domains.puzzle import load_boards
    from pyasp_games.domains.puzzle.databases import pattern_database, tile_partition
    from pyasp_games.domains.puzzle.pattern_search import PatternSearch
    from pyasp_games.engines.resources import instance_dir

    print(f"load average at the start: {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)\n")
    if args.eight_puzzle:
        eight_puzzle()
    if args.korf100:
        boards = load_boards(instance_dir("puzzle") / "korf100.txt")
        dbs = [pattern_database(4, 4, "blank-first", p) for p in tile_partition(4, 4, "blank-first")]
        tables = ([db.tiles for db in dbs], [db.table for db in dbs], [db.cell_map for db in dbs])
        PatternSearch(boards[0], *tables, lookups="dual").run(None)  # compiled or loaded
        print("| Korf's 100, 6-6-3 | nodes expanded | search CPU s | nodes per CPU s | lengths = published | load |")
        print("|---|---|---|---|---|---|")
        for mode in args.modes:
            nodes, cpu, right = 0, 0.0, 0
            for board in boards:
                search = PatternSearch(board, *tables, lookups=mode)
                start = time.process_time()
                search.run(None)
                cpu += time.process_time() - start
                nodes += search.nodes
                right += len(search.plan()) == board.known
            print(f"| {mode} | {nodes:,} | {cpu:.1f} | {nodes / cpu:,.0f} | {right}/100 | "
                  f"{os.getloadavg()[0]:.1f} |", flush=True)  # fmt: skip
        print()
    if args.instance is not None or args.h0:
        boards = {
            int(b.name.rsplit(":", 1)[1]): b
            for b in load_boards(instance_dir("puzzle") / "korf-taylor24.txt")
        }
        dbs = [pattern_database(5, 5, "blank-first", p) for p in tile_partition(5, 5, "blank-first")]
        tables = ([db.tiles for db in dbs], [db.table for db in dbs], [db.cell_map for db in dbs])
    if args.instance is not None:
        print(f"| instance {args.instance}, thresholds to {args.top} | thresholds | nodes per iteration | "
              "nodes expanded | CPU s | nodes per CPU s | load |")  # fmt: skip
        print("|---|---|---|---|---|---|---|")
        for mode in args.modes:
            print(iterations_row(mode, boards[args.instance], tables, args.top, lookups=mode), flush=True)
        print()
    if args.h0:
        print("| instance | published optimum | h0 | h0 with dual lookups |")
        print("|---|---|---|---|")
        for i, board in sorted(boards.items()):
            plain = PatternSearch(board, *tables).h0
            dual = PatternSearch(board, *tables, lookups="dual").h0
            print(f"| {i} | {board.known} | {plain} | {dual} |")
    return 0


def eight_puzzle() -> None:
    """The dual readings against breadth-first distances on all 181,440 boards."""
    from collections import deque

    from pyasp_games.domains.puzzle.abstract_search import build_table
    from pyasp_games.domains.puzzle.databases import PatternDatabase
    from pyasp_games.domains.puzzle.model import moves_of
    from pyasp_games.domains.puzzle.pattern_search import blank_path_positions

    n, patterns = 9, ((1, 2, 3, 4), (5, 6, 7, 8))
    dbs = [PatternDatabase(3, 3, "blank-first", p, build_table(3, 3, "blank-first", p)) for p in patterns]
    goal = tuple(range(n))
    dist, queue = {goal: 0}, deque([goal])
    while queue:
        board = queue.popleft()
        b = board.index(0)
        for t in moves_of(b, 3, 3).values():
            child = list(board)
            child[b], child[t] = child[t], 0
            if tuple(child) not in dist:
                dist[tuple(child)] = dist[board] + 1
                queue.append(tuple(child))

    def read(cells_of: list[int], corrections: list[int]) -> int:
        return sum(
            max(0, db.table[db.cells_index([cells_of[v] for v in db.tiles])] - c)
            for db, c in zip(dbs, corrections, strict=True)
        )

    naive_over = worst = dual_over = beats = 0
    for board, d in dist.items():
        direct = read([board.index(v) for v in range(n)], [0, 0])
        naive = read(list(board), [0, 0])  # tile v on the cell numbered by the tile on v
        naive_over += naive > d
        worst = max(worst, naive - d)
        ypos = blank_path_positions(0, board.index(0), 3, n)
        moved = [sum(ypos[v] != v for v in p) for p in patterns]
        dual = read([board[ypos[v]] for v in range(n)], moved)
        dual_over += dual > d
        beats += dual > direct
    print(f"8-puzzle, {len(dist):,} boards: the naive reading exceeds the distance on {naive_over:,} "
          f"(by up to {worst}); the legal dual on {dual_over:,}, and beats the direct sum on {beats:,}\n")  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
