"""What routing asks of a graph beyond :class:`~pyasp_games.engines.graphs.Graph` (the one graph
type, read by :func:`~pyasp_games.engines.graphs.read_graph`): that it is connected, and, for
row-column routing, where each vertex sits when it is a full R x C grid.

A graph is a grid by its vertices' names (``r,c``, in any order) or, unnamed, by its
shape; its :class:`GridLayout` places every vertex in a row and a column.

>>> from pyasp_games.engines.graphs import graph_from_edges
>>> layout = grid_layout(connected(graph_from_edges([("a", "b"), ("b", "c")])))
>>> layout.rows, layout.cols, layout.cells    # a path is a 1 x 3 grid
(1, 3, (0, 1, 2))
>>> connected(graph_from_edges([("a", "b"), ("c", "d")], name="g.txt"))
Traceback (most recent call last):
    ...
pyasp_games.errors.InputError: g.txt: the graph is not connected ('c' cannot be reached from 'a')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from pyasp_games.engines.graphs import Graph
from pyasp_games.errors import InputError


def connected(g: Graph) -> Graph:
    """``g`` if it is connected (every routing graph must be), else an
    :class:`~pyasp_games.errors.InputError` naming a vertex that vertex 0 cannot reach."""
    reach = g.bfs(0)
    if -1 in reach:
        lost = g.names[reach.index(-1)]
        raise InputError(
            f"{g.name}: the graph is not connected ({lost!r} cannot be reached from {g.names[0]!r})"
        )
    return g


@dataclass(frozen=True)
class GridLayout:
    """Where each vertex sits in a full R x C grid: ``cells[r * cols + c]`` is a vertex."""

    rows: int
    cols: int
    cells: tuple[int, ...]

    def cell(self, vertex: int) -> tuple[int, int]:
        """The ``(row, column)`` of ``vertex``."""
        i = self.position[vertex]
        return divmod(i, self.cols)

    @cached_property
    def position(self) -> dict[int, int]:
        return {v: i for i, v in enumerate(self.cells)}


def grid_layout(g: Graph) -> GridLayout | None:
    """The layout of ``g`` as a full R x C grid: by its ``r,c`` names where they name
    the cells of one, else by its shape; ``None`` if it is no grid (``g`` connected)."""
    layout = _layout_by_names(g)
    return layout if layout is not None else _layout_by_shape(g)


def _layout_by_names(g: Graph) -> GridLayout | None:
    cells = []
    for nm in g.names:
        m = re.fullmatch(r"(\d+),(\d+)", nm)
        if not m:
            return None
        cells.append((int(m[1]), int(m[2])))
    rows, cols = max(r for r, _ in cells) + 1, max(c for _, c in cells) + 1
    if len(set(cells)) != len(cells) or rows * cols != len(cells):  # "00,1" is "0,1" again
        return None  # a cell named twice, or cells missing
    where = {cell: v for v, cell in enumerate(cells)}
    layout = GridLayout(rows, cols, tuple(where[r, c] for r in range(rows) for c in range(cols)))
    return layout if _is_layout(g, layout) else None


def _layout_by_shape(g: Graph) -> GridLayout | None:
    """Coordinates from the distances to two corners: from the corner (0, 0) a cell
    (r, c) is r + c away, from the corner (0, C-1) r + C-1-c; then every edge checked."""
    n = len(g)
    if len(g.edges) != n - 1 or any(len(a) > 2 for a in g.adj):
        corners = [v for v in range(n) if len(g.adj[v]) == 2]
        if len(corners) != 4:
            return None
        d0 = g.bfs(corners[0])
        far = max(corners, key=lambda v: d0[v])  # the opposite corner (R-1, C-1)
        c1 = next(v for v in corners[1:] if v != far)
        cols = d0[c1] + 1
        d1 = g.bfs(c1)
        if n % cols:
            return None
        rows = n // cols
        cells: list[int | None] = [None] * n
        for v in range(n):
            twice_r, twice_c = d0[v] + d1[v] - (cols - 1), d0[v] - d1[v] + cols - 1
            if twice_r % 2 or twice_c % 2 or not (0 <= twice_r < 2 * rows and 0 <= twice_c < 2 * cols):
                return None
            i = twice_r // 2 * cols + twice_c // 2
            if cells[i] is not None:
                return None
            cells[i] = v
        layout = GridLayout(rows, cols, tuple(v for v in cells if v is not None))
        return layout if len(layout.cells) == n and _is_layout(g, layout) else None
    # a path (or one vertex): a 1 x n grid, from one end to the other
    start = next(v for v in range(n) if len(g.adj[v]) <= 1)
    order = [start]
    while len(order) < n:
        order.append(next(w for w in g.adj[order[-1]] if len(order) < 2 or w != order[-2]))
    return GridLayout(1, n, tuple(order))


def _is_layout(g: Graph, layout: GridLayout) -> bool:
    rows, cols, at = layout.rows, layout.cols, layout.cells
    expect = {tuple(sorted((at[r * cols + c], at[r * cols + c + 1])))
              for r in range(rows) for c in range(cols - 1)}
    expect |= {tuple(sorted((at[r * cols + c], at[(r + 1) * cols + c])))
               for r in range(rows - 1) for c in range(cols)}
    return expect == set(g.edges)
