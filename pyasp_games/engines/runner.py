"""Running one backend of a domain: limits, timing and verification in one place.

Every domain's ``solve(instance, backend, limits, **options)`` is this function
with the domain's backend table and checker filled in, so all domains treat a
reached limit, a failed verification and the timing identically.

A backend returns a :class:`~pyasp_games.engines.claim.Claim`; the runner alone
stamps the problem's and the backend's names, the seconds and the CPU, runs the
checker and builds the :class:`~pyasp_games.engines.outcome.Outcome` and its verdict:

>>> def guess(x, limits):
...     return Claim.solved(x * 2, witness=x * 2, stats={"tries": 1})
>>> def check(x, outcome):
...     return outcome.witness == x + x, "doubling checked"
>>> out = run_backend({"guess": guess}, "guess", 21, "n=21", Limits(), check)
>>> out.problem, out.backend, out.status.value, out.answer, out.verdict.verified
('n=21', 'guess', 'solved', 42, True)
"""

from __future__ import annotations

import os
import re
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from contextlib import suppress
from functools import partial
from typing import Any

from pyasp_games.engines.claim import Claim, Status
from pyasp_games.engines.enforcement import (
    CPU_GRACE,
    cpu_cap,
    memory_cap,
    memory_stop,
    out_of_memory,
    tell_start_up,
    uncapped,
)
from pyasp_games.engines.limits import (
    Deadline,
    LimitReached,
    Limits,
    default_memory_limit,
    tree_cpu,
)
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.processes import child_started
from pyasp_games.engines.verdict import STATS_KEYS, Verdict
from pyasp_games.errors import MalformedAnswer, Unconfirmed

#: ``check(instance, outcome) -> (True | False | None, message)``; ``None``: nothing to check.
Checker = Callable[[Any, Outcome], tuple[bool | None, str]]


#: Seconds past the time limit after which a backend still running is stopped by force.
GRACE = 0.5


#: ``backend(instance, limits, **options) -> Claim``
Backend = Callable[..., Claim]

#: Seconds from which a time limit is only a guard against a hang (``None``, the
#: default: every time limit is held in a forked child). A run whose time limit has at
#: least this long left, with no CPU or memory limit given, runs in this process, its
#: limit held by the backend's own polling of its deadline (:func:`guard_only`). The
#: test suite sets it (``tests/conftest.py``): most of its runs pass a long limit only
#: so that a bug cannot hang the suite, and forking a test process of 500 MB costs
#: about 25 ms of the kernel's time each; the tests of the limits use short limits,
#: which are still held in a child.
GUARD_SECONDS: float | None = None


def guard_only(limits: Limits, wall: float | None = None) -> bool:
    """Whether ``limits`` only guard a run against a hang (:data:`GUARD_SECONDS`): a
    time limit with at least that many seconds left (``wall``: the seconds left, by
    default the whole limit), and no CPU limit nor memory limit given.

    >>> guard_only(Limits(time_limit=60, memory_limit=2**30))  # a memory limit: held
    False
    >>> guard_only(Limits(time_limit=0.5))  # a budget, not a guard: held
    False
    """
    left = limits.time_limit if wall is None else wall
    return (
        GUARD_SECONDS is not None
        and left is not None
        and left >= GUARD_SECONDS
        and limits.cpu_limit is None
        and limits.memory_limit is None
    )


