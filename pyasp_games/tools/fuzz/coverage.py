"""Which rules of an encoding the instances of a fuzz session exercised (``fuzz
--coverage``), in the manner of T. Janhunen, I. Niemelä, J. Oetsch, J. Pührer and H.
Tompits, "Random vs. structure-based testing of answer-set programs: an experimental
comparison", LPNMR 2011 (rule coverage: a rule is covered when it fires in some answer
set of some test input).

Each rule of the user's file (clingo's AST; ``FILE:LINE`` as blame gives them) gets a
*probe*: ``__cover(I,(X,...)) :- BODY.``, with the body's global variables as
arguments, added beside the program, so that

- the probe's ground atoms are the rule's *ground instances* that grounding kept;
- a probe true in an answer set is an instance that *fired* there (its body true);
- an integrity constraint never fires in an answer set (that is its job), so its probe
  runs in a second program where every constraint is a probe instead: a constraint
  *cut* when its body holds in some answer set of the program without its constraints.

Everything is asked of clingo (a few answer sets enumerated per instance, within a
budget); multi-shot encodings (``#program`` parts) are not measured. The session keeps,
for every rule, the instances grounded and fired over all instances tried, and prints
the rules that never fired; the random phase prefers instances that fire a rule not yet
fired (hypothesis' ``target``).

>>> import tempfile, os
>>> text = "{ chosen(S) : subset(S) }.\\nbig :- chosen(S), S > 5.\\n:- chosen(1), chosen(2).\\n"
>>> with tempfile.NamedTemporaryFile("w", suffix=".lp", delete=False) as f:
...     _ = f.write(text)
>>> cover = Coverage(f.name)
>>> cover.add("subset(1..3).")  # rules fired for the first time
2
>>> [(r.line, r.fired > 0) for r in cover.rules]
[(1, True), (2, False), (3, True)]
>>> [line.replace(f.name, "mine.lp") for line in cover.lines()][1]
'  never fired (never grounded): mine.lp:2: big :- chosen(S), S > 5.'
>>> os.unlink(f.name)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pyasp_games.errors import read_text
from pyasp_games.tools.fuzz.variables import variables

#: The probes' name (no user program is likely to use it).
PROBE = "__cover"

#: Answer sets enumerated per instance and program (fired instances are read from them).
MODELS = 20


@dataclass
class Rule:
    """One rule of the user's file, and what the session saw of it."""

    index: int
    line: int
    text: str
    constraint: bool
    grounded: int = 0  # ground instances kept by grounding, over every instance tried
    fired: int = 0  # of those, instances whose body held in an answer set found (a
    # constraint: in an answer set of the program without its constraints)


class Coverage:
    """The rules of a (single-shot) encoding and how often each was grounded and fired."""

    def __init__(self, encoding: str | Path) -> None:
        from clingo import ast

        self.path = str(encoding)
        source = read_text(self.path).splitlines()
        self.rules: list[Rule] = []
        self.multi_shot = False
        self._plain: list[Any] = []  # the program with a probe beside each rule
        self._relaxed: list[Any] = []  # ... and every constraint a probe instead
        self.instances = 0

        def take(stm: Any) -> None:
            if stm.ast_type == ast.ASTType.Program and stm.name != "base":
                self.multi_shot = True
            if stm.ast_type != ast.ASTType.Rule:
                self._plain.append(stm)
                self._relaxed.append(stm)
                return
            loc, head = stm.location, stm.head
            first, last = loc.begin.line, loc.end.line
            text = " ".join(line.strip() for line in source[first - 1: last])
            constraint = head.ast_type == ast.ASTType.Literal and \
                head.atom.ast_type == ast.ASTType.BooleanConstant  # fmt: skip
            rule = Rule(len(self.rules), first, text, constraint)
            self.rules.append(rule)
            probe = ast.Rule(loc, _probe(loc, rule.index, variables(stm.body, global_only=True)), stm.body)
            self._plain += [stm, probe]
            self._relaxed += [probe] if constraint else [stm, probe]

        ast.parse_files([self.path], take)

    def add(self, facts: str, budget: float = 5.0) -> int:
        """Ground and solve the encoding on ``facts`` (both programs, a few answer sets
        each), count what was grounded and fired; the number of rules that fired here
        for the first time in the session (what the random phase maximises)."""
        if self.multi_shot or not self.rules:
            return 0
        before = {r.index for r in self.rules if r.fired}
        self.instances += 1
        for program, constraints in ((self._plain, False), (self._relaxed, True)):
            grounded, fired = _measure(program, facts, budget)
            for rule in self.rules:
                if rule.constraint is constraints:
                    rule.grounded += grounded.get(rule.index, 0)
                    rule.fired += fired.get(rule.index, 0)
        return sum(1 for r in self.rules if r.fired and r.index not in before)

    def lines(self) -> list[str]:
        """The session's coverage in words: a summary and the rules never fired."""
        if self.multi_shot:
            return ["coverage: not measured: the encoding is multi-shot (#program parts)"]
        fired = sum(1 for r in self.rules if r.fired)
        instances = sum(r.fired for r in self.rules), sum(r.grounded for r in self.rules)
        out = [f"coverage: {fired} of {len(self.rules)} rules fired on {self.instances} "
               f"instances ({instances[0]:,} of {instances[1]:,} ground instances)"]  # fmt: skip
        for r in self.rules:
            if not r.fired:
                what = "never cut a candidate" if r.constraint else "never fired"
                if not r.grounded:
                    what += " (never grounded)"
                out.append(f"  {what}: {self.path}:{r.line}: {r.text}")
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"instances": self.instances, "multi_shot": self.multi_shot,
                "rules": [{"line": r.line, "text": r.text, "constraint": r.constraint,
                           "grounded": r.grounded, "fired": r.fired} for r in self.rules]}  # fmt: skip


def _probe(loc: Any, index: int, variables: list[str]) -> Any:
    from clingo import Number, ast

    args = [ast.Variable(loc, v) for v in variables]
    key = ast.SymbolicTerm(loc, Number(index))
    return ast.Literal(loc, ast.Sign.NoSign, ast.SymbolicAtom(
        ast.Function(loc, PROBE, [key, ast.Function(loc, "", args, 0)], 0)))


def _measure(program: list[Any], facts: str, budget: float) -> tuple[dict[int, int], dict[int, int]]:
    """``(grounded, fired)``: per rule, its probe's ground atoms, and those true in some
    of the first :data:`MODELS` answer sets (within ``budget`` seconds)."""
    import clingo
    from clingo import ast

    control = clingo.Control(["--warn=none", f"--models={MODELS}"])
    with ast.ProgramBuilder(control) as builder:
        for stm in program:
            builder.add(stm)
    control.add("base", [], facts)
    control.ground([("base", [])])
    grounded: dict[int, int] = {}
    for atom in control.symbolic_atoms.by_signature(PROBE, 2):
        k = atom.symbol.arguments[0].number
        grounded[k] = grounded.get(k, 0) + 1
    true: set[Any] = set()

    def on_model(model: Any) -> None:
        true.update(s for s in model.symbols(atoms=True) if s.name == PROBE)

    with control.solve(on_model=on_model, async_=True) as handle:
        if not handle.wait(budget):
            handle.cancel()
        handle.wait()
    fired: dict[int, int] = {}
    for s in true:
        k = s.arguments[0].number
        fired[k] = fired.get(k, 0) + 1
    return grounded, fired
