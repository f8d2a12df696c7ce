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

A **refutation** proves that White does not mate within some number of moves: a set
of metapositions, each with the depth it refutes (``null``: any number, no forced
mate), in which every attempt either risks a draw (``"draw"``: a square where it is
legal and lets the black king stalemate or take the piece) or has an answer leading to
a node of the set that still refutes enough (as many moves after ``illegal``, one less
after a move). A node may stand for a part of the metaposition the answer leads to
(the same men, some of its squares): knowing less never lets White mate faster; or for
the image of such a part under a symmetry of the board, named by a third item of the
link (``"f,r"``: ranks and files swapped), as the rules are the same on the image. The
refutation of "mate within N - 1" is the lower bound of an optimal value N; a
strategy's witness carries it as ``"refutation"``. JSON::

    {"root": 0, "nodes": [{"metaposition": FEN, "depth": 7,
                           "refutes": {"Ra4": "draw", "Kb2": ["illegal", 1],
                                       "Rb4": ["silent", 2, "-r,f"]}}, ...]}

>>> from pyasp_games.domains.kriegspiel.model import parse_metaposition
>>> from pyasp_games.domains.kriegspiel.tablebase import build, values
>>> m = parse_metaposition("k2/2K/1R1")
>>> table = build([m])
>>> plan = strategy(m, table.worth(values(table)))
>>> [(n["attempt"], n["answers"]) for n in plan["nodes"]]
[('Ra1', {'mate': None})]
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any

from pyasp_games.domains.kriegspiel.metaposition import DRAW, rules_for
from pyasp_games.domains.kriegspiel.model import Metaposition
from pyasp_games.domains.kriegspiel.symmetry import NAMES, State, Symmetry
from pyasp_games.domains.kriegspiel.tablebase import NO_MATE
from pyasp_games.engines.limits import Deadline

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


#: The most metapositions the refutation of one metaposition may hold: beyond, it is not
#: built (the checker goes through a few thousand a second; an 8 x 8 start needs 45,000).
#: The asp backend's certificate; native's is the table of values, with this graph beside
#: it only where it is small enough to read (:data:`READABLE_REFUTATION`).
MAX_REFUTATION = 60_000
#: The most metapositions of the refutation graph native gives beside its table of values
#: (a certificate one can read: 4 x 4 and smaller boards, short values on larger ones).
READABLE_REFUTATION = 2_000


class NotBuilt(Exception):
    """A refutation was not built: it would hold more metapositions than allowed, or the
    time limit came first."""


def halfway(deadline: Deadline) -> Deadline:
    """The clock for building a certificate: half the time left, the other half for the
    checker to go through it (it takes about as long), so that a run near its limit
    answers without one rather than not at all."""
    left = deadline.remaining()
    return deadline if left is None else Deadline(left / 2)


def refutation(
    m: Metaposition,
    worth: Worth,
    limit: int | None = MAX_REFUTATION,
    most: int | None = None,
    deadline: Deadline | None = None,
    symmetric: bool = True,
) -> dict[str, Any]:
    """The proof that White does not mate from ``m`` faster than its value: "no forced
    mate" for a value of :data:`NO_MATE`, else "no mate within value - 1 moves" (the
    lower bound of an optimal value); with ``most``, within at most that many moves
    (``--max-moves``). :class:`NotBuilt` beyond ``limit`` metapositions or past
    ``deadline``."""
    graph = refutations([m], worth, limit, most, deadline, symmetric)
    return {"root": graph["roots"][0], "nodes": graph["nodes"]}


def depth_refuted(value: int) -> int | None:
    """The most moves within which White provably does not mate from a metaposition of
    worst-case ``value``: ``value - 1``, or ``None`` (any number: no forced mate)."""
    return None if value >= NO_MATE else value - 1


def _at_least(depth: int | None, needed: int | None) -> bool:
    """Whether refuting ``depth`` moves refutes ``needed`` (``None``: any number)."""
    return depth is None or (needed is not None and depth >= needed)


