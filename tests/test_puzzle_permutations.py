"""``puzzle permutation`` and the thesis's permutation facts (sections 3.1.2-3.1.4):
its examples, random permutations against sympy's combinatorics (an implementation of
its own), every fact refuted when tampered, bad input one line and exit 2."""

from __future__ import annotations

import copy
import random

import pytest

from pyasp_games.domains.puzzle import permutations as perm
from pyasp_games.domains.puzzle.model import parse_board
from pyasp_games.domains.puzzle.questions import CHECK, PERMUTATION
from pyasp_games.domains.puzzle.verify import _from_transpositions
from pyasp_games.engines.resources import instance_dir

from .conftest import run_cli
from .conftest import saved_answer as saved

SIGMA0 = instance_dir("puzzle") / "thesis-sigma0.txt"


def test_the_thesis_array_in_cycles():
    sigma = perm.parse_permutation("[2,9,5,6,3,4,7,1,8]")
    # the thesis (3.1.2) writes (1, 2, 8, 9)(3, 5)(4, 6): a slip, as sigma(2) = 9
    assert perm.format_cycles(perm.cycles(sigma)) == "(1 2 9 8)(3 5)(4 6)"
    assert perm.cycles(sigma, fixed=True)[-1] == (7,)  # the fixed point the thesis drops
    assert perm.parse_permutation("(1 2 8 9)(3 5)(4 6)") == (2, 8, 5, 6, 3, 4, 7, 9, 1)
    assert perm.parse_permutation("(1 2 9 8)(3 5)(4 6)", size=9) == sigma
    assert perm.order(sigma) == 4 and perm.inversions(sigma) == 17 and perm.transpositions(sigma) == 5


def test_sigma0_is_a_10_cycle_of_9_transpositions():
    board = parse_board(SIGMA0.read_text())
    sigma0 = perm.board_permutation(board.tiles, board.goal_tiles)
    assert sigma0 == (1, 3, 7, 4, 6, 2, 16, 8, 5, 9, 11, 12, 13, 10, 14, 15)  # as the thesis writes it
    assert perm.cycles(sigma0) == [(2, 3, 7, 16, 15, 14, 10, 9, 5, 6)]
    assert perm.format_transpositions(sigma0) == "(2 3)(3 7)(7 16)(16 15)(15 14)(14 10)(10 9)(9 5)(5 6)"
    assert _from_transpositions(perm.format_transpositions(sigma0), 16) == list(sigma0)
    assert perm.transpositions(sigma0) == 9 and perm.inversions(sigma0) == 21  # the thesis's 21
    # the thesis's (1,2)(2,3)(3,4) = (1,2,3,4): the rightmost transposition applied first
    assert _from_transpositions("(1 2)(2 3)(3 4)", 4) == list(perm.parse_permutation("(1 2 3 4)"))
    run = run_cli("puzzle", "check", SIGMA0)
    assert run.code == 0 and "12 inversions + blank in row 1" in run.stdout
    assert "(2 3 7 16 15 14 10 9 5 6) (the blank as 16) is 9 transpositions (odd)" in run.stdout
    assert "the blank is 3 moves from home (odd): the parities agree" in run.stdout
    shown = run_cli("puzzle", "permutation", SIGMA0)
    assert "parity: odd: 21 inversions; 16 - 7 cycles = 9 transpositions" in shown.stdout


def test_random_permutations_agree_with_sympy():
    from sympy.combinatorics import Permutation

    rng = random.Random(41)
    for _ in range(60):
        n = rng.randint(1, 30)
        images = list(range(1, n + 1))
        rng.shuffle(images)
        other = list(range(1, n + 1))
        rng.shuffle(other)
        query = perm.read_permutation(str(images), compose=str(other))
        out = PERMUTATION.ask(query)
        assert out.verdict.verified is True, out.verdict.message
        s, t = Permutation([a - 1 for a in images]), Permutation([a - 1 for a in other])
        w = out.witness
        assert w["order"] == s.order() and w["inversions"] == s.inversions()
        assert w["parity"] == ("even" if s.is_even else "odd")
        assert w["cycles"] == s.cycles and w["inverse"] == [a + 1 for a in (~s).array_form]
        assert sorted(len(c) for c in perm.cycles(tuple(images))) == sorted(
            len(c) for c in s.cyclic_form
        )
        # sympy's product s*t applies s first, as the thesis's definition 2
        assert w["then_other"] == [a + 1 for a in (s * t).array_form]
        assert perm.parse_permutation(out.answer, size=n) == tuple(images)


