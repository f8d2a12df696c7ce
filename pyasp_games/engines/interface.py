"""The interface of a domain's encodings, versioned: what ``--encoding FILE`` is given
and must answer, as ``encodings/<domain>/README.md`` documents it, and what a user's
encoding does not handle of it.

A domain's README states each version of its interface on one line of its own::

    interface 2: input cell/3 piece/1 state/3 in/2 root/1 sym/3; output value/2 best/3 (adds sym/3: ...)

(backquotes around the signatures are allowed; the words in parentheses say what the
version changed). The highest version is the current one: the facts the backend writes.
An encoding says which version it was written for by a comment line
``% interface: 2``. :func:`check` reads both and says, in words, what the encoding
misses: a version older than the current one (and what changed since), and every input
predicate of the current version that the encoding never mentions (clingo's AST: an
atom of that name and arity anywhere in the program). ``pyasp-games fuzz`` prints it
with its report and beside a failure, so that an encoding written for an older
interface fails with the predicate it does not read, not with what the backend makes of
its answer.

>>> versions = parse("interface 1: input a/1; output b/1\\n"
...                  "interface 2: input a/1 c/2; output b/1 (adds c/2: the weights)\\n")
>>> [(v.number, v.inputs, v.change) for v in versions]
[(1, ('a/1',), ''), (2, ('a/1', 'c/2'), 'adds c/2: the weights')]
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from pyasp_games.errors import InputError, read_text

#: One version of an interface: ``interface N: input SIGS; output SIGS (CHANGE)``.
_LINE = re.compile(
    r"^\s*interface\s+(\d+)\s*:\s*input\s+([^;]*);\s*output\s+([^(]*?)\s*(?:\((.*)\))?\s*$",
    re.IGNORECASE,
)
_SIGNATURE = re.compile(r"[a-z_][A-Za-z0-9_']*/\d+")


@dataclass(frozen=True)
class Version:
    """One version of a domain's interface."""

    number: int
    inputs: tuple[str, ...]  # predicate signatures the backend gives, ``name/arity``
    outputs: tuple[str, ...]  # those the backend reads from the answer set
    change: str  # what this version changed, in words ("" for the first)


def parse(text: str) -> list[Version]:
    """Every ``interface N: ...`` line of ``text``, by version (see the module docstring)."""
    found = []
    for line in text.splitlines():
        match = _LINE.match(line.replace("`", ""))
        if match:
            number, inputs, outputs, change = match.groups()
            found.append(Version(int(number), tuple(_SIGNATURE.findall(inputs)),
                                 tuple(_SIGNATURE.findall(outputs)), (change or "").strip()))  # fmt: skip
    return sorted(found, key=lambda v: v.number)


def readme(domain: str) -> Path:
    """The README of the domain's bundled encodings, which documents its interface."""
    from pyasp_games.engines.resources import encoding_dir

    return encoding_dir(domain) / "README.md"


def versions(domain: str) -> list[Version]:
    """The versions of the domain's interface (``[]``: its README states none)."""
    path = readme(domain)
    return parse(path.read_text(encoding="utf-8")) if path.is_file() else []


def declared(encoding: str | Path) -> int | None:
    """The version an encoding says it was written for (``% interface: 2``), if any;
    a value that is no number is bad input."""
    for line in read_text(encoding).splitlines():
        text = line.strip()
        if not text.startswith("%"):
            continue
        key, colon, value = text.lstrip("%").partition(":")
        if colon and key.strip().lower() == "interface":
            word = value.split()[0] if value.split() else ""  # "2 (the README)"
            if not word.isdigit():
                raise InputError(f"{encoding}: '% interface:' names {value.strip()!r}, not a "
                                 "version number")  # fmt: skip
            return int(word)
    return None


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
    words (``[]``: nothing, or the domain documents no interface). A version it declares
    that the README does not know is bad input.

    >>> from pyasp_games.engines.resources import encoding_path
    >>> check("kriegspiel", encoding_path("kriegspiel", "retrograde"))
    []
    """
    known = versions(domain)
    if not known:
        return []
    current, where = known[-1], f"encodings/{domain}/README.md"
    notes = []
    said = declared(encoding)
    if said is not None and said not in {v.number for v in known}:
        raise InputError(f"{encoding} says '% interface: {said}'; {where} documents "
                         f"{domain} interface {', '.join(str(v.number) for v in known)}")  # fmt: skip
    try:
        seen = mentioned(encoding)
    except RuntimeError:  # clingo cannot parse it: said, as bad input, where it is run
        return []
    unread = [s for s in current.inputs if s not in seen]
    for signature in unread:
        added = next((v for v in known if signature in v.inputs), current)
        why = f"; interface {added.number} {added.change}" if added is not known[0] \
            and added.change else ""
        notes.append(f"the encoding never reads {signature}, an input of {domain} interface "
                     f"{current.number} ({where}{why})")  # fmt: skip
    if said is not None and said < current.number:
        since = "; ".join(f"interface {v.number} {v.change}" for v in known
                          if v.number > said and v.change)  # fmt: skip
        notes.insert(0, f"the encoding says it was written for {domain} interface {said}, the "
                     f"current is {current.number} ({where}{'; ' + since if since and not unread else ''})")  # fmt: skip
    return notes
