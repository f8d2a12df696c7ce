"""``pyasp-games fuzz``: differential testing of an encoding, with shrinking."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from pyasp_games.cli.common import JSON, print_json
from pyasp_games.domains import DOMAINS


def fuzz(
    domain: str = typer.Argument(
        ..., help=f"The domain ({', '.join(DOMAINS)})."
    ),
    question: str = typer.Argument(
        None, help="The question (default: the domain's first fuzzable one, e.g. grundy exists)."
    ),
    encoding: str = typer.Option(
        None,
        "--encoding",
        metavar="FILE",
        help="The encoding under test: an .lp file (or a bundled name; default: the bundled one).",
    ),
    backend: str = typer.Option(
        None, "--backend", "-b", help="The backend under test (default: the ASP backend)."
    ),
    family: str = typer.Option(
        None, "--family", help="The instance family (a name the domain does not have is "
        "refused with the domain's families; default: every family the encoding answers, as "
        "its header says, e.g. '% variant: edge')."
    ),
    runs: int = typer.Option(
        100, "--runs", metavar="N", help="Random instances to try after the small scope."
    ),
    seed: int = typer.Option(0, "--seed", metavar="S", help="The random seed (same seed, same session)."),
    max_size: int = typer.Option(
        None, "--max-size", metavar="N",
        help="The largest random instance, in the family's unit (vertices, subsets, scramble "
        "moves; default: the family's).",
    ),
    time_limit: float = typer.Option(
        10.0, "--time-limit", metavar="SECONDS",
        help="Seconds for each answer (a run past it is unknown, not a failure).",
    ),
    total_time: float = typer.Option(
        None, "--total-time", metavar="SECONDS",
        help="Seconds for the whole session (reaching it: exit 3 unless a failure was found).",
    ),
    out: Path = typer.Option(
        Path("."), "--out", metavar="DIR",
        help="Where the smallest failing instance is written (never over a file), and "
        "whence earlier counterexamples are replayed first.",
    ),
    no_replay: bool = typer.Option(
        False, "--no-replay", help="Do not replay the counterexamples already in --out."
    ),
    export: Path = typer.Option(
        None, "--export", metavar="DIR",
        help="Also write each counterexample (and time-out) as a regression case: the instance "
        "and the reference's verified answer, replayed by 'pyasp-games test-encoding DIR "
        "--encoding FILE' without the reference.",
    ),
    no_small_scope: bool = typer.Option(
        False, "--no-small-scope", help="Skip the small scope: random instances only."
    ),
    coverage: bool = typer.Option(
        False, "--coverage", help="Say which rules of the encoding (FILE:LINE) never fired on "
        "the instances tried, and prefer random instances that fire new ones.",
    ),
    no_blame: bool = typer.Option(
        False, "--no-blame", help="The counterexample alone: no rule to blame (its diagnosis "
        "can take seconds on a large program).",
    ),
    json: bool = JSON,
) -> None:
    """Find the smallest instance on which an encoding is wrong.

    Draws instances from the domain's own families -- every tiny instance first (the
    small scope), then random ones growing to --max-size -- and answers each with the
    encoding under test and with the domain's reference backend (an independent
    algorithm), verifying every witness and comparing every answer (existence and
    count; the optimum; the winner). On the first difference hypothesis shrinks the
    instance while the difference persists; the smallest is written to --out as an
    ordinary instance file, with the command that reproduces it: exit 1. No difference
    in N runs: exit 0, with the sizes and the answers covered.
    """
    from pyasp_games.domains import domain_spec
    from pyasp_games.engines.enforcement import arm, enforcing
    from pyasp_games.engines.limits import Limits
    from pyasp_games.engines.processes import process_started
    from pyasp_games.tools.fuzz import fuzz as run
    from pyasp_games.tools.fuzz import report_lines

    arm(Limits.given(time_limit), whole_command=False)  # checked; it holds per run
    spec = domain_spec(domain)
    tty = sys.stderr.isatty() and not json

    def progress(report) -> None:
        if tty:
            print(f"\r  {report.runs}/{report.planned} runs", end="", file=sys.stderr, flush=True)

    report = run(
        spec, question, encoding, backend, family, runs, seed, max_size, time_limit,
        total_time, out, replay=not no_replay, small_scope=not no_small_scope, on_run=progress,
        export=export, started=process_started() if enforcing() else None, coverage=coverage,
        blame=not no_blame,
    )  # fmt: skip
    if tty:
        print("\r" + " " * 30 + "\r", end="", file=sys.stderr, flush=True)
    if json:
        print_json(report.to_dict())
    else:
        for line in report_lines(report, spec.fuzzing.write):
            print(line)
    raise typer.Exit(report.exit_code())
