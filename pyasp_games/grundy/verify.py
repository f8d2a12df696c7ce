"""Independent checks of Grundy functions, kernels and generalized Grundy values.

Shares no code with the solvers: it re-reads the graph's arcs and checks the
defining rules vertex by vertex (the mex rule; independence and absorption;
Smith's conditions (a)-(c) with the counter function), and for small graphs
counts Grundy functions by brute force over every assignment of values up to the
out-degree.

>>> from pyasp_games.grundy.model import parse_graph
>>> c4 = parse_graph("a b\\nb c\\nc d\\nd a\\n")
>>> check_grundy_function(c4, {"a": 0, "b": 1, "c": 0, "d": 1})
(True, 'the mex rule holds at all 4 positions')
>>> check_grundy_function(c4, {"a": 0, "b": 0, "c": 0, "d": 1})[1]
"position a: value 0 but the successors' values are {0}, whose mex is 1"
>>> brute_force_count(c4), brute_force_count(parse_graph("a b\\nb c\\nc a\\n"))
(2, 0)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pyasp_games.engines.outcome import Outcome
from pyasp_games.graphs import Digraph
from pyasp_games.grundy.model import Infinity, Value

#: brute force only below this many assignments
BRUTE_FORCE_LIMIT = 200_000


def _least_missing(values: set[int]) -> int:
    k = 0
    while k in values:
        k += 1
    return k


def check_grundy_function(graph: Digraph, function: Mapping[str, Any]) -> tuple[bool, str]:
    """Does ``function`` ({position: value}) satisfy ``g(v) = mex g(successors)`` everywhere?"""
    if not isinstance(function, Mapping):
        return False, "the witness is not a {position: value} mapping"
    missing = [n for n in graph.names if n not in function]
    if missing:
        return False, f"position {missing[0]} has no value"
    extra = [n for n in function if n not in graph.index]
    if extra:
        return False, f"{extra[0]!r} is not a position of the graph"
    for u, name in enumerate(graph.names):
        value = function[name]
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            return False, f"position {name}: {value!r} is not a natural number"
        seen = {function[graph.names[w]] for w in graph.succ[u]}
        want = _least_missing(seen)
        if value != want:
            shown = "{" + ", ".join(map(str, sorted(seen))) + "}"
            return (
                False,
                f"position {name}: value {value} but the successors' values are {shown}, whose mex is {want}",
            )
    return True, f"the mex rule holds at all {len(graph)} positions"


def check_kernel(graph: Digraph, kernel: Sequence[str]) -> tuple[bool, str]:
    """Is ``kernel`` independent (no arc inside) and absorbing (every other vertex moves into it)?"""
    if isinstance(kernel, str | bytes) or not isinstance(kernel, Sequence):
        return False, "the witness is not a list of positions"
    unknown = [n for n in kernel if n not in graph.index]
    if unknown:
        return False, f"{unknown[0]!r} is not a position of the graph"
    inside = {graph.index[n] for n in kernel}
    for u in range(len(graph)):
        targets = [w for w in graph.succ[u] if w in inside]
        if u in inside and targets:
            return False, f"arc {graph.names[u]} -> {graph.names[targets[0]]} inside the kernel"
        if u not in inside and not targets:
            return False, f"position {graph.names[u]} is outside the kernel and cannot move into it"
    return True, f"the {len(inside)} positions are independent and absorbing"


def _domains(graph: Digraph) -> list[range]:
    return [range(len(out) + 1) for out in graph.succ]


def brute_force_count(graph: Digraph) -> int | None:
    """The number of Grundy functions by trying every assignment (``None`` when too many)."""
    size = 1
    for d in _domains(graph):
        size *= len(d)
        if size > BRUTE_FORCE_LIMIT:
            return None
    count = 0
    names = graph.names
    for values in itertools.product(*_domains(graph)):
        if check_grundy_function(graph, dict(zip(names, values, strict=True)))[0]:
            count += 1
    return count


def brute_force_kernels(graph: Digraph) -> int | None:
    """The number of kernels by trying every vertex subset (``None`` beyond 17 positions)."""
    if len(graph) > 17:
        return None
    count = 0
    for bits in range(1 << len(graph)):
        chosen = [graph.names[v] for v in range(len(graph)) if bits >> v & 1]
        if check_kernel(graph, chosen)[0]:
            count += 1
    return count


def _greater(a: Value, b: Value) -> bool:
    """``a > b`` with ``∞`` above every number (two infinities are not compared)."""
    if isinstance(a, Infinity):
        return not isinstance(b, Infinity)
    return not isinstance(b, Infinity) and a > b


def check_generalized(
    graph: Digraph, values: Sequence[Value], counters: Sequence[int | None]
) -> tuple[bool, str]:
    """Smith's Definition 1 (seed 000, section 4) at every position, with the counter ``c``.

    (a) a finite value is the mex of the successors' finite values; for ``∞(K)``,
    ``K`` is exactly the set of those values. (b) for every successor ``v`` with
    ``γ(v) > γ(u)`` (``u`` finite) some ``z`` in ``v``'s successors has ``γ(z) =
    γ(u)`` and ``c(u) > c(z)``. (c) ``γ(u) = ∞`` needs an infinite successor ``v``
    none of whose successors has value ``mex γ(u⁺)``.
    """
    names = graph.names
    for u, value in enumerate(values):
        finite = {x for x in (values[w] for w in graph.succ[u]) if not isinstance(x, Infinity)}
        low = _least_missing(finite)
        if isinstance(value, Infinity):
            if set(value.K) != finite:
                return (
                    False,
                    f"position {names[u]}: {value} but the successors' finite values are {sorted(finite)}",
                )
            escape = any(
                isinstance(values[v], Infinity) and all(values[z] != low for z in graph.succ[v])
                for v in graph.succ[u]
            )
            if not escape:
                return (
                    False,
                    f"position {names[u]}: {value} violates condition (c): it should be finite ({low})",
                )
            continue
        if value != low:
            return (
                False,
                f"position {names[u]}: value {value} but the mex of its successors is {low}",
            )
        cu = counters[u]
        if cu is None:
            return False, f"position {names[u]}: a finite value without a counter"
        for v in graph.succ[u]:
            if _greater(values[v], value) and not any(
                values[z] == value and counters[z] is not None and cu > counters[z]
                for z in graph.succ[v]
            ):
                return False, f"position {names[u]}: condition (b) fails for the move to {names[v]}"
    return True, f"Smith's conditions (a)-(c) hold at all {len(values)} positions"


def classes_of(values: Sequence[Value]) -> list[str]:
    """Proposition 1 of seed 000, section 4: ``P`` value 0, ``D`` ``∞(K)`` with 0 ∉ K, else ``N``."""
    out = []
    for v in values:
        if isinstance(v, Infinity):
            out.append("N" if 0 in v.K else "D")
        else:
            out.append("P" if v == 0 else "N")
    return out


def check_classes(graph: Digraph, cls: Sequence[str]) -> tuple[bool, str]:
    """Local consistency of a P/N/D labelling: P moves only to N, N has a move to P,
    D has a move to D and none to P; a sink is P."""
    for u, c in enumerate(cls):
        succ = [cls[w] for w in graph.succ[u]]
        name = graph.names[u]
        if c == "P" and any(s != "N" for s in succ):
            return False, f"P-position {name} can move to a non-N position"
        if c == "N" and "P" not in succ:
            return False, f"N-position {name} has no move to a P-position"
        if c == "D" and ("P" in succ or "D" not in succ):
            return False, f"D-position {name} must move to D and never to P"
    return True, f"the P/N/D labelling is locally consistent at all {len(cls)} positions"


def check_outcome(
    graph: Digraph, outcome: Outcome, find: str = "grundy"
) -> tuple[bool | None, str]:
    """Verify an outcome independently of the backend that produced it.

    Every returned Grundy function must satisfy the mex rule at every position
    (kernels: independent and absorbing); enumerations must be duplicate-free and
    as long as the count. Non-existence and counts are checked by brute force on
    small graphs (otherwise they are cross-checked between backends).
    """
    check = check_grundy_function if find == "grundy" else check_kernel
    if outcome.status not in ("solved", "no-solution"):
        return None, "nothing to verify"
    witness = outcome.witness
    if isinstance(witness, list) and outcome.answer is not True:  # --all
        if find == "grundy" and witness and not isinstance(witness[0], dict):
            return False, "the enumeration is not a list of functions"
        for item in witness:
            ok, message = check(graph, item)
            if not ok:
                return False, message
        keys = {repr(sorted(w.items())) if isinstance(w, dict) else repr(w) for w in witness}
        if len(keys) != len(witness):
            return False, "the enumeration repeats a solution"
        if outcome.answer != len(witness):
            return False, f"answer {outcome.answer} but {len(witness)} solutions listed"
    elif outcome.answer is True:
        return check(graph, witness)
    brute = brute_force_count(graph) if find == "grundy" else brute_force_kernels(graph)
    if brute is None:
        return None, "too large to recount by brute force: cross-checked between backends"
    claimed = (
        outcome.answer
        if isinstance(outcome.answer, int) and not isinstance(outcome.answer, bool)
        else None
    )
    if outcome.answer is False and brute != 0:
        return False, f"brute force finds {brute} solutions"
    if claimed is not None and claimed != brute:
        return False, f"brute force counts {brute} solutions, not {claimed}"
    return True, f"brute force over all assignments counts {brute}"


def check_loopy(
    graph: Digraph, outcome: Outcome, retrograde: Callable[[Digraph], Sequence[str]]
) -> tuple[bool | None, str]:
    """Check a ``loopy`` outcome: Smith's conditions (a)-(c) with the counter, local
    P/N/D consistency, and agreement of the classes with ``retrograde(graph)``.

    This checker must not call the native labelling it checks. The retrograde
    labelling it compares against is a native algorithm (independent of Smith's
    function, but not of the native module), so the caller passes it in:
    :func:`pyasp_games.grundy.loopy` gives ``native.retrograde_classes``.
    """
    if outcome.status != "solved":
        return None, "nothing to verify"
    values, counters = outcome.certificate
    ok, message = check_generalized(graph, values, counters)
    if not ok:
        return False, message
    ok, local = check_classes(graph, classes_of(values))
    if not ok:
        return False, local
    retro = list(retrograde(graph))
    cls = list(outcome.answer.values())
    if retro != cls:
        v = next(i for i in range(len(cls)) if retro[i] != cls[i])
        return (
            False,
            f"position {graph.names[v]}: class {cls[v]} but retrograde analysis says {retro[v]}",
        )
    return True, message + "; classes agree with retrograde analysis"
