"""Shapley's value iteration, and the exact bracket its strategies certify."""

from __future__ import annotations

import copy
from fractions import Fraction as F

import pytest

from pyasp_games.domains.zerosum.polynomial import RationalFunction
from pyasp_games.domains.zerosum.questions import STOCHASTIC, describe_iteration
from pyasp_games.domains.zerosum.stochastic import (
    evaluate,
    load_stochastic,
    parse_stochastic,
    shapley_iteration,
)
from pyasp_games.domains.zerosum.verify import chain_payoffs
from pyasp_games.engines.resources import instance_dir
from pyasp_games.errors import InputError

from .conftest import run_cli

SEED = instance_dir("zerosum") / "recursive-seed.json"


@pytest.mark.parametrize("n", [1, 2, 5, 30])
def test_seed_recursive_game_gives_n_over_n_plus_1(n):
    game = load_stochastic(SEED)
    result = shapley_iteration(game, n)
    assert [v["G"] for v in result.values] == [F(k, k + 1) for k in range(n + 1)]
    # I's n-th strategy (n/(n+1), 1/(n+1)) guarantees exactly n/(n+1); II's holds I to 1 =
    # the value; the bracket keeps the best of the strategies met (the stage game's at a
    # short fraction near v_n among them), never worse than the n-th
    nth = {"G": [F(n, n + 1), F(1, n + 1)]}
    assert min(evaluate(game, nth, {"G": j}, True)["G"] for j in (0, 1)) == F(n, n + 1)
    assert F(n, n + 1) <= result.lower < 1 == result.upper
    assert any("epsilon-optimal" in note for note in result.notes)


def thesis_game(q):
    """The thesis's G = [[G, 1], [1, 0]], a play that never ends paying Q (section 2.3)."""
    return parse_stochastic({"start": "G", "infinite": str(q), "states": {"G": [["G", 1], [1, 0]]}})


@pytest.mark.parametrize("q", [F(1), F(3), F(-5, 2)])
def test_infinite_play_pays_q(q):
    # I's row 1 forever against II's column 1 forever: the play never ends, paying Q
    assert evaluate(thesis_game(q), {"G": [F(1), F(0)]}, {"G": 0}, True)["G"] == q
    assert chain_payoffs(thesis_game(q), {"G": [F(1), F(0)]}, {"G": 0}, True)["G"] == q


@pytest.mark.parametrize("q", [F(1), F(3, 2), F(7)])
def test_q_at_least_one_row_one_is_optimal(q):
    out = STOCHASTIC.ask(thesis_game(q), iterations=3)
    assert out.answer == [F(1), F(1)] and out.witness["optimal"] and out.verdict.verified
    assert out.witness["row"]["G"] == [F(1), F(0)]  # row 1, as the thesis says
    said, _ = describe_iteration(thesis_game(q), out, {})
    assert said == "value 1, optimal"


@pytest.mark.parametrize("q", [F(0), F(1, 2), F(-3), F(99, 100)])
def test_q_below_one_only_an_epsilon_optimal_family(q):
    game = thesis_game(q)
    out = STOCHASTIC.ask(game, iterations=4)
    family = out.witness["family"]
    assert out.answer == [F(1), F(1)] and out.verdict.verified, out.verdict.message
    # the thesis's (1 - e, e): row 2 with probability e; it guarantees exactly 1 - e
    assert family["x0"]["G"] == [1, 0] and family["x1"]["G"] == [0, 1]
    assert family["guarantee"] == "1 - e" and family["x0_guarantees"] == q
    e = RationalFunction.variable()
    plan = {"G": [1 - e, e]}  # independently: each reply's payoff as a function of e
    assert [chain_payoffs(game, plan, {"G": j}, True)["G"] for j in (0, 1)] == [1, 1 - e]
    for x in (F(1, 2), F(1, 1000)):  # and at numbers: [v - e, v]
        low = min(chain_payoffs(game, {"G": [1 - x, x]}, {"G": j}, True)["G"] for j in (0, 1))
        assert low == 1 - x
    said, lines = describe_iteration(game, out, {})
    assert said == "value 1, no optimal stationary strategy: an e-optimal family"
    assert "  G: I's family x(e) = (1 - e, e)" in lines


