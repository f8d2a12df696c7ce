"""The linear-programming backend: scipy's HiGHS in floating point, made exact afterwards.

Matrix games and sequence-form games are the same problem here:
``max_x min_y x^T A y`` over ``x >= 0, E x = e`` and ``y >= 0, F y = f`` (a
matrix game has ``E = F = (1 ... 1)``, ``e = f = 1``). HiGHS solves the LP
``max f^T q  s.t.  F^T q <= A^T x,  E x = e,  x >= 0`` whose duals are ``y``.
The floating answer is then made exact: the supports of ``x`` and ``y`` and
the tight constraints give a square (at a vertex) system of equations --

* ``E x = e`` and ``(A^T x)_j = (F^T q)_j`` for every tight column ``j``, and
* ``F y = f`` and ``(A y)_i = (E^T p)_i`` for every tight row ``i`` --

which :func:`pyasp_games.domains.zerosum.rational.solve_linear` solves exactly. The
exact strategies are kept only if their certificate checks; otherwise the
answer is reported as approximate (its value and strategies the floating ones, which
the checker leaves unconfirmed; ``stats["exact"] = False`` reports it), never as proven.

A matrix game first takes the short way (:func:`confirmed_basis`): HiGHS on the dense
game in its integers, then, where the final basis is square (as many tight columns
as rows in the support, and the same for the columns), one exact solve of each side's
square system with FLINT and an exact check of the certificate
(``stats["exact_by"] = "basis"``), at about the price of the floating solve; the
general path above (and the exact tableau on the support subgame) runs only when
that check fails.

>>> from pyasp_games.domains.zerosum.model import make_game
>>> claim = solve_lp(make_game([[2, 3, 1, 5], [4, 1, 6, 0]]))
>>> claim.answer, [str(p) for p in claim.witness["row"]], claim.stats["exact"]
(Fraction(17, 7), ['5/7', '2/7'], True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pyasp_games.domains.zerosum.extensive import (
    ExtensiveGame,
    behaviour_from_realization,
    sequence_form,
    tree_claim,
)
from pyasp_games.domains.zerosum.model import MatrixGame
from pyasp_games.domains.zerosum.rational import payoff_scale, solve_linear
from pyasp_games.domains.zerosum.verify import (
    check_behaviour_certificate,
    check_matrix_certificate,
    row_guarantee,
)
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.limits import Deadline, LimitReached, Limits
from pyasp_games.errors import InputError

#: supports and tight constraints are read off at these tolerances, in turn
TOLERANCES = (1e-9, 1e-7, 1e-5)


@dataclass
class SaddleProblem:
    """``max_x min_y x^T A y`` with ``E x = e``, ``F y = f``, ``x, y >= 0`` (sparse, exact).

    ``A``, ``E``, ``F`` are dicts ``{(row, col): Fraction}``; ``nx``, ``ny`` the numbers
    of ``x`` and ``y`` variables; ``e``, ``f`` the right-hand sides.
    """

    A: Mapping[tuple[int, int], Fraction]
    E: Mapping[tuple[int, int], Fraction]
    e: Sequence[Fraction]
    F: Mapping[tuple[int, int], Fraction]
    f: Sequence[Fraction]
    nx: int
    ny: int

    @classmethod
    def from_matrix(cls, matrix: Sequence[Sequence[Fraction]]) -> SaddleProblem:
        m, n = len(matrix), len(matrix[0])
        A = {(i, j): a if isinstance(a, Fraction) else Fraction(a)
             for i, row in enumerate(matrix) for j, a in enumerate(row) if a}
        ones_x = {(0, i): Fraction(1) for i in range(m)}
        ones_y = {(0, j): Fraction(1) for j in range(n)}
        return cls(A, ones_x, [Fraction(1)], ones_y, [Fraction(1)], m, n)


def _sparse(
    entries: Mapping[tuple[int, int], Fraction], shape: tuple[int, int], scale: Fraction = Fraction(1)
) -> Any:
    from scipy.sparse import coo_matrix

    if not entries:
        return coo_matrix(shape).tocsr()
    rows, cols = zip(*entries.keys(), strict=True)
    data = [float(v / scale) for v in entries.values()]
    return coo_matrix((data, (rows, cols)), shape=shape).tocsr()


#: The widest span of payoff sizes (largest over smallest nonzero) handed to HiGHS:
#: beyond it the small payoffs vanish next to the large ones in a double's 53 bits.
MAX_SPAN = 2**52


def span_trouble(entries: Mapping[tuple[int, int], Fraction]) -> str | None:
    """Why floating point cannot hold a saddle problem with these payoffs, or ``None``.

    >>> span_trouble({(0, 0): Fraction(10**400), (1, 1): Fraction(1)})
    'the payoffs differ in size by a factor of about 10^400, beyond the 16 digits of floating point'
    >>> span_trouble({(0, 0): Fraction(10**400), (1, 1): Fraction(10**399)}) is None
    True
    """
    sizes = [abs(v) for v in entries.values() if v]
    if not sizes:
        return None
    span = max(sizes) / min(sizes)
    if span <= MAX_SPAN:
        return None
    digits = len(str(span.numerator // span.denominator)) - 1
    return (f"the payoffs differ in size by a factor of about 10^{digits}, beyond the 16 "
            "digits of floating point")


def floating_point_trouble(game: MatrixGame | ExtensiveGame) -> str | None:
    """Why ``lp`` cannot solve ``game`` in floating point (then ``simplex`` does, exactly)."""
    if isinstance(game, ExtensiveGame):
        return span_trouble(sequence_form(game)[0])
    return span_trouble(SaddleProblem.from_matrix(game.matrix).A)


def _float(value: Fraction) -> float | Fraction:
    """``value`` as a float, or exact where floating point cannot hold it."""
    try:
        return float(value)
    except OverflowError:
        return value


@dataclass
class FloatSaddle:
    """HiGHS's answer: the strategies, the slacks of both sides' constraints, the value."""

    x: list[float]
    y: list[float]
    col_slack: list[float]  # (A^T x - F^T q)_j >= 0: how far column j is from tight
    row_slack: list[float]  # (E^T p - A y)_i >= 0 (both relative to the payoffs' size)
    value: float | Fraction  # exact only where floating point cannot hold it


def float_saddle(problem: SaddleProblem, time_limit: float | None = None) -> FloatSaddle:
    """HiGHS's floating answer of the saddle problem."""
    from scipy.optimize import linprog
    from scipy.sparse import hstack

    nx, ny, nq = problem.nx, problem.ny, len(problem.f)
    # HiGHS solves the game with payoffs A / scale: its value is the game's / scale, its
    # strategies the game's; the slacks below are in those units (relative to the payoffs)
    scale = payoff_scale(problem.A)
    A = _sparse(problem.A, (nx, ny), scale)
    E = _sparse(problem.E, (len(problem.e), nx))
    F = _sparse(problem.F, (nq, ny))
    # variables (x, q); minimize -f.q; rows: -A^T x + F^T q <= 0; E x = e
    c = [0.0] * nx + [-float(v) for v in problem.f]
    a_ub = hstack([-A.T, F.T]).tocsr()
    a_eq = hstack([E, _sparse({}, (len(problem.e), nq))]).tocsr()
    options: dict[str, Any] = {"presolve": True}
    if time_limit is not None:
        options["time_limit"] = max(time_limit, 0.01)
    result = linprog(c, A_ub=a_ub, b_ub=[0.0] * ny, A_eq=a_eq, b_eq=[float(v) for v in problem.e],
                     bounds=[(0, None)] * nx + [(None, None)] * nq, method="highs",
                     options=options)
    if result.status == 1:
        raise LimitReached({"highs": result.message})
    if result.status != 0:
        raise RuntimeError(f"HiGHS: {result.message}")
    x = list(result.x[:nx])
    y = [-m for m in result.ineqlin.marginals]
    p = -result.eqlin.marginals  # minimizing -f.q flips the signs of the duals
    row_slack = E.T @ p - A @ y
    value = _float(Fraction(-result.fun) * scale)
    return FloatSaddle(x, y, list(result.ineqlin.residual), list(row_slack), value)


