"""Shared helpers: running the CLI as a user would, and random boards."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

# random_walk_board lives in the package (the bench generator ``walk``); re-exported here
from pyasp_games.domains.puzzle.model import Board, random_walk_board  # noqa: F401
from pyasp_games.engines.resources import instance_dir


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str
    seconds: float

    def json(self) -> dict:
        lines = [line for line in self.stdout.splitlines() if line.strip()]
        assert len(lines) == 1, f"expected one JSON object, got {self.stdout!r}"
        return json.loads(lines[0])


@pytest.fixture(autouse=True, scope="session")
def private_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Pattern databases and other caches go to a temporary folder, never the user's."""
    folder = tmp_path_factory.mktemp("cache")
    previous = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(folder)
    yield folder
    if previous is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = previous


def run_cli(*args: str | Path, timeout: float = 120) -> Run:
    """Run ``pyasp-games ARGS`` in a child process (real exit codes and streams)."""
    start = time.monotonic()
    proc = subprocess.run(
        [
            sys.executable,
            "-P",
            "-m",
            "pyasp_games",
            *map(str, args),
        ],  # -P: the installed package, never the source tree
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )
    return Run(proc.returncode, proc.stdout, proc.stderr, time.monotonic() - start)


def assert_bad_input(run: Run, fragment: str) -> None:
    """Bad input: exit code 2 and exactly one line on stderr that names the problem."""
    assert run.code == 2, (run.code, run.stdout, run.stderr)
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert "Traceback" not in run.stderr and fragment in lines[0], lines[0]


def quick_options(board: Board, backend: str) -> dict:
    """Backend options that keep tests fast: 4x4 pattern databases from 4-tile patterns."""
    if backend == "pdb" and (board.rows, board.cols) == (4, 4):
        return {"partition": "4-4-4-3"}
    return {}


@pytest.fixture
def puzzles() -> Path:
    return instance_dir("puzzle")
