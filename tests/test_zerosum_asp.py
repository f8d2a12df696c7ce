"""The ASP side of zero-sum games: saddle points, iterated dominance, guessed supports."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pyasp_games.engines.limits import Limits
from pyasp_games.zerosum import solve
from pyasp_games.zerosum.asp import dominance_asp, saddle_points_asp
from pyasp_games.zerosum.model import make_game, random_matrix
from pyasp_games.zerosum.native import iterated_dominance, saddle_points

from .conftest import run_cli

matrices = st.integers(1, 4).flatmap(
    lambda m: st.integers(1, 4).flatmap(
        lambda n: st.lists(st.lists(st.integers(-3, 3), min_size=n, max_size=n),
                           min_size=m, max_size=m)))


@settings(max_examples=40, deadline=None)
@given(matrices)
def test_asp_agrees_with_native(matrix):
    game = make_game(matrix)
    assert saddle_points_asp(game) == saddle_points(game.matrix)
    red = iterated_dominance(game, mixtures=False)
    found = dominance_asp(game)
    assert (found["rows"], found["cols"]) == (red.rows, red.cols)
    out, ref = solve(game, "asp"), solve(game, "simplex")
    assert out.stats["verified"] is True and out.answer == ref.answer


def test_asp_time_limit_gives_unknown():
    out = solve(random_matrix(14, 14, seed=2), "asp", Limits(time_limit=0.3))
    assert out.status == "unknown" and out.exit_code == 3


def test_cli_asp_reduce_and_saddle(tmp_path):
    game = tmp_path / "d.txt"
    game.write_text("1 2 3\n0 1 4\n2 3 5\n")
    run = run_cli("zerosum", "reduce", game, "--backend", "asp")
    assert run.code == 0 and "3x3 -> 1x1" in run.stdout
    run = run_cli("zerosum", "saddle", game, "--backend", "asp", "--json")
    out = run.json()  # the uniform outcome: the value, the points as 0-based [row, col]
    assert run.code == 0 and out["answer"] == "2" and out["witness"] == [[2, 0]]
    assert out["stats"]["verified"] is True
