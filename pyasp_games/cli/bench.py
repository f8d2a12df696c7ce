"""``pyasp-games bench``: timing campaigns over a suite, and their reports.

``pyasp-games bench SUITE [...]`` is ``pyasp-games bench run SUITE [...]`` (the
group inserts ``run`` when its first word is not a command), and
``pyasp-games bench report DIR`` writes the report of a campaign directory.
"""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

import typer
from typer.core import TyperGroup

from pyasp_games.cli.common import JSON, PIPE_WIDTH, print_json


class _SuiteFirst(TyperGroup):
    """``bench SUITE ...`` means ``bench run SUITE ...``."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and not args[0].startswith("-"):
            args = ["run", *args]
        return super().parse_args(ctx, args)


app = typer.Typer(
    cls=_SuiteFirst,
    no_args_is_help=True,
    help="Timing campaigns: `bench SUITE` runs a suite, `bench report DIR` summarises it.",
)


def _split(values: list[str] | None) -> list[str] | None:
    """``-b a -b b`` and ``--backends a,b`` alike."""
    if not values:
        return None
    return [v.strip() for value in values for v in value.split(",") if v.strip()]


@app.command("run")
def run(
    suite: Path = typer.Argument(..., help="The suite file, TOML: domain, backends, encodings, settings (named clingo "
        "options), options, time_limit, repeat, and [[instances]] tables (files = [...], "
        "bundled = NAME, or generator = NAME with params and seeds); benchmarks/README.md "
        "has the details."),
    backend: list[str] = typer.Option(
        None, "--backends", "--backend", "-b", help="Backends to run (comma-separated or repeated; default: the suite's)."
    ),
    encoding: list[str] = typer.Option(
        None, "--encoding", help="ASP encodings, each its own backend (repeatable)."
    ),
    time_limit: float = typer.Option(None, "--time-limit", help="Seconds per run (default: the suite's)."),
    repeat: int = typer.Option(None, "--repeat", help="Runs per instance and backend (default: the suite's)."),
    memory_limit: int = typer.Option(
        None, "--memory-limit", help="Address-space limit per run in MB (default: the suite's, else none)."
    ),
    workers: int = typer.Option(1, "--workers", help="Runs at a time in the local process pool (at most the runs to do and the usable CPUs)."),
    out: Path = typer.Option(None, "--out", help="Results directory (default: results/SUITE-NAME)."),
    resume: bool = typer.Option(False, "--resume", help="Continue the campaign in --out, skipping recorded runs."),
    force: bool = typer.Option(False, "--force", help="Start over in a non-empty --out (its results are replaced)."),
    executor: str = typer.Option("local", "--executor", help="local (a process pool) or dask."),
    scheduler: str = typer.Option(None, "--scheduler", help="The Dask scheduler address, tcp://HOST:PORT."),
    json: bool = JSON,
) -> None:
    """Run every backend of a suite on every instance, each run in a process of its own.

    Rows stream to DIR/results.jsonl and DIR/results.csv as runs finish; an
    interrupted campaign continues with --resume. Exit code 1 when a witness fails
    verification, backends disagree or a run failed (error row); 3 when a run
    reached a limit; else 0.
    """
    from rich.console import Console
    from rich.markup import escape
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from pyasp_games.bench.campaign import (
        CampaignError,
        dask_executor,
        local_executor,
        pending_jobs,
        plan_campaign,
        run_campaign,
        worker_count,
    )
    from pyasp_games.bench.report import build_report
    from pyasp_games.bench.results import check_out
    from pyasp_games.bench.suite import read_suite
    from pyasp_games.engines.processes import stop_pool, stopped_by
    from pyasp_games.errors import InputError

    if executor not in ("local", "dask"):
        raise InputError(f"--executor must be local or dask, got {executor!r}")
    if executor == "dask" and not scheduler:
        raise InputError("--executor dask needs --scheduler tcp://HOST:PORT (an existing cluster)")
    if executor == "local" and scheduler:
        raise InputError("--scheduler applies to --executor dask only")
    if executor == "dask" and workers != 1:
        raise InputError("--workers applies to the local executor (a Dask cluster has its own workers)")
    if resume and force:
        raise InputError("--resume and --force contradict each other (resume keeps the results)")
    plan = plan_campaign(
        read_suite(suite), _split(backend), encoding or None, time_limit, repeat, memory_limit
    )
    out = out if out is not None else Path("results") / plan.suite.name
    check_out(out, plan.suite, plan.time_limit, resume, force)  # before any pool, cluster or progress display
    console = Console(stderr=True)  # stdout stays clean for --json
    if executor == "local":
        workers, note = worker_count(workers, len(pending_jobs(plan, out, resume)))
        if note:
            console.print(escape(note), soft_wrap=True)
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    rows: list[dict[str, Any]] = []
    # refusals happen before the bar starts, so each is one line on stderr
    bar = Progress(*columns, console=console, transient=False)
    task = bar.add_task(plan.suite.name, total=None, visible=False)

    def on_start(pending: int, total: int) -> None:
        console.print(
            escape(
                f"{plan.suite.name}: {len(plan.instances)} instances x {len(plan.backends)} backends"
                f" x {plan.repeat} = {total} runs ({total - pending} already recorded), "
                f"{plan.time_limit:g} s per run, {name} -> {out}"
            ),
            soft_wrap=True,
        )
        bar.update(task, total=pending, visible=True)

    def on_row(row: dict[str, Any]) -> None:
        if json:
            print_json(row)
        if row["status"] != "error" and (row.get("stats") or {}).get("cross_check") == "not verified":
            reason = row["stats"].get("cross_check_reason", "")
            bar.console.print(
                escape(f"{row['instance']} {row['backend']}: {row['status']}, not verified: {reason}"),
                soft_wrap=True,
            )
        elif row["status"] == "error" or row.get("verified") is False:
            bar.console.print(
                escape(f"{row['instance']} {row['backend']}: {row['status']}: {row.get('error')}"),
                style="bold red",
                soft_wrap=True,
            )
        bar.advance(task)

    client = None
    pool = None
    name = ""
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
        rows = run_campaign(
            plan, out, pool, resume=resume, force=force, on_row=on_row, on_start=on_start,
            executor_name=name,
        )
    except CampaignError as err:
        bar.stop()
        console.print(escape(f"pyasp-games: {err}"), style="bold red", soft_wrap=True)
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        bar.stop()
        if client is None and pool is not None:
            stop_pool(pool)
            pool = None
        signum = stopped_by() or signal.SIGINT
        how = "interrupted" if signum == signal.SIGINT else f"stopped by {signal.Signals(signum).name}"
        console.print(
            escape(f"{how}: the finished runs are in {out}; continue with --resume"),
            soft_wrap=True,
        )
        raise typer.Exit(128 + signum) from None
    finally:
        bar.stop()
        if client is not None:
            client.close()
        elif pool is not None:  # every run has finished (or none was submitted)
            pool.shutdown(wait=True, cancel_futures=True)
    report = build_report(rows, {})
    statuses: dict[str, int] = {}
    for r in rows:
        statuses[r["status"]] = statuses.get(r["status"], 0) + 1
    summary = {"suite": plan.suite.name, "out": str(out), "runs": len(rows), "statuses": statuses,
               "problems": report.problems, "not_verified": report.not_verified, "ok": report.ok}
    if json:
        print_json({"summary": summary})
    else:
        console.print(
            escape(
                f"{len(rows)} runs recorded in {out}: "
                + ", ".join(f"{n} {s}" for s, n in sorted(statuses.items()))
                + f"; report: pyasp-games bench report {out}"
            ),
            soft_wrap=True,
        )
        for p in report.problems:
            console.print(escape(p), style="bold red", soft_wrap=True)
    unsure = statuses.get("unknown") or report.not_verified
    raise typer.Exit(1 if report.problems or statuses.get("error") else 3 if unsure else 0)


@app.command("report")
def report(
    out: Path = typer.Argument(..., help="A campaign directory (bench run --out)."),
    json: bool = JSON,
) -> None:
    """Write DIR/report.md and the cactus and scaling plots (PNG and SVG).

    Exit code 1 when a witness failed verification or backends disagree.
    """
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from pyasp_games.bench.report import EFFORT, effort_columns, write_report

    result, files = write_report(out)
    if json:
        print_json(
            {
                "report": str(files[0]),
                "files": [str(f) for f in files],
                "backends": [vars(s) for s in result.backends],
                "problems": result.problems,
                "not_verified": result.not_verified,
                "ok": result.ok,
            }
        )
        raise typer.Exit(0 if result.ok else 1)
    import sys

    console = Console(width=None if sys.stdout.isatty() else PIPE_WIDTH)  # whole rows in a log
    table = Table(title=escape(f"bench report: {result.meta.get('suite', out)}"))
    effort = effort_columns(result)  # what the time went to, where backends report it
    columns = ("backend", "runs", "solved", "no-solution", "unknown", "error", "not verified",
               "median s", "max s", *(EFFORT[k] for k in effort))  # fmt: skip
    for column in columns:
        table.add_column(column, justify="left" if column == "backend" else "right", no_wrap=True)
    for s in result.backends:
        table.add_row(
            escape(s.backend), str(s.runs), str(s.solved), str(s.no_solution), str(s.unknown), str(s.error),
            str(s.not_verified),
            "-" if s.median is None else f"{s.median:.3g}", "-" if s.max is None else f"{s.max:.3g}",
            *("-" if s.effort.get(k) is None else f"{s.effort[k]:.3g}" for k in effort),
        )
    console.print(table)
    for p in result.problems:
        console.print(escape(p), style="bold red", soft_wrap=True)
    for p in result.not_verified:
        console.print(escape(p), soft_wrap=True)
    console.print(escape(f"wrote {', '.join(f.name for f in files)} in {out}"), soft_wrap=True)
    raise typer.Exit(0 if result.ok else 1)
