"""The component search as a compiled kernel, for graphs of at most 62 vertices.

The same search as :class:`~pyasp_games.domains.kayles.native.Search` (components, XOR,
memo by vertex set, one move per class of true twins, paths and cycles by Dawson's
chess) without the isomorphism table, in the subset of Python numba compiles
(:mod:`pyasp_games.engines.compiled`): a position is one machine word (bit ``v`` for
vertex ``v``: at most 62 vertices keep every mask and every value, at most 62, a
positive ``int64``), the memo an open-addressing hash table in two arrays (doubled
when 70% full), the depth-first search an explicit stack of frames (the component,
the moves left, the part of the current option not yet split, the XOR so far, the
option values seen as a bitmask). Measured against the pure-Python search in
``benchmarks/RESULTS.md``: the isomorphism table costs more than it saves on random
graphs, so the kernel does without it.

>>> from pyasp_games.engines.graphs import numbered_graph
>>> star = numbered_graph(5, [(0, 1), (0, 2), (0, 3), (0, 4)], "K_(1,4)")
>>> kern = BitsetSearch(star)
>>> kern.value(0b11111), kern.value(0b11110), kern.visited
(2, 0, 5)
"""

from __future__ import annotations

from typing import Any

from pyasp_games.domains.kayles.octal import path_value
from pyasp_games.engines.compiled import (
    bit_count,
    bit_index,
    compile_kernels,
    is_compiled,
    kernel,
    run_sliced,
)
from pyasp_games.engines.graphs import Graph
from pyasp_games.engines.limits import Deadline

#: The most vertices the kernel takes (a position is one signed 64-bit word).
MAX_VERTICES = 62
#: Frame fields on the stack.
_COMP, _MOVES, _PARTS, _XOR, _SEEN, _OPEN = range(6)
_FIELDS = 6
#: Fields of the state array.
_DEPTH, _RESULT, _VISITED, _EXPANDED, _FILLED, _REDUCE = range(6)
#: What a slice returns.
_PAUSED, _DONE, _FULL = 0, 1, 2
_FIRST_CAPACITY = 1 << 12


@kernel
def _slot(key: int, mask: int) -> int:
    return ((key ^ (key >> 29) ^ (key >> 13)) * 2654435761) & mask


@kernel
def _find(keys: Any, vals: Any, key: int) -> int:
    mask = len(keys) - 1
    h = _slot(key, mask)
    while keys[h] != 0:
        if keys[h] == key:
            return vals[h]
        h = (h + 1) & mask
    return -1


@kernel
def _store(keys: Any, vals: Any, key: int, value: int) -> None:
    mask = len(keys) - 1
    h = _slot(key, mask)
    while keys[h] != 0 and keys[h] != key:
        h = (h + 1) & mask
    keys[h] = key
    vals[h] = value


@kernel
def _rehash(keys: Any, vals: Any, new_keys: Any, new_vals: Any) -> None:
    for i in range(len(keys)):
        if keys[i] != 0:
            _store(new_keys, new_vals, keys[i], vals[i])


@kernel
def _cheap(nbr: Any, paths: Any, comp: int, reduce: int) -> int:
    """The value of a single vertex, a path or a cycle (by formula); -1 otherwise."""
    if comp & (comp - 1) == 0:
        return 1
    if reduce == 0:
        return -1
    k = 0
    degrees = 0
    rest = comp
    while rest:
        b = rest & -rest
        rest ^= b
        d = bit_count(nbr[bit_index(b)] & comp)
        if d > 2:
            return -1
        degrees += d
        k += 1
    if degrees == 2 * (k - 1):
        return paths[k]
    return 1 if paths[k - 3] == 0 else 0


@kernel
def _moves(nbr: Any, closed: Any, comp: int, reduce: int) -> int:
    """The vertices of ``comp`` to try: one per class of true twins (with ``reduce``)."""
    if reduce == 0:
        return comp
    moves = comp
    rest = comp
    while rest:
        b = rest & -rest
        rest ^= b
        v = bit_index(b)
        mine = closed[v] & comp
        before = nbr[v] & comp & (b - 1)  # an earlier neighbour with the same N[.]
        while before:
            c = before & -before
            before ^= c
            if closed[bit_index(c)] & comp == mine:
                moves ^= b
                break
    return moves


