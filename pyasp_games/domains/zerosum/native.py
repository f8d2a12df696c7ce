"""Native exact algorithms for matrix games: the simplex tableau, saddle points, dominance.

:func:`simplex_tableau` is the pivot method for matrix games (T. S. Ferguson, "Game
Theory", lecture notes, UCLA, Part II, section 4; after J. D. Williams, "The Compleat
Strategyst"): shift the matrix so the value is positive, border it with ``-1``
below, ``1`` on the right and ``0`` in the corner, label rows with player I's
``x_i`` and columns with player II's ``y_j``, pivot (a column with a negative
bottom entry, a positive pivot, the row of the smallest ratio right/pivot) until
the bottom row has no negative entry, and read off: the value is ``1/corner``
(minus the shift), ``x_i`` on top gets ``bottom/corner``, ``y_j`` on the left
gets ``right/corner``. It runs in exact integer arithmetic (a common denominator
for the whole tableau, the integer-pivoting form of the same steps), with Bland's
rule among eligible columns and rows once Dantzig's rule (the most negative
bottom entry) has made many pivots, so it cannot cycle.

>>> from pyasp_games.domains.zerosum.model import make_game
>>> v, x, y, pivots = simplex_tableau(make_game([[2, 3, 1, 5], [4, 1, 6, 0]]).matrix)
>>> v, [str(p) for p in x], [str(q) for q in y]
(Fraction(17, 7), ['5/7', '2/7'], ['0', '5/7', '2/7', '0'])
>>> saddle_points(make_game([[3, 1], [4, 2]]).matrix)
[(1, 1)]
>>> closed_form_2x2(make_game([[-2, 3], [3, -4]]).matrix)[0]
Fraction(1, 12)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm
from typing import Any

from pyasp_games.domains.zerosum.extensive import (
    ExtensiveGame,
    normal_form,
    realization_from_mixed,
    tree_claim,
)
from pyasp_games.domains.zerosum.model import Matrix, MatrixGame, dominance_claim, saddle_claim
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.limits import Deadline, LimitReached, Limits

Strategy = list[Fraction]


def simplex_tableau(
    matrix: Matrix, deadline: Deadline | None = None
) -> tuple[Fraction, Strategy, Strategy, int]:
    """Value and optimal strategies ``(v, x, y, pivots)`` by the tableau's pivot method."""
    m, n = len(matrix), len(matrix[0])
    # Step 1: shift so that every entry (hence the value) is positive.
    shift = 1 - min(min(row) for row in matrix)
    shift = max(shift, Fraction(0))
    scale = lcm(*(Fraction(a + shift).denominator for row in matrix for a in row))
    # Step 2: the bordered tableau, as integers over the common denominator ``d``
    # (entries t/d). Scaling the matrix by ``scale`` scales the value by ``scale``.
    t = [[int((a + shift) * scale) for a in row] + [1] for row in matrix]
    t.append([-1] * n + [0])
    d = 1
    left = [("x", i) for i in range(m)]  # row labels
    top = [("y", j) for j in range(n)]  # column labels
    pivots = 0
    bland_after = 20 * (m + n)
    while True:
        if deadline is not None and pivots % 16 == 0:
            deadline.check()
        bottom = t[m]
        # Step 3a: the most negative bottom entry (Dantzig); after many pivots Bland's
        # rule (the smallest label), which cannot cycle.
        candidates = [q for q in range(n) if bottom[q] < 0]
        if not candidates:
            break
        if pivots < bland_after:
            q = min(candidates, key=lambda c: (bottom[c], top[c]))
        else:
            q = min(candidates, key=lambda c: top[c])
        # Steps 3b, 3c: a positive pivot minimizing right/pivot (ties: smallest label).
        best = None
        for i in range(m):
            if t[i][q] > 0:
                key = (Fraction(t[i][n], t[i][q]), left[i])
                if best is None or key < best[0]:
                    best = (key, i)
        if best is None:  # cannot happen for a positive matrix (the LP is bounded)
            raise RuntimeError("unbounded tableau")
        p = best[1]
        piv = t[p][q]
        # Step 4 in integer form: entries become (t_ij t_pq - t_pj t_iq) / d over the
        # new denominator t_pq; the pivot row keeps its numerators, the pivot
        # column is negated, the pivot becomes the old denominator.
        for i in range(m + 1):
            if i == p:
                continue
            row, tiq = t[i], t[i][q]
            prow = t[p]
            if tiq == 0:
                for j in range(n + 1):
                    if j != q:
                        row[j] = row[j] * piv // d
            else:
                for j in range(n + 1):
                    if j != q:
                        row[j] = (row[j] * piv - prow[j] * tiq) // d
            row[q] = -tiq
        t[p][q] = d
        d = piv
        # Step 5: swap the labels.
        left[p], top[q] = top[q], left[p]
        pivots += 1
    corner = t[m][n]  # the corner is corner/d; the shifted, scaled value is d/corner
    x = [Fraction(0)] * m
    y = [Fraction(0)] * n
    for j, (who, k) in enumerate(top):
        if who == "x":
            x[k] = Fraction(t[m][j], corner)
    for i, (who, k) in enumerate(left):
        if who == "y":
            y[k] = Fraction(t[i][n], corner)
    value = Fraction(d, corner) / scale - shift
    return value, x, y, pivots


