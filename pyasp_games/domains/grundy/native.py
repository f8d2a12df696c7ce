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
    Misere,
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
    if isinstance(graph, Misere):
        return solve_misere_values(graph.game, limits, position)
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
    if isinstance(game, Misere):
        return solve_misere_sum(game.game, limits, rule)
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
    if isinstance(instance, Misere):
        return solve_misere_loopy(instance.game, limits, check_asp)
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
    the heaps the class rests on. Under the misère rule (``nim.misere``): Bouton's misère
    rule (:func:`~pyasp_games.domains.grundy.misere.misere_nim_moves`)."""
    if nim.misere:
        return solve_misere_nim(nim, limits)
    moves = [list(m) for m in nim_winning_moves(nim.heaps)]
    total = 0
    for h in nim.heaps:
        total ^= h
    answer = "N" if total else "P"
    return Claim.solved(answer, moves, certificate={"xor": total})


def solve_subtraction(game: SubtractionGame, limits: Limits = Limits()) -> Claim:
    """A subtraction game: ``g(0..upto)`` (answer), its exact preperiod and period with
    the proof (witness); certificate: the values up to where the period is confirmed.
    Under the misère rule (``game.misere``): the outcomes ``P``/``N`` instead of the
    values, their period proved the same way (the certificate: 0 for P, 1 for N)."""
    deadline = limits.deadline()
    ds = game.moves
    period = subtraction_period(ds, deadline, misere=game.misere)
    top = max(game.upto, period.preperiod + period.period + ds[-1])
    values = subtraction_values(ds, top, deadline, misere=game.misere)
    if game.misere:
        witness = {"preperiod": period.preperiod, "period": period.period, "proof": period.proof}
        return Claim.solved(["PN"[o] for o in values[: game.upto + 1]], witness, certificate=values)
    witness = {"preperiod": period.preperiod, "period": period.period, "proof": period.proof}
    return Claim.solved(values[: game.upto + 1], witness, certificate=values)


#: from this many heaps on, a terminal shows a progress bar
PROGRESS_FROM = 20_000


def solve_grundys_game(game: GrundysGame, limits: Limits = Limits()) -> Claim:
    """Grundy's game: ``g(1..upto)`` (a progress bar on a terminal for long runs); under
    the misère rule the outcomes ``P``/``N`` of ``1..upto`` by direct search."""
    if game.misere:
        from pyasp_games.domains.grundy.classic_games import misere_grundys_game

        outcomes = misere_grundys_game(game.upto, limits.deadline())
        return Claim.solved(outcomes, stats={"p_positions": outcomes.count("P")})
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

# -- misère play (the player who moves last loses) ---------------------------------------


def _acyclic(graph: Digraph) -> None:
    """Refuse a graph with a cycle (named) where the acyclic questions are asked."""
    from pyasp_games.domains.grundy.acyclic import CyclicGraphError

    try:
        grundy_values(graph)
    except CyclicGraphError as err:  # the same refusal, pointing at the misère loopy question
        raise CyclicGraphError(str(err).split(": Grundy values")[0] + ": misère outcomes by "
                               "this question need an acyclic graph; use 'grundy loopy --misere' "
                               "(win, loss or draw)") from None


def solve_misere_values(graph: Digraph, limits: Limits = Limits(), position: str | None = None) -> Claim:
    """``grundy values --misere``: the misère outcome of every position of an acyclic
    graph, by retrograde analysis with a position without moves an N-position
    (:func:`~pyasp_games.domains.grundy.misere.play_labels`).

    Answer: ``{position: "P" | "N"}``; witness: the same, or with ``position`` its
    class, its winning moves (its successors that are P) and its genus; certificate
    ``{"ranks": [...]}`` (how many moves the longest forced play from each position
    lasts), the induction the checker replays.
    """
    from pyasp_games.domains.grundy.misere import Genera, play_labels

    start = graph.position(position) if position is not None else None
    deadline = limits.deadline()
    _acyclic(graph)
    cls, rank = play_labels(graph.succ, graph.pred, misere=True, deadline=deadline)
    answer = dict(zip(graph.names, cls, strict=True))
    witness: Any = dict(answer)
    if start is not None:
        genera = Genera(lambda v: graph.succ[v], deadline=deadline)
        found = genera.genus(start)
        tame, wild = genera.tame(start)
        witness = {
            "position": graph.names[start],
            "class": cls[start],
            "winning_moves": [graph.names[w] for w in graph.succ[start] if cls[w] == "P"],
            "genus": str(found),
            "gammas": list(found.gammas),
            "tame": tame,
            "wild": None if wild is None else graph.names[wild],
        }
    return Claim.solved(answer, witness, stats={"play": "misere"}, certificate={"ranks": rank})


def solve_misere_loopy(
    instance: Digraph | GameSum, limits: Limits = Limits(), check_asp: bool = False
) -> Claim:
    """``grundy loopy --misere``: win, loss or draw of every position under misère play,
    by retrograde analysis with the terminal rule turned round; a sum by the same
    analysis of the product of its components' graphs (the positions it reaches).

    Answer: ``{position: "P" | "N" | "D"}`` (a sum: the sum's class); witness: every
    position's class and move (a winning move from N, a draw-keeping one from D), a sum's
    class and move; certificate ``{"ranks": [...]}`` (and ``"asp"``: the classes
    ``misere.lp`` gives, with ``check_asp``).
    """
    from pyasp_games.domains.grundy.misere import play_labels

    deadline = limits.deadline()
    graph, start = (instance, None) if isinstance(instance, Digraph) else product_graph(instance, deadline)
    cls, rank = play_labels(graph.succ, graph.pred, misere=True, deadline=deadline)
    certificate: dict[str, Any] = {"ranks": rank}
    stats: dict[str, Any] = {"play": "misere", "positions": len(graph)}
    if check_asp:
        from pyasp_games.domains.grundy.asp import retrograde_asp

        certificate["asp"] = retrograde_asp(graph, deadline, misere=True)
        stats["asp_retrograde_agrees"] = certificate["asp"] == cls
    moves = [misere_move(graph.succ, cls, rank, v) for v in range(len(graph))]
    if start is None:
        answer: Any = dict(zip(graph.names, cls, strict=True))
        witness: Any = {n: {"class": c, "move": None if m is None else graph.names[m]}
                        for n, c, m in zip(graph.names, cls, moves, strict=True)}  # fmt: skip
        return Claim.solved(answer, witness, stats=stats, certificate=certificate)
    move = moves[start]
    witness = {"class": cls[start], "move": None if move is None else graph.names[move],
               "positions": len(graph)}  # fmt: skip
    certificate["classes"] = cls
    return Claim.solved(cls[start], witness, stats=stats, certificate=certificate)


def misere_move(succ: Any, cls: list[str], rank: list[int | None], v: int) -> int | None:
    """The move shown for ``v``: from an N-position to the P-position of least rank (the
    quickest forced win), from a D-position to a D-position; none from a P-position."""
    if cls[v] == "N":
        return min((w for w in succ[v] if cls[w] == "P"), key=lambda w: rank[w], default=None)
    if cls[v] == "D":
        return next((w for w in succ[v] if cls[w] == "D"), None)
    return None


#: the most positions of a sum's product graph ``grundy loopy --sum --misere`` builds
MAX_PRODUCT = 2_000_000


def product_graph(game: GameSum, deadline: Deadline | None = None) -> tuple[Digraph, int]:
    """The positions of the sum ``game`` reachable from its start (a move changes one
    component), as a game graph whose positions are named ``(p1, p2, ...)`` by the
    components' position names, and the start's index (0).

    Raises :class:`~pyasp_games.errors.InputError` beyond :data:`MAX_PRODUCT` positions.
    """
    from pyasp_games.errors import InputError

    graphs = game.graphs
    start = tuple(game.positions)
    index = {start: 0}
    order = [start]
    succ: list[tuple[int, ...]] = []
    i = 0
    while i < len(order):
        state = order[i]
        i += 1
        if deadline is not None and i % 4096 == 0:
            deadline.check()
        out = []
        for c, (g, p) in enumerate(zip(graphs, state, strict=True)):
            for w in g.succ[p]:
                nxt = (*state[:c], w, *state[c + 1 :])
                if nxt not in index:
                    if len(order) >= MAX_PRODUCT:
                        raise InputError(f"the sum reaches more than {MAX_PRODUCT:,} positions: "
                                         "beyond this tool's direct search")  # fmt: skip
                    index[nxt] = len(order)
                    order.append(nxt)
                out.append(index[nxt])
        succ.append(tuple(dict.fromkeys(out)))
    names = tuple("(" + ",".join(g.names[p] for g, p in zip(graphs, s, strict=True)) + ")" for s in order)
    return Digraph(names, tuple(succ), game.name), 0


def sum_options(game: GameSum, rule: str = "xor") -> Any:
    """The moves of a sum of acyclic games as a successor function over canonical
    positions: a sorted tuple of ``(component graph, position)`` pairs, a component
    without moves dropped (it is no game: the sum is the same without it). ``xor``: a
    move changes one component; ``or``: any non-empty set of them (the selective
    compound)."""
    import itertools

    first = distinct(game.graphs)

    def options(state: tuple[tuple[int, int], ...]) -> set[tuple[tuple[int, int], ...]]:
        def canonical(parts: Any) -> tuple[tuple[int, int], ...]:
            return tuple(sorted((k, p) for k, p in parts if game.graphs[k].succ[p]))

        out = set()
        if rule == "xor":
            for c, (k, p) in enumerate(state):
                for w in game.graphs[k].succ[p]:
                    out.add(canonical((*state[:c], (k, w), *state[c + 1 :])))
            return out
        choices = [[(k, p)] + [(k, w) for w in game.graphs[k].succ[p]] for k, p in state]
        for pick in itertools.product(*choices):
            if pick != state:
                out.add(canonical(pick))
        return out

    start = tuple(sorted((first[i], p) for i, p in enumerate(game.positions)
                         if game.graphs[i].succ[p]))  # fmt: skip
    return options, start


def solve_misere_sum(game: GameSum, limits: Limits = Limits(), rule: str = "xor") -> Claim:
    """``grundy sum --misere``: the misère outcome of a sum of acyclic games by direct
    search over the product (positions memoised; the components' graphs read once), its
    winning moves, and each component's genus; when every component is tame, the
    outcome the genera decide (Winning Ways, ch. 13), which must agree.

    Answer: ``P`` or ``N``; witness: the components (position, genus, tame), the
    winning moves (a component's move, or with ``or`` the new positions), and
    ``by_genus`` (``None`` unless every component is tame).
    """
    from pyasp_games.domains.grundy.misere import Genera, Outcomes, tame_outcome

    deadline = limits.deadline()
    for g in game.graphs:
        _acyclic(g)
    options, start = sum_options(game, rule)
    search = Outcomes(options, misere=True, deadline=deadline)
    wins = search.wins(start)
    tables = {id(g): Genera(lambda v, g=g: g.succ[v], deadline=deadline) for g in game.graphs}
    genera = [tables[id(g)].genus(p) for g, p in zip(game.graphs, game.positions, strict=True)]
    tameness = [tables[id(g)].tame(p) for g, p in zip(game.graphs, game.positions, strict=True)]
    components = [
        {"graph": path, "position": g.names[p], "genus": str(gen), "gammas": list(gen.gammas),
         "tame": tame, "wild": None if wild is None else g.names[wild]}
        for path, g, p, gen, (tame, wild) in zip(game.paths, game.graphs, game.positions, genera, tameness,
                                                 strict=True)
    ]  # fmt: skip
    all_tame = all(tame for tame, _ in tameness)
    moves: list[dict[str, Any]] = []
    if wins and rule == "xor":
        first = distinct(game.graphs)
        state = tuple(game.positions)
        for c, (g, p) in enumerate(zip(game.graphs, state, strict=True)):
            for w in g.succ[p]:
                moved = (*state[:c], w, *state[c + 1 :])
                after = tuple(sorted((first[i], q) for i, q in enumerate(moved) if game.graphs[i].succ[q]))
                if not search.wins(after):
                    moves.append({"component": c, "from": g.names[p], "to": g.names[w]})
    elif wins:
        moves = _or_winning_moves(game, search, distinct(game.graphs))
    answer = "N" if wins else "P"
    witness = {"components": components, "winning_moves": moves,
               "by_genus": tame_outcome(genera) if rule == "xor" and all_tame else None}  # fmt: skip
    stats = {"play": "misere", "rule": rule, "positions_searched": len(search.memo)}
    return Claim.solved(answer, witness, stats=stats)


def _or_winning_moves(game: GameSum, search: Any, first: list[int]) -> list[dict[str, Any]]:
    """The winning moves of a selective compound: each as the components' new positions."""
    import itertools

    choices = [[p, *g.succ[p]] for g, p in zip(game.graphs, game.positions, strict=True)]
    out = []
    for pick in itertools.product(*choices):
        if pick == tuple(game.positions):
            continue
        after = tuple(sorted((first[i], q) for i, q in enumerate(pick) if game.graphs[i].succ[q]))
        if not search.wins(after):
            out.append({"to": [g.names[q] for g, q in zip(game.graphs, pick, strict=True)]})
    return out


def solve_misere_nim(nim: Nim, limits: Limits = Limits()) -> Claim:
    """Misère Nim: ``P`` or ``N`` and every winning move by Bouton's misère rule;
    certificate ``{"xor": X, "big": B}``: the XOR of the heaps and how many are 2 or more."""
    from pyasp_games.domains.grundy.misere import misere_nim_class, misere_nim_moves

    total, big = 0, 0
    for h in nim.heaps:
        total ^= h
        big += h >= 2
    moves = [list(m) for m in misere_nim_moves(nim.heaps)]
    return Claim.solved(misere_nim_class(nim.heaps), moves, certificate={"xor": total, "big": big})


def solve_outcomes(instance: Digraph | Misere, limits: Limits = Limits()) -> Claim:
    """``grundy outcomes``: win, loss or draw of every position by retrograde analysis,
    under normal play or (a :class:`~pyasp_games.domains.grundy.model.Misere` graph)
    misère play.

    Answer: ``{position: "P" | "N" | "D"}``; witness: every position's class and move
    (:func:`~pyasp_games.domains.grundy.model.outcome_witness`); certificate ``{"ranks":
    [...]}`` (the induction :func:`~pyasp_games.domains.grundy.verify.check_play_labels`
    replays).
    """
    from pyasp_games.domains.grundy.misere import play_labels
    from pyasp_games.domains.grundy.model import outcome_witness

    misere = isinstance(instance, Misere)
    graph = instance.game if isinstance(instance, Misere) else instance
    cls, rank = play_labels(graph.succ, graph.pred, misere=misere, deadline=limits.deadline())
    answer = dict(zip(graph.names, cls, strict=True))
    stats = {"play": "misere" if misere else "normal", "draws": cls.count("D")}
    return Claim.solved(answer, outcome_witness(graph, cls), stats=stats, certificate={"ranks": rank})


def solve_quotient(game: Any, limits: Limits = Limits()) -> Claim:
    """``games quotient``: a misère quotient of the octal game on heaps up to ``upto``
    (:func:`~pyasp_games.domains.grundy.quotient.misere_quotient`), proved or refused by
    the checker."""
    from pyasp_games.domains.grundy.quotient import misere_quotient

    found = misere_quotient(game.code, game.upto, limits.deadline())
    return Claim.solved(len(found["elements"]), found, stats={"bound": found["bound"]})
