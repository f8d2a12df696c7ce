"""The challenged game P0 of issue 43 (planar_challenge.py): sizes, crossings, build CPU,
and the winner's strategy mapped and checked on P0.

    python benchmarks/geography_challenge.py                       # the table of RESULTS.md
    python benchmarks/geography_challenge.py --sizes 8 --count 1 --no-complete
    python benchmarks/geography_challenge.py --sizes 10 --count 1 --no-complete --breakdown

Games: random tournaments (``--count`` per size, each pair one way at random, start 0,
generated with ``random.Random(--seed)`` exactly as ``geography_planar_campaign.py
--tournament`` does) in edge geography, and the complete digraphs K6-K10 in both
variants. Per game: P0's vertices, arcs, crossings of its book drawing (each proved
safe), the CPU seconds to build it; the game (the base P0 is built from) solved natively
with its winner's certificate; then the winner's strategy on P0 mapped from it and
checked by an exhaustive walk over every reply of the loser (up to ``--budget`` positions
of P0; ``-`` beyond), the CPU of that walk and the mean CPU per strategy call.
``--breakdown``: after each row, the crossings by the kinds of their two arcs (an arc's
kind: its tail's and head's vertex kinds, ``(-1)`` for an arc into the layer below).
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pyasp_games.domains.geography.model import Geography, make_instance
from pyasp_games.domains.geography.native import solve_game, strategy_proof
from pyasp_games.domains.geography.planar_challenge import (
    Challenged,
    challenged,
    challenged_strategy,
)
from pyasp_games.engines.graphs import from_arcs


def game(n: int, arcs: list[tuple[int, int]], variant: str) -> Geography:
    g = from_arcs([(str(u), str(v)) for u, v in arcs], [str(i) for i in range(n)])
    return make_instance(g, "0", variant)


def walk(p0: Geography, answer: str, strategy, budget: int) -> tuple[bool | None, int, int]:
    """Every play of P0 from the start with the winner's moves by ``strategy`` and every
    reply of the loser (a depth-first walk, one play held at a time): ``(all end with the
    loser stuck, or None beyond the budget; positions; strategy calls)``."""
    succ = p0.graph.succ
    winner_moves_first = answer == "first"
    play = [p0.start]
    used = {p0.start}
    count = [0, 0]

    def wins() -> bool | None:
        count[0] += 1
        if count[0] > budget:
            return None
        options = [w for w in succ[play[-1]] if w not in used]
        if (len(play) % 2 == 1) == winner_moves_first:
            count[1] += 1
            w = strategy(play) if options else None
            if w not in options:
                return False
            tries = [w]
        else:
            tries = options
        for w in tries:
            play.append(w)
            used.add(w)
            result = wins()
            play.pop()
            used.discard(w)
            if result is not True:
                return result
        return True

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(p0)))
    try:
        result = wins()
    finally:
        sys.setrecursionlimit(limit)
    return result, count[0], count[1]


def breakdown(ch: Challenged, top: int = 12) -> str:
    """The most frequent pairs of arc kinds among the crossings, one line each."""
    info = ch.info

    def kind(i: int) -> str:
        a, b = ch.book.arcs[i]
        shift = info[b][1] - info[a][1]
        return f"{info[a][0]}>{info[b][0]}" + (f"({shift:+d})" if shift else "")

    pairs = collections.Counter(tuple(sorted((kind(i), kind(j)))) for i, j in ch.crossing_pairs)
    return "\n".join(f"    {count:>8,}  {a}  x  {b}" for (a, b), count in pairs.most_common(top))


def row(label: str, g: Geography, budget: int, sources: bool = False) -> str:
    began = time.process_time()
    ch = challenged(g)
    build = time.process_time() - began
    solved = solve_game(ch.base, line=False)
    winner = "first" if solved.first_wins else "second"
    proof = strategy_proof(ch.base, search=solved.search)
    began = time.process_time()
    ok, positions, calls = walk(ch.game, winner, challenged_strategy(ch, winner, proof), budget)
    checked = time.process_time() - began
    size = ch.sizes
    verdict = {True: "yes", False: "NO", None: "-"}[ok]
    per_call = f"{1e6 * checked / calls:.0f}" if calls else "-"
    return (f"| {label} | {len(ch.base)} / {ch.base.edge_count} | {ch.layers} | {size['vertices']:,} | "
            f"{size['arcs']:,} | {size['crossings']:,} | {size['crossings'] / max(1, size['arcs']):.1f} | "
            f"{build:.2f} | {winner} | {verdict} ({positions:,} positions) | {checked:.2f} | {per_call} |"
            + (f"\n{breakdown(ch)}" if sources else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 10])
    parser.add_argument("--count", type=int, default=3)
    parser.add_argument("--seed", type=int, default=43)
    parser.add_argument("--budget", type=int, default=200_000, help="positions of P0 walked at most per game")
    parser.add_argument("--no-complete", action="store_true", help="leave out K6-K10")
    parser.add_argument("--breakdown", action="store_true", help="the crossings by arc kinds, per game")
    args = parser.parse_args()
    print("| game | base vertices / arcs | layers L | P0 vertices | P0 arcs | crossings | crossings per arc | "
          "build CPU s | winner | strategy checked on P0 | walk CPU s | µs per call |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    started = time.perf_counter(), time.process_time()
    rng = random.Random(args.seed)  # as geography_planar_campaign.py --tournament draws them
    for n in args.sizes:
        games = [[(u, v) if rng.random() < 0.5 else (v, u) for u in range(n) for v in range(u + 1, n)]
                 for _ in range(args.count)]
        for k, arcs in enumerate(games):
            print(row(f"tournament {n} #{k} edge", game(n, arcs, "edge"), args.budget, args.breakdown), flush=True)
    if not args.no_complete:
        for n in range(6, 11):
            complete = [(u, v) for u in range(n) for v in range(n) if u != v]
            for variant in ("vertex", "edge"):
                print(row(f"K{n} {variant}", game(n, complete, variant), args.budget, args.breakdown), flush=True)
    print(f"\n{time.perf_counter() - started[0]:.0f} s wall, {time.process_time() - started[1]:.0f} s CPU")


if __name__ == "__main__":
    main()
