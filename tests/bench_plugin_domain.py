"""A toy domain for tests/test_bench.py, loaded the way users load their own domains
(``domain = "bench_plugin_domain:domain"`` in a suite next to this file).

Instances are integers (generator ``number``); backends misbehave on purpose:
``double`` answers 2n through the library's runner; ``crash`` aborts the process;
``hog`` allocates far more memory than any test's limit; ``stubborn`` sleeps through
its time limit without going through the runner (so only the campaign's kill stops it).
"""

from __future__ import annotations

import os
import time
from typing import Any

from pyasp_games.engines.claim import Claim
from pyasp_games.engines.domain import DomainSpec
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.runner import run_backend


def _double(n: int, limits: Limits) -> Claim:
    return Claim.solved(2 * n, 2 * n)


def _check(n: int, outcome: Outcome) -> tuple[bool | None, str]:
    if outcome.status != "solved":
        return None, "nothing to verify"
    return outcome.witness == 2 * n, "doubling checked"


def solve(n: int, backend: str, limits: Limits, **options: Any) -> Outcome:
    if backend == "crash":
        os.abort()
    if backend == "hog":
        block = bytearray(4 * 1024**3)  # 4 GB: beyond every test's memory limit
        return Outcome(str(n), backend, "solved", len(block), None)
    if backend == "stubborn":
        time.sleep(120)
    return run_backend({"double": _double}, "double", n, f"n={n}", limits, _check)


def domain() -> DomainSpec:
    return DomainSpec(
        name="toy",
        backend_names=["double", "crash", "hog", "stubborn"],
        solve=solve,
        load_file=lambda path: [int(x) for x in path.read_text().split()],
        bundled_files=list,
        known=lambda n: (True, 2 * n),
        generators={"number": lambda seed, base=0: base + seed},
    )
