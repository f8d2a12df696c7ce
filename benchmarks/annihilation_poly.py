"""Issue 26's target for the polynomial Annihilation backend: 200-vertex random digraphs
with 20 tokens anywhere, in at most 10 s.

For every degree and seed it runs the ``poly`` backend alone (wall and CPU seconds of the
backend in this process), then its checker on the answer (the certificate: Smith's
conditions, every round's one-round test, and for a ``draw`` the checker's own search for
a lost position outside the span), and prints one row each and the largest times. The exhaustive backend cannot finish these (``annihilation-poly`` bench suite).

Run from the repository root:

    python benchmarks/annihilation_poly.py
    python benchmarks/annihilation_poly.py --n 200 --tokens 20 --degrees 1,1.5,2,2.5,3 --seeds 5
"""

from __future__ import annotations

import argparse
import os
import time

from pyasp_games.domains.annihilation.model import random_instance
from pyasp_games.domains.annihilation.poly import solve_poly
from pyasp_games.domains.annihilation.verify import check_outcome
from pyasp_games.errors import Unconfirmed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--tokens", type=int, default=20)
    parser.add_argument("--degrees", default="1,1.5,2,2.5,3")
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.1f}")
    print("| degree | seed | answer | rounds | lost-space dimension | backend wall s | backend CPU s "
          "| SAT refutations | checker wall s | checker CPU s | checked |")
    print("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---|")
    worst = [0.0, 0.0]
    for degree in (float(d) for d in args.degrees.split(",")):
        for seed in range(args.seeds):
            inst = random_instance(args.n, seed, args.tokens, degree)
            wall, cpu = time.perf_counter(), time.process_time()
            out = solve_poly(inst)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            worst = [max(worst[0], wall), max(worst[1], cpu)]
            cwall, ccpu = time.perf_counter(), time.process_time()
            try:
                ok, _ = check_outcome(inst, out)
                checked = "proved" if ok else "REJECTED"
            except Unconfirmed:
                checked = "draw: consistent, unconfirmed"
            cwall, ccpu = time.perf_counter() - cwall, time.process_time() - ccpu
            print(f"| {degree:g} | {seed} | {out.answer} | {len(out.stats['rounds'])} "
                  f"| {out.stats['dimension']} | {wall:.2f} | {cpu:.2f} | {out.stats['refuted']} "
                  f"| {cwall:.2f} | {ccpu:.2f} "
                  f"| {checked} |", flush=True)
    print(f"largest backend times: {worst[0]:.2f} s wall, {worst[1]:.2f} s CPU; "
          f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
