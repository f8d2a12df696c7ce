"""``pyasp-games geography``: Generalized Geography (vertex/edge, directed/undirected), its
questions generated from :data:`pyasp_games.domains.geography.questions.QUESTIONS`.

``pyasp-games geography solve GRAPH [--start S] --backend native|asp|matching [--json]``;
``geography play GRAPH`` plays against you; ``qbf_to_geography`` is the conversion
``pyasp-games reduce qbf-to-geography`` runs.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path

import typer

from pyasp_games.cli.common import new_file, print_json, write_output
from pyasp_games.cli.questions import domain_group, input_command
from pyasp_games.domains.geography.model import VARIANTS, Geography
from pyasp_games.domains.geography.questions import SOLVE

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


def _play(game: Geography) -> None:
    from pyasp_games.domains.geography.play import play

    play(game, lambda: input("your move> "), typer.echo)


app.command(
    "play",
    help="Play against the solver in the terminal; it takes the winning side when there is "
    "one.\n\nType the name of the vertex to move the token to ('quit' or end of input to "
    "stop).",
)(input_command(SOLVE, _play))
