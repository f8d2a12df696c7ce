"""Shared helpers: running the CLI as a user would (in this process or a child), and random
boards."""

from __future__ import annotations

import io
import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

# random_walk_board lives in the package (the bench generator ``walk``); re-exported here
from pyasp_games.domains.puzzle.model import Board, random_walk_board  # noqa: F401
from pyasp_games.engines.resources import instance_dir


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str
    seconds: float

    def json(self) -> dict:
        lines = [line for line in self.stdout.splitlines() if line.strip()]
        assert len(lines) == 1, f"expected one JSON object, got {self.stdout!r}"
        return json.loads(lines[0])


#: What a warming process runs: each kernel module named on its command line compiled
#: (or loaded from numba's cache) by its own ``warm_up()``, with the argument types of
#: every call the tests reach, so that its machine code is in the cache.
_WARM = """
import importlib, sys
from pyasp_games.engines.compiled import compile_kernels
for name in sys.argv[1:]:
    importlib.import_module(name)
    compile_kernels(name)
"""


#: Kernel modules no test of the default run compiles, so not compiled before it: Cops
#: and Robbers' retrograde search runs compiled only on graphs far larger than the
#: tests' (its one test that gets that far, a cop number under a half-second limit,
#: does so in a forked run that the limit stops: compiling there instead of searching
#: costs it nothing more), and its cold compilation costs about 2.6 s of CPU.
NOT_WARMED = frozenset({"pyasp_games.domains.cops.retrograde"})


def kernel_modules() -> list[tuple[int, str]]:
    """Every kernel module of the package (a module with a function marked ``@kernel``),
    with the size of its source (about what compiling it costs), largest first."""
    import pyasp_games

    root = Path(pyasp_games.__file__).parent
    found = []
    for path in root.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if "\n@kernel\n" in text:
            name = ".".join(("pyasp_games", *path.relative_to(root).with_suffix("").parts))
            found.append((len(text), name))
    return sorted(found, reverse=True)


#: A time limit this long in a test guards against a hang; the tests of the limits use
#: limits of a few seconds at most. (See :data:`pyasp_games.engines.runner.GUARD_SECONDS`.)
GUARD_SECONDS = 10.0


def pytest_configure(config: pytest.Config) -> None:
    """Runs whose time limit is only a guard run in the test's process, not in a child
    forked from it (a fork of a test process of 500 MB costs about 25 ms of the
    kernel's time, and the suite made 645 of them); the commands the tests start as
    processes hold every limit as a user's do."""
    from pyasp_games.engines import runner

    runner.GUARD_SECONDS = GUARD_SECONDS
    if not hasattr(config, "workerinput") and SHARED_CACHE not in os.environ:
        # made here, before the workers start: they inherit the variable
        os.environ[SHARED_CACHE] = tempfile.mkdtemp(prefix="pyasp-games-tests-cache-")
        config.stash[_MADE_CACHE] = os.environ[SHARED_CACHE]


def pytest_unconfigure(config: pytest.Config) -> None:
    """The shared cache folder goes with the run that made it."""
    folder = config.stash.get(_MADE_CACHE, None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)
        os.environ.pop(SHARED_CACHE, None)