def saddle_points(matrix: Matrix) -> list[tuple[int, int]]:
    """Every pure saddle point ``(i, j)``: ``a_ij`` is the minimum of its row and the maximum
    of its column (0-based)."""
    row_min = [min(row) for row in matrix]
    col_max = [max(col) for col in zip(*matrix, strict=True)]
    return [
        (i, j)
        for i, row in enumerate(matrix)
        for j, a in enumerate(row)
        if a == row_min[i] and a == col_max[j]
    ]


def closed_form_2x2(matrix: Matrix) -> tuple[Fraction, Strategy, Strategy]:
    """The 2x2 formula: a saddle point if there is one, else ``v = (ad - bc)/(a + d - b - c)``,
    ``x = ((d - c), (a - b))/(a + d - b - c)``, ``y = ((d - b), (a - c))/(a + d - b - c)``."""
    if len(matrix) != 2 or len(matrix[0]) != 2:
        raise ValueError("the closed form is for 2x2 games")
    saddles = saddle_points(matrix)
    if saddles:
        i, j = saddles[0]
        x = [Fraction(int(k == i)) for k in range(2)]
        y = [Fraction(int(k == j)) for k in range(2)]
        return Fraction(matrix[i][j]), x, y
    (a, b), (c, d) = matrix
    den = a + d - b - c  # nonzero without a saddle point
    value = Fraction(a * d - b * c) / den
    return value, [Fraction(d - c) / den, Fraction(a - b) / den], [
        Fraction(d - b) / den, Fraction(a - c) / den]


@dataclass
class Reduction:
    """The outcome of iterated elimination: what was removed, why, and what is left."""

    rows: list[int]  # surviving rows (original indices)
    cols: list[int]
    steps: list[dict[str, Any]] = field(default_factory=list)


def _dominates(a: Sequence[Fraction], b: Sequence[Fraction], strict: bool) -> bool:
    """``a >= b`` entrywise, strictly everywhere (strict) or somewhere (weak)."""
    if strict:
        return all(p > q for p, q in zip(a, b, strict=True))
    return all(p >= q for p, q in zip(a, b, strict=True)) and any(
        p > q for p, q in zip(a, b, strict=True)
    )


def mixture_dominating(
    payoffs: Sequence[Sequence[Fraction]], target: Sequence[Fraction],
    deadline: Deadline | None = None,
) -> list[Fraction] | None:
    """A mixture ``p`` of ``payoffs`` with ``p . payoffs > target`` in every entry, or ``None``.

    Exact: such ``p`` exists iff the game ``B_kj = payoffs_kj - target_j`` has a
    positive value, and then B's optimal row strategy is one.
    """
    if not payoffs:
        return None
    diff = tuple(tuple(Fraction(a - t) for a, t in zip(row, target, strict=True))
                 for row in payoffs)
    value, x, _, _ = simplex_tableau(diff, deadline)
    return x if value > 0 else None


def weak_mixture_dominating(
    payoffs: Sequence[Sequence[Fraction]], target: Sequence[Fraction]
) -> list[Fraction] | None:
    """A mixture ``p`` with ``p . payoffs >= target`` everywhere and ``>`` somewhere, or ``None``.

    HiGHS maximizes the total surplus ``sum_j (p . payoffs - target)_j`` subject to no
    deficit; its floating ``p`` is rounded to a nearby rational mixture that is then
    checked exactly, so a returned mixture is always a proof. ``None`` means none was
    found (the row is then kept, which is always safe).
    """
    from scipy.optimize import linprog

    from pyasp_games.domains.zerosum.rational import payoff_scale

    exact = [[a - t for a, t in zip(row, target, strict=True)] for row in payoffs]
    # in floating point at the payoffs' own size: no overflow for payoffs of 10^400
    scale = payoff_scale({(r, j): d for r, row in enumerate(exact) for j, d in enumerate(row) if d})
    diff = [[float(d / scale) for d in row] for row in exact]
    k, n = len(diff), len(target)
    surplus = [-sum(row) for row in diff]
    a_ub = [[-diff[r][j] for r in range(k)] for j in range(n)]
    result = linprog(surplus, A_ub=a_ub, b_ub=[0.0] * n, A_eq=[[1.0] * k], b_eq=[1.0],
                     bounds=[(0, None)] * k, method="highs")
    if result.status != 0 or -result.fun <= 1e-9:
        return None
    for bound in (10**4, 10**6, 10**9):
        p = [Fraction(float(v)).limit_denominator(bound) if v > 1e-12 else Fraction(0)
             for v in result.x]
        total = sum(p, Fraction(0))
        if total <= 0:
            continue
        p = [q / total for q in p]
        mixed = [sum((q * row[j] for q, row in zip(p, payoffs, strict=True) if q), Fraction(0))
                 for j in range(n)]
        if all(m >= t for m, t in zip(mixed, target, strict=True)) and any(
                m > t for m, t in zip(mixed, target, strict=True)):
            return p
    return None


