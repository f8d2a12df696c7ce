"""rt(G) exactly for every connected graph with up to 7 vertices (networkx's graph atlas).

For each connected graph of ``networkx.graph_atlas_g()`` (every graph up to 7 vertices,
up to isomorphism) it computes rt(G) by one breadth-first search over all n!
arrangements (``pyasp_games.domains.routing.native.routing_number``), replays the worst
arrangement's schedule with the independent checker and, with ``--recheck``, re-solves
that arrangement with the ASP and SAT backends and checks that they agree. Writes the
table (atlas index, n, edges, rt, worst arrangement) and prints the distribution of rt
per vertex count as Markdown.

    python benchmarks/routing_atlas.py --recheck --out instances/routing/atlas-rt.txt
"""

from __future__ import annotations

import argparse
import collections
import sys
import time

import networkx as nx

from pyasp_games.domains.routing import solve
from pyasp_games.domains.routing.model import Instance, schedule_names
from pyasp_games.domains.routing.native import routing_number
from pyasp_games.domains.routing.verify import verify_schedule
from pyasp_games.engines.graphs import graph_from_networkx
from pyasp_games.engines.limits import Limits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-n", type=int, default=7)
    parser.add_argument("--moves", default="matching", choices=["matching", "swap"])
    parser.add_argument("--recheck", action="store_true", help="re-solve each worst arrangement by asp and sat")
    parser.add_argument("--out", help="write the table here")
    args = parser.parse_args()
    started = time.perf_counter()
    rows = []
    by_n: dict[int, collections.Counter] = collections.defaultdict(collections.Counter)
    seconds = {"bfs": 0.0, "asp": 0.0, "sat": 0.0}
    for index, atlas_graph in enumerate(nx.graph_atlas_g()):
        n = atlas_graph.number_of_nodes()
        if n == 0 or n > args.max_n or not nx.is_connected(atlas_graph):
            continue
        g = graph_from_networkx(atlas_graph, f"atlas{index}", undirected=True)
        t0 = time.perf_counter()
        result = routing_number(g, args.moves)
        seconds["bfs"] += time.perf_counter() - t0
        check = verify_schedule(
            [(g.names[u], g.names[v]) for u, v in g.edges],
            {g.names[v]: g.names[t] for v, t in enumerate(result.worst)},
            args.moves,
            schedule_names(g, result.schedule),
        )
        if not check.ok or len(result.schedule) != result.value:
            sys.exit(f"atlas{index}: the witness schedule fails: {check.message}")
        if args.recheck:
            inst = Instance(g, result.worst, args.moves, None, f"atlas{index}")
            for backend in ("asp", "sat"):
                out = solve(inst, backend, Limits(time_limit=60))
                seconds[backend] += out.seconds
                if out.status != "solved" or out.answer != result.value or not out.verdict.verified:
                    sys.exit(f"atlas{index}: {backend} says {out.status} {out.answer}, BFS {result.value}")
        by_n[n][result.value] += 1
        worst = " ".join(f"{g.names[v]}>{g.names[t]}" for v, t in enumerate(result.worst) if v != t)
        edges = " ".join(f"{g.names[u]}-{g.names[v]}" for u, v in g.edges)
        rows.append(f"{index}\t{n}\t{len(g.edges)}\t{result.value}\t{worst or '-'}\t{edges or '-'}")
    total = time.perf_counter() - started
    if args.out:
        with open(args.out, "w") as f:
            f.write(
                f"# rt(G) ({args.moves} moves) of every connected graph with at most {args.max_n} vertices,\n"
                "# by networkx graph_atlas_g() index; exhaustive BFS over all arrangements, the worst\n"
                "# arrangement's schedule replayed" + (" and re-solved by ASP and SAT" if args.recheck else "")
                + ".\n# Written by benchmarks/routing_atlas.py.\n"
                "# atlas\tn\tedges\trt\tworst arrangement (u>target)\tedges\n"
            )
            f.write("\n".join(rows) + "\n")
    values = sorted({v for c in by_n.values() for v in c})
    print("| n | graphs | " + " | ".join(f"rt={v}" for v in values) + " |")
    print("|---|---|" + "---|" * len(values))
    for n in sorted(by_n):
        c = by_n[n]
        print(f"| {n} | {sum(c.values())} | " + " | ".join(str(c.get(v, "")) for v in values) + " |")
    print(
        f"\n{len(rows)} graphs in {total:.1f} s (BFS {seconds['bfs']:.1f} s"
        + (f", ASP re-solve {seconds['asp']:.1f} s, SAT re-solve {seconds['sat']:.1f} s" if args.recheck else "")
        + ")"
    )


if __name__ == "__main__":
    main()