def _tight_system(problem: SaddleProblem, answer: FloatSaddle, tol: float,
                  side: str) -> list[tuple[dict, Fraction]]:
    """The equations that pin down ``x`` (side ``x``) or ``y`` (side ``y``) exactly."""
    if side == "x":
        support = {i for i, v in enumerate(answer.x) if v > tol}
        cols = {j for j, v in enumerate(answer.col_slack) if v <= tol}
        own, rhs, other = problem.E, problem.e, problem.F
    else:
        support = {j for j, v in enumerate(answer.y) if v > tol}
        cols = {i for i, v in enumerate(answer.row_slack) if v <= tol}
        own, rhs, other = problem.F, problem.f, problem.E
    equations: list[tuple[dict, Fraction]] = []
    by_row: dict[int, dict] = {k: {} for k in range(len(rhs))}
    for (r, k), a in own.items():
        if k in support:
            by_row[r][("s", k)] = a
    equations += [(by_row[r], rhs[r]) for r in range(len(rhs))]
    # a tight opposing constraint: (A^T x)_j = (F^T q)_j, or (A y)_i = (E^T p)_i
    tight: dict[int, dict] = {j: {} for j in cols}
    for (i, j), a in problem.A.items():
        k, c = (i, j) if side == "x" else (j, i)
        if k in support and c in tight:
            tight[c][("s", k)] = tight[c].get(("s", k), 0) + a
    for (r, c), a in other.items():
        if c in tight:
            tight[c][("d", r)] = tight[c].get(("d", r), 0) - a
    equations += [(row, Fraction(0)) for row in tight.values()]
    return equations


