"""``pyasp-games zerosum``: two-person zero-sum games, solved exactly with a checked certificate.

The domain's questions are generated (:func:`~pyasp_games.cli.questions.domain_group`);
``generate`` and ``normal-form`` write files: ``pyasp-games zerosum normal-form TREE
[-o FILE]``.

>>> "normal-form" in typer.main.get_command(app).commands
True
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path

import typer

from pyasp_games.cli.common import FORCE, OUTPUT, new_file, write_output
from pyasp_games.cli.questions import domain_group
from pyasp_games.domains.zerosum.generate import FAMILIES, FORMATS

#: The domain's questions (generated), and below the commands that are none.
app = domain_group("zerosum")


#: The choices of ``generate``: the library's families and formats.
Family = StrEnum("Family", {name: name for name in FAMILIES})
Format = StrEnum("Format", {name: name for name in FORMATS})

FORMAT = typer.Option(
    Format.text,
    "--format",
    help="text: a text matrix, a tree as JSON; nfg: Gambit's strategic form (a tree: its "
    "normal form); efg: Gambit's extensive form (a matrix: I moves, then II without "
    "seeing it).",
)


@app.command()
def generate(
    family: Family = typer.Argument(..., help="kuhn (k cards), leduc, or a random matrix."),
    cards: int = typer.Option(3, "--cards", help="kuhn: the number of cards."),
    size: int = typer.Option(10, "--size", help="matrix: rows and columns."),
    low: int = typer.Option(-100, "--low", help="matrix: the smallest entry."),
    high: int = typer.Option(100, "--high", help="matrix: the largest entry."),
    seed: int = typer.Option(0, "--seed", help="matrix: the random seed."),
    fmt: Format = FORMAT,
    output: Path = OUTPUT,
    force: bool = FORCE,
) -> None:
    """Write a game: Kuhn poker or Leduc hold'em as a tree, or a random matrix game."""
    from pyasp_games.domains.zerosum.generate import generate_text
    from pyasp_games.errors import checked_int

    checked_int(seed, "--seed")  # random.Random(-s) is random.Random(s): another seed's game
    new_file(output, force, "--output")
    write_output(generate_text(family.value, cards, size, low, high, seed, fmt.value), output)


@app.command("normal-form")
def normal_form_command(
    file: Path = typer.Argument(
        ...,
        help='A game tree: Gambit\'s .efg (two players, zero-sum) or JSON {"root": NODE} '
        '(leaves {"payoff": x}, chance {"chance": {"label": {"p": "1/2", "next": NODE}}}, '
        'moves {"player": 1, "infoset": "J", "moves": {"bet": NODE}}).',
    ),
    reduced: bool = typer.Option(False, "--reduced", help="The reduced normal form."),
    fmt: Format = FORMAT,
    output: Path = OUTPUT,
    force: bool = FORCE,
) -> None:
    """A game tree's (reduced) normal form as a matrix (strategies named set:action)."""
    from pyasp_games.domains.zerosum.generate import normal_form_text

    new_file(output, force, "--output")
    write_output(normal_form_text(file, reduced, fmt.value), output)
