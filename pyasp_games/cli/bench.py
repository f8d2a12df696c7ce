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
    cpu_limit: float = typer.Option(
        None, "--cpu-limit", help="CPU seconds per run, every process and thread of the run counted, "
        "held by the operating system (default: the suite's, else none); reaching it is unknown."
    ),
    repeat: int = typer.Option(None, "--repeat", help="Runs per instance and backend (default: the suite's)."),
    memory_limit: int = typer.Option(
        None, "--memory-limit", help="Address-space limit per run in MB (default: the suite's, else none)."
    ),
    workers: int = typer.Option(1, "--workers", help="Runs at a time in the local process pool (at most the runs to do and the usable CPUs)."),
    out: Path = typer.Option(None, "--out", help="Results directory (default: results/SUITE-NAME)."),
    resume: bool = typer.Option(False, "--resume", help="Continue the campaign in --out, skipping recorded runs."),
    retry_unknown: bool = typer.Option(
        False, "--retry-unknown", help="With --resume: run again the recorded runs stopped by a limit "
        "(status unknown); their new rows supersede the old ones."
    ),
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

    from pyasp_games.tools.bench.report import failed_check, unconfirmed
    from pyasp_games.tools.bench.run import run_suite

    console = Console(stderr=True)  # stdout stays clean for --json

    def on_row(row: dict[str, Any]) -> None:
        if json:
            print_json(row)
        reason = unconfirmed(row)
        if reason is not None:
            said = f"{row['instance']} {row['backend']}: {row['status']}, not verified: {reason}"
            console.print(escape(said), soft_wrap=True)
        elif row["status"] == "error" or failed_check(row):
            said = f"{row['instance']} {row['backend']}: {row['status']}: {row.get('error')}"
            console.print(escape(said), style="bold red", soft_wrap=True)

    result = run_suite(
        suite, backends=_split(backend), encodings=encoding or None, time_limit=time_limit,
        repeat=repeat, memory_limit=memory_limit, cpu_limit=cpu_limit, workers=workers, out=out, resume=resume,
        force=force, retry_unknown=retry_unknown, executor=executor, scheduler=scheduler, on_row=on_row, console=console,
    )  # fmt: skip
    if result.failed is not None:
        console.print(escape(f"pyasp-games: {result.failed}"), style="bold red", soft_wrap=True)
    elif result.stopped is not None:
        signum = result.stopped
        how = "interrupted" if signum == signal.SIGINT else f"stopped by {signal.Signals(signum).name}"
        said = f"{how}: the finished runs are in {result.out}; continue with --resume"
        console.print(escape(said), soft_wrap=True)
    elif json:
        print_json({"summary": result.summary()})
    else:
        statuses = result.statuses
        console.print(
            escape(
                f"{len(result.rows)} runs recorded in {result.out}: "
                + ", ".join(f"{n} {s}" for s, n in sorted(statuses.items()))
                + f"; report: pyasp-games bench report {result.out}"
            ),
            soft_wrap=True,
        )
        for p in result.problems:
            console.print(escape(p), style="bold red", soft_wrap=True)
    raise typer.Exit(result.exit_code())


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

    from pyasp_games.tools.bench.report import EFFORT, effort_columns, write_report

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
