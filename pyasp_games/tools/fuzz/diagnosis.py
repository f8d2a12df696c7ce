"""The rule to blame, by diagnosis: why the encoding has no answer set that holds the
intended answer, as the fewest faulty rules (issue 45).

Meta-programming debugging in the manner of spock and *Ouroboros* (Gebser, Pührer,
Schaub and Tompits, AAAI 2008; Oetsch, Pührer and Tompits, TPLP 2010), written as a
source-to-source rewrite of the user's program that clingo grounds and optimises:

1. **The universe.** A relaxed copy of the program (negative literals dropped, every
   head a possible atom, every atom a body reads possible too) gives every atom that
   could matter, renamed ``__u_p``: its least model over-approximates every answer set
   of every repair of the program. Rules the relaxation makes unsafe are left out.
2. **An interpretation is guessed** over the universe (the defined predicates only; the
   instance's facts are fixed), the *intended answer* fixed on the output predicates
   (the reference's verified answer: the atoms it makes true, and no other atom of those
   predicates), every auxiliary atom left free.
3. **Abnormalities** of the interpretation, each tagged with the source rule and its
   variables (``__ab(Kind, Unit, Instance)``):

   - a **rule instance violated**: its body holds and its head does not (a constraint
     whose body holds; a choice whose bounds fail);
   - an **atom unsupported**: true, and no rule instance with a true body derives it
     (a definition misses a case);
   - an **atom unfounded**: supported only through itself (a positive loop): not in
     the least fixpoint of the rules' instances that hold.
4. **The minimal explanations**, lexicographically: the fewest faulty *units* (a unit is
   a defined predicate's definition, or one constraint), then the *deepest* (closest to
   the input in the predicate dependency order: an error flows upwards, so a wrong
   definition below explains what every rule above it then derives, where blaming a rule
   above would need a second fault to agree with it), then the fewest ground instances.

A *deleted* case has no line of its own. Where an atom the intended answer needs is one
no rule could derive, the tuples of a predicate stated by facts that it depends on,
over the active domain of their places, are possible too, each one case the list misses
(:func:`_missing_facts`), named at the definition's first line. And ``refute=True`` asks
the other question, for a wrong answer accepted whose atoms are not wrong themselves
(an empty plan that loses every pebble): the fewest cases the definitions miss that
would let one of the encoding's own constraints reject it.

One failing instance may hold two explanations of one size, one at the faulty rule and
one beside it, that only the tie-breakers (the closest interpretation, the deepest rule)
tell apart. With ``explanations=`` every optimal one is enumerated, ties unbroken, and
:func:`several` ranks the rules by how many failing instances they explain (Reiter's
consistency-based diagnosis with several observations: a single fault explains every
instance it fails on).

Where explanations of one size tie on every instance (a wrong atom made true at a
lower rule lets the faulty rule fire), :func:`repairs` tests each rule near those
blamed by editing it once in every way (mutation operators) and re-solving: the rules
with an edit under which every failing instance has its intended answer, and the
instances the encoding got right keep theirs, come first (:func:`repaired`).

Each fault is said as ``FILE:LINE: the rule`` and its ground instances ``with X=3,
Y=5``; an unsupported atom is blamed on the rule that would derive it but for a
condition (its positive body holds, a comparison or negation does not), else on the
rules that define its predicate.

For a wrong answer the encoding accepts, :func:`trace` names the rule instances that
derive the atoms of its smallest wrong part.

>>> import tempfile, os
>>> wrong = "{ chosen(S) : member(S,_) }.\\n:- element(E), not covered(E).\\n"
>>> wrong += "covered(E) :- chosen(S), member(S,E), E < 4.\\n"
>>> with tempfile.NamedTemporaryFile("w", suffix=".lp", delete=False) as f:
...     _ = f.write(wrong)
>>> facts = "element(0..5). member(0,0..2). member(1,3..5)."
>>> for line in diagnose(f.name, facts, [("chosen(0)", True), ("chosen(1)", True)]).lines:
...     print(line.replace(f.name, "mine.lp"))
  blame: mine.lp:3: covered(E) :- chosen(S), member(S,E), E < 4.
    it derives no covered(4), covered(5), which the intended answer needs (with S=1, E=4; S=1, E=5)
>>> os.unlink(f.name)
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pyasp_games.errors import read_text
from pyasp_games.tools.fuzz.variables import variables

#: how many ground instances of one rule are said
SHOWN_INSTANCES = 3
#: how many faulty rules are said
SHOWN_FAULTS = 3
#: rounds of the universe: an atom a body reads becomes possible for the next round
UNIVERSE_ROUNDS = 3
#: the universe's size at which its rounds stop
UNIVERSE_ATOMS = 50_000
#: the most tuples of one predicate stated by facts that may be the case it misses
MISSING_FACTS = 2_000
#: the variable that stands for another value in a head's place
VALUE = "V__"
#: the optimisation's levels on which two explanations are of one size: how near a
#: rule is to each unsupported atom, the faulty rules, their instances (the others only
#: break ties: the closest interpretation, the deepest rule)
EXPLANATION_LEVELS = frozenset({5, 4, 3})


@dataclass
class Diagnosis:
    """The faults found: ``rules`` are (file, line, text), the first to blame first;
    ``lines`` say them with their instances; ``note`` why none is named; ``status``
    ``solved``, or ``unknown`` where the time limit ended it."""

    rules: list[tuple[str, int, str]] = field(default_factory=list)
    details: list[list[str]] = field(default_factory=list)
    note: str = ""
    status: str = "solved"
    #: every optimal explanation where they were asked for (``explanations=``), the ties
    #: between explanations of one size left unbroken: each its ``(rule, details)``
    explanations: list[list[Any]] = field(default_factory=list)

    @property
    def lines(self) -> list[str]:
        said = []
        for (file, line, text), details in zip(self.rules, self.details, strict=False):
            said.append(f"  blame: {file}:{line}: {text}")
            said.extend(f"    {d}" for d in details)
        return said + ([f"  blame: {self.note}"] if self.note else [])


@dataclass
class _Rule:
    index: int
    kind: str  # "definition", "choice", "constraint", "external"
    line: int
    text: str
    heads: list[tuple[str, int]]
    body: list[tuple[str, int]]
    variables: list[str]
    local: list[str] = field(default_factory=list)  # a choice element's variables too


class _Unsupported(Exception):
    """A construct the rewrite does not handle."""


def _predicate(atom: Any) -> tuple[str, int] | None:
    """The name and arity of a symbolic atom (``None``: not a plain atom)."""
    from clingo import ast

    sym = atom.symbol if atom.ast_type == ast.ASTType.SymbolicAtom else None
    if sym is None:
        return None
    if sym.ast_type == ast.ASTType.Function:
        return (sym.name, len(sym.arguments))
    if sym.ast_type == ast.ASTType.SymbolicTerm and sym.symbol.type == sym.symbol.type.Function:
        return (sym.symbol.name, len(sym.symbol.arguments))
    raise _Unsupported(f"the atom {sym}")


def _predicates(nodes: Iterable[Any]) -> list[tuple[str, int]]:
    """The predicates of the atoms in ``nodes``, each once."""
    from clingo import ast

    found: list[tuple[str, int]] = []

    class Collect(ast.Transformer):
        def visit_SymbolicAtom(self, atom: Any) -> Any:
            key = _predicate(atom)
            if key is not None and key not in found:
                found.append(key)
            return atom

    for node in nodes:
        Collect()(node)
    return found


def _rename(node: Any, prefix: str, names: set[tuple[str, int]], wrap: bool = False) -> Any:
    """``node`` with every atom of a predicate in ``names`` renamed ``prefix`` + name
    (``wrap``: put inside ``prefix(...)`` instead)."""
    from clingo import ast

    class Rename(ast.Transformer):
        def visit_SymbolicAtom(self, atom: Any) -> Any:
            key = _predicate(atom)
            if key not in names:
                return atom
            sym = atom.symbol
            if sym.ast_type != ast.ASTType.Function:  # a constant written as a term
                sym = ast.Function(sym.location, sym.symbol.name, [], 0)
            if wrap:
                return atom.update(symbol=ast.Function(sym.location, prefix, [sym], 0))
            return atom.update(symbol=sym.update(name=prefix + sym.name))

    return Rename()(node)


def _safe(rule: str) -> bool:
    """Whether clingo grounds ``rule`` (safe variables, no error)."""
    import clingo

    control = clingo.Control(["--warn=none"], logger=lambda code, message: None)
    try:
        control.add("base", [], rule)
        control.ground([("base", [])])
    except RuntimeError:
        return False
    return True


def _levels(rules: list[_Rule]) -> dict[tuple[str, int], int]:
    """Each defined predicate's depth: its strongly connected component's place in the
    dependency order, from the input up (a predicate no rule defines: 0)."""
    edges: dict[tuple[str, int], set[tuple[str, int]]] = {}
    for r in rules:
        for h in r.heads:
            edges.setdefault(h, set()).update(r.body)
    level: dict[tuple[str, int], int] = {}
    # longest path over the condensation: iterate to a fixpoint, bounded by the count
    nodes = set(edges) | {b for bs in edges.values() for b in bs}
    for n in nodes:
        level[n] = 0
    reach = _reachability(edges)
    for _ in range(len(nodes) + 1):
        changed = False
        for h, bs in edges.items():
            for b in bs:
                same = h in reach.get(b, set())  # b depends on h too: one component
                want = level[b] + (0 if same else 1)
                if want > level[h]:
                    level[h] = want
                    changed = True
        if not changed:
            break
    return level


def _reachability(edges: dict[tuple[str, int], set[tuple[str, int]]]) -> dict[Any, set[Any]]:
    reach: dict[Any, set[Any]] = {}
    for start in edges:
        seen, todo = set(), [start]
        while todo:
            n = todo.pop()
            for m in edges.get(n, ()):
                if m not in seen:
                    seen.add(m)
                    todo.append(m)
        reach[start] = seen
    return reach


def _argument_classes(nodes: Iterable[Any]) -> dict[tuple[str, int, int], tuple[str, int, int]]:
    """The *types* of the predicates' argument places: two places are of one type where a
    rule's variable stands at both (``pos(Q) :- move(P,Q)``: ``move/2``'s second place and
    ``pos/1``'s first), as a representative place for each place (union-find)."""
    from clingo import ast

    parent: dict[tuple[str, int, int], tuple[str, int, int]] = {}

    def find(x: tuple[str, int, int]) -> tuple[str, int, int]:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    class Places(ast.Transformer):
        """The places each variable of one rule stands at."""

        def __init__(self) -> None:
            self.found: dict[str, list[tuple[str, int, int]]] = {}

        def visit_SymbolicAtom(self, atom: Any) -> Any:
            sym = atom.symbol
            if sym.ast_type == ast.ASTType.Function:
                key = (sym.name, len(sym.arguments))
                for i, arg in enumerate(sym.arguments):
                    find((*key, i))
                    if arg.ast_type == ast.ASTType.Variable and arg.name != "_":
                        self.found.setdefault(arg.name, []).append((*key, i))
            return atom

    for node in nodes:
        visitor = Places()
        visitor(node)
        for same in visitor.found.values():
            for other in same[1:]:
                parent[find(other)] = find(same[0])
    return {x: find(x) for x in list(parent)}


def _tag(names: Sequence[str]) -> str:
    if not names:
        return "()"
    return "(" + ",".join(names) + ("," if len(names) == 1 else "") + ")"


def _join(parts: Iterable[str]) -> str:
    return "; ".join(p for p in parts if p)


