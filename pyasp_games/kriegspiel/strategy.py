"""White's strategy as a graph keyed by observations, and the proof that none wins.

A **strategy** names White's attempt for every history of White's observations. The
metaposition is a function of that history and carries all White needs (a sure win
against every square and reply depends on nothing else), so a strategy is stored as a
graph: one node per metaposition met, with its attempt and, for each answer the
referee can give (``illegal``, ``mate``, a check, ``silent``), the node White is at
next (``mate``: none). Its unfolding from the root is the tree of observation
histories. JSON::

    {"root": 0, "nodes": [{"metaposition": FEN, "value": 7, "attempt": "Kb2",
                           "answers": {"illegal": 1, "silent": 2, "mate": null}}, ...]}

A **refutation** proves that White has no forced mate: a set of metapositions
containing the root in which every attempt either risks a draw (``"draw"``: a square
where it is legal and lets the black king stalemate or take the piece) or has an
answer that stays in the set (the node it leads to). White can never leave such a set
for a mate, because each attempt either may draw or keeps the game in it. JSON::

    {"root": 0, "nodes": [{"metaposition": FEN, "refutes": {"Ra4": "draw",
                                                            "Kb2": ["illegal", 1]}}, ...]}

>>> from pyasp_games.kriegspiel.model import parse_metaposition
>>> from pyasp_games.kriegspiel.tablebase import build, values
>>> m = parse_metaposition("k2/2K/1R1")
>>> table = build([m])
>>> plan = strategy(m, table.worth(values(table)))
>>> [(n["attempt"], n["answers"]) for n in plan["nodes"]]
[('Ra1', {'mate': None})]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pyasp_games.kriegspiel.metaposition import DRAW, rules_for
from pyasp_games.kriegspiel.model import Metaposition
from pyasp_games.kriegspiel.tablebase import NO_MATE, State

#: A metaposition's worst-case value (:data:`NO_MATE`: none), from a table.
Worth = Callable[[State], int]


def _fen(m: Metaposition, state: State) -> str:
    return Metaposition(m.board, state[0], state[1], state[2], m.piece).fen()


def strategy(m: Metaposition, worth: Worth) -> dict[str, Any]:
    """The optimal strategy from ``m`` (value finite): at every metaposition, the first
    attempt whose worst case equals the metaposition's value."""
    graph = strategies([m], worth)
    return {"root": graph["roots"][0], "nodes": graph["nodes"]}


def strategies(ms: list[Metaposition], worth: Worth) -> dict[str, Any]:
    """One strategy graph for several roots (each with a finite value): ``{"roots": [...],
    "nodes": [...]}``, the nodes shared."""
    m = ms[0]
    rules = rules_for(m.board, m.piece)

    nodes: list[dict[str, Any]] = []
    ids: dict[State, int] = {}
    todo: list[State] = []

    def node(state: State) -> int:
        if state not in ids:
            ids[state] = len(nodes)
            nodes.append({})
            todo.append(state)
        return ids[state]

    roots = [node((r.king, r.piece_square, r.belief)) for r in ms]
    while todo:
        state = todo.pop()
        king, square, belief = state
        target = worth(state)
        attempt, sub, answers = next(
            choice
            for choice in rules.outcomes(king, square, belief)
            if choice[2] is not DRAW and _worst(choice, king, square, worth) == target
        )  # the values are a fixpoint: some attempt reaches each one
        said: dict[str, int | None] = {}
        if sub:
            said["illegal"] = node((king, square, sub))
        for answer, after in answers.items():
            said[answer] = None if after is None else node(after)
        nodes[ids[state]] = {
            "metaposition": _fen(m, state),
            "value": target,
            "attempt": rules.name(attempt),
            "answers": said,
        }
    return {"roots": roots, "nodes": nodes}


def _worst(choice: tuple, king: int, square: int, worth: Any) -> int:
    """The worst case of an attempt: its illegal part's value, or one move more than
    the worst answer's."""
    _attempt, sub, answers = choice
    worst = max([0, *(worth(s) for s in answers.values() if s is not None)]) + 1
    return max(worst, worth((king, square, sub))) if sub else worst


def refutation(m: Metaposition, worth: Worth) -> dict[str, Any]:
    """The proof that White has no forced mate from ``m`` (value :data:`NO_MATE`): the
    metapositions without a forced mate that the refutations reach."""
    graph = refutations([m], worth)
    return {"root": graph["roots"][0], "nodes": graph["nodes"]}


def refutations(ms: list[Metaposition], worth: Worth) -> dict[str, Any]:
    """One refutation graph for several roots without a forced mate."""
    m = ms[0]
    rules = rules_for(m.board, m.piece)

    def lost(state: State) -> bool:
        return worth(state) >= NO_MATE

    nodes: list[dict[str, Any]] = []
    ids: dict[State, int] = {}
    todo: list[State] = []

    def node(state: State) -> int:
        if state not in ids:
            ids[state] = len(nodes)
            nodes.append({})
            todo.append(state)
        return ids[state]

    roots = [node((r.king, r.piece_square, r.belief)) for r in ms]
    while todo:
        state = todo.pop()
        king, square, belief = state
        refutes: dict[str, Any] = {}
        for attempt, sub, answers in rules.outcomes(king, square, belief):
            if answers is DRAW:
                refutes[rules.name(attempt)] = "draw"
            elif sub and lost((king, square, sub)):
                refutes[rules.name(attempt)] = ["illegal", node((king, square, sub))]
            else:
                answer, after = next(
                    (a, s) for a, s in answers.items() if s is not None and lost(s)
                )
                refutes[rules.name(attempt)] = [answer, node(after)]
        nodes[ids[state]] = {"metaposition": _fen(m, state), "refutes": refutes}
    return {"roots": roots, "nodes": nodes}
