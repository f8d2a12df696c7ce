"""Algorithm X with dancing links (Knuth 2000), compiled: the ``dlx`` backend's search.

The matrix (items = columns, options = rows) is Knuth's circular doubly-linked
lists in flat integer arrays: node 0 is the root, nodes ``1..items`` the item
headers, the rest the 1s of the matrix; ``L R U D`` are the links, ``C`` a node's
header, ``ROW`` its option, ``S`` the options left in each item. The search is
Algorithm X written iteratively (no recursion limit on deep covers), always
branching on the first item with the fewest remaining options (Knuth's ``S``
heuristic). A node costs the items scanned for the smallest column plus the link
updates of covering its option's items: work proportional to the live part of the
matrix it touches, whatever its size, which is why ``dlx`` is the default native
backend (on the Garey-Johnson instances of ``reduce chain``, 288,920 options, it
touches a few thousand links per node where a bit-set search scans them all).

Compiled (:mod:`pyasp_games.engines.compiled`): the first version of this search, on
Python objects, ran at 15,000-50,000 nodes per second, 20-40x behind the numba
``xcover`` package on random X3C; on arrays it runs 230,000-290,000 interpreted and
millions compiled (``benchmarks/RESULTS.md``). The search state lives
in arrays, so the search runs in slices between which the deadline is read (the
first ones interpreted: a small instance never loads numba; a search whose tree
:meth:`DancingLinks.estimated_nodes` finds too large for them is compiled after its
first slices), and :meth:`DancingLinks.search` yields each cover as the kernel stops
at it.

>>> links = DancingLinks(7, [(2, 4), (0, 3, 6), (1, 2, 5), (0, 3, 5), (1, 6), (3, 4, 6)])
>>> [sorted(cover) for cover in links.search()]  # Knuth's example: rows 0, 3, 4
[[0, 3, 4]]
>>> DancingLinks(7, [(2, 4), (0, 3, 6), (1, 2, 5), (0, 3, 5), (1, 6), (3, 4, 6)]).count()
1
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from pyasp_games.engines.compiled import (
    compile_kernels,
    int64_array,
    is_compiled,
    kernel,
    run_sliced,
)
from pyasp_games.engines.limits import Deadline
from pyasp_games.errors import InputError

# positions in the state array of the search
_DEPTH, _PHASE, _NODES, _UPDATES, _COVERS = range(5)
_DESCEND, _BACKTRACK, _DONE = 0, 1, 2
# what a slice of the search returns
_EXHAUSTED, _FOUND, _PAUSED = 0, 1, 2
#: Matrices with more 1s than this are built compiled (interpreted, a 1 costs microseconds).
INTERPRETED_ONES = 5000
#: Random paths of :meth:`DancingLinks.estimated_nodes` (a few milliseconds interpreted).
PROBES = 16
#: The kernels' machine code is kept and loaded without numba by later processes
#: (:mod:`pyasp_games.engines.machine_code`: numba's import was a third of a whole
#: ``cover solve -b dlx`` on a 5-regular X3C of q = 50).
MACHINE_CODE = True


@kernel
def _build(items, flat, starts, L, R, U, D, C, ROW, S):
    """Link the matrix whose option ``r`` is ``flat[starts[r]:starts[r + 1]]`` into the
    arrays (of ``items + 1 + len(flat)`` nodes; ``S`` of ``items + 1``)."""
    for i in range(items + 1):
        L[i] = i - 1
        R[i] = i + 1
        U[i] = i
        D[i] = i
        C[i] = i
        ROW[i] = -1
    L[0] = items
    R[items] = 0
    node = items + 1
    for r in range(len(starts) - 1):
        first = node
        for k in range(starts[r], starts[r + 1]):
            col = flat[k] + 1
            C[node] = col
            ROW[node] = r
            # vertical: insert above the header (at the bottom of the column)
            U[node] = U[col]
            D[node] = col
            D[U[col]] = node
            U[col] = node
            S[col] += 1
            # horizontal: the option's nodes in a circular list
            L[node] = node - 1
            R[node] = node + 1
            node += 1
        if node > first:
            L[first] = node - 1
            R[node - 1] = first


@kernel
def _cover(c, L, R, U, D, C, S):
    L[R[c]] = L[c]
    R[L[c]] = R[c]
    updates = 1
    i = D[c]
    while i != c:
        j = R[i]
        while j != i:
            D[U[j]] = D[j]
            U[D[j]] = U[j]
            S[C[j]] -= 1
            updates += 1
            j = R[j]
        i = D[i]
    return updates


@kernel
def _uncover(c, L, R, U, D, C, S):
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


@kernel
def _search(L, R, U, D, C, S, cols, rows, state, budget, stop_at_cover):
    """Run Algorithm X for at most ``budget`` nodes from ``state``; see the module doc.

    Returns ``_FOUND`` with a cover's nodes in ``rows[:state[_DEPTH]]`` (when
    ``stop_at_cover``), ``_EXHAUSTED`` or ``_PAUSED``; covers are counted in
    ``state[_COVERS]`` either way.
    """
    depth = state[_DEPTH]
    phase = state[_PHASE]
    nodes = state[_NODES]
    updates = state[_UPDATES]
    found = state[_COVERS]
    steps = 0
    result = _PAUSED
    while True:
        if phase == _DESCEND:
            if steps >= budget:
                break
            steps += 1
            nodes += 1
            if R[0] == 0:  # every item covered: the chosen options are a cover
                found += 1
                phase = _BACKTRACK
                if stop_at_cover:
                    result = _FOUND
                    break
                continue
            c = R[0]
            best = c
            size = S[c]
            while c != 0 and size > 1:
                if S[c] < size:
                    best = c
                    size = S[c]
                c = R[c]
            if size == 0:  # an item no option can cover any more: a dead end
                phase = _BACKTRACK
                continue
            updates += _cover(best, L, R, U, D, C, S)
            r = D[best]
            cols[depth] = best
            rows[depth] = r
            depth += 1
            j = R[r]
            while j != r:
                updates += _cover(C[j], L, R, U, D, C, S)
                j = R[j]
            continue
        # backtrack: undo the last choice, try the next option of its item
        if depth == 0:
            phase = _DONE
            result = _EXHAUSTED
            break
        depth -= 1
        r = rows[depth]
        c = cols[depth]
        j = L[r]
        while j != r:
            _uncover(C[j], L, R, U, D, C, S)
            j = L[j]
        r = D[r]
        if r != c:
            rows[depth] = r
            depth += 1
            j = R[r]
            while j != r:
                updates += _cover(C[j], L, R, U, D, C, S)
                j = R[j]
            phase = _DESCEND
        else:
            _uncover(c, L, R, U, D, C, S)
    state[_DEPTH] = depth
    state[_PHASE] = phase
    state[_NODES] = nodes
    state[_UPDATES] = updates
    state[_COVERS] = found
    return result


def flatten(items: int, options: Sequence[Sequence[int]]) -> tuple[list[int], list[int]]:
    """The options as one list of items and the start of each option in it (CSR rows);
    an item outside ``0..items-1`` is an :class:`InputError` naming its option."""
    flat: list[int] = []
    starts = [0]
    for r, option in enumerate(options):
        for e in option:
            if not 0 <= e < items:
                raise InputError(f"option {r} has item {e}, outside 0..{items - 1}")
        flat.extend(option)
        starts.append(len(flat))
    return flat, starts


class DancingLinks:
    """An exact-cover matrix as dancing links: ``items`` columns, one row per option.

    Small matrices start in Python lists, searched by the kernels' Python source;
    they move to the compiled kernels' arrays when the module is compiled (see
    :func:`~pyasp_games.engines.compiled.run_sliced`), large ones start there.
    """

    def __init__(self, items: int, options: Sequence[Sequence[int]]) -> None:
        self.items = items
        flat, starts = flatten(items, options)
        if len(flat) > INTERPRETED_ONES:
            compile_kernels(__name__)
        nodes = items + 1 + len(flat)
        depth = min(items, len(options)) + 1
        self.arrays = {name: [0] * size for name, size in (
            ("L", nodes), ("R", nodes), ("U", nodes), ("D", nodes), ("C", nodes),
            ("ROW", nodes), ("S", items + 1), ("cols", depth), ("rows", depth), ("state", 5),
        )}  # fmt: skip
        if is_compiled(__name__):
            self._to_arrays()
            flat, starts = self._array(flat), self._array(starts)
        a = self.arrays
        _build(items, flat, starts, a["L"], a["R"], a["U"], a["D"], a["C"], a["ROW"], a["S"])

    @staticmethod
    def _array(values: list[int]) -> Any:
        return int64_array(values, __name__)

    def _to_arrays(self) -> None:
        """Move the matrix and the search's state into arrays for the compiled kernels
        (numpy's, or ``array('q')`` for their kept machine code)."""
        self.arrays = {name: self._array(values) if isinstance(values, list) else values
                       for name, values in self.arrays.items()}  # fmt: skip

    @property
    def state(self) -> Any:
        return self.arrays["state"]

    @property
    def nodes(self) -> int:
        return int(self.state[_NODES])

    def _run(self, deadline: Deadline | None, stop_at_cover: bool) -> Iterator[list[int]]:
        """Run the search in slices; yield each cover when ``stop_at_cover``."""
        if self.state[_NODES]:
            raise ValueError("a matrix runs one search (search or count): build another")
        outcome = {"code": _PAUSED}

        def step(budget: int) -> bool:
            if is_compiled(__name__) and isinstance(self.state, list):
                self._to_arrays()
            a = self.arrays
            outcome["code"] = _search(a["L"], a["R"], a["U"], a["D"], a["C"], a["S"],
                                      a["cols"], a["rows"], a["state"], budget, stop_at_cover)  # fmt: skip
            return outcome["code"] != _PAUSED

        # interpreted, the search learns its size first: compiled as soon as it is seen to
        # outgrow the interpreted phase, not at its end
        expected = None if is_compiled(__name__) else self.estimated_nodes()
        while self.state[_PHASE] != _DONE:
            run_sliced(step, deadline, __name__, stats=self.statistics, expected=expected)
            if outcome["code"] == _FOUND:
                rows, row_of = self.arrays["rows"], self.arrays["ROW"]
                yield [int(row_of[rows[d]]) for d in range(self.state[_DEPTH])]

    def estimated_nodes(self, probes: int = PROBES, seed: int = 0) -> float:
        """Knuth's estimate of the nodes of the whole search tree (Knuth 1975, "Estimating
        the efficiency of backtrack programs"): the mean over ``probes`` random paths from
        the root of 1 + d1 + d1*d2 + ..., where d_k is the number of options of the item
        the search branches on at depth k, the option taken at random. Unbiased; within
        a factor of 2 of the true size on random X3C (2.0e6 estimated for 2.84e6 nodes at
        q = 50, 1.1e4 for 2.1e4 at q = 30), for a few milliseconds. The matrix is left
        as it was."""
        a = self.arrays
        L, R, U, D, C, S = a["L"], a["R"], a["U"], a["D"], a["C"], a["S"]
        rng = random.Random(seed)
        total = 0.0
        for _ in range(probes):
            taken: list[tuple[int, int]] = []
            width, nodes = 1.0, 1.0
            while R[0] != 0:
                c = best = R[0]
                size = S[c]
                while c != 0 and size > 1:  # the item the search branches on (as _search)
                    if S[c] < size:
                        best, size = c, S[c]
                    c = R[c]
                if size == 0:
                    break
                width *= size
                nodes += width
                _cover(best, L, R, U, D, C, S)
                r = D[best]
                for _ in range(rng.randrange(size)):
                    r = D[r]
                j = R[r]
                while j != r:
                    _cover(C[j], L, R, U, D, C, S)
                    j = R[j]
                taken.append((best, r))
            for best, r in reversed(taken):
                j = L[r]
                while j != r:
                    _uncover(C[j], L, R, U, D, C, S)
                    j = L[j]
                _uncover(best, L, R, U, D, C, S)
            total += nodes
        return total / probes

    def search(self, deadline: Deadline | None = None) -> Iterator[list[int]]:
        """Yield every exact cover as a list of option indices (in the order chosen).

        Raises :class:`~pyasp_games.engines.limits.LimitReached` (with the
        statistics) once ``deadline`` passes.
        """
        return self._run(deadline, True)

    def count(self, deadline: Deadline | None = None) -> int:
        """The number of exact covers, counted inside the kernel (none is listed)."""
        for _ in self._run(deadline, False):
            pass  # pragma: no cover - nothing is yielded when counting
        return int(self.state[_COVERS])

    def statistics(self) -> dict[str, Any]:
        return {
            "nodes": int(self.state[_NODES]),
            "updates": int(self.state[_UPDATES]),
            "items": self.items,
        }


def warm_up() -> None:
    """Compile (or load from numba's cache) the kernels with the argument types of a
    search and a count (called by :func:`~pyasp_games.engines.compiled.compile_kernels`)."""
    list(DancingLinks(2, [[0], [1], [0, 1]]).search())
    DancingLinks(2, [[0], [1], [0, 1]]).count()
