"""Hex positions: the rhombus board and Hex on a graph; reading, writing, validating.

A position is a set of cells, the stones on them and the player to move. On the
``rows x cols`` rhombus, **Black** joins the top edge to the bottom edge and **White** the
left edge to the right edge; the cell in row ``r`` (1 at the top) and column ``c``
(``a`` at the left) is ``c r`` written together (``a1``, ``c3``), and touches up to six
cells: left and right, up and up-right, down and down-left. In **graph Hex** (Shannon's
vertex game) the cells are a graph's vertices but two *terminals*: Black wins by joining
the terminals with a path of black vertices, White by cutting every such path (on the
rhombus the two say the same: a board without a black top-bottom chain has a white
left-right one, and no board has both).

Black moves first, so the player to move follows from the stones: as many black as
white stones, Black moves; one black stone more, White moves; anything else is refused.

Forms of a board position:

- the one-line form: the rows joined by ``/`` (``..B/.W./...``), or ``NxM`` (or ``N``)
  for the empty board; on the command line a text made only of ``B``, ``W``, ``.`` and
  ``/`` is this form even where a path of that name exists (``../..``);
- a diagram, one row per line, each cell ``B``, ``W`` or ``.``; the rows may be
  indented (the rhombus' shear), numbered on the left, and headed by a line of column
  letters: what :func:`format_diagram` writes reads back;
- headers in a file: ``# turn: black|white`` (checked against the counts) and
  ``# known: black|white`` (the winner, with the player to move: crosscheck compares it).

A graph Hex file is any graph file the project reads (``engines.graphs``), undirected,
with ``# terminals: s t`` (or ``--terminals s,t``) and optionally ``# black: v ...`` and
``# white: v ...``.

>>> game = parse_position("..B/.W./...")
>>> game.rows, game.cols, game.to_move, game.stones_of("B"), game.stones_of("W")
(3, 3, 'B', ['c1'], ['b2'])
>>> print(format_diagram(game), end="")
  a b c
1 . . B
 2 . W .
  3 . . .
>>> parse_position(format_diagram(game)).one_line()
'..B/.W./...'
>>> parse_position("B../.../...").to_move
'W'
>>> parse_position("BB./.../...")
Traceback (most recent call last):
pyasp_games.errors.InputError: 2 black and 0 white stones: with Black moving first, black must have as many stones as white (Black to move) or one more (White to move)
"""

from __future__ import annotations

import itertools
import random
import re
import string
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pyasp_games.engines.files import comment_header
from pyasp_games.errors import InputError, checked_int, read_text

#: The longest side of a board this tool takes (and the letters that name its columns).
MAX_SIDE = 19
#: The most cells of a graph Hex position.
MAX_CELLS = 400
#: The players by their stone letter, and their names.
PLAYERS = {"B": "black", "W": "white"}
STONES = "BW."


def other(player: str) -> str:
    """The opponent of ``'B'`` or ``'W'``."""
    return "W" if player == "B" else "B"


