"""Additive pattern databases for sliding puzzles (Korf and Felner 2002).

The tiles are partitioned into disjoint *patterns*. For one pattern, the database
holds, for every placement of its tiles, the least number of moves **of those
tiles** that brings them home, the other tiles being indistinguishable and their
moves free. Moves of different patterns' tiles are disjoint, so the values of the
patterns of a partition add up to an admissible heuristic; it is consistent, and
each move changes exactly one pattern's value by at most one.

A placement is indexed sparsely as ``sum(pos_i << (b * i))`` (``pos_i`` the cell of
the pattern's i-th tile, ``b`` bits enough for a cell number), so a search updates the
index of the moved tile's pattern with one multiply-add; the result takes 2**(bk) bytes
(16.7 MB for a 6-tile pattern of the 15-puzzle). Where that would exceed 2**28 bytes
(a 6-tile pattern of the 24-puzzle: 2**30), a placement is indexed by its rank among
the n!/(n-k)! placements instead (127,512,000 bytes for that pattern). The database is
computed by a breadth-first search over the pattern's abstract space
(:mod:`pyasp_games.domains.puzzle.abstract_search`, compiled).

Databases are cached under ``$XDG_CACHE_HOME/pyasp-games/pdb`` (default
``~/.cache``), keyed by board size, goal, pattern and format version.

>>> db = pattern_database(2, 3, "blank-last", (1, 2), cache=False)
>>> db.value([2, 1, 3, 4, 5, 0])  # 1 and 2 swapped: the blank cannot reach the corner freely
6
"""

from __future__ import annotations

import hashlib
import json
import mmap
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from math import perm
from pathlib import Path

from pyasp_games.domains.puzzle.abstract_search import (
    placement_rank,
    ranked_index,
    table_entries,
)
from pyasp_games.domains.puzzle.model import cell_bits, goal_tiles
from pyasp_games.engines.limits import Deadline
from pyasp_games.errors import InputError

#: The most states (bytes of marks) the default partition of a board may take to build
#: (the 15-puzzle's 6-6-3 takes 5.4e8, an 8 x 8 board 1.7e10): a 100 x 100 board's 9,999
#: databases would take days.
MAX_BUILD_MARKS = 1 << 35

#: The most placements a pattern of the ``quick`` partition has (it builds in well under
#: a second), and the most bits of its sparse index (its table: 2**24 bytes at most):
#: what a cross-check builds within a user's time limit.
QUICK_PLACEMENTS = 10**6
QUICK_INDEX_BITS = 24

#: The largest board with pattern databases (the build's cells are the bits of a word).
MAX_CELLS = 64

#: Bump when the file format or the construction changes: stale files are rebuilt.
FORMAT_VERSION = 1

#: Partitions of the 15-puzzle's tiles for each goal convention (tile sets by home cell).
#: 6-6-3 groups cells as in Korf and Felner (2002): the two 6-tile blocks are the left
#: and the middle of the board, the 3 tiles the remaining corner region.
_PARTITIONS_4X4_CELLS = {
    "6-6-3": ((1, 4, 5, 8, 9, 12), (2, 3, 6, 7, 10, 11), (13, 14, 15)),
    "5-5-5": ((1, 2, 3, 5, 6), (4, 7, 8, 11, 12), (9, 10, 13, 14, 15)),
    "4-4-4-3": ((1, 2, 5, 6), (3, 4, 7, 8), (9, 10, 13, 14), (11, 12, 15)),
}
#: The named partitions of the 4 x 4 board (``default`` is 6-6-3).
PARTITIONS_4X4 = tuple(_PARTITIONS_4X4_CELLS)

