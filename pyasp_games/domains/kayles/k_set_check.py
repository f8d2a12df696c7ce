"""The checker's compiled half: a table of K-set values, confirmed by the mex rule.

Part of the independent checker (:mod:`~pyasp_games.domains.kayles.verify`): it imports
nothing from the solvers, and builds the graph's bit masks, its splitting into
components and its values of paths and cycles itself. It takes the **K-set table**
the native backend hands over as its certificate
(:func:`~pyasp_games.domains.kayles.model.encode_k_set_table` writes it,
:func:`decode_table` reads it): connected vertex sets of the graph (the game's
*connected K-sets*, in Bodlaender, Kratsch and Timmer's words), each as its bit mask
(bit ``v``: the graph's vertex ``v``; the one canonical form of a vertex set of one
graph, whatever the solver keys its memo by), with a Grundy value each.

:func:`confirm` checks the **mex rule** at every entry, in one pass of a compiled
kernel: for every vertex of the set, the move there (delete it and its neighbours)
leaves a position, which the checker's own routine splits into components; the
option's value is the XOR of theirs, a path's by the checker's own recursion
(:func:`~pyasp_games.domains.kayles.verify.path_grundy`), a cycle's as
``mex{g(P_(k-3))}`` (every move on ``C_k`` leaves ``P_(k-3)``), any other's the
table's entry for that very vertex set; the entry's value must be the mex of its
options' values. Then the whole graph's value and every move's, from its components
the same way.

By induction on the size of the sets, every entry that passes is the Grundy value of
its set (an option's components are smaller sets, and the mex rule has one solution):
no value is taken on trust, and a forged entry breaks the rule at that set or is never
used. A component the table lacks, a set twice, a set off the graph, a value above 62
(a set of at most 62 vertices has at most 62 options) or an entry whose mex differs is
a :class:`Refuted` naming what broke. The cost is one splitting of every option of
every entry: no search, no stack, no memo that grows (``benchmarks/RESULTS.md``, the
checkers' audit: under the search's own time).

>>> from pyasp_games.domains.kayles.model import encode_k_set_table as table
>>> from pyasp_games.engines.graphs import numbered_graph
>>> k4 = numbered_graph(4, [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)], "K4")
>>> confirm(k4, table([0b1111], [1]))  # K4's one set beyond paths and cycles: itself
(1, [0, 0, 0, 0], 1)
>>> confirm(k4, table([0b1111], [0]))
Traceback (most recent call last):
...
pyasp_games.domains.kayles.k_set_check.Refuted: the table says 0 for the vertex set {0, 1, 2, 3}, but the mex of its options' values is 1
>>> confirm(k4, table([], []))
Traceback (most recent call last):
...
pyasp_games.domains.kayles.k_set_check.Refuted: the table lacks the vertex set {0, 1, 2, 3}, a component of the whole graph
"""

from __future__ import annotations

import base64
import lzma
import zlib
from typing import Any

import numpy as np

from pyasp_games.domains.kayles.model import K_SET_FORMAT, K_SET_FORMAT_XZ
from pyasp_games.engines.compiled import compile_kernels, kernel, run_sliced
from pyasp_games.engines.graphs import Graph
from pyasp_games.engines.limits import Deadline

#: The most vertices the kernels take (a vertex set is one signed 64-bit word).
MAX_VERTICES = 62
#: Tables of at most this many entries are checked as plain Python first
#: (:func:`~pyasp_games.engines.compiled.run_sliced` compiles the kernels once that takes
#: long): a small graph is checked in milliseconds, where loading numba would take longer.
INTERPRETED_TABLE = 5_000
#: A vertex's neighbourhood is looked up by its bit modulo 67: the powers 2^0..2^63
#: leave 64 different remainders (2 generates the units modulo the prime 67), so no
#: bit index is computed (the splitting's inner step: half its cost).
_MODULUS = 67
#: What the pass returns.
_PAUSED, _DONE, _WRONG, _MISSING = 0, 1, 2, 3
#: Fields of the state array: the next entry, the entry that broke, its mex or the
#: component it lacks.
_NEXT, _BROKE, _WHAT = range(3)


class Refuted(Exception):
    """The K-set table does not hold (the message says where)."""


