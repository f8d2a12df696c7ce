"""``pyasp-games grundy``: Grundy values, sums, existence, kernels and loopy games on graphs,
its commands generated from :data:`pyasp_games.grundy.questions.QUESTIONS`.

``pyasp-games grundy values|sum|exists|kernel|loopy ... [--json]``.
"""

from __future__ import annotations

import typer

from pyasp_games.cli.questions import add_questions
from pyasp_games.grundy.questions import QUESTIONS

app = typer.Typer(
    help="Impartial games on graphs: Grundy values, sums, loopy graphs, existence, kernels.",
    no_args_is_help=True,
)
add_questions(app, QUESTIONS)
