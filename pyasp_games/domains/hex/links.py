"""A player's connections as the native search knows them and a proof carries them.

A :data:`Link` is what a proof writes of a connection: disjoint pairs of empty cells
(whichever cell of each pair the player gets, its sides are joined) and the carrier of
the edge templates, or of the H-search connection, it uses. :class:`Links` finds them on
Python-int bitsets (:mod:`.cells`): the win test, a player's groups, the pairing search
over groups linked by bridges (two common empty neighbours) and by edge templates
(:mod:`.templates`), semi-connections (a key after which the player holds a
connection), and every semi-connection the search knows (those and H-search's),
whose carriers make the opponent's must-play region (:mod:`.must_play`). Once a search
has run :data:`~pyasp_games.engines.compiled.INTERPRETED_SECONDS` of CPU on a board of
at most :data:`~pyasp_games.domains.hex.connections.MAX_CELLS` cells, the compiled
kernels (:mod:`.connections`, :attr:`Links.sweeper`) answer instead.

>>> from pyasp_games.domains.hex.cells import Cells
>>> from pyasp_games.domains.hex.model import parse_position
>>> game = parse_position("3x3")
>>> links = Links(game, Cells(game))
>>> b2 = 1 << game.index["b2"]
>>> links.pairing("B", b2, links.cells.full & ~b2)  # b2's bridges to both edges
([(1, 2), (6, 7)], 0)
>>> [game.cells[key] for key, _, _ in links.semis("W", 0, links.cells.full)]
['b2']
"""

from __future__ import annotations

import time
from typing import Any

from pyasp_games.domains.hex.cells import Cells
from pyasp_games.domains.hex.connections import MAX_CELLS, compiled_now
from pyasp_games.domains.hex.model import Hex
from pyasp_games.domains.hex.templates import board_templates
from pyasp_games.engines.compiled import INTERPRETED_SECONDS
from pyasp_games.engines.graphs import set_bits

_SEMIS_KEPT = 200_000  # semi-connection sweeps kept for reuse (then forgotten at once)

#: A connection as the proof carries it: disjoint pairs of empty cells, and the empty
#: cells of the edge templates it uses, or of an H-search connection's carrier (its
#: pairs then empty) (``0``: none, a pairing connection alone).
Link = tuple[list[tuple[int, int]], int]


def carrier_of(link: Link) -> int:
    """The empty cells a connection needs: its pairs' and its templates'."""
    pairs, carrier = link
    for x, y in pairs:
        carrier |= (1 << x) | (1 << y)
    return carrier


