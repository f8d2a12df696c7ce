"""Every module's docstring example runs (the examples are part of the documentation)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import pyasp_games

MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages(pyasp_games.__path__, "pyasp_games.")
    if not m.name.endswith("__main__")
)


@pytest.mark.parametrize("name", MODULES)
def test_module_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_core_modules_have_examples():
    with_examples = {
        n
        for n in MODULES
        if doctest.DocTestFinder().find(importlib.import_module(n))
        and any(t.examples for t in doctest.DocTestFinder().find(importlib.import_module(n)))
    }
    for name in (
        "engines.clingo_runner",
        "engines.sat_runner",
        "domains.puzzle.model",
        "domains.puzzle.native",
        "domains.puzzle.asp",
        "domains.puzzle.sat",
        "domains.puzzle.verify",
        "tools.crosscheck.run",
        "tools.crosscheck.report",
        "tools.fuzz.run",
        "tools.fuzz.report",
        "engines.verdict",
        "engines.agreement",
    ):
        assert f"pyasp_games.{name}" in with_examples
