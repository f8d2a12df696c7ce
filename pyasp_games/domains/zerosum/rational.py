"""Exact solution of sparse rational linear systems (the step from a floating LP answer
to an exact one), and the scale at which exact payoffs are handed to a floating solver.

Each equation is a dict ``{unknown: coefficient}`` with a right-hand side; the
solver eliminates in integer arithmetic (every row scaled to integers and kept
primitive by its gcd), so no rational number is formed before the back
substitution. Unknowns left free by the equations are set to 0 (a basic
solution); an inconsistent system gives ``None``.

>>> from fractions import Fraction as F
>>> solve_linear([({"x": 1, "y": 1}, 1), ({"x": 3, "y": -4}, 0)])
{'x': Fraction(4, 7), 'y': Fraction(3, 7)}
>>> solve_linear([({"x": 1}, 1), ({"x": 2}, 3)]) is None
True
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from fractions import Fraction
from math import gcd, lcm
from typing import Any

from pyasp_games.engines.limits import Deadline

Equation = tuple[Mapping[Hashable, int | Fraction], int | Fraction]


def _integer_row(coeffs: Mapping[Hashable, int | Fraction], rhs: int | Fraction
                 ) -> tuple[dict[Hashable, int], int]:
    items = {k: Fraction(v) for k, v in coeffs.items() if v != 0}
    scale = lcm(Fraction(rhs).denominator, *(v.denominator for v in items.values()))
    return {k: int(v * scale) for k, v in items.items()}, int(Fraction(rhs) * scale)


def _primitive(row: dict[Hashable, int], rhs: int) -> tuple[dict[Hashable, int], int]:
    g = gcd(rhs, *row.values())
    if g > 1:
        return {k: v // g for k, v in row.items()}, rhs // g
    return row, rhs


def solve_linear(
    equations: Iterable[Equation], deadline: Deadline | None = None
) -> dict[Hashable, Fraction] | None:
    """A solution of the equations (free unknowns 0), or ``None`` if they are inconsistent.

    Uses FLINT's exact reduced row echelon form (python-flint) when it is
    installed, else the pure-Python elimination below; both give a basic solution.
    """
    equations = list(equations)
    try:
        import flint
    except ImportError:  # pragma: no cover - python-flint is a dependency
        return solve_linear_python(equations, deadline)
    return _solve_flint(flint, equations)


def _solve_flint(flint: Any, equations: list[Equation]) -> dict[Hashable, Fraction] | None:
    unknowns: dict[Hashable, int] = {}
    for coeffs, _ in equations:
        for var in coeffs:
            unknowns.setdefault(var, len(unknowns))
    n = len(unknowns)
    if not equations:
        return {}
    table = [[0] * (n + 1) for _ in equations]
    for k, (coeffs, rhs) in enumerate(equations):
        row, r = _integer_row(coeffs, rhs)
        for var, c in row.items():
            table[k][unknowns[var]] = c
        table[k][n] = r
    reduced, rank = flint.fmpq_mat(table).rref()
    names = list(unknowns)
    solution = {var: Fraction(0) for var in names}
    for k in range(rank):
        lead = next(j for j in range(n + 1) if reduced[k, j] != 0)
        if lead == n:
            return None  # 0 = nonzero: inconsistent
        value = reduced[k, n]
        solution[names[lead]] = Fraction(int(value.p), int(value.q))
    return solution


def solve_linear_python(
    equations: Iterable[Equation], deadline: Deadline | None = None
) -> dict[Hashable, Fraction] | None:
    """:func:`solve_linear` in pure Python: sparse integer elimination.

    >>> sorted(solve_linear_python([({"x": 1, "y": 1}, 1), ({"x": 3, "y": -4}, 0)]).items())
    [('x', Fraction(4, 7)), ('y', Fraction(3, 7))]
    """
    rows: list[tuple[dict[Hashable, int], int]] = [
        _integer_row(c, r) for c, r in equations
    ]
    # which rows mention an unknown (kept up to date as rows change)
    where: dict[Hashable, set[int]] = {}
    for k, (row, _) in enumerate(rows):
        for var in row:
            where.setdefault(var, set()).add(k)
    pivots: list[tuple[Hashable, int]] = []  # (unknown, row index) in elimination order
    done: set[int] = set()
    for k in range(len(rows)):
        if deadline is not None:
            deadline.check()
        row, rhs = rows[k]
        if not row:
            if rhs != 0:
                return None
            done.add(k)
            continue
        # pivot on the unknown of this row that occurs in the fewest other rows (less fill-in)
        var = min(row, key=lambda v: len(where[v]))
        a = row[var]
        for r in list(where[var]):
            if r == k or r in done:
                continue
            other, orhs = rows[r]
            b = other[var]
            new = {v: c * a for v, c in other.items()}
            for v, c in row.items():
                value = new.get(v, 0) - b * c
                if value:
                    if v not in new:
                        where.setdefault(v, set()).add(r)
                    new[v] = value
                else:
                    new.pop(v, None)
                    where[v].discard(r)
            rows[r] = _primitive(new, orhs * a - rhs * b)
        pivots.append((var, k))
        done.add(k)
        for v in row:
            where[v].discard(k)
    # back substitution in reverse elimination order (later pivots do not involve earlier ones)
    solution: dict[Hashable, Fraction] = {}
    for var, k in reversed(pivots):
        row, rhs = rows[k]
        total = Fraction(rhs)
        for v, c in row.items():
            if v != var:
                total -= c * solution.get(v, Fraction(0))
        solution[var] = total / row[var]
    for row, _ in rows:
        for v in row:
            solution.setdefault(v, Fraction(0))
    return solution


def payoff_scale(entries: Mapping[tuple[int, int], Fraction]) -> Fraction:
    """A power of two near the largest payoff's size (1 for none): HiGHS works in
    doubles, so the payoffs are handed over divided by it (about 1 at most), and payoffs
    beyond floating point (10^400) or beyond HiGHS's infinity (10^20) still solve. Scaling
    the payoffs changes neither the supports nor the optimal strategies.

    >>> payoff_scale({(0, 0): Fraction(10**400), (0, 1): Fraction(1)}) == 2**1328
    True
    >>> payoff_scale({(0, 0): Fraction(3)}), payoff_scale({})
    (Fraction(2, 1), Fraction(1, 1))
    """
    if not entries:
        return Fraction(1)
    largest = max(abs(v) for v in entries.values())
    return Fraction(2) ** (largest.numerator.bit_length() - largest.denominator.bit_length())
