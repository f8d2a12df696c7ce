"""The native backends of the grundy domain and of the classic games.

- :func:`solve_native`: Grundy functions or kernels (exists / all / count) by
  propagation and backtracking (:mod:`~pyasp_games.domains.grundy.loopy_search`), one weak
  component at a time.
- :func:`solve_values`: the Grundy values of an acyclic graph (``grundy values``).
- :func:`solve_sum`: a sum of acyclic games, XOR or OR (``grundy sum``).
- :func:`solve_loopy`: the ``loopy`` backend, Smith's generalized function
  (:mod:`~pyasp_games.domains.grundy.generalized`) with its counters, of a graph or of a sum.
- :func:`solve_nim`, :func:`solve_subtraction`, :func:`solve_grundys_game`: the
  classic games (``games nim|subtraction|grundys-game``).
- :func:`solve_circuit`: a Boolean circuit's value as the Grundy value of the notes'
  game graph (``grundy circuit``).
- :func:`solve_nim_census`: how many Nim positions of K heaps of at most M coins are
  P-positions (``games nim-census``).

The algorithms themselves live in modules named for them: acyclic values
(:mod:`~pyasp_games.domains.grundy.acyclic`), sums (:mod:`~pyasp_games.domains.grundy.sums`), classic
games (:mod:`~pyasp_games.domains.grundy.classic_games`), circuits
(:mod:`~pyasp_games.domains.grundy.circuits`), loopy search and kernels, Smith's function,
retrograde labelling (:mod:`~pyasp_games.domains.grundy.retrograde`).

>>> from pyasp_games.domains.grundy.model import parse_graph
>>> c4 = parse_graph("a b\\nb c\\nc d\\nd a\\n")
>>> solve_native(c4, mode="count").answer
2
>>> solve_loopy(parse_graph("a b\\nb a\\nb c\\n"), Limits()).answer
{'a': 'P', 'b': 'N', 'c': 'P'}
>>> solve_nim(Nim((3, 4, 5))).witness
[[1, 4, 5]]
"""

from __future__ import annotations

import sys
from typing import Any

from pyasp_games.domains.grundy.acyclic import grundy_values, winning_moves
from pyasp_games.domains.grundy.census import NimCensus, count_p_positions
from pyasp_games.domains.grundy.circuits import CircuitValue, reduce_circuit
from pyasp_games.domains.grundy.classic_games import (
    grundys_game,
    nim_winning_moves,
    subtraction_period,
    subtraction_values,
)
from pyasp_games.domains.grundy.generalized import (
    classes,
    generalized_grundy,
    generalized_sum,
    loopy_sum_move,
)
from pyasp_games.domains.grundy.loopy_search import grundy_functions, kernels
from pyasp_games.domains.grundy.model import (
    GameSum,
    GrundysGame,
    Nim,
    SubtractionGame,
    distinct,
    format_value,
    outcome_class,
)
from pyasp_games.domains.grundy.sums import or_sum_winning_moves, sum_winning_moves
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.graphs import Digraph
from pyasp_games.engines.limits import Deadline, Limits
from pyasp_games.engines.question import checked_mode


def solve_values(graph: Digraph, limits: Limits = Limits(), position: str | None = None) -> Claim:
    """Grundy values of an acyclic graph (linear time) and the P/N classes.

    Answer: ``{position: value}``; witness: every position's class, or with
    ``position`` that position's value, class and winning moves.
    """
    start = graph.position(position) if position is not None else None
    values = grundy_values(graph, limits.deadline())
    answer = dict(zip(graph.names, values, strict=True))
    if start is None:
        witness: Any = {n: ("P" if v == 0 else "N") for n, v in answer.items()}
    else:
        witness = {
            "position": graph.names[start],
            "value": values[start],
            "class": "P" if values[start] == 0 else "N",
            "winning_moves": [graph.names[w] for w in winning_moves(graph, values, start)],
        }
    return Claim.solved(answer, witness)


def _component_values(game: GameSum, solve: Any, deadline: Deadline) -> list[Any]:
    """``solve(graph, deadline)`` of every component, once per distinct graph."""
    first = distinct(game.graphs)
    done: dict[int, Any] = {}
    for i, j in enumerate(first):
        if j == i:
            done[i] = solve(game.graphs[i], deadline)
    return [done[j] for j in first]


def _components(game: GameSum, values: list[Any]) -> list[dict[str, Any]]:
    return [
        {"graph": path, "position": g.names[p], "value": format_value(vals[p])}
        for path, g, p, vals in zip(game.paths, game.graphs, game.positions, values, strict=True)
    ]


