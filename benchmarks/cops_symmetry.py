"""Cops and Robbers: the retrograde analysis with and without the automorphism reduction
(issue 27), side by side, CPU seconds first.

Each case runs twice in a fresh process of its own (as a command would: the compiled
kernels loaded from numba's cache, small tables interpreted first), once as shipped
and once with the reduction turned off (``symmetry_of`` replaced by a function
answering ``None``, so every position is decided by the analysis itself). Reported:
the positions, the order of the automorphism group and the positions decided, the
answer (the same both ways, or the run fails) and CPU seconds (``resource.getrusage``
of the child) and wall seconds, the checker's replay of the strategies included.

A second table times the analysis alone (``Table.build``) in this process with the
kernels compiled first, the least of three runs each way (the group listed afresh
each time), and checks that both give every position the same values. Run from the
repository root:

    python benchmarks/cops_symmetry.py
    python benchmarks/cops_symmetry.py --only robertson
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

#: (label, question, graph, cops, extra arguments of ``cops solve``)
CASES = [
    ("petersen", "number", "petersen", None, {}),
    ("dodecahedron", "number", "dodecahedron", None, {}),
    ("robertson", "number", "robertson", None, {}),
    ("hypercube:4", "number", "hypercube:4", None, {}),
    ("grid:5x5", "number", "grid:5x5", None, {}),
    ("grid:6x6", "number", "grid:6x6", None, {}),
    ("grid:5x5 notes 3", "solve", "grid:5x5", "0,0 0,1 0,2", {"robber": "4,4", "variant": "notes"}),
    ("grid:6x6 notes 3", "solve", "grid:6x6", "0,0 0,1 0,2", {"robber": "5,5", "variant": "notes"}),
]

CHILD = r"""
import json, resource, sys, time
from pyasp_games.domains import cops
from pyasp_games.domains.cops import retrograde
from pyasp_games.domains.cops.model import load_game, load_graph_game
question, graph, placed, extra, reduce = json.loads(sys.argv[1])
if not reduce:
    retrograde.symmetry_of = lambda *args, **kwargs: None
built = []
original = retrograde.Table.build.__func__
def build(cls, game, k, deadline=None, symmetric=True):
    t = original(cls, game, k, deadline, symmetric)
    built.append((2 * t.placements * t.n, t.reduction["automorphisms"], 2 * t.reduction["decided"]))
    return t
retrograde.Table.build = classmethod(build)
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
c0, w0 = cpu(), time.perf_counter()
if question == "number":
    out = cops.number(load_graph_game(graph))
else:
    out = cops.solve(load_game(graph, placed, extra["robber"], extra["variant"]), "native")
print(json.dumps({"answer": out.answer, "verified": out.verdict.verified, "cpu": cpu() - c0,
                  "wall": time.perf_counter() - w0, "tables": built}))
"""


def run(case: tuple, reduce: bool) -> dict:
    _, question, graph, placed, extra = case
    arg = json.dumps([question, graph, placed, extra, reduce])
    done = subprocess.run([sys.executable, "-c", CHILD, arg], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


#: (graph, cops, rules) of the second table.
TABLES = [("petersen", 3, "classic"), ("dodecahedron", 3, "classic"), ("robertson", 3, "classic"),
          ("robertson", 4, "classic"), ("hypercube:4", 3, "classic"), ("grid:6x6", 2, "classic"),
          ("grid:5x5", 3, "notes"), ("grid:6x6", 3, "notes")]  # fmt: skip


def tables(only: list[str] | None) -> None:
    import time

    import numpy as np

    from pyasp_games.domains.cops import symmetry
    from pyasp_games.domains.cops.model import CopsGame, read_graph
    from pyasp_games.domains.cops.retrograde import Table
    from pyasp_games.engines.compiled import compile_kernels

    compile_kernels("pyasp_games.domains.cops.retrograde")
    print("\n| graph | cops | rules | positions | automorphisms | decided | same values "
          "| CPU s without | CPU s with |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, k, rules in TABLES:
        if only and name not in only:
            continue
        game = CopsGame(read_graph(name), rules)
        best = {}
        for symmetric in (False, True):
            times = []
            for _ in range(3):
                symmetry._automorphisms.cache_clear()
                start = time.process_time()
                t = Table.build(game, k, symmetric=symmetric)
                times.append(time.process_time() - start)
            best[symmetric] = (min(times), t)
        whole, reduced = best[False][1], best[True][1]
        same = bool(np.array_equal(whole.cops_value, reduced.cops_value)
                    and np.array_equal(whole.robber_value, reduced.robber_value))  # fmt: skip
        r = reduced.reduction
        print(f"| {name} | {k} | {rules} | {2 * whole.placements * whole.n:,} | {r['automorphisms']} | "
              f"{2 * r['decided']:,} | {same} | {best[False][0]:.3f} | {best[True][0]:.3f} |", flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--only", nargs="*", help="labels to run (default: all)")
    a = p.parse_args()
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("| case | answer | positions (largest table) | automorphisms | decided | verified "
          "| CPU s without | CPU s with | wall s without | wall s with |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for case in CASES:
        if a.only and case[0] not in a.only:
            continue
        off, on = run(case, False), run(case, True)
        if off["answer"] != on["answer"]:
            raise SystemExit(f"{case[0]}: the answers differ: {off['answer']} and {on['answer']}")
        positions, order, decided = max(on["tables"])
        print(f"| {case[0]} | {json.dumps(on['answer'])} | {positions:,} | {order} | {decided:,} | "
              f"{on['verified'] and off['verified']} | {off['cpu']:.2f} | {on['cpu']:.2f} | "
              f"{off['wall']:.2f} | {on['wall']:.2f} |", flush=True)
    tables(a.only)


if __name__ == "__main__":
    main()
