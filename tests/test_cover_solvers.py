"""dlx, asp and sat agree on existence and counts; every cover is verified; limits hold."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyasp_games.cover import BACKENDS, check_outcome, solve
from pyasp_games.cover.model import X3C, load_instance, random_x3c
from pyasp_games.cover.native import DancingLinks
from pyasp_games.cover.verify import check_cover
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.resources import instance_dir


def brute_force_count(inst: X3C) -> int:
    """Covers by trying every q-subset of the subsets (tiny instances only)."""
    full = set(range(inst.size))
    return sum(
        1
        for combo in itertools.combinations(range(len(inst.subsets)), inst.q)
        if set().union(*(inst.subsets[k] for k in combo)) == full
    )


@st.composite
def small_x3cs(draw):
    q = draw(st.integers(1, 3))
    triple = st.lists(st.integers(0, 3 * q - 1), min_size=3, max_size=3, unique=True).map(
        lambda t: tuple(sorted(t))
    )
    subsets = draw(st.lists(triple, min_size=q, max_size=9))
    return X3C(3 * q, tuple(subsets), None, "h")


@given(small_x3cs())
@settings(max_examples=40, deadline=None)
def test_backends_agree_on_existence_and_counts(inst):
    expected = brute_force_count(inst)
    for backend in BACKENDS:
        first = solve(inst, backend)
        assert first.status != "error", first.stats
        assert first.answer is (expected > 0)
        if first.answer:
            assert first.stats["verified"] is True
        listed = solve(inst, backend, mode="all")
        assert listed.answer == expected and listed.stats["verified"] is not False
        assert len(listed.witness) == expected
        assert solve(inst, backend, mode="count").answer == expected


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_backends_agree_on_random_regular_instances(seed):
    for inst in (random_x3c(12, 3, planted=True, seed=seed), random_x3c(12, 4, seed=seed)):
        counts = {b: solve(inst, b, mode="count").answer for b in BACKENDS}
        assert len(set(counts.values())) == 1, counts
        if inst.known:
            assert counts["dlx"] >= 1


def test_dlx_handles_any_exact_cover_matrix():
    # Knuth's example matrix (TAOCP 7.2.2.1): the unique cover is rows 0, 3, 4
    rows = [(2, 4), (0, 3, 6), (1, 2, 5), (0, 3, 5), (1, 6), (3, 4, 6)]
    assert [sorted(c) for c in DancingLinks(7, rows).search()] == [[0, 3, 4]]


def test_three_dm_witnesses_are_checked_as_matchings():
    inst = load_instance(instance_dir("cover") / "matching-small.txt")
    out = solve(inst, "sat", mode="all")
    assert out.answer == 2 and out.stats["verified"] is True
    assert sorted(out.witness) == [[0, 3, 5], [1, 2, 4]]


def test_a_wrong_witness_is_caught():
    inst = X3C(6, ((0, 1, 2), (3, 4, 5), (1, 2, 3)))
    bad = Outcome("x", "dlx", "solved", True, [0, 2])
    assert check_outcome(inst, bad)[0] is False
    twice = Outcome("x", "dlx", "solved", 2, [[0, 1], [0, 1]])
    assert check_outcome(inst, twice)[0] is False
    miscount = Outcome("x", "dlx", "solved", 3, [[0, 1]])
    assert check_outcome(inst, miscount)[0] is False
    assert check_cover(6, inst.subsets, [0, 1, 1])[0] is False
    assert check_cover(6, inst.subsets, "0 1")[0] is False


def test_no_cover_is_proved_when_an_element_is_in_no_subset():
    inst = X3C(6, ((0, 1, 2), (0, 1, 3), (2, 3, 4)))
    out = solve(inst, "asp")
    assert out.status == "no-solution" and out.stats["verified"] is True
    assert "element 5" in out.stats["verification"]


@pytest.mark.parametrize("backend", ["dlx", "asp", "sat"])
def test_time_limit_gives_unknown(backend):
    hard = random_x3c(60, 5, seed=1)  # no backend settles this in well under 20 s
    out = solve(hard, backend, Limits(time_limit=0.3))
    assert out.status == "unknown" and out.answer is None
    assert out.seconds < 10


@pytest.mark.parametrize("card", ["pairwise", "seqcounter", "ladder", "totalizer", "bitwise"])
def test_every_cardinality_encoding_counts_the_same(card):
    inst = random_x3c(9, 3, planted=True, seed=4)
    assert (
        solve(inst, "sat", card=card, mode="count").answer
        == solve(inst, "dlx", mode="count").answer
    )


def test_asp_encodings_agree():
    inst = random_x3c(10, 4, planted=True, seed=3)
    counts = {e: solve(inst, "asp", mode="count", encoding=e).answer for e in ("x3c", "x3c-card")}
    assert counts["x3c"] == counts["x3c-card"] == solve(inst, "dlx", mode="count").answer
