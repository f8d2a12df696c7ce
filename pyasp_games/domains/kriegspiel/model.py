"""Kriegspiel endings: boards, squares and metapositions (what White knows), as text.

White has a king and a rook (``R``; KQK: a queen, ``Q``; KBBK: two bishops, ``B B``;
KBNK: a bishop and a knight, ``B N``) and sees them; Black has a lone king that White does
not see. A **metaposition** (the term of Bolognesi and Ciancarini,
2003, and of Ciancarini and Favini, 2010) is White's men and the set of squares where
the black king may stand, White to move. The board
has R ranks and C files (3 to 8 each; 8 x 8 is the real game); square ``a1`` is file
``a``, rank 1, and its index is ``(rank - 1) * C + file``. Beliefs are bitmasks (an
``int`` with bit ``s`` set when the black king may be on square ``s``).

Two text forms, read by :func:`parse_metaposition`:

- one line, FEN-like: the ranks from the top separated by ``/``, with ``K`` (White's
  king), ``R`` or ``Q`` (its piece; or two bishops ``B``, or a bishop and a knight ``N``), ``?`` (the black king may be here), ``k`` (the black
  king is known to be here), a digit for that many empty squares, ``.`` for one; then
  optionally the word ``unknown``: every square where the black king may legally stand
  with White to move (no ``?`` then);
- a diagram: the same ranks, one per line, one character per square (``K R Q B N ? k .``);
  a last line ``unknown`` means the same as above. Each rank may start with its number
  and the diagram end with the line of file letters, as :meth:`Metaposition.diagram`
  prints it (and ``kriegspiel show``, whose whole output reads back too).

>>> m = parse_metaposition("4/4/1R2/K3 unknown")
>>> m.board, square_name(m.board, m.king), square_name(m.board, m.piece_square)
(Board(rows=4, cols=4), 'a1', 'b2')
>>> m.fen()
'?1??/?1??/1R2/K1??'
>>> print(m.diagram())
4 ? . ? ?
3 ? . ? ?
2 . R . .
1 K . ? ?
  a b c d
>>> parse_metaposition("5/5/2B2/1N3/K4 unknown").describe()
'KBNK on 5x5: Ka1 Bc3 Nb2, the black king on one of 10 squares'
>>> parse_metaposition("4/4/1R2/K?2")
Traceback (most recent call last):
...
pyasp_games.errors.InputError: metaposition: the black king cannot stand on b1 with White to move (next to White's king)
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from pyasp_games.engines.graphs import set_bits
from pyasp_games.errors import InputError, read_text

#: The smallest and the largest side of a board (ranks or files).
MIN_SIDE, MAX_SIDE = 3, 8
#: White's men besides the king: the rook (KRK), the queen (KQK), two bishops (KBBK), a
#: bishop and a knight (KBNK).
PIECES = ("R", "Q", "BB", "BN")
#: The endings of one piece besides the king (the asp backend's and the fuzzer's).
ONE_PIECE = ("R", "Q")
#: The directions each piece slides in: (rank step, file step).
ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
SLIDES = {"R": ORTHOGONAL, "Q": ORTHOGONAL + DIAGONAL, "B": DIAGONAL}
#: The knight's jumps.
JUMPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
#: The marks of a square in the text forms (White's king, rook, queen, bishop, knight; the
#: black king possibly or surely there; empty).
MARKS = "KRQBN?k."
DIGITS = "0123456789"


@dataclass(frozen=True)
class Board:
    """A board of ``rows`` ranks and ``cols`` files, with its geometry as bitmasks."""

    rows: int
    cols: int

    def __post_init__(self) -> None:
        for side, what in ((self.rows, "ranks"), (self.cols, "files")):
            if not MIN_SIDE <= side <= MAX_SIDE:
                raise InputError(
                    f"a board has {MIN_SIDE} to {MAX_SIDE} {what} (this tool's limit), got {side}"
                )

    @property
    def size(self) -> int:
        return self.rows * self.cols

    @property
    def label(self) -> str:
        """``RxC``, as ``--board`` takes it."""
        return f"{self.rows}x{self.cols}"

    @cached_property
    def full(self) -> int:
        """Every square."""
        return (1 << self.size) - 1

    @cached_property
    def _edges(self) -> tuple[int, int]:
        first = sum(1 << (r * self.cols) for r in range(self.rows))
        last = first << (self.cols - 1)
        return self.full & ~first, self.full & ~last

    def spread(self, mask: int) -> int:
        """The squares a king step away from some square of ``mask`` (not ``mask``
        itself, unless a square of it is next to another)."""
        not_first, not_last = self._edges
        east, west = (mask << 1) & not_first, (mask >> 1) & not_last
        row = mask | east | west
        return (east | west | (row << self.cols) | (row >> self.cols)) & self.full

    @cached_property
    def neighbours(self) -> tuple[int, ...]:
        """For every square, the squares a king step away."""
        return tuple(self.spread(1 << s) for s in range(self.size))

    def coords(self, square: int) -> tuple[int, int]:
        """(rank, file), both from 0."""
        return divmod(square, self.cols)

    def square(self, rank: int, file: int) -> int | None:
        """The square at (rank, file), or ``None`` off the board."""
        if 0 <= rank < self.rows and 0 <= file < self.cols:
            return rank * self.cols + file
        return None

    def squares(self, mask: int) -> list[int]:
        """The squares of a bitmask, in index order."""
        return set_bits(mask)

    def slide(self, piece: str, square: int, king: int) -> tuple[list[int], int]:
        """Where ``piece`` on ``square`` can go with White's king on ``king`` as the only
        obstacle, and the squares it attacks (its moves; the black king never blocks a
        line: standing on one it would be in check with White to move)."""
        moves = []
        r0, f0 = self.coords(square)
        for dr, df in SLIDES[piece]:
            r, f = r0 + dr, f0 + df
            while (t := self.square(r, f)) is not None and t != king:
                moves.append(t)
                r, f = r + dr, f + df
        return moves, sum(1 << t for t in moves)

    def attacks(self, piece: str, square: int, occupied: int) -> int:
        """The squares ``piece`` (``R Q B N``) on ``square`` attacks, each line stopping at
        the first square of ``occupied`` (White's men: a piece defends the one it meets;
        the black king never blocks a line)."""
        r0, f0 = self.coords(square)
        out = 0
        if piece == "N":
            for dr, df in JUMPS:
                t = self.square(r0 + dr, f0 + df)
                if t is not None:
                    out |= 1 << t
            return out
        for dr, df in SLIDES[piece]:
            r, f = r0 + dr, f0 + df
            while (t := self.square(r, f)) is not None:
                out |= 1 << t
                if occupied >> t & 1:
                    break
                r, f = r + dr, f + df
        return out

    def colour(self, square: int) -> int:
        """0 for a1's colour, 1 for the other."""
        return sum(self.coords(square)) % 2


