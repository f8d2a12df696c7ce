"""The construction of a pattern database: breadth-first search over a pattern's abstract space.

A state of the abstract space is a placement of the pattern's tiles and the cell of
the blank; the other tiles are indistinguishable, so the blank moves freely among
the cells they hold and only a move of a pattern tile costs one. The blank's free
moves are taken all at once: a state is a placement and the *region* the blank
reaches without moving a pattern tile, and the search is a plain breadth-first
search over those states, one level per move of a pattern tile. A placement's
database value is the level at which it is first reached (the least over the
blank's regions). Cells are bits of a 64-bit word (boards of at most 64 cells,
``databases.MAX_CELLS``): a region is grown by shifts of its word (one step in the four
directions at once) until it stops growing, and the states seen are one bit per
(placement, cell) -- 2**(b(k+1)) bits, 32 MB for a 6-tile pattern of the 15-puzzle
-- where a placement's cells are one aligned run of ``2**b`` bits, so a whole region
is marked by one OR. Each level is a list of states. The numpy construction it replaces (0/1-cost
levels over every (placement, blank cell), a byte per pair) took 20-35 s and 268 MB
for that pattern; this one seconds (``benchmarks/RESULTS.md``).

A placement is numbered either sparsely (``sum(cell_i << (b * i))``, what a search
updates with one multiply-add) or, where that index would be too large
(:func:`ranked_index`: a 6-tile pattern of the 24-puzzle, 2**30 sparse entries), by its
*rank* among the ``n!/(n-k)!`` placements: tile ``i``'s digit is the number of free
cells below its own once tiles ``0..i-1`` are placed, read in the mixed radix
``n, n-1, ..., n-k+1`` (:func:`placement_rank`). The 24-puzzle's 6-tile tables then hold
127,512,000 bytes, and their builds mark 32 bits per placement (510 MB).

Compiled by numba (:mod:`pyasp_games.engines.compiled`), in slices between which
the deadline is read, so every phase of a build is interruptible; the arrays are
allocated before the first slice, where a memory cap fails as :class:`MemoryError`.

>>> table = build_table(2, 3, "blank-last", (1, 2))
>>> table[(0 << 3) | (1 << 3)]  # tiles 1 and 2 home (cells 0 and 1): no move needed
0
>>> placement_rank([0, 1], 6), placement_rank([5, 4], 6), placement_cells(29, 2, 6)
(0, 29, [5, 4])
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from math import perm

import numpy as np

from pyasp_games.domains.puzzle.model import cell_bits, goal_tiles, moves_of
from pyasp_games.engines.compiled import compile_kernels, kernel, run_sliced
from pyasp_games.engines.limits import Deadline

#: Sparse indices beyond this many entries are replaced by ranks (:func:`ranked_index`).
MAX_SPARSE_ENTRIES = 1 << 28


def ranked_index(cells: int, k: int) -> bool:
    """Whether a ``k``-tile pattern on ``cells`` cells is numbered by rank (its sparse
    index would take more than :data:`MAX_SPARSE_ENTRIES` entries).

    >>> ranked_index(16, 6), ranked_index(25, 5), ranked_index(25, 6)
    (False, False, True)
    """
    return 1 << (cell_bits(cells) * k) > MAX_SPARSE_ENTRIES


def table_entries(cells: int, k: int) -> int:
    """Entries of the table of a ``k``-tile pattern on ``cells`` cells (one byte each).

    >>> table_entries(16, 6), table_entries(25, 6)
    (16777216, 127512000)
    """
    return perm(cells, k) if ranked_index(cells, k) else 1 << (cell_bits(cells) * k)


def placement_rank(cells: Sequence[int], n: int) -> int:
    """The rank of the placement whose ``i``-th tile stands on ``cells[i]`` among the
    placements of ``len(cells)`` tiles on ``n`` cells (the inverse of :func:`placement_cells`)."""
    rank = 0
    for i, c in enumerate(cells):
        rank = rank * (n - i) + c - sum(1 for d in cells[:i] if d < c)
    return rank


def placement_cells(rank: int, k: int, n: int) -> list[int]:
    """The cells of the placement of ``k`` tiles on ``n`` cells with rank ``rank``."""
    digits = []
    for i in reversed(range(k)):
        rank, digit = divmod(rank, n - i)
        digits.append(digit)
    cells: list[int] = []
    for digit in reversed(digits):
        free = [c for c in range(n) if c not in cells]
        cells.append(free[digit])
    return cells


def build_table(
    rows: int,
    cols: int,
    goal: str,
    tiles: tuple[int, ...],
    progress: Callable[[str, int, int], None] | None = None,
    deadline: Deadline | None = None,
) -> bytes:
    """Breadth-first search over (placement, blank region), compiled; see the module doc.

    Every phase reads ``deadline`` (:class:`~pyasp_games.engines.limits.LimitReached`
    when it passes): the arrays are allocated first (a memory cap fails there, as
    :class:`MemoryError`), then each level is expanded in slices.
    """
    n = rows * cols
    assert n <= 64, "tile_partition refuses boards of more than databases.MAX_CELLS cells"
    compile_kernels(__name__)
    k = len(tiles)
    bits = cell_bits(n)
    home = {v: p for p, v in enumerate(goal_tiles(rows, cols, goal))}
    one = np.uint64(1)
    steps = np.zeros(4, np.uint64)  # the cells a move from each direction may start on
    nbr = np.zeros(n, np.uint64)  # nbr[c]: the cells next to c
    for c in range(n):
        q = c % cols
        steps[0] |= one << np.uint64(c) if q < cols - 1 else np.uint64(0)  # can move right
        steps[1] |= one << np.uint64(c) if q > 0 else np.uint64(0)  # can move left
        for t in moves_of(c, rows, cols).values():
            nbr[c] |= one << np.uint64(t)
    full = np.uint64((1 << n) - 1)
    ranked = ranked_index(n, k)
    entries = table_entries(n, k)
    table = np.full(entries, 255, np.uint8)
    seen = np.zeros(((entries << bits) + 63) >> 6, np.uint64)
    owner = np.zeros(n, np.int64)
    cells = np.array([home[t] for t in tiles], np.int64)
    placement = _encode(cells, k, bits, n, ranked)
    geometry = (np.int64(cols), steps, nbr, full)
    _start(placement, home[0], k, bits, n, ranked, cells, seen, table, *geometry)
    frontier = np.array([(placement << bits) | home[0]], np.int64)
    level = 0
    reached = np.ones(1, np.int64)  # placements with a value
    report = None
    if progress:
        def report(states: int) -> None:
            progress(f"level {level + 1}, {100 * int(reached[0]) / entries:.1f}% of placements",
                     states, 0)  # fmt: skip
    while frontier.size:
        if level >= 254:
            raise RuntimeError("pattern distance exceeds 254")  # cannot happen on boards we build
        arrays = (table, seen, k, bits, n, ranked, cells, owner, reached, *geometry)
        frontier = _next_level(frontier, level, arrays, deadline, report)
        level += 1
    return table.tobytes()


#: Wall seconds between two progress reports inside a level.
REPORT_SECONDS = 0.5


def _next_level(
    frontier: np.ndarray,
    level: int,
    arrays: tuple,
    deadline: Deadline | None,
    report: Callable[[int], None] | None = None,
) -> np.ndarray:
    """The states first reached at ``level + 1`` from ``frontier`` (at ``level``), expanded
    in slices; ``arrays`` are :func:`_expand`'s from ``table`` on. ``report(states)``
    is called about every :data:`REPORT_SECONDS` and at the end."""
    n = arrays[7].size  # the cells (owner)
    state = np.zeros(1, np.int64)
    out = {"states": np.empty(max(1 << 12, 2 * frontier.size), np.int64), "len": 0}
    last = [time.monotonic()]

    def step(budget: int) -> bool:
        out["len"] = _expand(frontier, out["states"], out["len"], state, budget, level, *arrays)
        if report is not None and (state[0] >= frontier.size or time.monotonic() - last[0] > REPORT_SECONDS):
            last[0] = time.monotonic()
            report(out["len"])
        if state[0] >= frontier.size:
            return True
        if out["len"] + 4 * n > out["states"].size:  # room for the next state's children
            grown = np.empty(2 * out["states"].size, np.int64)
            grown[: out["len"]] = out["states"][: out["len"]]
            out["states"] = grown
        return False

    run_sliced(step, deadline, first=1 << 12)
    return np.sort(out["states"][: out["len"]])


# -- the kernels ------------------------------------------------------------------------

_ZERO = np.uint64(0)
_ONE = np.uint64(1)


@kernel
def _region(start, free, cols, steps, full):
    """The cells (bits) the blank reaches from the cells ``start`` through the cells
    ``free``: grown by one step in the four directions at once until it stops."""
    region = start
    shift = np.uint64(cols)
    while True:
        grown = region | ((region & steps[0]) << _ONE) | ((region & steps[1]) >> _ONE)
        grown = (grown | (region << shift) | (region >> shift)) & free & full
        grown = grown | region
        if grown == region:
            return region
        region = grown


@kernel
def _mark(seen, placement, bits, region):
    """Mark (placement, c) seen for every cell c of ``region``: one aligned run of bits."""
    base = placement << bits
    seen[base >> 6] |= region << np.uint64(base & 63)


@kernel
def _decode(placement, k, bits, n, ranked, cells):
    """Put the cells of ``placement``'s tiles, in pattern order, in ``cells[:k]``."""
    if not ranked:
        mask = (1 << bits) - 1
        for i in range(k):
            cells[i] = (placement >> (bits * i)) & mask
        return
    rest = placement
    for i in range(k - 1, -1, -1):  # the digits, least significant last
        cells[i] = rest % (n - i)
        rest //= n - i
    used = 0
    for i in range(k):
        left = cells[i]  # the digit: which of the cells still free tile i takes
        c = 0
        while True:
            if (used >> c) & 1 == 0:
                if left == 0:
                    break
                left -= 1
            c += 1
        cells[i] = c
        used |= 1 << c


