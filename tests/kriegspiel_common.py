"""What the Kriegspiel tests share: the 8 x 8 board, squares by name, and ``kriegspiel
play`` run as a process with its standard input (not a test module: pytest collects
``test_*.py`` only)."""

from __future__ import annotations

import subprocess
import sys

from pyasp_games.domains.kriegspiel.model import Board, parse_square

B8 = Board(8, 8)


def sq(name: str, board: Board = B8) -> int:
    """The square named ``name`` (``a1``) on ``board``."""
    return parse_square(board, name)


def play_process(*args: str, stdin: str | bytes) -> subprocess.CompletedProcess:
    """``pyasp-games kriegspiel play ARGS`` in a child process fed ``stdin`` (its output
    as text when ``stdin`` is text, as bytes otherwise)."""
    return subprocess.run(
        [sys.executable, "-P", "-m", "pyasp_games", "kriegspiel", "play", *args],
        input=stdin, capture_output=True, text=isinstance(stdin, str), timeout=120,
    )  # fmt: skip
