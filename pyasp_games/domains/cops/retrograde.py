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
from pyasp_games.domains.cops.symmetry import Symmetry, symmetry_of
from pyasp_games.engines.compiled import compile_kernels, kernel, run_sliced
from pyasp_games.engines.limits import Deadline
from pyasp_games.errors import MalformedAnswer

#: Work (positions the analysis decides x the cops' moves from each, estimated from the
#: average degree) beyond which the kernels are compiled from the start: about half a
#: second interpreted.
INTERPRETED_WORK = 500_000


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
           stamp, t, pos, canonical):  # fmt: skip
    """The cops' moves from the placements ``start..stop``: counted into ``mptr[c + 1]``,
    or (``fill``) written to ``mv`` from ``mptr[c]`` with, under the notes' rules, the
    vertex the moving cop lands on in ``land``. Classic: every cop to a closed
    neighbour, each placement reached once (``stamp``); notes: one cop to a free
    neighbour. Only the placements ``canonical`` marks (reduced: one per orbit; the
    others' moves are their images, :meth:`Table.cop_moves`)."""
    k = confs.shape[1]
    for c in range(start, stop):
        count = 0
        if not canonical[c]:
            if not fill:
                mptr[c + 1] = 0
            continue
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
def _distinct(seen, count, x):
    """Whether ``x`` is not among ``seen[:count]`` (a loop: numba compiles no generator)."""
    for i in range(count):  # noqa: SIM110
        if seen[i] == x:
            return False
    return True


