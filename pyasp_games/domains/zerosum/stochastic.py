"""Stochastic and recursive zero-sum games: Shapley's value iteration, with exact bounds.

A game file is JSON: ``{"name": ..., "start": "G", "states": {"G": MATRIX, ...}}``
where each entry of a state's matrix is

* a number: player II pays it to player I and the game ends;
* a state name: play goes on there, nothing is paid (Everett's recursive games);
* ``{"payoff": r, "next": {"S": p, ...}}``: II pays ``r`` now, play goes on in
  state ``S`` with probability ``p`` and ends with probability ``1 - sum p``.

A play that never ends pays ``"infinite": Q`` (default 0; Everett's payoff for infinite
play). Shapley's iteration starts from ``v_0 = Q`` and
sets ``v_{n+1}(s)`` to the value of the matrix game of state ``s`` whose entries
continue with ``v_n``. Every answer is bracketed exactly: the stationary
strategies of the stage games met (each iterate's, and those at short fractions near
the last iterate, a guess at the exact value) are evaluated against every pure
stationary reply of the other player (a finite Markov chain each, solved exactly), and
the best of each player's kept, so ``lower`` is what player I's strategy guarantees
and ``upper`` what player II's concedes; the value lies in ``[lower, upper]`` and the
strategies are ``(upper - lower)``-optimal. In a game where every entry ends with
probability at least ``1 - beta > 0`` (a stopping game) Shapley's bound holds as well:
``|v - v_n| <= beta/(1 - beta) |v_n - v_{n-1}|``. A recursive game whose bracket does
not close may still get its exact value, with an epsilon-optimal family of I's
strategies (:func:`epsilon_family`).

The recursive game ``G = [[G, 1], [1, 0]]`` (T. S. Ferguson, "Game Theory", lecture
notes, UCLA, Part II, section 6; the thesis's section 2.3) has value 1, but player I
has no optimal strategy, only epsilon-optimal ones; the iteration from 0 gives
``v_n = n/(n+1)``, the stage game at ``v_9 = 9/10`` a strategy guaranteeing 10/11, and
the family ``(1 - e, e)`` the value:

>>> game = parse_stochastic({"start": "G", "states": {"G": [["G", 1], [1, 0]]}})
>>> result = shapley_iteration(game, 9)
>>> result.values[-1]["G"], result.lower, result.upper
(Fraction(9, 10), Fraction(10, 11), Fraction(1, 1))
>>> family = epsilon_family(game, result)
>>> family["x0"], family["x1"], family["guarantee"]
({'G': [Fraction(1, 1), Fraction(0, 1)]}, {'G': [Fraction(0, 1), Fraction(1, 1)]}, '1 - e')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

from pyasp_games.domains.zerosum.model import to_fraction
from pyasp_games.domains.zerosum.native import simplex_tableau
from pyasp_games.domains.zerosum.rational import solve_linear
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.files import read_json
from pyasp_games.engines.limits import Deadline, Limits
from pyasp_games.errors import InputError

#: reply enumeration beyond this many pure stationary strategies is skipped
REPLY_LIMIT = 20_000
#: the most exact evaluations (a strategy against a pure reply) spent on the bracket
EVALUATIONS = 20_000
#: the most probabilities (steps x the stage games' rows and columns) kept as the
#: certificate of the iterates; beyond, the iterates are reported, not replayed
REPLAY_NUMBERS = 100_000


@dataclass(frozen=True)
class Entry:
    payoff: Fraction
    next: tuple[tuple[str, Fraction], ...]  # (state, probability); the rest ends the game

    @property
    def stop(self) -> Fraction:
        return 1 - sum((p for _, p in self.next), Fraction(0))


@dataclass
class StochasticGame:
    states: dict[str, list[list[Entry]]]
    start: str
    name: str = "stochastic"
    known: Fraction | None = None
    #: What a play that never ends pays (Everett's ``Q``).
    infinite: Fraction = Fraction(0)

    @property
    def beta(self) -> Fraction:
        """The largest probability of going on, over all entries (< 1: a stopping game)."""
        return max(1 - e.stop for rows in self.states.values() for row in rows for e in row)


def parse_stochastic(data: Any, name: str = "stochastic") -> StochasticGame:
    """Build and validate a stochastic game from its JSON structure."""
    if not isinstance(data, dict) or not isinstance(data.get("states"), dict) or not data["states"]:
        raise InputError(f"{name}: a stochastic game is a JSON object with 'states'")
    names = set(data["states"])
    states: dict[str, list[list[Entry]]] = {}
    for s, matrix in data["states"].items():
        if not isinstance(matrix, list) or not matrix or not all(
                isinstance(r, list) and r for r in matrix):
            raise InputError(f"{name}: state {s!r} needs a non-empty matrix (a list of rows)")
        if any(len(r) != len(matrix[0]) for r in matrix):
            raise InputError(f"{name}: state {s!r} has rows of different lengths")
        rows = []
        for i, row in enumerate(matrix):
            out = []
            for j, x in enumerate(row):
                where = f"{name}: state {s!r} entry ({i + 1},{j + 1})"
                if isinstance(x, str) and x in names:
                    out.append(Entry(Fraction(0), ((x, Fraction(1)),)))
                elif isinstance(x, dict):
                    nxt = x.get("next", {})
                    if not isinstance(nxt, dict):
                        raise InputError(f"{where}: 'next' must map state names to probabilities")
                    undefined = [t for t in nxt if t not in names]
                    if undefined:
                        raise InputError(f"{where}: 'next' names {undefined[0]!r}, which is no state")
                    probs = tuple((t, to_fraction(p, where)) for t, p in nxt.items())
                    if any(p < 0 for _, p in probs) or sum(p for _, p in probs) > 1:
                        raise InputError(f"{where}: probabilities must be >= 0 and sum to <= 1")
                    out.append(Entry(to_fraction(x.get("payoff", 0), where), probs))
                else:
                    out.append(Entry(_payoff(x, where, names), ()))
            rows.append(out)
        states[s] = rows
    start = data.get("start", next(iter(states)))
    if start not in states:
        raise InputError(f"{name}: start state {start!r} is not a state")
    game = StochasticGame(states, start, str(data.get("name", name)),
                          None if data.get("known") is None else to_fraction(data["known"], name),
                          to_fraction(data.get("infinite", 0), f"{name}: 'infinite'"))
    if game.beta == 1 and any(e.payoff and e.next for rows in states.values()
                              for row in rows for e in row):
        raise InputError(f"{name}: a payoff on a continuing entry needs every entry to end the "
                         "game with positive probability (a stopping game); else totals may diverge")
    return game


def _payoff(entry: Any, where: str, states: set[str]) -> Fraction:
    """A number entry; a name that is no state is called what it is (a state not defined).

    >>> _payoff("H", "g: state 'G' entry (1,1)", {"G"})
    Traceback (most recent call last):
        ...
    pyasp_games.errors.InputError: g: state 'G' entry (1,1): 'H' is neither a number nor a state (the states: 'G')
    """
    try:
        return to_fraction(entry, where)
    except InputError:
        if not isinstance(entry, str):
            raise
        known = ", ".join(repr(s) for s in sorted(states))
        raise InputError(f"{where}: {entry!r} is neither a number nor a state (the states: {known})") from None


def load_stochastic(path: Path | str) -> StochasticGame:
    path = Path(path)
    data = read_json(path)
    return parse_stochastic(data, path.stem)


def _stage(game: StochasticGame, s: str, v: dict[str, Fraction]) -> tuple[tuple[Fraction, ...], ...]:
    return tuple(tuple(e.payoff + sum((p * v[t] for t, p in e.next), Fraction(0)) for e in row)
                 for row in game.states[s])


@dataclass
class Iteration:
    values: list[dict[str, Fraction]]  # v_0, v_1, ..., v_n
    row: dict[str, list[Fraction]]  # stationary strategies from the last stage games
    col: dict[str, list[Fraction]]
    lower: Fraction | None = None  # what I's stationary strategy guarantees from the start
    upper: Fraction | None = None  # what II's concedes
    shapley_bound: Fraction | None = None  # stopping games: |v - v_n| <= this
    notes: list[str] = field(default_factory=list)
    status: str = "solved"
    #: each step's optimal stage strategies ``{state: [x, y]}`` (within
    #: :data:`REPLAY_NUMBERS`), the certificate that replays the iterates
    stages: list[dict[str, list[list[Fraction]]]] | None = None


def evaluate(game: StochasticGame, x: dict[str, list[Fraction]], reply: dict[str, int],
             fixed_is_row: bool) -> dict[str, Fraction]:
    """Exact expected total payoff from each state when one player plays the stationary
    mixed strategy ``x`` and the other the pure stationary ``reply`` (0 if it never ends)."""
    # expected immediate payoff and transition probabilities per state
    reward: dict[str, Fraction] = {}
    move: dict[str, dict[str, Fraction]] = {}
    stops: dict[str, Fraction] = {}
    for s, rows in game.states.items():
        mixed = x[s]
        if fixed_is_row:
            pairs = [(p, rows[i][reply[s]]) for i, p in enumerate(mixed) if p]
        else:
            pairs = [(p, e) for p, e in zip(mixed, rows[reply[s]], strict=True) if p]
        reward[s] = sum((p * e.payoff for p, e in pairs), Fraction(0))
        move[s] = {}
        stops[s] = Fraction(0)
        for p, e in pairs:
            stops[s] += p * e.stop
            for t, q in e.next:
                move[s][t] = move[s].get(t, Fraction(0)) + p * q
    # states from which the game ends with positive probability
    ending = {s for s in game.states if stops[s] > 0}
    changed = True
    while changed:
        changed = False
        for s in game.states:
            if s not in ending and any(q and t in ending for t, q in move[s].items()):
                ending.add(s)
                changed = True
    equations = []
    for s in ending:  # w(s) - sum_t P(s, t) w(t) = reward(s), over the states that end;
        # a state that never ends pays Q (its play is infinite)
        coeffs = {t: -q for t, q in move[s].items() if t in ending}
        coeffs[s] = 1 + coeffs.get(s, Fraction(0))
        never = sum((q for t, q in move[s].items() if t not in ending), Fraction(0))
        equations.append((coeffs, reward[s] + never * game.infinite))
    solution = solve_linear(equations) or {}
    return {s: solution.get(s, Fraction(0)) if s in ending else game.infinite
            for s in game.states}


def shapley_iteration(game: StochasticGame, iterations: int = 50,
                      limits: Limits = Limits()) -> Iteration:
    """``iterations`` steps of value iteration from 0, with the exact bracket of the result."""
    deadline = limits.deadline()
    v = {s: game.infinite for s in game.states}
    values = [dict(v)]
    row: dict[str, list[Fraction]] = {}
    col: dict[str, list[Fraction]] = {}
    # the strategies met, by a hashable key, the latest last (a dict keeps the order)
    rows_seen: dict[tuple[tuple[Fraction, ...], ...], dict[str, list[Fraction]]] = {}
    cols_seen: dict[tuple[tuple[Fraction, ...], ...], dict[str, list[Fraction]]] = {}
    per_step = sum(len(m) + len(m[0]) for m in game.states.values())
    stages: list[dict[str, list[list[Fraction]]]] | None = (
        [] if iterations * per_step <= REPLAY_NUMBERS else None)
    for _ in range(iterations):
        if deadline.expired():
            return Iteration(values, row, col, status="unknown")
        new = {}
        for s in game.states:
            new[s], row[s], col[s], _ = simplex_tableau(_stage(game, s, v))
        v = new
        values.append(dict(v))
        if stages is not None:
            stages.append({s: [list(row[s]), list(col[s])] for s in game.states})
        for seen, plan in ((rows_seen, row), (cols_seen, col)):
            _meet(seen, plan)
    # the iterates may only tend to the value: the stage games' strategies at short
    # fractions near the last iterate (a guess at the exact value) are candidates too
    for bound in (1000, 100, 10):
        if not values[1:]:
            break
        guess = {s: x.limit_denominator(bound) for s, x in v.items()}
        staged = {s: simplex_tableau(_stage(game, s, guess)) for s in game.states}
        for seen, k in ((rows_seen, 1), (cols_seen, 2)):
            _meet(seen, {s: list(staged[s][k]) for s in game.states})
    result = Iteration(values, row, col, stages=stages)
    beta = game.beta
    if beta < 1 and iterations >= 1:
        diff = max(abs(values[-1][s] - values[-2][s]) for s in game.states)
        result.shapley_bound = beta / (1 - beta) * diff
        result.notes.append(f"stopping game (continues with probability <= {beta}): "
                            f"|v - v_n| <= {beta}/(1 - {beta}) |v_n - v_(n-1)|")
    else:
        result.notes.append(f"recursive game (some play may never end, paying {game.infinite}): value "
                            "iteration has no a-priori error bound; the exact bracket of the value is "
                            "what the strategies certify")
    if iterations == 0:
        return result
    counts = [
        [len(game.states[s][0]) for s in game.states],
        [len(game.states[s]) for s in game.states],
    ]
    sizes = [1, 1]
    for k in (0, 1):
        for c in counts[k]:
            sizes[k] *= c
    if max(sizes) > REPLY_LIMIT:
        result.notes.append(f"more than {REPLY_LIMIT} pure stationary replies: no exact bracket")
        return result
    names = list(game.states)
    # every distinct stationary strategy of the iterates, the last first: a tie in a stage
    # game may have picked, late, a strategy worse in the long run than an earlier one
    # (II's col 1 of [[G, 1], [1, 0]] with Q > 1 risks infinite play), so the best of
    # them, each exactly evaluated, is kept (within an evaluation budget)
    budget = max(EVALUATIONS // max(max(sizes), 1), 1)
    best: list[tuple[Fraction, dict[str, list[Fraction]]] | None] = [None, None]
    for k, (fixed, history) in enumerate(((True, rows_seen), (False, cols_seen))):
        for plan in list(reversed(history.values()))[:budget]:
            worst: Fraction | None = None
            for choice in product(*(range(c) for c in counts[k])):
                if deadline.expired():
                    result.status = "unknown"
                    return result
                got = evaluate(game, plan, dict(zip(names, choice, strict=True)), fixed)[game.start]
                if worst is None or (got < worst if fixed else got > worst):
                    worst = got
            assert worst is not None
            held = best[k]
            if held is None or (worst > held[0] if fixed else worst < held[0]):
                best[k] = (worst, plan)
    assert best[0] is not None and best[1] is not None
    (lows, result.row), (highs, result.col) = ([best[0][0]], best[0][1]), ([best[1][0]], best[1][1])
    result.lower, result.upper = min(lows), max(highs)
    if result.lower == result.upper:
        result.notes.append(f"value {result.lower}: both stationary strategies are optimal")
    else:
        result.notes.append(
            f"the stationary strategies shown certify [{result.lower}, {result.upper}]: they are "
            f"{result.upper - result.lower}-optimal (in a recursive game player I may have "
            "only epsilon-optimal strategies)")
    return result


def _meet(seen: dict[tuple[tuple[Fraction, ...], ...], dict[str, list[Fraction]]],
          plan: dict[str, list[Fraction]]) -> None:
    """Record ``plan`` as the latest strategy met (moved to the end if met before)."""
    key = tuple(tuple(p) for p in plan.values())
    seen.pop(key, None)
    seen[key] = {s: list(p) for s, p in plan.items()}


def chain_in_e(game: StochasticGame, plan: dict[str, list[Any]], reply: dict[str, int],
               fixed_is_row: bool) -> dict[str, Any]:
    """:func:`evaluate` over any field (probabilities that are rational functions of ``e``,
    :class:`~pyasp_games.domains.zerosum.polynomial.RationalFunction`): a probability
    that is not the zero function is positive for every small ``e > 0``."""
    reward: dict[str, Any] = {}
    move: dict[str, dict[str, Any]] = {}
    ends: dict[str, bool] = {}
    for s, rows in game.states.items():
        cells = ([(p, rows[i][reply[s]]) for i, p in enumerate(plan[s]) if p] if fixed_is_row
                 else [(p, e) for p, e in zip(plan[s], rows[reply[s]], strict=True) if p])
        reward[s] = sum((p * e.payoff for p, e in cells), Fraction(0))
        move[s] = {}
        ends[s] = any(e.stop > 0 for _, e in cells)
        for p, e in cells:
            for t, q in e.next:
                move[s][t] = move[s].get(t, Fraction(0)) + p * q
    ending = {s for s in game.states if ends[s]}
    grew = True
    while grew:
        grew = False
        for s in game.states:
            if s not in ending and any(q and t in ending for t, q in move[s].items()):
                ending.add(s)
                grew = True
    order = [s for s in game.states if s in ending]
    n = len(order)
    rows_: list[list[Any]] = []
    for s in order:  # (I - P) w = r + (the moves to states that never end) Q
        row: list[Any] = [Fraction(0)] * (n + 1)
        row[order.index(s)] += 1
        rhs = reward[s]
        for t, q in move[s].items():
            if t in ending:
                row[order.index(t)] -= q
            else:
                rhs += q * game.infinite
        row[n] = rhs
        rows_.append(row)
    for c in range(n):
        pivot = next(r for r in range(c, n) if rows_[r][c])
        rows_[c], rows_[pivot] = rows_[pivot], rows_[c]
        for r in range(n):
            if r != c and rows_[r][c]:
                f = rows_[r][c] / rows_[c][c]
                rows_[r] = [a - f * b for a, b in zip(rows_[r], rows_[c], strict=True)]
    return {s: rows_[order.index(s)][n] / rows_[order.index(s)][order.index(s)] if s in ending
            else game.infinite for s in game.states}


def _replies(game: StochasticGame, of_row: bool) -> list[dict[str, int]]:
    names = list(game.states)
    counts = [len(game.states[s]) if of_row else len(game.states[s][0]) for s in names]
    return [dict(zip(names, c, strict=True)) for c in product(*(range(k) for k in counts))]


def epsilon_family(game: StochasticGame, result: Iteration,
                   deadline: Deadline | None = None) -> dict[str, Any] | None:
    """An epsilon-optimal family of stationary strategies of player I,
    ``x(e) = (1 - e) x0 + e x1``, when the bracket does not close: ``v`` is what II's
    strategy concedes (from each state), ``x0`` I's optimal strategy of each stage game
    with continuation ``v``, ``x1`` where the last iterate leans away from ``x0``. Kept
    only if its guarantee from the start, exactly a function of ``e`` per pure reply,
    is at least ``v - K e`` for every ``e`` in ``(0, e0]``, ``e0 < 1`` (proved here by
    Bernstein coefficients); ``None`` otherwise. For a game of one state, also whether ``x0`` is
    the stage game's only optimal strategy and guarantees less than ``v``: then no
    stationary strategy of I is optimal."""
    from pyasp_games.domains.zerosum.polynomial import (
        RationalFunction,
        at_least_on,
        lowest_near_zero,
    )

    names = list(game.states)
    rows_replies = _replies(game, True)
    if len(rows_replies) > REPLY_LIMIT:
        return None
    w = {s: max(evaluate(game, result.col, r, False)[s] for r in rows_replies) for s in names}
    v = w[game.start]
    x0, x1 = {}, {}
    for s in names:
        value, x, _, _ = simplex_tableau(_stage(game, s, w))
        if value != w[s]:  # v is no fixed point of the stage games: no family from it
            return None
        x0[s] = x
        lean = [max(a - b, Fraction(0)) for a, b in zip(result.row[s], x, strict=True)]
        total = sum(lean, Fraction(0))
        x1[s] = [a / total for a in lean] if total else list(x)
    e = RationalFunction.variable()
    family = {s: [(1 - e) * a + e * b for a, b in zip(x0[s], x1[s], strict=True)] for s in names}
    got = []
    for r in _replies(game, False):
        if deadline is not None and deadline.expired():
            return None  # out of time: the bracket stands alone
        got.append(chain_in_e(game, family, r, True)[game.start])
    slopes = []
    for g in got:
        limit = g.limit_at_zero()
        if limit is None or limit < v:
            return None
        if limit == v:
            slope = ((v - g) / e).limit_at_zero()
            if slope is None:
                return None
            slopes.append(slope)
    worst = max(slopes, default=Fraction(0))
    for k in ([worst, 2 * worst] if worst > 0 else [Fraction(1)]):
        # e0 < 1: at e = 1 the weights (1 - e) of x0 vanish, and with them the chain's
        # shape; on (0, 1) every move of x0 or x1 has positive probability
        for e0 in (Fraction(1, 2 ** j) for j in range(1, 22, 2)):
            if all(at_least_on(g, v, k, e0) for g in got):
                family_out: dict[str, Any] = {
                    "x0": x0, "x1": x1, "K": k, "e0": e0,
                    "guarantee": repr(lowest_near_zero(got))}
                if len(names) == 1:  # is x0 the only candidate for an optimal strategy?
                    (s,) = names
                    reach = min(evaluate(game, x0, r, True)[s] for r in _replies(game, False))
                    if reach < v and _only_optimal(_stage(game, s, w), x0[s], v):
                        family_out["x0_guarantees"] = reach
                return family_out
    return None


def _only_optimal(stage: Any, x: list[Fraction], v: Fraction) -> bool:
    """Whether ``x`` is the row player's only strategy guaranteeing ``v`` in the matrix
    ``stage``: every vertex of ``{x >= 0, sum x = 1, x A_j >= v}`` (each the solution of
    ``m - 1`` of its inequalities made tight, with the sum; a solution of a tight system
    of lower rank is a point of the set too) is ``x``. Only for matrices up
    to 12 rows and columns together (else ``False``: not shown)."""
    from itertools import combinations

    m, n = len(stage), len(stage[0])
    if m + n > 12:
        return False
    # the inequalities as (coefficients over rows, bound): x_i >= 0 and x . A_j >= v
    ineq = [({i: Fraction(1)}, Fraction(0)) for i in range(m)]
    ineq += [({i: Fraction(stage[i][j]) for i in range(m)}, v) for j in range(n)]
    total = ({i: Fraction(1) for i in range(m)}, Fraction(1))
    for tight in combinations(ineq, m - 1):
        sol = solve_linear([total, *tight])
        if sol is None:
            continue
        point = [sol.get(i, Fraction(0)) for i in range(m)]
        if any(sum((c * point[i] for i, c in row.items()), Fraction(0)) != b
               for row, b in (total, *tight)):
            continue
        feasible = all(sum((c * point[i] for i, c in row.items()), Fraction(0)) >= b
                       for row, b in ineq)
        if feasible and point != list(x):
            return False
    return True


#: The most steps of value iteration asked for at once (every step's values are kept).
MAX_ITERATIONS = 100_000


def solve_stochastic(game: StochasticGame, limits: Limits = Limits(), iterations: int = 50) -> Claim:
    """Backend ``shapley`` of ``zerosum stochastic``: :func:`shapley_iteration`.

    Answer: the exact bracket ``[lower, upper]`` of the value from the start state
    (``None`` when there is none: no step, or too many replies; ``[v, v]`` with an
    e-optimal ``family``); witness: the number of ``iterations``, the last ``values``
    ``v_n`` and the stationary strategies ``row`` and ``col`` per state (``optimal``:
    both are; ``family``: :func:`epsilon_family`); ``stats``: ``shapley_bound``
    (stopping games) and ``notes``; certificate: each step's optimal stage strategies
    (``stages``), from which the checker replays the iterates.
    A reached time limit is ``unknown``.
    """
    if not 1 <= iterations <= MAX_ITERATIONS:  # no step: no strategy, nothing to bracket
        raise InputError(f"--iterations must be from 1 to {MAX_ITERATIONS:,}, got {iterations}")
    result = shapley_iteration(game, iterations, limits)
    stats: dict[str, Any] = {"notes": result.notes}
    if result.status == "unknown":
        return Claim.unknown({**stats, "limit": "time"})
    if result.shapley_bound is not None:
        stats["shapley_bound"] = result.shapley_bound
    bracket = None if result.lower is None else [result.lower, result.upper]
    witness: dict[str, Any] = {"iterations": len(result.values) - 1, "values": result.values[-1],
                               "row": result.row, "col": result.col}
    if bracket is not None and bracket[0] == bracket[1]:
        witness["optimal"] = True  # both stationary strategies are optimal
    elif bracket is not None and game.beta == 1:  # a recursive game: maybe only e-optimal
        family = epsilon_family(game, result, limits.deadline())
        if family is not None:  # the value is II's concession: I has e-optimal strategies
            witness["family"] = family
            bracket = [result.upper, result.upper]
    certificate = None if result.stages is None else {"stages": result.stages}
    return Claim.solved(bracket, witness, stats=stats, certificate=certificate)