def exact_saddle(problem: SaddleProblem, answer: FloatSaddle,
                 deadline: Deadline | None = None,
                 check: Any = None) -> tuple[list[Fraction], list[Fraction]] | None:
    """Exact ``(x, y)`` from a floating answer, or ``None`` if no tolerance gives a pair
    that ``check(x, y)`` accepts."""
    for tol in TOLERANCES:
        exact = []
        for side, size in (("x", problem.nx), ("y", problem.ny)):
            solution = solve_linear(_tight_system(problem, answer, tol, side), deadline)
            if solution is None:
                break
            exact.append([solution.get(("s", k), Fraction(0)) for k in range(size)])
        if len(exact) == 2 and (check is None or check(exact[0], exact[1])):
            return exact[0], exact[1]
    return None


def solve_lp(game: MatrixGame, limits: Limits = Limits()) -> Claim:
    """Backend ``lp``: HiGHS, then the exact support system and its certificate.

    If the tight system of a degenerate answer does not give a certified pair,
    the game restricted to the floating supports is solved exactly by the
    tableau method and its strategies, padded with zeros, are checked on the
    whole game; failing that the answer is reported as approximate.
    """
    from pyasp_games.domains.zerosum.native import simplex_tableau

    deadline = limits.deadline()

    def certified(xe: list[Fraction], ye: list[Fraction]) -> bool:
        value = _value(game, xe, ye)
        return check_matrix_certificate(game.matrix, xe, ye, value, game.integers)[0]

    try:
        fast = confirmed_basis(game, deadline)
    except LimitReached as reached:
        stats = reached.args[0] if reached.args and isinstance(reached.args[0], dict) else {}
        return Claim.unknown({"limit": "time", **stats})
    if fast is not None:
        return fast
    problem = SaddleProblem.from_matrix(game.matrix)
    try:
        answer = float_saddle(problem, deadline.wall_remaining())
        stats: dict[str, Any] = {"float_value": answer.value}
        pair = exact_saddle(problem, answer, deadline, certified)
        if pair is not None:
            stats["exact"], stats["exact_by"] = True, "tight system"
        else:
            rows = [i for i, v in enumerate(answer.x) if v > TOLERANCES[-1]]
            cols = [j for j, v in enumerate(answer.y) if v > TOLERANCES[-1]]
            sub = game.restrict(rows, cols).matrix
            _, xs, ys, _ = simplex_tableau(sub, deadline)
            xe, ye = [Fraction(0)] * game.shape[0], [Fraction(0)] * game.shape[1]
            for i, p in zip(rows, xs, strict=True):
                xe[i] = p
            for j, q in zip(cols, ys, strict=True):
                ye[j] = q
            if certified(xe, ye):
                pair = xe, ye
                stats["exact"], stats["exact_by"] = True, "support subgame"
    except LimitReached as reached:
        stats = reached.args[0] if reached.args and isinstance(reached.args[0], dict) else {}
        return Claim.unknown({"limit": "time", **stats})
    if pair is None:
        _refuse_beyond_floating_point(problem)
        stats["exact"] = False
        stats["note"] = "approximate: no exact optimal pair found near the floating answer"
        witness = {"row": _floats(answer.x), "col": _floats(answer.y)}
        return Claim.solved(answer.value, witness, stats=stats, certificate=None)
    xe, ye = pair
    stats["support"] = [sum(1 for p in xe if p), sum(1 for q in ye if q)]
    return Claim.solved(_value(game, xe, ye), {"row": xe, "col": ye}, stats=stats)


