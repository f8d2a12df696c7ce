"""All exact covers of the 6 x 10 pentomino rectangle: our Algorithm X against xcover and exact-cover.

The matrix: 72 items (60 cells + 12 pieces), one option per placement of a
piece in one of its orientations (2056 options); it has 9356 covers (2339
tilings up to the rectangle's 4 symmetries). Ours, compiled kernels: ``dlx``
(dancing links) and ``bitset`` (bit sets, the same search tree) list every cover
as they find it (``search``); ``dlx-count`` counts inside the kernel and
``bitset-count`` counts with the memo of solved subproblems (``count``). Ours are
timed after a warm-up call too (numba compiles or loads its cache), like the PyPI
packages, which enumerate in a child process. The solvers take turns, ``--repeat``
rounds; wall-clock and CPU seconds are printed for each run.

    python benchmarks/cover_pentomino.py --time-limit 600 --repeat 3 \
        --solvers dlx dlx-count bitset bitset-count xcover exact-cover
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from cover_common import cell, run_external

from pyasp_games.domains.cover.bitsets import BitsetCover
from pyasp_games.domains.cover.dancing_links import DancingLinks
from pyasp_games.engines.limits import LimitReached, Limits

#: our solvers: the structure and how it is asked for the covers
OURS = {
    "dlx": (DancingLinks, "search"),
    "dlx-count": (DancingLinks, "count"),
    "bitset": (BitsetCover, "search"),
    "bitset-count": (BitsetCover, "count"),
}


def warm_up(structure: type) -> None:
    """Compile the kernels (or load numba's cache) before timing, as for xcover."""
    from pyasp_games.engines.compiled import compile_kernels

    compile_kernels(structure.__module__)
    tiny = [[0, 1], [2], [1, 2], [0]]
    list(structure(3, tiny).search())
    structure(3, tiny).count()

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
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument(
        "--solvers",
        nargs="+",
        default=["dlx", "dlx-count", "bitset", "bitset-count", "xcover", "exact-cover"],
        choices=[*OURS, "xcover", "exact-cover"],
    )
    args = ap.parse_args()
    items, options = pentomino_matrix()
    for solver in args.solvers:
        if solver in OURS:
            warm_up(OURS[solver][0])
    print(f"6x10 pentomino: {items} items, {len(options)} options", file=sys.stderr)
    print("| solver | run | covers | seconds (cpu) | nodes |")
    print("|---|---|---|---|---|")
    for run in range(1, args.repeat + 1):
        for solver in args.solvers:
            if solver in OURS:
                structure, method = OURS[solver]
                matrix = structure(items, options)
                deadline = Limits(args.time_limit).deadline()
                start, cpu = time.perf_counter(), time.process_time()
                try:
                    if method == "count":
                        count = matrix.count(deadline)
                    else:
                        count = sum(1 for _ in getattr(matrix, method)(deadline))
                    text = cell(
                        "solved", time.perf_counter() - start, cpu=time.process_time() - cpu
                    )
                except LimitReached:
                    count, text = "-", cell("unknown", args.time_limit)
                name = f"{solver} (ours, compiled)"
                print(f"| {name} | {run} | {count} | {text} | {matrix.nodes} |", flush=True)
            else:
                status, count, seconds, cpu = run_external(
                    solver, items, options, "count", args.time_limit
                )
                text = cell(status, seconds, cpu=cpu)
                print(f"| {solver} | {run} | {count} | {text} | - |", flush=True)


if __name__ == "__main__":
    main()