def board_of(text: str) -> Board:
    """A board from ``RxC`` (ranks x files), e.g. ``8x8`` or ``4x5``."""
    parts = text.lower().replace(" ", "").split("x")
    if len(parts) != 2 or not all(p and set(p) <= set(DIGITS) for p in parts):
        raise InputError(f"a board is RANKSxFILES, e.g. 8x8 or 4x5, got {text!r}")
    return Board(int(parts[0]), int(parts[1]))


def square_name(board: Board, square: int) -> str:
    rank, file = board.coords(square)
    return f"{'abcdefgh'[file]}{rank + 1}"


def parse_square(board: Board, text: str) -> int:
    """The square named ``text`` (``a1``) on ``board``."""
    text = text.strip().lower()
    if len(text) == 2 and text[0] in "abcdefgh" and text[1] in DIGITS:
        square = board.square(int(text[1]) - 1, "abcdefgh".index(text[0]))
        if square is not None:
            return square
    raise InputError(f"no square {text!r} on a {board.label} board")


def answers_width(piece: str) -> int:
    """The most answers after one attempt other than mate: a check by rank, file or one
    of the diagonals, or silence (a rook: at most three; a queen: all five can occur at
    once, e.g. a queen on the edge with the black king possibly on its rank, its file,
    both diagonals and elsewhere; four here once dropped the fifth answer's state); with
    two pieces, up to five check announcements (a bishop's two diagonals, a knight's, a
    double check of both) and silence."""
    return (5 if piece == "Q" else 4) if len(piece) == 1 else 6


