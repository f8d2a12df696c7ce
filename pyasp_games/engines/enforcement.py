"""Enforcing limits on the process: a memory cap, and an alarm for a whole command.

:mod:`pyasp_games.engines.limits` holds the values (:class:`~.limits.Limits`,
:class:`~.limits.Deadline`); this module is what makes a process keep them where
the code cannot poll a clock:

- :func:`memory_cap` caps the data memory while a backend runs
  (:func:`~pyasp_games.engines.runner.run_backend`), and :class:`UncappedStartUp`
  lets the compiled libraries start outside that cap (:func:`uncapped`);
- :func:`cpu_cap` has the operating system hold a backend's CPU limit
  (``RLIMIT_CPU``: a signal at the limit, then the process killed a second later,
  also inside a C library that never returns to Python);
- :func:`arm` is the one call by which a command enforces its limits on its whole
  process: a memory cap for the rest of the process (:func:`cap_memory`) and, for a
  time limit that holds for the whole command, an alarm (:func:`hold_time_limit`)
  and a CPU cap (:func:`hold_cpu_limit`).

Both of :func:`arm`'s effects belong to a process that is the command's own. The
console command's entry point (:func:`pyasp_games.cli.main`) says whether it is, by
:func:`enforced`: a command called inside another program (``cli.main(argv,
enforce=False)``, as the tests do) arms nothing process-wide, so the program's process
is left as it was found (its backends still keep their limits: a backend's memory cap
and, with a time limit, its forked child are :func:`~.runner.run_backend`'s own).

>>> with enforced(False):
...     arm(Limits(time_limit=5, memory_limit=2**20))
...     held_for() is None
True
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from pyasp_games.engines.limits import LimitReached, Limits, default_memory_limit

try:
    import resource
except ImportError:  # pragma: no cover - not on POSIX: memory caps do nothing
    resource = None  # type: ignore[assignment]


# -- memory ---------------------------------------------------------------------------


def cap_memory(limit: int) -> None:
    """Cap this process's data memory at ``limit`` bytes from now on (a command's
    whole run: reading its input too); a lower cap already in force is kept. The
    compiled libraries still start uncapped (:class:`UncappedStartUp`)."""
    if resource is None:  # pragma: no cover
        return
    UncappedStartUp.install()
    soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    new = limit if hard == resource.RLIM_INFINITY else min(limit, hard)
    if soft == resource.RLIM_INFINITY or new < soft:
        _new_cap(new, hard)
    else:
        _past_cap_already()


@contextmanager
def memory_cap(limit: int | None) -> Iterator[None]:
    """Cap this process's data (heap) memory at ``limit`` bytes while inside.

    Beyond the cap an allocation fails, and Python raises :class:`MemoryError`
    (which :func:`~pyasp_games.engines.runner.run_backend` reports as ``unknown``).
    The soft ``RLIMIT_DATA`` is lowered and restored; a lower cap already in force
    is kept. Without ``resource`` limits (other platforms) this does nothing.
    """
    if limit is None or resource is None:
        yield
        return
    UncappedStartUp.install()
    soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    new = limit if hard == resource.RLIM_INFINITY else min(limit, hard)
    if soft != resource.RLIM_INFINITY and soft <= new:
        _past_cap_already()
        yield
        return
    _new_cap(new, hard)
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_DATA, (soft, hard))


def _new_cap(soft: int, hard: int) -> None:
    """Put the cap ``soft`` in force. What took the process past an earlier cap is no
    cause of a stop under this one (a long-lived process runs many backends, each under
    its own cap, and a forked child inherits its parent's record): the record starts
    afresh, with a start-up already past the new cap (:func:`_past_cap_already`)."""
    resource.setrlimit(resource.RLIMIT_DATA, (soft, hard))
    _over_cap.clear()
    _past_cap_already()


def _past_cap_already() -> None:
    """Record (and tell, :func:`tell_start_up`) a process that holds more than its cap
    in force already: its start-up (the modules its parent imported before the fork, or
    this process before its cap) takes it past the cap, and every allocation from now on
    fails; a library that aborts there has said nothing of memory."""
    with uncapped("the tool's start-up"):  # measures before and after: the same memory
        pass


@contextmanager
def uncapped(what: str) -> Iterator[None]:
    """Lift this process's memory cap (``RLIMIT_DATA``, see :func:`memory_cap`) while
    inside: for the tool's own fixed costs (loading a module, compiling a kernel),
    never for a search, which must fail as :class:`MemoryError` beyond the cap.
    Inside another ``uncapped`` (or with no cap in force) this does nothing.

    If the process holds more than the cap afterwards, ``what`` (e.g. "loading numpy")
    alone takes more than the limit, or, when the process held more than the cap
    already before, the tool's start-up does: a memory stop from then on names the
    first such cause (:func:`memory_stop`), not only "memory limit reached". (Nothing
    fails at once: memory held beyond the cap is no error, only the next allocation
    beyond it.)
    """
    if resource is None:  # pragma: no cover - not on POSIX: no cap to lift
        yield
        return
    # The cap is the process's, shared by its threads (a campaign's or crosscheck's
    # pool): the first thread in lifts it, the last one out puts it back, so that one
    # thread's exit never caps another still loading.
    with _lift_lock:
        if _lift["depth"] == 0:
            soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
            # nothing capped (or lifted already by hand): nothing to put back
            _lift["soft"] = None if soft == hard else soft
            if soft != hard:
                _lift["before"] = data_memory()
                resource.setrlimit(resource.RLIMIT_DATA, (hard, hard))
        _lift["depth"] += 1
    try:
        yield
    finally:
        with _lift_lock:
            _lift["depth"] -= 1
            soft, before = _lift["soft"], _lift["before"]
            if _lift["depth"] == 0 and soft is not None:
                # measured (and told) before the cap is put back: telling takes memory
                held = data_memory()
                if held is not None and held > soft and "start_up" not in _over_cap:
                    cause = "the tool's start-up" if before is not None and before > soft else what
                    _over_cap["start_up"] = (
                        f"{cause} takes {held / 2**20:.0f} MB;"
                        f" the memory limit of {soft / 2**20:.0f} MB is below that"
                    )
                    _over_cap["cap"] = str(soft)  # the cap it is the cause under
                    if _start_up_told["to"] is not None:
                        # (the lock is re-entrant: telling may import, whose finder
                        # lifts the cap again, :class:`UncappedStartUp`)
                        _start_up_told["to"](_over_cap["start_up"])
                resource.setrlimit(resource.RLIMIT_DATA, (soft, resource.getrlimit(resource.RLIMIT_DATA)[1]))


#: The lift of :func:`uncapped` in force: how many are inside, the cap to put back and
#: the data memory held when it was lifted.
_lift_lock = threading.RLock()
_lift: dict[str, Any] = {"depth": 0, "soft": None, "before": None}


def _lift_anew() -> None:
    """A forked child has one thread: none of its parent's is inside :func:`uncapped`
    (and the lock may have been held by one at the fork); the parent's listener
    (:func:`tell_start_up`) is not the child's."""
    global _lift_lock
    _lift_lock = threading.RLock()
    _lift.update(depth=0, soft=None, before=None)
    _start_up_told["to"] = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_lift_anew)


