"""Classic KRK (perfect information) by retrograde analysis: the test of the move generator.

Every position with White to move, its value the number of White moves to mate with
best play on both sides (Black also avoids nothing: it takes an unprotected rook and
stalemates where it can, which are draws), by the same "mate within k" fixpoint as the
metaposition tables (:func:`~pyasp_games.domains.kriegspiel.tablebase.fixpoint`), on the
referee's rules (:mod:`~pyasp_games.domains.kriegspiel.referee`). The longest mate with White to
move is 16 moves on 8 x 8 (the published KRK figure); 3 x 3 to 7 x 7 give 3, 7, 10, 12 and 14.

>>> longest(Board(4, 4))
7
"""

from __future__ import annotations

import numpy as np

from pyasp_games.domains.kriegspiel.metaposition import rules_for
from pyasp_games.domains.kriegspiel.model import Board, legal_squares
from pyasp_games.domains.kriegspiel.referee import black_moves, white_answer
from pyasp_games.domains.kriegspiel.tablebase import NO_MATE, fixpoint
from pyasp_games.engines.limits import Deadline

Position = tuple[int, int, int]


def classic_values(
    board: Board, piece: str = "R", deadline: Deadline | None = None
) -> dict[Position, int]:
    """Every legal position ``(king, piece square, black king)`` with White to move and
    its number of White moves to mate (:data:`NO_MATE`: a draw)."""
    rules = rules_for(board, piece)
    positions = [
        (k, s, b)
        for k in range(board.size)
        for s in range(board.size)
        if k != s
        for b in board.squares(legal_squares(board, k, piece, s))
    ]
    index = {p: i for i, p in enumerate(positions)}
    owner, after = [], []
    for i, (k, s, b) in enumerate(positions):
        if deadline is not None and i % 4096 == 0:
            deadline.check()
        for attempt in rules.attempts(k, s):
            illegal, _ = rules.split(k, s, 1 << b, attempt)
            if illegal:
                continue
            k2, s2 = (attempt[1], s) if attempt[0] == "K" else (k, attempt[1])
            said = white_answer(board, piece, k2, s2, b)
            replies = black_moves(board, piece, k2, s2, b)
            if said == "stalemate" or s2 in replies:
                continue  # a draw
            owner.append(i)
            after.append([index[(k2, s2, r)] for r in replies])
    width = max((len(a) for a in after), default=1)
    padded = np.full((len(after), width), -2, dtype=np.int32)
    for j, a in enumerate(after):
        padded[j, : len(a)] = a
    owners = np.array(owner, dtype=np.int32)
    value = fixpoint(len(positions), owners, np.full(len(owner), -1, np.int32), padded, deadline)
    return {p: int(v) for p, v in zip(positions, value, strict=True)}


def longest(board: Board, piece: str = "R") -> int:
    """The longest forced mate (White to move) on ``board``."""
    return max(v for v in classic_values(board, piece).values() if v < NO_MATE)