@kernel
def _expanded(nbr: Any, paths: Any, keys: Any, vals: Any, out_keys: Any, out_vals: Any) -> int:
    """Copy the memo's entries that are neither a single vertex, a path nor a cycle into
    ``out_keys``/``out_vals``; their number."""
    count = 0
    for i in range(len(keys)):
        if keys[i] != 0 and _cheap(nbr, paths, keys[i], 1) < 0:
            out_keys[count] = keys[i]
            out_vals[count] = vals[i]
            count += 1
    return count


@kernel
def _split(nbr: Any, parts: int) -> int:
    """The component of the lowest vertex of ``parts`` within ``parts``."""
    comp = parts & -parts
    frontier = comp
    while frontier:
        reach = 0
        while frontier:
            b = frontier & -frontier
            frontier ^= b
            reach |= nbr[bit_index(b)]
        frontier = reach & parts & ~comp
        comp |= frontier
    return comp


@kernel
def _search(nbr: Any, closed: Any, paths: Any, keys: Any, vals: Any, stack: Any, state: Any,
            budget: int) -> int:  # fmt: skip
    """Run at most ``budget`` steps of the search; the value ends in ``state[_RESULT]``."""
    reduce = state[_REDUCE]
    while budget > 0:
        budget -= 1
        d = state[_DEPTH]
        f = d - 1
        parts = stack[f * _FIELDS + _PARTS]
        if parts != 0:  # split the next component off the current option
            c = _split(nbr, parts)
            stack[f * _FIELDS + _PARTS] = parts & ~c
            value = _find(keys, vals, c)
            if value < 0:
                value = _cheap(nbr, paths, c, reduce)
                if value >= 0:
                    if 10 * (state[_FILLED] + 1) > 7 * len(keys):
                        stack[f * _FIELDS + _PARTS] = parts  # redo this split after the table grows
                        return _FULL
                    _store(keys, vals, c, value)
                    state[_FILLED] += 1
                    state[_VISITED] += 1
            if value >= 0:
                stack[f * _FIELDS + _XOR] ^= value
                continue
            stack[d * _FIELDS + _COMP] = c
            stack[d * _FIELDS + _MOVES] = _moves(nbr, closed, c, reduce)
            stack[d * _FIELDS + _PARTS] = 0
            stack[d * _FIELDS + _XOR] = 0
            stack[d * _FIELDS + _SEEN] = 0
            stack[d * _FIELDS + _OPEN] = 0
            state[_DEPTH] = d + 1
            state[_VISITED] += 1
            continue
        if stack[f * _FIELDS + _OPEN] == 1:  # the current option is complete
            stack[f * _FIELDS + _SEEN] |= 1 << stack[f * _FIELDS + _XOR]
            stack[f * _FIELDS + _OPEN] = 0
            continue
        moves = stack[f * _FIELDS + _MOVES]
        if moves != 0:  # the next move: delete v and its neighbours
            b = moves & -moves
            stack[f * _FIELDS + _MOVES] = moves ^ b
            stack[f * _FIELDS + _PARTS] = stack[f * _FIELDS + _COMP] & ~closed[bit_index(b)]
            stack[f * _FIELDS + _XOR] = 0
            stack[f * _FIELDS + _OPEN] = 1
            continue
        if 10 * (state[_FILLED] + 1) > 7 * len(keys):
            return _FULL
        seen = stack[f * _FIELDS + _SEEN]
        value = 0
        while (seen >> value) & 1:
            value += 1
        _store(keys, vals, stack[f * _FIELDS + _COMP], value)
        state[_FILLED] += 1
        state[_EXPANDED] += 1
        state[_DEPTH] = f
        if f == 0:
            state[_RESULT] = value
            return _DONE
        stack[(f - 1) * _FIELDS + _XOR] ^= value
    return _PAUSED


