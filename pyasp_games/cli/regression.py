"""``pyasp-games test-encoding``: replay the regression cases fuzz exported, without the
reference (:mod:`pyasp_games.tools.fuzz.regression`)."""

from __future__ import annotations

from pathlib import Path

import typer

from pyasp_games.cli.common import JSON, print_json


def test_encoding(
    folder: Path = typer.Argument(
        ..., metavar="DIR", help="A folder of regression cases (written by fuzz --export)."
    ),
    encoding: str = typer.Option(
        ..., "--encoding", metavar="FILE", help="The encoding under test (an .lp file or a bundled name)."
    ),
    time_limit: float = typer.Option(
        10.0, "--time-limit", metavar="SECONDS", help="Seconds for each case (past it: unknown)."
    ),
    json: bool = JSON,
) -> None:
    """Replay regression cases: every instance fuzz found, with the reference's verified
    answer, answered by --encoding (its witness checked, its answer compared with the
    recorded one; no reference runs). Exit 0 when every case passes, 1 when one fails,
    3 when one reached the time limit, 2 on bad input."""
    from pyasp_games.engines.enforcement import arm
    from pyasp_games.engines.limits import Limits
    from pyasp_games.tools.fuzz.regression import exit_code, replay
    from pyasp_games.tools.fuzz.report import said

    arm(Limits.given(time_limit), whole_command=False)  # checked; it holds per case
    results = replay(folder, encoding, time_limit)
    if json:
        print_json({
            "cases": [{"name": r.name, "status": r.status, "why": r.why,
                       "answer": None if r.tested is None else said(r.tested)} for r in results],
            "ok": exit_code(results) == 0,
        })  # fmt: skip
    else:
        for r in results:
            print(f"{r.status.upper():8} {r.name}: {r.why}")
        passed = sum(r.status == "ok" for r in results)
        print(f"{passed} of {len(results)} cases pass with {encoding}")
    raise typer.Exit(exit_code(results))
