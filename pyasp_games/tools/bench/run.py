"""Running a campaign as ``pyasp-games bench SUITE`` does: the executor (a local process
pool or a Dask cluster), the progress display, what a stop signal does, and the summary.

The command line only parses the options and prints what :func:`run_suite` returns;
everything between (checking the options against each other, planning, the pool or
cluster, streaming rows, stopping on Ctrl-C, SIGTERM or SIGHUP with the finished rows
kept for ``--resume``) is here.

>>> from pyasp_games.errors import InputError
>>> try:
...     check_executor("dask", None, 1)
... except InputError as err:
...     print(err)
--executor dask needs --scheduler tcp://HOST:PORT (an existing cluster)
"""

from __future__ import annotations

import signal
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pyasp_games.errors import InputError

#: The executors a campaign runs on.
EXECUTORS = ("local", "dask")


@dataclass
class CampaignRun:
    """What a campaign run ended with.

    Attributes:
        suite: the suite's name; out: its results directory.
        rows: the rows recorded (the resumed ones too).
        problems, not_verified: the report's lists (:mod:`pyasp_games.tools.bench.report`).
        stopped: the signal that stopped the campaign (``None``: it ran to its end).
        failed: why the campaign itself failed (``None``: it did not).
    """

    suite: str
    out: Path
    rows: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    not_verified: list[str] = field(default_factory=list)
    stopped: int | None = None
    failed: str | None = None

    @property
    def statuses(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for r in self.rows:
            counts[r["status"]] = counts.get(r["status"], 0) + 1
        return counts

    def summary(self) -> dict[str, Any]:
        """The ``--json`` summary line."""
        return {
            "suite": self.suite, "out": str(self.out), "runs": len(self.rows),
            "statuses": self.statuses, "problems": self.problems,
            "not_verified": self.not_verified, "ok": not self.problems,
        }  # fmt: skip

    def exit_code(self) -> int:
        """128 + the signal when stopped; 1 for a failed campaign, a problem or an error
        row; 3 when a run reached a limit or a claim stands not verified; else 0."""
        if self.stopped is not None:
            return 128 + self.stopped
        statuses = self.statuses
        if self.failed or self.problems or statuses.get("error"):
            return 1
        return 3 if statuses.get("unknown") or self.not_verified else 0


def check_executor(executor: str, scheduler: str | None, workers: int) -> None:
    """The executor options, checked against each other before any work."""
    if executor not in EXECUTORS:
        raise InputError(f"--executor must be local or dask, got {executor!r}")
    if executor == "dask" and not scheduler:
        raise InputError("--executor dask needs --scheduler tcp://HOST:PORT (an existing cluster)")
    if executor == "local" and scheduler:
        raise InputError("--scheduler applies to --executor dask only")
    if executor == "dask" and workers != 1:
        raise InputError("--workers applies to the local executor (a Dask cluster has its own workers)")


def run_suite(
    suite: Path,
    *,
    backends: list[str] | None = None,
    encodings: list[str] | None = None,
    time_limit: float | None = None,
    repeat: int | None = None,
    memory_limit: int | None = None,
    cpu_limit: float | None = None,
    workers: int = 1,
    out: Path | None = None,
    resume: bool = False,
    force: bool = False,
    retry_unknown: bool = False,
    executor: str = "local",
    scheduler: str | None = None,
    on_row: Callable[[dict[str, Any]], None] | None = None,
    console: Any = None,
) -> CampaignRun:
    """Run the campaign of ``suite`` (the options as ``bench run`` takes them); rows go to
    ``out`` and, one by one, to ``on_row``. Progress (the plan in one line, then a bar)
    shows on ``console`` (a ``rich`` console, by default one on standard error: standard
    output stays clean for ``--json``; ``on_row`` prints through the same console, above
    the bar). A stop signal ends the campaign with the finished rows kept
    (:attr:`CampaignRun.stopped`).

    Raises:
        InputError: contradictory options, a bad suite, an ``out`` it must not touch.
    """
    from rich.console import Console
    from rich.markup import escape

    from pyasp_games.engines.processes import stop_pool, stopped_by
    from pyasp_games.tools.bench.campaign import (
        CampaignError,
        dask_executor,
        local_executor,
        pending_jobs,
        plan_campaign,
        run_campaign,
        worker_count,
    )
    from pyasp_games.tools.bench.report import build_report
    from pyasp_games.tools.bench.results import check_out
    from pyasp_games.tools.bench.suite import read_suite

    check_executor(executor, scheduler, workers)
    if resume and force:
        raise InputError("--resume and --force contradict each other (resume keeps the results)")
    if retry_unknown and not resume:
        raise InputError("--retry-unknown continues a campaign: it needs --resume")
    plan = plan_campaign(
        read_suite(suite), backends, encodings, time_limit, repeat, memory_limit, cpu_limit=cpu_limit
    )
    out = out if out is not None else Path("results") / plan.suite.name
    check_out(out, plan.suite, plan.time_limit, resume, force)  # before any pool or display
    result = CampaignRun(plan.suite.name, out)
    console = console if console is not None else Console(stderr=True)

    def say(line: str) -> None:
        console.print(escape(line), soft_wrap=True)

    if executor == "local":
        workers, note = worker_count(workers, len(pending_jobs(plan, out, resume, retry_unknown)))
        if note:
            say(note)
    bar, task = _progress_bar(console, plan.suite.name)
    name = ""

    def on_start(pending: int, total: int) -> None:
        say(
            f"{plan.suite.name}: {len(plan.instances)} instances x {len(plan.backends)} backends"
            f" x {plan.repeat} = {total} runs ({total - pending} already recorded), "
            f"{plan.time_limit:g} s per run"
            + (f" ({plan.cpu_limit:g} s of CPU)" if plan.cpu_limit is not None else "")
            + f", {name} -> {out}"
        )
        bar.update(task, total=pending, visible=True)

    def row_done(row: dict[str, Any]) -> None:
        if on_row is not None:
            on_row(row)
        bar.advance(task)

    client = pool = None
    # Ctrl-C, SIGTERM and SIGHUP stop the campaign (the command line turns each into an
    # interrupt, engines.processes): the running runs and the pool's workers are killed
    # and waited for, the finished rows stay for --resume
    try:
        if executor == "dask":
            pool, client = dask_executor(scheduler)
            name = f"dask {scheduler}"
        else:
            pool = local_executor(workers)
            name = f"local process pool, {workers} worker{'s' if workers != 1 else ''}"
        bar.start()
        result.rows = run_campaign(
            plan, out, pool, resume=resume, force=force, on_row=row_done, on_start=on_start,
            executor_name=name, retry_unknown=retry_unknown,
        )  # fmt: skip
    except CampaignError as err:
        result.failed = str(err)
        return result
    except KeyboardInterrupt:
        _stop(bar)
        if client is None and pool is not None:
            stop_pool(pool)
            pool = None
        result.stopped = stopped_by() or signal.SIGINT
        return result
    finally:
        _stop(bar)
        if client is not None:
            client.close()
        elif pool is not None:  # every run has finished (or none was submitted)
            pool.shutdown(wait=True, cancel_futures=True)
    report = build_report(result.rows, {})
    result.problems, result.not_verified = report.problems, report.not_verified
    return result


def _progress_bar(console: Any, title: str) -> tuple[Any, Any]:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    bar = Progress(*columns, console=console, transient=False)
    return bar, bar.add_task(title, total=None, visible=False)


def _stop(bar: Any) -> None:
    """Stop the progress ``bar`` if it was started: rich's ``stop`` of a display never
    started still ends a line on the console, an empty line before an error's one line."""
    if bar.live.is_started:
        bar.stop()
