"""Random regular X3C: time to the first cover, or to the proof of none, per backend.

The hard family is the regular one: every element lies in exactly ``d`` subsets
(``pyasp_games.domains.cover.model.random_x3c``), with a planted cover or without.
Compared side by side, in the same run: our ``dlx`` and ``bitset`` (Algorithm X
compiled by numba, dancing links / bit sets: the same search tree), ``asp``
(clingo, encodings ``x3c`` and ``x3c-card``), ``sat`` (PySAT glucose4 and
cadical195, pairwise at-most-one) and the PyPI packages ``exact-cover`` (C) and
``xcover`` (numba), which run in a child process killed at the limit (see
``cover_common.py``). Like theirs, our kernels are compiled (or loaded from numba's
cache) before the first timed run. A cell is the wall-clock time with the CPU time in
brackets (the machine is shared: the CPU time is the steadier number).

    python benchmarks/cover_x3c.py --q 30 40 50 60 --d 5 --time-limit 60
    python benchmarks/cover_x3c.py --q 70 80 100 --planted-only --seeds 1 2 3 --time-limit 60

Every cover found, by any solver, is checked exact before it is counted.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from cover_common import cell, cpu_seconds, run_external

from pyasp_games.domains.cover import solve
from pyasp_games.domains.cover.model import random_x3c
from pyasp_games.domains.cover.verify import check_cover
from pyasp_games.engines.limits import Limits

VARIANTS = {
    "dlx": ("dlx", {}),
    "bitset": ("bitset", {}),
    "asp": ("asp", {}),
    "asp[x3c-card]": ("asp", {"encoding": "x3c-card"}),
    "sat[glucose4]": ("sat", {}),
    "sat[cadical195]": ("sat", {"solver": "cadical195"}),
    "exact-cover": (None, {}),
    "xcover": (None, {}),
}


def run(variant: str, inst, limit: float) -> str:
    backend, options = VARIANTS[variant]
    if backend is None:
        status, cover, seconds, cpu = run_external(variant, inst.size, inst.subsets, "one", limit)
        if status == "solved" and not check_cover(inst.size, inst.subsets, cover)[0]:
            return "WRONG COVER"
    else:
        before = cpu_seconds()  # solve() runs the backend in a child it waits for
        out = solve(inst, backend, Limits(time_limit=limit), **options)
        status, seconds, cpu = out.status, out.seconds, cpu_seconds() - before
        if status == "error":
            return f"ERROR {out.verdict.message}"
    note = {"solved": "cover", "no-solution": "none"}.get(status, "")
    return cell(status, seconds, note, cpu)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--q", type=int, nargs="+", default=[30, 40, 50, 60, 70])
    ap.add_argument("--d", type=int, nargs="+", default=[5])
    ap.add_argument("--seeds", type=int, nargs="+", default=[1])
    ap.add_argument("--planted-only", action="store_true")
    ap.add_argument("--regular-only", action="store_true")
    ap.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=list(VARIANTS))
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    from pyasp_games.engines.compiled import compile_kernels

    for module in ("pyasp_games.domains.cover.dancing_links", "pyasp_games.domains.cover.bitsets"):
        __import__(module)
        compile_kernels(module)  # not timed, as xcover's compilation is not
    kinds = [True] if args.planted_only else [False] if args.regular_only else [True, False]
    head = ["q", "d", "seed", "planted", *args.variants]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    print(lines[0], lines[1], sep="\n", flush=True)
    for q in args.q:
        for d in args.d:
            for seed, planted in [(s, p) for s in args.seeds for p in kinds]:
                inst = random_x3c(q, d, planted, seed)
                row = [str(q), str(d), str(seed), "yes" if planted else "no"]
                for variant in args.variants:
                    start = time.perf_counter()
                    row.append(run(variant, inst, args.time_limit))
                    print(
                        f"  {inst.name} {variant}: {row[-1]} ({time.perf_counter() - start:.1f} s wall)",
                        file=sys.stderr,
                        flush=True,
                    )
                lines.append("| " + " | ".join(row) + " |")
                print(lines[-1], flush=True)
    if args.out:
        args.out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