def run_backend(
    backends: Mapping[str, Backend],
    backend: str,
    instance: Any,
    problem: str,
    limits: Limits,
    check: Checker,
    **options: Any,
) -> Outcome:
    """Run ``backends[backend](instance, limits, **options)``; time and verify its claim.

    The backend returns a :class:`~pyasp_games.engines.claim.Claim`; this function alone
    builds the :class:`~pyasp_games.engines.outcome.Outcome`: the names ``problem`` and
    ``backend``, the wall-clock ``seconds``, ``stats["cpu_seconds"]``, and the
    :class:`~pyasp_games.engines.verdict.Verdict` (the claim's kind and bound, the
    checker's word). A claim whose ``stats`` carry a verdict's key
    (:data:`~pyasp_games.engines.verdict.STATS_KEYS`) is a bug of the backend's
    (:class:`ValueError`): the kind of an answer is the claim's field, never a key.

    A backend signals a reached limit by returning status ``unknown`` or by
    raising :class:`LimitReached` (whose first argument may carry statistics). It
    runs under a memory cap (``limits.memory_limit``, by default
    :func:`~pyasp_games.engines.limits.default_memory_limit`); running out of
    memory is ``unknown`` with ``stats["limit"] = "memory"``. A memory limit given
    (``limits.memory_limit`` not ``None``) is held in a forked child as well: a
    library that aborts its process under the cap (a C++ ``std::bad_alloc`` nothing
    catches, as HiGHS's start-up in scipy) ends the child, not the command, and the
    outcome is a memory stop naming what it saw (the library's last words, or the
    start-up that took the child past its cap, which the child tells as it happens).
    With a time limit the backend runs in a forked child process as well, which is
    stopped :data:`GRACE` seconds after the limit if it has not returned by then:
    the limit holds even where a backend cannot look at the clock (clingo's
    grounding, a long library call), unless the limit is only a guard against a hang
    (:func:`guard_only`, off by default). So it does with a CPU limit
    (``limits.cpu_limit``): the child holds it by ``RLIMIT_CPU``
    (:func:`~pyasp_games.engines.enforcement.cpu_cap`: the kernel signals it, then
    kills the child a second later), the parent counts the child's CPU as well, and
    the outcome is ``unknown`` with ``stats["limit"] = "cpu"``. Every outcome records
    the CPU seconds of the run's process tree in ``stats["cpu_seconds"]``, beside its
    wall-clock ``seconds``. The backend receives the limits started
    (:meth:`~pyasp_games.engines.limits.Limits.started`): limits that already run (a
    stage handing its own on) keep their clock. The outcome's
    :class:`~pyasp_games.engines.verdict.Verdict` records the checker's word (``verified``
    True/False/None and its message); a witness that fails its check turns the status
    into ``error`` (the claimed status kept as ``failed_status``). A backend reports an
    answer set of the wrong shape, or one that is no solution met while counting, as a
    failed verification too: it raises :class:`~pyasp_games.errors.MalformedAnswer`, or
    returns the reason as the claim's ``malformed`` to keep its statistics
    (:meth:`Claim.refuted <pyasp_games.engines.claim.Claim.refuted>`). (A user encoding's claims that no
    checker confirms alone are cross-checked by the question that asked,
    :meth:`~pyasp_games.engines.question.Question.solve`.)

    ``options["clingo"]`` (the user's clingo options, checked by
    :func:`~pyasp_games.engines.question.fold_clingo`) reaches every clingo session the
    backend starts (:func:`~pyasp_games.engines.clingo_runner.clingo_setting`) and is
    recorded in ``stats["clingo_options"]``.
    """
    clingo = tuple(options.pop("clingo", ()))  # the user's clingo options, for every session
    start, cpu_start = time.perf_counter(), tree_cpu()
    limits = limits.started()  # the backend's clock; a stage it hands the limits to shares it
    job = partial(_run_here, backends[backend], instance, limits, options, clingo)
    # a callback (e.g. a progress display) cannot report across a process boundary
    deadline = limits.deadline()
    wall = None if deadline.at is None else max(0.0, deadline.at - time.monotonic())
    cpu = deadline.cpu_remaining()
    # a memory limit the user gave is held in a child too: a C++ library that meets the
    # cap (HiGHS's threads, a SAT solver) may abort its process (std::bad_alloc), and
    # the child's abort is then a memory stop, not the command's crash
    given = wall is not None or cpu is not None or limits.memory_limit is not None
    held = given and not guard_only(limits, wall)
    if held and _can_fork() and options.get("progress") is None:
        claim = _run_in_child(job, wall, cpu)
    else:
        claim = job()
    seconds = round(time.perf_counter() - start, 4)
    # the run's process tree: this process and the child that ran the backend
    cpu_seconds = tree_cpu() - cpu_start
    claim = _claim_of(claim, backend)
    outcome = _outcome_of(claim, problem, backend, seconds)
    outcome.stats["cpu_seconds"] = round(cpu_seconds, 4)
    if clingo:
        outcome.stats["clingo_options"] = list(clingo)
    if outcome.status == Status.UNKNOWN:
        outcome.stats.setdefault("limit", "time")
    return judged(outcome, instance, check, claim.malformed)


