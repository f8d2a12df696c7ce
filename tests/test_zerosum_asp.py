"""The ASP side of zero-sum games: saddle points, iterated dominance, guessed supports."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pyasp_games.domains.zerosum import solve
from pyasp_games.domains.zerosum.asp import dominance_asp, saddle_points_asp
from pyasp_games.domains.zerosum.model import make_game, random_matrix
from pyasp_games.domains.zerosum.native import iterated_dominance, saddle_points
from pyasp_games.engines.limits import Limits

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
    assert out.verdict.verified is True and out.answer == ref.answer


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


def test_emitted_facts_run_as_printed(tmp_path):
    import re
    import subprocess
    import sys

    game = tmp_path / "d.txt"
    game.write_text("1 2 3\n0 1 4\n2 3 5\n")
    for question, atom in (("saddle", "saddle(2,0)"), ("reduce", "keep_row(2)"),
                           ("solve", "in_row(")):
        lp = tmp_path / f"{question}.lp"
        run = run_cli("zerosum", question, game, "-b", "asp", "--emit-lp", lp)
        assert run.code == 0, run.stderr
        line = next(x for x in lp.read_text().splitlines() if x.startswith("% run: "))
        args = line[len("% run: "):].split()
        assert args[:2] == ["python", "-m"]
        proc = subprocess.run([sys.executable, *args[1:]], capture_output=True, text=True,
                              timeout=60)
        assert re.search(re.escape(atom), proc.stdout), proc.stdout
    run = run_cli("zerosum", "saddle", game, "--emit-lp", tmp_path / "x.lp")
    assert run.code == 2 and "--emit-lp applies to --backend asp only" in run.stderr
