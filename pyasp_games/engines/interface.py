"""The interface of a domain's encodings, versioned: what ``--encoding FILE`` is given
and must answer, as ``encodings/<domain>/README.md`` documents it, and what a user's
encoding does not handle of it.

A domain's README states each version of its interface on one line of its own::

    interface 2: input cell/3 piece/1 state/3 in/2 root/1 sym/3; output value/2 best/3 (adds sym/3: ...)

(backquotes around the signatures are allowed; the words in parentheses say what the
version changed). An input in square brackets, ``[maxmatch/1]``, is given but an encoding
may leave it unread (a fact only some encodings need). A domain whose encodings answer
different questions has one interface per kind of encoding, each named (by the bundled
encoding it is the interface of) and versioned on its own::

    interface kernel 1: input vertex/1 arc/2; output in/1

The highest version of an interface is the current one: the facts the backend writes.
An encoding says which version it was written for by a comment line
``% interface: 2`` (or ``% interface: kernel 1``); undeclared, it is held to the
interface whose current inputs it reads best. :func:`check` reads both and says, in
words, what the encoding misses: a version older than the current one (and what changed
since), and every input predicate of the current version that the encoding never
mentions (clingo's AST: an atom of that name and arity anywhere in the program).
``pyasp-games fuzz`` prints it with its report and beside a failure, and
``pyasp-games test-encoding`` before its cases, so that an encoding written for an older
interface fails with the predicate it does not read, not with what the backend makes of
its answer.

>>> versions = parse("interface 1: input a/1; output b/1\\n"
...                  "interface 2: input a/1 c/2 [d/1]; output b/1 (adds c/2: the weights)\\n")
>>> [(v.number, v.inputs, v.optional, v.change) for v in versions]
[(1, ('a/1',), (), ''), (2, ('a/1', 'c/2', 'd/1'), ('d/1',), 'adds c/2: the weights')]
>>> parse("interface kernel 1: input vertex/1 arc/2; output in/1")[0].label
'kernel 1'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from pyasp_games.errors import InputError, read_text

#: One version of an interface: ``interface [NAME] N: input SIGS; output SIGS (CHANGE)``.
_LINE = re.compile(
    r"^\s*interface\s+(?:([a-z][\w-]*)\s+)?(\d+)\s*:\s*input\s+([^;]*);\s*output\s+([^(]*?)"
    r"\s*(?:\((.*)\))?\s*$",
    re.IGNORECASE,
)
_SIGNATURE = re.compile(r"[a-z_][A-Za-z0-9_']*/\d+")
_OPTIONAL = re.compile(r"\[\s*([a-z_][A-Za-z0-9_']*/\d+)\s*\]")


@dataclass(frozen=True)
class Version:
    """One version of a domain's interface."""

    number: int
    inputs: tuple[str, ...]  # predicate signatures the backend gives, ``name/arity``
    outputs: tuple[str, ...]  # those the backend reads from the answer set
    change: str  # what this version changed, in words ("" for the first)
    name: str = ""  # the interface's name, where the domain has several ("" where one)
    optional: tuple[str, ...] = ()  # inputs given that an encoding may leave unread

    @property
    def label(self) -> str:
        """How messages name it: ``2``, or ``kernel 1``."""
        return f"{self.name} {self.number}" if self.name else str(self.number)

    @property
    def required(self) -> tuple[str, ...]:
        """The inputs every encoding of this interface reads."""
        return tuple(s for s in self.inputs if s not in self.optional)


def parse(text: str) -> list[Version]:
    """Every ``interface [NAME] N: ...`` line of ``text``, by name (in the order the
    names first appear) and version (see the module docstring)."""
    found = []
    for line in text.splitlines():
        match = _LINE.match(line.replace("`", ""))
        if match:
            name, number, inputs, outputs, change = match.groups()
            found.append(Version(int(number), tuple(_SIGNATURE.findall(inputs)),
                                 tuple(_SIGNATURE.findall(outputs)), (change or "").strip(),
                                 (name or "").lower(), tuple(_OPTIONAL.findall(inputs))))  # fmt: skip
    order = list(dict.fromkeys(v.name for v in found))
    return sorted(found, key=lambda v: (order.index(v.name), v.number))


def readme(domain: str) -> Path:
    """The README of the domain's bundled encodings, which documents its interface."""
    from pyasp_games.engines.resources import encoding_dir

    return encoding_dir(domain) / "README.md"


def versions(domain: str) -> list[Version]:
    """The versions of the domain's interface (``[]``: its README states none)."""
    path = readme(domain)
    return parse(path.read_text(encoding="utf-8")) if path.is_file() else []


