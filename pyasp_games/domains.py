"""The registry of domains: their names, and each one's :class:`DomainSpec` by name.

Crosscheck, bench and the CLI find the domains here (and only here).

>>> "puzzle" in DOMAINS
True
>>> domain_spec("puzzle").name
'puzzle'
"""

from __future__ import annotations

import importlib

from pyasp_games.engines.domain import DomainSpec
from pyasp_games.errors import InputError

#: Domains by name; each is the package ``pyasp_games.<name>`` whose ``domain()``
#: returns its :class:`DomainSpec`.
DOMAINS = ("puzzle", "grundy", "cover", "geography", "routing", "zerosum", "kriegspiel")


def domain_spec(name: str) -> DomainSpec:
    """The :class:`DomainSpec` of a domain by name."""
    if name not in DOMAINS:
        raise InputError(f"unknown domain {name!r} (choose from {', '.join(DOMAINS)})")
    return importlib.import_module(f"pyasp_games.{name}").domain()
