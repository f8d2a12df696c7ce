"""Saved zerosum answers checked again (``Question.recheck``): every question's JSON, as
the command line prints it (exact rationals written as text), read back and confirmed by
its checker alone; a tampered copy refuted."""

from __future__ import annotations

import copy
import json

import pytest

from pyasp_games.domains.zerosum.questions import (
    REDUCE,
    SADDLE,
    SOLVE,
    STOCHASTIC,
    load_game,
    load_matrix_game,
)
from pyasp_games.domains.zerosum.stochastic import load_stochastic
from pyasp_games.engines.resources import instance_dir

from .conftest import run_cli
from .conftest import saved_answer as saved

GAMES = instance_dir("zerosum")


def refuted(question, instance, data) -> None:
    back = question.recheck(instance, data)
    assert back.verdict.verified is False and back.status == "error", back.verdict.message


@pytest.mark.parametrize(("file", "backend"), [
    ("poker-endgame.txt", "simplex"), ("poker-endgame.txt", "lp"), ("odd-even.txt", "asp"),
    ("kuhn-3.json", "simplex"), ("kuhn-3.json", "lp"),
])  # fmt: skip
def test_solve_round_trip_and_tampering(file, backend):
    game = load_game(GAMES / file)
    out = SOLVE.ask(game, backend)
    data = saved(out)
    assert data["answer"] == str(out.answer)  # a fraction as its text
    back = SOLVE.recheck(game, data)
    assert back.verdict.fully_verified and back.answer == out.answer, back.verdict.message
    wrong = copy.deepcopy(data)
    wrong["answer"] = str(out.answer + 1)
    refuted(SOLVE, game, wrong)
    wrong = copy.deepcopy(data)
    if "row" in data["witness"]:  # a probability moved from one strategy to another
        row = [s for s in wrong["witness"]["row"]]
        k = next(i for i, p in enumerate(row) if p != "0")
        row[k], row[(k + 1) % len(row)] = row[(k + 1) % len(row)], row[k]
        if row == data["witness"]["row"]:
            row[k] = "1/3"
        wrong["witness"]["row"] = row
    else:  # a behaviour probability changed
        plan = wrong["witness"]["behaviour_I"]
        infoset = next(h for h, probs in plan.items() if len(probs) > 1)
        first, second = list(plan[infoset])[:2]
        plan[infoset][first], plan[infoset][second] = "1/3", "2/3"
        if plan[infoset] == data["witness"]["behaviour_I"][infoset]:
            plan[infoset][first], plan[infoset][second] = "2/3", "1/3"
    refuted(SOLVE, game, wrong)


def test_solve_json_of_the_command_line_is_rechecked():
    game = load_game(GAMES / "poker-endgame.txt")
    run = run_cli("zerosum", "solve", GAMES / "poker-endgame.txt", "--json")
    assert run.code == 0
    back = SOLVE.recheck(game, json.loads(run.stdout))
    assert back.verdict.fully_verified and str(back.answer) == "-1/4"


def test_an_approximate_answer_stays_unconfirmed():
    # HiGHS's floating numbers, with no exact pair: no certificate, not verified (exit 3)
    game = load_game(GAMES / "odd-even.txt")
    data = saved(SOLVE.ask(game, "lp"))
    data["answer"] = 1 / 12
    data["witness"] = {"row": [7 / 12, 5 / 12], "col": [7 / 12, 5 / 12]}
    back = SOLVE.recheck(game, data)
    assert back.verdict.verified is None and back.unconfirmed and back.exit_code == 3


@pytest.mark.parametrize("backend", ["native", "asp"])
def test_saddle_round_trip_and_tampering(backend):
    game = load_matrix_game(GAMES / "saddle.txt")
    out = SADDLE.ask(game, backend)
    assert out.status == "solved"
    data = saved(out)
    back = SADDLE.recheck(game, data)
    assert back.verdict.fully_verified and back.answer == out.answer, back.verdict.message
    wrong = copy.deepcopy(data)
    wrong["answer"] = str(out.answer + 1)
    refuted(SADDLE, game, wrong)
    wrong = copy.deepcopy(data)
    wrong["witness"] = wrong["witness"][1:]  # a saddle point left out
    if wrong["witness"] == data["witness"]:
        wrong["witness"] = [[0, 0]] + data["witness"]
    refuted(SADDLE, game, wrong)
    none = load_matrix_game(GAMES / "odd-even.txt")  # no saddle point
    data = saved(SADDLE.ask(none, backend))
    assert SADDLE.recheck(none, data).verdict.fully_verified
    data["witness"] = [[0, 0]]
    refuted(SADDLE, none, data)


