"""Locating bundled encodings and instances, from the code's own tree.

The repository keeps them in two top-level folders of data, ``encodings/<domain>/``
and ``instances/<domain>/`` (not Python packages). A wheel carries them inside the
package, as ``pyasp_games/encodings/`` and ``pyasp_games/instances/``; a checkout
(run as it is, or installed editable) has them beside the package. Both are found
from the location of this very module, never from the current directory or
``sys.path``: the data always belongs to the code that runs.

>>> encoding_path("puzzle", "sliding").name
'sliding.lp'
>>> sorted(p.name for p in instance_dir("puzzle").glob("thesis-*.txt"))[:1]
['thesis-board1.txt']
>>> (data_root("encodings") / "puzzle" / "sliding.lp").is_file()
True
"""

from __future__ import annotations

from pathlib import Path

#: The role (and the option's name) of the encoding a question's ASP backend runs: a
#: bundled name or the user's own ``.lp`` file
#: (:func:`~pyasp_games.engines.question.encoding_param`, :func:`user_encoding`).
ENCODING = "encoding"

#: The package's own folder (``.../pyasp_games``), installed or in a checkout.
PACKAGE_DIR = Path(__file__).resolve().parent.parent


def data_root(kind: str) -> Path:
    """The folder holding every domain's ``kind`` (``encodings`` or ``instances``).

    Inside the package for a wheel install; else the checkout's top-level folder
    next to the package (an editable install, or the source tree run directly).
    """
    inside = PACKAGE_DIR / kind
    if inside.is_dir():
        return inside
    beside = PACKAGE_DIR.parent / kind
    if beside.is_dir():
        return beside
    raise FileNotFoundError(
        f"the bundled {kind} are missing: neither {inside} nor {beside} exists "
        "(a broken installation: reinstall pyasp-games)"
    )


def encoding_dir(domain: str) -> Path:
    """The folder of ``domain``'s bundled ``.lp`` files."""
    return data_root("encodings") / domain


def instance_dir(domain: str) -> Path:
    """The folder of ``domain``'s bundled instances."""
    return data_root("instances") / domain


def bundled_encodings(domain: str) -> list[str]:
    """Names (without ``.lp``) of the encodings bundled for ``domain``."""
    return sorted(p.stem for p in encoding_dir(domain).glob("*.lp"))


def user_encoding(domain: str, encoding: object) -> str | None:
    """``encoding`` as the user's own program (a file, not one of the domain's bundled
    names), or ``None``: none given, or a bundled one. The one test of "is this the
    user's encoding?": the reference cross-check, ``--trust-encoding`` and bench ask it.

    >>> user_encoding("puzzle", "sliding"), user_encoding("puzzle", "mine.lp")
    (None, 'mine.lp')
    """
    if encoding is None or str(encoding) in bundled_encodings(domain):
        return None
    return str(encoding)


def encoding_path(domain: str, name: str) -> Path:
    """Resolve an encoding given by bundled name (``sliding``) or by file path: the one
    resolver of every domain's ``--encoding``.

    Raises:
        InputError: no such bundled encoding nor file (the message names the bundled
            choices), or the file cannot be read as text.
    """
    candidate = encoding_dir(domain) / f"{name}.lp"
    if candidate.is_file():
        return candidate
    from pyasp_games.errors import InputError, read_text

    path = Path(name)
    if path.is_file():
        read_text(path)  # a binary file makes clingo abort the process: refuse it here
        return path
    raise InputError(
        f"unknown encoding {name!r}: not a file, and not one of the bundled "
        f"{domain} encodings ({', '.join(bundled_encodings(domain))})"
    )
