"""Play Generalized Geography against the solver (``pyasp-games geography play``).

The solver (:class:`Player`, the native search) takes the winning side when there is
one; the human types vertex names. Input and output are callbacks, so the
loop runs in a terminal or a test alike.

>>> from pyasp_games.domains.geography.model import parse_instance
>>> said = []
>>> play(parse_instance("s a\\na b\\n", "s", "vertex"), iter(["zz", "a"]).__next__, said.append)
>>> said[1], said[-1]
('You move first (the second player wins here).', 'No move from b: you cannot move, so you lose.')
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from pyasp_games.domains.geography.model import Geography
from pyasp_games.domains.geography.native import make_search
from pyasp_games.engines.limits import Deadline

#: What ends the game when typed as a move.
QUIT = ("quit", "q", "exit")


class Player:
    """The solver's side in interactive play; its transposition table lasts the whole game.

    A position is ``(vertex, used)`` as in the search
    (:func:`~pyasp_games.domains.geography.native.make_search`); :meth:`reply` is a winning
    move when the mover has one, else the reply leaving the opponent most options.
    """

    def __init__(self, game: Geography, deadline: Deadline | None = None) -> None:
        self.game = game
        self.search = make_search(game, deadline)
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 4 * (len(game) + game.edge_count + 100)))

    def start(self) -> tuple[int, int]:
        s = self.game.start
        return s, self.search.initial(s)

    def legal(self, v: int, used: int) -> dict[int, int]:
        """``{next vertex: used after}`` for every legal move from ``v``."""
        return dict(self.search.legal(v, used))

    def wins(self, v: int, used: int) -> bool:
        return self.search.position_wins(v, used)

    def reply(self, v: int, used: int) -> tuple[int, int] | None:
        if self.search.position_wins(v, used):
            return self.search.position_winning_move(v, used)
        return self.search.longest_defence(v, used)


def play(game: Geography, read_move: Callable[[], str], say: Callable[[str], None]) -> None:
    """One game: ``read_move()`` gives the human's next vertex name (raising
    :class:`EOFError` or :class:`StopIteration` at the end of input); ``say`` prints a line."""
    solver = Player(game)
    names = game.names
    v, used = solver.start()
    solver_first = solver.wins(v, used)
    say(f"{game.describe()}: the token is on {names[v]}.")
    say(
        "I move first (the first player wins here)."
        if solver_first
        else "You move first (the second player wins here)."
    )
    solver_to_move = solver_first
    while True:
        options = solver.legal(v, used)
        if not options:
            loser = "I" if solver_to_move else "you"
            say(f"No move from {names[v]}: {loser} cannot move, so {loser} lose.")
            if solver_to_move:
                say("You win.")
            return
        if solver_to_move:
            v, used = solver.reply(v, used)  # type: ignore[misc]
            say(f"I move to {names[v]}.")
        else:
            choices = ", ".join(names[w] for w in sorted(options))
            say(f"Token on {names[v]}; your moves: {choices}")
            try:
                text = read_move().strip()
            except (EOFError, StopIteration):
                say("\nend of input: game abandoned")
                return
            if text in QUIT:
                say("game abandoned")
                return
            w = game.graph.index.get(text)
            if w is None or w not in options:
                why = "no vertex of that name" if w is None else "not a legal move from here"
                say(f"{text!r}: {why}; choose one of: {choices}")
                continue
            v, used = w, options[w]
        solver_to_move = not solver_to_move
