"""Grundy's game g(1..N): the library's sparse-space algorithm against the plain numpy mex loop.

``pyasp_games.domains.grundy.classic_games.grundys_game`` (see its docstring) versus the direct
vectorised loop (``np.bincount`` of ``g[1..h] XOR g[n-h..n-1]`` for every n),
which is run only with ``--baseline``; both results are compared.

    python benchmarks/grundy_game.py --upto 100000 --baseline
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from pyasp_games.domains.grundy.classic_games import grundys_game


def baseline(upto: int) -> list[int]:
    g = np.zeros(upto + 1, dtype=np.int64)
    for n in range(3, upto + 1):
        h = (n - 1) // 2
        g[n] = int(np.argmin(np.bincount(g[1 : h + 1] ^ g[n - h : n][::-1], minlength=1024) > 0))
    return [int(x) for x in g[1:]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--upto", type=int, default=100_000)
    parser.add_argument("--baseline", action="store_true")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    start = time.perf_counter()
    ours = grundys_game(args.upto)
    print(f"grundys_game({args.upto}): {time.perf_counter() - start:.2f} s, max value {max(ours)}")
    if args.baseline:
        start = time.perf_counter()
        plain = baseline(args.upto)
        print(f"numpy mex loop: {time.perf_counter() - start:.2f} s; equal: {plain == ours}")


if __name__ == "__main__":
    main()
