"""Trees without perfect recall (the thesis's figure 2.4, section 2.2.3): mixed strategies
over the normal form reach the value, behaviour strategies do not."""

from __future__ import annotations

import copy
from fractions import Fraction as F

from pyasp_games.domains.zerosum import load_game, solve
from pyasp_games.domains.zerosum.extensive import normal_form
from pyasp_games.domains.zerosum.questions import SOLVE
from pyasp_games.engines.resources import instance_dir

from .conftest import assert_bad_input, run_cli
from .conftest import saved_answer as saved

FIGURE = instance_dir("zerosum") / "figure-2-4.json"


def test_the_figure_in_mixed_strategies():
    game = load_game(FIGURE)
    nf, rows, _cols = normal_form(game)
    # the thesis's matrix over (f,c), (f,d), (g,c), (g,d) and a, b (its minus signs restored)
    assert [[int(a) for a in row] for row in nf.matrix] == [[1, -1], [1, 0], [0, 2], [-1, 2]]
    out = solve(game, "simplex")
    assert out.answer == F(2, 3) and out.verdict.fully_verified, out.verdict.message
    mix = {tuple(m["plan"].values()): m["p"] for m in out.witness["mixed_I"]}
    assert [mix.get(tuple(r.values()), 0) for r in rows] == [0, F(2, 3), F(1, 3), 0]
    assert [m["p"] for m in out.witness["mixed_II"]] == [F(2, 3), F(1, 3)]
    assert solve(game, "simplex", reduced=True).answer == F(2, 3)


def test_behaviour_strategies_stay_below_the_value():
    out = solve(load_game(FIGURE), "simplex")
    bracket = out.witness["behaviour"]["I"]
    assert bracket["lower"] == bracket["upper"] == F(1, 2)  # exact: the box cover closes it
    assert "guarantee exactly 1/2 (strictly below the value)" in out.verdict.message
    # independently, the thesis's form: behaviour (p_f, p_c) is the mixture (p_f p_c,
    # p_f (1 - p_c), (1 - p_f) p_c, (1 - p_f)(1 - p_c)); on a grid it never beats 1/2
    matrix = [[1, -1], [1, 0], [0, 2], [-1, 2]]
    best = F(-10)
    for i in range(21):
        for j in range(21):
            pf, pc = F(i, 20), F(j, 20)
            mix = [pf * pc, pf * (1 - pc), (1 - pf) * pc, (1 - pf) * (1 - pc)]
            best = max(best, min(sum(m * row[k] for m, row in zip(mix, matrix, strict=True))
                                 for k in (0, 1)))
    assert best == F(1, 2) <= bracket["upper"]


def test_a_saved_answer_and_tampering():
    game = load_game(FIGURE)
    data = saved(solve(game, "simplex"))
    assert SOLVE.recheck(game, data).verdict.fully_verified
    for tamper in (
        lambda d: d["witness"]["behaviour"]["I"].update(upper="2/5"),  # the cover does not prove it
        lambda d: d["witness"]["behaviour"]["I"].update(lower="3/5"),  # not what its strategy gets
        lambda d: d["witness"]["mixed_I"][0].update(p="1/3"),
        lambda d: d.update(certificate={}),
    ):
        wrong = copy.deepcopy(data)
        tamper(wrong)
        back = SOLVE.recheck(game, wrong)
        assert back.verdict.verified is False and back.status == "error", back.verdict.message


def test_the_cli_shows_both_and_refuses_the_sequence_form():
    run = run_cli("zerosum", "solve", FIGURE)
    assert run.code == 0 and "value 2/3" in run.stdout
    assert "I's best behaviour guarantee exactly 1/2, by 1: f=1/2 g=1/2  2: c=1" in run.stdout
    assert_bad_input(run_cli("zerosum", "solve", FIGURE, "-b", "lp"), "no perfect recall")


def mirrored(node):
    """The figure with the players' roles swapped: payoffs negated, 1 and 2 exchanged."""
    if "payoff" in node:
        return {"payoff": -node["payoff"]}
    return {"player": 3 - node["player"], "infoset": node["infoset"],
            "moves": {a: mirrored(c) for a, c in node["moves"].items()}}


def test_a_forgetful_second_player():
    import json

    from pyasp_games.domains.zerosum.extensive import from_dict

    data = json.loads(FIGURE.read_text())
    game = from_dict({"root": mirrored(data["root"])})
    out = solve(game, "simplex")
    assert out.answer == F(-2, 3) and out.verdict.fully_verified, out.verdict.message
    bracket = out.witness["behaviour"]["II"]  # II concedes -1/2 at best: more than -2/3
    assert bracket["lower"] == bracket["upper"] == F(-1, 2)
    assert "concede exactly -1/2 (strictly above the value)" in out.verdict.message