#: The 24-puzzle's 6-6-6-6 partition of Korf and Felner (2002), by home cells of the
#: blank-first goal: the block around the blank's corner (cells 1, 2, 5, 6, 7, 12) and
#: three 2 x 3 blocks, one in each other corner. The three blocks are images of one
#: another under symmetries of the board and share one table (:func:`shared_table`);
#: the reflection in the main diagonal is another partition, looked up in the same tables.
_PARTITIONS_5X5_CELLS = {
    "6-6-6-6": ((1, 2, 5, 6, 7, 12), (3, 4, 8, 9, 13, 14), (10, 11, 15, 16, 20, 21),
                (17, 18, 19, 22, 23, 24)),
}  # fmt: skip
#: The named partitions of the 5 x 5 board (``default`` is 6-6-6-6).
PARTITIONS_5X5 = tuple(_PARTITIONS_5X5_CELLS)
#: The named partitions by board size.
_NAMED = {(4, 4): _PARTITIONS_4X4_CELLS, (5, 5): _PARTITIONS_5X5_CELLS}


#: Databases already read in this process (a set of boards reuses them).
_LOADED: dict[Path, PatternDatabase] = {}


def cache_dir() -> Path:
    """Where databases are stored (created on demand)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pyasp-games" / "pdb"


def tile_partition(
    rows: int, cols: int, goal: str, name: str = "default"
) -> tuple[tuple[int, ...], ...]:
    """The tiles split into patterns, as tile numbers under ``goal``.

    4 x 4 boards have the named partitions ``6-6-3`` (the default), ``5-5-5`` and
    ``4-4-4-3`` (weaker, but built in a second), 5 x 5 boards ``6-6-6-6`` (the default:
    two tables of 127,512,000 bytes, a few minutes of CPU each to build once),
    stated by home cells for the blank-first goal and mirrored through the centre for
    blank-last, so the cell groups keep their shape relative to the blank's home
    corner. Other boards split their home cells in row-major order into groups of
    at most six tiles (fewer on boards of more than 16 cells, to bound the memory).
    On any board a name of group sizes such as ``4-4-3`` (summing to the number of
    tiles) splits the home cells in row-major order into groups of those sizes: small
    groups build in a moment, which tests and the solvers' propagators use; and
    ``quick`` is the partition whose patterns have at most :data:`QUICK_PLACEMENTS`
    placements and tables of at most 2 ** :data:`QUICK_INDEX_BITS` bytes each
    (``5-5-5`` on 4 x 4, row-major groups elsewhere), built in well under a second. Boards of more than :data:`MAX_CELLS` cells have none.

    >>> tile_partition(4, 4, "blank-first", "quick")
    ((1, 2, 3, 5, 6), (4, 7, 8, 11, 12), (9, 10, 13, 14, 15))
    >>> tile_partition(5, 5, "blank-last", "quick")[0], tile_partition(3, 3, "blank-last", "quick")
    ((1, 2, 3, 4), ((1, 2, 3, 4, 5, 6), (7, 8)))
    >>> tile_partition(5, 5, "blank-first")[0], tile_partition(5, 5, "blank-last", "5-5-5-5-4")[0]
    ((1, 2, 5, 6, 7, 12), (1, 2, 3, 4, 5))
    """
    target = goal_tiles(rows, cols, goal)
    n = rows * cols
    if n > MAX_CELLS:
        raise InputError(
            f"a {rows}x{cols} board has {n:,} cells, beyond this tool's limit of {MAX_CELLS} "
            "cells for pattern databases"
        )
    if name == "quick":
        if (rows, cols) == (4, 4):
            name = "5-5-5"
        else:
            size = 1
            while (
                size < n - 1
                and perm(n, size + 1) <= QUICK_PLACEMENTS
                and cell_bits(n) * (size + 1) <= QUICK_INDEX_BITS
            ):
                size += 1
            name = "-".join(str(min(size, n - 1 - i)) for i in range(0, n - 1, size))
    named = _NAMED.get((rows, cols), {})
    if name in ("default", *named) and named:
        cells = named[next(iter(named)) if name == "default" else name]
        if goal == "blank-last":
            cells = tuple(tuple(n - 1 - c for c in group) for group in cells)
        return tuple(tuple(sorted(target[c] for c in group)) for group in cells)
    tiles = [v for v in target if v]
    if name != "default":
        sizes = name.split("-")
        if not all(k.isdigit() and int(k) > 0 for k in sizes) or sum(map(int, sizes)) != n - 1:
            raise InputError(
                f"unknown partition {name!r} for a {rows}x{cols} board (4x4: {', '.join(PARTITIONS_4X4)}; "
                f"5x5: {', '.join(PARTITIONS_5X5)}; "
                f"any board: default, quick, or group sizes adding up to {n - 1} such as {n - 1 - (n - 1) // 2}-{(n - 1) // 2})"
            )
        starts = [0]
        for k in sizes:
            starts.append(starts[-1] + int(k))
        return tuple(tuple(sorted(tiles[a:b])) for a, b in pairwise(starts))
    size = max(1, 30 // cell_bits(n) - 1)  # 2**(bits*(k+1)) marks at most 2**30 bytes
    size = min(size, 6)
    groups = tuple(tuple(sorted(tiles[i : i + size])) for i in range(0, len(tiles), size))
    work = sum(1 << (cell_bits(n) * (len(g) + 1)) for g in groups)
    if work > MAX_BUILD_MARKS:
        raise InputError(
            f"the pattern databases of a {rows}x{cols} board mark {work:,} states to build, "
            f"beyond this tool's limit of {MAX_BUILD_MARKS:,}"
        )
    return groups


@dataclass
class PatternDatabase:
    """One pattern's database: ``table[index(placement)]`` = moves of the pattern's tiles.

    ``tiles`` are in the table's order. A pattern that is the image of another under a
    symmetry of the board (:func:`shared_table`) reads that pattern's table: its cells
    are first moved by ``cell_map``."""

    rows: int
    cols: int
    goal: str
    tiles: tuple[int, ...]
    table: bytes
    cell_map: tuple[int, ...] | None = None

    @property
    def bits(self) -> int:
        return cell_bits(self.rows * self.cols)

    @property
    def ranked(self) -> bool:
        """Whether placements are indexed by rank (else sparsely)."""
        return ranked_index(self.rows * self.cols, len(self.tiles))

    def cells_index(self, cells: Sequence[int]) -> int:
        """The index of the placement whose ``i``-th tile (in pattern order) is on ``cells[i]``."""
        if self.ranked:
            return placement_rank(cells, self.rows * self.cols)
        return sum(cell << (self.bits * i) for i, cell in enumerate(cells))

    def index(self, tiles: Sequence[int]) -> int:
        """The index of the pattern's placement in a row-major board."""
        where = {v: p for p, v in enumerate(tiles)}
        cells = [where[t] for t in self.tiles]
        if self.cell_map is not None:
            cells = [self.cell_map[c] for c in cells]
        return self.cells_index(cells)

    def value(self, tiles: Sequence[int]) -> int:
        return self.table[self.index(tiles)]


