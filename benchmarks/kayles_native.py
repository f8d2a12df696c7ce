"""Node Kayles: the native search on the issue's families (random graphs of 40 and 50
vertices, random trees of 60, grids), with the connected K-sets it visits beside
Bodlaender, Kratsch and Timmer's bound.

Each instance is solved by the native backend under ``--time-limit`` (its witness: every
move's value too) and reported with CPU seconds (this process: the search runs here) and
wall seconds; the compiled kernel is loaded once before the first run (its cost, about a
second, is the tool's, not the search's). ``--check`` also times the independent checker.

    python benchmarks/kayles_native.py --family random --n 40 --degrees 2 3 4 6 --seeds 3
    python benchmarks/kayles_native.py --family tree --n 60 --seeds 3
    python benchmarks/kayles_native.py --family grid --n 6
    python benchmarks/kayles_native.py --family random --n 50 --seeds 2 --cpu-limit 60 --time-limit 600

``--check`` also times the independent checker on the claim with its certificate (the
table of K-set values: its size as JSON in the last column), in this process, after the
checker's kernels are loaded.

``--cpu-limit`` stops a search after that many CPU seconds (this process), the figure the
targets are stated in: on a loaded machine the wall clock runs 3 to 8 times faster.
"""

from __future__ import annotations

import argparse
import json
import time

from pyasp_games.domains.kayles.bitset_search import compile_now
from pyasp_games.domains.kayles.model import grid_graph, random_graph, random_tree
from pyasp_games.domains.kayles.native import solve_native
from pyasp_games.domains.kayles.verify import check_value
from pyasp_games.engines.limits import LimitReached, Limits
from pyasp_games.engines.outcome import Outcome


def instances(a: argparse.Namespace) -> list:
    if a.family == "random":
        return [random_graph(seed=s, n=a.n, degree=d) for d in a.degrees for s in range(a.seeds)]
    if a.family == "tree":
        return [random_tree(seed=s, n=a.n) for s in range(a.seeds)]
    return [grid_graph(rows=r, cols=r) for r in range(2, a.n + 1)]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--family", choices=("random", "tree", "grid"), default="random")
    p.add_argument("--n", type=int, default=40)
    p.add_argument("--degrees", type=float, nargs="*", default=[2, 3, 4, 6])
    p.add_argument("--seeds", type=int, default=3)
    p.add_argument("--time-limit", type=float, default=60.0, help="wall seconds per instance")
    p.add_argument("--cpu-limit", type=float, default=None, help="CPU seconds per instance")
    p.add_argument("--check", action="store_true", help="also time the checker")
    a = p.parse_args()
    compile_now()
    if a.check:
        from pyasp_games.domains.kayles import k_set_check
        from pyasp_games.engines.compiled import compile_kernels

        compile_kernels(k_set_check.__name__)
    print("| instance | value | CPU s | wall s | K-sets visited | bound | check CPU s | certificate bytes |")
    print("|---|---|---|---|---|---|---|---|")
    for graph in instances(a):
        cpu, wall = time.process_time(), time.perf_counter()
        try:
            out = solve_native(graph, Limits(time_limit=a.time_limit, cpu_limit=a.cpu_limit))
            value, stats = out.answer, out.stats
        except LimitReached as reached:
            value, stats, out = "limit", reached.args[0], None
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        checked = "- | -"
        if a.check and out is not None:
            start = time.process_time()
            table = out.certificate
            out = Outcome(graph.name, "native", out.status, out.answer, out.witness, certificate=table)  # the claim
            ok, _ = check_value(graph, out)
            checked = f"{time.process_time() - start:.2f}" + ("" if ok else " FAILED")
            if out.verdict.not_checked:
                checked += " (in part)"
            if table is not None:
                checked += f" | {len(json.dumps(table)):,}"
        print(f"| {graph.name} | {value} | {cpu:.2f} | {wall:.2f} | "
              f"{stats.get('components_visited', 0):,} | {stats.get('k_set_bound')} | {checked} |",
              flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
