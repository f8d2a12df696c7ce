"""The link back to explicit game graphs: a small Node Kayles position expanded into its
game graph, answered by the ``grundy`` domain's own backend and checker.

:func:`game_graph` makes every reachable position a vertex of a
:class:`~pyasp_games.engines.graphs.Digraph` (``s0`` the start, the others numbered in
breadth-first order) and every move an arc; ``grundy values`` (the grundy domain's
``values`` question, its native backend and its own check of the mex rule at every
position) then gives every position's value. The start's value and the values its
moves reach are this backend's answer: a third computation beside the component
search and the ASP program, sharing neither's code.

``by`` picks which of the grundy domain's backends answers the expanded graph:
``values`` (the linear-time retrograde pass of ``grundy values``), or ``sat`` / ``asp``
(``grundy exists --backend sat|asp``: a Grundy function found by PySAT or clingo; an
acyclic game graph has exactly one, its values; checked by grundy's own checker of
the mex rule at every position). ``by="sat"`` is this domain's SAT route: the
question "which value" stated as a formula, over the expanded positions.

>>> from pyasp_games.engines.graphs import numbered_graph
>>> p4 = numbered_graph(4, [(0, 1), (1, 2), (2, 3)], "P4")
>>> game, moves = game_graph(p4)
>>> len(game), game.arc_count, moves
(6, 8, {0: 1, 1: 2, 2: 3, 3: 4})
>>> out = solve_expanded(p4)
>>> out.answer, out.stats["positions"], out.stats["grundy_verified"]
(0, 6, True)
>>> solve_expanded(p4, by="sat").answer
0
"""

from __future__ import annotations

from typing import Any

from pyasp_games.domains.grundy.model import Misere
from pyasp_games.domains.kayles.asp import refuse_large
from pyasp_games.domains.kayles.model import misere_witness, witness
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.graphs import Digraph, Graph
from pyasp_games.engines.limits import Limits

_POLL = 4096


def game_graph(graph: Graph, limits: Limits = Limits()) -> tuple[Digraph, dict[int, int]]:
    """The game graph of ``graph`` (positions as vertices, moves as arcs) and, for every
    vertex of ``graph``, the number of the position a move there leads to from the start."""
    deadline = limits.deadline()
    closed = [1 << v for v in range(len(graph))]
    for u, v in graph.edges:
        closed[u] |= 1 << v
        closed[v] |= 1 << u
    start = (1 << len(graph)) - 1  # a position: the vertices still on the board
    number = {start: 0}
    order = [start]
    succ: list[tuple[int, ...]] = []
    for i, position in enumerate(order):
        if i % _POLL == 0:
            deadline.check()
        out = []
        rest = position
        while rest:
            low = rest & -rest
            rest ^= low
            after = position & ~closed[low.bit_length() - 1]
            if after not in number:
                number[after] = len(order)
                order.append(after)
            out.append(number[after])
        succ.append(tuple(dict.fromkeys(out)))
    moves = {v: number[start & ~closed[v]] for v in range(len(graph))}
    names = tuple(f"s{i}" for i in range(len(order)))
    return Digraph(names, tuple(succ), f"{graph.name} expanded"), moves


#: How the expanded game graph is answered: by which question and backend of ``grundy``.
BY = ("values", "sat", "asp")


def solve_expanded(graph: Graph, limits: Limits = Limits(), by: str = "values") -> Claim:
    """The value and every move's value, by the grundy domain on the expanded game graph
    (``by``: ``values``, or a Grundy function by ``sat`` or ``asp``). Under the misère
    rule: the misère outcomes of the expanded graph by ``grundy values --misere``
    (:func:`solve_misere_expanded`)."""
    from pyasp_games.domains.grundy.questions import EXISTS, VALUES

    if isinstance(graph, Misere):
        return solve_misere_expanded(graph.game, limits, by)

    if by not in BY:
        from pyasp_games.errors import InputError

        raise InputError(f"unknown --by {by!r} (choose from {', '.join(BY)})")
    refuse_large(graph, "expanded")
    game, moves = game_graph(graph, limits)
    if by == "values":
        answered = VALUES.solve(game, "native", limits)
    else:
        answered = EXISTS.solve(game, by, limits, mode="one")
    stats: dict[str, Any] = {"positions": len(game), "moves": game.arc_count,
                             "grundy_status": answered.status,
                             "grundy_verified": answered.verdict.verified,
                             "grundy_question": "values" if by == "values" else f"exists --backend {by}"}  # fmt: skip
    if answered.status == "unknown":
        return Claim.unknown(stats)
    if answered.status != "solved" or answered.verdict.verified is not True:
        return Claim.error(f"grundy values: {answered.verdict.message or answered.status}", stats)
    values = answered.answer if by == "values" else answered.witness
    if not isinstance(values, dict):  # no Grundy function: impossible on an acyclic graph
        return Claim.error(f"grundy exists --backend {by} found no Grundy function", stats)
    value = values["s0"]
    options = {v: values[game.names[p]] for v, p in moves.items()}
    return Claim.solved(value, witness(graph, value, options), stats=stats)


def solve_misere_expanded(graph: Graph, limits: Limits = Limits(), by: str = "values") -> Claim:
    """``kayles value --misere --backend expanded``: the expanded game graph answered by
    ``grundy values --misere`` (misère retrograde analysis). ``--by sat|asp`` asks for a
    Grundy function, which is normal play's: refused."""
    from pyasp_games.domains.grundy.questions import VALUES
    from pyasp_games.errors import InputError

    if by != "values":
        raise InputError(f"--by {by} searches a Grundy function of the expanded graph, which "
                         "decides normal play only; with --misere use --by values")  # fmt: skip
    refuse_large(graph, "expanded")
    game, moves = game_graph(graph, limits)
    answered = VALUES.solve(Misere(game), "native", limits)
    stats: dict[str, Any] = {"positions": len(game), "moves": game.arc_count,
                             "grundy_status": answered.status,
                             "grundy_verified": answered.verdict.verified,
                             "grundy_question": "values --misere"}  # fmt: skip
    if answered.status == "unknown":
        return Claim.unknown(stats)
    if answered.status != "solved" or answered.verdict.verified is not True:
        return Claim.error(f"grundy values --misere: {answered.verdict.message or answered.status}", stats)
    classes = answered.answer
    options = {v: classes[game.names[p]] for v, p in moves.items()}
    return Claim.solved(classes["s0"], misere_witness(graph, classes["s0"], options), stats=stats)
