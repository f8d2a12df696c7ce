"""Algorithm X with dancing links (Knuth 2000), native backend of the cover domain.

:class:`DancingLinks` holds a 0/1 matrix (items = columns, options = rows) as
Knuth's circular doubly-linked lists in flat integer arrays; :meth:`DancingLinks.search`
is Algorithm X written iteratively (no recursion limit on deep covers), always
branching on an item with the fewest remaining options (Knuth's ``S`` heuristic).
It works for any exact-cover matrix (rows of any size), polls a
:class:`~pyasp_games.engines.limits.Deadline` every few thousand nodes, and
counts nodes and link updates.

>>> from pyasp_games.cover.model import X3C
>>> inst = X3C(6, ((0, 1, 2), (3, 4, 5), (1, 2, 3), (0, 1, 4)))
>>> sorted(sorted(c) for c in DancingLinks(6, inst.subsets).search())
[[0, 1]]
>>> out = solve_dlx(inst)
>>> out.status, out.answer, out.witness
('solved', True, [0, 1])
>>> solve_dlx(inst, mode="count").answer
1
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from pyasp_games.cover.model import X3C, ThreeDM, as_x3c
from pyasp_games.engines.limits import Deadline, LimitReached, Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.errors import InputError

#: Modes of every cover backend: first cover, count all covers, list all covers.
MODES = ("first", "count", "all")
_POLL = 2048


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


def uncovered_element(size: int, subsets: Sequence[Sequence[int]]) -> int | None:
    """An element in no subset (a one-line proof that no cover exists), or ``None``."""
    seen = bytearray(size)
    for s in subsets:
        for e in s:
            seen[e] = 1
    return next((e for e in range(size) if not seen[e]), None)


def solve_dlx(instance: X3C | ThreeDM, limits: Limits = Limits(), mode: str = "first") -> Outcome:
    """Algorithm X on an X3C instance (3DM: as X3C over ``W + X + Y``).

    ``mode``: ``first`` (answer ``True``/``False``, witness the cover's subset
    indices, sorted), ``count`` (answer the number of covers) or ``all`` (also the
    list of every cover as witness).
    """
    if mode not in MODES:
        raise InputError(f"unknown mode {mode!r} (choose from {', '.join(MODES)})")
    inst = as_x3c(instance)
    deadline = limits.deadline()
    links = DancingLinks(inst.size, inst.subsets)
    deadline.check()
    found: list[list[int]] = []
    count = 0
    for cover in links.search(deadline):
        count += 1
        if mode == "first":
            found.append(sorted(cover))
            break
        if mode == "all":
            found.append(sorted(cover))
    stats = links.statistics()
    if mode == "first":
        if found:
            return Outcome(inst.name, "dlx", "solved", True, found[0], 0.0, stats)
        return Outcome(inst.name, "dlx", "no-solution", False, None, 0.0, stats)
    status = "solved" if count else "no-solution"
    return Outcome(
        inst.name, "dlx", status, count, sorted(found) if mode == "all" else None, 0.0, stats
    )