def _tampered(out, key, value):
    data = copy.deepcopy(saved(out))
    if key == "answer":
        data["answer"] = value
    else:
        data["witness"][key] = value
    return data


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("answer", "(1 2 8 9)(3 5)(4 6)"),
        ("answer", "(2 9 8 1)(3 5)(4 6)"),  # the same cycles, not from the smallest
        ("inverse", [2, 9, 5, 6, 3, 4, 7, 1, 8]),
        ("order", 8),
        ("order", 2),
        ("inversions", 15),
        ("transpositions", 7),
        ("parity", "even"),
        ("as_transpositions", "(1 2)(2 8)(8 9)(3 5)(4 6)"),
        ("then_other", [1, 2, 3, 4, 5, 6, 7, 8, 9]),
    ],
)
def test_every_fact_is_checked_again(key, value):
    query = perm.read_permutation("[2,9,5,6,3,4,7,1,8]", compose="(1 2)")
    out = PERMUTATION.ask(query)
    again = PERMUTATION.recheck(query, saved(out))
    assert again.verdict.verified is True
    wrong = PERMUTATION.recheck(query, _tampered(out, key, value))
    assert wrong.verdict.verified is False and wrong.status == "error"


def test_the_check_refutes_a_wrong_permutation():
    board = parse_board(SIGMA0.read_text())
    data = saved(CHECK.ask(board))
    assert CHECK.recheck(board, data).verdict.verified is True
    for key, value in (("permutation", "(2 3 7 16 15 14 10 9 6 5)"), ("transpositions", 7),
                       ("blank_distance", 5)):  # fmt: skip
        wrong = copy.deepcopy(data)
        wrong["certificate"][key] = value
        assert CHECK.recheck(board, wrong).verdict.verified is False


def test_composition_and_a_board_under_korfs_goal(tmp_path):
    run = run_cli("puzzle", "permutation", "(1 2 3)", "--compose", "(1 2)")
    assert "sigma then tau, k -> tau(sigma(k)): [1, 3, 2] = (2 3)" in run.stdout
    assert "tau then sigma, k -> sigma(tau(k)): [3, 2, 1] = (1 3)" in run.stdout
    board = tmp_path / "b.txt"
    board.write_text("1 0\n2 3\n")
    run = run_cli("puzzle", "permutation", board, "--goal", "blank-first")
    assert run.code == 0 and "array: [2, 1, 3, 4]" in run.stdout and "reads as 1" in run.stdout


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["[2,2,1]"], "is not a permutation of 1..3: 2 appears twice"),
        (["[1,4,2]"], "4 is out of range"),
        (["(1 2)(2 3)"], "2 appears in two places"),
        (["(1 0)"], "not 0"),
        (["(1 2) x"], "cycle notation is cycles"),
        (["nosuch.txt"], "no such board file, nor a permutation"),
        (["(1 2 3)", "--size", "2"], "3 is beyond the degree --size 2"),
        (["(1 2 3)", "--compose", "[2,1]"], "--compose: a permutation of 2 elements, not 3"),
        (["[2,1]", "--goal", "blank-first"], "--goal applies to a board file"),
        ([str(list(range(1, 100_002)))], "this tool's limit is 100,000"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, said):
    run = run_cli("puzzle", "permutation", *args)
    assert run.code == 2 and said in run.stderr, run.stderr[:300]
    assert len(run.stderr.strip().splitlines()) == 1
