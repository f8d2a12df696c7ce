"""Retrograde analysis of Cops and Robbers: every position's value, compiled.

A position is a cop placement (a sorted tuple: a multiset of ``k`` vertices under the
classic rules, a set under the notes'), the robber's vertex and the side to move. The
placements are numbered in colex order (the combinatorial number system: the
multiset ``c_0 <= ... <= c_{k-1}`` has rank ``sum C(c_i + i, i + 1)``, a set
``sum C(c_i, i + 1)``), and position ``p = placement * n + robber`` indexes two tables,
one per side to move. :class:`Table` holds

- ``cops_value[p]``: with the cops to move, the number of cops' moves to capture (or
  trap) under best play on both sides, ``-1`` where the robber escapes for ever
  (``-2``: no position, a robber on a cop under the notes' rules);
- ``robber_value[p]``: the same with the robber to move;
- ``cops_best[p]`` (the placement the cops move to: one of the fastest) and
  ``robber_best[p]`` (the robber's vertex of longest resistance), where the cops win.

The analysis is the textbook retrograde one, O(positions x moves): the captured (or
trapped) positions are worth 0; a cops' position is decided, at one more than the
robber's position it moves to, the first time one of its successors is; a robber's
position when its last successor is (a counter per position: the robber escapes while
one move is undecided). A first-in first-out queue decides positions in order of
their values, so a value is the optimum. The cops' moves between placements are
symmetric (a move back is a move), so a position's predecessors are its successors.

The tables, the moves and the queue are flat arrays, and the loops are kernels
(:mod:`pyasp_games.engines.compiled`): interpreted on a small game, compiled by numba
once a game outlasts its first half second.

>>> from pyasp_games.domains.cops.model import read_graph, CopsGame
>>> t = Table.build(CopsGame(read_graph("cycle:4")), 1)
>>> t.placements, int(t.cops_value[t.position((0,), 2)]), int(t.robber_value[t.position((0,), 2)])
(4, -1, -1)
>>> t = Table.build(CopsGame(read_graph("path:4")), 1)
>>> int(t.cops_value[t.position((0,), 3)]), int(t.robber_value[t.position((1,), 3)])
(3, 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement
from typing import Any

import numpy as np

from pyasp_games.domains.cops.model import CopsGame, check_size
from pyasp_games.engines.compiled import compile_kernels, kernel, run_sliced
from pyasp_games.engines.limits import Deadline
from pyasp_games.errors import MalformedAnswer

#: Positions beyond which the kernels are compiled from the start.
INTERPRETED_POSITIONS = 20_000


@kernel
def _rank(t, k, classic, binom):
    """The colex rank of the sorted tuple ``t`` (a multiset, or a set)."""
    rank = 0
    for i in range(k):
        rank += binom[t[i] + i if classic else t[i], i + 1]
    return rank


@kernel
def _sort(t, k):
    for i in range(1, k):
        x = t[i]
        j = i - 1
        while j >= 0 and t[j] > x:
            t[j + 1] = t[j]
            j -= 1
        t[j + 1] = x


@kernel
def _moves(start, stop, confs, classic, ptr, nbr, cptr, cnbr, binom, occ, fill, mptr, mv, land,
           stamp, t, pos):  # fmt: skip
    """The cops' moves from the placements ``start..stop``: counted into ``mptr[c + 1]``,
    or (``fill``) written to ``mv`` from ``mptr[c]`` with, under the notes' rules, the
    vertex the moving cop lands on in ``land``. Classic: every cop to a closed
    neighbour, each placement reached once (``stamp``); notes: one cop to a free
    neighbour."""
    k = confs.shape[1]
    for c in range(start, stop):
        count = 0
        if classic:
            for i in range(k):
                pos[i] = 0
            while True:
                for i in range(k):
                    v = confs[c, i]
                    t[i] = cnbr[cptr[v] + pos[i]]
                _sort(t, k)
                d = _rank(t, k, classic, binom)
                if stamp[d] != c:
                    stamp[d] = c
                    if fill:
                        mv[mptr[c] + count] = d
                    count += 1
                i = k - 1
                while i >= 0:
                    pos[i] += 1
                    v = confs[c, i]
                    if pos[i] < cptr[v + 1] - cptr[v]:
                        break
                    pos[i] = 0
                    i -= 1
                if i < 0:
                    break
        else:
            for i in range(k):
                v = confs[c, i]
                for j in range(ptr[v], ptr[v + 1]):
                    w = nbr[j]
                    if occ[c, w]:
                        continue
                    for m in range(k):
                        t[m] = confs[c, m]
                    t[i] = w
                    _sort(t, k)
                    if fill:
                        mv[mptr[c] + count] = _rank(t, k, classic, binom)
                        land[mptr[c] + count] = w
                    count += 1
        if not fill:
            mptr[c + 1] = count
    return stop


@kernel
def _start(start, stop, n, classic, ptr, nbr, cptr, occ, cops_value, robber_value, counter,
           queue, state):  # fmt: skip
    """Value 0 for the captured (trapped) positions of placements ``start..stop``, queued;
    every other robber's position counts its moves."""
    tail = state[1]
    for c in range(start, stop):
        for r in range(n):
            p = c * n + r
            if classic:  # the robber's moves: stay or step; over when a cop is on him
                moves = cptr[r + 1] - cptr[r]
                over = occ[c, r] != 0
            elif occ[c, r]:  # the notes' rules: no robber under a cop
                cops_value[p] = -2
                robber_value[p] = -2
                continue
            else:  # the robber's moves: to a free neighbour; over when there is none
                moves = 0
                for j in range(ptr[r], ptr[r + 1]):
                    if not occ[c, nbr[j]]:
                        moves += 1
                over = moves == 0
            if over:
                cops_value[p] = 0
                robber_value[p] = 0
                queue[tail] = 2 * p
                queue[tail + 1] = 2 * p + 1
                tail += 2
            else:
                counter[p] = moves
    state[1] = tail
    return stop


