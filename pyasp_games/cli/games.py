"""``pyasp-games games``: Nim, subtraction games and Grundy's game, its commands generated
from :data:`pyasp_games.domains.grundy.questions.GAMES`.

``pyasp-games games nim HEAPS...|subtraction --moves M --upto N|grundys-game --upto N``.
"""

from __future__ import annotations

import typer

from pyasp_games.cli.questions import add_questions
from pyasp_games.domains import questions_of

app = typer.Typer(
    help="Classic impartial games: Nim, subtraction games, Grundy's game.", no_args_is_help=True
)
add_questions(app, questions_of("games"))
