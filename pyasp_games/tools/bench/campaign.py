"""A benchmark campaign: every (instance, backend, repeat) of a suite, one process each.

The runner is written against :class:`concurrent.futures.Executor`: a local
``ProcessPoolExecutor`` by default, or a Dask distributed cluster's executor
(``Client.get_executor``); each submitted task is :func:`pyasp_games.tools.bench.job.run_job`,
which runs the solver in a child process of its own under the time and memory limits.
Whatever a run builds first (e.g. pattern databases) is part of that run, under its
limits.

Results stream into the campaign's directory as runs finish
(:mod:`pyasp_games.tools.bench.results`: ``results.jsonl``, ``results.csv``, ``meta.json``,
``suite.toml``), so an interrupted campaign keeps what it has; :func:`run_campaign` with
``resume=True`` skips the runs already recorded (with ``retry_unknown=True``, all but those
stopped by a limit, which run again: a search that saves its own progress, such as the
24-puzzle's checkpoints, goes on where it stopped). The machine, versions and commit a
session ran on are recorded by :mod:`pyasp_games.tools.bench.machine`.

>>> import tempfile
>>> from pathlib import Path
>>> from pyasp_games.tools.bench.suite import parse_suite
>>> suite = parse_suite('''
... domain = "cover"
... time_limit = 10
... backends = ["dlx", "sat"]
... [[instances]]
... bundled = "tiny-cover.txt"
... ''', name="doc")
>>> out = Path(tempfile.mkdtemp()) / "campaign"
>>> plan = plan_campaign(suite)
>>> len(plan.jobs())
2
>>> with local_executor(1) as pool:
...     rows = run_campaign(plan, out, pool)
>>> sorted((r["backend"], r["status"], r["verified"]) for r in rows)
[('dlx', 'solved', True), ('sat', 'solved', True)]
>>> sorted(p.name for p in out.iterdir())
['meta.json', 'results.csv', 'results.jsonl', 'suite.toml']
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pyasp_games.engines.domain import BackendSpec, DomainSpec
from pyasp_games.engines.limits import checked_megabytes, checked_seconds
from pyasp_games.errors import InputError
from pyasp_games.tools.bench.job import key, make_job, pool_worker_init, run_job
from pyasp_games.tools.bench.results import (
    Sink,
    finish_meta,
    open_dir,
    read_rows,
    rewrite_csv,
    write_meta,
)
from pyasp_games.tools.bench.suite import (
    MAX_RUNS,
    InstanceRef,
    Suite,
    backend_specs,
    domain_of,
    expand,
)


class CampaignError(RuntimeError):
    """Some runs could not be done by the executor (they can be resumed)."""


@dataclass
class Plan:
    """A suite made concrete: its domain, backends, instances and limits."""

    suite: Suite
    spec: DomainSpec
    backends: list[BackendSpec]
    instances: list[tuple[InstanceRef, Any]]
    time_limit: float
    repeat: int
    memory_limit: int | None
    kill_after: float | None = None
    cpu_limit: float | None = None

    def jobs(self) -> list[dict[str, Any]]:
        """Every run, instance by instance (so partial results cover whole instances first)."""
        jobs = []
        for ref, instance in self.instances:
            for b in self.backends:
                if self.spec.applies is not None and not self.spec.applies(instance, b.backend):
                    continue  # e.g. an algorithm for undirected graphs on a directed one
                for k in range(self.repeat):
                    jobs.append(
                        make_job(
                            self.suite.domain,
                            ref,
                            b.label,
                            b.backend,
                            b.options,
                            k,
                            self.time_limit,
                            self.memory_limit,
                            suite=self.suite.name,
                            folder=str(self.suite.folder),
                            kill_after=self.kill_after,
                            cpu_limit=self.cpu_limit,
                        )
                    )
        return jobs

    def settings(self) -> dict[str, Any]:
        return {
            "time_limit": self.time_limit,
            "cpu_limit": self.cpu_limit,
            "repeat": self.repeat,
            "memory_limit_mb": self.memory_limit,
            "backends": [
                {"label": b.label, "backend": b.backend, "options": b.options}
                for b in self.backends
            ],
            "instances": len(self.instances),
        }


def plan_campaign(
    suite: Suite,
    backends: Sequence[str] | None = None,
    encodings: Sequence[str] | None = None,
    time_limit: float | None = None,
    repeat: int | None = None,
    memory_limit: int | None = None,
    kill_after: float | None = None,
    cpu_limit: float | None = None,
) -> Plan:
    """Resolve a suite's domain, backends and instances; options override the suite's."""
    spec = domain_of(suite)
    specs = backend_specs(suite, spec, backends, encodings)
    checked_seconds(time_limit)
    checked_seconds(cpu_limit, "--cpu-limit")
    if repeat is not None and repeat < 1:
        raise InputError(f"--repeat must be at least 1, got {repeat}")
    checked_megabytes(memory_limit)
    instances = expand(suite, spec)
    runs = len(instances) * len(specs) * (repeat or suite.repeat)
    if runs > MAX_RUNS:  # the plan and its bookkeeping would fill the memory first
        raise InputError(
            f"{len(instances)} instances x {len(specs)} backends x {repeat or suite.repeat} "
            f"repeats = {runs} runs: at most {MAX_RUNS} in one campaign"
        )
    return Plan(
        suite,
        spec,
        specs,
        instances,
        time_limit or suite.time_limit,
        repeat or suite.repeat,
        memory_limit or suite.memory_limit,
        kill_after,
        cpu_limit or suite.cpu_limit,
    )


# -- executors --------------------------------------------------------------------------


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity mask where the system has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not Linux
        return max(1, os.cpu_count() or 1)


def worker_count(workers: int, runs: int) -> tuple[int, str | None]:
    """The local pool's size for ``workers`` asked and ``runs`` to do, and why it is
    smaller, if it is: never more workers than runs (an idle worker is a process for
    nothing), nor than usable CPUs (runs beyond them take turns on a CPU, so each
    would time the others as well as its solver).

    >>> worker_count(1000, 5)[0] == min(5, usable_cpus())
    True
    >>> worker_count(1, 5), worker_count(2, 0)[0]
    ((1, None), 1)
    """
    if workers < 1:
        raise InputError(f"--workers must be at least 1, got {workers}")
    cpus = usable_cpus()
    used = max(1, min(workers, runs, cpus))
    if used == workers:
        return used, None
    reasons = []
    if runs < workers:
        reasons.append(f"{runs} run{'s' if runs != 1 else ''} to do")
    if cpus < workers:
        reasons.append(f"{cpus} usable CPU{'s' if cpus != 1 else ''}")
    return used, f"--workers {workers}: using {used} ({' and '.join(reasons)})"


def local_executor(workers: int) -> concurrent.futures.Executor:
    """A process pool of ``workers`` (spawned: no fork of a process holding threads)."""
    if workers < 1:
        raise InputError(f"--workers must be at least 1, got {workers}")
    return concurrent.futures.ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=pool_worker_init,
    )


def dask_executor(scheduler: str) -> tuple[concurrent.futures.Executor, Any]:
    """The executor of an existing Dask cluster, and its client (close it when done)."""
    try:
        from distributed import Client
    except ImportError:
        raise InputError(
            "--executor dask needs Dask distributed: pip install 'pyasp-games[dask]'"
        ) from None
    _check_address(scheduler)
    try:
        client = Client(scheduler, timeout=5, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as err:
        raise InputError(f"cannot reach the Dask scheduler at {scheduler} ({err})") from None
    # pure=False: two repeats of a run are two tasks, never one cached result
    return client.get_executor(pure=False), client


def _check_address(scheduler: str) -> None:
    """Refuse what is not a scheduler address before a Client is made: a Client that
    fails on one is left half-made and prints a traceback when it is collected."""
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        protocol, location = parse_address(scheduler, strict=True)
        if protocol in ("tcp", "tls", "ws", "wss"):
            parse_host_port(location)
    except ValueError as err:
        raise InputError(
            f"--scheduler {scheduler!r}: not a scheduler address such as tcp://HOST:PORT ({err})"
        ) from None


def finished_runs(rows: Sequence[dict[str, Any]], retry_unknown: bool = False) -> set[tuple[str, str, int]]:
    """The keys of the recorded ``rows`` a resumed campaign skips: every one, or with
    ``retry_unknown`` every one but those whose status is ``unknown`` (stopped by a limit)."""
    return {key(r) for r in rows if not (retry_unknown and r.get("status") == "unknown")}


def pending_jobs(
    plan: Plan, out: Path | str, resume: bool, retry_unknown: bool = False
) -> list[dict[str, Any]]:
    """The runs of ``plan`` a campaign into ``out`` has to do (with ``resume``: those
    not yet recorded there, or recorded as ``unknown`` with ``retry_unknown``)."""
    recorded = finished_runs(read_rows(Path(out)), retry_unknown) if resume else set()
    return [j for j in plan.jobs() if key(j) not in recorded]


def run_campaign(
    plan: Plan,
    out: Path | str,
    executor: concurrent.futures.Executor,
    resume: bool = False,
    force: bool = False,
    on_row: Callable[[dict[str, Any]], None] | None = None,
    on_start: Callable[[int, int], None] | None = None,
    executor_name: str = "local",
    retry_unknown: bool = False,
) -> list[dict[str, Any]]:
    """Run every job of ``plan`` not yet in ``out`` on ``executor``; all rows of ``out``.

    ``on_start(pending, total)`` is called first, and ``on_row(row)`` as each run finishes (after its row is on disk). Refuses a
    non-empty ``out`` unless ``resume`` (continue it) or ``force`` (start over);
    ``retry_unknown`` (with ``resume``) runs again the recorded runs stopped by a limit,
    whose new rows supersede the old ones (:func:`~.results.read_rows`). A run
    whose executor task failed (as opposed to the run itself, which always yields a
    row) is not recorded and raises :class:`CampaignError` at the end. The executor is
    not shut down.
    """
    out = Path(out)
    started = time.monotonic()
    if retry_unknown and not resume:
        raise InputError("--retry-unknown continues a campaign: it needs --resume")
    done = open_dir(out, plan.suite, plan.time_limit, resume, force)
    jobs = plan.jobs()
    recorded = finished_runs(done, retry_unknown)
    pending = [j for j in jobs if key(j) not in recorded]
    write_meta(out, plan.suite, plan.settings(), executor_name, resumed=resume, runs=pending,
               retry_unknown=retry_unknown)
    if on_start:
        on_start(len(pending), len(jobs))
    retried = {key(j) for j in pending}
    rows = [r for r in done if key(r) not in retried]  # a retried run's old row is superseded
    if resume and len(rows) < len(done):  # the CSV, the table of the runs, loses it at once
        rewrite_csv(out, rows)
    sink = Sink(out)
    futures: dict[concurrent.futures.Future, dict[str, Any]] = {}
    failed: list[str] = []
    try:
        futures = {executor.submit(run_job, job): job for job in pending}
        for future in concurrent.futures.as_completed(futures):
            try:
                row = future.result()
            except Exception as err:  # the executor, not the run, failed (a lost worker, ...)
                failed.append(f"{futures[future]['instance']} {futures[future]['backend']}: {err!r}")
                continue  # not recorded, so that --resume runs it again
            sink.write(row)
            rows.append(row)
            if on_row:
                on_row(row)
    except BaseException:
        for future in futures:
            future.cancel()
        raise
    finally:
        sink.close()
    if retried & {key(r) for r in done}:
        # a retried run's new row was appended last; the table puts it in its first place,
        # as read_rows does, so the CSV and the record list the runs in one order
        rows = read_rows(out)
        rewrite_csv(out, rows)
    finish_meta(out, started)
    if failed:
        raise CampaignError(
            f"{len(failed)} runs were not done because the executor failed (first: {failed[0]}); "
            f"the others are recorded in {out}, --resume retries the missing ones"
        )
    return rows


