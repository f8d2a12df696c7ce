"""Kriegspiel KBBK and KBNK: the whole tables over metapositions (issue 30, part 2).

For each board and ending: every full-uncertainty start (White's king and pieces placed,
the black king unknown), every metaposition reachable from them (up to the board's
symmetries; the compiled walk of :mod:`pyasp_games.domains.kriegspiel.reachable`) and
their worst-case values (:func:`~pyasp_games.domains.kriegspiel.tablebase.values`), with
the CPU seconds (``time.process_time``), wall seconds and peak memory of the build and
the machine's load. The starts' distribution of values is printed, and for KBNK the
colour-of-corner split: the starts whose bishop stands on the colour of a1 (on odd
boards the colour of all four corners) and the others.

This is what ``kriegspiel table --board RxC --piece BB|BN`` computes before it builds the
strategies and the checker replays them (that command's times are measured separately).

    python benchmarks/kriegspiel_pairs.py --boards 5x5 6x6 --endings BB BN

Results: benchmarks/RESULTS.md ("Kriegspiel, two pieces").
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from collections import Counter

from pyasp_games.domains.kriegspiel.model import Board, board_of, starts
from pyasp_games.domains.kriegspiel.tablebase import NO_MATE, build, values


def spread(worth: list[int]) -> str:
    counts = Counter("none" if v >= NO_MATE else v for v in worth)
    keys = sorted((k for k in counts if k != "none"), key=int) + (["none"] if "none" in counts else [])
    return "  ".join(f"{k}: {counts[k]}" for k in keys)


def measure(board: Board, piece: str) -> None:
    load = os.getloadavg()[0]
    wall, cpu = time.perf_counter(), time.process_time()
    ms = starts(board, piece)
    table = build(ms)
    value = values(table)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    worth = [int(value[i]) for i in table.roots]
    won = [v for v in worth if v < NO_MATE]
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print(f"K{piece}K {board.label}: {len(ms):,} starts, {len(won):,} forced mates, longest "
          f"{max(won, default=0)}; {len(table.keys):,} metapositions, {len(table.owner):,} attempts; "
          f"CPU {cpu:.1f} s, wall {wall:.1f} s, peak memory {peak} MB, load {load:.1f}")  # fmt: skip
    print(f"  worst-case moves to mate: {spread(worth)}")
    if piece == "BN":
        for colour, said in ((0, "on a1's colour"), (1, "on the other colour")):
            part = [v for m, v in zip(ms, worth, strict=True) if board.colour(m.squares_of_pieces[0]) == colour]
            won = [v for v in part if v < NO_MATE]
            print(f"  bishop {said}: {len(won):,} of {len(part):,} forced, longest {max(won, default=0)}; {spread(part)}")
    print(flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--boards", nargs="+", default=["4x4", "5x5", "6x6"])
    parser.add_argument("--endings", nargs="+", default=["BB", "BN"])
    args = parser.parse_args()
    for label in args.boards:
        for piece in args.endings:
            measure(board_of(label), piece)


if __name__ == "__main__":
    main()