@dataclass(frozen=True, eq=False)
class Hex:
    """A Hex position.

    Attributes:
        cells: the names of the playable cells, by number.
        neighbours: for every cell, the cells it touches.
        sides: for each player that joins two sides, the cells touching each side
            (Black always; White on the rhombus only: in graph Hex White wins by cutting).
        stones: for every cell ``'B'``, ``'W'`` or ``'.'``.
        rows, cols: the rhombus' size (``0``: graph Hex).
        terminals: graph Hex's two terminals (``None`` on the rhombus).
        joined: graph Hex with the terminals adjacent: Black has won before any move.
        name: a label for messages and outcomes.
        known: the winner (``'black'``/``'white'``) a file states, or ``None``.
    """

    cells: tuple[str, ...]
    neighbours: tuple[tuple[int, ...], ...]
    sides: dict[str, tuple[frozenset[int], frozenset[int]]]
    stones: tuple[str, ...]
    rows: int = 0
    cols: int = 0
    terminals: tuple[str, str] | None = None
    joined: bool = False
    name: str = "hex"
    known: str | None = None
    index: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        self.index.update({c: i for i, c in enumerate(self.cells)})

    def __len__(self) -> int:
        return len(self.cells)

    @property
    def is_board(self) -> bool:
        return self.rows > 0

    @property
    def to_move(self) -> str:
        """``'B'`` or ``'W'``: Black moves first, so the counts say who moves."""
        return "B" if self.stones.count("B") == self.stones.count("W") else "W"

    def stones_of(self, player: str) -> list[str]:
        return [c for c, s in zip(self.cells, self.stones, strict=True) if s == player]

    def empty(self) -> list[int]:
        return [i for i, s in enumerate(self.stones) if s == "."]

    def play(self, cell: int) -> Hex:
        """The position after the player to move takes ``cell`` (an empty cell)."""
        if self.stones[cell] != ".":
            raise InputError(f"{self.cells[cell]} is not empty")
        stones = list(self.stones)
        stones[cell] = self.to_move
        return replace(self, stones=tuple(stones), known=None, index={})

    def one_line(self) -> str:
        """The one-line form (rows joined by ``/``; graph Hex: the stones by vertex)."""
        if self.is_board:
            return "/".join(
                "".join(self.stones[r * self.cols: (r + 1) * self.cols]) for r in range(self.rows)
            )
        black, white = self.stones_of("B"), self.stones_of("W")
        return f"black {' '.join(black) or '-'}; white {' '.join(white) or '-'}"

    def describe(self) -> str:
        if self.is_board:
            kind = f"{self.rows} x {self.cols} Hex"
        else:
            s, t = self.terminals or ("?", "?")
            kind = f"graph Hex on {len(self)} cell{'s' * (len(self) != 1)}, terminals {s} and {t}"
        empty = len(self.empty())
        return f"{kind}, {PLAYERS[self.to_move]} to move, {empty} empty cell{'s' * (empty != 1)}"


def cell_name(r: int, c: int) -> str:
    """The name of the cell in row ``r`` and column ``c`` (both from 0): ``a1`` is the
    top-left corner."""
    return f"{string.ascii_lowercase[c]}{r + 1}"


def board(rows: int, cols: int, stones: tuple[str, ...] | None = None, name: str = "hex",
          known: str | None = None) -> Hex:
    """The ``rows x cols`` rhombus with ``stones`` (row by row; default: empty),
    validated (:func:`validated`)."""
    rows = checked_int(rows, "rows", 1, MAX_SIDE)
    cols = checked_int(cols, "columns", 1, MAX_SIDE)
    cells = tuple(cell_name(r, c) for r in range(rows) for c in range(cols))
    neighbours = []
    for r in range(rows):
        for c in range(cols):
            near = [(r, c - 1), (r, c + 1), (r - 1, c), (r - 1, c + 1), (r + 1, c), (r + 1, c - 1)]
            neighbours.append(tuple(sorted(
                rr * cols + cc for rr, cc in near if 0 <= rr < rows and 0 <= cc < cols
            )))  # fmt: skip
    if stones is not None and len(stones) != rows * cols:
        raise InputError(f"{len(stones)} stones and empty cells for a {rows} x {cols} board")
    top = frozenset(range(cols))
    bottom = frozenset(range((rows - 1) * cols, rows * cols))
    left = frozenset(r * cols for r in range(rows))
    right = frozenset(r * cols + cols - 1 for r in range(rows))
    game = Hex(
        cells, tuple(neighbours), {"B": (top, bottom), "W": (left, right)},
        stones or tuple("." * (rows * cols)), rows, cols,
        name=name, known=known,
    )  # fmt: skip
    return validated(game)


