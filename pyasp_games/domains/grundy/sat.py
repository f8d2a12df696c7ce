"""Grundy functions and kernels as SAT (one-hot values, mex constraints) with PySAT.

Variables (named through the session's ``IDPool``): ``("g", v, k)`` — position
``v`` has value ``k`` (``0 <= k <= outdeg(v)``), exactly one per position;
``("ge", v, k)`` — ``v``'s value is at least ``k``. Clauses: for every arc
``(u, w)`` and value ``k``, not both ``g(u,k)`` and ``g(w,k)``; for every ``j <
outdeg(u)``, ``ge(u, j+1) -> OR_w g(w, j)`` (mex: smaller values occur among the
successors). Kernels: ``("in", v)``; no arc inside, ``not in(u) -> OR_w in(w)``.
All solutions are enumerated with blocking clauses. With ``core=True`` (the
default) Grundy functions are searched on the graph's core (positions nobody
moves to deleted, repeatedly; :mod:`pyasp_games.domains.grundy.core`), which has the
same number of them, and each is extended by mex to the deleted positions.

>>> from pyasp_games.domains.grundy.model import parse_graph
>>> c3 = parse_graph("a b\\nb c\\nc a\\n", name="c3")
>>> solve_sat(c3).status, solve_sat(c3, mode="count").answer
('no-solution', 0)
>>> solve_sat(parse_graph("a b\\nb c\\n"), find="kernel").witness
['a', 'c']
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pyasp_games.domains.grundy.core import extend, in_core
from pyasp_games.domains.grundy.kernel_layers import encode_kernel, kernel_chains
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.graphs import Digraph
from pyasp_games.engines.limits import Deadline, Limits
from pyasp_games.engines.question import checked_mode
from pyasp_games.engines.sat_runner import SatSession
from pyasp_games.errors import InputError


def encode_grundy(session: SatSession, graph: Digraph) -> list[list[int]]:
    """Add the Grundy clauses; returns, per position, its value literals ``g(v,0..d)``."""
    g = [[session.var("g", v, k) for k in range(len(out) + 1)] for v, out in enumerate(graph.succ)]
    for v, out in enumerate(graph.succ):
        session.exactly_one(g[v])
        d = len(out)
        # ge(v,k) <- g(v,k) or ge(v,k+1): "value at least k"
        for k in range(1, d + 1):
            ge = session.var("ge", v, k)
            session.add([-g[v][k], ge])
            if k < d:
                session.add([-session.var("ge", v, k + 1), ge])
        for j in range(d):
            session.add([-session.var("ge", v, j + 1)] + [g[w][j] for w in out if j < len(g[w])])
        for w in out:
            for k in range(min(d, len(graph.succ[w])) + 1):
                session.add([-g[v][k], -g[w][k]])
    return g


def solve_sat(
    graph: Digraph,
    limits: Limits = Limits(),
    mode: str = "one",
    find: str = "grundy",
    solver: str = "glucose4",
    emit_cnf: Path | str | None = None,
    core: bool = True,
    by_kernels: bool = False,
) -> Claim:
    """Existence (``one``), enumeration (``all``) or counting (``count``) with PySAT.

    ``core``: search Grundy functions on the core only (same count, see the module
    docstring); ``--emit-cnf`` then writes the core's formula. ``by_kernels``: search
    Grundy functions layer by layer, a kernel at a time
    (:mod:`pyasp_games.domains.grundy.kernel_layers`) instead of as one formula.
    """
    checked_mode(mode)
    if by_kernels and emit_cnf is not None:
        raise InputError("--emit-cnf writes the whole formula: not with --by-kernels")
    deadline = limits.deadline()  # the limit covers the reduction too
    full = graph
    removed: list[int] = []
    if core and find == "grundy":
        graph, removed = in_core(graph)
    if by_kernels and find == "grundy":
        return _by_kernels(full, graph, removed, deadline, mode, solver)
    try:
        session = SatSession(solver, deadline)
    except ValueError as err:
        raise InputError(str(err)) from None
    with session:
        if find == "grundy":
            lits = encode_grundy(session, graph)
            groups = lits
        else:
            x = encode_kernel(session, graph)
            groups = [[lit] for lit in x]
        if emit_cnf is not None:
            note = f" (its core: {len(graph)} positions)" if removed else ""
            session.write_dimacs(emit_cnf, comment=f"pyasp-games grundy {find} {graph.name}{note}")
        found: list[Any] = []
        count = 0
        while True:
            result = session.solve()
            if result is None:
                stats = session.statistics()
                stats["found_before_limit"] = count
                stats["core_positions"] = len(graph)
                return Claim.unknown(stats)
            if not result:
                break
            true = set(session.true_names())
            if find == "grundy":
                witness: Any = {}
                block = []
                for v, vs in enumerate(groups):
                    k = next(k for k in range(len(vs)) if ("g", v, k) in true)
                    witness[graph.names[v]] = k
                    block.append(-vs[k])
                if removed:
                    witness = extend(full, graph, removed, witness)
            else:
                chosen = [v for v in range(len(graph)) if ("in", v) in true]
                witness = [graph.names[v] for v in chosen]
                block = [-x[v] if ("in", v) in true else x[v] for v in range(len(graph))]
            count += 1
            if mode != "count":
                found.append(witness)
            if mode == "one":
                break
            session.add(block)
        stats = session.statistics()
    stats["models"] = count
    stats["core_positions"] = len(graph)
    if mode == "one":
        if not found:
            return Claim.none(False, stats=stats)
        return Claim.solved(True, found[0], stats=stats)
    return Claim.solved(count, found if mode == "all" else None, stats=stats)


def _by_kernels(
    full: Digraph, graph: Digraph, removed: list[int], deadline: Deadline, mode: str, solver: str
) -> Claim:
    """``solve_sat`` for Grundy functions searched as chains of kernels of ``graph`` (the
    core of ``full`` when ``removed`` is not empty)."""
    try:
        functions, stats = kernel_chains(graph, deadline, solver, enumerate_all=mode != "one")
    except ValueError as err:
        raise InputError(str(err)) from None
    stats["core_positions"] = len(graph)
    stats["method"] = "kernel layers"
    if functions is None:
        return Claim.unknown(stats)
    witnesses: list[dict[str, int]] = []
    for values in functions:
        witness = dict(zip(graph.names, values, strict=True))
        witnesses.append(extend(full, graph, removed, witness) if removed else witness)
    stats["models"] = len(witnesses)
    if mode == "one":
        if not witnesses:
            return Claim.none(False, stats=stats)
        return Claim.solved(True, witnesses[0], stats=stats)
    answer = len(witnesses)
    return Claim.solved(answer, witnesses if mode == "all" else None, stats=stats)
