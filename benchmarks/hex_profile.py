"""Where a Hex search's time goes: the native proof-number search of one opening under
cProfile, stopped by a CPU cap, and the functions that took the most time.

    python benchmarks/hex_profile.py a4 150          # the 7 x 7 board after Black's a4
    python benchmarks/hex_profile.py c2 60 --size 6
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

from pyasp_games.domains.hex.connections import warm_up
from pyasp_games.domains.hex.model import opening
from pyasp_games.domains.hex.native import Engine, _stones
from pyasp_games.engines.limits import Deadline, LimitReached


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cell", help="Black's opening cell, e.g. a4")
    parser.add_argument("cpu", type=float, help="CPU seconds before the search is stopped")
    parser.add_argument("--size", type=int, default=7)
    parser.add_argument("--top", type=int, default=25, help="functions listed")
    args = parser.parse_args()
    game = opening(size=args.size, cell=args.cell)
    engine = Engine(game, Deadline(None, cpu_seconds=args.cpu))
    engine.compile_now()
    warm_up()  # the kernels' load is not the search's time
    black, white = _stones(game)
    profile = cProfile.Profile()
    start = time.process_time()
    profile.enable()
    try:
        verdict = "wins" if engine.prove(black, white, game.to_move) else "loses"
    except LimitReached:
        verdict = "unknown (CPU cap)"
    profile.disable()
    print(f"{args.cell}: the player to move {verdict}; {time.process_time() - start:.1f} s CPU, "
          f"{engine.nodes} positions, {len(engine.table)} settled")
    pstats.Stats(profile).sort_stats("tottime").print_stats(args.top)


if __name__ == "__main__":
    main()
