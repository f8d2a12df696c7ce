"""Options and output helpers shared by the command groups."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer

from pyasp_games.errors import InputError, ascii_int


def ascii_int_option(value: Any) -> int:
    """An integer option in ASCII digits (:func:`~pyasp_games.errors.ascii_int`): click's
    INT is Python's ``int``, which reads '0_7' as 7, '1_0' as 10 and '٧' as 7."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    try:
        return ascii_int(str(value))
    except ValueError:
        raise typer.BadParameter(f"{value!r} is not an integer (ASCII digits only)") from None


TIME_LIMIT = typer.Option(
    None, "--time-limit", help="Wall-clock seconds; reaching it gives status unknown, exit 3."
)
TRUST_ENCODING = typer.Option(
    False,
    "--trust-encoding",
    help="With --encoding FILE: take its 'none', counts and optimality on trust instead of "
    "cross-checking them against the reference backend (they read 'trusted, not "
    "cross-checked'; what the checker confirms alone, a witness, is still checked).",
)
JSON = typer.Option(
    False, "--json", help="Print the outcome as one JSON object (JSON lines for several)."
)

#: A command that writes a file: where (default stdout), and overwriting it only when asked.
def output_option(help: str) -> Any:
    """``--output FILE`` / ``-o FILE`` (default: stdout) with its own help: the one
    declaration of the option for the commands that write a file.

    >>> output_option("Write here (default: stdout).").param_decls
    ('--output', '-o')
    """
    return typer.Option(None, "--output", "-o", help=help)


OUTPUT = output_option("Write here (default: stdout).")
FORCE = typer.Option(False, "--force", help="Overwrite existing output files.")


CPU_LIMIT = typer.Option(
    None,
    "--cpu-limit",
    help="CPU seconds of the run's processes, every thread counted, held by the operating "
    "system; reaching it gives status unknown, exit 3.",
)
MEMORY_LIMIT = typer.Option(
    None,
    "--memory-limit",
    help="Megabytes the solver may hold (default: half the memory, at most 8 GiB); "
    "reaching it gives status unknown, exit 3.",
)


#: What the running command answers, named as its outcome would name it (``problem``,
#: ``backend``): a limit reached outside the backend (reading the input, the check) is
#: reported so (:func:`pyasp_games.cli._limit_reached`). The generated command says it.
ANSWERING: dict[str, str] = {}


def answering(problem: str, backend: str) -> None:
    """The running command answers ``problem`` with ``backend`` (:data:`ANSWERING`)."""
    ANSWERING.update(problem=problem, backend=backend)


def answered() -> None:
    """The answer is complete: the time limit no longer interrupts (printing it)."""
    from pyasp_games.engines.enforcement import release_time_limit

    release_time_limit()


def trust_encoding(domain: str, trust: bool, encoding: str | None) -> dict[str, bool]:
    """The solve option for ``--trust-encoding``, refused where there is no user encoding."""
    from pyasp_games.engines.resources import user_encoding

    if not trust:
        return {}
    if user_encoding(domain, encoding) is None:
        raise InputError("--trust-encoding applies to your own --encoding FILE only")
    return {"trust_encoding": True}


def new_file(path: Path | None, force: bool, option: str) -> Path | None:
    """Refuse to overwrite an existing file the user did not ask us to overwrite, and
    refuse up front a path that cannot be written (a directory, a missing or read-only
    folder), so no work is done before the write fails. What only the write itself
    finds out (a folder that looks writable but is not, e.g. ``/proc`` or ``/sys``
    for the superuser) fails there, just as clearly
    (:func:`pyasp_games.engines.files.write_text`)."""
    if path is None:
        return None
    if path.is_dir():
        raise InputError(f"{option}: cannot write {path}: is a directory, not a file")
    if path.exists() and not force:
        raise InputError(f"{option} {path}: file exists (pass --force to overwrite it)")
    folder = path.parent
    if not folder.is_dir():
        raise InputError(f"{option}: cannot write {path}: no such folder {folder}")
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise InputError(f"{option}: cannot write {path}: permission denied")
    return path


def write_output(text: str, output: Path | None) -> None:
    """Write ``text`` to ``output`` (checked by :func:`new_file` first), else to stdout."""
    from pyasp_games.engines.files import write_text

    if output is None:
        sys.stdout.write(text)
    else:
        write_text(output, text)


#: How a limit's name in ``stats["limit"]`` reads.
LIMIT_NAMES = {"cpu": "CPU"}


