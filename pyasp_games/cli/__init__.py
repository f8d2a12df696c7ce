"""The ``pyasp-games`` command line: ``pyasp-games DOMAIN VERB ...``.

Thin by design: each command parses its options, calls the library and prints.
Exit codes (the CLI contract): 0 answered, 1 internal error or a failed
cross-check, 2 bad usage or bad input (one line on stderr), 3 a limit was reached.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys

import typer

from pyasp_games.domains import DOMAINS

#: The command groups that are no domain's own, by the module that holds each: the
#: classic games (questions of grundy), the reductions between domains, and the
#: commands over every domain (``crosscheck`` and ``fuzz`` are commands, not groups).
TOOLS = {
    "games": "pyasp_games.cli.games",
    "reduce": "pyasp_games.cli.reduce",
    "crosscheck": "pyasp_games.cli.crosscheck",
    "fuzz": "pyasp_games.cli.fuzz",
    "test-encoding": "pyasp_games.cli.regression",
    "bench": "pyasp_games.cli.bench",
    "verify": "pyasp_games.cli.verify",
}


def groups() -> tuple[str, ...]:
    """Every command group: one per domain of the registry
    (:data:`pyasp_games.domains.DOMAINS`), its commands generated from the domain's
    questions (:func:`domain_app`), then the tools. A command imports only its own group;
    ``pyasp-games --help`` imports them all."""
    return (*DOMAINS, *TOOLS)

SUMMARY = (
    "Games and puzzles as answer-set programs and SAT formulas: solved, verified, cross-checked."
)


def _version(value: bool) -> None:
    if value:
        from pyasp_games import __version__

        typer.echo(f"pyasp-games {__version__}")
        raise typer.Exit(0)


def _options(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Games and puzzles as answer-set programs and SAT formulas: solved, verified, cross-checked."""


def build_app(group: str | None = None) -> typer.Typer:
    """The command line: every group, or only ``group`` (what running one command needs)."""
    app = typer.Typer(
        name="pyasp-games",
        help=SUMMARY,
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        # plain help: a switch prints as a switch (rich's panels show '--json <bool>'),
        # and paragraphs are wrapped to the terminal, not at the source's line ends
        rich_markup_mode=None,
        context_settings={"help_option_names": ["-h", "--help"]},  # inherited by every command
    )
    app.callback()(_options)
    for name in groups():
        if group is not None and group != name:
            continue
        if name in DOMAINS:
            app.add_typer(domain_app(name), name=name)
            continue
        loaded = importlib.import_module(TOOLS[name])
        if hasattr(loaded, "app"):
            app.add_typer(loaded.app, name=name)
        else:  # a single command
            app.command(name)(getattr(loaded, name.replace("-", "_")))
    return app


def domain_app(domain: str) -> typer.Typer:
    """The command group of ``domain``: the module ``pyasp_games.cli.<domain>`` where the
    domain has commands that are no question (``puzzle show``; it starts from
    :func:`~pyasp_games.cli.questions.domain_group`), else the group of its questions alone
    (a new domain needs nothing in ``cli/``)."""
    module = f"{__name__}.{domain}"
    if importlib.util.find_spec(module) is not None:
        return importlib.import_module(module).app
    from pyasp_games.cli.questions import domain_group

    return domain_group(domain)


def __getattr__(name: str) -> typer.Typer:
    if name == "app":  # the whole command line, for documentation and tests
        return build_app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main(argv: list[str] | None = None, *, enforce: bool = True) -> None:
    """Console entry point: run the app, mapping every failure to one line and an exit code
    (always raised as ``SystemExit``, or the process ended with that code).

    ``enforce`` (the console command): the process is the command's own. The command
    enforces its limits on the whole process (a memory cap, and an alarm for a time limit
    of the whole command: :func:`~pyasp_games.engines.enforcement.arm`), SIGINT, SIGTERM
    and SIGHUP stop it with what it started
    (:func:`~pyasp_games.engines.processes.stop_signals`), and a limit reached outside a
    backend ends the process at once (``os._exit(3)``: nothing freed object by object).
    ``enforce=False`` runs the command inside a calling program (the tests) and leaves its
    process as it was found: nothing is armed process-wide and no signal handler is
    installed (a backend still keeps its own limits, in a forked child for a time
    limit), and a limit reached outside a backend prints the same line and raises
    ``SystemExit(3)``.
    """
    from contextlib import nullcontext

    from pyasp_games.engines.enforcement import enforced
    from pyasp_games.engines.processes import stop_signals

    try:  # typer >= 0.22 vendors click and exposes its exception base
        from typer import TyperException as UsageFailure
    except ImportError:  # pragma: no cover - older typer on top of click
        from click import ClickException as UsageFailure

    args = list(sys.argv[1:] if argv is None else argv)
    group = args[0] if args and args[0] in groups() else None  # else: every group (help, errors)
    try:
        # SIGINT, SIGTERM and SIGHUP alike: the command stops what it started, exits 128 + signal
        with enforced(enforce), stop_signals() if enforce else nullcontext():
            _run(argv, group, UsageFailure, enforce)
    except SystemExit as done:
        code = done.code
        if code == 1 and _reader_gone():
            # not an internal error: whoever read the output stopped reading (`| head`)
            code = CLOSED_PIPE
        if enforce and (code is None or isinstance(code, int)):
            _leave(code or 0)
        raise SystemExit(code) from None


