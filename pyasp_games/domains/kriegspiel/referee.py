"""The referee of one game: the true position, White's attempts and Black's moves answered.

The referee sees the board: White's king and piece and the black king. White's attempt
is ``illegal`` (White tries again), or it is played and the referee says ``mate``,
``stalemate``, a check with its direction, or nothing (``silent``). Black's attempt is
``illegal`` or played (``capture`` when it takes White's piece: a draw). These are the
same rules as the set-wise referee (:mod:`~pyasp_games.domains.kriegspiel.metaposition`) on a
one-square belief; ``kriegspiel play`` and the classic retrograde analysis
(:mod:`~pyasp_games.domains.kriegspiel.classic`) use them, and the tests compare them with
python-chess on 8 x 8.

>>> from pyasp_games.domains.kriegspiel.model import Board, occupied_by, parse_square
>>> b = Board(8, 8)
>>> ref = Referee(b, "R", parse_square(b, "b6"), parse_square(b, "h1"), parse_square(b, "a8"))
>>> ref.white(("K", parse_square(b, "b7")))  # next to the black king
'illegal'
>>> ref.white(("R", parse_square(b, "h8")))
'mate'
"""

from __future__ import annotations

from dataclasses import dataclass

from pyasp_games.domains.kriegspiel.metaposition import Attempt, rules_for
from pyasp_games.domains.kriegspiel.model import Board, occupied_by


def white_answer(board: Board, piece: str, king: int, square: int, black: int) -> str:
    """The referee's answer after White's legal move to ``(king, square)`` with the black
    king on ``black``: ``mate``, ``stalemate``, ``check-...`` or ``silent``."""
    after = rules_for(board, piece).after(king, square)
    moves = black_moves(board, piece, king, square, black)
    if (1 << black) & after.lines:
        if not moves:
            return "mate"
        return next(a for a, mask in after.checks if mask >> black & 1)
    return "silent" if moves else "stalemate"


def black_moves(board: Board, piece: str, king: int, square: int, black: int) -> list[int]:
    """The black king's legal moves (taking an unprotected piece included)."""
    after = rules_for(board, piece).after(king, square)
    return board.squares(board.neighbours[black] & (after.free | after.takeable))


@dataclass
class Referee:
    """A game in progress: the true position, White to move after :meth:`black`."""

    board: Board
    piece: str
    king: int
    square: int
    black_king: int
    over: str | None = None

    def white(self, attempt: Attempt) -> str:
        """Answer White's attempt; a legal one is played."""
        illegal, _ = rules_for(self.board, self.piece).split(
            self.king, self.square, 1 << self.black_king, attempt
        )
        if illegal:
            return "illegal"
        self.king, self.square = rules_for(self.board, self.piece).played(self.king, self.square, attempt)
        said = white_answer(self.board, self.piece, self.king, self.square, self.black_king)
        if said in ("mate", "stalemate"):
            self.over = said
        return said

    def black_moves(self) -> list[int]:
        return black_moves(self.board, self.piece, self.king, self.square, self.black_king)

    def black(self, target: int) -> str:
        """Answer Black's attempt: ``illegal``, ``capture`` (a draw) or ``moved``."""
        if target not in self.black_moves():
            return "illegal"
        self.black_king = target
        if (1 << target) & occupied_by(self.board, self.king, self.piece, self.square):
            self.over = "capture"
            return "capture"
        return "moved"