@kernel
def _encode(cells, k, bits, n, ranked):
    """The index of the placement whose tiles stand on ``cells[:k]``."""
    index = 0
    for i in range(k):
        c = cells[i]
        if ranked:
            below = 0
            for j in range(i):
                if cells[j] < c:
                    below += 1
            index = index * (n - i) + c - below
        else:
            index |= c << (bits * i)
    return index


@kernel
def _start(placement, blank, k, bits, n, ranked, cells, seen, table, cols, steps, nbr, full):
    """Mark the goal state: ``placement`` with the blank's region around ``blank``, distance 0."""
    _decode(placement, k, bits, n, ranked, cells)
    occupied = _ZERO
    for i in range(k):
        occupied |= _ONE << np.uint64(cells[i])
    region = _region(_ONE << np.uint64(blank), full & ~occupied, cols, steps, full)
    _mark(seen, placement, bits, region)
    table[placement] = 0


@kernel
def _expand(frontier, out, out_len, state, budget, level, table, seen, k, bits, n, ranked,
            cells, owner, reached, cols, steps, nbr, full):  # fmt: skip
    """Expand ``frontier[state[0]:]`` (states ``placement << bits | a blank cell``, all at
    distance ``level``) for at most ``budget`` states: every move of a pattern tile into
    the blank's region gives a state at ``level + 1``; one not seen before is appended to
    ``out`` (its whole region marked seen) and sets its placement's table entry if that
    had none (counted in ``reached[0]``). Stops early when ``out`` might not hold the
    next state's children. Returns the new length of ``out``."""
    mask = (1 << bits) - 1
    pos = state[0]
    done = 0
    while pos < frontier.size and done < budget and out_len + 4 * owner.size <= out.size:
        s = frontier[pos]
        pos += 1
        done += 1
        placement = s >> bits
        _decode(placement, k, bits, n, ranked, cells)
        occupied = _ZERO
        for i in range(k):
            cell = cells[i]
            occupied |= _ONE << np.uint64(cell)
            owner[cell] = i
        free = full & ~occupied
        region = _region(_ONE << np.uint64(s & mask), free, cols, steps, full)
        # the pattern tiles next to the region, each moved into each region cell next to it
        touching = occupied
        border = _ZERO
        left = region
        while left != _ZERO:
            low = left & (~left + _ONE)
            left ^= low
            c = _lowest(low)
            border |= nbr[c]
        touching &= border
        while touching != _ZERO:
            low = touching & (~touching + _ONE)
            touching ^= low
            t = _lowest(low)
            i = owner[t]
            into = nbr[t] & region
            while into != _ZERO:
                low2 = into & (~into + _ONE)
                into ^= low2
                r = _lowest(low2)
                cells[i] = r
                child = _encode(cells, k, bits, n, ranked)
                cells[i] = t
                key = (child << bits) | t
                if seen[key >> 6] & (_ONE << np.uint64(key & 63)):
                    continue
                child_free = (free | low) & ~low2  # the tile left t for r
                _mark(seen, child, bits, _region(low, child_free, cols, steps, full))
                out[out_len] = key
                out_len += 1
                if table[child] == 255:
                    table[child] = level + 1
                    reached[0] += 1
    state[0] = pos
    return out_len


@kernel
def _lowest(low):
    """The index of the single bit set in ``low``."""
    index = 0
    if low >= _ONE << np.uint64(32):
        index += 32
        low >>= np.uint64(32)
    if low >= _ONE << np.uint64(16):
        index += 16
        low >>= np.uint64(16)
    if low >= _ONE << np.uint64(8):
        index += 8
        low >>= np.uint64(8)
    if low >= _ONE << np.uint64(4):
        index += 4
        low >>= np.uint64(4)
    if low >= _ONE << np.uint64(2):
        index += 2
        low >>= np.uint64(2)
    if low >= _ONE << np.uint64(1):
        index += 1
    return index


def warm_up() -> None:
    """Compile (or load from numba's cache) the kernels with the argument types of a
    build (called by :func:`~pyasp_games.engines.compiled.compile_kernels`)."""
    build_table(2, 2, "blank-last", (1, 2))
    _encode(np.zeros(2, np.int64), 2, 2, 4, True)  # called alone too: its types