def refutations(
    ms: list[Metaposition],
    worth: Worth,
    limit: int | None = MAX_REFUTATION,
    most: int | None = None,
    deadline: Deadline | None = None,
    symmetric: bool = True,
) -> dict[str, Any]:
    """One refutation graph for several roots. Each node is a metaposition and the depth
    it refutes (its value - 1: White does not mate within that many moves; ``None``: no
    forced mate at all) with, for each attempt, a possible draw or an answer leading to
    a node that refutes enough: as many moves after an illegal attempt (no move made),
    one less after a move. A node of depth 0 needs nothing (no mate within 0 moves).

    A node may stand for any metaposition it is a part of (the same men, some of the
    squares): White cannot mate faster when it knows less, so the refutation of the
    smaller belief refutes the larger one too. With ``symmetric``, it stands for its
    images under the board's symmetries as well (the link names the symmetry, e.g.
    ``["silent", 7, "-r,f"]``: node 7 is the image with the ranks counted from the top);
    ``worth`` must then be the same on symmetric states (a table's is). The graph reuses
    a node so wherever one fits: a few times fewer nodes than metapositions covered, and
    about 8 times fewer again with the symmetries.
    ``most``: no node claims more than that many moves (the roots need no more).
    A ``worth`` that is no fixpoint of the rules (an answer set's values, say) may leave
    an attempt without a refutation: :class:`ValueError`."""
    m = ms[0]
    rules = rules_for(m.board, m.piece)
    symmetry = Symmetry(m.board, m.piece) if symmetric else None
    nodes: list[dict[str, Any]] = []
    ids: dict[State, int] = {}
    # the nodes placed, by White's men: their beliefs, depths and numbers
    placed: dict[tuple[int, int], list[tuple[int, int | None, int]]] = defaultdict(list)
    todo: list[State] = []
    depths: dict[State, int | None] = {}

    def depth_of(state: State) -> int | None:
        if state not in depths:
            depth = depth_refuted(worth(state))
            depths[state] = depth if most is None or (depth is not None and depth < most) else most
        return depths[state]

    def node(state: State) -> int:
        if state not in ids:
            if limit is not None and len(nodes) >= limit:
                raise NotBuilt(f"the refutation would hold more than {limit:,} metapositions")
            if deadline is not None and len(nodes) % 256 == 0 and deadline.expired():
                raise NotBuilt("the time limit came before the refutation was built")
            ids[state] = len(nodes)
            nodes.append({})
            todo.append(state)
            placed[state[:2]].append((state[2], depth_of(state), ids[state]))
        return ids[state]

    def images(state: State) -> list[tuple[int, State]]:
        """The images of ``state`` with White's men on their least placement, each with
        its symmetry (one node stands for all its symmetric metapositions)."""
        if symmetry is None:
            return [(0, state)]
        men, group = symmetry.least(state[0], state[1])
        return [(g, (*men, symmetry.belief(g, state[2]))) for g in group]

    def known(state: State, needed: int | None) -> tuple[int, int] | None:
        """A node already placed that refutes ``needed`` moves from a part of an image of
        ``state``, and that image's symmetry."""
        for g, image in images(state):
            belief = image[2]
            for part, depth, number in placed[image[:2]]:
                if part & ~belief == 0 and (depth is None or (needed is not None and depth >= needed)):
                    return number, g
        return None

    def link(answer: str, number: int, g: int) -> list[Any]:
        return [answer, number] if g == 0 else [answer, number, NAMES[g]]

    roots = [node((r.king, r.piece_square, r.belief)) for r in ms]
    while todo:
        state = todo.pop()
        king, square, belief = state
        depth = depth_of(state)
        refutes: dict[str, Any] = {}
        if depth != 0:
            after = None if depth is None else depth - 1
            for attempt, sub, answers in rules.outcomes(king, square, belief):
                if answers is DRAW:
                    refutes[rules.name(attempt)] = "draw"
                    continue
                choices = [(a, s, after) for a, s in answers.items() if s is not None]
                if sub:
                    choices.insert(0, ("illegal", (king, square, sub), depth))
                fits = [c for c in choices if _at_least(depth_of(c[1]), c[2])]
                # the values are a fixpoint: some answer refutes (else the value were less)
                said = None
                for a, s, needed in fits:
                    found = known(s, needed)
                    if found is not None:
                        said = link(a, *found)
                        break
                if said is None:
                    if not fits:
                        raise ValueError(
                            f"{_fen(m, state)}: no answer to {rules.name(attempt)} keeps White "
                            f"from mating within {depth} moves: the values are no fixpoint"
                        )
                    a, s, _ = min(fits, key=lambda c: worth(c[1]))
                    g, image = min(images(s), key=lambda gi: gi[1])
                    said = link(a, node(image), g)
                refutes[rules.name(attempt)] = said
        nodes[ids[state]] = {"metaposition": _fen(m, state), "depth": depth, "refutes": refutes}
    return {"roots": roots, "nodes": nodes}
