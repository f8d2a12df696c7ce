"""The ASP backend: clingo derives the reachable positions of a small graph and their
values by the mex rule (``encodings/kayles/kayles.lp``: positions are sets of deleted
vertices, as bitmasks).

Facts: ``vertex(V)`` for ``V = 0..n-1`` (the graph's vertices in order) and ``edge(U,V)``
once per edge. The answer set shows ``start_value(K)``, ``option(V,K)`` for every move
and ``positions(N)``. A graph of more than :data:`MAX_VERTICES` vertices is refused
before any grounding: the program derives every reachable position, up to ``2^n``.

>>> from pyasp_games.engines.graphs import numbered_graph
>>> out = solve_asp(numbered_graph(5, [(0, 1), (1, 2), (2, 3), (3, 4)], "P5"))
>>> out.answer, out.witness["winning_moves"], out.stats["positions"]
(3, ['2'], 10)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pyasp_games.domains.kayles.model import witness
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.clingo_runner import ClingoSession, int_arguments, write_facts
from pyasp_games.engines.graphs import Graph
from pyasp_games.engines.limits import LimitReached, Limits
from pyasp_games.engines.resources import encoding_path
from pyasp_games.errors import InputError, MalformedAnswer

DOMAIN = "kayles"
#: The most vertices the asp backend takes (every reachable position is derived).
MAX_VERTICES = 20


def facts(graph: Graph) -> str:
    """``vertex/1`` and ``edge/2`` over the vertices' numbers."""
    out = [f"vertex(0..{len(graph) - 1})."] if len(graph) else []
    out += [f"edge({u},{v})." for u, v in graph.edges]
    return "\n".join(out) + "\n"


def refuse_large(graph: Graph, backend: str) -> None:
    """The one-line refusal of a graph too large to expand position by position."""
    if len(graph) > MAX_VERTICES:
        raise InputError(
            f"{graph.name}: {len(graph)} vertices; --backend {backend} derives every reachable "
            f"position (up to 2^n) and takes at most {MAX_VERTICES} (use --backend native)"
        )


def _decode(graph: Graph, symbols: list[Any]) -> tuple[int, dict[int, int], int | None]:
    value, options, positions = None, {}, None
    for s in symbols:
        if s.name == "start_value":
            (value,) = int_arguments(s, "start_value", 1, "a value")
        elif s.name == "option":
            v, k = int_arguments(s, "option", 2, "a vertex and a value")
            if not 0 <= v < len(graph) or v in options:
                raise MalformedAnswer(f"the answer set shows {s}: no vertex {v}, or twice")
            options[v] = k
        elif s.name == "positions":
            (positions,) = int_arguments(s, "positions", 1, "a number")
    if value is None:
        raise MalformedAnswer("the answer set shows no start_value(K)")
    return value, options, positions


def solve_asp(
    graph: Graph,
    limits: Limits = Limits(),
    encoding: str = "kayles",
    emit_lp: Path | str | None = None,
) -> Claim:
    """The Grundy value, the outcome and every move's value, by the encoding."""
    refuse_large(graph, "asp")
    program = encoding_path(DOMAIN, encoding)
    if emit_lp is not None:
        names = " ".join(f"{i}={n}" for i, n in enumerate(graph.names[:50]))
        write_facts(emit_lp, facts(graph), [program], f"Node Kayles on {graph.name}",
                    notes=[f"vertices: {names}{' ...' if len(graph) > 50 else ''}"])  # fmt: skip
    session = ClingoSession([program], facts(graph), deadline=limits.deadline())
    try:
        session.ground([("base", [])])
        result = session.solve()
    except LimitReached:
        return Claim.unknown(session.statistics())
    stats = session.statistics()
    if result.status == "unknown":
        return Claim.unknown(stats)
    if result.status != "sat":
        return Claim.error("the encoding has no answer set", stats)
    value, options, positions = _decode(graph, result.symbols)
    if positions is not None:
        stats["positions"] = positions
    return Claim.solved(value, witness(graph, value, options), stats=stats)