def piece_squares(board: Board, piece: str, placed: int) -> tuple[int, ...]:
    """The squares of White's pieces from their placement number: the piece's square
    (one piece), or ``first * squares + second`` (two: :func:`placement`)."""
    return (placed,) if len(piece) == 1 else divmod(placed, board.size)


def placement(board: Board, piece: str, squares: tuple[int, ...]) -> int:
    """The placement number of White's pieces on ``squares`` (in the order of
    ``piece``'s letters; two bishops, interchangeable, are numbered the lower first)."""
    if len(squares) == 1:
        return squares[0]
    first, second = squares
    if piece[0] == piece[1] and second < first:
        first, second = second, first
    return first * board.size + second


@dataclass(frozen=True)
class Metaposition:
    """White's king and pieces (``piece``: ``R``, ``Q``, ``BB`` or ``BN``) and the black
    king's possible squares (``belief``, a bitmask), White to move. ``piece_square`` is
    the piece's square, or with two pieces their placement number (:func:`placement`;
    :attr:`squares_of_pieces` gives the squares)."""

    board: Board
    king: int
    piece_square: int
    belief: int
    piece: str = "R"
    name: str = field(default="", compare=False)

    @property
    def ending(self) -> str:
        """``KRK``, ``KQK``, ``KBBK`` or ``KBNK``."""
        return f"K{self.piece}K"

    @property
    def squares_of_pieces(self) -> tuple[int, ...]:
        """The squares of White's pieces, in the order of ``piece``'s letters."""
        return piece_squares(self.board, self.piece, self.piece_square)

    def fen(self) -> str:
        """The one-line form (``?`` marks; ``k`` for a single known square)."""
        single = self.belief & (self.belief - 1) == 0
        rows = []
        for rank in reversed(range(self.board.rows)):
            text, empty = "", 0
            for file in range(self.board.cols):
                mark = self._mark(rank * self.board.cols + file, "k" if single else "?")
                if mark == ".":
                    empty += 1
                    continue
                text += (str(empty) if empty else "") + mark
                empty = 0
            rows.append(text + (str(empty) if empty else ""))
        return "/".join(rows)

    def diagram(self) -> str:
        """The board as White sees it: ranks from the top, ``?`` where the king may be."""
        lines = []
        for rank in reversed(range(self.board.rows)):
            marks = (self._mark(rank * self.board.cols + f, "?") for f in range(self.board.cols))
            lines.append(f"{rank + 1} " + " ".join(marks))
        lines.append("  " + " ".join("abcdefgh"[: self.board.cols]))
        return "\n".join(lines)

    def _mark(self, square: int, black: str) -> str:
        if square == self.king:
            return "K"
        for letter, where in zip(self.piece, self.squares_of_pieces, strict=True):
            if square == where:
                return letter
        return black if self.belief >> square & 1 else "."

    def describe(self) -> str:
        """``K..K on RxC: Ka1 Rb2, the black king on one of N squares``."""
        count = bin(self.belief).count("1")
        where = "its square known" if count == 1 else f"on one of {count} squares"
        men = " ".join(f"{letter}{square_name(self.board, s)}"
                       for letter, s in zip(self.piece, self.squares_of_pieces, strict=True))  # fmt: skip
        return f"{self.ending} on {self.board.label}: K{square_name(self.board, self.king)} {men}, the black king {where}"