#: The largest integer payoff (over the common denominator) the short way hands to
#: HiGHS: below it every payoff is a double exactly.
MAX_EXACT_DOUBLE = 2**53


def confirmed_basis(game: MatrixGame, deadline: Deadline) -> Claim | None:
    """The exact answer from HiGHS's final basis, or ``None`` (take the general path).

    HiGHS solves ``max v`` s.t. ``x^T A >= v``, ``sum x = 1``, ``x >= 0`` on the game's
    integer payoffs (:attr:`MatrixGame.integers`, divided by the largest: about 1),
    the column strategy ``y`` its duals. The support ``S`` of ``x`` and the tight
    columns ``T`` make the basis; where ``|S| = |T|`` the square system
    ``sum_S x = 1, (x^T A)_j = v (j in T)`` has one exact solution (FLINT's
    ``fmpz_mat.solve``), and the same for ``y`` on its support and the tight rows. The
    pair is kept only if its certificate holds exactly (what ``x`` guarantees against
    every column equals what ``y`` concedes against every row, in integers); the
    checker (:func:`~pyasp_games.domains.zerosum.verify.check_outcome`) checks it
    again, on its own.

    >>> from pyasp_games.domains.zerosum.model import make_game
    >>> from pyasp_games.engines.limits import Deadline
    >>> claim = confirmed_basis(make_game([[2, 3, 1, 5], [4, 1, 6, 0]]), Deadline(None))
    >>> claim.answer, [str(p) for p in claim.witness["row"]], claim.stats["exact_by"]
    (Fraction(17, 7), ['5/7', '2/7'], 'basis')
    """
    import flint
    import numpy as np
    from scipy.optimize import linprog

    ints, scale = game.integers
    M = np.array(ints, dtype=object if game.shape[0] * game.shape[1] == 0 else None)
    if M.dtype == object or not M.size or np.abs(M).max() >= MAX_EXACT_DOUBLE:
        return None  # payoffs beyond int64 or a double's 53 bits: the general path
    m, n = M.shape
    big = float(max(1, int(np.abs(M).max())))
    scaled = M / big
    # variables (x, v): minimize -v; rows: v - (x^T A)_j <= 0; sum x = 1
    a_ub = np.empty((n, m + 1))
    a_ub[:, :m], a_ub[:, m] = -scaled.T, 1.0
    a_eq = np.ones((1, m + 1))
    a_eq[0, m] = 0.0
    options: dict[str, Any] = {"presolve": True}
    left = deadline.wall_remaining()
    if left is not None:
        options["time_limit"] = max(left, 0.01)
    c = np.zeros(m + 1)
    c[m] = -1.0
    result = linprog(c, A_ub=a_ub, b_ub=np.zeros(n), A_eq=a_eq, b_eq=[1.0],
                     bounds=[(0, None)] * m + [(None, None)], method="highs", options=options)
    if result.status == 1:
        raise LimitReached({"highs": result.message})
    if result.status != 0:
        return None
    x, y, v = result.x[:m], -result.ineqlin.marginals, -result.fun
    col_slack, row_slack = result.ineqlin.residual, v - scaled @ y
    for tol in TOLERANCES[:2]:
        deadline.check()
        support_x, tight_cols = np.flatnonzero(x > tol), np.flatnonzero(col_slack <= tol)
        support_y, tight_rows = np.flatnonzero(y > tol), np.flatnonzero(row_slack <= tol)
        if len(support_x) != len(tight_cols) or len(support_y) != len(tight_rows):
            continue  # not a square basis at this tolerance (degenerate)
        xs = _square_solve(flint, M[np.ix_(support_x, tight_cols)].T)
        ys = _square_solve(flint, M[np.ix_(tight_rows, support_y)])
        if xs is None or ys is None:
            continue
        # the certificate in integers: what x guarantees against every column equals
        # what y concedes against every row (each over its common denominator)
        (px, dx), (py, dy) = xs, ys
        low = min((flint.fmpz_mat([px]) * flint.fmpz_mat(M[support_x].tolist())).entries())
        concede = flint.fmpz_mat(M[:, support_y].tolist()) * flint.fmpz_mat([[q] for q in py])
        high = max(concede.entries())
        if int(low) * dy != int(high) * dx:
            continue
        xe, ye = [Fraction(0)] * m, [Fraction(0)] * n
        for i, p in zip(support_x, px, strict=True):
            xe[int(i)] = Fraction(p, dx)
        for j, q in zip(support_y, py, strict=True):
            ye[int(j)] = Fraction(q, dy)
        stats = {"float_value": v * big / scale, "exact": True, "exact_by": "basis",
                 "support": [len(support_x), len(support_y)]}
        value = Fraction(int(low), dx * scale)
        return Claim.solved(value, {"row": xe, "col": ye}, stats=stats)
    return None


