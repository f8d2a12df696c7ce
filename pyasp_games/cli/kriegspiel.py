"""``pyasp-games kriegspiel``: Kriegspiel endings (KRK), White against an unseen king.

``pyasp-games kriegspiel solve METAPOSITION [--max-moves N] [--json]`` (generated from
:data:`pyasp_games.kriegspiel.questions.QUESTIONS`); ``kriegspiel show METAPOSITION``
prints one as a board.
"""

from __future__ import annotations

import typer

from pyasp_games.cli.common import JSON, print_json
from pyasp_games.cli.questions import add_questions
from pyasp_games.kriegspiel.questions import QUESTIONS

app = typer.Typer(
    help="Kriegspiel endings: forced mates against a king White cannot see.",
    no_args_is_help=True,
)
add_questions(app, QUESTIONS)


@app.command("show")
def show(
    metaposition: str = typer.Argument(
        ..., help="A metaposition: a file (diagram) or the one-line form ('4/4/1R2/K3 unknown')."
    ),
    json: bool = JSON,
) -> None:
    """Print a metaposition as a board (White's men, '?' where the black king may be)."""
    from pyasp_games.kriegspiel.model import load_metaposition, square_name

    m = load_metaposition(metaposition)
    if json:
        board = m.board
        print_json({
            "board": board.label, "ending": m.ending, "king": square_name(board, m.king),
            "piece": square_name(board, m.piece_square),
            "black_king": [square_name(board, s) for s in board.squares(m.belief)],
            "fen": m.fen(),
        })  # fmt: skip
        return
    typer.echo(m.describe())
    typer.echo(m.diagram())
    typer.echo(m.fen())