def diagnose(encoding: str | Path, facts: str, intended: Iterable[tuple[str, bool]],
             budget: float = 10.0, program: str | None = None,
             wrong: list[str] | None = None, deepest: bool = True,
             rounds: int = UNIVERSE_ROUNDS, closed: Iterable[str] = (),
             open_outputs: Iterable[str] = (), time_limit: float | None = None,
             explanations: int = 0, refute: bool = False,
             within: Iterable[str] | None = None, chain: bool = False,
             required: Iterable[str] | None = None) -> Diagnosis:  # fmt: skip
    """Why ``encoding`` on ``facts`` has no answer set holding ``intended`` (atoms of its
    output predicates and their truth: every other atom of those predicates is false,
    but for the predicates ``open_outputs`` names, ``name/arity``, of which the
    intended answer says some atoms only); see the module docstring. ``program``: the
    encoding's text, unrolled where it is multi-shot
    (:func:`~pyasp_games.tools.fuzz.unroll.unroll`), else read from ``encoding``;
    ``budget``: seconds for the optimisation (the best explanation found by then is
    said; with a ``time_limit``, half of it at most: the universe's grounding takes
    its share); ``deepest``: among explanations of as many faulty rules, the one
    closest to the input, else the one closest to the constraints (a planner's rules
    below its goal and pruning hold the instance's geometry, which an explanation may
    break just to silence a constraint that is itself the fault); ``rounds``: the
    universe's rounds (an unrolled program, its atoms times the horizon, takes one);
    ``closed``: names of output predicates ``intended`` says whole even where it holds
    none of their atoms (Kriegspiel's ``missing``); ``time_limit``: seconds for the
    whole diagnosis, grounding included, which then runs in a child process stopped
    at the limit (status ``unknown``, no rule); ``explanations``: how many of the
    optimal explanations to enumerate besides, ties unbroken, within what is left of
    ``budget`` (:attr:`Diagnosis.explanations`, for :func:`several`); ``refute``: the
    other question, why the encoding *accepts* ``intended``, a wrong answer whose atoms
    are not wrong themselves (an empty plan): the fewest cases its definitions miss
    (unsupported atoms) that would let one of its constraints reject it, each blamed on
    the definition's first rule of the atom's shape (a deleted rule); ``within``: the
    atoms of a correct program's answer set on the same instance (a domain's bundled
    program: its auxiliary atoms besides the intended answer), which fix the intended
    interpretation of the encoding's predicates they name, taken to mean the same
    (:func:`_bounded`): those atoms true, no other, and the universe of those predicates
    those atoms alone (the relaxed universe of a large program grounds millions of rule
    instances; a fact the encoding left out, which no rule of it names, is then
    possible and said); the encoding's other predicates are guessed over the universe
    as without it, no head with another value, and the fewest faulty rules rank before
    how near a rule is to each unsupported atom (the rules around a free predicate are
    fixed right: violating them is forced by its values); ``chain``: the
    encoding accepted a wrong answer (its one answer set on ``facts``): among
    explanations of one size, the one whose wrongly derived atom the encoding derives
    first (the source of a chain of wrong derivations, :func:`_stages`), in place of
    the closest interpretation; an atom left unsupported counts as derived just after
    the negated atom that keeps its rule from deriving it (:func:`_blockers`), else
    last; ``required``: see :func:`blocked`."""
    if time_limit is not None:
        return _within(time_limit, diagnose, encoding, facts, list(intended),
                       budget=min(budget, max(time_limit / 2, 0.1)), program=program,
                       wrong=wrong, deepest=deepest, rounds=rounds, closed=list(closed),
                       open_outputs=list(open_outputs), explanations=explanations,
                       refute=refute, within=None if within is None else list(within),
                       chain=chain, required=None if required is None else list(required))  # fmt: skip
    from clingo import ast

    path = str(encoding)
    text = read_text(path) if program is None else program
    source = read_text(path).splitlines()
    statements: list[Any] = []
    try:
        ast.parse_string(text, statements.append)
    except RuntimeError as error:
        return Diagnosis(note=f"not diagnosed: clingo cannot parse the encoding ({error})")
    try:
        return _diagnose(path, source, statements, facts, list(intended), budget, wrong, deepest, rounds,
                         set(closed), set(open_outputs), text, explanations, refute,
                         None if within is None else list(within), chain,
                         None if required is None else list(required))  # fmt: skip
    except _Unsupported as what:
        return Diagnosis(note=f"not diagnosed: the rewrite does not handle {what}")
    except RuntimeError as error:  # a grounding error of the rewritten program
        return Diagnosis(note=f"not diagnosed: {str(error).splitlines()[0]}")


def _within(time_limit: float, how: Any, *args: Any, **options: Any) -> Diagnosis:
    """``how(*args, **options)`` in a child process that holds ``time_limit`` seconds
    (:func:`~pyasp_games.engines.runner.run_backend`): clingo's grounding of a relaxed
    program cannot be stopped from inside."""
    from pyasp_games.engines.claim import Claim
    from pyasp_games.engines.limits import Limits
    from pyasp_games.engines.runner import run_backend

    def run(_: Any, limits: Limits) -> Claim:
        said = how(*args, **options)
        return Claim.solved((said.rules, said.details, said.note, said.explanations))

    done = run_backend({"diagnose": run}, "diagnose", None, "", Limits(time_limit=time_limit),
                       lambda i, o: (None, ""))  # fmt: skip
    if done.status != "solved" or done.answer is None:
        return Diagnosis(note=f"not diagnosed within {time_limit:g} s", status="unknown")
    rules, details, note, explained = done.answer
    return Diagnosis([tuple(r) for r in rules], details, note,  # type: ignore[misc]
                     explanations=[[(tuple(r), d) for r, d in e] for e in explained])  # fmt: skip


def _head_atoms(head: Any) -> list[tuple[Any, list[Any]]]:
    """The head's atoms, each with its condition (a choice element's)."""
    from clingo import ast

    t = head.ast_type
    if t == ast.ASTType.Literal:
        if head.atom.ast_type == ast.ASTType.BooleanConstant:
            return []
        if head.sign != ast.Sign.NoSign:
            raise _Unsupported(f"the negated head {head}")
        return [(head.atom, [])]
    if t == ast.ASTType.Disjunction:
        return [(e.literal.atom, list(e.condition)) for e in head.elements]
    if t == ast.ASTType.Aggregate:
        return [(e.literal.atom, list(e.condition)) for e in head.elements]
    raise _Unsupported(f"the head {head}")


