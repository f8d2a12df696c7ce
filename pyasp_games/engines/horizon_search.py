"""The planning loop every horizon-based planner shares: the first satisfiable horizon.

A planner (clingo's multi-shot :meth:`~pyasp_games.engines.clingo_runner.ClingoSession.solve_horizons`,
the puzzle's single-shot ASP and incremental SAT planners) tries the horizons ``start,
start + stride, ...`` up to ``stop`` (``None``: no end). For each, ``extend(h)`` builds
what horizon ``h`` needs (clingo: grounds the missing steps and the goal; SAT: adds the
steps and the horizon's bounds) and says whether it got there before the limit;
``attempt(h)`` solves it: ``sat``, ``unsat`` or ``unknown`` (a limit). The first ``sat``
is the answer; with a ``start`` that is a lower bound and a ``stride`` that keeps the
parity of every plan, it is the optimum. ``tried`` lists the horizons attempted.

>>> search_horizons(1, 9, 2, lambda h: True, lambda h: "sat" if h >= 5 else "unsat")
(5, 'sat', [1, 3, 5])
>>> search_horizons(1, 3, 2, lambda h: True, lambda h: "unsat")
(None, 'unsat', [1, 3])
>>> search_horizons(1, None, 2, lambda h: h < 5, lambda h: "unsat")
(None, 'unknown', [1, 3])
"""

from __future__ import annotations

from collections.abc import Callable


def search_horizons(
    start: int,
    stop: int | None,
    stride: int,
    extend: Callable[[int], bool],
    attempt: Callable[[int], str],
) -> tuple[int | None, str, list[int]]:
    """``(first satisfiable horizon or None, status, horizons tried)``: status ``sat``,
    ``unsat`` (every horizon up to ``stop`` refuted) or ``unknown`` (a limit reached
    while extending or solving)."""
    tried: list[int] = []
    h = start
    while stop is None or h <= stop:
        if not extend(h):
            return None, "unknown", tried
        tried.append(h)
        status = attempt(h)
        if status != "unsat":
            return (h if status == "sat" else None), status, tried
        h += stride
    return None, "unsat", tried
