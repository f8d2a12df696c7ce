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
answer is reported as approximate (``stats["exact"] = False``), never as proven.

>>> from pyasp_games.domains.zerosum.model import make_game
>>> out = solve_lp(make_game([[2, 3, 1, 5], [4, 1, 6, 0]]))
>>> out.answer, [str(p) for p in out.witness["row"]], out.stats["exact"]
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
    tree_outcome,
)
from pyasp_games.domains.zerosum.model import MatrixGame
from pyasp_games.domains.zerosum.rational import payoff_scale, solve_linear
from pyasp_games.domains.zerosum.verify import (
    check_behaviour_certificate,
    check_matrix_certificate,
    row_guarantee,
)
from pyasp_games.engines.limits import Deadline, LimitReached, Limits
from pyasp_games.engines.outcome import Outcome
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


def solve_lp(game: MatrixGame, limits: Limits = Limits()) -> Outcome:
    """Backend ``lp``: HiGHS, then the exact support system and its certificate.

    If the tight system of a degenerate answer does not give a certified pair,
    the game restricted to the floating supports is solved exactly by the
    tableau method and its strategies, padded with zeros, are checked on the
    whole game; failing that the answer is reported as approximate.
    """
    from pyasp_games.domains.zerosum.native import simplex_tableau

    deadline = limits.deadline()
    problem = SaddleProblem.from_matrix(game.matrix)

    def certified(xe: list[Fraction], ye: list[Fraction]) -> bool:
        return check_matrix_certificate(game.matrix, xe, ye, _value(game, xe, ye))[0]

    try:
        answer = float_saddle(problem, deadline.remaining())
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
        return Outcome(game.name, "lp", "unknown", stats={"limit": "time", **stats})
    if pair is None:
        _refuse_beyond_floating_point(problem)
        stats["exact"] = False
        stats["note"] = "approximate: no exact optimal pair found near the floating answer"
        witness = {"row": answer.x, "col": answer.y}
        return Outcome(game.name, "lp", "solved", answer.value, witness, stats=stats)
    xe, ye = pair
    stats["support"] = [sum(1 for p in xe if p), sum(1 for q in ye if q)]
    return Outcome(game.name, "lp", "solved", _value(game, xe, ye), {"row": xe, "col": ye},
                   stats=stats)


def _refuse_beyond_floating_point(problem: SaddleProblem) -> None:
    """No exact answer near HiGHS's, for payoffs floating point cannot hold side by side:
    a clear refusal, not an approximate value that may be far off."""
    trouble = span_trouble(problem.A)
    if trouble is not None:
        raise InputError(f"--backend lp found no exact answer: {trouble}; use --backend simplex (exact)")


def _value(game: MatrixGame, x: list[Fraction], y: list[Fraction]) -> Fraction:
    """The value ``x`` certifies: what it guarantees (``x^T A y`` for an optimal pair)."""
    return row_guarantee(game.matrix, x)


def solve_sequence_form(game: ExtensiveGame, limits: Limits = Limits()) -> Outcome:
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
        answer = float_saddle(problem, deadline.remaining())
        stats["float_value"] = answer.value
        pair = exact_saddle(problem, answer, deadline, certified)
    except LimitReached:
        return Outcome(game.name, "lp", "unknown", stats={"limit": "time"})
    if pair is None:
        _refuse_beyond_floating_point(problem)
        stats["exact"] = False
        stats["note"] = "approximate: no exact optimal pair found near the floating answer"
        return Outcome(game.name, "lp", "solved", answer.value,
                       {"realization_I": answer.x, "realization_II": answer.y}, stats=stats)
    return tree_outcome(game, "lp", list(pair), stats)
