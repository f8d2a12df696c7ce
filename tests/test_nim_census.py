"""``games nim-census K M``: the P-positions of Nim among all positions of K heaps of at
most M coins, by the digit DP, against enumeration where small and the character sum
(the checker's second method) everywhere; the handout's claim that the first player's
share tends to 1 as the coins grow."""

from __future__ import annotations

import itertools
import random
from functools import reduce

import pytest

from pyasp_games.domains.grundy.census import count_p_positions, nim_census
from pyasp_games.domains.grundy.questions import NIM_CENSUS
from pyasp_games.domains.grundy.verify import p_positions_by_characters

from .conftest import run_cli
from .test_grundy_recheck import _set, assert_rechecked, assert_refuted


def enumerated(heaps: int, coins: int) -> int:
    return sum(
        reduce(lambda a, b: a ^ b, p) == 0 for p in itertools.product(range(coins + 1), repeat=heaps)
    )


@pytest.mark.parametrize(("heaps", "top"), [(1, 40), (2, 40), (3, 20), (4, 9)])
def test_the_dp_and_the_character_sum_count_as_enumeration(heaps, top):
    for coins in range(top + 1):
        want = enumerated(heaps, coins)
        assert count_p_positions(heaps, coins) == want == p_positions_by_characters(heaps, coins)


def test_the_two_methods_agree_far_beyond_enumeration():
    rng = random.Random(41)
    for _ in range(100):
        heaps, coins = rng.randint(1, 40), rng.choice([rng.randint(0, 300), rng.randint(0, 10**18)])
        assert count_p_positions(heaps, coins) == p_positions_by_characters(heaps, coins)
    # closed forms: two heaps are P exactly when equal; K heaps of 0..2^b-1 are P when
    # the last heap is the XOR of the others
    assert count_p_positions(2, 10**6) == 10**6 + 1
    assert count_p_positions(7, 2**20 - 1) == 2 ** (20 * 6)


def test_the_first_players_share_tends_to_1():
    shares = [1 - count_p_positions(3, m) / (m + 1) ** 3 for m in (1, 10, 100, 10**4, 10**6)]
    assert shares == sorted(shares) and shares[0] == 0.5 and shares[-1] > 0.999999


def test_the_command_and_its_saved_answer():
    run = run_cli("games", "nim-census", "3", "7")
    assert run.code == 0 and "64 P-positions of 512" in run.stdout and "0.125 = 1/8" in run.stdout
    census = nim_census(10, 10**6)
    out = NIM_CENSUS.ask(census)
    assert out.verdict.message == "counted again by a character sum (a second method)"
    data = assert_rechecked(NIM_CENSUS, census, out)
    assert_refuted(NIM_CENSUS, census, data, _set(("answer",), data["answer"] + 1))
    assert_refuted(NIM_CENSUS, census, data, _set(("witness", "first_player_wins"), 0))
    small = nim_census(3, 5)
    data = assert_rechecked(NIM_CENSUS, small, NIM_CENSUS.ask(small))
    assert_refuted(NIM_CENSUS, small, data, _set(("answer",), 0))


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["0", "5"], "K must be between 1 and 200"),
        (["3", str(10**31)], "M must be between 0 and 10^30"),
        (["3"], "Missing argument"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, said):
    run = run_cli("games", "nim-census", *args)
    assert run.code == 2 and said in run.stderr, run.stderr
