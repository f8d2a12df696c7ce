"""The registry of domains: their names, and each one's :class:`DomainSpec` by name.

Crosscheck, bench and the CLI find the domains here (and only here).

>>> "puzzle" in DOMAINS
True
>>> spec = domain_spec("puzzle")
>>> spec.name, {question.domain for question in spec.questions}
('puzzle', {'puzzle'})
"""

from __future__ import annotations

import dataclasses
import importlib

from pyasp_games.engines.domain import DomainSpec
from pyasp_games.errors import InputError

#: Domains by name; each is the package ``pyasp_games.<name>`` whose ``domain()``
#: returns its :class:`DomainSpec`.
DOMAINS = ("puzzle", "grundy", "cover", "geography", "routing", "zerosum", "kriegspiel")


def domain_spec(name: str) -> DomainSpec:
    """The :class:`DomainSpec` of a domain by name, under that name: the spec stamps it on
    the questions it lists (their ``domain``, where their bundled encodings are)."""
    if name not in DOMAINS:
        raise InputError(f"unknown domain {name!r} (choose from {', '.join(DOMAINS)})")
    spec = importlib.import_module(f"pyasp_games.{name}").domain()
    if spec.name not in ("", name):
        raise ValueError(f"pyasp_games.{name}.domain() names its domain {spec.name!r}")
    return dataclasses.replace(spec, name=name)