def occupied_by(board: Board, king: int, piece: str, square: int) -> int:
    """The squares of White's men (``square``: the piece's square or the pieces'
    placement number)."""
    out = 1 << king
    for s in piece_squares(board, piece, square):
        out |= 1 << s
    return out


def attacked(board: Board, king: int, piece: str, square: int) -> int:
    """The squares White attacks (the black king may not stand on them with White to
    move, nor step onto them): next to the king, or on the pieces' open lines."""
    if len(piece) == 1:
        return board.neighbours[king] | board.slide(piece, square, king)[1]
    occupied = occupied_by(board, king, piece, square)
    out = board.neighbours[king]
    for letter, s in zip(piece, piece_squares(board, piece, square), strict=True):
        out |= board.attacks(letter, s, occupied)
    return out


def legal_squares(board: Board, king: int, piece: str, square: int) -> int:
    """Every square where the black king may legally stand with White to move."""
    return board.full & ~attacked(board, king, piece, square) & ~occupied_by(board, king, piece, square)


def checked_piece(piece: str) -> str:
    """``piece`` if it is one of :data:`PIECES`, else :class:`InputError`."""
    if piece not in PIECES:
        raise InputError(f"White's men besides the king are one of {', '.join(PIECES)}, got {piece!r}")
    return piece


def apart(board: Board, piece: str, square: int) -> bool:
    """Whether White's pieces can mate at all: not two bishops on squares of one colour
    (no position with them is a mate: the black king keeps a flight square of the
    other colour)."""
    if piece != "BB":
        return True
    first, second = piece_squares(board, piece, square)
    return board.colour(first) != board.colour(second)


def metaposition(
    board: Board, king: int, square: int, belief: int | None = None, piece: str = "R", name: str = ""
) -> Metaposition:
    """A checked metaposition; ``belief=None``: the black king unknown (every legal square)."""
    checked_piece(piece)
    if not (0 <= king < board.size and 0 <= square < board.size ** len(piece)):
        raise InputError(f"metaposition: White's men off the {board.label} board")
    if king in piece_squares(board, piece, square) or len(set(piece_squares(board, piece, square))) < len(piece):
        raise InputError("metaposition: two of White's men on one square")
    if not apart(board, piece, square):
        raise InputError("metaposition: two bishops on squares of one colour cannot mate (KBBK needs one on each colour)")
    legal = legal_squares(board, king, piece, square)
    if belief is None:
        belief = legal
    for s in board.squares(belief & ~legal):
        raise InputError(
            f"metaposition: the black king cannot stand on {square_name(board, s)} with White "
            f"to move ({_why(board, king, piece, square, s)})"
        )
    if not belief:
        raise InputError("metaposition: no square left for the black king")
    return Metaposition(board, king, square, belief, piece, name)


def _why(board: Board, king: int, piece: str, square: int, black: int) -> str:
    if occupied_by(board, king, piece, square) >> black & 1:
        return "a White man stands there"
    if board.neighbours[king] >> black & 1:
        return "next to White's king"
    return "in check, with White to move"


#: The first line of what ``kriegspiel show`` prints ("KRK on 4x4: Ka1 Rb2, ...").
_SHOWN = re.compile(r"K(?:R|Q|BB|BN)K on \d+x\d+: ", re.ASCII)


