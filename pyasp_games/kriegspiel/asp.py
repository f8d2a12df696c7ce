"""Kriegspiel with clingo: "mate within k" by the retrograde fixpoint, the rules in ASP.

Python lists the metapositions reachable from the one asked (the universe: each one's
men and possible black-king squares, as facts); ``encodings/kriegspiel/retrograde.lp``
derives every attempt's consequences itself (illegal squares, the referee's answers,
Black's legal steps), finds the metaposition each answer leads to (refusing an answer
set where the universe lacks one), and computes level by level which metapositions are
won within D moves. The answer is the least D won at the root; the strategy is read
off the answer set (``best/3`` and ``child/5``) and replayed by the independent checker;
without a win, a level that adds no win (``converged/1``) proves that there is no
forced mate, and the refutation is read off ``draw/3`` and ``child/5`` too.

>>> from pyasp_games.kriegspiel.model import parse_metaposition
>>> out = solve_asp(parse_metaposition("?1?/2?/KR1"))
>>> out.status, out.answer, out.stats["optimal"]
('solved', 4, True)
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from pyasp_games.engines.clingo_runner import ClingoSession, write_facts
from pyasp_games.engines.limits import LimitReached, Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.resources import encoding_path
from pyasp_games.errors import InputError, MalformedAnswer
from pyasp_games.kriegspiel.model import Metaposition, square_name
from pyasp_games.kriegspiel.tablebase import build

DOMAIN = "kriegspiel"
ENCODING = "retrograde"
#: The most metapositions the asp backend grounds (each brings its attempts and squares).
MAX_UNIVERSE = 20_000


def facts(m: Metaposition, universe: list[tuple[int, int, int]]) -> str:
    """The board, the piece, the universe of metapositions (number 0 is ``m``)."""
    board = m.board
    out = [f"cell({s},{r},{f})." for s in range(board.size) for r, f in [board.coords(s)]]
    out.append(f"piece({'rook' if m.piece == 'R' else 'queen'}).")
    for u, (king, square, belief) in enumerate(universe):
        out.append(f"state({u},{king},{square}).")
        out += [f"in({u},{b})." for b in board.squares(belief)]
    out.append("root(0).")
    return "\n".join(out) + "\n"


def _answer_name(symbol: str) -> str:
    return symbol.replace("_", "-")


def solve_asp(
    m: Metaposition,
    limits: Limits = Limits(),
    encoding: str = ENCODING,
    emit_lp: Path | str | None = None,
) -> Outcome:
    """The ``asp`` backend: the least D such that White mates within D moves, with the
    strategy; levels up to ``limits.max_length`` (default: the board's squares)."""
    deadline = limits.deadline()
    table = build([m], deadline, symmetric=False)
    if len(table.keys) > MAX_UNIVERSE:
        raise InputError(
            f"the asp backend grounds at most {MAX_UNIVERSE} metapositions; this one reaches "
            f"{len(table.keys)} (use --backend native)"
        )
    universe = table.keys
    levels = limits.max_length or m.board.size
    text = facts(m, universe)
    enc = encoding_path(DOMAIN, encoding)
    if emit_lp is not None:
        write_facts(emit_lp, text, [enc], f"kriegspiel metaposition {m.name}: {m.describe()}",
                    incremental=True, options=["-c", f"imax={levels}"],
                    notes=["metaposition 0 is the one asked"])  # fmt: skip
    session = ClingoSession([enc], text, deadline=deadline)
    stats: dict[str, Any] = {"metapositions": len(universe)}
    try:
        session.ground([("base", []), ("check", [0])])
        for level in range(1, levels + 1):
            session.ground([("step", [level]), ("check", [level])])
            session.set_external("query", [level], True)
            result = session.solve()
            if result.status != "unsat":
                break
            session.set_external("query", [level], None)
    except LimitReached:
        return Outcome(m.name, "asp", "unknown", None, None, 0.0, stats | session.statistics())
    stats |= session.statistics()
    if result.status == "unsat":  # no stop within the levels: no mate within them
        stats.update(bounded=f"no forced mate within {levels} moves", levels=levels)
        return Outcome(m.name, "asp", "no-solution", None, None, 0.0, stats)
    stats["levels"] = level
    if result.status == "unknown":
        return Outcome(m.name, "asp", "unknown", None, None, 0.0, stats)
    atoms = _read(result.symbols)
    if atoms["missing"]:
        raise MalformedAnswer(f"the universe lacks where {atoms['missing'][0]} leads")
    value = {u: d for u, d in atoms["value"]}
    if 0 in value:
        plan = _strategy(m, universe, value, atoms)
        stats.update(optimal=True, strategy_nodes=len(plan["nodes"]))
        return Outcome(m.name, "asp", "solved", value[0], plan, 0.0, stats)
    return Outcome(m.name, "asp", "no-solution", None, _refutation(m, universe, value, atoms), 0.0, stats)


def _read(symbols: list[Any]) -> dict[str, list[tuple]]:
    atoms: dict[str, list[tuple]] = defaultdict(list)
    for s in symbols:
        args = tuple(a.number if a.type.name == "Number" else a.name for a in s.arguments)
        atoms[s.name].append(args)
    return atoms


def _fen(m: Metaposition, state: tuple[int, int, int]) -> str:
    return Metaposition(m.board, state[0], state[1], state[2], m.piece).fen()


def _attempt(m: Metaposition, man: str, target: int) -> str:
    return f"{'K' if man == 'k' else m.piece}{square_name(m.board, target)}"


def _strategy(m: Metaposition, universe: list, value: dict, atoms: dict) -> dict[str, Any]:
    best: dict[int, tuple[str, int]] = {}
    for u, man, t in sorted(atoms["best"]):
        best.setdefault(u, (man, t))
    children: dict[tuple, dict[str, int]] = defaultdict(dict)
    for u, man, t, answer, v in atoms["child"]:
        children[u, man, t][_answer_name(answer)] = v
    nodes: dict[int, dict[str, Any]] = {}
    todo = [0]
    while todo:
        u = todo.pop()
        if u in nodes:
            continue
        man, t = best[u]
        said: dict[str, Any] = dict(children.get((u, man, t), {}))
        nodes[u] = {"metaposition": _fen(m, universe[u]), "value": value[u],
                    "attempt": _attempt(m, man, t), "answers": said}  # fmt: skip
        todo += [v for v in said.values() if v not in nodes]
    mates = {(u, man, t) for u, man, t in atoms["mates"]}
    for u, node in nodes.items():
        if (u, *best[u]) in mates:
            node["answers"]["mate"] = None
    order = {u: i for i, u in enumerate(nodes)}
    for node in nodes.values():
        node["answers"] = {a: None if v is None else order[v] for a, v in node["answers"].items()}
    return {"root": order[0], "nodes": list(nodes.values())}


def _refutation(m: Metaposition, universe: list, value: dict, atoms: dict) -> dict[str, Any]:
    draws = {(u, man, t) for u, man, t in atoms["draw"]}
    children: dict[tuple, dict[str, int]] = defaultdict(dict)
    for u, man, t, answer, v in atoms["child"]:
        children[u, man, t][_answer_name(answer)] = v
    attempts: dict[int, list[tuple[str, int]]] = defaultdict(list)
    for u, man, t in draws:
        attempts[u].append((man, t))
    for u, man, t in children:
        attempts[u].append((man, t))
    nodes: dict[int, dict[str, Any]] = {}
    todo = [0]
    while todo:
        u = todo.pop()
        if u in nodes:
            continue
        refutes: dict[str, Any] = {}
        for man, t in sorted(set(attempts[u])):
            name = _attempt(m, man, t)
            if (u, man, t) in draws:
                refutes[name] = "draw"
                continue
            answer, v = next((a, v) for a, v in sorted(children[u, man, t].items()) if v not in value)
            refutes[name] = [answer, v]
            todo.append(v)
        nodes[u] = {"metaposition": _fen(m, universe[u]), "refutes": refutes}
    order = {u: i for i, u in enumerate(nodes)}
    for node in nodes.values():
        node["refutes"] = {a: r if r == "draw" else [r[0], order[r[1]]] for a, r in node["refutes"].items()}
    return {"root": order[0], "nodes": list(nodes.values())}
