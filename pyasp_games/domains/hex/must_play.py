"""What the knowledge says of a position before any move is searched: its value with
the reason (an :class:`Entry`), or the moves of the must-play region, in the order to
try them.

A position is won at once by a connection of the player's sides it holds or completes
with one move (a semi-connection: the move is its key), lost by one the opponent holds
(:mod:`.links`). Otherwise the opponent's semi-connections each ask the player to move
to play in their carrier (the pairs and the key): a move outside the intersection of
the carriers (the *must-play region*) loses to the key of a semi-connection it misses,
so only the moves inside it are searched (an empty region: the player to move has
lost), the moves that hit the most carriers first. With ``lookahead_from`` set (at 14
on boards of at most 36 cells, off on larger ones), at that many empty cells or more,
first those after which the opponent's own region is smallest (a look-ahead of one
semi-connection sweep per move), each with that size as a guess of the work to refute
it (the proof-number search's initial delta, :mod:`.pns`): on the 7 x 7 openings it
cost more positions than it saved, on 6 x 6 it pays.

>>> from pyasp_games.domains.hex.cells import Cells
>>> from pyasp_games.domains.hex.links import Links
>>> from pyasp_games.domains.hex.model import parse_position
>>> game = parse_position("4x4")
>>> rules = MustPlay(Links(game, Cells(game), compiled=False))
>>> won = rules.assess(0, 0, "B")  # a key after which Black holds a connection
>>> won.wins, game.cells[won.move]
(True, 'c2')
>>> moves, region, _, guesses = rules.assess(1 << game.index["a4"], 0, "W")  # Black's a4
>>> [game.cells[m] for m in moves], guesses  # the two cells that stop a4's two semis
(['b3', 'c1'], [9, 99])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pyasp_games.domains.hex.links import Link, Links
from pyasp_games.engines.graphs import set_bits


@dataclass
class Entry:
    """What the search knows of a position with a player to move.

    ``wins``: the player to move wins. A won entry has ``move`` (a cell) and, when the
    move completes a connection at once, its ``pairs`` (a :data:`Link`); a lost one has the
    opponent's ``pairs`` (a connection the opponent already holds) or the searched
    moves ``searched`` and the opponent's semi-connections ``semis`` (key, carrier, link)
    that answer the moves outside the must-play region.
    """

    wins: bool
    move: int | None = None
    pairs: Link | None = None
    searched: int = 0
    semis: list[tuple[int, int, Link]] | None = field(default_factory=list)


class MustPlay:
    """The knowledge of one game's positions (see the module docstring): its
    connections (:class:`~pyasp_games.domains.hex.links.Links`), and with
    ``knowledge=False`` none of it (every empty cell searched, in the cells' rank)."""

    def __init__(self, links: Links, knowledge: bool = True) -> None:
        self.links = links
        self.cells = links.cells
        self.knowledge = knowledge
        self.rank = links.cells.rank
        #: the fewest empty cells at which the moves are ordered by a look-ahead (``None``:
        #: never). Measured (benchmarks/RESULTS.md, branch ``hex-speed``): on 7 x 7, at 14
        #: the centre took 14,550 positions and opening a1 46,184, without it 5,798 and
        #: 27,331; the 6 x 6 map, 16.3 s of CPU with it, 24.1 s without: so on boards of
        #: at most 36 cells at 14, on larger ones never (the template-free engine of the
        #: proofs, a depth-first search: at 14 on every board, ``native.INNER_LOOKAHEAD_FROM``)
        self.lookahead_from: int | None = 14 if len(links.game) <= 36 else None
        #: the dead and captured cells, whose rule prunes the inferior moves (set by the
        #: engine; ``None``: every move of the region searched)
        self.dead: Any = None
        #: the player's H-search stops at its first semi-connection of the sides (a win)
        self.stop_first = True
        #: H-search of the player to move too (a win at once): off, as its wins are the
        #: parent's H-search's misses, rarer than the cost of a sweep at every position
        #: (:mod:`.native`'s notes give the measure)
        self.own_hsearch = False
        #: the player's H-search's bounds (fulls, semis, ors; ``None``: the sweeper's)
        self.own_bounds: tuple[int, int, int] | None = None

    def assess(self, black: int, white: int, player: str, nodes: int = 0
               ) -> Entry | tuple[list[int], int, list[tuple[int, int, Link]] | None, list[int]]:
        """What the knowledge says of a position: its value with the reason (an
        :class:`Entry`), or the moves of the must-play region to search, in the order to
        try them, the region, the opponent's semi-connections (``None`` when compiled: the
        proof reader sweeps them again), and for each move a guess
        of the work to refute it (the opponent's region after it; 1 where not looked)."""
        links = self.links
        if links.compilable and nodes % 16 == 0:  # ``nodes``: the positions searched so far
            links.compile_when_worth_it()
        opponent = "W" if player == "B" else "B"
        empty = self.cells.full & ~(black | white)
        own, opp = (black, white) if player == "B" else (white, black)
        if links.won(opponent, black, white):
            return Entry(False, pairs=([], 0))
        if links.won(player, black, white):
            return Entry(True, move=None, pairs=([], 0))
        if self.knowledge:
            pairs = links.pairing(opponent, opp, empty)
            if pairs is not None:
                return Entry(False, pairs=pairs)
            if links.sweeper is not None:
                first = links.sweeper.first_key(player, own, empty, links.order)
                if first is not None:
                    return Entry(True, move=first[0], pairs=first[1])
            else:
                for m in sorted(set_bits(empty), key=lambda c: self.rank[c]):
                    bit = 1 << m
                    mine = links.pairing(player, own | bit, empty & ~bit)
                    if mine is not None:
                        return Entry(True, move=m, pairs=mine)
        extra: list[tuple[int, int]] = []
        if links.sweeper is not None and links.hsearch:
            # H-search: a full connection of the opponent's sides, the position is lost; of
            # the player's, won (a move in its carrier, which keeps the rest of it); a semi
            # one, won by its key; the opponent's semis narrow the must-play region below.
            # Each is written in the proof as a carrier node proved inside by the
            # template-free engine (:func:`proof_of`)
            # The player's (when ``own_hsearch``) first, stopped at its first
            # semi-connection of the sides, so that a position won so skips the opponent's
            # closure (never stopped: its semis make the region). Both cannot hold (Hex
            # has no draw), so the order changes no verdict
            joined, mine_semis = (links.sweeper.hsearch(player, own, empty, stop=self.stop_first,
                                                        bounds=self.own_bounds)
                                  if self.own_hsearch else (None, []))
            if joined is not None:
                m = (joined or empty) & -(joined or empty)
                return Entry(True, move=m.bit_length() - 1, pairs=([], joined & ~m))
            if mine_semis:
                key, carrier = min(mine_semis, key=lambda s: s[1].bit_count())
                return Entry(True, move=key, pairs=([], carrier & ~(1 << key)))
            joined, extra = links.sweeper.hsearch(opponent, opp, empty)
            if joined is not None:
                return Entry(False, pairs=([], joined))
        semis: list[tuple[int, int, Link]] | None = []
        if links.sweeper is not None:
            # compiled: the region and the counts without the list (swept again for a proof)
            region, hits = links.sweeper.must_play(opponent, opp, empty, links.semi_rounds)
            semis = None
            for _, carrier in extra:
                region &= carrier
                for c in set_bits(carrier):
                    hits[c] += 1
        else:
            if self.knowledge:
                semis = links.semis(opponent, opp, empty)
            region = empty
            hits = [0] * self.cells.n
            for _, carrier, _ in semis or ():
                region &= carrier
                for c in set_bits(carrier):
                    hits[c] += 1
        if self.knowledge and self.lookahead_from is not None and empty.bit_count() >= self.lookahead_from:
            # shallow nodes: try first the moves after which the opponent's region is
            # smallest (a costly look-ahead, paid where a wrong first try costs most)
            def after(c: int) -> int:
                bit = 1 << c
                mine = links.semis(player, own | bit, empty & ~bit)
                left = empty & ~bit
                for _, carrier, _ in mine:
                    left &= carrier
                return left.bit_count() if mine else 99
            if links.sweeper is not None:
                costs = links.sweeper.lookahead(player, own, empty, region)
                cost = {c: costs[c] for c in set_bits(region)}
            else:
                cost = {c: after(c) for c in set_bits(region)}
            moves = sorted(cost, key=lambda c: (cost[c], -hits[c], self.rank[c]))
            moves, region = self._pruned(player, moves, region, black, white)
            return moves, region, semis, [max(1, cost[c]) for c in moves]
        moves = sorted(set_bits(region), key=lambda c: (-hits[c], self.rank[c]))
        moves, region = self._pruned(player, moves, region, black, white)
        return moves, region, semis, [1] * len(moves)

    def _pruned(self, player: str, moves: list[int], region: int, black: int, white: int
                ) -> tuple[list[int], int]:
        """The moves and the region without the inferior moves (each dominated by a
        move kept, :meth:`.dead_cells.DeadCells.inferior`): the region returned is the
        moves searched; the proof answers a pruned move as its dominating move is
        answered (:meth:`.proofs.ProofWriter._replies`)."""
        if self.dead is None or not self.dead.captured:
            return moves, region
        pruned = self.dead.inferior(player, moves, black, white)
        if not pruned:
            return moves, region
        for m in pruned:
            region &= ~(1 << m)
        return [m for m in moves if m not in pruned], region