def iterated_dominance(
    game: MatrixGame, strict: bool = True, mixtures: bool = True,
    deadline: Deadline | None = None,
) -> Reduction:
    """Remove dominated rows (for I) and columns (for II) until none is left.

    ``strict`` removes only strictly dominated strategies (the order does not
    matter and the value and every optimal strategy survive); weak dominance
    (``strict=False``) keeps the value but may lose optimal strategies, and its
    result may depend on the order. ``mixtures`` also tries domination by mixtures
    (exactly for strict dominance; for weak dominance a mixture found by HiGHS and
    checked exactly, see :func:`weak_mixture_dominating`).
    """
    A = game.matrix
    rows, cols = list(range(game.shape[0])), list(range(game.shape[1]))
    steps: list[dict[str, Any]] = []
    changed = True
    while changed:
        changed = False
        if deadline is not None:
            deadline.check()
        for player in ("I", "II"):
            own, other = (rows, cols) if player == "I" else (cols, rows)
            if len(own) < 2:
                continue

            def line(k: int, player: str = player, other: list[int] = other) -> list[Fraction]:
                # payoffs of strategy k to its player (II's are negated: he minimizes)
                if player == "I":
                    return [A[k][j] for j in other]
                return [-A[i][k] for i in other]

            for k in list(own):
                rest = [r for r in own if r != k]
                dominator = next(
                    (r for r in rest if _dominates(line(r), line(k), strict)), None
                )
                if dominator is not None:
                    own.remove(k)
                    steps.append({"player": player, "removed": k, "by": {dominator: Fraction(1)},
                                  "kind": "strict" if strict else "weak"})
                    changed = True
                    continue
                if mixtures and len(rest) >= 2:
                    payoffs = [line(r) for r in rest]
                    mix = mixture_dominating(payoffs, line(k), deadline)
                    kind = "strict, by a mixture"
                    if mix is None and not strict:
                        mix, kind = weak_mixture_dominating(payoffs, line(k)), "weak, by a mixture"
                    if mix is not None:
                        own.remove(k)
                        by = {r: p for r, p in zip(rest, mix, strict=True) if p}
                        steps.append({"player": player, "removed": k, "by": by, "kind": kind})
                        changed = True
    return Reduction(rows, cols, steps)


def _label(label: tuple[str, int]) -> str:
    return f"{label[0]}{label[1] + 1}"


def _snapshot(t: list[list[Fraction]], left: list[tuple[str, int]], top: list[tuple[str, int]]
              ) -> dict[str, Any]:
    return {"top": [_label(c) for c in top], "left": [_label(r) for r in left],
            "rows": [[str(a) for a in row] for row in t]}


