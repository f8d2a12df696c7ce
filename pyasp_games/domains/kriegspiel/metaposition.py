"""The referee, set-wise: how White's attempts and the referee's answers change a metaposition.

A state is ``(king, square, belief)``: White's king, White's piece, and the bitmask of
the black king's possible squares, White to move. An **attempt** is a move of White's
king or piece that White can make on the board it sees.

:func:`rules_for` gives a board's :class:`Rules` (cached): its attempts
(:meth:`Rules.attempts`), how an attempt splits a belief into where it is illegal and
where it is legal (:meth:`Rules.split`), the referee's answers after a legal move with
the squares that give each (:meth:`Rules.answers`; :data:`DRAW` when some square allows
a draw), and for every attempt the state each answer leads to once Black has moved
(:meth:`Rules.outcomes`).

>>> from pyasp_games.domains.kriegspiel.model import parse_metaposition
>>> m = parse_metaposition("?1??/?1??/1R2/K1??")
>>> rules = rules_for(m.board, m.piece)
>>> [rules.name(a) for a in rules.attempts(m.king, m.piece_square)][:4]
['Rb3', 'Rb4', 'Rb1', 'Rc2']
>>> rules.split(m.king, m.piece_square, m.belief, ("K", 5))  # Kb2? no: Rb2 is there
Traceback (most recent call last):
...
KeyError: 'not an attempt: K to 5'
>>> ill, legal = rules.split(m.king, m.piece_square, m.belief, ("K", 1))  # Kb1
>>> [square_name(m.board, s) for s in m.board.squares(ill)]
['c1']
>>> rules.answers(1, 5, legal) is DRAW  # after Kb1 a king on d1 would be stalemated
True
>>> sorted(rules.answers(0, 1, m.belief))  # Rb1: a check on the rank (c1, d1), or silence
['check-rank', 'silent']
>>> [rules.name(a) for a, illegal, answers in rules.outcomes(0, 5, m.belief) if answers]
['Rb1', 'Ra2']

Notes
-----
The rules, set-wise:

- A move of the piece is never illegal: the black king never stands on the piece's
  open lines with White to move (it would be in check), so it never blocks one, and
  no White move can expose White's king to a lone king.
- A king move to ``t`` is illegal exactly when the black king is next to ``t``. The
  attempt splits the belief: where it is illegal, White tries again with the same men
  and a smaller belief (illegal attempts are free and are information); where it is
  legal, the move is made.
- After a legal move the referee answers: ``mate``; ``stalemate`` (a draw); a check
  with its direction (``check-rank``, ``check-file``, and for the queen
  ``check-long-diagonal`` / ``check-short-diagonal``: the longer or shorter of the two
  diagonals through the black king's square, long when they are equally long); or
  ``silent``. Each answer keeps the belief's squares that give it.
- Black then moves: the belief becomes the union of the king steps that are legal in
  at least one of its squares. If the black king could take White's unprotected piece
  (``capture``) the game is a draw. Black's own illegal attempts would be announced
  too, but Black can always avoid them, so a worst-case strategy learns nothing from
  them: they are not modelled.

A strategy wins only if no possible square allows a stalemate or a capture: an attempt
with such a square is a :data:`DRAW`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache

from pyasp_games.domains.kriegspiel.model import (
    DIAGONAL,
    Board,
    occupied_by,
    piece_squares,
    placement,
    square_name,
)

#: An attempt: ``("K", target)`` for the king, ``(piece, target)`` for the piece.
Attempt = tuple[str, int]
#: What an attempt leads to when the black king may stalemate or take the piece.
DRAW = None


@dataclass(frozen=True)
class After:
    """What the board says after White's move to ``(king, square)``, whatever the belief:
    the pieces' lines, where the black king could take one, where it may step, the
    squares with a legal step, the announced checks (disjoint sets of squares, one per
    announcement), and the pieces the black king may take (``square``: the piece's
    square, or the pieces' placement number)."""

    king: int
    square: int
    lines: int
    capture_zone: int
    free: int
    can_move: int
    checks: tuple[tuple[str, int], ...]
    takeable: int = 0


@dataclass(eq=False)
class Rules:
    """The set-wise referee of one board and one piece (tables built on demand)."""

    board: Board
    piece: str
    _slides: dict[tuple[int, int], tuple[list[int], int]] = field(default_factory=dict)
    _after: dict[tuple[int, int], After] = field(default_factory=dict)
    _tries: dict[tuple[int, int], list[tuple[Attempt, int, After]]] = field(default_factory=dict)

    def slide(self, square: int, king: int) -> tuple[list[int], int]:
        key = (square, king)
        if key not in self._slides:
            self._slides[key] = self.board.slide(self.piece, square, king)
        return self._slides[key]

    def attempts(self, king: int, square: int) -> list[Attempt]:
        """Every attempt White can think of: the piece's moves, then the king's."""
        out: list[Attempt] = [(self.piece, t) for t in self.slide(square, king)[0]]
        out += [("K", t) for t in self.board.squares(self.board.neighbours[king]) if t != square]
        return out

    def name(self, attempt: Attempt) -> str:
        return f"{attempt[0]}{square_name(self.board, attempt[1])}"

    def played(self, king: int, square: int, attempt: Attempt) -> tuple[int, int]:
        """White's king and piece square (or placement) once ``attempt`` is played."""
        return (attempt[1], square) if attempt[0] == "K" else (king, attempt[1])

    def split(self, king: int, square: int, belief: int, attempt: Attempt) -> tuple[int, int]:
        """``(where the attempt is illegal, where it is legal)`` among ``belief``."""
        man, target = attempt
        if man == self.piece and target in self.slide(square, king)[0]:
            return 0, belief
        if man == "K" and self.board.neighbours[king] >> target & 1 and target != square:
            near = self.board.neighbours[target] | (1 << target)
            return belief & near, belief & ~near
        raise KeyError(f"not an attempt: {man} to {target}")

    def after(self, king: int, square: int) -> After:
        """The board's side of the referee's answers after a move to ``(king, square)``."""
        key = (king, square)
        if key not in self._after:
            board = self.board
            lines = self.slide(square, king)[1]
            protected = board.neighbours[king] >> square & 1
            free = self.free(king, square)
            zone = 0 if protected else board.neighbours[square]
            can_move = board.spread(free | (0 if protected else 1 << square))
            checks = tuple((a, m & lines) for a, m in self.check_lines(square).items() if m & lines)
            takeable = 0 if protected else 1 << square
            self._after[key] = After(king, square, lines, zone, free, can_move, checks, takeable)
        return self._after[key]

    def answers(self, king: int, square: int, belief: int) -> dict[str, int] | None:
        """The referee's answers after White's legal move to ``(king, square)``, each
        with the squares of ``belief`` that give it (empty answers left out); ``None``
        (:data:`DRAW`) when some square allows a stalemate or the piece's capture."""
        return _answers(self.after(king, square), belief)

    def free(self, king: int, square: int) -> int:
        """The squares the black king may step onto: not attacked, not White's men."""
        attacked = self.board.neighbours[king] | self.slide(square, king)[1]
        return self.board.full & ~attacked & ~(1 << king) & ~(1 << square)

    def black_moves(self, king: int, square: int, belief: int) -> int:
        """The belief after Black's move: every legal king step from a square of it."""
        return self.board.spread(belief) & self.free(king, square)

    @cache  # noqa: B019 - one Rules per board and piece, kept for the process
    def check_lines(self, square: int) -> dict[str, int]:
        """The squares the piece on ``square`` checks along each announced direction
        (whole lines: the blocked part is cut by the caller's attack mask)."""
        board = self.board
        rank, file = board.coords(square)
        lines: dict[str, int] = {"check-rank": 0, "check-file": 0}
        for s in range(board.size):
            r, f = board.coords(s)
            lines["check-rank"] |= (r == rank) << s
            lines["check-file"] |= (f == file) << s
        if self.piece == "Q":
            lines["check-long-diagonal"] = lines["check-short-diagonal"] = 0
            for s in range(board.size):
                r, f = board.coords(s)
                for along, other in ((r - f == rank - file, 0), (r + f == rank + file, 1)):
                    if along and s != square:
                        mine, theirs = _diagonal_lengths(board, s)[::1 if other == 0 else -1]
                        long = "long" if mine >= theirs else "short"
                        lines[f"check-{long}-diagonal"] |= 1 << s
        return lines

    def tries(self, king: int, square: int) -> list[tuple[Attempt, int, After]]:
        """Each attempt with the squares where it is illegal (next to the king's target)
        and the board after it."""
        key = (king, square)
        if key not in self._tries:
            out = []
            for attempt in self.attempts(king, square):
                if attempt[0] == "K":
                    near = self.board.neighbours[attempt[1]] | (1 << attempt[1])
                    out.append((attempt, near, self.after(attempt[1], square)))
                else:
                    out.append((attempt, 0, self.after(king, attempt[1])))
            self._tries[key] = out
        return self._tries[key]

    def outcomes(self, king: int, square: int, belief: int) -> Iterator[tuple[Attempt, int, dict | None]]:
        """For each attempt that can be legal: ``(attempt, illegal part of the belief,
        answers)``, where ``answers`` maps each referee's answer to the next state
        (``None`` for mate), or is :data:`DRAW`."""
        spread = self.board.spread
        for attempt, near, after in self.tries(king, square):
            illegal = belief & near
            legal = belief ^ illegal
            if not legal:
                continue
            answers = _answers(after, legal)
            if answers is DRAW:
                yield attempt, illegal, DRAW
                continue
            k, s, free = after.king, after.square, after.free
            yield attempt, illegal, {
                a: None if a == "mate" else (k, s, spread(b) & free) for a, b in answers.items()
            }


@dataclass(eq=False)
class PairRules(Rules):
    """The set-wise referee of White's king and two pieces (``BB``, ``BN``), their
    placement number ``square`` (:func:`~pyasp_games.domains.kriegspiel.model.placement`).
    A bishop's check is announced by the diagonal it comes along (the longer or shorter
    through the black king's square), a knight's as ``knight``; a double check (one
    piece moving off the other's line) names both, e.g. ``check-long-diagonal+knight``.
    The two bishops stand on squares of both colours, so a target names the bishop."""

    def _moves(self, king: int, square: int) -> list[tuple[Attempt, int, int]]:
        """Every attempt with the king and placement it leads to."""
        board = self.board
        squares = piece_squares(board, self.piece, square)
        occupied = occupied_by(board, king, self.piece, square)
        out = []
        for i, (letter, s) in enumerate(zip(self.piece, squares, strict=True)):
            for t in board.squares(board.attacks(letter, s, occupied) & ~occupied):
                moved = list(squares)
                moved[i] = t
                out.append(((letter, t), king, placement(board, self.piece, tuple(moved))))
        out += [(("K", t), t, square) for t in board.squares(board.neighbours[king] & ~occupied)]
        return out

    def attempts(self, king: int, square: int) -> list[Attempt]:
        """Every attempt White can think of: each piece's moves, then the king's."""
        return [attempt for attempt, _, _ in self._moves(king, square)]

    def played(self, king: int, square: int, attempt: Attempt) -> tuple[int, int]:
        for a, k, s in self._moves(king, square):
            if a == attempt:
                return k, s
        raise KeyError(f"not an attempt: {attempt[0]} to {attempt[1]}")

    def split(self, king: int, square: int, belief: int, attempt: Attempt) -> tuple[int, int]:
        if attempt not in self.attempts(king, square):
            raise KeyError(f"not an attempt: {attempt[0]} to {attempt[1]}")
        if attempt[0] == "K":
            near = self.board.neighbours[attempt[1]] | (1 << attempt[1])
            return belief & near, belief & ~near
        return 0, belief  # (the black king is on no line of a piece: no move crosses it)

    def free(self, king: int, square: int) -> int:
        return self.after(king, square).free

    def after(self, king: int, square: int) -> After:
        key = (king, square)
        if key not in self._after:
            board = self.board
            squares = piece_squares(board, self.piece, square)
            occupied = occupied_by(board, king, self.piece, square)
            reach = [board.attacks(letter, s, occupied) for letter, s in zip(self.piece, squares, strict=True)]
            lines = reach[0] | reach[1]
            defended = board.neighbours[king] | lines
            takeable = sum(1 << s for s in squares if not defended >> s & 1)
            free = board.full & ~(board.neighbours[king] | lines) & ~occupied
            said: dict[str, int] = {}
            for b in board.squares(lines & ~occupied):
                names = [self._direction(letter, s, b) for letter, s, r in zip(self.piece, squares, reach, strict=True) if r >> b & 1]
                name = "check-" + "+".join(sorted(names))
                said[name] = said.get(name, 0) | 1 << b
            self._after[key] = After(king, square, lines & ~occupied, board.spread(takeable), free,
                                     board.spread(free | takeable), tuple(sorted(said.items())), takeable)  # fmt: skip
        return self._after[key]

    def _direction(self, letter: str, square: int, black: int) -> str:
        """How the piece on ``square`` checks a king on ``black``."""
        if letter == "N":
            return "knight"
        r0, f0 = self.board.coords(square)
        r, f = self.board.coords(black)
        if letter in "RQ" and (r == r0 or f == f0):
            return "rank" if r == r0 else "file"
        mine, theirs = _diagonal_lengths(self.board, black)[:: 1 if r - f == r0 - f0 else -1]
        return f"{'long' if mine >= theirs else 'short'}-diagonal"

    def tries(self, king: int, square: int) -> list[tuple[Attempt, int, After]]:
        key = (king, square)
        if key not in self._tries:
            out = []
            for attempt, k, s in self._moves(king, square):
                near = self.board.neighbours[k] | (1 << k) if attempt[0] == "K" else 0
                out.append((attempt, near, self.after(k, s)))
            self._tries[key] = out
        return self._tries[key]


def _answers(after: After, belief: int) -> dict[str, int] | None:
    """:meth:`Rules.answers` on the board ``after``."""
    if belief & after.capture_zone:
        return DRAW  # the black king takes the piece
    checked = belief & after.lines
    can_move = after.can_move
    if (belief ^ checked) & ~can_move:
        return DRAW  # stalemate
    out = {}
    if checked & ~can_move:
        out["mate"] = checked & ~can_move
    checked &= can_move
    if checked:
        for answer, mask in after.checks:
            if checked & mask:
                out[answer] = checked & mask
    if belief ^ (belief & after.lines):
        out["silent"] = belief & ~after.lines
    return out


def _diagonal_lengths(board: Board, square: int) -> tuple[int, int]:
    """The lengths of the two diagonals through ``square`` (a1-h8 way, a8-h1 way)."""
    rank, file = board.coords(square)
    out = []
    for dr, df in DIAGONAL[:2]:
        n = 1
        for sign in (1, -1):
            r, f = rank + sign * dr, file + sign * df
            while board.square(r, f) is not None:
                n, r, f = n + 1, r + sign * dr, f + sign * df
        out.append(n)
    return out[0], out[1]


@cache
def rules_for(board: Board, piece: str = "R") -> Rules:
    """The (cached) set-wise referee of ``board`` and ``piece`` (two letters: two pieces)."""
    return PairRules(board, piece) if len(piece) == 2 else Rules(board, piece)
