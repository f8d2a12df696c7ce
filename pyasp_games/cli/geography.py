"""``pyasp-games geography``: Generalized Geography (vertex/edge, directed/undirected)."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path

import typer

from pyasp_games.cli.common import (
    JSON,
    MEMORY_LIMIT,
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
    help="Generalized Geography: who wins, a winning first move, a line of play.",
    no_args_is_help=True,
)


class Backend(StrEnum):
    native = "native"
    asp = "asp"
    matching = "matching"


class Variant(StrEnum):
    vertex = "vertex"
    edge = "edge"


@app.command()
def solve(
    graph: Path = typer.Argument(
        ..., help="A graph: arc list 'u v' per line (default), .adjlist, .graphml or .json."
    ),
    start: str = typer.Option(
        None, "--start", "-s", help="The start vertex (default: the file's '# start:' line)."
    ),
    variant: Variant = typer.Option(
        None, "--variant", help="vertex (no vertex twice) or edge (no edge twice); default vertex."
    ),
    undirected: bool = typer.Option(
        False, "--undirected", help="Every line 'u v' is an edge usable both ways."
    ),
    backend: Backend = typer.Option(Backend.native, "--backend", "-b", help="Which solver."),
    line: bool = typer.Option(
        False, "--line", help="native: also show a line of play (the winner's strategy)."
    ),
    emit_lp: Path = typer.Option(
        None, "--emit-lp", help="asp: write the facts to run clingo by hand."
    ),
    force: bool = typer.Option(False, "--force", help="Overwrite the --emit-lp file."),
    fmt: GraphFormat = typer.Option(
        None, "--format", help="Graph file format (default: by extension)."
    ),
    time_limit: float = TIME_LIMIT,
    memory_limit: float = MEMORY_LIMIT,
    json: bool = JSON,
) -> None:
    """Who wins from START: the player to move there ("first") or the other ("second")."""
    from pyasp_games.geography import solve as run
    from pyasp_games.geography.asp import write_lp
    from pyasp_games.geography.matching import applies
    from pyasp_games.geography.model import load_instance

    if line and backend is not Backend.native:
        raise InputError("--line applies to --backend native only")
    if emit_lp is not None and backend is not Backend.asp:
        raise InputError("--emit-lp applies to --backend asp only")
    lim = limits(time_limit, memory_limit=memory_limit)
    game = load_instance(
        graph,
        start,
        variant.value if variant else None,
        True if undirected else None,
        fmt.value if fmt else None,
    )
    if backend is Backend.matching and not applies(game):
        raise InputError(
            "the matching backend answers undirected vertex geography only "
            "(give --undirected and --variant vertex)"
        )
    new_file(emit_lp, force, "--emit-lp")
    if emit_lp is not None:
        write_lp(game, emit_lp)
    options = {"line": True} if line else {}
    outcome = run(game, backend.value, lim, **options)
    if json:
        print_json(outcome.to_dict())
        raise typer.Exit(exit_code([outcome]))
    typer.echo(
        f"{outcome.problem}: {outcome.status} ({outcome.backend}, {outcome.seconds:.3f} s, "
        f"{verdict(outcome, 'not verified')})"
    )
    if outcome.status == "solved":
        typer.echo(f"  {game.describe()}")
        if outcome.answer == "first":
            move = outcome.witness
            shown = move if isinstance(move, str) else " -> ".join(move)
            typer.echo(f"  the first player (to move) wins; winning move: {shown}")
        else:
            typer.echo("  the second player wins (every first move loses)")
        if "line" in outcome.stats:
            typer.echo(f"  line of play: {' '.join(outcome.stats['line'])}")
    report_error(outcome)
    raise typer.Exit(exit_code([outcome]))


def qbf_to_geography(
    qbf: Path = typer.Argument(
        ..., help="A QDIMACS file: 'p cnf V C', quantifier lines 'e ... 0'/'a ... 0', clauses."
    ),
    output: Path = typer.Option(
        None, "--output", "-o", help="Write the graph here (default: stdout)."
    ),
    variant: Variant = typer.Option(
        Variant.vertex, "--variant", help="The Geography variant the graph is built for."
    ),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing output file."),
    json: bool = typer.Option(
        False, "--json", help="Print the graph as one JSON object (-o still gets the arc list)."
    ),
) -> None:
    """The TQBF -> Geography construction (Schaefer): the first player wins iff the QBF is true.

    The graph is an arc list whose header names the start vertex and the variant, so
    `pyasp-games geography solve GRAPH` answers it directly. (A decision reduction:
    there is no solution to map back, hence no --map.)
    """
    import sys

    from pyasp_games.geography.tqbf import read_qdimacs, to_geography

    new_file(output, force, "--output")
    graph = to_geography(read_qdimacs(qbf), variant.value)
    text = graph.format_arcs()
    if output is not None:
        output.write_text(text)
    if json:
        print_json({**graph.headers, "qbf": str(qbf), "vertices": list(graph.names),
                    "arcs": [[graph.names[u], graph.names[v]] for u, v in graph.arcs()],
                    "output": None if output is None else str(output)})  # fmt: skip
    elif output is None:
        sys.stdout.write(text)


@app.command()
def play(
    graph: Path = typer.Argument(..., help="A graph file (as for solve)."),
    start: str = typer.Option(
        None, "--start", "-s", help="The start vertex (default: the file's '# start:' line)."
    ),
    variant: Variant = typer.Option(None, "--variant", help="vertex or edge (default vertex)."),
    undirected: bool = typer.Option(
        False, "--undirected", help="Every line 'u v' is an edge usable both ways."
    ),
    fmt: GraphFormat = typer.Option(
        None, "--format", help="Graph file format (default: by extension)."
    ),
) -> None:
    """Play against the solver in the terminal; it takes the winning side when there is one.

    Type the name of the vertex to move the token to ('quit' or end of input to stop).
    """
    from pyasp_games.geography.model import load_instance
    from pyasp_games.geography.native import Player

    game = load_instance(
        graph,
        start,
        variant.value if variant else None,
        True if undirected else None,
        fmt.value if fmt else None,
    )
    solver = Player(game)
    names = game.names
    v, used = solver.start()
    solver_first = solver.wins(v, used)
    typer.echo(f"{game.describe()}: the token is on {names[v]}.")
    typer.echo(
        "I move first (the first player wins here)."
        if solver_first
        else "You move first (the second player wins here)."
    )
    solver_to_move = solver_first
    while True:
        options = solver.legal(v, used)
        if not options:
            loser = "I" if solver_to_move else "you"
            typer.echo(f"No move from {names[v]}: {loser} cannot move, so {loser} lose.")
            if solver_to_move:
                typer.echo("You win.")
            raise typer.Exit(0)
        if solver_to_move:
            v, used = solver.reply(v, used)  # type: ignore[misc]
            typer.echo(f"I move to {names[v]}.")
        else:
            choices = ", ".join(names[w] for w in sorted(options))
            typer.echo(f"Token on {names[v]}; your moves: {choices}")
            try:
                text = input("your move> ").strip()
            except EOFError:
                typer.echo("\nend of input: game abandoned")
                raise typer.Exit(0) from None
            if text in ("quit", "q", "exit"):
                typer.echo("game abandoned")
                raise typer.Exit(0)
            w = game.graph.index.get(text)
            if w is None or w not in options:
                why = "no vertex of that name" if w is None else "not a legal move from here"
                typer.echo(f"{text!r}: {why}; choose one of: {choices}")
                continue
            v, used = w, options[w]
        solver_to_move = not solver_to_move