class BitsetSearch:
    """Grundy values of positions of one graph of at most :data:`MAX_VERTICES` vertices."""

    def __init__(self, graph: Graph, deadline: Deadline | None = None, reductions: bool = True) -> None:
        n = len(graph)
        if n > MAX_VERTICES:
            raise ValueError(f"the bitset search takes at most {MAX_VERTICES} vertices")
        nbr = [0] * n
        for u, v in graph.edges:
            nbr[u] |= 1 << v
            nbr[v] |= 1 << u
        self.n = n
        self.deadline = deadline
        self.lists = {
            "nbr": nbr,
            "closed": [m | (1 << v) for v, m in enumerate(nbr)],
            "paths": [path_value(k) for k in range(MAX_VERTICES + 2)],
            "keys": [0] * _FIRST_CAPACITY,
            "vals": [0] * _FIRST_CAPACITY,
        }
        self.stack: Any = [0] * (_FIELDS * (n + 1))  # frame f's fields at f * _FIELDS
        self.state: Any = [0] * 6
        self.state[_REDUCE] = 1 if reductions else 0
        self.compiled = False
        if is_compiled(__name__):
            self._to_arrays()

    def _to_arrays(self) -> None:
        import numpy as np

        self.lists = {k: np.array(v, dtype=np.int64) for k, v in self.lists.items()}
        self.stack = np.array(self.stack, dtype=np.int64)
        self.state = np.array(self.state, dtype=np.int64)
        self.compiled = True

    def _grow(self) -> None:
        keys, vals = self.lists["keys"], self.lists["vals"]
        size = 2 * len(keys)
        if self.compiled:
            import numpy as np

            new_keys, new_vals = np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int64)
        else:
            new_keys, new_vals = [0] * size, [0] * size
        _rehash(keys, vals, new_keys, new_vals)
        self.lists["keys"], self.lists["vals"] = new_keys, new_vals

    @property
    def visited(self) -> int:
        return int(self.state[_VISITED])

    def stats(self) -> dict[str, Any]:
        return {"components_visited": int(self.state[_VISITED]),
                "expanded": int(self.state[_EXPANDED]), "compiled": self.compiled}  # fmt: skip

    def component_value(self, comp: int) -> int:
        arrays = self.lists
        if comp & (comp - 1) == 0:
            return 1
        known = _find(arrays["keys"], arrays["vals"], comp)
        if known >= 0:
            return int(known)
        cheap = _cheap(arrays["nbr"], arrays["paths"], comp, int(self.state[_REDUCE]))
        if cheap >= 0:
            return int(cheap)
        nbr, closed = arrays["nbr"], arrays["closed"]
        frame = [comp, _moves(nbr, closed, comp, int(self.state[_REDUCE])), 0, 0, 0, 0]
        for i, x in enumerate(frame):
            self.stack[i] = x
        self.state[_DEPTH] = 1
        self.state[_VISITED] += 1

        def step(budget: int) -> bool:
            if not self.compiled and is_compiled(__name__):
                self._to_arrays()
            a = self.lists
            code = _search(a["nbr"], a["closed"], a["paths"], a["keys"], a["vals"],
                           self.stack, self.state, budget)  # fmt: skip
            if code == _FULL:
                self._grow()
            return bool(code == _DONE)

        run_sliced(step, self.deadline, __name__, stats=self.stats)
        return int(self.state[_RESULT])

    def k_set_table(self) -> tuple[Any, Any]:
        """The memo's connected vertex sets other than single vertices, paths and
        cycles, by increasing bit mask, and their values (two arrays): the certificate
        (:func:`~pyasp_games.domains.kayles.model.encode_k_set_table`). After a search
        of the whole graph they hold every component of every option of each of them
        (every set the search split off is in the memo, and a move skipped for a twin
        leaves the very position its twin's move leaves) that is no path or cycle.

        >>> from pyasp_games.engines.graphs import numbered_graph
        >>> kern = BitsetSearch(numbered_graph(4, [(0, 1), (0, 2), (0, 3)], "K_(1,3)"))
        >>> kern.value(0b1111)
        1
        >>> [x.tolist() for x in kern.k_set_table()]  # the star itself: no path, no cycle
        [[15], [1]]
        """
        import numpy as np

        a = {k: np.asarray(v, dtype=np.int64) for k, v in self.lists.items()}
        out_keys = np.zeros(len(a["keys"]), dtype=np.int64)
        out_vals = np.zeros(len(a["keys"]), dtype=np.int64)
        count = int(_expanded(a["nbr"], a["paths"], a["keys"], a["vals"], out_keys, out_vals))
        order = np.argsort(out_keys[:count])
        return out_keys[:count][order], out_vals[:count][order]

    def components(self, mask: int) -> list[int]:
        out = []
        while mask:
            c = _split(self.lists["nbr"], mask)
            out.append(int(c))
            mask &= ~c
        return out

    def value(self, mask: int) -> int:
        total = 0
        for comp in self.components(mask):
            total ^= self.component_value(comp)
        return total

    def closed_of(self, v: int) -> int:
        return int(self.lists["closed"][v])


def warm_up() -> None:
    """Compile (or load) the kernels with the argument types of a real search."""
    from pyasp_games.engines.graphs import numbered_graph

    search = BitsetSearch(numbered_graph(5, [(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 2)]))
    search.value(31)
    search._grow()
    search.k_set_table()


def compile_now() -> None:
    """Compile this module's kernels now (a benchmark that measures compiled speed)."""
    compile_kernels(__name__)
