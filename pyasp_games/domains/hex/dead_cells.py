"""Dead and captured cells filled at once, and the inferior moves that need no search.

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
made with a cell filled that is not dead). With the captured cells on (the default), the
dead cells are filled as the first of them, in a *fill* node.

**Captured cells** (Henderson, Arneson and Hayward 2009, with the criterion above as
the pattern): a cell dead for Y alone is *captured* by X, the opponent, and filled with
X's stone; so are two adjacent empty cells each dead for Y once the other is X's (X
answers Y's move in one with the other). Claim: the position keeps its value, whoever
moves. Proof: if Y wins the filled position, Y wins the position (it wins with X's
stones on those cells, and a stone less of X's never hurts Y). If X wins the filled
position, X plays that strategy in the position and answers Y's move in a pair with the
other cell (a move on a single cell needs no answer). In the final position every cell
Y took there is dead for Y in a position that position extends (the other cell of its
pair X's): by the lemma above, had Y won, Y would have won without it, so turning it
into X's leaves Y's win; and with all of them X's, the final position extends the
filled one, which X won: so X won. Filling step by step, in rounds to a fixpoint (X =
Black, then White: :meth:`DeadCells.fill_in`), each in the position filled so far, is
sound by induction; a cell dead for both players is White-dead, hence Black's, as before.
The proof writes the steps in a *fill* node; the checker judges each step of the
winner's by its own criterion, and accepts the loser's without one (a stone more of the
loser's never helps the winner).

**Inferior moves**: a move ``b`` of the player Y to move is *dominated* by a
neighbouring move ``a`` when, after Y's ``a``, ``b`` is dead for the opponent X: then Y
could fill ``b`` at no cost (``b`` captured by Y), and a stone less of Y's (``a``)
never helps Y, so the position after ``b`` is no better for Y than after ``a``. The
search drops such ``b`` from the moves it tries while a move dominating it is kept
(:meth:`DeadCells.inferior`); the proof answers it as the dominating move is answered
(``inferior`` in the loser's node), which the checker confirms with its own criterion.

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
    links' groups and sides (compiled with them, :attr:`.links.Links.sweeper`); with
    ``captured``, the fill-in of the cells captured by one player too (:meth:`fill_in`)
    and the inferior moves (:meth:`inferior`)."""

    def __init__(self, links: Links, fill: bool = True, captured: bool = True) -> None:
        self.links = links
        self.cells = links.cells
        #: fill the dead cells of every position searched (:meth:`settle`); boards with
        #: the knowledge only
        self.fill = fill and links.game.is_board
        #: fill the captured cells too, and prune the inferior moves (:meth:`fill_in`)
        self.captured = captured and self.fill

    def dead_for(self, player: str, own: int, empty: int, candidates: int) -> int:
        """The cells of ``candidates`` (empty) that are dead for ``player`` (stones
        ``own``): every usable neighbour (an empty cell, a group of ``player``, one of its
        sides with the stones joined to it) linked to every other one (two empty cells
        adjacent, an empty cell touching the group, the same group); see the module's
        notes on dead cells."""
        units = self.units(player, own)
        dead = 0
        for c in set_bits(candidates):
            if self.dead_in(c, empty, units):
                dead |= 1 << c
        return dead

    def units(self, player: str, own: int) -> list[int]:
        """``player``'s units (each side with the stones joined to it, each other group)
        as the cells touching them (a side: its row of cells too)."""
        start, end, middle = self.links.groups(player, own)
        a, b = self.links.sides[player]
        dilate = self.cells.dilate
        return [a | dilate(start), b | dilate(end)] + [dilate(g) for g in middle]

    def dead_in(self, c: int, empty: int, units: list[int]) -> bool:
        """Whether the empty cell ``c`` is dead, with the empty cells ``empty``, for the
        player of ``units`` (:meth:`units`): its usable neighbours pairwise linked."""
        touching = [near for near in units if near >> c & 1]
        if len(touching) > 1:
            return False
        free = self.cells.nb[c] & empty
        if free & (free - 1):
            x = free & -free
            if (free ^ x) & (free ^ x) - 1:
                return False  # three empty neighbours
            if not self.cells.nb[x.bit_length() - 1] & (free ^ x):
                return False  # two empty neighbours apart from each other
        return not (touching and free & ~touching[0])

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

    def fill_in(self, black: int, white: int) -> tuple[int, int, list[tuple[str, int, int]]]:
        """The stones after the fill-in, and its steps in order (the captor, a cell, the
        pair's other cell or -1); rounds to a fixpoint, in each the captor Black, then
        White. For the captor X (the opponent Y): every empty cell dead for Y (by
        :meth:`dead_in`, in the position as filled so far: a cell dead for both players
        is Black's, as in :meth:`settle` before), then every pair of adjacent empty cells
        each dead for Y once the other is X's (X answers Y's move in one with the
        other). Why the position keeps its value: the module's notes on captured
        cells."""
        if self.links.sweeper is not None:
            return self.links.sweeper.fill_in(black, white)
        nb = self.cells.nb
        steps: list[tuple[str, int, int]] = []
        changed = True
        while changed:
            changed = False
            for x in ("B", "W"):
                y, ys = ("W", white) if x == "B" else ("B", black)
                units = self.units(y, ys)
                empty = self.cells.full & ~(black | white)
                filled = 0
                for c in set_bits(empty):
                    if self.dead_in(c, empty, units):
                        empty &= ~(1 << c)
                        filled |= 1 << c
                        steps.append((x, c, -1))
                for c in set_bits(empty):
                    if not empty >> c & 1 or (nb[c] & empty).bit_count() > 3:
                        continue
                    for o in set_bits(nb[c] & empty & ~((2 << c) - 1)):
                        if self.dead_in(c, empty & ~(1 << o), units) and self.dead_in(o, empty & ~(1 << c), units):
                            empty &= ~(1 << c | 1 << o)
                            filled |= 1 << c | 1 << o
                            steps.append((x, c, o))
                            break
                if filled:
                    changed = True
                    if x == "B":
                        black |= filled
                    else:
                        white |= filled
        return black, white, steps

    def inferior(self, player: str, moves: list[int], black: int, white: int) -> dict[int, int]:
        """The moves of ``player`` (taken in order) dominated by an earlier move kept:
        a move ``b`` whose neighbour ``a`` is kept and after whose taking ``b`` is dead
        for the opponent (so ``player`` could fill ``b`` at no cost: ``a`` is at least
        as good as ``b``), as ``{b: a}``. A kept move stays kept, so every dominating
        move is searched."""
        if not self.captured or not moves:
            return {}
        opponent = "W" if player == "B" else "B"
        opp = white if player == "B" else black
        empty = self.cells.full & ~(black | white)
        if self.links.sweeper is not None:
            by = self.links.sweeper.inferior(player, moves, empty, opp)
            return {m: a for m, a in zip(moves, by, strict=True) if a >= 0}
        units = self.units(opponent, opp)
        kept = 0
        found: dict[int, int] = {}
        nb = self.cells.nb
        for m in moves:
            for a in set_bits(nb[m] & kept):
                if self.dead_in(m, empty & ~(1 << a), units):
                    found[m] = a
                    break
            else:
                kept |= 1 << m
        return found

    def settle(self, black: int, white: int) -> tuple[int, int]:
        """The stones with the dead cells filled (Black's, a fixed colour; to a fixpoint,
        as filling makes new dead cells), and with ``captured`` the captured cells
        filled for their captor (:meth:`fill_in`): a position of the same value. Boards
        with the knowledge only; the stones unchanged otherwise."""
        if not self.fill:
            return black, white
        if self.captured:
            if self.links.sweeper is not None:
                return self.links.sweeper.fill(black, white)
            return self.fill_in(black, white)[:2]
        if self.links.sweeper is not None:
            return self.links.sweeper.settle(black, white)
        while True:
            dead = self.dead_cells(black, white)
            if not dead:
                return black, white
            black |= dead