def parse_metaposition(text: str, name: str = "") -> Metaposition:
    """A metaposition from its one-line (FEN-like) form or its diagram (module docstring)."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    lines = [line for line in lines if not line.startswith("#")]
    if not lines:
        raise InputError("metaposition: empty")
    forms = [line for line in lines if "/" in line]
    if _SHOWN.match(lines[0]):  # what `kriegspiel show` prints: its one-line form says it
        # all (the diagram above it is for the eye); without it, the diagram below the line
        lines = forms if len(forms) == 1 else lines[1:]
        if not lines:
            raise InputError("metaposition: only the first line of what kriegspiel show prints")
    words = " ".join(lines).split()
    unknown = words[-1].lower() == "unknown"
    if unknown:
        words = words[:-1]
    if len(lines) == 1 or (unknown and len(lines) == 2 and lines[-1].lower() == "unknown"):
        if len(words) != 1:
            raise InputError(
                f"metaposition: expected ranks separated by '/' and optionally 'unknown', got {text.strip()!r}"
            )
        ranks = [expand_rank(rank) for rank in words[0].split("/")]
    else:
        ranks = _diagram_ranks(lines[: len(lines) - unknown])
    return _from_ranks(ranks, unknown, name)


#: The line of file letters under a diagram (``a b c d``), and a rank's number before it.
_FILES = re.compile(r"^[a-h](?:\s*[a-h])*$", re.ASCII)
_RANK_NUMBER = re.compile(r"^(\d+)\s+(?=\S)", re.ASCII)


def _diagram_ranks(lines: list[str]) -> list[str]:
    """The ranks of a diagram, as :meth:`Metaposition.diagram` prints it too: a line of
    file letters is skipped, a rank's number before it (checked) taken off."""
    lines = [line for line in lines if not _FILES.match(line)]
    ranks = []
    for row, line in enumerate(lines):
        label = _RANK_NUMBER.match(line)
        if label:
            if int(label.group(1)) != len(lines) - row:
                raise InputError(
                    f"metaposition: the line {line!r} is numbered {label.group(1)}, but it is "
                    f"rank {len(lines) - row} of {len(lines)} (ranks from the top)"
                )
            line = line[label.end():]
        ranks.append("".join(line.split()))
    return ranks


def expand_rank(rank: str) -> str:
    """A rank of the one-line form with its digits spelled out as empty squares.

    >>> expand_rank("1K2")
    '.K..'
    """
    out = ""
    for ch in rank:  # only ASCII digits count squares ('²'.isdigit() is true too)
        out += "." * int(ch) if ch in DIGITS else ch
    return out


def read_ranks(ranks: list[str], marks: str, kinds: str) -> tuple[Board, dict[str, list[int]]]:
    """The board that ``ranks`` (from the top, digits spelled out: :func:`expand_rank`)
    draw and the squares of each mark on it: the one reader of a metaposition's board,
    KRK's and the others (:func:`parse_metaposition`), KPK's
    (:func:`~pyasp_games.domains.kriegspiel.pawn.parse_pawn`). ``marks``: the marks
    allowed; ``kinds``: them in words, for the one line that refuses another.

    >>> board, found = read_ranks(["...", "...", "K?."], "K?.", "K, ? or .")
    >>> board.label, found["K"], found["?"]
    ('3x3', [0], [1])
    """
    widths = {len(rank) for rank in ranks}
    if len(widths) != 1:
        raise InputError(f"metaposition: ranks of different widths {sorted(widths)}")
    board = Board(len(ranks), widths.pop())
    found: dict[str, list[int]] = {}
    for row, rank in enumerate(ranks):
        for file, ch in enumerate(rank):
            if ch not in marks:
                raise InputError(f"metaposition: unknown mark {ch!r} ({kinds})")
            found.setdefault(ch, []).append((board.rows - 1 - row) * board.cols + file)
    return board, found


def _from_ranks(ranks: list[str], unknown: bool, name: str) -> Metaposition:
    board, found = read_ranks(ranks, MARKS, "use K, R, Q, B or N, ?, k, . or digits")
    kings = found.get("K", [])
    letters = "".join(sorted(ch * len(found.get(ch, [])) for ch in "RQBN"))
    if len(kings) != 1 or letters not in PIECES:
        raise InputError("metaposition: White has one king K and one rook R, one queen Q, two "
                         f"bishops B B, or a bishop B and a knight N (got K x{len(kings)}"
                         + "".join(f", {ch} x{len(found[ch])}" for ch in "RQBN" if ch in found) + ")")
    black = found.get("?", []) + found.get("k", [])
    if unknown and black:
        raise InputError("metaposition: 'unknown' or '?' marks, not both")
    if not unknown and not black:
        raise InputError("metaposition: no '?' mark (write 'unknown' for every legal square)")
    if len(found.get("k", [])) > 1 or (found.get("k") and found.get("?")):
        raise InputError("metaposition: one known black king 'k', or '?' marks")
    squares = tuple(s for ch in dict.fromkeys(letters) for s in found[ch])
    belief = None if unknown else sum(1 << s for s in black)
    return metaposition(board, kings[0], placement(board, letters, squares), belief, letters, name)


