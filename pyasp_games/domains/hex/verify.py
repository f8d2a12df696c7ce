"""Independent checks of Hex proofs (imports nothing from native/asp/sat).

A proof (every backend writes one, :mod:`~pyasp_games.domains.hex.proofs` documents the
shape) is a list of ``nodes`` and a ``root``: a node of the winner to move is
``{"move": cell, "next": node}``; a node of the loser to move is ``{"replies": {cell:
node, ...}}`` with **every** empty cell; a leaf is ``{"won": true}`` (the winner's stones
join its sides) or ``{"pairs": [[x, y], ...]}`` (disjoint pairs of empty cells: whatever
one cell of each pair the winner gets, with every other empty cell the loser's, the
winner has won: the winner answers a move in a pair with the other cell). A node
``{"carrier": [cell, ...], "next": node}`` restricts the game to a *carrier*: every empty
cell outside it becomes the loser's, the same player moves, and the proof goes on at
``next`` in that smaller position (sound by Hex's monotonicity: a stone more never hurts
its owner, so a winner who wins with the loser holding those cells wins without that:
the loser's moves outside the carrier are answered by any move, which can only help).
The checker replays the proof from the position with its own rules: a flood fill over
the cells for a joined chain (and for White in graph Hex, for Black's way through the
cells that are not white), on Python-int bitsets (six shifts of a set on the rhombus,
the cells' neighbour sets on a graph), every choice of the pairs tried, every carrier's
sub-proof replayed in its own restricted position (the player to move is carried along,
not read from the stone counts, which a restriction changes). Nodes reached twice in the
same position are checked once. Beyond :data:`BUDGET` node visits, or
:data:`PAIR_BUDGET` win tests in the pairing leaves, it raises :class:`Unconfirmed`.

>>> from pyasp_games.domains.hex.model import parse_position
>>> game = parse_position(".B/..")
>>> check_proof(game, "black", {"root": 0, "nodes": [{"pairs": [["a2", "b2"]]}]})
(True, 'a proof for black of 1 node (1 leaf)')
>>> check_proof(game, "black", {"root": 0, "nodes": [{"replies": {"a2": 1}}, {"won": True}]})
(False, 'the reply a1 of white is not covered')
"""

from __future__ import annotations

import itertools
from typing import Any

from pyasp_games.domains.hex.model import PLAYERS, Hex
from pyasp_games.engines.outcome import Outcome
from pyasp_games.errors import Unconfirmed

#: node visits at most by one check (a visit: one node in one position)
BUDGET = 12_000_000
#: win tests at most for the pairing leaves of one check (every choice of every leaf)
PAIR_BUDGET = 60_000_000
#: the most pairs of one leaf (every one of 2**k choices is tried)
MAX_PAIRS = 16


class _Rules:
    """The win test on sets of cells as Python ``int`` bitsets (bit ``i``: cell ``i``),
    written here, not shared with the solvers: a flood fill whose step is the union of
    the neighbours of the cells reached (six shifts of the set on the rhombus, the
    cells' neighbour sets in graph Hex)."""

    def __init__(self, game: Hex) -> None:
        self.n = len(game)
        self.full = (1 << self.n) - 1
        self.nb = [sum(1 << j for j in near) for near in game.neighbours]
        self.sides = {p: (sum(1 << i for i in a), sum(1 << i for i in b)) for p, (a, b) in game.sides.items()}
        self.board = game.is_board
        self.joined = game.joined
        self.cols = game.cols
        if self.board:
            first = sum(1 << (r * game.cols) for r in range(game.rows))
            self.not_first = self.full & ~first
            self.not_last = self.full & ~(first << (game.cols - 1))

    def grow(self, x: int) -> int:
        """The cells of ``x`` and their neighbours."""
        if self.board:
            c = self.cols
            y = x | ((x << 1) & self.not_first) | ((x >> 1) & self.not_last)
            return (y | (x << c) | (x >> c) | ((x >> (c - 1)) & self.not_first) | ((x << (c - 1)) & self.not_last)) \
                & self.full
        y = x
        while x:
            low = x & -x
            y |= self.nb[low.bit_length() - 1]
            x ^= low
        return y

    def joins(self, allowed: int, start: int, goal: int) -> bool:
        """Whether a path of cells of ``allowed`` joins a cell of ``start`` to one of ``goal``."""
        if not (allowed & goal):
            return False
        seen = start & allowed
        front = seen
        if not self.board:
            while front:
                if seen & goal:
                    return True
                front = self.grow(front) & allowed & ~seen
                seen |= front
            return False
        # the rhombus: the six shifts written out (the checker's hot loop)
        c, c1, nf, nl = self.cols, self.cols - 1, self.not_first, self.not_last
        while front:
            if seen & goal:
                return True
            x = front
            front = (((x << 1) & nf) | ((x >> 1) & nl) | (x << c) | (x >> c) | ((x >> c1) & nf)
                     | ((x << c1) & nl)) & allowed & ~seen
            seen |= front
        return False

    def won(self, black: int, white: int, player: str) -> bool:
        """Whether ``player`` (``'B'``/``'W'``) has won with these stones."""
        if not self.board and self.joined:
            return player == "B"
        if player in self.sides:
            a, b = self.sides[player]
            return self.joins(black if player == "B" else white, a, b)
        # graph Hex: White wins when no path of cells that are not white joins the terminals
        a, b = self.sides["B"]
        return not self.joins(self.full & ~white, a, b)