@kernel
def _retrograde(budget, n, classic, ptr, nbr, cptr, cnbr, occ, mptr, mv, land, cops_value,
                robber_value, cops_best, robber_best, counter, queue, state):  # fmt: skip
    """Decide up to ``budget`` queued positions' predecessors; true when the queue is empty."""
    head = state[0]
    tail = state[1]
    steps = 0
    while head < tail and steps < budget:
        e = queue[head]
        head += 1
        steps += 1
        p = e >> 1
        c = p // n
        r = p - c * n
        if e & 1:  # a robber's position decided: the cops' positions moving into it
            d = robber_value[p]
            for j in range(mptr[c], mptr[c + 1]):
                if not classic and land[j] == r:
                    continue  # the move back lands on the robber: no such position
                q = mv[j] * n + r
                if cops_value[q] == -1:
                    cops_value[q] = d + 1
                    cops_best[q] = c
                    queue[tail] = 2 * q
                    tail += 1
            if not classic and cops_value[p] == -1:  # a cops' player without a move passes
                stuck = True
                for j in range(mptr[c], mptr[c + 1]):
                    if land[j] != r:
                        stuck = False
                        break
                if stuck:
                    cops_value[p] = d + 1
                    cops_best[p] = c
                    queue[tail] = 2 * p
                    tail += 1
        else:  # a cops' position decided: the robber's positions moving into it
            d = cops_value[p]
            if classic:
                lo = cptr[r]
                hi = cptr[r + 1]
            else:
                lo = ptr[r]
                hi = ptr[r + 1]
            for j in range(lo, hi):
                r0 = cnbr[j] if classic else nbr[j]
                q = c * n + r0
                if robber_value[q] != -1:
                    continue
                counter[q] -= 1
                if counter[q] == 0:
                    robber_value[q] = d
                    robber_best[q] = r
                    queue[tail] = 2 * q + 1
                    tail += 1
    state[0] = head
    state[1] = tail
    return head >= tail


def _binomials(size: int, k: int) -> np.ndarray:
    from math import comb

    return np.array([[comb(a, b) for b in range(k + 2)] for a in range(size + 1)], dtype=np.int64)


