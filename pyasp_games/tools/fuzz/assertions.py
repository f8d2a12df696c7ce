"""What an author asserts of an encoding, in its comments, checked by fuzz on every
instance beside the comparison with the reference.

In the manner of ASP unit testing (G. Amendola, T. Berei, G. Mazzotta, F. Ricca,
"Unit testing in ASP revisited: language and test-driven development environment",
TPLP 2024: atoms true in all or some answer sets, counts, constraints over auxiliary
predicates), an assertion is a comment line of the encoding::

    %! assert: for every answer set, BODY.
    %! assert: for every answer set, no BODY.
    %! assert: for some answer set, BODY.
    %! assert: for some answer set, no BODY.
    %! define: RULE.

``BODY`` is the body of a clingo rule (atoms, ``not``, comparisons, aggregates such as
``#count { S : chosen(S) } = 2``), over the encoding's own predicates (auxiliary ones
too) and the instance's facts; its variables are read *existentially*: ``BODY`` holds
in an answer set when some instance of it is true there. So

- ``for every answer set, BODY`` holds when every answer set has an instance of BODY
  (``for every answer set, won(r)``: the root is won in each);
- ``for every answer set, no BODY`` when no answer set has one: a *constraint* that the
  encoding must already satisfy (``for every answer set, no reach(X,Y), not tc(X,Y)``);
- ``for some answer set, BODY`` when at least one answer set has one (and, so, the
  program has an answer set);
- ``for some answer set, no BODY`` when at least one answer set has none.

``%! define:`` lines add rules used by the assertions only (the transitive closure
``tc/2`` to compare ``reach/2`` with): they are never part of the encoding's program.
An assertion with a trailing ``%`` comment keeps it out of the body.

Each assertion is compiled to clingo rules: ``__assert(K,(X,...)) :- BODY.`` (its
variables as the arguments, so a counterexample names the instance of BODY that breaks
it) and ``__assert(K) :- __assert(K,_).``, grounded once per instance with the encoding,
the instance's facts and the definitions; each assertion is then one solve under an
assumption on ``__assert(K)``, in effect one integrity constraint (``for every answer set,
no BODY``: ``:- not __assert(K).``; an answer set then is one in which BODY holds, a
counterexample). Nothing is evaluated outside clingo. Multi-shot encodings (``#program`` parts) are not checked: their answer sets are
those of a horizon loop, not of one program.

>>> import tempfile, os
>>> text = "{ chosen(1..3) }.\\n:- chosen(1), chosen(2).\\n"
>>> text += "%! assert: for every answer set, no chosen(X), chosen(Y), X < Y, Y - X = 1.\\n"
>>> with tempfile.NamedTemporaryFile("w", suffix=".lp", delete=False) as f:
...     _ = f.write(text)
>>> (said,) = read_assertions(f.name).assertions
>>> said.line, said.quantifier, said.negated
(3, 'every', True)
>>> broken = check(f.name, "", read_assertions(f.name))
>>> print(broken.reason.replace(f.name, "mine.lp"))
the assertion mine.lp:3 fails: for every answer set, no chosen(X), chosen(Y), X < Y, Y - X = 1: an answer set holds it for X=2, Y=3 (the facts' terms, as --emit-lp writes them)
>>> os.unlink(f.name)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pyasp_games.errors import InputError, read_text
from pyasp_games.tools.fuzz.variables import variables

#: The name of the atoms an assertion's body derives (no user program is likely to use it).
HOLDS = "__assert"

_ASSERT = re.compile(r"^\s*%!\s*assert\s*:\s*(.*)$", re.IGNORECASE)
_DEFINE = re.compile(r"^\s*%!\s*define\s*:\s*(.*)$", re.IGNORECASE)
_CLAIM = re.compile(r"^for\s+(every|some)\s+answer\s+sets?\s*,\s*(no\s+)?(.+?)\s*\.?\s*$",
                    re.IGNORECASE | re.DOTALL)  # fmt: skip


@dataclass(frozen=True)
class Assertion:
    """One ``%! assert:`` line: ``for QUANTIFIER answer set, [no] BODY``."""

    file: str
    line: int
    quantifier: str  # "every" or "some"
    negated: bool  # "no BODY"
    body: str  # a clingo rule body, without the final period
    variables: tuple[str, ...]  # BODY's variables, in order of appearance

    @property
    def text(self) -> str:
        """The assertion as written (normalised)."""
        return f"for {self.quantifier} answer set, {'no ' if self.negated else ''}{self.body}"

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass
class Assertions:
    """An encoding's assertions and definitions."""

    assertions: list[Assertion] = field(default_factory=list)
    definitions: list[str] = field(default_factory=list)  # rules, each ending in "."
    multi_shot: bool = False


