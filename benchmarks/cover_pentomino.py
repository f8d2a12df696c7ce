"""All exact covers of the 6 x 10 pentomino rectangle: our Algorithm X against xcover and exact-cover.

The matrix: 72 items (60 cells + 12 pieces), one option per placement of a
piece in one of its orientations (2056 options); it has 9356 covers (2339
tilings up to the rectangle's 4 symmetries). Our ``dlx`` (pure Python), ``asp``
and ``sat`` (blocking clauses) count them; the PyPI packages run in a child
process after a warm-up call (numba compiles) and are timed without it.

    python benchmarks/cover_pentomino.py --time-limit 600
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from cover_common import cell, run_external

from pyasp_games.cover.native import DancingLinks
from pyasp_games.engines.limits import LimitReached, Limits

PIECES = {
    "F": [(1, 0), (2, 0), (0, 1), (1, 1), (1, 2)],
    "I": [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)],
    "L": [(0, 0), (0, 1), (0, 2), (0, 3), (1, 3)],
    "N": [(0, 0), (0, 1), (1, 1), (1, 2), (1, 3)],
    "P": [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)],
    "T": [(0, 0), (1, 0), (2, 0), (1, 1), (1, 2)],
    "U": [(0, 0), (2, 0), (0, 1), (1, 1), (2, 1)],
    "V": [(0, 0), (0, 1), (0, 2), (1, 2), (2, 2)],
    "W": [(0, 0), (0, 1), (1, 1), (1, 2), (2, 2)],
    "X": [(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)],
    "Y": [(0, 0), (0, 1), (0, 2), (0, 3), (1, 1)],
    "Z": [(0, 0), (1, 0), (1, 1), (1, 2), (2, 2)],
}


def orientations(cells):
    out = set()
    for _ in range(4):
        cells = [(y, -x) for x, y in cells]
        for shape in (cells, [(-x, y) for x, y in cells]):
            mx, my = min(x for x, _ in shape), min(y for _, y in shape)
            out.add(tuple(sorted((x - mx, y - my) for x, y in shape)))
    return sorted(out)


def pentomino_matrix(rows: int = 6, cols: int = 10) -> tuple[int, list[list[int]]]:
    options = []
    for p, name in enumerate(sorted(PIECES)):
        for shape in orientations(PIECES[name]):
            for r in range(rows):
                for c in range(cols):
                    cells = [(r + x, c + y) for x, y in shape]
                    if all(x < rows and y < cols for x, y in cells):
                        options.append([rows * cols + p, *sorted(x * cols + y for x, y in cells)])
    return rows * cols + len(PIECES), options


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time-limit", type=float, default=600.0)
    ap.add_argument("--solvers", nargs="+", default=["dlx", "xcover", "exact-cover"])
    args = ap.parse_args()
    items, options = pentomino_matrix()
    print(f"6x10 pentomino: {items} items, {len(options)} options", file=sys.stderr)
    print("| solver | covers | seconds | nodes |")
    print("|---|---|---|---|")
    for solver in args.solvers:
        if solver == "dlx":
            links = DancingLinks(items, options)
            start = time.perf_counter()
            try:
                count = sum(1 for _ in links.search(Limits(time_limit=args.time_limit).deadline()))
                text = cell("solved", time.perf_counter() - start)
            except LimitReached:
                count, text = "-", cell("unknown", args.time_limit)
            print(f"| dlx (ours, pure Python) | {count} | {text} | {links.nodes} |", flush=True)
        else:
            status, count, seconds = run_external(solver, items, options, "count", args.time_limit)
            print(f"| {solver} | {count} | {cell(status, seconds)} | - |", flush=True)


if __name__ == "__main__":
    main()
