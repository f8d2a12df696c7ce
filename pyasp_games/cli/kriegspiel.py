"""``pyasp-games kriegspiel``: Kriegspiel endings (KRK), White against an unseen king.

``pyasp-games kriegspiel solve METAPOSITION [--max-moves N] [--json]`` and ``kriegspiel
table --board RxC`` (generated from :data:`pyasp_games.domains.kriegspiel.questions.QUESTIONS`);
``kriegspiel show METAPOSITION`` prints one as a board; ``kriegspiel play METAPOSITION``
plays a refereed game in the terminal.
"""

from __future__ import annotations

import typer

from pyasp_games.cli.common import JSON, MEMORY_LIMIT, print_json
from pyasp_games.cli.questions import domain_group

#: The domain's questions (generated), and below the commands that are none.
app = domain_group("kriegspiel")


@app.command("show")
def show(
    metaposition: str = typer.Argument(
        ..., help="A metaposition: a file (diagram) or the one-line form ('4/4/1R2/K3 unknown')."
    ),
    json: bool = JSON,
) -> None:
    """Print a metaposition as a board (White's men, '?' where the black king may be)."""
    from pyasp_games.domains.kriegspiel.model import load_metaposition, square_name

    m = load_metaposition(metaposition)
    if json:
        board = m.board
        print_json({
            "board": board.label, "ending": m.ending, "king": square_name(board, m.king),
            "pieces": [f"{letter}{square_name(board, s)}" for letter, s in zip(m.piece, m.squares_of_pieces, strict=True)],
            **({"piece": square_name(board, m.piece_square)} if len(m.piece) == 1 else {}),
            "black_king": [square_name(board, s) for s in board.squares(m.belief)],
            "fen": m.fen(),
        })  # fmt: skip
        return
    typer.echo(m.describe())
    typer.echo(m.diagram())
    typer.echo(m.fen())


@app.command("play")
def play(
    metaposition: str = typer.Argument(
        ..., help="A metaposition: a file (diagram) or the one-line form ('4/4/1R2/K3 unknown')."
    ),
    side: str = typer.Option(
        "black", "--side", help="black: you play Black against the engine; white: you play White."
    ),
    seed: int = typer.Option(0, "--seed", help="white: how Black's king is placed and moves."),
    time_limit: float = typer.Option(
        None, "--time-limit", help="black: seconds the engine may take to solve before the "
        "game (not your thinking time); reaching it: exit 3.",
    ),
    memory_limit: float = MEMORY_LIMIT,
) -> None:
    """Play a refereed game: as Black against the engine's optimal strategy, or as White
    (the referee's answers printed). Type squares (a3) or attempts, the man and its target
    square (the game's first line names two you can play); 'quit' stops, and the end of
    the input abandons the game."""
    from pyasp_games.domains.kriegspiel.model import load_metaposition
    from pyasp_games.domains.kriegspiel.play import play as run
    from pyasp_games.engines.enforcement import arm
    from pyasp_games.engines.limits import Limits
    from pyasp_games.errors import InputError, checked_int

    if side not in ("black", "white"):
        raise InputError(f"--side is black or white, got {side!r}")
    checked_int(seed, "--seed")  # random.Random(-s) is random.Random(s): another seed's game
    limits = Limits.given(time_limit, memory_megabytes=memory_limit)
    arm(limits, whole_command=False)  # the engine's solve is limited, not the game
    m = load_metaposition(metaposition)
    if run(m, side, input, typer.echo, seed, limits) == "unknown":
        raise typer.Exit(3)
