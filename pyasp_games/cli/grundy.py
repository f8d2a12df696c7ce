"""``pyasp-games grundy``: Grundy values, sums, existence, kernels and loopy games on graphs."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Any

import typer

from pyasp_games.cli.common import (
    JSON,
    MEMORY_LIMIT,
    TIME_LIMIT,
    TRUST_ENCODING,
    GraphFormat,
    finish,
    limits,
    new_file,
    trust_encoding,
)
from pyasp_games.errors import InputError

app = typer.Typer(
    help="Impartial games on graphs: Grundy values, sums, loopy graphs, existence, kernels.",
    no_args_is_help=True,
)


class Backend(StrEnum):
    native = "native"
    asp = "asp"
    sat = "sat"


class Rule(StrEnum):
    xor = "xor"
    or_ = "or"


GRAPH = typer.Argument(
    ...,
    help="A game graph: arc list 'u v' per line (default), .adjlist, .graphml or node-link .json.",
)
FORMAT = typer.Option(None, "--format", help="Graph file format (default: by extension).")


def _load(path: Path, fmt: GraphFormat | None) -> Any:
    from pyasp_games.grundy.model import load_graph

    return load_graph(path, fmt.value if fmt else None)


@app.command()
def values(
    graph: Path = GRAPH,
    position: str = typer.Option(
        None, "--position", "-p", help="Also show this position's class and winning moves."
    ),
    fmt: GraphFormat = FORMAT,
    time_limit: float = TIME_LIMIT,
    memory_limit: float = MEMORY_LIMIT,
    json: bool = JSON,
) -> None:
    """Grundy values of an acyclic graph (linear time), P/N classes, winning moves."""
    from pyasp_games.engines.outcome import Outcome
    from pyasp_games.engines.runner import run_backend
    from pyasp_games.grundy.acyclic import grundy_values, winning_moves
    from pyasp_games.grundy.verify import check_grundy_function

    lim = limits(time_limit, memory_limit=memory_limit)
    g = _load(graph, fmt)
    start = g.position(position) if position is not None else None

    def native(g: Any, lim: Any) -> Outcome:
        vals = grundy_values(g, lim.deadline())
        answer = dict(zip(g.names, vals, strict=True))
        if start is None:
            witness: Any = {n: ("P" if v == 0 else "N") for n, v in answer.items()}
        else:
            witness = {
                "position": g.names[start],
                "value": vals[start],
                "class": "P" if vals[start] == 0 else "N",
                "winning_moves": [g.names[w] for w in winning_moves(g, vals, start)],
            }
        return Outcome(g.name, "native", "solved", answer, witness, 0.0, {})

    def check(g: Any, outcome: Outcome) -> tuple[bool | None, str]:
        if outcome.status != "solved":
            return None, "nothing to verify"
        return check_grundy_function(g, outcome.answer)

    outcome = run_backend({"native": native}, "native", g, g.name, lim, check)
    lines = []
    if outcome.status == "solved":
        if start is None:
            for name, v in outcome.answer.items():
                lines.append(f"  {name}: {v} ({'P' if v == 0 else 'N'})")
        else:
            w = outcome.witness
            moves = ", ".join(w["winning_moves"]) or "none (every move leads to an N-position)"
            lines.append(f"  {w['position']}: value {w['value']}, {w['class']}-position")
            lines.append(f"  winning moves: {moves}")
    finish(outcome, json, lines)


def _components(
    specs: list[str], fmt: GraphFormat | None
) -> tuple[list[Any], list[int], list[str]]:
    from pyasp_games.grundy.model import split_component

    graphs, positions, paths = [], [], []
    cache: dict[str, Any] = {}
    for spec in specs:
        path, pos = split_component(spec)
        if path not in cache:
            cache[path] = _load(Path(path), fmt)
        graphs.append(cache[path])
        positions.append(cache[path].position(pos))
        paths.append(path)
    return graphs, positions, paths


@app.command("sum")
def sum_(
    components: list[str] = typer.Argument(
        ..., help="Components GRAPH:POSITION (two or more; a graph may repeat)."
    ),
    rule: Rule = typer.Option(
        Rule.xor,
        "--rule",
        help="xor: move in one component (Sprague–Grundy); or: move in any non-empty set.",
    ),
    fmt: GraphFormat = FORMAT,
    time_limit: float = TIME_LIMIT,
    memory_limit: float = MEMORY_LIMIT,
    json: bool = JSON,
) -> None:
    """Value and winning moves of a sum of acyclic games (XOR: Sprague-Grundy; or: OR-sum, Smith)."""
    from pyasp_games.engines.outcome import Outcome
    from pyasp_games.engines.runner import run_backend
    from pyasp_games.grundy.acyclic import grundy_values
    from pyasp_games.grundy.sums import or_sum_winning_moves, sum_winning_moves
    from pyasp_games.grundy.verify import check_grundy_function

    lim = limits(time_limit, memory_limit=memory_limit)
    graphs, positions, paths = _components(components, fmt)

    def native(_: Any, lim: Any) -> Outcome:
        deadline = lim.deadline()
        per: list[list[int]] = []
        for i, g in enumerate(graphs):  # a graph given twice is computed once
            first = next(j for j in range(i + 1) if graphs[j] is g)
            per.append(per[first] if first < i else grundy_values(g, deadline))
        comp = [
            {"graph": paths[i], "position": g.names[p], "value": per[i][p]}
            for i, (g, p) in enumerate(zip(graphs, positions, strict=True))
        ]
        if rule is Rule.xor:
            total, moves = sum_winning_moves(graphs, per, positions)
            witness = {
                "value": total,
                "components": comp,
                "winning_moves": [
                    {
                        "component": m.component,
                        "from": graphs[m.component].names[m.source],
                        "to": graphs[m.component].names[m.target],
                    }
                    for m in moves
                ],
            }
            answer = "N" if total else "P"
        else:
            wins, options = or_sum_winning_moves(graphs, per, positions)
            witness = {
                "components": comp,
                "winning_move": [
                    [graphs[i].names[w] for w in opts] if opts else None
                    for i, opts in enumerate(options)
                ]
                if wins
                else None,
            }
            answer = "N" if wins else "P"
        return Outcome("sum", "native", "solved", answer, witness, 0.0, {"rule": rule.value}, per)

    def check(_: Any, outcome: Outcome) -> tuple[bool | None, str]:
        if outcome.status != "solved":
            return None, "nothing to verify"
        for g, per in zip(graphs, outcome.certificate, strict=True):
            ok, message = check_grundy_function(g, dict(zip(g.names, per, strict=True)))
            if not ok:
                return False, message
        return True, "every component's values satisfy the mex rule"

    outcome = run_backend({"native": native}, "native", None, "sum", lim, check)
    lines = []
    if outcome.status == "solved":
        w = outcome.witness
        for i, c in enumerate(w["components"]):
            lines.append(f"  component {i}: {c['graph']}:{c['position']} value {c['value']}")
        if rule is Rule.xor:
            lines.append(f"  sum: value {w['value']}, {outcome.answer}-position")
            for m in w["winning_moves"]:
                lines.append(
                    f"  winning move: component {m['component']}: {m['from']} -> {m['to']}"
                )
        else:
            lines.append(f"  OR sum: {outcome.answer}-position (P iff every component is 0)")
            for i, opts in enumerate(w["winning_move"] or []):
                if opts:
                    lines.append(f"  winning move: component {i} to one of {', '.join(opts)}")
    finish(outcome, json, lines)


def _search(
    find: str,
    graph: Path,
    backend: Backend,
    all_: bool,
    count: bool,
    encoding: str | None,
    solver: str | None,
    emit_lp: Path | None,
    emit_cnf: Path | None,
    force: bool,
    fmt: GraphFormat | None,
    time_limit: float | None,
    json: bool,
    core: bool = True,
    trust: bool = False,
    memory_limit: float | None = None,
) -> None:
    from pyasp_games.grundy import solve
    from pyasp_games.grundy.asp import write_lp

    if all_ and count:
        raise InputError("--all and --count exclude each other (--all also reports the count)")
    if encoding is not None and backend is not Backend.asp:
        raise InputError("--encoding applies to --backend asp only")
    if emit_lp is not None and backend is not Backend.asp:
        raise InputError("--emit-lp applies to --backend asp only")
    if (solver is not None or emit_cnf is not None) and backend is not Backend.sat:
        raise InputError("--solver and --emit-cnf apply to --backend sat only")
    if not core and backend is Backend.native:
        raise InputError("--no-core applies to --backend asp and sat only")
    lim = limits(time_limit, memory_limit=memory_limit)
    g = _load(graph, fmt)
    new_file(emit_lp, force, "--emit-lp")
    new_file(emit_cnf, force, "--emit-cnf")
    options: dict[str, Any] = {"mode": "all" if all_ else "count" if count else "one"}
    options.update(trust_encoding("grundy", trust, encoding))
    if backend is Backend.asp and encoding:
        options["encoding"] = encoding
    if backend in (Backend.asp, Backend.sat) and not core:
        options["core"] = False
    if backend is Backend.sat:
        options["solver"] = solver or "glucose4"
        if emit_cnf is not None:
            options["emit_cnf"] = emit_cnf
    if emit_lp is not None:
        write_lp(g, encoding or find, emit_lp)
    outcome = solve(g, backend.value, lim, find=find, **options)
    what = "Grundy function" if find == "grundy" else "kernel"
    lines = []
    if outcome.status in ("solved", "no-solution"):
        if options["mode"] == "one":
            if outcome.answer:
                lines.append(f"  a {what} exists:")
                if find == "grundy":
                    lines += [f"    {n}: {v}" for n, v in outcome.witness.items()]
                else:
                    lines.append(f"    {' '.join(outcome.witness)}")
            else:
                lines.append(f"  no {what} exists")
        else:
            lines.append(f"  {outcome.answer} {what}{'s' if outcome.answer != 1 else ''}")
            for i, w in enumerate(outcome.witness or [], 1):
                shown = (
                    " ".join(f"{n}={v}" for n, v in w.items()) if find == "grundy" else " ".join(w)
                )
                lines.append(f"  {i}: {shown}")
    elif outcome.status == "unknown" and "found_before_limit" in outcome.stats:
        lines.append(f"  {outcome.stats['found_before_limit']} found before the limit")
    finish(outcome, json, lines)


BACKEND = typer.Option(Backend.native, "--backend", "-b", help="Which solver.")
ALL = typer.Option(False, "--all", help="Enumerate every solution (answer: their number).")
COUNT = typer.Option(False, "--count", help="Count the solutions (answer: their number).")
ENCODING = typer.Option(None, "--encoding", help="asp: a bundled encoding or an .lp file.")
SOLVER = typer.Option(None, "--solver", help="sat: the PySAT solver (glucose4, cadical195, ...).")
EMIT_LP = typer.Option(None, "--emit-lp", help="asp: write the facts to run clingo by hand.")
EMIT_CNF = typer.Option(None, "--emit-cnf", help="sat: write the CNF as DIMACS.")
FORCE = typer.Option(False, "--force", help="Overwrite files given to --emit-lp/--emit-cnf.")


@app.command()
def exists(
    graph: Path = GRAPH,
    backend: Backend = BACKEND,
    all_: bool = ALL,
    count: bool = COUNT,
    encoding: str = ENCODING,
    solver: str = SOLVER,
    emit_lp: Path = EMIT_LP,
    emit_cnf: Path = EMIT_CNF,
    force: bool = FORCE,
    trust: bool = TRUST_ENCODING,
    fmt: GraphFormat = FORMAT,
    time_limit: float = TIME_LIMIT,
    memory_limit: float = MEMORY_LIMIT,
    json: bool = JSON,
    core: bool = typer.Option(
        True,
        "--core/--no-core",
        help="asp/sat: search only the core (unreached positions "
        "deleted, then filled in by mex; same functions).",
    ),
) -> None:
    """Does the graph have a Grundy function (NP-complete)? One, all (--all) or how many (--count)."""
    _search(
        "grundy", graph, backend, all_, count, encoding, solver, emit_lp, emit_cnf, force, fmt,
        time_limit, json, core, trust, memory_limit=memory_limit,
    )  # fmt: skip


@app.command()
def kernel(
    graph: Path = GRAPH,
    backend: Backend = BACKEND,
    all_: bool = ALL,
    count: bool = COUNT,
    encoding: str = ENCODING,
    solver: str = SOLVER,
    emit_lp: Path = EMIT_LP,
    emit_cnf: Path = EMIT_CNF,
    force: bool = FORCE,
    trust: bool = TRUST_ENCODING,
    fmt: GraphFormat = FORMAT,
    time_limit: float = TIME_LIMIT,
    memory_limit: float = MEMORY_LIMIT,
    json: bool = JSON,
) -> None:
    """Kernels (independent, absorbing sets; the value-0 set of a Grundy function): one, all, count."""
    _search(
        "kernel", graph, backend, all_, count, encoding, solver, emit_lp, emit_cnf, force, fmt,
        time_limit, json, trust=trust, memory_limit=memory_limit,
    )  # fmt: skip


@app.command()
def loopy(
    graph: str = typer.Argument(
        ..., help="A game graph file; GRAPH:POSITION for the first component of a sum."
    ),
    sum_with: list[str] = typer.Option(
        None, "--sum", help="Add a component GRAPH:POSITION to the sum (repeatable)."
    ),
    check_asp: bool = typer.Option(
        False, "--check-asp", help="Also compare the classes with the ASP retrograde labelling."
    ),
    fmt: GraphFormat = FORMAT,
    time_limit: float = TIME_LIMIT,
    memory_limit: float = MEMORY_LIMIT,
    json: bool = JSON,
) -> None:
    """Smith's generalized Sprague–Grundy values and P/N/D classes (draws on cycles).

    Without --sum: every position's value (a number, or inf(K) with K its
    successors' finite values), its class, and for N-positions a winning move, for
    D-positions a move that keeps the draw. With --sum: the generalized nim-sum of
    the components and the class and move of the sum.
    """
    from pyasp_games.grundy import loopy as run

    lim = limits(time_limit, memory_limit=memory_limit)
    clock = lim.deadline()  # reading the graph counts against the limit too
    if not sum_with:
        g = _load(Path(graph), fmt)
        outcome = run(g, clock.limits(memory_limit=lim.memory_limit))
        if outcome.status == "solved" and check_asp:
            _compare_asp(g, outcome, clock)
        lines = []
        if outcome.status == "solved":
            from pyasp_games.grundy.generalized import loopy_move

            vals, _ = outcome.certificate
            for v, name in enumerate(g.names):
                cls = outcome.answer[name]
                move = loopy_move(g, vals, v)
                note = (
                    ""
                    if move is None
                    else f", {'wins by' if cls == 'N' else 'keeps the draw by'} -> {g.names[move]}"
                )
                lines.append(f"  {name}: {outcome.witness[name]} ({cls}{note})")
        finish(outcome, json, lines)
    _loopy_sum([graph, *sum_with], fmt, lim, json)


def _compare_asp(g: Any, outcome: Any, clock: Any) -> None:
    from pyasp_games.engines.limits import LimitReached
    from pyasp_games.engines.outcome import Outcome
    from pyasp_games.engines.runner import run_backend
    from pyasp_games.grundy.asp import retrograde_asp

    def labelling(g: Any, lim: Any) -> Outcome:
        return Outcome(g.name, "asp", "solved", retrograde_asp(g, lim.deadline()), None)

    try:  # a backend run: the time left holds during clingo's grounding too
        asp = run_backend(
            {"asp": labelling}, "asp", g, g.name, clock.limits(), lambda *_: (None, "")
        )
    except LimitReached:
        asp = None
    if asp is None or asp.status != "solved":
        outcome.stats["asp_retrograde"] = "limit reached"
        return
    retro = asp.answer
    same = retro == [outcome.answer[n] for n in g.names]
    outcome.stats["asp_retrograde_agrees"] = same
    if not same:
        outcome.stats["failed_status"] = outcome.status
        outcome.status = "error"
        outcome.stats["verification"] = "the ASP retrograde labelling disagrees with the classes"


def _loopy_sum(specs: list[str], fmt: GraphFormat | None, lim: Any, json: bool) -> None:
    from pyasp_games.engines.outcome import Outcome
    from pyasp_games.engines.runner import run_backend
    from pyasp_games.grundy.generalized import generalized_grundy, generalized_sum, loopy_sum_move
    from pyasp_games.grundy.model import format_value, outcome_class
    from pyasp_games.grundy.verify import check_generalized

    graphs, positions, paths = _components(specs, fmt)

    def native(_: Any, lim: Any) -> Outcome:
        deadline = lim.deadline()
        cache: dict[int, Any] = {}
        for i, g in enumerate(graphs):  # a graph given twice is computed once
            first = next(j for j in range(i + 1) if graphs[j] is g)
            cache[i] = cache[first] if first < i else generalized_grundy(g, deadline)
        results = [cache[i] for i in range(len(graphs))]
        vals = [r[0] for r in results]
        total = generalized_sum([vals[i][p] for i, p in enumerate(positions)])
        move = loopy_sum_move(graphs, vals, positions)
        witness = {
            "value": format_value(total),
            "components": [
                {"graph": paths[i], "position": g.names[p], "value": format_value(vals[i][p])}
                for i, (g, p) in enumerate(zip(graphs, positions, strict=True))
            ],
            "move": None
            if move is None
            else {
                "component": move.component,
                "from": graphs[move.component].names[move.source],
                "to": graphs[move.component].names[move.target],
            },
        }
        return Outcome("sum", "native", "solved", outcome_class(total), witness, 0.0, {}, results)

    def check(_: Any, outcome: Outcome) -> tuple[bool | None, str]:
        if outcome.status != "solved":
            return None, "nothing to verify"
        for g, (vals, counters) in zip(graphs, outcome.certificate, strict=True):
            ok, message = check_generalized(g, vals, counters)
            if not ok:
                return False, message
        return True, "every component satisfies Smith's conditions"

    outcome = run_backend({"native": native}, "native", None, "sum", lim, check)
    lines = []
    if outcome.status == "solved":
        w = outcome.witness
        for i, c in enumerate(w["components"]):
            lines.append(f"  component {i}: {c['graph']}:{c['position']} value {c['value']}")
        lines.append(f"  generalized nim-sum: {w['value']}, {outcome.answer}-position")
        if w["move"]:
            kind = "winning move" if outcome.answer == "N" else "draw-keeping move"
            m = w["move"]
            lines.append(f"  {kind}: component {m['component']}: {m['from']} -> {m['to']}")
    finish(outcome, json, lines)
