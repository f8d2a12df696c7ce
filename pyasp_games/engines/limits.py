"""Resource limits as an explicit contract: the values.

Every backend receives a :class:`Limits`; when its ``time_limit`` is reached the
backend stops and reports ``status="unknown"``. A :class:`Deadline` is the
wall-clock view of a time limit that long-running loops poll.

>>> d = Limits(time_limit=5).deadline()
>>> d.expired()
False
>>> 0 < d.remaining() <= 5
True
>>> Limits().deadline().remaining() is None
True

Below the command line, budgets travel as :class:`Limits` only. A backend receives
them *started* (:meth:`Limits.started`, done by
:func:`~pyasp_games.engines.runner.run_backend`): their clock runs from the backend's
start, and every stage they are handed on to (a sub-solver, a heuristic run first)
polls that one clock, so the stages share the budget without converting it:

>>> lim = Limits(time_limit=5).started()
>>> lim.deadline() is lim.started().deadline()
True
>>> Limits(time_limit=5).deadline() is Limits(time_limit=5).deadline()
False

This module holds only values and the checks of values a user gave: nothing here
changes the process. Enforcing limits on the process (a memory cap, the alarm that
holds a whole command's time limit) is :mod:`pyasp_games.engines.enforcement`.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace


class LimitReached(Exception):
    """Raised inside a backend when its deadline passes; turned into ``unknown``."""


@dataclass(frozen=True)
class Limits:
    """What a backend may spend.

    Parameters
    ----------
    time_limit : float or None, optional
        Wall-clock seconds for the whole call (``None``: no limit); reached, the
        backend answers ``unknown``.
    max_length : int or None, optional
        For planning problems, the largest horizon to try; beyond it the backend
        answers ``no-solution`` "within max_length".
    memory_limit : int or None, optional
        Bytes the solving process may hold (``None``: the default,
        :func:`default_memory_limit`); beyond it the backend answers ``unknown`` with
        ``limit = "memory"``.
    cpu_limit : float or None, optional
        CPU seconds of the run's process tree (``None``: no limit).

    Returns
    -------
    Limits
        The frozen value; :meth:`started` gives it a running clock.

    Raises
    ------
    ValueError
        A time, memory or CPU limit that is not positive, a negative ``max_length``
        (:meth:`given` checks a user's values and names the option).
    """

    time_limit: float | None = None
    max_length: int | None = None
    memory_limit: int | None = None
    #: CPU seconds of the run's process tree (``None``: no limit); held by the operating
    #: system (``RLIMIT_CPU``, :func:`~pyasp_games.engines.enforcement.cpu_cap`) as well
    #: as by the clock polled (:class:`Deadline`), so a shared machine's load no longer
    #: decides how much work a run gets.
    cpu_limit: float | None = None
    #: The running clock of started limits (:meth:`started`); ``None``: not started.
    clock: Deadline | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.time_limit is not None and not self.time_limit > 0:
            raise ValueError("time limit must be positive")
        if self.max_length is not None and self.max_length < 0:
            raise ValueError("max length must be non-negative")
        if self.memory_limit is not None and self.memory_limit <= 0:
            raise ValueError("memory limit must be positive")
        if self.cpu_limit is not None and not self.cpu_limit > 0:
            raise ValueError("CPU limit must be positive")

    @classmethod
    def given(
        cls,
        time_limit: float | None = None,
        max_length: int | None = None,
        memory_megabytes: float | None = None,
        cpu_seconds: float | None = None,
    ) -> Limits:
        """The limits a user gave, each value checked.

        Parameters
        ----------
        time_limit : float or None, optional
            ``--time-limit``, wall-clock seconds.
        max_length : int or None, optional
            ``--max-length``, the largest horizon.
        memory_megabytes : float or None, optional
            ``--memory-limit``, in megabytes (``2**20`` bytes).
        cpu_seconds : float or None, optional
            ``--cpu-limit``, CPU seconds.

        Returns
        -------
        Limits
            The limits, not started. Nothing else happens:
            :func:`~pyasp_games.engines.enforcement.arm` enforces limits on the process.

        Raises
        ------
        InputError
            A bad value (not positive, not finite, beyond this tool's range), naming
            its option.

        Examples
        --------
        >>> Limits.given(2.5, memory_megabytes=512).memory_limit
        536870912
        >>> Limits.given(max_length=-1)
        Traceback (most recent call last):
        pyasp_games.errors.InputError: --max-length must be non-negative, got -1
        >>> Limits.given(cpu_seconds=float("nan"))
        Traceback (most recent call last):
        pyasp_games.errors.InputError: --cpu-limit must be positive and finite (seconds, below 1e+09), got nan
        """
        checked_seconds(time_limit)
        checked_seconds(cpu_seconds, "--cpu-limit")
        if max_length is not None and max_length < 0:
            from pyasp_games.errors import InputError

            raise InputError(f"--max-length must be non-negative, got {max_length}")
        checked_megabytes(memory_megabytes)
        memory = None if memory_megabytes is None else int(memory_megabytes * 2**20)
        return cls(
            time_limit=time_limit, max_length=max_length, memory_limit=memory, cpu_limit=cpu_seconds
        )

    def started(self) -> Limits:
        """These limits with their clock running from now, or ``self`` if it already runs.

        What a backend receives; a stage that hands its limits on to another stage
        passes them started, so both poll the same clock.
        """
        if self.clock is not None:
            return self
        return replace(self, clock=Deadline(self.time_limit, self.cpu_limit))

    def deadline(self) -> Deadline:
        """The clock to poll: the running one of started limits, else one from now."""
        if self.clock is not None:
            return self.clock
        return Deadline(self.time_limit, self.cpu_limit)


class Deadline:
    """A point in (monotonic) time after which work must stop, and optionally a
    budget of CPU seconds (:func:`process_cpu`: every thread of the process, and the
    CPU a forked child's parent spent in this run before the fork).

    >>> d = Deadline(None, cpu_seconds=100)
    >>> d.expired(), 0 < d.remaining() <= 100, d.cpu_used() < 1
    (False, True, True)
    """

    def __init__(self, seconds: float | None, cpu_seconds: float | None = None) -> None:
        self.start = time.monotonic()
        self.at = None if seconds is None else self.start + seconds
        self.cpu_start = process_cpu()
        self.cpu_at = None if cpu_seconds is None else self.cpu_start + cpu_seconds
        #: The limit :meth:`expired` found passed first (``"cpu"`` or ``"time"``), once
        #: it has: what stopped a run that polls this deadline, as it saw it (a backend
        #: that says "time" for any stop is labelled by it, ``runner._labelled``).
        self.fired: str | None = None

    def remaining(self) -> float | None:
        """Seconds one may wait before looking again (never negative), or ``None``
        without a limit: the wall-clock seconds left, and no more than the CPU seconds
        left (a run spends at most one CPU second per second on each of its threads,
        so a caller that waits, sees the CPU limit not yet reached, and waits again
        never overshoots it by much: :meth:`wait_for`)."""
        left = [] if self.at is None else [self.at - time.monotonic()]
        if self.cpu_at is not None:
            left.append(self.cpu_at - process_cpu())
        return max(0.0, min(left)) if left else None

    def wall_remaining(self) -> float | None:
        """Wall-clock seconds left (never negative), or ``None`` without a time limit:
        what a library that keeps a wall-clock limit of its own is handed (HiGHS), its
        CPU held by the operating system (:func:`~pyasp_games.engines.enforcement.cpu_cap`)."""
        return None if self.at is None else max(0.0, self.at - time.monotonic())

    def cpu_remaining(self) -> float | None:
        """CPU seconds left (never negative), or ``None`` without a CPU limit."""
        return None if self.cpu_at is None else max(0.0, self.cpu_at - process_cpu())

    def cpu_used(self) -> float:
        """CPU seconds spent since this deadline was set (this process's lineage)."""
        return process_cpu() - self.cpu_start

    def expired(self) -> bool:
        """Whether a limit has passed; the first time one has, which is recorded
        (:attr:`fired`: both clocks only run on, so it stays passed)."""
        if self.fired is None:
            if self.cpu_at is not None and process_cpu() >= self.cpu_at:
                self.fired = "cpu"
            elif self.at is not None and time.monotonic() >= self.at:
                self.fired = "time"
        return self.fired is not None

    def reached(self) -> str:
        """Which limit has passed: the one :meth:`expired` found first, else ``"cpu"``
        if the CPU budget has, else ``"time"``."""
        if self.fired is not None:
            return self.fired
        return "cpu" if self.cpu_at is not None and process_cpu() >= self.cpu_at else "time"

    def check(self) -> None:
        """Raise :class:`LimitReached` once the deadline has passed."""
        if self.expired():
            raise LimitReached({"limit": self.reached()})

    def wait_for(self, wait: Callable[[float | None], bool]) -> bool:
        """Call ``wait(seconds)`` (a solver's wait with a timeout, ``None``: no
        timeout) until it returns ``True`` (done) or this deadline has passed
        (``False``). A single wait of :meth:`remaining` would stop a run under a CPU
        limit at a fraction of its CPU on a loaded machine."""
        while True:
            if wait(self.remaining()):
                return True
            if self.expired():
                return False


# -- CPU time --------------------------------------------------------------------------

#: CPU seconds the parent had spent when this process was forked from it (see
#: :func:`process_cpu`); 0 in a process that was not forked.
_forked_at: dict[str, float] = {"offset": 0.0, "at_fork": 0.0}


def process_cpu() -> float:
    """CPU seconds of this process (user and system, every thread) plus, in a forked
    child, what its parents had spent when they forked it: one clock that runs on
    across a fork, so that a :class:`Deadline` started in a parent and polled in the
    forked child that runs the backend (:func:`~pyasp_games.engines.runner.run_backend`)
    counts the run's CPU, not the child's alone nor the parent's whole life.

    >>> a = process_cpu(); b = process_cpu(); 0 <= b - a < 1
    True
    """
    return time.process_time() + _forked_at["offset"]


def _before_fork() -> None:
    _forked_at["at_fork"] = process_cpu()


def _after_fork_in_child() -> None:
    _forked_at["offset"] = _forked_at["at_fork"]


if hasattr(os, "register_at_fork"):
    os.register_at_fork(before=_before_fork, after_in_child=_after_fork_in_child)


def tree_cpu() -> float:
    """CPU seconds of this process and of its children that have ended (and been
    waited for): what a run costs when it ran in child processes. Without
    ``resource`` (not POSIX), this process's own.

    >>> tree_cpu() >= time.process_time() - 0.01
    True
    """
    try:
        import resource
    except ImportError:  # pragma: no cover - not POSIX
        return time.process_time()
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


# -- the default memory limit ----------------------------------------------------------

#: the default memory limit never exceeds this many bytes (nor half the machine's memory)
DEFAULT_MEMORY_CAP = 8 * 2**30


def default_memory_limit() -> int:
    """Bytes a run may hold by default: half the machine's memory, at most 8 GiB.

    A search that stores what it reaches (A*, a large grounding) then stops with
    ``unknown`` long before the machine starts swapping or kills it.
    """
    try:
        physical = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):  # pragma: no cover - a platform without sysconf
        return DEFAULT_MEMORY_CAP
    return min(DEFAULT_MEMORY_CAP, physical // 2)


# -- limits a user gave -----------------------------------------------------------------

#: The longest time limit taken (about 31 years): beyond it a deadline cannot be computed.
MAX_SECONDS = 1e9


def checked_seconds(value: float | None, what: str = "--time-limit") -> float | None:
    """``value`` if it is a time limit a clock can reach (positive, finite, below
    :data:`MAX_SECONDS`; ``None`` means none), else :class:`InputError` naming ``what``.

    >>> checked_seconds(2.5)
    2.5
    >>> checked_seconds(float("nan"), "time_limit")
    Traceback (most recent call last):
    pyasp_games.errors.InputError: time_limit must be positive and finite (seconds, below 1e+09), got nan
    """
    if value is not None and not (0 < value < MAX_SECONDS):  # nan and inf included
        from pyasp_games.errors import InputError

        raise InputError(
            f"{what} must be positive and finite (seconds, below {MAX_SECONDS:g}), got {value}"
        )
    return value


#: The largest memory limit in megabytes (a petabyte): its bytes still fit the C long
#: of the process's address-space limit.
MAX_MEGABYTES = 2**30


def checked_megabytes(value: float | None, what: str = "--memory-limit") -> float | None:
    """``value`` if it is a memory limit (megabytes, positive, at most
    :data:`MAX_MEGABYTES`; ``None`` means the default), else :class:`InputError`.

    >>> checked_megabytes(1e30)
    Traceback (most recent call last):
    pyasp_games.errors.InputError: --memory-limit must be a positive number of megabytes up to 1073741824, got 1e+30
    """
    if value is not None and not (0 < value <= MAX_MEGABYTES):  # nan and inf included
        from pyasp_games.errors import InputError

        raise InputError(
            f"{what} must be a positive number of megabytes up to {MAX_MEGABYTES}, got {value}"
        )
    return value
