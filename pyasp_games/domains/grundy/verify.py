"""Independent checks of Grundy functions, kernels and generalized Grundy values.

Shares no code with the solvers: it re-reads the graph's arcs and checks the
defining rules vertex by vertex (the mex rule; independence and absorption;
Smith's conditions (a)-(c) with the counter function), and for small graphs
counts Grundy functions by brute force over every assignment of values up to the
out-degree. One checker per question (``check_values``, ``check_sum``,
``check_functions``, ``check_kernels``, ``check_loopy``; the classic games'
``check_nim``, ``check_subtraction``, ``check_grundys_game``).

>>> from pyasp_games.domains.grundy.model import parse_graph
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

from pyasp_games.domains.grundy.census import NimCensus
from pyasp_games.domains.grundy.circuits import CircuitValue, reduce_circuit
from pyasp_games.domains.grundy.model import (
    GameSum,
    GrundysGame,
    Infinity,
    Misere,
    Nim,
    SubtractionGame,
    Value,
    format_value,
    mex,
    nim_sum,
    outcome_class,
)
from pyasp_games.engines.graphs import Digraph
from pyasp_games.engines.outcome import Outcome
from pyasp_games.errors import Unconfirmed

#: brute force only below this many assignments
BRUTE_FORCE_LIMIT = 200_000


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
        want = mex(seen)
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
    """Smith's definition of the generalized function at every position, with the counter ``c``
    (C. A. B. Smith, "Graphs and composite games", J. Combinatorial Theory 1, 1966).

    (a) a finite value is the mex of the successors' finite values; for ``∞(K)``,
    ``K`` is exactly the set of those values. (b) for every successor ``v`` with
    ``γ(v) > γ(u)`` (``u`` finite) some ``z`` in ``v``'s successors has ``γ(z) =
    γ(u)`` and ``c(u) > c(z)``. (c) ``γ(u) = ∞`` needs an infinite successor ``v``
    none of whose successors has value ``mex γ(u⁺)``.
    """
    names = graph.names
    for u, value in enumerate(values):
        finite = {x for x in (values[w] for w in graph.succ[u]) if not isinstance(x, Infinity)}
        low = mex(finite)
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
    """The classes of generalized values (Smith 1966): ``P`` value 0, ``D`` ``∞(K)`` with
    0 ∉ K, else ``N``."""
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
    small graphs; beyond, they stand unconfirmed (:class:`Unconfirmed`: exit 3; ``crosscheck``
    compares the backends).
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
    if brute is None:  # the claim stands, not verified (exit 3): crosscheck compares backends
        raise Unconfirmed("too large to recount by brute force")
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


def check_functions(graph: Digraph, outcome: Outcome) -> tuple[bool | None, str]:
    """:func:`check_outcome` of ``grundy exists`` (Grundy functions)."""
    return check_outcome(graph, outcome, "grundy")


def check_kernels(graph: Digraph, outcome: Outcome) -> tuple[bool | None, str]:
    """:func:`check_outcome` of ``grundy kernel``."""
    return check_outcome(graph, outcome, "kernel")


def check_values(graph: Digraph, outcome: Outcome) -> tuple[bool | None, str]:
    """Check ``grundy values``: the mex rule at every position, and a position's
    value, class and winning moves (exactly its successors of value 0). Under the misère
    rule: :func:`check_misere_values`."""
    if isinstance(graph, Misere):
        return check_misere_values(graph.game, outcome)
    if outcome.status != "solved":
        return None, "nothing to verify"
    ok, message = check_grundy_function(graph, outcome.answer)
    if not ok:
        return ok, message
    witness = outcome.witness
    if not isinstance(witness, Mapping):
        return False, "the witness is not a mapping"
    if "position" in witness:
        name = witness["position"]
        if name not in graph.index:
            return False, f"{name!r} is not a position of the graph"
        value = outcome.answer[name]
        zeros = [graph.names[w] for w in graph.succ[graph.index[name]]
                 if outcome.answer[graph.names[w]] == 0]  # fmt: skip
        if witness.get("value") != value or witness.get("class") != ("P" if value == 0 else "N"):
            return False, f"position {name}: value {value}, not as shown"
        if witness.get("winning_moves") != zeros:
            return False, f"position {name}: its winning moves are {zeros}"
    elif witness != {n: ("P" if v == 0 else "N") for n, v in outcome.answer.items()}:
        return False, "the classes shown are not those of the values (P exactly at value 0)"
    return True, message


def check_sum(game: GameSum, outcome: Outcome) -> tuple[bool | None, str]:
    """Check ``grundy sum``: every component's values satisfy the mex rule, the sum's
    value and class follow from the rule (XOR: Sprague–Grundy; OR: P iff every
    component is 0), and the winning moves listed are exactly the winning moves. Under
    the misère rule: :func:`check_misere_sum`."""
    if isinstance(game, Misere):
        return check_misere_sum(game.game, outcome)
    if outcome.status != "solved":
        return None, "nothing to verify"
    certificate, witness = outcome.certificate, outcome.witness
    if not isinstance(certificate, list | tuple) or len(certificate) != len(game.graphs):
        return False, f"the certificate does not hold the values of the {len(game.graphs)} components"
    for g, per in zip(game.graphs, certificate, strict=True):
        if not isinstance(per, list | tuple) or len(per) != len(g):
            return False, f"{g.name}: the certificate does not give a value to each position"
        ok, message = check_grundy_function(g, dict(zip(g.names, per, strict=True)))
        if not ok:
            return False, message
    values = [per[p] for per, p in zip(certificate, game.positions, strict=True)]
    if _shown_components(witness) != _components(game, values):
        return False, "the components' positions and values are not as shown"
    rule = outcome.stats.get("rule", "xor")
    if rule not in ("xor", "or") or ("value" in witness) != (rule == "xor"):
        return False, f"the witness is not that of a sum by the rule {rule!r}"
    if rule == "xor":
        total = 0
        for v in values:
            total ^= v
        moves = [
            {"component": i, "from": g.names[p], "to": g.names[w]}
            for i, (g, p, per) in enumerate(zip(game.graphs, game.positions, certificate, strict=True))
            for w in g.succ[p]
            if per[w] ^ values[i] ^ total == 0
        ]  # fmt: skip
        if witness["value"] != total or outcome.answer != ("N" if total else "P"):
            return False, f"the XOR of the components' values is {total}"
        if witness.get("winning_moves") != moves:
            return False, "the winning moves are not exactly the moves to a sum of value 0"
        return True, "every component's values satisfy the mex rule; the XOR and its moves checked"
    wins = any(values)
    options = [
        [g.names[w] for w in g.succ[p] if per[w] == 0] or None if v else None
        for g, p, per, v in zip(game.graphs, game.positions, certificate, values, strict=True)
    ]  # fmt: skip
    if outcome.answer != ("N" if wins else "P"):
        return False, "an OR sum is P exactly when every component has value 0"
    if witness.get("winning_move") != (options if wins else None):
        return False, "the winning move is not to value 0 in every nonzero component"
    return True, "every component's values satisfy the mex rule; the OR sum's move checked"


def _components(game: GameSum, values: Sequence[Value]) -> list[tuple[str, int | str]]:
    """Every component's position and value as a witness shows them (the graph is named
    by the path it was given as: not compared, a saved answer may be read elsewhere)."""
    return [(g.names[p], format_value(v)) for g, p, v in zip(game.graphs, game.positions, values, strict=True)]


def _shown_components(witness: Any) -> list[tuple[Any, Any]] | None:
    """The components' positions and values a sum's witness shows (``None``: no list)."""
    parts = witness.get("components") if isinstance(witness, Mapping) else None
    if not isinstance(parts, list) or not all(isinstance(c, Mapping) for c in parts):
        return None
    return [(c.get("position"), c.get("value")) for c in parts]


def check_loopy(
    instance: Digraph | GameSum, outcome: Outcome, retrograde: Callable[[Digraph], Sequence[str]]
) -> tuple[bool | None, str]:
    """Check a ``loopy`` outcome: Smith's conditions (a)-(c) with the counter, local
    P/N/D consistency, and agreement of the classes with ``retrograde(graph)`` (and
    with the ASP retrograde labelling, when the certificate carries it). A sum
    (:class:`GameSum`): every component so, the value the generalized nim-sum of the
    components' values, the class its class, and the move a move to the class it claims.

    This checker must not call the native labelling it checks. The retrograde
    labelling it compares against is a native algorithm (independent of Smith's
    function, but not of the native module), so the caller passes it in:
    :data:`pyasp_games.domains.grundy.questions.LOOPY` gives ``retrograde.retrograde_classes``.
    Under the misère rule: :func:`check_misere_loopy`.
    """
    if isinstance(instance, Misere):
        return check_misere_loopy(instance.game, outcome)
    if outcome.status != "solved":
        return None, "nothing to verify"
    if isinstance(instance, GameSum):
        return _check_loopy_sum(instance, outcome, retrograde)
    answer, witness = outcome.answer, outcome.witness
    if not isinstance(answer, Mapping) or list(answer) != list(instance.names):
        return False, "the answer does not give a class to each position, in the graph's order"
    ok, message = _check_loopy_graph(instance, outcome.certificate, retrograde, list(answer.values()))
    if not ok:
        return ok, message
    values = outcome.certificate[0]
    if witness != {n: format_value(v) for n, v in zip(instance.names, values, strict=True)}:
        return False, "the values shown are not those of the certificate"
    return ok, message


def _shape(graph: Digraph, certificate: Any) -> str | None:
    """What is wrong with the shape of a loopy certificate ``(values, counters[, asp])``
    of ``graph`` (a saved one may have been edited), or ``None``."""
    if not isinstance(certificate, list | tuple) or len(certificate) not in (2, 3):
        return "the certificate is not (values, counters) or (values, counters, ASP classes)"
    values, counters, *asp = certificate
    n = len(graph)
    if not isinstance(values, list | tuple) or len(values) != n:
        return f"the certificate does not give a value to each of the {n} positions"
    for name, v in zip(graph.names, values, strict=True):
        natural = isinstance(v, int) and not isinstance(v, bool) and v >= 0
        if not natural and not (isinstance(v, Infinity) and all(isinstance(k, int) for k in v.K)):
            return f"position {name}: {v!r} is neither a natural number nor inf(K)"
    if not isinstance(counters, list | tuple) or len(counters) != n:
        return f"the certificate does not give a counter to each of the {n} positions"
    if any(c is not None and (not isinstance(c, int) or isinstance(c, bool)) for c in counters):
        return "a counter is neither a number nor none"
    if asp and (not isinstance(asp[0], list | tuple) or len(asp[0]) != n):
        return "the ASP retrograde labelling does not give a class to each position"
    return None


def _check_loopy_graph(
    graph: Digraph,
    certificate: Sequence[Any],
    retrograde: Callable[[Digraph], Sequence[str]],
    cls: list[str] | None = None,
) -> tuple[bool, str]:
    wrong = _shape(graph, certificate)
    if wrong is not None:
        return False, wrong
    values, counters, *asp = certificate
    ok, message = check_generalized(graph, values, counters)
    if not ok:
        return False, message
    ok, local = check_classes(graph, classes_of(values))
    if not ok:
        return False, local
    cls = classes_of(values) if cls is None else cls
    if cls != classes_of(values):
        return False, "the classes are not those of the values"
    retro = list(retrograde(graph))
    if retro != cls:
        v = next(i for i in range(len(cls)) if retro[i] != cls[i])
        return (
            False,
            f"position {graph.names[v]}: class {cls[v]} but retrograde analysis says {retro[v]}",
        )
    if asp and list(asp[0]) != cls:
        return False, "the ASP retrograde labelling disagrees with the classes"
    also = "; and with the ASP retrograde labelling" if asp else ""
    return True, message + "; classes agree with retrograde analysis" + also


def _check_loopy_sum(
    game: GameSum, outcome: Outcome, retrograde: Callable[[Digraph], Sequence[str]]
) -> tuple[bool, str]:
    certificate, witness = outcome.certificate, outcome.witness
    if not isinstance(certificate, list | tuple) or len(certificate) != len(game.graphs):
        return False, f"the certificate does not hold the {len(game.graphs)} components' values"
    for g, per in zip(game.graphs, certificate, strict=True):
        ok, message = _check_loopy_graph(g, per, retrograde)
        if not ok:
            return False, f"{g.name}: {message}"
    values = [c[0] for c in certificate]
    comp = [vals[p] for vals, p in zip(values, game.positions, strict=True)]
    if _shown_components(witness) != _components(game, comp):
        return False, "the components' positions and values are not as shown"
    total: Value = 0
    for v in comp:
        total = nim_sum(total, v)
    cls = outcome_class(total)
    if witness.get("value") != format_value(total) or outcome.answer != cls:
        return False, f"the generalized nim-sum is {total}, a {cls}-position"
    move = witness.get("move")
    if (move is None) != (cls == "P"):
        return False, "a move is shown exactly for an N- or a D-position"
    if move is not None:
        i = move.get("component") if isinstance(move, Mapping) else None
        if not isinstance(i, int) or not 0 <= i < len(game.graphs):
            return False, f"{move} is not a move of a component"
        g, p = game.graphs[i], game.positions[i]
        w = g.index.get(move.get("to"))
        if move.get("from") != g.names[p] or w is None or w not in g.succ[p]:
            return False, f"{move} is not a move of component {i}"
        after: Value = 0
        for j, v in enumerate(comp):
            after = nim_sum(after, values[i][w] if j == i else v)
        if outcome_class(after) != ("P" if cls == "N" else "D"):
            return False, f"the move {move['from']} -> {move['to']} leads to a {outcome_class(after)}-position"
    return True, "every component satisfies Smith's conditions; the nim-sum and the move checked"


def revive_loopy(instance: Digraph | GameSum, outcome: Outcome) -> Outcome:
    """A saved ``loopy`` answer with its values read back: JSON holds a value ``∞(K)``
    as ``{"K": [...]}`` (:func:`~pyasp_games.engines.outcome.to_json` of an
    :class:`Infinity`); this makes it an :class:`Infinity` again (what is no such
    value is left as it is, for the checker to refuse)."""

    def value(v: Any) -> Any:
        if not (isinstance(v, Mapping) and set(v) == {"K"} and isinstance(v["K"], frozenset | list)):
            return v
        if all(isinstance(k, int) and not isinstance(k, bool) for k in v["K"]):
            return Infinity(frozenset(v["K"]))
        return v

    def revived(certificate: Any) -> Any:
        if not isinstance(certificate, list) or not certificate or not isinstance(certificate[0], list):
            return certificate
        return [[value(v) for v in certificate[0]], *certificate[1:]]

    certificate = outcome.certificate
    if isinstance(instance, GameSum) and isinstance(certificate, list):
        outcome.certificate = [revived(c) for c in certificate]
    else:
        outcome.certificate = revived(certificate)
    return outcome


# -- the classic games ------------------------------------------------------------------


def check_nim(nim: Nim, outcome: Outcome) -> tuple[bool | None, str]:
    """Check ``games nim``: the class, and exactly the winning moves.

    A move lowers one heap i to some x; the XOR becomes x ^ others_i (the XOR of
    the other heaps), which is 0 exactly for x = others_i. So heap i has one
    move to XOR 0 when others_i < h_i and none otherwise: counting those heaps
    (others_i from prefix and suffix XORs) and replaying every claimed move
    checks "exactly these" in O(heaps x moves), not O(sum of the heaps). Under the
    misère rule: :func:`check_misere_nim`.
    """
    if nim.misere:
        return check_misere_nim(nim, outcome)
    if outcome.status != "solved":
        return None, "nothing to verify"
    hs = nim.heaps
    n = len(hs)
    prefix, suffix = [0] * (n + 1), [0] * (n + 1)
    for i in range(n):
        prefix[i + 1] = prefix[i] ^ hs[i]
        suffix[n - 1 - i] = suffix[n - i] ^ hs[n - 1 - i]
    movable = [i for i in range(n) if prefix[i] ^ suffix[i + 1] < hs[i]]
    certificate = outcome.certificate
    if not isinstance(certificate, Mapping) or certificate.get("xor") != prefix[n]:
        return False, f"the XOR of the heaps is {prefix[n]}, not as the certificate says"
    if not isinstance(outcome.witness, list):
        return False, "the witness is not a list of moves"
    lowered = set()
    for after in outcome.witness:
        if not isinstance(after, list | tuple) or not all(isinstance(a, int) for a in after):
            return False, f"{after!r} is not a position of heaps"
        changed = [i for i in range(n) if after[i] != hs[i]] if len(after) == n else []
        if len(changed) != 1 or not 0 <= after[changed[0]] < hs[changed[0]]:
            return False, f"{after} is not one Nim move from {list(hs)}"
        x = 0
        for a in after:
            x ^= a
        if x != 0:
            return False, f"the move to {after} leaves XOR {x}, not 0"
        lowered.add(changed[0])
    if len(lowered) != len(outcome.witness) or sorted(lowered) != movable:
        return False, f"the heaps with a move to XOR 0 are {movable}"
    if outcome.answer not in ("P", "N") or (outcome.answer == "P") != (not movable):
        return False, "a position is P exactly when it has no move to XOR 0"
    return True, "the XOR and every move checked: exactly these reach XOR 0"


def check_subtraction(game: SubtractionGame, outcome: Outcome) -> tuple[bool | None, str]:
    """Check ``games subtraction``: the mex rule for every value computed, the claimed
    period over a whole window of ``max(moves)`` values after the preperiod (for
    ``n >= max(moves)`` a value depends on the window of the last ``max(moves)`` values
    alone), and that both are minimal (as the answer says, exact): no proper divisor of
    the period is one, and the value before the preperiod breaks the period. Under the
    misère rule the certificate holds the outcomes (0 P, 1 N) and the rule checked is the
    misère outcome rule (a heap without a move is N; N exactly when a move reaches P)."""
    if outcome.status != "solved":
        return None, "nothing to verify"
    ds, g, witness = game.moves, outcome.certificate, outcome.witness
    if not isinstance(g, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in g):
        return False, "the certificate is not the list of values g(0), g(1), ..."
    if not isinstance(witness, Mapping):
        return False, "the witness is not {preperiod, period, proof}"
    p, s = witness.get("period"), witness.get("preperiod")
    if not isinstance(p, int) or not isinstance(s, int) or p < 1 or s < 0:
        return False, "the period and preperiod are not a positive and a natural number"
    f = "o" if game.misere else "g"
    for n, v in enumerate(g):
        if game.misere:
            want = 1 if n < ds[0] or any(g[n - d] == 0 for d in ds if d <= n) else 0
        else:
            want = mex(g[n - d] for d in ds if d <= n)
        if v != want:
            rule = "misère outcome rule" if game.misere else "mex rule"
            return False, f"{f}({n}) = {v} breaks the {rule}"
    shown = ["PN"[v] for v in g] if game.misere else g
    if outcome.answer != shown[: game.upto + 1]:
        return False, f"the values shown are not {f}(0..{game.upto})"
    if any(g[n] != g[n + p] for n in range(s, len(g) - p)):
        return False, "the sequence is not periodic as claimed"
    if s + p + ds[-1] > len(g):
        return False, "too few terms to confirm the period window"
    if s > 0 and g[s - 1] == g[s - 1 + p]:
        return False, f"the preperiod is not minimal: g({s - 1}) = g({s - 1 + p}) already"

    def at(n: int) -> int:  # g(n) for any n >= s, by the period just confirmed
        return g[s + (n - s) % p]

    shorter = next((d for d in range(1, p) if p % d == 0
                    and all(at(n) == at(n + d) for n in range(s, s + p))), None)  # fmt: skip
    if shorter is not None:
        return False, f"the period is not minimal: {shorter} is one"
    return True, (
        f"mex rule checked for n <= {len(g) - 1}; window of {ds[-1]} repeats; "
        "preperiod and period minimal"
    )


#: the mex rule of Grundy's game is re-checked by definition for n up to this bound
GRUNDYS_GAME_CHECKED = 1500


def check_grundys_game(game: GrundysGame, outcome: Outcome) -> tuple[bool | None, str]:
    """Check ``games grundys-game``: the mex rule by definition for ``n`` up to
    :data:`GRUNDYS_GAME_CHECKED` (quadratic: beyond it the values are unchecked). Under
    the misère rule: :func:`check_misere_grundys_game`."""
    if game.misere:
        return check_misere_grundys_game(game, outcome)
    if outcome.status != "solved":
        return None, "nothing to verify"
    g = [0, *outcome.answer]
    if len(g) != game.upto + 1:
        return False, f"{len(g) - 1} values, not {game.upto}"
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in g):
        return False, "the answer is not a list of natural numbers"
    top = min(game.upto, GRUNDYS_GAME_CHECKED)
    for n in range(1, top + 1):
        want = mex(g[a] ^ g[n - a] for a in range(1, n) if 2 * a < n)
        if g[n] != want:
            return False, f"g({n}) = {g[n]} breaks the mex rule"
    if top < game.upto:
        outcome.verdict.not_checked = (
            f"g({top + 1}..{game.upto}): the mex rule is quadratic to check by definition; "
            "those values rest on the backend's computation"
        )
    return True, f"mex rule checked by definition for n <= {top}"


# -- circuits ------------------------------------------------------------------------------


def check_circuit(instance: CircuitValue, outcome: Outcome) -> tuple[bool | None, str]:
    """Check ``grundy circuit``: the claimed values satisfy the mex rule at every position
    of the reduction's graph (acyclic, so they are its Grundy function, the only one),
    every wire's vertex carries its gate's Boolean value, and the output's value is the
    circuit's, evaluated directly on the inputs (the two ways of the notes' reduction)."""
    if outcome.status != "solved":
        return None, "nothing to verify"
    graph, out = reduce_circuit(instance.circuit, instance.inputs)
    if graph.topological_order() is None:
        return False, "the reduction's graph has a cycle"
    ok, message = check_grundy_function(graph, outcome.witness)
    if not ok:
        return ok, message
    direct = instance.circuit.evaluate(instance.inputs)
    for wire, value in direct.items():
        if outcome.witness[wire] != value:
            return False, f"wire {wire}: Grundy value {outcome.witness[wire]}, but its Boolean value is {value}"
    output = instance.circuit.output
    if outcome.answer != direct[output] or outcome.answer != outcome.witness[graph.names[out]]:
        return False, f"the answer {outcome.answer} is not the output {output}'s value {direct[output]}"
    return True, (
        f"{message}; every wire's Grundy value is its Boolean value, "
        f"the output {output} = {direct[output]} by direct evaluation"
    )


# -- the Nim census ------------------------------------------------------------------------

#: the census is checked by enumerating every position up to this many
CENSUS_ENUMERATED = 200_000


def p_positions_by_characters(heaps: int, coins: int) -> int:
    """The positions of ``heaps`` heaps of ``0..coins`` coins with XOR 0, by a character
    sum (a second way, sharing nothing with the census's digit DP): the count is
    ``2^-b * sum over s in [0, 2^b) of f(s)^K`` with ``f(s) = sum_{x <= M} (-1)^|x & s|``
    (``b`` the bits of ``M``, ``K`` the heaps), and ``f`` has a closed form: ``f(0) = M + 1``
    and, for ``s`` whose lowest 1 is bit ``t``, ``f(s) = ±((M mod 2^t) + 1 - M_t 2^t)``
    with the sign ``(-1)^|M & s|``. Summed over the ``2^(b-1-t)`` such ``s``, the signs
    cancel for odd ``K`` except at the top bit.

    >>> p_positions_by_characters(3, 7), p_positions_by_characters(2, 5)
    (64, 6)
    """
    if coins == 0:
        return 1
    b = coins.bit_length()
    total = (coins + 1) ** heaps
    for t in range(b):
        a = (coins % (1 << t)) + 1 - ((coins >> t) & 1) * (1 << t)
        if heaps % 2 == 0:
            total += (1 << (b - 1 - t)) * a**heaps
        elif t == b - 1:  # the only lowest bit whose signs do not cancel
            total -= a**heaps
    count, rest = divmod(total, 1 << b)
    if rest:
        raise ArithmeticError(f"the character sum {total} is not a multiple of 2^{b}")
    return count


def check_census(census: NimCensus, outcome: Outcome) -> tuple[bool | None, str]:
    """Check ``games nim-census``: the count again by the character sum
    (:func:`p_positions_by_characters`), and by enumerating every position where there
    are at most :data:`CENSUS_ENUMERATED`; the positions and the first player's wins."""
    if outcome.status != "solved":
        return None, "nothing to verify"
    k, m = census.heaps, census.coins
    count = p_positions_by_characters(k, m)
    if outcome.answer != count:
        return False, f"the character sum counts {count} P-positions, not {outcome.answer}"
    w = outcome.witness
    total = (m + 1) ** k
    if not isinstance(w, Mapping) or w.get("positions") != total or w.get("first_player_wins") != total - count:
        return False, f"there are {total} positions, {total - count} of them first-player wins"
    if total > CENSUS_ENUMERATED:
        return True, "counted again by a character sum (a second method)"
    enumerated = 0
    for position in itertools.product(range(m + 1), repeat=k):
        x = 0
        for h in position:
            x ^= h
        enumerated += x == 0
    if enumerated != count:
        return False, f"enumerating the {total} positions finds {enumerated} P-positions"
    return True, f"counted again by a character sum and by enumerating all {total} positions"

# -- misère play (the player who moves last loses) ---------------------------------------


def check_play_labels(
    graph: Digraph, cls: Sequence[Any], ranks: Any, misere: bool = True
) -> tuple[bool, str]:
    """Does the P/N/D labelling ``cls`` with the ranks ``ranks`` prove every outcome?

    Local rules: a position without moves is N under misère play (its player cannot move:
    the other moved last and lost), P under normal play; a P-position moves only to
    N-positions, each of lower rank; an N-position has a move to a P-position of lower
    rank; a D-position has no move to a P-position and a move to a D-position. By
    induction on the ranks every P and N label is right; a D-position that is in truth
    decided would, taking one of least rank, have a move to a P-position or only moves
    to N-positions: so the D labels are right too.

    >>> from pyasp_games.domains.grundy.model import parse_graph
    >>> g = parse_graph("a b\\nb c\\n")
    >>> check_play_labels(g, ["N", "P", "N"], [2, 1, 0])[0], check_play_labels(g, ["P", "N", "P"], [2, 1, 0])[1]
    (True, 'position c has no move: it is N under misère play, not P')
    """
    n = len(graph)
    if not isinstance(cls, list | tuple) or len(cls) != n or any(c not in ("P", "N", "D") for c in cls):
        return False, f"the classes are not one of P, N, D for each of the {n} positions"
    if not isinstance(ranks, list | tuple) or len(ranks) != n:
        return False, f"the certificate does not give a rank to each of the {n} positions"
    for u in range(n):
        r, c, name = ranks[u], cls[u], graph.names[u]
        if (c == "D") != (r is None) or (r is not None and (type(r) is not int or r < 0)):
            return False, f"position {name}: a {c}-position needs {'no rank' if c == 'D' else 'a rank'}, got {r!r}"
        out = graph.succ[u]
        if not out:
            want = "N" if misere else "P"
            if c != want:
                return False, (f"position {name} has no move: it is {want} under "
                               f"{'misère' if misere else 'normal'} play, not {c}")  # fmt: skip
            continue
        if c == "P":
            bad = next((w for w in out if cls[w] != "N" or ranks[w] >= r), None)
            if bad is not None:
                return False, f"P-position {name} can move to {graph.names[bad]} ({cls[bad]}, rank {ranks[bad]})"
        elif c == "N":
            if not any(cls[w] == "P" and ranks[w] < r for w in out):
                return False, f"N-position {name} has no move to a P-position of lower rank"
        elif any(cls[w] == "P" for w in out) or not any(cls[w] == "D" for w in out):
            return False, f"D-position {name} must move to D and never to P"
    return True, f"the P/N/D labelling and its ranks hold at all {n} positions"


def misere_genus_terms(
    graph: Digraph, v: int, terms: int, memos: tuple[dict[Any, int], dict[int, int]] | None = None
) -> tuple[int, list[int]]:
    """The normal Grundy value of ``v`` and the misère Grundy values of ``v`` plus ``k``
    nim-heaps of size 2 for ``k < terms``, by the definitions (a position of the sum is
    the graph's position with how many heaps of 2 and of 1 are left; a position without
    moves has misère value 1). The checker's own search; ``memos`` (two dicts) carries
    what it found from one call to the next on the same graph.

    >>> from pyasp_games.domains.grundy.model import parse_graph
    >>> misere_genus_terms(parse_graph("a b\\n"), 0, 4)  # *1: genus 1^031
    (1, [0, 3, 1, 3])
    """
    memo, normal = memos if memos is not None else ({}, {})

    def plus(u: int) -> int:
        stack = [u]
        while stack:
            x = stack[-1]
            todo = [w for w in graph.succ[x] if w not in normal]
            if todo:
                stack += todo
                continue
            normal[x] = mex(normal[w] for w in graph.succ[x])
            stack.pop()
        return normal[u]

    def minus(state: tuple[int, int, int]) -> int:
        stack = [state]
        while stack:
            x = stack[-1]
            if x in memo:
                stack.pop()
                continue
            u, twos, ones = x
            nxt = [(w, twos, ones) for w in graph.succ[u]]
            if twos:
                nxt += [(u, twos - 1, ones + 1), (u, twos - 1, ones)]
            if ones:
                nxt.append((u, twos, ones - 1))
            todo = [y for y in nxt if y not in memo]
            if todo:
                stack += todo
                continue
            memo[x] = mex(memo[y] for y in nxt) if nxt else 1
            stack.pop()
        return memo[state]

    return plus(v), [minus((v, k, 0)) for k in range(terms)]


def _genus_text(g: int, gammas: Sequence[int]) -> str:
    end = len(gammas)
    while end > 2 and gammas[end - 1] == gammas[end - 3]:
        end -= 1
    sep = "" if max(gammas) < 10 else ","
    return f"{g}^" + sep.join(map(str, gammas[:end]))


def tame_genus(g: int, gammas: Sequence[int]) -> bool:
    """Is ``g^gammas`` one of the tame genera of Winning Ways (ch. 13): ``0^120``,
    ``1^031``, ``0^02``, ``1^13`` or ``a^(a, a⊕2)`` for a >= 2 (their tails alternating)?

    >>> tame_genus(0, [1, 2, 0, 2]), tame_genus(2, [2, 0, 2, 0]), tame_genus(0, [1, 0, 1, 0])
    (True, True, False)
    """

    def alternating(head: list[int], pair: tuple[int, int]) -> list[int]:
        out = list(head)
        while len(out) < len(gammas):
            out.append(pair[(len(out) - len(head)) % 2])
        return out[: len(gammas)]

    if g >= 2:
        return list(gammas) == alternating([], (g, g ^ 2))
    shapes = {0: [alternating([1], (2, 0)), alternating([], (0, 2))],
              1: [alternating([0], (3, 1)), alternating([], (1, 3))]}  # fmt: skip
    return list(gammas) in shapes[g]


def _check_genus(graph: Digraph, v: int, said: Any) -> str | None:
    """Why the genus ``said`` (a mapping with ``genus``, ``gammas``, ``tame``, ``wild``)
    is not that of ``v``, or ``None``. Tame: ``v`` and every position it reaches have a
    tame genus (each recomputed); not tame: ``wild`` names a position ``v`` reaches (or
    ``v``) whose genus is not tame."""
    gammas = said.get("gammas") if isinstance(said, Mapping) else None
    if not isinstance(gammas, list) or not gammas or not all(type(x) is int for x in gammas):
        return "the genus's terms are not a list of numbers"
    memos: tuple[dict[Any, int], dict[int, int]] = ({}, {})
    g, own = misere_genus_terms(graph, v, len(gammas), memos)
    name = graph.names[v]
    if own != gammas:
        return f"position {name}: the misère values with 0, 1, 2, ... heaps of 2 are {own}, not {gammas}"
    if said.get("genus") != _genus_text(g, own):
        return f"position {name}: genus {_genus_text(g, own)}, not {said.get('genus')}"
    if said.get("tame") is True:
        reach, stack = {v}, [v]
        while stack:
            u = stack.pop()
            gu, terms = (g, own) if u == v else misere_genus_terms(graph, u, len(gammas), memos)
            if not tame_genus(gu, terms):
                return f"position {name} is not tame: it reaches {graph.names[u]}, of genus {_genus_text(gu, terms)}"
            for w in graph.succ[u]:
                if w not in reach:
                    reach.add(w)
                    stack.append(w)
    elif said.get("tame") is False:
        wild = graph.index.get(said.get("wild")) if isinstance(said.get("wild"), str) else None
        if wild is None or not _reaches(graph, v, wild):
            return f"position {name}: {said.get('wild')!r} is not a position it reaches"
        gw, terms = misere_genus_terms(graph, wild, len(gammas), memos)
        if tame_genus(gw, terms):
            return f"position {name}: {graph.names[wild]} has the tame genus {_genus_text(gw, terms)}"
    else:
        return f"position {name}: tame must be true or false, not {said.get('tame')!r}"
    return None


def _reaches(graph: Digraph, v: int, target: int) -> bool:
    """Whether some play from ``v`` (of no moves or more) reaches ``target``."""
    reach, stack = {v}, [v]
    while stack:
        u = stack.pop()
        if u == target:
            return True
        for w in graph.succ[u]:
            if w not in reach:
                reach.add(w)
                stack.append(w)
    return False


def check_misere_values(graph: Digraph, outcome: Outcome) -> tuple[bool | None, str]:
    """Check ``grundy values --misere``: the classes with their ranks
    (:func:`check_play_labels`: no draw on an acyclic graph), and a position's class,
    winning moves (exactly its successors that are P) and genus, recomputed."""
    if outcome.status != "solved":
        return None, "nothing to verify"
    answer, witness, certificate = outcome.answer, outcome.witness, outcome.certificate
    if not isinstance(answer, Mapping) or list(answer) != list(graph.names):
        return False, "the answer does not give a class to each position, in the graph's order"
    cls = list(answer.values())
    if "D" in cls:
        return False, "a draw on an acyclic graph"
    ranks = certificate.get("ranks") if isinstance(certificate, Mapping) else None
    ok, message = check_play_labels(graph, cls, ranks, misere=True)
    if not ok:
        return ok, message
    if isinstance(witness, Mapping) and "position" in witness:
        name = witness["position"]
        if name not in graph.index:
            return False, f"{name!r} is not a position of the graph"
        v = graph.index[name]
        wins = [graph.names[w] for w in graph.succ[v] if cls[w] == "P"]
        if witness.get("class") != cls[v] or witness.get("winning_moves") != wins:
            return False, f"position {name}: class {cls[v]}, winning moves {wins}, not as shown"
        wrong = _check_genus(graph, v, witness)
        if wrong:
            return False, wrong
        message += f"; the genus of {name} recomputed"
    elif witness != dict(answer):
        return False, "the classes shown are not those of the answer"
    return True, message


def _product(game: GameSum) -> Digraph:
    """The sum's positions reachable from its start, breadth first (a move changes one
    component: in component order, then in the order of its moves), as a game graph."""
    start = tuple(game.positions)
    order, index = [start], {start: 0}
    succ = []
    for state in order:
        out: list[int] = []
        for c, g in enumerate(game.graphs):
            for w in g.succ[state[c]]:
                nxt = (*state[:c], w, *state[c + 1 :])
                if nxt not in index:
                    index[nxt] = len(order)
                    order.append(nxt)
                if index[nxt] not in out:
                    out.append(index[nxt])
        succ.append(tuple(out))
    names = tuple("(" + ",".join(g.names[p] for g, p in zip(game.graphs, s, strict=True)) + ")" for s in order)
    return Digraph(names, tuple(succ), game.name)


def check_misere_loopy(instance: Digraph | GameSum, outcome: Outcome) -> tuple[bool | None, str]:
    """Check ``grundy loopy --misere``: the classes and ranks (:func:`check_play_labels`)
    of the graph, or of the sum's product graph (rebuilt here), the moves shown (from N
    to P of lower rank, from D to D, none from P), and the ASP labelling if carried."""
    if outcome.status != "solved":
        return None, "nothing to verify"
    certificate, witness = outcome.certificate, outcome.witness
    if not isinstance(certificate, Mapping):
        return False, "the certificate is not {ranks: [...]}"
    ranks = certificate.get("ranks")
    if isinstance(instance, GameSum):
        graph = _product(instance)
        cls = certificate.get("classes")
        if not isinstance(cls, list) or not cls or outcome.answer != cls[0]:
            return False, "the sum's class is not the first of the product's classes"
        shown = {0: witness.get("move") if isinstance(witness, Mapping) else "?"}
    else:
        graph = instance
        answer = outcome.answer
        if not isinstance(answer, Mapping) or list(answer) != list(graph.names):
            return False, "the answer does not give a class to each position, in the graph's order"
        cls = list(answer.values())
        if not isinstance(witness, Mapping) or list(witness) != list(graph.names):
            return False, "the witness does not give a class and a move to each position"
        shown = {}
        for v, name in enumerate(graph.names):
            item = witness[name]
            if not isinstance(item, Mapping) or item.get("class") != cls[v]:
                return False, f"position {name}: the class shown is not {cls[v]}"
            shown[v] = item.get("move")
    ok, message = check_play_labels(graph, cls, ranks, misere=True)
    if not ok:
        return ok, message
    for v, move in shown.items():
        name = graph.names[v]
        if cls[v] == "P" or not graph.succ[v]:  # a P-position, or an N one without moves
            if move is not None:
                return False, f"{cls[v]}-position {name} shows a move"
            continue
        w = graph.index.get(move) if isinstance(move, str) else None
        if w is None or w not in graph.succ[v]:
            return False, f"position {name}: {move!r} is not one of its moves"
        good = cls[w] == "P" and ranks[w] < ranks[v] if cls[v] == "N" else cls[w] == "D"
        if not good:
            return False, f"position {name}: the move to {move} does not {'win' if cls[v] == 'N' else 'keep the draw'}"
    asp = certificate.get("asp")
    if asp is not None:
        if list(asp) != list(cls):
            return False, "the ASP misère labelling disagrees with the classes"
        message += "; the ASP misère labelling agrees"
    return True, message


#: the checker recounts a misère sum or Nim position by its own search up to this many positions
MISERE_BUDGET = 300_000


def misere_search(
    moves: Callable[[Any], Any], budget: int | None = None, what: str = "positions"
) -> Callable[[Any], bool]:
    """``wins(position)`` under the misère rule, for a checker: a memoised depth-first
    search of its own over ``moves(position)`` (the positions one move away; none: the
    player to move cannot move, and so wins), without recursion (deep games). Past
    ``budget`` positions it raises :class:`Unconfirmed`, naming ``what`` it counts.

    Time and memory: linear in the positions reachable from the ones asked about.

    >>> wins = misere_search(lambda n: [n - k for k in (1, 2) if k <= n])  # take 1 or 2
    >>> [wins(n) for n in range(7)]  # the last to take loses: P at 1, 4, 7, ...
    [True, False, True, True, False, True, True]
    """
    memo: dict[Any, bool] = {}

    def wins(start: Any) -> bool:
        stack = [start]
        while stack:
            x = stack[-1]
            if x in memo:
                stack.pop()
                continue
            nxt = moves(x)
            todo = [y for y in nxt if y not in memo]
            if todo:
                if budget is not None and len(memo) > budget:
                    raise Unconfirmed(f"more than {budget:,} {what} to recount")
                stack += todo
                continue
            memo[x] = not nxt or any(not memo[y] for y in nxt)
            stack.pop()
        return memo[start]

    return wins


def _misere_sum_search(game: GameSum, rule: str) -> Callable[[tuple[int, ...]], bool]:
    """``wins(positions)`` for the sum: :func:`misere_search` over the components'
    positions as given; past :data:`MISERE_BUDGET` positions it raises
    :class:`Unconfirmed`."""
    graphs = game.graphs

    def moves(state: tuple[int, ...]) -> list[tuple[int, ...]]:
        if rule == "xor":
            return [(*state[:c], w, *state[c + 1 :]) for c, g in enumerate(graphs) for w in g.succ[state[c]]]
        picks = itertools.product(*[[p, *g.succ[p]] for g, p in zip(graphs, state, strict=True)])
        return [pick for pick in picks if pick != state]

    return misere_search(moves, MISERE_BUDGET, "positions of the sum")


def check_misere_sum(game: GameSum, outcome: Outcome) -> tuple[bool | None, str]:
    """Check ``grundy sum --misere``: the outcome and exactly the winning moves by the
    checker's own search of the sum, every component's genus recomputed, and, where every
    component is tame, that the genera decide the outcome found (Winning Ways, ch. 13)."""
    if outcome.status != "solved":
        return None, "nothing to verify"
    witness = outcome.witness
    rule = outcome.stats.get("rule", "xor")
    if rule not in ("xor", "or") or not isinstance(witness, Mapping):
        return False, "the witness is not that of a misère sum"
    parts = witness.get("components")
    if not isinstance(parts, list) or len(parts) != len(game.graphs):
        return False, f"the witness does not describe the {len(game.graphs)} components"
    for g, p, said in zip(game.graphs, game.positions, parts, strict=True):
        if not isinstance(said, Mapping) or said.get("position") != g.names[p]:
            return False, "the components' positions are not as shown"
        wrong = _check_genus(g, p, said)
        if wrong:
            return False, f"{g.name}: {wrong}"
    wins = _misere_sum_search(game, rule)
    state = tuple(game.positions)
    first = wins(state)
    if outcome.answer != ("N" if first else "P"):
        return False, f"the sum is {'N' if first else 'P'} under misère play (direct search)"
    if rule == "xor":
        moves: list[dict[str, Any]] = [
            {"component": c, "from": g.names[state[c]], "to": g.names[w]}
            for c, g in enumerate(game.graphs) for w in g.succ[state[c]]
            if not wins((*state[:c], w, *state[c + 1 :]))
        ]  # fmt: skip
    else:
        picks = itertools.product(*[[p, *g.succ[p]] for g, p in zip(game.graphs, state, strict=True)])
        moves = [{"to": [g.names[q] for g, q in zip(game.graphs, pick, strict=True)]}
                 for pick in picks if pick != state and not wins(pick)]  # fmt: skip
    if witness.get("winning_moves") != moves:
        return False, "the winning moves are not exactly the moves to a P-position"
    tame = rule == "xor" and all(c.get("tame") is True for c in parts)
    by_genus = witness.get("by_genus")
    if tame:
        # each tame genus stands for a Nim position (Winning Ways, ch. 13); Bouton decides
        heaps: list[int] = []
        for c in parts:
            g, gamma0 = int(c["genus"].split("^")[0]), c["gammas"][0]
            heaps += {(0, 1): [], (1, 0): [1], (0, 0): [2, 2], (1, 1): [2, 3]}.get((g, gamma0), [g])
        total = 0
        for h in heaps:
            total ^= h
        said = ("P" if total == 0 else "N") if any(h >= 2 for h in heaps) else ("P" if total == 1 else "N")
        if by_genus != said or said != outcome.answer:
            return False, f"the tame genera decide {said}, the witness says {by_genus}, the search {outcome.answer}"
    elif by_genus is not None:
        return False, "an outcome by genus is shown though a component is not tame"
    extra = "; the tame genera decide the same outcome" if tame else ""
    return True, f"outcome and winning moves recounted by direct search; every genus recomputed{extra}"


def check_misere_nim(nim: Nim, outcome: Outcome) -> tuple[bool | None, str]:
    """Check ``games nim --misere``: the class and exactly the winning moves. Positions
    with at most :data:`MISERE_BUDGET` combinations of heap sizes by the checker's own
    search of every position; larger ones by Bouton's misère theorem (P exactly when
    some heap is 2 or more and the XOR is 0, or every heap is at most 1 and the number
    of 1-heaps is odd), where only lowering a heap to the XOR of the others, to 0 or
    to 1 can reach a P-position."""
    if outcome.status != "solved":
        return None, "nothing to verify"
    hs = list(nim.heaps)
    certificate = outcome.certificate
    total, big = 0, 0
    for h in hs:
        total ^= h
        big += h >= 2
    if not isinstance(certificate, Mapping) or (certificate.get("xor"), certificate.get("big")) != (total, big):
        return False, f"the XOR of the heaps is {total} and {big} are 2 or more, not as the certificate says"
    if not isinstance(outcome.witness, list):
        return False, "the witness is not a list of moves"
    size = 1
    for h in hs:
        size *= h + 1
    small = size <= MISERE_BUDGET
    memo: dict[tuple[int, ...], bool] = {}

    def lost(after: Sequence[int]) -> bool:
        if not small:
            x = 0
            for a in after:
                x ^= a
            return x == 0 if any(a >= 2 for a in after) else x == 1
        start = tuple(sorted(a for a in after if a))
        stack = [start]
        while stack:
            key = stack[-1]
            if key in memo:
                stack.pop()
                continue
            nxt = {tuple(sorted(key[:i] + ((x,) if x else ()) + key[i + 1 :]))
                   for i in range(len(key)) for x in range(key[i])}  # fmt: skip
            todo = [y for y in nxt if y not in memo]
            if todo:
                stack += todo
                continue
            memo[key] = not nxt or any(not memo[y] for y in nxt)
            stack.pop()
        return not memo[start]

    moves = [
        [*hs[:i], x, *hs[i + 1 :]]
        for i, h in enumerate(hs)
        for x in (range(h) if small else sorted(x for x in {0, 1, total ^ h} if x < h))
        if lost([*hs[:i], x, *hs[i + 1 :]])
    ]
    claimed = outcome.witness
    if not all(isinstance(m, list | tuple) for m in claimed) or sorted(map(list, claimed)) != sorted(moves):
        return False, f"the winning moves are {moves}, not {claimed}"
    cls = "N" if moves or not any(hs) else "P"  # no heap left: its player cannot move, and wins
    if outcome.answer != cls:
        return False, f"the position is {cls} under misère play"
    how = "by direct search of every position" if small else "by Bouton's misère theorem"
    return True, f"the class and exactly these winning moves checked {how}"


#: misère Grundy's game is recounted by the checker's own search up to this heap
MISERE_GRUNDYS_CHECKED = 45


def check_misere_grundys_game(game: GrundysGame, outcome: Outcome) -> tuple[bool | None, str]:
    """Check ``games grundys-game --misere``: every outcome up to
    :data:`MISERE_GRUNDYS_CHECKED` by the checker's own search of the sums of heaps a heap
    splits into (heaps of 1 and 2 cannot move); beyond, they rest on the backend."""
    if outcome.status != "solved":
        return None, "nothing to verify"
    said = outcome.answer
    if not isinstance(said, list) or len(said) != game.upto or any(c not in ("P", "N") for c in said):
        return False, f"the answer is not P or N for each heap 1..{game.upto}"
    def splits(x: tuple[int, ...]) -> set[tuple[int, ...]]:  # heaps of 1 and 2 left out
        return {tuple(sorted(x[:i] + x[i + 1 :] + tuple(y for y in (a, x[i] - a) if y > 2)))
                for i in range(len(x)) for a in range(1, (x[i] + 1) // 2)}  # fmt: skip

    wins = misere_search(splits)

    top = min(game.upto, MISERE_GRUNDYS_CHECKED)
    for n in range(1, top + 1):
        got = "N" if wins((n,) if n > 2 else ()) else "P"
        if said[n - 1] != got:
            return False, f"a heap of {n} is {got} under misère play, not {said[n - 1]}"
    if top < game.upto:
        outcome.verdict.not_checked = (
            f"heaps {top + 1}..{game.upto}: beyond the checker's own search; they rest on the backend's"
        )
    return True, f"every outcome recounted by direct search for heaps up to {top}"


def own_play_labels(graph: Digraph, misere: bool) -> list[str]:
    """The checker's own labelling of every position (P, N or D): the least fixed point
    of the rules, found by counting each position's successors labelled N (a position
    all of whose successors are N is P; one with a successor P is N; one without
    moves is N under misère play, P under normal play; the rest are draws)."""
    n = len(graph)
    preds: list[list[int]] = [[] for _ in range(n)]
    for u in range(n):
        for w in set(graph.succ[u]):
            preds[w].append(u)
    left = [len(set(s)) for s in graph.succ]
    label = ["D"] * n
    todo = [u for u in range(n) if left[u] == 0]
    for u in todo:
        label[u] = "N" if misere else "P"
    while todo:
        w = todo.pop()
        for u in preds[w]:
            if label[u] != "D":
                continue
            if label[w] == "P":
                label[u] = "N"
                todo.append(u)
            else:
                left[u] -= 1
                if left[u] == 0:
                    label[u] = "P"
                    todo.append(u)
    return label


def check_outcomes(instance: Digraph | Misere, outcome: Outcome) -> tuple[bool | None, str]:
    """Check ``grundy outcomes``: the classes against the checker's own labelling
    (:func:`own_play_labels`, under the instance's play convention), and every move
    shown: from N to a P-position, from D to a D-position, none from P (nor from an
    N-position without moves, misère)."""
    if outcome.status != "solved":
        return None, "nothing to verify"
    misere = isinstance(instance, Misere)
    graph = instance.game if isinstance(instance, Misere) else instance
    answer, witness = outcome.answer, outcome.witness
    if not isinstance(answer, Mapping) or list(answer) != list(graph.names):
        return False, "the answer does not give a class to each position, in the graph's order"
    cls = list(answer.values())
    own = own_play_labels(graph, misere)
    if cls != own:
        v = next(i for i in range(len(own)) if own[i] != cls[i])
        return False, f"position {graph.names[v]} is {own[v]} under {'misère' if misere else 'normal'} play, not {cls[v]}"
    if not isinstance(witness, Mapping) or list(witness) != list(graph.names):
        return False, "the witness does not give a class and a move to each position"
    for v, name in enumerate(graph.names):
        item = witness[name]
        if not isinstance(item, Mapping) or item.get("class") != cls[v]:
            return False, f"position {name}: the class shown is not {cls[v]}"
        move = item.get("move")
        want = {"N": "P", "D": "D"}.get(cls[v]) if graph.succ[v] else None
        if want is None:
            if move is not None:
                return False, f"{cls[v]}-position {name} shows a move"
            continue
        w = graph.index.get(move) if isinstance(move, str) else None
        if w is None or w not in graph.succ[v] or cls[w] != want:
            return False, f"position {name}: {move!r} is not a move to a {want}-position"
    rule = "misère" if misere else "normal"
    return True, f"every class as the checker's own {rule}-play labelling gives it; every move checked"


# -- the misère quotient of an octal game --------------------------------------------------


def check_quotient_claim(code: str, n: int, q: Any) -> tuple[bool, str]:
    """Is ``q`` (elements, representatives, table, p_portion, heaps) the misère quotient
    of the octal game ``code`` for the sums of heaps up to ``n``? A proof, with no search
    of sums:

    1. the table is a commutative monoid (the empty sum's element the identity,
       every product defined, associative), each representative maps to its element;
    2. outcomes: a sum ``G`` is followed by its element ``Φ(G)`` (the product of its heaps'
       elements) and the set ``O(G)`` of its options' elements; adding a heap ``h`` gives
       ``Φ(G)Φ(h)`` and ``O(G)Φ(h) ∪ Φ(G)O(h)``, ``O(h)`` from the octal rule. Over every
       pair reached from ``(1, ∅)`` it must hold that ``Φ(G)`` is in the P-portion exactly
       when ``O(G)`` is not empty and misses the P-portion: by induction on the game,
       ``G`` is then a P-position exactly when ``Φ(G)`` is in the P-portion, so sums of
       the same element are indistinguishable (``o(G + X)`` is read from ``Φ(G)Φ(X)``);
    3. reduced: every two elements ``x ≠ y`` have a ``z`` with exactly one of ``xz``,
       ``yz`` in the P-portion, so their representatives are distinguishable.
    """
    if not isinstance(q, Mapping):
        return False, "the quotient is not a mapping"
    names, table, p_portion, heaps = q.get("elements"), q.get("table"), q.get("p_portion"), q.get("heaps")
    reps = q.get("representatives")
    if not isinstance(names, list) or not names or len(set(names)) != len(names):
        return False, "the elements are not a list of distinct names"
    if not isinstance(heaps, list) or len(heaps) != n or any(h not in names for h in heaps):
        return False, f"the heaps 1..{n} are not each given an element"
    if not isinstance(p_portion, list) or any(p not in names for p in p_portion):
        return False, "the P-portion is not a list of elements"
    if not isinstance(table, Mapping) or not isinstance(reps, Mapping):
        return False, "no product table or no representatives"

    def times(x: str, y: str) -> str:
        got = table.get(x + y) or table.get(y + x)
        if got not in names:
            raise KeyError(f"the product of {x} and {y} is not an element")
        return got

    one = names[0]
    try:
        for x in names:
            if times(one, x) != x:
                return False, f"{one} (the empty sum) is not the identity: {one}{x} = {times(one, x)}"
        for x, y, z in itertools.product(names, repeat=3):
            if times(times(x, y), z) != times(x, times(y, z)):
                return False, f"the product is not associative: ({x}{y}){z} != {x}({y}{z})"

        def image(heap_list: Sequence[int]) -> str:
            out = one
            for h in heap_list:
                out = times(out, heaps[h - 1])
            return out

        for x in names:
            r = reps.get(x)
            if not isinstance(r, list) or any(type(h) is not int or not 1 <= h <= n for h in r) or image(r) != x:
                return False, f"the representative of {x} does not map to {x}"
        digits = tuple(int(c) for c in code.partition(".")[2])
        heap_options = []
        for h in range(1, n + 1):
            left = set()
            for k, d in enumerate(digits, 1):  # remove k tokens
                if d & 1 and h == k:
                    left.add(one)
                if d & 2 and h > k:
                    left.add(image([h - k]))
                if d & 4 and h > k + 1:
                    left |= {image([a, h - k - a]) for a in range(1, h - k)}
            heap_options.append(frozenset(left))
        p_set = set(p_portion)
        start = (one, frozenset())
        seen, todo = {start}, [start]
        while todo:
            x, opts = todo.pop()
            if (x in p_set) != (bool(opts) and not (opts & p_set)):
                said = "" if opts else " (no move: an N-position)"
                return False, f"a sum of element {x} with options {sorted(opts)}{said} breaks the outcome rule"
            for h in range(1, n + 1):
                nxt = (times(x, heaps[h - 1]),
                       frozenset({times(o, heaps[h - 1]) for o in opts} | {times(x, o) for o in heap_options[h - 1]}))
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
    except KeyError as err:
        return False, str(err.args[0])
    for x, y in itertools.combinations(names, 2):
        if not any((times(x, z) in p_set) != (times(y, z) in p_set) for z in names):
            return False, f"the elements {x} and {y} are not distinguished: the quotient is not reduced"
    return True, (f"a commutative monoid of {len(names)} elements; the outcome rule holds on all "
                  f"{len(seen)} (element, options) pairs the sums reach; every two elements distinguished")


def check_quotient(game: Any, outcome: Outcome) -> tuple[bool | None, str]:
    """Check ``games quotient``: the witness is the misère quotient of the game
    (:func:`check_quotient_claim`) and the answer its order."""
    if outcome.status != "solved":
        return None, "nothing to verify"
    w = outcome.witness
    if not isinstance(w, Mapping) or (w.get("code"), w.get("upto")) != (game.code, game.upto):
        return False, f"the witness is not a quotient of {game.code} on heaps up to {game.upto}"
    if outcome.answer != len(w.get("elements") or []):
        return False, "the answer is not the number of elements"
    return check_quotient_claim(game.code, game.upto, w)
