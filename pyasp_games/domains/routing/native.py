"""Native exact search for routing: BFS over all arrangements, IDA* for one arrangement.

- :func:`distance_table`: breadth-first search from the solved arrangement over every
  arrangement the move rule reaches. Every move is its own inverse, so the distance
  from the solved arrangement to ``s`` is the fewest steps that route ``s``; for
  ``matching`` and ``swap`` the maximum is rt(G) (resp. the token-swapping maximum),
  for ``blank`` the farthest reachable arrangement.
- :func:`solve_idastar`: a polynomial case's formula where the graph is one
  (:mod:`~pyasp_games.domains.routing.polynomial`); ``swap`` moves by the IDA* of
  :mod:`~pyasp_games.domains.routing.swapping`; otherwise IDA* here, with admissible bounds.
  ``matching``: the larger of the largest distance of a pebble to its target (a pebble
  moves one edge a step) and the sum of distances over twice the maximum matching (a step
  moves at most that many pebbles by one). ``blank``: the sum of distances of the
  pebbles other than the blank (a slide moves one pebble one edge).
  Each step of a ``matching`` schedule is built vertex by vertex, a pebble whose
  distance has no slack left forced towards its target.
- :func:`blank_solvability`: Wilson's theorem (1974), block by block on a graph that is
  not 2-connected (:mod:`~pyasp_games.domains.routing.blocks`).

>>> from pyasp_games.domains.routing.specs import graph_spec
>>> table = distance_table(graph_spec("path:4"), "matching")
>>> len(table), max(table.values())
(24, 4)
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from pyasp_games.domains.routing.blocks import is_theta0, reachable_count, refusal
from pyasp_games.domains.routing.model import (
    Instance,
    lower_bound,
    permutation_parity,
    schedule_names,
    stride,
)
from pyasp_games.domains.routing.polynomial import Exact, exact_schedule
from pyasp_games.domains.routing.swap_search import optimal_swaps
from pyasp_games.domains.routing.swapping import bound_swaps
from pyasp_games.engines.claim import Claim, Kind
from pyasp_games.engines.graphs import Graph
from pyasp_games.engines.limits import Deadline, LimitReached, Limits, default_memory_limit
from pyasp_games.errors import InputError

#: The most vertices ``bfs`` takes: it tabulates every arrangement (up to n! of them), so
#: a larger graph is out of its reach under any limit (``native`` answers those).
MAX_BFS_VERTICES = 12


def matchings(graph: Graph) -> list[tuple[tuple[int, int], ...]]:
    """Every nonempty matching of ``graph`` (edge tuples), in the order of a depth-first
    choice per edge (leave it, then take it), without recursion (a graph of thousands of
    edges would exhaust Python's stack).

    >>> from pyasp_games.engines.graphs import graph_from_edges
    >>> matchings(graph_from_edges([("a", "b"), ("b", "c")]))
    [((1, 2),), ((0, 1),)]
    """
    out: list[tuple[tuple[int, int], ...]] = []
    stack: list[tuple[int, frozenset[int], tuple]] = [(0, frozenset(), ())]
    edges = graph.edges
    while stack:
        i, used, chosen = stack.pop()
        if i == len(edges):
            if chosen:
                out.append(chosen)
            continue
        u, v = edges[i]
        if u not in used and v not in used:  # popped after the branch that leaves edge i
            stack.append((i + 1, used | {u, v}, (*chosen, (u, v))))
        stack.append((i + 1, used, chosen))
    return out


def _step_permutation(n: int, step: tuple[tuple[int, int], ...]) -> Any:
    """An ``itemgetter`` that applies ``step`` to a state tuple (swapping the ends of each edge)."""
    index = list(range(n))
    for u, v in step:
        index[u], index[v] = v, u
    return itemgetter(*index)


def generators(graph: Graph, moves: str) -> list[tuple[tuple[int, int], ...]]:
    """The steps of a move rule that do not depend on the blank: all matchings, or single edges."""
    if moves == "matching":
        return matchings(graph)
    return [(e,) for e in graph.edges]


def distance_table(
    graph: Graph, moves: str, blank: int = 0, deadline: Deadline | None = None
) -> dict[tuple[int, ...], int]:
    """Breadth-first distances from the solved arrangement to every reachable arrangement.

    For ``blank`` the blank's pebble belongs on ``blank`` in the solved arrangement.
    """
    n = len(graph)
    start = tuple(range(n))
    dist = {start: 0}
    frontier = [start]
    depth = 0
    if n == 1:
        return dist
    if moves == "blank":
        # the blank's pebble is the one whose target is ``blank``: the entry equal to ``blank``
        slides = {(u, w): _step_permutation(n, ((u, w),)) for u in range(n) for w in graph.adj[u]}
        while frontier:
            depth += 1
            nxt = []
            for k, s in enumerate(frontier):
                b = s.index(blank)
                for w in graph.adj[b]:
                    t = slides[b, w](s)
                    if t not in dist:
                        dist[t] = depth
                        nxt.append(t)
                # within a level too: one level of a big state graph outlasts any limit
                if deadline is not None and k % 512 == 0:
                    deadline.check()
            frontier = nxt
        return dist
    steps = [_step_permutation(n, m) for m in generators(graph, moves)]
    while frontier:
        depth += 1
        nxt = []
        for k, s in enumerate(frontier):
            for apply in steps:
                t = apply(s)
                if t not in dist:
                    dist[t] = depth
                    nxt.append(t)
            if deadline is not None and k % 512 == 0:
                deadline.check()
        frontier = nxt
    return dist


def schedule_from_table(
    graph: Graph,
    moves: str,
    state: tuple[int, ...],
    table: dict[tuple[int, ...], int],
    blank: int | None = None,
) -> list[tuple[tuple[int, int], ...]]:
    """An optimal schedule for ``state``: descend the distance table one step at a time."""
    n = len(graph)
    steps = generators(graph, moves) if moves != "blank" else [(e,) for e in graph.edges]
    out = []
    s = state
    while table[s]:
        for step in steps:
            if moves == "blank" and blank not in step[0]:
                continue
            t = _step_permutation(n, step)(s)
            if table.get(t) == table[s] - 1:
                out.append(step)
                if moves == "blank":
                    blank = step[0][1] if step[0][0] == blank else step[0][0]
                s = t
                break
        else:  # pragma: no cover - a table from distance_table always has a descent
            raise AssertionError("the distance table has no descent")
    return out


@dataclass
class RoutingNumber:
    """rt(G) (or the token-swapping / sliding maximum) with a worst arrangement."""

    value: int
    worst: tuple[int, ...]
    schedule: list[tuple[tuple[int, int], ...]]
    arrangements: int


def routing_number(
    graph: Graph, moves: str = "matching", deadline: Deadline | None = None
) -> RoutingNumber:
    """The largest optimal routing time over all arrangements, by one BFS from the solved one.

    The Cayley graph of the permutations generated by the steps is vertex-transitive,
    so the distances from the identity are every arrangement's routing time at once.
    """
    table = distance_table(graph, moves, deadline=deadline)
    worst = max(table, key=lambda s: (table[s], s))
    blank = worst.index(0) if moves == "blank" else None
    return RoutingNumber(
        table[worst], worst, schedule_from_table(graph, moves, worst, table, blank), len(table)
    )


# -- lower bounds and IDA* --------------------------------------------------------------


def _step_iter(
    state: list[int], adj: tuple, dist: tuple, slack: int, previous: frozenset
) -> Iterator[list[tuple[int, int]]]:
    """Matchings after which every pebble is within ``slack`` of its target (``matching`` rule)."""
    n = len(state)
    matched = [False] * n
    chosen: list[tuple[int, int]] = []

    def go(v: int) -> Iterator[list[tuple[int, int]]]:
        while v < n and matched[v]:
            v += 1
        if v == n:
            if chosen:
                yield chosen
            return
        pv = state[v]
        for w in adj[v]:
            if (
                w > v
                and not matched[w]
                and (v, w) not in previous
                and dist[w][pv] <= slack
                and dist[v][state[w]] <= slack
            ):
                matched[w] = True
                chosen.append((v, w))
                yield from go(v + 1)
                chosen.pop()
                matched[w] = False
        if dist[v][pv] <= slack:
            yield from go(v + 1)

    return go(0)


def idastar(
    inst: Instance, deadline: Deadline, max_length: int | None = None
) -> tuple[list | None, dict]:
    """An optimal ``matching`` or ``blank`` schedule by IDA* (``None`` if none within
    ``max_length``) and statistics (``swap``: :mod:`~pyasp_games.domains.routing.swapping`)."""
    g = inst.graph
    dist, adj = g.distances, g.adj
    state = list(inst.state)
    stats = {"nodes": 0, "iterations": 0}
    bound = lower_bound(inst)
    stats["lower_bound"] = bound
    moves = inst.moves
    mm2 = 2 * max(g.max_matching, 1)
    token = inst.state[inst.blank] if moves == "blank" else None
    path: list[tuple[tuple[int, int], ...]] = []

    def h(s: list[int]) -> int:
        if moves == "blank":
            return sum(dist[v][t] for v, t in enumerate(s) if t != token)
        ds = [dist[v][t] for v, t in enumerate(s)]
        return max(max(ds), -(-sum(ds) // mm2))

    def dfs(budget: int, previous: frozenset, blank: int | None) -> bool:
        stats["nodes"] += 1
        if stats["nodes"] % 4096 == 0:
            deadline.check()
        if budget == 0:
            return all(v == t for v, t in enumerate(state))
        if moves == "matching":
            options = (list(m) for m in _step_iter(state, adj, dist, budget - 1, previous))
        else:
            options = (
                [(min(blank, w), max(blank, w))]
                for w in adj[blank]
                if (min(blank, w), max(blank, w)) not in previous
            )
        for step in options:
            for u, v in step:
                state[u], state[v] = state[v], state[u]
            if h(state) <= budget - 1:
                nb = blank
                if moves == "blank":
                    u, v = step[0]
                    nb = v if u == blank else u
                path.append(tuple(step))
                if dfs(budget - 1, frozenset(step), nb):
                    for u, v in step:
                        state[u], state[v] = state[v], state[u]
                    return True
                path.pop()
            for u, v in step:
                state[u], state[v] = state[v], state[u]
        return False

    while max_length is None or bound <= max_length:
        stats["iterations"] += 1
        stats["bound"] = bound
        if dfs(bound, frozenset(), inst.blank):
            return list(path), stats
        bound += stride(inst)
    return None, stats


def solve_idastar(inst: Instance, limits: Limits = Limits(), **options: Any) -> Claim:
    """The native exact backend: a polynomial case's schedule where the graph is one
    (:mod:`~pyasp_games.domains.routing.polynomial`), else IDA* (after Wilson's theorem / BFS for
    ``blank`` solvability)."""
    started = time.perf_counter()
    deadline = limits.deadline()
    stats: dict[str, Any] = {}
    exact = exact_schedule(inst)
    if exact is not None:
        return _polynomial_claim(inst, exact, limits, started)
    if inst.moves == "blank":
        verdict = blank_solvability(inst, deadline)
        stats["solvability"] = verdict.reason
        if verdict.solvable is False:
            return Claim.none(certificate=verdict.reason, stats=stats)
    if inst.moves == "swap":
        return _optimal_swaps(inst, limits, started)
    try:
        schedule, search = idastar(inst, deadline, limits.max_length)
        stats.update(search)
    except LimitReached:
        raise LimitReached(stats) from None
    stats["seconds_search"] = round(time.perf_counter() - started, 4)
    if schedule is None:
        grounds = f"no schedule of at most {limits.max_length} steps (IDA*)"
        return Claim.none(bound=limits.max_length, certificate=grounds, stats=stats)
    grounds = f"IDA*: every bound below {len(schedule)} exhausted"
    return Claim.solved(len(schedule), schedule_names(inst.graph, schedule), stats=stats,
                        certificate=grounds)  # fmt: skip


def _optimal_swaps(inst: Instance, limits: Limits, started: float) -> Claim:
    """Token swapping by the compiled IDA* (:mod:`~pyasp_games.domains.routing.swap_search`),
    told the ``swapper`` bound's schedule: every budget below it exhausted proves it
    optimal without searching its own."""
    deadline = limits.deadline()
    stats: dict[str, Any] = {}
    try:
        known: list | None = bound_swaps(inst, deadline, effort=0).swaps
        if limits.max_length is not None and len(known) > limits.max_length:
            known = None
        found = optimal_swaps(inst, deadline, limits.max_length, known)
    except LimitReached as stop:  # stats: the budget being searched, every smaller one refuted
        raise LimitReached(dict(stop.args[0]) if stop.args else {}) from None
    stats.update(lower_bound=found.budgets[0] if found.budgets else found.proved,
                 iterations=found.iterations, nodes=found.nodes, cut=found.cut)  # fmt: skip
    stats["seconds_search"] = round(time.perf_counter() - started, 4)
    if found.swaps is None:
        grounds = f"no schedule of at most {limits.max_length} swaps (IDA*)"
        return Claim.none(bound=limits.max_length, certificate=grounds, stats=stats)
    length = len(found.swaps)
    grounds = f"IDA*: every budget below {length} exhausted"
    if found.how == "known":
        grounds += f"; the swapper's schedule has {length} swaps"
    steps = [(e,) for e in found.swaps]
    return Claim.solved(length, schedule_names(inst.graph, steps), stats=stats, certificate=grounds)


def _polynomial_claim(inst: Instance, exact: Exact, limits: Limits, started: float) -> Claim:
    """The polynomial case's schedule as a claim: its theorem the certificate (an upper
    bound's algorithm, where the class proves no optimum)."""
    stats: dict[str, Any] = {"seconds_search": round(time.perf_counter() - started, 4)}
    kind = Kind.EXACT if exact.optimal else Kind.UPPER_BOUND
    grounds = exact.proof if exact.optimal else "upper bound: " + exact.proof
    length = len(exact.steps)
    if limits.max_length is not None and length > limits.max_length:
        if not exact.optimal:  # a longer bound proves nothing about shorter schedules
            stats.update(limit="max-length", found=length)
            return Claim.unknown(stats, kind=Kind.WITHIN_BOUND, bound=limits.max_length)
        grounds = f"the optimum {length} exceeds --max-length {limits.max_length} ({exact.proof})"
        return Claim.none(bound=limits.max_length, certificate=grounds, stats=stats)
    witness = schedule_names(inst.graph, exact.steps)
    return Claim.solved(length, witness, stats=stats, certificate=grounds, kind=kind)


def table_entry_bytes(n: int) -> int:
    """About the bytes one arrangement of ``n`` vertices takes in :func:`distance_table`
    (a tuple of ``n`` integers, its dictionary entry, its place in a layer's list:
    measured 201 bytes on the 9-vertex complete graph's 362,880)."""
    return 120 + 8 * n


def solve_bfs(inst: Instance, limits: Limits = Limits(), **options: Any) -> Claim:
    """Exact by the full BFS table (small graphs: every arrangement at once; at most
    :data:`MAX_BFS_VERTICES` vertices, refused before any work beyond, and a table larger
    than the memory limit refused before it is built: its arrangements are counted first,
    ``n!``, or under ``blank`` :func:`~pyasp_games.domains.routing.blocks.reachable_count`)."""
    g = inst.graph
    if len(g) > MAX_BFS_VERTICES:
        raise InputError(
            f"the bfs backend tabulates every arrangement: at most {MAX_BFS_VERTICES} vertices "
            f"({len(g):,} given; the native backend answers larger graphs)"
        )
    deadline = limits.deadline()
    blank_home = inst.state[inst.blank] if inst.moves == "blank" else 0
    # the table's size is known before it is built: refused, not run out of memory
    reachable = reachable_count(g) if inst.moves == "blank" else math.factorial(len(g))
    needed = reachable * table_entry_bytes(len(g))
    cap = limits.memory_limit or default_memory_limit()
    if needed > cap:
        raise LimitReached({"limit": "memory", "stopped": (
            f"{g.name}: the bfs table would hold {reachable:,} arrangements, about {_bytes(needed)},"
            f" more than the memory limit of {_bytes(cap)} (the native backend searches without one)")})
    try:
        table = distance_table(g, inst.moves, blank_home, deadline)
    except LimitReached:
        raise LimitReached({}) from None
    stats: dict[str, Any] = {"arrangements": len(table)}
    if inst.state not in table:
        grounds = f"not among the {len(table):,} arrangements reachable from the target (BFS)"
        return Claim.none(certificate=grounds, stats=stats)
    schedule = schedule_from_table(g, inst.moves, inst.state, table, inst.blank)
    if limits.max_length is not None and len(schedule) > limits.max_length:
        grounds = f"the optimum {len(schedule)} exceeds --max-length {limits.max_length}"
        return Claim.none(bound=limits.max_length, certificate=grounds, stats=stats)
    grounds = "breadth-first search from the target"
    return Claim.solved(len(schedule), schedule_names(g, schedule), stats=stats, certificate=grounds)


# -- sliding (blank) solvability ----------------------------------------------------------


@dataclass
class Solvability:
    solvable: bool | None  # None: undecided within the limit
    reason: str
    #: an optimal schedule where the complete search found the arrangement solvable
    schedule: list[tuple[tuple[int, int], ...]] | None = None


#: The most arrangements the ``check`` question's complete search tabulates to give a
#: solvable arrangement its schedule (the count is known before it starts:
#: :func:`~pyasp_games.domains.routing.blocks.reachable_count`); beyond, the theorem's
#: answer stands without one.
SCHEDULE_ARRANGEMENTS = 100_000


def blank_solvability(
    inst: Instance, deadline: Deadline | None = None, witness: bool = False
) -> Solvability:
    """Is the sliding arrangement solvable? Wilson's theorem (1974) on a 2-connected
    graph, block by block on any other (:mod:`~pyasp_games.domains.routing.blocks`):
    decided without enumerating arrangements, whatever the graph's size. With
    ``witness``, a solvable arrangement whose reachable set has at most
    :data:`SCHEDULE_ARRANGEMENTS` arrangements (Wilson's theorem gives no schedule on a
    2-connected graph that is no cycle) gets an optimal schedule from a complete search
    within ``deadline`` (past it, the answer stands without one)."""
    import networkx as nx

    g = inst.graph
    nxg = g.to_networkx()
    n = len(g)
    blank, home = inst.blank, inst.state[inst.blank]
    two_connected = n >= 3 and nx.is_biconnected(nxg)
    cycle = len(g.edges) == n
    if two_connected and not cycle and not is_theta0(g):
        if not nx.is_bipartite(nxg):
            return Solvability(
                True,
                "2-connected, not a cycle, not theta0 and not bipartite: by Wilson's theorem every arrangement is solvable",
            )
        parity = permutation_parity(inst.state)
        walk = g.distances[blank][home] & 1
        ok = parity == walk
        return Solvability(
            ok,
            f"2-connected bipartite, not a cycle: by Wilson's theorem solvable iff the arrangement's parity "
            f"({'odd' if parity else 'even'}) equals the parity of the blank's distance to its target "
            f"({'odd' if walk else 'even'}): {'solvable' if ok else 'unsolvable'}",
        )
    why = "a cycle" if cycle and two_connected else "theta0" if two_connected else "not 2-connected"
    if n <= 2:
        why = "fewer than 3 vertices"
    refused = refusal(g, inst.state, blank)
    theory = (f"{why}: the blank's moves only reorder the pebbles within each block, as far as "
              "Wilson's theorem allows on that block (with the blank slid home)")  # fmt: skip
    if refused is not None:
        return Solvability(False, f"{theory}: unsolvable: {refused}")
    reason = f"{theory}: solvable"
    reachable = reachable_count(g)
    if not witness or reachable > SCHEDULE_ARRANGEMENTS:
        return Solvability(True, reason)
    try:
        table = distance_table(g, "blank", home, deadline)
    except LimitReached:
        return Solvability(True, f"{reason} (the complete search for a schedule reached the limit)")
    schedule = schedule_from_table(g, "blank", inst.state, table, blank)
    return Solvability(
        True,
        f"{reason}; complete search: its schedule found among the {len(table):,} arrangements "
        "reachable from the target",
        schedule,
    )


# -- the questions number and check --------------------------------------------------


def solve_number(inst: Instance, limits: Limits = Limits(), **options: Any) -> Claim:
    """The ``number`` question's backend: rt(G) (``matching``) or the token-swapping
    maximum (``swap``) of ``inst.graph`` by :func:`routing_number`, with a worst
    arrangement's optimal schedule as the witness; the certificate holds that
    arrangement (``worst``: vertex -> target, moved pebbles only) and how many
    arrangements the search reached (``arrangements``: the maximum rests on them).
    Under ``blank``: :func:`solve_sliding_number`."""
    if inst.moves == "blank":
        return solve_sliding_number(inst, limits, **options)
    g = inst.graph
    result = routing_number(g, inst.moves, limits.deadline())
    worst = {g.names[v]: g.names[t] for v, t in enumerate(result.worst) if v != t}
    schedule = schedule_names(g, result.schedule)
    return Claim.solved(result.value, schedule, stats={"moves": inst.moves},
                        certificate={"worst": worst, "arrangements": result.arrangements})  # fmt: skip


def solve_solvability(inst: Instance, limits: Limits = Limits(), **options: Any) -> Claim:
    """The ``check`` question's backend: is the sliding arrangement solvable
    (:func:`blank_solvability`)? Answer True (status ``solved``) or False
    (``no-solution``), the reason its certificate; witness a schedule where the
    complete search found one (Wilson's theorem gives none)."""
    result = blank_solvability(inst, limits.deadline(), witness=True)
    if result.solvable is None:
        return Claim.unknown({"stopped": result.reason})
    status = "solved" if result.solvable else "no-solution"
    schedule = None if result.schedule is None else schedule_names(inst.graph, result.schedule)
    return Claim(status, result.solvable, schedule, certificate=result.reason)


# -- the sliding puzzle's worst case: the state graph's diameter ---------------------------


def home_orbits(graph: Graph, deadline: Deadline | None = None) -> list[list[int]]:
    """The vertices in classes of the graph's automorphisms (each class sorted, the
    classes by their first vertex): an automorphism carries the solved arrangement with
    the blank on ``u`` to the one with the blank on its image, and the state graph with
    it, so one home of each class is searched.

    >>> from pyasp_games.domains.routing.specs import graph_spec
    >>> home_orbits(graph_spec("grid:3x3"))
    [[0, 2, 6, 8], [1, 3, 5, 7], [4]]
    """
    from networkx.algorithms.isomorphism import GraphMatcher

    nxg = graph.to_networkx()
    names = graph.names
    orbits: list[list[int]] = []
    placed: set[int] = set()
    for u in range(len(graph)):
        if u in placed:
            continue
        orbit = [u]
        for w in range(u + 1, len(graph)):
            if w in placed or len(graph.adj[w]) != len(graph.adj[u]):
                continue
            if deadline is not None:
                deadline.check()
            first, second = nxg.copy(), nxg.copy()
            first.nodes[names[u]]["home"] = second.nodes[names[w]]["home"] = True
            same = GraphMatcher(first, second, node_match=lambda a, b: a.get("home") == b.get("home"))
            if same.is_isomorphic():
                orbit.append(w)
        placed.update(orbit)
        orbits.append(orbit)
    return orbits


def solve_sliding_number(inst: Instance, limits: Limits = Limits(), **options: Any) -> Claim:
    """The ``number`` question under ``blank`` moves: the most slides a solvable
    arrangement needs, by breadth-first search of the state graph
    (:mod:`~pyasp_games.domains.routing.sliding_bfs`).

    With a home given (``inst.headers["home"]``) the search is from the solved
    arrangement with the blank there: the answer is that goal's eccentricity (the
    puzzle's worst case for that goal). Without, from one home of each class of the
    graph's automorphisms (:func:`home_orbits`): relabelling the pebbles is an
    automorphism of the state graph, so an arrangement's eccentricity is that of the
    solved arrangement with its blank on the same vertex, and the largest over the
    homes is the state graph's diameter. The witness: each antipode of the farthest
    homes (the first :data:`~pyasp_games.domains.routing.sliding_bfs.LISTED` of each)
    with an optimal plan; the certificate: every home's class, eccentricity and layers.
    A table larger than the memory limit is refused before it is allocated.
    """
    from pyasp_games.domains.routing.sliding_bfs import index_space, sliding_layers, table_bytes

    g = inst.graph
    deadline = limits.deadline()
    cap = limits.memory_limit or default_memory_limit()
    needed = table_bytes(g)
    if needed > cap:
        raise LimitReached({"limit": "memory", "stopped": (
            f"{g.name}: the search's table holds {index_space(g):,} arrangements at two bits"
            f" each, {_bytes(needed)}, more than the memory limit of {_bytes(cap)}")})
    orbits = [[inst.blank]] if "home" in inst.headers else home_orbits(g, deadline)
    found = []
    for orbit in orbits:
        try:
            found.append((orbit, sliding_layers(g, orbit[0], deadline)))
        except LimitReached as stop:
            stats = stop.args[0] if stop.args else {}
            raise LimitReached({**stats, "homes_done": len(found)}) from None
    diameter = max(layers.eccentricity for _, layers in found)
    homes = [{"home": g.names[orbit[0]], "like": [g.names[v] for v in orbit],
              "eccentricity": layers.eccentricity, "layers": layers.counts,
              "antipodes": layers.counts[-1]} for orbit, layers in found]  # fmt: skip
    witness = []
    for orbit, layers in found:
        if layers.eccentricity != diameter:
            continue
        for state, plan in zip(layers.antipodes, layers.plans, strict=True):
            witness.append({
                "home": g.names[orbit[0]],
                "blank": g.names[state.index(orbit[0])],
                "arrangement": {g.names[v]: g.names[t] for v, t in enumerate(state) if v != t},
                "plan": schedule_names(g, [(e,) for e in plan]),
            })  # fmt: skip
    certificate = {"homes": homes, "arrangements": sum(found[0][1].counts)}
    return Claim.solved(diameter, witness, stats={"moves": "blank"}, certificate=certificate)


def _bytes(count: int) -> str:
    """A size in bytes as people read it (``3.9 GiB``)."""
    size = float(count)
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if size < 1024 or unit == "PiB":
            return f"{count:,} bytes" if unit == "bytes" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{count:,} bytes"  # pragma: no cover
