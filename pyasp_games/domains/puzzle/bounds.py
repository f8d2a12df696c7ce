"""Admissible bounds from pattern databases for the planners' propagators.

An :class:`AdditiveBound` is one partition's databases (:mod:`pyasp_games.domains.puzzle.databases`)
looked up pattern by pattern; :class:`PartialPlacement` applies it to what a solver's
partial assignment fixes of a plan, so the ASP propagator and the SAT engine cut a
partial plan whose complete patterns need more moves than are left, the cut of IDA*
with pattern databases. :func:`pruning_bound` reads a ``--prune`` option.

>>> from pyasp_games.domains.puzzle.model import parse_board
>>> board = parse_board("1 2 3\\n4 5 6\\n0 7 8")
>>> bound = additive_bound(board, "4-4")
>>> bound.patterns, bound.value(board.tiles)
(((1, 2, 3, 4), (5, 6, 7, 8)), 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pyasp_games.domains.puzzle.databases import PatternDatabase, pattern_database, tile_partition
from pyasp_games.domains.puzzle.model import Board
from pyasp_games.engines.limits import Deadline
from pyasp_games.errors import InputError


@dataclass
class AdditiveBound:
    """The databases of one partition, looked up pattern by pattern.

    Propagators inside the ASP and SAT solvers use it to bound the moves left from a
    *partial* state: once every tile of a pattern has a known cell at step ``t``, that
    pattern alone needs at least :meth:`pattern_value` more moves, and the values of
    several complete patterns add up (their tiles' moves are disjoint).
    """

    patterns: tuple[tuple[int, ...], ...]
    databases: tuple[PatternDatabase, ...]

    def value(self, tiles: Sequence[int]) -> int:
        """The partition's sum on a whole board (row-major ``tiles``): admissible."""
        return sum(db.value(tiles) for db in self.databases)

    def pattern_value(self, index: int, cells: Sequence[int]) -> int:
        """Moves pattern ``index`` needs when its tiles (in pattern order) stand on ``cells``."""
        db = self.databases[index]
        return db.table[db.cells_index(cells)]


class PartialPlacement:
    """What a solver's partial assignment fixes of a plan: the cells known for each tile
    at each step, and the :class:`AdditiveBound` of the patterns placed completely.

    The ASP propagator and the SAT engine both keep one (per solver thread / along
    the trail): :meth:`assign` records that tile ``v`` stands on ``cell`` at step
    ``t`` and says whether a pattern just became complete there; :meth:`unassign`
    takes it back; :meth:`reason` names the placements that prove fewer than
    ``left`` moves cannot finish the plan from step ``t``. A tile counts as placed
    while exactly one cell is known for it (two known cells at one step is a
    conflict the solver finds by itself).

    >>> from pyasp_games.domains.puzzle.model import parse_board
    >>> bound = additive_bound(parse_board("1 2 3\\n4 5 6\\n7 8 0"), "4-4")
    >>> bound.patterns[0]
    (1, 2, 3, 4)
    >>> p = PartialPlacement(bound, tiles=9)
    >>> p.add_time(0)
    >>> [p.assign(0, v, cell) for v, cell in [(1, 1), (2, 0), (3, 2), (4, 3)]]  # 1, 2 swapped
    [False, False, False, True]
    >>> p.total[0] == bound.pattern_value(0, [1, 0, 2, 3]), p.exceeds(0, 1), p.reason(0, 1)
    (True, True, [(0, 1, 1), (0, 2, 0), (0, 3, 2), (0, 4, 3)])
    >>> p.unassign(0, 4, 3); p.total[0], p.exceeds(0, 1)
    (0, False)
    """

    def __init__(self, bound: AdditiveBound, tiles: int) -> None:
        self.bound = bound
        self.pattern_of = {v: g for g, vs in enumerate(bound.patterns) for v in vs}
        self.sizes = [len(vs) for vs in bound.patterns]
        self.tiles = tiles
        self.cells: list[list[list[int]]] = []
        self.known: list[list[int]] = []
        self.value: list[list[int | None]] = []
        self.total: list[int] = []

    def add_time(self, t: int) -> None:
        """Make steps up to ``t`` known."""
        while len(self.total) <= t:
            self.cells.append([[] for _ in range(self.tiles)])
            self.known.append([0] * len(self.sizes))
            self.value.append([None] * len(self.sizes))
            self.total.append(0)

    def assign(self, t: int, v: int, cell: int) -> bool:
        """Tile ``v`` on ``cell`` at step ``t``; true when it completes a pattern there."""
        cells = self.cells[t][v]
        cells.append(cell)
        if len(cells) != 1:
            return False
        g = self.pattern_of[v]
        self.known[t][g] += 1
        if self.known[t][g] != self.sizes[g]:
            return False
        value = self.bound.pattern_value(g, [self.cells[t][w][0] for w in self.bound.patterns[g]])
        self.value[t][g] = value
        self.total[t] += value
        return True

    def unassign(self, t: int, v: int, cell: int) -> None:
        """Take back :meth:`assign` ``(t, v, cell)``."""
        cells = self.cells[t][v]
        cells.remove(cell)
        if cells:
            return
        g = self.pattern_of[v]
        if self.value[t][g] is not None:
            self.total[t] -= self.value[t][g]
            self.value[t][g] = None
        self.known[t][g] -= 1

    def exceeds(self, t: int, left: int) -> bool:
        """Whether the complete patterns at step ``t`` need more than ``left`` moves."""
        return self.total[t] > left

    def reason(self, t: int, left: int) -> list[tuple[int, int, int]]:
        """The placements ``(t, v, cell)`` of the fewest complete patterns at ``t`` (largest
        values first) whose values exceed ``left``: a short nogood."""
        values = self.value[t]
        complete = sorted((g for g, x in enumerate(values) if x is not None), key=lambda g: -values[g])
        out: list[tuple[int, int, int]] = []
        total = 0
        for g in complete:
            total += values[g]
            out += [(t, w, self.cells[t][w][0]) for w in self.bound.patterns[g]]
            if total > left:
                break
        return out

    def copy(self) -> PartialPlacement:
        new = PartialPlacement.__new__(PartialPlacement)
        new.bound, new.pattern_of, new.sizes, new.tiles = (
            self.bound,
            self.pattern_of,
            self.sizes,
            self.tiles,
        )
        new.cells = [[list(c) for c in row] for row in self.cells]
        new.known = [list(row) for row in self.known]
        new.value = [list(row) for row in self.value]
        new.total = list(self.total)
        return new


def pruning_bound(board: Board, prune: str, deadline: Deadline | None = None) -> AdditiveBound:
    """The databases a ``--prune pdb[:PARTITION]`` option asks for (ASP and SAT cuts)."""
    kind, _, name = prune.partition(":")
    if kind != "pdb":
        raise InputError(f"unknown pruning {prune!r}: use none, pdb or pdb:PARTITION")
    return additive_bound(board, name or "default", deadline)


def additive_bound(
    board: Board, partition: str = "default", deadline: Deadline | None = None
) -> AdditiveBound:
    """The :class:`AdditiveBound` of ``partition`` for ``board``'s size and goal (built if needed)."""
    parts = tile_partition(board.rows, board.cols, board.goal, partition)
    dbs = tuple(
        pattern_database(board.rows, board.cols, board.goal, p, deadline=deadline) for p in parts
    )
    return AdditiveBound(parts, dbs)
