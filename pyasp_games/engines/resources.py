"""Locating bundled encodings and instances (works for wheel and editable installs).

>>> encoding_path("puzzle", "sliding").name
'sliding.lp'
>>> sorted(p.name for p in instance_dir("puzzle").glob("thesis-*.txt"))[:1]
['thesis-board1.txt']
"""

from __future__ import annotations

from importlib.resources import as_file, files
from pathlib import Path


def _package_dir(package: str) -> Path:
    # Both packages are plain directories on disk (never zipped), so the context
    # manager returns the real path and leaving it early is safe.
    with as_file(files(package)) as path:
        return Path(path)


def encoding_dir(domain: str) -> Path:
    """The folder of ``domain``'s bundled ``.lp`` files."""
    return _package_dir("pyasp_games.encodings") / domain


def instance_dir(domain: str) -> Path:
    """The folder of ``domain``'s bundled instances."""
    return _package_dir("pyasp_games.instances") / domain


def bundled_encodings(domain: str) -> list[str]:
    """Names (without ``.lp``) of the encodings bundled for ``domain``."""
    return sorted(p.stem for p in encoding_dir(domain).glob("*.lp"))


def encoding_path(domain: str, name: str) -> Path:
    """Resolve an encoding given by bundled name (``sliding``) or by file path.

    Raises:
        FileNotFoundError: with a message naming the bundled choices.
    """
    candidate = encoding_dir(domain) / f"{name}.lp"
    if candidate.is_file():
        return candidate
    path = Path(name)
    if path.is_file():
        return path
    raise FileNotFoundError(
        f"unknown encoding {name!r}: not a file, and not one of the bundled "
        f"{domain} encodings ({', '.join(bundled_encodings(domain))})"
    )