def graph_hex(graph: Any, terminals: tuple[str, str], black: list[str] = (),  # type: ignore[assignment]
              white: list[str] = (), name: str = "hex", known: str | None = None) -> Hex:  # type: ignore[assignment]
    """Graph Hex on an undirected :class:`~pyasp_games.engines.graphs.Graph` (or Digraph
    read undirected): Black joins ``terminals`` by black vertices, White cuts them."""
    s, t = terminals
    for v in (s, t):
        if v not in graph.index:
            raise InputError(f"terminal {v!r} is not a vertex of the graph")
    if s == t:
        raise InputError(f"the two terminals must differ, got {s!r} twice")
    if len(graph) - 2 > MAX_CELLS:
        raise InputError(f"{len(graph) - 2:,} cells: beyond this tool's limit of {MAX_CELLS:,}")
    si, ti = graph.index[s], graph.index[t]
    keep = [v for v in range(len(graph)) if v not in (si, ti)]
    number = {v: i for i, v in enumerate(keep)}
    adj: list[set[int]] = [set() for _ in keep]
    near_s: set[int] = set()
    near_t: set[int] = set()
    joined = False
    for u, succ in enumerate(graph.succ):
        for v in succ:
            if u == v:
                continue
            if {u, v} == {si, ti}:
                joined = True
            elif u in (si, ti) or v in (si, ti):
                end, cell = (u, v) if u in (si, ti) else (v, u)
                (near_s if end == si else near_t).add(number[cell])
            else:
                adj[number[u]].add(number[v])
                adj[number[v]].add(number[u])
    cells = tuple(graph.names[v] for v in keep)
    stones = ["."] * len(cells)
    for player, names in (("B", black), ("W", white)):
        for v in names:
            if v in (s, t):
                raise InputError(f"{v!r} is a terminal: no stone can stand on it")
            if v not in graph.index:
                raise InputError(f"{PLAYERS[player]} stone on {v!r}: not a vertex of the graph")
            if stones[number[graph.index[v]]] != ".":
                raise InputError(f"two stones on {v!r}")
            stones[number[graph.index[v]]] = player
    game = Hex(
        cells, tuple(tuple(sorted(a)) for a in adj),
        {"B": (frozenset(near_s), frozenset(near_t))}, tuple(stones),
        terminals=(s, t), joined=joined, name=name, known=known,
    )  # fmt: skip
    return validated(game)


def validated(game: Hex) -> Hex:
    """``game`` if its stones can arise in play with Black moving first (the counts),
    else :class:`InputError` in one line."""
    black, white = game.stones.count("B"), game.stones.count("W")
    if black not in (white, white + 1):
        raise InputError(
            f"{black} black and {white} white stones: with Black moving first, black must "
            "have as many stones as white (Black to move) or one more (White to move)"
        )
    if game.known is not None and game.known not in PLAYERS.values():
        raise InputError(f"'# known:' must be black or white, got {game.known!r}")
    return game


_ROW_LABEL = re.compile(r"^\d+|\d+$")


def _diagram_rows(lines: list[str]) -> list[str]:
    rows = []
    for line in lines:
        text = "".join(line.split("#", 1)[0].split())
        if not text:
            continue
        text = _ROW_LABEL.sub("", text)
        if text and text.isalpha() and text.islower():
            continue  # the line of column letters
        bad = set(text) - set(STONES)
        if bad:
            raise InputError(
                f"unexpected {sorted(bad)[0]!r} in the board row {line.strip()!r} "
                "(cells are B, W or .)"
            )
        rows.append(text)
    return rows


def _from_rows(rows: list[str], name: str, known: str | None) -> Hex:
    if not rows:
        raise InputError("no board: expected rows of B, W and . (or NxM for the empty board)")
    widths = {len(r) for r in rows}
    if len(widths) != 1:
        raise InputError(f"rows of different widths ({', '.join(map(str, sorted(widths)))})")
    cols = widths.pop()
    if len(rows) > MAX_SIDE or cols > MAX_SIDE:
        raise InputError(
            f"a {len(rows)} x {cols} board: beyond this tool's limit of {MAX_SIDE} x {MAX_SIDE}"
        )
    return board(len(rows), cols, tuple("".join(rows)), name, known)


_ONE_LINE = re.compile(r"^[BW.]+(/[BW.]+)*$")
_SIZE = re.compile(r"^\s*(\d+)\s*(?:[xX]\s*(\d+))?\s*$")


def parse_position(text: str, name: str = "hex") -> Hex:
    """A board position from its one-line form or its diagram (module docstring)."""
    size = _SIZE.match(text)
    if size:
        rows = int(size.group(1))
        cols = int(size.group(2) or rows)
        if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
            raise InputError(
                f"a {rows} x {cols} board: sides must be 1 to {MAX_SIDE} (this tool's limit)"
            )
        return board(rows, cols, name=name or f"{rows}x{cols}")
    headers: dict[str, str] = {}
    lines = text.splitlines()
    for line in lines:
        header = comment_header(line)
        if header is not None:
            headers[header[0]] = header[1].strip().lower()
    if len(lines) == 1 and "/" in lines[0]:
        rows = [_diagram_rows([r])[0] if _diagram_rows([r]) else "" for r in lines[0].split("/")]
        if "" in rows:
            raise InputError("an empty row in the one-line form")
    else:
        rows = _diagram_rows(lines)
    game = _from_rows(rows, name, headers.get("known"))
    said = headers.get("turn")
    if said is not None:
        if said not in PLAYERS.values():
            raise InputError(f"'# turn:' must be black or white, got {said!r}")
        if said != PLAYERS[game.to_move]:
            raise InputError(
                f"'# turn: {said}' but the stones say {PLAYERS[game.to_move]} moves "
                "(Black moves first)"
            )
    return game


