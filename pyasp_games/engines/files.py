"""Reading and writing a user's files, the same way in every domain.

- :func:`write_text` and :func:`writing`: the one writer of what a command outputs (``-o``,
  ``--emit-lp``, ``--emit-cnf``, ``--map``): a path that cannot be written is an
  :class:`~pyasp_games.errors.InputError` "cannot write PATH: reason" (exit 2), whoever
  writes it (the CLI, a backend in its child process).
- :func:`read_json` and :func:`parse_json`: the one JSON reader (invalid JSON, and the
  non-standard constants ``NaN``/``Infinity`` that Python's parser accepts, are one
  line naming the file).
- :func:`comment_header`: the one reader of ``# key: value`` header comments.
  (:func:`~pyasp_games.errors.read_text` reads a user's text file.)

>>> comment_header("# goal: blank-first")
('goal', 'blank-first')
>>> comment_header("1 2 3  # a comment: not a header") is None
True
>>> parse_json('{"payoff": NaN}', "tree.json")
Traceback (most recent call last):
pyasp_games.errors.InputError: tree.json: not valid JSON (NaN is not a number JSON allows)
>>> write_text("/proc/no/such/folder/x.lp", "")
Traceback (most recent call last):
pyasp_games.errors.InputError: cannot write /proc/no/such/folder/x.lp: No such file or directory
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from pyasp_games.errors import InputError, read_text


def cannot_write(path: Path | str, err: OSError) -> InputError:
    """The one-line error for a path that cannot be written."""
    return InputError(f"cannot write {path}: {err.strerror or err.__class__.__name__}")


@contextmanager
def writing(path: Path | str, new: bool = False) -> Iterator[IO[str]]:
    """``path`` open for writing text (a large file written piece by piece); a path that
    cannot be opened or written raises :func:`cannot_write`'s error. ``new``: only a file
    that does not exist yet (else :class:`FileExistsError`, for the caller to choose
    another name: :func:`write_new`)."""
    try:
        out = open(path, "x" if new else "w")  # noqa: SIM115 (closed below, errors told apart)
    except FileExistsError:  # only with new=True: the caller chooses another name
        raise
    except OSError as err:
        raise cannot_write(path, err) from None
    try:
        with out:
            yield out
    except OSError as err:  # a full disk, a file system gone read-only
        raise cannot_write(path, err) from None


def checked_suffix(path: Path, suffixes: tuple[str, ...], what: str = "file") -> Path:
    """``path`` if its name ends in one of ``suffixes`` (``.svg``; any case), else
    :class:`InputError`: a file is written in the format its name says, or not at all.

    >>> checked_suffix(Path("map.txt"), (".svg", ".png"), "picture")
    Traceback (most recent call last):
        ...
    pyasp_games.errors.InputError: map.txt: the picture must be .svg or .png
    """
    if path.suffix.lower() not in suffixes:
        raise InputError(f"{path}: the {what} must be {' or '.join(suffixes)}")
    return path


def write_text(path: Path | str, text: str) -> None:
    """Write ``text`` to ``path`` (see :func:`writing`)."""
    with writing(path) as out:
        out.write(text)


def write_new(folder: Path | str, stem: str, text: str, suffix: str = ".txt") -> Path:
    """Write ``text`` to ``folder/stem.txt``, or ``stem-2.txt``, ...: never over a file
    (the folder is made if missing); the path written.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> [write_new(folder, "found", "1 2").name for _ in range(2)]
    ['found.txt', 'found-2.txt']
    """
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise cannot_write(folder, err) from None
    for k in range(1, 10_000):
        path = folder / f"{stem}{'' if k == 1 else f'-{k}'}{suffix}"
        try:
            with writing(path, new=True) as out:
                out.write(text)
            return path
        except FileExistsError:
            continue
    raise InputError(f"{folder}: no free file name for {stem}{suffix}")


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e400: Python would read infinity
        raise ValueError(f"{text} is beyond floating point (write it as a string: \"{text}\")")
    return value


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) < len(pairs):  # Python would keep the last one silently
        seen: set[str] = set()
        twice = next(k for k, _ in pairs if k in seen or seen.add(k))  # type: ignore[func-returns-value]
        raise ValueError(f"the key {twice!r} appears twice in one object")
    return obj


def parse_json(text: str, name: str | None = None) -> Any:
    """The JSON value of ``text`` (from the file ``name``); invalid JSON raises
    :class:`InputError` naming ``name`` (if given), the reason and the line. Strict where
    Python's reader is lenient: no NaN or Infinity, no number beyond floating point, no
    key twice in one object; nesting too deep to read is refused in one line too.

    >>> parse_json('{"a": 1, "a": 2}', "x.json")
    Traceback (most recent call last):
        ...
    pyasp_games.errors.InputError: x.json: not valid JSON (the key 'a' appears twice in one object)
    >>> parse_json('[1e400]')
    Traceback (most recent call last):
        ...
    pyasp_games.errors.InputError: not valid JSON (1e400 is beyond floating point (write it as a string: "1e400"))
    """
    where = "" if name is None else f"{name}: "
    try:
        return json.loads(
            text, parse_constant=_no_constant, parse_float=_finite, object_pairs_hook=_unique_keys
        )
    except json.JSONDecodeError as err:
        raise InputError(f"{where}not valid JSON ({err.msg} at line {err.lineno})") from None
    except ValueError as err:
        raise InputError(f"{where}not valid JSON ({err})") from None
    except RecursionError:  # the reader recurses once per nested object or list
        raise InputError(f"{where}nested too deeply to read (about 900 levels at most)") from None


def read_json(path: Path | str) -> Any:
    """The JSON value of the file ``path`` (:func:`read_text`, :func:`parse_json`)."""
    return parse_json(read_text(path), str(path))


def comment_headers(text: str) -> dict[str, str]:
    """Every header line of ``text`` (:func:`comment_header`), the last one of a key winning.

    >>> comment_headers("# graph: grid:2x3\\n0 1\\n# moves: swap\\n")
    {'graph': 'grid:2x3', 'moves': 'swap'}
    """
    return dict(h for line in text.splitlines() if (h := comment_header(line)) is not None)


def comment_header(line: str) -> tuple[str, str] | None:
    """``(key, value)`` of a header line ``# key: value`` (the line holds nothing but the
    comment; the key is one word, lower-cased), else ``None``."""
    body, hash_, comment = line.partition("#")
    if not hash_ or body.strip():
        return None
    key, colon, value = comment.partition(":")
    key = key.strip()
    if not colon or not key or " " in key:
        return None
    return key.lower(), value.strip()
