"""IDA* with additive pattern databases, compiled: the ``pdb`` backend's search.

The heuristic is the sum of a partition's pattern databases
(:mod:`pyasp_games.domains.puzzle.databases`) and, on square boards, the maximum of that
sum and the same sum for the board reflected in its main diagonal (the goal is
symmetric, so both are admissible; Korf and Felner 2002). A placement's sparse index is
``sum(cell_i << (bits * i))``, so a move updates the moved tile's pattern index
with one multiply-add, and the child's ``f`` is tested before it is entered. A pattern
whose table is indexed by rank (the 24-puzzle's 6-tile patterns,
:func:`~pyasp_games.domains.puzzle.abstract_search.ranked_index`) has the rank of its
moved placement recomputed from the cells of its tiles, which the search keeps
(``where``): fifteen comparisons for six tiles.

**Dual lookups** (``lookups="dual"``; Felner, Zahavi, Schaeffer and Holte 2005). Number
the cells so that the goal puts the tile whose home is cell ``u`` on ``u``, and write a
board as the permutation ``a`` (cell -> home of the tile on it; the goal is the identity).
A move of the blank from ``b`` to ``t`` is the position swap ``a o (b t)``. If moves with
blank cells ``b0, b1, ..., bL = z`` (``z`` the blank's home) solve ``a``, then
``a = (bL-1 bL) o ... o (b0 b1)`` and ``a^-1 = (b0 b1) o ... o (bL-1 bL)``. The inverse
``a^-1`` is **not** a board at the same distance in general: its blank is on
``a(z)``, the home of the tile on the blank's home, and the reversed moves are not moves
of it unless ``b0 = z`` (the naive "dual" reading, the tiles that stand on a pattern's
cells, exceeds the optimum on 17,105 of the 181,440 eight-puzzle boards, by up to 13).
The legal dual: let ``Y`` be the goal after the blank walked from ``z`` to ``b0`` along a
fixed path of ``m`` moves (:func:`blank_path`) and ``X = Y o a^-1``. ``X`` has its blank
on ``z`` (``Y`` has it on ``b0``, ``a^-1`` maps ``z`` to ``b0``), and the reversed moves
``(bL-1 bL), ..., (b0 b1)`` are legal from ``X`` (its blank walks ``bL = z, bL-1, ...,
b0``) and end on ``X o a = Y``. So ``L >= dist(X, Y)``. Each move moves one pattern's tile,
and the abstract distance of a pattern's placement to the goal is at most its distance to
``Y``'s placement plus the moves of its tiles on the blank's path (``Y``'s displaced
tiles, one move each): so ``L >= sum over patterns of max(0, table(X) - path moves)``,
admissible (checked on every eight-puzzle board, both goals; the tests check plans
against A*). Tile ``v`` of ``X`` stands on the home of the tile that stands, on the board,
on ``v``'s cell in ``Y``. The same holds for ``X`` and ``Y`` reflected in the diagonal.

``X`` does not change when the blank moves along its path tree (the move that extends
or shortens the blank's path: ``Y`` and ``a`` take the same swap), so such a child
reads no table: it keeps its parent's table values, only the path corrections change.
Dual lookups are lazy: evaluated only for a child the direct and the reflected lookups
do not cut, and the dual's reflection only when the dual does not cut. The heuristic is
inconsistent; ``lookups="dual-bpmx"`` adds bidirectional pathmax (Felner et al. 2005):
a child whose value ``h`` puts its parent's ``h - 1`` past the bound cuts the parent's
remaining children.

The depth-first search keeps its whole path in arrays (the blank's cells, the next
direction to try at each depth, the heuristic values, what each move changed), so
it runs in slices of at most ``budget`` expansions and resumes where it stopped:
:func:`~pyasp_games.engines.compiled.run_sliced` reads the deadline between them.
Between two slices :meth:`PatternSearch.checkpoint` returns that state as plain data and
:meth:`PatternSearch.restore` replays it from the board in another process, so a search
of hours can stop and go on (:mod:`~pyasp_games.domains.puzzle.checkpoints`), expanding
exactly the nodes of an uninterrupted one.

**Duplicate-path pruning**: besides the move that undoes the last one, a child whose
path ends with a redundant move string of up to ``pruning`` moves is not entered; the
automaton of those strings (:mod:`~pyasp_games.domains.puzzle.redundant_moves`, where
the argument that the search stays optimal is) is carried along the path, one table
read per child.
Compiled by numba (:mod:`pyasp_games.engines.compiled`): the pure-Python search
expanded 0.9-1.2 million nodes per second, this one tens of millions
(``benchmarks/RESULTS.md``).

>>> import numpy as np
>>> from pyasp_games.domains.puzzle.model import parse_board
>>> from pyasp_games.domains.puzzle.databases import pattern_database, tile_partition
>>> board = parse_board("4 1 2\\n0 5 3\\n7 8 6")
>>> parts = tile_partition(3, 3, board.goal, "4-4")
>>> search = PatternSearch(board, parts, [pattern_database(3, 3, board.goal, p, cache=False).table for p in parts])
>>> search.h0, search.run(None), search.plan()
(5, True, 'URRDD')
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import Any

import numpy as np

from pyasp_games.domains.puzzle.abstract_search import placement_rank, ranked_index
from pyasp_games.domains.puzzle.model import DIRECTIONS, Board, cell_bits, moves_of
from pyasp_games.domains.puzzle.redundant_moves import DEFAULT_LENGTH, redundant_move_automaton
from pyasp_games.engines.compiled import compile_kernels, kernel, run_sliced
from pyasp_games.engines.limits import Deadline, LimitReached

# positions in the state array
_DEPTH, _BOUND, _NEXT_BOUND, _NODES, _PHASE = range(5)
_SEARCHING, _FOUND, _EXHAUSTED = 0, 1, 2
_INFINITY = 1 << 30


@kernel
def _rank(where, members, cell_maps, p, n, cells):
    """The rank of pattern ``p``'s placement in its table: its tiles ``members[p, :]``
    (-1 ends them) stand on ``where[tile]``, moved by ``cell_maps[p]`` (the mirror image
    for a reflected lookup, whose ``members`` are the mirrored tiles, then the symmetry
    to the table's own pattern). ``cells`` is scratch space."""
    k = 0
    while k < members.shape[1] and members[p, k] >= 0:
        cells[k] = cell_maps[p, where[members[p, k]]]
        k += 1
    rank = 0
    for i in range(k):
        c = cells[i]
        below = 0
        for j in range(i):
            if cells[j] < c:
                below += 1
        rank = rank * (n - i) + c - below
    return rank


@kernel
def _dual_sum(tiles, blank, dsrc, home, dwhere, members, cell_maps, ranked, bits, table,
              offset, corr, n, cells, raw, row, first):  # fmt: skip
    """The dual lookup (module docstring): the sum over the patterns of the table read at
    the cells of the dual state's tiles, each less the moves of its tiles on the blank's
    path (``corr[blank, p]``, never below zero). ``members``, ``cell_maps`` and ``corr``
    are the direct ones (``first`` 0: the dual state's cells ``dwhere[row]`` are computed
    first) or the reflected ones; the table values go to ``raw[row, first + p]``. Below
    the root, a pattern whose tiles stand where they stood in the parent's dual state
    (``dwhere[row - 1]``) keeps the parent's value. ``cells`` is scratch."""
    here = dwhere[row]
    if first == 0:
        for v in range(1, n):
            here[v] = home[tiles[dsrc[blank, v]]]
    for p in range(offset.size):
        if row > 0:
            k = 0
            while k < members.shape[1] and members[p, k] >= 0:
                if here[members[p, k]] != dwhere[row - 1, members[p, k]]:
                    break
                k += 1
            if k == members.shape[1] or members[p, k] < 0:  # no tile of p moved
                raw[row, first + p] = raw[row - 1, first + p]
                continue
        if ranked[p]:
            index = _rank(here, members, cell_maps, p, n, cells)
        else:
            index = 0
            k = 0
            while k < members.shape[1] and members[p, k] >= 0:
                index += cell_maps[p, here[members[p, k]]] << (bits * k)
                k += 1
        raw[row, first + p] = table[offset[p] + index]
    return _clipped(raw, row, first, corr, blank)


@kernel
def _clipped(raw, row, first, corr, blank):
    """The dual lookup's value from the table values ``raw[row, first:]`` of its patterns,
    the blank on ``blank``: each less its pattern's moves on the blank's path."""
    total = 0
    for p in range(corr.shape[1]):
        value = raw[row, first + p] - corr[blank, p]
        if value > 0:
            total += value
    return total


@kernel
def _idastar(tiles, idx, ridx, table, offset, pat_of, weight, rpat, rweight, sigma, nbr,
             ranked, where, members, rmembers, cell_maps, rcell_maps, cells, blank, next_dir,
             h_dir, h_ref, moved,
             old_idx, old_ridx, dsrc, home, dwhere, bits, dcorr, rcorr, tree, raw, lookups,
             fsm, fsm_state, state, budget):  # fmt: skip
    """One slice of the depth-first iteration under ``state[_BOUND]``: at most ``budget``
    expansions. Depth ``d`` of the path has the blank on ``blank[d]`` and the
    heuristics ``h_dir[d]``, ``h_ref[d]``; ``next_dir[d]`` is the next direction to
    try there; the move into depth ``d`` moved tile ``moved[d]`` and changed its
    patterns' indices from ``old_idx[d]``, ``old_ridx[d]``. Sets ``state[_PHASE]`` to
    ``_FOUND`` (the path is ``blank[:depth + 1]``) or ``_EXHAUSTED`` (the least f
    beyond the bound is ``state[_NEXT_BOUND]``). Patterns with ``ranked[p]`` are indexed
    by rank, from the cells ``where`` of the tiles. ``fsm`` is the automaton of redundant
    move strings (:mod:`~pyasp_games.domains.puzzle.redundant_moves`; direction ``k`` of
    ``nbr`` is the ``k``-th of ``U D L R``), in state ``fsm_state[d]`` at depth ``d``."""
    n = tiles.size
    d = state[_DEPTH]
    bound = state[_BOUND]
    least = state[_NEXT_BOUND]
    nodes = state[_NODES]
    steps = 0
    while True:
        if next_dir[d] == 4:  # every move from depth d tried: back up one move
            if d == 0:
                state[_PHASE] = _EXHAUSTED
                break
            t = blank[d]
            b = blank[d - 1]
            v = moved[d]
            tiles[b] = 0
            tiles[t] = v
            where[v] = t
            idx[pat_of[v]] = old_idx[d]
            ridx[rpat[v]] = old_ridx[d]
            d -= 1
            continue
        b = blank[d]
        t = nbr[4 * b + next_dir[d]]
        next_dir[d] += 1
        if t < 0 or (d > 0 and t == blank[d - 1]):  # off the board, or undoing the last move
            continue
        follow = fsm[fsm_state[d], next_dir[d] - 1]
        if follow < 0:  # the path ends with a redundant move string: an equivalent is searched
            continue
        v = tiles[t]
        p = pat_of[v]
        old = idx[p]
        rp = rpat[v]
        rold = ridx[rp]
        where[v] = b
        new = _rank(where, members, cell_maps, p, n, cells) if ranked[p] else old + (b - t) * weight[v]
        hd = h_dir[d] + np.int64(table[offset[p] + new]) - np.int64(table[offset[p] + old])
        if d + 1 + hd > bound:  # cut by the direct lookup alone: the reflected one is not needed
            where[v] = t
            if d + 1 + hd < least:
                least = d + 1 + hd
            continue
        if ranked[rp]:
            rnew = _rank(where, rmembers, rcell_maps, rp, n, cells)
        else:
            rnew = rold + (sigma[b] - sigma[t]) * rweight[v]
        where[v] = t
        hr = h_ref[d] + np.int64(table[offset[rp] + rnew]) - np.int64(table[offset[rp] + rold])
        f = d + 1 + (hd if hd > hr else hr)
        if f > bound:
            if f < least:
                least = f
            continue
        tiles[b] = v
        tiles[t] = 0
        hx = hd if hd > hr else hr
        hdual = 0
        if lookups[0]:
            if tree[4 * b + next_dir[d] - 1]:
                # the same dual state as the parent's (its table values are read again
                # from raw[d]); only the blank's path, so the corrections, changed
                for k in range(raw.shape[1]):
                    raw[d + 1, k] = raw[d, k]
                for k in range(n):
                    dwhere[d + 1, k] = dwhere[d, k]
                hdual = _clipped(raw, d + 1, 0, dcorr, t)
                if lookups[1]:
                    hx2 = _clipped(raw, d + 1, dcorr.shape[1], rcorr, t)
                    if hx2 > hdual:
                        hdual = hx2
            else:  # the dual lookup, then its reflection: only while neither cuts
                hdual = _dual_sum(tiles, t, dsrc, home, dwhere, members, cell_maps, ranked,
                                  bits, table, offset, dcorr, n, cells, raw, d + 1, 0)  # fmt: skip
                if lookups[1] and d + 1 + hdual <= bound:
                    hx2 = _dual_sum(tiles, t, dsrc, home, dwhere, rmembers, rcell_maps,
                                    ranked, bits, table, offset, rcorr, n, cells, raw, d + 1,
                                    dcorr.shape[1])  # fmt: skip
                    if hx2 > hdual:
                        hdual = hx2
            if hdual > hx:
                hx = hdual
            # the child's distance has the parity of bound - d - 1 (iterate() gives the
            # bound the plans' parity): a value of the other parity is one short
            hx += (bound - d - 1 - hx) & 1
            if d + 1 + hx > bound:
                tiles[t] = v
                tiles[b] = 0
                if d + 1 + hx < least:
                    least = d + 1 + hx
                # BPMX: the parent is at most one move from this child, so its own
                # heuristic is at least hx - 1; past the bound, its other children go too
                if lookups[2] and d + hx - 1 > bound:
                    if d + hx - 1 < least:
                        least = d + hx - 1
                    next_dir[d] = 4
                continue
        where[v] = b
        idx[p] = new
        ridx[rp] = rnew
        d += 1
        blank[d] = t
        next_dir[d] = 0
        h_dir[d] = hd
        h_ref[d] = hr
        moved[d] = v
        fsm_state[d] = follow
        old_idx[d] = old
        old_ridx[d] = rold
        if hd == 0:
            state[_PHASE] = _FOUND
            break
        nodes += 1
        steps += 1
        if steps >= budget:
            break
    state[_DEPTH] = d
    state[_NEXT_BOUND] = least
    state[_NODES] = nodes


#: The lookups a search may make: ``reflected`` (the direct and the diagonally reflected
#: sums), ``dual`` (and the dual state's two sums), ``dual-bpmx`` (and bidirectional
#: pathmax from the dual values).
LOOKUPS = ("reflected", "dual", "dual-bpmx")


def blank_path_positions(start: int, end: int, cols: int, size: int) -> np.ndarray:
    """Where each tile stands after the blank walked from its home ``start`` to ``end``
    on the goal board (along the column first, then along the row), as cells indexed by
    the tiles' home cells: ``ypos[u]`` is the cell of the tile whose home is ``u``.

    >>> blank_path_positions(0, 4, 3, 9).tolist()  # blank 0 -> 3 -> 4 on a 3-column board
    [4, 1, 2, 0, 3, 5, 6, 7, 8]
    """
    path = blank_path(start, end, cols)
    ypos = np.arange(size, dtype=np.int64)
    for here, there in pairwise(path):
        ypos[there] = here  # the tile of ``there`` slid onto ``here``
    ypos[start] = end  # the blank
    return ypos


def blank_path(start: int, end: int, cols: int) -> list[int]:
    """The blank's path from ``start`` to ``end``: along the column first, then along the row."""
    path = [start]
    r, c = divmod(start, cols)
    er, ec = divmod(end, cols)
    while r != er:
        r += 1 if er > r else -1
        path.append(r * cols + c)
    while c != ec:
        c += 1 if ec > c else -1
        path.append(r * cols + c)
    return path


def on_one_path(start: int, a: int, b: int, cols: int) -> bool:
    """Whether the blank's path to ``a`` extends its path to ``b`` by one move or the other
    way round (``a`` and ``b`` neighbours)."""
    pa, pb = blank_path(start, a, cols), blank_path(start, b, cols)
    return pa[:-1] == pb or pb[:-1] == pa


class PatternSearch:
    """IDA* on ``board`` with the databases ``tables`` of the patterns ``patterns`` (each
    pattern's tiles in its table's order; a pattern with a ``cell_maps`` entry reads a
    table shared by symmetry, :func:`~pyasp_games.domains.puzzle.databases.shared_table`)."""

    def __init__(
        self,
        board: Board,
        patterns: Sequence[Sequence[int]],
        tables: Sequence[bytes],
        cell_maps: Sequence[Sequence[int] | None] | None = None,
        lookups: str = "reflected",
        pruning: int = DEFAULT_LENGTH,
    ) -> None:
        if lookups not in LOOKUPS:
            raise ValueError(f"lookups must be one of {', '.join(LOOKUPS)}, not {lookups!r}")
        compile_kernels(__name__)
        rows, cols, n = board.rows, board.cols, board.size
        self.board = board
        bits = cell_bits(n)
        pat_of = np.zeros(n, np.int64)
        weight = np.zeros(n, np.int64)
        for pi, tiles_of in enumerate(patterns):
            for i, t in enumerate(tiles_of):
                pat_of[t], weight[t] = pi, 1 << (bits * i)
        goal = board.goal_tiles
        home = {v: p for p, v in enumerate(goal)}
        reflect = rows == cols
        # sigma: a cell's mirror image in the main diagonal; mirror[v]: the tile whose
        # home is the mirror of v's home (the blank's home lies on the diagonal for
        # both goals); without reflection the mirror is the identity
        sigma = np.array([(c % cols) * cols + c // cols if reflect else c for c in range(n)])
        mirror = [goal[sigma[home[v]]] for v in range(n)]
        rpat = np.array([pat_of[mirror[v]] for v in range(n)], np.int64)
        rweight = np.array([weight[mirror[v]] for v in range(n)], np.int64)
        # a table shared by several patterns is held once
        distinct = list({id(t): t for t in tables}.values())
        ends = np.cumsum([len(t) for t in distinct])
        starts = {id(t): int(end) - len(t) for t, end in zip(distinct, ends, strict=True)}
        self.table = np.frombuffer(b"".join(distinct), np.uint8)
        self.offset = np.array([starts[id(t)] for t in tables], np.int64)
        self.tiles = np.array(board.tiles, np.int64)
        self.idx = np.zeros(len(patterns), np.int64)
        self.ridx = np.zeros(len(patterns), np.int64)
        self.pat_of, self.weight, self.rpat, self.rweight = pat_of, weight, rpat, rweight
        self.sigma = sigma.astype(np.int64)
        self.mirror = mirror
        # ranked patterns: the tiles of each (and of each reflected pattern, as the
        # tiles whose mirror images they are), and the cells of every tile
        self.ranked = np.array([ranked_index(n, len(g)) for g in patterns], np.bool_)
        self.where = np.zeros(n, np.int64)
        width = max(len(g) for g in patterns)
        self.members = np.full((len(patterns), width), -1, np.int64)
        self.rmembers = np.full((len(patterns), width), -1, np.int64)
        self.cell_maps = np.tile(np.arange(n, dtype=np.int64), (len(patterns), 1))
        for pi, cell_map in enumerate(cell_maps or ()):
            if cell_map is not None:
                self.cell_maps[pi] = cell_map
        # the mirror image, then the symmetry; C-ordered as cell_maps is (indexing the
        # columns gives Fortran order, or C with one pattern: each layout is another
        # compiled signature of the kernels, and the 2 x 2 board's was compiled cold)
        self.rcell_maps = np.ascontiguousarray(self.cell_maps[:, sigma])
        for pi, group in enumerate(patterns):
            self.members[pi, : len(group)] = group
            self.rmembers[pi, : len(group)] = [mirror[t] for t in group]
        h_dir, h_ref = self._place(board.tiles)
        # the dual lookup's sources: with the blank on b, tile v of the dual state stands
        # on the home cell of the tile on dsrc[b, v] (module docstring); the tiles of
        # pattern p moved by the blank's path from home to b are dcorr[b, p] (rcorr: of
        # the reflected pattern)
        home_of = np.array([home[v] for v in range(n)], np.int64)
        self.home = home_of
        self.dsrc = np.zeros((n, n), np.int64)
        self.dcorr = np.zeros((n, len(patterns)), np.int64)
        self.rcorr = np.zeros((n, len(patterns)), np.int64)
        for b in range(n):
            ypos = blank_path_positions(home[0], b, cols, n)
            self.dsrc[b] = ypos[home_of]
            for pi in range(len(patterns)):
                self.dcorr[b, pi] = sum(ypos[home[t]] != home[t] for t in self.members[pi] if t >= 0)
                self.rcorr[b, pi] = sum(ypos[home[t]] != home[t] for t in self.rmembers[pi] if t >= 0)
        self.dwhere = np.zeros((256, n), np.int64)  # the dual state's cells by depth
        self.bits = bits
        mode = LOOKUPS.index(lookups)
        self.lookups = np.array([mode >= 1, mode >= 1 and reflect, mode >= 2], np.int64)
        table, offset = self.table, self.offset
        self.h0 = max(h_dir, h_ref)
        # a move is a swap of two cells: every plan's length has the parity of the
        # permutation (cell -> home of the tile on it)
        perm, seen, swaps = [home[v] for v in board.tiles], [False] * n, 0
        for c in range(n):
            length = 0
            while not seen[c]:
                seen[c], c, length = True, perm[c], length + 1
            swaps += max(length - 1, 0)
        self.parity = swaps & 1
        depth = 256  # plans longer than 255 moves are refused by run()
        self.raw = np.zeros((256, 2 * len(patterns)), np.int64)  # the dual's table values by depth
        if self.lookups[0]:
            cells = np.zeros(width, np.int64)
            for first, members, maps, corr in ((0, self.members, self.cell_maps, self.dcorr),
                                               (len(patterns), self.rmembers, self.rcell_maps, self.rcorr)):  # fmt: skip
                dual = _dual_sum(self.tiles, board.blank, self.dsrc, home_of, self.dwhere, members, maps,
                                 self.ranked, bits, table, offset, corr, n, cells, self.raw, 0, first)  # fmt: skip
                self.h0 = max(self.h0, int(dual))
        # direction d of nbr is the d-th of U D L R, as in the automaton of redundant strings
        self.nbr = np.full(4 * n, -1, np.int64)
        for c in range(n):
            legal = moves_of(c, rows, cols)
            for d, letter in enumerate(DIRECTIONS):
                self.nbr[4 * c + d] = legal.get(letter, -1)
        self.pruning = pruning
        self.fsm = redundant_move_automaton(pruning) if pruning > 2 else np.zeros((1, 4), np.int32)
        self.fsm_state = np.zeros(depth, np.int32)
        # a move along the blank's paths (one path the other's extension by the move)
        # leaves the dual state as it was: tree[4 * b + d] for such moves
        self.tree = np.zeros(4 * n, np.bool_)
        for c in range(n):
            for d in range(4):
                t = int(self.nbr[4 * c + d])
                if t >= 0:
                    self.tree[4 * c + d] = on_one_path(home[0], c, t, cols)
        self.blank = np.zeros(depth, np.int64)
        self.blank[0] = board.blank
        self.next_dir = np.zeros(depth, np.int64)
        self.h_dir = np.zeros(depth, np.int64)
        self.h_ref = np.zeros(depth, np.int64)
        self.h_dir[0], self.h_ref[0] = h_dir, h_ref
        self.moved = np.zeros(depth, np.int64)
        self.old_idx = np.zeros(depth, np.int64)
        self.old_ridx = np.zeros(depth, np.int64)
        self.state = np.zeros(5, np.int64)
        self.thresholds: list[int] = []
        self.found = h_dir == 0
        self.state[_NODES] = 0

    @property
    def nodes(self) -> int:
        return int(self.state[_NODES])

    def _place(self, tiles: Sequence[int]) -> tuple[int, int]:
        """Put ``tiles`` on the board (the cells of the tiles, the patterns' indices,
        direct and reflected) and return the two sums of the tables there."""
        n = len(tiles)
        self.tiles[:] = tiles
        self.idx[:] = 0
        self.ridx[:] = 0
        for p, v in enumerate(tiles):
            self.where[v] = p
            if v:
                self.idx[self.pat_of[v]] += p * self.weight[v]
                self.ridx[self.rpat[v]] += self.sigma[p] * self.rweight[v]
        for pi in range(self.members.shape[0]):
            if self.ranked[pi]:
                group = [int(t) for t in self.members[pi] if t >= 0]
                cells = [int(self.cell_maps[pi, self.where[t]]) for t in group]
                self.idx[pi] = placement_rank(cells, n)
                cells = [int(self.rcell_maps[pi, self.where[self.mirror[t]]]) for t in group]
                self.ridx[pi] = placement_rank(cells, n)
        table, offset = self.table, self.offset
        h_dir = sum(int(table[offset[i] + self.idx[i]]) for i in range(len(self.idx)))
        h_ref = sum(int(table[offset[i] + self.ridx[i]]) for i in range(len(self.ridx)))
        return h_dir, h_ref

    def checkpoint(self) -> dict[str, Any]:
        """The search's state between two slices, as plain data (:meth:`restore` takes it
        back): the iteration's threshold, the least ``f`` beyond it so far, the nodes
        expanded so far, the thresholds begun, and the path (the blank's cells) with the
        next direction to try at each depth. After a plan was found: the plan instead."""
        state = self.state
        if self.found:
            return {"plan": self.plan(), "nodes": self.nodes, "thresholds": list(self.thresholds)}
        d = int(state[_DEPTH])
        return {
            "bound": int(state[_BOUND]),
            "least": int(state[_NEXT_BOUND]),
            "nodes": self.nodes,
            "thresholds": list(self.thresholds),
            "path": [int(c) for c in self.blank[: d + 1]],
            "next_dir": [int(k) for k in self.next_dir[: d + 1]],
        }

    def restore(self, saved: dict[str, Any]) -> None:
        """Go back to the state :meth:`checkpoint` returned (a search of the same board
        with the same databases and pruning): the path is replayed from the board, each
        depth's tiles, indices, heuristic values and automaton state recomputed. A state
        that is not one of this search raises :class:`ValueError`."""
        if self.lookups[0]:
            raise ValueError("a search with dual lookups cannot be resumed (only lookups='reflected')")
        try:
            path = [int(c) for c in saved["path"]]
            directions = [int(k) for k in saved["next_dir"]]
            bound, least, nodes = int(saved["bound"]), int(saved["least"]), int(saved["nodes"])
            thresholds = [int(t) for t in saved["thresholds"]]
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"not a state of this search ({error})") from None
        n = self.board.size
        if not (path and path[0] == self.board.blank and len(path) == len(directions) <= bound
                and 0 <= bound < self.blank.size and thresholds and thresholds[-1] == bound
                and all(0 <= k <= 4 for k in directions) and nodes >= 0):  # fmt: skip
            raise ValueError("not a state of this search (its path, directions or threshold)")
        tiles = list(self.board.tiles)
        self._place(tiles)
        for k in range(1, len(path)):
            b, t = path[k - 1], path[k]
            step = [d for d in range(4) if 0 <= t < n and self.nbr[4 * b + d] == t]
            follow = int(self.fsm[self.fsm_state[k - 1], step[0]]) if step else -1
            if follow < 0 or directions[k - 1] != step[0] + 1:
                raise ValueError(f"not a state of this search (move {k} of its path)")
            v = tiles[t]
            self.moved[k] = v
            self.old_idx[k] = self.idx[self.pat_of[v]]
            self.old_ridx[k] = self.ridx[self.rpat[v]]
            self.fsm_state[k] = follow
            self.blank[k] = t
            tiles[b], tiles[t] = v, 0
            self.h_dir[k], self.h_ref[k] = self._place(tiles)
        self.next_dir[: len(directions)] = directions
        state = self.state
        state[_DEPTH], state[_BOUND], state[_NEXT_BOUND] = len(path) - 1, bound, least
        state[_NODES], state[_PHASE] = nodes, _SEARCHING
        self.thresholds = thresholds
        self.found = False

    def iterate(
        self,
        bound: int,
        deadline: Deadline | None,
        resumed: bool = False,
        save: Callable[[dict[str, Any]], None] | None = None,
        every: float = 60.0,
    ) -> int | None:
        """One iteration of IDA* with threshold ``bound``: ``None`` when it reaches the
        goal, else the least ``f`` beyond ``bound`` (the next threshold). ``resumed``: go
        on with the iteration :meth:`restore` set up. ``save`` is called with
        :meth:`checkpoint` every ``every`` seconds and when a limit (or an interrupt)
        stops the search."""
        state = self.state
        if not resumed:
            if bound >= self.blank.size:
                raise ValueError(f"plans of more than {self.blank.size - 1} moves are not searched")
            bound += (bound - self.parity) & 1  # every plan's length has the board's parity
            self.thresholds.append(bound)
            if self.found:
                return None
            state[_DEPTH], state[_BOUND], state[_NEXT_BOUND] = 0, bound, _INFINITY
            state[_PHASE] = _SEARCHING
            state[_NODES] += 1  # the root is expanded in every iteration
            self.next_dir[0] = 0
        arrays = (self.tiles, self.idx, self.ridx, self.table, self.offset, self.pat_of,
                  self.weight, self.rpat, self.rweight, self.sigma, self.nbr, self.ranked,
                  self.where, self.members, self.rmembers, self.cell_maps, self.rcell_maps,
                  np.zeros(self.members.shape[1], np.int64), self.blank, self.next_dir, self.h_dir, self.h_ref, self.moved, self.old_idx,
                  self.old_ridx, self.dsrc, self.home, self.dwhere, self.bits, self.dcorr,
                  self.rcorr, self.tree, self.raw, self.lookups, self.fsm, self.fsm_state,
                  state)  # fmt: skip

        saved = [time.monotonic()]

        def step(budget: int) -> bool:
            _idastar(*arrays, budget)
            if state[_PHASE] != _SEARCHING:
                return True
            if save is not None and time.monotonic() - saved[0] >= every:
                save(self.checkpoint())
                saved[0] = time.monotonic()
            return False

        try:
            run_sliced(step, deadline, first=1 << 14, stats=self.statistics)
        except (LimitReached, KeyboardInterrupt):
            # between two slices: the state is whole
            if save is not None and state[_PHASE] == _SEARCHING:
                save(self.checkpoint())
            raise
        if state[_PHASE] == _FOUND:
            self.found = True
            return None
        return int(state[_NEXT_BOUND])

    def run(
        self,
        deadline: Deadline | None,
        max_length: int | None = None,
        resume: dict[str, Any] | None = None,
        save: Callable[[dict[str, Any]], None] | None = None,
        every: float = 60.0,
    ) -> bool:
        """IDA* from the heuristic's value up: true when a plan was found, false when
        every plan is longer than ``max_length``. ``resume``: go on from a
        :meth:`checkpoint`; ``save``, ``every``: :meth:`iterate`."""
        bound: int | None = self.h0
        if resume is not None:
            self.restore(resume)
            bound = self.iterate(int(self.state[_BOUND]), deadline, True, save, every)
        while True:
            if bound is None:
                return True
            if max_length is not None and bound > max_length:
                return False
            bound = self.iterate(bound, deadline, False, save, every)

    def plan(self) -> str:
        """The plan found (the blank's moves as ``U D L R``)."""
        if not self.found:
            raise ValueError("no plan was found")
        cols = self.board.cols
        letters = {-cols: "U", cols: "D", -1: "L", 1: "R"}
        if self.h_dir[0] == 0:
            return ""
        cells = [int(c) for c in self.blank[: self.state[_DEPTH] + 1]]
        return "".join(letters[b - a] for a, b in pairwise(cells))

    def statistics(self) -> dict[str, Any]:
        return {"nodes": self.nodes, "thresholds": list(self.thresholds)}


def warm_up() -> None:
    """Compile (or load from numba's cache) the kernel with the argument types of a
    search (called by :func:`~pyasp_games.engines.compiled.compile_kernels`)."""
    from pyasp_games.domains.puzzle.abstract_search import build_table
    from pyasp_games.domains.puzzle.model import parse_board

    board = parse_board("1 2 3\n4 0 5")
    patterns = ((1, 2), (3, 4, 5))
    tables = [build_table(2, 3, board.goal, p) for p in patterns]
    PatternSearch(board, patterns, tables).run(None)
