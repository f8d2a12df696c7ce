"""What a domain declares to be fuzzed: its instance families, their small scope, sizes
and files (``pyasp-games fuzz``, :mod:`pyasp_games.tools.fuzz`).

A domain's ``domain()`` gives its :class:`~pyasp_games.engines.domain.DomainSpec` a
:class:`Fuzzing`: which questions can be fuzzed, and one :class:`Family` or more of
instances. A family has

- a **small scope**: every instance up to a tiny size, smallest first (each digraph on
  three vertices, each 2 x 2 board), tried before any random one: many faults show on
  small inputs, and small counterexamples are the ones a user can read;
- a **strategy**: ``strategy(size)`` is a hypothesis strategy of instances of at most
  ``size`` (vertices, subsets, scramble moves); hypothesis draws them and, when one
  fails, shrinks it (fewer vertices, arcs, subsets, moves) while it still fails.

The runner knows nothing of any domain beyond this declaration: the domain writes a
failing instance as its own instance file (``write``) and measures it (``size``).
hypothesis is imported by the strategies only when they are called.

>>> fam = Family("ints", "small integers", strategy=lambda size: None,
...              small=lambda: iter([0, 1]), small_help="0 and 1")
>>> spec = Fuzzing(("solve",), (fam,), size=abs, unit="units", write=str)
>>> spec.family(None).name, spec.family("ints").small_help
('ints', '0 and 1')
>>> spec.family("floats")
Traceback (most recent call last):
...
pyasp_games.errors.InputError: unknown family 'floats' (choose from ints)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from pyasp_games.errors import InputError


@dataclass(frozen=True)
class Family:
    """One family of instances to fuzz on.

    Attributes:
        name: how ``--family`` names it.
        help: what its instances are, in words.
        strategy: ``strategy(size) -> hypothesis strategy`` of instances of at most
            ``size`` (the domain's unit); deterministic in hypothesis' choices, so that
            hypothesis can replay and shrink what it drew.
        small: every instance up to a tiny size, smallest first (the small scope).
        small_help: the small scope in words ("every digraph on at most 3 vertices").
        sizes: the random phase's sizes: from the first, growing to the second (the
            default ``--max-size``), in ``unit``.
        unit: what ``strategy``'s size counts (``--max-size``), e.g. "vertices".
    """

    name: str
    help: str
    strategy: Callable[[int], Any]
    small: Callable[[], Iterable[Any]]
    small_help: str
    sizes: tuple[int, int] = (2, 6)
    unit: str = "vertices"


@dataclass(frozen=True)
class Fuzzing:
    """A domain's declaration for ``pyasp-games fuzz``.

    Attributes:
        questions: the questions that can be fuzzed (the first is the default); each
            has a reference backend and answers instances of every family.
        families: the instance families (the first is the default).
        size: an instance's size, in ``unit`` (what the shrinking reduces).
        unit: the unit of ``size`` ("vertices", "subsets", "cells").
        write: the instance as the text of an instance file the domain's commands
            read (with any header its question needs, e.g. a start vertex).
        measure: the instance's shape in words, for the report (default: its size).
    """

    questions: tuple[str, ...]
    families: tuple[Family, ...]
    size: Callable[[Any], int]
    unit: str
    write: Callable[[Any], str]
    measure: Callable[[Any], str] | None = None

    def family(self, name: str | None) -> Family:
        """The family called ``name`` (``None``: the first)."""
        if name is None:
            return self.families[0]
        for family in self.families:
            if family.name == name:
                return family
        names = ", ".join(f.name for f in self.families)
        raise InputError(f"unknown family {name!r} (choose from {names})")

    def describe(self, instance: Any) -> str:
        """The instance's shape in words."""
        if self.measure is not None:
            return self.measure(instance)
        return f"{self.size(instance)} {self.unit}"


def plural(count: int, word: str, many: str | None = None) -> str:
    """``count`` and ``word``, plural (``many``, else ``word + "s"``) unless one.

    >>> plural(1, "move"), plural(3, "vertex", "vertices")
    ('1 move', '3 vertices')
    """
    return f"{count} {word if count == 1 else many or word + 's'}"


__all__ = ["Family", "Fuzzing", "plural"]
