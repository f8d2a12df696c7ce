"""Running one backend of a domain: limits, timing and verification in one place.

Every domain's ``solve(instance, backend, limits, **options)`` is this function
with the domain's backend table and checker filled in, so all domains treat a
reached limit, a failed verification and the timing identically.

>>> from pyasp_games.engines.outcome import Outcome
>>> def guess(x, limits):
...     return Outcome("", "", "solved", x * 2, x * 2)
>>> def check(x, outcome):
...     return outcome.witness == x + x, "doubling checked"
>>> out = run_backend({"guess": guess}, "guess", 21, "n=21", Limits(), check)
>>> out.status, out.answer, out.stats["verified"]
('solved', 42, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from pyasp_games.engines.limits import LimitReached, Limits
from pyasp_games.engines.outcome import Outcome

#: ``check(instance, outcome) -> (True | False | None, message)``; ``None``: nothing to check.
Checker = Callable[[Any, Outcome], tuple[bool | None, str]]


def run_backend(
    backends: Mapping[str, Callable[..., Outcome]],
    backend: str,
    instance: Any,
    problem: str,
    limits: Limits,
    check: Checker,
    **options: Any,
) -> Outcome:
    """Run ``backends[backend](instance, limits, **options)``; time and verify it.

    A backend signals a reached limit by returning status ``unknown`` or by
    raising :class:`LimitReached` (whose first argument may carry statistics).
    The outcome's ``stats`` gain ``verified`` (True/False/None) and
    ``verification`` (the checker's message); a witness that fails its check
    turns the status into ``error`` (the claimed status kept as ``failed_status``).
    """
    start = time.perf_counter()
    try:
        outcome = backends[backend](instance, limits, **options)
    except LimitReached as reached:
        stats = reached.args[0] if reached.args and isinstance(reached.args[0], dict) else {}
        outcome = Outcome(problem, backend, "unknown", None, None, 0.0, dict(stats))
    outcome.problem, outcome.backend = problem, backend
    outcome.seconds = round(time.perf_counter() - start, 4)
    if outcome.status == "unknown":
        outcome.stats.setdefault("limit", "time")
    ok, message = check(instance, outcome)
    outcome.stats["verified"] = ok
    outcome.stats["verification"] = message
    if ok is False:
        outcome.stats["failed_status"] = outcome.status
        outcome.status = "error"
    return outcome
