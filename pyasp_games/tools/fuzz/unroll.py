"""A multi-shot encoding as one program at a horizon, for the lab's diagnosis (issue 45).

An incremental encoding (clingo's ``incmode``: ``#program base``, ``step(t)`` grounded
for ``t = 1, 2, ...``, ``check(t)`` for ``t = 0, 1, ...`` with ``#external query(t)``
true at the last horizon only) is, at horizon ``h``, the union of ``base``, ``step(1)``
... ``step(h)`` and ``check(0)`` ... ``check(h)``, with ``query(h)`` true. :func:`unroll`
writes that union as one non-ground program: each rule of a part keeps its place, its
parameter ``t`` becomes a variable ``T`` bound by a body atom ``__step(T)`` (or
``__check(T)``), and the horizon is said by facts (:func:`horizon_facts`): ``__step(1..h).
__check(0..h). query(h).``. Every rule of the source stays one rule on its own line, so
the diagnosis (:mod:`pyasp_games.tools.fuzz.diagnosis`) names the user's rule and line,
its ground instances ``with T=3`` at the step where it goes wrong.

:func:`answer_at` gives what a (verified) multi-shot program answers, run as clingo's
incremental mode runs it: its horizon and the atoms of some predicates there, the
intended answer of a least-fixpoint program (Kriegspiel's values, Cops and Robbers'
rounds) whose reference answers only the root.

>>> text = '''#program step(t).
... at(t) :- at(t-1), not stop(t).
... #program check(t).
... #external query(t).
... :- query(t), at(t), t < 2.'''
>>> print(unroll(text))
<BLANKLINE>
at(T) :- at((T-1)); not stop(T); __step(T).
<BLANKLINE>
<BLANKLINE>
#false :- query(T); at(T); T < 2; __check(T).
>>> horizon_facts(2)
'__step(1..2). __check(0..2). query(2).'
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pyasp_games.tools.fuzz.variables import variables

#: the parts of clingo's incremental mode, and the atom binding each one's parameter
PARTS = {"step": "__step", "check": "__check"}
#: the external that holds at the last horizon only
QUERY = "query"


def multi_shot(text: str) -> bool:
    """Whether ``text`` has ``#program`` parts other than ``base``.

    >>> multi_shot("#program base.\\na."), multi_shot("#program step(t).\\na(t).")
    (False, True)
    """
    from clingo import ast

    found: list[bool] = []

    def take(stm: Any) -> None:
        if stm.ast_type == ast.ASTType.Program and stm.name != "base":
            found.append(True)

    try:
        ast.parse_string(text, take)
    except RuntimeError:
        return False
    return bool(found)


def horizon_facts(horizon: int) -> str:
    """The facts that fix the horizon of an unrolled program (see the module docstring)."""
    steps = f"__step(1..{horizon}). " if horizon >= 1 else ""
    return f"{steps}__check(0..{horizon}). {QUERY}({horizon})."


def unroll(text: str) -> str:
    """``text``, a multi-shot encoding, as one program over every horizon up to the one
    :func:`horizon_facts` says (see the module docstring), each statement on its own
    line; a part other than ``base``, ``step`` and ``check`` raises ``ValueError``."""
    from clingo import ast

    lines = [""] * (text.count("\n") + 1)
    part: tuple[str, str | None] = ("base", None)

    def put(line: int, said: str) -> None:
        said = said.replace("\n", " ")
        lines[line - 1] = f"{lines[line - 1]} {said}" if lines[line - 1] else said

    def take(stm: Any) -> None:
        nonlocal part
        if stm.ast_type == ast.ASTType.Program:
            if stm.name != "base" and stm.name not in PARTS:
                raise ValueError(
                    f"the program part #program {stm.name} (incmode has base, step, check)"
                )
            if stm.name != "base" and len(stm.parameters) != 1:
                raise ValueError(f"#program {stm.name} with {len(stm.parameters)} parameters")
            part = (stm.name, stm.parameters[0].name if stm.name != "base" else None)
            return
        if stm.location.begin.filename != "<string>":  # a statement from an #include
            return
        name, param = part
        # a pool (dir(1,1;1,-1)) as its rules, each said on the source's line
        for each in stm.unpool() if stm.ast_type == ast.ASTType.Rule else [stm]:
            put(
                stm.location.begin.line,
                str(each) if param is None else _bound(each, param, PARTS[name]),
            )

    ast.parse_string(text, take)
    return "\n".join(lines)


def _bound(stm: Any, param: str, guard: str) -> str:
    """``stm`` of a part with parameter ``param``: the parameter a variable, bound by
    ``guard``; ``#external query(t).`` dropped (a fact at the horizon)."""
    from clingo import ast

    taken = set(variables(stm))
    # the parameter's name in capitals, or H (the horizon) where the rule has that
    names = (param.upper(), "H", param.upper() + "_", "H_", "__" + param.upper())
    var = next((v for v in names if v not in taken), names[-1])
    loc = stm.location

    class Parameter(ast.Transformer):
        def visit_Function(self, term: Any) -> Any:
            if term.name == param and not term.arguments and not term.external:
                return ast.Variable(term.location, var)
            return term.update(arguments=[self(a) for a in term.arguments])

        def visit_SymbolicTerm(self, term: Any) -> Any:
            sym = term.symbol
            if sym.type == sym.type.Function and sym.name == param and not sym.arguments:
                return ast.Variable(term.location, var)
            return term

        def visit_SymbolicAtom(self, atom: Any) -> Any:  # an atom's name is no term
            sym = atom.symbol
            if sym.ast_type == ast.ASTType.Function:
                return atom.update(symbol=sym.update(arguments=[self(a) for a in sym.arguments]))
            return atom.update(symbol=self(sym))

    bound = ast.Literal(loc, ast.Sign.NoSign,
                        ast.SymbolicAtom(ast.Function(loc, guard, [ast.Variable(loc, var)], 0)))  # fmt: skip
    if stm.ast_type == ast.ASTType.External:
        atom = stm.atom
        if (
            atom.symbol.ast_type == ast.ASTType.Function
            and atom.symbol.name == QUERY
            and [str(a) for a in atom.symbol.arguments] == [param]
        ):  # incmode's query
            return ""  # true at the horizon, by its fact; false below it
        return str(Parameter()(stm).update(body=[*Parameter()(stm).body, bound]))
    if stm.ast_type == ast.ASTType.Rule:
        new = Parameter()(stm)
        if var not in variables(new):  # the parameter unused: one instance per horizon
            return str(stm)  # would be the same rule h times over
        return str(new.update(body=[*new.body, bound]))
    return str(Parameter()(stm))  # #show, #minimize, ...: nothing to bind for the diagnosis