def _diagnose(path: str, source: list[str], statements: list[Any], facts: str,
              intended: list[tuple[str, bool]], budget: float,
              wrong: list[str] | None = None, deepest: bool = True,
              rounds: int = UNIVERSE_ROUNDS, closed: set[str] | None = None,
              open_outputs: set[str] | None = None, text: str = "",
              explanations: int = 0, refute: bool = False,
              within: list[str] | None = None, chain: bool = False,
              required: list[str] | None = None) -> Diagnosis:  # fmt: skip
    import clingo
    from clingo import ast

    def text_of(loc: Any) -> str:
        first, last = loc.begin.line, loc.end.line
        return " ".join(line.strip() for line in source[first - 1 : last])

    rules: list[_Rule] = []
    nodes: list[Any] = []
    kept: list[str] = []  # #const and the like
    for stm in statements:
        t = stm.ast_type
        if t == ast.ASTType.Rule:
            head = stm.head
            heads = [_predicate(a) for a, _ in _head_atoms(head)]
            if any(h is None for h in heads):
                raise _Unsupported(f"the head {head}")
            if head.ast_type == ast.ASTType.Aggregate:
                kind = "choice"
            elif head.ast_type == ast.ASTType.Disjunction:
                kind = "definition"
            else:
                kind = "constraint" if not heads else "definition"
            body = _predicates([*stm.body, *(c for _, cond in _head_atoms(head) for c in cond)])
            rules.append(_Rule(len(rules), kind, stm.location.begin.line, text_of(stm.location),
                               heads, body, []))  # type: ignore[arg-type]  # fmt: skip
            nodes.append(stm)
        elif t == ast.ASTType.External:
            key = _predicate(stm.atom)
            rules.append(_Rule(len(rules), "external", stm.location.begin.line,
                               text_of(stm.location), [key], [], []))  # type: ignore[list-item]  # fmt: skip
            nodes.append(stm)
        elif t in (ast.ASTType.Definition,):
            kept.append(str(stm))
        elif t == ast.ASTType.Program and stm.name != "base":
            raise _Unsupported("a multi-shot program not unrolled")
        # #show, #minimize, weak constraints, #heuristic, #project: no say on answer sets
    if not any(r.kind != "external" for r in rules):
        return Diagnosis(note="not diagnosed: the encoding has no rules")
    defined = {h for r in rules for h in r.heads}
    wanted = [(clingo.parse_term(a), truth) for a, truth in intended]
    outputs = {(s.name, len(s.arguments)) for s, truth in wanted if truth}
    outputs |= {(s.name, len(s.arguments)) for s, _ in wanted}
    whole = {key for key in defined if key[0] in (closed or ())}  # fixed, held or not
    defined |= outputs
    levels = _levels(rules)
    top = max(levels.values(), default=0) + 1
    # the predicates a correct answer set fixes (``within``): their atoms as it holds
    # them, their universe those atoms (no relaxed rule of theirs is grounded)
    fixed, possible = _bounded(within, wanted, _given(facts, defined), defined) \
        if within is not None else (set(), [])

    universe: list[str] = []
    debug: list[str] = []
    # (rule, head atom, relaxed body): the heads whose arguments may be wrong values
    valued: list[tuple[_Rule, Any, list[str]]] = []
    # the universe's rules by head atom, prefix and body: their computed values are kept
    # within their types' values once heads may hold other values (else a head with
    # another value could close a loop through arithmetic: K+1 without end)
    computing: dict[str, tuple[Any, str, list[str]]] = {}
    near_values: list[tuple[_Rule, Any, list[str], list[str]]] = []  # rule, head, positive body, variables

    def relaxed(body: Sequence[Any]) -> list[str]:
        """The body over the universe: positive atoms renamed, negation dropped,
        aggregates kept only where they bind a variable."""
        out = []
        for lit in body:
            if lit.ast_type != ast.ASTType.Literal:
                continue  # a conditional literal: dropped
            atom = lit.atom
            if atom.ast_type == ast.ASTType.SymbolicAtom:
                if lit.sign == ast.Sign.NoSign:
                    out.append(str(_rename(lit, "__u_", defined)))
            elif atom.ast_type in (ast.ASTType.BodyAggregate, ast.ASTType.Aggregate):
                guard = atom.left_guard
                if guard is not None and guard.term.ast_type == ast.ASTType.Variable \
                        and lit.sign == ast.Sign.NoSign:
                    counted = atom.ast_type == ast.ASTType.BodyAggregate \
                        and atom.function == ast.AggregateFunction.Count
                    if counted and guard.comparison == ast.ComparisonOperator.Equal:
                        # a count over the universe's atoms is an upper bound: every
                        # number up to it is possible (an answer holds fewer atoms)
                        most = ast.Variable(guard.term.location, f"{guard.term.name}__")
                        bound = lit.update(atom=atom.update(left_guard=guard.update(term=most)))
                        out.append(str(_rename(bound, "__u_", defined)))
                        out.append(f"{guard.term.name} = 0..{most.name}")
                    else:
                        out.append(str(_rename(lit, "__u_", defined)))
            else:
                out.append(str(lit))
        return out

    def add_universe(head: str, body: list[str], atom: Any = None, of: Any = None) -> None:
        if fixed and _predicate(atom if of is None else of) in fixed:
            return  # a predicate a correct answer set fixes: its atoms are the universe
        rule = f"{head} :- {_join(body)}." if body else f"{head}."
        if rule not in universe and _safe("\n".join(kept) + "\n" + rule):
            universe.append(rule)
            if atom is not None and body:
                computing[rule] = (atom, head[:4], body)

    def globals_of(stm: Any) -> list[str]:
        names: list[str] = []
        for lit in stm.body:
            if lit.ast_type != ast.ASTType.Literal:
                continue
            atom = lit.atom
            if atom.ast_type in (ast.ASTType.BodyAggregate, ast.ASTType.Aggregate):
                for g in (atom.left_guard, atom.right_guard):
                    if g is not None:
                        names += variables(g.term)
            elif lit.sign == ast.Sign.NoSign or atom.ast_type != ast.ASTType.SymbolicAtom:
                names += variables(lit)
        if stm.ast_type == ast.ASTType.Rule and stm.head.ast_type == ast.ASTType.Literal:
            names += variables(stm.head)
        return list(dict.fromkeys(names))

    def unit(r: _Rule) -> str:
        if r.kind == "constraint" or (r.kind == "choice" and not r.heads):
            return f"c({r.index})"
        name, arity = r.heads[0]
        return f'd("{name}",{arity})'

    for r, stm in zip(rules, nodes, strict=False):
        if r.kind == "external":
            atom = stm.atom
            cond = relaxed(stm.body)
            add_universe(str(_rename(atom, "__u_", defined)), cond, of=atom)
            continue
        body = list(stm.body)
        bodytext = [str(lit) for lit in body]
        order = (ast.ComparisonOperator.LessThan, ast.ComparisonOperator.LessEqual,
                 ast.ComparisonOperator.GreaterThan, ast.ComparisonOperator.GreaterEqual)
        compared = {str(lit) for lit in body if lit.ast_type == ast.ASTType.Literal
                    and lit.atom.ast_type == ast.ASTType.Comparison
                    and all(g.comparison in order for g in lit.atom.guards)}  # fmt: skip
        rb = relaxed(body)
        heads = _head_atoms(stm.head)
        for atom, cond in heads:
            add_universe(str(_rename(atom, "__u_", defined)), rb + relaxed(cond), atom)
            if body or cond:  # a fact of the program is data: its values as written
                valued.append((r, atom, rb + relaxed(cond)))
            # what the rule would derive but for its comparisons (a wrong bound's missing
            # case), read-only: possible from the next round on
            loose = [x for x in relaxed(body) + relaxed(cond) if x not in compared]
            if len(loose) < len(rb) + len(relaxed(cond)):
                add_universe(str(_rename(atom, "__v_", defined)), loose, atom)
        for k, lit in enumerate(body):  # every atom a body reads is possible too (read
            # only: __v_, which derives nothing more, so the universe stays finite)
            if lit.ast_type == ast.ASTType.Literal and lit.atom.ast_type == ast.ASTType.SymbolicAtom \
                    and _predicate(lit.atom) in defined:
                rest = relaxed(body[:k] + body[k + 1 :])
                add_universe(str(_rename(lit.atom, "__v_", defined)), rest, of=lit.atom)
        v = globals_of(stm)
        r.variables = v
        tag = f"({r.index},{_tag(v)})"
        u = unit(r)
        if r.kind == "constraint" and required is not None:
            # the constraints that should reject the answer: not faults, but one that
            # requires a lacked atom (``not a`` in its body) must fire (:func:`blocked`)
            for lit in body:
                if lit.ast_type == ast.ASTType.Literal and lit.sign == ast.Sign.Negation \
                        and lit.atom.ast_type == ast.ASTType.SymbolicAtom:
                    debug.append(f"__req({lit.atom},{r.index},{tag}) :- {_join(bodytext)}.")
            continue
        if r.kind == "constraint":  # a constraint only checks: after any definition
            debug.append(f"__depth({u},{top}).")
        if r.kind == "constraint" and refute:  # a constraint that rejects the wrong answer
            debug.append(f"__rejects({r.index}) :- {_join(bodytext)}." if bodytext
                         else f"__rejects({r.index}).")  # fmt: skip
            continue
        if r.kind == "constraint":
            debug.append(f"__ab(viol,{u},{tag}) :- {_join(bodytext)}." if bodytext
                         else f"__ab(viol,{u},{tag}).")  # fmt: skip
            continue
        if r.kind == "choice":
            agg = stm.head
            if agg.left_guard is not None or agg.right_guard is not None:
                bounded = str(agg)
                u = f"c({r.index})"
                debug.append(f"__depth({u},{top}).")
                debug.append(f"__ab(viol,{u},{tag}) :- {_join([*bodytext, 'not ' + bounded])}.")
            for atom, cond in heads:
                local = list(dict.fromkeys(v + variables(atom) + [x for c in cond for x in variables(c)]))
                r.local = local
                debug.append(f"__sup({atom},{r.index},{_tag(local)}) :- "
                             f"{_join(bodytext + [str(c) for c in cond] + [str(atom)])}.")  # fmt: skip
                # the instances that could choose it, chosen or not (a wrong answer that
                # lacks an atom: the choice that leaves it out)
                could = f"__choosable({atom},{r.index},{_tag(local)}) :- {_join(bodytext + [str(c) for c in cond])}."
                if _safe("\n".join(kept) + "\n" + could):
                    debug.append(could)
                fd = [str(_rename(lit, "__fd", defined, wrap=True))
                      if lit.ast_type == ast.ASTType.Literal and lit.sign == ast.Sign.NoSign
                      and lit.atom.ast_type == ast.ASTType.SymbolicAtom else str(lit)
                      for lit in body + cond]  # fmt: skip
                debug.append(f"__fd({atom}) :- {_join([*fd, str(atom)])}.")
            continue
        # a definition: normal or disjunctive
        negated = [f"not {a}" for a, _ in heads]
        debug.append(f"__ab(viol,{u},{tag}) :- {_join(bodytext + negated)}.")
        if chain and len(heads) == 1:  # the atom it derives that the interpretation lacks
            debug.append(f"__vhead({heads[0][0]}) :- {_join(bodytext + negated)}.")
        if chain:  # what keeps it from deriving a head: an atom its negation reads
            debug += [b for b in _blockers(r, tag, body, heads) if _safe("\n".join(kept) + "\n" + b)]
        for atom, _ in heads:
            others = [f"not {b}" for b, _ in heads if b is not atom]
            debug.append(f"__sup({atom},{r.index},{_tag(v)}) :- {_join(bodytext + others)}."
                         if bodytext or others else f"__sup({atom},{r.index},{_tag(v)}).")  # fmt: skip
            fd = [str(_rename(lit, "__fd", defined, wrap=True))
                  if lit.ast_type == ast.ASTType.Literal and lit.sign == ast.Sign.NoSign
                  and lit.atom.ast_type == ast.ASTType.SymbolicAtom else str(lit)
                  for lit in body]  # fmt: skip
            debug.append(f"__fd({atom}) :- {_join(fd + others + [str(atom)])}.")
            # the rule that would derive an unsupported atom but for a condition: its
            # head in the universe, its positive atoms true
            near = [str(lit) for lit in body if lit.ast_type == ast.ASTType.Literal
                    and lit.sign == ast.Sign.NoSign and lit.atom.ast_type == ast.ASTType.SymbolicAtom]
            near_rule = f"__near({atom},{r.index},{_tag(v)}) :- " \
                f"{_join([str(_rename(atom, '__u_', defined)), *near])}."
            if _safe("\n".join(kept) + "\n" + near_rule):
                debug.append(near_rule)
            # a rule whose head has the unsupported atom's shape (cw(L,R,T), not the
            # cw(L,R,0) of round 0): the definer blamed where no rule nearly derives it
            could = f"__could({atom},{r.index}) :- __ab(unsup,_,{atom})."
            if _safe("#defined __ab/3.\n" + "\n".join(kept) + "\n" + could):
                debug.append(could)
            near_values.append((r, atom, near, v))

    externals = {h for r in rules if r.kind == "external" for h in r.heads}
    debug += [f"__within({a})." for a in possible]
    universe += [f"__u_{a}." for a in possible]
    debug.append("#defined __within/1.")
    for name, arity in sorted(defined):
        args = ",".join(f"X{i}" for i in range(arity))
        atom = f"{name}({args})" if arity else name
        uatom = f"__u_{name}({args})" if arity else f"__u_{name}"
        if (name, arity) in fixed:  # a predicate the correct answer set names: as
            # it holds it, even where the universe lacks an atom (a fact left out)
            debug.append(f"{atom} :- __within({atom}).")
        else:
            debug.append(f"{{ {atom} }} :- {uatom}.")
            debug.append(f"{{ {atom} }} :- __v_{uatom[4:]}.")
        universe.append(f"#defined __u_{name}/{arity}. #defined __v_{name}/{arity}.")
        if (name, arity) in externals:
            debug.append(f"__fd({atom}) :- {atom}.")  # free: founded by the outside
            continue
        u = f'd("{name}",{arity})'
        debug.append(f"__depth({u},{levels.get((name, arity), 0)}).")
        debug.append(f"__ab(unsup,{u},{atom}) :- {atom}, not __sup({atom},_,_), not __given({atom}).")
        debug.append(f"__ab(unfd,{u},{atom}) :- {atom}, __sup({atom},_,_), not __fd({atom}).")
    # the instance's facts of a predicate the rules define too (routing's at(V,P,0)):
    # true, supported and founded by the instance, possible in the universe
    debug.append("#defined __given/1. __fd(A) :- __given(A).")
    for fact in _given(facts, defined):
        universe.append(f"__u_{fact}.")
        debug.append(f"__given({fact}).")
    for symbol, truth in wanted:
        universe.append(f"__u_{symbol}.")
        debug.append(f":- not {symbol}." if truth else f":- {symbol}.")
        if truth:
            debug.append(f"__want({symbol}).")
    for name, arity in sorted({(s.name, len(s.arguments)) for s, t in wanted if t} | whole):
        if f"{name}/{arity}" in (open_outputs or ()):
            continue  # the intended answer names some of its atoms only
        args = ",".join(f"X{i}" for i in range(arity))
        atom = f"{name}({args})" if arity else name
        debug.append(f":- {atom}, not __want({atom}).")
    debug.append("#defined __want/1.")
    debug.append("__fd(A) :- __ab(unsup,_,A).")  # blamed once, as unsupported
    debug.append("__unit(U) :- __ab(_,U,_).")
    # an atom no rule nearly derives (no rule whose positive body holds has it as head)
    # is a fault of the rules above it more often than a missing case of its own
    debug.append("__near_any(A) :- __near(A,_,_).")
    debug.append("#defined __nearv/3. #defined __inbase/1.")
    # how far the nearest rule is from deriving an unsupported atom: 0 where one would
    # but for a comparison or a negation; 1 but for one value of its head, or where the
    # atom is one only such a value makes possible (outside the program's own
    # universe); 2 for none (then a fault of the rules above it more often than a
    # missing case of its own)
    debug.append("__far(A,2) :- __ab(unsup,_,A), not __near_any(A), not __nearv(A,_,_).")
    debug.append("__far(A,1) :- __ab(unsup,_,A), not __near_any(A), __nearv(A,_,_).")
    debug.append("__far(A,1) :- __ab(unsup,_,A), not __inbase(A).")
    # the levels not in EXPLANATION_LEVELS only break ties between explanations of one
    # size: they hold while __tie does (the enumeration of every optimal one drops them)
    debug.append("#external __tie. [true]")

    def tie(level: int) -> str:
        return "" if level in EXPLANATION_LEVELS else ", __tie"

    # under a correct answer set (``within``) the rules around a free predicate are
    # fixed right: violating them is forced by its values, so the fewest faulty rules
    # come before how near a rule is to each unsupported atom
    far, units = (4, 5) if fixed else (5, 4)
    debug.append(f"#minimize {{ C@{far},A : __far(A,C){tie(far)} }}.")
    debug.append(f"#minimize {{ 1@{units},U : __unit(U){tie(units)} }}.")
    debug.append(f"#minimize {{ 1@3,K,U,I : __ab(K,U,I){tie(3)} }}.")
    # the encoding's own answer set, where it has one only (a program that derives its
    # answer): the intended interpretation that changes the fewest of its atoms. A
    # fault changes what its rule derives and what is derived from that; a rule below
    # it blamed would change atoms the faulty rule does not touch
    stages = _stages(text, facts, budget) if chain and text else None
    anchor = _answer_set(text, facts, budget) if text and wrong is None and not stages else None
    if stages:
        # a wrong answer accepted: a chain of wrong derivations is blamed at its source.
        # Each link of a chain explains the wrong answer as well (one instance each);
        # the source's head is derived first (its stage, the lowest) and what changes
        # from the encoding's answer is the chain below the wrong output: a link at
        # stage k changes about as many atoms as the output's stage less k, so the
        # stage plus the atoms changed is one for every link of a chain, and more for
        # a rule that changes what does not lead to the output (the root of every
        # position, which also explains it). Then the lowest stage: the source. An
        # atom left unsupported, or a head the encoding does not derive: the last.
        last = max(stages.values()) + 1
        debug += [f"__stage({a},{k})." for a, k in stages.items()]
        debug.append("#defined __vhead/1. __staged(A) :- __stage(A,_).")
        debug += [f"__was({a})." for a in stages
                  if (clingo.parse_term(a).name, len(clingo.parse_term(a).arguments)) in defined]  # fmt: skip
        for name, arity in sorted(defined - externals):
            args = ",".join(f"X{i}" for i in range(arity))
            atom = f"{name}({args})" if arity else name
            debug.append(f"__diff({atom}) :- {atom}, not __was({atom}).")
            debug.append(f"__diff({atom}) :- __was({atom}), not {atom}.")
        # An atom left unsupported where a rule would derive it but for a negated atom
        # the encoding derives (``not next(P,_)``: a move it has) is that atom's next
        # link, its stage plus one (:func:`_blockers`); where what blocks it is an atom
        # the encoding does not derive (``win(Q) : next(P,Q)``), the chain ends there:
        # the last stage
        debug += ["#defined __blk/3.",
                  "__blkless(A,I,K) :- __blk(A,I,K), __blk(A,I,J), J < K.",
                  "__blkfirst(A,I,K) :- __blk(A,I,K), not __blkless(A,I,K).",
                  "__blkmore(A,K) :- __blkfirst(A,_,K), __blkfirst(A,_,J), J > K.",
                  "__settle(A,K) :- __ab(unsup,_,A), __blkfirst(A,_,K), not __blkmore(A,K).",
                  "__settled(A) :- __settle(A,_)."]
        source = (f"K@{{level}},A : __vhead(A), __stage(A,K){{tie}}; {last}@{{level}},A : "
                  f"__vhead(A), not __staged(A){{tie}}; {last}@{{level}},A : __ab(unsup,_,A), "
                  f"not __settled(A){{tie}}; K+1@{{level}},A : __settle(A,K){{tie}}")
        debug.append(f"#minimize {{ {source.format(level=2, tie=tie(2))}; 1@2,A,d : __diff(A){tie(2)} }}.")
        debug.append(f"#minimize {{ {source.format(level=1, tie=tie(1))} }}.")
        # where every optimal explanation is enumerated (ties unbroken), each link of a
        # chain in one definition is one (free/2's root rule and the rule below it):
        # the source, first here, is then counted on every failing instance too
        debug.append("__rule(I) :- __ab(viol,_,(I,_)). #project __rule/1.")
    if anchor is not None:
        debug += [f"__was({a})." for a in anchor if (a.name, len(a.arguments)) in defined]
        for name, arity in sorted(defined - externals):
            args = ",".join(f"X{i}" for i in range(arity))
            atom = f"{name}({args})" if arity else name
            debug.append(f"__diff({atom}) :- {atom}, not __was({atom}).")
            debug.append(f"__diff({atom}) :- __was({atom}), not {atom}.")
        debug.append(f"#minimize {{ 1@2,A : __diff(A){tie(2)} }}.")
    depth = 0 if stages else 1  # below the source's stage
    debug.append(f"#minimize {{ L@{depth},U : __unit(U), __depth(U,L){tie(1)} }}." if deepest
                 else f"#minimize {{ {top}-L@{depth},U : __unit(U), __depth(U,L){tie(1)} }}.")  # fmt: skip
    debug.append("#project __unit/1.")  # an explanation: its faulty units
    debug.append("#defined __choosable/3. #defined __abduced/1. #show __abduced/1.")
    if refute:  # the wrong answer rejected by some constraint of the encoding's
        debug.append("#defined __rejects/1. :- not __rejects(_). #show __rejects/1.")
    if required is not None:
        debug += [f"__lack({a})." for a in required]
        debug += ["#defined __req/3.", "__fires :- __req(A,_,_), __lack(A).", ":- not __fires.",
                  "#show __req/3."]
    debug.append("#show __ab/3. #show __near/3. #show __nearv/3. #show __sup/3. #show __choosable/3. #show __could/2.")

    # the universe in rounds: an atom a body reads (__v_) is possible in the next round,
    # where the rules may derive more from it; a few rounds, a bounded size
    # Each head may hold another value in each place (a rule with a wrong value in its
    # head makes atoms the right program needs that no rule of the user's names): the
    # values of the place's type met so far, read only (__v_)
    classes = _argument_classes(nodes)
    extra: list[str] = []
    values: list[str] = []
    places: set[tuple[str, int, int]] = set()  # the head places that may hold other values
    rules_now = universe
    base: list[str] = []
    for _ in range(rounds):
        ground = clingo.Control(["--warn=none"], logger=lambda c, m: None)
        ground.add("base", [], facts + "\n" + "\n".join(kept + rules_now + values + extra))
        ground.ground([("base", [])])
        read = {f"__u_{str(a.symbol)[4:]}." for a in ground.symbolic_atoms
                if a.symbol.name.startswith("__v_")}  # fmt: skip
        known = {f"{a.symbol}." for a in ground.symbolic_atoms if a.symbol.name.startswith("__u_")}
        new = sorted(read - known - set(extra))
        # the types' values as the program's own rules name them (not those that
        # other values make, which would grow the universe round by round)
        if not values and within is not None:  # no other values in the heads' places:
            # the fixed predicates hold the right ones, and the types' values over a
            # large universe ground hundreds of thousands of atoms more
            base = [f"__inbase({str(a.symbol)[4:]})." for a in ground.symbolic_atoms
                    if a.symbol.name.startswith(("__u_", "__v_"))]  # fmt: skip
            more = []
        elif not values:
            base = [f"__inbase({str(a.symbol)[4:]})." for a in ground.symbolic_atoms
                    if a.symbol.name.startswith(("__u_", "__v_"))]  # fmt: skip
            more, types = _value_rules(ground, classes, valued, defined, places)
            rules_now = [_guarded(rule, computing.get(rule), types, defined) for rule in universe]
        else:
            more = values
        if (not new and more == values) or len(known) + len(new) > UNIVERSE_ATOMS:
            break
        extra += new
        values = more
    for r, atom, near, v in near_values:
        sym = atom.symbol
        for i, arg in enumerate(sym.arguments if sym.ast_type == ast.ASTType.Function else []):
            if (sym.name, len(sym.arguments), i) not in places:
                continue
            place = ast.Variable(sym.location, VALUE)
            other = atom.update(symbol=sym.update(arguments=[*sym.arguments[:i], place, *sym.arguments[i + 1 :]]))
            value_rule = f"__nearv({other},{r.index},{_tag(v)}) :- " \
                f"{_join([str(other), *near, f'{VALUE} != {arg}'])}."
            if _safe("\n".join(kept) + "\n" + value_rule):
                debug.append(value_rule)
    if wrong is None and not refute and required is None and not chain:  # a definition by facts that misses a case (a fact deleted)
        debug += _missing_facts(facts, kept, universe, rules, nodes, classes, ground, wanted)
    # the chain's weighted level (stages, atoms changed): oll's cores, 4 times faster
    # than stratification on geography's trees
    strategy = "--opt-strategy=usc,oll" if stages else "--opt-strategy=usc,stratify"
    control = clingo.Control(["--warn=none", strategy], logger=lambda c, m: None)
    program = "\n".join(kept + rules_now + values + extra + debug + base)
    control.add("base", [], facts + "\n" + program)
    control.ground([("base", [])])
    best: list[clingo.Symbol] = []
    models: list[int] = []  # a model may show nothing: no abnormality, no support

    def keep(model: clingo.Model) -> None:
        best[:] = model.symbols(shown=True)
        models.append(1)

    started = time.perf_counter()
    with control.solve(on_model=keep, async_=True) as handle:
        if not handle.wait(budget):
            handle.cancel()
        result = handle.get()
    if result.unsatisfiable and refute:
        return Diagnosis(note="not diagnosed: no case a definition misses lets a constraint "
                         "reject the wrong answer (a constraint is missing)")  # fmt: skip
    if result.unsatisfiable:
        return Diagnosis(note="not diagnosed: no interpretation holds the intended answer "
                         "(an atom it needs is outside what any rule could derive)")  # fmt: skip
    if not models:
        return Diagnosis(note=f"not diagnosed: no explanation within {budget:g} s", status="unknown")
    if wrong is not None:
        return _supporters(path, rules, best, wrong)
    said = _explain(path, rules, best, levels, top, refute)
    if required is not None:
        return _unblocked(said, rules, best, set(required))
    rejecting = sorted(rules[s.arguments[0].number].line for s in best if s.name == "__rejects")
    if refute and said.rules and rejecting:
        said.details[0].append(f"with it, line {rejecting[0]}'s constraint rejects it")
    # the enumeration: as long as the optimisation took at most (a fuzz session's time
    # goes to the other failing instances rather than to the last explanations of one)
    spent = time.perf_counter() - started
    left = min(budget - spent, max(spent, 0.1))
    if explanations and said.rules and left > 0:
        said.explanations = _optimal(control, explanations, left,
                                     lambda model: _explain(path, rules, model, levels, top))  # fmt: skip
    return said


