"""Shared helpers of the cover benchmarks: the PyPI exact-cover solvers in child processes.

Not run by CI. ``exact-cover`` (a C extension) and ``xcover`` (numba) are
benchmark-only tools (``pip install -e '.[bench]'``); each runs in a forked child
process that is killed at the time limit (neither can be interrupted), after a
warm-up call on a tiny instance so that numba's compilation is not timed. Every
cover they report is checked with :func:`pyasp_games.cover.verify.check_cover`.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Sequence
from typing import Any

EXTERNAL = ("exact-cover", "xcover")


def _run_external(name: str, items: int, options: list[list[int]], mode: str, conn: Any) -> None:
    tiny = [[0, 1], [2], [1, 2], [0]]
    if name == "xcover":
        from xcover import covers

        list(covers(tiny, primary=[0, 1, 2]))  # compile before timing
        start = time.perf_counter()
        gen = covers(options, primary=list(range(items)))
        if mode == "first":
            first = next(gen, None)
            result: Any = None if first is None else [int(i) for i in first]
        else:
            result = sum(1 for _ in gen)
    else:
        import numpy as np
        from exact_cover import get_exact_cover, get_solution_count
        from exact_cover.error import NoSolution

        matrix = np.zeros((len(options), items), dtype=np.int32)
        for r, option in enumerate(options):
            matrix[r, list(option)] = 1
        small = np.array([[1 if c in o else 0 for c in range(3)] for o in tiny], dtype=np.int32)
        get_solution_count(small)
        start = time.perf_counter()
        if mode == "first":
            try:
                result = [int(i) for i in get_exact_cover(matrix)]
            except NoSolution:
                result = None
        else:
            result = int(get_solution_count(matrix))
    conn.send((result, time.perf_counter() - start))
    conn.close()


def run_external(
    name: str, items: int, options: Sequence[Sequence[int]], mode: str, time_limit: float
) -> tuple[str, Any, float]:
    """``(status, result, seconds)``: status ``solved``/``no-solution``/``unknown``/``error``."""
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    opts = [list(o) for o in options]
    proc = ctx.Process(target=_run_external, args=(name, items, opts, mode, child))
    proc.start()
    child.close()
    got = parent.poll(time_limit + 10)  # + the warm-up (numba compiles)
    if not got:
        proc.kill()
        proc.join()
        return "unknown", None, time_limit
    try:
        result, seconds = parent.recv()
    except EOFError:
        proc.join()
        return "error", None, 0.0
    proc.join()
    if seconds > time_limit:
        return "unknown", None, time_limit
    if mode == "first":
        return ("solved" if result is not None else "no-solution"), result, seconds
    return ("solved" if result else "no-solution"), result, seconds


def cell(status: str, seconds: float, note: str = "") -> str:
    """A table cell: the time, with what was found (or ``>limit`` at the limit)."""
    if status == "unknown":
        return f">{seconds:.0f} s"
    if status == "error":
        return f"ERROR {note}".strip()
    return f"{seconds:.2f} s {note}".strip()