@dataclass
class Broken:
    """An assertion that fails on an instance, and what shows it."""

    assertion: Assertion
    shown: str  # the counterexample: an instance of BODY, or why none exists

    @property
    def reason(self) -> str:
        return f"the assertion {self.assertion.where} fails: {self.assertion.text}: {self.shown}"


def _strip_comment(text: str) -> str:
    """``text`` without a trailing ``% comment`` (outside strings)."""
    out, quoted = [], False
    for ch in text:
        if ch == '"':
            quoted = not quoted
        if ch == "%" and not quoted:
            break
        out.append(ch)
    return "".join(out).strip()


def _variables(body: str, where: str) -> tuple[str, ...]:
    """The variables of a rule body, in order of appearance; a body clingo cannot parse
    is bad input naming the line."""
    from clingo import ast

    rules: list[Any] = []
    try:
        ast.parse_string(f"{HOLDS} :- {body}.", rules.append)
    except RuntimeError:
        raise InputError(f"{where}: the assertion's body is no clingo rule body: {body}") from None
    # the body's global variables: those local to an aggregate or a condition
    # (``#count { X : x(X) }``) cannot be arguments of the head
    return tuple(variables(rules[-1].body, global_only=True))


def read_assertions(encoding: str | Path) -> Assertions:
    """The ``%! assert:`` and ``%! define:`` lines of ``encoding`` (see the module
    docstring); a line that does not follow the grammar is bad input naming it."""
    from clingo import ast

    path = str(encoding)
    said = Assertions()
    text = read_text(path)
    said.multi_shot = bool(re.search(r"^\s*#program\s+(?!base\b)", text, re.MULTILINE))
    for number, line in enumerate(text.splitlines(), 1):
        where = f"{path}:{number}"
        if match := _DEFINE.match(line):
            rule = _strip_comment(match.group(1))
            rule = rule if rule.endswith(".") else rule + "."
            try:
                ast.parse_string(rule, lambda stm: None)
            except RuntimeError:
                raise InputError(f"{where}: '%! define:' holds no clingo rule: {rule}") from None
            said.definitions.append(rule)
            continue
        if not (match := _ASSERT.match(line)):
            continue
        claim = _CLAIM.match(_strip_comment(match.group(1)))
        if claim is None:
            raise InputError(f"{where}: an assertion reads 'for every answer set, BODY.', 'for "
                             "every answer set, no BODY.', 'for some answer set, BODY.' or 'for "
                             f"some answer set, no BODY.'; got: {match.group(1).strip()}")  # fmt: skip
        quantifier, no, body = claim.group(1).lower(), claim.group(2), claim.group(3).strip()
        body = body[:-1].strip() if body.endswith(".") else body
        said.assertions.append(Assertion(path, number, quantifier, bool(no), body,
                                         _variables(body, where)))  # fmt: skip
    return said


def _rules(said: Assertions, k: int, a: Assertion) -> list[str]:
    """The rules that derive ``__assert(k)`` where some instance of ``a``'s body holds."""
    args = ",".join(a.variables)
    head = f"{HOLDS}({k},({args},))" if a.variables else f"{HOLDS}({k},())"
    return [f"{head} :- {a.body}.", f"{HOLDS}({k}) :- {HOLDS}({k},_)."]


