"""Shapley's value iteration, and the exact bracket its strategies certify."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from pyasp_games.domains.zerosum.stochastic import (
    evaluate,
    load_stochastic,
    parse_stochastic,
    shapley_iteration,
)
from pyasp_games.engines.resources import instance_dir
from pyasp_games.errors import InputError

from .conftest import run_cli

SEED = instance_dir("zerosum") / "recursive-seed.json"


@pytest.mark.parametrize("n", [1, 2, 5, 30])
def test_seed_recursive_game_gives_n_over_n_plus_1(n):
    game = load_stochastic(SEED)
    result = shapley_iteration(game, n)
    assert [v["G"] for v in result.values] == [F(k, k + 1) for k in range(n + 1)]
    # I's n-th strategy guarantees exactly n/(n+1); II's holds I to 1 = the value
    assert result.row["G"] == [F(n, n + 1), F(1, n + 1)]
    assert (result.lower, result.upper) == (F(n, n + 1), F(1))
    assert any("epsilon-optimal" in note for note in result.notes)


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
    assert run.code == 0 and "I's strategy guarantees 9/10, II's concedes 1" in run.stdout
    assert "epsilon-optimal" in run.stdout
