"""The question the ssat domain answers, declared once: ``pyasp-games ssat solve FILE``.

The maximum probability that the player satisfies the formula against Nature, exactly
(a fraction), and whether it is above 1/2 (Papadimitriou's criterion of acceptance in
games against Nature, the notes' section 11); by memoised DPLL-style expectation
(``dpll``, with the player's policy) or the plain expansion of the tree (``expand``).
Every answer is checked by its policy, by ``dpll``'s table of position values and by the
checker's own recomputation (:mod:`~pyasp_games.domains.ssat.verify`); the expansion is
cross-checked against ``dpll`` when the checker cannot recompute it (:data:`REFERENCE`).

>>> from pyasp_games.domains.ssat.model import parse_ssat
>>> f = parse_ssat("p cnf 2 1\\nr 1 0\\nr 1/3 2 0\\n1 2 0\\n")
>>> out = SOLVE.ask(f, "dpll")
>>> out.answer, out.verdict.verified
('2/3', True)
>>> describe(f, out, {})
('maximum probability 2/3 (0.666667): above 1/2, accepted', ["  2 variables (0 the player's, 2 random), 1 clause"])
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

from pyasp_games.domains.ssat.model import Ssat, load_ssat
from pyasp_games.domains.ssat.native import solve_dpll, solve_expand
from pyasp_games.domains.ssat.verify import check_outcome
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.fuzzing import plural
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.question import Param, Question
from pyasp_games.engines.reference import Reference

#: The backends, ``backend(formula, limits, **options) -> Claim``; the first is the default.
BACKENDS: dict[str, Callable[..., Claim]] = {"dpll": solve_dpll, "expand": solve_expand}

#: A claim the checker cannot confirm alone (large formulas) is cross-checked: the
#: expansion against ``dpll``, ``dpll`` against the expansion.
REFERENCE = Reference("ssat", lambda f, options: ("dpll", {}),
                      second=lambda f, options: ("expand", {}))  # fmt: skip

#: Policy nodes shown in the human output.
SHOWN = 12


def describe(f: Ssat, outcome: Outcome, options: dict[str, Any]) -> tuple[str | None, list[str]]:
    """The maximum probability and the notes' verdict, then the formula's shape and the
    first moves of the policy."""
    if outcome.status != "solved" or outcome.answer is None:
        return None, []
    value = Fraction(str(outcome.answer))
    verdict = "above 1/2, accepted" if value > Fraction(1, 2) else "not above 1/2, rejected"
    said = f"maximum probability {value} ({float(value):.6g}): {verdict}"
    mine = len(f) - f.random_count
    lines = [f"  {plural(len(f), 'variable')} ({mine} the player's, {f.random_count} random), "
             f"{plural(len(f.clauses), 'clause')}"]  # fmt: skip
    shown = _policy_lines(outcome.witness, "", [])
    if shown:
        lines.append("  the player's policy:")
        lines += shown[:SHOWN] + ([f"    ... ({len(shown)} lines in all, --json)"] if len(shown) > SHOWN else [])
    return said, lines


def _policy_lines(node: Any, indent: str, out: list[str]) -> list[str]:
    if not isinstance(node, dict):
        return out
    if "e" in node:
        out.append(f"    {indent}set x{node['e']} = {node['value']}")
        return _policy_lines(node.get("next"), indent, out)
    if not _decides(node):
        return out
    for side in ("true", "false"):
        decided = "" if _decides(node.get(side)) else " nothing left to choose"
        out.append(f"    {indent}if x{node['r']} is {side}:{decided}")
        _policy_lines(node.get(side), indent + "  ", out)
    return out


def _decides(node: Any) -> bool:
    """Whether the player sets a variable somewhere in ``node``."""
    if not isinstance(node, dict):
        return False
    return "e" in node or _decides(node.get("true")) or _decides(node.get("false"))


SOLVE = Question(
    "solve",
    "The maximum probability of satisfying a stochastic SAT formula (a game against Nature).\n\n"
    "Exact (a fraction); above 1/2 is the notes' criterion of acceptance. With --json: "
    "answer the probability as text ('3/4'), witness the player's policy (a decision tree: "
    "{'e': var, 'value': 0|1, 'next': ...}, {'r': var, 'true': ..., 'false': ...}, null "
    "where the formula is decided); certificate (dpll) the value of every position met, "
    "each as the setting of the variables before it.",
    backends=BACKENDS,
    check=check_outcome,
    read=lambda file: load_ssat(file),
    describe=describe,
    params=(
        Param("file", help="A DIMACS CNF with 'e' and 'r' (random; 'r 1/3 ...': a biased "
              "coin) quantifier lines, outermost first.", type=Path, to="read"),
        Param("policy", "--policy/--no-policy", "write the player's policy as the witness.",
              type=bool, default=True, backends=("dpll",)),
    ),
    reference=REFERENCE,
)

QUESTIONS = (SOLVE,)
