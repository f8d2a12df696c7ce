"""A* and IDA* on a small weighted graph with a heuristic table, expansion by expansion:
the thesis's comparison of the two (section 3.2.5, on the toy graph S, A, B, G).

A graph file lists one arc ``u v w`` per line (directed, ``w`` a non-negative integer
cost; an edge both ways is two lines), a line with one name declares a node, and the
headers ``# start: S`` and ``# goal: G`` name the search's ends. A heuristic file gives
``NODE VALUE`` per line (non-negative integers; a node it omits has 0).

>>> graph = parse_weighted_graph("# start: S\\n# goal: G\\nS A 2\\nS B 4\\nA G 4\\nB G 3\\n")
>>> h = parse_heuristic("A 2\\nB 1\\nG 0\\n", graph)
>>> cost, path, trace = astar(graph, h)
>>> cost, path, [(node, f) for node, g, hv, f in trace]
(6, ['S', 'A', 'G'], [('S', 0), ('A', 4), ('B', 5)])
>>> cost, path, rounds = idastar(graph, h)
>>> [(r["threshold"], [n for n, g, f in r["expanded"]]) for r in rounds]
[(0, ['S']), (4, ['S', 'A']), (5, ['S', 'A', 'B']), (6, ['S', 'A'])]
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from itertools import count
from pathlib import Path
from typing import Any

from pyasp_games.engines.files import comment_header
from pyasp_games.engines.limits import Deadline
from pyasp_games.errors import InputError, read_text

#: the most arcs a search graph may have (a toy's; IDA* is exponential on large graphs)
MAX_ARCS = 1_000_000
_POLL = 1024


@dataclass(frozen=True)
class WeightedGraph:
    """A directed graph with integer arc costs, and the search's start and goal.

    Attributes:
        nodes: the node names, in order of first appearance.
        arcs: for every node, its ``(successor, cost)`` pairs in the file's order.
        start, goal: the search's ends.
        name: a label (usually the file name).
    """

    nodes: tuple[str, ...]
    arcs: dict[str, tuple[tuple[str, int], ...]]
    start: str
    goal: str
    name: str = "graph"


@dataclass(frozen=True)
class SearchProblem:
    """What ``puzzle search`` is asked: a graph and a heuristic over its nodes."""

    graph: WeightedGraph
    heuristic: dict[str, int] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.graph.name


def _cost(word: str, where: str) -> int:
    if not word.lstrip("-").isdigit() or not word.isascii():
        raise InputError(f"{where}: {word!r} is not an integer")
    value = int(word)
    if value < 0:
        raise InputError(f"{where}: the value {value} is negative (A* and IDA* need costs >= 0)")
    return value


def parse_weighted_graph(
    text: str, name: str = "graph", start: str | None = None, goal: str | None = None
) -> WeightedGraph:
    """Read a graph file (module docstring); ``start`` and ``goal`` override its headers."""
    nodes: dict[str, None] = {}
    arcs: dict[str, list[tuple[str, int]]] = {}
    headers: dict[str, str] = {}
    total = 0
    for number, raw in enumerate(text.splitlines(), 1):
        header = comment_header(raw)
        if header is not None:
            headers[header[0]] = header[1]
        words = raw.split("#", 1)[0].split()
        where = f"{name} line {number}"
        if not words:
            continue
        if len(words) not in (1, 3):
            raise InputError(f"{where}: expected 'u v cost' or one node name, got {raw.strip()!r}")
        for node in words[:2] if len(words) == 3 else words:
            nodes.setdefault(node)
            arcs.setdefault(node, [])
        if len(words) == 3:
            u, v, w = words[0], words[1], _cost(words[2], where)
            if any(x == v for x, _ in arcs[u]):
                raise InputError(f"{where}: the arc {u} {v} is given twice")
            arcs[u].append((v, w))
            total += 1
            if total > MAX_ARCS:
                raise InputError(f"{name}: more than {MAX_ARCS:,} arcs, this tool's limit")
    start, goal = start or headers.get("start"), goal or headers.get("goal")
    for end, option in ((start, "start"), (goal, "goal")):
        if end is None:
            raise InputError(f"{name}: no {option} node (a '# {option}: NODE' header or --{option})")
        if end not in nodes:
            raise InputError(f"{name}: the {option} node {end} is not in the graph")
    assert start is not None and goal is not None
    return WeightedGraph(tuple(nodes), {u: tuple(a) for u, a in arcs.items()}, start, goal, name)


def parse_heuristic(text: str, graph: WeightedGraph, name: str = "heuristic") -> dict[str, int]:
    """Read a heuristic table ``NODE VALUE`` per line; every node of ``graph`` not in it has 0."""
    table = dict.fromkeys(graph.nodes, 0)
    given: set[str] = set()
    for number, raw in enumerate(text.splitlines(), 1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        where = f"{name} line {number}"
        if len(words) != 2:
            raise InputError(f"{where}: expected 'NODE VALUE', got {raw.strip()!r}")
        node, value = words[0], _cost(words[1], where)
        if node not in table:
            raise InputError(f"{where}: {node} is not a node of {graph.name}")
        if node in given:
            raise InputError(f"{where}: {node} is given twice")
        given.add(node)
        table[node] = value
    return table


def read_search(
    graph: Path, heuristic: Path | None = None, start: str | None = None, goal_node: str | None = None
) -> SearchProblem:
    """The search problem of a graph file and a heuristic file (none: ``h = 0``, Dijkstra)."""
    g = parse_weighted_graph(read_text(graph), graph.name, start, goal_node)
    h = parse_heuristic(read_text(heuristic), g, heuristic.name) if heuristic else dict.fromkeys(g.nodes, 0)
    return SearchProblem(g, h)


def inconsistency(graph: WeightedGraph, h: dict[str, int]) -> str | None:
    """Why ``h`` is not consistent (``h(u) <= cost(u, v) + h(v)`` on every arc, ``h(goal)
    = 0``), or ``None``: then A* and IDA* find a cheapest path."""
    if h[graph.goal]:
        return f"h({graph.goal}) = {h[graph.goal]} at the goal, not 0"
    for u, out in graph.arcs.items():
        for v, w in out:
            if h[u] > w + h[v]:
                return f"h({u}) = {h[u]} > cost({u}, {v}) + h({v}) = {w + h[v]}"
    return None


def _path(parent: dict[str, str | None], node: str) -> list[str]:
    path = [node]
    while (up := parent[path[-1]]) is not None:
        path.append(up)
    return path[::-1]


def astar(
    graph: WeightedGraph, h: dict[str, int], deadline: Deadline | None = None
) -> tuple[int | None, list[str], list[tuple[str, int, int, int]]]:
    """A* (best first on ``f = g + h``, ties to the smaller ``h``, then first generated):
    the cost and path found (``None`` and ``[]``: no path) and the expansions in order,
    ``(node, g, h, f)``. A node reached again more cheaply is opened again, so an
    admissible heuristic that is not consistent still gives a cheapest path."""
    g = {graph.start: 0}
    parent: dict[str, str | None] = {graph.start: None}
    tie = count()
    frontier = [(h[graph.start], h[graph.start], next(tie), graph.start, 0)]
    trace: list[tuple[str, int, int, int]] = []
    while frontier:
        f, hv, _, node, gv = heapq.heappop(frontier)
        if gv > g[node]:
            continue  # a stale entry: the node was reached more cheaply since
        if node == graph.goal:
            return gv, _path(parent, node), trace
        trace.append((node, gv, hv, f))
        if deadline is not None and len(trace) % _POLL == 0:
            deadline.check()
        for succ, w in graph.arcs[node]:
            if gv + w < g.get(succ, gv + w + 1):
                g[succ], parent[succ] = gv + w, node
                heapq.heappush(frontier, (gv + w + h[succ], h[succ], next(tie), succ, gv + w))
    return None, [], trace


def idastar(
    graph: WeightedGraph, h: dict[str, int], deadline: Deadline | None = None
) -> tuple[int | None, list[str], list[dict[str, Any]]]:
    """IDA* (depth first under a threshold on ``f``, from ``h(start)``, raised each round to
    the least ``f`` that went over it; a path never visits a node twice): the cost and
    path found (``None`` and ``[]``: no path) and each round's threshold, its expansions
    ``(node, g, f)`` in order and the next threshold."""
    threshold = h[graph.start]
    rounds: list[dict[str, Any]] = []
    while True:
        path, cost, expanded, over = _round(graph, h, threshold, deadline)
        following = None if path or not over else min(over)
        rounds.append({"threshold": threshold, "expanded": expanded, "next": following})
        if path:
            return cost, path, rounds
        if following is None:
            return None, [], rounds
        threshold = following


def _round(
    graph: WeightedGraph, h: dict[str, int], threshold: int, deadline: Deadline | None
) -> tuple[list[str], int, list[tuple[str, int, int]], list[int]]:
    """One round of IDA*: the path to the goal within ``threshold`` (``[]``: none) and its
    cost, the expansions ``(node, g, f)`` in order, and the ``f`` values that went over."""
    expanded: list[tuple[str, int, int]] = []
    over: list[int] = []
    frames: list[tuple[str, int, Any]] = []  # the path: node, g, its arcs still to try
    on_path: set[str] = set()

    def visit(node: str, gv: int) -> bool:
        """Reach ``node`` at cost ``gv``: is it the goal, within the threshold?"""
        f = gv + h[node]
        if f > threshold:
            over.append(f)
        elif node == graph.goal:
            return True
        else:
            expanded.append((node, gv, f))
            frames.append((node, gv, iter(graph.arcs[node])))
            on_path.add(node)
        return False

    reached = (graph.start, 0)
    found = visit(*reached)
    steps = 0
    while frames and not found:
        steps += 1
        if deadline is not None and steps % _POLL == 0:
            deadline.check()
        node, gv, arcs = frames[-1]
        step = next((a for a in arcs if a[0] not in on_path), None)
        if step is None:  # every arc tried: back up
            frames.pop()
            on_path.discard(node)
            continue
        reached = (step[0], gv + step[1])
        found = visit(*reached)
    if not found:
        return [], 0, expanded, over
    return [f[0] for f in frames] + [reached[0]], reached[1], expanded, over
