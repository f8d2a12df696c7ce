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
    recorded one; no reference runs), after what the encoding does not handle of the
    interface its README documents (an older version it declares, an input it never reads).
    Exit 0 when every case passes, 1 when one fails, 3 when one reached the time limit, 2
    on bad input."""
    from pyasp_games.engines.enforcement import arm
    from pyasp_games.engines.limits import Limits
    from pyasp_games.tools.fuzz.regression import exit_code, interface_notes, replay
    from pyasp_games.tools.fuzz.report import said

    arm(Limits.given(time_limit), whole_command=False)  # checked; it holds per case
    results = replay(folder, encoding, time_limit)  # first: a broken case is said as such
    notes = interface_notes(folder, encoding)  # printed before the cases
    if json:
        print_json({
            "cases": [{"name": r.name, "status": r.status, "why": r.why,
                       "answer": None if r.tested is None else said(r.tested)} for r in results],
            "ok": exit_code(results) == 0,
            "interface": notes,
        })  # fmt: skip
    else:
        for note in notes:
            print(f"interface: {note}")
        for r in results:
            print(f"{r.status.upper():8} {r.name}: {r.why}")
        passed = sum(r.status == "ok" for r in results)
        print(f"{passed} of {len(results)} cases pass with {encoding}")
    raise typer.Exit(exit_code(results))