def _bits(stones: Any, letter: str) -> int:
    return sum(1 << i for i, s in enumerate(stones) if s == letter)


def has_won(game: Hex, stones: list[str], player: str) -> bool:
    """Whether ``player`` (``'B'``/``'W'``) has won with ``stones`` (a cell's letter each)."""
    return _Rules(game).won(_bits(stones, "B"), _bits(stones, "W"), player)


def _pairs_win(game: Hex, rules: _Rules, black: int, white: int, player: str, pairs: list[list[str]],
               tests: list[int]) -> tuple[bool, str]:
    cells: list[tuple[int, int]] = []
    for pair in pairs:
        if not isinstance(pair, list) or len(pair) != 2 or not all(isinstance(c, str) for c in pair):
            return False, f"a pair must be two cells, got {pair!r}"
        x, y = (game.index.get(c) for c in pair)
        if x is None or y is None:
            return False, f"unknown cell in the pair {pair!r}"
        cells.append((x, y))
    flat = [c for pair in cells for c in pair]
    if len(set(flat)) != len(flat):
        return False, "the pairs are not disjoint"
    empty = rules.full & ~(black | white)
    if any(not empty >> c & 1 for c in flat):
        return False, "a pair holds a cell that is not empty"
    if len(cells) > MAX_PAIRS:
        raise Unconfirmed(f"a leaf of {len(cells)} pairs: beyond the checker's {MAX_PAIRS}")
    tests[0] += 1 << len(cells)
    if tests[0] > PAIR_BUDGET:
        raise Unconfirmed(f"pairing leaves beyond the checker's budget of {PAIR_BUDGET:,} win tests")
    # every empty cell the loser's, then each choice gives the winner one cell of each pair
    if player == "B":
        base, others = black, empty
    else:
        base, others = white, empty
    for choice in itertools.product((0, 1), repeat=len(cells)):
        own = base
        for pick, pair in zip(choice, cells, strict=True):
            own |= 1 << pair[pick]
        taken = others & ~own
        if not (rules.won(own, white | taken, "B") if player == "B" else rules.won(black | taken, own, "W")):
            names = [game.cells[pair[pick]] for pick, pair in zip(choice, cells, strict=True)]
            return False, f"the pairs do not join: {PLAYERS[player]} taking {' '.join(names)} has not won"
    return True, ""


def _restricted(game: Hex, black: int, white: int, empty: int, loser: str, carrier: Any
                ) -> tuple[bool, str, int, int]:
    """The stones with every empty cell outside ``carrier`` given to the loser."""
    if not isinstance(carrier, list) or not all(isinstance(c, str) for c in carrier):
        return False, f"a carrier must be a list of cells, got {carrier!r}", black, white
    inside = 0
    for name in carrier:
        cell = game.index.get(name)
        if cell is None:
            return False, f"unknown cell {name!r} in the carrier", black, white
        if not empty >> cell & 1:
            return False, f"the carrier holds {name}, which is not empty", black, white
        inside |= 1 << cell
    if inside == empty:
        # every step of a proof must fill a cell: a carrier of every empty cell would let a
        # node restrict to itself and be taken as checked
        return False, "the carrier leaves out no empty cell: it restricts nothing", black, white
    outside = empty & ~inside
    return (True, "", black | outside, white) if loser == "B" else (True, "", black, white | outside)