def board_symmetries(rows: int, cols: int) -> list[tuple[int, ...]]:
    """The cell maps of the board's symmetries (8 on a square board, else 4), identity first.

    >>> board_symmetries(2, 3)[1]  # the mirror image left to right
    (2, 1, 0, 5, 4, 3)
    """
    maps = []
    for transpose in (False, True) if rows == cols else (False,):
        for flip_rows in (False, True):
            for flip_cols in (False, True):
                cell_map = []
                for c in range(rows * cols):
                    r, q = divmod(c, cols)
                    if transpose:
                        r, q = q, r
                    cell_map.append((rows - 1 - r if flip_rows else r) * cols + (cols - 1 - q if flip_cols else q))
                maps.append(tuple(cell_map))
    return maps


def shared_table(
    rows: int, cols: int, goal: str, tiles: Sequence[int]
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...] | None]:
    """``(base, order, cell_map)``: pattern ``tiles`` reads the table of pattern ``base``,
    its tiles taken in ``order`` (``order[i]`` stands for ``base[i]``) and their cells moved
    by ``cell_map`` (``None``: its own table, ``order`` sorted).

    A symmetry of the board that maps home cells to home cells and keeps the blank's
    home free maps the abstract space of one pattern onto another's, so both have one
    table -- provided the cells a pattern leaves free at the goal are connected, since
    the blank's home decides the goal region otherwise. Only patterns indexed by rank
    share (the 24-puzzle's three 2 x 3 blocks: one table of 127,512,000 bytes for the
    three); small tables are built as before.

    >>> shared_table(5, 5, "blank-first", (13, 14, 18, 19, 23, 24))[:2]
    ((2, 3, 4, 7, 8, 9), (14, 19, 24, 13, 18, 23))
    """
    tiles = tuple(sorted(tiles))
    n = rows * cols
    if not ranked_index(n, len(tiles)):
        return tiles, tiles, None
    target = goal_tiles(rows, cols, goal)
    home = {v: c for c, v in enumerate(target)}
    free = set(range(n)) - {home[t] for t in tiles}
    reached, stack = set(), [next(iter(free))]
    while stack:
        c = stack.pop()
        if c in reached or c not in free:
            continue
        reached.add(c)
        r, q = divmod(c, cols)
        stack.extend(r2 * cols + q2 for r2, q2 in ((r - 1, q), (r + 1, q), (r, q - 1), (r, q + 1))
                     if 0 <= r2 < rows and 0 <= q2 < cols)  # fmt: skip
    if reached != free:
        return tiles, tiles, None
    best = None
    for g in board_symmetries(rows, cols):
        image = tuple(sorted(target[g[home[t]]] for t in tiles))
        if 0 not in image and (best is None or image < best[0]):
            best = (image, g)
    base, g = best  # type: ignore[misc]  # the identity always qualifies
    if base == tiles:
        return tiles, tiles, None
    back = {g[c]: c for c in range(n)}
    return base, tuple(target[back[home[b]]] for b in base), g