def several(first: Diagnosis, others: Sequence[Diagnosis]) -> Diagnosis:
    """The diagnosis of one failing instance, ``first``, with the diagnoses of ``others``
    (each with its :attr:`~Diagnosis.explanations`): consistency-based diagnosis with
    several observations, after Reiter. A faulty rule explains every instance it fails
    on, so the rules are ranked by how many instances' optimal explanations contain
    them, ties in ``first``'s order (where one instance holds two explanations of one
    size, another may hold one of them only). ``first`` as it is where no other
    instance was explained.

    >>> rule = ("mine.lp", 3, "b :- a.")
    >>> other = ("mine.lp", 5, "c :- b.")
    >>> first = Diagnosis([other, rule], [["c wrong"], ["b wrong"]],
    ...                   explanations=[[(other, ["c wrong"])], [(rule, ["b wrong"])]])
    >>> second = Diagnosis([rule], [["b wrong"]], explanations=[[(rule, ["b wrong"])]])
    >>> for line in several(first, [second]).lines:
    ...     print(line)
      blame: mine.lp:3: b :- a.
        b wrong
        it explains each of the 2 failing instances diagnosed
      blame: mine.lp:5: c :- b.
        c wrong
    """
    # each instance's own best explanation is one of its optimal ones (where the
    # enumeration was cut, the only one known)
    observed = [[list(zip(d.rules, d.details, strict=False)), *d.explanations]
                for d in [first, *others] if d.rules]  # fmt: skip
    if not first.rules or len(observed) < 2:
        return first
    order: dict[tuple[str, int, str], int] = {}  # the first instance's order
    said: dict[tuple[str, int, str], list[str]] = {}
    for rule, details in zip(first.rules, first.details, strict=False):
        order.setdefault(rule, len(order))
        said.setdefault(rule, list(details))
    count: dict[tuple[str, int, str], int] = {}
    for explanations in observed:
        here = {tuple(rule) for explanation in explanations for rule, _ in explanation}
        for explanation in explanations:
            for rule, details in explanation:
                order.setdefault(tuple(rule), len(order))
                said.setdefault(tuple(rule), list(details))
        for rule in here:
            count[rule] = count.get(rule, 0) + 1
    ranked = sorted(order, key=lambda r: (-count.get(r, 0), order[r]))[:SHOWN_FAULTS]
    out = Diagnosis(note=first.note, status=first.status, explanations=first.explanations)
    for rule in ranked:
        out.rules.append(rule)
        every = count.get(rule, 0) == len(observed)
        out.details.append(said[rule] + ([f"it explains each of the {len(observed)} failing "
                                          "instances diagnosed"] if every else []))  # fmt: skip
    return out


def _optimal(control: Any, most: int, budget: float, explain: Any) -> list[list[Any]]:
    """Every optimal explanation of the grounded diagnosis ``control`` (``most`` of them
    at most, within ``budget`` seconds), the ties between those of one size no longer
    broken (``__tie`` false): each as its faulty rules, said as :class:`Diagnosis`
    does, ``(rule, details)``; ``[]`` where the optimum was not proven in time."""
    import clingo

    control.assign_external(clingo.Function("__tie"), False)
    control.configuration.solve.opt_mode = "optN"
    control.configuration.solve.models = str(most)
    control.configuration.solve.project = "project"  # each set of faulty units once
    found: list[list[Any]] = []

    def keep(model: clingo.Model) -> None:
        if model.optimality_proven:
            said = explain(model.symbols(shown=True))
            found.append(list(zip(said.rules, said.details, strict=False)))

    with control.solve(on_model=keep, async_=True) as handle:
        if not handle.wait(budget):
            handle.cancel()
        handle.get()
    return found


def _given(facts: str, defined: set[tuple[str, int]]) -> list[str]:
    """The atoms of ``defined`` predicates that ``facts`` state (the instance's
    ``at(V,P,0)`` where rules define ``at/3`` for later steps)."""
    import clingo

    control = clingo.Control(["--warn=none"], logger=lambda c, m: None)
    control.add("base", [], facts)
    control.ground([("base", [])])
    return [str(a.symbol) for a in control.symbolic_atoms
            if a.is_fact and (a.symbol.name, len(a.symbol.arguments)) in defined]  # fmt: skip


def _bounded(within: list[str], wanted: list[tuple[Any, bool]],
             given: Iterable[str], defined: set[tuple[str, int]]) -> tuple[set[tuple[str, int]], list[str]]:
    """The predicates the encoding defines that a correct answer set ``within`` names,
    and the atoms the intended interpretation holds of them: that answer set's, the
    intended answer's and the instance's facts (``given``).

    >>> import clingo
    >>> _bounded(["p(1)", "q(2)"], [(clingo.parse_term("p(3)"), True)], [], {("p", 1)})
    ({('p', 1)}, ['p(1)', 'p(3)'])
    """
    import clingo

    atoms = [clingo.parse_term(a) for a in within]
    atoms += [*(s for s, truth in wanted if truth)]
    atoms += [clingo.parse_term(g) for g in given]
    names = {(a.name, len(a.arguments)) for a in map(clingo.parse_term, within)} & defined
    return names, sorted({str(a) for a in atoms if (a.name, len(a.arguments)) in names})


def _answer_set(text: str, facts: str, budget: float) -> list[Any] | None:
    """The atoms of the one answer set of ``text`` on ``facts``; ``None`` where it has
    none, more than one, or takes longer than ``budget`` seconds."""
    import clingo

    control = clingo.Control(["--warn=none", "--models=2"], logger=lambda c, m: None)
    try:
        control.add("base", [], facts + "\n" + text)
        control.ground([("base", [])])
    except RuntimeError:
        return None
    found: list[list[Any]] = []
    with control.solve(on_model=lambda m: found.append(m.symbols(atoms=True)), async_=True) as handle:
        if not handle.wait(budget):
            handle.cancel()
            return None
        handle.get()
    return found[0] if len(found) == 1 else None


def only_answer_set(encoding: str | Path, facts: str, budget: float) -> list[str] | None:
    """The atoms (shown or not) of the one answer set of ``encoding`` on ``facts``: a
    bundled program that derives its answer (a game's values by the mex rule), whose
    atoms can fix the intended interpretation of a user's encoding
    (``diagnose(..., within=)``); ``None`` where it has none, more than one (an
    optimisation's statements ignored: one optimum among several is not the
    intended one), a grounding error, or takes longer than ``budget`` seconds to solve.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".lp", delete=False) as f:
    ...     _ = f.write("q(X) :- p(X), not r(X). r(2).")
    >>> only_answer_set(f.name, "p(1). p(2).", 5)
    ['p(1)', 'p(2)', 'r(2)', 'q(1)']
    >>> only_answer_set(f.name, "p(1). p(2). {r(1)}.", 5) is None  # two answer sets
    True
    >>> os.unlink(f.name)
    """
    import clingo

    control = clingo.Control(["--warn=none", "--models=2", "--opt-mode=ignore"],
                             logger=lambda c, m: None)  # fmt: skip
    try:
        control.add("base", [], facts + "\n" + read_text(str(encoding)))
        control.ground([("base", [])])
    except RuntimeError:
        return None
    found: list[list[str]] = []

    def keep(model: clingo.Model) -> None:
        found.append([str(a) for a in model.symbols(atoms=True)])

    with control.solve(on_model=keep, async_=True) as handle:
        if not handle.wait(budget):
            handle.cancel()
            return None
        handle.get()
    return found[0] if len(found) == 1 else None


def shared_predicates(encoding: str | Path, atoms: Iterable[str]) -> list[str]:
    """The predicates (``name/arity``) that rules of ``encoding`` define and ``atoms``
    name: those a correct answer set given as ``diagnose(..., within=atoms)`` fixes
    (taken to mean in ``encoding`` what they mean there); ``[]`` where clingo cannot
    parse it.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".lp", delete=False) as f:
    ...     _ = f.write("q(X) :- p(X). s :- q(1).")
    >>> shared_predicates(f.name, ["p(1)", "q(1)", "r(2)"])
    ['q/1']
    >>> os.unlink(f.name)
    """
    import clingo
    from clingo import ast

    statements: list[Any] = []
    try:
        ast.parse_string(read_text(str(encoding)), statements.append)
    except RuntimeError:
        return []
    defined: set[tuple[str, int]] = set()
    for stm in statements:
        if stm.ast_type == ast.ASTType.Rule:
            try:
                defined |= {key for a, _ in _head_atoms(stm.head) if (key := _predicate(a))}
            except _Unsupported:
                continue
    named = {(s.name, len(s.arguments)) for s in map(clingo.parse_term, atoms)}
    return [f"{n}/{k}" for n, k in sorted(defined & named)]


