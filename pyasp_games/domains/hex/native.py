"""Native Hex solver: depth-first proof search with a transposition table and Hex knowledge.

Who wins with the player to move, a winning move and a proof (:mod:`.verify` checks it):
:func:`solve_position`, behind the ``native`` backend :func:`solve_native`; every opening
of an empty board: :func:`solve_openings`. The :class:`Engine` searches; its parts are
modules of their own: the cells as bitsets (:mod:`.cells`), the connections a proof can
carry (:mod:`.links`, compiled in :mod:`.connections`), the edge templates
(:mod:`.templates`), the dead cells (:mod:`.dead_cells`), the must-play region and the
moves' order (:mod:`.must_play`), the proof-number search (:mod:`.pns`) and the proof
read out of the search's table (:mod:`.proofs`).

>>> from pyasp_games.domains.hex.model import parse_position
>>> result = solve_position(parse_position("3x3"))
>>> result.winner, result.move
('B', 'b2')
>>> solve_position(parse_position("B../.../...")).winner  # the acute corner a1 loses
'W'

Notes
-----
A position is two Python ``int`` bitsets (black and white stones). On the rhombus the
neighbours of a whole set of cells are six shifts of the set (:class:`.cells.Cells`), so a flood
fill costs a few big-integer operations per step whatever the board's size.

The knowledge (Hayward et al. 2005; Henderson, Arneson and Hayward 2009), kept so that
every conclusion it draws is a proof a checker can replay:

- **pairing connections**: a player's groups (and the two sides it joins) are linked when
  they share two empty neighbours (a *bridge*; to a side: edge template II); a chain of
  such links from side to side whose pairs are disjoint is a *virtual connection* the
  player holds whoever moves: answer a move in a pair with the other cell. It is found by
  a depth-first search over the groups (:meth:`.links.Links.pairing`) and written in the proof
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

**Dead cells** (:mod:`.dead_cells`, where the argument is): an empty cell whose
colour can no longer change who has won, for either player, is filled (Black's, a fixed
colour) before a position is looked up; the proof writes a *dead* node that fills
them black as the search did, each cell found dead again by the checker's own criterion.
**Captured cells** (a cell dead for one player alone, or a pair of adjacent cells each
dead for one player once the other is its opponent's) are filled for their captor
with them, and a move after which a neighbouring move of the same player is dead for
the opponent is *inferior* to it and not searched (:mod:`.dead_cells`); the proof
writes a *fill* node and, where the loser moves, its inferior replies, each judged by
the checker's own criterion. On the 7 x 7 centre this cut the proof from 1.2 million
nodes to 57,000 and the search's positions from 21,427 to 12,510.

The search is a proof-number search (:mod:`.pns`, :meth:`Engine.prove`; Allis 1994, in Hex as in
Henderson, Arneson and Hayward 2009): a tree of the positions met, each with the work
still needed to show its player to move wins (phi: the least delta of its children) or
loses (delta: the sum of its children's phi), grown one position at a time where the
root's answer is cheapest to settle. A new position starts at phi 1 and delta 1, its
moves those of the must-play region that hit the most carriers first; on boards of at
most 36 cells, at nodes with 14 or more empty cells, a look-ahead
(:attr:`.must_play.MustPlay.lookahead_from`) orders them by the opponent's region after
each and starts delta at its size (on 7 x 7 it cost more positions than it saved). Every settled position's value and reason go into a
transposition table keyed on the stones; the proof is read out of the table afterwards
(:func:`.proofs.proof_of`) and shares the nodes of transposed positions. The depth-first
boolean negamax (:meth:`Engine.wins`, the same knowledge) proves the restricted
positions of the carrier nodes; it keeps the look-ahead on every board
(:data:`INNER_LOOKAHEAD_FROM`), since a depth-first search pays a wrong first move in full
(without it, 7 x 7 e3's proof took over 3 million of its positions: issue 46). On the 5 x 5 opening a2 the proof-number search settles
the answer after 18,914 positions where the depth-first one was unfinished after 135,000.
Graph Hex searches with the pairing knowledge of Black (the joiner)
only: White's win is a cut, not a chain.

**H-search** (Anshelevich 2002; Hayward et al. 2003; :func:`.connections._hsearch`),
once compiled: the virtual connections between a player's points (its groups, its two
edges, the empty cells) derived by the AND rule (two full connections through a group,
or through an empty cell, which gives a semi-connection with that cell as its key) and
the OR rule (semi-connections whose carriers have no cell in common make a full one),
from adjacency and the edge templates, bounded in connections per pair. At every
position the search runs it for the opponent of the player to move: a full connection
of the opponent's edges, the player to move has lost; the opponent's edge-to-edge
semi-connections narrow the must-play region. The player to move's own H-search
(:attr:`.must_play.MustPlay.own_hsearch`, off by default) would say it has won at once
(a full connection, or a semi-connection and its key); but the parent's H-search, of the
same player with one cell more empty, found it none in the region the move was taken
from, so it finds one in 3.5% of the positions (7 x 7 opening a4), and the search finds
those wins one move later at less cost than the sweep at every position (the 7 x 7
centre: 12,046 positions and 10.9-12.2 s of CPU with it, 14,550 and 9.4-9.8 s without).
Such a connection has no pairing strategy: the proof writes a carrier node over its
cells and, inside, a *connect* leaf, H-search's derivation of it (every step one rule,
the checker replays each with its own tests, :class:`.verify._Derivations`); where
H-search derives none there (or only through the 19-cell edge template, whose local game
is too costly for the checker to play out), the strategy H-search gives move by move (:meth:`.proofs.ProofWriter.connection`: the winner plays the key of its smallest semi-connection and the game is
restricted to the rest of its carrier; every reply of the loser there is answered so),
down to pairing leaves, with the template-free engine's proof where H-search has
nothing more to say. The checker replays all of it with its own rules, so an unsound
rule would show as a refused proof (``tests/test_hex.py`` builds such proofs and
derivations: an OR over overlapping carriers, an AND through a side, a template short
of a cell).

The connection search runs compiled (:mod:`.connections`, numba, a set of cells one
64-bit word) on boards of at most 62 cells once a search has used
:data:`~pyasp_games.engines.compiled.INTERPRETED_SECONDS` of CPU; there it also looks,
after each key, for other chains that avoid the must-play region (each a
semi-connection of its own, shrinking the region). A lost position keeps its region
only: the proof reader sweeps the opponent's semi-connections again (the same list).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pyasp_games.domains.hex.cells import Cells
from pyasp_games.domains.hex.dead_cells import DeadCells
from pyasp_games.domains.hex.links import Links
from pyasp_games.domains.hex.model import PLAYERS, Hex
from pyasp_games.domains.hex.must_play import Entry, MustPlay
from pyasp_games.domains.hex.pns import POLL, prove
from pyasp_games.domains.hex.proofs import proof_of
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.enforcement import memory_stop
from pyasp_games.engines.limits import Deadline, LimitReached, Limits

#: the fewest empty cells at which the template-free engine (:attr:`Engine.inner`, the
#: depth-first search of the proofs' restricted positions) orders its moves by the
#: look-ahead (:attr:`.must_play.MustPlay.lookahead_from`), on every board size
INNER_LOOKAHEAD_FROM = 14


class Engine:
    """The search over one game's positions; its table lasts as long as the engine (all
    the openings of a board share it; interactive play keeps one for the whole game).

    Its parts: :attr:`cells` (the bitsets), :attr:`links` (the connections, and the
    compiled search once worth loading), :attr:`dead` (the dead cells filled),
    :attr:`must_play` (the knowledge of a position before its moves are searched), and
    :attr:`table`, the value and reason of every position settled."""

    def __init__(self, game: Hex, deadline: Deadline | None = None, knowledge: bool = True,
                 templates: bool = True, compiled: bool = True, dead_cells: bool = True,
                 hsearch: bool = True, derive: bool = True, captured: bool = True) -> None:
        self.game = game
        #: proofs carry H-search's derivations (``connect`` leaves, :mod:`.proofs`)
        self.derive = derive
        self.cells = Cells(game)
        self.deadline = deadline or Deadline(None)
        self.knowledge = knowledge
        self.table: dict[tuple[int, int, str], Entry] = {}
        self.nodes = 0
        self.links = Links(game, self.cells, knowledge, templates, compiled, hsearch)
        self.dead = DeadCells(self.links, dead_cells and knowledge, captured)
        self.must_play = MustPlay(self.links, knowledge)
        self.must_play.dead = self.dead
        # the engine that proves the connections using templates inside their carriers,
        # with the pairing knowledge alone (made when a proof first needs it)
        self._inner: Engine | None = None

    @property
    def inner(self) -> Engine:
        """The template-free engine of this game (same deadline) that writes the proofs of
        the restricted positions of the connections that use edge templates."""
        if self._inner is None:
            links = self.links
            self._inner = Engine(self.game, self.deadline, knowledge=True, templates=False,
                                 compiled=links.compilable or links.sweeper is not None,
                                 dead_cells=self.dead.fill, hsearch=False, captured=self.dead.captured)
            # its depth-first negamax keeps the look-ahead move ordering on every board:
            # unlike the proof-number search, it tries each move to the end before the next,
            # so a wrong first try is paid in full (7 x 7 e3's proof: 51,888 positions with
            # it, more than 3 million and over 200 s of CPU without; issue 46)
            self._inner.must_play.lookahead_from = INNER_LOOKAHEAD_FROM
        return self._inner

    def won(self, player: str, black: int, white: int) -> bool:
        """Whether ``player`` has won with these stones."""
        return self.links.won(player, black, white)

    def compile_now(self) -> bool:
        """Use the compiled connection search from now on, where the board allows it
        (:meth:`.links.Links.compile_now`); whether it is used."""
        return self.links.compile_now()

    # -- the search ----------------------------------------------------------------------
    def wins(self, black: int, white: int, player: str) -> bool:
        """Whether ``player``, to move, wins; the reason goes into the table."""
        black, white = self.dead.settle(black, white)
        key = (black, white, player)
        entry = self.table.get(key)
        if entry is not None:
            return entry.wins
        self.nodes += 1
        if self.nodes % POLL == 0:
            self.deadline.check()
        entry = self._evaluate(black, white, player)
        self.table[key] = entry
        return entry.wins

    def entry(self, black: int, white: int, player: str) -> Entry:
        """What the search knows of the position (searched first if need be): its entry,
        which is that of the position with the dead cells filled (:mod:`.dead_cells`)."""
        self.wins(black, white, player)
        return self.table[(*self.dead.settle(black, white), player)]

    def _evaluate(self, black: int, white: int, player: str) -> Entry:
        known = self.must_play.assess(black, white, player, self.nodes)
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

    def prove(self, black: int, white: int, player: str) -> bool:
        """Whether ``player``, to move, wins, by proof-number search (:func:`.pns.prove`),
        the same knowledge at each position as :meth:`wins`; the values and reasons of the
        settled positions go into the table, so :func:`.proofs.proof_of` reads the proof."""
        return prove(self, black, white, player)


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



def solve_position(game: Hex, deadline: Deadline | None = None, engine: Engine | None = None,
                   knowledge: bool = True) -> Result:
    """The winner of ``game`` with the player to move, a winning move and the proof."""
    engine = engine or Engine(game, deadline, knowledge)
    black, white = _stones(game)
    player = game.to_move
    before = engine.nodes
    wins = engine.prove(black, white, player) if engine.knowledge else engine.wins(black, white, player)
    proof = proof_of(engine, black, white, player)
    winner = player if wins else ("W" if player == "B" else "B")
    # the winning move: the proof's first (below its fills and restrictions; a position
    # the fill-in alone decides starts with a move too, :meth:`.proofs.ProofWriter.proof`)
    move = None
    if wins:
        node = proof["nodes"][proof["root"]]
        while "move" not in node and "next" in node:
            node = proof["nodes"][node["next"]]
        move = node.get("move")
    stats = {"nodes": engine.nodes - before, "table": len(engine.table), "proof_nodes": len(proof["nodes"])}
    return Result(winner, move, proof, stats)


def solve_native(game: Hex, limits: Limits = Limits(), knowledge: bool = True) -> Claim:
    """The ``native`` backend: answer ``black`` or ``white`` (the winner), witness the
    winning move of the player to move (``None`` when that player loses), the proof as
    the claim's certificate."""
    engine = Engine(game, limits.deadline(), knowledge)
    try:
        result = solve_position(game, engine=engine)
    except LimitReached:
        return Claim.unknown({"limit": "time", "nodes": engine.nodes, "table": len(engine.table)})
    except MemoryError:
        stopped = True  # (the traceback, which holds the search's frames, goes at the block's end)
    else:
        stopped = False
    if stopped:
        # a run stopped by its memory cap says how far it got; the engine (its table) is
        # let go first, so that the answer has room
        counts = {"nodes": engine.nodes, "table": len(engine.table)}
        del engine
        return Claim.unknown({**memory_stop("the backend ran out of memory"), **counts})
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

