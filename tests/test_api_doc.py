"""The Python API page (docs/api.md): every example runs, from the repository root."""

from __future__ import annotations

import doctest
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_api_page_examples_run():
    cwd = os.getcwd()
    os.chdir(ROOT)  # the page's paths are the repository's
    try:
        result = doctest.testfile(str(ROOT / "docs" / "api.md"), module_relative=False,
                                  optionflags=doctest.ELLIPSIS)  # fmt: skip
    finally:
        os.chdir(cwd)
    assert result.attempted >= 30 and result.failed == 0


def test_every_domain_has_its_runnable_section():
    """A new domain appears on the API page: an example that imports it and solves."""
    from pyasp_games.domains import DOMAINS

    page = (ROOT / "docs" / "api.md").read_text()
    for name in DOMAINS:
        assert f">>> from pyasp_games.domains import {name}\n" in page, name
        assert f"{name}.solve(" in page, name
