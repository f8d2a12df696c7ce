"""Games against Nature (``ssat``): exact maximum probabilities by two backends and the
checker's own recomputation, policies checked, saved answers rechecked, bad input refused."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from pyasp_games.domains import ssat
from pyasp_games.domains.ssat.model import parse_ssat, random_ssat, small_ssats
from pyasp_games.domains.ssat.verify import BadPolicy, policy_value, recomputed

from .conftest import assert_bad_input, run_cli

ROOT = Path(__file__).resolve().parent.parent
SSAT = ROOT / "instances" / "ssat"


@pytest.mark.parametrize("seed", range(12))
def test_dpll_expansion_and_the_checkers_recomputation_agree(seed):
    f = random_ssat(seed, n=7, m=9, k=3, share=0.5)
    a, b = ssat.solve(f, "dpll"), ssat.solve(f, "expand")
    assert a.answer == b.answer == str(recomputed(f))
    assert a.verdict.verified is True and b.verdict.verified is True
    assert policy_value(f, a.witness) == Fraction(a.answer)  # the policy achieves it


def test_every_formula_of_the_small_scope_agrees():
    for f in list(small_ssats())[::7]:
        assert ssat.solve(f, "dpll").answer == ssat.solve(f, "expand").answer == str(recomputed(f))


def test_a_biased_coin_by_hand():
    # R(1/3) x1, then the player: (x1 v x2) (-x1 v -x2): x2 = not x1 always wins
    f = parse_ssat("p cnf 2 2\nr 1/3 1 0\ne 2 0\n1 2 0\n-1 -2 0\n")
    assert ssat.solve(f, "dpll").answer == "1"
    # the player first: x2 must be guessed; the best guess x2 = 1 wins when x1 = 0: 2/3
    f = parse_ssat("p cnf 2 2\ne 2 0\nr 1/3 1 0\n1 2 0\n-1 -2 0\n")
    out = ssat.solve(f, "dpll")
    assert out.answer == "2/3" and out.witness["value"] == 1


@pytest.mark.parametrize("name", ["coin-and-choice", "biased", "respond"])
def test_the_bundled_formulas_give_their_known_answers(name):
    f = ssat.load_ssat(SSAT / f"{name}.ssat")
    run = run_cli("ssat", "solve", SSAT / f"{name}.ssat", "--json")
    data = json.loads(run.stdout)
    assert run.code == 0 and data["answer"] == str(f.known) and data["stats"]["verified"] is True


def test_the_notes_criterion_is_strictly_above_one_half():
    run = run_cli("ssat", "solve", SSAT / "coin-and-choice.ssat")
    assert run.code == 0 and "maximum probability 1/2 (0.5): not above 1/2, rejected" in run.stdout
    run = run_cli("ssat", "solve", SSAT / "biased.ssat")
    assert "5/9" in run.stdout and "above 1/2, accepted" in run.stdout


def test_the_checker_refutes_a_wrong_value_and_a_bad_policy():
    f = ssat.load_ssat(SSAT / "respond.ssat")
    out = ssat.solve(f, "dpll")
    good = out.witness
    # a policy that ignores the coins: x3 = x4 = 0 wins only when both coins fall false
    lazy = {"r": 1, "true": {"r": 2, "true": {"e": 3, "value": 0, "next": {"e": 4, "value": 0, "next": None}},
                             "false": {"e": 3, "value": 0, "next": {"e": 4, "value": 0, "next": None}}},
            "false": {"r": 2, "true": {"e": 3, "value": 0, "next": {"e": 4, "value": 0, "next": None}},
                      "false": {"e": 3, "value": 0, "next": {"e": 4, "value": 0, "next": None}}}}  # fmt: skip
    assert policy_value(f, lazy) == Fraction(1, 4) < Fraction(3, 4) == policy_value(f, good)
    with pytest.raises(BadPolicy, match="order"):
        policy_value(f, {"e": 3, "value": 1, "next": {"r": 1, "true": None, "false": None}})
    with pytest.raises(BadPolicy, match="undecided"):
        policy_value(f, {"r": 1, "true": None, "false": None})
    data = run_cli("ssat", "solve", SSAT / "respond.ssat", "--json").stdout
    saved = json.loads(data)
    assert ssat.SOLVE.recheck(f, saved).verdict.verified is True
    saved["answer"] = "4/5"
    assert ssat.SOLVE.recheck(f, saved).verdict.verified is False
    saved["answer"], saved["witness"] = "1/4", lazy  # the lazy policy's value, not the maximum
    again = ssat.SOLVE.recheck(f, saved)
    assert again.verdict.verified is False and "3/4" in again.verdict.message


def test_verify_rechecks_a_saved_answer(tmp_path):
    path = tmp_path / "answer.json"
    path.write_text(run_cli("ssat", "solve", SSAT / "biased.ssat", "--json").stdout)
    assert run_cli("verify", path).code == 0
    data = json.loads(path.read_text())
    data["witness"]["true"]["false"]["value"] = 1  # a worse move where a coin fell
    path.write_text(json.dumps(data))
    run = run_cli("verify", path)
    assert run.code == 1 and "refuted:" in run.stderr


@pytest.mark.parametrize("text, fragment", [
    ("p cnf 2 1\ne 1 2 0\nr 1 0\n1 2 0\n", "quantified twice"),
    ("p cnf 2 1\n1 2 0\n", "empty prefix"),
    ("p cnf 2 1\ne 1 0\n1 2 0\n", "not quantified"),
    ("p cnf 2 1\ne 1 0\na 2 0\n1 2 0\n", "ip qbf"),
    ("p cnf 2 1\ne 1 0\nr 3/2 2 0\n1 2 0\n", "not between 0 and 1"),
    ("p cnf 2 1\ne 1 0\nr nan 2 0\n1 2 0\n", "not a list of integers"),
    ("p cnf 100000 1\ne 1 0\n1 0\n", "beyond this tool's limits"),
])  # fmt: skip
def test_bad_formulas_are_one_line(tmp_path, text, fragment):
    path = tmp_path / "bad.ssat"
    path.write_text(text)
    assert_bad_input(run_cli("ssat", "solve", path), fragment)


def test_expand_refuses_a_formula_beyond_its_limit(tmp_path):
    path = tmp_path / "wide.ssat"
    path.write_text("p cnf 30 1\ne " + " ".join(map(str, range(1, 31))) + " 0\n1 2 0\n")
    assert_bad_input(run_cli("ssat", "solve", path, "-b", "expand"), "expand backend's limit")
    run = run_cli("ssat", "solve", path)  # dpll skips the 28 variables of no clause
    assert run.code == 0 and "maximum probability 1 " in run.stdout


def test_dpll_s_table_proves_the_maximum_beyond_the_recomputation():
    from pyasp_games.domains.ssat.verify import RECOMPUTE

    f = random_ssat(1, n=18, m=20, k=3, share=0.5)
    assert len(f) > RECOMPUTE
    out = ssat.solve(f, "dpll")
    assert out.verdict.verified is True and not out.verdict.in_part
    assert "proved position by position" in out.verdict.message
    data = json.loads(json.dumps(out.to_dict()))
    assert ssat.SOLVE.recheck(f, data).verdict.verified is True
    table = data["certificate"]["values"]
    setting, value = table[len(table) // 2]
    table[len(table) // 2] = [setting, str(Fraction(value) / 2 + Fraction(1, 7))]  # a wrong value
    again = ssat.SOLVE.recheck(f, data)
    assert again.verdict.verified is False and "no proof" in again.verdict.message
    data["certificate"]["values"] = table[1:]  # a position left out
    assert ssat.SOLVE.recheck(f, data).verdict.verified is False
    # without the table, the policy alone: a formula beyond the recomputation is verified in part
    data = json.loads(json.dumps(out.to_dict()))
    data["certificate"] = None
    assert ssat.SOLVE.recheck(f, data).verdict.in_part
