"""``pyasp-games crosscheck``: every backend on every instance, verified and compared."""

from __future__ import annotations

from pathlib import Path

import typer

from pyasp_games.cli.common import JSON, limits, print_json, progress_reporter


def crosscheck(
    domain: str = typer.Argument(None, help="Which domain (default: every domain)."),
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

    With no domain, every domain runs on its bundled instances, one table each.
    Exit code 1 when a witness fails verification, backends disagree, or an
    answer differs from the instance's known one; 3 when a run hit its limit.
    """
    from rich.console import Console

    from pyasp_games.crosscheck import DOMAINS
    from pyasp_games.errors import InputError

    if domain is None and (files or backend or encoding):
        raise InputError("name the domain when giving files, --backend or --encoding")
    lim = limits(time_limit, whole_command=False)  # the limit is per run
    console = Console()
    reports = [
        _run_domain(name, files, backend, encoding, lim, json, console)
        for name in ([domain] if domain else DOMAINS)
    ]
    codes = [r.exit_code() for r in reports]
    if len(reports) > 1:
        summaries = [r.summary() for r in reports]
        total = {
            "domains": len(reports),
            "instances": sum(s["instances"] for s in summaries),
            "runs": sum(s["runs"] for s in summaries),
            "ok": all(s["ok"] for s in summaries),
        }
        if json:
            print_json({"total": total})
        else:
            verdict = "all verified and agreeing" if total["ok"] else "PROBLEMS (see the tables)"
            console.print(
                f"all domains: {total['instances']} instances, {total['runs']} runs; {verdict}",
                style=None if total["ok"] else "bold red",
            )
    raise typer.Exit(1 if 1 in codes else 3 if 3 in codes else 0)


def _run_domain(domain, files, backend, encoding, lim, json: bool, console):
    from rich.table import Table

    from pyasp_games.crosscheck import crosscheck as run
    from pyasp_games.crosscheck import domain_spec

    spec = domain_spec(domain)
    instances = spec.load(files) if files else spec.bundled()
    specs = spec.backends(backend or None, encoding or None)

    def on_row(row) -> None:
        if json:
            print_json(row.to_dict())

    if not json:
        console.print(
            f"{len(instances)} {domain} instances x {len(specs)} backends, {lim.time_limit:g} s per run"
        )
    if spec.prepare is not None:
        with progress_reporter() as report_progress:
            spec.prepare(instances, specs, report_progress)
    report = run(spec, instances, specs, lim, on_row=on_row, prepare=False)
    if json:
        print_json({"summary": report.summary()})
        return report
    table = Table(title=f"crosscheck: {domain}", show_lines=False)
    for column in ("instance", "backend", "status", "answer", "seconds", "verified", "agrees"):
        table.add_column(column, justify="right" if column in ("answer", "seconds") else "left")
    for row in report.rows:
        table.add_row(
            row.outcome.problem,
            row.backend,
            row.outcome.status,
            _answer(row.outcome),
            f"{row.outcome.seconds:.3f}",
            {True: "yes", False: "NO", None: "-"}[row.outcome.stats.get("verified")],
            "yes" if row.agrees else "NO",
            style=None if row.ok else "bold red",
        )
    console.print(table)
    console.print(report.summary_line(), style=None if report.ok else "bold red")
    return report


def _answer(outcome) -> str:
    if outcome.answer is None:
        return "-"
    if outcome.stats.get("optimal") is False:
        return f"{outcome.answer} (upper bound)"
    return str(outcome.answer)
