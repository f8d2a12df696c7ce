"""Proof-number search (Allis 1994; in Hex as in Henderson, Arneson and Hayward 2009):
who wins a position with the player to move, best first.

A tree of the positions met, each with the work still needed to show its player to move
wins (phi: the least delta of its children) or loses (delta: the sum of its children's
phi), grown one position at a time where the root's answer is cheapest to settle. A new
position starts at phi 1 and delta 1 (with :mod:`.must_play`'s look-ahead, on boards of
at most 36 cells, delta the size of its mover's must-play region after the move). Every
settled position's value and reason go into the engine's transposition table, from
which :func:`.proofs.proof_of` reads the proof.

>>> from pyasp_games.domains.hex.model import parse_position
>>> from pyasp_games.domains.hex.native import Engine
>>> game = parse_position("B../.../...")  # the acute corner a1 loses
>>> engine = Engine(game)
>>> prove(engine, 1, 0, "W"), engine.table[engine.dead.settle(1, 0) + ("W",)].wins
(True, True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyasp_games.domains.hex.must_play import Entry

if TYPE_CHECKING:
    from pyasp_games.domains.hex.native import Engine

#: Positions between two looks at the deadline.
POLL = 256


def prove(engine: Engine, black: int, white: int, player: str) -> bool:
    """Whether ``player``, to move, wins, by proof-number search (best first: the
    position expanded next is the one whose answer would most cheaply settle the
    root), the same knowledge at each position as :meth:`Engine.wins
    <pyasp_games.domains.hex.native.Engine.wins>`; the values and reasons of the settled
    positions go into ``engine``'s table, so :func:`.proofs.proof_of` reads the proof."""
    inf = 1 << 60
    # per position: [phi, delta, children or None, region, key, best child]: phi the
    # work to show the player to move wins, delta to show it loses; the children are
    # [moves, kids, made], a kid the node itself once made, before that its initial
    # delta (an int: most children are never expanded, and a node costs memory). The
    # initial deltas come in increasing order and the child chosen is the first of
    # the least delta, so the kids made are always ``kids[:made]``: the others count
    # as a sum and the first of them as the least, without a loop over them
    tree: dict[tuple[int, int, str], list[Any]] = {}
    table = engine.table
    settle = engine.dead.settle

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
        engine.nodes += 1
        if engine.nodes % POLL == 0:
            engine.deadline.check()
        key = node[4]
        known = engine.must_play.assess(*key, engine.nodes)
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
