"""Dead cells: empty cells whose colour can no longer change who wins, filled at once.

For a player X, contract X's groups (each of X's sides counts as a group, with the stones joined to it). An empty cell c is
*X-dead* when its X-usable neighbours (its empty neighbours, the X groups and X sides
touching it) are pairwise *linked*: two empty cells adjacent to each other, an empty cell
touching the group, or the same group (so at most one group, and at most two empty
neighbours, adjacent); c is *dead* when it is X-dead for both players. Claim: in every
later position (the same stones and more, full or not), the colour of c (or its being
empty) does not change who has won. Proof: suppose X has won with a chain of X stones
(and X's sides at its ends) that passes through c; take one without repeated cells. Its
cells just before and after c are X-usable neighbours of c now (a neighbour that is the
opponent's now is the opponent's later): empty cells or X groups or X sides. They are
linked: two empty cells adjacent now are adjacent X stones later; an empty cell touching
an X group is, later, an X stone touching that group; a group is joined within itself.
So the chain's part before c reaches its part after c without c, and X has won without
c's stone. Hence filling a dead cell with any colour keeps the value of every position
below, and every proof found there replays when the cell has the other colour: every win
test along it (the leaves, every choice of a pairing leaf, the positions a carrier makes)
is unaffected. Filling several dead cells at once, or to a fixpoint (a filled cell can
make its neighbours dead), is sound too: flip them back in the reverse order of filling,
each in a position that extends the one where it was found dead. The search fills every
dead cell with Black, a fixed colour, before a position is looked up (filled positions
transpose into one another); the proof writes a *dead* node that fills them black,
each one found dead again by the checker's own criterion (without derivations, a
*carrier* node that leaves them out, which the checker gives to the loser), and the proof
found with them black below it: :mod:`.verify` stays the judge (``tests/test_hex.py`` shows it refusing a proof
made with a cell filled that is not dead). A cell dead for one player only is left alone:
filling it is sound for the other player only when that player loses, which the search
does not know.

>>> from pyasp_games.domains.hex.cells import Cells
>>> from pyasp_games.domains.hex.links import Links
>>> from pyasp_games.domains.hex.model import parse_position
>>> game = parse_position(".B./W../...")
>>> dead = DeadCells(Links(game, Cells(game), compiled=False))
>>> black, white = 1 << game.index["b1"], 1 << game.index["a2"]
>>> [game.cells[c] for c in set_bits(dead.dead_cells(black, white))]  # between b1 and a2
['a1']
>>> [game.cells[c] for c in set_bits(dead.settle(black, white)[0])]  # filled with Black
['a1', 'b1']
"""

from __future__ import annotations

from pyasp_games.domains.hex.links import Links
from pyasp_games.engines.graphs import set_bits


class DeadCells:
    """The dead cells of one game's positions (see the module docstring), found by the
    links' groups and sides (compiled with them, :attr:`.links.Links.sweeper`)."""

    def __init__(self, links: Links, fill: bool = True) -> None:
        self.links = links
        self.cells = links.cells
        #: fill the dead cells of every position searched (:meth:`settle`); boards with
        #: the knowledge only
        self.fill = fill and links.game.is_board

    def dead_for(self, player: str, own: int, empty: int, candidates: int) -> int:
        """The cells of ``candidates`` (empty) that are dead for ``player`` (stones
        ``own``): every usable neighbour (an empty cell, a group of ``player``, one of its
        sides with the stones joined to it) linked to every other one (two empty cells
        adjacent, an empty cell touching the group, the same group); see the module's
        notes on dead cells."""
        start, end, middle = self.links.groups(player, own)
        a, b = self.links.sides[player]
        dilate = self.cells.dilate
        nears = [a | dilate(start), b | dilate(end)] + [dilate(g) for g in middle]
        nb = self.cells.nb
        dead = 0
        for c in set_bits(candidates):
            touching = [near for near in nears if near >> c & 1]
            if len(touching) > 1:
                continue
            free = nb[c] & empty
            if free & (free - 1):
                x = free & -free
                if not nb[x.bit_length() - 1] & (free ^ x):
                    continue  # two empty neighbours apart from each other
            if touching and free & ~touching[0]:
                continue  # an empty neighbour that does not touch the group
            dead |= 1 << c
        return dead

    def dead_cells(self, black: int, white: int) -> int:
        """The empty cells dead for both players (one round, without filling)."""
        empty = self.cells.full & ~(black | white)
        nb = self.cells.nb
        # at most two empty neighbours: the cheap filter first
        candidates = 0
        for c in set_bits(empty):
            if (nb[c] & empty).bit_count() <= 2:
                candidates |= 1 << c
        if not candidates:
            return 0
        dead = self.dead_for("B", black, empty, candidates)
        return self.dead_for("W", white, empty, dead) if dead else 0

    def settle(self, black: int, white: int) -> tuple[int, int]:
        """The stones with the dead cells filled (Black's, a fixed colour; to a fixpoint,
        as filling makes new dead cells): a position of the same value, whose proof
        replays with the dead cells given to the loser (a carrier node leaving them
        out). Boards with the knowledge only; the stones unchanged otherwise."""
        if not self.fill:
            return black, white
        if self.links.sweeper is not None:
            return self.links.sweeper.settle(black, white)
        while True:
            dead = self.dead_cells(black, white)
            if not dead:
                return black, white
            black |= dead