def load_metaposition(source: str | Path, name: str | None = None) -> Metaposition:
    """Read a Kriegspiel metaposition from a file or from its one-line form.

    Parameters
    ----------
    source : path-like or str
        A file holding one metaposition (a diagram, or one line), or, when no such file
        exists, the one-line form itself (``"4/4/1R2/K3 unknown"``: ranks separated by
        ``/``, ``?`` a square where the black king may be).
    name : str or None, optional
        The metaposition's name; ``None``: the file's stem, or the text.

    Returns
    -------
    Metaposition
        White's men and the squares where the black king may be.

    Raises
    ------
    InputError
        An empty source, a file with several metapositions, no such file nor a
        metaposition, or a metaposition that breaks the rules (named).
    """
    text = str(source)
    if not text.strip():  # Path('') is the current folder: never what was meant
        raise InputError("the metaposition is empty (give a file, or the one-line form such as "
                         "'4/4/1R2/K3 unknown')")
    path = Path(source)
    if path.exists():  # a file (a folder or an unreadable file: read_text says so)
        text = read_text(path)
        forms = [line for line in text.splitlines() if "/" in line and not line.lstrip().startswith("#")]
        if len(forms) > 1:  # read as one diagram, its ranks were 'of different widths'
            raise InputError(
                f"{path}: {len(forms)} metapositions, one a line: this command takes one"
                f" (crosscheck kriegspiel {path} runs them all)"
            )
        return parse_metaposition(text, name or path.stem)
    if "/" not in text:
        raise InputError(f"{text}: no such file (nor a metaposition: ranks separated by '/')")
    try:
        return parse_metaposition(text, name or text)
    except InputError as err:
        if set(text.removesuffix("unknown").strip()) <= set(MARKS + DIGITS + "/"):
            raise  # written as a metaposition: what is wrong with it
        raise InputError(f"{text}: no such file, nor a metaposition ({err})") from None


def load_metapositions(path: Path) -> list[Metaposition]:
    """The metapositions of a file of one-line forms, one a line (``# name: ...``
    comments name the next one), or a single diagram (bundled instances)."""
    text = read_text(path)
    lines = [line.strip() for line in text.splitlines()]
    if not any("/" in line for line in lines if not line.startswith("#")):
        return [parse_metaposition(text, Path(path).stem)]
    out, label = [], None
    for number, line in enumerate(lines, 1):
        if line.startswith("# name:"):
            label = line.split(":", 1)[1].strip()
        elif line and not line.startswith("#"):
            out.append(parse_metaposition(line, label or f"{Path(path).stem}:{number}"))
            label = None
    return out


def known_value(m: Metaposition) -> tuple[bool, object]:
    """The known answer stated for a bundled metaposition's name (``name=...@N`` or
    ``@none``), else ``(False, None)``: crosscheck compares it."""
    said = m.name.rsplit("@", 1)[1] if "@" in m.name else ""
    if said == "none":
        return True, None
    if said and set(said) <= set(DIGITS):
        return True, int(said)
    return False, None  # no value stated ('@' may be part of a name)


def placements(board: Board, piece: str) -> list[int]:
    """Every placement number of White's pieces (two bishops: each pair once, on squares
    of both colours)."""
    n = board.size
    if len(piece) == 1:
        return list(range(n))
    return [placement(board, piece, (a, b)) for a in range(n) for b in range(n)
            if a != b and (piece != "BB" or (a < b and board.colour(a) != board.colour(b)))]  # fmt: skip