def _wants_holds(a: Assertion) -> bool:
    """Whether the answer sets looked for hold ``a``'s body: those that break the
    assertion (``every``), or those that show it (``some``)."""
    return a.negated if a.quantifier == "every" else not a.negated


def check(encoding: str | Path, facts: str, said: Assertions,
          budget: float = 10.0) -> Broken | None:  # fmt: skip
    """The first assertion of ``said`` that fails on ``facts`` with ``encoding``, or
    ``None``; an assertion that clingo does not decide within ``budget`` seconds is passed
    over. One grounding: the encoding, the facts, the definitions and every assertion's
    rules; then one solve per assertion, under the assumption that its ``__assert(K)``
    is true or false (the module docstring's constraint, as an assumption)."""
    if said.multi_shot or not said.assertions:
        return None
    rules = [r for k, a in enumerate(said.assertions) for r in _rules(said, k, a)]
    try:
        control = _grounded(encoding, facts + "\n" + "\n".join([*said.definitions, *rules]))
    except InputError as err:  # which assertion: each alone
        for k, a in enumerate(said.assertions):
            try:
                _grounded(encoding, facts + "\n" + "\n".join([*said.definitions, *_rules(said, k, a)]))
            except InputError as alone:
                raise InputError(f"{a.where}: {alone}") from None
        raise err
    for k, a in enumerate(said.assertions):
        model = _solve(control, k, _wants_holds(a), budget)
        if model is _UNDECIDED:
            continue
        if a.quantifier == "every" and model is not None:  # an answer set that breaks it
            return Broken(a, _shown(a, model))
        if a.quantifier == "some" and model is None:  # no answer set shows it
            return Broken(a, "no answer set " + ("lacks it" if a.negated else "holds it"))
    return None


_UNDECIDED: Any = object()


def _grounded(encoding: str | Path, program: str) -> Any:
    """A clingo control with ``encoding`` and ``program`` grounded; a program clingo
    refuses is bad input with clingo's words."""
    import clingo

    messages: list[str] = []
    control = clingo.Control(["--warn=none"], logger=lambda code, text: messages.append(text))
    control.load(str(encoding))
    control.add("base", [], program)
    try:
        control.ground([("base", [])])
    except RuntimeError:
        said = " ".join(" ".join(messages).split()) or "grounding stopped"
        raise InputError(f"clingo refuses the assertion's program: {said}") from None
    return control


def _solve(control: Any, k: int, holds: bool, budget: float) -> Any:
    """The atoms ``__assert(k, ...)`` of the first answer set in which ``__assert(k)`` is
    ``holds`` (a list; ``None``: there is none; :data:`_UNDECIDED`: not within
    ``budget`` seconds)."""
    import clingo

    atom = clingo.Function(HOLDS, [clingo.Number(k)])
    if atom not in control.symbolic_atoms:  # no instance of the body can hold
        if holds:
            return None
        assumptions: list[Any] = []
    else:
        assumptions = [(atom, holds)]
    found: list[Any] = []

    def on_model(model: Any) -> bool:
        found.append([s for s in model.symbols(atoms=True)
                      if s.name == HOLDS and len(s.arguments) == 2 and s.arguments[0].number == k])  # fmt: skip
        return False  # the first model is enough

    with control.solve(assumptions=assumptions, on_model=on_model, async_=True) as handle:
        if not handle.wait(budget):
            handle.cancel()
            return _UNDECIDED
        handle.get()
    return found[0] if found else None


def _shown(a: Assertion, atoms: list[Any]) -> str:
    """What breaks an assertion in an answer set, in words."""
    if not a.negated:
        return "an answer set holds no instance of it"
    if not a.variables:
        return "an answer set holds it"
    first = min(atoms, key=str)
    values = first.arguments[1].arguments
    binding = ", ".join(f"{v}={t}" for v, t in zip(a.variables, values, strict=False))
    return f"an answer set holds it for {binding} (the facts' terms, as --emit-lp writes them)"
