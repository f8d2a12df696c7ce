"""Existence of a Grundy function on random digraphs: the largest size each backend answers.

Instances: ``pyasp_games.domains.grundy.model.random_arcs`` (out-degree uniform in 1..4,
no self-loops), sizes from ``--sizes``, seeds ``0..--seeds-1`` (or ``--seed-list``).
Each backend spec runs through ``pyasp_games.domains.grundy.solve`` (so every answer is
verified: a function by the mex rule) with ``--time-limit`` seconds per run,
sequentially. A spec is a backend name with optional options, e.g. ``sat``,
``sat:solver=cadical195``, ``asp:core=false``, ``sat:by_kernels=true`` (the search by
layers of kernels: its row ends with the kernels found and the conflicts spent at each
value). Prints one Markdown row per run
with wall-clock and CPU seconds (the backend's: this process and its forked solver
child, the machine is shared, so CPU time is the steadier number) and the solver's
conflicts, then, per spec, the largest ``n`` for which every seed was answered.
``--upstream K`` adds ``K`` positions upstream of each instance, each moving to 1..4
random earlier positions (an acyclic part feeding the cycles, as in many real game
graphs: what the asp/sat core reduction removes).

    python benchmarks/grundy_exists.py --sizes 1000 2000 5000 --seeds 3 --time-limit 10
    python benchmarks/grundy_exists.py --sizes 1000 2000 3000 4000 5000 --seeds 2 --cpu-limit 10 \
        --backends asp sat --no-cross-check
    python benchmarks/grundy_exists.py --sizes 3000 --seeds 6 --backends sat sat:core=false
    python benchmarks/grundy_exists.py --sizes 3000 4000 5000 --seeds 10 --cpu-limit 10 \
        --backends sat:by_kernels=true,solver=cadical195 sat:solver=cadical195 --no-cross-check
    python benchmarks/grundy_exists.py --sizes 1500 --seed-list 0 --upstream 50000 \
        --backends asp asp:core=false sat sat:core=false --time-limit 120
"""

from __future__ import annotations

import argparse
import os
import random
import resource
from typing import Any

from pyasp_games.domains.grundy import BACKENDS, solve
from pyasp_games.domains.grundy.model import arc_text, parse_graph, random_arcs
from pyasp_games.engines.graphs import Digraph
from pyasp_games.engines.limits import Limits


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"sat:solver=cadical195,core=false"`` -> ``("sat", {"solver": "cadical195", "core": False})``."""
    name, _, rest = spec.partition(":")
    options: dict[str, Any] = {}
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition("=")
        options[key] = {"true": True, "false": False}.get(value.lower(), value)
    if name not in BACKENDS:
        raise SystemExit(f"unknown backend {name!r} (choose from {', '.join(BACKENDS)})")
    return name, options


def cpu_seconds() -> float:
    """User + system CPU time of this process and its reaped children (forked solvers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def instance(n: int, seed: int, upstream: int = 0) -> Digraph:
    """``random_arcs(n, seed)`` plus ``upstream`` acyclic positions, each moving to 1..4
    uniformly chosen earlier positions (random stream ``seed``)."""
    arcs = random_arcs(n, seed)
    rng = random.Random(seed)
    for u in range(n, n + upstream):
        arcs += [(u, v) for v in sorted(rng.sample(range(u), rng.randint(1, 4)))]
    suffix = f"+{upstream}" if upstream else ""
    return parse_graph(arc_text(arcs, n + upstream), name=f"random-{n}-{seed}{suffix}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 2000, 3000, 4000, 5000])
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument(
        "--seed-list", type=int, nargs="+", help="Seeds to run (overrides --seeds)."
    )
    parser.add_argument("--backends", nargs="+", default=list(BACKENDS))
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument(
        "--cpu-limit", type=float, help="CPU seconds per run instead of --time-limit's wall "
        "seconds (the run's process tree: reproducible on a shared machine)."
    )
    parser.add_argument("--upstream", type=int, default=0, help="Acyclic positions to add.")
    parser.add_argument(
        "--no-cross-check", action="store_true",
        help="Do not cross-check a 'none' against the native reference (which cannot answer "
        "these sizes: it spends its whole limit and leaves the answer 'not verified'); the "
        "rows' 'none' answers are then compared between the backends.",
    )  # fmt: skip
    args = parser.parse_args()
    seeds = args.seed_list if args.seed_list else list(range(args.seeds))
    specs = [(spec, *parse_spec(spec)) for spec in args.backends]
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print(
        "| n | seed | backend | status | answer | wall s | CPU s | conflicts | verified "
        "| kernels / conflicts per layer |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    if args.cpu_limit is not None:
        limits, budget = Limits(cpu_limit=args.cpu_limit), f"{args.cpu_limit:g} s of CPU"
    else:
        limits, budget = Limits(args.time_limit), f"{args.time_limit:g} s"
    largest: dict[str, int | None] = {spec: None for spec, _, _ in specs}
    for n in args.sizes:
        graphs = [instance(n, seed, args.upstream) for seed in seeds]
        for spec, backend, options in specs:
            answered = True
            for seed, g in zip(seeds, graphs, strict=True):
                before = cpu_seconds()
                told = {**options, "trust_encoding": True} if args.no_cross_check else options
                out = solve(g, backend, limits, **told)
                # the backend's own CPU (its process tree), not a cross-check's after it
                cpu = out.stats.get("cpu_seconds", cpu_seconds() - before)
                answered &= out.status in ("solved", "no-solution")
                layers = ""  # --by-kernels: kernels found and conflicts spent at each value
                if "kernels_per_layer" in out.stats:
                    kernels, spent = out.stats["kernels_per_layer"], out.stats["conflicts_per_layer"]
                    layers = " ".join(f"{k}/{c}" for k, c in zip(kernels, spent, strict=True))
                print(
                    f"| {n} | {seed} | {spec} | {out.status} | {out.answer} | "
                    f"{out.seconds:.2f} | {cpu:.2f} | {out.stats.get('conflicts', '')} | "
                    f"{out.verdict.verified} | {layers} |",
                    flush=True,
                )
            if answered:
                largest[spec] = n
    for spec, n in largest.items():
        print(f"largest n answered for every seed within {budget}: {spec}: {n}")


if __name__ == "__main__":
    main()
