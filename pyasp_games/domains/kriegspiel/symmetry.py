"""The symmetries of a board: the maps of squares that keep the rules of a Kriegspiel
ending (four on a rectangle, eight on a square), as permutations with tables that map a
belief (a bitmask of squares) in a few reads. The solver, its compiled search, the
strategy and the ASP backend all store one metaposition per class of symmetric ones.

>>> from pyasp_games.domains.kriegspiel.model import Board
>>> s = Symmetry(Board(3, 4))
>>> len(s.perm), s.names
(4, ('r,f', '-r,f', 'r,-f', '-r,-f'))
"""

from __future__ import annotations

from collections.abc import Callable

from pyasp_games.domains.kriegspiel.model import Board, piece_squares, placement

#: A state ``(king, piece square, belief)``: a metaposition as the tables hold it (with two
#: pieces, their placement number instead of the square).
State = tuple[int, int, int]

#: The names of the symmetries, in the order of :class:`Symmetry`'s maps.
NAMES = ("r,f", "-r,f", "r,-f", "-r,-f", "f,r", "-f,r", "f,-r", "-f,-r")


class Symmetry:
    """The symmetries of a board as square permutations, with per-rank lookup tables
    that map a belief bitmask in a few table reads."""

    def __init__(self, board: Board, piece: str = "R") -> None:
        self.board, self.piece = board, piece
        rows, cols = board.rows, board.cols
        maps: list[Callable[[int, int], tuple[int, int]]] = [
            lambda r, f: (r, f),
            lambda r, f: (rows - 1 - r, f),
            lambda r, f: (r, cols - 1 - f),
            lambda r, f: (rows - 1 - r, cols - 1 - f),
        ]
        if rows == cols:
            maps += [
                lambda r, f: (f, r),
                lambda r, f: (cols - 1 - f, r),
                lambda r, f: (f, rows - 1 - r),
                lambda r, f: (cols - 1 - f, rows - 1 - r),
            ]
        #: ``perm[g][s]``: the image of square ``s`` under symmetry ``g``
        self.perm = [
            [board.square(*m(*board.coords(s))) for s in range(board.size)] for m in maps
        ]
        #: symmetry ``g`` by name: the image of (rank r, file f), ``-r`` for the rank
        #: counted from the top, ``-f`` for the file from the right
        self.names = NAMES[: len(maps)]
        self._rank_tables = [
            [
                [
                    sum(1 << perm[r * cols + f] for f in range(cols) if bits >> f & 1)
                    for bits in range(1 << cols)
                ]
                for r in range(rows)
            ]
            for perm in self.perm
        ]
        size = board.size
        # for every placement of White's men, the symmetries taking it to its least image
        self._best: dict[tuple[int, int], tuple[tuple[int, int], list[int]]] = {}
        for k in range(size):
            for s in range(size ** len(piece)):
                images = [(p[k], self.placement(g, s)) for g, p in enumerate(self.perm)]
                least = min(images)
                self._best[k, s] = (least, [g for g, i in enumerate(images) if i == least])

    def placement(self, g: int, square: int) -> int:
        """The image of the piece's square (or the pieces' placement) under symmetry ``g``."""
        perm = self.perm[g]
        if len(self.piece) == 1:
            return perm[square]
        return placement(self.board, self.piece, tuple(perm[s] for s in piece_squares(self.board, self.piece, square)))

    def belief(self, g: int, belief: int) -> int:
        """The image of a belief under symmetry ``g``."""
        cols, mask = self.board.cols, (1 << self.board.cols) - 1
        tables = self._rank_tables[g]
        out = 0
        for r in range(self.board.rows):
            bits = belief >> (r * cols) & mask
            if bits:
                out |= tables[r][bits]
        return out

    def least(self, king: int, square: int) -> tuple[tuple[int, int], list[int]]:
        """The least image of White's men on ``king`` and ``square``, and the symmetries
        that take them there."""
        return self._best[king, square]

    def canonical(self, state: State) -> State:
        """The least image of ``state`` (White's men first, then the belief)."""
        king, square, belief = state
        (k, s), group = self._best[king, square]
        return k, s, min(self.belief(g, belief) for g in group)
