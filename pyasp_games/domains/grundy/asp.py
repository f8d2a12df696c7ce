"""Grundy functions, kernels and win/lose/draw labellings with clingo.

Facts are ``vertex(V).`` and ``arc(U,V).`` with positions numbered ``0..n-1``
(names may be any tokens, so they never appear in the program). Encodings in
``encodings/grundy/`` (see its README): ``grundy`` (output ``value(V,K)``),
``kernel`` (``in(V)``) and ``retrograde`` (``win/lose/draw(V)``). With
``core=True`` (the default) Grundy functions are searched on the graph's core
(:mod:`pyasp_games.domains.grundy.core`: same number of functions, each extended by mex
to the deleted positions). Counting and listing are projected on the output
predicate (``value/2``, ``in/1``): every solution is decoded, checked (the mex rule;
independent and absorbing) and counted once, whatever else an encoding's answer
sets hold.

>>> from pyasp_games.domains.grundy.model import parse_graph
>>> c4 = parse_graph("a b\\nb c\\nc d\\nd a\\n", name="c4")
>>> out = solve_asp(c4, mode="count")
>>> out.status, out.answer
('solved', 2)
>>> retrograde_asp(parse_graph("a b\\nb a\\nb c\\n"))
['P', 'N', 'P']
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pyasp_games.domains.grundy.core import extend, in_core
from pyasp_games.domains.grundy.verify import check_grundy_function, check_kernel
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.clingo_runner import ClingoSession, int_arguments, write_facts
from pyasp_games.engines.graphs import Digraph
from pyasp_games.engines.limits import Deadline, Limits
from pyasp_games.engines.question import checked_mode
from pyasp_games.engines.resources import encoding_path
from pyasp_games.errors import MalformedAnswer

DOMAIN = "grundy"
#: which encoding solves which problem, and the output predicate it shows
ENCODINGS = {"grundy": "grundy", "kernel": "kernel"}
OUTPUT = {"grundy": "value/2", "kernel": "in/1"}


def facts(graph: Digraph) -> str:
    """``vertex/1`` and ``arc/2`` facts over position numbers."""
    out = [f"vertex({v})." for v in range(len(graph))]
    out += [f"arc({u},{v})." for u, v in graph.arcs()]
    return "\n".join(out) + "\n"


def write_lp(graph: Digraph, encoding: str, path: Path | str) -> None:
    """Write the facts of ``graph`` and how to run ``encoding`` on them by hand."""
    names = " ".join(f"{i}={n}" for i, n in enumerate(graph.names[:50]))
    write_facts(
        path, facts(graph), [encoding_path(DOMAIN, encoding)],
        f"grundy instance {graph.name}: {len(graph)} positions", options=["0"],
        notes=[f"positions: {names}{' ...' if len(graph) > 50 else ''}"],
    )  # fmt: skip


def decode(graph: Digraph, find: str, symbols: list[Any]) -> dict[str, int] | list[str]:
    """A Grundy function ``{name: value}`` or a kernel (sorted list of names)."""
    def position(v: int, symbol: Any) -> str:
        if not 0 <= v < len(graph):
            raise MalformedAnswer(f"the answer set shows {symbol}: no position numbered {v}")
        return graph.names[v]

    if find == "grundy":
        out: dict[str, int] = {}
        for s in symbols:
            if s.name == "value":
                v, k = int_arguments(s, "value", 2, "a position number and a value")
                out[position(v, s)] = k
        missing = [n for n in graph.names if n not in out]
        if missing:
            raise MalformedAnswer(
                f"the answer set shows no value/2 atom for position {missing[0]} "
                f"(a Grundy function gives every position a value)"
            )
        return {n: out[n] for n in graph.names}
    kernel = {
        position(int_arguments(s, "in", 1, "a position number")[0], s)
        for s in symbols
        if s.name == "in"
    }
    return sorted(kernel, key=graph.index.__getitem__)


def solve_asp(
    graph: Digraph,
    limits: Limits = Limits(),
    mode: str = "one",
    find: str = "grundy",
    encoding: str | None = None,
    core: bool = True,
    arguments: Sequence[str] | str = (),
    emit_lp: Path | str | None = None,
) -> Claim:
    """Existence (``one``), enumeration (``all``) or counting (``count``) with clingo.

    ``answer``: ``True``/``False`` (one) or the number of solutions (all, count);
    ``witness``: one solution, or the list of all (all). ``core``: solve the core
    only (Grundy functions with the bundled or a user encoding of ``value/2``);
    ``arguments``: extra clingo options (e.g. ``--configuration=crafty``; a string
    is split at spaces); ``emit_lp``: first write the whole graph's facts
    (:func:`write_lp`), to run the encoding on by hand.
    """
    checked_mode(mode)
    if emit_lp is not None:
        write_lp(graph, encoding or ENCODINGS[find], emit_lp)
    deadline = limits.deadline()
    full = graph
    removed: list[int] = []
    if core and find == "grundy":
        graph, removed = in_core(graph)
    args = arguments.split() if isinstance(arguments, str) else list(arguments)
    session = ClingoSession(
        [encoding_path(DOMAIN, encoding or ENCODINGS[find])],
        facts(graph),
        deadline=deadline,
        arguments=args,
        project=[OUTPUT[find]] if mode != "one" else [],
    )
    session.ground([("base", [])])

    def solution(symbols: list[Any]) -> Any:
        found = decode(graph, find, symbols)
        return extend(full, graph, removed, found) if removed else found  # type: ignore[arg-type]

    def check(found: Any) -> tuple[bool, str]:
        return (check_grundy_function if find == "grundy" else check_kernel)(full, found)

    found = session.enumerate_distinct(
        solution, check, keep=mode != "count", limit=1 if mode == "one" else None
    )
    stats = session.statistics()
    stats["models"] = found.models
    stats["core_positions"] = len(graph)
    if found.status == "unknown":
        stats["found_before_limit"] = found.count
        return Claim.unknown(stats)
    if found.invalid is not None and mode != "one":
        bad, why = found.invalid
        # a failed verification (the runner fails the claim), like a bad first answer
        stats["invalid_witness"] = bad
        return Claim.refuted(f"an answer set gives {bad}, which is not a solution: {why}", stats)
    if mode == "one":
        if found.invalid is not None:  # the checker in run_backend reports it
            return Claim.solved(True, found.invalid[0], stats=stats)
        if not found.solutions:
            return Claim.none(False, stats=stats)
        return Claim.solved(True, found.solutions[0], stats=stats)
    return Claim.solved(found.count, found.solutions if mode == "all" else None, stats=stats)


def retrograde_asp(
    graph: Digraph, deadline: Deadline | None = None, misere: bool = False
) -> list[str]:
    """``P``/``N``/``D`` per position from ``retrograde.lp`` (its unique answer set);
    ``misere``: from ``misere.lp``, the same labelling under misère play.

    >>> from pyasp_games.domains.grundy.model import parse_graph
    >>> retrograde_asp(parse_graph("a b\\nb c\\n"), misere=True)
    ['N', 'P', 'N']
    """
    program = encoding_path(DOMAIN, "misere" if misere else "retrograde")
    session = ClingoSession([program], facts(graph), deadline=deadline)
    session.ground([("base", [])])
    result = session.solve()
    if result.status != "sat":
        from pyasp_games.engines.limits import LimitReached

        raise LimitReached({"limit": "time"})
    cls = {"lose": "P", "win": "N", "draw": "D"}
    out = ["?"] * len(graph)
    for s in result.symbols:
        out[s.arguments[0].number] = cls[s.name]
    return out


#: the bundled labelling of ``grundy outcomes``, by play convention
OUTCOME_ENCODINGS = {"normal": "retrograde", "misere": "misere"}


def solve_outcomes_asp(
    instance: Any,
    limits: Limits = Limits(),
    encoding: str | None = None,
    emit_lp: Path | str | None = None,
) -> Claim:
    """``grundy outcomes --backend asp``: the classes from the unique answer set of
    ``retrograde.lp`` (normal play) or ``misere.lp`` (a
    :class:`~pyasp_games.domains.grundy.model.Misere` graph), or of the user's
    ``encoding`` (``win/1``, ``lose/1``, ``draw/1``: one of them for every position)."""
    from pyasp_games.domains.grundy.model import Misere, outcome_witness

    misere = isinstance(instance, Misere)
    graph = instance.game if misere else instance
    program = encoding or OUTCOME_ENCODINGS["misere" if misere else "normal"]
    if emit_lp is not None:
        write_lp(graph, program, emit_lp)
    session = ClingoSession([encoding_path(DOMAIN, program)], facts(graph), deadline=limits.deadline())
    session.ground([("base", [])])
    result = session.solve()
    stats = session.statistics()
    stats["play"] = "misere" if misere else "normal"
    if result.status == "unknown":
        return Claim.unknown(stats)
    if result.status != "sat":
        return Claim.error(f"{program}: no answer set (a labelling program has exactly one)", stats)
    named = {"lose": "P", "win": "N", "draw": "D"}
    cls: list[str | None] = [None] * len(graph)
    for s in result.symbols:
        if s.name not in named:
            continue
        (v,) = int_arguments(s, s.name, 1, "a position number")
        if not 0 <= v < len(graph):
            raise MalformedAnswer(f"the answer set shows {s}: no position numbered {v}")
        if cls[v] is not None and cls[v] != named[s.name]:
            raise MalformedAnswer(f"the answer set gives position {graph.names[v]} two classes")
        cls[v] = named[s.name]
    missing = [graph.names[v] for v, c in enumerate(cls) if c is None]
    if missing:
        raise MalformedAnswer(f"the answer set shows no win/lose/draw atom for position {missing[0]}")
    labels = [c or "D" for c in cls]
    answer = dict(zip(graph.names, labels, strict=True))
    return Claim.solved(answer, outcome_witness(graph, labels), stats=stats)