def _square_solve(flint: Any, block: Any) -> tuple[list[int], int] | None:
    """The probabilities (numerators over one denominator) that make every payoff of
    ``block`` (one equation per row: ``block @ s = v``) equal, summing to 1; ``None``
    if that square system is singular or a probability negative."""
    k = block.shape[1]
    system = [[1] * k + [0]] + [[*row, -1] for row in block.tolist()]
    try:
        solution = flint.fmpz_mat(system).solve(flint.fmpz_mat([[1]] + [[0]] * k))
    except (ZeroDivisionError, ValueError):
        return None
    numerators, denominator = solution.numer_denom()
    probabilities = [int(numerators[i, 0]) for i in range(k)]
    if any(p < 0 for p in probabilities):
        return None
    return probabilities, int(denominator)


def _refuse_beyond_floating_point(problem: SaddleProblem) -> None:
    """No exact answer near HiGHS's, for payoffs floating point cannot hold side by side:
    a clear refusal, not an approximate value that may be far off."""
    trouble = span_trouble(problem.A)
    if trouble is not None:
        raise InputError(f"--backend lp found no exact answer: {trouble}; use --backend simplex (exact)")


def _value(game: MatrixGame, x: list[Fraction], y: list[Fraction]) -> Fraction:
    """The value ``x`` certifies: what it guarantees (``x^T A y`` for an optimal pair)."""
    return row_guarantee(game.matrix, x, game.integers)


def solve_sequence_form(game: ExtensiveGame, limits: Limits = Limits()) -> Claim:
    """Backend ``lp`` on a tree: the sequence-form LP by HiGHS, made exact and checked."""
    deadline = limits.deadline()
    A, E, e, F, f = sequence_form(game)
    problem = SaddleProblem(A, E, e, F, f, len(game.sequences[0]), len(game.sequences[1]))
    stats: dict[str, Any] = {"sequences": [problem.nx, problem.ny]}

    def certified(x: list[Fraction], y: list[Fraction]) -> bool:
        if any(p < 0 for p in x + y):
            return False
        value = sum((v * x[i] * y[j] for (i, j), v in A.items()), Fraction(0))
        b1, b2 = (behaviour_from_realization(game, 0, x), behaviour_from_realization(game, 1, y))
        return check_behaviour_certificate(game, b1, b2, value)[0]

    try:
        answer = float_saddle(problem, deadline.wall_remaining())
        stats["float_value"] = answer.value
        pair = exact_saddle(problem, answer, deadline, certified)
    except LimitReached:
        return Claim.unknown({"limit": "time"})
    if pair is None:
        _refuse_beyond_floating_point(problem)
        stats["exact"] = False
        stats["note"] = "approximate: no exact optimal pair found near the floating answer"
        witness = {"realization_I": _floats(answer.x), "realization_II": _floats(answer.y)}
        return Claim.solved(answer.value, witness, stats=stats, certificate=None)
    return tree_claim(game, list(pair), stats)


def _floats(values: Sequence[float]) -> list[float]:
    """A floating answer's numbers as Python floats: what the checker recognizes as an
    approximate answer (no exact certificate), in memory and in JSON alike."""
    return [float(v) for v in values]