def _csr(lists: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    ptr = np.zeros(len(lists) + 1, dtype=np.int64)
    ptr[1:] = np.cumsum([len(a) for a in lists])
    flat = np.array([v for a in lists for v in a], dtype=np.int64)
    return ptr, flat


def _ranges(kernel_call: Any, total: int, deadline: Deadline | None) -> None:
    """Run ``kernel_call(start, stop)`` over ``0..total`` in slices (deadline between)."""
    done = [0]

    def step(budget: int) -> bool:
        done[0] = kernel_call(done[0], min(total, done[0] + budget))
        return done[0] >= total

    run_sliced(step, deadline, __name__, first=16)


@dataclass
class Table:
    """Every position's value for ``k`` cops (see the module docstring)."""

    game: CopsGame
    k: int
    classic: bool
    confs: np.ndarray
    binom: np.ndarray
    arrays: dict[str, np.ndarray]
    cops_value: np.ndarray
    robber_value: np.ndarray
    cops_best: np.ndarray
    robber_best: np.ndarray

    @property
    def n(self) -> int:
        return len(self.game)

    @property
    def placements(self) -> int:
        return len(self.confs)

    @classmethod
    def from_values(
        cls,
        game: CopsGame,
        k: int,
        moves: dict[tuple[int, ...], dict[tuple[int, ...], int]],
        cops_value: dict[tuple[tuple[int, ...], int], int],
        robber_value: dict[tuple[tuple[int, ...], int], int],
    ) -> Table:
        """The table of values another solver derived: ``moves[placement]`` maps each
        placement the cops can move to onto the vertex the moving cop lands on (the
        notes' rules; any number under the classic ones), the values are by ``(sorted
        placement, robber)`` (missing: the robber escapes). The fastest moves of both
        sides are read off the values (the checker replays them)."""
        n, classic = len(game), game.variant == "classic"
        confs, binom = placements(n, k, classic)
        m = len(confs)
        occ = _occupied(confs, n)
        ranked = {tuple(int(v) for v in row): i for i, row in enumerate(confs)}
        lists = [sorted((ranked[to], w) for to, w in moves.get(tuple(int(v) for v in row), {}).items())
                 for row in confs]  # fmt: skip
        mptr = np.zeros(m + 1, dtype=np.int64)
        mptr[1:] = np.cumsum([len(a) for a in lists])
        mv = np.array([to for a in lists for to, _ in a], dtype=np.int64)
        land = np.array([w for a in lists for _, w in a], dtype=np.int64)
        size = m * n
        arrays = {}
        for name, given in (("cops", cops_value), ("robber", robber_value)):
            values = np.full(size, -1, dtype=np.int32)
            if not classic:
                values[occ.reshape(-1).astype(bool)] = -2
            for (cops, r), v in given.items():
                values[ranked[cops] * n + r] = v
            arrays[name] = values
        t = cls(game, k, classic, confs, binom, {"occ": occ, "mptr": mptr, "mv": mv, "land": land},
                arrays["cops"], arrays["robber"], np.full(size, -1, dtype=np.int32),
                np.full(size, -1, dtype=np.int32))  # fmt: skip
        t._best_moves()
        return t

    def _best_moves(self) -> None:
        """The fastest cops' move and the robber's longest resistance, from the values."""
        n = self.n
        for p in np.flatnonzero(self.cops_value > 0):
            c, r = divmod(int(p), n)
            want = self.cops_value[p] - 1
            options = [int(m) for m, w in zip(self.cop_moves(c), self.landings(c), strict=True)
                       if self.classic or w != r] or [c]  # fmt: skip
            best = next((m for m in options if self.robber_value[m * n + r] == want), None)
            if best is None:
                raise MalformedAnswer(
                    f"no move of the cops from {self.cops_of(c)} with the robber on {r} leads "
                    f"to a position of value {want}: the values are no fixpoint of the rules"
                )
            self.cops_best[p] = best
        for q in np.flatnonzero(self.robber_value > 0):
            c, r = divmod(int(q), n)
            self.robber_best[q] = max(self.robber_moves(c, r), key=lambda w: self.cops_value[c * n + w])

    def rank(self, cops: tuple[int, ...]) -> int:
        """The number of a sorted placement."""
        return int(sum(self.binom[(c + i) if self.classic else c, i + 1] for i, c in enumerate(cops)))

    def position(self, cops: tuple[int, ...], robber: int) -> int:
        return self.rank(tuple(sorted(cops))) * self.n + robber

    def cops_of(self, placement: int) -> tuple[int, ...]:
        return tuple(int(v) for v in self.confs[placement])

    def cop_moves(self, placement: int) -> np.ndarray:
        """The placements the cops can move to (notes: with the landing vertices, :meth:`landings`)."""
        mptr, mv = self.arrays["mptr"], self.arrays["mv"]
        return mv[mptr[placement] : mptr[placement + 1]]

    def landings(self, placement: int) -> np.ndarray:
        mptr, land = self.arrays["mptr"], self.arrays["land"]
        return land[mptr[placement] : mptr[placement + 1]]

    def robber_moves(self, placement: int, robber: int) -> list[int]:
        """The robber's moves from ``robber`` (classic: stay or to a neighbour; notes: to a
        free neighbour)."""
        adj = self.game.graph.adj[robber]
        if self.classic:
            return [robber, *adj]
        occ = self.arrays["occ"][placement]
        return [w for w in adj if not occ[w]]

    @classmethod
    def build(cls, game: CopsGame, k: int, deadline: Deadline | None = None) -> Table:
        """Tabulate every position of ``k`` cops on ``game``'s graph under its rules."""
        check_size(game, k)
        n, classic = len(game), game.variant == "classic"
        adj = game.graph.adj
        ptr, nbr = _csr([list(a) for a in adj])
        cptr, cnbr = _csr([[v, *a] for v, a in enumerate(adj)])
        confs, binom = placements(n, k, classic)
        m = len(confs)
        occ = _occupied(confs, n)
        if m * n > INTERPRETED_POSITIONS:
            compile_kernels(__name__)
        stamp = np.full(m, -1, dtype=np.int64)
        t, pos = np.zeros(k, dtype=np.int64), np.zeros(k, dtype=np.int64)
        mptr = np.zeros(m + 1, dtype=np.int64)
        none = np.zeros(1, dtype=np.int64)

        def count(a: int, b: int) -> int:
            return _moves(a, b, confs, classic, ptr, nbr, cptr, cnbr, binom, occ, False, mptr,
                          none, none, stamp, t, pos)  # fmt: skip

        _ranges(count, m, deadline)
        mptr = np.cumsum(mptr)
        mv = np.zeros(int(mptr[-1]), dtype=np.int64)
        land = np.zeros(int(mptr[-1]) if not classic else 1, dtype=np.int64)
        stamp[:] = -1

        def fill(a: int, b: int) -> int:
            return _moves(a, b, confs, classic, ptr, nbr, cptr, cnbr, binom, occ, True, mptr,
                          mv, land, stamp, t, pos)  # fmt: skip

        _ranges(fill, m, deadline)
        size = m * n
        cops_value = np.full(size, -1, dtype=np.int32)
        robber_value = np.full(size, -1, dtype=np.int32)
        cops_best = np.full(size, -1, dtype=np.int32)
        robber_best = np.full(size, -1, dtype=np.int32)
        counter = np.zeros(size, dtype=np.int32)
        queue = np.zeros(2 * size, dtype=np.int64)
        state = np.zeros(2, dtype=np.int64)

        def start(a: int, b: int) -> int:
            return _start(a, b, n, classic, ptr, nbr, cptr, occ, cops_value, robber_value,
                          counter, queue, state)  # fmt: skip

        _ranges(start, m, deadline)

        def step(budget: int) -> bool:
            return bool(_retrograde(budget, n, classic, ptr, nbr, cptr, cnbr, occ, mptr, mv, land,
                                    cops_value, robber_value, cops_best, robber_best, counter,
                                    queue, state))  # fmt: skip

        run_sliced(step, deadline, __name__)
        arrays = {"occ": occ, "mptr": mptr, "mv": mv, "land": land}
        return cls(game, k, classic, confs, binom, arrays, cops_value, robber_value, cops_best,
                   robber_best)  # fmt: skip


def placements(n: int, k: int, classic: bool) -> tuple[np.ndarray, np.ndarray]:
    """Every placement of ``k`` cops on ``n`` vertices in colex order, and the binomials
    that rank them."""
    binom = _binomials(n + k, k)
    chosen = combinations_with_replacement(range(n), k) if classic else combinations(range(n), k)
    rows = np.array(list(chosen), dtype=np.int64).reshape(-1, k)
    ranks = sum(binom[rows[:, i] + (i if classic else 0), i + 1] for i in range(k))
    confs = np.empty_like(rows)
    confs[ranks] = rows
    return confs, binom


def _occupied(confs: np.ndarray, n: int) -> np.ndarray:
    m, k = confs.shape
    occ = np.zeros((m, n), dtype=np.uint8)
    for i in range(k):
        occ[np.arange(m), confs[:, i]] = 1
    return occ


def warm_up() -> None:
    """Compile (or load from numba's cache) every kernel with the real calls' types."""
    from pyasp_games.domains.cops.model import CopsGame, read_graph

    for variant in ("classic", "notes"):
        _build_small(CopsGame(read_graph("cycle:4"), variant), 2)


def _build_small(game: CopsGame, k: int) -> None:
    Table.build(game, k)