def pytest_sessionstart(session: pytest.Session) -> None:
    """Before the workers start: every compiled kernel's machine code in numba's cache.

    A kernel module's first compilation costs seconds of CPU (Hex's connection search:
    12 s), and numba's cache is cold in a fresh checkout (CI) and for every module whose
    source changed. Without this, the first test of each worker to build such a module
    pays for it, inside its own time (a doctest of 0.3 s took 13 s of CPU and over a
    minute of wall beside the other worker), a timed test can be the one that pays, and
    two processes reaching the same cold module together both compile it. Here the
    modules are compiled once, in two processes side by side (about 30 s of CPU in all
    when every cache is cold, 1 s when they are warm), into the cache beside the package
    that the tests import; the workers and the commands the tests start load them from it.
    A run in one process (``-n 0``) compiles each module where it is first needed, once."""
    config = session.config
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):
        return
    import pyasp_games

    shares: list[list[str]] = [[], []]
    loads = [0, 0]
    for size, name in kernel_modules():  # the largest first, each to the lighter share
        if name in NOT_WARMED and " ".join(config.option.markexpr.split()) == "not slow":
            continue  # (the slow tests compile them: with -m slow, they are warmed too)
        lighter = loads.index(min(loads))
        shares[lighter].append(name)
        loads[lighter] += size
    env = dict(os.environ)
    where = str(Path(pyasp_games.__file__).parents[1])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (where, env.get("PYTHONPATH")) if p)
    warming = [
        subprocess.Popen(
            [sys.executable, "-P", "-c", _WARM, *share],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for share in shares
        if share
    ]
    _rewrite_tests_once(config)  # meanwhile, here
    for process in warming:
        _, errors = process.communicate()
        if process.returncode:  # the tests of that module will fail and say why
            sys.stderr.write(f"compiling the kernels failed:\n{errors}\n")


def _rewrite_tests_once(config: pytest.Config) -> None:
    """Before the workers start: every test module's asserts rewritten once, into
    pytest's cache of rewritten modules (``tests/__pycache__``), which the workers read.

    Each worker imports every test module, and pytest rewrites its asserts (about 3 s of
    CPU for the whole suite) unless it finds the module rewritten in its cache, which it
    fills only where Python may write bytecode (not under ``PYTHONDONTWRITEBYTECODE``)
    and, in a fresh checkout, both workers at once: so each worker paid. Done here once
    instead, with pytest's own functions; a pytest without them, a module that does not
    compile, a folder that cannot be written: the workers rewrite as before."""
    try:
        from _pytest.assertion import rewrite

        state = config.stash[rewrite.assertstate_key]
        tail = rewrite.PYC_TAIL
    except (ImportError, AttributeError, KeyError):  # pragma: no cover - another pytest
        return
    for source in sorted(Path(__file__).parent.glob("*.py")):
        if not (source.name.startswith("test_") or source.name == "conftest.py"):
            continue
        cache = rewrite.get_cache_dir(source)
        pyc = cache / (source.name[:-3] + tail)
        try:
            if rewrite._read_pyc(source, pyc) is not None:  # rewritten already
                continue
            source_hash, code = rewrite._rewrite_test(source, config)
            cache.mkdir(exist_ok=True)
            rewrite._write_pyc(state, code, source_hash, pyc)
        except Exception:  # the worker rewrites it, and reports what fails
            continue


#: The variable naming the cache folder of a test run, shared by its workers: made by
#: the run's first process (the controller, or the one process of ``-n 0``).
SHARED_CACHE = "PYASP_GAMES_TESTS_CACHE"
_MADE_CACHE = pytest.StashKey[str]()


@pytest.fixture(autouse=True, scope="session")
def private_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Pattern databases and other caches go to a temporary folder, never the user's:
    one for the whole run, shared by its workers (``SHARED_CACHE``). What one worker
    builds there (the 4 x 4 pattern databases and move automaton a reference search
    reads, Kriegspiel's tables, matplotlib's font list: 0.5 to 2 s of CPU each) the other
    reads instead of building it again. Every writer there replaces a file whole, from a
    partial file of its own process, so the two workers may build one file at once; a
    test that deletes from the cache (``pdb clear``) takes a folder of its own."""
    shared = os.environ.get(SHARED_CACHE)
    folder = Path(shared) if shared else tmp_path_factory.mktemp("cache")
    previous = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(folder)
    yield folder
    if previous is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = previous


def run_cli(*args: str | Path, timeout: float = 120) -> Run:
    """Run ``pyasp-games ARGS`` in this process and return its exit code, stdout and stderr:
    ``pyasp_games.cli.main(args, enforce=False)``, its ``SystemExit`` caught, its streams
    captured as a child process's pipes would take them (:func:`in_process`). What only
    a process shows is :func:`run_cli_process`'s (see CONTRIBUTING, Tests)."""
    start = time.monotonic()
    with in_process(timeout, args) as streams:
        code = _command(list(map(str, args)))
    return Run(code, streams.stdout(), streams.stderr(), time.monotonic() - start)


def run_cli_process(*args: str | Path, timeout: float = 120) -> Run:
    """Run ``pyasp-games ARGS`` in a child process (real exit codes and streams): for
    signals, limits held on the process (memory caps, the whole-command alarm, hangs),
    standard input, start-up, and output written below Python's streams."""
    start = time.monotonic()
    proc = subprocess.run(
        [
            sys.executable,
            "-P",
            "-m",
            "pyasp_games",
            *map(str, args),
        ],  # -P: the installed package, never the source tree
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )
    return Run(proc.returncode, proc.stdout, proc.stderr, time.monotonic() - start)


#: What :func:`run_cli_processes`' child runs: each command line of ``argv[1]`` (JSON)
#: by ``main(args, enforce=False)``, its streams captured as :func:`run_cli`'s are, then
#: the code, output and seconds of each as one line of JSON on its own stdout.
_BATCH = """
import gc, io, json, sys, time
from pyasp_games.cli import main
done = []
for argv in json.loads(sys.argv[1]):
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True)
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace", write_through=True)
    sys.stdout, sys.stderr, start = out, err, time.monotonic()
    try:
        main(argv, enforce=False)
        code = 0
    except SystemExit as stop:
        code = 0 if stop.code is None else stop.code
        if not isinstance(code, int):
            print(code, file=err)
            code = 1
    finally:
        gc.collect()  # what a half-made object prints when collected is the command's
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    seconds = time.monotonic() - start
    texts = [s.buffer.getvalue().decode().replace("\\r\\n", "\\n") for s in (out, err)]
    done.append([code, *texts, seconds])
print(json.dumps(done))
"""


def run_cli_processes(*commands: list[str | Path], timeout: float = 120) -> list[Run]:
    """Run several ``pyasp-games ARGS`` one after the other in ONE child process (each
    as :func:`run_cli` runs it, ``enforce=False``), for refusals whose loss would abort or
    wreck whatever runs them (clingo's abort, a half-made Dask client) but whose limits
    are not the point: one interpreter's start-up and imports instead of one per
    command. Whatever the child prints outside the commands (at its exit: a thread, a
    finalizer) fails the call, and so does a child that dies."""
    proc = subprocess.run(
        [sys.executable, "-P", "-c", _BATCH, json.dumps([[str(a) for a in c] for c in commands])],
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 0 and proc.stderr == "", (proc.returncode, proc.stderr)
    *before, last = proc.stdout.splitlines() or [""]
    assert not before, proc.stdout  # nothing printed past the commands' own streams
    return [Run(*ran) for ran in json.loads(last)]


def _command(argv: list[str]) -> int:
    """The exit code of ``pyasp-games ARGV`` run here, as the interpreter would give it."""
    from pyasp_games.cli import main

    try:
        main(argv, enforce=False)
    except SystemExit as stop:
        if stop.code is None:
            return 0
        if isinstance(stop.code, int):
            return stop.code
        print(stop.code, file=sys.stderr)  # what the interpreter does with sys.exit("...")
        return 1
    return 0


class _Streams:
    """Standard output and error as a child process's pipes take them: encoded as the
    interpreter encodes them (UTF-8; stderr backslash-escapes what it cannot encode) and
    read back as ``subprocess.run(..., text=True)`` reads them (universal newlines)."""

    def __init__(self) -> None:
        self.out = io.TextIOWrapper(
            io.BytesIO(), encoding="utf-8", errors="strict", write_through=True
        )
        self.err = io.TextIOWrapper(
            io.BytesIO(), encoding="utf-8", errors="backslashreplace", write_through=True
        )

    @staticmethod
    def _read(stream: io.TextIOWrapper) -> str:
        stream.flush()
        text = stream.buffer.getvalue().decode("utf-8")  # type: ignore[attr-defined]
        return text.replace("\r\n", "\n").replace("\r", "\n")

    def stdout(self) -> str:
        return self._read(self.out)

    def stderr(self) -> str:
        return self._read(self.err)


#: The environment of a child process whose streams are pipes: no terminal to measure,
#: so typer, click and rich take these sizes (unless the environment sets its own).
_PIPE_SIZE = {"COLUMNS": "80", "LINES": "24"}


@contextmanager
def in_process(timeout: float, args: tuple) -> Iterator[_Streams]:
    """What a new child process ``python -P -m pyasp_games`` with piped output would
    run under, in this process while inside, put back on the way out: its own stdin
    (``/dev/null``), stdout and stderr (:class:`_Streams`), the terminal size of no
    terminal, Python's default warning filters (a warning prints on stderr), no logging
    handler but Python's last resort (stderr), no data file read by an earlier command
    (pattern databases, kriegspiel tables), ``sys.path`` as it was, and ``timeout``
    seconds at most (the test fails). The kernels the command compiled are interpreted
    again afterwards (:func:`_uncompile`): a new process would compile them anew, and a
    later test must not find them compiled by a command."""
    from pyasp_games.domains.kriegspiel import tablebase
    from pyasp_games.domains.puzzle import databases
    from pyasp_games.engines import compiled

    streams = _Streams()
    stdin = open(os.devnull)  # noqa: SIM115 - closed below
    path = sys.path[:]  # a bench suite's own domain module is imported from its folder
    was_compiled = set(compiled._COMPILED)
    saved_env = {key: os.environ.get(key) for key in _PIPE_SIZE}
    root = logging.getLogger()
    saved_handlers = root.handlers[:]
    alarm = threading.current_thread() is threading.main_thread()

    def too_long(signum: int, frame: object) -> None:
        pytest.fail(f"pyasp-games {' '.join(map(str, args))}: still running after {timeout} s")

    for key, value in _PIPE_SIZE.items():
        os.environ.setdefault(key, value)
    for cache in (databases._LOADED, tablebase._LOADED):
        cache.clear()
    root.handlers = []
    previous_alarm = signal.signal(signal.SIGALRM, too_long) if alarm else None
    try:
        with (
            warnings.catch_warnings(),
            redirect_stdout(streams.out),
            redirect_stderr(streams.err),
            _stdin(stdin),
        ):
            warnings.resetwarnings()  # then the interpreter's defaults, last first
            for category in (ResourceWarning, ImportWarning, PendingDeprecationWarning):
                warnings.filterwarnings("ignore", category=category)
            warnings.filterwarnings("ignore", category=DeprecationWarning)
            warnings.filterwarnings("default", category=DeprecationWarning, module="__main__")
            if alarm:
                signal.setitimer(signal.ITIMER_REAL, timeout)
            yield streams
    finally:
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous_alarm)
        root.handlers = saved_handlers
        sys.path[:] = path
        _uncompile(compiled._COMPILED - was_compiled)
        for key, value in saved_env.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        stdin.close()


def _uncompile(modules: set[str]) -> None:
    """Bind the kernels of ``modules`` to their Python source again, as before
    :func:`pyasp_games.engines.compiled.compile_kernels` compiled them."""
    from pyasp_games.engines import compiled

    for module in modules:
        namespace = sys.modules[module]
        for name in compiled._KERNELS.get(module, ()):
            kernel = getattr(namespace, name)
            setattr(namespace, name, getattr(kernel, "py_func", kernel))
        compiled._COMPILED.discard(module)
        compiled._MACHINE_CODE.discard(module)


@contextmanager
def _stdin(stream: io.TextIOBase) -> Iterator[None]:
    saved = sys.stdin
    sys.stdin = stream
    try:
        yield
    finally:
        sys.stdin = saved


def saved_answer(outcome: Any) -> dict:
    """An outcome as the command line's ``--json`` prints it, read back: what
    ``pyasp-games verify`` and ``Question.recheck`` read (fractions and other values JSON
    has no type for written as text, as ``print_json`` writes them)."""
    return json.loads(json.dumps(outcome.to_dict(), default=str))


def assert_bad_input(run: Run, fragment: str) -> None:
    """Bad input: exit code 2 and exactly one line on stderr that names the problem."""
    assert run.code == 2, (run.code, run.stdout, run.stderr)
    lines = run.stderr.rstrip("\n").splitlines()
    assert len(lines) == 1, run.stderr  # one line: no empty line left by a progress display either
    assert "Traceback" not in run.stderr and fragment in lines[0], lines[0]


def quick_options(board: Board, backend: str) -> dict:
    """Backend options that keep tests fast: 4x4 pattern databases from 4-tile patterns."""
    if backend == "pdb" and (board.rows, board.cols) == (4, 4):
        return {"partition": "4-4-4-3"}
    return {}


@pytest.fixture
def puzzles() -> Path:
    return instance_dir("puzzle")
