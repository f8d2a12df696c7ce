"""Resource limits as an explicit contract.

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
"""

from __future__ import annotations

import time
from dataclasses import dataclass


class LimitReached(Exception):
    """Raised inside a backend when its deadline passes; turned into ``unknown``."""


@dataclass(frozen=True)
class Limits:
    """What a backend may spend.

    Attributes:
        time_limit: wall-clock seconds for the whole call (``None``: no limit).
        max_length: for planning problems, the largest horizon to try; beyond it
            the backend answers ``no-solution`` "within max_length".
    """

    time_limit: float | None = None
    max_length: int | None = None

    def __post_init__(self) -> None:
        if self.time_limit is not None and self.time_limit <= 0:
            raise ValueError("time limit must be positive")
        if self.max_length is not None and self.max_length < 0:
            raise ValueError("max length must be non-negative")

    def deadline(self) -> Deadline:
        return Deadline(self.time_limit)


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

    def elapsed(self) -> float:
        return time.monotonic() - self.start
