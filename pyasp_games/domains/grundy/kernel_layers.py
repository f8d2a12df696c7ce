"""Grundy functions found layer by layer, as a chain of kernels (SAT on one layer at a time).

The positions of value 0 of a Grundy function form a kernel ``K0`` of the graph
(no move inside it, and every other position moves into it: it is independent
and absorbing). The positions of value 1 form a kernel ``K1`` of the graph with
``K0`` deleted, and so on: conversely, any chain ``K0, K1, ...`` in which each
``Kj`` is a kernel of what the earlier ones leave, and which uses up every
position, is a Grundy function (value ``j`` on ``Kj``): a position in ``Kj`` has
no successor in ``Kj`` (independence) and one in every earlier ``Ki`` (it was
left outside ``Ki``, so ``Ki`` absorbed it), so ``j`` is the mex of its
successors' values. Functions and chains correspond one to one.

So the search looks for a kernel of the graph with a SAT solver (one Boolean
per position: PySAT, the same clauses as ``grundy kernel -b sat``), and for each
kernel found, in the same way for a chain in what it leaves; a kernel that cannot
be completed is blocked (kernels form an antichain: no kernel contains another, so
the clause "not all of these" excludes exactly it) and the next one is sought.
Kernels are enumerated only as far as needed. "None" means that the layer-0
formula, with every kernel tried blocked, was refuted, and so was each tried
kernel's remainder (the same way, one layer up): an answer that rests on the
solver's refutations, exactly as the monolithic formula's ``no-solution`` does
(and cross-checked, or printed NOT VERIFIED, the same way).

Why: the layer-0 formula has one variable per position (the monolithic one has
one per position and value, plus "at least" auxiliaries), and on the random
digraphs of ``benchmarks/RESULTS.md`` the layers above 0 cost next to nothing
(0-20 conflicts on every instance measured: what a kernel leaves is decided by
propagation, or refuted at once), so the search is a search for kernels: it
answers the same instances with 1.8x-10x less CPU than the monolithic formula
(median 4x, n = 3,000-5,000, CaDiCaL both ways), and more of them.
A kernel does not always complete (at n = 3,000, seeds 8 and 9 have 2 and 10
kernels and no Grundy function: each remainder is refuted in a few conflicts).
On graphs with many kernels that cannot be completed the enumeration can take
long: the monolithic formula stays the default.

>>> from pyasp_games.domains.grundy.model import parse_graph
>>> from pyasp_games.engines.limits import Deadline
>>> c4 = parse_graph("a b\\nb c\\nc d\\nd a\\n", name="c4")
>>> functions, stats = kernel_chains(c4, Deadline(None), enumerate_all=True)
>>> sorted(functions), stats["kernels_per_layer"]
([[0, 1, 0, 1], [1, 0, 1, 0]], [2, 2])
>>> kernel_chains(parse_graph("a b\\nb c\\nc a\\n"), Deadline(None))[0]
[]
"""

from __future__ import annotations

from typing import Any

from pyasp_games.engines.graphs import Digraph
from pyasp_games.engines.limits import Deadline
from pyasp_games.engines.sat_runner import SatSession

#: CaDiCaL in its "stable" mode only (fewer restarts, target phases): 1.25x-1.45x fewer
#: conflicts on the kernel formulas of benchmarks/RESULTS.md's random digraphs.
_CADICAL = {"stabilizeonly": 1}


def encode_kernel(session: SatSession, graph: Digraph) -> list[int]:
    """Add the kernel clauses (a position is in, or one of its moves leads in; no move
    joins two positions in); returns the literals ``in(v)``. Also the formula of
    ``grundy kernel -b sat``."""
    x = [session.var("in", v) for v in range(len(graph))]
    for u, out in enumerate(graph.succ):
        session.add([x[u]] + [x[w] for w in out])
        for w in out:
            session.add([-x[u], -x[w]])
    return x


def induced(graph: Digraph, keep: list[int]) -> Digraph:
    """The subgraph on the positions ``keep`` (in that order), moves among them only."""
    number = {v: i for i, v in enumerate(keep)}
    succ = tuple(tuple(number[w] for w in graph.succ[v] if w in number) for v in keep)
    return Digraph(tuple(graph.names[v] for v in keep), succ, graph.name, dict(graph.headers))


def kernel_chains(
    graph: Digraph, deadline: Deadline, solver: str = "cadical195", enumerate_all: bool = False
) -> tuple[list[list[int]] | None, dict[str, Any]]:
    """Grundy functions of ``graph`` (value lists by position) as chains of kernels.

    Returns the functions (the first one found only, unless ``enumerate_all``; ``[]``
    if there is none) or ``None`` when the deadline came first, and the statistics:
    ``conflicts`` (all layers), ``kernels_per_layer`` (kernels found at each depth over
    the whole search), ``conflicts_per_layer``, ``solve_calls``. The layers are an
    explicit stack (one open solver per layer), not recursion: a chain is as long as
    the largest value, which only the largest out-degree bounds.
    """
    found: list[list[int]] = []
    kernels: list[int] = []
    conflicts: list[int] = []
    calls = 0
    value = [-1] * len(graph)
    # one frame per layer: (session, its kernel literals, the positions it covers)
    stack: list[tuple[SatSession, list[int], list[int]]] = []

    def push(left: list[int]) -> None:
        if len(stack) == len(kernels):
            kernels.append(0)
            conflicts.append(0)
        options = _CADICAL if solver.startswith("cadical") else None
        session = SatSession(solver, deadline, keep_clauses=False, options=options)
        stack.append((session, encode_kernel(session, induced(graph, left)), left))

    def pop() -> None:
        nonlocal calls
        session, _, _ = stack.pop()
        calls += session.solve_calls
        conflicts[len(stack)] += int(session.statistics().get("conflicts", 0))
        session.delete()

    answer: list[list[int]] | None = found
    try:
        if len(graph) == 0:
            found.append([])
        else:
            push(list(range(len(graph))))
        while stack:
            session, x, left = stack[-1]
            result = session.solve()
            if result is None:
                answer = None
                break
            if not result:  # every kernel of this layer tried
                pop()
                continue
            depth = len(stack) - 1
            kernels[depth] += 1
            true = set(session.true_names())
            chosen = [i for i in range(len(left)) if ("in", i) in true]
            # no kernel contains another: this clause excludes exactly this one, and
            # the layers above explore all of its completions before it is asked again
            session.add([-x[i] for i in chosen])
            for i in chosen:
                value[left[i]] = depth
            rest = [left[i] for i in range(len(left)) if ("in", i) not in true]
            if rest:
                push(rest)
                continue
            found.append(list(value))
            if not enumerate_all:
                break
    finally:
        while stack:
            pop()
    stats: dict[str, Any] = {
        "solver": solver,
        "conflicts": sum(conflicts),
        "kernels_per_layer": kernels,
        "conflicts_per_layer": conflicts,
        "solve_calls": calls,
    }
    if answer is None:
        stats["found_before_limit"] = len(found)
    return answer, stats
