"""Token swapping (one edge a step) on 16-vertex graphs: exact backends side by side, with
the peeling bound and rustworkx's ``graph_token_swapper`` (Miltzow et al.'s
4-approximation; benchmark-only, ``pip install rustworkx``) and their excess over the optimum.

Instances: the 4 x 4 grid and random connected graphs on 16 vertices (a random tree plus
random edges up to M edges), each with a uniformly random permutation and with
permutations scrambled by K random swaps from the solved one (optimum at most K).
Every schedule (rustworkx's too) is replayed by the independent checker.

    python benchmarks/routing_token_swapping.py --time-limit 60 --out /tmp/ts.md
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from pyasp_games.domains.routing import solve
from pyasp_games.domains.routing.model import Instance
from pyasp_games.domains.routing.specs import graph_spec
from pyasp_games.domains.routing.verify import verify_schedule
from pyasp_games.engines.limits import Limits


def scrambled(spec: str, swaps: int, seed: int) -> Instance:
    g = graph_spec(spec)
    rng = random.Random(seed)
    state = list(range(len(g)))
    for _ in range(swaps):
        u, v = rng.choice(g.edges)
        state[u], state[v] = state[v], state[u]
    return Instance(g, tuple(state), "swap", None, f"{spec} scrambled by {swaps} swaps #{seed}")


def uniform(spec: str, seed: int) -> Instance:
    g = graph_spec(spec)
    state = list(range(len(g)))
    random.Random(seed).shuffle(state)
    return Instance(g, tuple(state), "swap", None, f"{spec} uniform #{seed}")


def rustworkx_swaps(inst: Instance) -> tuple[int | None, float, str]:
    """Length of rustworkx's swap sequence (replayed and checked), its seconds, and a note."""
    try:
        import rustworkx as rx
    except ImportError:
        return None, 0.0, "rustworkx not installed"
    g = inst.graph
    graph = rx.PyGraph()
    graph.add_nodes_from(range(len(g)))
    graph.add_edges_from_no_data(list(g.edges))
    edges = [(g.names[u], g.names[v]) for u, v in g.edges]
    start = {g.names[v]: g.names[t] for v, t in enumerate(inst.state)}
    started = time.perf_counter()
    swaps = list(rx.graph_token_swapper(graph, {v: t for v, t in enumerate(inst.state)}, seed=0))
    seconds = time.perf_counter() - started
    schedule = [[(g.names[u], g.names[v])] for u, v in swaps]
    verdict = verify_schedule(edges, start, "swap", schedule)
    if not verdict.ok:
        return None, seconds, f"rustworkx schedule fails: {verdict.message}"
    return len(swaps), seconds, "verified"


def _excess(length: int | None, best: int | None, note: str) -> str:
    if length is None:
        return note
    return f"{length}" + (f" (+{length - best})" if best is not None else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=60)
    parser.add_argument("--backends", nargs="+", default=["asp", "sat", "native"])
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--scrambles", type=int, nargs="+", default=[10, 16])
    parser.add_argument("--out")
    args = parser.parse_args()
    graphs = ["grid:4x4", "random:16:24:1", "random:16:40:2"]
    instances = []
    for spec in graphs:
        for seed in range(args.seeds):
            instances += [scrambled(spec, k, seed) for k in args.scrambles]
            instances.append(uniform(spec, seed))
    head = ["instance", *args.backends, "optimum", "peeling", "rustworkx"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for inst in instances:
        cells, best = [], None
        for backend in args.backends:
            out = solve(inst, backend, Limits(time_limit=args.time_limit))
            if out.status == "error":
                sys.exit(f"{inst.name}: {backend} failed: {out.stats}")
            if out.status == "solved":
                cells.append(f"{out.answer} ({out.seconds:.2f} s)")
                best = out.answer
            else:
                cells.append(f"{out.status} (>{args.time_limit:g} s)")
            print(inst.name, backend, out.status, out.answer, out.seconds, file=sys.stderr)
        peel = solve(inst, "peeling")
        rx_len, rx_s, note = rustworkx_swaps(inst)

        cells += [
            str(best) if best is not None else "?",
            _excess(peel.answer, best, "-"),
            _excess(rx_len, best, note) + f" {rx_s:.3f} s",
        ]
        lines.append(f"| {inst.name} | " + " | ".join(cells) + " |")
        print(lines[-1], file=sys.stderr)
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
