"""Native Hex solver: depth-first proof search with a transposition table and Hex knowledge.

Who wins with the player to move, a winning move and a proof (:mod:`.verify` checks it):
:func:`solve_position`, behind the ``native`` backend :func:`solve_native`; every opening
of an empty board: :func:`solve_openings`.

>>> from pyasp_games.domains.hex.model import parse_position
>>> result = solve_position(parse_position("3x3"))
>>> result.winner, result.move
('B', 'b2')
>>> solve_position(parse_position("B../.../...")).winner  # the acute corner a1 loses
'W'

Notes
-----
A position is two Python ``int`` bitsets (black and white stones). On the rhombus the
neighbours of a whole set of cells are six shifts of the set (:class:`Cells`), so a flood
fill costs a few big-integer operations per step whatever the board's size.

The knowledge (Hayward et al. 2005; Henderson, Arneson and Hayward 2009), kept so that
every conclusion it draws is a proof a checker can replay:

- **pairing connections**: a player's groups (and the two sides it joins) are linked when
  they share two empty neighbours (a *bridge*; to a side: edge template II); a chain of
  such links from side to side whose pairs are disjoint is a *virtual connection* the
  player holds whoever moves: answer a move in a pair with the other cell. It is found by
  a depth-first search over the groups (:meth:`Engine.pairing`) and written in the proof
  as its pairs (the checker confirms every choice of one cell per pair connects);
- **edge templates**: a stone on the third row from its edge reaches it whoever moves
  while the 8 cells of template IIIa (the ziggurat) are empty, one on the fourth row with
  those of a 19-cell template (:data:`EDGE_TEMPLATES`, each proved by exhaustive search
  in the tests); the chain search takes them as links from a group to a side. A
  connection that uses one is written in the proof as a *carrier* node (every empty cell
  outside the connection's cells the loser's) and a proof inside the carrier by the
  template-free engine (:attr:`Engine.inner`), which the checker replays move by move;
- **semi-connections**: a move after which the player holds a connection; the
  player to move who has one wins at once (the move, then the connection's proof);
- **must-play region**: the opponent's semi-connections each ask the player to move to
  play in their carrier (the pairs and the key); a move outside the intersection of the
  carriers loses to the key of a semi-connection it misses: in the proof such a reply
  is answered by that key and its connection, and only the moves inside the region are
  searched. An empty region: the player to move has lost.

**Dead cells** (:meth:`Engine.settle`). For a player X, contract X's groups (each of
X's sides counts as a group, with the stones joined to it). An empty cell c is
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
transpose into one another); the proof writes a *carrier* node that leaves the filled
cells out, which the checker gives to the loser, and the proof found with them black
below it: :mod:`.verify` stays the judge (``tests/test_hex.py`` shows it refusing a proof
made with a cell filled that is not dead). A cell dead for one player only is left alone:
filling it is sound for the other player only when that player loses, which the search
does not know.

The search is a proof-number search (:meth:`Engine.prove`; Allis 1994, in Hex as in
Henderson, Arneson and Hayward 2009): a tree of the positions met, each with the work
still needed to show its player to move wins (phi: the least delta of its children) or
loses (delta: the sum of its children's phi), grown one position at a time where the
root's answer is cheapest to settle. A new position starts at phi 1 and, at nodes with
14 or more empty cells, delta the size of its mover's must-play region (a look-ahead of
one semi-connection sweep per move: a move after which the opponent must play in few
cells is tried first). Every settled position's value and reason go into a
transposition table keyed on the stones; the proof is read out of the table afterwards
(:func:`proof_of`) and shares the nodes of transposed positions. The depth-first
boolean negamax (:meth:`Engine.wins`, the same knowledge) proves the restricted
positions of the carrier nodes. On the 5 x 5 opening a2 the proof-number search settles
the answer after 18,914 positions where the depth-first one was unfinished after 135,000.
Graph Hex searches with the pairing knowledge of Black (the joiner)
only: White's win is a cut, not a chain.

**H-search** (Anshelevich 2002; Hayward et al. 2003; :func:`.connections._hsearch`),
once compiled: the virtual connections between a player's points (its groups, its two
edges, the empty cells) derived by the AND rule (two full connections through a group,
or through an empty cell, which gives a semi-connection with that cell as its key) and
the OR rule (semi-connections whose carriers have no cell in common make a full one),
from adjacency and the edge templates, bounded in connections per pair. At every
position the search runs it for both players: a full connection of the opponent's
edges, the player to move has lost; of its own, or a semi-connection, it has won (with
the key); the opponent's edge-to-edge semi-connections narrow the must-play region.
Such a connection has no pairing strategy: the proof writes a carrier node over its
cells and, inside, the strategy H-search gives move by move (:func:`proof_of`'s
``connection``: the winner plays the key of its smallest semi-connection and the game is
restricted to the rest of its carrier; every reply of the loser there is answered so),
down to pairing leaves, with the template-free engine's proof where H-search has
nothing more to say. The checker is unchanged: it replays all of it with its own rules,
so an unsound rule would show as a refused proof (``tests/test_hex.py`` builds one from
an OR over overlapping carriers).

The connection search runs compiled (:mod:`.connections`, numba, a set of cells one
64-bit word) on boards of at most 62 cells once a search has used
:data:`~pyasp_games.engines.compiled.INTERPRETED_SECONDS` of CPU; there it also looks,
after each key, for other chains that avoid the must-play region (each a
semi-connection of its own, shrinking the region). A lost position keeps its region
only: the proof reader sweeps the opponent's semi-connections again (the same list).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from pyasp_games.domains.hex.connections import MAX_CELLS, compiled_now
from pyasp_games.domains.hex.model import PLAYERS, Hex
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.compiled import INTERPRETED_SECONDS
from pyasp_games.engines.graphs import set_bits
from pyasp_games.engines.limits import Deadline, LimitReached, Limits

_POLL = 256  # positions between deadline checks
_SEMIS_KEPT = 200_000  # semi-connection sweeps kept for reuse (then forgotten at once)


def carrier_of(link: Link) -> int:
    """The empty cells a connection needs: its pairs' and its templates'."""
    pairs, carrier = link
    for x, y in pairs:
        carrier |= (1 << x) | (1 << y)
    return carrier


#: The edge templates used, as offsets (rows toward the edge, columns) from the stone of
#: the empty cells they need, the stone ``depth`` rows from the bottom edge (the edge row
#: is ``depth``), each with its mirror image: depth 2 is template IIIa (the ziggurat), 8
#: cells; depth 3 a template of 19 cells. They were found by :func:`find_edge_template`
#: (a cone below the stone shrunk while the engine still proves the connection);
#: ``tests/test_hex.py`` proves each again with :func:`template_holds` (and re-derives
#: them in a slow test). Written out here because finding the second costs 15 s.
EDGE_TEMPLATES: dict[int, list[list[tuple[int, int]]]] = {
    2: [
        [(0, -1), (1, -2), (1, -1), (1, 0), (2, -3), (2, -2), (2, -1), (2, 0)],
        [(0, 1), (1, -1), (1, 0), (1, 1), (2, -2), (2, -1), (2, 0), (2, 1)],
    ],
    3: [
        [(0, -1), (1, -3), (1, -2), (1, -1), (1, 0), (1, 1), (2, -4), (2, -3), (2, -2), (2, -1), (2, 0),
         (2, 1), (3, -5), (3, -4), (3, -3), (3, -2), (3, -1), (3, 0), (3, 1)],
        [(0, 1), (1, -2), (1, -1), (1, 0), (1, 1), (1, 2), (2, -3), (2, -2), (2, -1), (2, 0), (2, 1),
         (2, 2), (3, -4), (3, -3), (3, -2), (3, -1), (3, 0), (3, 1), (3, 2)],
    ],
}


class _TemplateBoard:
    """A board of ``depth + 2`` rows to prove an edge template on: the first row White's
    but the cell above the stone (Black's), the stone on the second row; every cell
    outside the carrier White's. The stone's only way to Black's top edge is that black
    cell (whose other empty neighbour touches the stone too), so Black wins exactly when
    the stone reaches the bottom row."""

    def __init__(self, depth: int) -> None:
        from pyasp_games.domains.hex.model import board as make_board

        self.depth = depth
        self.width = 2 * depth + 5
        self.c0 = depth + 2
        self.rows = depth + 2
        self.engine = Engine(make_board(self.rows, self.width, name="template"), templates=False)
        self.black = (1 << self.c0) | (1 << (self.width + self.c0))

    def holds(self, carrier: list[tuple[int, int]]) -> bool:
        """Whether the stone reaches the edge with White to move, the carrier's cells
        (offsets from the stone) empty and every other cell White's."""
        keep = 0
        for dr, dc in carrier:
            r, c = dr + 1, dc + self.c0
            if not (1 <= r < self.rows and 0 <= c < self.width) or (r, c) == (1, self.c0):
                return False
            keep |= 1 << (r * self.width + c)
        white = self.engine.cells.full & ~keep & ~self.black
        return not self.engine.wins(self.black, white, "W")


def template_holds(depth: int, carrier: list[tuple[int, int]]) -> bool:
    """Whether a stone ``depth`` rows from the edge reaches it whoever moves with the
    cells ``carrier`` (offsets from the stone, rows toward the edge) empty: an exhaustive
    search (the template-free engine) with every other cell the opponent's."""
    return _TemplateBoard(depth).holds(carrier)


def find_edge_template(depth: int) -> list[list[tuple[int, int]]]:
    """An edge template for a stone ``depth`` rows from the edge and its mirror image,
    found rather than copied: a wide cone below the stone is shrunk cell by cell (the
    farthest first) while :func:`template_holds` stays true (a minimal carrier; the
    mirror is the board's reflection that keeps the edge, ``(r, c) -> (r, -c - r)``)."""
    frame = _TemplateBoard(depth)
    wide = depth >= 3
    cone = [(r, c) for r in range(depth + 1) for c in range(-r - 1 - wide, 3 + wide - (r + 1) // 2)
            if (r, c) != (0, 0)]  # fmt: skip
    if not frame.holds(cone):
        return []
    carrier = list(cone)
    for cell in sorted(cone, key=lambda rc: (-abs(rc[1] + rc[0] / 2), -rc[0])):
        trial = [x for x in carrier if x != cell]
        if frame.holds(trial):
            carrier = trial
    mirror = sorted((r, -dc - r) for r, dc in carrier)
    return [sorted(carrier)] if mirror == sorted(carrier) else [sorted(carrier), mirror]


def board_templates(game: Hex) -> dict[str, tuple[list[list[int]], list[list[int]]]]:
    """For each player, its sides (the first, the second) and each cell, the carriers
    (bitsets of cells) of the edge templates (:data:`EDGE_TEMPLATES`) that fit on the
    board: the stone there reaches that side whenever the carrier's cells are empty."""
    rows, cols = game.rows, game.cols
    out: dict[str, tuple[list[list[int]], list[list[int]]]] = {}
    # each side as a map from (rows toward the edge, column offset) to a board cell: Black's
    # bottom edge is the templates' own frame, the top its half turn, White's right and
    # left the transposes (the swap of rows and columns keeps the neighbourhoods)
    frames = {
        ("B", 1): lambda r, c, dr, dc: (r + dr, c + dc),
        ("B", 0): lambda r, c, dr, dc: (r - dr, c - dc),
        ("W", 1): lambda r, c, dr, dc: (r + dc, c + dr),
        ("W", 0): lambda r, c, dr, dc: (r - dc, c - dr),
    }
    for player in ("B", "W"):
        per_side: list[list[list[int]]] = []
        for side in (0, 1):
            frame = frames[player, side]
            cells: list[list[int]] = [[] for _ in range(len(game))]
            for depth, shapes in EDGE_TEMPLATES.items():
                for i in range(len(game)):
                    r, c = divmod(i, cols)
                    # the stone must be ``depth`` rows from this side's edge row
                    er, ec = frame(r, c, depth, 0)
                    on_edge = er == (rows - 1 if side else 0) if player == "B" else ec == (cols - 1 if side else 0)
                    if not on_edge:
                        continue
                    for shape in shapes:
                        bits = 0
                        for dr, dc in shape:
                            rr, cc = frame(r, c, dr, dc)
                            if not (0 <= rr < rows and 0 <= cc < cols):
                                break
                            bits |= 1 << (rr * cols + cc)
                        else:
                            cells[i].append(bits)
            per_side.append(cells)
        out[player] = (per_side[0], per_side[1])
    return out


class Cells:
    """Neighbourhoods of sets of cells as bitsets: shifts on the rhombus, per cell on a graph."""

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


#: A connection as the proof carries it: disjoint pairs of empty cells, and the empty
#: cells of the edge templates it uses, or of an H-search connection's carrier (its
#: pairs then empty) (``0``: none, a pairing connection alone).
Link = tuple[list[tuple[int, int]], int]


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


class Engine:
    """The search over one game's positions; its table lasts as long as the engine (all
    the openings of a board share it; interactive play keeps one for the whole game)."""

    def __init__(self, game: Hex, deadline: Deadline | None = None, knowledge: bool = True,
                 templates: bool = True, compiled: bool = True, dead_cells: bool = True,
                 hsearch: bool = True) -> None:
        self.game = game
        self.cells = Cells(game)
        self.deadline = deadline or Deadline(None)
        self.knowledge = knowledge
        self.table: dict[tuple[int, int, str], Entry] = {}
        self.nodes = 0
        #: the fewest empty cells at which the moves are ordered by a look-ahead
        self.lookahead_from = 14
        # semi-connections by (player, stones, empty cells): the look-ahead's sweep after
        # a move is the must-play sweep of the position that move makes
        self._semis: dict[tuple[str, int, int], list[tuple[int, int, Link]]] = {}
        self.sides = {p: (sum(1 << i for i in a), sum(1 << i for i in b)) for p, (a, b) in game.sides.items()}
        centre_r, centre_c = (game.rows - 1) / 2, (game.cols - 1) / 2
        if game.is_board:
            self.rank = [abs(i // game.cols - centre_r) + abs(i % game.cols - centre_c) for i in range(len(game))]
        else:
            self.rank = [-len(near) for near in game.neighbours]
        # the edge templates: for each player, side (0, 1) and cell, the carriers (bitsets)
        # with which a stone there reaches that side
        self.templates: dict[str, tuple[list[list[int]], list[list[int]]]] = {}
        if knowledge and templates and game.is_board:
            self.templates = board_templates(game)
        # per player and side, the cells that have a template at all
        self.template_cells = {p: tuple(sum(1 << i for i, ts in enumerate(side) if ts) for side in sides)
                               for p, sides in self.templates.items()}  # fmt: skip
        # the engine that proves the connections using templates inside their carriers,
        # with the pairing knowledge alone (made when a proof first needs it)
        self._inner: Engine | None = None
        # the compiled connection search (boards of at most 62 cells), once worth loading
        self._sweeper: Any = None
        self._order: Any = None  # the cells by rank, for the compiled winning-move search
        #: rounds of the compiled sweep's search for other chains after the same keys that
        #: shrink the must-play region (:func:`.connections._semis`)
        self.semi_rounds = 2
        self._compilable = compiled and knowledge and game.is_board and len(game) <= MAX_CELLS
        #: fill the dead cells of every position searched (:meth:`settle`)
        self.fill = dead_cells and knowledge and game.is_board
        #: run H-search (:func:`.connections._hsearch`) at every position once compiled
        self.hsearch = hsearch and knowledge and game.is_board
        self._cpu0 = time.process_time()

    @property
    def inner(self) -> Engine:
        """The template-free engine of this game (same deadline) that writes the proofs of
        the restricted positions of the connections that use edge templates."""
        if self._inner is None:
            self._inner = Engine(self.game, self.deadline, knowledge=True, templates=False,
                                 compiled=self._compilable or self._sweeper is not None, dead_cells=self.fill,
                                 hsearch=False)
        return self._inner

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
        if self._sweeper is not None:
            return self._sweeper.pairing(player, own, empty)
        return self._chain(player, *self.groups(player, own), empty)

    def _compile_when_worth_it(self) -> None:
        """Switch the connection search to the compiled kernels (:mod:`.connections`)
        once this engine has searched for :data:`INTERPRETED_SECONDS` of CPU (at once if
        they are loaded already): a small search never loads numba, a long one pays the
        load once."""
        if compiled_now() or time.process_time() - self._cpu0 >= INTERPRETED_SECONDS:
            self.compile_now()

    def compile_now(self) -> bool:
        """Use the compiled connection search from now on, where the board allows it (a
        rhombus of at most :data:`MAX_CELLS` cells); whether it is used."""
        if self._sweeper is None and self._compilable:
            import numpy as np

            from pyasp_games.domains.hex.connections import Sweeper

            self._sweeper = Sweeper(self.game, self.templates)
            self._order = np.array(sorted(range(len(self.game)), key=lambda c: self.rank[c]), dtype=np.int64)
            self._compilable = False
        return self._sweeper is not None

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
        known = self._semis.get((player, own, empty))
        if known is not None:
            return known
        if len(self._semis) >= _SEMIS_KEPT:
            self._semis.clear()
        if self._sweeper is not None:
            # compiled, a sweep costs less than keeping it: not cached
            return self._sweeper.semis(player, own, empty, self.semi_rounds)
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
        if self._sweeper is not None and self.hsearch and player in self.sides:
            joined, found = self._sweeper.hsearch(player, own, empty)
            if joined is None:
                out = out + [(key, carrier, ([], carrier & ~(1 << key))) for key, carrier in found]
        return out

    # -- dead cells ----------------------------------------------------------------------
    def dead_for(self, player: str, own: int, empty: int, candidates: int) -> int:
        """The cells of ``candidates`` (empty) that are dead for ``player`` (stones
        ``own``): every usable neighbour (an empty cell, a group of ``player``, one of its
        sides with the stones joined to it) linked to every other one (two empty cells
        adjacent, an empty cell touching the group, the same group); see the module's
        notes on dead cells."""
        start, end, middle = self.groups(player, own)
        a, b = self.sides[player]
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
        if self._sweeper is not None:
            return self._sweeper.settle(black, white)
        while True:
            dead = self.dead_cells(black, white)
            if not dead:
                return black, white
            black |= dead

    # -- the search ----------------------------------------------------------------------
    def wins(self, black: int, white: int, player: str) -> bool:
        """Whether ``player``, to move, wins; the reason goes into the table."""
        black, white = self.settle(black, white)
        key = (black, white, player)
        entry = self.table.get(key)
        if entry is not None:
            return entry.wins
        self.nodes += 1
        if self.nodes % _POLL == 0:
            self.deadline.check()
        entry = self._evaluate(black, white, player)
        self.table[key] = entry
        return entry.wins

    def entry(self, black: int, white: int, player: str) -> Entry:
        """What the search knows of the position (searched first if need be): its entry,
        which is that of the position with the dead cells filled (:meth:`settle`)."""
        self.wins(black, white, player)
        return self.table[(*self.settle(black, white), player)]

    def _evaluate(self, black: int, white: int, player: str) -> Entry:
        known = self._knowledge(black, white, player)
        if isinstance(known, Entry):
            return known
        moves, region, semis, _ = known
        opponent = "W" if player == "B" else "B"
        for m in moves:
            bit = 1 << m
            child = (black | bit, white) if player == "B" else (black, white | bit)
            if not self.wins(*child, opponent):
                return Entry(True, move=m)
        return Entry(False, searched=region, semis=semis)

    def _knowledge(self, black: int, white: int, player: str
                   ) -> Entry | tuple[list[int], int, list[tuple[int, int, Link]] | None, list[int]]:
        """What the knowledge says of a position: its value with the reason (an
        :class:`Entry`), or the moves of the must-play region to search, in the order to
        try them, the region, the opponent's semi-connections (``None`` when compiled: the
        proof reader sweeps them again), and for each move a guess
        of the work to refute it (the opponent's region after it; 1 where not looked)."""
        if self._compilable and self.nodes % 16 == 0:
            self._compile_when_worth_it()
        opponent = "W" if player == "B" else "B"
        empty = self.cells.full & ~(black | white)
        own, opp = (black, white) if player == "B" else (white, black)
        if self.won(opponent, black, white):
            return Entry(False, pairs=([], 0))
        if self.won(player, black, white):
            return Entry(True, move=None, pairs=([], 0))
        if self.knowledge:
            pairs = self.pairing(opponent, opp, empty)
            if pairs is not None:
                return Entry(False, pairs=pairs)
            if self._sweeper is not None:
                first = self._sweeper.first_key(player, own, empty, self._order)
                if first is not None:
                    return Entry(True, move=first[0], pairs=first[1])
            else:
                for m in sorted(set_bits(empty), key=lambda c: self.rank[c]):
                    bit = 1 << m
                    mine = self.pairing(player, own | bit, empty & ~bit)
                    if mine is not None:
                        return Entry(True, move=m, pairs=mine)
        extra: list[tuple[int, int]] = []
        if self._sweeper is not None and self.hsearch:
            # H-search: a full connection of the opponent's sides, the position is lost; of
            # the player's, won (a move in its carrier, which keeps the rest of it); a semi
            # one, won by its key; the opponent's semis narrow the must-play region below.
            # Each is written in the proof as a carrier node proved inside by the
            # template-free engine (:func:`proof_of`)
            joined, extra = self._sweeper.hsearch(opponent, opp, empty)
            if joined is not None:
                return Entry(False, pairs=([], joined))
            joined, mine_semis = self._sweeper.hsearch(player, own, empty)
            if joined is not None:
                m = (joined or empty) & -(joined or empty)
                return Entry(True, move=m.bit_length() - 1, pairs=([], joined & ~m))
            if mine_semis:
                key, carrier = min(mine_semis, key=lambda s: s[1].bit_count())
                return Entry(True, move=key, pairs=([], carrier & ~(1 << key)))
        semis: list[tuple[int, int, Link]] | None = []
        if self._sweeper is not None:
            # compiled: the region and the counts without the list (swept again for a proof)
            region, hits = self._sweeper.must_play(opponent, opp, empty, self.semi_rounds)
            semis = None
            for _, carrier in extra:
                region &= carrier
                for c in set_bits(carrier):
                    hits[c] += 1
        else:
            if self.knowledge:
                semis = self.semis(opponent, opp, empty)
            region = empty
            hits = [0] * self.cells.n
            for _, carrier, _ in semis or ():
                region &= carrier
                for c in set_bits(carrier):
                    hits[c] += 1
        if self.knowledge and empty.bit_count() >= self.lookahead_from:
            # shallow nodes: try first the moves after which the opponent's region is
            # smallest (a costly look-ahead, paid where a wrong first try costs most)
            def after(c: int) -> int:
                bit = 1 << c
                mine = self.semis(player, own | bit, empty & ~bit)
                left = empty & ~bit
                for _, carrier, _ in mine:
                    left &= carrier
                return left.bit_count() if mine else 99
            if self._sweeper is not None:
                costs = self._sweeper.lookahead(player, own, empty, region)
                cost = {c: costs[c] for c in set_bits(region)}
            else:
                cost = {c: after(c) for c in set_bits(region)}
            moves = sorted(cost, key=lambda c: (cost[c], -hits[c], self.rank[c]))
            return moves, region, semis, [max(1, cost[c]) for c in moves]
        moves = sorted(set_bits(region), key=lambda c: (-hits[c], self.rank[c]))
        return moves, region, semis, [1] * len(moves)

    # -- proof-number search ------------------------------------------------------------
    def prove(self, black: int, white: int, player: str) -> bool:
        """Whether ``player``, to move, wins, by proof-number search (best first: the
        position expanded next is the one whose answer would most cheaply settle the
        root), the same knowledge at each position as :meth:`wins`; the values and reasons
        of the settled positions go into the table, so :func:`proof_of` reads the proof."""
        inf = 1 << 60
        # per position: [phi, delta, children or None, region, key, best child]: phi the
        # work to show the player to move wins, delta to show it loses; the children are
        # [moves, kids, made], a kid the node itself once made, before that its initial
        # delta (an int: most children are never expanded, and a node costs memory). The
        # initial deltas come in increasing order and the child chosen is the first of
        # the least delta, so the kids made are always ``kids[:made]``: the others count
        # as a sum and the first of them as the least, without a loop over them
        tree: dict[tuple[int, int, str], list[Any]] = {}
        table = self.table
        settle = self.settle

        def leaf(key: tuple[int, int, str], guess: int) -> list[Any]:
            node = tree.get(key)
            if node is None:
                entry = table.get(key)
                if entry is not None:
                    node = [0, inf, None, None, key, 0] if entry.wins else [inf, 0, None, None, key, 0]
                else:
                    node = [1, guess, None, None, key, 0]
                tree[key] = node
            return node

        def expand(node: list[Any]) -> None:
            self.nodes += 1
            if self.nodes % _POLL == 0:
                self.deadline.check()
            key = node[4]
            known = self._knowledge(*key)
            if isinstance(known, Entry):
                table[key] = known
                node[0], node[1] = (0, inf) if known.wins else (inf, 0)
                return
            moves, region, _, guesses = known
            node[2] = [moves, list(guesses), 0]
            node[3] = region
            update(node)

        def kid(node: list[Any], i: int) -> list[Any]:
            children = node[2]
            moves, kids, made = children
            if i < made:
                return kids[i]
            # i == made: the first kid not made yet (see the tree's note above)
            black, white, player = node[4]
            bit = 1 << moves[i]
            if player == "B":
                child = (*settle(black | bit, white), "W")
            else:
                child = (*settle(black, white | bit), "B")
            kids[i] = leaf(child, kids[i])
            children[2] = made + 1
            return kids[i]

        def update(node: list[Any]) -> None:
            _, kids, made = node[2]
            phi, delta, best = inf, 0, 0
            for i in range(made):
                c = kids[i]
                if c[1] < phi:
                    phi, best = c[1], i
                delta += c[0]
            if made < len(kids):
                if kids[made] < phi:
                    phi, best = kids[made], made
                delta += len(kids) - made
            if delta > inf:
                delta = inf
            node[0], node[1], node[5] = phi, delta, best
            if phi == 0:
                table[node[4]] = Entry(True, move=node[2][0][best])
            elif delta == 0:
                # the opponent's semi-connections are swept again when the proof is read
                table[node[4]] = Entry(False, searched=node[3], semis=None)

        root = leaf((*settle(black, white), player), 1)
        path = [root]
        while root[0] and root[1]:
            node = path[-1]
            while True:
                if node[2] is None:
                    if node[0] and node[1]:
                        expand(node)
                    break
                # a position reached by another way may have been settled below since
                # its values were last written: refresh them on the way down
                update(node)
                if not (node[0] and node[1]):
                    break
                node = kid(node, node[5])
                path.append(node)
            # back up while the values change: where they do not, the ancestors' do not
            # either, and the next position to expand lies below (Allis's current node)
            while len(path) > 1:
                path.pop()
                above = path[-1]
                before = above[0], above[1]
                update(above)
                if (above[0], above[1]) == before and above[0] and above[1]:
                    break
        return root[0] == 0


@dataclass
class Result:
    """The value of a position: the winner (``'B'``/``'W'``), the winning move of the
    player to move (a cell name) if that player wins, the proof and the search's counts."""

    winner: str
    move: str | None
    proof: dict[str, Any]
    stats: dict[str, Any]


def _stones(game: Hex) -> tuple[int, int]:
    black = sum(1 << i for i, s in enumerate(game.stones) if s == "B")
    white = sum(1 << i for i, s in enumerate(game.stones) if s == "W")
    return black, white


def proof_of(engine: Engine, black: int, white: int, player: str) -> dict[str, Any]:
    """The proof of the position's value read out of the engine's table: a DAG of nodes
    (the shape :mod:`~pyasp_games.domains.hex.verify` documents), searching again where a
    node is missing. A connection that uses edge templates, or one H-search found,
    becomes a carrier node: the position restricted to the connection's cells (every
    other empty cell the loser's), proved move by move there by H-search's strategy
    (``connection`` below) and, where H-search has nothing to say, by the template-free
    engine (:attr:`Engine.inner`)."""
    names = engine.game.cells
    nodes: list[dict[str, Any]] = []
    ids: dict[tuple[int, int, int, str], int] = {}

    def link_node(link: Link, black: int, white: int, to_move: str, winner: str) -> int:
        pairs, templates = link
        if not templates:
            nodes.append({"won": True} if not pairs else {"pairs": [[names[x], names[y]] for x, y in pairs]})
            return len(nodes) - 1
        return restricted(carrier_of(link), black, white, to_move, winner)

    full = engine.cells.full
    sweeper = engine._sweeper if engine.hsearch else None
    joins: dict[tuple[int, int, str, str], int] = {}

    def restricted(keep: int, black: int, white: int, to_move: str, winner: str) -> int:
        """The position restricted to the cells ``keep`` (every other empty cell the
        loser's: a carrier node, when that leaves a cell out), where ``winner`` holds a
        connection of its sides, and the proof of it (:func:`connection`)."""
        empty = full & ~(black | white)
        outside = empty & ~keep
        if not outside:
            return connection(black, white, to_move, winner)
        if winner == "B":
            white |= outside
        else:
            black |= outside
        sub = connection(black, white, to_move, winner, claimed=True)
        nodes.append({"carrier": [names[c] for c in set_bits(keep & empty)], "next": sub})
        return len(nodes) - 1

    def connection(black: int, white: int, to_move: str, winner: str, claimed: bool = False) -> int:
        """The proof that ``winner`` joins its sides in a position where a connection
        (a template's, H-search's) says it does: a pairing leaf where the template-free
        pairs suffice; else H-search again, move by move: the winner to move plays the
        key of its smallest semi-connection (or into a full one) and the position is
        restricted to what is left of that connection's carrier, the loser to move sees
        the position restricted to the full connection's carrier and every reply there
        answered so; where H-search finds nothing to say, the template-free engine's
        proof of the position (each step leaves fewer empty cells, so it ends).
        ``claimed``: the position is a restriction to a connection's carrier, so the
        loser to move has every reply answered without a search for a smaller one."""
        key = (black, white, to_move, winner)
        if key in joins:
            return joins[key]
        inner = engine.inner
        own = black if winner == "B" else white
        loser = "W" if winner == "B" else "B"
        empty = full & ~(black | white)
        at: int | None = None
        if engine.won(winner, black, white):
            nodes.append({"won": True})
            at = len(nodes) - 1
        elif (pairs := inner.pairing(winner, own, empty)) is not None and not pairs[1]:
            nodes.append({"pairs": [[names[x], names[y]] for x, y in pairs[0]]} if pairs[0] else {"won": True})
            at = len(nodes) - 1
        elif to_move == winner and inner._sweeper is not None and (
                first := inner._sweeper.first_key(winner, own, empty, inner._order)) is not None:
            # a key after which the template-free pairs join the sides: the cheapest answer
            here = {"move": names[first[0]]}
            nodes.append(here)
            at = len(nodes) - 1
            pairs = first[1][0]
            nodes.append({"pairs": [[names[x], names[y]] for x, y in pairs]} if pairs else {"won": True})
            here["next"] = len(nodes) - 1
        elif sweeper is not None:
            joined, semis = (sweeper.hsearch(winner, own, empty)
                             if not (claimed and to_move == loser) else (None, []))
            if to_move == winner and (joined is not None or semis):
                if joined is not None:
                    move = (joined or empty) & -(joined or empty)
                    keep = joined & ~move
                else:
                    cell, carrier = min(semis, key=lambda s: s[1].bit_count())
                    move, keep = 1 << cell, carrier & ~(1 << cell)
                here: dict[str, Any] = {"move": names[move.bit_length() - 1]}
                after = (black | move, white) if winner == "B" else (black, white | move)
                here["next"] = restricted(keep, *after, loser, winner)
                nodes.append(here)
                at = len(nodes) - 1
            elif to_move == loser:
                if joined is not None and joined & empty != empty:
                    at = restricted(joined, black, white, to_move, winner)
                else:
                    # (without a full connection found here, the one claimed above still
                    # stands: every reply is answered as the winner to move is)
                    replies = {}
                    for m in set_bits(empty):
                        bit = 1 << m
                        after = (black | bit, white) if loser == "B" else (black, white | bit)
                        replies[names[m]] = connection(*after, winner, winner)
                    nodes.append({"replies": replies})
                    at = len(nodes) - 1
        if at is None:
            if inner.wins(black, white, to_move) != (to_move == winner):
                raise RuntimeError("a connection did not hold in its carrier")
            at = node(inner, black, white, to_move)
        joins[key] = at
        return at

    def node(engine: Engine, black: int, white: int, player: str) -> int:
        key = (id(engine), black, white, player)
        if key in ids:
            return ids[key]
        settled = engine.settle(black, white)
        if settled != (black, white):
            # the dead cells filled: the proof goes on without them (the loser's), the
            # sub-proof found with them Black's replays, as their colour decides no win
            here = {"carrier": [names[c] for c in set_bits(engine.cells.full & ~(settled[0] | settled[1]))]}
            nodes.append(here)
            ids[key] = len(nodes) - 1
            here["next"] = node(engine, *settled, player)
            return ids[key]
        engine.wins(black, white, player)
        entry = engine.table[black, white, player]
        opponent = "W" if player == "B" else "B"
        winner = player if entry.wins else opponent
        if entry.pairs is not None and entry.move is None:
            ids[key] = link_node(entry.pairs, black, white, player, winner)
            return ids[key]
        here: dict[str, Any] = {}
        nodes.append(here)
        ids[key] = len(nodes) - 1
        if entry.wins:
            bit = 1 << entry.move  # type: ignore[operator]
            child = (black | bit, white) if player == "B" else (black, white | bit)
            here["move"] = names[entry.move]  # type: ignore[index]
            here["next"] = (link_node(entry.pairs, *child, opponent, player) if entry.pairs is not None
                            else node(engine, *child, opponent))  # fmt: skip
            return ids[key]
        replies: dict[str, int] = {}
        empty = engine.cells.full & ~(black | white)
        semis = None
        for m in set_bits(empty):
            bit = 1 << m
            child = (black | bit, white) if player == "B" else (black, white | bit)
            if entry.searched >> m & 1:
                replies[names[m]] = node(engine, *child, opponent)
                continue
            if semis is None:
                opp = black if opponent == "B" else white
                semis = engine.answers(opponent, opp, empty) if entry.semis is None else entry.semis
            # the semi-connection this reply misses with the cheapest proof: pairs alone
            # (a leaf), else the smallest carrier (a strategy to write out)
            key_cell, _, link = min((s for s in semis if not (s[1] >> m & 1)),
                                    key=lambda s: (s[2][1] != 0, s[1].bit_count()))
            answer: dict[str, Any] = {"move": names[key_cell]}
            nodes.append(answer)
            replies[names[m]] = len(nodes) - 1
            kb = 1 << key_cell
            after = (child[0] | kb, child[1]) if opponent == "B" else (child[0], child[1] | kb)
            answer["next"] = link_node(link, *after, player, opponent)
        here["replies"] = replies
        return ids[key]

    root = node(engine, black, white, player)
    entry = engine.entry(black, white, player)
    winner = player if entry.wins else ("W" if player == "B" else "B")
    return {"winner": PLAYERS[winner], "root": root, "nodes": nodes}


def solve_position(game: Hex, deadline: Deadline | None = None, engine: Engine | None = None,
                   knowledge: bool = True) -> Result:
    """The winner of ``game`` with the player to move, a winning move and the proof."""
    engine = engine or Engine(game, deadline, knowledge)
    black, white = _stones(game)
    player = game.to_move
    before = engine.nodes
    wins = engine.prove(black, white, player) if engine.knowledge else engine.wins(black, white, player)
    entry = engine.entry(black, white, player)
    proof = proof_of(engine, black, white, player)
    winner = player if wins else ("W" if player == "B" else "B")
    move = game.cells[entry.move] if wins and entry.move is not None else None
    stats = {"nodes": engine.nodes - before, "table": len(engine.table), "proof_nodes": len(proof["nodes"])}
    return Result(winner, move, proof, stats)


def solve_native(game: Hex, limits: Limits = Limits(), knowledge: bool = True) -> Claim:
    """The ``native`` backend: answer ``black`` or ``white`` (the winner), witness the
    winning move of the player to move (``None`` when that player loses), the proof as
    the claim's certificate."""
    deadline = limits.deadline()
    try:
        result = solve_position(game, deadline, knowledge=knowledge)
    except LimitReached:
        return Claim.unknown({"limit": "time"})
    return Claim.solved(PLAYERS[result.winner], result.move,
                        stats={**result.stats, "to_move": PLAYERS[game.to_move]}, certificate=result.proof)


def rotated(game: Hex, cell: int) -> int:
    """The cell ``cell`` turned half a turn about the board's centre (a symmetry of Hex
    that keeps each player's sides)."""
    return len(game) - 1 - cell


def solve_openings(game: Hex, limits: Limits = Limits()) -> Claim:
    """The ``native`` backend of ``openings``: every first move of Black on the empty
    board ``game``, answered with its proof; the answer maps each cell to the winner
    after that opening (White to move), the certificate each cell's proof. Half of the
    board is searched; a cell of the other half has the proof ``{"image_of": cell}``, the cell it is the half-turn image
    of: the half-turn maps the board, and each player's sides, onto themselves, so the
    two openings have the same winner (the checker tests that the turn is a symmetry of
    the board, and checks the one proof)."""
    if not game.is_board or game.stones.count(".") != len(game):
        return Claim.error("openings are of an empty board")
    deadline = limits.deadline()
    engine = Engine(game, deadline)
    answer: dict[str, str] = {}
    proofs: dict[str, Any] = {}
    try:
        for cell in range(len(game)):
            image = rotated(game, cell)
            if image < cell:  # a turned copy of the proof would double the checks and the memory
                proofs[game.cells[cell]] = {"image_of": game.cells[image]}
                answer[game.cells[cell]] = answer[game.cells[image]]
                continue
            result = solve_position(game.play(cell), engine=engine)
            answer[game.cells[cell]] = PLAYERS[result.winner]
            proofs[game.cells[cell]] = result.proof
    except LimitReached:
        return Claim.unknown({"limit": "time", "solved": answer})
    return Claim.solved(
        answer, None, certificate=proofs,
        stats={"nodes": engine.nodes, "table": len(engine.table),
               "proof_nodes": sum(len(p["nodes"]) for p in proofs.values() if "nodes" in p)},
    )  # fmt: skip
