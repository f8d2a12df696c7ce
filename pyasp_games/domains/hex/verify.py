"""Independent checks of Hex proofs (imports nothing from native/asp/sat).

A proof (every backend writes one, :mod:`~pyasp_games.domains.hex.native` documents the
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
The checker replays the proof from the position with its own rules: a breadth-first
search over the cells for a joined chain (and for White in graph Hex, for Black's way
through the cells that are not white), every choice of the pairs tried, every carrier's
sub-proof replayed in its own restricted position (the player to move is carried along,
not read from the stone counts, which a restriction changes). Nodes reached twice in the
same position are checked once.

>>> from pyasp_games.domains.hex.model import parse_position
>>> game = parse_position(".B/..")
>>> check_proof(game, "black", {"root": 0, "nodes": [{"pairs": [["a2", "b2"]]}]})
(True, 'a proof for black of 1 node (1 leaf)')
>>> check_proof(game, "black", {"root": 0, "nodes": [{"replies": {"a2": 1}}, {"won": True}]})
(False, 'the reply a1 of white is not covered')
"""

from __future__ import annotations

import itertools
from collections import deque
from typing import Any

from pyasp_games.domains.hex.model import PLAYERS, Hex
from pyasp_games.engines.outcome import Outcome
from pyasp_games.errors import Unconfirmed

#: node visits at most by one check
BUDGET = 2_000_000
#: the most pairs of one leaf (every one of 2**k choices is tried)
MAX_PAIRS = 16


def _joined(game: Hex, allowed: set[int], ends: tuple[frozenset[int], frozenset[int]]) -> bool:
    start, goal = ends
    queue = deque(c for c in start if c in allowed)
    seen = set(queue)
    while queue:
        c = queue.popleft()
        if c in goal:
            return True
        for d in game.neighbours[c]:
            if d in allowed and d not in seen:
                seen.add(d)
                queue.append(d)
    return False


def has_won(game: Hex, stones: list[str], player: str) -> bool:
    """Whether ``player`` (``'B'``/``'W'``) has won with ``stones`` (a cell's letter each)."""
    if not game.is_board and game.joined:
        return player == "B"
    if player in game.sides:
        mine = {i for i, s in enumerate(stones) if s == player}
        return _joined(game, mine, game.sides[player])
    # graph Hex: White wins when no path of cells that are not white joins the terminals
    passable = {i for i, s in enumerate(stones) if s != "W"}
    return not _joined(game, passable, game.sides["B"])


def _pairs_win(game: Hex, stones: list[str], player: str, pairs: list[list[str]]) -> tuple[bool, str]:
    loser = "W" if player == "B" else "B"
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
    if any(stones[c] != "." for c in flat):
        return False, "a pair holds a cell that is not empty"
    if len(cells) > MAX_PAIRS:
        raise Unconfirmed(f"a leaf of {len(cells)} pairs: beyond the checker's {MAX_PAIRS}")
    base = [s if s != "." else loser for s in stones]
    for choice in itertools.product((0, 1), repeat=len(cells)):
        board = list(base)
        for pick, pair in zip(choice, cells, strict=True):
            board[pair[pick]] = player
        if not has_won(game, board, player):
            taken = [game.cells[pair[pick]] for pick, pair in zip(choice, cells, strict=True)]
            return False, f"the pairs do not join: {PLAYERS[player]} taking {' '.join(taken)} has not won"
    return True, ""


def _restricted(game: Hex, stones: list[str], loser: str, carrier: Any) -> tuple[bool, str, list[str]]:
    """The stones with every empty cell outside ``carrier`` given to the loser."""
    if not isinstance(carrier, list) or not all(isinstance(c, str) for c in carrier):
        return False, f"a carrier must be a list of cells, got {carrier!r}", stones
    inside = set()
    for name in carrier:
        cell = game.index.get(name)
        if cell is None:
            return False, f"unknown cell {name!r} in the carrier", stones
        if stones[cell] != ".":
            return False, f"the carrier holds {name}, which is not empty", stones
        inside.add(cell)
    if len(inside) >= stones.count("."):
        # every step of a proof must fill a cell: a carrier of every empty cell would let a
        # node restrict to itself and be taken as checked
        return False, "the carrier leaves out no empty cell: it restricts nothing", stones
    return True, "", [loser if s == "." and i not in inside else s for i, s in enumerate(stones)]