def assumed_or_not(assumed: Diagnosis, usual: Diagnosis) -> bool:
    """Whether the diagnosis under a correct answer set's meaning of the encoding's
    predicates (``assumed``, ``diagnose(..., within=)``) is the one to say rather than
    the ``usual`` one, without it: it names a rule, and explains the failure with no
    more faulty rules (a user's predicate that shares a name but not a meaning with
    the correct program's makes every rule around it violated: more faults, or no
    interpretation at all, and the usual diagnosis stands).

    >>> a, b = ("mine.lp", 3, "b :- a."), ("mine.lp", 5, "c :- b.")
    >>> assumed_or_not(Diagnosis([a], [[]]), Diagnosis([b, a], [[], []]))
    True
    >>> assumed_or_not(Diagnosis([a, b], [[], []]), Diagnosis([b], [[]]))
    False
    >>> assumed_or_not(Diagnosis(note="not diagnosed"), Diagnosis([b], [[]]))
    False
    """
    if not assumed.rules or assumed.status != "solved":
        return False
    return not usual.rules or len(assumed.rules) <= len(usual.rules)


def diagnose_assumed(encoding: str | Path, bundled: str | Path, facts: str,
                     intended: Iterable[tuple[str, bool]], budget: float = 10.0,
                     time_limit: float | None = None, open_outputs: Iterable[str] = (),
                     called: str = "the bundled program", **options: Any) -> Diagnosis:  # fmt: skip
    """:func:`diagnose` of ``encoding`` under the meaning a correct program, ``bundled``
    (a domain's own encoding of the question), gives the predicates both define: its
    one answer set on ``facts`` (:func:`only_answer_set`) is the ``within`` of the
    diagnosis, where it holds ``intended`` (its atoms of the intended answer's
    predicates, but for ``open_outputs``, are those ``intended`` holds). The note says
    which predicates were assumed to mean the same; no rule (and a note why) where
    the bundled program has no one answer set that agrees, or fixes no predicate of
    ``encoding`` besides those ``intended`` closes (nothing would be assumed). ``time_limit``: seconds
    for all of it, in a child process; ``called``: how the note names ``bundled``;
    ``options``: :func:`diagnose`'s.

    >>> import tempfile, os
    >>> def write(text):
    ...     with tempfile.NamedTemporaryFile("w", suffix=".lp", delete=False) as f:
    ...         _ = f.write(text)
    ...     return f.name
    >>> right = write("near(X) :- p(X). near(X+1) :- p(X). out(X) :- near(X).")
    >>> mine = write("near(X) :- p(X).\\nout(X) :- near(X).")
    >>> said = diagnose_assumed(mine, right, "p(1).", [("out(1)", True), ("out(2)", True)])
    >>> said.rules[0][1], said.note
    (1, 'assumed: near/1, out/1 mean what they do in the bundled program (its answer set on this instance)')
    >>> for f in (right, mine):
    ...     os.unlink(f)
    """
    intended = list(intended)
    if time_limit is not None:
        return _within(time_limit, diagnose_assumed, encoding, bundled, facts, intended,
                       budget=min(budget, max(time_limit / 2, 0.1)),
                       open_outputs=list(open_outputs), called=called, **options)  # fmt: skip
    import clingo

    started = time.perf_counter()
    within = only_answer_set(bundled, facts, budget / 2)
    if within is None:
        return Diagnosis(note="not diagnosed: the bundled program has no one answer set here")
    held = set(within)
    # the intended answer's predicates it closes: the bundled program's atoms of them
    # must be the intended ones (the same question answered, the same meaning)
    def key(atom: str) -> tuple[str, int]:
        symbol = clingo.parse_term(atom)
        return symbol.name, len(symbol.arguments)

    closed = {key(a) for a, _ in intended}
    closed -= {(n, int(k)) for n, _, k in (o.rpartition("/") for o in open_outputs)}
    true = {a for a, truth in intended if truth}
    agrees = all((a in held) == truth for a, truth in intended) \
        and all(a in true for a in within if key(a) in closed)
    if not agrees:
        return Diagnosis(note="not diagnosed: the bundled program's answer set is not the "
                         "intended answer here")  # fmt: skip
    shared = shared_predicates(encoding, within)
    if not {p for p in shared if (p.rpartition("/")[0], int(p.rpartition("/")[2])) not in closed}:
        return Diagnosis(note="not diagnosed: the bundled program fixes no predicate of the "
                         "encoding's besides the intended answer's")  # fmt: skip
    left = max(budget - (time.perf_counter() - started), 0.1)
    said = diagnose(encoding, facts, intended, budget=left, within=within,
                    open_outputs=open_outputs, **options)  # fmt: skip
    if said.rules:
        # those the blamed rules define first: the meaning the blame rests on
        heads = [p for p in shared if any(r[2].startswith(p.split("/")[0] + "(") for r in said.rules)]
        shared = heads + [p for p in shared if p not in heads]
        more = f" and {len(shared) - 4} more" if len(shared) > 4 else ""
        said.note = (f"assumed: {', '.join(shared[:4])}{more} mean what they do in {called} "
                     "(its answer set on this instance)")  # fmt: skip
    return said


def _value_rules(ground: Any, classes: dict[tuple[str, int, int], tuple[str, int, int]],
                 valued: list[tuple[_Rule, Any, list[str]]], defined: set[tuple[str, int]],
                 places: set[tuple[str, int, int]]) -> tuple[list[str], dict[tuple[str, int, int], int]]:  # fmt: skip
    """The values each place's type holds in the grounded universe ``ground`` (facts
    ``__dom(T,V)``), and for every head place the rule ``__v_`` that gives its head
    every such value there (added to ``places``): not in a unary head (another value
    is another atom altogether), nor in a place of compound terms (a tree's nodes)."""
    names = {rep: k for k, rep in enumerate(sorted(set(classes.values())))}
    seen: set[str] = set()
    compound: set[tuple[str, int, int]] = set()  # a type of terms (a game tree's nodes)
    for a in ground.symbolic_atoms:
        sym = a.symbol
        if sym.type != sym.type.Function:
            continue
        name = sym.name[4:] if sym.name.startswith(("__u_", "__v_")) else sym.name
        for i, arg in enumerate(sym.arguments):
            rep = classes.get((name, len(sym.arguments), i))
            if rep is not None:
                seen.add(f"__dom({names[rep]},{arg}).")
                if arg.type == arg.type.Function and arg.arguments:
                    compound.add(rep)
    rules = sorted(seen)
    for _rule, atom, body in valued:
        sym = atom.symbol
        if sym.ast_type != sym.ast_type.Function:
            continue
        key = (sym.name, len(sym.arguments))
        for i in range(len(sym.arguments) if len(sym.arguments) > 1 else 0):
            rep = classes.get((*key, i))
            if rep is None or rep in compound:  # another node of a tree: not a value
                continue
            places.add((*key, i))
            from clingo import ast

            place = ast.Variable(sym.location, VALUE)
            other = atom.update(symbol=sym.update(arguments=[*sym.arguments[:i], place, *sym.arguments[i + 1 :]]))
            head = str(_rename(other, "__v_", defined))
            rule = f"{head} :- {_join([*body, f'__dom({names[rep]},{VALUE})'])}."
            if rule not in rules:
                rules.append(rule)
    types = {place: names[rep] for place, rep in classes.items() if rep not in compound}
    return rules, types


def _guarded(rule: str, computing: tuple[Any, str, list[str]] | None,
             types: dict[tuple[str, int, int], int], defined: set[tuple[str, int]]) -> str:  # fmt: skip
    """``rule`` of the universe with each value its head computes (``K+1``, ``S ? M``)
    kept within its type's values (``__dom``)."""
    from clingo import ast

    if computing is None:
        return rule
    atom, prefix, body = computing
    sym = atom.symbol
    if sym.ast_type != ast.ASTType.Function:
        return rule
    arithmetic = (ast.ASTType.BinaryOperation, ast.ASTType.UnaryOperation)
    guards = [f"__dom({types[(sym.name, len(sym.arguments), i)]},{arg})"
              for i, arg in enumerate(sym.arguments)
              if arg.ast_type in arithmetic and (sym.name, len(sym.arguments), i) in types]  # fmt: skip
    if not guards:
        return rule
    return f"{_rename(atom, prefix, defined)} :- {_join([*body, *guards])}."


def _missing_facts(facts: str, kept: list[str], universe: list[str], rules: list[_Rule],
                   nodes: list[Any], classes: dict[tuple[str, int, int], tuple[str, int, int]],
                   ground: Any, wanted: list[tuple[Any, bool]]) -> list[str]:  # fmt: skip
    """The cases a definition by facts may miss (a fact deleted from a list of facts),
    as possible atoms of the diagnosis: where an atom the intended answer needs is one no
    rule of the relaxed program derives, every tuple of a predicate it depends on that
    the program states by facts (in part), over the active domain of its argument
    places (the values of each place's type in the universe ``ground``, and the values
    of the predicate's own atoms of that kind, number or name), not yet possible, with
    a value at some place that none of the predicate's atoms holds there (a case the
    list never covers: ``delta(r,0,1)`` where no direction is ``r``).
    Each is an unsupported atom *near* the definition (one case missing: Oetsch, Pührer
    and Tompits's unsupported atom), blamed on the predicate's first fact or rule
    (``__abduced``). Nothing where every needed atom is derived, for a predicate over
    compound terms (a game tree's nodes), or where a predicate's tuples number more
    than :data:`MISSING_FACTS`."""
    import clingo

    stated = {h: r for r in reversed(rules) for h in r.heads
              if r.kind == "definition" and not r.body and not nodes[r.index].body}  # fmt: skip
    if not stated:
        return []
    edges: dict[tuple[str, int], set[tuple[str, int]]] = {}
    for r in rules:
        for h in r.heads:
            edges.setdefault(h, set()).update(r.body)
    reach = _reachability(edges)
    needed = [s for s, truth in wanted if truth]
    below = {p for s in needed for p in reach.get((s.name, len(s.arguments)), set())}
    if not below & set(stated):
        return []
    # the atoms the intended answer needs that the program's own relaxed rules derive
    said = {f"__u_{s}." for s in needed}
    control = clingo.Control(["--warn=none"], logger=lambda c, m: None)
    control.add("base", [], facts + "\n" + "\n".join(kept + [u for u in universe if u not in said]))
    control.ground([("base", [])])
    derived = {str(a.symbol)[4:] for a in control.symbolic_atoms if a.symbol.name.startswith("__u_")}
    lacking = [s for s in needed if str(s) not in derived]
    if not lacking:
        return []
    below = {p for s in lacking for p in reach.get((s.name, len(s.arguments)), set())} & set(stated)
    # the active domain: each place's type's values, and the predicate's own values by kind
    typed: dict[tuple[str, int, int], set[clingo.Symbol]] = {}
    own: dict[tuple[str, int], set[clingo.Symbol]] = {}
    held: dict[tuple[str, int, int], set[clingo.Symbol]] = {}  # each place's own values
    present: set[str] = set()
    for a in ground.symbolic_atoms:
        sym = a.symbol
        if sym.type != sym.type.Function or not sym.name.startswith("__u_"):
            continue
        name, arity = sym.name[4:], len(sym.arguments)
        present.add(f"{name}({','.join(map(str, sym.arguments))})" if arity else name)
        for i, arg in enumerate(sym.arguments):
            rep = classes.get((name, arity, i))
            if rep is not None:
                typed.setdefault(rep, set()).add(arg)
        if (name, arity) in below:
            own.setdefault((name, arity), set()).update(sym.arguments)
            for i, arg in enumerate(sym.arguments):
                held.setdefault((name, arity, i), set()).add(arg)
    out: list[str] = []
    for key in sorted(below):
        name, arity = key
        pooled = own.get(key, set())
        places = []
        for i in range(arity):
            values = set(typed.get(classes.get((name, arity, i), (name, arity, i)), set()))
            kinds = {v.type for v in values} or {v.type for v in pooled}
            values |= {v for v in pooled if v.type in kinds}
            places.append(sorted(values))
        compound = any(v.type == v.type.Function and v.arguments for values in places for v in values)
        if not arity or compound or math.prod(len(values) for values in places) > MISSING_FACTS:
            continue  # a game tree's nodes are no list of data; too many tuples
        first = min(r.index for r in rules if key in r.heads)  # the definition's first line
        for combo in itertools.product(*places):
            atom = f"{name}({','.join(map(str, combo))})"
            # a case the definition never covers: a value of a place's type that none of
            # its atoms holds there (another combination of values it holds is rather
            # another value of some rule's head, said by __nearv)
            fresh = any(v not in held.get((name, arity, i), set()) for i, v in enumerate(combo))
            if fresh and atom not in present:
                out += [f"__u_{atom}.", f"__inbase({atom}).", f"__near({atom},{first},()).",
                        f"__abduced({atom})."]  # fmt: skip
    return out


def _element_names(rule: _Rule) -> list[str]:
    return rule.local or rule.variables


