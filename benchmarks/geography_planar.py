"""Planar Geography (issue 26): how often the crossing gadget keeps the winner, and what
``geography planarize`` does with Schaefer's QBF graphs and random digraphs.

    python benchmarks/geography_planar.py            # the three tables of RESULTS.md
    python benchmarks/geography_planar.py --gadgets 500 --qbfs 10 --digraphs 50

1. Gadgets put at random arc pairs of random digraphs (3 to 8 vertices, 1 to 4 pairs, at
   random places along the arcs): is the winner kept when no play uses both arcs of a
   pair (safe), and how often does it change when one does (unsafe)?
2. Schaefer's graphs of random QBFs (tests/test_geography_tqbf.py's generator): planar
   output, the winner the formula's truth, crossings, sizes, seconds.
3. Random digraphs (5 to 10 vertices): planarized with the same winner, or refused.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import networkx as nx

from pyasp_games.domains.geography.planar import (
    UnsafeCrossing,
    planarize,
)
from pyasp_games.domains.geography.tqbf import parse_qdimacs, qbf_true, to_geography

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.test_geography_planar import gadget_trial, random_digraph, winner
from tests.test_geography_tqbf import random_qdimacs


def gadgets(count: int) -> None:
    rnd = random.Random(1)
    safe = kept = unsafe = changed = 0
    for _ in range(count):
        trial = gadget_trial(rnd, 8, 4)
        if trial is None:
            continue
        g, out, is_safe, _ = trial
        same = winner(g, "0") == winner(out, "0")
        if is_safe:
            safe, kept = safe + 1, kept + same
        else:
            unsafe, changed = unsafe + 1, changed + (not same)
    print("| placements | safe | winner kept (safe) | unsafe | winner changed (unsafe) |")
    print("|---|---|---|---|---|")
    print(f"| {safe + unsafe:,} | {safe:,} | {kept:,} | {unsafe:,} | {changed:,} |")


def qbfs(count: int) -> None:
    rng = random.Random(3)
    print("| QBF | vertices | planar already | crossings | output vertices | winner = truth | s |")
    print("|---|---|---|---|---|---|---|")
    for k in range(count):
        q = parse_qdimacs(random_qdimacs(rng)[0])
        g = to_geography(q)
        started = time.perf_counter()
        try:
            p = planarize(g, "in1")
        except UnsafeCrossing as refused:
            print(f"| {k} | {len(g)} | no | refused: {refused} | | | |")
            continue
        seconds = time.perf_counter() - started
        planar = nx.check_planarity(p.graph.to_networkx().to_undirected())[0]
        truth = winner(p.graph, "in1") == ("first" if qbf_true(q) else "second")
        assert planar and truth
        print(f"| {k} | {len(g)} | {'yes' if p.planar_input else 'no'} | {p.crossings} | "
              f"{len(p.graph)} | yes | {seconds:.2f} |")


def digraphs(count: int) -> None:
    rnd = random.Random(5)
    planar = redrawn = refused = 0
    for _ in range(count):
        n = rnd.randint(5, 10)
        g = random_digraph(rnd, n, rnd.randint(n, 3 * n))
        try:
            p = planarize(g, "0")
        except UnsafeCrossing:
            refused += 1
            continue
        assert p.planar_output and winner(g, "0") == winner(p.graph, "0")
        planar += p.planar_input
        redrawn += not p.planar_input
    print("| random digraphs | planar already | redrawn, same winner | refused (a play uses two crossing arcs) |")
    print("|---|---|---|---|")
    print(f"| {count} | {planar} | {redrawn} | {refused} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gadgets", type=int, default=2500)
    parser.add_argument("--qbfs", type=int, default=25)
    parser.add_argument("--digraphs", type=int, default=150)
    args = parser.parse_args()
    gadgets(args.gadgets)
    print()
    qbfs(args.qbfs)
    print()
    digraphs(args.digraphs)


if __name__ == "__main__":
    main()
