"""Writing a Hex proof out of the native search's table (the shape :mod:`.verify` checks).

The search (:mod:`.native`, :mod:`.pns`) leaves in its transposition table, for every
position it settled, the value and its reason (:class:`~.must_play.Entry`): the winning
move, or the moves searched and the opponent's semi-connections that answer the others,
or a connection one side holds. :func:`proof_of` reads a proof from it, node by node (a
DAG: transposed positions share their node), searching again where a node is missing:

- a won position: ``{"won": true}``; a pairing connection: a leaf of its ``pairs``;
- the winner to move: its ``move`` and the proof of what follows;
- the loser to move: every ``replies``' proof; a reply outside the must-play region is
  answered by the key of a semi-connection it misses, and that connection's proof;
- the dead and captured cells filled: a ``fill`` node, its steps in the search's order
  (the checker finds each of the winner's captured itself), the proof found with them
  filled below it; with the dead cells alone (``captured=False``), a ``dead`` node filling
  them black as the search did (without derivations, ``derive=False``: a ``carrier``
  node giving them to the loser);
- a reply of the loser inferior to a reply searched (:meth:`.dead_cells.DeadCells.inferior`):
  in the node's ``inferior`` map, answered as that reply is;
- a connection that uses edge templates, or one H-search found (no pairing strategy): a
  carrier node over its cells and, inside, a ``connect`` leaf, H-search's derivation of
  the connection (:meth:`.connections.Sweeper.derivation`, checked rule by rule); where
  H-search derives none there, the strategy it gives move by move
  (:meth:`ProofWriter.connection`: the winner plays the key of its smallest
  semi-connection and the game is restricted to the rest of that carrier; every reply
  of the loser there is answered so), down to pairing leaves, with the template-free
  engine's proof (:attr:`Engine.inner <pyasp_games.domains.hex.native.Engine.inner>`)
  where H-search has nothing more to say.

>>> from pyasp_games.domains.hex.model import parse_position
>>> from pyasp_games.domains.hex.native import Engine
>>> engine = Engine(parse_position("3x3"))
>>> engine.wins(0, 0, "B")
True
>>> proof_of(engine, 0, 0, "B")
{'winner': 'black', 'root': 0, 'nodes': [{'move': 'b2', 'next': 1}, {'pairs': [['b1', 'c1'], ['a3', 'b3']]}]}
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING, Any

from pyasp_games.domains.hex.links import Link, carrier_of
from pyasp_games.domains.hex.model import PLAYERS
from pyasp_games.engines.graphs import set_bits

if TYPE_CHECKING:
    from pyasp_games.domains.hex.must_play import Entry
    from pyasp_games.domains.hex.native import Engine


#: the most positions the template-free engine keeps in its table while a proof is
#: written, checked before each of its searches (7 x 7 b3: 1,135,232 after 46 s of
#: writing, most of the writing's memory; with this bound, RSS 470 MB instead of 776 MB
#: at the same point); beyond, the table is emptied
INNER_KEPT = 200_000


def proof_of(engine: Engine, black: int, white: int, player: str) -> dict[str, Any]:
    """The proof of the position's value read out of the engine's table (see the module
    docstring): ``{"winner", "root", "nodes"}``."""
    return ProofWriter(engine).proof(black, white, player)


def _other(player: str) -> str:
    return "W" if player == "B" else "B"


def _played(black: int, white: int, player: str, bit: int) -> tuple[int, int]:
    """The stones after ``player`` takes the cells ``bit``."""
    return (black | bit, white) if player == "B" else (black, white | bit)


class ProofWriter:
    """One proof being written: its nodes in the order written (a node's number is its
    place), and the nodes already written of each position (of the search's engine or of
    its template-free one) and of each connection shown."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.names = engine.game.cells
        self.full = engine.cells.full
        self.nodes: list[dict[str, Any]] = []
        #: the node of each position, by (engine, black, white, player to move)
        self.ids: dict[tuple[int, int, int, str], int] = {}
        #: the node of each connection shown, by (black, white, to move, winner)
        self.joins: dict[tuple[int, int, str, str], int] = {}
        #: H-search, for the connections' strategies (when the search runs it)
        self.sweeper = engine.links.sweeper if engine.links.hsearch else None
        #: connections H-search derives written as their derivations (``connect``
        #: leaves, checked rule by rule) rather than as strategies played out move by move
        self.derive = engine.derive
        #: every derivation step written, by its content, and its number: a step met again
        #: (most are: the same adjacencies and templates recur from leaf to leaf) is the same
        #: object, so a ``connect`` leaf costs a list of references, not a dict per step
        self.steps: dict[tuple[Any, ...], tuple[int, dict[str, Any]]] = {}
        #: the ``connect`` node of each derivation written, by its steps' numbers (packed):
        #: a derivation met again is the same node, checked in each position it is reached in
        self.derivations: dict[bytes, int] = {}
        #: the leaves and the nodes of one move or one carrier already written, by content:
        #: one met again (a pairing leaf after the same key, the same key's answer to every
        #: reply that misses its semi-connection) is the node written first
        self.written: dict[tuple[Any, ...], int] = {}

    def proof(self, black: int, white: int, player: str) -> dict[str, Any]:
        """The proof of the position, its root the position's node."""
        engine = self.engine
        entry = engine.entry(black, white, player)
        winner = player if entry.wins else _other(player)
        if entry.wins and entry.move is None and not engine.won(player, black, white):
            # the fill-in alone joins the player's sides: every move wins (the player has
            # won the filled position, so it wins with either player to move, and a stone
            # more never hurts); the proof starts with a cell it fills, one of a pair
            # first (where the opponent could still move in the chain)
            steps = [(o < 0, c) for x, c, o in engine.dead.fill_in(black, white)[2] if x == player]
            first = min(steps)[1] if steps else next(c for c in range(engine.cells.n)
                                                      if not (black | white) >> c & 1)
            here: dict[str, Any] = {"move": self.names[first]}
            root = self._add(here)
            here["next"] = self.node(engine, *_played(black, white, player, 1 << first), _other(player))
            return {"winner": PLAYERS[winner], "root": root, "nodes": self.nodes}
        root = self.node(engine, black, white, player)
        return {"winner": PLAYERS[winner], "root": root, "nodes": self.nodes}

    def _add(self, node: dict[str, Any]) -> int:
        self.nodes.append(node)
        return len(self.nodes) - 1

    def _shared(self, key: tuple[Any, ...], node: dict[str, Any]) -> int:
        """The node written first with the content ``key`` (a leaf, or a node whose
        ``next`` is written already), else ``node`` added: the proof is a DAG whose nodes
        the checker checks in each position they are reached in, so a node's content, not
        its place, is what it proves."""
        at = self.written.get(key)
        if at is None:
            at = self.written[key] = self._add(node)
        return at

    def _leaf(self, pairs: list[tuple[int, int]]) -> int:
        """A pairing leaf (``won`` without pairs), shared with the same pairs'."""
        if not pairs:
            return self._shared(("won",), {"won": True})
        names = self.names
        return self._shared(("pairs", *map(tuple, pairs)), {"pairs": [[names[x], names[y]] for x, y in pairs]})

    # -- the positions the search settled ---------------------------------------------
    def node(self, engine: Engine, black: int, white: int, player: str) -> int:
        """The node of a position of ``engine``'s search (searched if need be)."""
        key = (id(engine), black, white, player)
        ids = self.ids
        if key in ids:
            return ids[key]
        settled = engine.dead.settle(black, white)
        if settled != (black, white) and engine.dead.captured:
            # a ``fill`` node: each step a cell (or a pair) captured by a player, filled for
            # it in the search's order; the checker finds each one captured by its own
            # criterion where the captor is the winner (the loser's needs none)
            black2, white2, steps = engine.dead.fill_in(black, white)
            names = self.names
            here = {"fill": [[PLAYERS[x], names[c]] + ([names[o]] if o >= 0 else []) for x, c, o in steps]}
            ids[key] = self._add(here)
            here["next"] = self.node(engine, black2, white2, player)
            return ids[key]
        if settled != (black, white):
            # the dead cells filled: the proof goes on without them (the loser's), the
            # sub-proof found with them Black's replays, as their colour decides no win
            if self.derive:
                # a ``dead`` node: the checker finds each cell dead by its own criterion and
                # fills it black, as the search did (the derivations below name its stones)
                here = {"dead": [self.names[c] for c in set_bits(settled[0] & ~black)]}
            else:
                here = {"carrier": [self.names[c] for c in set_bits(engine.cells.full & ~(settled[0] | settled[1]))]}
            ids[key] = self._add(here)
            here["next"] = self.node(engine, *settled, player)
            return ids[key]
        engine.wins(black, white, player)
        entry = engine.table[black, white, player]
        opponent = _other(player)
        winner = player if entry.wins else opponent
        if entry.pairs is not None and entry.move is None:
            ids[key] = self.link(entry.pairs, black, white, player, winner)
            return ids[key]
        here: dict[str, Any] = {}
        ids[key] = self._add(here)
        if entry.wins:
            child = _played(black, white, player, 1 << entry.move)  # type: ignore[operator]
            here["move"] = self.names[entry.move]  # type: ignore[index]
            here["next"] = (self.link(entry.pairs, *child, opponent, player) if entry.pairs is not None
                            else self.node(engine, *child, opponent))  # fmt: skip
            return ids[key]
        replies = self._replies(engine, entry, black, white, player)
        inferior = replies.pop("inferior", None)
        here["replies"] = replies
        if inferior:
            here["inferior"] = inferior
        return ids[key]

    def _replies(self, engine: Engine, entry: Entry, black: int, white: int, player: str) -> dict[str, int]:
        """Every move of ``player``, who loses: a move the search refuted, the node of what
        follows; a move outside the must-play region, answered by the key of the
        opponent's semi-connection it misses with the cheapest proof (pairs alone, a
        leaf; else the smallest carrier, a strategy to write out)."""
        names = self.names
        opponent = _other(player)
        replies: dict[str, int] = {}
        empty = engine.cells.full & ~(black | white)
        semis = None
        inferior: dict[str, str] = {}
        units = None
        nb = engine.cells.nb
        for m in set_bits(empty):
            child = _played(black, white, player, 1 << m)
            if entry.searched >> m & 1:
                replies[names[m]] = self.node(engine, *child, opponent)
                continue
            if engine.dead.captured:
                # an inferior move: a searched neighbour after which it is dead for the
                # opponent, the winner here (answered as that move is, at no cost)
                if units is None:
                    units = engine.dead.units(opponent, black if opponent == "B" else white)
                better = next((a for a in set_bits(nb[m] & entry.searched)
                               if engine.dead.dead_in(m, empty & ~(1 << a), units)), None)
                if better is not None:
                    inferior[names[m]] = names[better]
                    continue
            if semis is None:
                opp = black if opponent == "B" else white
                semis = engine.links.answers(opponent, opp, empty) if entry.semis is None else entry.semis
            missed = [s for s in semis if not (s[1] >> m & 1)]
            if not missed:
                # (never expected: the region is the carriers' intersection) the reply
                # searched as any other, its node what the search says of it
                replies[names[m]] = self.node(engine, *child, opponent)
                continue
            key_cell, _, link = min(missed, key=lambda s: (s[2][1] != 0, s[1].bit_count()))
            after = _played(*child, opponent, 1 << key_cell)
            nxt = self.link(link, *after, player, opponent)
            replies[names[m]] = self._shared(("move", key_cell, nxt), {"move": names[key_cell], "next": nxt})
        if inferior:
            replies["inferior"] = inferior  # type: ignore[assignment]
        return replies

    # -- connections -----------------------------------------------------------------
    def link(self, link: Link, black: int, white: int, to_move: str, winner: str) -> int:
        """The node of a connection ``winner`` holds: a pairing leaf, or, when it uses
        edge templates or is H-search's, the position restricted to its carrier."""
        pairs, templates = link
        if not templates:
            return self._leaf(pairs)
        return self.restricted(carrier_of(link), black, white, to_move, winner)

    def restricted(self, keep: int, black: int, white: int, to_move: str, winner: str) -> int:
        """The position restricted to the cells ``keep`` (every other empty cell the
        loser's: a carrier node, when that leaves a cell out), where ``winner`` holds a
        connection of its sides, and the proof of it (:meth:`connection`)."""
        empty = self.full & ~(black | white)
        outside = empty & ~keep
        if not outside:
            return self.connection(black, white, to_move, winner)
        if winner == "B":
            white |= outside
        else:
            black |= outside
        sub = self.connection(black, white, to_move, winner, claimed=True)
        return self._shared(("carrier", keep & empty, sub),
                            {"carrier": [self.names[c] for c in set_bits(keep & empty)], "next": sub})

    def connection(self, black: int, white: int, to_move: str, winner: str, claimed: bool = False) -> int:
        """The proof that ``winner`` joins its sides in a position where a connection
        (a template's, H-search's) says it does: a pairing leaf where the template-free
        pairs suffice; else H-search again, move by move (:meth:`_strategy`); where
        H-search finds nothing to say, the template-free engine's proof of the position
        (each step leaves fewer empty cells, so it ends). ``claimed``: the position is a
        restriction to a connection's carrier, so the loser to move has every reply
        answered without a search for a smaller one."""
        key = (black, white, to_move, winner)
        if key in self.joins:
            return self.joins[key]
        inner = self.engine.inner
        own = black if winner == "B" else white
        empty = self.full & ~(black | white)
        at = self._joined(inner, black, white, winner, own, empty)
        if at is None and to_move == winner and inner.links.sweeper is not None:
            at = self._first_key(inner, winner, own, empty)
        if at is None and self.sweeper is not None and self.derive:
            steps = self.sweeper.derivation(winner, own, empty, self.names, semi=to_move == winner)
            if steps is not None:
                at = self.connect(steps)
        if at is None and self.sweeper is not None:
            at = self._strategy(black, white, to_move, winner, own, empty, claimed)
        if at is None:
            if len(inner.table) > INNER_KEPT:
                # the template-free engine's table only saves searching a position again
                # (what a proof needs of a position is read from its entry at once, and the
                # nodes written are kept by position in ``ids``): let it go when it is large
                inner.table.clear()
            if inner.wins(black, white, to_move) != (to_move == winner):
                raise RuntimeError("a connection did not hold in its carrier")
            at = self.node(inner, black, white, to_move)
        self.joins[key] = at
        return at

    def connect(self, steps: list[dict[str, Any]]) -> int:
        """The ``connect`` leaf of a derivation, shared: each step the object written
        first with the same content, the leaf the node written first with the same steps.

        >>> from pyasp_games.domains.hex.model import parse_position
        >>> from pyasp_games.domains.hex.native import Engine
        >>> writer = ProofWriter(Engine(parse_position("3x3")))
        >>> first = writer.connect([{"adj": ["b2", 0]}, {"adj": ["b2", 1]}, {"and": [0, 1]}])
        >>> again = writer.connect([{"adj": ["b2", 0]}, {"adj": ["b2", 1]}, {"and": [0, 1]}])
        >>> other = writer.connect([{"adj": ["b2", 1]}, {"adj": ["b2", 0]}, {"and": [0, 1]}])
        >>> first == again != other, writer.nodes[first]["connect"][0] is writer.nodes[other]["connect"][1]
        (True, True)
        """
        known = self.steps
        numbers = array("I")
        shared = []
        for step in steps:
            key = tuple((rule, tuple(value) if isinstance(value, list) else value) for rule, value in step.items())
            found = known.get(key)
            if found is None:
                found = known[key] = (len(known), step)
            numbers.append(found[0])
            shared.append(found[1])
        packed = numbers.tobytes()
        at = self.derivations.get(packed)
        if at is None:
            at = self.derivations[packed] = self._add({"connect": shared})
        return at

    def _joined(self, inner: Engine, black: int, white: int, winner: str, own: int, empty: int) -> int | None:
        """A leaf where ``winner`` has won, or holds a pairing connection without
        templates; else ``None``."""
        if self.engine.won(winner, black, white):
            return self._leaf([])
        pairs = inner.links.pairing(winner, own, empty)
        if pairs is not None and not pairs[1]:
            return self._leaf(pairs[0])
        return None

    def _first_key(self, inner: Engine, winner: str, own: int, empty: int) -> int | None:
        """``winner`` to move: a key after which the template-free pairs join the sides
        (the cheapest answer), its move and the pairing leaf; else ``None``."""
        first = inner.links.sweeper.first_key(winner, own, empty, inner.links.order)
        if first is None:
            return None
        nxt = self._leaf(first[1][0])
        return self._shared(("move", first[0], nxt), {"move": self.names[first[0]], "next": nxt})

    def _strategy(self, black: int, white: int, to_move: str, winner: str, own: int, empty: int,
                  claimed: bool) -> int | None:
        """H-search's strategy, one move: the winner to move plays the key of its smallest
        semi-connection (or into a full one) and the position is restricted to what is
        left of that connection's carrier; the loser to move sees the position restricted
        to the full connection's carrier, or every reply answered so. ``None``: H-search
        has nothing to say to the winner to move."""
        loser = _other(winner)
        joined, semis = (self.sweeper.hsearch(winner, own, empty)  # type: ignore[union-attr]
                         if not (claimed and to_move == loser) else (None, []))
        if to_move == winner and (joined is not None or semis):
            if joined is not None:
                move = (joined or empty) & -(joined or empty)
                keep = joined & ~move
            else:
                cell, carrier = min(semis, key=lambda s: s[1].bit_count())
                move, keep = 1 << cell, carrier & ~(1 << cell)
            cell = move.bit_length() - 1
            nxt = self.restricted(keep, *_played(black, white, winner, move), loser, winner)
            return self._shared(("move", cell, nxt), {"move": self.names[cell], "next": nxt})
        if to_move != loser:
            return None
        if joined is not None and joined & empty != empty:
            return self.restricted(joined, black, white, to_move, winner)
        # (without a full connection found here, the one claimed above still stands:
        # every reply is answered as the winner to move is)
        replies = {}
        for m in set_bits(empty):
            replies[self.names[m]] = self.connection(*_played(black, white, loser, 1 << m), winner, winner)
        return self._add({"replies": replies})