def judged(outcome: Outcome, instance: Any, check: Checker, malformed: str | None = None) -> Outcome:
    """``outcome`` with the checker's word on it in its verdict (:func:`run_backend`, and
    ``pyasp-games verify`` on a saved answer): a failed check makes it an ``error`` whose
    claim is kept as the failed one; a checker that cannot decide within its own limit
    (:class:`~pyasp_games.errors.Unconfirmed`) leaves the claim standing, unconfirmed;
    ``malformed`` (the backend's own finding) fails it without a checker."""
    try:
        ok, message = (False, malformed) if malformed else check(instance, outcome)
    except Unconfirmed as err:  # the checker's own limit: the claim stands, unconfirmed
        ok, message = None, f"not verified: {err}"
        outcome.verdict.unconfirmed = str(err)
    outcome.verdict.checked(ok, message, outcome.status)
    if ok is False:
        outcome.claim_failed()
    return outcome


def _claim_of(result: Any, backend: str) -> Claim:
    """The backend's claim; one whose ``stats`` carry a verdict's key is refused: the
    kind of an answer and its check are never free-form keys."""
    if not isinstance(result, Claim):
        raise TypeError(f"backend {backend!r} returned {type(result).__name__}, not a Claim")
    keys = STATS_KEYS.intersection(result.stats)
    if keys:
        raise ValueError(
            f"backend {backend!r}: stats carry the verdict's keys {sorted(keys)}; "
            "the claim's kind, bound and certificate are its own fields"
        )
    return result


def _outcome_of(claim: Claim, problem: str, backend: str, seconds: float) -> Outcome:
    """The outcome a claim makes, stamped with the run's names and time (not yet checked)."""
    verdict = Verdict(kind=claim.kind, bound=claim.bound)
    return Outcome(problem, backend, claim.status, claim.answer, claim.witness, seconds,
                   dict(claim.stats), claim.certificate, verdict)  # fmt: skip


def _labelled(claim: Claim, deadline: Deadline) -> Claim:
    """``claim`` with the limit that stopped it, as the backend's own clock saw it: an
    ``unknown`` claim that says ``"time"`` or nothing (many backends say "time" for any
    stop of their deadline) takes the limit its :class:`~.limits.Deadline` found passed
    first (:attr:`~.limits.Deadline.fired`), CPU or wall-clock; another label (memory,
    a backend's own reason) and every statistic the backend reported are kept.

    >>> deadline = Limits(cpu_limit=1e-9).started().deadline()
    >>> _ = sum(range(10**5)); deadline.expired()
    True
    >>> _labelled(Claim.unknown({"limit": "time", "nodes": 7}), deadline).stats
    {'limit': 'cpu', 'nodes': 7}
    """
    if claim.status != Status.UNKNOWN or claim.stats.get("limit", "time") != "time":
        return claim
    if deadline.fired is None:
        deadline.expired()  # a library stopped by the clock it was handed: look once more
    if deadline.fired is not None:
        claim.stats["limit"] = deadline.fired
    return claim


def _run_here(
    solver: Backend,
    instance: Any,
    limits: Limits,
    options: dict,
    clingo: tuple[str, ...] = (),
    final: bool = False,
) -> Claim:
    from pyasp_games.engines.clingo_runner import clingo_setting, sessions_opened

    opened: list = []
    try:
        # final: a forked child, ended after the run (the kernel may kill it at the limit)
        with (
            memory_cap(limits.memory_limit or default_memory_limit()),
            cpu_cap(limits.deadline().cpu_remaining(), final=final),
            clingo_setting(clingo),
            sessions_opened() as opened,
        ):
            return _labelled(solver(instance, limits, **options), limits.deadline())
    except LimitReached as reached:
        stats = reached.args[0] if reached.args and isinstance(reached.args[0], dict) else {}
        return _labelled(Claim.unknown(dict(stats)), limits.deadline())
    except MalformedAnswer as err:  # an answer of the wrong shape fails verification
        # what the last clingo session cost stays on record: the user's encoding ran
        spent = opened[-1].statistics() if opened else {}
        return Claim.refuted(str(err), spent)
    except (MemoryError, OSError, SystemError) as err:
        if not out_of_memory(err):  # ENOMEM: a directory listed or a thread started beyond the cap
            raise
        # the frames holding the backend's data are gone here, so there is room again
        stats = memory_stop("the backend ran out of memory")
    return Claim.unknown(stats)