def check_proof(game: Hex, winner: str, proof: Any) -> tuple[bool, str]:
    """Replay ``proof`` from ``game``: ``winner`` (``'black'``/``'white'``) wins whatever the
    loser does. ``(True, summary)`` or ``(False, the first fault found)``;
    :class:`Unconfirmed` beyond the checker's budgets."""
    if winner not in ("black", "white"):
        return False, f"winner {winner!r} is neither black nor white"
    if not isinstance(proof, dict) or not isinstance(proof.get("nodes"), list):
        return False, "no proof (a JSON object with 'root' and 'nodes')"
    if proof.get("winner", winner) != winner:
        return False, f"the proof is for {proof.get('winner')}, the answer says {winner}"
    nodes = proof["nodes"]
    rules = _Rules(game)
    n, full, cells, index = rules.n, rules.full, game.cells, game.index
    player = "B" if winner == "black" else "W"
    loser = "W" if player == "B" else "B"
    # a (node, position) pair checked already, as one int: the node, who moves, the stones
    done: set[int] = set()
    leaves = 0
    tests = [0]
    stack = [(proof.get("root"), _bits(game.stones, "B"), _bits(game.stones, "W"), game.to_move)]
    while stack:
        at, black, white, to_move = stack.pop()
        if not isinstance(at, int) or isinstance(at, bool) or not 0 <= at < len(nodes):
            return False, f"node {at!r} does not exist"
        key = (((at << 1 | (to_move == "W")) << n | black) << n) | white
        if key in done:
            continue
        done.add(key)
        if len(done) > BUDGET:
            raise Unconfirmed(f"a proof beyond the checker's budget of {BUDGET:,} node visits")
        node = nodes[at]
        if not isinstance(node, dict):
            return False, f"node {at} is not an object"
        if rules.won(black, white, loser):
            return False, f"node {at}: {PLAYERS[loser]} has won there"
        if rules.won(black, white, player):
            leaves += 1
            continue  # the game is over, won: whatever the node says
        if "won" in node:
            return False, f"node {at} says won, but {winner} has not won there"
        empty = full & ~(black | white)
        if "pairs" in node:
            if not isinstance(node["pairs"], list):
                return False, f"node {at}: pairs must be a list"
            ok, why = _pairs_win(game, rules, black, white, player, node["pairs"], tests)
            if not ok:
                return False, f"node {at}: {why}"
            leaves += 1
            continue
        if "carrier" in node:
            ok, why, b2, w2 = _restricted(game, black, white, empty, loser, node["carrier"])
            if not ok:
                return False, f"node {at}: {why}"
            stack.append((node.get("next"), b2, w2, to_move))
            continue
        if to_move == player:
            move, nxt = node.get("move"), node.get("next")
            cell = index.get(move) if isinstance(move, str) else None
            if cell is None or not empty >> cell & 1:
                return False, f"node {at}: {move!r} is not a legal move of {winner}"
            bit = 1 << cell
            stack.append((nxt, black | bit, white, loser) if player == "B" else (nxt, black, white | bit, loser))
            continue
        replies = node.get("replies")
        if not isinstance(replies, dict):
            return False, f"node {at}: {PLAYERS[loser]} moves there, the node has no replies"
        rest = empty
        while rest:
            low = rest & -rest
            if cells[low.bit_length() - 1] not in replies:
                return False, f"the reply {cells[low.bit_length() - 1]} of {PLAYERS[loser]} is not covered"
            rest ^= low
        for cell_name, nxt in replies.items():
            cell = index.get(cell_name) if isinstance(cell_name, str) else None
            if cell is None or not empty >> cell & 1:
                return False, f"node {at}: the reply {cell_name!r} is not a legal move"
            bit = 1 << cell
            stack.append((nxt, black | bit, white, player) if loser == "B" else (nxt, black, white | bit, player))
    return True, f"a proof for {winner} of {len(done):,} node{'s' if len(done) != 1 else ''} " \
        f"({leaves:,} lea{'ves' if leaves != 1 else 'f'})"