def _key(rows: int, cols: int, goal: str, tiles: tuple[int, ...]) -> str:
    scheme = ["rank"] if ranked_index(rows * cols, len(tiles)) else []  # sparse: as before
    text = json.dumps([FORMAT_VERSION, rows, cols, goal, list(tiles), *scheme])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def database_path(rows: int, cols: int, goal: str, tiles: tuple[int, ...]) -> Path:
    name = f"{rows}x{cols}-{goal}-{'_'.join(map(str, tiles))}-{_key(rows, cols, goal, tiles)}.bin"
    return cache_dir() / name


def _mapped(path: Path) -> bytes:
    """The file's bytes, mapped read-only rather than read: the pages are the operating
    system's file cache, shared by every process that searches with the table and not
    counted twice when a search copies its tables into one array (a 6-tile table of the
    24-puzzle is 127,512,000 bytes)."""
    with path.open("rb") as f:
        # a view compares equal to the bytes it holds, as the table read whole did
        return memoryview(mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ))  # type: ignore[return-value]


def pattern_database(
    rows: int,
    cols: int,
    goal: str,
    tiles: Sequence[int],
    cache: bool = True,
    progress: Callable[[str, int, int], None] | None = None,
    deadline: Deadline | None = None,
) -> PatternDatabase:
    """The database of pattern ``tiles``: read from the cache, else built (and saved).

    A pattern that shares another's table (:func:`shared_table`) is a view of that
    table. Building polls ``deadline`` between chunks of at most 262,144 states and
    raises :class:`~pyasp_games.engines.limits.LimitReached` when it passes; nothing
    is saved then.
    """
    tiles = tuple(sorted(tiles))
    n = rows * cols
    if not tiles or any(t <= 0 or t >= n for t in tiles) or len(set(tiles)) != len(tiles):
        raise InputError(f"a pattern is a set of tiles from 1 to {n - 1}, got {list(tiles)}")
    base, order, cell_map = shared_table(rows, cols, goal, tiles)
    if cell_map is not None:
        table = pattern_database(rows, cols, goal, base, cache, progress, deadline).table
        return PatternDatabase(rows, cols, goal, order, table, cell_map)
    size = table_entries(n, len(tiles))
    if size << cell_bits(n) > 2**33:
        raise InputError(
            f"a {len(tiles)}-tile pattern on {n} cells is too large for this construction"
        )
    path = database_path(rows, cols, goal, tiles)
    # a finished table is saved at once: a later build stopped by a limit leaves it cached
    if cache and path in _LOADED:
        return _LOADED[path]
    if cache and path.is_file() and path.stat().st_size == size:
        _LOADED[path] = PatternDatabase(rows, cols, goal, tiles, _mapped(path))
        return _LOADED[path]
    from pyasp_games.domains.puzzle.abstract_search import build_table

    table = build_table(rows, cols, goal, tiles, progress, deadline)
    db = PatternDatabase(rows, cols, goal, tiles, table)
    if cache:
        path.parent.mkdir(parents=True, exist_ok=True)
        # a partial file of this process's own: two processes building one table at once
        # (a campaign's parallel runs) must not write into one file
        partial = path.with_name(f"{path.stem}.{os.getpid()}.part")
        partial.write_bytes(table)
        partial.replace(path)  # atomic: a half-written file is never taken for a database
        _LOADED[path] = db
    return db


