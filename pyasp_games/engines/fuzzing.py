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
  fails, shrinks it (fewer vertices, arcs, subsets, moves) while it still fails;
- optionally **relabellings** (``relabel``): the same instance under other names
  (the canonical smallest labels first, then orders a program may depend on: parity,
  reversal), tried in the small scope and while shrinking, since the small scope is
  taken up to renaming and a program may depend on the numbers;
- optionally **parts** (``parts``): the instance with one part deleted, for every part
  (a subset, an arc, a vertex): after hypothesis, the shrinker tries every deletion;
- what an encoding must **answer** to be tested on it (``answers``, e.g.
  ``{"variant": "edge"}``): an encoding's header line ``% variant: edge`` selects the
  families it answers, and a family it does not answer is refused
  (:meth:`Fuzzing.families_for`).

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
>>> odd = Family("odd", "odd integers", strategy=lambda size: None, small=lambda: iter([1]),
...              small_help="1", answers={"parity": "odd"})
>>> spec = Fuzzing(("solve",), (fam, odd), size=abs, unit="units", write=str,
...                defaults={"parity": "even"})
>>> [f.name for f in spec.families_for(None, {"parity": "odd"})]  # ints fits any
['ints', 'odd']
>>> spec.families_for("odd", {})
Traceback (most recent call last):
...
pyasp_games.errors.InputError: the encoding answers parity even (no '% parity:' line says otherwise), family odd is parity odd
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
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
        answers: what an encoding must answer to be fuzzed on this family (header key ->
            value, e.g. ``{"variant": "edge"}``); families with none fit every encoding.
        relabel: ``relabel(instance)`` -> the instance under other labels, the
            canonical smallest labels first (``None``: labels cannot matter).
        parts: ``parts(instance)`` -> the instance with one part deleted, once for each
            part (``None``: hypothesis' shrinking only).
    """

    name: str
    help: str
    strategy: Callable[[int], Any]
    small: Callable[[], Iterable[Any]]
    small_help: str
    sizes: tuple[int, int] = (2, 6)
    unit: str = "vertices"
    answers: Mapping[str, str] = field(default_factory=dict)
    relabel: Callable[[Any], Iterable[Any]] | None = None
    parts: Callable[[Any], Iterable[Any]] | None = None


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
        defaults: what an encoding answers when its header says nothing (e.g.
            ``{"variant": "vertex"}``); a key without a default means every value.
        witness: ``witness(instance, outcome)`` -> the atoms of the encoding's output
            predicates (clingo text, truth value) that the reference's verified answer
            fixes: the assumptions under which a missed solution is blamed on rules
            (:mod:`pyasp_games.tools.fuzz.blame`); ``None``: no blame.
        open_outputs: the output predicates (``name/arity``) of which ``witness`` names
            some atoms only (a winning move among the first moves, the root of a game
            tree): their other atoms are left free when the rule to blame is diagnosed,
            where every other output predicate the witness names is closed (its atoms
            not named are false).
        answer_set: ``answer_set(instance, outcome)`` -> the shown atoms of an
            encoding's answer (clingo text), to point at the smallest part of a wrong
            answer that the checker rejects; ``None``: the checker's message only.
        arguments: ``arguments(instance, file)`` -> the words of the question's command
            line that give the instance written in ``file`` (routing: the graph's spec,
            then the file); ``None``: the file alone.
        horizon: ``horizon(instance, outcome)`` -> the length of the reference's plan,
            where ``witness`` says a plan of a multi-shot encoding (``#program
            step(t)``): the horizon at which its unrolled program is diagnosed
            (:mod:`pyasp_games.tools.fuzz.unroll`); ``None``: not a plan.
        fixpoint: ``fixpoint(instance)`` -> ``(bundled, predicates)`` for a multi-shot
            least-fixpoint encoding (values computed round by round), whose reference
            answers the root alone: the intended answer is the bundled encoding's
            atoms of ``predicates`` at its last horizon, where its answer agrees with
            the reference's; ``None``: no such answer.
        auxiliary: with ``fixpoint``, the bundled encoding's other atoms at that horizon
            fix the intended interpretation of the tested encoding's predicates of the
            same name and arity (``diagnose(..., within=)``): the relaxed universe of a
            large program is past any session's seconds, and a fact the tested
            encoding left out is then said; its predicates of its own stay free.
    """

    questions: tuple[str, ...]
    families: tuple[Family, ...]
    size: Callable[[Any], int]
    unit: str
    write: Callable[[Any], str]
    measure: Callable[[Any], str] | None = None
    defaults: Mapping[str, str] = field(default_factory=dict)
    witness: Callable[[Any, Any], Iterable[tuple[str, bool]]] | None = None
    answer_set: Callable[[Any, Any], str] | None = None
    arguments: Callable[[Any, str], list[str]] | None = None
    horizon: Callable[[Any, Any], int] | None = None
    fixpoint: Callable[[Any], tuple[str, tuple[str, ...]]] | None = None
    auxiliary: bool = False
    open_outputs: tuple[str, ...] = ()

    def command_words(self, instance: Any, file: str) -> list[str]:
        """The words of a command line that give ``instance``, written in ``file``."""
        return [file] if self.arguments is None else self.arguments(instance, file)

    def family(self, name: str | None) -> Family:
        """The family called ``name`` (``None``: the first)."""
        if name is None:
            return self.families[0]
        for family in self.families:
            if family.name == name:
                return family
        names = ", ".join(f.name for f in self.families)
        raise InputError(f"unknown family {name!r} (choose from {names})")

    def keys(self) -> list[str]:
        """The header keys by which an encoding says what it answers."""
        return sorted({k for f in self.families for k in f.answers} | set(self.defaults))

    def families_for(self, name: str | None, says: Mapping[str, str]) -> list[Family]:
        """The families an encoding whose header ``says`` what it answers is fuzzed on:
        ``name``'s (refused, one line, when the encoding answers something else), else
        every family it answers (every variant, every ending: not the first alone)."""
        claims = {k: says.get(k, self.defaults.get(k)) for k in self.keys()}

        def fits(family: Family) -> str | None:
            for key, value in family.answers.items():
                if claims.get(key) is not None and claims[key] != value:
                    said = "" if key in says else f" (no '% {key}:' line says otherwise)"
                    return f"the encoding answers {key} {claims[key]}{said}, family " \
                        f"{family.name} is {key} {value}"
            return None

        if name is not None:
            family = self.family(name)
            if (why := fits(family)) is not None:
                raise InputError(why)
            return [family]
        chosen = [f for f in self.families if fits(f) is None]
        if not chosen:
            said = ", ".join(f"{k} {v}" for k, v in claims.items() if v is not None)
            raise InputError(f"no {self.unit} family answers what the encoding says ({said})")
        return chosen

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
