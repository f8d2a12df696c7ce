"""The full chain 3SAT -> 3DM -> X3C -> cover -> assignment on random 3-CNFs (target: n = 10, m = 40 under 60 s).

For each random 3-CNF (three distinct variables per clause, uniformly random
signs) and each cover backend: the total wall time, the time of every stage
(sat-to-3sat, 3sat-to-3dm, 3dm-to-x3c, solve, map-back, check), the instance
sizes and the verdict, which is checked (a satisfying assignment is evaluated on
the original CNF; "no cover" is confirmed by PySAT on the original CNF).

    python benchmarks/cover_chain.py --n 10 --m 40 --seeds 1 2 3 4 --time-limit 60
"""

from __future__ import annotations

import argparse
import time

from pyasp_games.domains.cover.chain import chain
from pyasp_games.domains.cover.cnf import random_3cnf
from pyasp_games.engines.limits import Limits


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10)
    ap.add_argument("--m", type=int, default=40)
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4])
    ap.add_argument("--backends", nargs="+", default=["dlx", "asp", "sat"])
    ap.add_argument("--time-limit", type=float, default=60.0)
    args = ap.parse_args()
    stages = ["sat-to-3sat", "3sat-to-3dm", "3dm-to-x3c", "solve", "map-back", "check"]
    head = ["instance", "backend", "answer", "verified", "total", *stages]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    sizes_line = ""
    for seed in args.seeds:
        cnf = random_3cnf(args.n, args.m, seed)
        for backend in args.backends:
            start = time.perf_counter()
            out = chain(cnf, backend, Limits(time_limit=args.time_limit))
            total = time.perf_counter() - start
            secs = out.witness["seconds"]
            answer = {True: "sat", False: "unsat", None: f"{out.status}"}[out.answer]
            row = [cnf.name, backend, answer, str(out.verdict.verified), f"{total:.2f} s"]
            row += [f"{secs[s]:.2f}" if s in secs else "-" for s in stages]
            print("| " + " | ".join(row) + " |", flush=True)
            sizes_line = ", ".join(
                f"{k}: " + " ".join(f"{a}={b}" for a, b in v.items())
                for k, v in out.witness["sizes"].items()
            )
    print(f"\nsizes (every instance): {sizes_line}")


if __name__ == "__main__":
    main()