#: What took the process past its memory cap before any search ran (:func:`uncapped`).
_over_cap: dict[str, str] = {}


#: Who is told the first time the start-up takes the process past its cap
#: (:func:`tell_start_up`): a backend's forked child tells its parent, which names the
#: cause if the child then dies outright (a C++ library's abort under the cap).
_start_up_told: dict[str, Callable[[str], None] | None] = {"to": None}


def tell_start_up(listener: Callable[[str], None] | None) -> None:
    """Have ``listener(cause)`` called when the tool's own start-up first takes this
    process past its memory cap (:func:`uncapped`; ``cause`` is what
    :func:`memory_stop` names as ``start_up``), with the cap still lifted: it may
    allocate (send the cause to another process). ``None`` tells no one. A forked
    child starts with no listener.

    >>> told = []
    >>> tell_start_up(told.append); tell_start_up(None); told
    []
    """
    _start_up_told["to"] = listener


def memory_stop(stopped: str, start_up: str | None = None, own: bool = True) -> dict[str, str]:
    """The statistics of a run stopped out of memory: ``limit`` "memory", ``stopped``
    what ran out, and ``start_up`` the tool's own start-up that alone took more than the
    limit (:func:`uncapped`), when one did: the cause to name then (``start_up``
    given: the cause another process told, :func:`tell_start_up`). ``own=False``: the
    stop is another process's (a backend's forked child): besides the cause it told,
    what this process recorded is named only if it is of the cap in force here (a
    command's cap on its whole process, which the child shared), never of an earlier one.

    >>> memory_stop("the backend ran out of memory")["limit"]
    'memory'
    >>> memory_stop("the solver process aborted", "loading scipy takes 205 MB")["start_up"]
    'loading scipy takes 205 MB'
    """
    stats = {"limit": "memory", "stopped": stopped}
    recorded = _over_cap.get("start_up")
    if not own and (resource is None or _over_cap.get("cap") != str(resource.getrlimit(resource.RLIMIT_DATA)[0])):
        recorded = None  # another cap's: a run before this one, in a long-lived process
    cause = start_up or recorded
    if cause:
        stats["start_up"] = cause
    return stats


