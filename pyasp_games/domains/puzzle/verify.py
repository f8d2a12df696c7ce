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

from pyasp_games.domains.puzzle.model import Board, parity_argument
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


def manhattan(rows: int, cols: int, tiles: Sequence[int], goal: str) -> int:
    """The tiles' Manhattan distances to their goal cells: no plan is shorter (a move
    moves one tile by one cell). Counted here, not by the solvers' heuristic.

    >>> manhattan(3, 3, (1, 2, 3, 4, 5, 6, 0, 7, 8), "blank-last")
    2
    """
    home = {v: divmod(i, cols) for i, v in enumerate(_goal(rows * cols, goal))}
    total = 0
    for i, v in enumerate(tiles):
        if v:
            (r, c), (hr, hc) = divmod(i, cols), home[v]
            total += abs(r - hr) + abs(c - hc)
    return total


def check_parity_terms(board: Board, terms: object) -> Verdict:
    """Count again the invariant's terms a claim states (its certificate: inversions, the
    blank's row, the goal's, the width's parity and the argument in words,
    :func:`~pyasp_games.domains.puzzle.model.parity_terms`): every number the printed
    argument rests on, counted here by pairs of tiles, and the words they give."""
    if not isinstance(terms, dict):
        return Verdict(False, "the certificate is not the invariant's terms")
    target = _goal(board.size, board.goal)
    order = {v: i for i, v in enumerate(target)}
    tiles = [v for v in board.tiles if v]
    inversions = 0
    for i, a in enumerate(tiles):
        for b in tiles[i + 1 :]:
            inversions += order[a] > order[b]
    counted = {
        "inversions": inversions,
        "blank_row": list(board.tiles).index(0) // board.cols,
        "goal_blank_row": target.index(0) // board.cols,
        "width_even": board.cols % 2 == 0,
    }
    for key, value in counted.items():
        if terms.get(key) != value:
            return Verdict(False, f"the certificate says {key} {terms.get(key)!r}, counted {value!r}")
    words = parity_argument(board.cols, inversions, counted["blank_row"], counted["goal_blank_row"])[1]
    if terms.get("reason") != words:
        return Verdict(False, "the certificate's argument is not the one its terms give")
    return Verdict(True, f"{inversions} inversions counted again")


def check_outcome(board: Board, outcome: Outcome) -> tuple[bool | None, str]:
    """Verify an outcome independently: ``(True|False, message)``, ``None`` if nothing to check.

    A plan must replay to the goal and its length must be the answer; a
    ``no-solution`` without a length bound must be backed by the parity invariant (and
    the terms its certificate states counted again); "no plan of length <= N" must say
    N in its certificate, and is confirmed alone where the board is unsolvable or its
    Manhattan distance exceeds N (otherwise it rests on the backend's search, and a user
    encoding's is cross-checked).
    """
    if outcome.status == "solved":
        if not isinstance(outcome.witness, str):
            return False, "no plan given"
        verdict = verify_plan(board.rows, board.cols, board.tiles, board.goal, outcome.witness)
        if verdict.ok and outcome.answer != len(outcome.witness):
            return False, f"answer {outcome.answer} is not the plan's length {len(outcome.witness)}"
        return verdict.ok, verdict.message
    if outcome.status == "no-solution":
        if outcome.answer is not None:
            return False, f"a claim of no plan with the answer {outcome.answer!r}"
        bound = outcome.verdict.bound
        if bound is not None:
            return _check_none_within(board, bound, outcome.certificate)
        verdict = verify_unsolvable(board.rows, board.cols, board.tiles, board.goal)
        if verdict.ok and outcome.certificate is not None:
            terms = check_parity_terms(board, outcome.certificate)
            if not terms.ok:
                return False, terms.message
        return verdict.ok, verdict.message
    return None, "nothing to verify"


def _check_none_within(board: Board, bound: object, grounds: object) -> tuple[bool | None, str]:
    """"No plan of length <= ``bound``": the bound a length, the certificate saying it."""
    if not isinstance(bound, int) or isinstance(bound, bool) or bound < 0:
        return False, f"the bound {bound!r} is not a plan length"
    if grounds != f"no plan of length <= {bound}":
        return False, f"the certificate {grounds!r} does not state the bound {bound}"
    if verify_unsolvable(board.rows, board.cols, board.tiles, board.goal).ok:
        return True, f"no plan of length <= {bound}: the board is unsolvable (parity)"
    least = manhattan(board.rows, board.cols, board.tiles, board.goal)
    if least > bound:
        return True, f"no plan of length <= {bound}: every plan has at least {least} moves (Manhattan distance)"
    # rests on the backend's search; a user encoding's is cross-checked (not verifiable alone)
    return None, grounds


def check_solvability(board: Board, outcome: Outcome) -> tuple[bool | None, str]:
    """Verify a solvability answer (``True``/``False``) by :func:`verify_unsolvable`'s
    invariant (permutation parity against the blank's distance), not the solvers' one,
    and the terms of the argument the certificate states by counting them again
    (:func:`check_parity_terms`)."""
    if outcome.status != "solved" or not isinstance(outcome.answer, bool):
        return None, "nothing to verify"
    parity = verify_unsolvable(board.rows, board.cols, board.tiles, board.goal)
    if outcome.answer is parity.ok:  # parity.ok: the invariant proves it unsolvable
        said = "solvable" if outcome.answer else "unsolvable"
        return False, f"the answer says {said}, but {parity.message}"
    if outcome.certificate is not None:
        terms = check_parity_terms(board, outcome.certificate)
        if not terms.ok:
            return False, terms.message
    return True, parity.message