def simplex_steps(
    matrix: Matrix, deadline: Deadline | None = None
) -> tuple[Fraction, Strategy, Strategy, list[dict[str, Any]]]:
    """The tableau method step by step, in fractions, as the seven steps read (the same
    rules as :func:`simplex_tableau`: the most negative bottom entry, then Bland's rule
    after many pivots; the smallest ratio, ties to the smallest label).

    Returns ``(v, x, y, steps)``: ``steps`` records the shift (step 1), each tableau
    (``top``/``left`` labels, ``rows`` as text, the last row the bottom border) with the
    pivot chosen in it (step 3: ``pivot`` = [row, col], its ``ratios``), and the reading
    of the last tableau (step 7).

    >>> v, x, y, steps = simplex_steps(((-2, 3), (3, -4)))
    >>> v, steps[0]["shift"], steps[1]["pivot"], steps[-1]["corner"]
    (Fraction(1, 12), '5', [1, 0], '12/61')
    """
    m, n = len(matrix), len(matrix[0])
    low = min(min(row) for row in matrix)
    shift = max(1 - Fraction(low), Fraction(0))  # Step 1: every entry, hence the value, > 0
    steps: list[dict[str, Any]] = [{"step": 1, "shift": str(shift), "smallest": str(low)}]
    # Step 2: border with 1 on the right, -1 below, 0 in the corner
    t = [[Fraction(a) + shift for a in row] + [Fraction(1)] for row in matrix]
    t.append([Fraction(-1)] * n + [Fraction(0)])
    left = [("x", i) for i in range(m)]
    top = [("y", j) for j in range(n)]
    bland_after = 20 * (m + n)
    pivots = 0
    while True:
        if deadline is not None:
            deadline.check()
        record = {"step": 2 if pivots == 0 else 4, **_snapshot(t, left, top)}
        steps.append(record)
        candidates = [q for q in range(n) if t[m][q] < 0]
        if not candidates:  # Step 6: no negative entry in the bottom row: step 7
            break
        if pivots < bland_after:  # Step 3a: a negative bottom entry, the most negative
            q = min(candidates, key=lambda c: (t[m][c], top[c]))
        else:
            q = min(candidates, key=lambda c: top[c])
        ratios = {i: t[i][n] / t[i][q] for i in range(m) if t[i][q] > 0}  # 3b: positive
        p = min(ratios, key=lambda i: (ratios[i], left[i]))  # 3c: the smallest ratio
        record["pivot"] = [p, q]
        record["ratios"] = {_label(left[i]): str(r) for i, r in ratios.items()}
        piv = t[p][q]
        new = [row[:] for row in t]
        for i in range(m + 1):  # Step 4a: the rest, a_ij - a_pj a_iq / a_pq
            for j in range(n + 1):
                if i != p and j != q:
                    new[i][j] = t[i][j] - t[p][j] * t[i][q] / piv
        for j in range(n + 1):  # 4b: the pivot row divided by the pivot
            if j != q:
                new[p][j] = t[p][j] / piv
        for i in range(m + 1):  # 4c: the pivot column, negated, divided by the pivot
            if i != p:
                new[i][q] = -t[i][q] / piv
        new[p][q] = 1 / piv  # 4d: the pivot's reciprocal
        t = new
        left[p], top[q] = top[q], left[p]  # Step 5: exchange the labels
        pivots += 1
    corner = t[m][n]  # Step 7
    x = [Fraction(0)] * m
    y = [Fraction(0)] * n
    for j, (who, k) in enumerate(top):
        if who == "x":
            x[k] = t[m][j] / corner
    for i, (who, k) in enumerate(left):
        if who == "y":
            y[k] = t[i][n] / corner
    value = 1 / corner - shift
    steps.append({"step": 7, "corner": str(corner), "value": str(value)})
    return value, x, y, steps


def solve_simplex(game: MatrixGame, limits: Limits = Limits(), steps: bool = False) -> Claim:
    """Backend ``simplex``: the tableau method in exact arithmetic; ``steps``: the
    fraction tableaux of :func:`simplex_steps`, kept in ``stats["tableaux"]``."""
    deadline = limits.deadline()
    try:
        if steps:
            value, x, y, record = simplex_steps(game.matrix, deadline)
            stats: dict[str, Any] = {"pivots": len(record) - 3, "exact": True,
                                     "tableaux": record}
        else:
            value, x, y, pivots = simplex_tableau(game.matrix, deadline)
            stats = {"pivots": pivots, "exact": True}
    except LimitReached:
        return Claim.unknown({"limit": "time"})
    return Claim.solved(value, {"row": x, "col": y}, stats=stats)


def solve_saddle(game: MatrixGame, limits: Limits = Limits()) -> Claim:
    """Backend ``native`` of ``zerosum saddle``: every pure saddle point.

    Answer: the value when there are saddle points (status ``solved``), else ``None``
    (``no-solution``); witness: the saddle points as 0-based ``[row, col]`` pairs.
    """
    return saddle_claim(game, saddle_points(game.matrix))


def solve_dominance(
    game: MatrixGame, limits: Limits = Limits(), weak: bool = False, pure: bool = False
) -> Claim:
    """Backend ``native`` of ``zerosum reduce``: :func:`iterated_dominance` (strict unless
    ``weak``; by mixtures too unless ``pure``), as :func:`~pyasp_games.domains.zerosum.model.dominance_claim`."""
    red = iterated_dominance(game, strict=not weak, mixtures=not pure, deadline=limits.deadline())
    return dominance_claim(red.rows, red.cols, red.steps)


def solve_normal_form(game: ExtensiveGame, limits: Limits = Limits(), reduced: bool = False,
                      **_: Any) -> Claim:
    """Backend ``simplex`` on a tree: its (reduced) normal form by the exact tableau."""
    nf, s1, s2 = normal_form(game, reduced)
    try:
        _, x, y, pivots = simplex_tableau(nf.matrix, limits.deadline())
    except LimitReached:
        return Claim.unknown({"limit": "time"})
    plans = [realization_from_mixed(game, 0, s1, x), realization_from_mixed(game, 1, s2, y)]
    stats = {"normal_form": list(nf.shape), "reduced": reduced, "pivots": pivots}
    return tree_claim(game, plans, stats)