def _can_fork() -> bool:
    # a daemonic process (a worker of a multiprocessing pool) may not have children; a
    # process that never imported multiprocessing is none (and does not pay its import)
    started = sys.modules.get("multiprocessing")
    return hasattr(os, "fork") and (started is None or not started.current_process().daemon)


def _child(conn: Any, job: Callable[..., Claim], errors: int | None = None, signals: int | None = None) -> None:
    child_started()  # dies with the parent, even one killed outright
    if errors is not None:  # what C code writes on its way out, for the parent to read
        sys.stderr.flush()
        os.dup2(errors, 2)
    if signals is not None:
        # every signal this process handles is written there as it arrives, by the C
        # handler: the CPU limit's signal reaches the parent even while the child runs C
        # code that never returns to Python (a grounding) and the kernel kills it a
        # second later
        with suppress(ValueError, OSError):  # not the main thread: the deadline holds it
            signal.set_wakeup_fd(signals, warn_on_full_buffer=False)
    # a start-up past the cap is told at once: the parent names it if the child aborts
    tell_start_up(partial(_tell, conn))
    try:
        result: Any = ("claim", job(final=True))
    except BaseException as err:  # carried to the parent, which raises it there
        result = ("exception", err)
    # sending what the run found is the tool's cost: the command's cap (a whole
    # process's, :func:`~.enforcement.arm`) would fail its pickling in a small limit
    with uncapped("sending the outcome"):
        try:
            conn.send(result)
        except Exception as err:  # an unpicklable exception: send its text
            conn.send(("exception", RuntimeError(f"{err.__class__.__name__}: {err}")))
        finally:
            conn.close()


def _tell(conn: Any, start_up: str) -> None:
    """Send the parent the start-up that took the child past its cap (:func:`_child`)."""
    with suppress(OSError, ValueError):  # the parent gone or no longer listening: no one to tell
        conn.send(("start_up", start_up))


