"""``pyasp-games routing``: route pebble permutations on graphs (matchings, swaps, a blank),
its questions generated from :data:`pyasp_games.domains.routing.questions.QUESTIONS`.

``routing solve GRAPH [ARRANGEMENT | --random SEED] --backend native|bfs|asp|sat|...``,
``routing number GRAPH [-m swap]``, ``routing check GRAPH ARRANGEMENT``; ``routing
generate SPEC`` writes a generated graph (and a random arrangement) to files.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path

import typer

from pyasp_games.cli.common import new_file, output_option, write_output
from pyasp_games.cli.questions import domain_group
from pyasp_games.domains.routing.model import MOVES

#: The domain's questions (generated), and below the commands that are none.
app = domain_group("routing")

#: The move rules (:data:`pyasp_games.domains.routing.model.MOVES`) as choices.
Moves = StrEnum("Moves", {m: m for m in MOVES})


@app.command()
def generate(
    spec: str = typer.Argument(..., help="A graph spec, e.g. grid:3x3, cycle:6, random:10:4."),
    output: Path = output_option("Write the edge list here (default: stdout)."),
    arrangement: Path = typer.Option(
        None, "--arrangement", help="Also write a random arrangement here."
    ),
    seed: int = typer.Option(0, "--seed", help="Seed of the random arrangement."),
    moves: Moves = typer.Option("matching", "--moves", "-m", help="Move rule of the arrangement."),
    force: bool = typer.Option(False, "--force", help="Overwrite existing files."),
) -> None:
    """Write a generated graph (and optionally a random arrangement for it)."""
    from pyasp_games.domains.routing.model import random_arrangement
    from pyasp_games.domains.routing.specs import graph_spec
    from pyasp_games.errors import checked_int

    checked_int(seed, "--seed")  # random.Random(-s) is random.Random(s): another seed's arrangement
    g = graph_spec(spec)
    new_file(output, force, "--output")
    new_file(arrangement, force, "--arrangement")
    write_output(g.format_arcs(), output)
    if arrangement is not None:
        inst = random_arrangement(g, seed, Moves(moves).value)
        write_output(inst.format_arrangement(), arrangement)
