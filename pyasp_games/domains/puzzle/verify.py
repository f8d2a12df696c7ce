"""Independent checks of puzzle answers.

Shares no code with the solvers it checks: it replays a plan with its own move
rules and goal, and checks unsolvability claims with Aleksic's thesis' formulation of
the invariant (permutation parity against the blank's distance from home),
which differs from the inversion count the solvers use.

>>> verify_plan(3, 3, (1, 2, 3, 4, 5, 6, 7, 0, 8), "blank-last", "R").ok
True
>>> verify_plan(3, 3, (1, 2, 3, 4, 5, 6, 7, 0, 8), "blank-last", "L").message
'after 1 moves the board is not the goal'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pyasp_games.domains.puzzle.model import Board
from pyasp_games.engines.outcome import Outcome

_STEP = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}


@dataclass(frozen=True)
class Verdict:
    ok: bool
    message: str


def _goal(n: int, goal: str) -> list[int]:
    return [*range(1, n), 0] if goal == "blank-last" else list(range(n))


def replay(rows: int, cols: int, tiles: Sequence[int], plan: str) -> list[int]:
    """The board after ``plan``; raises ``ValueError`` at an illegal move."""
    board = list(tiles)
    r, c = divmod(board.index(0), cols)
    for i, letter in enumerate(plan):
        if letter not in _STEP:
            raise ValueError(f"move {i + 1}: {letter!r} is not one of U, D, L, R")
        dr, dc = _STEP[letter]
        nr, nc = r + dr, c + dc
        if not (0 <= nr < rows and 0 <= nc < cols):
            raise ValueError(f"move {i + 1}: {letter} takes the blank off the board")
        board[r * cols + c], board[nr * cols + nc] = board[nr * cols + nc], 0
        r, c = nr, nc
    return board


def verify_plan(rows: int, cols: int, tiles: Sequence[int], goal: str, plan: str) -> Verdict:
    """Does ``plan`` (a string of U D L R, the blank's moves) take the board to the goal?"""
    try:
        final = replay(rows, cols, tiles, plan)
    except ValueError as err:
        return Verdict(False, str(err))
    if final != _goal(rows * cols, goal):
        return Verdict(False, f"after {len(plan)} moves the board is not the goal")
    return Verdict(True, f"the plan of {len(plan)} moves reaches the goal")


def verify_unsolvable(rows: int, cols: int, tiles: Sequence[int], goal: str) -> Verdict:
    """Confirm an unsolvability claim by permutation parity vs. the blank's distance.

    Every move is a transposition (the blank with a tile) and moves the blank one
    cell, so ``parity(permutation) == parity(distance of blank from home)`` holds
    along every plan; a board violating it cannot reach the goal.
    """
    target = _goal(rows * cols, goal)
    where = {v: i for i, v in enumerate(target)}
    perm = [where[v] for v in tiles]  # position i holds the tile whose home is perm[i]
    seen = [False] * len(perm)
    transpositions = 0
    for i in range(len(perm)):
        length = 0
        while not seen[i]:
            seen[i] = True
            i = perm[i]
            length += 1
        transpositions += max(0, length - 1)
    br, bc = divmod(list(tiles).index(0), cols)
    hr, hc = divmod(target.index(0), cols)
    distance = abs(br - hr) + abs(bc - hc)
    if transpositions % 2 != distance % 2:
        return Verdict(True, "permutation parity differs from the blank's distance parity")
    return Verdict(
        False, "permutation parity equals the blank's distance parity: the board is solvable"
    )


def check_outcome(board: Board, outcome: Outcome) -> tuple[bool | None, str]:
    """Verify an outcome independently: ``(True|False, message)``, ``None`` if nothing to check.

    A plan must replay to the goal and its length must be the answer; a
    ``no-solution`` without a length bound must be backed by the parity invariant.
    """
    if outcome.status == "solved":
        if not isinstance(outcome.witness, str):
            return False, "no plan given"
        verdict = verify_plan(board.rows, board.cols, board.tiles, board.goal, outcome.witness)
        if verdict.ok and outcome.answer != len(outcome.witness):
            return False, f"answer {outcome.answer} is not the plan's length {len(outcome.witness)}"
        return verdict.ok, verdict.message
    if outcome.status == "no-solution":
        if outcome.verdict.bound is not None:
            # "none within the bound" is cross-checked against the other backends,
            # not verifiable on its own
            return None, outcome.stats["proof"]
        verdict = verify_unsolvable(board.rows, board.cols, board.tiles, board.goal)
        return verdict.ok, verdict.message
    return None, "nothing to verify"


def check_solvability(board: Board, outcome: Outcome) -> tuple[bool | None, str]:
    """Verify a solvability answer (``True``/``False``) by :func:`verify_unsolvable`'s
    invariant (permutation parity against the blank's distance), not the solvers' one."""
    if outcome.status != "solved" or not isinstance(outcome.answer, bool):
        return None, "nothing to verify"
    parity = verify_unsolvable(board.rows, board.cols, board.tiles, board.goal)
    if outcome.answer is not parity.ok:  # parity.ok: the invariant proves it unsolvable
        return True, parity.message
    said = "solvable" if outcome.answer else "unsolvable"
    return False, f"the answer says {said}, but {parity.message}"
