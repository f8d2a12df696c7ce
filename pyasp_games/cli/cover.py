"""``pyasp-games cover``: exact cover (X3C and 3DM), its commands generated from
:data:`pyasp_games.cover.questions.QUESTIONS`.

``pyasp-games cover solve FILE --backend dlx|asp|sat|bitset [--all|--count] [--json]``.
"""

from __future__ import annotations

import typer

from pyasp_games.cli.questions import add_questions
from pyasp_games.cover.questions import QUESTIONS

app = typer.Typer(
    help="Exact cover by 3-sets (X3C) and 3-dimensional matching (3DM).", no_args_is_help=True
)
add_questions(app, QUESTIONS)
