"""Checkpoint files: a long ``pdb`` search stops (a time limit, an interrupt, a killed
process) and a later run goes on exactly where it stopped.

A checkpoint file is JSON: a format line and, per search (its board, goal, partition,
lookups and pruning, :func:`search_key`), the state of
:meth:`~pyasp_games.domains.puzzle.pattern_search.PatternSearch.checkpoint` (the
threshold, the path and the next direction at each depth, the nodes so far), or the
plan once it was found. One file serves a whole set of boards (a campaign of ten
24-puzzle instances run over several sittings): each search reads and replaces only its
own entry, under a lock on the file's folder, and every write goes to a temporary file
renamed over the old one, so a killed process leaves the previous state whole.

Nothing the user gave is overwritten without being asked: naming a file that does not
exist asks for a new checkpoint file; naming one that exists asks to resume from it and
to update it, **if it is a checkpoint file**. Any other existing file (a board file
given by mistake, a results table) is refused with one line and left untouched.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "runs.json"
>>> store = CheckpointFile(path)
>>> store.get("a"), store.put("a", {"nodes": 3}), CheckpointFile(path).get("a")
(None, None, {'nodes': 3})
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pyasp_games.errors import InputError

#: The first key of every checkpoint file (a file without it is not one of ours).
FORMAT = "pyasp-games puzzle checkpoints 1"


def search_key(board_tiles: Sequence[int], rows: int, cols: int, goal: str, partition: Sequence[Sequence[int]],
               lookups: str, pruning: int) -> str:  # fmt: skip
    """The entry of one search: everything that decides the nodes it expands."""
    groups = "/".join(" ".join(map(str, g)) for g in partition)
    return f"{rows}x{cols} {goal} [{' '.join(map(str, board_tiles))}] {groups} {lookups} pruning {pruning}"


class CheckpointFile:
    """The checkpoint file at ``path`` (module docstring). Raises :class:`InputError` at
    once when ``path`` exists and is not a checkpoint file, or its folder is missing."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        if not self.path.parent.is_dir():
            raise InputError(f"checkpoint {self.path}: no folder {self.path.parent}")
        if self.path.exists():
            self._read()

    def _read(self) -> dict[str, Any]:
        try:
            text = self.path.read_text(encoding="utf-8")
            data = json.loads(text)
        except (OSError, UnicodeDecodeError, ValueError):
            data = None
        if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("searches"), dict):
            raise InputError(f"checkpoint {self.path}: exists and is not a checkpoint file (not overwritten)")
        return data

    @contextmanager
    def _locked(self) -> Iterator[None]:
        folder = os.open(self.path.parent, os.O_RDONLY)
        try:
            fcntl.flock(folder, fcntl.LOCK_EX)
            yield
        finally:
            os.close(folder)  # releases the lock

    def get(self, key: str) -> dict[str, Any] | None:
        """The saved state of search ``key``, if any."""
        if not self.path.exists():
            return None
        with self._locked():
            return self._read()["searches"].get(key)

    def put(self, key: str, state: dict[str, Any]) -> None:
        """Save ``state`` as search ``key``'s entry (the other entries kept)."""
        with self._locked():
            data = self._read() if self.path.exists() else {"format": FORMAT, "searches": {}}
            data["searches"][key] = state
            part = self.path.with_name(f".{self.path.name}.{os.getpid()}.part")
            part.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
            os.replace(part, self.path)
