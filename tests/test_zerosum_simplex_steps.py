"""``zerosum solve -b simplex --steps``: the thesis's seven steps (section 2.1.7), each
tableau replayed here by the exchange rule, the answer checked like any other."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import pytest

from pyasp_games.domains.zerosum import load_game, solve
from pyasp_games.domains.zerosum.questions import SOLVE
from pyasp_games.engines.resources import instance_dir

from .conftest import assert_bad_input, run_cli
from .conftest import saved_answer as saved

GAMES = instance_dir("zerosum")
EXAMPLES = ["odd-even.txt", "two-by-four.txt", "poker-endgame.txt", "rock-paper-scissors.txt"]


def pivot(rows, p, q):
    """Step 4 as the thesis states it, on a tableau of fractions."""
    piv = rows[p][q]
    out = [[a - rows[p][j] * rows[i][q] / piv for j, a in enumerate(row)] for i, row in enumerate(rows)]
    out[p] = [a / piv for a in rows[p]]
    for i in range(len(rows)):
        out[i][q] = -rows[i][q] / piv
    out[p][q] = 1 / piv
    return out


@pytest.mark.parametrize("file", EXAMPLES)
def test_each_step_replays_and_the_answer_agrees(file):
    game = load_game(GAMES / file)
    out = solve(game, "simplex", steps=True)
    assert out.verdict.fully_verified and out.answer == game.known == solve(game, "simplex").answer
    record = out.stats["tableaux"]
    shift = F(record[0]["shift"])
    first = [[F(a) for a in row] for row in record[1]["rows"]]
    m, n = game.shape
    assert first == [[a + shift for a in row] + [1] for row in game.matrix] + [[-1] * n + [0]]
    assert min(a + shift for row in game.matrix for a in row) > 0  # step 1
    tableaux = record[1:-1]
    for before, after in itertools.pairwise(tableaux):
        p, q = before["pivot"]
        rows = [[F(a) for a in row] for row in before["rows"]]
        assert rows[m][q] < 0 and rows[p][q] > 0  # step 3 a, b
        ratios = [rows[i][n] / rows[i][q] for i in range(m) if rows[i][q] > 0]
        assert rows[p][n] / rows[p][q] == min(ratios)  # step 3 c
        assert [[F(a) for a in row] for row in after["rows"]] == pivot(rows, p, q)  # step 4
        top, left = list(before["top"]), list(before["left"])
        top[q], left[p] = left[p], top[q]
        assert (after["top"], after["left"]) == (top, left)  # step 5
    last = [[F(a) for a in row] for row in tableaux[-1]["rows"]]
    assert all(a >= 0 for a in last[m][:n])  # step 6: done
    assert 1 / last[m][n] - shift == out.answer  # step 7a


def test_the_printed_steps():
    run = run_cli("zerosum", "solve", GAMES / "odd-even.txt", "--steps")
    assert run.code == 0, run.stderr
    assert "Step 1: add 5 to every entry (the smallest is -4)" in run.stdout
    assert "Step 3: pivot column y1 (bottom -1 < 0), row x2" in run.stdout
    assert "Step 7: the value is 1/corner - shift = 1/(12/61) - 5 = 1/12;" in run.stdout
    assert "x2 = (5/61)/(12/61) = 5/12" in run.stdout


def test_steps_refused_where_they_do_not_apply():
    assert_bad_input(run_cli("zerosum", "solve", GAMES / "odd-even.txt", "--steps", "-b", "lp"),
                     "--steps")
    assert_bad_input(run_cli("zerosum", "solve", GAMES / "kuhn-3.json", "--steps"), "--steps")


def test_a_saved_answer_with_steps_is_checked_again():
    game = load_game(GAMES / "poker-endgame.txt")
    data = saved(solve(game, "simplex", steps=True))
    assert SOLVE.recheck(game, data).verdict.fully_verified
    data["witness"]["row"] = ["1/6", "0", "5/6", "0"]
    assert SOLVE.recheck(game, data).verdict.verified is False
