"""Node Kayles on every graph of the networkx atlas (1,252 graphs of 1 to 7 vertices):
native, asp and the expanded game graph (answered by ``grundy values``) agree, each
verified; CPU and wall seconds per backend.

    python benchmarks/kayles_atlas.py
    python benchmarks/kayles_atlas.py --backends expanded --by sat
"""

from __future__ import annotations

import argparse
import time

import networkx as nx

from pyasp_games.domains.kayles import BACKENDS, solve
from pyasp_games.engines.graphs import numbered_graph


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--backends", nargs="*", default=list(BACKENDS))
    p.add_argument("--by", default="values", help="how grundy answers the expanded graph")
    a = p.parse_args()
    graphs = []
    for i, g in enumerate(nx.graph_atlas_g()[1:], 1):
        g = nx.convert_node_labels_to_integers(g)
        graphs.append(numbered_graph(g.number_of_nodes(), list(g.edges()), f"atlas{i}"))
    answers: dict[str, list[int]] = {}
    for backend in a.backends:
        cpu, wall = time.process_time(), time.perf_counter()
        options = {"by": a.by} if backend == "expanded" else {}
        outs = [solve(graph, backend, **options) for graph in graphs]
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        failed = [o.problem for o in outs if o.verdict.verified is not True]
        answers[backend] = [o.answer for o in outs]
        print(f"{backend}: {len(outs)} graphs, {cpu:.1f} s CPU, {wall:.1f} s wall, "
              f"{len(failed)} not verified {failed[:3]}", flush=True)  # fmt: skip
    first = next(iter(answers.values()))
    differ = [graphs[i].name for i in range(len(graphs))
              if len({answers[b][i] for b in answers}) > 1]  # fmt: skip
    print(f"all backends agree: {not differ} {differ[:5]}; values 0..{max(first)}")


if __name__ == "__main__":
    main()