def _supporters(path: str, rules: list[_Rule], model: list[Any], wrong: list[str]) -> Diagnosis:
    """The rule instances that derive the ``wrong`` atoms in ``model``, and for a wrong
    part ``not a`` (an atom the answer lacks) those that could choose ``a`` and leave
    it out, else those that would derive it but for a condition."""
    derived = {a for a in wrong if not a.startswith("not ")}
    lacked = {a[4:].strip() for a in wrong if a.startswith("not ")}
    by_rule: dict[tuple[bool, int], list[tuple[str, str]]] = {}
    near: dict[tuple[bool, int], list[tuple[str, str]]] = {}
    for s in model:
        atom = str(s.arguments[0]) if s.arguments else ""
        if (s.name == "__sup" and atom in derived) or (s.name == "__choosable" and atom in lacked):
            table = by_rule
        elif s.name == "__near" and atom in lacked:
            table = near
        else:
            continue
        i = s.arguments[1].number
        r = rules[i]
        names = r.variables if r.kind != "choice" else _element_names(r)
        said = ", ".join(f"{n}={v}" for n, v in zip(names, s.arguments[2].arguments, strict=False))
        table.setdefault((s.name == "__sup", i), []).append((atom, said))
    out = Diagnosis()
    for (derives, i), items in sorted({**near, **by_rule}.items(), key=lambda kv: -len({a for a, _ in kv[1]})):
        r = rules[i]
        atoms = list(dict.fromkeys(a for a, _ in items))
        first = {}
        for a, w in items:
            first.setdefault(a, w)
        withs = [w for w in first.values() if w]
        shown = f" (with {'; '.join(withs[:SHOWN_INSTANCES])})" if withs else ""
        out.rules.append((path, r.line, r.text))
        if derives:
            out.details.append([f"it derives {', '.join(atoms)}{shown}: no rule forbids them together"])
        else:
            out.details.append([f"it may leave out {', '.join(atoms)}{shown}: no rule requires them"])
    out.rules, out.details = out.rules[:SHOWN_FAULTS], out.details[:SHOWN_FAULTS]
    if not out.rules:
        out.note = "not traced: no rule instance derives the wrong part"
    return out


def _explain(path: str, rules: list[_Rule], model: list[Any], levels: dict[Any, int],
             top: int, refute: bool = False) -> Diagnosis:  # fmt: skip
    faults: dict[str, list[Any]] = {}
    near: dict[str, list[tuple[int, Any]]] = {}
    supports: dict[str, list[tuple[int, Any]]] = {}
    could: dict[str, list[int]] = {}
    abduced: set[str] = set()  # cases a definition by facts misses
    for s in model:
        if s.name == "__ab":
            faults.setdefault(str(s.arguments[1]), []).append(s)
        elif s.name in ("__near", "__nearv"):  # a rule that derives it, else one with another value
            near.setdefault(str(s.arguments[0]), []).append((s.arguments[1].number, s.arguments[2]))
        elif s.name == "__sup":
            supports.setdefault(str(s.arguments[0]), []).append((s.arguments[1].number, s.arguments[2]))
        elif s.name == "__could":
            could.setdefault(str(s.arguments[0]), []).append(s.arguments[1].number)
        elif s.name == "__abduced":
            abduced.add(str(s.arguments[0]))
    if not faults:
        return Diagnosis(note="not diagnosed: the encoding has an answer set holding the "
                         "intended answer (it misses it by its search or projection, not by a rule)")  # fmt: skip

    def depth(u: str) -> int:
        if u.startswith("c("):
            return top
        name, arity = u[3:-1].rsplit(",", 1)
        return levels.get((name.strip('"'), int(arity)), 0)

    def with_(rule: _Rule, values: Any) -> str:
        vals = list(values.arguments)
        return ", ".join(f"{n}={v}" for n, v in zip(rule.variables, vals, strict=False))

    out = Diagnosis()
    for u in sorted(faults, key=lambda u: (depth(u), u))[:SHOWN_FAULTS]:  # the cause first
        by_rule: dict[int, list[str]] = {}
        missing: dict[int, list[str]] = {}
        unfounded: list[str] = []
        for ab in faults[u]:
            kind, inst = ab.arguments[0].name, ab.arguments[2]
            if kind == "viol":
                i = inst.arguments[0].number
                by_rule.setdefault(i, []).append(with_(rules[i], inst.arguments[1]))
            elif kind == "unsup":
                candidates = near.get(str(inst), [])
                if candidates:
                    i, vals = candidates[0]
                    missing.setdefault(i, []).append(f"{inst}|{with_(rules[i], vals)}")
                else:
                    name, arity = inst.name, len(inst.arguments)
                    definers = sorted(could.get(str(inst), [])) \
                        or [r.index for r in rules if (name, arity) in r.heads]
                    missing.setdefault(definers[0] if definers else -1, []).append(f"{inst}|")
            else:
                unfounded.append(str(inst))
        for i, insts in by_rule.items():
            r = rules[i]
            verb = "rejects" if r.kind in ("constraint", "choice") else "derives what the intended answer does not hold"
            shown = "; ".join(x or "(no variables)" for x in insts[:SHOWN_INSTANCES])
            more = f" and {len(insts) - SHOWN_INSTANCES} more" if len(insts) > SHOWN_INSTANCES else ""
            what = "it rejects the intended answer" if verb == "rejects" else f"it {verb}"
            out.rules.append((path, r.line, r.text))
            out.details.append([f"{what} (with {shown}{more})"])
        for i, items in missing.items():
            atoms = [x.split("|")[0] for x in items]
            withs = [x.split("|")[1] for x in items if x.split("|")[1]]
            if i < 0:
                out.rules.append((path, 0, f"no rule defines {atoms[0].split('(')[0]}"))
                out.details.append([f"the intended answer needs {', '.join(atoms[:SHOWN_INSTANCES])}"])
                continue
            r = rules[i]
            if refute:  # a case whose absence lets the wrong answer through
                out.rules.append((path, r.line, r.text))
                out.details.append([f"its definition misses {', '.join(atoms[:SHOWN_INSTANCES])}, "
                                    "which would reject the wrong answer (a rule deleted?)"])  # fmt: skip
                continue
            if all(a in abduced for a in atoms):  # a case missing from the definition
                out.rules.append((path, r.line, r.text))
                out.details.append([f"its definition misses {', '.join(atoms[:SHOWN_INSTANCES])}, which "
                                    "the intended answer needs: no fact or rule gives it"])  # fmt: skip
                continue
            said = f"it derives no {', '.join(atoms[:SHOWN_INSTANCES])}"
            said += f" and {len(atoms) - SHOWN_INSTANCES} more" if len(atoms) > SHOWN_INSTANCES else ""
            said += ", which the intended answer needs"
            if withs:
                said += f" (with {'; '.join(withs[:SHOWN_INSTANCES])})"
            out.rules.append((path, r.line, r.text))
            out.details.append([said])
        if unfounded:
            name = unfounded[0].split("(")[0]
            definers = [r for r in rules if any(h[0] == name for h in r.heads)]
            if definers:
                r = definers[0]
                out.rules.append((path, r.line, r.text))
                out.details.append([f"{', '.join(unfounded[:SHOWN_INSTANCES])} would hold only "
                                    "through themselves (an unfounded loop)"])  # fmt: skip
    # one rule once, the first place kept
    seen: set[int] = set()
    rules_, details_ = [], []
    for rule, detail in zip(out.rules, out.details, strict=False):
        if rule[1] in seen:
            continue
        seen.add(rule[1])
        rules_.append(rule)
        details_.append(detail)
    out.rules, out.details = rules_[:SHOWN_FAULTS], details_[:SHOWN_FAULTS]
    return out


def trace(encoding: str | Path, facts: str, answer: Iterable[tuple[str, bool]],
          wrong: Iterable[str], budget: float = 10.0, program: str | None = None,
          open_outputs: Iterable[str] = (), time_limit: float | None = None) -> Diagnosis:  # fmt: skip
    """The rule instances that derive the ``wrong`` atoms of an ``answer`` the encoding
    accepts (its smallest part no right answer holds, ``not a`` for an atom it lacks:
    then the instances that could choose it and leave it out): the missing constraint
    is one that forbids what these rules derive together. ``time_limit``: as for
    :func:`diagnose`.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".lp", delete=False) as f:
    ...     _ = f.write("1 { chosen(S) : member(S,E) } 2 :- element(E).\\n")
    >>> facts = "element(0..2). member(0,0..2). member(1,0..2)."
    >>> said = trace(f.name, facts, [("chosen(0)", True), ("chosen(1)", True)], ["chosen(0)", "chosen(1)"])
    >>> for line in said.lines:
    ...     print(line.replace(f.name, "mine.lp"))
      blame: mine.lp:1: 1 { chosen(S) : member(S,E) } 2 :- element(E).
        it derives chosen(0), chosen(1) (with E=0, S=0; E=0, S=1): no rule forbids them together
    >>> os.unlink(f.name)
    """
    return diagnose(encoding, facts, answer, budget, program, wrong=list(wrong),
                    open_outputs=open_outputs, time_limit=time_limit)  # fmt: skip


def _stages(text: str, facts: str, budget: float) -> dict[str, int] | None:
    """Each atom of the one answer set of ``text`` on ``facts`` with its *stage*: the
    step of the least fixpoint (of the program's ground rules, negation read in that
    answer set) at which a rule instance first derives it, 0 for a fact. ``None`` where
    the program has no answer set, more than one, or takes longer than ``budget``
    seconds. A chain of wrong derivations starts at its lowest stage.

    >>> stages = _stages("a. b :- a. c :- b, not d.", "", 1.0)
    >>> sorted(stages.items())
    [('a', 0), ('b', 1), ('c', 2)]
    """
    import clingo

    ground: list[tuple[list[int], int, list[tuple[int, int]]]] = []  # heads, bound, (literal, weight)

    class Rules(clingo.Observer):  # type: ignore[misc]
        def rule(self, choice: bool, head: Sequence[int], body: Sequence[int]) -> None:
            ground.append((list(head), len(body), [(lit, 1) for lit in body]))

        def weight_rule(self, choice: bool, head: Sequence[int], lower: int,
                        body: Sequence[tuple[int, int]]) -> None:  # fmt: skip
            ground.append((list(head), lower, list(body)))

    from clingo import ast

    control = clingo.Control(["--warn=none", "--models=2"], logger=lambda c, m: None)
    control.register_observer(Rules())
    # every rule of the program behind one free atom, so that the grounder, which
    # computes a stratified program's answer itself, keeps each rule instance
    go = "__go"
    try:
        with ast.ProgramBuilder(control) as builder:
            def add(stm: Any) -> None:
                if stm.ast_type == ast.ASTType.Rule:
                    loc = stm.location
                    lit = ast.Literal(loc, ast.Sign.NoSign, ast.SymbolicAtom(ast.Function(loc, go, [], 0)))
                    stm = stm.update(body=[*stm.body, lit])
                builder.add(stm)

            ast.parse_string(text, add)
        control.add("base", [], facts + f"\n{{ {go} }}.")
        control.ground([("base", [])])
    except RuntimeError:
        return None
    truth: list[set[int]] = []

    def keep(model: clingo.Model) -> None:
        used = {abs(lit) for heads, _, body in ground for lit in [*heads, *(x for x, _ in body)]}
        truth.append({a for a in used if model.is_true(a)})

    switch = control.symbolic_atoms[clingo.Function(go)].literal
    with control.solve(on_model=keep, assumptions=[switch], async_=True) as handle:
        if not handle.wait(budget):
            handle.cancel()
            return None
        handle.get()
    if len(truth) != 1:
        return None
    true = truth[0]
    stage: dict[int, int] = {switch: -1}  # the switch: before every fact
    changed = True
    while changed:  # Bellman-Ford: each pass may lower a stage
        changed = False
        for heads, bound, body in ground:
            held = [h for h in heads if h in true]
            if not held:
                continue
            weight, depth = 0, -1
            for lit, w in body:
                if lit < 0 and -lit not in true:
                    weight += w
                elif lit > 0 and lit in stage:
                    weight += w
                    depth = max(depth, stage[lit])
            if weight < bound:
                continue
            for h in held:
                if stage.get(h, depth + 2) > depth + 1:
                    stage[h] = depth + 1
                    changed = True
    return {str(a.symbol): stage[a.literal] for a in control.symbolic_atoms
            if a.literal in stage and a.symbol.name != go}  # fmt: skip


def _blockers(rule: _Rule, tag: str, body: list[Any], heads: list[tuple[Any, list[Any]]]) -> list[str]:
    """For a wrong answer accepted (``chain``): the rules ``__blk(Head, Instance, K)``
    that say a negated atom of ``rule``'s ``body`` (``not next(P,_)``) holds at stage
    ``K`` of the encoding's answer set while the rest of the body, its other negations
    left out, holds: the encoding settles the head false as soon as it derives that
    atom, so a head left unsupported there is a link of that atom's chain (the stage
    after it), not its end. An instance's earliest blocker counts, and an atom's latest
    instance.

    >>> from clingo import ast
    >>> found = []
    >>> ast.parse_string("lose(P) :- pos(P), not next(P,_).", found.append)
    >>> stm = found[-1]
    >>> rule = _Rule(0, "definition", 1, "", [("lose", 1)], [("pos", 1), ("next", 2)], ["P"])
    >>> print(*_blockers(rule, "(0,(P,))", list(stm.body), [(stm.head.atom, [])]))
    __blk(lose(P),(0,(P,)),K__) :- pos(P); next(P,B__1); __stage(next(P,B__1),K__).
    """
    from clingo import ast

    negated = [lit for lit in body if lit.ast_type == ast.ASTType.Literal
               and lit.sign == ast.Sign.Negation and lit.atom.ast_type == ast.ASTType.SymbolicAtom]  # fmt: skip
    if not negated:
        return []
    rest = [str(lit) for lit in body if not any(lit is n for n in negated)]
    fresh = itertools.count(1)

    class Name(ast.Transformer):  # each anonymous variable its own name
        def visit_Variable(self, var: Any) -> Any:
            return var.update(name=f"B__{next(fresh)}") if var.name == "_" else var

    out = []
    for lit in negated:
        atom = str(Name()(lit.atom))
        for head, _ in heads:
            out.append(f"__blk({head},{tag},K__) :- {_join([*rest, atom, f'__stage({atom},K__)'])}.")
    return out


