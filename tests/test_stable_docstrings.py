"""Every stable name of docs/api.md ("What is stable") is documented numpy-style: a
docstring with a Parameters and (for a function) a Returns section, so the reference
cannot quietly shrink back to one line."""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import pytest

from pyasp_games.domains import DOMAINS

API = Path(__file__).resolve().parent.parent / "docs" / "api.md"

#: The loaders docs/api.md names, by where they are defined.
LOADERS = {
    "load_boards": ["pyasp_games.domains.puzzle.model"],
    "load_graph": ["pyasp_games.domains.grundy.model", "pyasp_games.domains.kayles.model"],
    "load_instance": [
        "pyasp_games.domains.cover.model",
        "pyasp_games.domains.geography.model",
        "pyasp_games.domains.annihilation.model",
        "pyasp_games.domains.catch.model",
    ],
    "load_game": ["pyasp_games.domains.cops.model", "pyasp_games.domains.zerosum.questions"],
    "load_graph_game": ["pyasp_games.domains.cops.model"],
    "load_metaposition": ["pyasp_games.domains.kriegspiel.model"],
    "load_position": ["pyasp_games.domains.hex.model"],
    "load_ssat": ["pyasp_games.domains.ssat.model"],
    "load_program": ["pyasp_games.domains.ip.model"],
    "load_pair": ["pyasp_games.domains.ip.model"],
}

#: Documented where another change owns the file; remove the entry when it is done.
PENDING: set[str] = set()

STABLE = [
    *(f"{package}.solve" for package in DOMAINS.values()),
    *(f"{module}.{name}" for name, modules in LOADERS.items() for module in modules),
    "pyasp_games.engines.limits.Limits",
    "pyasp_games.engines.limits.Limits.given",
    "pyasp_games.engines.agreement.relation",
    "pyasp_games.domains.domain_spec",
    "pyasp_games.domains.domain_package",
    "pyasp_games.tools.crosscheck.run.crosscheck",
    "pyasp_games.tools.fuzz.run.fuzz",
    *(f"pyasp_games.domains.zerosum.gambit.{n}" for n in
      ("parse_nfg", "format_nfg", "parse_efg", "format_efg", "sniff", "load_gambit")),
    *(f"pyasp_games.engines.graphs.{n}" for n in
      ("read_graph", "parse_arcs", "parse_networkx", "parse_coupling_map",
       "graph_from_networkx", "format_of")),
]  # fmt: skip


def _resolve(dotted: str):
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr)
        return obj
    raise ImportError(dotted)


def _section(doc: str, title: str) -> bool:
    return re.search(rf"^\s*{title}\n\s*-{{{len(title)}}}\s*$", doc, re.M) is not None


@pytest.mark.parametrize(
    "dotted",
    [
        pytest.param(n, marks=pytest.mark.xfail(strict=True, reason="documented by its owner"))
        if n in PENDING
        else n
        for n in STABLE
    ],
)
def test_stable_name_is_documented(dotted):
    obj = _resolve(dotted)
    doc = inspect.getdoc(obj) or ""
    assert doc.split("\n", 1)[0].strip(), f"{dotted}: no one-line summary"
    assert _section(doc, "Parameters"), f"{dotted}: no Parameters section"
    assert _section(doc, "Returns"), f"{dotted}: no Returns section"


def test_every_loader_docs_api_names_is_listed():
    named = set(re.findall(r"\b(load_[a-z_]+)\(", API.read_text()))
    named |= set(re.findall(r"`(load_[a-z_]+)`", API.read_text()))
    assert named <= set(LOADERS), f"add to LOADERS: {sorted(named - set(LOADERS))}"


def test_every_domain_solve_is_listed():
    registry = API.read_text().split("for every domain of the registry")[1].split(";")[0]
    assert set(re.findall(r"`(\w+)`", registry)) - {"pyasp_games"} >= set(DOMAINS)
