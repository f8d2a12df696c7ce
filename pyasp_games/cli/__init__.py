"""The ``pyasp-games`` command line: ``pyasp-games DOMAIN VERB ...``.

Thin by design: each command parses its options, calls the library and prints.
Exit codes (the CLI contract): 0 answered, 1 internal error or a failed
cross-check, 2 bad usage or bad input (one line on stderr), 3 a limit was reached.
"""

from __future__ import annotations

import os
import sys

import typer

from pyasp_games.cli import bench as bench_cli
from pyasp_games.cli import cover as cover_cli
from pyasp_games.cli import crosscheck as crosscheck_cli
from pyasp_games.cli import games as games_cli
from pyasp_games.cli import geography as geography_cli
from pyasp_games.cli import grundy as grundy_cli
from pyasp_games.cli import puzzle as puzzle_cli
from pyasp_games.cli import reduce as reduce_cli
from pyasp_games.cli import routing as routing_cli

app = typer.Typer(
    name="pyasp-games",
    help="Games and puzzles as answer-set programs and SAT formulas: solved, verified, cross-checked.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(puzzle_cli.app, name="puzzle")
app.add_typer(grundy_cli.app, name="grundy")
app.add_typer(geography_cli.app, name="geography")
app.add_typer(games_cli.app, name="games")
app.add_typer(cover_cli.app, name="cover")
app.add_typer(reduce_cli.app, name="reduce")
app.add_typer(routing_cli.app, name="routing")
app.command("crosscheck")(crosscheck_cli.crosscheck)
app.add_typer(bench_cli.app, name="bench")


def main(argv: list[str] | None = None) -> None:
    """Console entry point: run the app, mapping every failure to one line and an exit code."""
    from pyasp_games.errors import InputError

    try:  # typer >= 0.22 vendors click and exposes its exception base
        from typer import TyperException as UsageFailure
    except ImportError:  # pragma: no cover - older typer on top of click
        from click import ClickException as UsageFailure

    command = typer.main.get_command(app)
    try:
        result = command.main(args=argv, prog_name="pyasp-games", standalone_mode=False)
    except UsageFailure as err:
        if type(err).__name__ == "NoArgsIsHelpError" and getattr(err, "ctx", None) is not None:
            print(err.ctx.get_help())
            sys.exit(0)
        message = " ".join(err.format_message().split())
        print(f"pyasp-games: error: {message}", file=sys.stderr)
        sys.exit(2)
    except InputError as err:
        print(f"pyasp-games: error: {err}", file=sys.stderr)
        sys.exit(2)
    except typer.Abort:
        print("pyasp-games: aborted", file=sys.stderr)
        sys.exit(130)
    except Exception as err:  # an internal error: one line, unless debugging
        if os.environ.get("PYASP_GAMES_DEBUG"):
            raise
        print(f"pyasp-games: internal error: {err.__class__.__name__}: {err}", file=sys.stderr)
        sys.exit(1)
    sys.exit(result if isinstance(result, int) else 0)
