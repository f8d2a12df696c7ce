"""The zerosum questions: every backend's answer passes its checker, and a wrong one fails it."""

from __future__ import annotations

import copy
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyasp_games.domains.zerosum.model import make_game, random_matrix
from pyasp_games.domains.zerosum.questions import QUESTIONS, REDUCE, SADDLE, STOCHASTIC
from pyasp_games.domains.zerosum.stochastic import load_stochastic
from pyasp_games.domains.zerosum.verify import check_dominance, check_saddle_points
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.resources import instance_dir

small_matrices = st.lists(
    st.lists(st.integers(-4, 4), min_size=3, max_size=3), min_size=1, max_size=4
)


@settings(max_examples=30, deadline=None)
@given(small_matrices)
def test_saddle_and_reduce_backends_agree_and_are_verified(matrix):
    game = make_game(matrix)
    saddles = [SADDLE.ask(game, b) for b in SADDLE.backends]
    assert all(o.verdict.verified is True for o in saddles)
    assert saddles[0].witness == saddles[1].witness and saddles[0].answer == saddles[1].answer
    for backend, weak in (("native", False), ("native", True), ("asp", False)):
        out = REDUCE.ask(game, backend, weak=weak or None)
        assert out.verdict.verified is True, out.verdict.message


def test_a_wrong_saddle_answer_fails_its_check():
    game = make_game([[3, 1], [4, 2]])
    out = SADDLE.ask(game)
    assert out.witness == [[1, 1]] and out.answer == 2
    for witness, answer in (([[0, 1]], 1), ([], None), ([[1, 1]], 3)):
        wrong = copy.deepcopy(out)
        wrong.witness, wrong.answer = witness, answer
        wrong.status = "no-solution" if answer is None else "solved"
        assert check_saddle_points(game, wrong)[0] is False


def test_a_wrong_elimination_fails_its_check():
    game = make_game([[3, 1, 0], [4, 2, 1], [0, 5, -1]])
    out = REDUCE.ask(game)
    assert out.verdict.verified is True and out.witness["steps"]
    wrong = copy.deepcopy(out)
    wrong.witness["steps"][0]["by"] = {wrong.witness["steps"][0]["removed"]: F(1)}
    assert check_dominance(game, wrong)[0] is False
    wrong = copy.deepcopy(out)  # survivors that the steps do not leave
    wrong.witness["rows"] = [0, 1, 2]
    assert check_dominance(game, wrong)[0] is False
    wrong = copy.deepcopy(out)  # a step claimed strict where it is not
    step = {"player": "I", "removed": 0, "by": {2: F(1)}, "kind": "strict"}
    wrong.witness["steps"].insert(0, step)
    assert check_dominance(game, wrong)[0] is False


def test_asp_rounds_are_judged_against_the_game_before_the_round():
    # round 0 removes r1 (by r2) and r2 (by r3) together: one at a time, r1's dominator
    # would already be gone
    game = make_game([[1, 1], [0, 0], [2, 2]])
    out = REDUCE.ask(game, "asp")
    steps = out.witness["steps"]
    assert [(s["removed"], list(s["by"]), s["round"]) for s in steps] == [(0, [2], 0), (1, [0], 0)]
    assert out.verdict.verified is True and out.answer == [1, 2]
    one_at_a_time = copy.deepcopy(out)
    for step in one_at_a_time.witness["steps"]:
        del step["round"]
    assert check_dominance(game, one_at_a_time)[0] is False


def test_every_question_honours_the_time_limit():
    game = random_matrix(60, 60, seed=1)
    out = REDUCE.ask(game, "native", Limits(time_limit=0.1))
    assert out.status == "unknown" and out.exit_code == 3
    seed = load_stochastic(instance_dir("zerosum") / "recursive-seed.json")
    out = STOCHASTIC.ask(seed, limits=Limits(time_limit=0.0001), iterations=100_000)
    assert out.status == "unknown" and out.exit_code == 3


def test_the_bracket_is_recomputed_and_the_iterates_are_said_not_rechecked():
    from pyasp_games.domains.zerosum.stochastic import parse_stochastic

    seed = parse_stochastic({"start": "G", "states": {"G": [  # a stopping game, value irrational
        [{"payoff": 1, "next": {"G": "1/2"}}, 0], [0, 1]]}})
    out = STOCHASTIC.ask(seed, iterations=3)
    assert out.answer == [F(105, 187), F(41, 73)] and out.verdict.fully_verified
    import pyasp_games.domains.zerosum.stochastic as stochastic

    saved_limit, stochastic.REPLAY_NUMBERS = stochastic.REPLAY_NUMBERS, 3
    try:  # too many steps to keep their certificate: the iterates are said not replayed
        out = STOCHASTIC.ask(seed, iterations=3)
    finally:
        stochastic.REPLAY_NUMBERS = saved_limit
    assert out.answer == [F(105, 187), F(41, 73)] and out.verdict.verified is True
    assert out.verdict.in_part and "v_n" in out.verdict.not_checked
    assert "bracket recomputed exactly" in out.verdict.message
    wrong = copy.deepcopy(out)
    wrong.witness["row"]["G"] = [F(1), F(1)]
    assert STOCHASTIC.check(seed, wrong)[0] is False
    other = copy.deepcopy(out)  # still a probability vector, but not the strategy that certifies
    other.witness["row"]["G"] = [F(1, 2), F(1, 2)]
    ok, why = STOCHASTIC.check(seed, other)
    assert ok is False and "guarantees exactly" in why
    looser = copy.deepcopy(out)  # a bracket the strategies do not give exactly
    looser.answer = [F(1, 2), F(41, 73)]
    assert STOCHASTIC.check(seed, looser)[0] is False


@pytest.mark.parametrize("question", QUESTIONS, ids=lambda q: q.name)
def test_each_question_has_a_checker_and_a_formatter(question):
    assert question.check.__module__ == "pyasp_games.domains.zerosum.verify"
    assert question.describe.__module__ == "pyasp_games.domains.zerosum.questions"
