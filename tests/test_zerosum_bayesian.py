"""Bayesian games (the thesis's section 3.2.5): types, priors, a table per type pair, solved
by their Harsanyi tree; each type's strategy checked by exact best replies."""

from __future__ import annotations

import copy
import json
from fractions import Fraction as F
from itertools import product

import pytest

from pyasp_games.domains.zerosum import load_game, solve
from pyasp_games.domains.zerosum.model import make_game
from pyasp_games.domains.zerosum.questions import SOLVE
from pyasp_games.engines.resources import instance_dir

from .conftest import assert_bad_input, run_cli
from .conftest import saved_answer as saved

GAMES = instance_dir("zerosum")


@pytest.mark.parametrize(("file", "value", "types"), [
    ("bayes-3-1.json", F(1, 2), {"I.1": [F(1, 2)] * 2, "II.1": [F(1, 2)] * 2}),
    ("bayes-3-2.toml", F(1, 3), {"I.1": [F(1, 3)] * 3, "II.2": [F(1, 3)] * 3}),
])  # fmt: skip
def test_the_thesis_tables_from_their_typed_form(file, value, types):
    game = load_game(GAMES / file)
    for backend in ("simplex", "lp"):
        out = solve(game, backend)
        assert out.answer == value and out.verdict.fully_verified, out.verdict.message
    plans = {**out.witness["behaviour_I"], **out.witness["behaviour_II"]}
    assert {t: list(plans[t].values()) for t in types} == types  # both unique optima


def test_two_types_each_agrees_with_the_bayesian_normal_form():
    data = json.loads((GAMES / "bayes-two-types.json").read_text())
    game = load_game(GAMES / "bayes-two-types.json")
    out = solve(game, "simplex")
    assert out.verdict.fully_verified and out.answer == game.known == F(41, 132)
    # independently: a pure strategy is an action per type; it pays the prior-weighted tables
    kinds = {p: list(data["types"][p]) for p in ("I", "II")}
    acts = {t: spec["actions"] for p in kinds for t, spec in data["types"][p].items()}
    prior = {t: F(spec["prior"]) for p in kinds for t, spec in data["types"][p].items()}
    plans = {p: list(product(*(range(len(acts[t])) for t in kinds[p]))) for p in kinds}
    matrix = [[sum(prior[s] * prior[t] * data["payoffs"][s][t][a[i]][b[j]]
                   for i, s in enumerate(kinds["I"]) for j, t in enumerate(kinds["II"]))
               for b in plans["II"]] for a in plans["I"]]
    assert solve(make_game(matrix), "lp").answer == out.answer
    _said, lines = SOLVE.describe(game, out, {})
    assert "  Bayesian game: 2 x 2 types, Harsanyi tree with chance over 4 type pairs" in lines
    assert "  I's types, each one's strategy:" in lines


def test_a_joint_prior(tmp_path):
    data = json.loads((GAMES / "bayes-two-types.json").read_text())
    for p in ("I", "II"):
        for spec in data["types"][p].values():
            del spec["prior"]
    data["prior"] = {"I.1": {"II.1": "1/3", "II.2": "1/6"}, "I.2": {"II.1": "1/3", "II.2": "1/6"}}
    path = tmp_path / "joint.json"
    path.write_text(json.dumps(data))
    # the same product prior, given jointly: the same value
    assert solve(load_game(path), "simplex").answer == F(41, 132)


@pytest.mark.parametrize(("change", "fragment"), [
    (lambda d: d["types"]["II"]["II.1"].update(prior="1/2"), "sum to 1, they sum to 5/6"),
    (lambda d: d["payoffs"]["I.1"].update({"II.9": [[1]]}), "'II.9', which is no type of player II"),
    (lambda d: d["payoffs"].update({"I.7": {}}), "'I.7', which is no type of player I"),
    (lambda d: d["payoffs"]["I.1"].update({"II.2": [[0, 3], [1, -2]]}), "must be 2 x 3"),
    (lambda d: d["payoffs"]["I.2"].pop("II.1"), "no payoff table for types (I.2, II.1)"),
    (lambda d: d.update(prior={"I.1": {"II.1": 1}}), "a joint 'prior' is given"),
    (lambda d: d["types"]["I"]["I.1"].update(prior="x"), "is not a number"),
    (lambda d: d["types"].pop("II"), "exactly the players 'I' and 'II'"),
    (lambda d: d["types"]["II"].update({f"T{k}": {"prior": 0, "actions": ["a"]} for k in range(5000)}),
     "10004 type pairs, more than"),
])  # fmt: skip
def test_inputs_that_do_not_fit_are_one_line(tmp_path, change, fragment):
    data = json.loads((GAMES / "bayes-two-types.json").read_text())
    change(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    assert_bad_input(run_cli("zerosum", "solve", path), fragment)


def test_a_saved_answer_is_checked_again_and_tampering_refuted():
    game = load_game(GAMES / "bayes-two-types.json")
    data = saved(solve(game, "lp"))
    assert SOLVE.recheck(game, data).verdict.fully_verified
    wrong = copy.deepcopy(data)
    wrong["witness"]["behaviour_II"]["II.2"] = {"left": "1", "middle": "0", "right": "0"}
    back = SOLVE.recheck(game, wrong)
    assert back.verdict.verified is False and back.status == "error"
