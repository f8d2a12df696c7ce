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
from dataclasses import dataclass, field, replace


class LimitReached(Exception):
    """Raised inside a backend when its deadline passes; turned into ``unknown``."""


@dataclass(frozen=True)
class Limits:
    """What a backend may spend.

    Attributes:
        time_limit: wall-clock seconds for the whole call (``None``: no limit).
        max_length: for planning problems, the largest horizon to try; beyond it
            the backend answers ``no-solution`` "within max_length".
        memory_limit: bytes the solving process may hold (``None``: the default,
            :func:`default_memory_limit`); beyond it the backend answers ``unknown``
            with ``limit = "memory"``.
    """

    time_limit: float | None = None
    max_length: int | None = None
    memory_limit: int | None = None
    #: The running clock of started limits (:meth:`started`); ``None``: not started.
    clock: Deadline | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.time_limit is not None and not self.time_limit > 0:
            raise ValueError("time limit must be positive")
        if self.max_length is not None and self.max_length < 0:
            raise ValueError("max length must be non-negative")
        if self.memory_limit is not None and self.memory_limit <= 0:
            raise ValueError("memory limit must be positive")

    @classmethod
    def given(
        cls,
        time_limit: float | None = None,
        max_length: int | None = None,
        memory_megabytes: float | None = None,
    ) -> Limits:
        """The limits a user gave (``--time-limit`` seconds, ``--max-length``,
        ``--memory-limit`` megabytes), each value checked: a bad one is an
        :class:`~pyasp_games.errors.InputError` naming its option. Nothing else happens:
        :func:`~pyasp_games.engines.enforcement.arm` enforces limits on the process.

        >>> Limits.given(2.5, memory_megabytes=512).memory_limit
        536870912
        >>> Limits.given(max_length=-1)
        Traceback (most recent call last):
        pyasp_games.errors.InputError: --max-length must be non-negative, got -1
        """
        checked_seconds(time_limit)
        if max_length is not None and max_length < 0:
            from pyasp_games.errors import InputError

            raise InputError(f"--max-length must be non-negative, got {max_length}")
        checked_megabytes(memory_megabytes)
        memory = None if memory_megabytes is None else int(memory_megabytes * 2**20)
        return cls(time_limit=time_limit, max_length=max_length, memory_limit=memory)

    def started(self) -> Limits:
        """These limits with their clock running from now, or ``self`` if it already runs.

        What a backend receives; a stage that hands its limits on to another stage
        passes them started, so both poll the same clock.
        """
        return self if self.clock is not None else replace(self, clock=Deadline(self.time_limit))

    def deadline(self) -> Deadline:
        """The clock to poll: the running one of started limits, else one from now."""
        return self.clock if self.clock is not None else Deadline(self.time_limit)


class Deadline:
    """A point in (monotonic) time after which work must stop."""

    def __init__(self, seconds: float | None) -> None:
        self.start = time.monotonic()
        self.at = None if seconds is None else self.start + seconds

    def remaining(self) -> float | None:
        """Seconds left (never negative), or ``None`` without a limit."""
        if self.at is None:
            return None
        return max(0.0, self.at - time.monotonic())

    def expired(self) -> bool:
        return self.at is not None and time.monotonic() >= self.at

    def check(self) -> None:
        """Raise :class:`LimitReached` once the deadline has passed."""
        if self.expired():
            raise LimitReached


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
