"""Sets of cells as Python ``int`` bitsets (bit ``i``: cell ``i``) for the native search:
the neighbours of a whole set (six shifts of it on the rhombus, whatever the board's
size), the cells joined to a set, and the order in which the cells are tried.

>>> from pyasp_games.domains.hex.model import parse_position
>>> cells = Cells(parse_position("3x3"))
>>> from pyasp_games.engines.graphs import set_bits
>>> sorted(set_bits(cells.dilate(1 << 4)))  # b2 and its six neighbours
[1, 2, 3, 4, 5, 6, 7]
>>> sorted(set_bits(cells.reach(1 << 0, 0b000010011)))  # a1, b1 and b2 joined
[0, 1, 4]
>>> min(range(9), key=cells.rank.__getitem__)  # the centre first
4
"""

from __future__ import annotations

from pyasp_games.domains.hex.model import Hex
from pyasp_games.engines.graphs import set_bits


class Cells:
    """Neighbourhoods of sets of cells as bitsets: shifts on the rhombus, per cell on a
    graph; and :attr:`rank`, the order in which the search tries the cells."""

    def __init__(self, game: Hex) -> None:
        self.n = len(game)
        self.full = (1 << self.n) - 1
        self.nb = [sum(1 << j for j in near) for near in game.neighbours]
        self.board = game.is_board
        if self.board:
            cols = self.cols = game.cols
            col0 = sum(1 << (r * cols) for r in range(game.rows))
            last = col0 << (cols - 1)
            self.not_first = self.full & ~col0
            self.not_last = self.full & ~last
        #: per cell, its rank among the moves (the lowest first): on the rhombus its
        #: distance from the centre, on a graph the fewest neighbours last
        centre_r, centre_c = (game.rows - 1) / 2, (game.cols - 1) / 2
        if game.is_board:
            self.rank = [abs(i // game.cols - centre_r) + abs(i % game.cols - centre_c) for i in range(len(game))]
        else:
            self.rank = [-len(near) for near in game.neighbours]

    def dilate(self, x: int) -> int:
        """The cells in ``x`` or touching a cell of ``x``."""
        if self.board:
            c = self.cols
            y = x | ((x << 1) & self.not_first) | ((x >> 1) & self.not_last)
            y |= (x << c) | (x >> c) | ((x >> (c - 1)) & self.not_first) | ((x << (c - 1)) & self.not_last)
            return y & self.full
        y = x
        for i in set_bits(x):
            y |= self.nb[i]
        return y

    def reach(self, seed: int, allowed: int) -> int:
        """The cells of ``allowed`` joined to ``seed & allowed`` within ``allowed``."""
        seen = seed & allowed
        front = seen
        while front:
            front = self.dilate(front) & allowed & ~seen
            seen |= front
        return seen
