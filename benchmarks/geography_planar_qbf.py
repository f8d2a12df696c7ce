"""Planar Geography for every digraph (issue 43): strategy certificates on large planar
games, and the sizes of the QBF route on the digraphs the drawing route refuses.

    python benchmarks/geography_planar_qbf.py                  # the tables of RESULTS.md
    python benchmarks/geography_planar_qbf.py --qbfs 40 --k5 3000 --larger 300 --draw 1

1. Certificates: Schaefer's graphs of random QBFs (3 to 7 variables, 2 to 8 clauses),
   drawn planar as the QBF route draws them; those of 100 to 160 vertices (beyond the brute-force
   checker's 80) solved by ``geography solve`` (native): verified by the winner's strategy?
   its nodes, the positions the checker walks, its JSON size.
2. 5 vertices: random orientations of K5 (each pair one way, the other or both), start
   0: how many the drawing route refuses, and for those, the QBF route: the QBF's truth
   (its own search) against the game's winner (native), and the sizes (QBF, Schaefer's
   graph, crossings of the drawing, vertices of the planar graph); ``--draw K`` builds the
   planar graph of the first K refused ones in full (minutes each).
3. 6 to 10 vertices: random digraphs (out-degree about 2), the same.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pyasp_games.domains.geography.model import make_instance, parse_instance
from pyasp_games.domains.geography.native import solve_game
from pyasp_games.domains.geography.planar import UnsafeCrossing, planarize
from pyasp_games.domains.geography.planar_tqbf import (
    drawing_size,
    planarize_via_qbf,
    schaefer_drawing,
)
from pyasp_games.domains.geography.questions import SOLVE
from pyasp_games.domains.geography.tqbf import game_to_qbf, parse_qdimacs, qbf_value
from pyasp_games.engines.graphs import from_arcs
from pyasp_games.engines.outcome import to_json


def random_qbf(rng: random.Random) -> str:
    n = rng.randint(3, 7)
    prefix = [(rng.choice("ea"), v) for v in range(1, n + 1)]
    clauses = [[rng.choice((1, -1)) * rng.randint(1, n) for _ in range(rng.randint(2, 3))]
               for _ in range(rng.randint(2, 8))]
    lines = [f"p cnf {n} {len(clauses)}"] + [f"{k} {v} 0" for k, v in prefix]
    return "\n".join(lines + [" ".join(map(str, c)) + " 0" for c in clauses]) + "\n"


def certificates(count: int) -> None:
    rng = random.Random(7)
    print("| vertices | winner | verified by | proof nodes | positions walked | JSON bytes | solve + check s (wall) |")
    print("|---|---|---|---|---|---|---|")
    rows = 0
    for _ in range(count * 20):
        if rows >= count:
            break
        q = parse_qdimacs(random_qbf(rng))
        vertices, crossings = drawing_size(q)
        if not 100 <= vertices + 9 * crossings <= 160:  # the planar graph's vertices
            continue
        game = parse_instance(schaefer_drawing(q).graph.format_arcs(), "in1", "vertex")
        started = time.perf_counter()
        out = SOLVE.ask(game, "native")
        cpu = time.perf_counter() - started
        walked = out.verdict.message.split(" positions")[0].rsplit(" ", 1)[-1]
        size = len(json.dumps(to_json(out.certificate)))
        print(f"| {len(game)} | {out.answer} | {'strategy' if out.verdict.verified else out.verdict.message} | "
              f"{out.stats.get('proof_nodes')} | {walked} | {size:,} | {cpu:.2f} |")
        rows += 1


def route_rows(games: list[tuple[str, list[tuple[int, int]], int]], draw: int, limit: float) -> None:
    """For each refused game: truth vs winner and the sizes."""
    print("| game | moves | QBF variables / clauses | QBF search s | truth = winner | Schaefer vertices | crossings | planar vertices |")
    print("|---|---|---|---|---|---|---|---|")
    agree = timeouts = 0
    sizes = []
    for k, (label, arcs, n) in enumerate(games):
        succ = [[v for u2, v in arcs if u2 == u] for u in range(n)]
        q = game_to_qbf(succ, 0)
        winner = solve_game(make_instance(from_arcs([(str(u), str(v)) for u, v in arcs],
                                                    [str(i) for i in range(n)]), "0"), line=False).first_wins
        from pyasp_games.engines.limits import LimitReached, Limits

        started = time.perf_counter()
        try:
            truth = qbf_value(q.blocks, q.clauses, Limits(time_limit=limit).started().deadline())
        except LimitReached:
            truth = None
        seconds = time.perf_counter() - started
        vertices, crossings = drawing_size(q.qbf())
        planar_vertices = vertices + 9 * crossings
        sizes.append(planar_vertices)
        agree += truth == winner
        timeouts += truth is None
        shown = "timeout" if truth is None else ("yes" if truth == winner else "NO")
        if k < 12 or truth != winner:
            print(f"| {label} | {q.moves} | {q.variables} / {len(q.clauses)} | {seconds:.2f} | {shown} | "
                  f"{vertices:,} | {crossings:,} | {planar_vertices:,} |")
        if k < draw:
            started = time.perf_counter()
            route = planarize_via_qbf(from_arcs([(str(u), str(v)) for u, v in arcs],
                                                [str(i) for i in range(n)]), "0")
            print(f"|  (drawn in full: {len(route.graph):,} vertices, planar {route.planar}, "
                  f"every crossing safe {route.safe}, {time.perf_counter() - started:.0f} s) | | | | | | | |")
    if sizes:
        print(f"\n{len(games)} refused games: QBF truth = winner on {agree}, search timeouts "
              f"{timeouts}; planar vertices median {statistics.median(sizes):,.0f}, "
              f"largest {max(sizes):,}")


def refused_k5(count: int, draw: int, limit: float) -> None:
    rnd = random.Random(5)
    pairs = list(itertools.combinations(range(5), 2))
    refused = []
    for trial in range(count):
        arcs = []
        for u, v in pairs:
            c = rnd.randrange(3)
            arcs += [(u, v)] * (c != 1) + [(v, u)] * (c != 0)
        usable = [(u, v) for u, v in arcs if v != 0]
        g = from_arcs([(str(u), str(v)) for u, v in usable], [str(i) for i in range(5)])
        try:
            planarize(g, "0")
        except UnsafeCrossing:
            refused.append((f"K5 #{trial}", usable, 5))
    print(f"{count} orientations of K5 (start 0): {len(refused)} refused by the drawing route\n")
    route_rows(refused, draw, limit)


def refused_larger(count: int, limit: float) -> None:
    rnd = random.Random(9)
    refused = []
    for trial in range(count):
        n = rnd.randint(6, 10)
        arcs = sorted({(rnd.randrange(n), rnd.randrange(n)) for _ in range(rnd.randint(2 * n, 3 * n))}
                      - {(v, v) for v in range(n)})
        usable = [(u, v) for u, v in arcs if v != 0]
        g = from_arcs([(str(u), str(v)) for u, v in usable], [str(i) for i in range(n)])
        try:
            planarize(g, "0")
        except UnsafeCrossing:
            refused.append((f"n={n} #{trial}", usable, n))
    print(f"{count} random digraphs on 6 to 10 vertices (start 0): {len(refused)} refused by the "
          "drawing route\n")
    route_rows(refused, 0, limit)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--qbfs", type=int, default=12, help="certificate rows")
    parser.add_argument("--k5", type=int, default=600, help="orientations of K5 tried")
    parser.add_argument("--larger", type=int, default=150, help="digraphs on 6-10 vertices tried")
    parser.add_argument("--draw", type=int, default=0, help="refused K5 games drawn in full")
    parser.add_argument("--limit", type=float, default=20.0, help="seconds per QBF search")
    args = parser.parse_args()
    certificates(args.qbfs)
    print()
    refused_k5(args.k5, args.draw, args.limit)
    print()
    refused_larger(args.larger, args.limit)


if __name__ == "__main__":
    main()
