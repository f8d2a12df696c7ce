"""Exact certificates of the value of a zero-sum game, checked in rational arithmetic.

A certificate of ``v`` for a matrix game ``A`` is a pair of mixed strategies: the
row player's ``x`` guarantees at least ``v`` against every column
(``min_j sum_i x_i a_ij >= v``) and the column player's ``y`` holds the row player
to at most ``v`` (``max_i sum_j a_ij y_j <= v``). Both being probability vectors,
``v`` is then the value and both strategies are optimal (the minimax theorem's
easy half). This module imports nothing from the solvers.

>>> from fractions import Fraction as F
>>> A = [[-2, 3], [3, -4]]
>>> check_matrix_certificate(A, [F(7, 12), F(5, 12)], [F(7, 12), F(5, 12)], F(1, 12))
(True, 'value 1/12 certified: row strategy guarantees 1/12, column strategy concedes 1/12')
>>> check_matrix_certificate(A, [F(1, 2), F(1, 2)], [F(7, 12), F(5, 12)], F(1, 12))[0]
False
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import lcm

Number = int | Fraction


def probability_vector(p: Sequence[Number], size: int) -> str | None:
    """Why ``p`` is not a probability vector of length ``size`` (``None`` if it is)."""
    if len(p) != size:
        return f"{len(p)} probabilities for {size} strategies"
    for k, x in enumerate(p):
        if not isinstance(x, int | Fraction):
            return f"probability {k + 1} is {x!r}, not an exact rational"
        if x < 0:
            return f"probability {k + 1} is negative ({x})"
    if sum(p, Fraction(0)) != 1:
        return f"probabilities sum to {sum(p, Fraction(0))}, not 1"
    return None


def _integer_form(p: Sequence[Number]) -> tuple[list[int], int]:
    """``p`` as integers over one common denominator (fast exact dot products)."""
    denominator = lcm(*(Fraction(x).denominator for x in p)) if p else 1
    return [int(Fraction(x) * denominator) for x in p], denominator


def row_guarantee(matrix: Sequence[Sequence[Number]], x: Sequence[Number]) -> Fraction:
    """``min_j sum_i x_i a_ij``: what the row strategy ``x`` guarantees (exactly)."""
    mat, scale = _integer_rows(matrix)
    xs, d = _integer_form(x)
    active = [(i, xi) for i, xi in enumerate(xs) if xi]
    best = min(sum(xi * mat[i][j] for i, xi in active) for j in range(len(mat[0])))
    return Fraction(best, d * scale)


def column_concession(matrix: Sequence[Sequence[Number]], y: Sequence[Number]) -> Fraction:
    """``max_i sum_j a_ij y_j``: the most the row player gets against ``y`` (exactly)."""
    mat, scale = _integer_rows(matrix)
    ys, d = _integer_form(y)
    active = [(j, yj) for j, yj in enumerate(ys) if yj]
    best = max(sum(row[j] * yj for j, yj in active) for row in mat)
    return Fraction(best, d * scale)


def _integer_rows(matrix: Sequence[Sequence[Number]]) -> tuple[list[list[int]], int]:
    scale = lcm(*(Fraction(a).denominator for row in matrix for a in row))
    return [[int(Fraction(a) * scale) for a in row] for row in matrix], scale


def check_matrix_certificate(
    matrix: Sequence[Sequence[Number]],
    x: Sequence[Number],
    y: Sequence[Number],
    value: Number,
) -> tuple[bool, str]:
    """Check exactly that ``x`` and ``y`` are optimal and ``value`` is the value."""
    m, n = len(matrix), len(matrix[0])
    for who, p, size in (("row", x, m), ("column", y, n)):
        why = probability_vector(p, size)
        if why is not None:
            return False, f"{who} strategy: {why}"
    low, high = row_guarantee(matrix, x), column_concession(matrix, y)
    if low < value:
        return False, f"row strategy guarantees only {low} < {value}"
    if high > value:
        return False, f"column strategy concedes {high} > {value}"
    return True, (
        f"value {value} certified: row strategy guarantees {low}, column strategy concedes {high}"
    )
