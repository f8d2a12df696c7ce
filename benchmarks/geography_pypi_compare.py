"""Our Geography solver against PyPI's ``generalized-geography`` (0.0.6), side by side.

Random directed graphs as in ``geography_native.py`` (n vertices, 2.5 n distinct arcs, start
vertex 0; ``--regular``: out-degree 2-3 everywhere, no sinks), on the two variants the
package solves (directed vertex: ``solver.directed_vertex_geography``, directed edge:
``solver.directed_edge_geography``). Each (solver, instance) runs in a forked child that is
killed at ``--time-limit``; the answers must agree (their "W" at the start vertex is our
"first"). Ours runs twice: ``solve`` (search, then the independent verification every
answer gets) and the search alone, the like-for-like time (the package verifies nothing).
Times are the child's wall and CPU (``time.process_time``) seconds: on a shared machine the
CPU time is the steadier figure. Benchmark-only:
``pip install 'generalized-geography==0.0.6'`` (its newer releases fail to import).

    python benchmarks/geography_pypi_compare.py --variant vertex --n 20 40 60 80 --count 5 --time-limit 60
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import time
from typing import Any

from pyasp_games.domains.geography.model import random_game


def theirs(game: Any) -> str:
    """The package's verdict for the start vertex: "first" when it says W."""
    import networkx as nx
    from generalized_geography.classes import UnlabeledMultiDiGraph
    from generalized_geography.solver import directed_edge_geography, directed_vertex_geography

    arcs = [
        (game.graph.names[u], game.graph.names[v])
        for u in range(len(game.graph.names))
        for v in game.graph.succ[u]
    ]
    start = game.graph.names[game.start]
    if game.variant == "vertex":
        graph = nx.DiGraph()
        graph.add_nodes_from(game.graph.names)
        graph.add_edges_from(arcs)
        win = directed_vertex_geography.is_win_dfs(graph, start)
    else:
        graph = UnlabeledMultiDiGraph()
        graph.add_nodes_from(game.graph.names)
        graph.add_edges_from(arcs)
        win = directed_edge_geography.is_win_dfs(graph, start)
    return "first" if win else "second"


def ours(game: Any) -> str:
    from pyasp_games.domains.geography import solve

    out = solve(game, "native")  # no limit here: the child process is the limit
    if out.status != "solved" or out.verdict.verified is False:
        raise RuntimeError(f"{out.status}: {out.verdict.message}")
    return out.answer


def ours_search(game: Any) -> str:
    """The native search alone (what ``ours`` runs before verifying), for a like-for-like
    time against the package, which verifies nothing."""
    from pyasp_games.domains.geography import BACKENDS

    return BACKENDS["native"](game).answer


def _child(conn: Any, fn: Any, game: Any) -> None:
    try:
        start, cpu = time.perf_counter(), time.process_time()
        answer = fn(game)
        conn.send(("ok", answer, time.perf_counter() - start, time.process_time() - cpu))
    except Exception as err:
        conn.send(("error", f"{err.__class__.__name__}: {err}", 0.0, 0.0))


def timed(fn: Any, game: Any, limit: float) -> tuple[str, Any, float, float]:
    """``(status, answer, wall s, CPU s)`` of ``fn(game)`` in a child killed at ``limit``."""
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(send, fn, game))
    process.start()
    send.close()
    try:
        if receive.poll(limit):
            return receive.recv()
        return ("timeout", None, limit, limit)
    finally:
        if process.is_alive():
            process.kill()
        process.join()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, nargs="+", default=[20, 40, 60])
    p.add_argument("--count", type=int, default=5)
    p.add_argument("--variant", choices=("vertex", "edge"), default="vertex")
    p.add_argument("--regular", action="store_true")
    p.add_argument("--time-limit", type=float, default=60.0)
    a = p.parse_args()
    # import both solvers before forking, so no child spends its time importing
    import generalized_geography  # noqa: F401

    import pyasp_games.domains.geography  # noqa: F401

    print(f"load average {os.getloadavg()[0]:.2f}; variant {a.variant}; regular {a.regular}")
    print(
        "| n | solver | answered | median s wall / CPU | worst s wall / CPU | disagreements "
        "| instances faster than the package (CPU) |"
    )
    print("|---|---|---|---|---|---|---|")
    bad = 0
    for n in a.n:
        games = [random_game(n, seed, a.variant, regular=a.regular) for seed in range(a.count)]
        results = {
            name: [timed(fn, g, a.time_limit) for g in games]
            for name, fn in (
                ("ours (search + verification)", ours),
                ("ours (search only)", ours_search),
                ("generalized-geography", theirs),
            )
        }
        disagree = sum(
            1
            for mine in ("ours (search + verification)", "ours (search only)")
            for r1, r2 in zip(results[mine], results["generalized-geography"], strict=True)
            if r1[0] == r2[0] == "ok" and r1[1] != r2[1]
        )
        bad += disagree
        package = results["generalized-geography"]
        for name, rows in results.items():
            # per instance: answered, and the package timed out or used more CPU
            faster = sum(
                1
                for mine, its in zip(rows, package, strict=True)
                if mine[0] == "ok" and (its[0] != "ok" or mine[3] < its[3])
            )
            versus = "" if rows is package else f"{faster}/{len(rows)}"
            done = [t for status, _, t, _ in rows if status == "ok"]
            cpu = [c for status, _, _, c in rows if status == "ok"]
            errors = [v for status, v, _, _ in rows if status == "error"]
            median = (
                f"{statistics.median(done):.3f} / {statistics.median(cpu):.3f}" if done else "-"
            )
            worst = f"{max(done):.3f} / {max(cpu):.3f}" if done else "-"
            note = f" ({len(errors)} errors: {errors[0]})" if errors else ""
            print(
                f"| {n} | {name} | {len(done)}/{len(rows)}{note} | {median} | {worst} "
                f"| {disagree} | {versus} |"
            )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
