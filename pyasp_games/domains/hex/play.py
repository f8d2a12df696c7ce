"""Play Hex against the solver (``pyasp-games hex play``), and show a position.

The solver (the native search, :class:`~pyasp_games.domains.hex.native.Engine`, whose
table lasts the whole game) takes the winning side when there is one and plays its
winning moves; the human types cell names. Input and output are callbacks, so the loop
runs in a terminal or a test alike.

>>> from pyasp_games.domains.hex.model import parse_position
>>> said = []
>>> play(parse_position("2x2"), iter(["zz", "a2"]).__next__, said.append)
>>> said[1]
'I play black (the player to move wins here).'
>>> said[-1]
'I have won.'
"""

from __future__ import annotations

from collections.abc import Callable

from pyasp_games.domains.hex.model import PLAYERS, Hex, format_diagram, other
from pyasp_games.domains.hex.native import Engine, _stones

#: What ends the game when typed as a move.
QUIT = ("quit", "q", "exit")
#: The largest board ``play`` takes, in cells: 5 x 5 (or 4 x 6, ...), whose whole map of
#: openings the search proves in a few seconds (docs/hex.md); 6 x 6 openings take up to
#: minutes each. Graph Hex, searched without the compiled kernels: at most
#: :data:`MAX_EMPTY` empty cells.
MAX_CELLS = 25
MAX_EMPTY = 16


def check_playable(game: Hex) -> None:
    """:class:`InputError` in one line for a position ``play`` does not take (too large
    for the solver to answer each move at once)."""
    from pyasp_games.errors import InputError

    if game.is_board and len(game) > MAX_CELLS:
        raise InputError(f"a {game.rows} x {game.cols} board: play takes boards of at most "
                         f"{MAX_CELLS} cells (5 x 5), where the solver answers at once")  # fmt: skip
    if not game.is_board and len(game.empty()) > MAX_EMPTY:
        raise InputError(f"{len(game.empty())} empty cells: play takes graph Hex with at most {MAX_EMPTY}")


def show(game: Hex) -> str:
    """A position as text: the diagram, its one-line form, and who is to move."""
    head = f"{game.describe()}\n"
    if game.is_board:
        return head + format_diagram(game) + f"one line: {game.one_line()}\n"
    return head + format_diagram(game)


def play(game: Hex, read_move: Callable[[], str], say: Callable[[str], None]) -> None:
    """One game from ``game``: ``read_move()`` gives the human's next cell (raising
    :class:`EOFError` or :class:`StopIteration` at the end of input); ``say`` prints."""
    engine = Engine(game)
    black, white = _stones(game)
    player = game.to_move
    mine = player if engine.wins(black, white, player) else other(player)
    say(game.describe())
    say(f"I play {PLAYERS[mine]} (the player {'to move' if mine == player else 'not to move'} wins here).")
    while True:
        current = game.__class__(game.cells, game.neighbours, game.sides,
                                 tuple("B" if black >> i & 1 else "W" if white >> i & 1 else "."
                                       for i in range(len(game))),
                                 game.rows, game.cols, game.terminals, game.joined, game.name)
        for p in "BW":
            if engine.won(p, black, white):
                say(format_diagram(current).rstrip("\n"))  # the final board
                say("I have won." if p == mine else "You have won.")
                return
        if player == mine:
            move = engine.entry(black, white, player).move
            if move is None:  # a lost position (the human left the winning line? never) or won
                move = current.empty()[0]
            say(f"I play {game.cells[move]}.")
        else:
            say(format_diagram(current).rstrip("\n"))
            try:
                text = read_move().strip()
            except (EOFError, StopIteration):
                say("end of input: game abandoned")
                return
            if text.lower() in QUIT:
                say("game abandoned")
                return
            move = game.index.get(text)
            if move is None and game.is_board:  # a board's cells in any case: A1 is a1
                move = game.index.get(text.lower())
            if move is None or current.stones[move] != ".":
                why = "no cell of that name" if move is None else "not empty"
                say(f"{text!r}: {why}; type an empty cell such as {game.cells[current.empty()[0]]}")
                continue
        if player == "B":
            black |= 1 << move
        else:
            white |= 1 << move
        player = other(player)
