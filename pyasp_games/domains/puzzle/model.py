"""Sliding-tile puzzles: boards, goals, parsing, formatting and solvability.

A board is ``R x C`` (R, C >= 2) with tiles ``1..R*C-1`` and the blank ``0``,
stored row-major. Two goal conventions exist: ``blank-last`` (tiles 1..N in
order, the blank bottom-right: Aleksic's thesis' convention, the default) and
``blank-first`` (Korf's: tile ``v`` at position ``v``, the blank top-left).

Board file: R lines of C integers; ``#`` starts a comment; header comments
``# goal: blank-first|blank-last`` and ``# optimal: 24`` (or ``none``) are read.
Set file: a ``# size: RxC`` header, optionally ``# goal: ...``, then one board
per line (R*C integers, optionally preceded by an id) with an optional trailing
``# optimal: N`` comment.

>>> b = parse_board("1 2 3\\n4 5 6\\n7 0 8")
>>> b.rows, b.cols, b.blank
(3, 3, 7)
>>> solvability(b).solvable
True
>>> moves_of(b.blank, b.rows, b.cols)
{'U': 4, 'L': 6, 'R': 8}
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pyasp_games.engines.files import comment_header
from pyasp_games.errors import InputError, ascii_int, checked_int, read_text

GOALS = ("blank-last", "blank-first")
#: A plan is a string over these letters: the direction in which the blank moves.
DIRECTIONS = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
OPPOSITE = {"U": "D", "D": "U", "L": "R", "R": "L"}

#: The header comments a board or set file may hold (``# key: value``).
HEADERS = ("size", "goal", "optimal", "name")


def _header(line: str) -> tuple[str, str] | None:
    header = comment_header(line)
    return header if header is not None and header[0] in HEADERS and header[1] else None
_SIZE = re.compile(r"^(\d+)x(\d+)$", re.IGNORECASE)


@dataclass(frozen=True)
class Board:
    """A sliding-puzzle instance: the start configuration and the goal convention.

    Attributes:
        rows, cols: the board's dimensions.
        tiles: row-major contents, ``0`` is the blank.
        goal: ``blank-last`` or ``blank-first``.
        name: how reports refer to the instance.
        known: the published answer if the file states one: an optimal plan
            length, ``"none"`` for an unsolvable board, or ``None`` (not stated).
    """

    rows: int
    cols: int
    tiles: tuple[int, ...]
    goal: str = "blank-last"
    name: str = "board"
    known: int | str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        validate(self.rows, self.cols, self.tiles, self.goal)

    @property
    def size(self) -> int:
        return self.rows * self.cols

    @property
    def blank(self) -> int:
        """Row-major index of the blank."""
        return self.tiles.index(0)

    @property
    def goal_tiles(self) -> tuple[int, ...]:
        return goal_tiles(self.rows, self.cols, self.goal)

    def grid(self) -> list[list[int]]:
        return [list(self.tiles[r * self.cols : (r + 1) * self.cols]) for r in range(self.rows)]


#: the most cells a board may have (1000 x 1000): every backend holds the board's
#: cells several times over, and a size such as 100000x100000 no user can mean
MAX_CELLS = 1_000_000


def check_board_size(rows: int, cols: int) -> None:
    """Raise :class:`InputError` naming :data:`MAX_CELLS` for a larger board."""
    if rows * cols > MAX_CELLS:
        raise InputError(
            f"a {rows} x {cols} board has {rows * cols:,} cells, beyond this tool's limit "
            f"of {MAX_CELLS:,}"
        )


def parse_size(text: str) -> tuple[int, int]:
    """``(rows, cols)`` of a size ``RxC`` (R, C >= 2), else :class:`InputError`.

    >>> parse_size("4x4")
    (4, 4)
    """
    match = _SIZE.match(text.strip())
    if not match or int(match.group(1)) < 2 or int(match.group(2)) < 2:
        raise InputError(f"{text!r}: expected RxC with R, C >= 2, e.g. 4x4")
    return int(match.group(1)), int(match.group(2))


def goal_tiles(rows: int, cols: int, goal: str = "blank-last") -> tuple[int, ...]:
    """The goal configuration, row-major."""
    check_board_size(rows, cols)
    n = rows * cols
    if goal == "blank-last":
        return (*range(1, n), 0)
    if goal == "blank-first":
        return tuple(range(n))
    raise InputError(f"unknown goal {goal!r}: use blank-last or blank-first")


def validate(rows: int, cols: int, tiles: tuple[int, ...], goal: str) -> None:
    """Raise :class:`InputError` with one clear sentence if the board is not valid."""
    if goal not in GOALS:
        raise InputError(f"unknown goal {goal!r}: use blank-last or blank-first")
    if rows < 2 or cols < 2:
        raise InputError(
            f"a {rows} x {cols} board is not a sliding puzzle: need at least 2 rows and 2 columns"
        )
    check_board_size(rows, cols)
    n = rows * cols
    if len(tiles) != n:
        raise InputError(f"a {rows} x {cols} board needs {n} entries, got {len(tiles)}")
    seen: set[int] = set()
    for t in tiles:
        if t < 0 or t >= n:
            raise InputError(
                f"tile {t} is out of range: a {rows} x {cols} board holds 0 (blank) to {n - 1}"
            )
        if t in seen:
            raise InputError(f"tile {t} appears twice")
        seen.add(t)


def moves_of(blank: int, rows: int, cols: int) -> dict[str, int]:
    """Legal blank moves from row-major position ``blank``: letter -> new position."""
    r, c = divmod(blank, cols)
    out = {}
    for letter, (dr, dc) in DIRECTIONS.items():
        nr, nc = r + dr, c + dc
        if 0 <= nr < rows and 0 <= nc < cols:
            out[letter] = nr * cols + nc
    return out


def play(board: Board, plan: str) -> list[tuple[int, ...]]:
    """The tiles after each move of ``plan`` (letters of :data:`DIRECTIONS`); a move that
    is not a letter or takes the blank off the board is an :class:`InputError` naming it.

    >>> play(Board(2, 2, (1, 2, 0, 3)), "R")
    [(1, 2, 3, 0)]
    """
    tiles, blank, after = list(board.tiles), board.blank, []
    for i, move in enumerate(plan, 1):  # one move at a time: linear in the plan's length
        if move not in DIRECTIONS:
            raise InputError(f"move {i}: {move!r} is not one of U, D, L, R")
        target = moves_of(blank, board.rows, board.cols).get(move)
        if target is None:
            raise InputError(f"move {i}: {move} takes the blank off the board")
        tiles[blank], tiles[target], blank = tiles[target], 0, target
        after.append(tuple(tiles))
    return after


def cell_bits(cells: int) -> int:
    """Bits per cell number in a sparse placement index (pattern databases: a placement
    of tiles on cells ``c_i`` is indexed ``sum(c_i << (cell_bits * i))``).

    >>> cell_bits(16), cell_bits(9), cell_bits(25)
    (4, 4, 5)
    """
    return max(1, (cells - 1).bit_length())


def manhattan_lower_bound(board: Board) -> int:
    """Sum over tiles of the Manhattan distance to the goal cell.

    Admissible (each move moves one tile one cell) and of the same parity as every
    plan length (each move changes it by exactly one), so planners start their
    horizon here and step by two.
    """
    home = {v: divmod(i, board.cols) for i, v in enumerate(board.goal_tiles)}
    total = 0
    for i, v in enumerate(board.tiles):
        if v:
            r, c = divmod(i, board.cols)
            hr, hc = home[v]
            total += abs(r - hr) + abs(c - hc)
    return total


# -- solvability ------------------------------------------------------------------


@dataclass(frozen=True)
class Solvability:
    """Whether a board can reach its goal, and why.

    ``inversions`` counts pairs of tiles (blank excluded) in row-major order that
    stand in the opposite order in the goal. On an odd-width board a move keeps
    its parity; on an even-width board a vertical move flips it and moves the
    blank one row, so ``inversions + blank_row`` keeps its parity. Since
    every configuration with the goal's invariant is reachable on boards of at
    least 2 x 2, the invariant decides solvability.
    """

    solvable: bool
    inversions: int
    blank_row: int
    goal_blank_row: int
    width_even: bool
    reason: str


def solvability(board: Board) -> Solvability:
    """Decide solvability by the inversion-parity invariant (O(N^2) for N tiles)."""
    rank = {v: i for i, v in enumerate(board.goal_tiles)}
    seq = [rank[v] for v in board.tiles if v != 0]
    inversions = sum(1 for i in range(len(seq)) for j in range(i + 1, len(seq)) if seq[i] > seq[j])
    blank_row = board.blank // board.cols
    goal_blank_row = board.goal_tiles.index(0) // board.cols
    solvable, reason = parity_argument(board.cols, inversions, blank_row, goal_blank_row)
    return Solvability(solvable, inversions, blank_row, goal_blank_row, board.cols % 2 == 0, reason)


def parity_argument(cols: int, inversions: int, blank_row: int, goal_blank_row: int) -> tuple[bool, str]:
    """The invariant's verdict on a board of width ``cols`` with these terms, and the
    argument in words (what ``puzzle check`` prints, and its checker reads again).

    >>> parity_argument(3, 1, 0, 2)
    (False, 'unsolvable: width 3 is odd, so the inversion parity is invariant; 1 inversions is odd, the goal has 0')
    """
    if cols % 2:
        solvable = inversions % 2 == 0
        reason = (
            f"width {cols} is odd, so the inversion parity is invariant; "
            f"{inversions} inversions is {'even' if solvable else 'odd'}, the goal has 0"
        )
    else:
        value = inversions + blank_row
        solvable = value % 2 == goal_blank_row % 2
        reason = (
            f"width {cols} is even, so inversions + blank row is invariant mod 2; "
            f"{inversions} inversions + blank in row {blank_row} = {value} "
            f"({'even' if value % 2 == 0 else 'odd'}), the goal has blank in row {goal_blank_row} "
            f"({'even' if goal_blank_row % 2 == 0 else 'odd'})"
        )
    return solvable, f"{'solvable' if solvable else 'unsolvable'}: {reason}"


def parity_terms(result: Solvability) -> dict[str, Any]:
    """The invariant's terms and argument as a claim's certificate (``puzzle check``, and
    an unsolvable board's "no plan"): what the checker counts again."""
    return {
        "inversions": result.inversions,
        "blank_row": result.blank_row,
        "goal_blank_row": result.goal_blank_row,
        "width_even": result.width_even,
        "reason": result.reason,
    }


# -- parsing and formatting -----------------------------------------------------


def _int(token: str, where: str) -> int:
    try:
        return ascii_int(token)
    except ValueError:
        raise InputError(f"{where}: {token!r} is not an integer") from None


def _known(value: str, where: str) -> int | str:
    if value.lower() in ("none", "unsolvable"):
        return "none"
    n = _int(value, where)
    if n < 0:
        raise InputError(f"{where}: optimal length must be non-negative")
    return n


def _split_comment(line: str) -> tuple[str, str]:
    body, _, comment = line.partition("#")
    return body.strip(), comment.strip()


def parse_board(text: str, goal: str | None = None, name: str = "board") -> Board:
    """Parse a board file's text (R lines of C integers).

    ``goal`` overrides a ``# goal:`` header; without either the goal is blank-last.
    """
    headers: dict[str, str] = {}
    rows: list[list[int]] = []
    for lineno, line in enumerate(text.splitlines(), 1):
        header = _header(line)
        if header is not None:
            headers[header[0]] = header[1]
            continue
        body, _ = _split_comment(line)
        if not body:
            continue
        rows.append([_int(tok, f"line {lineno}") for tok in body.replace(",", " ").split()])
    if not rows:
        raise InputError("the board is empty: expected R lines of C integers")
    width = len(rows[0])
    for i, row in enumerate(rows[1:], 2):
        if len(row) != width:
            raise InputError(f"ragged board: row {i} has {len(row)} entries, row 1 has {width}")
    known = _known(headers["optimal"], "optimal") if "optimal" in headers else None
    return Board(
        len(rows),
        width,
        tuple(v for row in rows for v in row),
        goal or headers.get("goal", "blank-last"),
        headers.get("name", name),
        known,
    )


def parse_set(text: str, goal: str | None = None, name: str = "set") -> list[Board]:
    """Parse a set file: ``# size: RxC`` header, then one board per line."""
    headers: dict[str, str] = {}
    entries: list[tuple[int, str, str]] = []
    for lineno, line in enumerate(text.splitlines(), 1):
        header = _header(line)
        if header is not None:
            headers[header[0]] = header[1]
            continue
        body, comment = _split_comment(line)
        if body:
            entries.append((lineno, body, comment))
    if "size" not in headers:
        raise InputError("a set file needs a '# size: RxC' header")
    size = _SIZE.match(headers["size"])
    if not size:
        raise InputError(f"bad size header {headers['size']!r}: expected e.g. '# size: 4x4'")
    rows, cols = int(size.group(1)), int(size.group(2))
    check_board_size(rows, cols)
    goal = goal or headers.get("goal", "blank-last")
    n = rows * cols
    boards = []
    ids: set[str] = set()
    for lineno, body, comment in entries:
        tokens = body.replace(",", " ").split()
        if len(tokens) == n + 1:
            ident, tokens = tokens[0], tokens[1:]
        elif len(tokens) == n:
            ident = str(len(boards) + 1)
        else:
            raise InputError(
                f"line {lineno}: a {rows}x{cols} board needs {n} entries (or an id and {n}), got {len(tokens)}"
            )
        if ident in ids:
            raise InputError(f"line {lineno}: duplicate id {ident!r}")
        ids.add(ident)
        tiles = tuple(_int(tok, f"line {lineno}") for tok in tokens)
        known = None
        match = re.match(r"optimal\s*:\s*(\S+)", comment, re.IGNORECASE)
        if match:
            known = _known(match.group(1), f"line {lineno}")
        try:
            boards.append(Board(rows, cols, tiles, goal, f"{name}:{ident}", known))
        except InputError as err:
            raise InputError(f"line {lineno}: {err}") from None
    if not boards:
        raise InputError("the set file holds no boards")
    return boards


def is_set_text(text: str) -> bool:
    """A file is a set file exactly when it has a ``# size:`` header."""
    return any((h := _header(line)) and h[0] == "size" for line in text.splitlines())


def load_boards(path: Path | str, goal: str | None = None) -> list[Board]:
    """Read a board file or a set file of sliding-tile boards.

    Parameters
    ----------
    path : path-like or str
        A board file (rows of tile numbers, ``0`` the blank; optional ``# goal:`` and
        ``# optimal:`` headers) or a set file (a ``# size: RxC`` header, then one board
        a line).
    goal : {"blank-last", "blank-first"} or None, optional
        The goal convention; ``None``: the file's ``# goal:`` header, else blank last.

    Returns
    -------
    list of Board
        The boards in file order (one for a board file), each named after the file.

    Raises
    ------
    InputError
        A missing or unreadable file, or bad text; the message names the file.

    Notes
    -----
    Linear in the size of the file.
    """
    path = Path(path)
    text = read_text(path)
    try:
        if is_set_text(text):
            return parse_set(text, goal, path.stem)
        return [parse_board(text, goal, path.stem)]
    except InputError as err:
        raise InputError(f"{path}: {err}") from None


def format_board(board: Board, header: bool = True) -> str:
    """The board-file text of ``board`` (parses back to an equal board)."""
    width = len(str(board.size - 1))
    lines = []
    if header:
        lines.append(f"# goal: {board.goal}")
        if board.known is not None:
            lines.append(f"# optimal: {board.known}")
    lines += [" ".join(f"{v:>{width}}" for v in row) for row in board.grid()]
    return "\n".join(lines) + "\n"


def format_set(boards: list[Board]) -> str:
    """The set-file text of boards of one size and goal."""
    if not boards:
        raise InputError("no boards to write")
    first = boards[0]
    lines = [f"# size: {first.rows}x{first.cols}", f"# goal: {first.goal}"]
    for i, b in enumerate(boards, 1):
        if (b.rows, b.cols, b.goal) != (first.rows, first.cols, first.goal):
            raise InputError("a set file holds boards of one size and goal")
        ident = b.name.rsplit(":", 1)[-1] if ":" in b.name else str(i)
        tail = f"  # optimal: {b.known}" if b.known is not None else ""
        lines.append(f"{ident} " + " ".join(map(str, b.tiles)) + tail)
    return "\n".join(lines) + "\n"


#: The longest random walk a generated board takes (a few seconds; far longer walks give
#: no more random a board).
MAX_WALK_STEPS = 10_000_000


def random_walk_board(
    rows: int, cols: int, steps: int, seed: int, goal: str = "blank-last"
) -> Board:
    """A board reached from the goal by ``steps`` random blank moves (no immediate undo).

    Always solvable, with an optimum of at most ``steps`` moves (the bench generator
    ``walk``; the tests' random boards).

    >>> b = random_walk_board(3, 3, 10, seed=1)
    >>> b.name, manhattan_lower_bound(b) <= 10
    ('walk-3x3-10-1', True)
    """
    import random

    checked_int(rows, "rows")
    checked_int(cols, "cols")
    check_board_size(rows, cols)  # before the board is built
    checked_int(steps, "steps", 0, MAX_WALK_STEPS)
    validate(rows, cols, tuple(range(rows * cols)), goal)  # the shape and goal
    rng = random.Random(seed)
    tiles = list(goal_tiles(rows, cols, goal))
    blank = tiles.index(0)
    previous = None
    for _ in range(steps):
        options = [p for p in moves_of(blank, rows, cols).values() if p != previous]
        target = rng.choice(options)
        tiles[blank], tiles[target] = tiles[target], 0
        previous, blank = blank, target
    return Board(rows, cols, tuple(tiles), goal, f"walk-{rows}x{cols}-{steps}-{seed}")


# -- fuzzing: every small board, then random scrambles (``pyasp-games fuzz puzzle``) ------


def small_boards(goal: str | None = None) -> Iterator[Board]:
    """Every 2 x 2 board (12 solvable, 12 not; the goal first), then every 2 x 3 and
    3 x 2 board within 4 moves of the goal (17 each), nearest first, for each goal
    convention (``None``: both, blank-last first; a program that ignores ``goal/3``
    fails on a blank-first one): the fuzzer's small scope.

    >>> boards = list(small_boards())
    >>> len(boards), boards[0].tiles == boards[0].goal_tiles, boards[-1].rows * boards[-1].cols
    (116, True, 6)
    >>> sorted({b.goal for b in boards})
    ['blank-first', 'blank-last']
    """
    for convention in GOALS if goal is None else (goal,):
        yield from _small_boards(convention)


def _small_boards(goal: str) -> Iterator[Board]:
    from itertools import permutations

    first = goal_tiles(2, 2, goal)
    for k, tiles in enumerate(sorted(permutations(range(4)), key=lambda t: t != first)):
        yield Board(2, 2, tiles, goal, f"small-2x2-{k}")
    for rows, cols in ((2, 3), (3, 2)):
        start = goal_tiles(rows, cols, goal)
        seen, layer = {start}, [start]
        for _ in range(5):  # distances 0..4, one breadth-first layer at a time
            for k, tiles in enumerate(layer):
                yield Board(rows, cols, tiles, goal, f"small-{rows}x{cols}-{len(seen)}-{k}")
            following = []
            for tiles in layer:
                blank = tiles.index(0)
                for target in moves_of(blank, rows, cols).values():
                    moved = list(tiles)
                    moved[blank], moved[target] = moved[target], 0
                    if tuple(moved) not in seen:
                        seen.add(tuple(moved))
                        following.append(tuple(moved))
            layer = following


def board_strategy(size: int, goal: str | None = None) -> Any:
    """A hypothesis strategy of boards 2 x 2 to 3 x 3 (square or not), scrambled by at
    most ``size`` random blank moves from the goal (``None``: either convention), and
    made unsolvable (two tiles swapped) or not; hypothesis shrinks towards 2 x 2, fewer
    moves, solvable and blank-last."""
    from hypothesis import strategies as st

    if goal is None:
        return st.sampled_from(GOALS).flatmap(lambda g: board_strategy(size, g))

    def scramble(shape: tuple[int, int], walk: list[int], swapped: bool) -> Board:
        rows, cols = shape
        tiles = list(goal_tiles(rows, cols, goal))
        blank = tiles.index(0)
        for pick in walk:
            targets = sorted(moves_of(blank, rows, cols).values())
            target = targets[pick % len(targets)]
            tiles[blank], tiles[target], blank = tiles[target], 0, target
        if swapped:  # an odd permutation of the tiles with the blank kept: unsolvable
            i, j = [k for k, t in enumerate(tiles) if t != 0][:2]
            tiles[i], tiles[j] = tiles[j], tiles[i]
        return Board(rows, cols, tuple(tiles), goal, "fuzz")

    shapes = st.sampled_from([(2, 2), (2, 3), (3, 2), (3, 3)])
    walk = st.lists(st.integers(0, 3), max_size=size)
    return st.builds(scramble, shapes, walk, st.booleans())
