"""The native backends of ``ssat solve``: the maximum probability of satisfaction, exactly.

The value of a formula (the notes' section 11, proposition 1: the game tree evaluated in
depth) is defined on its prefix: no variable left, 1 if every clause is satisfied, else
0; an existential variable, the larger value of its two settings (the player chooses);
a random one true with probability ``q``, ``q * v(true) + (1 - q) * v(false)`` (Nature
tosses the coin). Every number is a :class:`~fractions.Fraction`.

- ``dpll``: DPLL-style expectation: each setting simplifies the clauses (a satisfied
  clause goes, a false literal leaves its clause; an empty clause is value 0, no clause
  value 1), a variable in no remaining clause is skipped (both settings have the same
  value), and the value of each (position, remaining clauses) is memoised. Its witness
  is the player's policy, a decision tree (see :mod:`~pyasp_games.domains.ssat.verify`).
- ``expand``: the plain expansion of the whole tree, ``2^n`` leaves, no simplification,
  no memo: the definition run as it is (at most :data:`MAX_EXPAND` variables).

>>> from pyasp_games.domains.ssat.model import parse_ssat
>>> f = parse_ssat("p cnf 2 2\\ne 1 0\\nr 2 0\\n1 2 0\\n-1 -2 0\\n")
>>> solve_dpll(f).answer, solve_expand(f).answer
('1/2', '1/2')
>>> solve_dpll(f).witness
{'e': 1, 'value': 1, 'next': {'r': 2, 'true': None, 'false': None}}
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from pyasp_games.domains.ssat.model import Ssat
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.limits import Deadline, Limits
from pyasp_games.errors import InputError

#: The most variables ``expand`` expands (2^22 leaves).
MAX_EXPAND = 22
#: The largest policy tree written as the witness (nodes); a larger one is left out.
MAX_POLICY = 100_000
#: The most positions whose values are written as the certificate (each with its clauses).
MAX_TABLE = 50_000
#: Nodes between two looks at the deadline.
POLL = 4096

Clauses = frozenset[frozenset[int]]


def solve_dpll(f: Ssat, limits: Limits = Limits(), policy: bool = True) -> Claim:
    """The maximum probability of satisfaction by memoised DPLL-style expectation; the
    witness is the player's optimal policy (``policy=False``, or a tree of more than
    :data:`MAX_POLICY` nodes: none)."""
    deadline = limits.deadline()
    memo: dict[tuple[int, Clauses], tuple[Fraction, Any]] = {}
    reached: dict[tuple[int, Clauses], str] = {}  # a setting of the variables before each position
    stats = {"nodes": 0}
    start = frozenset(frozenset(c) for c in f.clauses)
    if any(not c for c in start):
        value, tree = Fraction(0), None
    else:
        value, tree = _value(f, 0, start, memo, stats, deadline, [], reached)
    stats["memo"] = len(memo)
    size = _size(tree, {}) if policy else None
    witness = tree if size is not None and size <= MAX_POLICY else None
    stats["policy_nodes"] = size
    table = None
    if len(memo) <= MAX_TABLE:  # the values of the positions met: the proof that none is higher
        table = [[reached[key], str(found[0])] for key, found in memo.items()]
    return Claim.solved(str(value), witness, stats=stats, certificate=None if table is None else {"values": table})


def _value(f: Ssat, i: int, clauses: Clauses, memo: dict, stats: dict, deadline: Deadline,
           path: list[str], reached: dict) -> tuple[Fraction, Any]:  # fmt: skip
    if not clauses:
        return Fraction(1), None
    key = (i, clauses)
    if key in memo:
        return memo[key]
    reached[key] = "".join(path)
    stats["nodes"] += 1
    if stats["nodes"] % POLL == 0:
        deadline.check()
    kind, var, coin = f.prefix[i]
    if not any(var in c or -var in c for c in clauses):  # both settings alike: skip it
        path.append("0")
        found = _value(f, i + 1, clauses, memo, stats, deadline, path, reached)
        path.pop()
        memo[key] = found
        return found
    branches = {}
    for setting in (True, False):
        true, false = (var, -var) if setting else (-var, var)
        left = frozenset(c - {false} for c in clauses if true not in c)
        if any(not c for c in left):
            branches[setting] = (Fraction(0), None)
        else:
            path.append("1" if setting else "0")
            branches[setting] = _value(f, i + 1, left, memo, stats, deadline, path, reached)
            path.pop()
    if kind == "e":
        best = max((True, False), key=lambda s: branches[s][0])  # ties: true
        found = (branches[best][0], {"e": var, "value": int(best), "next": branches[best][1]})
    else:
        value = coin * branches[True][0] + (1 - coin) * branches[False][0]
        found = (value, {"r": var, "true": branches[True][1], "false": branches[False][1]})
    memo[key] = found
    return found


def _size(tree: Any, seen: dict[int, int]) -> int:
    """The nodes of ``tree`` written out in full (shared subtrees counted each time)."""
    if tree is None:
        return 0
    if id(tree) in seen:
        return seen[id(tree)]
    if "e" in tree:
        size = 1 + _size(tree["next"], seen)
    else:
        size = 1 + _size(tree["true"], seen) + _size(tree["false"], seen)
    seen[id(tree)] = min(size, MAX_POLICY + 1)
    return seen[id(tree)]


def solve_expand(f: Ssat, limits: Limits = Limits()) -> Claim:
    """The maximum probability of satisfaction by the plain expansion of the game tree
    (no witness: the checker recomputes it)."""
    if len(f) > MAX_EXPAND:
        raise InputError(f"{len(f)} variables: beyond the expand backend's limit of "
                         f"{MAX_EXPAND} (2^{MAX_EXPAND} leaves); use --backend dpll")  # fmt: skip
    deadline = limits.deadline()
    leaves = [0]
    assignment: dict[int, bool] = {}

    def value(i: int) -> Fraction:
        if i == len(f.prefix):
            leaves[0] += 1
            if leaves[0] % POLL == 0:
                deadline.check()
            ok = all(any(assignment[abs(lit)] == (lit > 0) for lit in c) for c in f.clauses)
            return Fraction(int(ok))
        kind, var, coin = f.prefix[i]
        assignment[var] = True
        high = value(i + 1)
        assignment[var] = False
        low = value(i + 1)
        return max(high, low) if kind == "e" else coin * high + (1 - coin) * low

    return Claim.solved(str(value(0)), None, stats={"leaves": 2 ** len(f)})
