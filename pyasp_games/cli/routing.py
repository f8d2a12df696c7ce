"""``pyasp-games routing``: route pebble permutations on graphs (matchings, swaps, a blank)."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path

import typer

from pyasp_games.cli.common import (
    JSON,
    TIME_LIMIT,
    GraphFormat,
    exit_code,
    limits,
    new_file,
    print_json,
    report_error,
    verdict,
)
from pyasp_games.errors import InputError

app = typer.Typer(
    help="Routing permutations on graphs: rt(G, pi) by matchings, token swapping, sliding with a blank.",
    no_args_is_help=True,
)


class Moves(StrEnum):
    matching = "matching"
    swap = "swap"
    blank = "blank"


class Backend(StrEnum):
    native = "native"
    bfs = "bfs"
    asp = "asp"
    sat = "sat"
    oddeven = "oddeven"
    peeling = "peeling"
    rowcolumn = "rowcolumn"


GRAPH = typer.Argument(
    ...,
    help="A graph file (edge list 'u v', .adjlist, .graphml, node-link .json) or a spec:"
    " path:N cycle:N star:M complete:N bipartite:A,B grid:RxC hypercube:D tree:N:SEED random:N:SEED.",
)
ARRANGEMENT = typer.Argument(
    None,
    help="Lines 'u v' (the pebble on u goes to v; unnamed vertices stay), 'blank u';"
    " headers '# moves:', '# known:'. Omit it with --random.",
)
MOVES = typer.Option(
    None, "--moves", "-m", help="Move rule (default: the file's '# moves:', else matching)."
)
FORMAT = typer.Option(None, "--format", help="Graph file format (default: by extension).")


def _graph(path: str, fmt: GraphFormat | None):
    from pyasp_games.routing.model import read_graph

    return read_graph(path, fmt.value if fmt else None)


def _instance(
    graph_file: str, arrangement: Path | None, moves: Moves | None, fmt, random_seed: int | None
):
    from pyasp_games.routing.model import load_instances, random_arrangement

    graph = _graph(graph_file, fmt)
    if arrangement is not None and random_seed is not None:
        raise InputError("give an ARRANGEMENT file or --random SEED, not both")
    if arrangement is not None:
        return load_instances(arrangement, graph, moves.value if moves else None)[0]
    if random_seed is None:
        raise InputError("give an ARRANGEMENT file or --random SEED")
    return random_arrangement(graph, random_seed, moves.value if moves else "matching")


@app.command()
def solve(
    graph: str = GRAPH,
    arrangement: Path = ARRANGEMENT,
    moves: Moves = MOVES,
    backend: Backend = typer.Option(
        Backend.native,
        "--backend",
        "-b",
        help="Which solver (oddeven, peeling, rowcolumn: upper bounds, not optima).",
    ),
    random_seed: int = typer.Option(
        None, "--random", help="A random arrangement from this seed instead of a file."
    ),
    solver: str = typer.Option(
        None, "--solver", help="sat: the PySAT solver (glucose4, cadical195, ...)."
    ),
    time_limit: float = TIME_LIMIT,
    max_length: int = typer.Option(
        None, "--max-length", help="Give up beyond this many steps (no-solution within it)."
    ),
    fmt: GraphFormat = FORMAT,
    emit_lp: Path = typer.Option(
        None, "--emit-lp", help="asp: write the facts and encodings to run by hand."
    ),
    emit_cnf: Path = typer.Option(
        None, "--emit-cnf", help="sat: write the last horizon's CNF as DIMACS."
    ),
    force: bool = typer.Option(
        False, "--force", help="Overwrite files given to --emit-lp/--emit-cnf."
    ),
    json: bool = JSON,
) -> None:
    """Route the arrangement in the fewest steps and verify the schedule."""
    from pyasp_games.routing import solve as run

    if emit_lp is not None and backend is not Backend.asp:
        raise InputError("--emit-lp applies to --backend asp only")
    if (emit_cnf is not None or solver is not None) and backend is not Backend.sat:
        raise InputError("--emit-cnf and --solver apply to --backend sat only")
    lim = limits(time_limit, max_length)
    inst = _instance(graph, arrangement, moves, fmt, random_seed)
    new_file(emit_lp, force, "--emit-lp")
    new_file(emit_cnf, force, "--emit-cnf")
    options: dict = {}
    if emit_lp is not None:
        options["emit_lp"] = emit_lp
    if emit_cnf is not None:
        options["emit_cnf"] = emit_cnf
    if solver is not None:
        options["solver"] = solver
    outcome = run(inst, backend.value, lim, **options)
    if json:
        print_json(outcome.to_dict())
        raise typer.Exit(exit_code([outcome]))
    line = f"{outcome.problem}: {outcome.status}"
    if outcome.answer is not None:
        exact = outcome.stats.get("optimal") is True
        line += f", {outcome.answer} steps ({inst.moves}; {'optimal' if exact else 'an upper bound, not proved optimal'})"
    typer.echo(line + f" ({outcome.backend}, {outcome.seconds:.3f} s, {verdict(outcome)})")
    if outcome.status == "solved":
        for i, step in enumerate(outcome.witness, 1):
            typer.echo(f"  step {i}: " + " ".join(f"{u}-{v}" for u, v in step))
    if "proof" in outcome.stats:
        typer.echo(f"  proof: {outcome.stats['proof']}")
    report_error(outcome)
    raise typer.Exit(exit_code([outcome]))


@app.command()
def number(
    graph: str = GRAPH,
    moves: Moves = typer.Option(
        Moves.matching, "--moves", "-m", help="Move rule (matching: rt(G); swap: token swapping)."
    ),
    time_limit: float = TIME_LIMIT,
    fmt: GraphFormat = FORMAT,
    json: bool = JSON,
) -> None:
    """rt(G) exactly (the worst arrangement's optimum), by BFS over every arrangement."""
    from pyasp_games.engines.limits import LimitReached
    from pyasp_games.routing.model import Instance
    from pyasp_games.routing.native import routing_number, schedule_names
    from pyasp_games.routing.verify import verify_schedule

    if moves is Moves.blank:
        raise InputError(
            "routing number takes --moves matching or swap (for blank see 'routing check')"
        )
    g = _graph(graph, fmt)
    lim = limits(time_limit)
    if len(g) > 10:
        raise InputError(
            f"{g.name}: {len(g)} vertices: the exhaustive search takes {len(g)}! arrangements (at most 10 vertices)"
        )
    try:
        result = routing_number(g, moves.value, lim.deadline())
    except LimitReached:
        if json:
            print_json({"problem": g.name, "status": "unknown", "moves": moves.value})
        else:
            typer.echo(f"{g.name}: unknown (time limit reached)")
        raise typer.Exit(3) from None
    inst = Instance(g, result.worst, moves.value, None, g.name)
    schedule = schedule_names(g, result.schedule)
    check = verify_schedule(
        [(g.names[u], g.names[v]) for u, v in g.edges],
        {g.names[v]: g.names[t] for v, t in enumerate(inst.state)},
        moves.value,
        schedule,
    )
    worst = {g.names[v]: g.names[t] for v, t in enumerate(result.worst) if v != t}
    if json:
        print_json(
            {
                "problem": g.name,
                "status": "solved",
                "moves": moves.value,
                "answer": result.value,
                "worst": worst,
                "schedule": schedule,
                "arrangements": result.arrangements,
                "verified": check.ok,
            }
        )
    else:
        what = "rt(G)" if moves is Moves.matching else "token-swapping maximum"
        typer.echo(
            f"{g.name}: {what} = {result.value} (BFS over all {result.arrangements:,} arrangements; witness schedule {'verified' if check.ok else 'FAILED verification'})"
        )
        typer.echo("  worst arrangement: " + " ".join(f"{u}->{v}" for u, v in worst.items()))
        for i, step in enumerate(schedule, 1):
            typer.echo(f"  step {i}: " + " ".join(f"{u}-{v}" for u, v in step))
    raise typer.Exit(0 if check.ok else 1)


@app.command()
def check(
    graph: str = GRAPH,
    arrangement: Path = ARRANGEMENT,
    random_seed: int = typer.Option(
        None, "--random", help="A random arrangement from this seed instead of a file."
    ),
    time_limit: float = TIME_LIMIT,
    fmt: GraphFormat = FORMAT,
    json: bool = JSON,
) -> None:
    """Is the sliding (blank) arrangement solvable? Wilson's theorem with its reason, else complete search."""
    from pyasp_games.routing.native import blank_solvability

    inst = _instance(graph, arrangement, Moves.blank, fmt, random_seed)
    result = blank_solvability(inst, limits(time_limit).deadline())
    word = {True: "solvable", False: "unsolvable", None: "unknown"}[result.solvable]
    if json:
        print_json({"problem": inst.name, "solvable": result.solvable, "reason": result.reason})
    else:
        typer.echo(f"{inst.name}: {word}: {result.reason}")
    raise typer.Exit(3 if result.solvable is None else 0)


@app.command()
def generate(
    spec: str = typer.Argument(..., help="A graph spec, e.g. grid:3x3, cycle:6, random:10:4."),
    output: Path = typer.Option(
        None, "--output", "-o", help="Write the edge list here (default: stdout)."
    ),
    arrangement: Path = typer.Option(
        None, "--arrangement", help="Also write a random arrangement here."
    ),
    seed: int = typer.Option(0, "--seed", help="Seed of the random arrangement."),
    moves: Moves = typer.Option(
        Moves.matching, "--moves", "-m", help="Move rule of the arrangement."
    ),
    force: bool = typer.Option(False, "--force", help="Overwrite existing files."),
) -> None:
    """Write a generated graph (and optionally a random arrangement for it)."""
    from pyasp_games.routing.model import graph_spec

    g = graph_spec(spec)
    new_file(output, force, "--output")
    new_file(arrangement, force, "--arrangement")
    if output is None:
        typer.echo(g.format_edges(), nl=False)
    else:
        output.write_text(g.format_edges())
    if arrangement is not None:
        inst = _instance(spec, None, moves, None, seed)
        arrangement.write_text(inst.format_arrangement())
