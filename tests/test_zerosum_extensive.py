"""Extensive form: the tree format, perfect recall, normal and sequence form, Kuhn and Leduc."""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest

from pyasp_games.domains.zerosum import load_game, solve
from pyasp_games.domains.zerosum.extensive import (
    from_dict,
    normal_form,
    sequence_form,
    to_dict,
)
from pyasp_games.domains.zerosum.lp import solve_sequence_form
from pyasp_games.domains.zerosum.native import solve_normal_form
from pyasp_games.domains.zerosum.poker import kuhn_poker, leduc_poker
from pyasp_games.domains.zerosum.verify import best_response_value, check_behaviour_certificate
from pyasp_games.engines.resources import instance_dir
from pyasp_games.errors import InputError

from .conftest import run_cli

GAMES = instance_dir("zerosum")


@pytest.mark.parametrize("cards", [2, 3, 4, 5])
def test_kuhn_tree_sizes(cards):
    game = kuhn_poker(cards)
    assert len(game.nodes) == 9 * cards * (cards - 1) + 1
    assert [len(s) for s in game.sequences] == [4 * cards + 1] * 2


def test_kuhn_value_by_normal_form_and_sequence_form_agree():
    game = load_game(GAMES / "kuhn-3.json")
    assert game.known == F(-1, 18)
    full = solve(game, "simplex")
    reduced = solve(game, "simplex", reduced=True)
    seq = solve(game, "lp")
    assert full.stats["normal_form"] == [64, 64]
    assert reduced.stats["normal_form"] == [27, 64]
    assert seq.stats["sequences"] == [13, 13]
    for out in (full, reduced, seq):
        assert out.status == "solved" and out.verdict.verified is True
        assert out.answer == F(-1, 18)
        plans = out.witness["behaviour_I"], out.witness["behaviour_II"]
        assert best_response_value(game, 2, plans[0]) == F(-1, 18)
        assert best_response_value(game, 1, plans[1]) == F(-1, 18)


def test_sequence_form_entry_of_kuhn_poker():
    # ([bet with 2], [fold with 1 after a bet]) is 1/6: chance 1/6 times payoff 1
    game = kuhn_poker(3)
    A, E, e, _, _ = sequence_form(game)
    i = game.index(0)[("1:Q", "bet")]
    j = game.index(1)[("2:J/bet", "fold")]
    assert A[(i, j)] == F(1, 6)
    assert e[0] == 1 and sum(1 for (r, _), _v in E.items() if r == 0) == 1


def test_kuhn_generalizations_agree_between_forms():
    for cards in (2, 4):
        game = kuhn_poker(cards)
        assert solve_normal_form(game, reduced=True).answer == solve_sequence_form(game).answer


def test_a_wrong_behaviour_strategy_fails_the_check():
    game = kuhn_poker(3)
    out = solve(game, "lp")
    b1 = {h: dict(p) for h, p in out.witness["behaviour_I"].items()}
    b1["1:K"] = {"check": F(0), "bet": F(1)}  # always bet the king: exploitable
    assert not check_behaviour_certificate(game, b1, out.witness["behaviour_II"], out.answer)[0]
    b1["1:K"] = {"check": F(1, 2), "bet": F(1, 3)}
    assert "sum to" in check_behaviour_certificate(game, b1, out.witness["behaviour_II"],
                                                   out.answer)[1]


def test_the_seed_figure_tree_matches_its_strategic_form():
    game = load_game(GAMES / "seed-figure-2-3.json")
    nf, _, _ = normal_form(game)
    assert nf.matrix == ((3, 0, 1), (-1, 2, 0))
    assert solve(game, "lp").answer == F(2, 3) == solve(game, "simplex").answer


def test_perfect_recall_and_format_errors():
    forgetful = {"root": {"player": 1, "infoset": "a", "moves": {
        "L": {"player": 1, "infoset": "b", "moves": {"x": {"payoff": 1}, "y": {"payoff": 0}}},
        "R": {"player": 2, "infoset": "c", "moves": {
            "l": {"player": 1, "infoset": "b", "moves": {"x": {"payoff": 0}, "y": {"payoff": 1}}},
            "r": {"payoff": 0}}}}}}
    game = from_dict(forgetful)  # read, and solved in mixed strategies only
    assert game.recall.startswith("no perfect recall: player 1's information set 'b'")
    with pytest.raises(InputError, match=r"no perfect recall: .* the sequence form needs"):
        solve(game, "lp")
    assert solve(game, "simplex").verdict.verified
    absent = {"root": {"player": 1, "infoset": "a", "moves": {
        "L": {"player": 1, "infoset": "a", "moves": {"L": {"payoff": 1}, "R": {"payoff": 0}}},
        "R": {"payoff": 0}}}}
    with pytest.raises(InputError, match="met twice on one play"):
        from_dict(absent)
    with pytest.raises(InputError, match="summing to 1/2"):
        from_dict({"root": {"chance": {"a": {"p": "1/2", "next": {"payoff": 1}}}}})
    with pytest.raises(InputError, match="has moves"):
        from_dict({"root": {"player": 1, "infoset": "a", "moves": {
            "L": {"player": 2, "infoset": "b", "moves": {"l": {"payoff": 1}}},
            "R": {"player": 2, "infoset": "b", "moves": {"r": {"payoff": 1}}}}}})
    with pytest.raises(InputError, match="neither a leaf"):
        from_dict({"root": {"foo": 1}})


def test_round_trip_and_cli(tmp_path):
    game = kuhn_poker(3)
    assert to_dict(from_dict(to_dict(game))) == to_dict(game)
    out = tmp_path / "kuhn4.json"
    assert run_cli("zerosum", "generate", "kuhn", "--cards", "4", "-o", out).code == 0
    assert run_cli("zerosum", "generate", "kuhn", "-o", out).code == 2  # no overwrite
    run = run_cli("zerosum", "solve", out, "--backend", "lp", "--json")
    assert run.code == 0 and run.json()["answer"] == "-1/24"
    run = run_cli("zerosum", "solve", GAMES / "kuhn-3.json")
    assert run.code == 0 and "value -1/18" in run.stdout and "1:Q/check,bet:" in run.stdout
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"root": {"chance": {"a": {"p": 2, "next": {"payoff": 1}}}}}))
    run = run_cli("zerosum", "solve", bad, "--backend", "lp")
    assert run.code == 2 and "summing to 2" in run.stderr
    from pyasp_games.domains.zerosum.generate import generate_text

    with pytest.raises(InputError, match="unknown family 'kuhn-poker'"):  # not Leduc's tree
        generate_text("kuhn-poker")


def test_leduc_sizes():
    game = leduc_poker()
    assert [len(s) for s in game.sequences] == [337, 337]
    assert not game.small_normal_form()


@pytest.mark.slow
def test_leduc_exact_value():
    out = solve(leduc_poker(), "lp")
    assert out.verdict.verified is True
    assert abs(float(out.answer) - (-0.0856064)) < 1e-6
