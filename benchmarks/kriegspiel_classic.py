"""Classic (perfect-information) KBBK and KBNK by retrograde analysis (issue 30, part 2).

For each board and ending: the whole table of positions with White to move
(:func:`pyasp_games.domains.kriegspiel.classic.classic_table`), its legal positions, how
many are forced mates, the longest mate and one position that needs it, with the CPU
seconds (``time.process_time``) and wall seconds of the build (the kernels compiled, or
loaded from numba's cache, before the clock starts) and the machine's load. KBBK counts
the positions with the bishops on squares of opposite colours apart: with both on one
colour, no position is a mate (checked: all are draws).

    python benchmarks/kriegspiel_classic.py --boards 5x5 6x6 7x7 8x8

Results: benchmarks/RESULTS.md ("Kriegspiel, two pieces").
"""

from __future__ import annotations

import argparse
import os
import resource
import time

import numpy as np

from pyasp_games.domains.kriegspiel.classic import ILLEGAL, classic_table
from pyasp_games.domains.kriegspiel.model import Board, board_of, square_name
from pyasp_games.domains.kriegspiel.tablebase import NO_MATE


def measure(board: Board, pieces: str) -> str:
    load = os.getloadavg()[0]
    wall, cpu = time.perf_counter(), time.process_time()
    table = classic_table(board, pieces)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    legal = table != ILLEGAL
    if pieces == "BB":  # opposite colours: the only ones that can mate
        colour = np.array([sum(board.coords(s)) % 2 for s in range(board.size)])
        apart = (colour[:, None] != colour[None, :])[None, :, :, None]
        same = legal & ~apart
        if (table[same] < NO_MATE).any():
            raise SystemExit("two bishops on one colour mated: the table is wrong")
        legal &= apart
    won = legal & (table < NO_MATE)
    most = int(table[won].max())
    where = tuple(int(s) for s in np.argwhere(table == most)[0])
    names = ["K", *pieces, "k"]
    example = " ".join(f"{m}{square_name(board, s)}" for m, s in zip(names, where, strict=True))
    return (f"| K{pieces}K | {board.label} | {int(legal.sum()):,} | {int(won.sum()):,} | {most} "
            f"| {example} | {cpu:.1f} | {wall:.1f} | {load:.1f} |")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--boards", nargs="+", default=["5x5", "6x6", "7x7", "8x8"])
    parser.add_argument("--endings", nargs="+", default=["BB", "BN"])
    args = parser.parse_args()
    classic_table(Board(3, 3), "BN")  # the kernels compiled (or loaded) off the clock
    print("| ending | board | legal positions (WTM) | forced mates | longest | a longest one | CPU s | wall s | load |")
    print("|---|---|---|---|---|---|---|---|---|")
    for label in args.boards:
        for pieces in args.endings:
            print(measure(board_of(label), pieces), flush=True)
    print(f"peak memory: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB")


if __name__ == "__main__":
    main()