def format_diagram(game: Hex) -> str:
    """A board as a diagram (column letters, numbered rows sheared to the right), or a
    graph Hex position as its one-line form."""
    if not game.is_board:
        return game.one_line() + "\n"
    width = len(str(game.rows))
    lines = [" " * (width + 1) + " ".join(string.ascii_lowercase[: game.cols])]
    for r in range(game.rows):
        row = " ".join(game.stones[r * game.cols: (r + 1) * game.cols])
        lines.append(" " * r + f"{r + 1:>{width}} " + row)
    return "\n".join(lines) + "\n"


def format_position(game: Hex) -> str:
    """The text of a position file: its headers, then the diagram."""
    head = f"# turn: {PLAYERS[game.to_move]}\n"
    if game.known:
        head += f"# known: {game.known}\n"
    if not game.is_board:
        s, t = game.terminals or ("", "")
        edges = {
            tuple(sorted((game.cells[u], game.cells[v])))
            for u, near in enumerate(game.neighbours) for v in near
        }
        ends = [(s, game.cells[v]) for v in sorted(game.sides["B"][0])]
        ends += [(t, game.cells[v]) for v in sorted(game.sides["B"][1])]
        if game.joined:
            ends.append((s, t))
        body = "".join(f"{u} {v}\n" for u, v in sorted(edges) + ends)
        stones = "".join(
            f"# {PLAYERS[p]}: {' '.join(game.stones_of(p))}\n" for p in "BW" if game.stones_of(p)
        )
        return f"# terminals: {s} {t}\n{stones}{head}{body}"
    return head + format_diagram(game)


def _terminals(text: str | None) -> tuple[str, str] | None:
    if text is None:
        return None
    parts = [p for p in re.split(r"[,\s]+", text.strip()) if p]
    if len(parts) != 2:
        raise InputError(f"terminals must be two vertices 's,t', got {text!r}")
    return parts[0], parts[1]


def _not_graph(source: str, terminals: str | None) -> str:
    option = "--terminals" if terminals is not None else "--format"
    return (
        f"{source} is a Hex board: {option} belongs to graph Hex (a graph file, "
        "e.g. an arc list with its two terminals)"
    )


