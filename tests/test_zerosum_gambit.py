"""Gambit's .nfg and .efg files: read by every zerosum command, written by generate and
normal-form, round-tripped, and read as Gambit writes them."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pyasp_games.domains.zerosum.extensive import from_dict, load_extensive, to_dict
from pyasp_games.domains.zerosum.gambit import format_efg, format_nfg, parse_efg, parse_nfg
from pyasp_games.domains.zerosum.model import load_matrix
from pyasp_games.domains.zerosum.questions import SOLVE
from pyasp_games.engines.resources import instance_dir
from pyasp_games.errors import InputError
from tests.conftest import run_cli

ZEROSUM = instance_dir("zerosum")


def test_matrix_round_trips_through_nfg_and_efg():
    game = load_matrix(ZEROSUM / "poker-endgame.txt")
    again = parse_nfg(format_nfg(game), game.name)
    assert again.matrix == game.matrix and (again.rows, again.cols) == (game.rows, game.cols)
    tree = parse_efg(format_efg(game))
    assert SOLVE.ask(tree).answer == SOLVE.ask(game).answer == Fraction(-1, 4)


def test_tree_round_trips_through_efg():
    game = load_extensive(ZEROSUM / "kuhn-3.json")
    again = parse_efg(format_efg(game), game.name)
    assert to_dict(again) == to_dict(game)
    assert SOLVE.ask(again, "lp").answer == Fraction(-1, 18)


#: Matching pennies as Gambit writes the payoff version: counts, a comment, commas,
#: decimals; player 1's strategy varies fastest.
NFG_PAYOFFS = """NFG 1 R "Matching pennies" { "Player 1" "Player 2" } { 2 2 }
"player 2 pays 1 on a match"

1.0 -1, -1 1 -1 1 1 -1.0
"""

#: The outcome version: named strategies, outcome 0 (no payoff), an outcome used twice.
NFG_OUTCOMES = """NFG 1 R "3 x 2" { "Player 1" "Player 2" }

{ { "top" "mid" "bottom" }
{ "left" "right" }
}
""

{
{ "" 3, -3 }
{ "a \\"quoted\\" label" -1/2, 1/2 }
}
1 0 2 2 0 1
"""


def test_nfg_as_gambit_writes_it():
    pennies = parse_nfg(NFG_PAYOFFS)
    assert pennies.matrix == ((1, -1), (-1, 1)) and pennies.rows == ("1", "2")
    game = parse_nfg(NFG_OUTCOMES)
    half = Fraction(-1, 2)
    assert game.matrix == ((3, half), (0, 0), (half, 3))
    assert game.rows == ("top", "mid", "bottom") and game.cols == ("left", "right")


#: An extensive game as Gambit writes it: a chance node (a decimal and a fraction),
#: an outcome on an inner node (added to every payoff below it), an outcome named again
#: by number only, an information set's actions left out where it repeats, empty labels.
EFG = """EFG 2 R "One card" { "Player 1" "Player 2" }
"a comment"

