"""The Nim census (``games nim-census K M``): the digit DP against enumeration, and the
checker's character sum, on the same (K, M).

Enumeration visits all ``(M+1)^K`` positions with numpy (the XOR of every position as
one array, the zeros counted): it is run where that array fits in 70 MB
(``(M+1)^K <= 1.7 * 10^7``). The DP and the character sum run on every row; all counts
are compared.

    python benchmarks/nim_census.py
"""

from __future__ import annotations

import os
import time
from decimal import Decimal

import numpy as np

from pyasp_games.domains.grundy.census import count_p_positions
from pyasp_games.domains.grundy.verify import p_positions_by_characters

ROWS = [(2, 4095), (3, 63), (3, 255), (4, 63), (6, 15), (3, 10**6), (10, 10**6),
        (100, 10**6), (10, 10**18), (200, 10**30)]  # fmt: skip
ENUMERATED = 17_000_000


def enumerate_p(heaps: int, coins: int) -> int:
    """P-positions by visiting every position: the XOR of each, the zeros counted."""
    values = np.arange(coins + 1, dtype=np.int32)
    xor = np.zeros(1, dtype=np.int32)
    for _ in range(heaps):
        xor = (xor[:, None] ^ values[None, :]).ravel()
    return int(np.count_nonzero(xor == 0))


def timed(run) -> tuple[int, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    value = run()
    return value, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print("| K | M | positions | P-positions | DP (wall / CPU s) | character sum (s) | enumeration (s) |")
    print("|---|---|---|---|---|---|---|")
    for heaps, coins in ROWS:
        dp, dp_wall, dp_cpu = timed(lambda k=heaps, m=coins: count_p_positions(k, m))
        chars, ch_wall, _ = timed(lambda k=heaps, m=coins: p_positions_by_characters(k, m))
        assert dp == chars, (heaps, coins)
        shown = "not run"
        if (coins + 1) ** heaps <= ENUMERATED:
            counted, en_wall, en_cpu = timed(lambda k=heaps, m=coins: enumerate_p(k, m))
            assert counted == dp, (heaps, coins, counted, dp)
            shown = f"{en_wall:.3f} / {en_cpu:.3f}"
        total = (coins + 1) ** heaps
        print(f"| {heaps} | {coins:,} | {Decimal(total):.3e} | {Decimal(dp):.4e} | {dp_wall:.5f} / {dp_cpu:.5f} | "
              f"{ch_wall:.5f} | {shown} |")  # fmt: skip
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
