"""``pyasp-games geography``: Generalized Geography (vertex/edge, directed/undirected), its
questions generated from :data:`pyasp_games.domains.geography.questions.QUESTIONS`.

``pyasp-games geography solve GRAPH [--start S] --backend native|asp|matching [--json]``;
``geography play GRAPH`` plays against you; ``qbf_to_geography`` is the conversion
``pyasp-games reduce qbf-to-geography`` runs.
"""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Any

import typer

from pyasp_games.cli.common import (
    FORCE,
    JSON,
    OUTPUT,
    TIME_LIMIT,
    answered,
    new_file,
    print_json,
    write_output,
)
from pyasp_games.cli.questions import domain_group, input_command
from pyasp_games.domains.geography.model import VARIANTS, Geography
from pyasp_games.domains.geography.questions import SOLVE, read_game

#: The domain's questions (generated), and below the commands that are none.
app = domain_group("geography")

#: The Geography variants (:data:`pyasp_games.domains.geography.model.VARIANTS`) as choices.
Variant = StrEnum("Variant", {v: v for v in VARIANTS})


def qbf_to_geography(
    qbf: Path = typer.Argument(
        ..., help="A QDIMACS file: 'p cnf V C', quantifier lines 'e ... 0'/'a ... 0', clauses."
    ),
    output: Path = typer.Option(
        None, "--output", "-o", help="Write the graph here (default: stdout)."
    ),
    variant: Variant = typer.Option(
        "vertex", "--variant", help="The Geography variant the graph is built for."
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

    from pyasp_games.domains.geography.tqbf import read_qdimacs, to_geography

    new_file(output, force, "--output")
    graph = to_geography(read_qdimacs(qbf), Variant(variant).value)
    text = graph.format_arcs()
    if output is not None:
        write_output(text, output)
    if json:
        print_json({**graph.headers, "qbf": str(qbf), "vertices": list(graph.names),
                    "arcs": [[graph.names[u], graph.names[v]] for u, v in graph.arcs()],
                    "output": None if output is None else str(output)})  # fmt: skip
    elif output is None:
        sys.stdout.write(text)


def planarize(
    graph: Path = typer.Argument(
        ..., help="A vertex-geography graph (arc list with '# start:', or .adjlist, .graphml, .json)."
    ),
    start: str = typer.Option(None, "--start", "-s", help="The start vertex (default: the file's '# start:')."),
    undirected: bool = typer.Option(False, "--undirected", help="Every line 'u v' is an edge usable both ways."),
    output: Path = OUTPUT,
    force: bool = FORCE,
    time_limit: float = TIME_LIMIT,
    json: bool = JSON,
) -> None:
    """Redraw the game as a planar digraph with the same winner (the notes' planar Geography).

    Crossing arcs are replaced by a crossing gadget; the winner is kept exactly when no play
    from the start uses both arcs of a crossing (no gadget can carry two passages), which is
    checked for every crossing of the drawing by exhaustive search, and the drawing avoids
    the others. A digraph whose every drawing tried needs such a crossing is refused (exit
    3), with a play that uses both arcs.
    Vertex geography on a digraph (an undirected graph is read as both arcs of every edge).
    """
    from pyasp_games.domains.geography.planar import UnsafeCrossing
    from pyasp_games.domains.geography.planar import planarize as redraw
    from pyasp_games.engines.enforcement import arm
    from pyasp_games.engines.limits import Limits
    from pyasp_games.errors import InputError

    limits = Limits.given(time_limit)
    new_file(output, force, "--output")
    game = read_game(graph, start, None, undirected)
    if game.variant != "vertex":
        raise InputError(
            f"{game.name}: planarize keeps the winner of vertex geography; edge geography "
            "needs another gadget (its arcs, not its vertices, are used up)"
        )
    arm(limits)
    try:
        planar = redraw(game.graph if game.directed else _both_ways(game), game.names[game.start],
                        limits.deadline())
    except UnsafeCrossing as refused:
        if json:
            print_json({"graph": str(graph), "status": "unknown", "planar": None,
                        "unsafe_crossing": [list(refused.arcs[0]), list(refused.arcs[1])],
                        "play": refused.play})  # fmt: skip
        typer.echo(f"not planarized: {refused}", err=True)
        raise typer.Exit(3) from None
    answered()
    if not planar.planar_output:  # the gadgets are planar by construction: a bug if not
        raise RuntimeError(f"{game.name}: the redrawn graph is not planar")
    text = planar.graph.format_arcs()
    if output is not None:
        write_output(text, output)
    summary = (
        "already planar: no crossing" if planar.planar_input else
        f"{planar.crossings} crossings replaced by gadgets, each safe (no play from "
        f"{planar.start} uses both of its arcs; {planar.search_nodes:,} search nodes)"
    )
    if json:
        print_json({"graph": str(graph), "status": "solved", "planar": True,
                    "winner_preserved": True, "start": planar.start,
                    "vertices": len(planar.graph), "arcs": planar.graph.arc_count,
                    "crossings": [[list(c.first), list(c.second)] for c in planar.crossing_list],
                    "dropped_vertices": planar.dropped_vertices, "dropped_arcs": planar.dropped_arcs,
                    "search_nodes": planar.search_nodes,
                    "output": None if output is None else str(output),
                    **({} if output is not None else {"arcs": [[planar.graph.names[u],
                       planar.graph.names[v]] for u, v in planar.graph.arcs()]})})  # fmt: skip
    else:
        if output is None:
            sys.stdout.write(text)
        typer.echo(
            f"planar ({len(planar.graph)} vertices, {planar.graph.arc_count} arcs; checked), "
            f"same winner (proved): {summary}"
            + (f"; {planar.dropped_vertices} vertices and {planar.dropped_arcs} arcs no play "
               "can use dropped" if planar.dropped_vertices or planar.dropped_arcs else ""),
            err=True,
        )


def _both_ways(game: Geography) -> Any:
    from pyasp_games.engines.graphs import from_arcs

    g = game.graph
    arcs = [(g.names[u], g.names[v]) for u, v in g.arcs()]
    return from_arcs(arcs + [(v, u) for u, v in arcs], g.names, name=g.name, headers=g.headers)


app.command("planarize")(planarize)


def _play(game: Geography) -> None:
    from pyasp_games.domains.geography.play import play

    play(game, lambda: input("your move> "), typer.echo)


app.command(
    "play",
    help="Play against the solver in the terminal; it takes the winning side when there is "
    "one.\n\nType the name of the vertex to move the token to ('quit' or end of input to "
    "stop).",
)(input_command(SOLVE, _play))
