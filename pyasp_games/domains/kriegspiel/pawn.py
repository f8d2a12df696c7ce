"""Kriegspiel with a pawn: White's king and pawn against the black king (KPK).

The rules (square by square and set-wise), the announcements of the three rule sets the
thesis describes (its section 3.2.2), the classic (perfect-information) KPK table and
the Kriegspiel KPK over metapositions, both handing over to the KQK tables once the
pawn promotes (to a queen).

White's pawn moves up the board (towards the last rank): one step onto an empty square,
two from the second rank when both squares are empty (only on boards of 5 ranks or
more, so that the double step never lands on the last rank), and it takes diagonally.
Reaching the last rank it becomes a queen, and the ending goes on as KQK. The pawn
stands on ranks 2 to R - 1.

**The black king is Black's only man**, so no pawn capture is ever possible in KPK (a
king is never taken), for either side: every rule set's pawn-capture announcement is
"none" (English rules: "Are there any?" is answered "No"; RAND: no square is listed;
ICC: "0 captures"), and a pawn-capture try (``Px``) is always refused. Such a try is
refused wherever the black king stands, so it tells White nothing: the metaposition
solvers leave it out. What does differ between the rule sets in KPK is what Black
hears when the pawn promotes (announced under RAND only) and how Black's capture of
White's pawn or queen is announced (RAND and ICC say "a pawn" or "a piece"); Black
hears the rest alike: "illegal" (aloud), "White has moved", checks with their
direction, mate and stalemate. A worst-case (sure-win) strategy for White does not
depend on what Black hears, so the rule set changes no sure-win answer; the games of
chance (:mod:`~pyasp_games.domains.kriegspiel.magari`) name it, and in the positions
solved there no promotion or capture happens before a leaf, so it changes no number
either.

>>> from pyasp_games.domains.kriegspiel.model import Board, parse_square
>>> b = Board(8, 8)
>>> sq = lambda name: parse_square(b, name)
>>> [attempt_name(b, a) for a in white_attempts(b, sq("c5"), sq("c6"))]
['Kb4', 'Kc4', 'Kd4', 'Kb5', 'Kd5', 'Kb6', 'Kd6', 'Pc7', 'Pxb7', 'Pxd7']
>>> black_steps(b, sq("c5"), "P", sq("c6"), sq("c7")) == [sq("b8"), sq("c8"), sq("d8")]
True
>>> white_answer(b, sq("b6"), "P", sq("c7"), sq("b8"))  # the pawn checks from c7
'check-long-diagonal'
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from pyasp_games.domains.kriegspiel.metaposition import (
    DRAW,
    After,
    _answers,
    _diagonal_lengths,
    rules_for,
)
from pyasp_games.domains.kriegspiel.model import Board, expand_rank, read_ranks, square_name
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.limits import Deadline, Limits
from pyasp_games.errors import InputError

#: The rule sets of section 3.2.2 of the thesis, with what the referee announces under
#: each about pawn captures, promotions and captures (the rest is common to all three).
RULE_SETS: dict[str, str] = {
    "english": "English (Eastern) rules: nothing is announced about possible pawn captures "
    "unless the player asks \"Are there any?\" (answered \"No\" or \"Try!\", and a \"Try!\" "
    "obliges one pawn-capture try); a capture is announced by its square only; a "
    "promotion is not announced",
    "rand": "RAND (Western) rules: before every move the referee lists the squares where "
    "a pawn capture is possible; a capture names its square and whether a pawn or a "
    "piece was taken; a promotion is announced",
    "icc": "ICC (Cincinnati) rules: before every move the referee says how many pawn "
    "captures are possible; a capture names its square and whether a pawn or a piece "
    "was taken; a promotion is not announced",
}

#: An attempt: ``("K", square)``, ``("P", square)`` (a push, one or two steps) or
#: ``("Px", square)`` (a pawn-capture try).
Attempt = tuple[str, int]


def rule_set(name: str) -> str:
    """The rule set named ``name`` (``english``, ``rand`` or ``icc``), checked."""
    key = name.strip().lower()
    if key not in RULE_SETS:
        raise InputError(f"unknown rule set {name!r}: one of {', '.join(RULE_SETS)}")
    return key


def attempt_name(board: Board, attempt: Attempt) -> str:
    return f"{attempt[0]}{square_name(board, attempt[1])}"


def pawn_ranks(board: Board) -> range:
    """The ranks (from 0) a pawn may stand on: the second to the last but one."""
    return range(1, board.rows - 1)


def check_pawn(board: Board, pawn: int) -> None:
    """Refuse a pawn on the first or the last rank, in one line."""
    rank = board.coords(pawn)[0]
    if rank not in pawn_ranks(board):
        where = "first" if rank == 0 else "last"
        raise InputError(
            f"a white pawn cannot stand on the {where} rank ({square_name(board, pawn)}): "
            f"ranks 2 to {board.rows - 1} on a {board.label} board"
        )


def pawn_attacks(board: Board, pawn: int) -> int:
    """The squares a white pawn on ``pawn`` attacks (diagonally forward)."""
    rank, file = board.coords(pawn)
    out = 0
    for df in (-1, 1):
        t = board.square(rank + 1, file + df)
        if t is not None:
            out |= 1 << t
    return out


def white_attempts(board: Board, king: int, pawn: int) -> list[Attempt]:
    """Every attempt White can think of with its king and pawn: the king's steps, the
    pushes (one step; two from the second rank on boards of 5 ranks or more) and the
    pawn-capture tries, in that order."""
    out: list[Attempt] = [("K", t) for t in board.squares(board.neighbours[king]) if t != pawn]
    rank, file = board.coords(pawn)
    one = board.square(rank + 1, file)
    if one is not None and one != king:
        out.append(("P", one))
        two = board.square(rank + 2, file)
        if rank == 1 and board.rows >= 5 and two is not None and two != king:  # rank 4 < R
            out.append(("P", two))
    out += [("Px", t) for t in board.squares(pawn_attacks(board, pawn)) if t != king]
    return out


def illegal_where(board: Board, king: int, pawn: int, attempt: Attempt) -> int:
    """The black king's squares where ``attempt`` is illegal: a king step next to it, a
    push onto it (or, two steps, through it), and every pawn-capture try (there is
    nothing a pawn may take)."""
    man, target = attempt
    if man == "K":
        return board.neighbours[target] | (1 << target)
    if man == "P":
        rank, file = board.coords(pawn)
        path = 0
        for r in range(rank + 1, board.coords(target)[0] + 1):
            path |= 1 << r * board.cols + file
        return path
    return board.full


def played(board: Board, king: int, pawn: int, attempt: Attempt) -> tuple[int, str, int]:
    """White's king, its other man (``P``, or ``Q`` once promoted) and that man's square
    after the legal ``attempt``."""
    man, target = attempt
    if man == "K":
        return target, "P", pawn
    return king, ("Q" if board.coords(target)[0] == board.rows - 1 else "P"), target


@cache
def after_pawn(board: Board, king: int, pawn: int) -> After:
    """The board's side of the referee's answers once White has a king on ``king`` and a
    pawn on ``pawn`` (Black to move): the pawn's checks (by the diagonal through the
    black king's square, long or short, as for a queen), where the black king may step,
    and where it could take the pawn (when White's king does not protect it)."""
    lines = pawn_attacks(board, pawn)
    protected = board.neighbours[king] >> pawn & 1
    free = board.full & ~board.neighbours[king] & ~lines & ~(1 << king) & ~(1 << pawn)
    zone = 0 if protected else board.neighbours[pawn]
    can_move = board.spread(free | (0 if protected else 1 << pawn))
    checks: dict[str, int] = {}
    prank, pfile = board.coords(pawn)
    for s in board.squares(lines):
        rank, file = board.coords(s)
        lengths = _diagonal_lengths(board, s)
        # the a1-h8 way (rank - file constant) is the first of the two lengths
        mine, theirs = (lengths if rank - file == prank - pfile else lengths[::-1])
        name = f"check-{'long' if mine >= theirs else 'short'}-diagonal"
        checks[name] = checks.get(name, 0) | 1 << s
    takeable = 0 if protected else 1 << pawn
    return After(king, pawn, lines, zone, free, can_move, tuple(checks.items()), takeable)


def after_move(board: Board, king: int, man: str, square: int) -> After:
    """The board after White's move, for a pawn or (promoted) a queen."""
    return after_pawn(board, king, square) if man == "P" else rules_for(board, "Q").after(king, square)


def black_steps(board: Board, king: int, man: str, square: int, black: int) -> list[int]:
    """The black king's legal moves from ``black`` (taking an unprotected pawn or queen
    included), Black to move."""
    after = after_move(board, king, man, square)
    return board.squares(board.neighbours[black] & (after.free | after.takeable))


def white_answer(board: Board, king: int, man: str, square: int, black: int) -> str:
    """The referee's answer to White's legal move with the black king on ``black``:
    ``mate``, ``stalemate``, ``check-...`` or ``silent``."""
    after = after_move(board, king, man, square)
    moves = black_steps(board, king, man, square, black)
    if after.lines >> black & 1:
        if not moves:
            return "mate"
        return next(a for a, mask in after.checks if mask >> black & 1)
    return "silent" if moves else "stalemate"


def legal_position(board: Board, king: int, pawn: int, black: int, white_to_move: bool) -> bool:
    """Whether the three men stand legally (the pawn on ranks 2 to R - 1, the kings apart,
    with White to move the black king not in check by the pawn)."""
    if len({king, pawn, black}) < 3 or board.coords(pawn)[0] not in pawn_ranks(board):
        return False
    if board.neighbours[king] >> black & 1:
        return False
    return not (white_to_move and pawn_attacks(board, pawn) >> black & 1)


# -- the referee's announcements under each rule set --------------------------------------


def pawn_capture_squares(board: Board, king: int, pawn: int, black: int, side: str) -> list[int]:
    """The squares where the side to move has a legal pawn capture: in KPK none, ever
    (White's pawn has no black man but the king to take, Black has no pawn); computed
    from the men, not assumed."""
    if side == "black":
        return []  # Black has no pawn
    targets = pawn_attacks(board, pawn) & ~(1 << king)
    black_men_but_king = 0  # KPK: the black king is Black's only man
    return board.squares(targets & black_men_but_king)


def before_move(rules: str, squares: list[int], board: Board) -> str:
    """What the referee says, before a move, about the possible pawn captures."""
    if rules == "rand":
        return "pawn captures: " + (", ".join(square_name(board, s) for s in squares) or "none")
    if rules == "icc":
        return f"pawn captures: {len(squares)}"
    return "(nothing: a player may ask \"Are there any?\")"


def are_there_any(rules: str, squares: list[int]) -> str:
    """The answer to "Are there any?" (English rules; under RAND and ICC the question is
    answered before every move anyway)."""
    if rules != "english":
        return "not asked: the referee announces the pawn captures before every move"
    return "Try!" if squares else "No"


@dataclass
class PawnReferee:
    """A KPK game in progress: the true position, its rule set, White to move after
    :meth:`black`. Once the pawn promotes, :meth:`handover` gives the KQK referee.

    >>> from pyasp_games.domains.kriegspiel.model import parse_square
    >>> b = Board(8, 8)
    >>> sq = lambda name: parse_square(b, name)
    >>> ref = PawnReferee(b, sq("b6"), sq("c6"), sq("b8"), rules="rand")
    >>> ref.white(("K", sq("b7")))
    'illegal'
    >>> ref.white(("P", sq("c7")))
    'check-long-diagonal'
    >>> ref.heard
    ['rand: pawn captures: none', 'illegal', 'White has moved: check-long-diagonal']
    """

    board: Board
    king: int
    pawn: int
    black_king: int
    rules: str = "english"
    man: str = "P"
    over: str | None = None
    heard: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rules = rule_set(self.rules)
        check_pawn(self.board, self.pawn)
        if not legal_position(self.board, self.king, self.pawn, self.black_king, True):
            raise InputError("the position is not legal with White to move")
        self._announce_before("white")

    def _announce_before(self, side: str) -> None:
        if self.man == "P" and self.rules != "english":
            squares = pawn_capture_squares(self.board, self.king, self.pawn, self.black_king, side)
            self.heard.append(f"{self.rules}: {before_move(self.rules, squares, self.board)}")

    def are_there_any(self) -> str:
        """The answer to White's "Are there any?", the rule set named."""
        squares = pawn_capture_squares(self.board, self.king, self.pawn, self.black_king, "white")
        return f"{self.rules}: {are_there_any(self.rules, squares)}"

    def white(self, attempt: Attempt) -> str:
        """Answer White's attempt: ``illegal`` (try again), or the move is played and the
        answer is ``mate``, ``stalemate``, ``check-...`` or ``silent``."""
        if self.man != "P":
            raise ValueError("the pawn has promoted: the ending goes on as KQK (handover())")
        if attempt not in white_attempts(self.board, self.king, self.pawn):
            self.heard.append("impossible")
            return "impossible"
        if illegal_where(self.board, self.king, self.pawn, attempt) >> self.black_king & 1:
            self.heard.append("illegal")
            return "illegal"
        self.king, self.man, self.pawn = played(self.board, self.king, self.pawn, attempt)
        said = white_answer(self.board, self.king, self.man, self.pawn, self.black_king)
        if self.man == "Q" and self.rules == "rand":
            self.heard.append("rand: White promotes")
        self.heard.append(f"White has moved: {said}")
        if said in ("mate", "stalemate"):
            self.over = said
        return said

    def black(self, target: int) -> str:
        """Answer Black's attempt: ``illegal``, ``capture`` (the pawn or queen taken: a
        draw, KK) or ``moved``."""
        if target not in black_steps(self.board, self.king, self.man, self.pawn, self.black_king):
            self.heard.append("illegal")
            return "illegal"
        self.black_king = target
        if target == self.pawn:
            what = "" if self.rules == "english" else (" a pawn" if self.man == "P" else " a piece")
            self.heard.append(f"{self.rules}: Black captures{what} at {square_name(self.board, target)}")
            self.over = "capture"
            return "capture"
        self.heard.append("Black has moved")
        self._announce_before("white")
        return "moved"

    def handover(self):
        """The KQK referee of the promoted position."""
        from pyasp_games.domains.kriegspiel.referee import Referee

        if self.man != "Q":
            raise ValueError("the pawn has not promoted")
        return Referee(self.board, "Q", self.king, self.pawn, self.black_king, self.over)


# -- set-wise: metapositions with a pawn ----------------------------------------------------


def informative_attempts(board: Board, king: int, pawn: int) -> list[Attempt]:
    """White's attempts that may be legal (the pawn-capture tries never are)."""
    return [a for a in white_attempts(board, king, pawn) if a[0] != "Px"]


def outcomes(board: Board, king: int, pawn: int, belief: int
             ) -> Iterator[tuple[Attempt, int, dict[str, tuple[str, int, int, int] | None] | None]]:
    """For each attempt that can be legal among ``belief``: ``(attempt, illegal part,
    answers)``; ``answers`` maps each referee's answer to the next state ``(man, king,
    square, belief)`` after Black's move (``None``: mate), or is :data:`DRAW` (some
    square allows a stalemate or the capture of the pawn or queen)."""
    for attempt in informative_attempts(board, king, pawn):
        illegal = belief & illegal_where(board, king, pawn, attempt)
        legal = belief ^ illegal
        if not legal:
            continue
        k, man, s = played(board, king, pawn, attempt)
        after = after_move(board, k, man, s)
        answers = _answers(after, legal)
        if answers is DRAW:
            yield attempt, illegal, DRAW
            continue
        yield attempt, illegal, {
            a: None if a == "mate" else (man, k, s, board.spread(b) & after.free)
            for a, b in answers.items()
        }


def full_belief(board: Board, king: int, pawn: int) -> int:
    """Every square where the black king may stand, White to move."""
    return sum(1 << b for b in range(board.size) if legal_position(board, king, pawn, b, True))


# -- solving: a graph of White-to-move states, the KQK states it promotes into fixed ------

#: A state, White to move: ``(man, king, square, black)`` with ``man`` ``P`` (KPK) or
#: ``Q`` (KQK after the promotion) and ``black`` the black king's square (classic) or the
#: bitmask of its possible squares (a metaposition).
PawnState = tuple[str, int, int, int]
#: The value of a state without a forced win (the metaposition tables' "no mate").
NO_WIN = 1_000_000
#: The classic KQK tables built in this process, by board (0.5 s for 8 x 8, kept).
_CLASSIC_KQK: dict[Board, Any] = {}


@dataclass
class Solved:
    """A solved graph: the states (numbered), their values (White moves to mate at
    worst, :data:`NO_WIN` for none), and each KPK state's attempts as ``(attempt, illegal
    state number or -1, next state numbers)`` (an empty list of next states: a mate)."""

    board: Board
    keys: list[PawnState]
    index: dict[PawnState, int]
    value: list[int]
    attempts: dict[int, list[tuple[Attempt, int, list[int]]]]
    #: per KQK state: what its value rests on (the KQK table)
    handover: str = ""

    def of(self, state: PawnState) -> int | None:
        k = self.index.get(state)
        return None if k is None else self.value[k]

    def best(self, k: int) -> tuple[Attempt, int, list[int]] | None:
        """An attempt of state ``k`` that achieves its value (``None``: no forced win)."""
        v = self.value[k]
        if v >= NO_WIN:
            return None
        for attempt, ill, nexts in self.attempts.get(k, []):
            moved = 1 + max((self.value[n] for n in nexts), default=0)
            if max(self.value[ill] if ill >= 0 else 0, moved) == v:
                return attempt, ill, nexts
        raise AssertionError("no attempt achieves the value")  # the fixpoint's equation


def _classic_successors(board: Board, state: PawnState) -> list[tuple[Attempt, int, list[PawnState]]]:
    _, king, pawn, black = state
    out = []
    for attempt in informative_attempts(board, king, pawn):
        if illegal_where(board, king, pawn, attempt) >> black & 1:
            continue
        k, man, s = played(board, king, pawn, attempt)
        after = after_move(board, k, man, s)
        if after.capture_zone >> black & 1:
            continue  # Black takes the pawn (or queen): a draw
        steps = board.squares(board.neighbours[black] & after.free)
        if not steps:
            if after.lines >> black & 1:
                out.append((attempt, -1, []))  # mate
            continue  # stalemate: a draw
        out.append((attempt, -1, [(man, k, s, b) for b in steps]))
    return out


def _meta_successors(board: Board, state: PawnState) -> list[tuple[Attempt, int, list[PawnState]]]:
    _, king, pawn, belief = state
    out = []
    for attempt, illegal, answers in outcomes(board, king, pawn, belief):
        if answers is DRAW:
            continue
        nexts = [s for s in answers.values() if s is not None]
        out.append((attempt, illegal, nexts))  # type: ignore[arg-type]
    return out


def _solve(board: Board, roots: list[PawnState], metapositions: bool, deadline: Deadline | None = None) -> Solved:
    """Every state reachable from ``roots``, solved: the KPK states by the fixpoint of the
    metaposition tables, the KQK states they promote into valued by the KQK table
    (classic: :func:`~pyasp_games.domains.kriegspiel.classic.classic_table`; metapositions:
    :mod:`~pyasp_games.domains.kriegspiel.tablebase`)."""
    import numpy as np

    from pyasp_games.domains.kriegspiel.tablebase import NO_MATE, fixpoint

    index: dict[PawnState, int] = {}
    keys: list[PawnState] = []

    def number(state: PawnState) -> int:
        found = index.get(state)
        if found is None:
            found = index[state] = len(keys)
            keys.append(state)
        return found

    for r in roots:
        number(r)
    attempts: dict[int, list[tuple[Attempt, int, list[int]]]] = {}
    successors = _meta_successors if metapositions else _classic_successors
    done = 0
    while done < len(keys):
        if deadline is not None and done % 1024 == 0:
            deadline.check()
        state = keys[done]
        if state[0] == "P":
            rows = []
            for attempt, ill, nexts in successors(board, state):
                sub = number(("P", state[1], state[2], ill)) if ill > 0 else -1
                rows.append((attempt, sub, [number(s) for s in nexts]))
            attempts[done] = rows
        done += 1
    fixed: dict[int, int] = {}  # the KQK states' values, from the KQK table
    queens = [k for k, s in enumerate(keys) if s[0] == "Q"]
    handover = ""
    if queens:
        if metapositions:
            from pyasp_games.domains.kriegspiel.model import Metaposition
            from pyasp_games.domains.kriegspiel.tablebase import build, values

            ms = [Metaposition(board, keys[k][1], keys[k][2], keys[k][3], "Q") for k in queens]
            table = build(ms, deadline, symmetric=False)  # every KQK state as it stands
            for key, v in zip(table.keys, values(table, deadline), strict=True):
                fixed[number(("Q", *key))] = int(v)
            handover = f"the KQK metaposition table ({len(table.keys)} metapositions)"
        else:
            from pyasp_games.domains.kriegspiel.classic import classic_table

            if board not in _CLASSIC_KQK:
                _CLASSIC_KQK[board] = classic_table(board, "Q", deadline)
            kqk = _CLASSIC_KQK[board]
            for k in queens:
                fixed[k] = max(int(kqk[keys[k][1], keys[k][2], keys[k][3]]), -1)
            handover = "the classic KQK table"
    initial = np.full(len(keys), NO_MATE, dtype=np.int32)
    for k, v in fixed.items():
        initial[k] = v
    owner, illegal, after = [], [], []
    for k, rows in attempts.items():
        for _a, sub, nexts in rows:
            owner.append(k)
            illegal.append(sub)
            after.append(nexts or [-2])
    width = max((len(a) for a in after), default=1)
    padded = np.full((len(after), width), -2, dtype=np.int32)
    for j, nexts in enumerate(after):
        padded[j, : len(nexts)] = nexts
    order = np.argsort(np.array(owner, dtype=np.int32), kind="stable")
    value = fixpoint(len(keys), np.array(owner, dtype=np.int32)[order], np.array(illegal, dtype=np.int32)[order],
                     padded[order], deadline, initial=initial)
    out = [int(min(v, NO_WIN)) for v in value]
    return Solved(board, keys, index, out, attempts, handover)


def classic_kpk(board: Board, files: list[int] | None = None, deadline: Deadline | None = None,
                from_rank: int = 1) -> Solved:
    """The classic (perfect-information) KPK table of ``board``: every legal position with
    White to move and the pawn on one of ``files`` (default: all), its value the number
    of White moves to mate with best play (:data:`NO_WIN`: a draw), the promotion handed
    over to the classic KQK table. ``from_rank`` (from 0): only pawns on that rank or
    higher (the pawn never goes back, so these positions form a table of their own).

    >>> b = Board(5, 5)
    >>> t = classic_kpk(b, files=[2], from_rank=3)  # the c-pawn on the fourth rank
    >>> from pyasp_games.domains.kriegspiel.model import parse_square
    >>> sq = lambda name: parse_square(b, name)
    >>> t.of(("P", sq("b4"), sq("c4"), sq("e4")))  # c5=Q, then the queen mates
    4
    >>> t.of(("P", sq("b3"), sq("c4"), sq("c5")))  # the king on the queening square: a draw
    1000000
    """
    files = list(range(board.cols)) if files is None else files
    roots = [("P", k, p, b) for p in range(board.size) if board.coords(p)[1] in files
             and board.coords(p)[0] in pawn_ranks(board) and board.coords(p)[0] >= from_rank
             for k in range(board.size) for b in range(board.size)
             if legal_position(board, k, p, b, True)]
    return _solve(board, roots, False, deadline)


def black_to_move(table: Solved, king: int, pawn: int, black: int) -> int:
    """The value of a classic position with Black to move (:data:`NO_WIN`: a draw):
    Black takes an unprotected pawn, is stalemated, or picks the reply worst for White."""
    board = table.board
    after = after_move(board, king, "P", pawn)
    if after.capture_zone >> black & 1:
        return NO_WIN
    steps = board.squares(board.neighbours[black] & after.free)
    if not steps:
        return NO_WIN  # a pawn alone never checks a king that cannot move here: stalemate
    worst = max(table.of(("P", king, pawn, b)) or NO_WIN for b in steps)
    return worst


def kpk_metapositions(board: Board, roots: list[PawnState], deadline: Deadline | None = None) -> Solved:
    """Every KPK metaposition reachable from ``roots`` (``("P", king, pawn, belief)``),
    solved: the worst-case number of White moves to mate, promotion and KQK included."""
    return _solve(board, roots, True, deadline)


# -- metapositions with a pawn as text, and the solving backends ---------------------------


@dataclass(frozen=True)
class PawnMetaposition:
    """White's king and pawn and the squares where the black king may be, White to move.

    >>> m = parse_pawn("4/4/1P2/1K2 unknown")
    >>> m.fen(), m.describe()
    ('????/1?1?/1P1?/1K1?', 'KPK on 4x4: Kb1 Pb2, the black king on one of 8 squares')
    """

    board: Board
    king: int
    pawn: int
    belief: int
    name: str = field(default="", compare=False)

    def fen(self) -> str:
        return state_fen(self.board, ("P", self.king, self.pawn, self.belief))

    def describe(self) -> str:
        b = self.board
        n = bin(self.belief).count("1")
        where = "its square known" if n == 1 else f"on one of {n} squares"
        return (f"KPK on {b.label}: K{square_name(b, self.king)} P{square_name(b, self.pawn)}, "
                f"the black king {where}")


def state_fen(board: Board, state: PawnState) -> str:
    """The one-line form of a state (``P`` pawn or ``Q`` queen, ``?`` possible squares)."""
    man, king, square, belief = state
    ranks = []
    for r in range(board.rows - 1, -1, -1):
        row, empty = "", 0
        for f in range(board.cols):
            s = r * board.cols + f
            mark = "K" if s == king else man if s == square else "?" if belief >> s & 1 else ""
            if mark:
                row += (str(empty) if empty else "") + mark
                empty = 0
            else:
                empty += 1
        ranks.append(row + (str(empty) if empty else ""))
    return "/".join(ranks)


def parse_pawn(text: str, name: str = "") -> PawnMetaposition:
    """A KPK metaposition from its one-line form: the ranks from the top separated by
    ``/``, ``K`` White's king, ``P`` its pawn, ``?`` a possible square of the black king
    (``k``: its known square), digits for empty squares; then optionally ``unknown``
    (every square where the black king may legally stand)."""
    words = text.split()
    if not words or len(words) > 2 or (len(words) == 2 and words[1].lower() != "unknown"):
        raise InputError(f"a KPK metaposition is one line like '4/4/1P2/1K2 unknown', got {text!r}")
    unknown = len(words) == 2
    ranks = [expand_rank(rank) for rank in words[0].split("/")]
    board, found = read_ranks(ranks, "KP?k.", "K P ? k . or a digit")
    marks = {ch: found.get(ch, []) for ch in "KP?k"}
    if len(marks["K"]) != 1 or len(marks["P"]) != 1:
        raise InputError("metaposition: one white king K and one pawn P, please")
    king, pawn = marks["K"][0], marks["P"][0]
    check_pawn(board, pawn)
    given = marks["?"] + marks["k"]
    if unknown and given:
        raise InputError("metaposition: 'unknown' with ? or k squares: give one or the other")
    if len(marks["k"]) > 1 or (marks["k"] and marks["?"]):
        raise InputError("metaposition: one known square k, or possible squares ?, not both")
    for b in given:
        if not legal_position(board, king, pawn, b, True):
            raise InputError(f"metaposition: the black king cannot stand on {square_name(board, b)} "
                             "with White to move")
    belief = full_belief(board, king, pawn) if unknown else sum(1 << b for b in given)
    if not belief:
        raise InputError("metaposition: no square for the black king")
    return PawnMetaposition(board, king, pawn, belief, name)


def starts(board: Board) -> list[PawnMetaposition]:
    """Every full-uncertainty start of a board: each placement of White's king and pawn
    with the black king anywhere it may legally stand."""
    out = []
    for p in range(board.size):
        if board.coords(p)[0] not in pawn_ranks(board):
            continue
        for k in range(board.size):
            if k != p and (belief := full_belief(board, k, p)):
                out.append(PawnMetaposition(board, k, p, belief))
    return out


def certificate(solved: Solved) -> dict:
    """The table an answer rests on, for the checker: every state with its value (KPK
    and the KQK states the pawn promotes into), one line each."""
    return {"states": [[man, k, s, b, v] for (man, k, s, b), v in zip(solved.keys, solved.value, strict=True)]}


def strategy_moves(solved: Solved, root: PawnState, most: int = 64) -> list[str]:
    """White's attempts along the strategy's main line (up to ``most``), for display."""
    out, k = [], solved.index[root]
    while len(out) < most and solved.keys[k][0] == "P":
        best = solved.best(k)
        if best is None:
            break
        attempt, _ill, nexts = best
        out.append(attempt_name(solved.board, attempt))
        if not nexts:
            break
        k = max(nexts, key=lambda n: solved.value[n])
    return out


def solve_pawn_native(m: PawnMetaposition, limits: Limits | None = None, rules: str = "english") -> Claim:
    """Backend ``native`` of ``pawn-solve``: the worst-case number of White moves to mate
    (through the promotion and KQK), or no sure win, with its table as certificate. The
    rule set is named in the answer (it changes no sure win in KPK: see the module)."""
    from pyasp_games.engines.limits import LimitReached

    limits = limits or Limits()
    deadline = limits.deadline()
    root = ("P", m.king, m.pawn, m.belief)
    try:
        solved = kpk_metapositions(m.board, [root], deadline)
    except LimitReached:
        return Claim.unknown({"limit": "time"})
    value = solved.of(root)
    stats = {"states": len(solved.keys), "handover": solved.handover, "rules": rule_set(rules)}
    cert = certificate(solved)
    if value is None or value >= NO_WIN:
        return Claim.none(stats=stats, certificate=cert)
    witness = {"first_attempts": strategy_moves(solved, root)}
    return Claim.solved(value, witness, stats=stats, certificate=cert)


@dataclass(frozen=True)
class PawnBoard:
    """A board of ``pawn-table``."""

    board: Board

    @property
    def name(self) -> str:
        return f"KPK {self.board.label}"


def solve_pawn_table(request: PawnBoard, limits: Limits | None = None, rules: str = "english") -> Claim:
    """Backend ``native`` of ``pawn-table``: every full-uncertainty start of a board,
    which White wins for sure and in how many moves at worst."""
    from pyasp_games.engines.limits import LimitReached

    limits = limits or Limits()
    deadline = limits.deadline()
    roots = [("P", m.king, m.pawn, m.belief) for m in starts(request.board)]
    try:
        solved = kpk_metapositions(request.board, roots, deadline)
    except LimitReached:
        return Claim.unknown({"limit": "time"})
    vals = [solved.of(r) for r in roots]
    won = [v for v in vals if v is not None and v < NO_WIN]
    spread: dict[str, int] = {}
    for v in sorted(won):
        spread[str(v)] = spread.get(str(v), 0) + 1
    if len(won) < len(vals):
        spread["none"] = len(vals) - len(won)
    answer = {"starts": len(roots), "forced": len(won), "longest": max(won, default=None),
              "distribution": spread, "states": len(solved.keys)}
    witness = {"starts": [{"metaposition": state_fen(request.board, r), "value": (v if v < NO_WIN else None)}
                          for r, v in zip(roots, vals, strict=True)]}
    return Claim.solved(answer, witness, stats={"handover": solved.handover, "rules": rule_set(rules)},
                        certificate=certificate(solved))
