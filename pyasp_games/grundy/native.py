"""The native backends of the grundy domain.

- :func:`solve_native`: Grundy functions or kernels (exists / all / count) by
  propagation and backtracking (:mod:`~pyasp_games.grundy.loopy_search`), one weak
  component at a time.
- :func:`solve_loopy`: the ``loopy`` backend, Smith's generalized function
  (:mod:`~pyasp_games.grundy.generalized`) with its counters.

The algorithms themselves live in modules named for them: acyclic values
(:mod:`~pyasp_games.grundy.acyclic`), sums (:mod:`~pyasp_games.grundy.sums`), classic
games (:mod:`~pyasp_games.grundy.classic_games`), circuits
(:mod:`~pyasp_games.grundy.circuits`), loopy search and kernels, Smith's function,
retrograde labelling (:mod:`~pyasp_games.grundy.retrograde`).

>>> from pyasp_games.grundy.model import parse_graph
>>> c4 = parse_graph("a b\\nb c\\nc d\\nd a\\n")
>>> solve_native(c4, mode="count").answer
2
>>> solve_loopy(parse_graph("a b\\nb a\\nb c\\n"), Limits()).answer
{'a': 'P', 'b': 'N', 'c': 'P'}
"""

from __future__ import annotations

from typing import Any

from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.errors import InputError
from pyasp_games.graphs import Digraph
from pyasp_games.grundy.generalized import classes, generalized_grundy
from pyasp_games.grundy.loopy_search import grundy_functions, kernels
from pyasp_games.grundy.model import format_value


def solve_loopy(graph: Digraph, limits: Limits) -> Outcome:
    """The ``loopy`` backend: Smith's generalized function with its counters.

    Answer: the P/N/D class of every position; witness: every value as text;
    certificate: ``(values, counters)`` for the checker (Smith's conditions).
    """
    values, counters = generalized_grundy(graph, limits.deadline())
    answer = dict(zip(graph.names, classes(values), strict=True))
    witness = {n: format_value(v) for n, v in zip(graph.names, values, strict=True)}
    stats = {"infinite": sum(1 for v in values if not isinstance(v, int))}
    return Outcome(graph.name, "native", "solved", answer, witness, 0.0, stats, (values, counters))


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
) -> Outcome:
    """The native backend: Grundy functions or kernels by propagation and backtracking.

    ``mode``: ``one`` (answer ``True``/``False``, witness one solution), ``all``
    (answer the number, witness the list) or ``count`` (answer the number).

    Weakly connected components share no constraint, so for ``one`` and ``count``
    each is solved on its own: a solution is the union of one per component and
    the count is the product of the counts (``all`` enumerates the whole graph).
    """
    from pyasp_games.engines.limits import LimitReached

    if mode not in ("one", "all", "count"):
        raise InputError(f"unknown mode {mode!r}")
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
        return Outcome(graph.name, "native", "unknown", None, None, 0.0, stats)
    stats["solutions"] = total
    if mode == "one":
        if total == 0:
            return Outcome(graph.name, "native", "no-solution", False, None, 0.0, stats)
        if find == "grundy":
            witness = {n: witness[n] for n in graph.names}
        else:
            witness = sorted(witness, key=graph.index.__getitem__)
        return Outcome(graph.name, "native", "solved", True, witness, 0.0, stats)
    return Outcome(
        graph.name, "native", "solved", total, found if mode == "all" else None, 0.0, stats
    )