#: The exit code when the output's reader has gone: 128 + SIGPIPE, what a shell reports
#: for a Unix tool that writes into a closed pipe (``yes | head``).
CLOSED_PIPE = 141


def _reader_gone() -> bool:
    """Whether the command stopped because its output pipe was closed: the command line
    (click's rule, kept by typer) then swaps the standard streams for wrappers that
    ignore the broken pipe and exits 1, which this tool's contract keeps for internal
    errors."""
    return type(sys.stdout).__name__.endswith("PacifyFlushWrapper")


def _leave(code: int) -> None:
    """End the command's own process with ``code``, its output written, without
    Python's tear-down: freeing every module and object one by one costs a process
    that loaded numba 0.27 s of CPU (a quarter of a whole ``cover solve -b dlx`` on
    a q = 50 X3C instance), after the answer. What Python runs at exit (``atexit``:
    multiprocessing's, logging's) still runs. Returns (and the process exits the
    usual way) when the output cannot be written."""
    import atexit

    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed pipe: Python's own exit says so, exit 120
        return
    os._exit(code)


def _run(argv: list[str] | None, group: str | None, UsageFailure: type, enforce: bool) -> None:
    from pyasp_games.cli.common import ANSWERING

    ANSWERING.clear()  # a command run in a calling program before this one said its own
    try:
        _run_command(argv, group, UsageFailure, enforce)
    finally:
        ANSWERING.clear()


def _run_command(argv: list[str] | None, group: str | None, UsageFailure: type, enforce: bool) -> None:
    from pyasp_games.cli.values import convert_plainly
    from pyasp_games.engines.limits import LimitReached
    from pyasp_games.engines.processes import stopped_by
    from pyasp_games.errors import InputError

    try:
        command = typer.main.get_command(build_app(group))
        convert_plainly(command)  # no pydantic at start-up: 0.13 s of CPU per command
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
    except (LimitReached, MemoryError) as err:  # a limit the command's own checks did not catch
        _limit_reached(argv if argv is not None else sys.argv[1:], err, enforce)
    except OSError as err:
        from pyasp_games.engines.enforcement import out_of_memory

        if not out_of_memory(err):  # ENOMEM ("Cannot allocate memory"): the memory limit
            _internal_error(err)
        _limit_reached(argv if argv is not None else sys.argv[1:], err, enforce)
    except (typer.Abort, KeyboardInterrupt):
        _stopped()
    except Exception as err:  # an internal error: one line, unless debugging
        _internal_error(err)
    if result == 130 and stopped_by() is not None:  # typer's exit code for an interrupt
        _stopped()
    sys.exit(result if isinstance(result, int) else 0)


def _internal_error(err: Exception) -> None:
    """An internal error: one line, exit 1 (its traceback with ``PYASP_GAMES_DEBUG``)."""
    if os.environ.get("PYASP_GAMES_DEBUG"):
        raise err
    print(f"pyasp-games: internal error: {err.__class__.__name__}: {err}", file=sys.stderr)
    sys.exit(1)


def _stopped() -> None:
    """Stopped by a signal (Ctrl-C, ``kill``, a closed terminal): what the command
    started is stopped already (see :mod:`pyasp_games.engines.processes`); one line, exit
    128 + the signal's number (130 for Ctrl-C, 143 for SIGTERM)."""
    import signal

    from pyasp_games.engines.processes import stopped_by

    signum = stopped_by() or signal.SIGINT
    how = "interrupted" if signum == signal.SIGINT else f"stopped by {signal.Signals(signum).name}"
    print(f"pyasp-games: {how}", file=sys.stderr)
    sys.exit(128 + signum)


def _limit_reached(argv: list[str], err: BaseException, enforce: bool = True) -> None:
    """Status unknown, exit 3, for a command stopped by its time limit or out of memory
    outside a backend (reading the input, a check): one line, or one JSON object. The
    command's own process ends at once; inside a calling program (``enforce=False``)
    this raises ``SystemExit(3)``."""
    from pyasp_games.cli.common import ANSWERING, limit_reached, print_json
    from pyasp_games.engines.enforcement import held_for, memory_stop, release_time_limit

    release_time_limit()
    held = held_for()
    seconds = None if held is None else round(held, 4)
    if isinstance(err, MemoryError | OSError):  # OSError: ENOMEM (see _run)
        stats = memory_stop("the command ran out of memory")
    else:
        given = err.args[0] if err.args and isinstance(err.args[0], dict) else {}
        stats = {"limit": "time", **given}
    # the outcome's names where the command said them (a question: the input, the
    # backend), else the command's own
    problem = ANSWERING.get("problem") or " ".join(a for a in argv[:2] if not a.startswith("-"))
    if "--json" in argv:
        backend = ANSWERING.get("backend")
        outcome = {"problem": problem, "backend": backend, "status": "unknown", "answer": None}
        print_json({**outcome, "witness": None, "seconds": seconds, "stats": stats})
    else:
        took = "" if seconds is None else f"{seconds:.3f} s, "
        print(f"{problem}: unknown ({took}{limit_reached(stats)})")
    # The traceback still holds what the stopped work built (gigabytes, at times):
    # leave without freeing it object by object, which could take seconds.
    sys.stdout.flush()
    sys.stderr.flush()
    if not enforce:
        raise SystemExit(3)
    os._exit(3)