def solve_sum(game: GameSum, limits: Limits = Limits(), rule: str = "xor") -> Claim:
    """A sum of acyclic games: ``xor`` (move in one component, Sprague–Grundy) or ``or``
    (move in any non-empty set of components, Smith).

    Answer: ``N`` or ``P``; witness: the components' values and the winning moves;
    certificate: every component's Grundy values (for the checker).
    """
    per = _component_values(game, grundy_values, limits.deadline())
    graphs, positions = game.graphs, game.positions
    witness: dict[str, Any] = {"components": _components(game, per)}
    if rule == "xor":
        total, moves = sum_winning_moves(graphs, per, positions)
        witness = {"value": total, **witness}
        witness["winning_moves"] = [
            {
                "component": m.component,
                "from": graphs[m.component].names[m.source],
                "to": graphs[m.component].names[m.target],
            }
            for m in moves
        ]
        wins = bool(total)
    else:
        wins, options = or_sum_winning_moves(graphs, per, positions)
        witness["winning_move"] = (
            [[graphs[i].names[w] for w in opts] if opts else None for i, opts in enumerate(options)]
            if wins
            else None
        )
    answer = "N" if wins else "P"
    return Claim.solved(answer, witness, stats={"rule": rule}, certificate=per)


def solve_loopy(
    instance: Digraph | GameSum, limits: Limits = Limits(), check_asp: bool = False
) -> Claim:
    """The ``loopy`` backend: Smith's generalized function with its counters, of a
    graph or of a sum of graphs (:class:`GameSum`).

    A graph: answer the P/N/D class of every position, witness every value as text,
    certificate ``(values, counters)`` for the checker (Smith's conditions). A sum:
    answer the class of the sum, witness its generalized nim-sum, the components'
    values and a winning or draw-keeping move, certificate the ``(values,
    counters)`` of every component. ``check_asp``: also label every graph by the ASP
    retrograde program (:func:`~pyasp_games.domains.grundy.asp.retrograde_asp`), within the
    same limit; its classes join each certificate, and the checker compares them.
    """
    deadline = limits.deadline()

    def solve(graph: Digraph, deadline: Deadline) -> tuple[Any, ...]:
        values, counters = generalized_grundy(graph, deadline)
        if not check_asp:
            return values, counters
        from pyasp_games.domains.grundy.asp import retrograde_asp  # an independent program

        return values, counters, retrograde_asp(graph, deadline)

    if isinstance(instance, GameSum):
        results = _component_values(instance, solve, deadline)
        stats: dict[str, Any] = {}
        answer, witness = _loopy_sum(instance, [r[0] for r in results])
    else:
        results = [solve(instance, deadline)]
        values = results[0][0]
        answer = dict(zip(instance.names, classes(values), strict=True))
        witness = {n: format_value(v) for n, v in zip(instance.names, values, strict=True)}
        stats = {"infinite": sum(1 for v in values if not isinstance(v, int))}
    if check_asp:
        stats["asp_retrograde_agrees"] = all(r[2] == classes(r[0]) for r in results)
    certificate = results if isinstance(instance, GameSum) else results[0]
    return Claim.solved(answer, witness, stats=stats, certificate=certificate)


def _loopy_sum(game: GameSum, values: list[Any]) -> tuple[str, dict[str, Any]]:
    """The class of a sum of loopy games and its witness (value, components, move)."""
    graphs, positions = game.graphs, game.positions
    total = generalized_sum([values[i][p] for i, p in enumerate(positions)])
    move = loopy_sum_move(graphs, values, positions)
    witness = {
        "value": format_value(total),
        "components": _components(game, values),
        "move": None
        if move is None
        else {
            "component": move.component,
            "from": graphs[move.component].names[move.source],
            "to": graphs[move.component].names[move.target],
        },
    }
    return outcome_class(total), witness


def solve_nim(nim: Nim, limits: Limits = Limits()) -> Claim:
    """Nim: ``P`` or ``N`` and every winning move; certificate ``{"xor": X}``, the XOR of
    the heaps the class rests on."""
    moves = [list(m) for m in nim_winning_moves(nim.heaps)]
    total = 0
    for h in nim.heaps:
        total ^= h
    answer = "N" if total else "P"
    return Claim.solved(answer, moves, certificate={"xor": total})


def solve_subtraction(game: SubtractionGame, limits: Limits = Limits()) -> Claim:
    """A subtraction game: ``g(0..upto)`` (answer), its exact preperiod and period with
    the proof (witness); certificate: the values up to where the period is confirmed."""
    deadline = limits.deadline()
    ds = game.moves
    period = subtraction_period(ds, deadline)
    top = max(game.upto, period.preperiod + period.period + ds[-1])
    values = subtraction_values(ds, top, deadline)
    witness = {"preperiod": period.preperiod, "period": period.period, "proof": period.proof}
    return Claim.solved(values[: game.upto + 1], witness, certificate=values)


#: from this many heaps on, a terminal shows a progress bar
PROGRESS_FROM = 20_000


def solve_grundys_game(game: GrundysGame, limits: Limits = Limits()) -> Claim:
    """Grundy's game: ``g(1..upto)`` (a progress bar on a terminal for long runs)."""
    upto = game.upto
    if upto >= PROGRESS_FROM and sys.stderr.isatty():
        from rich.progress import Progress

        with Progress(transient=True) as bar:
            task = bar.add_task("Grundy's game", total=upto)
            values = grundys_game(upto, limits.deadline(), lambda n: bar.update(task, completed=n))
    else:
        values = grundys_game(upto, limits.deadline())
    return Claim.solved(values, stats={"max_value": max(values)})