def check_outcome(game: Hex, outcome: Outcome) -> tuple[bool | None, str]:
    """Verify a solved outcome: its proof (the outcome's certificate) shows the answer's
    winner wins, and the winning move of the player to move is the proof's first move."""
    if outcome.status != "solved":
        return None, "nothing to verify"
    proof = outcome.certificate
    ok, message = check_proof(game, outcome.answer, proof)
    if not ok:
        return False, message
    to_move = PLAYERS[game.to_move]
    if outcome.answer == to_move and outcome.witness is not None:
        root = proof["nodes"][proof["root"]]
        for _ in range(len(game)):  # the first move lies below the carriers (each restricts)
            if "carrier" not in root:
                break
            root = proof["nodes"][root["next"]]
        if root.get("move") != outcome.witness and not has_won(game, list(game.stones), game.to_move):
            return False, f"the winning move {outcome.witness} is not the proof's first move"
    elif outcome.witness is not None:
        return False, f"{to_move} loses, so it has no winning move (the witness must be null)"
    return True, message


def half_turn(game: Hex) -> list[int] | None:
    """The half-turn of the rhombus (row ``r``, column ``c`` to ``rows - 1 - r``,
    ``cols - 1 - c``) as a map of cell numbers, if it is a symmetry of ``game``'s rules:
    it maps every cell's neighbours onto the image's neighbours and each player's two
    sides onto that player's two sides (checked here, not assumed); else ``None``."""
    n = len(game)
    if not game.is_board or game.rows * game.cols != n:
        return None
    turn = [n - 1 - c for c in range(n)]  # the cells are numbered row by row
    for c in range(n):
        if sorted(turn[x] for x in game.neighbours[c]) != sorted(game.neighbours[turn[c]]):
            return None
    for a, b in game.sides.values():
        if {frozenset(turn[x] for x in a), frozenset(turn[x] for x in b)} != {a, b}:
            return None
    return turn


def check_openings(game: Hex, outcome: Outcome) -> tuple[bool | None, str]:
    """Verify an openings map: for every cell (the outcome's certificate maps each to its
    proof), the proof of the winner after Black's first move there, or ``{"image_of": cell}``: the cell is the half-turn image of
    ``cell``, whose own proof is checked, and the half-turn is a symmetry of the board
    (:func:`half_turn`) that maps the empty board onto itself, so the two openings are
    the same game turned and have the same winner."""
    if outcome.status != "solved":
        return None, "nothing to verify"
    answer, proofs = outcome.answer, outcome.certificate
    if not isinstance(answer, dict) or not isinstance(proofs, dict):
        return False, "an openings answer maps every cell to a winner, with a proof each"
    if set(answer) != set(game.cells) or set(proofs) != set(game.cells):
        return False, "the map does not hold every cell of the board exactly once"
    if any(s != "." for s in game.stones):
        return False, "openings are first moves on the empty board"
    total, images, turn = 0, 0, None
    for cell in game.cells:
        proof = proofs[cell]
        if isinstance(proof, dict) and "image_of" in proof:
            turn = turn or half_turn(game)
            source = proof["image_of"]
            if turn is None:
                return False, f"opening {cell}: an image proof, but the half-turn is no symmetry of this board"
            if not isinstance(source, str) or source not in game.index or turn[game.index[source]] != game.index[cell]:
                return False, f"opening {cell}: {source!r} is not the cell it is the half-turn image of"
            image = proofs[source]
            if not isinstance(image, dict) or "image_of" in image:
                return False, f"opening {cell}: the image of {source}, which has no proof of its own"
            if answer[cell] != answer[source]:
                return False, f"opening {cell}: {answer[cell]} wins, but {answer[source]} wins its image {source}"
            images += 1
            continue  # the source's proof is checked in its turn
        opened = list(game.stones)
        opened[game.index[cell]] = "B"
        after = Hex(game.cells, game.neighbours, game.sides, tuple(opened), game.rows, game.cols,
                    game.terminals, game.joined, game.name)  # fmt: skip
        ok, message = check_proof(after, answer[cell], proof)
        if not ok:
            return False, f"opening {cell}: {message}"
        total += len(proof["nodes"])
    turned = f", {images} of them the half-turn image of another" if images else ""
    return True, f"{len(game.cells)} openings, each with its proof{turned} ({total:,} proof nodes in all)"
