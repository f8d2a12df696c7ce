"""The registry of domains: their names, and each one's :class:`DomainSpec` by name.

Crosscheck, bench, fuzz and the CLI find the domains here (and only here): a new domain
is one package and one line in :data:`DOMAINS` (CONTRIBUTING.md, "A new domain").

>>> "puzzle" in DOMAINS
True
>>> spec = domain_spec("puzzle")
>>> spec.name, {question.domain for question in spec.questions}
('puzzle', {'puzzle'})

Every question has one command, ``GROUP NAME``: a domain's own, or one of the groups that
no domain lists (:data:`QUESTION_GROUPS`), and is found by it:

>>> find_command("games nim").name, command_of(find_command("hex solve"))
('nim', 'hex solve')
"""

from __future__ import annotations

import dataclasses
import importlib
from types import ModuleType
from typing import Any

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
    "machine": "pyasp_games.domains.machine",
    "ssat": "pyasp_games.domains.ssat",
    "ip": "pyasp_games.domains.ip",
}


#: The command groups of questions that no domain lists, by the module and the name of
#: the tuple that holds them: the classic games (grundy's) and the reductions (cover's).
QUESTION_GROUPS: dict[str, tuple[str, str]] = {
    "games": ("pyasp_games.domains.grundy.questions", "GAMES"),
    "reduce": ("pyasp_games.domains.cover.chain", "QUESTIONS"),
}


def questions_of(group: str) -> tuple[Any, ...]:
    """The questions of a command group: a domain's (its spec's), or a
    :data:`QUESTION_GROUPS` group's."""
    if group in QUESTION_GROUPS:
        module, name = QUESTION_GROUPS[group]
        return tuple(getattr(importlib.import_module(module), name))
    return tuple(domain_spec(group).questions)


def command_of(question: Any) -> str:
    """The command that asks ``question``, ``GROUP NAME`` (``hex solve``, ``games nim``)."""
    if question.domain:
        return f"{question.domain} {question.name}"
    for group in QUESTION_GROUPS:
        if any(q is question for q in questions_of(group)):
            return f"{group} {question.name}"
    raise ValueError(f"the question {question.name!r} is in no command group")


def find_command(command: str) -> Any:
    """The question a command asks (``"hex solve"``); an unknown one is an
    :class:`InputError` naming what there is."""
    from pyasp_games.engines.question import find_question

    group, _, name = command.strip().partition(" ")
    groups = [*DOMAINS, *QUESTION_GROUPS]
    if group not in groups:
        raise InputError(f"unknown command group {group!r} (choose from {', '.join(groups)})")
    return find_question(questions_of(group), name.strip())


def domain_package(name: str) -> ModuleType:
    """The package of a domain by name, imported.

    Parameters
    ----------
    name : str
        A key of :data:`DOMAINS` (``"puzzle"``, ``"hex"``, ...).

    Returns
    -------
    module
        The domain's package (its ``solve``, ``BACKENDS``, ``QUESTIONS``, ``domain()``).

    Raises
    ------
    InputError
        An unknown domain; the message lists the known ones.
    """
    if name not in DOMAINS:
        raise InputError(f"unknown domain {name!r} (choose from {', '.join(DOMAINS)})")
    return importlib.import_module(DOMAINS[name])


def domain_spec(name: str) -> DomainSpec:
    """The :class:`DomainSpec` of a domain by name: crosscheck's and bench's view of it.

    Parameters
    ----------
    name : str
        A key of :data:`DOMAINS`.

    Returns
    -------
    DomainSpec
        The package's ``domain()`` under that name; the spec stamps the name on the
        questions it lists (their ``domain``, where their bundled encodings are).

    Raises
    ------
    InputError
        An unknown domain.
    ValueError
        A package whose ``domain()`` names another domain (a bug of the package's).
    """
    spec = domain_package(name).domain()
    if spec.name not in ("", name):
        raise ValueError(f"{DOMAINS[name]}.domain() names its domain {spec.name!r}")
    return dataclasses.replace(spec, name=name)
