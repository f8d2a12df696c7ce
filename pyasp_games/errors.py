"""The one exception type for bad user input (the CLI prints it as one line, exit 2),
the one way to read a user's file so that every reader fails the same way, and the
checks of a number the user gave (a generator's size, a count) before any work.

>>> read_text("/no/such/file")
Traceback (most recent call last):
    ...
pyasp_games.errors.InputError: /no/such/file: no such file
>>> checked_int(10**30, "q", 1, 1_000_000)
Traceback (most recent call last):
    ...
pyasp_games.errors.InputError: q must be an integer from 1 to 1,000,000 (this tool's limit), got 1000000000000000000000000000000
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Any


class InputError(ValueError):
    """The user's input (a file, an option, a combination of options) is invalid."""


class Unconfirmed(Exception):
    """Raised by a checker that could not decide a claim within its own limit (a
    brute-force budget, a size it does not search, a certificate it could not build):
    the claim stands unconfirmed -- printed as NOT VERIFIED with the reason, exit code 3
    like every reached limit -- neither verified nor failed."""


class MalformedAnswer(Exception):
    """A solver's answer does not have the documented shape (e.g. a user encoding shows
    ``chosen(a)`` where a subset index is expected): the answer fails verification."""


def ascii_int(token: str) -> int:
    """``int(token)`` for ASCII digits only (sign and surrounding space allowed), else
    ``ValueError`` as ``int`` raises it: Python's ``int`` reads any Unicode digit
    ('１' full-width, '٢' Arabic-Indic) and digits grouped by underscores ('1_0' is 10),
    which no input format of this tool means.

    >>> ascii_int(" -12 ")
    -12
    >>> ascii_int("１")
    Traceback (most recent call last):
    ValueError: not an ASCII integer: '１'
    >>> ascii_int("1_0")
    Traceback (most recent call last):
    ValueError: not an ASCII integer: '1_0'
    """
    if not _ASCII_INT.fullmatch(token):
        raise ValueError(f"not an ASCII integer: {token!r}")
    return int(token)


_ASCII_INT = re.compile(r"\s*[+-]?[0-9]+\s*", re.ASCII)


def parsed_int(token: str, what: str, low: int = 0, high: int | None = None) -> int:
    """The integer a user wrote as ``token`` (ASCII digits: :func:`ascii_int`), from
    ``low`` to ``high`` (:func:`checked_int`); anything else, a word or a fraction
    included, is :class:`InputError` naming ``what``.

    >>> parsed_int("1.5", "the grid family's M", 1, 1_000)
    Traceback (most recent call last):
        ...
    pyasp_games.errors.InputError: the grid family's M must be an integer from 1 to 1,000 (this tool's limit), got '1.5'
    """
    try:
        value = ascii_int(token)
    except ValueError:
        bounds = f"of at least {low:,}" if high is None else f"from {low:,} to {high:,} (this tool's limit)"
        raise InputError(f"{what} must be an integer {bounds}, got {token!r}") from None
    return checked_int(value, what, low, high)


def checked_int(value: Any, what: str, low: int = 0, high: int | None = None) -> int:
    """``value`` if it is an integer from ``low`` to ``high`` (``None``: no upper bound),
    else :class:`InputError` naming ``what`` (and ``high``, the tool's limit)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{what} must be an integer, got {value!r}")
    if value < low or (high is not None and value > high):
        bounds = f"of at least {low:,}" if high is None else f"from {low:,} to {high:,} (this tool's limit)"
        raise InputError(f"{what} must be an integer {bounds}, got {value}")
    return value


def checked_real(value: Any, what: str, low: float, high: float) -> float:
    """``value`` if it is a finite number from ``low`` to ``high``, else :class:`InputError`.

    >>> checked_real(float("nan"), "sinks", 0, 1)
    Traceback (most recent call last):
        ...
    pyasp_games.errors.InputError: sinks must be a number from 0 to 1, got nan
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InputError(f"{what} must be a number, got {value!r}")
    if not low <= value <= high:  # nan included
        raise InputError(f"{what} must be a number from {low:g} to {high:g}, got {value}")
    return float(value)


#: The most characters a user's text file may hold (a device such as /dev/zero never ends).
MAX_TEXT = 2**28
#: Characters read at a time (see :func:`read_text`).
READ_CHUNK = 2**20


def read_text(path: Path | str) -> str:
    """The text of a user's file; a missing, unreadable or non-text file raises
    :class:`InputError` naming the file and the reason."""
    path = Path(path)
    if _named_pipe(path):
        raise InputError(f"{path}: is a named pipe, not a file (reading it waits for a writer)")
    try:
        with open(path) as handle:  # at most MAX_TEXT characters: /dev/zero never ends
            chunks, size = [], 0
            # piece by piece: read(MAX_TEXT + 1) sets aside that much memory first, which
            # a --memory-limit below 300 MB refuses before a small board is read
            while chunk := handle.read(READ_CHUNK):
                chunks.append(chunk)
                size += len(chunk)
                if size > MAX_TEXT:
                    raise InputError(
                        f"{path}: more than {MAX_TEXT:,} characters (this tool's limit for a text input)"
                    )
        return "".join(chunks)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, not a file") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: cannot read it (not a text file)") from None
    except OSError as err:
        raise InputError(f"{path}: cannot read it ({err.strerror or err.__class__.__name__})") from None


def _named_pipe(path: Path) -> bool:
    """A FIFO on disk: opening it blocks until some process writes, maybe forever.

    A pipe this process already holds (``/dev/stdin`` fed by ``|``, bash's ``<(...)``
    as ``/dev/fd/N``) has its writer and is read as usual.
    """
    try:
        if not stat.S_ISFIFO(os.stat(path).st_mode):
            return False
        real = os.path.realpath(path)
    except OSError:
        return False
    return not real.startswith(("/proc/", "/dev/fd/")) and not real.startswith("pipe:")