def _inflated(text: Any, size: int, what: str) -> bytes:
    """``size`` bytes from base 64 of zlib data (the format before 0.3), or
    :class:`Refuted` (never more than ``size + 1`` bytes are inflated: a forged stream
    cannot fill the memory)."""
    if not isinstance(text, str):
        raise Refuted(f"the certificate's {what} are missing")
    try:
        inflate = zlib.decompressobj()
        raw = inflate.decompress(base64.b64decode(text.encode("ascii"), validate=True), size + 1)
    except (ValueError, zlib.error) as err:
        raise Refuted(f"the certificate's {what} cannot be read: {err}") from None
    if len(raw) != size or not inflate.eof:
        raise Refuted(f"the certificate's {what} are not {size:,} bytes")
    return raw


def _unpacked(text: Any, most: int, what: str) -> bytes:
    """At most ``most`` bytes from base 85 of xz data, or :class:`Refuted` (never more
    than ``most + 1`` bytes are unpacked: a forged stream cannot fill the memory)."""
    if not isinstance(text, str):
        raise Refuted(f"the certificate's {what} are missing")
    try:
        unpack = lzma.LZMADecompressor(format=lzma.FORMAT_XZ)
        raw = unpack.decompress(base64.b85decode(text.encode("ascii")), most + 1)
    except (ValueError, lzma.LZMAError) as err:
        raise Refuted(f"the certificate's {what} cannot be read: {err}") from None
    if len(raw) > most or not unpack.eof:
        raise Refuted(f"the certificate's {what} are more than {most:,} bytes, or cut short")
    return raw


def _numbers(raw: bytes, count: int) -> Any:
    """``count`` numbers from their LEB128 bytes (7 bits a byte, low bits first, the high
    bit set on every byte but a number's last; at most 9 bytes a number: 63 bits), or
    :class:`Refuted`.

    >>> _numbers(bytes.fromhex("017f8001ac02"), 4).tolist()
    [1, 127, 128, 300]
    """
    octets = np.frombuffer(raw, dtype=np.uint8)
    last = np.flatnonzero(octets < 0x80)  # the last byte of each number
    if len(last) != count or (count and last[-1] != len(octets) - 1) or (not count and len(octets)):
        raise Refuted(f"the certificate's sets are not {count:,} numbers")
    if not count:
        return np.zeros(0, dtype=np.uint64)
    first = np.concatenate(([0], last[:-1] + 1)).astype(np.int64)
    if int((last - first).max()) > 8:  # no step between sets of at most 62 vertices
        raise Refuted("the certificate's sets are not distinct vertex sets of the graph in increasing order")
    place = np.arange(len(octets), dtype=np.int64) - np.repeat(first, last - first + 1)
    bits = (octets & 0x7F).astype(np.uint64) << (7 * place).astype(np.uint64)
    return np.add.reduceat(bits, first)


def decode_table(certificate: Any, n: int) -> tuple[Any, Any]:
    """The vertex sets (``int64`` bit masks, increasing) and values (``int64``) of a
    certificate of :func:`~pyasp_games.domains.kayles.model.encode_k_set_table` on a
    graph of ``n`` vertices (in its format, or in the one before 0.3 that answers saved
    then hold), or :class:`Refuted` saying why it holds none.

    >>> from pyasp_games.domains.kayles.model import encode_k_set_table
    >>> sets, values = decode_table(encode_k_set_table([0b0111, 0b1110], [2, 0]), 4)
    >>> sets.tolist(), values.tolist()
    ([7, 14], [2, 0])
    >>> decode_table(encode_k_set_table([0b1110, 0b0111], [0, 2]), 4)
    Traceback (most recent call last):
    ...
    pyasp_games.domains.kayles.k_set_check.Refuted: the certificate's sets are not distinct vertex sets of the graph in increasing order
    """
    written = certificate.get("format") if isinstance(certificate, dict) else None
    if written not in (K_SET_FORMAT_XZ, K_SET_FORMAT):
        raise Refuted("the certificate is not a table of K-set values")
    count = certificate.get("count")
    if type(count) is not int or count < 0:
        raise Refuted(f"the certificate's count is no number of entries: {count!r}")
    if written == K_SET_FORMAT_XZ:
        steps = _numbers(_unpacked(certificate.get("sets"), 9 * count, "sets"), count)
        values = np.frombuffer(_unpacked(certificate.get("values"), count, "values"), dtype=np.uint8)
        if len(values) != count:
            raise Refuted(f"the certificate's values are not {count:,} bytes")
    else:  # saved before 0.3
        steps = np.frombuffer(_inflated(certificate.get("sets"), 8 * count, "sets"), dtype="<u8")
        values = np.frombuffer(_inflated(certificate.get("values"), count, "values"), dtype=np.uint8)
    if count and (steps.min() == 0 or steps.max() >= 1 << n):
        raise Refuted("the certificate's sets are not distinct vertex sets of the graph in increasing order")
    sets = np.cumsum(steps, dtype=np.uint64)  # each set: the one before it plus its step
    if count and (np.any(sets[1:] <= sets[:-1]) or int(sets[-1]) >= 1 << n):
        raise Refuted("the certificate's sets are not distinct vertex sets of the graph in increasing order")
    if count and int(values.max()) > MAX_VERTICES:
        raise Refuted(f"the table holds the value {int(values.max())}, above any set's (at most {MAX_VERTICES})")
    return sets.astype(np.int64), values.astype(np.int64)


