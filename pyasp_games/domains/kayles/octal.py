"""Node Kayles on paths: the octal game .137 (Dawson's chess, OEIS A002187), with its
period proved rather than assumed.

A move on the path ``P_n`` picks a vertex and deletes it with its neighbours: an end
vertex takes two (one, if ``n = 1``), an inner vertex three and splits the rest in two,
``P_a + P_b`` with ``a + b = n - 3``. So ``g(n) = mex{g(a) XOR g(b)}`` over those splits:
the octal game .137 (take one token only if it is the whole heap; two from an end; three
from anywhere). Grundy values of paths are computed by that recursion up to
:data:`CERTIFIED_UPTO`; beyond it, by the period, which the Guy-Smith periodicity
theorem proves from the computed values alone: if ``g(n + p) = g(n)`` for every ``n``
with ``n0 <= n < 2 n0 + p + t`` (``t = 3``, the most tokens one move takes), then
``g(n + p) = g(n)`` for every ``n >= n0``. :func:`period_certificate` checks that
hypothesis on the computed values (with ``p = 34``, ``n0`` the first index from which
it holds) and nothing beyond the certified range is used before it passed.

>>> path_values(20)
[0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0]
>>> cert = period_certificate()
>>> cert["period"], cert["preperiod"], cert["exceptions"]
(34, 52, [0, 14, 16, 17, 31, 34, 51])
>>> path_values(10_000)[10_000] == path_values(10_000)[10_000 - 34 * 200]
True
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

#: The period of Dawson's chess (Guy and Smith 1956; OEIS A002187).
PERIOD = 34
#: The most tokens one move of .137 takes (the ``t`` of the periodicity theorem).
MOST_TAKEN = 3
#: Values computed by the recursion itself: enough for the theorem's hypothesis with any
#: preperiod up to 100 (``2 * 100 + 34 + 3`` indices, and a period beyond them).
CERTIFIED_UPTO = 2 * 100 + PERIOD + MOST_TAKEN + PERIOD


@lru_cache(maxsize=1)
def _direct() -> tuple[int, ...]:
    """``g(0..CERTIFIED_UPTO)`` by the recursion (about 28,000 XORs)."""
    g = [0]
    for n in range(1, CERTIFIED_UPTO + 1):
        seen = set()
        for i in range(n):  # delete vertex i and its neighbours: P_(i-1) + P_(n-i-2)
            left, right = max(i - 1, 0), max(n - i - 2, 0)
            seen.add(g[left] ^ g[right])
        k = 0
        while k in seen:
            k += 1
        g.append(k)
    return tuple(g)


@lru_cache(maxsize=1)
def period_certificate() -> dict[str, Any]:
    """The proof that ``g(n + 34) = g(n)`` for all ``n >= n0``: the least ``n0`` for which
    the computed values satisfy the periodicity theorem's hypothesis, and the indices
    below it whose value differs from the periodic part's (the "exceptions")."""
    g = _direct()
    for n0 in range(0, 101):
        last = 2 * n0 + PERIOD + MOST_TAKEN
        if all(g[n + PERIOD] == g[n] for n in range(n0, last)):
            # below n0, the values that differ from the periodic part's value for their
            # residue (what Winning Ways and OEIS A002187 call the exceptions)
            exceptions = [n for n in range(n0) if g[n] != g[n + PERIOD * (n0 // PERIOD + 1)]]
            return {
                "period": PERIOD,
                "preperiod": n0,
                "exceptions": exceptions,
                "checked_upto": last + PERIOD - 1,
                "proof": f"g(n+{PERIOD}) = g(n) computed for {n0} <= n < {last} "
                f"(2*{n0}+{PERIOD}+{MOST_TAKEN}): periodic from {n0} on (Guy-Smith)",
            }
    raise AssertionError("the .137 recursion is not periodic with period 34 from n0 <= 100")


def path_value(n: int) -> int:
    """``g(P_n)``: computed up to :data:`CERTIFIED_UPTO`, by the certified period beyond."""
    g = _direct()
    if n <= CERTIFIED_UPTO:
        return g[n]
    n0 = period_certificate()["preperiod"]
    return g[n0 + (n - n0) % PERIOD]


def path_values(upto: int) -> list[int]:
    """``[g(P_0), ..., g(P_upto)]``."""
    return [path_value(n) for n in range(upto + 1)]


def cycle_value(n: int) -> int:
    """``g(C_n)`` for ``n >= 3``: every move on a cycle deletes three consecutive vertices
    and leaves the path ``P_(n-3)``, so the value is the mex of that one value."""
    return 1 if path_value(n - 3) == 0 else 0


# -- misère play: misère Dawson's chess ---------------------------------------------------

#: The largest path ``kayles sequence path --misere`` takes: the direct search visits every
#: sum of paths a path splits into, which grows like the partitions of its length.
MISERE_PATH_UPTO = 70


def dawson_options(paths: tuple[int, ...]) -> set[tuple[int, ...]]:
    """Every position one move of Node Kayles reaches from the sum of paths ``paths``
    (sorted lengths, no empty path): a move deletes a vertex of one path and its
    neighbours, leaving two shorter paths.

    >>> sorted(dawson_options((5,)))
    [(1, 1), (2,), (3,)]
    """
    out = set()
    for i, n in enumerate(paths):
        if i and paths[i - 1] == n:
            continue
        rest = paths[:i] + paths[i + 1 :]
        for v in range((n + 1) // 2):  # by symmetry, the first half of the path
            parts = (max(v - 1, 0), max(n - v - 2, 0))
            out.add(tuple(sorted(rest + tuple(p for p in parts if p))))
    return out


def misere_path_outcomes(upto: int, deadline: Any = None) -> list[str]:
    """The misère outcomes ``P``/``N`` of the paths ``P_0 .. P_upto`` (misère Dawson's
    chess, the octal game .137), by direct search over the sums of paths (misère outcomes
    of sums do not follow from the parts' values, nor do they obey the Guy-Smith
    periodicity theorem: no period is claimed).

    >>> "".join(misere_path_outcomes(12))
    'NPPNNNPPNNNPN'
    """
    from pyasp_games.domains.grundy.misere import Outcomes

    search = Outcomes(dawson_options, misere=True, deadline=deadline)
    return ["N" if search.wins((n,) if n else ()) else "P" for n in range(upto + 1)]
