"""Native Geography search on random directed graphs (issue 7's target instances).

Random digraphs with ``n`` vertices and ``round(2.5 n)`` distinct arcs (no loops), start
vertex 0, seeds 0..k-1; each instance is solved (and verified) under ``--time-limit``,
reporting wall and CPU seconds (this process's and its finished children's: with a time
limit the backend runs in a forked child): on a shared machine the CPU time is the steadier
figure.

    python benchmarks/geography_native.py --n 100 --count 20 --variant vertex --time-limit 60
    python benchmarks/geography_native.py --n 60 --regular --time-limit 60
"""

from __future__ import annotations

import argparse
import os
import statistics

from pyasp_games.domains.geography import solve
from pyasp_games.domains.geography.model import random_game
from pyasp_games.engines.limits import Limits


def _cpu() -> float:
    """CPU seconds of this process and of its children that have been waited for."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=100)
    p.add_argument("--count", type=int, default=20)
    p.add_argument("--variant", default="vertex", choices=("vertex", "edge"))
    p.add_argument("--backend", default="native")
    p.add_argument("--undirected", action="store_true")
    p.add_argument("--regular", action="store_true", help="out-degree 2 or 3 everywhere")
    p.add_argument("--time-limit", type=float, default=60.0)
    a = p.parse_args()
    times, cpus, unknown = [], [], 0
    for seed in range(a.count):
        game = random_game(a.n, seed, a.variant, undirected=a.undirected, regular=a.regular)
        cpu = _cpu()
        out = solve(game, a.backend, Limits(time_limit=a.time_limit))
        cpu = _cpu() - cpu
        print(
            f"{game.name}: {out.status} {out.answer} {out.seconds:.3f} s (CPU {cpu:.3f} s) "
            f"{out.stats.get('nodes', '')}"
        )
        if out.status == "unknown":
            unknown += 1
        else:
            times.append(out.seconds)
            cpus.append(cpu)
    if times:
        print(
            f"n={a.n} {a.variant} {a.backend}: {len(times)}/{a.count} answered, "
            f"median {statistics.median(times):.3f} s (CPU {statistics.median(cpus):.3f}), "
            f"worst {max(times):.3f} s (CPU {max(cpus):.3f}), {unknown} unknown"
        )


if __name__ == "__main__":
    main()
