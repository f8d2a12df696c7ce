"""Kriegspiel with clingo: "mate within k" by the retrograde fixpoint, the rules in ASP.

Python lists the metapositions reachable from the one asked (the universe: each one's
men and possible black-king squares, as facts); ``encodings/kriegspiel/retrograde.lp``
derives every attempt's consequences itself (illegal squares, the referee's answers,
Black's legal steps), finds the metaposition each answer leads to (refusing an answer
set where the universe lacks one), and computes level by level which metapositions are
won within D moves. The answer is the least D won at the root; the strategy is read
off the answer set (``best/3`` and ``child/5``) and replayed by the independent checker.
That no strategy is faster is certified too: the answer set's values (``value/2``; a
metaposition without one is not won within D, or, once a level adds no win
(``converged/1``), not won at all) give the refutation of a mate within D - 1
(:func:`~pyasp_games.domains.kriegspiel.strategy.refutation`), which the checker goes through
like native's; without a win, the same refutation proves that there is no forced mate.
Values that are no fixpoint of the rules leave some attempt unrefuted: the answer set
is refused (a failed verification).

>>> from pyasp_games.domains.kriegspiel.model import parse_metaposition
>>> out = solve_asp(parse_metaposition("?1?/2?/KR1"))
>>> out.status, out.answer, out.verdict.optimal_claimed
('solved', 4, True)
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from pyasp_games.domains.kriegspiel.model import Metaposition, square_name
from pyasp_games.domains.kriegspiel.strategy import MAX_REFUTATION, NotBuilt, halfway, refutation
from pyasp_games.domains.kriegspiel.tablebase import NO_MATE, build
from pyasp_games.engines.clingo_runner import ClingoSession, write_facts
from pyasp_games.engines.limits import LimitReached, Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.resources import encoding_path
from pyasp_games.errors import InputError, MalformedAnswer

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
        stats.update(bounded=levels, levels=levels)
        return Outcome(m.name, "asp", "no-solution", None, None, 0.0, stats)
    stats["levels"] = level
    if result.status == "unknown":
        return Outcome(m.name, "asp", "unknown", None, None, 0.0, stats)
    atoms = _read(result.symbols)
    if atoms["missing"]:
        raise MalformedAnswer(f"the universe lacks where {atoms['missing'][0]} leads")
    value = {u: d for u, d in atoms["value"]}
    # a metaposition without a value is not won within the last level (no mate at all
    # once a level won nothing new): the refutations of a faster mate read it so
    beyond = NO_MATE if atoms["converged"] else level + 1
    number = {state: u for u, state in enumerate(universe)}

    def worth(state: tuple[int, int, int]) -> int:
        return value.get(number[state], beyond)

    solved = 0 in value
    try:  # "no forced mate" is proved whatever its size (the universe bounds it)
        # the universe has no symmetry reduction: every node as it stands
        proof = refutation(m, worth, MAX_REFUTATION if solved else None, None, halfway(deadline),
                           symmetric=False)  # fmt: skip
    except NotBuilt as err:
        if not solved:
            raise LimitReached(stats | {"stopped": str(err)}) from None
        proof, stats["no_certificate"] = None, str(err)
    except (KeyError, ValueError) as err:  # values that are no fixpoint of the rules
        raise MalformedAnswer(f"the answer set's values refute nothing: {err}") from None
    if solved:
        plan = _strategy(m, universe, value, atoms)
        stats.update(optimal=True, optimal_by="clingo's level-by-level fixpoint",
                     strategy_nodes=len(plan["nodes"]))  # fmt: skip
        if proof is not None:
            plan["refutation"] = proof
        return Outcome(m.name, "asp", "solved", value[0], plan, 0.0, stats)
    return Outcome(m.name, "asp", "no-solution", None, proof, 0.0, stats)


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
