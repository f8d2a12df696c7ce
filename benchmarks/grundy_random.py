"""Random game graphs for the Grundy benchmarks (shared by the grundy_* scripts).

``random_arcs(n, seed, sinks=f)``: every vertex is a sink with probability ``f``
and otherwise gets an out-degree uniform in 1..4 and that many distinct
successors uniform among the other vertices (no self-loops). ``arc_text`` writes
the arc-list format with vertices ``v0 .. v{n-1}`` (sinks declared on their own line).
"""

from __future__ import annotations

import random


def random_arcs(
    n: int, seed: int, sinks: float = 0.0, low: int = 1, high: int = 4
) -> list[tuple[int, int]]:
    rng = random.Random(seed)
    arcs = []
    for u in range(n):
        if sinks and rng.random() < sinks:
            continue
        k = min(rng.randint(low, high), n - 1)
        outs: set[int] = set()
        while len(outs) < k:
            v = rng.randrange(n)
            if v != u:
                outs.add(v)
        arcs += [(u, v) for v in sorted(outs)]
    return arcs


def arc_text(arcs: list[tuple[int, int]], n: int) -> str:
    lines = [f"v{u}\n" for u in range(n)]  # declare every position (sinks included)
    lines += [f"v{u} v{v}\n" for u, v in arcs]
    return "".join(lines)
