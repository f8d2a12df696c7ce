"""Enforcing limits on the process: a memory cap, and an alarm for a whole command.

:mod:`pyasp_games.engines.limits` holds the values (:class:`~.limits.Limits`,
:class:`~.limits.Deadline`); this module is what makes a process keep them where
the code cannot poll a clock:

- :func:`memory_cap` caps the data memory while a backend runs
  (:func:`~pyasp_games.engines.runner.run_backend`), and :class:`UncappedStartUp`
  lets the compiled libraries start outside that cap (:func:`uncapped`);
- :func:`arm` is the one call by which a command enforces its limits on its whole
  process: a memory cap for the rest of the process (:func:`cap_memory`) and, for a
  time limit that holds for the whole command, an alarm (:func:`hold_time_limit`).

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
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

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
        resource.setrlimit(resource.RLIMIT_DATA, (new, hard))


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
        yield
        return
    resource.setrlimit(resource.RLIMIT_DATA, (new, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_DATA, (soft, hard))


@contextmanager
def uncapped(what: str) -> Iterator[None]:
    """Lift this process's memory cap (``RLIMIT_DATA``, see :func:`memory_cap`) while
    inside: for the tool's own fixed costs (a library's start-up, compiling a kernel),
    never for a search, which must fail as :class:`MemoryError` beyond the cap.

    If the process holds more than the cap afterwards, ``what`` (e.g. "loading numpy")
    alone takes more than the limit: a memory stop from then on names that as its cause
    (:func:`memory_stop`), not only "memory limit reached". (Nothing fails at once:
    memory held beyond the cap is no error, only the next allocation beyond it.)
    """
    if resource is None:  # pragma: no cover - not on POSIX: no cap to lift
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    resource.setrlimit(resource.RLIMIT_DATA, (hard, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_DATA, (soft, hard))
        held = data_memory()
        if soft != resource.RLIM_INFINITY and held is not None and held > soft:
            _over_cap["start_up"] = (
                f"{what} takes {held / 2**20:.0f} MB;"
                f" the memory limit of {soft / 2**20:.0f} MB is below that"
            )


#: What took the process past its memory cap before any search ran (:func:`uncapped`).
_over_cap: dict[str, str] = {}


def memory_stop(stopped: str) -> dict[str, str]:
    """The statistics of a run stopped out of memory: ``limit`` "memory", ``stopped``
    what ran out, and ``start_up`` the tool's own start-up that alone took more than the
    limit (:func:`uncapped`), when one did: the cause to name then.

    >>> memory_stop("the backend ran out of memory")["limit"]
    'memory'
    """
    stats = {"limit": "memory", "stopped": stopped}
    if "start_up" in _over_cap:
        stats["start_up"] = _over_cap["start_up"]
    return stats


def data_memory() -> int | None:
    """Bytes of data memory this process holds (what ``RLIMIT_DATA`` caps: Linux's
    ``VmData``, reserved as well as used), ``None`` where that cannot be read."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmData:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):  # pragma: no cover - not Linux
        return None
    return None  # pragma: no cover


#: The libraries whose compiled modules load uncapped (:class:`UncappedStartUp`).
COMPILED_LIBRARIES = frozenset({"numpy", "scipy", "numba", "llvmlite", "clingo", "pysat"})


class UncappedStartUp(importlib.abc.MetaPathFinder):
    """Load the compiled modules of :data:`COMPILED_LIBRARIES` with the memory cap lifted.

    Their start-up is the tool's fixed cost, not the user's search: OpenBLAS (numpy's,
    and scipy's own copy) reserves a buffer per thread while its library loads, and
    under a cap below that (about 100 MB for numpy, 200 MB with scipy) it either
    aborts the process ("OpenBLAS error: Memory allocation still failed") or retries
    forever inside ``dlopen``, where neither a signal nor a time limit reaches it; the C
    library aborts a process whose ``dlopen`` of clingo finds no room for its
    thread-local data. So a small ``--memory-limit`` hung or killed a 3 x 3 game
    instead of answering it. Only
    loading an extension module is uncapped; what the search allocates afterwards
    (its arrays too) stays under the cap. Installed by :func:`cap_memory` and
    :func:`memory_cap`, once per process.
    """

    @classmethod
    def install(cls) -> None:
        if not any(isinstance(finder, cls) for finder in sys.meta_path):
            sys.meta_path.insert(0, cls())

    def find_spec(self, name: str, path: object = None, target: object = None):
        if name.partition(".")[0] not in COMPILED_LIBRARIES:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)  # type: ignore[arg-type]
        if spec is not None and isinstance(spec.loader, importlib.machinery.ExtensionFileLoader):
            spec.loader = _UncappedLoader(spec.loader)
        return spec


class _UncappedLoader(importlib.abc.Loader):
    """An extension module's loader whose loading (``dlopen`` and the module's
    initialisation) runs :func:`uncapped`."""

    def __init__(self, loader: importlib.machinery.ExtensionFileLoader) -> None:
        self.loader = loader

    def create_module(self, spec):
        with uncapped(f"loading {spec.name.partition('.')[0]}"):
            return self.loader.create_module(spec)

    def exec_module(self, module) -> None:
        with uncapped(f"loading {module.__name__.partition('.')[0]}"):
            self.loader.exec_module(module)

    def __getattr__(self, name: str):
        return getattr(self.loader, name)


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
    (:func:`hold_time_limit`: reading the input, solving, checking). Commands whose time
    limit is per run (crosscheck, a set of boards) pass ``whole_command=False``. Outside
    a process of the command's own (:func:`enforced`) this does nothing.
    """
    if not enforcing():
        return
    cap_memory(limits.memory_limit or default_memory_limit())
    if whole_command:
        hold_time_limit(limits.time_limit)


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
    """Disarm :func:`hold_time_limit` (e.g. before printing a finished answer)."""
    if threading.current_thread() is not threading.main_thread():
        return
    if hasattr(signal, "SIGALRM") and signal.getsignal(signal.SIGALRM) is _alarm:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