def limit_reached(stats: dict) -> str:
    """Which limit an unknown outcome reached, with the cause when the tool's own
    start-up alone took more memory than the limit (a user can do nothing else about it).

    >>> limit_reached({"limit": "time"})
    'time limit reached'
    >>> limit_reached({"limit": "cpu"})
    'CPU limit reached'
    """
    said = f"{LIMIT_NAMES.get(stats.get('limit'), stats.get('limit', 'a'))} limit reached"
    if stats.get("limit") == "memory" and stats.get("start_up"):
        said += f": {stats['start_up']}"
    return said


def verdict(outcome: Any, unchecked: str = "nothing to verify") -> str:
    """How a verified outcome reads: verified, FAILED verification, or the limit reached.

    A user encoding's claim cross-checked against the domain's reference backend
    (:mod:`pyasp_games.engines.reference`) reads "cross-checked against X", "DISAGREES
    with the reference X" or "NOT VERIFIED: <why>" (as does a claim the checker could not
    decide within its own limit), or "trusted, not cross-checked" (``--trust-encoding``).
    A checker that confirmed only part of a claim says the rest in the verdict's
    ``not_checked``: "verified in part, not re-checked: <what, and what it rests on>".
    """
    if outcome.status == "unknown":
        return limit_reached(outcome.stats)
    record = outcome.verdict
    check = record.cross_check
    result = None if check is None else check.result
    if result == "disagrees":
        return f"DISAGREES with the reference {check.reference}"
    if outcome.status != "error" and outcome.unconfirmed is not None:
        return f"NOT VERIFIED: {outcome.unconfirmed}"
    if result == "trusted":
        return "trusted, not cross-checked"
    if outcome.status == "error" and record.verified is not False:
        return "the backend failed"
    said = {True: "verified", False: "FAILED verification", None: unchecked}[record.verified]
    if said == "verified" and record.not_checked:
        # the checker confirmed part of the claim; the rest is said with what it rests on
        said = f"verified in part, not re-checked: {record.not_checked}"
    if result == "agrees":
        prefix = "verified, " if record.verified else ""
        return f"{prefix}cross-checked against {check.reference}"
    return said


def report_error(outcome: Any) -> None:
    """For an ``error`` outcome, why, on stderr: the failed check, or the backend's reason."""
    if outcome.status == "error":
        typer.echo(f"  {outcome.reason}", err=True)


def exit_code(outcomes: Iterable[Any]) -> int:
    """The most severe exit code of several outcomes: error 1, unknown 3, else 0."""
    codes = [o.exit_code for o in outcomes]
    if 1 in codes:
        return 1
    return 3 if 3 in codes else 0


def print_json(obj: Any) -> None:
    answered()
    sys.stdout.write(json.dumps(obj, default=str) + "\n")


def warn(message: str) -> None:
    print(f"pyasp-games: {message}", file=sys.stderr)


#: Columns of a table printed to a file or pipe (a CI log): wide enough never to wrap a row.
PIPE_WIDTH = 1000


def stdout_console() -> Any:
    """A rich console for stdout that never interprets user text as markup (file names
    with brackets print as they are) and, when stdout is not a terminal, does not wrap
    tables at 80 columns: rows of a log stay whole, one line each."""
    from rich.console import Console

    width = None if sys.stdout.isatty() else PIPE_WIDTH
    return Console(markup=False, highlight=False, width=width)


@contextmanager
def progress_reporter() -> Iterator[Callable[[str], Callable[[str, int, int], None]]]:
    """A rich progress display on stderr for long one-off work (pattern databases, ...).

    Yields ``report(label)``, which returns a callback ``(stage, done, pending)``; a
    line appears only once its callback is first called, so cached work shows nothing.
    """
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    if not console.is_terminal:
        # no live display in a log (a live display there ends with an empty line, even
        # when it showed nothing): each build is said once, as one line
        yield lambda label: build_progress(None, label)
        return
    columns = (SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        yield lambda label: build_progress(bar, label)


def build_progress(bar: Any, label: str) -> Callable[[str, int, int], None]:
    """A ``(stage, done, pending)`` callback that shows one-off work (a pattern-database
    build) as a line of the rich progress ``bar``; the line appears on the first call
    (so cached work shows nothing). Without a ``bar`` (stderr is no terminal) the first
    call says the build in one line on stderr, and the later ones nothing."""
    task = None
    said = False

    def callback(stage: str, done: int, pending: int) -> None:
        nonlocal task, said
        if bar is None:
            if not said:
                said = True
                warn(f"building {label} (once: it is cached for later runs)")
            return
        text = f"building {label}: {stage}, {done:,} states"
        if task is None:
            task = bar.add_task(text, total=None)
        bar.update(task, description=text)

    return callback