def answer_at(
    encoding: str | Path, facts: str, predicates: Iterable[str] | None
) -> tuple[int, list[str]] | None:
    """``(horizon, atoms)``: the first horizon at which the multi-shot ``encoding`` on
    ``facts`` has an answer set, run as clingo's incremental mode runs it
    (:func:`~pyasp_games.engines.incmode.solve_incrementally`), and its atoms of
    ``predicates`` (shown or not; ``None``: every atom); ``None`` when it has none up
    to its ``imax``.

    >>> text = "#program step(t).\\nwon(t) :- t > 1.\\n#program check(t).\\n"
    >>> text += "#external query(t).\\n:- query(t), not won(t).\\n#show won/1."
    >>> with tempfile.NamedTemporaryFile("w", suffix=".lp", delete=False) as f:
    ...     _ = f.write(text)
    >>> answer_at(f.name, "", ["won"])
    (2, ['won(2)'])
    >>> Path(f.name).unlink()
    """
    from pyasp_games.engines.incmode import solve_incrementally

    wanted = None if predicates is None else set(predicates)
    with tempfile.TemporaryDirectory() as folder:
        lp = Path(folder) / "facts.lp"
        lp.write_text(facts)
        horizon, atoms = solve_incrementally([encoding, lp], every_atom=True)
    if atoms is None:
        return None
    return horizon, [a for a in atoms if wanted is None or a.split("(")[0] in wanted]
