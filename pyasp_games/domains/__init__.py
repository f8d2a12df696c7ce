"""The registry of domains: their names, and each one's :class:`DomainSpec` by name.

Crosscheck, bench, fuzz and the CLI find the domains here (and only here): a new domain
is one package and one line in :data:`DOMAINS` (CONTRIBUTING.md, "A new domain").

>>> "puzzle" in DOMAINS
True
>>> spec = domain_spec("puzzle")
>>> spec.name, {question.domain for question in spec.questions}
('puzzle', {'puzzle'})
"""

from __future__ import annotations

import dataclasses
import importlib
from types import ModuleType

from pyasp_games.engines.domain import DomainSpec
from pyasp_games.errors import InputError

#: Domains by name: the package of each, whose ``domain()`` returns its
#: :class:`DomainSpec`. The order is the command line's.
DOMAINS: dict[str, str] = {
    "puzzle": "pyasp_games.domains.puzzle",
    "grundy": "pyasp_games.domains.grundy",
    "cover": "pyasp_games.domains.cover",
    "geography": "pyasp_games.domains.geography",
    "routing": "pyasp_games.domains.routing",
    "zerosum": "pyasp_games.domains.zerosum",
    "kriegspiel": "pyasp_games.domains.kriegspiel",
    "kayles": "pyasp_games.domains.kayles",
    "annihilation": "pyasp_games.domains.annihilation",
    "catch": "pyasp_games.domains.catch",
    "cops": "pyasp_games.domains.cops",
    "hex": "pyasp_games.domains.hex",
}


def domain_package(name: str) -> ModuleType:
    """The package of a domain by name (imported)."""
    if name not in DOMAINS:
        raise InputError(f"unknown domain {name!r} (choose from {', '.join(DOMAINS)})")
    return importlib.import_module(DOMAINS[name])


def domain_spec(name: str) -> DomainSpec:
    """The :class:`DomainSpec` of a domain by name, under that name: the spec stamps it on
    the questions it lists (their ``domain``, where their bundled encodings are)."""
    spec = domain_package(name).domain()
    if spec.name not in ("", name):
        raise ValueError(f"{DOMAINS[name]}.domain() names its domain {spec.name!r}")
    return dataclasses.replace(spec, name=name)