c "deal" 1 "" { "high" 0.5 "low" 1/2 } 0
p "" 1 1 "" { "raise" "check" } 1 "ante" { 1, -1 }
p "" 2 1 "II" { "fold" "call" } 0
t "" 0
t "" 2 "showdown win" { 2, -2 }
t "" 3 "tie" { 0, 0 }
p "" 1 2 "low card" { "raise" "check" } 1
p "" 2 1 "II" 0
t "" 0
t "" 4 "showdown loss" { -2, 2 }
t "" 3
"""

EXPECTED = {"name": "One card", "root": {"chance": {
    "high": {"p": "1/2", "next": {"player": 1, "infoset": "1", "moves": {
        "raise": {"player": 2, "infoset": "II", "moves": {
            "fold": {"payoff": "1"}, "call": {"payoff": "3"}}},
        "check": {"payoff": "1"}}}},
    "low": {"p": "1/2", "next": {"player": 1, "infoset": "low card", "moves": {
        "raise": {"player": 2, "infoset": "II", "moves": {
            "fold": {"payoff": "1"}, "call": {"payoff": "-1"}}},
        "check": {"payoff": "1"}}}}}}}  # fmt: skip


def test_efg_as_gambit_writes_it():
    game = parse_efg(EFG)
    assert to_dict(game) == to_dict(from_dict(EXPECTED))
    # II calls a raise only if the high card's raise is rare enough: value 1 + ... exact
    value = SOLVE.ask(game).answer
    assert value == SOLVE.ask(from_dict(EXPECTED), "lp").answer


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('NFG 1 R "" { "A" "B" } { 2 1 }\n1 1 0 0\n', "neither a zero-sum nor a constant-sum"),
        ('NFG 1 R "" { "A" "B" "C" } { 1 1 1 }\n0 0 0\n', "3 players"),
        ('NFG 1 R "" { "A" "B" } { 2 2 }\n1 -1 -1 1\n', "the file ends"),
        ('EFG 2 R "" { "A" "B" }\np "" 1 1 "" { "x" } 0\nt "" 5\n', "outcome 5"),
        ('EFG 2 R "" { "A" "B" }\nq "" 1\n', "expected 'c', 'p' or 't'"),
    ],
)
def test_bad_gambit_files_are_one_clear_error(text, why):
    parse = parse_nfg if text.startswith("NFG") else parse_efg
    with pytest.raises(InputError, match=why):
        parse(text)


def test_every_zerosum_command_reads_gambit_files(tmp_path):
    nfg, efg = tmp_path / "pennies.nfg", tmp_path / "one-card.efg"
    nfg.write_text(NFG_PAYOFFS)
    efg.write_text(EFG)
    assert run_cli("zerosum", "solve", nfg).code == 0
    assert "value 0" in run_cli("zerosum", "solve", nfg, "-b", "lp").stdout
    assert run_cli("zerosum", "saddle", nfg).code == 0
    assert run_cli("zerosum", "reduce", nfg).code == 0
    run = run_cli("zerosum", "solve", efg, "--backend", "lp")
    assert run.code == 0 and "verified" in run.stdout
    run = run_cli("zerosum", "saddle", efg)
    assert run.code == 2 and "a game tree" in run.stderr
    bad = tmp_path / "bad.nfg"
    bad.write_text('NFG 1 R "" { "A" "B" } { 2 1 }\n1 1 0 0\n')
    run = run_cli("zerosum", "solve", bad)
    assert run.code == 2 and "nor a constant-sum game" in run.stderr and run.stderr.count("\n") == 1


def test_generate_and_normal_form_write_gambit_files(tmp_path):
    kuhn = tmp_path / "kuhn.efg"
    assert run_cli("zerosum", "generate", "kuhn", "--format", "efg", "-o", kuhn).code == 0
    assert "value -1/18" in run_cli("zerosum", "solve", kuhn, "-b", "lp").stdout
    matrix = tmp_path / "kuhn.nfg"
    assert run_cli("zerosum", "normal-form", kuhn, "--format", "nfg", "-o", matrix).code == 0
    assert "value -1/18" in run_cli("zerosum", "solve", matrix).stdout
    run = run_cli("zerosum", "normal-form", kuhn, "--format", "nfg", "-o", matrix)
    assert run.code == 2 and "exists" in run.stderr  # never over a file without --force
    random = tmp_path / "m.nfg"
    assert run_cli("zerosum", "generate", "matrix", "--size", "3", "--format", "nfg", "-o", random).code == 0
    assert parse_nfg(random.read_text()).shape == (3, 3)


#: A constant-sum game (payoffs add up to 4): zero-sum on player 1's payoffs [[3, 1], [0, 4]].
CONSTANT_NFG = 'NFG 1 R "constant" { "P1" "P2" } { 2 2 }\n\n3 1 0 4 1 3 4 0\n'
#: A tree whose payoffs add up to 10 on every path: an outcome (1, 1) on the way, then
#: leaves that pay the rest (x, 8 - x); player 1's totals are 1 + x.
CONSTANT_EFG = """EFG 2 R "constant tree" { "P1" "P2" }
""

p "" 1 1 "" { "l" "r" } 1 "" { 1, 1 }
p "" 2 1 "" { "a" "b" } 0
t "" 2 "" { 3, 5 }
t "" 3 "" { 0, 8 }
p "" 2 1 "" { "a" "b" } 0
t "" 4 "" { 1, 7 }
t "" 5 "" { 2, 6 }
"""


def test_constant_sum_games_are_solved_as_zero_sum_and_said_so(tmp_path):
    game = parse_nfg(CONSTANT_NFG)
    assert game.constant == 4 and game.matrix == ((3, 1), (0, 4))
    assert SOLVE.ask(game).answer == 2 == SOLVE.ask(game, "lp").answer
    again = parse_nfg(format_nfg(game))  # written back with player 2's payoffs
    assert again.constant == 4 and again.matrix == game.matrix
    tree = parse_efg(CONSTANT_EFG)
    assert tree.constant == 10
    # II does not see I's move (one information set): player 1's totals are the matrix
    # [[1 + 3, 1 + 0], [1 + 1, 1 + 2]] = [[4, 1], [2, 3]], value (12 - 2) / 4 = 5/2
    assert SOLVE.ask(tree, "lp").answer == Fraction(5, 2)
    assert parse_efg(format_efg(tree)).constant == 10
    path = tmp_path / "constant.nfg"
    path.write_text(CONSTANT_NFG)
    run = run_cli("zerosum", "solve", path)
    assert run.code == 0 and "constant-sum: the payoffs add up to 4" in run.stdout
    assert "player 2's value is 4 - 2 = 2" in run.stdout
    data = run_cli("zerosum", "solve", path, "-b", "lp", "--json").json()
    assert data["answer"] == "2" and data["stats"]["constant_sum"] == "4"
