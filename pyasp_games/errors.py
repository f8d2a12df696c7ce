"""The one exception type for bad user input (the CLI prints it as one line, exit 2),
and the one way to read a user's file so that every reader fails the same way.

>>> read_text("/no/such/file")
Traceback (most recent call last):
    ...
pyasp_games.errors.InputError: /no/such/file: no such file
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


class InputError(ValueError):
    """The user's input (a file, an option, a combination of options) is invalid."""


class MalformedAnswer(Exception):
    """A solver's answer does not have the documented shape (e.g. a user encoding shows
    ``chosen(a)`` where a subset index is expected): the answer fails verification."""


def read_text(path: Path | str) -> str:
    """The text of a user's file; a missing, unreadable or non-text file raises
    :class:`InputError` naming the file and the reason."""
    path = Path(path)
    if _named_pipe(path):
        raise InputError(f"{path}: is a named pipe, not a file (reading it waits for a writer)")
    try:
        return path.read_text()
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