def weak_components(graph: Digraph) -> list[list[int]]:
    """The vertex sets of the connected components of the underlying undirected graph."""
    parent = list(range(len(graph)))

    def root(v: int) -> int:
        while parent[v] != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    for u, v in graph.arcs():
        a, b = root(u), root(v)
        if a != b:
            parent[a] = b
    groups: dict[int, list[int]] = {}
    for v in range(len(graph)):
        groups.setdefault(root(v), []).append(v)
    return list(groups.values())


def _induced(graph: Digraph, vertices: list[int]) -> Digraph:
    """The subgraph on a union of weak components (no arc leaves it)."""
    number = {v: i for i, v in enumerate(vertices)}
    succ = tuple(tuple(number[w] for w in graph.succ[v]) for v in vertices)
    return Digraph(tuple(graph.names[v] for v in vertices), succ, graph.name)


def solve_native(
    graph: Digraph, limits: Limits | None = None, mode: str = "one", find: str = "grundy"
) -> Claim:
    """The native backend: Grundy functions or kernels by propagation and backtracking.

    ``mode``: ``one`` (answer ``True``/``False``, witness one solution), ``all``
    (answer the number, witness the list) or ``count`` (answer the number).

    Weakly connected components share no constraint, so for ``one`` and ``count``
    each is solved on its own: a solution is the union of one per component and
    the count is the product of the counts (``all`` enumerates the whole graph).
    """
    from pyasp_games.engines.limits import LimitReached

    checked_mode(mode)
    limits = limits or Limits()
    deadline = limits.deadline()
    stats: dict = {}
    parts = [graph] if mode == "all" else [_induced(graph, c) for c in weak_components(graph)]
    stats["components"] = len(parts)
    total = 1
    witness: Any = {} if find == "grundy" else []
    found: list = []
    try:
        for part in parts:
            count = 0
            if find == "grundy":
                part_stats: dict = {}
                source = grundy_functions(part, deadline, part_stats)
                for values in source:
                    count += 1
                    solution: Any = {part.names[v]: x for v, x in enumerate(values)}
                    if mode == "all":
                        found.append(solution)
                    elif mode == "one":
                        witness.update(solution)
                        source.close()
                        break
                for key in ("nodes", "propagations"):
                    stats[key] = stats.get(key, 0) + part_stats.get(key, 0)
            else:
                for kernel in kernels(part, deadline):
                    count += 1
                    solution = [part.names[v] for v in kernel]
                    if mode == "all":
                        found.append(solution)
                    elif mode == "one":
                        witness += solution
                        break
            total *= count
            if total == 0:
                break
    except LimitReached:
        return Claim.unknown(stats)
    stats["solutions"] = total
    if mode == "one":
        if total == 0:
            return Claim.none(False, stats=stats)
        if find == "grundy":
            witness = {n: witness[n] for n in graph.names}
        else:
            witness = sorted(witness, key=graph.index.__getitem__)
        return Claim.solved(True, witness, stats=stats)
    return Claim.solved(total, found if mode == "all" else None, stats=stats)


def solve_circuit(instance: CircuitValue, limits: Limits = Limits()) -> Claim:
    """``grundy circuit``: the Grundy value of the output's vertex in the notes' game
    graph of the circuit and its inputs (:func:`~pyasp_games.domains.grundy.circuits.reduce_circuit`),
    by the linear-time algorithm; witness every position's value (the wires' first).

    >>> from pyasp_games.domains.grundy.circuits import parse_circuit
    >>> c = parse_circuit("input x y\\nz = or x y\\n")
    >>> [solve_circuit(CircuitValue(c, v)).answer for v in ((0, 0), (0, 1), (1, 1))]
    [0, 1, 1]
    """
    graph, out = reduce_circuit(instance.circuit, instance.inputs)
    values = grundy_values(graph, limits.deadline())
    wires = [*instance.circuit.inputs, *(g[0] for g in instance.circuit.gates)]
    aux = [v for v in range(len(graph)) if "." in graph.names[v]]
    witness = {graph.names[v]: values[v] for v in [*(graph.index[w] for w in wires), *aux]}
    return Claim.solved(values[out], witness, stats={"positions": len(graph), "moves": graph.arc_count})


def solve_nim_census(census: NimCensus, limits: Limits = Limits()) -> Claim:
    """``games nim-census``: how many of the ``(M+1)^K`` positions are P-positions
    (answer), by the digit DP of :func:`~pyasp_games.domains.grundy.census.count_p_positions`;
    witness the positions and the first player's wins.

    >>> solve_nim_census(NimCensus(3, 3)).answer
    16
    """
    count = count_p_positions(census.heaps, census.coins, limits.deadline())
    total = census.positions
    return Claim.solved(count, {"positions": total, "first_player_wins": total - count})