def load_position(
    source: str | Path, terminals: str | None = None, fmt: str | None = None
) -> Hex:
    """Read a Hex position as the command line gives it.

    Parameters
    ----------
    source : path-like or str
        A size (``5x5``, the empty board), the one-line form (ranks of ``B``, ``W``,
        ``.`` separated by ``/``), a board-diagram file, or a graph file for Hex on a
        graph (``.adjlist``, ``.graphml``, ``.json``, or an arc list with a
        ``# terminals:`` header; ``# black:``, ``# white:``, ``# turn:`` optional).
    terminals : str or None, optional
        Graph Hex's two terminals (``s,t``); ``None``: the ``# terminals:`` header.
    fmt : str or None, optional
        The graph format; given, the file is a graph file.

    Returns
    -------
    Hex
        The position, with the player to move.

    Raises
    ------
    InputError
        No such file (nor a position), a board too large, stones that do not alternate,
        terminals or a format given for a board, a graph without terminals.
    """
    from pyasp_games.engines.graphs import FORMATS, read_graph

    text_source = str(source)
    path = Path(text_source)
    # made only of B, W, '.' and '/' (or NxM): a board, even where a path of that name
    # exists ('../..' is the empty 2 x 2 board, not a folder); such a file is read by
    # another spelling of its path (its absolute path)
    if _SIZE.match(text_source) or _ONE_LINE.match(text_source):
        if terminals is not None or fmt is not None:
            raise InputError(_not_graph(text_source, terminals))
        return parse_position(text_source, text_source.strip())
    if not path.exists():
        raise InputError(f"{source}: no such file (nor a position such as 5x5 or ..B/.W./...)")
    if path.is_dir():
        raise InputError(f"{source}: is a directory")
    if fmt is not None and fmt not in FORMATS:
        raise InputError(f"unknown format {fmt!r} (choose from {', '.join(FORMATS)})")
    graph_file = fmt is not None or terminals is not None or path.suffix in (
        ".adjlist", ".graphml", ".json"
    )
    text = "" if graph_file and path.suffix in (".graphml", ".json") else read_text(path)
    headers = {}
    for line in text.splitlines():
        header = comment_header(line)
        if header is not None:
            headers[header[0]] = header[1]
    if terminals is not None and fmt is None and path.suffix.lower() not in (
        ".adjlist", ".graphml", ".json"
    ):
        try:
            parse_position(text, path.stem)
        except InputError:
            pass  # not a board: a graph file
        else:
            raise InputError(_not_graph(text_source, terminals))
    try:
        if not graph_file and "terminals" not in headers:
            return parse_position(text, path.stem)
        ends = _terminals(terminals) or _terminals(headers.get("terminals"))
        if ends is None:
            raise InputError("graph Hex needs its two terminals: --terminals s,t or '# terminals: s t'")
        graph = read_graph(path, fmt, undirected=True)
        game = graph_hex(
            graph, ends, headers.get("black", "").split(), headers.get("white", "").split(),
            path.stem, (headers.get("known") or "").strip().lower() or None,
        )  # fmt: skip
        said = (headers.get("turn") or "").strip().lower()
        if said and said != PLAYERS[game.to_move]:
            raise InputError(f"'# turn: {said}' but the stones say {PLAYERS[game.to_move]} moves")
        return game
    except InputError as err:
        raise InputError(f"{path}: {err}") from None


def load_instances(path: Path) -> list[Hex]:
    """One position per file (the crosscheck loader)."""
    return [load_position(path)]


def known_winner(game: Hex) -> str | None:
    return game.known


def random_position(seed: int = 0, size: int = 4, stones: int = 6) -> Hex:
    """A random ``size x size`` position with ``stones`` stones, Black's one more or as
    many as White's (bench's generator ``random``: deterministic in its arguments)."""
    size = checked_int(size, "size", 1, MAX_SIDE)
    stones = checked_int(stones, "stones", 0, size * size)
    rng = random.Random(checked_int(seed, "seed"))
    cells = rng.sample(range(size * size), stones)
    placed = ["."] * (size * size)
    for k, cell in enumerate(cells):
        placed[cell] = "B" if k % 2 == 0 else "W"
    return board(size, size, tuple(placed), f"random-{size}x{size}-{stones}#{seed}")


def opening(seed: int = 0, size: int = 7, cell: str = "d4") -> Hex:
    """The ``size x size`` board after Black's first stone on ``cell``, White to move
    (bench's generator ``opening``: one run per opening of a campaign; ``seed`` is taken
    for the generators' signature and changes nothing). Its winner is the opening's value
    as ``hex openings`` gives it: ``black`` when Black's first move there wins.

    >>> game = opening(size=3, cell="b2")
    >>> game.one_line(), game.to_move, game.name
    ('.../.B./...', 'W', 'opening-b2-3x3')
    """
    checked_int(seed, "seed")
    size = checked_int(size, "size", 1, MAX_SIDE)
    empty = board(size, size)
    if not isinstance(cell, str) or cell.strip().lower() not in empty.index:
        raise InputError(f"opening: {cell!r} is no cell of the {size} x {size} board (a1 to {empty.cells[-1]})")
    cell = cell.strip().lower()
    return replace(empty.play(empty.index[cell]), name=f"opening-{cell}-{size}x{size}")


def small_positions() -> Iterator[Hex]:
    """Every position on the 1 x 1, 2 x 2 and 2 x 3 boards with at most 3 stones, then
    every position of the 3 x 3 board with 4 stones (fuzz's small scope)."""
    for rows, cols, most in ((1, 1, 1), (2, 2, 3), (2, 3, 3), (3, 2, 2), (3, 3, 4)):
        for placed in itertools.product("BW.", repeat=rows * cols):
            b, w = placed.count("B"), placed.count("W")
            if b + w <= most and b in (w, w + 1):
                yield board(rows, cols, tuple(placed), f"small-{rows}x{cols}")


