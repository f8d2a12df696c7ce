"""Bundled data is found wherever the package is installed (CI installs the wheel)."""

from __future__ import annotations

import os
from pathlib import Path

import pyasp_games
from pyasp_games.engines.resources import bundled_encodings, encoding_path, instance_dir
from pyasp_games.puzzle.model import load_boards


def test_encodings_and_instances_are_installed():
    assert {"seed", "sliding"} <= set(bundled_encodings("puzzle"))
    for name in ("seed", "sliding"):
        text = encoding_path("puzzle", name).read_text()
        assert text.startswith("%") and "#show move/2." in text
    folder = instance_dir("puzzle")
    assert (folder / "index.toml").is_file() and (folder / "README.md").is_file()
    assert (folder / "korf100.txt").is_file() and (
        Path(encoding_path("puzzle", "sliding")).parent / "README.md"
    ).is_file()


def test_every_bundled_instance_file_parses():
    files = sorted(instance_dir("puzzle").glob("*.txt"))
    assert len(files) >= 6
    for path in files:
        assert load_boards(path)


def test_ci_tests_the_installed_wheel_not_the_source_tree():
    # .ci/run installs the package non-editable; a missing data file must fail there.
    if os.environ.get("PYASP_GAMES_CI_WHEEL"):
        assert "site-packages" in pyasp_games.__file__
