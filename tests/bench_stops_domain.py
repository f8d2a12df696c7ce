"""A toy domain for tests/test_bench.py whose backends are each stopped by one limit
(``domain = "bench_stops_domain:domain"`` in a suite next to this file), counting the
nodes of their search as they go and saying, as most backends do, ``"time"`` for any
stop of their deadline: ``sleepy`` waits between its steps (its wall-clock limit stops
it), ``busy`` computes (its CPU limit), ``hungry`` allocates (its memory limit). A stage
before the backend (here: reading the instance) spends ``prepare`` CPU seconds of the
run's limits first, as a question's stages hand their started limits on.
"""

from __future__ import annotations

import time
from typing import Any

from pyasp_games.engines.claim import Claim
from pyasp_games.engines.domain import DomainSpec
from pyasp_games.engines.limits import Limits, process_cpu
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.runner import run_backend


def _search(limits: Limits, pause: float = 0.0, grow: int = 0) -> Claim:
    deadline = limits.deadline()
    nodes, held = 0, []
    while True:
        for _ in range(1000):
            nodes += 1
        if grow:
            try:
                held.append(bytearray(grow))
            except MemoryError:
                return Claim.unknown({"nodes": nodes, "limit": "memory"})
        if pause:
            time.sleep(pause)
        if deadline.expired():
            return Claim.unknown({"nodes": nodes, "limit": "time"})


BACKENDS = {
    "sleepy": lambda n, limits: _search(limits, pause=0.05),
    "busy": lambda n, limits: _search(limits),
    "hungry": lambda n, limits: _search(limits, grow=16 * 2**20),
}


def solve(prepare: float, backend: str, limits: Limits, **options: Any) -> Outcome:
    limits = limits.started()
    until = process_cpu() + prepare
    while process_cpu() < until:  # the run's CPU, spent before its backend starts
        pass
    return run_backend(BACKENDS, backend, prepare, f"prepare={prepare}", limits, lambda *_: (None, ""))


def domain() -> DomainSpec:
    return DomainSpec(
        name="stops",
        backend_names=list(BACKENDS),
        solve=solve,
        load_file=lambda path: [float(x) for x in path.read_text().split()],
        bundled_files=list,
        known=lambda prepare: (False, None),
        generators={"prepared": lambda seed, cpu=0.0: cpu},
    )
