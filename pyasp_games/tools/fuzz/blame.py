"""The rule to blame: which rules of the user's encoding reject the reference's answer.

When fuzz finds that an encoding misses a solution the reference has (no cover where one
exists, no Grundy function, the other winner), the reference's *verified* witness says
what the encoding's output predicates should hold (``chosen(3)`` true, ``chosen(1)``
false; ``value(2,1)``; ``first_wins``). :func:`blame` adds that witness to the user's
program as assumptions and asks clingo which of the user's rules make it impossible,
in the manner of potassco's clingo-explaid (minimal unsatisfiable constraints, rules
rewritten with assumption atoms) and ucorexplain (explanations from unsatisfiable
cores), against an independent reference's witness found by fuzz:

1. Every statement of the user's file is read with clingo's AST (``clingo.ast``) and
   given a *switch*, an external atom ``__blame(i)`` added to its body:
   - an **integrity constraint** ``:- B.`` becomes ``:- B, __blame(i).``: off, it
     rejects nothing;
   - a **choice rule with bounds** ``L { H : C } U :- B.`` is *relaxed*, not switched
     off: the unbounded choice ``{ H : C } :- B.`` stays (what it may choose stays
     choosable, or every atom it alone defines would turn false), and the bounded rule
     gets the switch, so that off, only its bounds are gone; a choice without bounds
     only allows, and stays as it is;
   - a **definition** (a normal or disjunctive rule) gets a switch too, held on in the
     first step: off it derives nothing, which could make a constraint that needs its
     head (``:- element(E), not covered(E).``) fire and be blamed wrongly;
   - ``#minimize`` and weak constraints are dropped (they never make a program
     unsatisfiable); ``#show``, ``#const``, ``#external`` stay.
2. With the witness and every switch assumed, the program is unsatisfiable (else the
   encoding accepts the witness, and nothing is blamed). clingo's unsatisfiable core
   over the constraint switches is made *minimal* (each switch in turn is dropped
   while the rest stays unsatisfiable, the others off: a switch off only relaxes, so
   the result is a minimal set of constraints that together reject the witness).
3. Each definition is then switched off alone, every other rule on: a definition whose
   absence lets the witness through derives what a constraint rejects (or the wrong
   winner) and is blamed with them.

A witness atom that no rule can make true (``chosen(3)`` where a choice rule excludes
subset 3) is said as such, with the rules that define its predicate. Multi-shot
encodings (``#program`` parts other than ``base``) are not blamed.

The result is a list of lines in a compiler's manner, ``FILE:LINE: the rule``.

When the encoding accepts a *wrong* answer instead, :func:`violating_part` names the
smallest part of it that no right answer holds: the answer's atoms assumed in the
question's bundled (correct) encoding, the unsatisfiable core over them made minimal.

>>> import tempfile, os
>>> wrong = "{ chosen(S) : member(S,_) }.\\n:- element(E), not covered(E).\\n"
>>> wrong += "covered(E) :- chosen(S), member(S,E).\\n:- #count { S : chosen(S) } > 1.\\n"
>>> with tempfile.NamedTemporaryFile("w", suffix=".lp", delete=False) as f:
...     _ = f.write(wrong)
>>> facts = "element(0..5). member(0,0..2). member(1,3..5)."
>>> for line in blame(f.name, facts, [("chosen(0)", True), ("chosen(1)", True)]).lines:
...     print(line.replace(f.name, "mine.lp"))
  blame: mine.lp:4: :- #count { S : chosen(S) } > 1.
>>> os.unlink(f.name)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pyasp_games.errors import read_text

#: The switch atoms' name (no user program is likely to define it).
SWITCH = "__blame"


@dataclass
class Blame:
    """The rules blamed, and the lines that say so."""

    rules: list[tuple[str, int, str]] = field(default_factory=list)  # (file, line, text)
    note: str = ""

    @property
    def lines(self) -> list[str]:
        said = [f"  blame: {file}:{line}: {text}" for file, line, text in self.rules]
        return said + ([f"  blame: {self.note}"] if self.note else [])


@dataclass
class _Statement:
    index: int
    kind: str  # "constraint", "bounds", "definition"
    line: int
    text: str


def blame(encoding: str | Path, facts: str, witness: Iterable[tuple[str, bool]],
          budget: float = 10.0) -> Blame:  # fmt: skip
    """The rules of ``encoding`` that reject ``witness`` on ``facts`` (see the module
    docstring); ``budget``: seconds for each solve (a slower one ends the blame)."""
    import clingo
    from clingo import ast

    path = str(encoding)
    source = read_text(path).splitlines()
    statements: list[_Statement] = []
    rewritten: list[Any] = []
    multi_shot = False

    def switch_literal(i: int, loc: Any) -> Any:
        atom = ast.SymbolicAtom(ast.Function(loc, SWITCH, [ast.SymbolicTerm(loc, clingo.Number(i))], 0))
        return ast.Literal(loc, ast.Sign.NoSign, atom)

    def text_of(loc: Any) -> str:
        first, last = loc.begin.line, loc.end.line
        return " ".join(line.strip() for line in source[first - 1 : last]) if source else ""

    def take(stm: Any) -> None:
        nonlocal multi_shot
        kind = stm.ast_type
        if kind == ast.ASTType.Program and stm.name != "base":
            multi_shot = True
        if kind in (ast.ASTType.Minimize,):
            return
        if kind != ast.ASTType.Rule:
            rewritten.append(stm)
            return
        loc, head = stm.location, stm.head
        i = len(statements)
        if head.ast_type == ast.ASTType.Literal and head.atom.ast_type == ast.ASTType.BooleanConstant:
            what = "constraint"
        elif head.ast_type == ast.ASTType.Aggregate:
            if head.left_guard is None and head.right_guard is None:
                rewritten.append(stm)  # it only allows: nothing to switch
                return
            what = "bounds"
            free = ast.Aggregate(loc, None, head.elements, None)
            rewritten.append(ast.Rule(loc, free, stm.body))
        else:
            what = "definition"
        statements.append(_Statement(i, what, loc.begin.line, text_of(loc)))
        rewritten.append(ast.Rule(loc, head, [*stm.body, switch_literal(i, loc)]))

    ast.parse_files([path], take)
    if multi_shot:
        return Blame(note="not blamed: the encoding is multi-shot (#program parts)")
    if not statements:
        return Blame(note="not blamed: the encoding has no rules")

    control = clingo.Control(["--warn=none"])
    with ast.ProgramBuilder(control) as builder:
        for stm in rewritten:
            builder.add(stm)
    switches = "".join(f"#external {SWITCH}({s.index}).\n" for s in statements)
    control.add("base", [], facts + "\n" + switches)
    control.ground([("base", [])])

    atoms = control.symbolic_atoms
    wanted: list[tuple[Any, bool]] = []
    for text, truth in witness:
        symbol = clingo.parse_term(text)
        if symbol not in atoms:
            if truth:  # no rule can make it true
                definers = [s for s in statements if _defines(s.text, symbol.name)]
                rules = [(path, s.line, s.text) for s in definers]
                return Blame(rules, f"no rule can make {text} true, which the reference's "
                             "answer holds")  # fmt: skip
            continue
        wanted.append((symbol, truth))
    lit = {}
    for s in statements:
        symbol = clingo.Function(SWITCH, [clingo.Number(s.index)])
        control.assign_external(symbol, None)  # free: each solve's assumptions set it
        lit[s.index] = atoms[symbol].literal

    def unsat(on: Iterable[int]) -> bool | None:
        chosen = set(on)
        assumptions = [(atoms[sym].literal if truth else -atoms[sym].literal) for sym, truth in wanted]
        assumptions += [lit[i] if i in chosen else -lit[i] for i in lit]
        with control.solve(assumptions=assumptions, async_=True) as handle:
            if not handle.wait(budget):
                handle.cancel()
                return None
            result = handle.get()
        return bool(result.unsatisfiable)

    everything = [s.index for s in statements]
    first = unsat(everything)
    if first is None:
        return Blame(note=f"not blamed: clingo took over {budget:g} s")
    if not first:
        return Blame(note="not blamed: the encoding accepts the reference's answer when it is "
                     "given (it misses it by its projection or search, not by a rule)")  # fmt: skip
    definitions = [s.index for s in statements if s.kind == "definition"]
    core = [s.index for s in statements if s.kind != "definition"]
    if not unsat(definitions):
        for i in list(core):  # deletion: a minimal set of constraints that still reject it
            rest = [j for j in core if j != i]
            if unsat(rest + definitions):
                core = rest
    else:
        core = []
    # each definition off alone: does the witness then get through?
    blamed_defs = [i for i in definitions if unsat([j for j in everything if j != i]) is False]
    blamed = sorted(set(core) | set(blamed_defs))
    if not blamed:
        return Blame(note="not blamed: no single rule or set of constraints alone rejects "
                     "the reference's answer")  # fmt: skip
    return Blame([(path, statements[i].line, statements[i].text) for i in blamed])


def _defines(text: str, name: str) -> bool:
    head = text.split(":-")[0]
    return f"{name}(" in head or head.strip().rstrip(".") == name


def witness_lines(atoms: Sequence[tuple[str, bool]]) -> str:
    """The witness as the assumptions said in words (``chosen(0) chosen(1)``)."""
    return " ".join(a for a, truth in atoms if truth)


def violating_part(correct: str | Path, facts: str, answer: Iterable[tuple[str, bool]],
                   budget: float = 10.0) -> list[str] | None:  # fmt: skip
    """The smallest part of a wrong answer that no right answer contains: the answer's
    atoms assumed in a ``correct`` encoding (the bundled one) on ``facts``, and clingo's
    unsatisfiable core over them made minimal by deletion. ``None`` where it cannot be
    said (a multi-shot encoding, an answer a correct one accepts, clingo too slow).

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".lp", delete=False) as f:
    ...     _ = f.write("1 { chosen(S) : member(S,E) } 1 :- element(E).\\n")
    >>> facts = "element(0..2). member(0,0..2). member(1,0..2). member(2,0..2)."
    >>> violating_part(f.name, facts, [("chosen(0)", True), ("chosen(1)", True), ("chosen(2)", True)])
    ['chosen(1)', 'chosen(2)']
    >>> os.unlink(f.name)
    """
    import clingo

    text = read_text(str(correct))
    if "#program" in text or "#include" in text:
        return None
    control = clingo.Control(["--warn=none"])
    control.load(str(correct))
    control.add("base", [], facts)
    control.ground([("base", [])])
    atoms = control.symbolic_atoms
    said: list[tuple[str, Any, bool]] = []
    for shown, truth in answer:
        symbol = clingo.parse_term(shown)
        if symbol not in atoms:
            if truth:  # the correct program can never make it true: it alone is wrong
                return [shown]
            continue
        said.append((shown, symbol, truth))

    def unsat(part: list[tuple[str, Any, bool]]) -> bool | None:
        assumptions = [(symbol, truth) for _, symbol, truth in part]
        with control.solve(assumptions=assumptions, async_=True) as handle:
            if not handle.wait(budget):
                handle.cancel()
                return None
            return bool(handle.get().unsatisfiable)

    if not unsat(said):
        return None
    core = list(said)
    for item in list(core):  # deletion: each atom that is not needed for the conflict goes
        rest = [x for x in core if x is not item]
        if unsat(rest):
            core = rest
    return [shown if truth else f"not {shown}" for shown, _, truth in core]
