"""Smith's generalized Sprague–Grundy function on a random digraph with about 10^6 arcs.

Writes a random digraph (``pyasp_games.domains.grundy.model.random_arcs``: a vertex is a sink with probability
``--sinks`` (default 0.05: without sinks every position is a draw, which is
trivial), otherwise its out-degree is uniform in 1..4; ``--arcs`` / mean
out-degree vertices) to an arc-list file, then times, in one process:
reading it with ``pyasp_games.engines.graphs.read_graph``, ``generalized_grundy``
(values and counters), and separately the independent checks (Smith's
conditions and the retrograde labelling), which are not part of the target.

    python benchmarks/grundy_loopy.py --arcs 1000000 --seed 1
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))

from pyasp_games.domains.grundy.generalized import generalized_grundy
from pyasp_games.domains.grundy.model import arc_text, random_arcs
from pyasp_games.domains.grundy.retrograde import retrograde_classes
from pyasp_games.domains.grundy.verify import check_generalized, classes_of
from pyasp_games.engines.graphs import read_graph


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arcs", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sinks", type=float, default=0.05)
    parser.add_argument("--no-check", action="store_true")
    args = parser.parse_args()
    n = int(args.arcs / (2.5 * (1 - args.sinks)))
    arcs = random_arcs(n, args.seed, sinks=args.sinks)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "graph.txt")
        with open(path, "w") as f:
            f.write(arc_text(arcs, n))
        print(f"load average before: {os.getloadavg()[0]:.2f}")
        start = time.perf_counter()
        g = read_graph(path)
        read = time.perf_counter() - start
        values, counters = generalized_grundy(g)
        total = time.perf_counter() - start
    finite = [v for v in values if isinstance(v, int)]
    cls = classes_of(values)
    print(f"vertices {len(g)}, arcs {g.arc_count}")
    print(f"read {read:.2f} s, generalized function {total - read:.2f} s, total {total:.2f} s")
    print(
        f"largest finite value {max(finite, default=None)}, infinite {len(values) - len(finite)}, "
        f"P {cls.count('P')}, N {cls.count('N')}, D {cls.count('D')}"
    )
    if not args.no_check:
        start = time.perf_counter()
        _, message = check_generalized(g, values, counters)
        agree = cls == retrograde_classes(g)
        print(
            f"checks ({time.perf_counter() - start:.2f} s): {message}; retrograde agrees: {agree}"
        )


if __name__ == "__main__":
    main()