def strategy(size: int) -> Any:
    """A hypothesis strategy of positions on boards of at most ``size`` cells a side."""
    from hypothesis import strategies as st

    @st.composite
    def position(draw: Any) -> Hex:
        rows = draw(st.integers(1, max(1, size)))
        cols = draw(st.integers(1, max(1, size)))
        n = rows * cols
        order = draw(st.permutations(range(n)))
        count = draw(st.integers(0, n))
        placed = ["."] * n
        for k, cell in enumerate(order[:count]):
            placed[cell] = "B" if k % 2 == 0 else "W"
        return board(rows, cols, tuple(placed), "drawn")

    return position()


# -- graph Hex for fuzz: every tiny graph, then random ones -----------------------------


def graph_position(cells: int, edges: tuple[tuple[int, int], ...], near_s: tuple[int, ...],
                   near_t: tuple[int, ...], placed: tuple[str, ...], name: str = "graph") -> Hex:  # fmt: skip
    """Graph Hex on cells ``1..cells`` (vertex names ``"1"``, ...) and the terminals
    ``s`` and ``t``: the cells' ``edges``, the cells next to ``s`` and to ``t``, and a
    stone (``B``, ``W``, ``.``) on each cell.

    >>> game = graph_position(2, ((0, 1),), (0,), (1,), ("B", "."))
    >>> game.is_board, len(game), game.to_move, game.stones_of("B")
    (False, 2, 'W', ['1'])
    """
    from pyasp_games.engines.graphs import graph_from_edges

    label = [str(k + 1) for k in range(cells)]
    links = [(label[u], label[v]) for u, v in edges]
    links += [("s", label[c]) for c in near_s] + [("t", label[c]) for c in near_t]
    graph = graph_from_edges(links, ["s", "t", *label], name=name)
    black = [label[k] for k, p in enumerate(placed) if p == "B"]
    white = [label[k] for k, p in enumerate(placed) if p == "W"]
    return graph_hex(graph, ("s", "t"), black, white, name=name)


def _subsets(items: list[int]) -> Iterator[tuple[int, ...]]:
    for k in range(len(items) + 1):
        yield from itertools.combinations(items, k)


def small_graph_positions() -> Iterator[Hex]:
    """Graph Hex's small scope: every graph on 1 and 2 cells (every edge, every
    attachment to the terminals) with every position in play, then the path and the
    triangle on 3 cells with every attachment, empty.

    >>> sum(1 for _ in small_graph_positions())
    296
    """
    for cells, shapes, most in ((1, [()], 1), (2, [(), ((0, 1),)], 2),
                                (3, [((0, 1), (1, 2)), ((0, 1), (1, 2), (0, 2))], 0)):  # fmt: skip
        everyone = list(range(cells))
        for edges in shapes:
            for near_s in _subsets(everyone):
                for near_t in _subsets(everyone):
                    for placed in itertools.product("BW.", repeat=cells):
                        b, w = placed.count("B"), placed.count("W")
                        if b + w <= most and b in (w, w + 1):
                            yield graph_position(cells, edges, near_s, near_t, placed,
                                                 f"small-graph-{cells}")  # fmt: skip


def graph_strategy(size: int) -> Any:
    """A hypothesis strategy of graph Hex positions on at most ``size`` cells: any
    edges, any attachment to the terminals, stones placed in turn."""
    from hypothesis import strategies as st

    @st.composite
    def position(draw: Any) -> Hex:
        cells = draw(st.integers(1, max(1, size)))
        pairs = list(itertools.combinations(range(cells), 2))
        edges = tuple(p for p in pairs if draw(st.booleans()))
        near_s = tuple(c for c in range(cells) if draw(st.booleans()))
        near_t = tuple(c for c in range(cells) if draw(st.booleans()))
        order = draw(st.permutations(range(cells)))
        count = draw(st.integers(0, cells))
        placed = ["."] * cells
        for k, cell in enumerate(order[:count]):
            placed[cell] = "B" if k % 2 == 0 else "W"
        return graph_position(cells, edges, near_s, near_t, tuple(placed), "drawn")

    return position()
