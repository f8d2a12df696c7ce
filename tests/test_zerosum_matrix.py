"""Matrix games: textbook games' exact values, certificates, dominance, the 2x2 formula, the CLI."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyasp_games.domains.zerosum import BACKENDS, load_game, solve
from pyasp_games.domains.zerosum.model import make_game, parse_matrix
from pyasp_games.domains.zerosum.native import (
    closed_form_2x2,
    iterated_dominance,
    saddle_points,
    simplex_tableau,
)
from pyasp_games.domains.zerosum.verify import check_matrix_certificate
from pyasp_games.engines.resources import instance_dir
from pyasp_games.errors import InputError

from .conftest import run_cli, run_cli_process

GAMES = instance_dir("zerosum")

# (file, value, I's strategy, II's strategy or None when not unique)
KNOWN = [
    ("odd-even.txt", F(1, 12), [F(7, 12), F(5, 12)], [F(7, 12), F(5, 12)]),
    ("two-by-four.txt", F(17, 7), [F(5, 7), F(2, 7)], [0, F(5, 7), F(2, 7), 0]),
    ("rock-paper-scissors.txt", F(0), [F(1, 3)] * 3, [F(1, 3)] * 3),
    ("poker-endgame.txt", F(-1, 4), [F(1, 6), F(5, 6), 0, 0], [F(1, 2), F(1, 2)]),
    ("kriegspiel-3-1.txt", F(1, 2), [F(1, 2)] * 2, [F(1, 2)] * 2),
    ("kriegspiel-3-2.txt", F(1, 3), [F(1, 3)] * 3, [F(1, 3)] * 3),
]


@pytest.mark.parametrize("backend", list(BACKENDS))
@pytest.mark.parametrize(("name", "value", "x", "y"), KNOWN)
def test_seed_games_exact_values_and_strategies(name, value, x, y, backend):
    game = load_game(GAMES / name)
    assert game.known == value
    out = solve(game, backend)
    assert out.status == "solved" and out.verdict.verified is True
    assert out.answer == value
    # these optimal strategies are unique, so every backend must find them
    assert out.witness["row"] == x
    assert out.witness["col"] == y


def test_the_certificate_rejects_a_wrong_value_or_strategy():
    A = [[-2, 3], [3, -4]]
    good = [F(7, 12), F(5, 12)]
    assert check_matrix_certificate(A, good, good, F(1, 12))[0]
    assert not check_matrix_certificate(A, good, good, F(1, 11))[0]
    assert not check_matrix_certificate(A, good, good, F(1, 13))[0]
    assert not check_matrix_certificate(A, [F(1, 2), F(1, 2)], good, F(1, 12))[0]
    assert not check_matrix_certificate(A, [F(7, 12), F(6, 12)], good, F(1, 12))[0]
    assert not check_matrix_certificate(A, [F(13, 12), F(-1, 12)], good, F(1, 12))[0]


def test_parse_errors_are_one_clear_sentence():
    for text, words in [
        ("1 2\n3\n", "every row needs the same number"),
        ("1 x\n", "'x' is not a number"),
        ("# only a comment\n\n", "empty game"),
        ("1 2/0\n", "not a number"),
    ]:
        with pytest.raises(InputError, match=words):
            parse_matrix(text)
    assert parse_matrix("3/2, -1\n0.25 7\n").matrix == ((F(3, 2), F(-1)), (F(1, 4), F(7)))


def test_saddle_points_and_the_2x2_formula():
    assert saddle_points(make_game([[3, 1], [4, 2]]).matrix) == [(1, 1)]
    assert saddle_points(make_game([[-2, 3], [3, -4]]).matrix) == []
    v, x, y = closed_form_2x2(make_game([[-2, 3], [3, -4]]).matrix)
    assert (v, x, y) == (F(1, 12), [F(7, 12), F(5, 12)], [F(7, 12), F(5, 12)])
    assert closed_form_2x2(make_game([[3, 1], [4, 2]]).matrix) == (2, [0, 1], [0, 1])


def test_dominance_by_a_mixture_and_the_reduced_game():
    game = load_game(GAMES / "poker-endgame.txt")
    red = iterated_dominance(game)
    # check-check is strictly dominated by 1/6 bet-bet + 5/6 bet-check
    assert red.steps[0]["removed"] == 3 and red.steps[0]["by"] == {0: F(1, 6), 1: F(5, 6)}
    assert 3 not in red.rows
    sub = game.restrict(red.rows, red.cols)
    assert simplex_tableau(sub.matrix)[0] == F(-1, 4)
    # weak dominance: check-bet (-2, 1) is weakly dominated by bet-bet (-3/2, 1)
    weak = iterated_dominance(game, strict=False, mixtures=False)
    assert 2 not in weak.rows and simplex_tableau(game.restrict(weak.rows, weak.cols).matrix)[0] == F(-1, 4)


small_matrices = st.integers(1, 5).flatmap(
    lambda m: st.integers(1, 5).flatmap(
        lambda n: st.lists(st.lists(st.integers(-4, 4), min_size=n, max_size=n),
                           min_size=m, max_size=m)))


@settings(max_examples=60, deadline=None)
@given(small_matrices)
def test_random_games_simplex_and_lp_agree_with_certificates(matrix):
    game = make_game(matrix)
    outs = [solve(game, b) for b in ("simplex", "lp")]
    for out in outs:
        assert out.status == "solved" and out.verdict.verified is True
        assert check_matrix_certificate(game.matrix, out.witness["row"], out.witness["col"],
                                        out.answer)[0]
    assert outs[0].answer == outs[1].answer
    red = iterated_dominance(game)
    assert simplex_tableau(game.restrict(red.rows, red.cols).matrix)[0] == outs[0].answer


def test_cli_solve_reduce_saddle_and_errors(tmp_path):
    run = run_cli("zerosum", "solve", GAMES / "poker-endgame.txt", "--json")
    assert run.code == 0
    data = run.json()
    assert data["answer"] == "-1/4" and data["stats"]["verified"] is True
    run = run_cli("zerosum", "solve", GAMES / "odd-even.txt", "--backend", "lp")
    assert run.code == 0 and "value 1/12" in run.stdout and "odd=7/12" in run.stdout
    run = run_cli("zerosum", "reduce", GAMES / "poker-endgame.txt")
    assert run.code == 0 and "1/6 bet-bet + 5/6 bet-check" in run.stdout
    run = run_cli("zerosum", "saddle", GAMES / "saddle.txt")
    assert run.code == 0 and "(r2, c2) = 2" in run.stdout
    bad = tmp_path / "bad.txt"
    bad.write_text("1 2\n3\n")
    run = run_cli("zerosum", "solve", bad)
    assert run.code == 2 and "every row needs" in run.stderr and "Traceback" not in run.stderr


def test_cli_time_limit_gives_unknown():
    # a 120x120 game by the exact tableau takes seconds; a tiny limit must stop it
    from pyasp_games.domains.zerosum.model import random_matrix
    from pyasp_games.engines.limits import Limits

    out = solve(random_matrix(120, 120, seed=3), "simplex", Limits(time_limit=0.05))
    assert out.status == "unknown" and out.exit_code == 3


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(st.integers(-3, 3), min_size=4, max_size=4), min_size=1, max_size=5))
def test_exact_linear_solvers_agree(rows):
    from pyasp_games.domains.zerosum.rational import solve_linear, solve_linear_python

    equations = [({v: c for v, c in enumerate(r[:3]) if c}, r[3]) for r in rows]
    a, b = solve_linear(equations), solve_linear_python(equations)
    assert (a is None) == (b is None)
    for solution in (a, b):
        if solution is not None:
            for coeffs, rhs in equations:
                assert sum(c * solution.get(v, 0) for v, c in coeffs.items()) == rhs


@pytest.mark.xdist_group("timing")
def test_cli_reduce_honours_the_time_limit(tmp_path):
    game = tmp_path / "m.txt"
    assert run_cli("zerosum", "generate", "matrix", "--size", "60", "-o", game).code == 0
    # a child process: the time limit holds for the whole command
    run = run_cli_process("zerosum", "reduce", game, "--time-limit", "0.2")
    assert run.code == 3 and "unknown" in run.stdout
    run = run_cli("zerosum", "reduce", GAMES / "kuhn-3.json")
    assert run.code == 2 and "a game tree" in run.stderr


def test_weak_dominance_by_a_mixture_is_found_and_exact():
    from pyasp_games.domains.zerosum.native import weak_mixture_dominating

    # c = (1, 1, 0) is weakly, not strictly, below 1/2 a + 1/2 b = (1, 1, 1); no pure row
    # beats it, and no mixture beats it in both of the first two columns
    game = make_game([[2, 0, 1], [0, 2, 1], [1, 1, 0]])
    assert iterated_dominance(game).rows == [0, 1, 2]
    weak = iterated_dominance(game, strict=False)
    assert weak.steps[0]["removed"] == 2 and weak.steps[0]["kind"] == "weak, by a mixture"
    assert weak.steps[0]["by"] == {0: F(1, 2), 1: F(1, 2)}
    assert weak_mixture_dominating([[2, 0], [0, 2]], [1, 1]) is None  # equal is not dominated


@pytest.mark.parametrize("n", [7, 30, 60])
def test_lp_confirms_highs_final_basis_exactly(n):
    # the short way (issue 32): HiGHS, one exact solve of the square system of its basis,
    # the certificate checked in integers; the value is the exact simplex's
    from pyasp_games.domains.zerosum.model import random_matrix

    game = random_matrix(n, n, seed=n)
    out = solve(game, "lp")
    assert out.stats["exact_by"] == "basis" and out.verdict.verified is True
    assert check_matrix_certificate(game.matrix, out.witness["row"], out.witness["col"], out.answer)[0]
    if n <= 30:
        assert out.answer == simplex_tableau(game.matrix)[0]


def test_lp_falls_back_where_the_basis_is_not_square():
    # degenerate: every column ties at the value, so no square basis confirms it; the
    # general path (the tight system, the exact support subgame) still gives it exactly
    game = make_game([[1, 1, 1], [1, 1, 1], [0, 0, 0]])
    out = solve(game, "lp")
    assert out.answer == 1 and out.verdict.verified is True
    assert out.stats["exact_by"] != "basis"


def test_lp_basis_on_fractional_payoffs():
    game = make_game([[F(1, 2), F(-1, 3)], [F(-1, 3), F(1, 4)]])
    out = solve(game, "lp")
    assert out.verdict.verified is True and out.stats["exact_by"] == "basis"
    assert out.answer == simplex_tableau(game.matrix)[0]