def build_databases(
    rows: int,
    cols: int,
    goal: str = "blank-last",
    partition: str = "default",
    progress: Callable[[str], Callable[[str, int, int], None]] | None = None,
    deadline: Deadline | None = None,
) -> None:
    """Build (or read from the cache) the databases of ``partition`` on ``rows x cols``.

    ``progress(label)`` may return a callback for each build's progress reports. Each
    table is saved as soon as it is built, so one finished before ``deadline`` stops a
    later build is kept.
    """
    for tiles in tile_partition(rows, cols, goal, partition):
        label = f"pattern database {rows}x{cols} {goal} tiles {list(tiles)}"
        pattern_database(rows, cols, goal, tiles, progress=progress(label) if progress else None,
                         deadline=deadline)  # fmt: skip


@dataclass(frozen=True)
class CachedDatabase:
    """A database file in the cache, as :func:`cached_databases` lists it."""

    path: Path
    rows: int
    cols: int
    goal: str
    tiles: tuple[int, ...]
    bytes: int
    stale: bool


def cached_databases() -> list[CachedDatabase]:
    """The database files in the cache; ``stale`` ones were built by another format version."""
    out = []
    folder = cache_dir()
    if not folder.is_dir():
        return out
    for path in sorted(folder.glob("*.bin")):
        try:
            size, goal_a, goal_b, tiles, key = path.stem.split("-")
            rows, cols = map(int, size.split("x"))
            goal = f"{goal_a}-{goal_b}"
            pattern = tuple(int(t) for t in tiles.split("_"))
        except ValueError:
            continue  # not one of ours
        stale = key != _key(rows, cols, goal, pattern)
        out.append(CachedDatabase(path, rows, cols, goal, pattern, path.stat().st_size, stale))
    return out


def clear_cache(stale_only: bool = False) -> list[Path]:
    """Delete cached databases (only the stale ones if asked); returns what was deleted."""
    removed = []
    for db in cached_databases():
        if db.stale or not stale_only:
            db.path.unlink(missing_ok=True)
            _LOADED.pop(db.path, None)
            removed.append(db.path)
    for partial in cache_dir().glob("*.part") if cache_dir().is_dir() else ():
        partial.unlink(missing_ok=True)
    return removed

