"""Shared helpers of the cover benchmarks: the PyPI exact-cover solvers in child processes.

Not run by CI. ``exact-cover`` (a C extension) and ``xcover`` (numba) are
benchmark-only tools (``pip install -e '.[bench]'``); each runs in a forked child
process that is killed at the time limit (neither can be interrupted), after a
warm-up call on a tiny instance so that numba's compilation is not timed. Every
cover they report is checked with :func:`pyasp_games.domains.cover.verify.check_cover`.

The machine is shared, so every time is reported twice: wall-clock seconds and
the CPU seconds of the process that solved (``cpu_seconds``, ``run_external``).
"""

from __future__ import annotations

import multiprocessing
import resource
import time
from collections.abc import Sequence
from typing import Any

EXTERNAL = ("exact-cover", "xcover")


def _run_external(name: str, items: int, options: list[list[int]], mode: str, conn: Any) -> None:
    tiny = [[0, 1], [2], [1, 2], [0]]
    if name == "xcover":
        from xcover import covers

        list(covers(tiny, primary=[0, 1, 2]))  # compile before timing
        start, cpu = time.perf_counter(), time.process_time()
        gen = covers(options, primary=list(range(items)))
        if mode == "one":
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
        start, cpu = time.perf_counter(), time.process_time()
        if mode == "one":
            try:
                result = [int(i) for i in get_exact_cover(matrix)]
            except NoSolution:
                result = None
        else:
            result = int(get_solution_count(matrix))
    conn.send((result, time.perf_counter() - start, time.process_time() - cpu))
    conn.close()


def cpu_seconds() -> float:
    """CPU seconds of this process and of its finished children (forked backends, clingo threads)."""
    me, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def run_external(
    name: str, items: int, options: Sequence[Sequence[int]], mode: str, time_limit: float
) -> tuple[str, Any, float, float]:
    """``(status, result, seconds, cpu)``: status ``solved``/``no-solution``/``unknown``/``error``.

    The limit is on wall-clock time (as for our backends); ``cpu`` is the child's
    CPU time of the timed call (``nan`` when it was killed).
    """
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
        return "unknown", None, time_limit, float("nan")
    try:
        result, seconds, cpu = parent.recv()
    except EOFError:
        proc.join()
        return "error", None, 0.0, float("nan")
    proc.join()
    if seconds > time_limit:
        return "unknown", None, time_limit, cpu
    if mode == "one":
        return ("solved" if result is not None else "no-solution"), result, seconds, cpu
    return ("solved" if result else "no-solution"), result, seconds, cpu


def cell(status: str, seconds: float, note: str = "", cpu: float | None = None) -> str:
    """A table cell: the wall time (CPU time in brackets), with what was found, or ``>limit``."""
    if status == "unknown":
        return f">{seconds:.0f} s"
    if status == "error":
        return f"ERROR {note}".strip()
    used = f" ({cpu:.2f} cpu)" if cpu is not None and cpu == cpu else ""
    return f"{seconds:.2f} s{used} {note}".strip()