def test_a_wrong_family_is_refuted():
    game = thesis_game(F(1, 2))
    out = STOCHASTIC.ask(game, iterations=4)
    bad = copy.deepcopy(out)
    bad.witness["family"]["K"] = F(1, 2)  # 1 - e is not >= 1 - e/2
    assert STOCHASTIC.check(game, bad)[0] is False
    bad = copy.deepcopy(out)
    bad.witness["family"]["x1"]["G"] = [F(1), F(0)]  # no exit: row 1 forever pays Q
    assert STOCHASTIC.check(game, bad)[0] is False
    bad = copy.deepcopy(out)
    bad.witness["family"]["x0_guarantees"] = F(1)
    assert STOCHASTIC.check(game, bad)[0] is False
    bad = copy.deepcopy(out)
    bad.answer = [F(9, 10), F(9, 10)]
    assert STOCHASTIC.check(game, bad)[0] is False


def test_uniqueness_of_the_stage_optimum_is_checked():
    from pyasp_games.domains.zerosum.verify import _another_optimal

    assert _another_optimal([[F(1), F(1)], [F(1), F(0)]], [F(1), F(0)], F(1)) is None
    # [[1, 1], [1, 1]]: every strategy guarantees 1
    assert _another_optimal([[F(1), F(1)], [F(1), F(1)]], [F(1), F(0)], F(1)) is not None


def test_always_continuing_is_worth_nothing_to_player_1():
    # I's pure strategy "row 1" (the limit of the iteration) lets II loop forever: payoff 0
    game = load_stochastic(SEED)
    assert evaluate(game, {"G": [F(1), F(0)]}, {"G": 0}, True)["G"] == 0


def test_a_stopping_game_has_shapleys_bound_and_a_tight_bracket():
    game = parse_stochastic({"start": "A", "states": {
        "A": [[{"payoff": 1, "next": {"A": "1/2"}}, -1], [0, 2]]}})
    result = shapley_iteration(game, 30)
    assert result.lower <= result.values[-1]["A"] <= result.upper
    assert result.upper - result.lower < F(1, 10**12)
    assert result.shapley_bound is not None and result.shapley_bound < F(1, 10**12)


def test_errors_and_cli():
    with pytest.raises(InputError, match="start state"):
        parse_stochastic({"start": "X", "states": {"G": [[1]]}})
    with pytest.raises(InputError, match="stopping game"):
        parse_stochastic({"states": {"G": [[{"payoff": 1, "next": {"G": 1}}]]}})
    run = run_cli("zerosum", "stochastic", SEED, "-n", "9")
    assert run.code == 0 and "value 1, no optimal stationary strategy: an e-optimal family" in run.stdout
    assert "epsilon-optimal" in run.stdout
    with pytest.raises(InputError, match="'infinite'"):
        parse_stochastic({"infinite": "Q", "states": {"G": [["G", 1], [1, 0]]}})


def test_a_family_over_two_states():
    # A = [[B, 1], [1, 0]], B = [[A, 2], [1, 0]], Q = 1/4: both states are worth 1, which
    # the iterates only approach; II's strategy at the guessed value concedes exactly 1
    game = parse_stochastic({"start": "A", "infinite": "1/4", "states": {
        "A": [["B", 1], [1, 0]], "B": [["A", 2], [1, 0]]}})
    out = STOCHASTIC.ask(game, iterations=20)
    assert out.answer == [F(1), F(1)] and out.verdict.verified, out.verdict.message
    assert "x0_guarantees" not in out.witness["family"]  # shown for one state only
    said, _ = describe_iteration(game, out, {})
    assert said == "value 1: an e-optimal family"
