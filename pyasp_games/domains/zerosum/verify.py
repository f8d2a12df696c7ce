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

from collections.abc import Mapping, Sequence
from fractions import Fraction
from math import lcm
from typing import TYPE_CHECKING, Any

from pyasp_games.domains.zerosum.model import MatrixGame
from pyasp_games.engines.outcome import Outcome
from pyasp_games.errors import Unconfirmed

if TYPE_CHECKING:
    from pyasp_games.domains.zerosum.extensive import ExtensiveGame

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
    numerators, denominator = _integer_form(p)  # the sum in integers: no gcd per term
    if sum(numerators) != denominator:
        return f"probabilities sum to {Fraction(sum(numerators), denominator)}, not 1"
    return None


def _fraction(x: Number) -> Fraction:
    return x if isinstance(x, Fraction) else Fraction(x)


def _integer_form(p: Sequence[Number]) -> tuple[list[int], int]:
    """``p`` as integers over one common denominator (fast exact dot products)."""
    fs = [_fraction(x) for x in p]
    denominator = 1
    for x in fs:  # most denominators divide the common one already: no lcm for them
        if denominator % x.denominator:
            denominator = lcm(denominator, x.denominator)
    return [x.numerator * (denominator // x.denominator) for x in fs], denominator


def _integer_rows(matrix: Sequence[Sequence[Number]]) -> tuple[list[list[int]], int]:
    rows = [[_fraction(a) for a in row] for row in matrix]
    scale = lcm(*(a.denominator for row in rows for a in row))
    return [[a.numerator * (scale // a.denominator) for a in row] for row in rows], scale


def _products(left: list[list[int]], right: list[list[int]]) -> list[int]:
    """The entries of the integer matrix product ``left @ right`` (one row or one
    column): FLINT's exact product (python-flint), else Python's integers."""
    try:
        import flint
    except ImportError:  # pragma: no cover - python-flint is a dependency
        return [sum(a * b for a, b in zip(row, col, strict=True))
                for row in left for col in zip(*right, strict=True)]
    return [int(v) for v in (flint.fmpz_mat(left) * flint.fmpz_mat(right)).entries()]


def row_guarantee(matrix: Sequence[Sequence[Number]], x: Sequence[Number],
                  _rows: tuple[list[list[int]], int] | None = None) -> Fraction:
    """``min_j sum_i x_i a_ij``: what the row strategy ``x`` guarantees (exactly)."""
    mat, scale = _rows or _integer_rows(matrix)
    xs, d = _integer_form(x)
    active = [i for i, xi in enumerate(xs) if xi]
    if not active:
        return Fraction(0)
    best = min(_products([[xs[i] for i in active]], [mat[i] for i in active]))
    return Fraction(best, d * scale)


def column_concession(matrix: Sequence[Sequence[Number]], y: Sequence[Number],
                      _rows: tuple[list[list[int]], int] | None = None) -> Fraction:
    """``max_i sum_j a_ij y_j``: the most the row player gets against ``y`` (exactly)."""
    mat, scale = _rows or _integer_rows(matrix)
    ys, d = _integer_form(y)
    active = [j for j, yj in enumerate(ys) if yj]
    if not active:
        return Fraction(0)
    best = max(_products([[row[j] for j in active] for row in mat], [[ys[j]] for j in active]))
    return Fraction(best, d * scale)


def check_matrix_certificate(
    matrix: Sequence[Sequence[Number]],
    x: Sequence[Number],
    y: Sequence[Number],
    value: Number,
    integers: tuple[list[list[int]], int] | None = None,
) -> tuple[bool, str]:
    """Check exactly that ``x`` and ``y`` are optimal and ``value`` is the value
    (``integers``: the matrix as integers over a common denominator, where the caller
    has it, :attr:`MatrixGame.integers`)."""
    m, n = len(matrix), len(matrix[0])
    for who, p, size in (("row", x, m), ("column", y, n)):
        why = probability_vector(p, size)
        if why is not None:
            return False, f"{who} strategy: {why}"
    rows = integers or _integer_rows(matrix)
    low, high = row_guarantee(matrix, x, rows), column_concession(matrix, y, rows)
    if low < value:
        return False, f"row strategy guarantees only {low} < {value}"
    if high > value:
        return False, f"column strategy concedes {high} > {value}"
    return True, (
        f"value {value} certified: row strategy guarantees {low}, column strategy concedes {high}"
    )


def _behaviour_problem(game: Any, player: int, plan: Mapping[str, Mapping[str, Number]]
                       ) -> str | None:
    """Why ``plan`` is not a behaviour strategy of ``player`` (1 or 2) in ``game``."""
    sets: dict[str, tuple[str, ...]] = {}
    for node in game.nodes:
        if node.kind == "decision" and node.player == player:
            sets[node.infoset] = tuple(a for a, _, _ in node.children)
    for h, actions in sets.items():
        probs = plan.get(h)
        if probs is None:
            return f"player {player} has no probabilities at information set {h!r}"
        why = probability_vector([probs.get(a, Fraction(0)) for a in actions], len(actions))
        if why is not None:
            return f"player {player} at {h!r}: {why}"
        if set(probs) - set(actions):
            return f"player {player} at {h!r}: unknown actions {sorted(set(probs) - set(actions))}"
    return None


def best_response_value(game: Any, responder: int,
                        fixed: Mapping[str, Mapping[str, Number]]) -> Fraction:
    """The exact value when player ``3 - responder`` plays the behaviour strategy ``fixed``
    and ``responder`` (1 maximizes, 2 minimizes) answers best.

    Walks the tree once: each leaf's payoff, weighted by chance and the fixed
    player's probabilities, is credited to the responder's last own move there;
    then, leaves to root over the responder's moves (perfect recall makes these a
    tree), each information set takes its best action.
    """
    other = 3 - responder
    credit: dict[Any, Fraction] = {}
    below: dict[Any, set[str]] = {}  # own sequence -> the responder's sets right after it
    actions: dict[str, list[str]] = {}
    stack: list[tuple[int, Any, Fraction]] = [(0, None, Fraction(1))]
    while stack:
        k, seq, weight = stack.pop()
        node = game.nodes[k]
        if node.kind == "leaf":
            credit[seq] = credit.get(seq, Fraction(0)) + weight * node.payoff
        elif node.kind == "chance":
            stack.extend((c, seq, weight * p) for _, p, c in node.children if p)
        elif node.player == other:
            probs = fixed[node.infoset]
            for a, _, c in node.children:
                p = Fraction(probs.get(a, 0))
                if p:
                    stack.append((c, seq, weight * p))
        else:
            below.setdefault(seq, set()).add(node.infoset)
            actions[node.infoset] = [a for a, _, _ in node.children]
            stack.extend((c, (node.infoset, a), weight) for a, _, c in node.children)
    pick = max if responder == 1 else min
    memo: dict[Any, Fraction] = {}

    def value(seq: Any) -> Fraction:
        # iterative post-order over the responder's sequence tree
        todo = [(seq, False)]
        while todo:
            s, ready = todo.pop()
            if s in memo:
                continue
            kids = [(h, a) for h in below.get(s, ()) for a in actions[h]]
            if not ready:
                todo.append((s, True))
                todo.extend((t, False) for t in kids if t not in memo)
                continue
            memo[s] = credit.get(s, Fraction(0)) + sum(
                (pick(memo[(h, a)] for a in actions[h]) for h in below.get(s, ())), Fraction(0))
        return memo[seq]

    return value(None)


def check_behaviour_certificate(
    game: Any,
    plan_1: Mapping[str, Mapping[str, Number]],
    plan_2: Mapping[str, Mapping[str, Number]],
    value: Number,
) -> tuple[bool, str]:
    """Check exactly that behaviour strategies ``plan_1`` and ``plan_2`` are optimal in the
    game tree and ``value`` is its value (player 2's best reply to ``plan_1`` leaves 1 at
    least ``value``; player 1's best reply to ``plan_2`` gets at most ``value``)."""
    for player, plan in ((1, plan_1), (2, plan_2)):
        why = _behaviour_problem(game, player, plan)
        if why is not None:
            return False, why
    low = best_response_value(game, 2, plan_1)
    high = best_response_value(game, 1, plan_2)
    if low < value:
        return False, f"player 1's strategy guarantees only {low} < {value}"
    if high > value:
        return False, f"player 2's strategy concedes {high} > {value}"
    return True, (f"value {value} certified: player 1's strategy guarantees {low}, "
                  f"player 2's concedes {high} (exact best replies)")


# -- trees without perfect recall: mixed strategies, and the behaviour bracket --------------


def _walk_payoff(game: Any, plans: Mapping[int, Mapping[str, str]],
                 behaviour: Mapping[str, Mapping[str, Number]] | None = None,
                 player: int = 0) -> Fraction:
    """The expected payoff when each player in ``plans`` plays his pure plan and
    ``player`` (if given) the probabilities ``behaviour`` (any numbers: a box's corner
    may lie outside the simplex), chance by its probabilities. A set the plan does not
    name, reached in play, is a KeyError."""
    total = Fraction(0)
    stack: list[tuple[int, Fraction]] = [(0, Fraction(1))]
    while stack:
        k, weight = stack.pop()
        node = game.nodes[k]
        if node.kind == "leaf":
            total += weight * node.payoff
        elif node.kind == "chance":
            stack.extend((c, weight * p) for _, p, c in node.children if p)
        elif node.player == player and behaviour is not None:
            probs = behaviour[node.infoset]
            stack.extend((c, weight * Fraction(probs[a])) for a, _, c in node.children
                         if probs[a])
        else:
            chosen = plans[node.player][node.infoset]
            nxt = [c for a, _, c in node.children if a == chosen]
            if not nxt:
                raise KeyError(f"{chosen!r} is no move at {node.infoset!r}")
            stack.append((nxt[0], weight))
    return total


def _every_plan(game: Any, player: int) -> list[dict[str, str]]:
    from itertools import product

    sets: dict[str, list[str]] = {}
    for node in game.nodes:
        if node.kind == "decision" and node.player == player:
            sets.setdefault(node.infoset, [a for a, _, _ in node.children])
    return [dict(zip(sets, choice, strict=True)) for choice in product(*sets.values())]


def _absent_minded(game: Any) -> str | None:
    """An information set met twice on one play, if any (the bracket's corners rest on
    there being none)."""
    stack: list[tuple[int, frozenset[tuple[int, str]]]] = [(0, frozenset())]
    while stack:
        k, met = stack.pop()
        node = game.nodes[k]
        if node.kind == "decision":
            if (node.player, node.infoset) in met:
                return node.infoset
            met = met | {(node.player, node.infoset)}
        stack.extend((c, met) for _, _, c in node.children)
    return None


def check_mixed_tree(game: Any, outcome: Outcome) -> tuple[bool | None, str]:
    """A tree without perfect recall solved in mixed strategies: each player's mixture of
    pure plans is a probability vector, and against every pure plan of the other (all of
    them, enumerated here) I's guarantees at least the value and II's concedes at most
    it, every payoff by a walk of the tree. Then each behaviour bracket: its strategy
    ``at`` guarantees (I) or concedes (II) exactly what it says, and the box cover of the
    certificate bounds every behaviour strategy (each box's corners, against its mixture
    of replies; boxes outside the strategies shown to be so); a bracket that ends
    strictly inside the value is said so."""
    value, witness = outcome.answer, outcome.witness
    mixes = {}
    for who, player in (("I", 1), ("II", 2)):
        mix = witness.get(f"mixed_{who}")
        if not isinstance(mix, list) or not mix:
            return False, f"no mixed strategy of {who}"
        why = probability_vector([m.get("p") for m in mix], len(mix))
        if why is not None:
            return False, f"{who}'s mixture: {why}"
        mixes[player] = [(m["plan"], m["p"]) for m in mix]
    low = min(sum((p * _walk_payoff(game, {1: plan, 2: reply}) for plan, p in mixes[1]),
                  Fraction(0)) for reply in _every_plan(game, 2))
    high = max(sum((p * _walk_payoff(game, {1: reply, 2: plan}) for plan, p in mixes[2]),
                   Fraction(0)) for reply in _every_plan(game, 1))
    if low < value:
        return False, f"I's mixed strategy guarantees only {low} < {value}"
    if high > value:
        return False, f"II's mixed strategy concedes {high} > {value}"
    said = [f"value {value} certified in mixed strategies: I's guarantees {low}, II's "
            f"concedes {high} (every pure reply, by the tree)"]
    brackets = witness.get("behaviour", {})
    cover = outcome.certificate if isinstance(outcome.certificate, dict) else {}
    if brackets and _absent_minded(game) is not None:
        return False, "a play meets an information set twice: no behaviour bracket holds"
    for who, bracket in brackets.items():
        player = {"I": 1, "II": 2}.get(who)
        if player is None or not isinstance(bracket, dict):
            return False, f"a behaviour bracket of {who!r}"
        why = _behaviour_problem(game, player, bracket["at"])
        if why is not None:
            return False, why
        lower, upper = bracket["lower"], bracket["upper"]
        replies = _every_plan(game, 3 - player)
        got = [_walk_payoff(game, {3 - player: r}, bracket["at"], player) for r in replies]
        achieved, claimed = (min(got), lower) if player == 1 else (max(got), upper)
        if achieved != claimed:
            return False, (f"{who}'s behaviour strategy gets exactly {achieved}, not "
                           f"{claimed} against its best reply")
        proof = cover.get(who)
        if proof is None:
            return False, f"no box cover proves the bound of {who}'s behaviour strategies"
        why = _check_cover(game, player, proof, upper if player == 1 else lower)
        if why is not None:
            return False, f"{who}'s behaviour bound: {why}"
        if player == 1:
            gap = "strictly below the value" if upper < value else "up to the value"
            said.append(f"I's behaviour strategies guarantee exactly {upper} ({gap}), the box cover "
                        "proving no better" if lower == upper else
                        f"I's behaviour strategies guarantee at most {upper} ({gap}; at least "
                        f"{lower}: its strategy given)")
        else:
            gap = "strictly above the value" if lower > value else "down to the value"
            said.append(f"II's behaviour strategies concede exactly {lower} ({gap}), the box "
                        "cover proving no better" if lower == upper else
                        f"II's behaviour strategies concede at least {lower} ({gap}; at most "
                        f"{upper}: its strategy given)")
    return True, "; ".join(said)


def _check_cover(game: Any, player: int, proof: Mapping[str, Any], bound: Fraction) -> str | None:
    """Why the box cover ``proof`` does not show that every behaviour strategy of
    ``player`` is held to ``bound`` (I: guarantees at most it; II: concedes at least it)."""
    sets: dict[str, list[str]] = {}
    for node in game.nodes:
        if node.kind == "decision" and node.player == player:
            sets.setdefault(node.infoset, [a for a, _, _ in node.children])
    coords = [tuple(c) for c in proof.get("coords", [])]
    free = {h: [a for g, a in coords if g == h] for h in sets}
    if len(set(coords)) != len(coords) or any(h not in sets or a not in sets[h] for h, a in coords) \
            or any(len(free[h]) != len(acts) - 1 for h, acts in sets.items()):
        return "the free probabilities are not all but one action of each information set"
    from itertools import product

    def probs(corner: tuple[Fraction, ...]) -> dict[str, dict[str, Fraction]]:
        out: dict[str, dict[str, Fraction]] = {h: {} for h in sets}
        for (h, a), v in zip(coords, corner, strict=True):
            out[h][a] = v
        for h, acts in sets.items():
            rest = next(a for a in acts if a not in out[h])
            out[h][rest] = 1 - sum(out[h].values(), Fraction(0))
        return out

    boxes = 0
    todo = [(proof.get("cells"), tuple((Fraction(0), Fraction(1)) for _ in coords))]
    while todo:
        cell, box = todo.pop()
        boxes += 1
        if not isinstance(cell, Mapping):
            return "a box is not described"
        if "split" in cell:
            k = cell["split"]
            lo, hi = box[k]
            mid = (lo + hi) / 2
            todo.append((cell.get("low"), (*box[:k], (lo, mid), *box[k + 1:])))
            todo.append((cell.get("high"), (*box[:k], (mid, hi), *box[k + 1:])))
        elif cell.get("outside"):
            if not any(sum((box[k][0] for k, c in enumerate(coords) if c[0] == h), Fraction(0)) > 1
                       for h in sets):
                return f"box {box} is said to hold no strategy, but it does"
        else:  # a mixture of the other's pure replies: multilinear, extreme at corners
            mix = cell.get("mix")
            if not isinstance(mix, list) or not mix:
                return f"box {box} has no mixture of replies"
            why = probability_vector([m.get("w") for m in mix], len(mix))
            if why is not None:
                return f"the replies' weights in box {box}: {why}"
            corners = [sum((m["w"] * _walk_payoff(game, {3 - player: m["reply"]}, probs(c), player)
                            for m in mix), Fraction(0)) for c in product(*box)]
            worst = max(corners) if player == 1 else min(corners)
            if (player == 1 and worst > bound) or (player == 2 and worst < bound):
                return f"in box {box}, the reply gives {worst} at a corner, beyond {bound}"
    return None


def approximate(outcome: Outcome) -> bool:
    """Whether a ``solve`` answer is approximate: floating numbers (HiGHS's, where no
    exact pair was found), not an exact certificate. The numbers themselves say so, in
    memory and read back from JSON alike (a float stays a float; an exact rational is
    written as its text and read back, :func:`revive`)."""
    witness = outcome.witness if isinstance(outcome.witness, dict) else {}
    numbers = [outcome.answer]
    for key in ("row", "col", "realization_I", "realization_II"):
        if isinstance(witness.get(key), list):
            numbers += witness[key]
    return any(isinstance(x, float) for x in numbers)


def check_outcome(game: MatrixGame | ExtensiveGame, outcome: Outcome) -> tuple[bool | None, str]:
    """Check the certificate exactly; an approximate (floating) answer is not checkable
    (:func:`approximate`: unconfirmed, exit 3)."""
    if outcome.status != "solved":
        return None, "nothing to verify"
    if approximate(outcome):  # a value, but no certificate: exit 3
        raise Unconfirmed("approximate floating answer: no exact certificate found")
    if not isinstance(outcome.answer, int | Fraction) or isinstance(outcome.answer, bool):
        return False, f"the value {outcome.answer!r} is not an exact rational"
    witness = outcome.witness if isinstance(outcome.witness, dict) else {}
    try:
        if isinstance(game, MatrixGame):
            return check_matrix_certificate(game.matrix, list(witness.get("row", [])),
                                            list(witness.get("col", [])), outcome.answer,
                                            game.integers)
        if getattr(game, "recall", None) is not None:
            return check_mixed_tree(game, outcome)
        return check_behaviour_certificate(
            game, witness.get("behaviour_I", {}), witness.get("behaviour_II", {}), outcome.answer
        )
    except (TypeError, KeyError, ValueError, AttributeError) as err:
        return False, f"the strategies are malformed ({err.__class__.__name__}: {err})"


def check_saddle_points(game: MatrixGame, outcome: Outcome) -> tuple[bool | None, str]:
    """Every listed ``[row, col]`` is a saddle point (its row's minimum and its column's
    maximum), none is missing, and the answer is their entry (``None`` when none)."""
    if outcome.status not in ("solved", "no-solution"):
        return None, "nothing to verify"
    matrix = game.matrix
    low = [min(row) for row in matrix]
    high = [max(col) for col in zip(*matrix, strict=True)]
    every = [[i, j] for i, row in enumerate(matrix) for j, a in enumerate(row)
             if a == low[i] and a == high[j]]
    listed = outcome.witness or []
    for point in listed:
        if point not in every:
            return False, f"{point} is not a saddle point"
    if len(listed) != len(every) or sorted(listed) != every:
        return False, f"{len(every)} saddle points, {len(listed)} listed"
    if not every:
        if outcome.status != "no-solution" or outcome.answer is not None:
            return False, f"no saddle point, but status {outcome.status} answer {outcome.answer}"
        maximin, minimax = max(low), min(high)
        return True, f"no saddle point: maximin {maximin} < minimax {minimax}"
    value = matrix[every[0][0]][every[0][1]]
    if outcome.status != "solved" or outcome.answer != value:
        return False, f"the saddle value is {value}, not {outcome.answer}"
    found = "the saddle point" if len(every) == 1 else f"all {len(every)} saddle points"
    return True, f"{found} found, each its row's minimum and its column's maximum"


def _dominated(better: Sequence[Fraction], worse: Sequence[Fraction], strict: bool) -> bool:
    if strict:
        return all(b > w for b, w in zip(better, worse, strict=True))
    return all(b >= w for b, w in zip(better, worse, strict=True)) and better != worse


def check_dominance(game: MatrixGame, outcome: Outcome) -> tuple[bool | None, str]:
    """Replay the eliminations: each removed strategy is dominated (strictly, or weakly
    where its step says so) by its mixture of strategies still in the game (a round's
    steps: in the game as it was before the round), and what survives is the answer.
    Whether more could be eliminated is not checked (keeping a strategy is always safe)."""
    if outcome.status != "solved":
        return None, "nothing to verify"
    witness = outcome.witness or {}
    matrix = game.matrix
    alive = {"I": list(range(len(matrix))), "II": list(range(len(matrix[0])))}
    steps = witness.get("steps", [])
    rounds: list[list[dict[str, Any]]] = []
    for step in steps:  # a round's steps together; a step without a round alone
        key = step.get("round")
        if rounds and key is not None and rounds[-1][0].get("round") == key:
            rounds[-1].append(step)
        else:
            rounds.append([step])
    for group in rounds:
        before = {p: list(s) for p, s in alive.items()}
        for step in group:
            player, removed, by = step.get("player"), step.get("removed"), step.get("by", {})
            if player not in before:
                return False, f"step {step}: no player {player!r}"
            own, other = before[player], before["II" if player == "I" else "I"]

            def payoffs(k: int, player: str = player, other: list[int] = other) -> list[Fraction]:
                # what strategy k pays its player (II minimizes: negated)
                if player == "I":
                    return [matrix[k][j] for j in other]
                return [-matrix[i][k] for i in other]

            if removed not in alive[player] or removed not in own:
                return False, f"player {player}'s strategy {removed!r} is removed twice or unknown"
            if not by or any(k not in own or k == removed for k in by):
                return False, f"player {player}'s strategy {removed} is dominated by {by}: not in play"
            why = probability_vector(list(by.values()), len(by))
            if why is not None:
                return False, f"the mixture dominating {removed}: {why}"
            mixed = [sum((p * payoffs(k)[t] for k, p in by.items()), Fraction(0))
                     for t in range(len(other))]
            strict = str(step.get("kind", "")).startswith("strict")
            if not _dominated(mixed, payoffs(removed), strict):
                kind = "strictly" if strict else "weakly"
                return False, f"player {player}'s strategy {removed} is not {kind} dominated by {by}"
            alive[player].remove(removed)
    if alive["I"] != sorted(witness.get("rows", [])) or alive["II"] != sorted(witness.get("cols", [])):
        return False, "the surviving strategies are not what the steps leave"
    if outcome.answer != [len(alive["I"]), len(alive["II"])]:
        return False, f"{outcome.answer} is not the reduced game's shape"
    return True, f"{len(steps)} elimination{'' if len(steps) == 1 else 's'} checked exactly"


#: The most pure stationary replies the bracket's check evaluates (each an exact linear
#: system); beyond, the bracket is left unconfirmed.
MAX_REPLIES = 20_000


def check_value_iteration(game: Any, outcome: Outcome) -> tuple[bool | None, str]:
    """The bracket ``[lower, upper]`` of ``zerosum stochastic``, recomputed from the
    stationary strategies alone: each is a probability vector in every state, ``lower``
    is exactly what I's strategy guarantees from the start against every pure stationary
    reply of II, ``upper`` exactly what II's concedes against every pure stationary reply
    of I (each reply a Markov chain, its expected total payoff solved exactly here:
    :func:`chain_payoffs`). The iterates ``v_n`` and Shapley's error bound are the
    iteration's report: not replayed (the bracket does not rest on them), said in the
    verdict's ``not_checked``."""
    if outcome.status != "solved":
        return None, "nothing to verify"
    witness = outcome.witness if isinstance(outcome.witness, dict) else {}
    plans: dict[str, dict[str, list[Number]]] = {}
    try:
        for who, key in (("I", "row"), ("II", "col")):
            plan = witness.get(key)
            if not isinstance(plan, dict) or set(plan) != set(game.states):
                return False, f"{who}'s stationary strategy does not name every state"
            for state, p in plan.items():
                rows = game.states[state]
                size = len(rows) if who == "I" else len(rows[0])
                why = probability_vector(list(p), size)
                if why is not None:
                    return False, f"{who}'s strategy in {state}: {why}"
            plans[who] = {s: list(p) for s, p in plan.items()}
    except TypeError as err:
        return False, f"the strategies are malformed ({err})"
    bracket = outcome.answer
    if bracket is None:  # iterated values, but no exact bound on the value: exit 3
        raise Unconfirmed("no exact bracket of the value (too many stationary replies to evaluate)")
    if not isinstance(bracket, list | tuple) or len(bracket) != 2 or not all(
            isinstance(b, int | Fraction) and not isinstance(b, bool) for b in bracket):
        return False, f"the bracket {bracket!r} is not two exact rationals"
    family = witness.get("family")
    if family is not None:  # the value by II's strategy and I's e-optimal family
        high = _guarantee(game, plans["II"], False)
        if bracket[0] != bracket[1] or high != bracket[1]:
            return False, (f"II's strategy concedes exactly {high} from {game.start}, and the "
                           f"family's value is {bracket[1]}: they must agree")
        why = check_family(game, family, high)
        if why is not None:
            return False, why
        replayed = replay_iterates(game, outcome)
        if isinstance(replayed, str) and not replayed.startswith("not replayed"):
            return False, replayed
        if replayed is not True:
            outcome.verdict.not_checked = "the iterates v_n (not replayed: the value rests on the family)"
        from pyasp_games.domains.zerosum.polynomial import Poly

        line = Poly.of(high, -Fraction(family["K"]))
        said = (f"value {high}: II's strategy concedes exactly {high}; I's family guarantees at "
                f"least {line} for every e in (0, {family['e0']}] (exact, each pure stationary "
                "reply as a function of e)")
        if "x0_guarantees" in family:
            said += (f"; its limit x0 is the stage game's only optimal strategy and guarantees "
                     f"only {family['x0_guarantees']}: no stationary strategy of I is optimal")
        return True, said
    low = _guarantee(game, plans["I"], True)
    high = _guarantee(game, plans["II"], False)
    if witness.get("optimal") and low != high:
        return False, f"the strategies are said optimal, but guarantee {low} and concede {high}"
    if low != bracket[0]:
        return False, f"I's strategy guarantees exactly {low} from {game.start}, not {bracket[0]}"
    if high != bracket[1]:
        return False, f"II's strategy concedes exactly {high} from {game.start}, not {bracket[1]}"
    replayed = replay_iterates(game, outcome)
    if isinstance(replayed, str) and not replayed.startswith("not replayed"):
        return False, replayed
    if replayed is not True:
        bound = ", nor Shapley's error bound from them" if "shapley_bound" in outcome.stats else ""
        outcome.verdict.not_checked = f"the iterates v_n (not replayed{bound}: the bracket does not rest on them)"
    return True, (f"bracket recomputed exactly: I's strategy guarantees {low}, II's concedes "
                  f"{high}, against every pure stationary reply"
                  + ("; the iterates v_n replayed from each step's certified stage values"
                     if replayed is True else ""))


def replay_iterates(game: Any, outcome: Outcome) -> bool | str:
    """Replay value iteration from the certificate's stage strategies: from ``v_0 = Q``,
    each step's stage game of each state (its entries continued with the previous
    values) has the value its pair of strategies certifies (the row strategy guarantees
    and the column strategy concedes the same number, exactly), which is the next
    iterate; the last must be the witness's ``values``, and a stopping game's error
    bound Shapley's formula on the last two. ``True`` when replayed, ``"not replayed
    ..."`` without a certificate, else why it fails."""
    stages = (outcome.certificate or {}).get("stages") if isinstance(outcome.certificate, dict) else None
    witness = outcome.witness
    if not isinstance(stages, list):
        return "not replayed: no certificate of the steps"
    if len(stages) != witness.get("iterations"):
        return f"{len(stages)} steps certified for {witness.get('iterations')} iterations"
    infinite = getattr(game, "infinite", Fraction(0))
    v = {s: infinite for s in game.states}
    previous = v
    for k, step in enumerate(stages, start=1):
        if not isinstance(step, Mapping) or set(step) != set(game.states):
            return f"step {k} does not certify every state"
        new = {}
        for s, rows in game.states.items():
            matrix = [[e.payoff + sum((q * v[t] for t, q in e.next), Fraction(0)) for e in row]
                      for row in rows]
            pair = step[s]
            if not isinstance(pair, list | tuple) or len(pair) != 2:
                return f"step {k}, state {s}: not a pair of strategies"
            x, y = [exact(p) for p in pair[0]], [exact(p) for p in pair[1]]
            for p, size in ((x, len(matrix)), (y, len(matrix[0]))):
                why = probability_vector(p, size)
                if why is not None:
                    return f"step {k}, state {s}: {why}"
            low, high = row_guarantee(matrix, x), column_concession(matrix, y)
            if low != high:
                return f"step {k}, state {s}: the strategies give {low} and {high}, no value"
            new[s] = low
        previous, v = v, new
    if {s: exact(x) for s, x in witness.get("values", {}).items()} != v:
        return f"the iterates replayed end at {v}, not at the values given"
    if "shapley_bound" in outcome.stats:
        beta = max(1 - e.stop for rows in game.states.values() for row in rows for e in row)
        bound = beta / (1 - beta) * max(abs(v[s] - previous[s]) for s in game.states)
        if exact(outcome.stats["shapley_bound"]) != bound:
            return f"Shapley's bound from the replayed iterates is {bound}, not {outcome.stats['shapley_bound']}"
    return True


def _guarantee(game: Any, plan: Mapping[str, Sequence[Number]], fixed_is_row: bool) -> Fraction:
    """The worst, for the player whose stationary ``plan`` it is, of the expected total
    payoff from the start over every pure stationary reply of the other player."""
    from itertools import product

    names = list(game.states)
    counts = [len(game.states[s][0]) if fixed_is_row else len(game.states[s]) for s in names]
    total = 1
    for c in counts:
        total *= c
    if total > MAX_REPLIES:
        raise Unconfirmed(f"more than {MAX_REPLIES:,} pure stationary replies to evaluate")
    worst: Fraction | None = None
    for choice in product(*(range(c) for c in counts)):
        reply = dict(zip(names, choice, strict=True))
        got = chain_payoffs(game, plan, reply, fixed_is_row)[game.start]
        if worst is None or (got < worst if fixed_is_row else got > worst):
            worst = got
    assert worst is not None
    return worst


def check_family(game: Any, family: Mapping[str, Any], value: Fraction) -> str | None:
    """Why the family ``x(e) = (1 - e) x0 + e x1`` of I's stationary strategies does not
    guarantee ``value - K e`` for every ``e`` in ``(0, e0]`` (``None``: it does). Each pure
    stationary reply of II leaves a Markov chain whose probabilities are functions of
    ``e``; its expected payoff from the start is solved exactly as a rational function
    (:func:`chain_payoffs` over Q(e)) and the inequality proved on the interval
    (:func:`~pyasp_games.domains.zerosum.polynomial.at_least_on`). With
    ``x0_guarantees`` (a game of one state): ``x0`` is checked to be the only strategy
    guaranteeing ``value`` in the stage game whose continuation is worth ``value``, and
    to guarantee exactly ``x0_guarantees < value``: a stationary optimal strategy would
    have to be it."""
    from itertools import product

    from pyasp_games.domains.zerosum.polynomial import (
        RationalFunction,
        at_least_on,
        lowest_near_zero,
    )

    try:
        k, e0 = Fraction(family["K"]), Fraction(family["e0"])
        x0, x1 = family["x0"], family["x1"]
        for who, plan in (("x0", x0), ("x1", x1)):
            if not isinstance(plan, Mapping) or set(plan) != set(game.states):
                return f"the family's {who} does not name every state"
            for state, p in plan.items():
                why = probability_vector(list(p), len(game.states[state]))
                if why is not None:
                    return f"the family's {who} in {state}: {why}"
    except (KeyError, TypeError, ValueError, ZeroDivisionError) as err:
        return f"the family is malformed ({err})"
    if not 0 < e0 < 1 or k < 0:  # at e = 1, x0's moves vanish: the chain changes shape
        return f"the family's e0 {e0} must be in (0, 1) and K {k} >= 0"
    e = RationalFunction.variable()
    plan = {s: [(1 - e) * a + e * b for a, b in zip(x0[s], x1[s], strict=True)] for s in game.states}
    names = list(game.states)
    got = []
    for choice in product(*(range(len(game.states[s][0])) for s in names)):
        reply = dict(zip(names, choice, strict=True))
        g = chain_payoffs(game, plan, reply, True)[game.start]
        if not at_least_on(g, value, k, e0):
            return (f"against II's stationary reply {reply}, the family guarantees {g}, not at "
                    f"least {value} - {k} e on (0, {e0}]")
        got.append(g)
    if repr(lowest_near_zero(got)) != family.get("guarantee"):
        return (f"the family guarantees {lowest_near_zero(got)} for small e, not "
                f"{family.get('guarantee')}")
    if "x0_guarantees" in family:
        if len(names) != 1:
            return "no optimal stationary strategy is shown for one state only"
        (state,) = names
        reach = min(chain_payoffs(game, x0, {state: j}, True)[state]
                    for j in range(len(game.states[state][0])))
        if reach != family["x0_guarantees"] or reach >= value:
            return f"x0 guarantees exactly {reach}, not {family['x0_guarantees']} < {value}"
        stage = [[e.payoff + sum((q for _, q in e.next), Fraction(0)) * value for e in row]
                 for row in game.states[state]]
        limit = [Fraction(p) for p in x0[state]]
        if any(sum((p * row[j] for p, row in zip(limit, stage, strict=True)), Fraction(0)) < value
               for j in range(len(stage[0]))):
            return f"x0 does not guarantee {value} in the stage game whose continuation is worth it"
        other = _another_optimal(stage, limit, value)
        if other is not None:
            return f"x0 is not the stage game's only optimal strategy: {other} guarantees {value} too"
    return None


def _another_optimal(stage: list[list[Fraction]], x: list[Fraction], v: Fraction
                     ) -> list[Fraction] | None:
    """A row strategy other than ``x`` guaranteeing ``v`` in ``stage``, or ``None``: the
    vertices of ``{x >= 0, sum x = 1, x A_j >= v}``, each solving ``m - 1`` tight
    inequalities with the sum (Gaussian elimination here, free unknowns 0)."""
    from itertools import combinations

    m, n = len(stage), len(stage[0])
    ineq = [([Fraction(int(i == r)) for i in range(m)], Fraction(0)) for r in range(m)]
    ineq += [([stage[i][j] for i in range(m)], v) for j in range(n)]
    for tight in combinations(ineq, m - 1):
        system = [[Fraction(1)] * m + [Fraction(1)]] + [[*list(row), b] for row, b in tight]
        point = _basic_solution(system, m)
        if point is None or point == x:
            continue
        if all(sum((c * p for c, p in zip(row, point, strict=True)), Fraction(0)) >= b
               for row, b in ineq):
            return point
    return None


def _basic_solution(system: list[list[Fraction]], m: int) -> list[Fraction] | None:
    rows = [r[:] for r in system]
    pivots: list[int] = []
    r = 0
    for c in range(m):
        p = next((i for i in range(r, len(rows)) if rows[i][c] != 0), None)
        if p is None:
            continue
        rows[r], rows[p] = rows[p], rows[r]
        rows[r] = [a / rows[r][c] for a in rows[r]]
        for i in range(len(rows)):
            if i != r and rows[i][c] != 0:
                f = rows[i][c]
                rows[i] = [a - f * b for a, b in zip(rows[i], rows[r], strict=True)]
        pivots.append(c)
        r += 1
    if any(all(a == 0 for a in row[:m]) and row[m] != 0 for row in rows):
        return None
    point = [Fraction(0)] * m
    for i, c in enumerate(pivots):
        point[c] = rows[i][m]
    return point


def chain_payoffs(game: Any, plan: Mapping[str, Sequence[Any]], reply: Mapping[str, int],
                  fixed_is_row: bool) -> dict[str, Any]:
    """The expected total payoff from each state when one player plays the stationary
    ``plan`` and the other the pure stationary ``reply`` (a play that never ends pays the
    game's ``infinite``, 0 unless given; ``plan``'s probabilities may be rational
    functions of ``e``, each not the zero function positive for small ``e > 0``):
    the Markov chain's states from which play ends with positive probability solve
    ``w = r + P w`` (exactly, by Gaussian elimination over the rationals); the others
    pay 0.

    >>> from pyasp_games.domains.zerosum.stochastic import parse_stochastic
    >>> g = parse_stochastic({"start": "G", "states": {"G": [["G", 1], [1, 0]]}})
    >>> chain_payoffs(g, {"G": [Fraction(1, 2), Fraction(1, 2)]}, {"G": 0}, True)["G"]
    Fraction(1, 1)
    """
    def number(p: Any) -> Any:  # a probability: a rational, or a function of e
        return p if hasattr(p, "limit_at_zero") else Fraction(p)

    infinite = getattr(game, "infinite", Fraction(0))
    reward: dict[str, Any] = {}
    step: dict[str, dict[str, Any]] = {}
    ends: dict[str, Any] = {}
    for s, rows in game.states.items():
        if fixed_is_row:
            played = [(number(p), rows[i][reply[s]]) for i, p in enumerate(plan[s]) if p]
        else:
            played = [(number(p), rows[reply[s]][j]) for j, p in enumerate(plan[s]) if p]
        reward[s], step[s], ends[s] = Fraction(0), {}, Fraction(0)
        for p, entry in played:
            reward[s] += p * entry.payoff
            going = Fraction(0)
            for t, q in entry.next:
                step[s][t] = step[s].get(t, Fraction(0)) + p * q
                going += q
            ends[s] += p * (1 - going)
    ending = {s for s in game.states if ends[s]}  # (never negative)
    grew = True
    while grew:  # the states that reach an end with positive probability
        grew = False
        for s in game.states:
            if s not in ending and any(q and t in ending for t, q in step[s].items()):
                ending.add(s)
                grew = True
    order = [s for s in game.states if s in ending]
    at = {s: k for k, s in enumerate(order)}
    n = len(order)
    # (I - P) w = r over the ending states: I - P is invertible there (transient)
    rows = []
    for s in order:  # a move to a state that never ends: the play is infinite, pays Q
        row: list[Any] = [Fraction(0)] * (n + 1)
        row[at[s]] += 1
        rhs = reward[s]
        for t, q in step[s].items():
            if t in at:
                row[at[t]] -= q
            else:
                rhs += q * infinite
        row[n] = rhs
        rows.append(row)
    for c in range(n):
        pivot = next(r for r in range(c, n) if rows[r][c] != 0)
        rows[c], rows[pivot] = rows[pivot], rows[c]
        for r in range(n):
            if r != c and rows[r][c] != 0:
                f = rows[r][c] / rows[c][c]
                rows[r] = [a - f * b for a, b in zip(rows[r], rows[c], strict=True)]
    return {s: rows[at[s]][n] / rows[at[s]][at[s]] if s in at else infinite for s in game.states}


# -- saved answers: what JSON wrote, read back as the checkers read it ---------------------


def exact(x: Any) -> Any:
    """A number of a saved answer: JSON wrote an exact rational as its text (``"7/12"``);
    read back, it is that rational again (anything else stays as it is, for the checker
    to judge).

    >>> exact("7/12"), exact(0.5), exact("check")
    (Fraction(7, 12), 0.5, 'check')
    """
    if isinstance(x, str):
        try:
            return Fraction(x)
        except (ValueError, ZeroDivisionError):
            return x
    return x


def _key(k: Any) -> Any:
    """A strategy's number that JSON wrote as an object's key (``"0"``)."""
    return int(k) if isinstance(k, str) and k.lstrip("-").isdigit() else k


def revive(game: Any, outcome: Outcome) -> Outcome:
    """A saved answer of any zerosum question read back from JSON
    (:meth:`Question.recheck <pyasp_games.engines.question.Question.recheck>`): its
    exact rationals (the value, the bracket, every probability) and the strategies'
    numbers that were keys (``reduce``'s mixtures), as the checkers read them."""
    answer, witness = outcome.answer, outcome.witness
    outcome.answer = [exact(x) for x in answer] if isinstance(answer, list) else exact(answer)
    if isinstance(witness, dict):
        for key in ("row", "col"):
            plan = witness.get(key)
            if isinstance(plan, list):  # a matrix game's mixed strategy
                witness[key] = [exact(p) for p in plan]
            elif isinstance(plan, dict):  # a stochastic game's, state by state
                witness[key] = {s: [exact(p) for p in ps] if isinstance(ps, list) else ps
                                for s, ps in plan.items()}
        for key in ("behaviour_I", "behaviour_II"):
            plan = witness.get(key)
            if isinstance(plan, dict):
                witness[key] = {h: {a: exact(p) for a, p in probs.items()} if isinstance(probs, dict)
                                else probs for h, probs in plan.items()}
        for key in ("mixed_I", "mixed_II"):  # a tree without perfect recall
            mix = witness.get(key)
            if isinstance(mix, list):
                witness[key] = [{**m, "p": exact(m.get("p"))} if isinstance(m, dict) else m
                                for m in mix]
        brackets = witness.get("behaviour")
        if isinstance(brackets, dict):
            for bracket in brackets.values():
                if isinstance(bracket, dict):
                    for end in ("lower", "upper"):
                        bracket[end] = exact(bracket.get(end))
                    if isinstance(bracket.get("at"), dict):
                        bracket["at"] = {h: {a: exact(p) for a, p in probs.items()}
                                         if isinstance(probs, dict) else probs
                                         for h, probs in bracket["at"].items()}
        family = witness.get("family")
        if isinstance(family, dict):  # a stochastic game's e-optimal family
            for key in ("x0", "x1"):
                if isinstance(family.get(key), dict):
                    family[key] = {s: [exact(p) for p in ps] if isinstance(ps, list) else ps
                                   for s, ps in family[key].items()}
            for key in ("K", "e0", "x0_guarantees"):
                if key in family:
                    family[key] = exact(family[key])
        if isinstance(witness.get("values"), dict):
            witness["values"] = {s: exact(v) for s, v in witness["values"].items()}
        for step in witness.get("steps", []) if isinstance(witness.get("steps"), list) else []:
            if isinstance(step, dict) and isinstance(step.get("by"), dict):
                step["by"] = {_key(k): exact(p) for k, p in step["by"].items()}
    return outcome
