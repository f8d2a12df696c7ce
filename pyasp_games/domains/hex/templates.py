"""Hex's edge templates: a stone some rows from its edge that reaches it whoever moves
while the template's cells are empty, found and proved by the native search itself.

The search (:mod:`.native`) takes them as links from a group to a side
(:meth:`.links.Links.pairing`); a connection that uses one is written in the proof as
a carrier node and proved inside it by the template-free engine (:mod:`.proofs`), so
the checker never has to take a template on trust.

>>> len(EDGE_TEMPLATES[2][0]), len(EDGE_TEMPLATES[3][0])  # the ziggurat; the fourth row's
(8, 19)
>>> from pyasp_games.domains.hex.model import parse_position
>>> sum(len(ts) for ts in board_templates(parse_position("5x5"))["B"][1])  # to Black's bottom edge
4
"""

from __future__ import annotations

from pyasp_games.domains.hex.model import Hex

#: The edge templates used, as offsets (rows toward the edge, columns) from the stone of
#: the empty cells they need, the stone ``depth`` rows from the bottom edge (the edge row
#: is ``depth``), each with its mirror image: depth 2 is template IIIa (the ziggurat), 8
#: cells; depth 3 a template of 19 cells. They were found by :func:`find_edge_template`
#: (a cone below the stone shrunk while the engine still proves the connection);
#: ``tests/test_hex.py`` proves each again with :func:`template_holds` (and re-derives
#: them in a slow test). Written out here because finding the second costs 15 s.
EDGE_TEMPLATES: dict[int, list[list[tuple[int, int]]]] = {
    2: [
        [(0, -1), (1, -2), (1, -1), (1, 0), (2, -3), (2, -2), (2, -1), (2, 0)],
        [(0, 1), (1, -1), (1, 0), (1, 1), (2, -2), (2, -1), (2, 0), (2, 1)],
    ],
    3: [
        [(0, -1), (1, -3), (1, -2), (1, -1), (1, 0), (1, 1), (2, -4), (2, -3), (2, -2), (2, -1), (2, 0),
         (2, 1), (3, -5), (3, -4), (3, -3), (3, -2), (3, -1), (3, 0), (3, 1)],
        [(0, 1), (1, -2), (1, -1), (1, 0), (1, 1), (1, 2), (2, -3), (2, -2), (2, -1), (2, 0), (2, 1),
         (2, 2), (3, -4), (3, -3), (3, -2), (3, -1), (3, 0), (3, 1), (3, 2)],
    ],
}


class _TemplateBoard:
    """A board of ``depth + 2`` rows to prove an edge template on: the first row White's
    but the cell above the stone (Black's), the stone on the second row; every cell
    outside the carrier White's. The stone's only way to Black's top edge is that black
    cell (whose other empty neighbour touches the stone too), so Black wins exactly when
    the stone reaches the bottom row."""

    def __init__(self, depth: int) -> None:
        from pyasp_games.domains.hex.model import board as make_board

        self.depth = depth
        self.width = 2 * depth + 5
        self.c0 = depth + 2
        self.rows = depth + 2
        from pyasp_games.domains.hex.native import Engine  # the search proves the templates

        self.engine = Engine(make_board(self.rows, self.width, name="template"), templates=False)
        self.black = (1 << self.c0) | (1 << (self.width + self.c0))

    def holds(self, carrier: list[tuple[int, int]]) -> bool:
        """Whether the stone reaches the edge with White to move, the carrier's cells
        (offsets from the stone) empty and every other cell White's."""
        keep = 0
        for dr, dc in carrier:
            r, c = dr + 1, dc + self.c0
            if not (1 <= r < self.rows and 0 <= c < self.width) or (r, c) == (1, self.c0):
                return False
            keep |= 1 << (r * self.width + c)
        white = self.engine.cells.full & ~keep & ~self.black
        return not self.engine.wins(self.black, white, "W")


def template_holds(depth: int, carrier: list[tuple[int, int]]) -> bool:
    """Whether a stone ``depth`` rows from the edge reaches it whoever moves with the
    cells ``carrier`` (offsets from the stone, rows toward the edge) empty: an exhaustive
    search (the template-free engine) with every other cell the opponent's."""
    return _TemplateBoard(depth).holds(carrier)


def find_edge_template(depth: int) -> list[list[tuple[int, int]]]:
    """An edge template for a stone ``depth`` rows from the edge and its mirror image,
    found rather than copied: a wide cone below the stone is shrunk cell by cell (the
    farthest first) while :func:`template_holds` stays true (a minimal carrier; the
    mirror is the board's reflection that keeps the edge, ``(r, c) -> (r, -c - r)``)."""
    frame = _TemplateBoard(depth)
    wide = depth >= 3
    cone = [(r, c) for r in range(depth + 1) for c in range(-r - 1 - wide, 3 + wide - (r + 1) // 2)
            if (r, c) != (0, 0)]  # fmt: skip
    if not frame.holds(cone):
        return []
    carrier = list(cone)
    for cell in sorted(cone, key=lambda rc: (-abs(rc[1] + rc[0] / 2), -rc[0])):
        trial = [x for x in carrier if x != cell]
        if frame.holds(trial):
            carrier = trial
    mirror = sorted((r, -dc - r) for r, dc in carrier)
    return [sorted(carrier)] if mirror == sorted(carrier) else [sorted(carrier), mirror]


def board_templates(game: Hex) -> dict[str, tuple[list[list[int]], list[list[int]]]]:
    """For each player, its sides (the first, the second) and each cell, the carriers
    (bitsets of cells) of the edge templates (:data:`EDGE_TEMPLATES`) that fit on the
    board: the stone there reaches that side whenever the carrier's cells are empty."""
    rows, cols = game.rows, game.cols
    out: dict[str, tuple[list[list[int]], list[list[int]]]] = {}
    # each side as a map from (rows toward the edge, column offset) to a board cell: Black's
    # bottom edge is the templates' own frame, the top its half turn, White's right and
    # left the transposes (the swap of rows and columns keeps the neighbourhoods)
    frames = {
        ("B", 1): lambda r, c, dr, dc: (r + dr, c + dc),
        ("B", 0): lambda r, c, dr, dc: (r - dr, c - dc),
        ("W", 1): lambda r, c, dr, dc: (r + dc, c + dr),
        ("W", 0): lambda r, c, dr, dc: (r - dc, c - dr),
    }
    for player in ("B", "W"):
        per_side: list[list[list[int]]] = []
        for side in (0, 1):
            frame = frames[player, side]
            cells: list[list[int]] = [[] for _ in range(len(game))]
            for depth, shapes in EDGE_TEMPLATES.items():
                for i in range(len(game)):
                    r, c = divmod(i, cols)
                    # the stone must be ``depth`` rows from this side's edge row
                    er, ec = frame(r, c, depth, 0)
                    on_edge = er == (rows - 1 if side else 0) if player == "B" else ec == (cols - 1 if side else 0)
                    if not on_edge:
                        continue
                    for shape in shapes:
                        bits = 0
                        for dr, dc in shape:
                            rr, cc = frame(r, c, dr, dc)
                            if not (0 <= rr < rows and 0 <= cc < cols):
                                break
                            bits |= 1 << (rr * cols + cc)
                        else:
                            cells[i].append(bits)
            per_side.append(cells)
        out[player] = (per_side[0], per_side[1])
    return out