def out_of_memory(err: BaseException) -> bool:
    """Whether ``err`` says the process ran out of memory: a :class:`MemoryError`, an
    ``OSError`` ENOMEM (a directory listed, a thread or a process started beyond the cap:
    "Cannot allocate memory"), or, under a memory cap, a ``SystemError`` of a C function
    that "returned NULL without setting an exception" (or, from the interpreter's own
    calls, "error return without exception set").

    >>> import errno
    >>> out_of_memory(OSError(errno.ENOMEM, "Cannot allocate memory")), out_of_memory(OSError(2, "x"))
    (True, False)
    """
    import errno

    if isinstance(err, SystemError) and any(
        said in str(err) for said in ("without setting an exception", "without exception set")
    ):
        # a C extension whose allocation failed under the cap, too short of memory to
        # raise (scipy's HiGHS under a small --memory-limit); without a cap, a bug
        import resource

        return resource.getrlimit(resource.RLIMIT_DATA)[0] != resource.RLIM_INFINITY
    return isinstance(err, MemoryError) or (isinstance(err, OSError) and err.errno == errno.ENOMEM)


def data_memory() -> int | None:
    """Bytes of data memory this process holds (what ``RLIMIT_DATA`` caps: Linux's
    ``VmData``, reserved as well as used), ``None`` where that cannot be read."""
    try:  # bytes: no codec to import (this runs inside an import, :class:`UncappedStartUp`)
        with open("/proc/self/status", "rb") as status:
            for line in status:
                if line.startswith(b"VmData:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, MemoryError):  # not Linux, or no room left under a cap
        return None
    return None  # pragma: no cover


class UncappedStartUp(importlib.abc.MetaPathFinder):
    """Import every module with the memory cap lifted: finding it, loading it (an
    extension module's ``dlopen`` too) and running its top-level code (:func:`uncapped`).

    Loading the tool's code and its libraries is the tool's fixed cost, not the user's
    search. Under a cap, ``dlopen`` cannot map an extension module's segments (an
    ``ImportError`` "failed to map segment from shared object": Python's own ``_csv``
    or ``_multiprocessing`` under ``--memory-limit 1``), the import machinery itself
    fails between allocations (``SystemError: error return without exception set``
    while numpy was being found under ``--memory-limit 50``), OpenBLAS (numpy's, and
    scipy's own copy) reserves a buffer per thread while its library loads and under
    a cap below that (about 100 MB for numpy, 200 MB with scipy) either aborts the
    process ("OpenBLAS error: Memory allocation still failed") or retries forever
    inside ``dlopen``, where neither a signal nor a time limit reaches it, and the C
    library aborts a process whose ``dlopen`` of clingo finds no room for its
    thread-local data. Only the import is uncapped; what the search allocates
    afterwards (its arrays too) stays under the cap, and a process that the imports
    took past its cap stops at its next allocation as a memory stop naming that cause
    (:func:`memory_stop`). Installed first on ``sys.meta_path`` by :func:`cap_memory`
    and :func:`memory_cap`, once per process; with no cap in force it steps aside.
    """

    @classmethod
    def install(cls) -> None:
        if not any(isinstance(finder, cls) for finder in sys.meta_path):
            sys.meta_path.insert(0, cls())

    def find_spec(self, name: str, path: object = None, target: object = None):
        if resource is None:  # pragma: no cover
            return None
        soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
        if soft == hard:  # no cap in force: the usual import
            return None
        what = f"loading {name.partition('.')[0]}"
        with uncapped(what):  # the other finders, in their order, uncapped
            for finder in list(sys.meta_path):
                find = getattr(finder, "find_spec", None)
                if isinstance(finder, UncappedStartUp) or find is None:
                    continue
                spec = find(name, path, target)
                if spec is not None:
                    break
            else:
                return None
        if isinstance(spec.loader, _FILE_LOADERS):
            spec.loader = _UncappedLoader(spec.loader, what)
        return spec


#: The loaders whose loading :class:`UncappedStartUp` lifts the cap for.
_FILE_LOADERS = (
    importlib.machinery.ExtensionFileLoader,
    importlib.machinery.SourceFileLoader,
    importlib.machinery.SourcelessFileLoader,
)


class _UncappedLoader(importlib.abc.Loader):
    """A module's loader whose loading (an extension's ``dlopen`` and initialisation, a
    Python module's top-level code) runs :func:`uncapped`."""

    def __init__(self, loader: importlib.abc.Loader, what: str) -> None:
        self.loader = loader
        self.what = what

    def create_module(self, spec):
        with uncapped(self.what):
            return self.loader.create_module(spec)

    def exec_module(self, module) -> None:
        with uncapped(self.what):
            self.loader.exec_module(module)

    def __getattr__(self, name: str):
        return getattr(self.loader, name)


# -- CPU time -------------------------------------------------------------------------

#: CPU seconds past the limit at which the operating system signals a backend that
#: holds a CPU limit (:func:`cpu_cap`): after its own stop (it polls its
#: :class:`~pyasp_games.engines.limits.Deadline`), so that a backend that keeps its
#: limit reports its own ``unknown`` with its statistics. One more second and the
#: process is killed (the hard limit), wherever it is.
CPU_GRACE = 0.5


def _cpu_signal(signum: int, frame: object) -> None:
    raise LimitReached(
        {"limit": "cpu", "stopped": "the operating system signalled the CPU limit (RLIMIT_CPU)"}
    )


@contextmanager
def cpu_cap(seconds: float | None, final: bool = False) -> Iterator[None]:
    """Have the operating system hold ``seconds`` more CPU seconds of this process
    while inside (``None``: do nothing): ``RLIMIT_CPU`` is set that far (plus
    :data:`CPU_GRACE`, in whole seconds as the kernel counts) beyond what the process
    has spent, and its signal (SIGXCPU) raises
    :class:`~pyasp_games.engines.limits.LimitReached` with ``limit = "cpu"`` in the
    main thread. Every thread counts. A child process inherits the limit, counted
    anew for itself.

    ``final``: this process ends after the run (a backend's forked child): the hard
    limit is set one second later, so the kernel kills the process there even while
    it runs C code that never returns to Python (a grounding); the parent then reports
    the CPU limit (:func:`~pyasp_games.engines.runner.run_backend`). Otherwise the hard
    limit is left alone (lowered, it could never be raised again) and the soft one
    put back on the way out. Outside the main thread, or without ``resource``, this
    does nothing (the deadline polled still holds the limit).
    """
    if (
        seconds is None
        or resource is None
        or not hasattr(signal, "SIGXCPU")
        or threading.current_thread() is not threading.main_thread()
    ):
        yield
        return
    import math

    own = time.process_time()  # what the kernel counts: this process only
    soft_at = max(1, math.ceil(own + seconds + CPU_GRACE))
    soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    if hard != resource.RLIM_INFINITY:
        soft_at = min(soft_at, hard)
    if final:  # the kernel kills the process one second past the signal
        hard_at = soft_at + 1 if hard == resource.RLIM_INFINITY else min(hard, soft_at + 1)
        target: tuple[int, int] | None = (soft_at, hard_at)
    elif soft == resource.RLIM_INFINITY or soft_at < soft:
        target = (soft_at, hard)
    else:  # a lower cap already in force is kept
        target = None
    previous = signal.signal(signal.SIGXCPU, _cpu_signal)
    if target is not None:
        resource.setrlimit(resource.RLIMIT_CPU, target)
    try:
        yield
    finally:
        if not final:
            resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))
        signal.signal(signal.SIGXCPU, previous)