def starts(board: Board, piece: str = "R") -> list[Metaposition]:
    """Every full-uncertainty start: each placement of White's king and pieces with
    some legal square for the black king, the black king unknown."""
    out = []
    for king in range(board.size):
        for square in placements(board, piece):
            if king not in piece_squares(board, piece, square) and legal_squares(board, king, piece, square):
                out.append(metaposition(board, king, square, None, piece))
    return out


@dataclass(frozen=True)
class StartSet:
    """Every full-uncertainty start of a board (``kriegspiel table``)."""

    board: Board
    piece: str = "R"

    @property
    def name(self) -> str:
        return f"K{self.piece}K {self.board.label}"


def random_start(
    rows: int = 8, cols: int | None = None, seed: int = 0, piece: str = "R"
) -> Metaposition:
    """A full-uncertainty start on a ``rows`` x ``cols`` board (square by default) chosen
    by ``seed`` among those whose piece is next to its king (protected: the others mostly
    lose it at once); bench suites ask for it."""
    board = Board(rows, rows if cols is None else cols)  # the sizes checked before any work
    protected = [m for m in starts(board, checked_piece(piece))
                 if board.neighbours[m.king] >> m.squares_of_pieces[0] & 1]  # fmt: skip
    m = random.Random(seed).choice(protected)
    return Metaposition(board, m.king, m.piece_square, m.belief, piece, f"{board.label}-s{seed}")


def random_position(board: Board, piece: str, rng: random.Random) -> tuple[int, int, int] | None:
    """White's king, the pieces' placement and the black king's square drawn by ``rng``
    (the pieces on distinct squares), or ``None`` when the draw is no legal position with
    White to move (two bishops on one colour, or no legal square for the black king): the
    tests' random positions."""
    king, *men = rng.sample(range(board.size), 1 + len(piece))
    if piece == "BB" and board.colour(men[0]) == board.colour(men[1]):
        return None
    square = placement(board, piece, tuple(men))
    legal = board.squares(legal_squares(board, king, piece, square))
    return (king, square, rng.choice(legal)) if legal else None


# -- fuzzing: every small start, then random metapositions (``pyasp-games fuzz kriegspiel``)


def small_metapositions(piece: str = "R") -> list[Metaposition]:
    """Every full-uncertainty start on the 3 x 3 board (White's king and piece placed,
    the black king unknown): the fuzzer's small scope.

    >>> len(small_metapositions()), small_metapositions()[0].fen()
    (48, '?1?/2?/KR1')
    """
    return [
        Metaposition(m.board, m.king, m.piece_square, m.belief, piece, f"small-{k}")
        for k, m in enumerate(starts(Board(3, 3), piece))
    ]


def metaposition_strategy(size: int, piece: str = "R") -> Any:
    """A hypothesis strategy of metapositions on boards 3 x 3 up to ``size`` x ``size``
    (at most 4 x 4: the ASP backend's reach): White's king and piece anywhere, the black
    king on some of its legal squares; hypothesis shrinks towards 3 x 3 and fewer squares."""
    from hypothesis import assume
    from hypothesis import strategies as st

    side = st.integers(3, max(3, min(size, 4)))

    @st.composite
    def build(draw: Any) -> Metaposition:
        board = Board(draw(side), draw(side))
        king = draw(st.integers(0, board.size - 1))
        square = draw(st.integers(0, board.size - 1))
        assume(king != square)
        legal = board.squares(legal_squares(board, king, piece, square))
        assume(legal)
        kept = draw(st.lists(st.sampled_from(legal), min_size=1, unique=True))
        return Metaposition(board, king, square, sum(1 << b for b in kept), piece, "fuzz")

    return build()


def format_metaposition(m: Metaposition) -> str:
    """The metaposition as a file of one line (its one-line form), which reads back."""
    return m.fen() + "\n"
