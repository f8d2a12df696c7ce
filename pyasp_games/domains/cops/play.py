"""Play Cops and Robbers against the solver (``pyasp-games cops play``).

The solver takes the winning side from the start (the retrograde table of
:mod:`~pyasp_games.domains.cops.retrograde`): as the cops it plays a fastest capture,
as the robber a move that keeps it free (against a win it cannot prevent, the move of
longest resistance). You type vertex names: the robber's next vertex; the cops' new
vertices under the classic rules (``b d``, one per cop, any order); under the notes'
rules the cop to move and where (``a b``). Bad input asks again; ``quit`` or the end of
input abandons the game. Input and output are callbacks, so the loop runs in a terminal
or a test alike.

>>> from pyasp_games.domains.cops.model import parse_instance
>>> said = []
>>> game = parse_instance("a b\\nb c\\nc d\\n", cops="a", robber="d")
>>> play(game, iter(["x", "d", "d", "c"]).__next__, said.append)
>>> said[1], said[-1]
('I play the cops (they win from here); you play the robber.', 'The robber is caught: the cops win.')
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from pyasp_games.domains.cops.model import CopsGame, vertex_names
from pyasp_games.domains.cops.retrograde import Table
from pyasp_games.errors import InputError

#: What ends the game when typed as a move.
QUIT = ("quit", "q", "exit")


def _names(game: CopsGame, cops: tuple[int, ...]) -> str:
    return " ".join(game.names[c] for c in cops)


def play(game: CopsGame, read_move: Callable[[], str], say: Callable[[str], None]) -> None:
    """One game from ``game``'s start: ``read_move()`` gives the human's move (raising
    :class:`EOFError` or :class:`StopIteration` at the end of input); ``say`` prints."""
    t = Table.build(game, game.k)
    n = len(game)
    cops, robber, to_move = game.cops, game.robber, game.to_move
    start = t.position(cops, robber)
    cops_win = (t.cops_value if to_move == "cops" else t.robber_value)[start] >= 0
    mine = "cops" if cops_win else "robber"
    say(f"{game.describe()}.")
    said = "they win" if cops_win else "he escapes"
    say(f"I play the {mine} ({said} from here); you play the {'robber' if cops_win else 'cops'}.")
    while True:
        c = t.rank(cops)
        p = c * n + robber
        if t.robber_value[p] == 0:  # the same captured (trapped) positions for either side
            say(f"The robber is {'caught' if t.classic else 'trapped'}: the cops win.")
            return
        if to_move == "cops":
            options = _cop_options(t, c, robber)
            if mine == "cops":
                before, cops = cops, t.cops_of(int(t.cops_best[p]) if t.cops_value[p] > 0 else options[0])
                how = "stay on" if cops == before else "move to"
                say(f"The cops {how} {_names(game, cops)}.")
            elif options == [c] and not t.classic:
                say("No cop can move: the cops pass.")
            else:
                got = _ask(game, read_move, say, f"Cops on {_names(game, cops)}, robber on "
                           f"{game.names[robber]}; your move", partial(_cops_move, t, c, robber, options=options))  # fmt: skip
                if got is None:
                    return
                cops = got
            to_move = "robber"
        else:
            # never onto a cop (classic rules allow it: it is capture, no move to offer)
            moves = [w for w in t.robber_moves(c, robber) if w not in cops] or t.robber_moves(c, robber)
            if mine == "robber":
                went = max(moves, key=lambda w: (t.cops_value[c * n + w] == -1, t.cops_value[c * n + w]))
                how = "stays at" if went == robber else "moves to"
                robber = went
                say(f"The robber {how} {game.names[robber]}.")
            else:
                choices = " ".join(game.names[w] for w in moves)
                got = _ask(game, read_move, say, f"Cops on {_names(game, cops)}, robber on "
                           f"{game.names[robber]}; your move (one of: {choices})",
                           partial(_robber_move, game, moves=moves, cops=cops))  # fmt: skip
                if got is None:
                    return
                robber = got
            to_move = "cops"


def _ask(game: CopsGame, read_move: Callable[[], str], say: Callable[[str], None], prompt: str,
         parse: Callable[[str], object]) -> object:  # fmt: skip
    """The human's move: asked again until ``parse`` accepts it (it returns the move, or
    a string saying what is wrong); ``None`` when the game is abandoned."""
    while True:
        say(prompt)
        try:
            text = read_move().strip()
        except (EOFError, StopIteration):
            say("\nend of input: game abandoned")
            return None
        if text in QUIT:
            say("game abandoned")
            return None
        got = parse(text)
        if not isinstance(got, str):
            return got
        say(f"{text!r}: {got}")


def _cop_options(t: Table, c: int, robber: int) -> list[int]:
    moves = [int(m) for m in t.cop_moves(c)]
    if t.classic:
        return moves
    legal = [m for m, w in zip(moves, t.landings(c), strict=True) if w != robber]
    return legal or [c]


def _vertex(game: CopsGame, name: str) -> int | None:
    return game.graph.index.get(name)


def _cops_move(t: Table, c: int, robber: int, text: str, options: list[int]) -> object:
    """The cops' placement after the move ``text`` names, or what is wrong with it."""
    game = t.game
    try:
        names = vertex_names(game.graph, text, "your move")
    except InputError:
        return "no vertex of that name"
    placed = [_vertex(game, v) for v in names]
    cops = t.cops_of(c)
    if t.classic:
        if len(placed) != t.k:
            return f"give {t.k} vertices, one for each cop" if t.k > 1 else "give the vertex the cop moves to (or stays on)"
        target = tuple(sorted(placed))  # type: ignore[type-var]
    else:
        if len(placed) != 2 or placed[0] not in cops:
            return "give the cop to move and where, e.g. 'a b'"
        rest = list(cops)
        rest.remove(placed[0])
        target = tuple(sorted([*rest, placed[1]]))  # type: ignore[list-item]
    legal = {t.cops_of(m): m for m in options}
    if target not in legal:
        return "not a legal move of the cops from here"
    return target


def _robber_move(game: CopsGame, text: str, moves: list[int], cops: tuple[int, ...] = ()) -> object:
    """The robber's vertex ``text`` names, or what is wrong with it."""
    v = _vertex(game, text)
    if v is None:
        return "no vertex of that name"
    if v in cops:
        return "a cop stands there: the robber does not walk into capture"
    if v not in moves:
        return "not a legal move of the robber from here"
    return v