def hold_cpu_limit(seconds: float | None) -> None:
    """The command's own process stops :data:`CPU_GRACE` seconds after it has spent
    ``seconds`` of CPU from now (reading the input, checking: what a backend's child
    does not count), by ``RLIMIT_CPU``'s signal raising
    :class:`~pyasp_games.engines.limits.LimitReached` (``limit = "cpu"``). The hard
    limit is left alone; a backend's forked child sets its own (:func:`cpu_cap`)."""
    if (
        seconds is None
        or resource is None
        or not hasattr(signal, "SIGXCPU")
        or threading.current_thread() is not threading.main_thread()
    ):
        return
    import math

    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft_at = max(1, math.ceil(time.process_time() + seconds + CPU_GRACE))
    if hard != resource.RLIM_INFINITY:
        soft_at = min(soft_at, hard)
    signal.signal(signal.SIGXCPU, _cpu_signal)
    resource.setrlimit(resource.RLIMIT_CPU, (soft_at, hard))


# -- the whole process of a command ----------------------------------------------------

#: Whether :func:`arm` enforces limits on this process (see :func:`enforced`).
_enforcing: dict[str, bool] = {"process": True}


@contextmanager
def enforced(process: bool) -> Iterator[None]:
    """While inside, :func:`arm` enforces limits on this process (``process``: the
    console command, whose process is its own) or arms nothing process-wide (a command
    called inside another program, e.g. a test calling ``cli.main(argv,
    enforce=False)``): no memory cap is left on that program, no alarm is set and no
    signal handler installed; a backend still keeps its own limits
    (:func:`~pyasp_games.engines.runner.run_backend`).

    Not enforcing, the state a command keeps for its process (when its alarm was
    armed, the start-up that took it past its memory cap) starts afresh, as in a new
    process, and is put back on the way out: nothing carries from one command to the
    next.
    """
    previous = _enforcing["process"]
    kept = (dict(_held), dict(_over_cap))
    _enforcing["process"] = process
    if not process:
        _held["since"] = None
        _over_cap.clear()
    try:
        yield
    finally:
        _enforcing["process"] = previous
        if not process:
            _held.clear()
            _held.update(kept[0])
            _over_cap.clear()
            _over_cap.update(kept[1])


