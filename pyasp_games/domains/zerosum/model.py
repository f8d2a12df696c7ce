"""Two-person zero-sum matrix games with exact rational payoffs: the type, the text format.

A game file is a matrix, one row per line, entries separated by blanks or commas;
an entry is an integer, a fraction ``3/2`` or a decimal ``0.25`` (read exactly).
Entry ``a[i][j]`` is what player II (columns, the minimizer) pays player I (rows,
the maximizer). Lines starting with ``#`` are comments, except three headers:
``# known: 1/12`` (the exact value, checked by crosscheck), ``# rows: bet check``
and ``# cols: call fold`` (strategy names).

>>> g = parse_matrix("# known: 1/12\\n-2 3\\n3 -4\\n", name="odd-even")
>>> g.shape, g.known, g.rows
((2, 2), Fraction(1, 12), ('r1', 'r2'))
>>> parse_matrix("1 2\\n3\\n")
Traceback (most recent call last):
    ...
pyasp_games.errors.InputError: game: line 2 has 1 entries, line 1 has 2 (every row needs the same number of columns)
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from math import lcm
from pathlib import Path
from typing import Any

from pyasp_games.engines.claim import Claim
from pyasp_games.engines.files import comment_header
from pyasp_games.errors import InputError, read_text

Matrix = tuple[tuple[Fraction, ...], ...]


@dataclass(frozen=True)
class MatrixGame:
    """A finite two-person zero-sum game in strategic form (row player maximizes)."""

    matrix: Matrix
    rows: tuple[str, ...]
    cols: tuple[str, ...]
    name: str = "game"
    known: Fraction | None = None
    #: What the two players' payoffs add up to in every outcome: 0 for a zero-sum game; a
    #: constant-sum game (read from a Gambit file) is zero-sum on player 1's payoffs, and
    #: player 2 gets the constant minus them.
    constant: Fraction = Fraction(0)

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.matrix), len(self.matrix[0])

    @cached_property
    def integers(self) -> tuple[list[list[int]], int]:
        """The payoffs as integers over one common denominator: ``(rows, scale)`` with
        ``matrix[i][j] == rows[i][j] / scale`` (exact arithmetic in integers, computed
        once per game: the solver and the checker both use it).

        >>> make_game([[1, Fraction(1, 2)], [0, Fraction(-1, 3)]]).integers
        ([[6, 3], [0, -2]], 6)
        """
        scale = 1
        for row in self.matrix:
            for a in row:
                if a.denominator != 1:
                    scale = lcm(scale, a.denominator)
        if scale == 1:
            return [[a.numerator for a in row] for row in self.matrix], 1
        return [[a.numerator * (scale // a.denominator) for a in row] for row in self.matrix], scale

    def restrict(self, rows: list[int], cols: list[int]) -> MatrixGame:
        """The subgame on the given rows and columns (names kept)."""
        matrix = tuple(tuple(self.matrix[i][j] for j in cols) for i in rows)
        return MatrixGame(
            matrix,
            tuple(self.rows[i] for i in rows),
            tuple(self.cols[j] for j in cols),
            self.name,
            self.known,
            self.constant,
        )


def make_game(
    matrix: list[list[int | Fraction | str]],
    name: str = "game",
    rows: list[str] | None = None,
    cols: list[str] | None = None,
    known: Fraction | str | None = None,
) -> MatrixGame:
    """A :class:`MatrixGame` from nested lists (entries as numbers or ``"3/2"`` strings)."""
    if not matrix or not matrix[0]:
        raise InputError(f"{name}: the matrix is empty")
    table = tuple(tuple(to_fraction(x, name) for x in row) for row in matrix)
    width = len(table[0])
    for k, row in enumerate(table):
        if len(row) != width:
            raise InputError(
                f"{name}: row {k + 1} has {len(row)} entries, row 1 has {width} "
                "(every row needs the same number of columns)"
            )
    row_names = tuple(rows) if rows else tuple(f"r{i + 1}" for i in range(len(table)))
    col_names = tuple(cols) if cols else tuple(f"c{j + 1}" for j in range(width))
    if len(row_names) != len(table) or len(col_names) != width:
        raise InputError(f"{name}: {len(row_names)} row names and {len(col_names)} column "
                         f"names for a {len(table)}x{width} matrix")
    for who, names in (("row", row_names), ("column", col_names)):
        twice = next((n for k, n in enumerate(names) if n in names[:k]), None)
        if twice is not None:  # every answer names strategies: two of a name are ambiguous
            raise InputError(f"{name}: the {who} name {twice!r} appears twice")
    value = None if known is None else to_fraction(known, name)
    return MatrixGame(table, row_names, col_names, name, value)


def to_fraction(token: object, where: str = "game") -> Fraction:
    """An exact rational from an int, a Fraction or a string ``-3/2``, ``0.25``, ``7``."""
    if isinstance(token, bool):
        raise InputError(f"{where}: {token!r} is not a number")
    if isinstance(token, int | Fraction):
        return Fraction(token)
    if isinstance(token, float):
        return Fraction(str(token))
    try:
        # Fraction reads any Unicode digit ('٢') and digits grouped by underscores ('1_0')
        if not str(token).isascii() or "_" in str(token):
            raise ValueError(token)
        return Fraction(str(token).strip())
    except (ValueError, ZeroDivisionError):
        raise InputError(f"{where}: {token!r} is not a number (write 3, -3/2 or 0.25)") from None


def parse_matrix(text: str, name: str = "game") -> MatrixGame:
    """Parse the text matrix format (see the module docstring)."""
    rows: list[list[Fraction]] = []
    lines: list[int] = []
    headers: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith("#"):
            header = comment_header(line)
            if header is not None and header[0] in ("known", "rows", "cols") and header[1]:
                headers[header[0]] = header[1]
            continue
        if not line:
            continue
        tokens = line.replace(",", " ").split()
        rows.append([to_fraction(t, f"{name}: line {number}") for t in tokens])
        lines.append(number)
    if not rows:
        raise InputError(f"{name}: no matrix rows (an empty game)")
    for k, row in enumerate(rows):
        if len(row) != len(rows[0]):
            raise InputError(
                f"{name}: line {lines[k]} has {len(row)} entries, line {lines[0]} has "
                f"{len(rows[0])} (every row needs the same number of columns)"
            )
    names = {key: headers[key].split() for key in ("rows", "cols") if key in headers}
    return make_game(rows, name, names.get("rows"), names.get("cols"), headers.get("known"))


def format_matrix(game: MatrixGame) -> str:
    """The text format of ``game`` (headers for names and the known value)."""
    out = []
    if game.known is not None:
        out.append(f"# known: {game.known}")
    out.append("# rows: " + " ".join(game.rows))
    out.append("# cols: " + " ".join(game.cols))
    width = max(len(str(x)) for row in game.matrix for x in row)
    out += [" ".join(str(x).rjust(width) for x in row) for row in game.matrix]
    return "\n".join(out) + "\n"


def load_matrix(path: Path | str) -> MatrixGame:
    """Read a matrix game file."""
    path = Path(path)
    return parse_matrix(read_text(path), name=path.stem)


#: The most entries of a generated random game (3000 x 3000).
MAX_RANDOM_ENTRIES = 9_000_000


def random_matrix(rows: int = 10, cols: int | None = None, low: int = -100, high: int = 100,
                  seed: int = 0) -> MatrixGame:
    """A random integer game, entries uniform in ``[low, high]`` (deterministic in ``seed``).

    >>> random_matrix(2, 3, seed=1).matrix == random_matrix(2, 3, seed=1).matrix
    True
    """
    cols = rows if cols is None else cols
    if rows < 1 or cols < 1 or low > high:
        raise InputError("a random game needs rows, cols >= 1 and low <= high")
    if rows * cols > MAX_RANDOM_ENTRIES:
        raise InputError(
            f"a random {rows}x{cols} game: at most {MAX_RANDOM_ENTRIES:,} entries"
        )
    rng = random.Random(seed)
    table = [[rng.randint(low, high) for _ in range(cols)] for _ in range(rows)]
    return make_game(table, name=f"random-{rows}x{cols}-s{seed}")


# -- the claims of the questions on a matrix (every backend builds them alike) --------------
def saddle_claim(game: MatrixGame, points: list[tuple[int, int]]) -> Claim:
    """The claim of ``zerosum saddle`` for the saddle ``points`` a backend found.

    Answer: the value when there are saddle points (status ``solved``), else ``None``
    (``no-solution``); witness: the saddle points as 0-based ``[row, col]`` pairs.
    """
    witness = [[i, j] for i, j in sorted(points)]
    if not points:
        return Claim.none(None, witness)
    i, j = witness[0]
    return Claim.solved(game.matrix[i][j], witness)


def dominance_claim(rows: list[int], cols: list[int], steps: list[dict[str, Any]]) -> Claim:
    """The claim of ``zerosum reduce``: answer the reduced game's shape ``[rows, cols]``;
    witness the surviving rows and columns (0-based) and every step ``{player, removed,
    by: {strategy: probability}, kind[, round]}`` (the steps of one round are judged
    against the game as it was before the round; steps without a round one at a time)."""
    witness = {"rows": list(rows), "cols": list(cols), "steps": steps}
    return Claim.solved([len(rows), len(cols)], witness)


# -- fuzzing: every small matrix, then random ones (``pyasp-games fuzz zerosum saddle``) ---


def small_matrices() -> Iterator[MatrixGame]:
    """Every 1 x 2, 2 x 1 and 2 x 2 matrix with entries -1, 0, 1, then every 2 x 3 and
    3 x 2 one with entries 0, 1 (ties, several saddle points, none): the small scope.

    >>> len(list(small_matrices()))
    227
    """
    from itertools import product

    k = 0
    for (m, n), values in (((1, 2), (-1, 0, 1)), ((2, 1), (-1, 0, 1)), ((2, 2), (-1, 0, 1)),
                           ((2, 3), (0, 1)), ((3, 2), (0, 1))):  # fmt: skip
        for entries in product(values, repeat=m * n):
            rows = [list(entries[i * n : (i + 1) * n]) for i in range(m)]
            yield make_game(rows, name=f"small-{k}")
            k += 1


def matrix_strategy(size: int) -> Any:
    """A hypothesis strategy of integer matrices with at most ``size`` rows and columns,
    entries -3..3 (ties and saddle points common); hypothesis shrinks to fewer rows,
    columns and smaller entries."""
    from hypothesis import strategies as st

    def of(shape: tuple[int, int]) -> Any:
        m, n = shape
        return st.lists(st.lists(st.integers(-3, 3), min_size=n, max_size=n),
                        min_size=m, max_size=m).map(lambda rows: make_game(rows, name="fuzz"))  # fmt: skip

    top = max(1, size)
    return st.tuples(st.integers(1, top), st.integers(1, top)).filter(
        lambda s: s[0] * s[1] > 1).flatmap(of)  # fmt: skip