def check_proof(game: Hex, winner: str, proof: Any) -> tuple[bool, str]:
    """Replay ``proof`` from ``game``: ``winner`` (``'black'``/``'white'``) wins whatever the
    loser does. ``(True, summary)`` or ``(False, the first fault found)``;
    :class:`Unconfirmed` beyond the checker's budget."""
    if winner not in ("black", "white"):
        return False, f"winner {winner!r} is neither black nor white"
    if not isinstance(proof, dict) or not isinstance(proof.get("nodes"), list):
        return False, "no proof (a JSON object with 'root' and 'nodes')"
    if proof.get("winner", winner) != winner:
        return False, f"the proof is for {proof.get('winner')}, the answer says {winner}"
    nodes = proof["nodes"]
    player = "B" if winner == "black" else "W"
    loser = "W" if player == "B" else "B"
    done: set[tuple[int, tuple[str, ...], str]] = set()
    visits = [0]
    leaves = [0]
    stack = [(proof.get("root"), list(game.stones), game.to_move)]
    while stack:
        index, stones, to_move = stack.pop()
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(nodes):
            return False, f"node {index!r} does not exist"
        key = (index, tuple(stones), to_move)
        if key in done:
            continue
        done.add(key)
        visits[0] += 1
        if visits[0] > BUDGET:
            raise Unconfirmed(f"a proof beyond the checker's budget of {BUDGET:,} node visits")
        node = nodes[index]
        if not isinstance(node, dict):
            return False, f"node {index} is not an object"
        if has_won(game, stones, loser):
            return False, f"node {index}: {PLAYERS[loser]} has won there"
        if has_won(game, stones, player):
            leaves[0] += 1
            continue  # the game is over, won: whatever the node says
        if "won" in node:
            return False, f"node {index} says won, but {winner} has not won there"
        if "pairs" in node:
            if not isinstance(node["pairs"], list):
                return False, f"node {index}: pairs must be a list"
            ok, why = _pairs_win(game, stones, player, node["pairs"])
            if not ok:
                return False, f"node {index}: {why}"
            leaves[0] += 1
            continue
        if "carrier" in node:
            ok, why, restricted = _restricted(game, stones, loser, node["carrier"])
            if not ok:
                return False, f"node {index}: {why}"
            stack.append((node.get("next"), restricted, to_move))
            continue
        if to_move == player:
            move, nxt = node.get("move"), node.get("next")
            cell = game.index.get(move) if isinstance(move, str) else None
            if cell is None or stones[cell] != ".":
                return False, f"node {index}: {move!r} is not a legal move of {winner}"
            after = list(stones)
            after[cell] = player
            stack.append((nxt, after, loser))
            continue
        replies = node.get("replies")
        if not isinstance(replies, dict):
            return False, f"node {index}: {PLAYERS[loser]} moves there, the node has no replies"
        empty = [game.cells[i] for i, s in enumerate(stones) if s == "."]
        for cell_name in empty:
            if cell_name not in replies:
                return False, f"the reply {cell_name} of {PLAYERS[loser]} is not covered"
        for cell_name, nxt in replies.items():
            cell = game.index.get(cell_name)
            if cell is None or stones[cell] != ".":
                return False, f"node {index}: the reply {cell_name!r} is not a legal move"
            after = list(stones)
            after[cell] = loser
            stack.append((nxt, after, player))
    return True, f"a proof for {winner} of {len(done):,} node{'s' if len(done) != 1 else ''} " \
        f"({leaves[0]:,} lea{'ves' if leaves[0] != 1 else 'f'})"


def check_outcome(game: Hex, outcome: Outcome) -> tuple[bool | None, str]:
    """Verify a solved outcome: its proof (``stats["proof"]``) shows the answer's winner
    wins, and the winning move of the player to move is the proof's first move."""
    if outcome.status != "solved":
        return None, "nothing to verify"
    proof = outcome.stats.get("proof")
    ok, message = check_proof(game, outcome.answer, proof)
    if not ok:
        return False, message
    to_move = PLAYERS[game.to_move]
    if outcome.answer == to_move and outcome.witness is not None:
        root = proof["nodes"][proof["root"]]
        if root.get("move") != outcome.witness and not has_won(game, list(game.stones), game.to_move):
            return False, f"the winning move {outcome.witness} is not the proof's first move"
    elif outcome.witness is not None:
        return False, f"{to_move} loses, so it has no winning move (the witness must be null)"
    return True, message


def check_openings(game: Hex, outcome: Outcome) -> tuple[bool | None, str]:
    """Verify an openings map: for every cell, the proof of the winner after Black's
    first move there."""
    if outcome.status != "solved":
        return None, "nothing to verify"
    answer, proofs = outcome.answer, outcome.stats.get("proofs")
    if not isinstance(answer, dict) or not isinstance(proofs, dict):
        return False, "an openings answer maps every cell to a winner, with a proof each"
    if set(answer) != set(game.cells) or set(proofs) != set(game.cells):
        return False, "the map does not hold every cell of the board exactly once"
    total = 0
    for cell in game.cells:
        opened = list(game.stones)
        opened[game.index[cell]] = "B"
        after = Hex(game.cells, game.neighbours, game.sides, tuple(opened), game.rows, game.cols,
                    game.terminals, game.joined, game.name)  # fmt: skip
        ok, message = check_proof(after, answer[cell], proofs[cell])
        if not ok:
            return False, f"opening {cell}: {message}"
        total += len(proofs[cell]["nodes"])
    return True, f"{len(game.cells)} openings, each with its proof ({total:,} proof nodes in all)"
