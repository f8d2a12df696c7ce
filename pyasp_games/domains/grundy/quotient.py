"""The misère quotient of an octal game (Plambeck and Siegel), for the heaps up to ``n``.

Two sums ``G`` and ``H`` of heaps of at most ``n`` are indistinguishable when
``G + X`` and ``H + X`` have the same misère outcome for every such sum ``X``; the classes
form a commutative monoid ``Q`` (the sum of games is its product) with a *P-portion*
(the classes of the P-positions). When ``Q`` is finite it answers every sum: map each
heap to its element, multiply, and look whether the product is in ``P``.

:func:`misere_quotient` finds a candidate by computing outcomes: the behaviour of a sum is
its outcome beside every sum ``X`` of total size at most a bound, sums of different
behaviour are different elements (the ``X`` shows it), and the elements are closed under
adding a heap. The candidate is a claim: the checker
(:func:`~pyasp_games.domains.grundy.verify.check_quotient`) proves it exact, or refuses
it, with no search of sums at all (see there); a bound too small to separate two
elements is found out by that check and the bound doubled.

>>> q = misere_quotient("0.07", 6)  # Dawson's Kayles, heaps up to 6
>>> len(q["elements"]), q["heaps"][:4]
(6, ['a', 'b', 'b', 'c'])
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from pyasp_games.engines.limits import Deadline
from pyasp_games.errors import InputError

#: the longest octal code and the largest heap ``games quotient`` takes
MAX_DIGITS = 8
MAX_HEAP = 10


def parse_octal(code: str) -> tuple[int, ...]:
    """The digits after the point of an octal code (``0.07``, ``.137``); codes with a
    digit before the point other than 0 (``4.7``) are refused.

    >>> parse_octal("0.07"), parse_octal(".137")
    ((0, 7), (1, 3, 7))
    """
    head, point, digits = code.partition(".")
    if not point or head not in ("", "0") or not digits or len(digits) > MAX_DIGITS \
            or any(c not in "01234567" for c in digits) or not digits.strip("0"):  # fmt: skip
        raise InputError(
            f"--code: expected an octal game 0.d1d2... (digits 0-7, at most {MAX_DIGITS}), got {code!r}"
        )
    return tuple(int(c) for c in digits)


def octal_heap_options(digits: tuple[int, ...]) -> Callable[[int], list[tuple[int, ...]]]:
    """The moves of one heap of the octal game ``digits``: removing ``k`` tokens (digit
    ``d_k``) may leave no heap (bit 1, only when the heap is exactly ``k``), one heap
    (bit 2) or two heaps (bit 4); each option as the sorted heaps it leaves.

    >>> octal_heap_options((0, 7))(5)
    [(1, 2), (3,)]
    """

    def options(h: int) -> list[tuple[int, ...]]:
        out = set()
        for k, d in enumerate(digits, 1):
            if d & 1 and h == k:
                out.add(())
            if d & 2 and h > k:
                out.add((h - k,))
            if d & 4 and h > k + 1:
                for a in range(1, (h - k) // 2 + 1):
                    out.add((a, h - k - a))
        return sorted(out)

    return options


def sum_options(heap_options: Callable[[int], list[tuple[int, ...]]]) -> Callable[[tuple[int, ...]], set]:
    """The moves of a sum of heaps (sorted tuples): one heap moved."""

    def options(heaps: tuple[int, ...]) -> set[tuple[int, ...]]:
        out = set()
        for i, h in enumerate(heaps):
            if i and heaps[i - 1] == h:
                continue
            rest = heaps[:i] + heaps[i + 1 :]
            for left in heap_options(h):
                out.add(tuple(sorted(rest + left)))
        return out

    return options


def _sums_up_to(n: int, total: int) -> list[tuple[int, ...]]:
    """Every sum of heaps of 1..n whose sizes add up to at most ``total`` (sorted tuples)."""
    out: list[tuple[int, ...]] = []

    def grow(prefix: tuple[int, ...], smallest: int, left: int) -> None:
        out.append(prefix)
        for h in range(smallest, min(n, left) + 1):
            grow((*prefix, h), h, left - h)

    grow((), 1, total)
    return out


def misere_quotient(
    code: str, n: int, deadline: Deadline | None = None, bound: int | None = None
) -> dict[str, Any]:
    """A candidate misère quotient of the octal game ``code`` for the heaps up to ``n``.

    Returns ``{"elements": names, "representatives": a sum of heaps per element,
    "table": the product of every two elements, "p_portion": the elements that are
    P-positions, "heaps": the element of each heap 1..n, "bound": the size of the sums
    that told the elements apart}``. Elements are named ``a``, ``b``, ... in order of
    discovery (``a`` the empty sum, the identity).
    """
    from pyasp_games.domains.grundy.misere import Outcomes

    digits = parse_octal(code)
    if not 1 <= n <= MAX_HEAP:
        raise InputError(f"--upto must be from 1 to {MAX_HEAP} (this tool's limit), got {n}")
    search = Outcomes(sum_options(octal_heap_options(digits)), misere=True, deadline=deadline)
    size = bound or max(2 * n, 6)
    tests = _sums_up_to(n, size)

    def behaviour(heaps: tuple[int, ...]) -> Hashable:
        return tuple(search.wins(tuple(sorted(heaps + x))) for x in tests)

    reps: list[tuple[int, ...]] = [()]
    index = {behaviour(()): 0}
    heap_of: list[int] = []
    i = 0
    table: dict[tuple[int, int], int] = {}

    def element(heaps: tuple[int, ...]) -> int:
        key = behaviour(heaps)
        if key not in index:
            index[key] = len(reps)
            reps.append(heaps)
        return index[key]

    for h in range(1, n + 1):
        heap_of.append(element((h,)))
    while i < len(reps):  # close under adding a heap
        for h in range(1, n + 1):
            element(tuple(sorted(reps[i] + (h,))))
        i += 1
    for a in range(len(reps)):
        for b in range(a, len(reps)):
            table[(a, b)] = element(tuple(sorted(reps[a] + reps[b])))
    names = [_name(k) for k in range(len(reps))]
    return {
        "code": code,
        "upto": n,
        "elements": names,
        "representatives": {names[k]: list(r) for k, r in enumerate(reps)},
        "table": {f"{names[a]}{names[b]}": names[c] for (a, b), c in table.items()},
        "p_portion": [names[k] for k, r in enumerate(reps) if not search.wins(r)],
        "heaps": [names[k] for k in heap_of],
        "bound": size,
    }


def _name(k: int) -> str:
    """``a``, ``b``, ..., ``z``, ``a1``, ``b1``, ...: short names of elements."""
    return chr(ord("a") + k % 26) + (str(k // 26) if k >= 26 else "")
