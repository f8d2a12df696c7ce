"""Algorithm X (Knuth 2000), the native backends of the cover domain, in two data structures.

:class:`DancingLinks` (backend ``dlx``) holds a 0/1 matrix (items = columns,
options = rows) as Knuth's circular doubly-linked lists in flat integer arrays;
:meth:`DancingLinks.search` is Algorithm X written iteratively (no recursion
limit on deep covers), always branching on an item with the fewest remaining
options (Knuth's ``S`` heuristic). A node costs the items scanned for the
smallest column plus the link updates of covering its option's items: work
proportional to the live part of the matrix it touches, whatever its size.

:class:`BitsetCover` (backend ``bitset``) runs the same Algorithm X -- the same
column rule, the same tie-breaking, hence (:meth:`BitsetCover.search`) the
same search tree and the same covers in the same order -- over Python integers used as bit sets: an option is
a set of items, an item the set of options that hold it, and the state of a node
is two integers (the covered items, the live options). Choosing an option is one
AND-NOT with its precomputed conflict set, undoing it is popping the stack, and
the smallest column is found by ``int.bit_count`` of ``item & live``. Every
operation runs in C over the whole matrix at once, so on small dense matrices
(the 6 x 10 pentomino tiling: 2056 options) a node costs about 3 microseconds
of CPU against over 100 for the linked lists; on huge sparse ones (the Garey-Johnson
X3C instance of a 10-variable, 40-clause CNF: 288,920 subsets) each AND touches
every option and the linked lists win (0.9 s against 15 s), which is why
``dlx`` stays the default native backend. For counting and listing all covers
``bitset`` also memoises subproblems (:meth:`BitsetCover.count`,
:meth:`BitsetCover.covers`).

Both work for any exact-cover matrix (options of any size), poll a
:class:`~pyasp_games.engines.limits.Deadline` every few thousand nodes, and
count their nodes.

>>> from pyasp_games.cover.model import X3C
>>> inst = X3C(6, ((0, 1, 2), (3, 4, 5), (1, 2, 3), (0, 1, 4)))
>>> sorted(sorted(c) for c in DancingLinks(6, inst.subsets).search())
[[0, 1]]
>>> list(BitsetCover(6, inst.subsets).search())
[[1, 0]]
>>> out = solve_dlx(inst)
>>> out.status, out.answer, out.witness
('solved', True, [0, 1])
>>> solve_dlx(inst, mode="count").answer, solve_bitset(inst, mode="count").answer
(1, 1)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from pyasp_games.cover.model import X3C
from pyasp_games.engines.limits import Deadline, LimitReached, Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.question import checked_mode
from pyasp_games.errors import InputError

_POLL = 2048
#: Bit operations (items x options) between two looks at the clock in :class:`BitsetCover`.
_BITS_PER_POLL = 10**8


class DancingLinks:
    """An exact-cover matrix as dancing links: ``items`` columns, one row per option.

    Node 0 is the root, nodes ``1..items`` the item headers, the rest the 1s of the
    matrix. ``L R U D`` are the links, ``C`` a node's header, ``ROW`` its option and
    ``S`` the number of options left in each item.
    """

    def __init__(self, items: int, options: Sequence[Sequence[int]]) -> None:
        self.items = items
        n = items + 1
        L = [i - 1 for i in range(n)]
        R = [i + 1 for i in range(n)]
        L[0], R[items] = items, 0
        U = list(range(n))
        D = list(range(n))
        C = list(range(n))
        ROW = [-1] * n
        S = [0] * n
        for r, option in enumerate(options):
            first = len(C)
            for e in option:
                if not 0 <= e < items:
                    raise InputError(f"option {r} has item {e}, outside 0..{items - 1}")
                col = e + 1
                node = len(C)
                C.append(col)
                ROW.append(r)
                # vertical: insert above the header (at the bottom of the column)
                U.append(U[col])
                D.append(col)
                D[U[col]] = node
                U[col] = node
                S[col] += 1
                # horizontal: circular list of the option's nodes
                L.append(node - 1)
                R.append(node + 1)
            if len(C) > first:
                L[first] = len(C) - 1
                R[len(C) - 1] = first
        self.L, self.R, self.U, self.D, self.C, self.ROW, self.S = L, R, U, D, C, ROW, S
        self.nodes = 0
        self.updates = 0

    def search(self, deadline: Deadline | None = None) -> Iterator[list[int]]:
        """Yield every exact cover as a list of option indices (in the order chosen).

        Raises :class:`LimitReached` (with the statistics) once ``deadline`` passes.
        """
        L, R, U, D, C, ROW, S = self.L, self.R, self.U, self.D, self.C, self.ROW, self.S
        updates = 0

        def cover(c: int) -> int:
            L[R[c]] = L[c]
            R[L[c]] = R[c]
            u = 1
            i = D[c]
            while i != c:
                j = R[i]
                while j != i:
                    D[U[j]] = D[j]
                    U[D[j]] = U[j]
                    S[C[j]] -= 1
                    u += 1
                    j = R[j]
                i = D[i]
            return u

        def uncover(c: int) -> None:
            i = U[c]
            while i != c:
                j = L[i]
                while j != i:
                    S[C[j]] += 1
                    D[U[j]] = j
                    U[D[j]] = j
                    j = L[j]
                i = U[i]
            L[R[c]] = c
            R[L[c]] = c

        cols: list[int] = []  # the item branched on at each level
        rows: list[int] = []  # the option node chosen at each level
        descend = True
        while True:
            if descend:
                self.nodes += 1
                if deadline is not None and self.nodes % _POLL == 0 and deadline.expired():
                    self.updates += updates
                    raise LimitReached(self.statistics())
                if R[0] == 0:
                    self.updates += updates
                    updates = 0
                    yield [ROW[r] for r in rows]
                    descend = False
                    continue
                c = R[0]
                best, size = c, S[c]
                while c != 0 and size > 1:
                    if S[c] < size:
                        best, size = c, S[c]
                    c = R[c]
                if size == 0:
                    descend = False
                    continue
                updates += cover(best)
                r = D[best]
                cols.append(best)
                rows.append(r)
                j = R[r]
                while j != r:
                    updates += cover(C[j])
                    j = R[j]
                continue
            # backtrack: undo the last choice, try the next option of its item
            if not rows:
                self.updates += updates
                return
            r = rows.pop()
            c = cols[-1]
            j = L[r]
            while j != r:
                uncover(C[j])
                j = L[j]
            r = D[r]
            if r != c:
                rows.append(r)
                j = R[r]
                while j != r:
                    updates += cover(C[j])
                    j = R[j]
                descend = True
            else:
                uncover(c)
                cols.pop()

    def statistics(self) -> dict[str, Any]:
        return {"nodes": self.nodes, "updates": self.updates, "items": self.items}


class BitsetCover:
    """An exact-cover matrix as bit sets in Python integers: ``items`` columns, one row per option.

    ``rows[r]`` is the set of items of option ``r`` (bit ``i`` = item ``i``),
    ``columns[i]`` the set of options holding item ``i`` (bit ``r`` = option
    ``r``) and ``keep[r]`` the complement of the options sharing an item with
    option ``r`` (itself included): choosing ``r`` leaves ``live & keep[r]``.
    These conflict sets take ``options**2`` bits, so they are precomputed only up
    to :attr:`CONFLICT_BITS` of them; beyond, choosing an option clears its
    items' columns one by one (``|r|`` AND-NOTs instead of one).

    The live options are determined by the covered items (an option is live iff
    it misses every covered item), so the covered items alone name a
    subproblem: :meth:`count` memoises subproblem counts under that key.
    """

    #: The largest ``options**2`` for which conflict sets are precomputed (16 MiB).
    CONFLICT_BITS = 1 << 27
    #: The most subproblems :meth:`count` and :meth:`covers` remember (about 100 bytes each).
    MEMO_ENTRIES = 1 << 21

    def __init__(self, items: int, options: Sequence[Sequence[int]]) -> None:
        self.items = items
        rows: list[int] = []
        columns = [0] * items
        for r, option in enumerate(options):
            mask = 0
            for e in option:
                if not 0 <= e < items:
                    raise InputError(f"option {r} has item {e}, outside 0..{items - 1}")
                mask |= 1 << e
                columns[e] |= 1 << r
            rows.append(mask)
        self.rows, self.columns = rows, columns
        # keyed by the item's bit: the column scan then needs no bit_length per item
        self.by_bit = {1 << i: column for i, column in enumerate(columns)}
        self.options = [tuple(sorted(set(o))) for o in options]
        self.keep: list[int] | None = None
        if len(rows) ** 2 <= self.CONFLICT_BITS:
            keep = []
            for option in self.options:
                mask = 0
                for e in option:
                    mask |= columns[e]
                keep.append(~mask)
            self.keep = keep
        # a node scans up to items x options bits: look at the clock more often on big
        # matrices (every node on the Garey-Johnson instances, where a node takes ms)
        self.poll = max(1, min(_POLL, _BITS_PER_POLL // max(1, items * len(rows))))
        self.nodes = 0
        self.memo_hits = 0

    def _after(self, live: int, r: int) -> int:
        """The live options once option ``r`` is chosen."""
        if self.keep is not None:
            return live & self.keep[r]
        for e in self.options[r]:
            live &= ~self.columns[e]
        return live

    def search(self, deadline: Deadline | None = None) -> Iterator[list[int]]:
        """Yield every exact cover as a list of option indices (in the order chosen).

        Iterative depth-first Algorithm X: a node picks the uncovered item with
        the fewest live options (the first such item, as :class:`DancingLinks`)
        and pushes those options as one integer; the next option to try is its
        lowest bit. Per node: ``O(U * R / w)`` for the smallest column (``U``
        uncovered items, ``R`` options, ``w`` the bits of a CPython digit), and
        ``O(R / w)`` to choose an option (``O(|option| * R / w)`` without conflict
        sets); nothing is allocated but the integers themselves. Raises
        :class:`LimitReached` (with the statistics) once ``deadline`` passes.
        """
        rows, by_bit, keep, after = self.rows, self.by_bit, self.keep, self._after
        full = (1 << self.items) - 1
        covered, live = 0, (1 << len(rows)) - 1
        # per level: the state before the choice, the options left to try, the option tried
        covers: list[int] = []
        lives: list[int] = []
        untried: list[int] = []
        picked: list[int] = []
        nodes = self.nodes
        step = self.poll
        poll = nodes + step
        try:
            while True:
                nodes += 1
                if nodes >= poll:
                    poll = nodes + step
                    if deadline is not None and deadline.expired():
                        self.nodes = nodes
                        raise LimitReached(self.statistics())
                if covered == full:
                    self.nodes = nodes
                    yield list(picked)
                else:
                    # the smallest column (inlined, as in count: this loop is the hot spot)
                    best, size = 0, len(rows) + 1
                    left = full ^ covered
                    while left:
                        low = left & -left
                        left ^= low
                        k = (by_bit[low] & live).bit_count()
                        if k < size:
                            best, size = low, k
                            if k <= 1:
                                break
                    if size:  # else an item no live option holds: a dead end
                        covers.append(covered)
                        lives.append(live)
                        untried.append(by_bit[best] & live)
                        picked.append(-1)
                # the next untried option of the deepest level that has one
                while untried:
                    todo = untried[-1]
                    if not todo:
                        untried.pop()
                        covers.pop()
                        lives.pop()
                        picked.pop()
                        continue
                    low = todo & -todo
                    untried[-1] = todo ^ low
                    r = low.bit_length() - 1
                    picked[-1] = r
                    covered = covers[-1] | rows[r]
                    live = lives[-1] & keep[r] if keep is not None else after(lives[-1], r)
                    break
                else:
                    return
        finally:
            self.nodes = nodes

    def count(self, deadline: Deadline | None = None) -> int:
        """The number of exact covers, without listing them (see :meth:`_memo_search`)."""
        return self._memo_search(deadline, None)

    def covers(self, deadline: Deadline | None = None) -> Iterator[list[int]]:
        """Every exact cover, listed from the graph of subproblems that have one.

        :meth:`_memo_search` first records, for every subproblem with at least
        one cover, the options that lead to a subproblem with one (a ZDD of the
        covers, in effect); the covers are then read off that graph, in time
        proportional to their total size. The same covers as :meth:`search`, in
        another order; raises :class:`LimitReached` as :meth:`search` does.
        """
        paths: dict[int, list[tuple[int, int]]] = {}
        if not self._memo_search(deadline, paths):
            return
        full = (1 << self.items) - 1
        chosen: list[int] = []
        # iterative depth-first walk of the graph: (state, index of its next edge)
        walk: list[tuple[int, int]] = [(0, 0)]
        while walk:
            state, i = walk.pop()
            if state == full:
                yield list(chosen)
                if chosen:
                    chosen.pop()
                continue
            edges = paths[state]
            if i < len(edges):
                walk.append((state, i + 1))
                r, child = edges[i]
                chosen.append(r)
                walk.append((child, 0))
            elif chosen:
                chosen.pop()

    def _memo_search(
        self, deadline: Deadline | None, paths: dict[int, list[tuple[int, int]]] | None
    ) -> int:
        """Count the covers by the search of :meth:`search`, memoising subproblems.

        The count of every finished subproblem is stored under its covered items
        (up to :attr:`MEMO_ENTRIES` of them) and a node whose covered items were
        met before takes the stored count instead of searching again -- Knuth's
        memo cache of Algorithm X with ZDDs (DXZ). On the 6 x 10 pentomino matrix
        this saves 39% of the nodes. With ``paths``, every subproblem with a
        cover also gets its list of ``(option, subproblem after it)`` edges that
        lead to covers (never evicted: at most covers x depth of them). Per node
        as :meth:`search` plus a dictionary look-up; memory
        ``O(min(subproblems, MEMO_ENTRIES))`` plus the edges.
        """
        rows, by_bit, keep, after = self.rows, self.by_bit, self.keep, self._after
        full = (1 << self.items) - 1
        covered, live = 0, (1 << len(rows)) - 1
        memo: dict[int, int] = {}
        room = self.MEMO_ENTRIES
        covers: list[int] = []
        lives: list[int] = []
        untried: list[int] = []
        totals: list[int] = []  # covers found so far below each level
        picked: list[int] = []  # the option being tried at each level
        edges: list[list[tuple[int, int]]] = []  # its options that led to covers
        nodes, hits = self.nodes, 0
        step = self.poll
        poll = nodes + step
        try:
            while True:
                nodes += 1
                if nodes >= poll:
                    poll = nodes + step
                    if deadline is not None and deadline.expired():
                        self.nodes, self.memo_hits = nodes, self.memo_hits + hits
                        raise LimitReached(self.statistics())
                value = memo.get(covered) if covered != full else 1
                if value is None:
                    # the smallest column (inlined, as in search: this loop is the hot spot)
                    best, size = 0, len(rows) + 1
                    left = full ^ covered
                    while left:
                        low = left & -left
                        left ^= low
                        k = (by_bit[low] & live).bit_count()
                        if k < size:
                            best, size = low, k
                            if k <= 1:
                                break
                    if size:
                        covers.append(covered)
                        lives.append(live)
                        untried.append(by_bit[best] & live)
                        totals.append(0)
                        picked.append(-1)
                        if paths is not None:
                            edges.append([])
                    else:
                        value = 0
                elif covered != full:
                    hits += 1
                if value is not None:  # a finished node: its count goes to its parent
                    if not totals:
                        return value
                    totals[-1] += value
                    if value and paths is not None:
                        edges[-1].append((picked[-1], covered))
                while untried:
                    todo = untried[-1]
                    if not todo:  # a finished level: remember it, pass its count up
                        untried.pop()
                        lives.pop()
                        picked.pop()
                        done, total = covers.pop(), totals.pop()
                        if len(memo) < room:
                            memo[done] = total
                        if paths is not None:
                            found = edges.pop()
                            if total:
                                paths[done] = found
                        if not totals:
                            return total
                        totals[-1] += total
                        if total and paths is not None:
                            edges[-1].append((picked[-1], done))
                        continue
                    low = todo & -todo
                    untried[-1] = todo ^ low
                    r = low.bit_length() - 1
                    picked[-1] = r
                    covered = covers[-1] | rows[r]
                    live = lives[-1] & keep[r] if keep is not None else after(lives[-1], r)
                    break
        finally:
            self.nodes, self.memo_hits = nodes, self.memo_hits + hits

    def statistics(self) -> dict[str, Any]:
        return {
            "nodes": self.nodes,
            "items": self.items,
            "options": len(self.rows),
            "memo_hits": self.memo_hits,
        }


def _solve_native(
    inst: X3C, limits: Limits, mode: str, backend: str, structure: type
) -> Outcome:
    checked_mode(mode)
    deadline = limits.deadline()
    matrix = structure(inst.size, inst.subsets)
    deadline.check()
    found: list[list[int]] = []
    count = 0
    if mode == "count" and hasattr(matrix, "count"):
        count = matrix.count(deadline)  # counted, not listed
    else:
        listing = mode == "all" and hasattr(matrix, "covers")
        for cover in matrix.covers(deadline) if listing else matrix.search(deadline):
            count += 1
            if mode == "one":
                found.append(sorted(cover))
                break
            if mode == "all":
                found.append(sorted(cover))
    stats = matrix.statistics()
    if mode == "one":
        if found:
            return Outcome(inst.name, backend, "solved", True, found[0], 0.0, stats)
        return Outcome(inst.name, backend, "no-solution", False, None, 0.0, stats)
    status = "solved" if count else "no-solution"
    return Outcome(
        inst.name, backend, status, count, sorted(found) if mode == "all" else None, 0.0, stats
    )


def solve_dlx(instance: X3C, limits: Limits = Limits(), mode: str = "one") -> Outcome:
    """Algorithm X with dancing links on an X3C instance.

    ``mode``: ``one`` (answer ``True``/``False``, witness the cover's subset
    indices, sorted), ``count`` (answer the number of covers) or ``all`` (also the
    list of every cover as witness).
    """
    return _solve_native(instance, limits, mode, "dlx", DancingLinks)


def solve_bitset(instance: X3C, limits: Limits = Limits(), mode: str = "one") -> Outcome:
    """Algorithm X over bit sets (:class:`BitsetCover`); modes and answers as :func:`solve_dlx`.

    The same search tree as ``dlx`` (``count`` and ``all``: pruned by the memo
    of :meth:`BitsetCover.count` / :meth:`BitsetCover.covers`); faster on small dense matrices, slower on huge
    sparse ones (see the module's docstring).
    """
    return _solve_native(instance, limits, mode, "bitset", BitsetCover)