# -- the kernels ------------------------------------------------------------------------


@kernel
def _component(nbr: Any, left: int) -> int:
    """The component of the lowest vertex of ``left`` within ``left`` (``nbr``: the
    neighbourhoods by bit modulo :data:`_MODULUS`)."""
    part = left & -left
    frontier = part
    while frontier:
        reach = 0
        while frontier:
            b = frontier & -frontier
            frontier ^= b
            reach |= nbr[b % 67]
        frontier = reach & left & ~part
        part |= frontier
    return part


@kernel
def _at_most_three(part: int) -> bool:
    """Whether ``part`` has at most 3 vertices (connected: a path or a triangle)."""
    x = part & (part - 1)
    x &= x - 1
    return (x & (x - 1)) == 0


@kernel
def _formula(nbr: Any, paths: Any, part: int) -> int:
    """The value of a connected ``part`` that is a path or a cycle, else -1: every
    degree at most 2, and as many edges as vertices less one (a path) or as vertices (a
    cycle, whose every move leaves a path of 3 fewer vertices)."""
    if part & (part - 1) == 0:
        return 1
    k = 0
    degrees = 0
    rest = part
    while rest:
        b = rest & -rest
        rest ^= b
        d = 0
        x = nbr[b % 67] & part
        while x:
            x &= x - 1
            d += 1
        if d > 2:
            return -1
        degrees += d
        k += 1
    if degrees == 2 * (k - 1):
        return paths[k]
    return 1 if paths[k - 3] == 0 else 0


@kernel
def _slot_of(keys: Any, part: int) -> int:
    """The slot of ``part`` in the open-addressing table ``keys`` (0: empty), found or free."""
    mask = len(keys) - 1
    x = (part ^ (part >> 29) ^ (part >> 13)) & 0x7FFFFFFF  # no overflow, compiled or not
    h = ((x * 2654435761) >> 11) & mask
    while keys[h] != 0 and keys[h] != part:
        h = (h + 1) & mask
    return h


@kernel
def _fill(keys: Any, worth: Any, sets: Any, values: Any) -> None:
    """Put every entry in the look-up table (``worth[h]``: the value of the set in slot ``h``)."""
    for i in range(len(sets)):
        h = _slot_of(keys, sets[i])
        keys[h] = sets[i]
        worth[h] = values[i]


@kernel
def _value_of(nbr: Any, paths: Any, keys: Any, worth: Any, left: int, state: Any) -> int:
    """The value of the position ``left``: the XOR of its components' (-1: one is
    neither a path, a cycle nor in the table, and ``state[_WHAT]`` is that one)."""
    total = 0
    while left:
        part = _component(nbr, left)
        left &= ~part
        if not _at_most_three(part):
            h = _slot_of(keys, part)
            if keys[h] != 0:
                total ^= worth[h]
                continue
        v = _formula(nbr, paths, part)
        if v < 0:
            state[_WHAT] = part
            return -1
        total ^= v
    return total