class Links:
    """The connections of one game's positions (see the module docstring); the sweeps
    of the semi-connections are kept for reuse (the look-ahead's sweep after a move is
    the must-play sweep of the position that move makes)."""

    def __init__(self, game: Hex, cells: Cells, knowledge: bool = True, templates: bool = True,
                 compiled: bool = True, hsearch: bool = True) -> None:
        self.game = game
        self.cells = cells
        # semi-connections by (player, stones, empty cells): the look-ahead's sweep after
        # a move is the must-play sweep of the position that move makes
        self._semis: dict[tuple[str, int, int], list[tuple[int, int, Link]]] = {}
        self.sides = {p: (sum(1 << i for i in a), sum(1 << i for i in b)) for p, (a, b) in game.sides.items()}
        # the edge templates: for each player, side (0, 1) and cell, the carriers (bitsets)
        # with which a stone there reaches that side
        self.templates: dict[str, tuple[list[list[int]], list[list[int]]]] = {}
        if knowledge and templates and game.is_board:
            self.templates = board_templates(game)
        # per player and side, the cells that have a template at all
        self.template_cells = {p: tuple(sum(1 << i for i, ts in enumerate(side) if ts) for side in sides)
                               for p, sides in self.templates.items()}  # fmt: skip
        #: the compiled connection search (boards of at most 62 cells), once worth loading
        self.sweeper: Any = None
        self.order: Any = None  # the cells by rank, for the compiled winning-move search
        #: rounds of the compiled sweep's search for other chains after the same keys that
        #: shrink the must-play region (:func:`.connections._semis`)
        self.semi_rounds = 2
        #: the compiled search may still be loaded (a board it takes, not loaded yet)
        self.compilable = compiled and knowledge and game.is_board and len(game) <= MAX_CELLS
        #: H-search (:func:`.connections._hsearch`) at every position once compiled
        self.hsearch = hsearch and knowledge and game.is_board
        self._cpu0 = time.process_time()

    # -- the rules -------------------------------------------------------------------
    def won(self, player: str, black: int, white: int) -> bool:
        """Whether ``player`` has won with these stones."""
        if not self.game.is_board and player == "W":
            if self.game.joined:
                return False
            a, b = self.sides["B"]
            return not (self.cells.reach(a, self.cells.full & ~white) & b)
        if player == "B" and self.game.joined:
            return True
        a, b = self.sides[player]
        own = black if player == "B" else white
        return bool(self.cells.reach(a, own) & b)

    # -- pairing connections ------------------------------------------------------------
    def groups(self, player: str, own: int) -> tuple[int, int, list[int]]:
        """``player``'s stones as nodes of the pairing search: the stones joined to the
        first side, those joined to the second, and the other groups."""
        cells = self.cells
        a, b = self.sides[player]
        start, end, middle = 0, 0, []
        rest = own
        while rest:
            g = cells.reach(rest & -rest, own)
            rest &= ~g
            if g & a:
                start |= g
            if g & b:
                end |= g
            if not (g & (a | b)):
                middle.append(g)
        return start, end, middle

    def pairing(self, player: str, own: int, empty: int) -> Link | None:
        """A connection of ``player``'s sides by its stones ``own``, one cell of every pair
        and the carriers of edge templates (``([], 0)``: joined already), or ``None`` if
        the search over bridge- and template-linked groups finds none."""
        if player not in self.sides:
            return None
        if player == "B" and self.game.joined:
            return [], 0
        if self.sweeper is not None:
            return self.sweeper.pairing(player, own, empty)
        return self._chain(player, *self.groups(player, own), empty)

    def compile_when_worth_it(self) -> None:
        """Switch the connection search to the compiled kernels (:mod:`.connections`)
        once this engine has searched for :data:`INTERPRETED_SECONDS` of CPU (at once if
        they are loaded already): a small search never loads numba, a long one pays the
        load once."""
        if compiled_now() or time.process_time() - self._cpu0 >= INTERPRETED_SECONDS:
            self.compile_now()

    def compile_now(self) -> bool:
        """Use the compiled connection search from now on, where the board allows it (a
        rhombus of at most :data:`MAX_CELLS` cells); whether it is used."""
        if self.sweeper is None and self.compilable:
            import numpy as np

            from pyasp_games.domains.hex.connections import Sweeper

            self.sweeper = Sweeper(self.game, self.templates)
            self.order = np.array(sorted(range(len(self.game)), key=lambda c: self.cells.rank[c]), dtype=np.int64)
            self.compilable = False
        return self.sweeper is not None

    def _template_links(self, player: str, stones: int, side: int, opp: int, empty: int) -> list[int]:
        """The carriers (empty cells) of the edge templates joining a stone of ``stones`` to
        ``player``'s side ``side`` that no stone of ``opp`` spoils."""
        table = self.templates[player][side]
        out = []
        for x in set_bits(stones & self.template_cells[player][side]):
            for carrier in table[x]:
                if not carrier & opp and carrier & empty:
                    out.append(carrier & empty)
        return out

    def _chain(self, player: str, start: int, end: int, middle: list[int], empty: int) -> Link | None:
        """The pairing search proper over the nodes of :meth:`groups` (each side with the
        stones joined to it is one node; its liberties are its side's empty cells and
        the empty cells touching its stones); a node is linked to another by two common
        liberties (a bridge, or edge template II to a side) and to a side by an edge
        template whose carrier is free."""
        if start & end:
            return [], 0
        a, b = self.sides[player]
        dilate = self.cells.dilate
        libs = [(a | dilate(start)) & empty, (b | dilate(end)) & empty]
        libs += [dilate(g) & empty for g in middle]
        count = len(libs)
        # template links, by the pair of nodes they join: a middle group to a side, or the
        # stones of one side's node to the other side
        tlinks: dict[tuple[int, int], list[int]] = {}
        if self.templates:
            opp = self.cells.full & ~empty & ~start & ~end
            for g in middle:
                opp &= ~g
            links = self._template_links
            tlinks[0, 1] = links(player, start, 1, opp, empty) + links(player, end, 0, opp, empty)
            for i, g in enumerate(middle, 2):
                tlinks[0, i] = links(player, g, 0, opp, empty)
                tlinks[i, 1] = links(player, g, 1, opp, empty)
        found: list[tuple[int, int]] = []
        extra = [0]

        def dfs(node: int, visited: int, used: int) -> bool:
            options = []
            for other in range(count):
                if visited >> other & 1:
                    continue
                common = libs[node] & libs[other] & ~used
                if common & (common - 1):  # two cells at least
                    options.append((other != 1, 0, -(common.bit_count()), other, common, 0))
                for carrier in tlinks.get((node, other), ()):
                    if not carrier & used:
                        options.append((other != 1, 1, carrier.bit_count(), other, 0, carrier))
            options.sort()
            for _, _, _, other, common, carrier in options:
                if carrier:
                    extra[0] |= carrier
                    if other == 1 or dfs(other, visited | (1 << other), used | carrier):
                        return True
                    extra[0] &= ~carrier
                    continue
                x = common & -common
                y = (common ^ x) & -(common ^ x)
                found.append((x.bit_length() - 1, y.bit_length() - 1))
                if other == 1 or dfs(other, visited | (1 << other), used | x | y):
                    return True
                found.pop()
            return False

        return (found, extra[0]) if dfs(0, 1, 0) else None

    def semis(self, player: str, own: int, empty: int) -> list[tuple[int, int, Link]]:
        """``player``'s semi-connections: (key, carrier with the key, link) for every empty
        cell after which ``player`` holds a connection."""
        if player not in self.sides:
            return []
        if self.sweeper is not None:
            # compiled, a sweep costs less than keeping it: not cached (nor read from the
            # cache: a list kept before the switch lacks the other chains after the same
            # keys, so its carriers would not make the region the compiled sweep made)
            return self.sweeper.semis(player, own, empty, self.semi_rounds)
        known = self._semis.get((player, own, empty))
        if known is not None:
            return known
        if len(self._semis) >= _SEMIS_KEPT:
            self._semis.clear()
        out: list[tuple[int, int, Link]] = []
        start, end, middle = self.groups(player, own)
        a, b = self.sides[player]
        dilate = self.cells.dilate
        for m in set_bits(empty):
            bit = 1 << m
            near = dilate(bit)
            merged = bit
            rest = []
            for g in middle:
                if g & near:
                    merged |= g
                else:
                    rest.append(g)
            s2, e2 = start, end
            if bit & a or near & start:
                s2 = start | merged
            if bit & b or near & end:
                e2 = end | merged
            if s2 == start and e2 == end:
                rest.append(merged)
            link = self._chain(player, s2, e2, rest, empty & ~bit)
            if link is not None:
                out.append((m, bit | carrier_of(link), link))
        self._semis[player, own, empty] = out
        return out

    def answers(self, player: str, own: int, empty: int) -> list[tuple[int, int, Link]]:
        """Every semi-connection of ``player``'s sides the search knows (the ones of
        :meth:`semis`, then H-search's, whose link is its carrier without the key: a
        carrier node in a proof): the list whose carriers make the opponent's must-play
        region, from which a proof answers a move outside it."""
        out = self.semis(player, own, empty)
        if self.sweeper is not None and self.hsearch and player in self.sides:
            joined, found = self.sweeper.hsearch(player, own, empty)
            if joined is None:
                out = out + [(key, carrier, ([], carrier & ~(1 << key))) for key, carrier in found]
        return out
