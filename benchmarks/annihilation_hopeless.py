"""Issue 26, leftover 1: a ``poly`` draw the exhaustive search cannot cross-check is
answered at once (NOT VERIFIED, with the reason), and the rate behind that decision.

Part 1 runs the whole command ``pyasp-games annihilation solve FILE -b poly`` on random
200-vertex digraphs with 20 tokens (wall and CPU seconds of the child process, its exit
code and first line). Before the up-front decision every ``draw`` there spent the 30 s
of ``CONFIRM_SECONDS`` on a native cross-check that could not finish; since the
completeness search proves ``poly``'s draws, these need no cross-check at all, and the
refusal is for claims the checker leaves unconfirmed (RESULTS.md, "The hopeless
cross-check").

Part 2 measures the exhaustive backend's rate (positions built and labelled per CPU
second) on instances it finishes, the figure ``positions.BEST_RATE`` is set above.

Run from the repository root:

    python benchmarks/annihilation_hopeless.py
    python benchmarks/annihilation_hopeless.py --seeds 3 --degrees 2,2.5,3 --no-rate
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pyasp_games.domains.annihilation.model import format_instance, random_instance
from pyasp_games.domains.annihilation.native import solve_native

#: (n, tokens, seed, degree) the rate is measured on: finished by native in seconds.
RATE_CASES = ((20, 8, 1, 1.5), (30, 6, 1, 1.5), (200, 3, 0, 1.5), (16, 8, 3, 2.5), (24, 8, 2, 2.0))


def children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def command(args: argparse.Namespace) -> None:
    exe = shutil.which("pyasp-games") or str(Path(sys.executable).with_name("pyasp-games"))
    print("| instance | exit | wall s | CPU s | first line |")
    print("|---|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for degree in args.degrees:
            for seed in range(args.seeds):
                inst = random_instance(args.n, seed=seed, tokens=args.tokens, degree=degree)
                path = Path(tmp) / f"{inst.name}-d{degree:g}.txt"
                path.write_text(format_instance(inst))
                cpu, wall = children_cpu(), time.perf_counter()
                run = subprocess.run([exe, "annihilation", "solve", str(path), "-b", "poly"],
                                     capture_output=True, text=True)  # fmt: skip
                wall, cpu = time.perf_counter() - wall, children_cpu() - cpu
                line = run.stdout.splitlines()[0] if run.stdout else run.stderr.strip()
                print(f"| {path.name} | {run.returncode} | {wall:.2f} | {cpu:.2f} | {line} |")


def rate() -> None:
    print("\n| n | tokens | seed | degree | answer | positions | bound | CPU s | wall s | positions per CPU s |")
    print("|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|")
    for n, k, seed, degree in RATE_CASES:
        inst = random_instance(n, seed=seed, tokens=k, degree=degree)
        cpu, wall = time.process_time(), time.perf_counter()
        out = solve_native(inst)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        count = out.stats["positions"]
        print(f"| {n} | {k} | {seed} | {degree} | {out.answer} | {count:,} | "
              f"{inst.reachable_bound():,} | {cpu:.2f} | {wall:.2f} | {count / cpu:,.0f} |")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--tokens", type=int, default=20)
    parser.add_argument("--degrees", type=lambda s: [float(x) for x in s.split(",")], default=[2.0, 2.5, 3.0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--no-rate", action="store_true", help="skip part 2")
    args = parser.parse_args()
    print(f"load average at the start: {os.getloadavg()[0]:.2f}")
    command(args)
    if not args.no_rate:
        rate()
    print(f"\nload average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
