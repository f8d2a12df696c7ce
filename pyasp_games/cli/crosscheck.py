"""``pyasp-games crosscheck``: every backend on every instance, verified and compared."""

from __future__ import annotations

from pathlib import Path

import typer

from pyasp_games.cli.common import CPU_LIMIT, JSON, MEMORY_LIMIT, print_json, stdout_console


def crosscheck(
    domain: str = typer.Argument(None, help="Which domain (default: every domain)."),
    files: list[Path] = typer.Argument(
        None, help="Instance files (default: the domain's bundled instances)."
    ),
    backend: list[str] = typer.Option(
        None,
        "--backend",
        "-b",
        help="Backends to run (comma-separated or repeated; default: all).",
    ),
    encoding: list[str] = typer.Option(
        None,
        "--encoding",
        help="ASP encodings (bundled names or .lp files), each its own backend (repeatable).",
    ),
    setting: list[str] = typer.Option(
        None,
        "--setting",
        metavar="NAME=OPTIONS",
        help="A named clingo setting, e.g. crafty='--configuration=crafty --sat-prepro=2': "
        "the asp backend runs once per setting, each its own column asp[NAME] (repeatable).",
    ),
    time_limit: float = typer.Option(30.0, "--time-limit", help="Seconds per run."),
    cpu_limit: float = CPU_LIMIT,
    memory_limit: float = MEMORY_LIMIT,
    workers: int = typer.Option(
        1, "--workers", help="Run this many runs at a time, each in a process of its own."
    ),
    json: bool = JSON,
) -> None:
    """Run every backend on every instance, verify every answer, compare them.

    With no domain, every domain runs on its bundled instances, one table each.
    Exit code 1 when a witness fails verification, backends disagree, or an
    answer differs from the instance's known one; 3 when a run hit its limit or a
    user encoding's claim is not verified (its reference gave no answer in time).
    """
    from pyasp_games.domains import DOMAINS
    from pyasp_games.errors import InputError
    from pyasp_games.tools.crosscheck import CATEGORIES, summary_text

    if domain is None and (files or backend or encoding or setting):
        raise InputError("name the domain when giving files, --backend, --encoding or --setting")
    settings = parse_settings(setting or [])
    if workers < 1:
        raise InputError(f"--workers must be at least 1, got {workers}")
    backend = [b.strip() for item in backend or [] for b in item.split(",") if b.strip()]
    from pyasp_games.engines.enforcement import arm
    from pyasp_games.engines.limits import Limits

    lim = Limits.given(time_limit, memory_megabytes=memory_limit, cpu_seconds=cpu_limit)
    arm(lim, whole_command=False)  # the time limit is per run
    console = stdout_console()
    reports = [
        _run_domain(name, files, backend, encoding, lim, json, console, workers, settings)
        for name in ([domain] if domain else DOMAINS)
    ]
    codes = [r.exit_code() for r in reports]
    if len(reports) > 1:
        summaries = [r.summary() for r in reports]
        counted = ("instances", "runs", *CATEGORIES.values(), "disagreements", "wrong_known_answers")
        total = {"domains": len(reports), **{k: sum(s[k] for s in summaries) for k in counted}}
        total["ok"] = all(s["ok"] for s in summaries)
        if json:
            print_json({"total": total})
        else:
            console.print(
                f"all {len(reports)} domains: {summary_text(total)}",
                style=None if total["ok"] else "bold red",
            )
    raise typer.Exit(1 if 1 in codes else 3 if 3 in codes else 0)


def parse_settings(given: list[str]) -> dict[str, list[str]]:
    """``NAME=OPTIONS`` (options as a shell would split them) for each ``--setting``.

    >>> parse_settings(["crafty=--configuration=crafty --sat-prepro=2"])
    {'crafty': ['--configuration=crafty', '--sat-prepro=2']}
    """
    from pyasp_games.engines.clingo_runner import split_options
    from pyasp_games.errors import InputError

    settings: dict[str, list[str]] = {}
    for item in given:
        name, sep, options = item.partition("=")
        if not sep or not name.strip() or any(c in name for c in "[], "):
            raise InputError(f"--setting {item!r}: expected NAME=OPTIONS (e.g. crafty=--configuration=crafty)")
        if name in settings:
            raise InputError(f"--setting {name!r} given twice")
        settings[name] = split_options(options, f"--setting {name}")
    return settings


def _run_domain(domain, files, backend, encoding, lim, json: bool, console, workers: int = 1,
                settings=None):  # fmt: skip
    from rich.table import Table

    from pyasp_games.domains import domain_spec
    from pyasp_games.tools.crosscheck import crosscheck as run

    spec = domain_spec(domain)
    instances = spec.load(files) if files else spec.bundled()
    specs = spec.backends(backend or None, encoding or None, settings)

    def on_row(row) -> None:
        if json:
            print_json(row.to_dict())

    if not json:
        console.print(
            f"{len(instances)} {domain} instances x {len(specs)} backends, {lim.time_limit:g} s per run"
            + (f" ({lim.cpu_limit:g} s of CPU)" if lim.cpu_limit is not None else "")
        )
    report = run(spec, instances, specs, lim, on_row=on_row, workers=workers)
    if json:
        print_json({"summary": report.summary()})
        return report
    table = Table(title=f"crosscheck: {domain}", show_lines=False)
    for column in ("instance", "backend", "status", "answer", "seconds", "confirmed", "agrees"):
        table.add_column(column, justify="right" if column == "seconds" else "left")
    for row in report.rows:
        table.add_row(
            row.outcome.problem,
            row.backend,
            row.outcome.status,
            _answer(spec, row),
            f"{row.outcome.seconds:.3f}",
            _confirmed(row),
            ("yes" if row.compared else "-") if row.agrees else "NO",
            style=None if row.ok else "bold red",
        )
    console.print(table)
    console.print(report.summary_line(), style=None if report.ok else "bold red")
    return report


def _confirmed(row) -> str:
    """The ``confirmed`` column: verified, verified in part, agreeing only, unconfirmed, not
    verified, FAILED or -."""
    from pyasp_games.tools.crosscheck import failed_verification

    if failed_verification(row.outcome):
        return "FAILED check"
    return {"verified": "verified", "verified in part": "verified in part",
            "agreed": "agrees only", "unconfirmed": "UNCONFIRMED",
            "not verified": "NOT VERIFIED"}.get(row.confirmed, "-")  # fmt: skip


def _answer(spec, row) -> str:
    """The answer in words by the question's own formatter, or why the run failed."""
    from pyasp_games.engines.verdict import UPPER_BOUND

    said = spec.answer_text(row.instance, row.outcome, row.options)
    if row.outcome.verdict.kind == UPPER_BOUND and "(" not in said:
        said += " (upper bound)"
    return said
