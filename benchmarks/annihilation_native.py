"""Wall and CPU seconds of the exhaustive Annihilation and Catch backends on the largest
random instances of the bench suites (``annihilation-tokens``, ``catch-tokens``), with the
number of positions each builds, and of the ``poly`` backend on 200 vertices and 20 tokens (20 s per run; the seconds include the checker's own
analysis of the answer; CPU seconds count the forked child the backend runs in).

Run from the repository root:

    python benchmarks/annihilation_native.py
"""

from __future__ import annotations

import os
import resource
import time

from pyasp_games.domains import annihilation, catch
from pyasp_games.domains.annihilation.model import random_instance
from pyasp_games.domains.catch.model import random_instance as random_catch
from pyasp_games.engines.limits import Limits

CASES = [
    ("annihilation", annihilation, random_instance, {"n": 200, "tokens": 20, "seed": 0,
                                                     "degree": 1.5, "finite": True}, "poly"),
    ("annihilation", annihilation, random_instance, {"n": 20, "tokens": 8, "seed": 1}),
    ("annihilation", annihilation, random_instance, {"n": 30, "tokens": 6, "seed": 1}),
    ("annihilation", annihilation, random_instance, {"n": 200, "tokens": 3, "seed": 0}),
    ("annihilation", annihilation, random_instance, {"n": 200, "tokens": 4, "seed": 0}),
    ("catch", catch, random_catch, {"n": 20, "red": 4, "black": 2, "seed": 0}),
    ("catch", catch, random_catch, {"n": 30, "red": 4, "black": 2, "seed": 1}),
]


def _cpu() -> float:
    """CPU seconds of this process and its children (the backend runs in a forked child)."""
    mine, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return mine.ru_utime + mine.ru_stime + children.ru_utime + children.ru_stime


def main() -> None:
    print(f"load average at start: {os.getloadavg()[0]:.1f}")
    print("| domain | backend | instance | answer | positions | wall s | CPU s | verified |")
    print("|---|---|---|---|---:|---:|---:|---|")
    for name, domain, generate, params, *backend in CASES:
        inst = generate(**params)
        wall, cpu = time.perf_counter(), _cpu()
        out = domain.solve(inst, backend[0] if backend else "native", Limits(time_limit=20))
        wall, cpu = time.perf_counter() - wall, _cpu() - cpu
        shown = ", ".join(f"{k}={v}" for k, v in params.items())
        print(f"| {name} | {out.backend} | {shown} | {out.answer or out.status} "
              f"| {out.stats.get('positions', '-')} "
              f"| {wall:.2f} | {cpu:.2f} | {out.verdict.verified} |")


if __name__ == "__main__":
    main()
