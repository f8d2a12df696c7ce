"""Existence of a Grundy function on random digraphs: the largest size each backend answers.

Instances: ``benchmarks/grundy_random.random_arcs`` (out-degree uniform in 1..4,
no self-loops), sizes from ``--sizes``, seeds ``0..--seeds-1``. Each backend of
``pyasp_games.grundy.BACKENDS`` runs through ``pyasp_games.grundy.solve`` (so
every answer is verified: a function by the mex rule) with ``--time-limit``
seconds per run, sequentially. Prints one Markdown row per run and, per backend,
the largest ``n`` for which every seed was answered within the limit.

    python benchmarks/grundy_exists.py --sizes 1000 2000 5000 --seeds 3 --time-limit 10
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

from grundy_random import arc_text, random_arcs

from pyasp_games.engines.limits import Limits
from pyasp_games.grundy import BACKENDS, solve
from pyasp_games.grundy.model import parse_graph


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 2000, 5000, 10000])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--backends", nargs="+", default=list(BACKENDS))
    parser.add_argument("--time-limit", type=float, default=10.0)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print("| n | seed | backend | status | answer | seconds | verified |")
    print("|---|---|---|---|---|---|---|")
    largest: dict[str, int | None] = {b: None for b in args.backends}
    for n in args.sizes:
        graphs = [
            parse_graph(arc_text(random_arcs(n, seed), n), name=f"random-{n}-{seed}")
            for seed in range(args.seeds)
        ]
        for backend in args.backends:
            answered = True
            for seed, g in enumerate(graphs):
                out = solve(g, backend, Limits(args.time_limit))
                answered &= out.status in ("solved", "no-solution")
                print(
                    f"| {n} | {seed} | {backend} | {out.status} | {out.answer} | "
                    f"{out.seconds:.2f} | {out.stats.get('verified')} |",
                    flush=True,
                )
            if answered:
                largest[backend] = n
    for backend, n in largest.items():
        print(f"largest n answered for every seed within {args.time_limit:g} s: {backend}: {n}")


if __name__ == "__main__":
    main()