def enforcing() -> bool:
    """Whether :func:`arm` enforces limits on this process (:func:`enforced`)."""
    return _enforcing["process"]


def arm(limits: Limits, whole_command: bool = True) -> None:
    """Enforce ``limits`` on this process from now on, explicitly (a command does it once,
    before reading its input): its data memory is capped at ``limits.memory_limit``
    (default :func:`~pyasp_games.engines.limits.default_memory_limit`) for the rest of
    the process, and with ``whole_command`` the time limit holds for the whole command
    (:func:`hold_time_limit`: reading the input, solving, checking), and so does its
    CPU limit for the command's own process (:func:`hold_cpu_limit`; each backend's
    run holds it for its process tree, :func:`cpu_cap`). Commands whose limits are per
    run (crosscheck, a set of boards) pass ``whole_command=False``. Outside a process
    of the command's own (:func:`enforced`) this does nothing.
    """
    if not enforcing():
        return
    cap_memory(limits.memory_limit or default_memory_limit())
    if whole_command:
        hold_time_limit(limits.time_limit)
        hold_cpu_limit(limits.cpu_limit)


#: Seconds past the limit at which :func:`hold_time_limit` stops a command: later than a
#: backend's own stop (its deadline, then the runner's grace), so that a backend that
#: keeps its limit reports its own ``unknown`` with its statistics.
ALARM_GRACE = 0.75

_held: dict[str, float | None] = {"since": None}


def _alarm(signum: int, frame: object) -> None:
    raise LimitReached(
        {"limit": "time", "stopped": f"the command was stopped after {held_for() or 0:.1f} s"}
    )


def hold_time_limit(seconds: float | None) -> None:
    """Raise :class:`LimitReached` in the main thread :data:`ALARM_GRACE` seconds
    after ``seconds`` have passed.

    The backstop that makes a whole command (reading its input, solving, checking)
    keep its time limit, also where the code does not poll a :class:`Deadline`
    (parsing a large file, a long check). Code in a C library is not interrupted
    by it: :func:`~pyasp_games.engines.runner.run_backend` runs backends in a child
    process for that. ``None`` does nothing; :func:`release_time_limit` disarms it.
    """
    if seconds is None or not hasattr(signal, "SIGALRM"):
        return
    if threading.current_thread() is not threading.main_thread():
        return  # signals reach the main thread only; backends still keep their limits
    _held["since"] = time.monotonic()
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds + ALARM_GRACE)


def held_for() -> float | None:
    """Seconds since :func:`hold_time_limit` was armed (``None``: it was not)."""
    since = _held["since"]
    return None if since is None else time.monotonic() - since


def release_time_limit() -> None:
    """Disarm :func:`hold_time_limit` and :func:`hold_cpu_limit` (e.g. before printing
    a finished answer)."""
    if threading.current_thread() is not threading.main_thread():
        return
    if hasattr(signal, "SIGALRM") and signal.getsignal(signal.SIGALRM) is _alarm:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
    if hasattr(signal, "SIGXCPU") and signal.getsignal(signal.SIGXCPU) is _cpu_signal:
        _, hard = resource.getrlimit(resource.RLIMIT_CPU)
        resource.setrlimit(resource.RLIMIT_CPU, (hard, hard))
        signal.signal(signal.SIGXCPU, signal.SIG_DFL)