def blocked(encoding: str | Path, facts: str, answer: Iterable[tuple[str, bool]],
            lacked: Iterable[str], budget: float = 10.0, open_outputs: Iterable[str] = (),
            time_limit: float | None = None) -> Diagnosis:  # fmt: skip
    """Why a constraint of ``encoding`` does not reject a wrong ``answer`` it accepts,
    whose wrong part is atoms it ``lacked`` (``in(1)`` where every right answer holds
    it): the interpretation is fixed on the output predicates as ``answer`` says, and
    the fewest faulty rule instances are found (as :func:`diagnose` does) that let a
    constraint requiring a lacked atom (``not in(1)`` in its body) fire. A free choice
    only allows leaving the atom out; the constraint that should require it is blocked
    by an auxiliary atom the encoding derives wrongly, and the rule deriving it is
    blamed. No rule where no constraint of the encoding could require a lacked atom.
    ``time_limit``: as for :func:`diagnose`.

    >>> import tempfile, os
    >>> mine = "{ in(V) } :- vertex(V).\\n:- arc(U,V), in(U), in(V).\\n"
    >>> mine += "absorbed(U) :- arc(V,U), in(V).\\n:- vertex(U), not in(U), not absorbed(U).\\n"
    >>> with tempfile.NamedTemporaryFile("w", suffix=".lp", delete=False) as f:
    ...     _ = f.write(mine)
    >>> facts = "vertex(0..1). arc(0,1)."
    >>> for line in blocked(f.name, facts, [("in(0)", True)], ["in(1)"]).lines:
    ...     print(line.replace(f.name, "mine.lp"))
      blame: mine.lp:3: absorbed(U) :- arc(V,U), in(V).
        it derives what keeps mine.lp:4 from rejecting an answer without in(1) (with V=0, U=1)
    >>> os.unlink(f.name)
    """
    return diagnose(encoding, facts, answer, budget, open_outputs=open_outputs,
                    time_limit=time_limit, required=list(lacked))  # fmt: skip


def _unblocked(said: Diagnosis, rules: list[_Rule], model: list[Any], lacked: set[str]) -> Diagnosis:
    """``said`` (an explanation of :func:`blocked`) in its words: each rule that
    derives what the interpretation lacks keeps a constraint from firing."""
    fired: dict[int, list[str]] = {}
    for s in model:
        if s.name == "__req" and str(s.arguments[0]) in lacked:
            fired.setdefault(s.arguments[1].number, []).append(str(s.arguments[0]))
    if not fired:
        return Diagnosis(note="not traced: no constraint requires the atoms the answer lacks")
    i, atoms = next(iter(sorted(fired.items())))
    where = f"{said.rules[0][0]}:{rules[i].line}" if said.rules else f"line {rules[i].line}"
    lacks = ", ".join(dict.fromkeys(atoms))
    details = []
    for detail in said.details:
        words = []
        for d in detail:
            if d.startswith("it derives what the intended answer does not hold"):
                d = d.replace("it derives what the intended answer does not hold",
                              f"it derives what keeps {where} from rejecting an answer without {lacks}")
            words.append(d)
        details.append(words)
    said.details = details
    return said


def tightened(encoding: str | Path, facts: str, budget: float = 10.0) -> Diagnosis:
    """The bounds that let ``encoding`` have an answer set on ``facts`` where the
    reference says there is none (an empty wrong answer has no atom to trace): each
    choice rule's lower bound raised by one in turn (``0 { ... } 1`` to ``1 { ... }
    1``, none to 1); a rule is blamed where that alone leaves the encoding no answer
    set, as the reference says.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".lp", delete=False) as f:
    ...     _ = f.write("0 { chosen(S) : member(S,E) } 1 :- element(E).\\n")
    >>> for line in tightened(f.name, "element(0..2).").lines:
    ...     print(line.replace(f.name, "mine.lp"))
      blame: mine.lp:1: 0 { chosen(S) : member(S,E) } 1 :- element(E).
        its lower bound 0 lets the answer exist: with 1 the encoding has no answer set here, as the reference says
    >>> os.unlink(f.name)
    """
    import clingo
    from clingo import ast

    path = str(encoding)
    text = read_text(path)
    source = text.splitlines()
    statements: list[Any] = []
    try:
        ast.parse_string(text, statements.append)
    except RuntimeError as error:
        return Diagnosis(note=f"not traced: clingo cannot parse the encoding ({error})")
    if any(s.ast_type == ast.ASTType.Program and s.name != "base" for s in statements):
        return Diagnosis(note="not traced: a multi-shot encoding")

    def satisfiable(program: list[Any]) -> bool | None:
        control = clingo.Control(["--warn=none"], logger=lambda c, m: None)
        try:
            with ast.ProgramBuilder(control) as builder:
                for stm in program:
                    builder.add(stm)
            control.add("base", [], facts)
            control.ground([("base", [])])
        except RuntimeError:
            return None
        with control.solve(async_=True) as handle:
            if not handle.wait(budget):
                handle.cancel()
                return None
            return bool(handle.get().satisfiable)

    if not satisfiable(statements):
        return Diagnosis(note="not traced: the encoding has no answer set here")
    out = Diagnosis()
    for k, stm in enumerate(statements):
        if stm.ast_type != ast.ASTType.Rule or stm.head.ast_type != ast.ASTType.Aggregate:
            continue
        head, loc = stm.head, stm.location
        guard = head.left_guard
        if guard is None:
            low, raised = "none", ast.SymbolicTerm(loc, clingo.Number(1))
        else:
            if guard.comparison != ast.ComparisonOperator.LessEqual:
                continue
            low = str(guard.term)
            raised = ast.BinaryOperation(loc, ast.BinaryOperator.Plus, guard.term,
                                         ast.SymbolicTerm(loc, clingo.Number(1)))  # fmt: skip
        new = ast.Guard(ast.ComparisonOperator.LessEqual, raised)
        changed = stm.update(head=head.update(left_guard=new))
        if satisfiable([*statements[:k], changed, *statements[k + 1 :]]) is False:
            line = loc.begin.line
            said = " ".join(x.strip() for x in source[line - 1 : loc.end.line])
            out.rules.append((path, line, said))
            bound = "1" if guard is None else (str(int(low) + 1) if low.lstrip("-").isdigit() else f"{low}+1")
            out.details.append([f"its lower bound {low} lets the answer exist: with {bound} the "
                                "encoding has no answer set here, as the reference says"])  # fmt: skip
    out.rules, out.details = out.rules[:SHOWN_FAULTS], out.details[:SHOWN_FAULTS]
    if not out.rules:
        out.note = "not traced: no choice rule's lower bound, raised by one, leaves no answer set"
    return out


#: how many one-edit variants of a program are tried at most (a large program's
#: variants are not all tried: the repair test then says nothing)
MOST_VARIANTS = 600


def _variants(stm: Any, predicates: dict[int, list[str]]) -> list[str]:
    """The one-edit variants of the rule ``stm`` (mutation operators, as in mutation
    testing and mutation-based fault localisation): a body literal negated or its
    negation dropped, its predicate read as another of the same arity (``draw(A,B)``
    for ``lose(A,B)``), a negative literal or a comparison left out, a comparison's
    operator changed, an argument of the head another variable of the rule (the other
    player ``Q`` for ``P``), a number one more or one less. ``predicates``: the
    program's predicate names by arity. Each as the rule's text; unsafe ones left out
    by the caller."""
    from clingo import ast

    out: list[str] = []
    body = list(stm.body)

    def rule(head: Any, lits: list[Any]) -> str:
        return str(stm.update(head=head, body=lits))

    for k, lit in enumerate(body):
        rest = body[:k] + body[k + 1 :]
        if lit.ast_type != ast.ASTType.Literal:
            continue
        atom = lit.atom
        if atom.ast_type == ast.ASTType.SymbolicAtom and atom.symbol.ast_type == ast.ASTType.Function:
            sym = atom.symbol
            if lit.sign == ast.Sign.NoSign:
                out.append(rule(stm.head, [*body[:k], lit.update(sign=ast.Sign.Negation), *body[k + 1 :]]))
            elif lit.sign == ast.Sign.Negation:
                out.append(rule(stm.head, [*body[:k], lit.update(sign=ast.Sign.NoSign), *body[k + 1 :]]))
                out.append(rule(stm.head, rest))
            for name in predicates.get(len(sym.arguments), []):
                if name != sym.name:
                    other = lit.update(atom=atom.update(symbol=sym.update(name=name)))
                    out.append(rule(stm.head, [*body[:k], other, *body[k + 1 :]]))
        elif atom.ast_type == ast.ASTType.Comparison and len(atom.guards) == 1:
            out.append(rule(stm.head, rest))
            guard = atom.guards[0]
            for operator in _operators():
                if operator != guard.comparison:
                    changed = atom.update(guards=[guard.update(comparison=operator)])
                    out.append(rule(stm.head, [*body[:k], lit.update(atom=changed), *body[k + 1 :]]))
    head = stm.head
    if head.ast_type == ast.ASTType.Literal and head.atom.ast_type == ast.ASTType.SymbolicAtom \
            and head.atom.symbol.ast_type == ast.ASTType.Function:
        sym = head.atom.symbol
        names = [n for n in variables_of(body) if n != "_"]
        for i, arg in enumerate(sym.arguments):
            if arg.ast_type != ast.ASTType.Variable:
                continue
            for name in names:
                if name != arg.name:
                    args = [*sym.arguments[:i], arg.update(name=name), *sym.arguments[i + 1 :]]
                    out.append(rule(head.update(atom=head.atom.update(symbol=sym.update(arguments=args))), body))
    # a number one more or one less (an off-by-one bound or value)
    count = _Numbers(None)
    count(stm)
    for n in range(count.seen):
        for step in (1, -1):
            out.append(str(_Numbers(n, step)(stm)))
    return list(dict.fromkeys(v for v in out if v != str(stm)))


def variables_of(body: Sequence[Any]) -> list[str]:
    """The variables of the positive literals of ``body`` (those that bind), in order.

    >>> from clingo import ast
    >>> found = []
    >>> ast.parse_string("a(X) :- b(X,Y), not c(Z), X < 3.", found.append)
    >>> variables_of(found[1].body)
    ['X', 'Y']
    """
    from clingo import ast

    names: list[str] = []
    for lit in body:
        if lit.ast_type == ast.ASTType.Literal and lit.sign == ast.Sign.NoSign \
                and lit.atom.ast_type == ast.ASTType.SymbolicAtom:
            names += variables(lit)
    return list(dict.fromkeys(names))


def _operators() -> list[Any]:
    """The comparison operators a one-edit repair may put in place of another."""
    from clingo import ast

    c = ast.ComparisonOperator
    return [c.LessThan, c.LessEqual, c.GreaterThan, c.GreaterEqual, c.Equal, c.NotEqual]


class _Numbers:
    """Counts the numbers of a rule (``which`` None), or gives the rule with its
    ``which``-th number moved by ``step``."""

    def __init__(self, which: int | None, step: int = 0) -> None:
        self.which, self.step, self.seen = which, step, 0

    def __call__(self, stm: Any) -> Any:
        from clingo import Number, ast

        outer = self

        class Walk(ast.Transformer):
            def visit_SymbolicTerm(self, term: Any) -> Any:
                if term.symbol.type != term.symbol.type.Number:
                    return term
                k = outer.seen
                outer.seen += 1
                if k == outer.which:
                    return term.update(symbol=Number(term.symbol.number + outer.step))
                return term

        return Walk()(stm)


def _neighbours(rules: list[Any], near: Sequence[int] | None) -> set[int]:
    """The indices of ``rules`` at the lines ``near`` and of their neighbours in the
    dependency graph (every rule where ``near`` is ``None``)."""
    if near is None:
        return set(range(len(rules)))
    heads = [{h for h in (_predicate(a) for a, _ in _head_atoms(r.head)) if h} for r in rules]
    bodies = [set(_predicates(r.body)) for r in rules]
    at = {i for i, r in enumerate(rules) if r.location.begin.line in set(near)}
    out = set(at)
    for i in at:
        for j in range(len(rules)):
            if heads[j] & bodies[i] or bodies[j] & heads[i]:
                out.add(j)
    return out


