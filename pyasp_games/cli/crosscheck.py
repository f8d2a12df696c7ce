"""``pyasp-games crosscheck``: every backend on every instance, verified and compared."""

from __future__ import annotations

from pathlib import Path

import typer

from pyasp_games.cli.common import JSON, limits, print_json


def crosscheck(
    domain: str = typer.Argument("puzzle", help="Which domain (puzzle)."),
    files: list[Path] = typer.Argument(
        None, help="Instance files (default: the domain's bundled instances)."
    ),
    backend: list[str] = typer.Option(
        None, "--backend", "-b", help="Backends to run (repeatable; default: all)."
    ),
    encoding: list[str] = typer.Option(
        None, "--encoding", help="ASP encodings, each its own backend (repeatable)."
    ),
    time_limit: float = typer.Option(30.0, "--time-limit", help="Seconds per run."),
    json: bool = JSON,
) -> None:
    """Run every backend on every instance, verify every answer, compare them.

    Exit code 1 when a witness fails verification, backends disagree, or an
    answer differs from the instance's known one; 3 when a run hit its limit.
    """
    from rich.console import Console
    from rich.table import Table

    from pyasp_games.crosscheck import crosscheck as run
    from pyasp_games.crosscheck import domain_spec

    spec = domain_spec(domain)
    lim = limits(time_limit)
    instances = spec.load(files) if files else spec.bundled()
    specs = spec.backends(backend or None, encoding or None)
    console = Console()
    table = Table(title=f"crosscheck: {domain}", show_lines=False)
    for column in ("instance", "backend", "status", "answer", "seconds", "verified", "agrees"):
        table.add_column(column, justify="right" if column in ("answer", "seconds") else "left")

    def on_row(row) -> None:
        if json:
            print_json(row.to_dict())

    from pyasp_games.cli.common import progress_reporter

    if not json:
        console.print(
            f"{len(instances)} {domain} instances x {len(specs)} backends, {time_limit:g} s per run"
        )
    if spec.prepare is not None:
        with progress_reporter() as report_progress:
            spec.prepare(instances, specs, report_progress)
    report = run(spec, instances, specs, lim, on_row=on_row, prepare=False)
    if json:
        print_json({"summary": report.summary()})
    else:
        for row in report.rows:
            style = None if row.ok else "bold red"
            table.add_row(
                row.outcome.problem,
                row.backend,
                row.outcome.status,
                _answer(row.outcome),
                f"{row.outcome.seconds:.3f}",
                {True: "yes", False: "NO", None: "-"}[row.outcome.stats.get("verified")],
                "yes" if row.agrees else "NO",
                style=style,
            )
        console.print(table)
        console.print(report.summary_line(), style=None if report.ok else "bold red")
    raise typer.Exit(report.exit_code())


def _answer(outcome) -> str:
    if outcome.answer is None:
        return "-"
    if outcome.stats.get("optimal") is False:
        return f"{outcome.answer} (upper bound)"
    return str(outcome.answer)
