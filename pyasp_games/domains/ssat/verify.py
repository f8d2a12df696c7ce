"""The checker of ``ssat solve``, from the definition alone (it imports no solver).

A claimed maximum probability ``v`` is checked from two sides:

- **from below**, the witness: the player's policy, a decision tree following the
  prefix (``{"e": var, "value": 0|1, "next": tree}``: the player's setting;
  ``{"r": var, "true": tree, "false": tree}``: both of Nature's; a variable in no node
  is not set; ``None``: the formula is decided by what is set, every clause true or one
  clause false). The checker evaluates the policy by plain expansion, each coin with its
  bias: its probability must be ``v``, so ``v`` is achieved;
- **from above**, the checker's own recomputation: every assignment's clause value,
  folded level by level from the innermost variable (max for the player, the coin's
  average for Nature), for formulas of at most :data:`RECOMPUTE` variables: no policy
  does better than ``v``.

- **exactly**, from ``dpll``'s certificate where it gives one: the value of every position
  it met (a prefix position and the clauses left, simplified), each checked against the
  definition by the checker's own simplification: the value of a position is the
  max (player) or the coin's average (Nature) of its two children, each of which is
  decided (no clause left: 1; an empty clause: 0) or in the table. The root's value is
  then the maximum, by induction, with no size limit but the table's.

Beyond :data:`RECOMPUTE` variables and without a table, the policy alone confirms the
lower bound: verified in part.

>>> from pyasp_games.domains.ssat.model import parse_ssat
>>> f = parse_ssat("p cnf 2 2\\ne 1 0\\nr 2 0\\n1 2 0\\n-1 -2 0\\n")
>>> policy_value(f, {"e": 1, "value": 0, "next": {"r": 2, "true": None, "false": None}})
Fraction(1, 2)
>>> recomputed(f)
Fraction(1, 2)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from pyasp_games.domains.ssat.model import Ssat
from pyasp_games.engines.outcome import Outcome

#: The most variables the checker's own recomputation expands (2^16 assignments).
RECOMPUTE = 16
#: The most policy nodes the checker walks.
MAX_NODES = 200_000


class BadPolicy(ValueError):
    """The policy is no decision tree of the formula."""


def policy_value(f: Ssat, tree: Any) -> Fraction:
    """The probability that the formula is satisfied when the player follows ``tree``
    (see the module docstring); :class:`BadPolicy` if it is none."""
    position = {v: i for i, (_, v, _) in enumerate(f.prefix)}
    kinds = {v: (kind, coin) for kind, v, coin in f.prefix}
    walked = [0]

    def value(node: Any, after: int, set_: dict[int, bool]) -> Fraction:
        walked[0] += 1
        if walked[0] > MAX_NODES:
            raise BadPolicy(f"more than {MAX_NODES:,} nodes")
        if node is None:
            open_ = None
            for c in f.clauses:
                if any(set_.get(abs(lit)) == (lit > 0) for lit in c):
                    continue  # satisfied
                if all(abs(lit) in set_ for lit in c):
                    return Fraction(0)  # every literal set, none true
                open_ = c
            if open_ is not None:
                raise BadPolicy(f"the tree ends with clause {list(open_)} undecided")
            return Fraction(1)
        if not isinstance(node, dict):
            raise BadPolicy(f"a node is neither a dict nor null: {node!r}")
        kind = "e" if "e" in node else "r" if "r" in node else None
        var = node.get(kind) if kind else None
        if var not in position or isinstance(var, bool) or kinds[var][0] != kind:
            raise BadPolicy(f"a node names {kind} {var!r}, not a variable of that kind in the prefix")
        if position[var] <= after:
            raise BadPolicy(f"variable {var} comes out of the prefix's order")
        if kind == "e":
            if node.get("value") not in (0, 1) or isinstance(node.get("value"), bool):
                raise BadPolicy(f"the player's setting of {var} is not 0 or 1")
            return value(node.get("next"), position[var], {**set_, var: bool(node["value"])})
        coin = kinds[var][1]
        high = value(node.get("true"), position[var], {**set_, var: True})
        low = value(node.get("false"), position[var], {**set_, var: False})
        return coin * high + (1 - coin) * low

    return value(tree, -1, {})


def recomputed(f: Ssat) -> Fraction:
    """The maximum probability of satisfaction by every assignment's value, folded from
    the innermost variable (:data:`RECOMPUTE` variables at most)."""
    n = len(f.prefix)
    order = [v for _, v, _ in f.prefix]
    # leaf a: bit n-1-i of a is the value of the i-th variable of the prefix
    values = []
    for a in range(2**n):
        true = {order[i] for i in range(n) if a >> (n - 1 - i) & 1}
        values.append(Fraction(int(all(any((abs(x) in true) == (x > 0) for x in c) for c in f.clauses))))
    for kind, _, coin in reversed(f.prefix):
        low, high = values[0::2], values[1::2]
        values = [max(lo, hi) if kind == "e" else coin * hi + (1 - coin) * lo
                  for lo, hi in zip(low, high, strict=True)]  # fmt: skip
    return values[0]


def _left(f: Ssat, setting: str, known: dict[str, frozenset[frozenset[int]]] | None = None) -> frozenset[frozenset[int]]:
    """The clauses left by a setting of the first ``len(setting)`` variables of the prefix
    (``"1"``: true): a clause with a true literal goes, a false literal leaves its clause.
    With ``known`` (the clauses left by shorter settings, filled on the way), a setting's
    clauses are its parent's with one more variable set: a table's positions share their
    prefixes, and each step costs the clauses left, not the whole formula."""
    if known is None:
        known = {}
    if setting in known:
        return known[setting]
    if not setting:
        left = frozenset(frozenset(c) for c in f.clauses)
    else:
        var = f.prefix[len(setting) - 1][1]
        lit = var if setting[-1] == "1" else -var
        left = frozenset(c - {-lit} for c in _left(f, setting[:-1], known) if lit not in c)
    known[setting] = left
    return left


def check_values(f: Ssat, table: Any) -> tuple[Fraction, int]:
    """The root's value proved by a table of position values (module docstring): each
    entry ``[setting, value]``, the setting of the variables before the position; returns
    the root's value and the positions checked; :class:`BadPolicy` where the table breaks
    the definition."""
    if not isinstance(table, list):
        raise BadPolicy("the table of values is not a list")
    values: dict[tuple[int, frozenset[frozenset[int]]], Fraction] = {}
    known: dict[str, frozenset[frozenset[int]]] = {}
    for setting, value in table:
        if not isinstance(setting, str) or set(setting) - {"0", "1"} or len(setting) >= len(f.prefix):
            raise BadPolicy(f"{setting!r} is no setting of the variables before a position")
        values[(len(setting), _left(f, setting, known))] = Fraction(value)

    def child(i: int, clauses: frozenset[frozenset[int]]) -> Fraction:
        if not clauses:
            return Fraction(1)
        if frozenset() in clauses:
            return Fraction(0)
        if (i, clauses) not in values:
            raise BadPolicy(f"position {i} with clauses {sorted(map(sorted, clauses))} is not in the table")
        return values[(i, clauses)]

    for (i, clauses), value in values.items():
        if not clauses or frozenset() in clauses:
            raise BadPolicy(f"position {i}: the formula is decided there, no position to value")
        kind, var, coin = f.prefix[i]
        high, low = (child(i + 1, frozenset(c - {-lit} for c in clauses if lit not in c)) for lit in (var, -var))
        expected = max(high, low) if kind == "e" else coin * high + (1 - coin) * low
        if value != expected:
            raise BadPolicy(f"position {i} (variable {var}) has value {expected}, not {value}")
    return child(0, frozenset(frozenset(c) for c in f.clauses)), len(values)


def check_outcome(f: Ssat, outcome: Outcome) -> tuple[bool | None, str]:
    """Check a claimed maximum probability by the policy (from below) and the
    recomputation (from above, small formulas)."""
    if outcome.status != "solved":
        return None, "nothing to verify"
    try:
        claimed = Fraction(str(outcome.answer))
    except (ValueError, ZeroDivisionError):
        return False, f"the answer {outcome.answer!r} is no probability"
    if not 0 <= claimed <= 1:
        return False, f"the answer {claimed} is not between 0 and 1"
    said = []
    if outcome.witness is not None:
        try:
            achieved = policy_value(f, outcome.witness)
        except (BadPolicy, TypeError, RecursionError) as err:
            return False, f"the policy is no decision tree of the formula: {err}"
        if achieved != claimed:
            return False, f"the policy satisfies the formula with probability {achieved}, not {claimed}"
        said.append(f"the policy achieves {claimed}")
    table = outcome.certificate.get("values") if isinstance(outcome.certificate, dict) else None
    if table is not None:
        try:
            best, positions = check_values(f, table)
        except (BadPolicy, TypeError, ValueError, ZeroDivisionError) as err:
            return False, f"the table of values is no proof: {err}"
        if best != claimed:
            return False, f"the table proves the maximum {best}, not {claimed}"
        said.append(f"the maximum proved position by position ({positions:,} positions)")
        return True, ", ".join(said)
    if len(f.prefix) <= RECOMPUTE:
        best = recomputed(f)
        if best != claimed:
            return False, f"the maximum probability is {best}, not {claimed} (recomputed)"
        said.append(f"no policy does better ({2 ** len(f.prefix):,} assignments folded)")
        return True, ", ".join(said)
    if said:
        outcome.verdict.not_checked = (f"that no policy does better: beyond {RECOMPUTE} "
                                       "variables the checker does not recompute the maximum")  # fmt: skip
        return True, said[0] + " (a lower bound)"
    return None, f"no policy and more than {RECOMPUTE} variables: not checkable alone"
