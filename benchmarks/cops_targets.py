"""Issue 27's Cops and Robbers targets, measured (results in benchmarks/RESULTS.md).

- c(G) with both halves proved (the cops' strategy and the robber's escape, each replayed
  by the checker) for the Petersen graph (target <= 1 s) and the Robertson graph (4 cops,
  19 vertices: target <= 60 s);
- c(G) with both proofs for every connected graph of networkx's atlas (up to 7
  vertices: 853 graphs; target <= 60 s in all, none above 2);
- the notes' rules on grids up to 6 x 6 with 2 and 3 cops (the cops on the first cells
  of the top row, the robber in the opposite corner, the cops to move).

Each item is timed in this process (CPU by resource.getrusage, wall by perf_counter),
verification included; the compiled kernels are loaded before the first timing (their
one-off load is reported on its own line). Run from the repository root:

    python benchmarks/cops_targets.py [--quick]
"""

from __future__ import annotations

import os
import resource
import sys
import time

import networkx as nx


def cpu() -> float:
    """CPU seconds of this process and of the children it waited for (forked backends)."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def timed(label: str, call):
    c0, w0 = cpu(), time.perf_counter()
    out = call()
    c, w = cpu() - c0, time.perf_counter() - w0
    return out, c, w


def main() -> None:
    from pyasp_games.domains import cops
    from pyasp_games.domains.cops.model import load_game, load_graph_game
    from pyasp_games.engines.compiled import compile_kernels

    quick = "--quick" in sys.argv
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    _, c, w = timed("kernels", lambda: compile_kernels("pyasp_games.domains.cops.retrograde"))
    print(f"compiled kernels loaded: {c:.2f} s CPU, {w:.2f} s wall")

    print("\n| graph | c(G) | cops' start | strategy | escape | verified | CPU s | wall s |")
    print("|---|---|---|---|---|---|---|---|")
    for name in ("petersen", "dodecahedron", "hypercube:4", "hypercube:5", "robertson"):
        if quick and name in ("hypercube:5", "robertson"):
            continue
        out, c, w = timed(name, lambda name=name: cops.number(load_graph_game(name)))
        wit = out.witness
        print(f"| {name} | {out.answer} | {' '.join(wit['start'])} | {len(wit['strategy'])} | "
              f"{len(wit['escape'])} | {out.verdict.verified} | {c:.2f} | {w:.2f} |")

    count, worst, over, slowest = 0, 0, [], (0.0, "")
    c_all, w_all = cpu(), time.perf_counter()
    for number in range(1, 1253):
        g = nx.graph_atlas(number)
        if g.number_of_nodes() == 0 or not nx.is_connected(g):
            continue
        out, c, w = timed(number, lambda number=number: cops.number(load_graph_game(f"atlas:{number}")))
        assert out.verdict.verified is True, (number, out.verdict.message)
        count += 1
        worst = max(worst, out.answer)
        slowest = max(slowest, (w, f"atlas:{number}"))
        if out.answer > 2:
            over.append(number)
    c_all, w_all = cpu() - c_all, time.perf_counter() - w_all
    print(f"\natlas: {count} connected graphs up to 7 vertices, c(G) <= {worst} "
          f"(above 2: {over or 'none'}), every answer verified; {c_all:.1f} s CPU, "
          f"{w_all:.1f} s wall; slowest {slowest[1]} {slowest[0]:.3f} s")

    print("\n| grid | cops | start | winner | moves | positions | verified | CPU s | wall s |")
    print("|---|---|---|---|---|---|---|---|---|")
    sizes = [(3, 3), (4, 4)] if quick else [(3, 3), (4, 4), (5, 5), (6, 6)]
    for rows, cols in sizes:
        for k in (2, 3):
            start = " ".join(f"0,{j}" for j in range(k))
            robber = f"{rows - 1},{cols - 1}"
            game = load_game(f"grid:{rows}x{cols}", start, robber, "notes")
            out, c, w = timed("grid", lambda game=game: cops.solve(game, "native"))
            print(f"| {rows} x {cols} | {k} | cops {start}, robber {robber} | {out.answer['winner']} | "
                  f"{out.answer['moves']} | {out.stats['positions']:,} | {out.verdict.verified} | "
                  f"{c:.2f} | {w:.2f} |")
    print(f"\nload average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
