"""Native Geography search on random directed graphs (issue 7's target instances).

Random digraphs with ``n`` vertices and ``round(2.5 n)`` distinct arcs (no loops), start
vertex 0, seeds 0..k-1; each instance runs in a child process under ``--time-limit``.

    python benchmarks/geography_native.py --n 100 --count 20 --variant vertex --time-limit 60
    python benchmarks/geography_native.py --n 60 --regular --time-limit 60
"""

from __future__ import annotations

import argparse
import random
import statistics

from pyasp_games.engines.limits import Limits
from pyasp_games.geography import solve
from pyasp_games.geography.model import make_instance
from pyasp_games.graphs import from_arcs


def random_game(
    n: int,
    seed: int,
    variant: str,
    degree: float = 2.5,
    undirected: bool = False,
    regular: bool = False,
):
    """``regular``: every vertex gets 2 or 3 out-arcs (no sinks); else uniform random arcs."""
    rng = random.Random(seed)
    arcs: set[tuple[int, int]] = set()
    if regular:
        for u in range(n):
            for v in rng.sample([w for w in range(n) if w != u], rng.choice((2, 3))):
                arcs.add((u, v))
    while len(arcs) < round(degree * n):
        u, v = rng.randrange(n), rng.randrange(n)
        if u != v and (not undirected or (v, u) not in arcs):
            arcs.add((u, v))
    graph = from_arcs(sorted(arcs), range(n), name=f"rand-{n}-{seed}")
    return make_instance(graph, "0", variant, undirected)


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
    times, unknown = [], 0
    for seed in range(a.count):
        game = random_game(a.n, seed, a.variant, undirected=a.undirected, regular=a.regular)
        out = solve(game, a.backend, Limits(time_limit=a.time_limit))
        print(
            f"{game.name}: {out.status} {out.answer} {out.seconds:.3f} s {out.stats.get('nodes', '')}"
        )
        if out.status == "unknown":
            unknown += 1
        else:
            times.append(out.seconds)
    if times:
        print(
            f"n={a.n} {a.variant} {a.backend}: {len(times)}/{a.count} answered, "
            f"median {statistics.median(times):.3f} s, worst {max(times):.3f} s, {unknown} unknown"
        )


if __name__ == "__main__":
    main()
