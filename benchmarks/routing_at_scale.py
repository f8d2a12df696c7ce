"""Routing at scale (issue 21): the polynomial cases, the swapper bound side by side with
rustworkx's ``graph_token_swapper``, exact token swapping, and rt(G, pi) by ASP and SAT on
hardware graphs. rustworkx is benchmark-only (the ``bench`` extra); every schedule, its
too, is replayed by the independent checker.

    python benchmarks/routing_at_scale.py --sections special bound exact rt --out /tmp/scale.md

Sections:

- ``special``: paths, cycles, stars, complete and complete bipartite graphs with 1,000
  vertices, random arrangements: the polynomial algorithm's time, and the whole
  ``routing.solve`` call (graph given, the schedule verified by replay).
- ``bound``: grids 3x3-6x6, random graphs with 8-30 vertices, heavy-hex 27: the
  ``swapper`` bound (the CPU seconds of the whole ``solve`` call, its proved lower bound),
  rustworkx's default run (``trials`` left at its default) and its best setting, 1,000
  trials (both ``seed=0`` so that the runs are repeatable), each run's CPU seconds, with
  the optimum where the native IDA* proves it within ``--exact-limit`` seconds.
- ``exact``: native token swapping (IDA*) on the 5 x 5 grid and random graphs with 20 and 25
  vertices, ``--time-limit`` seconds each.
- ``rt``: rt(G, pi) by ASP and SAT on grids 6x6-8x8 and heavy-hex 27 and 127.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

from pyasp_games.domains.routing import solve
from pyasp_games.domains.routing.model import Instance, random_arrangement, schedule_names
from pyasp_games.domains.routing.polynomial import exact_schedule
from pyasp_games.domains.routing.specs import graph_spec
from pyasp_games.domains.routing.verify import verify_schedule
from pyasp_games.engines.limits import Limits


def rustworkx_swaps(inst: Instance, trials: int | None = None) -> tuple[int | None, float]:
    """rustworkx's run (seed 0; ``trials`` left at its default unless given): its length
    (replayed and checked) and CPU seconds (``time.process_time``: every thread of this
    process; below 50 vertices rustworkx runs its trials in one thread)."""
    import rustworkx as rx

    g = inst.graph
    graph = rx.PyGraph()
    graph.add_nodes_from(range(len(g)))
    graph.add_edges_from_no_data(list(g.edges))
    started = time.process_time()
    swaps = list(rx.graph_token_swapper(graph, dict(enumerate(inst.state)), trials=trials, seed=0))
    seconds = time.process_time() - started
    edges = [(g.names[u], g.names[v]) for u, v in g.edges]
    start = {g.names[v]: g.names[t] for v, t in enumerate(inst.state)}
    verdict = verify_schedule(edges, start, "swap", schedule_names(g, [[e] for e in swaps]))
    if not verdict.ok:
        sys.exit(f"{inst.name}: rustworkx's schedule fails: {verdict.message}")
    return len(swaps), seconds


def table(head: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])


def special(seeds: int) -> str:
    rows = []
    for spec in ("path:1000", "cycle:1000", "star:999", "complete:1000", "bipartite:500,500"):
        g = graph_spec(spec)
        for moves in ("swap", "matching") if spec.split(":")[0] in ("star", "complete") else ("swap",):
            algo, whole, answers, optimal = [], [], [], True
            for seed in range(seeds):
                inst = random_arrangement(g, seed, moves)
                started = time.perf_counter()
                found = exact_schedule(inst)
                algo.append(time.perf_counter() - started)
                started = time.perf_counter()
                out = solve(inst, "native")
                whole.append(time.perf_counter() - started)
                if out.verdict.verified is not True:
                    sys.exit(f"{inst.name}: {out.status} {out.stats}")
                answers.append(out.answer)
                optimal = optimal and bool(out.verdict.optimal_claimed) and found is not None
            rows.append([
                spec, moves, ", ".join(map(str, answers)), "yes" if optimal else "bound",
                f"{statistics.median(algo):.3f}", f"{max(algo):.3f}",
                f"{statistics.median(whole):.3f}", f"{max(whole):.3f}",
            ])  # fmt: skip
            print(rows[-1], file=sys.stderr, flush=True)
    head = ["graph", "moves", "answers", "optimal", "algorithm median s", "max s",
            "solve + verify median s", "max s"]  # fmt: skip
    return table(head, rows)


BOUND_GRAPHS = [
    "grid:3x3", "grid:4x4", "grid:5x5", "grid:6x6",
    "random:8:12:1", "random:12:18:1", "random:16:24:1", "random:20:30:1", "random:25:40:1",
    "random:30:45:1", "heavy-hex:27",
]  # fmt: skip


def bound(seeds: int, exact_limit: float, first: int = 0) -> str:
    rows, ratios, ratios_rx, worse, worse_best, cpu = [], [], [], [], [], []
    for spec in BOUND_GRAPHS:
        g = graph_spec(spec)
        for seed in range(first, first + seeds):
            inst = random_arrangement(g, seed, "swap")
            started = time.process_time()
            ours = solve(inst, "swapper")  # the whole call: the schedule replayed by the checker
            ours_s = time.process_time() - started
            if ours.verdict.verified is not True:
                sys.exit(f"{inst.name}: swapper {ours.status} {ours.stats}")
            rx_len, rx_s = rustworkx_swaps(inst)
            best_len, best_s = rustworkx_swaps(inst, trials=1000)
            cpu.append((ours_s, rx_s, best_s))
            opt = None
            if exact_limit > 0:
                exact = solve(inst, "native", Limits(time_limit=exact_limit))
                opt = exact.answer if exact.verdict.optimal_claimed is True else None
            if opt:
                ratios.append(ours.answer / opt)
                ratios_rx.append(best_len / opt)
            if ours.answer > rx_len:
                worse.append(inst.name)
            if ours.answer > best_len or ours_s > best_s:
                worse_best.append(f"{inst.name} ({ours.answer} swaps in {ours_s:.3f} s against"
                                  f" {best_len} in {best_s:.3f} s)")  # fmt: skip
            rows.append([
                inst.name, str(ours.answer), f"{ours_s:.3f}", str(ours.stats["lower_bound"]),
                str(rx_len), f"{rx_s:.4f}", str(best_len), f"{best_s:.3f}",
            ])  # fmt: skip
            if exact_limit > 0:
                rows[-1] += [str(opt) if opt else f"? (>{exact_limit:g} s)",
                             f"{ours.answer / opt:.3f}" if opt else "",
                             f"{best_len / opt:.3f}" if opt else ""]  # fmt: skip
            print(rows[-1], file=sys.stderr, flush=True)
    head = ["instance", "swapper", "CPU s", "proved lower bound", "rustworkx", "CPU s",
            "rustworkx 1,000 trials", "CPU s"]
    if exact_limit > 0:
        head += ["optimum", "swapper / opt", "rustworkx 1,000 / opt"]  # fmt: skip
    med = [statistics.median(c[k] for c in cpu) for k in range(3)]
    summary = [
        f"instances: {len(rows)}; swapper longer than rustworkx's default on {len(worse)}"
        + (f" ({', '.join(worse)})" if worse else ""),
        f"swapper longer than rustworkx's 1,000 trials, or more CPU, on {len(worse_best)}"
        + (f": {'; '.join(worse_best)}" if worse_best else ""),
        f"swaps in all: swapper {sum(int(r[1]) for r in rows):,}, rustworkx default"
        f" {sum(int(r[4]) for r in rows):,}, rustworkx 1,000 trials {sum(int(r[6]) for r in rows):,}",
        f"CPU per call, median (max): swapper {med[0]:.3f} s ({max(c[0] for c in cpu):.3f}),"
        f" rustworkx default {med[1]:.4f} s ({max(c[1] for c in cpu):.4f}), rustworkx 1,000"
        f" trials {med[2]:.3f} s ({max(c[2] for c in cpu):.3f}); swapper / rustworkx 1,000 per"
        f" instance: median {statistics.median(c[0] / c[2] for c in cpu):.2f},"
        f" max {max(c[0] / c[2] for c in cpu):.2f}",
        f"with a proved optimum ({len(ratios)}): median swapper / opt {statistics.median(ratios):.3f},"
        f" max {max(ratios):.3f}; rustworkx 1,000 trials / opt median"
        f" {statistics.median(ratios_rx):.3f}, max {max(ratios_rx):.3f}" if ratios else "",
    ]
    return table(head, rows) + "\n\n" + "\n".join(f"- {s}" for s in summary if s)


def exact(seeds: int, limit: float) -> str:
    rows = []
    for spec in ("grid:4x4", "random:16:24:1", "grid:5x5", "random:20:30:1", "random:20:40:2",
                 "random:25:40:1"):  # fmt: skip
        g = graph_spec(spec)
        times, answers = [], []
        for seed in range(seeds):
            inst = random_arrangement(g, seed, "swap")
            out = solve(inst, "native", Limits(time_limit=limit))
            if out.status == "error":
                sys.exit(f"{inst.name}: {out.stats}")
            solved = out.status == "solved" and out.verdict.optimal_claimed is True
            times.append(out.seconds if solved else float("inf"))
            answers.append(str(out.answer) if solved else f"? (bound {out.stats.get('lower_bound')})")
            print(inst.name, out.status, out.answer, out.seconds, file=sys.stderr, flush=True)
        median = statistics.median(times)
        rows.append([
            spec, str(seeds), str(sum(t != float("inf") for t in times)), ", ".join(answers),
            f"{median:.2f}" if median != float("inf") else f">{limit:g}",
        ])  # fmt: skip
    return table(["graph", "arrangements", f"proved in {limit:g} s", "optima", "median s"], rows)


def rt(seeds: int, limit: float) -> str:
    rows = []
    for spec in ("grid:6x6", "grid:7x7", "grid:8x8", "heavy-hex:27", "heavy-hex:127"):
        g = graph_spec(spec)
        for backend in ("asp", "sat"):
            times, answers = [], []
            for seed in range(seeds):
                inst = random_arrangement(g, seed, "matching")
                out = solve(inst, backend, Limits(time_limit=limit))
                if out.status == "error":
                    sys.exit(f"{inst.name}: {backend} {out.stats}")
                ok = out.status == "solved"
                times.append(out.seconds if ok else float("inf"))
                answers.append(str(out.answer) if ok else "?")
                print(inst.name, backend, out.status, out.answer, out.seconds, file=sys.stderr, flush=True)
            median = statistics.median(times)
            rows.append([
                spec, backend, ", ".join(answers), str(sum(t != float("inf") for t in times)),
                f"{median:.2f}" if median != float("inf") else f">{limit:g}",
            ])  # fmt: skip
    return table(["graph", "backend", "rt(G, pi)", f"proved in {limit:g} s", "median s"], rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sections", nargs="+", default=["special", "bound", "exact", "rt"])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--first-seed", type=int, default=0,
                        help="bound: arrangements first-seed .. first-seed + seeds - 1")
    parser.add_argument("--time-limit", type=float, default=60)
    parser.add_argument("--exact-limit", type=float, default=30, help="0: no optimum column")
    parser.add_argument("--out")
    args = parser.parse_args()
    uptime = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    parts = [f"started {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; uptime: {uptime};"
             f" {os.cpu_count()} cores"]  # fmt: skip
    for name in args.sections:
        if name == "special":
            body = special(args.seeds)
        elif name == "bound":
            body = bound(args.seeds, args.exact_limit, args.first_seed)
        elif name == "exact":
            body = exact(args.seeds, args.time_limit)
        elif name == "rt":
            body = rt(args.seeds, args.time_limit)
        else:
            sys.exit(f"unknown section {name!r}")
        parts.append(f"## {name}\n\n{body}")
        print(parts[-1], flush=True)
    uptime = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    parts.append(f"finished; uptime: {uptime}")
    if args.out:
        with open(args.out, "w") as f:
            f.write("\n\n".join(parts) + "\n")


if __name__ == "__main__":
    main()
