"""``pyasp-games hex``: Hex positions solved with proofs, its questions generated from
:data:`pyasp_games.domains.hex.questions.QUESTIONS`.

``pyasp-games hex solve POSITION [--json]``; ``hex openings --board NxN``; ``hex show
POSITION`` prints a position; ``hex play POSITION`` plays against you; ``hex picture MAP
-o FILE`` draws a map of openings (the JSON ``hex openings --json`` writes) as SVG or PNG.
"""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from pyasp_games.cli.common import new_file, print_json
from pyasp_games.cli.questions import domain_group, input_command
from pyasp_games.domains.hex.model import Hex
from pyasp_games.domains.hex.play import check_playable
from pyasp_games.domains.hex.questions import SOLVE
from pyasp_games.errors import InputError

#: The domain's questions (generated), and below the commands that are none.
app = domain_group("hex")


def _show(game: Hex, json: bool = False) -> None:
    from pyasp_games.domains.hex.play import show

    if json:
        print_json({
            "position": game.describe(), "board": [game.rows, game.cols] if game.is_board else None,
            "terminals": list(game.terminals) if game.terminals else None,
            "one_line": game.one_line(), "to_move": game.to_move,
            "black": game.stones_of("B"), "white": game.stones_of("W"),
            "empty": [game.cells[i] for i in game.empty()],
        })  # fmt: skip
        return
    sys.stdout.write(show(game))


def _play(game: Hex) -> None:
    from pyasp_games.domains.hex.play import play

    check_playable(game)
    play(game, lambda: input("your move> "), typer.echo)


app.command("show", help="Print a position: its diagram, one-line form and player to move.")(
    input_command(SOLVE, _show, json=True)
)
app.command(
    "play",
    help="Play against the solver in the terminal (boards of up to 25 cells, 5 x 5); it takes "
    "the winning side.\n\n"
    "Type a cell such as b2 ('quit' or end of input to stop).",
)(input_command(SOLVE, _play))


@app.command("picture")
def picture(
    openings: Path = typer.Argument(..., help="The JSON of 'hex openings --board NxN --json'."),
    output: Path = typer.Option(..., "--output", "-o", help="The picture to write (.svg or .png)."),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing output file."),
) -> None:
    """Draw a map of openings (dark cells: Black's opening there wins) as SVG or PNG."""
    from pyasp_games.domains.hex.model import parse_position
    from pyasp_games.domains.hex.plot import openings_picture
    from pyasp_games.engines.files import cannot_write, checked_suffix, read_json

    checked_suffix(output, (".svg", ".png"), "picture")
    new_file(output, force, "--output")
    data = read_json(openings)
    answer = data.get("answer") if isinstance(data, dict) else None
    if not isinstance(answer, dict) or not answer:
        raise InputError(f"{openings}: not the JSON of 'hex openings' (no answer map)")
    size = data.get("problem", "")
    game = parse_position(size) if isinstance(size, str) and size[:1].isdigit() else None
    if game is None or set(answer) != set(game.cells):
        raise InputError(f"{openings}: the map does not fit the board {size!r}")
    picture_bytes = openings_picture(game, answer, output.suffix[1:].lower())
    try:
        output.write_bytes(picture_bytes)
    except OSError as err:
        raise cannot_write(output, err) from None