@kernel
def _start(start, stop, n, classic, ptr, nbr, cptr, cnbr, occ, reduce, rep, cops_value,
           robber_value, counter, queue, state, seen):  # fmt: skip
    """Value 0 for the captured (trapped) positions of placements ``start..stop``, queued;
    every other robber's position counts its moves (reduced: one position per orbit,
    counting the distinct orbits its moves reach)."""
    tail = state[1]
    for c in range(start, stop):
        for r in range(n):
            p = c * n + r
            if reduce and rep[p] != p:
                continue
            if not classic and occ[c, r]:  # the notes' rules: no robber under a cop
                cops_value[p] = -2
                robber_value[p] = -2
                continue
            # the robber's moves: classic, stay or step (over when a cop is on him);
            # notes, to a free neighbour (over when there is none)
            lo = cptr[r] if classic else ptr[r]
            hi = cptr[r + 1] if classic else ptr[r + 1]
            moves = 0
            for j in range(lo, hi):
                w = cnbr[j] if classic else nbr[j]
                if not classic and occ[c, w]:
                    continue
                q = c * n + w
                if reduce:
                    q = rep[q]
                    if not _distinct(seen, moves, q):
                        continue
                seen[moves] = q
                moves += 1
            over = occ[c, r] != 0 if classic else moves == 0
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
def _retrograde(budget, n, classic, ptr, nbr, cptr, cnbr, occ, mptr, mv, land, reduce, rep,
                which, gplace, gvert, cops_value, robber_value, cops_best, robber_best, counter,
                queue, state, seen):  # fmt: skip
    """Decide up to ``budget`` queued positions' predecessors; true when the queue is empty.

    Reduced, only representatives are decided: a predecessor ``y`` stands for ``rep[y]``,
    and the move found from ``y`` is carried to ``rep[y]`` by the element ``which[y]``."""
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
                best = c
                if reduce:
                    best = gplace[which[q], c]
                    q = rep[q]
                if cops_value[q] == -1:
                    cops_value[q] = d + 1
                    cops_best[q] = best
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
            count = 0
            for j in range(lo, hi):
                r0 = cnbr[j] if classic else nbr[j]
                q = c * n + r0
                best = r
                if reduce:  # one count per orbit of the robber's positions moving here
                    best = gvert[which[q], r]
                    q = rep[q]
                    if not _distinct(seen, count, q):
                        continue
                    seen[count] = q
                    count += 1
                if robber_value[q] != -1:
                    continue
                counter[q] -= 1
                if counter[q] == 0:
                    robber_value[q] = d
                    robber_best[q] = best
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
    #: The automorphisms the analysis was reduced by (``None``: not reduced); the moves
    #: of a placement that is not its orbit's least are the images of that one's.
    symmetry: Symmetry | None = None

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

    @property
    def reduction(self) -> dict[str, int]:
        """The order of the automorphism group the analysis was reduced by (1: none) and
        the positions it decided itself (the others took their orbit's value)."""
        s = self.symmetry
        if s is None:
            return {"automorphisms": 1, "decided": self.placements * self.n}
        return {"automorphisms": s.order, "decided": s.orbits}

    def _stored(self, placement: int, name: str, images: str) -> np.ndarray:
        """``arrays[name]`` of ``placement``, or of its orbit's least placement carried
        back to it (``images``: ``placement`` or ``vertex``, what the entries are)."""
        s, mptr, values = self.symmetry, self.arrays["mptr"], self.arrays[name]
        if s is None or s.canonical[placement]:
            return values[mptr[placement] : mptr[placement + 1]]
        g = s.which[placement * self.n]  # takes the placement to its orbit's least
        least = s.placement[g, placement]
        return getattr(s, images)[s.inverse[g]][values[mptr[least] : mptr[least + 1]]]

    def cop_moves(self, placement: int) -> np.ndarray:
        """The placements the cops can move to (notes: with the landing vertices, :meth:`landings`)."""
        return self._stored(placement, "mv", "placement")

    def landings(self, placement: int) -> np.ndarray:
        """The vertex each of :meth:`cop_moves` lands a cop on (the notes' rules; ``-1``
        where the classic analysis does not record it)."""
        if len(self.arrays["land"]) < len(self.arrays["mv"]):  # a classic analysis
            return np.full(len(self.cop_moves(placement)), -1, dtype=np.int64)
        return self._stored(placement, "land", "vertex")

    def robber_moves(self, placement: int, robber: int) -> list[int]:
        """The robber's moves from ``robber`` (classic: stay or to a neighbour; notes: to a
        free neighbour)."""
        adj = self.game.graph.adj[robber]
        if self.classic:
            return [robber, *adj]
        occ = self.arrays["occ"][placement]
        return [w for w in adj if not occ[w]]

    @classmethod
    def build(cls, game: CopsGame, k: int, deadline: Deadline | None = None,
              symmetric: bool = True) -> Table:  # fmt: skip
        """Tabulate every position of ``k`` cops on ``game``'s graph under its rules.

        ``symmetric``: decide one position per orbit of the graph's automorphisms where
        :func:`~pyasp_games.domains.cops.symmetry.symmetry_of`'s rule allows, then give
        every position its representative's value and the image of its moves
        (:attr:`reduction` says what was done)."""
        check_size(game, k)
        n, classic = len(game), game.variant == "classic"
        adj = game.graph.adj
        ptr, nbr = _csr([list(a) for a in adj])
        cptr, cnbr = _csr([[v, *a] for v, a in enumerate(adj)])
        confs, binom = placements(n, k, classic)
        m = len(confs)
        occ = _occupied(confs, n)
        sym = symmetry_of(game.graph, confs, binom, classic) if symmetric else None
        decided = m * n if sym is None else sym.orbits
        degree = 2 * len(game.graph.edges) / max(n, 1)
        if decided * ((degree + 1) ** k if classic else k * degree + 1) > INTERPRETED_WORK:
            compile_kernels(__name__)
        canonical = np.ones(m, dtype=np.uint8) if sym is None else sym.canonical
        stamp = np.full(m, -1, dtype=np.int64)
        t, pos = np.zeros(k, dtype=np.int64), np.zeros(k, dtype=np.int64)
        mptr = np.zeros(m + 1, dtype=np.int64)
        none = np.zeros(1, dtype=np.int64)

        def count(a: int, b: int) -> int:
            return _moves(a, b, confs, classic, ptr, nbr, cptr, cnbr, binom, occ, False, mptr,
                          none, none, stamp, t, pos, canonical)  # fmt: skip

        _ranges(count, m, deadline)
        mptr = np.cumsum(mptr)
        mv = np.zeros(int(mptr[-1]), dtype=np.int64)
        land = np.zeros(int(mptr[-1]) if not classic else 1, dtype=np.int64)
        stamp[:] = -1

        def fill(a: int, b: int) -> int:
            return _moves(a, b, confs, classic, ptr, nbr, cptr, cnbr, binom, occ, True, mptr,
                          mv, land, stamp, t, pos, canonical)  # fmt: skip

        _ranges(fill, m, deadline)
        size = m * n
        cops_value = np.full(size, -1, dtype=np.int32)
        robber_value = np.full(size, -1, dtype=np.int32)
        cops_best = np.full(size, -1, dtype=np.int32)
        robber_best = np.full(size, -1, dtype=np.int32)
        counter = np.zeros(size, dtype=np.int32)
        queue = np.zeros(2 * decided, dtype=np.int64)
        state = np.zeros(2, dtype=np.int64)
        seen = np.zeros(max(len(a) for a in adj) + 2 if n else 2, dtype=np.int64)
        reduce = sym is not None
        rep, which = (sym.rep, sym.which) if sym else (none, np.zeros(1, dtype=np.int16))
        gplace, gvert = (sym.placement, sym.vertex) if sym else (none.reshape(1, 1), none.reshape(1, 1))

        def start(a: int, b: int) -> int:
            return _start(a, b, n, classic, ptr, nbr, cptr, cnbr, occ, reduce, rep, cops_value,
                          robber_value, counter, queue, state, seen)  # fmt: skip

        _ranges(start, m, deadline)

        def step(budget: int) -> bool:
            return bool(_retrograde(budget, n, classic, ptr, nbr, cptr, cnbr, occ, mptr, mv, land,
                                    reduce, rep, which, gplace, gvert, cops_value, robber_value,
                                    cops_best, robber_best, counter, queue, state, seen))  # fmt: skip

        run_sliced(step, deadline, __name__)
        arrays = {"occ": occ, "mptr": mptr, "mv": mv, "land": land}
        if sym is not None:
            cops_value, robber_value, cops_best, robber_best = _expand(
                sym, cops_value, robber_value, cops_best, robber_best)
        return cls(game, k, classic, confs, binom, arrays, cops_value, robber_value, cops_best,
                   robber_best, sym)  # fmt: skip


def _expand(sym: Symmetry, cops_value: np.ndarray, robber_value: np.ndarray, cops_best: np.ndarray,
            robber_best: np.ndarray) -> tuple[np.ndarray, ...]:  # fmt: skip
    """Every position's values from its representative's, and its best moves the images
    of the representative's under the element taking the representative back to it."""
    rep = sym.rep
    back = sym.inverse[sym.which]
    cb, rb = cops_best[rep], robber_best[rep]
    cops_best = np.full_like(cb, -1)
    robber_best = np.full_like(rb, -1)
    has = cb >= 0
    cops_best[has] = sym.placement[back[has], cb[has]]
    has = rb >= 0
    robber_best[has] = sym.vertex[back[has], rb[has]]
    return cops_value[rep], robber_value[rep], cops_best, robber_best


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
