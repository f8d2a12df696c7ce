"""``pyasp-games cops``: Cops and Robbers, its questions generated from
:data:`pyasp_games.domains.cops.questions.QUESTIONS`.

``pyasp-games cops solve GRAPH --cops V1,V2 --robber V [--variant classic|notes]``;
``cops number GRAPH``; ``cops play GRAPH --cops ... --robber ...`` plays against you.
"""

from __future__ import annotations

import typer

from pyasp_games.cli.questions import domain_group, input_command
from pyasp_games.domains.cops.model import CopsGame
from pyasp_games.domains.cops.questions import SOLVE

#: The domain's questions (generated), and below the command that is none.
app = domain_group("cops")


def _play(game: CopsGame) -> None:
    from pyasp_games.domains.cops.play import play

    play(game, lambda: input("your move> "), typer.echo)


app.command(
    "play",
    help="Play against the solver in the terminal (small graphs); it takes the winning "
    "side.\n\nType the robber's next vertex; the cops' new vertices (classic rules, one per "
    "cop); or the cop to move and where (the notes' rules). 'quit' or end of input stops.",
)(input_command(SOLVE, _play))