@pytest.mark.parametrize(("file", "backend"), [("poker-endgame.txt", "native"), ("saddle.txt", "asp")])
def test_reduce_round_trip_and_tampering(file, backend):
    game = load_matrix_game(GAMES / file)
    out = REDUCE.ask(game, backend)
    data = saved(out)
    assert data["witness"]["steps"]
    back = REDUCE.recheck(game, data)
    assert back.verdict.fully_verified and back.answer == out.answer, back.verdict.message
    wrong = copy.deepcopy(data)
    step = wrong["witness"]["steps"][0]
    k = next(iter(step["by"]))
    step["by"][k] = "1/2" if step["by"][k] != "1/2" else "1/3"  # a mixture's probability
    refuted(REDUCE, game, wrong)
    wrong = copy.deepcopy(data)
    wrong["witness"]["steps"][0]["removed"] = wrong["witness"]["rows"][0]  # a survivor removed
    refuted(REDUCE, game, wrong)
    wrong = copy.deepcopy(data)
    wrong["answer"] = [n + 1 for n in data["answer"]]
    refuted(REDUCE, game, wrong)


#: A stopping game of irrational value ((17 ** 0.5 - 3) / 2): its bracket never closes,
#: the checker's bracket path
STOPPING = {"name": "stopping", "start": "G", "states": {"G": [
    [{"payoff": 1, "next": {"G": "1/2"}}, 0], [0, 1]]}}


def test_stochastic_family_round_trip_and_tampering():
    game = load_stochastic(GAMES / "recursive-q-half.json")
    out = STOCHASTIC.ask(game, iterations=5)
    data = saved(out)
    assert data["answer"] == ["1", "1"] and data["witness"]["family"]["K"] == "1"
    back = STOCHASTIC.recheck(game, data)
    assert back.verdict.verified is True and back.answer == out.answer, back.verdict.message
    wrong = copy.deepcopy(data)
    wrong["witness"]["family"]["K"] = "1/4"  # the family guarantees 1 - e, not 1 - e/4
    refuted(STOCHASTIC, game, wrong)
    wrong = copy.deepcopy(data)
    wrong["witness"]["family"]["x0_guarantees"] = "1"
    refuted(STOCHASTIC, game, wrong)


def test_stochastic_round_trip_and_tampering():
    from pyasp_games.domains.zerosum.stochastic import parse_stochastic

    game = parse_stochastic(STOPPING, "stopping")
    out = STOCHASTIC.ask(game, iterations=3)
    data = saved(out)
    assert data["answer"] == ["105/187", "41/73"]
    back = STOCHASTIC.recheck(game, data)  # the iterates replayed from the certificate too
    assert back.verdict.fully_verified, back.verdict.message
    assert back.answer == out.answer and "iterates v_n replayed" in back.verdict.message
    wrong = copy.deepcopy(data)  # a step's stage strategies that certify no value
    wrong["certificate"]["stages"][1]["G"][0] = ["1", "0"]
    refuted(STOCHASTIC, game, wrong)
    wrong = copy.deepcopy(data)  # an iterate that is not the replay's
    wrong["witness"]["values"]["G"] = "1/2"
    refuted(STOCHASTIC, game, wrong)
    wrong = copy.deepcopy(data)
    wrong["stats"]["shapley_bound"] = "0"
    refuted(STOCHASTIC, game, wrong)
    plain = copy.deepcopy(data)  # no certificate: the bracket stands, the iterates unreplayed
    plain["certificate"] = None
    back = STOCHASTIC.recheck(game, plain)
    assert back.verdict.verified is True and back.verdict.in_part
    assert "v_n" in back.verdict.not_checked
    wrong = copy.deepcopy(data)  # a probability changed: still a distribution, not I's strategy
    wrong["witness"]["row"]["G"] = ["8/10", "2/10"]
    refuted(STOCHASTIC, game, wrong)
    wrong = copy.deepcopy(data)
    wrong["witness"]["col"]["G"] = ["1/2", "1/3"]  # no distribution
    refuted(STOCHASTIC, game, wrong)
    wrong = copy.deepcopy(data)
    wrong["answer"] = ["41/73", "41/73"]  # a value claimed exactly, which they do not give
    refuted(STOCHASTIC, game, wrong)
