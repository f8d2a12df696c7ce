"""Node Kayles: our sequences against the published ones (Brown et al., "Nimber sequences
of Node-Kayles games", J. Integer Sequences 23 (2020), Article 20.3.5, and the OEIS
entries it deposited), family by family, as far as ``--cpu-limit`` seconds of the
native search reach.

The published terms are the tests' (``tests/test_kayles.py``, where each is quoted
with its source). For each family: the terms compared, the first disagreement if any
(none so far), and the CPU and wall seconds of the search (the sequence's own backend,
one table of components shared by the members; the checker is not run here: the tests
run it on the shorter prefixes). Run from the repository root:

    python benchmarks/kayles_published.py --cpu-limit 60
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pyasp_games.domains.kayles.bitset_search import compile_now
from pyasp_games.domains.kayles.model import parse_family
from pyasp_games.domains.kayles.native import solve_sequence
from pyasp_games.engines.limits import LimitReached, Limits
from tests.test_kayles import QUICK, _published


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cpu-limit", type=float, default=60.0, help="CPU seconds per family")
    p.add_argument("--time-limit", type=float, default=1800.0, help="wall seconds per family")
    a = p.parse_args()
    compile_now()
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("| family | published terms | compared | agree | CPU s | wall s |")
    print("|---|---|---|---|---|---|")
    for name in QUICK:
        first, terms = _published(name)
        family = parse_family(name, first + len(terms) - 1)
        cpu, wall = time.process_time(), time.perf_counter()
        try:
            ours = solve_sequence(family, Limits(time_limit=a.time_limit, cpu_limit=a.cpu_limit)).answer
            reached = ""
        except LimitReached as stop:
            ours = stop.args[0]["found_before_limit"]
            reached = " (limit)"
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        ours = ours[first - family.first :]
        compared = min(len(ours), len(terms))
        wrong = next((first + i for i in range(compared) if ours[i] != terms[i]), None)
        agree = "all" if wrong is None else f"no: first at n = {wrong}"
        print(f"| {name} | n = {first}..{first + len(terms) - 1} | n = {first}..{first + compared - 1}"
              f"{reached} | {agree} | {cpu:.1f} | {wall:.1f} |", flush=True)


if __name__ == "__main__":
    main()