@kernel
def _mex_rule(budget: int, nbr: Any, closed: Any, paths: Any, keys: Any, worth: Any, sets: Any,
              values: Any, state: Any) -> int:  # fmt: skip
    """The mex rule at the entries from ``state[_NEXT]`` on, at most ``budget`` of them;
    an entry that breaks it stops the pass (``state[_BROKE]``, and its mex or the
    component the table lacks in ``state[_WHAT]``)."""
    while budget > 0:
        i = state[_NEXT]
        if i == len(sets):
            return _DONE
        budget -= 1
        s = sets[i]
        seen = 0
        moves = s
        while moves:
            b = moves & -moves
            moves ^= b
            x = _value_of(nbr, paths, keys, worth, s & ~closed[b % 67], state)
            if x < 0:
                state[_BROKE] = i
                return _MISSING
            seen |= 1 << x
        mex = 0
        while (seen >> mex) & 1:
            mex += 1
        if mex != values[i]:
            state[_BROKE] = i
            state[_WHAT] = mex
            return _WRONG
        state[_NEXT] = i + 1
    return _PAUSED


def warm_up() -> None:
    """Compile (or load) the kernels with the argument types of a real check."""
    from pyasp_games.domains.kayles.model import encode_k_set_table
    from pyasp_games.engines.graphs import numbered_graph

    square = numbered_graph(5, [(0, 1), (1, 2), (2, 3), (3, 0), (0, 4), (1, 4)], "warm")
    confirm(square, encode_k_set_table([0b11111], [0]), compile_first=False)  # every move leaves P_1 or P_2


# -- the driver -------------------------------------------------------------------------


def _vertex_set(graph: Graph, mask: int) -> str:
    return "{" + ", ".join(graph.names[v] for v in range(len(graph)) if mask >> v & 1) + "}"


def confirm(graph: Graph, certificate: Any, deadline: Deadline | None = None,
            compile_first: bool | None = None) -> tuple[int, list[int], int]:  # fmt: skip
    """Check a K-set table (module doc) on ``graph``: the value of the whole graph, the
    value every move leaves (by vertex) and the number of entries checked.
    :class:`Refuted` if the table does not hold; ``LimitReached`` past ``deadline``."""
    from pyasp_games.domains.kayles.verify import path_grundy

    n = len(graph)
    if n > MAX_VERTICES:
        raise Refuted(f"a K-set table is checked on graphs of at most {MAX_VERTICES} vertices")
    sets, values = decode_table(certificate, n)
    if compile_first is None:
        compile_first = len(sets) > INTERPRETED_TABLE
    if compile_first:
        compile_kernels(__name__)  # else plain Python, compiled by run_sliced if it lasts
    nbr = np.zeros(_MODULUS, dtype=np.int64)
    for u, v in graph.edges:
        nbr[(1 << u) % _MODULUS] |= 1 << v
        nbr[(1 << v) % _MODULUS] |= 1 << u
    closed = nbr.copy()
    for v in range(n):
        closed[(1 << v) % _MODULUS] |= 1 << v
    paths = np.array([path_grundy(k) for k in range(max(n, 3) + 1)], dtype=np.int64)
    capacity = 1 << max(4, (2 * len(sets) + 1).bit_length())  # at most half full
    keys = np.zeros(capacity, dtype=np.int64)
    worth = np.zeros(capacity, dtype=np.int64)
    _fill(keys, worth, sets, values)
    state = np.zeros(3, dtype=np.int64)
    codes: list[int] = []

    def step(budget: int) -> bool:
        codes.append(int(_mex_rule(budget, nbr, closed, paths, keys, worth, sets, values, state)))
        return codes[-1] != _PAUSED

    run_sliced(step, deadline, __name__, first=1 << 6)
    if codes[-1] != _DONE:
        where, what = _vertex_set(graph, int(sets[state[_BROKE]])), int(state[_WHAT])
        if codes[-1] == _MISSING:
            raise Refuted(f"the table lacks the vertex set {_vertex_set(graph, what)}, "
                          f"a component of an option of its entry {where}")  # fmt: skip
        raise Refuted(f"the table says {int(values[state[_BROKE]])} for the vertex set {where}, "
                      f"but the mex of its options' values is {what}")  # fmt: skip
    everything = (1 << n) - 1
    found = []
    for left in [everything] + [everything & ~int(closed[(1 << v) % _MODULUS]) for v in range(n)]:
        x = int(_value_of(nbr, paths, keys, worth, left, state))
        if x < 0:
            lacks = _vertex_set(graph, int(state[_WHAT]))
            raise Refuted(f"the table lacks the vertex set {lacks}, a component of "
                          + ("the whole graph" if left == everything else "a move's position on the whole graph"))  # fmt: skip
        found.append(x)
    return found[0], found[1:], len(sets)