def declaration(encoding: str | Path) -> tuple[str, int] | None:
    """The interface an encoding says it was written for, ``(name, version)`` (``""``
    for an unnamed one), from a comment line ``% interface: 2`` or ``% interface: kernel
    1``; a value that is no version number is bad input."""
    for line in read_text(encoding).splitlines():
        text = line.strip()
        if not text.startswith("%"):
            continue
        key, colon, value = text.lstrip("%").partition(":")
        if colon and key.strip().lower() == "interface":
            words = value.split()  # "2 (the README)", "kernel 1"
            name = words.pop(0).lower() if len(words) > 1 and not words[0].isdigit() else ""
            word = words[0] if words else ""
            if not word.isdigit():
                raise InputError(f"{encoding}: '% interface:' names {value.strip()!r}, not a "
                                 "version number")  # fmt: skip
            return name, int(word)
    return None


def declared(encoding: str | Path) -> int | None:
    """The version an encoding says it was written for (``% interface: 2``), if any
    (:func:`declaration`)."""
    said = declaration(encoding)
    return None if said is None else said[1]


def mentioned(encoding: str | Path) -> set[str]:
    """The predicate signatures (``name/arity``) an encoding mentions anywhere (heads,
    bodies, conditions, aggregates, ``#external``), read by clingo's parser."""
    from clingo import ast

    found: set[str] = set()

    class Atoms(ast.Transformer):
        def visit_SymbolicAtom(self, atom):
            term = atom.symbol
            if term.ast_type == ast.ASTType.Function:
                found.add(f"{term.name}/{len(term.arguments)}")
            elif term.ast_type == ast.ASTType.SymbolicTerm and term.symbol.type.name == "Function":
                found.add(f"{term.symbol.name}/{len(term.symbol.arguments)}")
            return atom

        def visit_External(self, external):
            return self.visit_SymbolicAtom(external.atom)

    visitor = Atoms()
    ast.parse_files([str(encoding)], lambda stm: visitor(stm))
    return found


def check(domain: str, encoding: str | Path) -> list[str]:
    """What a user's ``encoding`` does not handle of the domain's current interface, in
    words (``[]``: nothing, or the domain documents no interface). A version (or an
    interface's name) it declares that the README does not know is bad input.

    >>> from pyasp_games.engines.resources import encoding_path
    >>> check("kriegspiel", encoding_path("kriegspiel", "retrograde"))
    []
    """
    return held_to(versions(domain), domain, encoding)


def held_to(documented: list[Version], domain: str, encoding: str | Path) -> list[str]:
    """:func:`check` against the interface lines ``documented`` (:func:`parse`) of
    ``domain``'s README."""
    if not documented:
        return []
    where = f"encodings/{domain}/README.md"
    names = list(dict.fromkeys(v.name for v in documented))
    said = declaration(encoding)
    if said is not None and said[0] and said[0] not in names:
        raise InputError(f"{encoding} says '% interface: {said[0]} {said[1]}'; {where} documents "
                         f"the {domain} interfaces {', '.join(n or '(unnamed)' for n in names)}")  # fmt: skip
    try:
        seen = mentioned(encoding)
    except RuntimeError:  # clingo cannot parse it: said, as bad input, where it is run
        seen = None
    name = said[0] if said is not None and said[0] else _nearest(documented, names, seen)
    known = [v for v in documented if v.name == name]
    current = known[-1]
    if said is not None and said[1] not in {v.number for v in known}:
        raise InputError(f"{encoding} says '% interface: {(name + ' ') if name else ''}{said[1]}'; "
                         f"{where} documents {domain} interface "
                         f"{', '.join(v.label for v in known)}")  # fmt: skip
    if seen is None:
        return []
    notes = []
    unread = [s for s in current.required if s not in seen]
    for signature in unread:
        added = next((v for v in known if signature in v.inputs), current)
        why = f"; interface {added.label} {added.change}" if added is not known[0] \
            and added.change else ""
        notes.append(f"the encoding never reads {signature}, an input of {domain} interface "
                     f"{current.label} ({where}{why})")  # fmt: skip
    if said is not None and said[1] < current.number:
        since = "; ".join(f"interface {v.label} {v.change}" for v in known
                          if v.number > said[1] and v.change)  # fmt: skip
        was = f"{name} {said[1]}" if name else str(said[1])
        notes.insert(0, f"the encoding says it was written for {domain} interface {was}, the "
                     f"current is {current.label} ({where}{'; ' + since if since and not unread else ''})")  # fmt: skip
    return notes


def _nearest(documented: list[Version], names: list[str], seen: set[str] | None) -> str:
    """The interface an undeclared encoding is held to: the one whose current inputs it
    leaves the fewest of unread (then: reads the most of; then: the first listed)."""
    if seen is None or len(names) == 1:
        return names[0]

    def fit(name: str) -> tuple[int, int, int]:
        current = [v for v in documented if v.name == name][-1]
        read = sum(s in seen for s in current.required)
        return len(current.required) - read, -read, names.index(name)

    return min(names, key=fit)
