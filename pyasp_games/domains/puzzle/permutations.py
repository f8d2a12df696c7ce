"""Permutations as the thesis writes them (sections 3.1.2-3.1.4): array and cycle
notation, inverse, order, composition, parity by inversions and by transpositions.

A permutation of ``{1..n}`` is the tuple of its images, ``perm[i - 1] = sigma(i)``
(the thesis's array notation ``[sigma(1), ..., sigma(n)]``). Its cycle notation starts
each cycle at its smallest element and omits the fixed points, as the thesis does;
composition follows its definition 2, ``(sigma1 o sigma2)(k) = sigma2(sigma1(k))``:
``sigma1`` first. A board is the permutation of its cells: the cell ``i`` (row by row
from 1) holds the tile whose goal cell is ``sigma(i)``, the blank counted as the
last number (the thesis's 16).

>>> sigma = parse_permutation("[2,9,5,6,3,4,7,1,8]")
>>> format_cycles(cycles(sigma)), order(sigma), inversions(sigma)
('(1 2 9 8)(3 5)(4 6)', 4, 17)
>>> transpositions(sigma), parity(sigma)
(5, 'odd')
>>> sigma0 = parse_permutation("1 3 7 4 6 2 16 8 5 9 11 12 13 10 14 15")
>>> format_cycles(cycles(sigma0)), inversions(sigma0)
('(2 3 7 16 15 14 10 9 5 6)', 21)
>>> format_transpositions(sigma0)
'(2 3)(3 7)(7 16)(16 15)(15 14)(14 10)(10 9)(9 5)(5 6)'
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pyasp_games.errors import InputError

#: the largest degree ``n`` a permutation may have: its facts and their check are
#: O(n log n) in Python, about a second at this size
MAX_DEGREE = 100_000

Permutation = tuple[int, ...]

_CYCLE = re.compile(r"\(([^()]*)\)")
_NUMBER = re.compile(r"[0-9]+\Z")


def _numbers(text: str, what: str) -> list[int]:
    words = [w for w in re.split(r"[\s,;]+", text.strip()) if w]
    bad = next((w for w in words if not _NUMBER.match(w)), None)
    if bad is not None:
        raise InputError(f"{what}: {bad!r} is not a positive integer")
    return [int(w) for w in words]


def parse_permutation(text: str, size: int | None = None) -> Permutation:
    """A permutation in array notation (``[2,9,5,...]``, ``2 9 5 ...``: the images of
    1, 2, ...) or in cycle notation (``(1 2 9 8)(3 5)``; ``()`` is the identity), of
    degree ``size`` (default: the array's length, or the largest number in the cycles).

    >>> parse_permutation("(1 2)(3 4 5)")
    (2, 1, 4, 5, 3)
    >>> parse_permutation("(1 2)", size=3)
    (2, 1, 3)
    >>> parse_permutation("[2, 2, 1]")
    Traceback (most recent call last):
    ...
    pyasp_games.errors.InputError: [2, 2, 1] is not a permutation of 1..3: 2 appears twice
    """
    shown = text.strip()
    if size is not None and not 1 <= size <= MAX_DEGREE:
        raise InputError(f"--size must be between 1 and {MAX_DEGREE:,}, got {size}")
    if shown.startswith("("):
        if _CYCLE.sub("", shown).strip():
            raise InputError(f"{shown!r}: cycle notation is cycles '(a b c)' side by side, nothing else")
        cycles_read = [_numbers(c, shown) for c in _CYCLE.findall(shown)]
        seen: set[int] = set()
        for cycle in cycles_read:
            for a in cycle:
                if a in seen:
                    raise InputError(f"{shown} is not a permutation: {a} appears in two places")
                seen.add(a)
        top = max(seen, default=1)
        if 0 in seen:
            raise InputError(f"{shown}: the elements are 1..n, not 0")
        n = size if size is not None else top
        if top > n:
            raise InputError(f"{shown}: {top} is beyond the degree --size {n}")
        if n > MAX_DEGREE:
            raise InputError(f"{shown}: degree {n:,} is beyond this tool's limit of {MAX_DEGREE:,}")
        images = list(range(1, n + 1))
        for cycle in cycles_read:
            for a, b in zip(cycle, cycle[1:] + cycle[:1], strict=True):
                images[a - 1] = b
        return tuple(images)
    body = shown[1:-1] if shown.startswith("[") and shown.endswith("]") else shown
    images = _numbers(body, shown)
    if not images:
        raise InputError(f"{shown!r}: no numbers (array notation [2, 1, 3] or cycles (1 2))")
    if len(images) > MAX_DEGREE:
        raise InputError(f"a permutation of {len(images):,} elements: this tool's limit is {MAX_DEGREE:,}")
    if size is not None and size != len(images):
        raise InputError(f"--size {size}, but the array has {len(images)} elements")
    return checked(images, shown)


def checked(images: Sequence[int], shown: str) -> Permutation:
    """``images`` if they are a permutation of ``1..n``, else :class:`InputError` naming
    the first number that repeats or is out of range."""
    n = len(images)
    seen = [False] * (n + 1)
    for a in images:
        if not 1 <= a <= n:
            raise InputError(f"{shown} is not a permutation of 1..{n}: {a} is out of range")
        if seen[a]:
            raise InputError(f"{shown} is not a permutation of 1..{n}: {a} appears twice")
        seen[a] = True
    return tuple(images)


def cycles(perm: Permutation, fixed: bool = False) -> list[tuple[int, ...]]:
    """The disjoint cycles, each from its smallest element, in the order of those
    (the thesis's rule); fixed points only with ``fixed``."""
    seen = [False] * (len(perm) + 1)
    found = []
    for start in range(1, len(perm) + 1):
        if seen[start]:
            continue
        cycle = [start]
        seen[start] = True
        a = perm[start - 1]
        while a != start:
            cycle.append(a)
            seen[a] = True
            a = perm[a - 1]
        if len(cycle) > 1 or fixed:
            found.append(tuple(cycle))
    return found


def format_cycles(found: Sequence[Sequence[int]]) -> str:
    """Cycle notation, ``()`` for the identity."""
    return "".join("(" + " ".join(map(str, c)) + ")" for c in found) or "()"


def format_array(perm: Permutation) -> str:
    return "[" + ", ".join(map(str, perm)) + "]"


def inverse(perm: Permutation) -> Permutation:
    inv = [0] * len(perm)
    for i, a in enumerate(perm, 1):
        inv[a - 1] = i
    return tuple(inv)


def compose(first: Permutation, then: Permutation) -> Permutation:
    """``first`` then ``then``: ``k -> then(first(k))`` (the thesis's definition 2,
    ``(sigma1 o sigma2)(k) = sigma2(sigma1(k))``)."""
    if len(first) != len(then):
        raise InputError(f"cannot compose permutations of {len(first)} and {len(then)} elements")
    return tuple(then[a - 1] for a in first)


def order(perm: Permutation) -> int:
    """The least ``m >= 1`` with ``sigma^m`` the identity: the lcm of the cycle lengths."""
    return math.lcm(*(len(c) for c in cycles(perm)), 1)


def inversions(perm: Permutation) -> int:
    """Pairs ``i < j`` with ``sigma(i) > sigma(j)``, by merge sort (O(n log n))."""
    items, count, width = list(perm), 0, 1
    while width < len(items):
        merged: list[int] = []
        for lo in range(0, len(items), 2 * width):
            left, right = items[lo : lo + width], items[lo + width : lo + 2 * width]
            i = j = 0
            while i < len(left) and j < len(right):
                if left[i] <= right[j]:
                    merged.append(left[i])
                    i += 1
                else:
                    merged.append(right[j])
                    count += len(left) - i  # right[j] is smaller than all of left[i:]
                    j += 1
            merged += left[i:] + right[j:]
        items, width = merged, 2 * width
    return count


def transpositions(perm: Permutation) -> int:
    """How many transpositions the cycle decomposition uses: ``n`` minus the number of
    cycles (fixed points counted), an ``m``-cycle being ``m - 1`` of them."""
    return len(perm) - len(cycles(perm, fixed=True))


def parity(perm: Permutation) -> str:
    return "even" if transpositions(perm) % 2 == 0 else "odd"


def as_transpositions(perm: Permutation) -> list[tuple[int, int]]:
    """Each cycle ``(a1 ... am)`` as ``(a1 a2)(a2 a3)...(a(m-1) am)``, the thesis's form
    for sigma0; their product, the rightmost applied first, is ``perm``."""
    return [(c[i], c[i + 1]) for c in cycles(perm) for i in range(len(c) - 1)]


def format_transpositions(perm: Permutation) -> str:
    return "".join(f"({a} {b})" for a, b in as_transpositions(perm)) or "()"


def board_permutation(tiles: Sequence[int], goal_tiles: Sequence[int]) -> Permutation:
    """The permutation of a board's cells: ``sigma(i)`` is the goal cell (from 1, row by
    row) of what cell ``i`` holds, so the blank reads as the number of its goal cell
    (the thesis's 16 under the blank-last goal).

    >>> board_permutation((1, 3, 0, 2), (1, 2, 3, 0))
    (1, 3, 4, 2)
    """
    home = {v: i for i, v in enumerate(goal_tiles, 1)}
    return tuple(home[v] for v in tiles)


@dataclass(frozen=True)
class PermutationQuery:
    """What ``puzzle permutation`` is asked: ``perm`` (from notation or a board) and,
    with ``--compose``, a second permutation ``other`` of the same degree."""

    perm: Permutation
    other: Permutation | None = None
    name: str = "permutation"
    blank: int | None = None  # a board's: the number the blank reads as


def _is_file(text: str) -> bool:
    try:
        return Path(text).is_file()
    except (OSError, ValueError):  # a name too long, or with a NUL: notation then
        return False


def read_permutation(
    permutation: str,
    compose: str | None = None,
    size: int | None = None,
    goal: str | None = None,
) -> PermutationQuery:
    """``permutation`` in array or cycle notation, or a board file (its first board,
    under ``goal``); ``compose`` a second one in notation."""
    if not permutation or not permutation.strip():
        raise InputError("PERMUTATION: give an array [2,1,3], cycles (1 2) or a board file")
    if _is_file(permutation):
        from pyasp_games.domains.puzzle.model import load_boards

        if size is not None:
            raise InputError("--size applies to cycle notation, not to a board file")
        board = load_boards(Path(permutation), goal)[0]
        perm = board_permutation(board.tiles, board.goal_tiles)
        name, blank = board.name, board.goal_tiles.index(0) + 1
    else:
        if goal is not None:
            raise InputError("--goal applies to a board file, not to a permutation in notation")
        try:
            perm = parse_permutation(permutation, size)
        except InputError:
            if permutation.strip()[0] not in "([" and re.search(r"[A-Za-z/]", permutation):
                raise InputError(
                    f"{permutation}: no such board file, nor a permutation "
                    "(array [2,1,3] or cycles (1 2))"
                ) from None
            raise
        name, blank = "permutation", None
    other = None
    if compose is not None:
        other = parse_permutation(compose, len(perm) if compose.strip().startswith("(") else None)
        if len(other) != len(perm):
            raise InputError(f"--compose: a permutation of {len(other)} elements, not {len(perm)}")
    return PermutationQuery(perm, other, name, blank)