def _guards(stm: Any) -> list[str]:
    """The conditions that keep the values of the rule ``stm``'s head among the terms
    the encoding itself grounds (``__term``): an edit (a move that leaves a position
    as it was, ``K+1`` read once more) can make a recursive rule, the edited one or a
    rule it feeds, ground without end."""
    from clingo import ast

    head = stm.head
    if head.ast_type != ast.ASTType.Literal or head.atom.ast_type != ast.ASTType.SymbolicAtom \
            or head.atom.symbol.ast_type != ast.ASTType.Function:
        return []
    return [f"__term({a})" for a in head.atom.symbol.arguments]


def _with(rule: str, conditions: list[str]) -> str:
    """The text of ``rule`` (as clingo writes it, ending in a period) with
    ``conditions`` added to its body."""
    if " :- " in rule:
        return f"{rule[:-1]}; {'; '.join(conditions)}."
    return f"{rule[:-1]} :- {'; '.join(conditions)}."


def repairs(encoding: str | Path, failing: Sequence[tuple[str, list[tuple[str, bool]]]],
            passing: Sequence[tuple[str, list[tuple[str, bool]]]] = (),
            open_outputs: Iterable[str] = (), budget: float = 10.0,
            program: str | None = None, time_limit: float | None = None,
            near: Sequence[int] | None = None) -> Diagnosis:  # fmt: skip
    """The rules of ``encoding`` that one edit repairs: some one-edit variant of the
    rule alone (:func:`_variants`: a literal negated, another predicate read, a
    comparison changed or left out, another variable in the head, a number off by
    one) has an answer set holding the intended answer on every ``failing`` instance
    (its facts and intended atoms, as :func:`diagnose` takes them), and keeps the
    intended answer on every ``passing`` one the encoding holds it on. A repair test
    in the manner of consistency-based diagnosis (Reiter 1987: a component is a
    diagnosis where assuming it alone abnormal is consistent with every observation),
    the abnormal behaviours restricted to one edit, as mutation-based fault
    localisation does: where two rules explain a failure equally (one fires wrongly
    because the other one's atom was made true to let it), the one whose edit
    *repairs* every observation is the fault. Each is said with its repair; the rules
    in the program's order. ``budget``: seconds; where it runs out before every
    variant is tried, none is said (status ``unknown``). ``time_limit``: as for
    :func:`diagnose`. ``near``: lines of rules a diagnosis blamed; then only these
    rules and their neighbours are edited (those defining a predicate they read,
    those reading a predicate they define: a wrong atom is one step from its cause).

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".lp", delete=False) as f:
    ...     _ = f.write("big(X) :- num(X), X > 3.\\nout(X) :- big(X).\\n")
    >>> said = repairs(f.name, [("num(1..5).", [("out(3)", True), ("out(4)", True), ("out(5)", True)])])
    >>> for line in said.lines:
    ...     print(line.replace(f.name, "mine.lp"))
      blame: mine.lp:1: big(X) :- num(X), X > 3.
        one edit repairs it: big(X) :- num(X); X >= 3. gives the intended answer on the failing instance
    >>> os.unlink(f.name)
    """
    if time_limit is not None:
        return _within(time_limit, repairs, encoding, list(failing), list(passing),
                       open_outputs=list(open_outputs), budget=min(budget, time_limit),
                       program=program, near=near)  # fmt: skip
    import clingo
    from clingo import ast

    path = str(encoding)
    text = read_text(path) if program is None else program
    statements: list[Any] = []
    try:
        ast.parse_string(text, statements.append)
    except RuntimeError:
        return Diagnosis(note="no repair tried: clingo cannot parse the encoding")
    rules = [s for s in statements if s.ast_type == ast.ASTType.Rule]
    kept = [str(s) for s in statements
            if s.ast_type in (ast.ASTType.Definition, ast.ASTType.External)]  # fmt: skip
    if any(s.ast_type == ast.ASTType.Program and s.name != "base" for s in statements):
        return Diagnosis(note="no repair tried: a multi-shot program")
    predicates: dict[int, list[str]] = {}
    for name, arity in _predicates(rules):
        predicates.setdefault(arity, [])
        if name not in predicates[arity]:
            predicates[arity].append(name)
    heads = {h for s in rules for h in (_predicate(a) for a, _ in _head_atoms(s.head)) if h}
    switched: list[str] = []  # the rules, each switched off by __off
    texts: dict[tuple[int, int], str] = {}  # each variant, switched on by __on
    candidates: list[tuple[int, int, str]] = []  # rule, variant, its text
    edited = _neighbours(rules, near)
    for i, stm in enumerate(rules):
        switched.append(f"#external __off({i}).")
        switched.append(_with(str(stm), [*_guards(stm), f"not __off({i})"]))
        for k, variant in enumerate(_variants(stm, predicates) if i in edited else []):
            if len(candidates) >= MOST_VARIANTS:
                break
            parsed: list[Any] = []
            ast.parse_string(variant, parsed.append)
            # every variable bound by a positive atom: safe; else clingo says
            if not set(variables(parsed[-1])) <= set(variables_of(parsed[-1].body)) \
                    and not _safe("\n".join(kept) + "\n" + variant):
                continue
            texts[(i, k)] = f"#external __on({i},{k}).\n" + _with(variant, [*_guards(parsed[-1]), f"__on({i},{k})"])
            candidates.append((i, k, variant))
    opened = set(open_outputs)
    deadline = time.perf_counter() + budget

    def holds(facts: str, intended: list[tuple[str, bool]], tried: list[tuple[int, int, str]],
              original: bool) -> tuple[list[tuple[int, int, str]], bool] | None:  # fmt: skip
        """The variants of ``tried`` with an answer set holding ``intended`` on
        ``facts``, and whether the encoding itself has one; ``None``: out of time."""
        wanted = [(clingo.parse_term(a), truth) for a, truth in intended]
        checks = [f":- not {s}." if truth else f":- {s}." for s, truth in wanted]
        checks += [f"__want({s})." for s, truth in wanted if truth] + ["#defined __want/1."]
        for name, arity in sorted({(s.name, len(s.arguments)) for s, t in wanted if t}):
            if f"{name}/{arity}" not in opened and (name, arity) in heads:
                args = ",".join(f"X{j}" for j in range(arity))
                atom = f"{name}({args})" if arity else name
                checks.append(f":- {atom}, not __want({atom}).")
        itself = clingo.Control(["--warn=none"], logger=lambda c, m: None)
        itself.add("base", [], "\n".join([facts, *kept, *map(str, rules)]))
        itself.ground([("base", [])])
        terms = {str(t) for a in itself.symbolic_atoms for t in a.symbol.arguments}
        terms |= {str(t) for s, _ in wanted for t in s.arguments}
        control = clingo.Control(["--warn=none"], logger=lambda c, m: None)
        # the variants still in the running only: the grounding stays small
        variants = [texts[(i, k)] for i, k, _ in tried]
        control.add("base", [], "\n".join([facts, *kept, *switched, *variants, *checks, "#defined __term/1.",
                                           *(f"__term({t})." for t in sorted(terms))]))
        control.ground([("base", [])])

        def solve(on: list[tuple[Any, bool]]) -> bool | None:
            left = deadline - time.perf_counter()
            if left <= 0:
                return None
            with control.solve(assumptions=on, async_=True) as handle:
                if not handle.wait(left):
                    handle.cancel()
                    return None
                return handle.get().satisfiable

        itself = solve([]) if original else False
        if itself is None:
            return None
        kept_: list[tuple[int, int, str]] = []
        for i, k, variant in tried:
            for sym, value in ((clingo.Function("__off", [clingo.Number(i)]), True),
                               (clingo.Function("__on", [clingo.Number(i), clingo.Number(k)]), True)):
                control.assign_external(sym, value)
            ok = solve([])
            for sym in (clingo.Function("__off", [clingo.Number(i)]),
                        clingo.Function("__on", [clingo.Number(i), clingo.Number(k)])):
                control.assign_external(sym, False)
            if ok is None:
                return None
            if ok:
                kept_.append((i, k, variant))
        return kept_, bool(itself)

    left, kept_right = candidates, 0
    try:
        # the smallest first: cheap to ground, and most variants fail there already
        for facts, intended in sorted(failing, key=lambda o: len(o[0])):
            done = holds(facts, intended, left, False)
            if done is None:
                return Diagnosis(note="no repair tried to the end in time", status="unknown")
            left = done[0]
            if not left:
                return Diagnosis()
        for facts, intended in passing:
            done = holds(facts, intended, left, True)
            if done is None:
                return Diagnosis(note="no repair tried to the end in time", status="unknown")
            if done[1]:  # the encoding holds it here: a repair must keep it
                left, kept_right = done[0], kept_right + 1
    except RuntimeError as error:
        return Diagnosis(note=f"no repair tried: {str(error).splitlines()[0]}")
    source = read_text(path).splitlines()
    out = Diagnosis()
    first: dict[int, str] = {}
    for i, _k, variant in left:
        first.setdefault(i, variant)
    for i, variant in sorted(first.items()):
        stm = rules[i]
        begin, end = stm.location.begin.line, stm.location.end.line
        line_text = " ".join(x.strip() for x in source[begin - 1 : end])
        out.rules.append((path, begin, line_text))
        on = f"each of the {len(failing)} failing instances" if len(failing) > 1 else "the failing instance"
        kept_on = "" if not kept_right else " and keeps it on the instance it was right on" \
            if kept_right == 1 else f" and keeps it on the {kept_right} instances it was right on"
        out.details.append([f"one edit repairs it: {variant} gives the intended answer on {on}{kept_on}"])
    return out


def repaired(ranked: Diagnosis, fixes: Diagnosis, sources: bool = False) -> Diagnosis:
    """``ranked`` (a diagnosis, :func:`several`'s) with the rules ``fixes`` repairs
    (:func:`repairs`) first: those ``ranked`` blames in its order, then the others;
    ``ranked`` as it is where no rule is repaired. ``sources``: ``ranked`` blames the
    source of a chain of wrong derivations (``diagnose(..., chain=True)``): a rule that
    reads, directly or not, what a rule ranked above it derives is not put before that
    rule for its repair: one edit below a wrong atom often makes up for it (reading
    another atom of the same chain) without mending the source.

    >>> a, b = ("mine.lp", 3, "b :- a."), ("mine.lp", 5, "c :- b.")
    >>> fix = Diagnosis([a], [["one edit repairs it"]])
    >>> [r[1] for r in repaired(Diagnosis([b, a], [["x"], ["y"]]), fix).rules]
    [3, 5]
    """
    if not fixes.rules:
        return ranked
    said = {r[1]: d for r, d in zip(fixes.rules, fixes.details, strict=False)}
    if sources and ranked.rules:
        feeds = _feeds(ranked.rules[0][0])
        above: set[int] = set()
        kept = {}
        for rule in ranked.rules + [r for r in fixes.rules if r[1] not in {x[1] for x in ranked.rules}]:
            if rule[1] in said and not any(rule[1] in feeds.get(a, ()) for a in above):
                kept[rule[1]] = said[rule[1]]
            elif rule[1] not in said:
                above.add(rule[1])
        if not kept:
            return ranked
        said = kept
        fixes = Diagnosis([r for r in fixes.rules if r[1] in said],
                          [d for r, d in zip(fixes.rules, fixes.details, strict=False) if r[1] in said])  # fmt: skip
    first = [r for r in ranked.rules if r[1] in said]
    first += [r for r in fixes.rules if r[1] not in {x[1] for x in first}]
    rest = [r for r in ranked.rules if r[1] not in said]
    details = dict(zip((r[1] for r in ranked.rules), ranked.details, strict=False))
    out = Diagnosis(note=ranked.note, status=ranked.status, explanations=ranked.explanations)
    for rule in (first + rest)[:SHOWN_FAULTS]:
        out.rules.append(rule)
        out.details.append(details.get(rule[1], []) + said.get(rule[1], []))
    return out


def _feeds(encoding: str | Path) -> dict[int, set[int]]:
    """For each rule's line in ``encoding``, the lines of the rules that read, directly
    or through other rules, a predicate its head defines (the predicate dependency
    graph; ``{}`` where the file does not parse).

    >>> import os, tempfile
    >>> with tempfile.NamedTemporaryFile("w", suffix=".lp", delete=False) as f:
    ...     _ = f.write("a(X) :- n(X).\\nb(X) :- a(X).\\nc(X) :- b(X).\\nd(X) :- n(X).\\n")
    >>> sorted(_feeds(f.name)[1]), sorted(_feeds(f.name)[4])
    ([2, 3], [])
    >>> os.unlink(f.name)
    """
    from clingo import ast

    statements: list[Any] = []
    try:
        ast.parse_string(read_text(str(encoding)), statements.append)
    except RuntimeError:
        return {}
    lines: dict[int, tuple[set[tuple[str, int]], set[tuple[str, int]]]] = {}
    for stm in statements:
        if stm.ast_type != ast.ASTType.Rule:
            continue
        try:
            heads = {h for h in (_predicate(a) for a, _ in _head_atoms(stm.head)) if h}
            body = set(_predicates(stm.body))
        except _Unsupported:
            continue
        line = stm.location.begin.line
        old = lines.get(line, (set(), set()))
        lines[line] = (old[0] | heads, old[1] | body)
    out: dict[int, set[int]] = {}
    for line, (heads, _) in lines.items():
        reached, frontier, fed = set(heads), set(heads), set()
        while frontier:
            nxt = set()
            for other, (oheads, obody) in lines.items():
                if obody & frontier and other not in fed:
                    fed.add(other)
                    nxt |= oheads - reached
            reached |= nxt
            frontier = nxt
        out[line] = fed - {line}
    return out