def _run_in_child(
    job: Callable[..., Claim],
    seconds: float | None,
    cpu_seconds: float | None = None,
) -> Claim:
    """Run ``job`` in a forked child; stop it ``GRACE`` seconds after ``seconds`` of
    wall-clock time, or once the child's process tree has spent ``cpu_seconds`` of
    CPU and the grace of its own stop (:data:`CPU_GRACE`, then the kernel's kill a
    second later, :func:`~pyasp_games.engines.enforcement.cpu_cap`): the parent counts
    the child's CPU and its ended children's (:func:`child_cpu`) as well, for
    children that escape the child's own limit."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    # the child's standard error, read back: a C++ library that runs out of memory under
    # the cap aborts with a line on it (Glucose's OutOfMemoryException, std::bad_alloc)
    errors = tempfile.TemporaryFile()  # noqa: SIM115 - closed by _said, or below
    # the signals the child received, as it received them (:func:`_child`)
    signals, signals_sent = os.pipe()
    os.set_blocking(signals, False)
    os.set_blocking(signals_sent, False)
    process = context.Process(target=_child, args=(send, job, errors.fileno(), signals_sent), daemon=True)
    cpu_start = tree_cpu()
    try:
        process.start()
    except BaseException:
        errors.close()
        os.close(signals)
        raise
    finally:
        os.close(signals_sent)
    send.close()
    stop = None if seconds is None else time.monotonic() + seconds + GRACE
    stopped = "the solver process was stopped at the limit"
    limit = "time"
    start_up = None  # the child's start-up past its memory cap, as it told it
    try:
        while True:
            wait = None if stop is None else max(0.0, stop - time.monotonic())
            if cpu_seconds is not None:
                wait = CPU_POLL if wait is None else min(wait, CPU_POLL)
            if receive.poll(wait):
                kind, value = receive.recv()
                if kind == "start_up":
                    start_up = value
                    continue
                if kind == "exception":
                    raise value
                return value
            if stop is not None and time.monotonic() >= stop:
                break
            if cpu_seconds is not None:
                spent = child_cpu(process.pid)
                if spent is not None and spent > cpu_seconds + CPU_GRACE + 2:
                    stopped = f"the solver's processes were stopped after {spent:.1f} s of CPU"
                    limit = "cpu"
                    break
    except EOFError:  # the child died without a word (killed, out of memory, ...)
        process.join()
        spent = tree_cpu() - cpu_start
        # the kernel's kill at the CPU limit: the child received its signal a second
        # before, or died of that signal where nothing handled it, or (code that blocks
        # the signal) was killed with its whole CPU limit spent
        if process.exitcode in _CPU_KILLED and (
            process.exitcode == -_SIGXCPU
            or _signalled(signals, _SIGXCPU)
            or (cpu_seconds is not None and spent >= cpu_seconds)
        ):
            return Claim.unknown({
                "limit": "cpu",
                "stopped": f"the operating system ended the solver process after {spent:.1f} s"
                " of CPU (RLIMIT_CPU)",
            })  # fmt: skip
        said = _said(errors)
        if process.exitcode != 0 and (sign := _out_of_memory(said)) is not None:
            return Claim.unknown(memory_stop(
                f"the solver process ran out of memory ({sign})", start_up, own=False))  # fmt: skip
        if process.exitcode in _ABORTED:
            stop = memory_stop(
                f"the solver process was ended by {signal.Signals(-process.exitcode).name}"
                " over its memory cap", start_up, own=False)  # fmt: skip
            if "start_up" in stop:  # its start-up left it over the cap: every allocation failed
                return Claim.unknown(stop)
        _replay(said)
        return Claim.error(f"the solver process ended with exit code {process.exitcode}")
    finally:
        if process.is_alive():
            process.kill()
        process.join()
        receive.close()
        os.close(signals)
        if not errors.closed:  # a child that answered: what it wrote goes on to stderr
            _replay(_said(errors))
    return Claim.unknown({"limit": limit, "stopped": stopped})


#: What a library writes on standard error as it aborts for want of memory (glibc,
#: libstdc++, Glucose and the other MiniSat descendants of PySAT).
OUT_OF_MEMORY = re.compile(
    r"OutOfMemory|bad_alloc|cannot allocate memory|out of memory|MemoryError", re.IGNORECASE
)


def _said(errors: Any) -> str:
    """What a child wrote on its standard error (``errors``, closed here)."""
    try:
        errors.seek(0)
        return errors.read().decode(errors="replace")
    except (OSError, ValueError):
        return ""
    finally:
        errors.close()


def _out_of_memory(said: str) -> str | None:
    """The line of ``said`` that tells that its process ran out of memory, or ``None``.

    >>> _out_of_memory("terminate called after throwing an instance of 'Glucose41::OutOfMemoryException'\\n")
    "terminate called after throwing an instance of 'Glucose41::OutOfMemoryException'"
    >>> _out_of_memory("Segmentation fault") is None
    True
    """
    return next((line.strip() for line in said.splitlines() if OUT_OF_MEMORY.search(line)), None)


def _signalled(signals: int, number: int) -> bool:
    """Whether the child received the signal ``number`` (``signals``: what it wrote, as
    each signal it handles arrived, :func:`_child`), e.g. the CPU limit's SIGXCPU before
    the kernel's kill at the hard limit: the child's own word for what stopped it."""
    received = b""
    with suppress(OSError):  # (nothing written: would block)
        while chunk := os.read(signals, 4096):
            received += chunk
    return bool(number) and number in received


def _replay(said: str) -> None:
    if said:
        sys.stderr.write(said)
        sys.stderr.flush()


#: Seconds between two looks at a child's CPU (:func:`_run_in_child`).
CPU_POLL = 0.25

#: A child ended by a library's own abort (``abort()``) or a crash, as C code does where
#: an allocation fails and nothing checks it.
_ABORTED = (-signal.SIGABRT, -signal.SIGSEGV, -signal.SIGBUS)

#: A child that the kernel stopped at its CPU limit: SIGKILL at the hard limit, or
#: SIGXCPU where its handler was not installed (not the main thread).
_CPU_KILLED = (-signal.SIGKILL, -signal.SIGXCPU) if hasattr(signal, "SIGXCPU") else ()
_SIGXCPU = getattr(signal, "SIGXCPU", 0)


def child_cpu(pid: int) -> float | None:
    """CPU seconds of the process ``pid`` and of its children that it has waited for
    (Linux's ``/proc/PID/stat``: utime, stime, cutime, cstime); ``None`` where that
    cannot be read (another system, the process gone).

    >>> import os
    >>> child_cpu(os.getpid()) is None or child_cpu(os.getpid()) >= 0
    True
    """
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rpartition(")")[2].split()
        ticks = os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError):
        return None
    # after the command name: state is field 3, utime..cstime are fields 14-17
    return sum(int(f) for f in fields[11:15]) / ticks
