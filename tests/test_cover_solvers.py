"""dlx, asp and sat agree on existence and counts; every cover is verified; limits hold."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyasp_games.domains.cover import BACKENDS, check_outcome, solve
from pyasp_games.domains.cover.bitsets import BitsetCover
from pyasp_games.domains.cover.dancing_links import DancingLinks
from pyasp_games.domains.cover.model import X3C, load_instance, random_x3c
from pyasp_games.domains.cover.verify import check_cover
from pyasp_games.engines.limits import Deadline, LimitReached, Limits
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
            assert first.verdict.verified is True
        listed = solve(inst, backend, mode="all")
        assert listed.answer == expected and listed.verdict.verified is not False
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


@st.composite
def exact_cover_matrices(draw):
    """Any 0/1 matrix: options of any size (empty and repeated options included)."""
    items = draw(st.integers(0, 8))
    option = st.lists(st.integers(0, max(items - 1, 0)), max_size=4, unique=True)
    options = draw(st.lists(option, max_size=14)) if items else []
    return items, [sorted(o) for o in options]


@given(exact_cover_matrices())
@settings(max_examples=150, deadline=None)
def test_bitset_and_dancing_links_search_the_same_tree(matrix):
    # the same column rule and tie-breaking: the same covers, in the same order, in as
    # many nodes; and every cover is exact
    items, options = matrix
    links = DancingLinks(items, options)
    bits = BitsetCover(items, options)
    covers = list(links.search())
    assert list(bits.search()) == covers
    assert bits.nodes == links.nodes
    for cover in covers:
        assert sorted(e for r in cover for e in options[r]) == list(range(items))
    # the counts: dancing links count in the kernel, bit sets with the memo
    assert DancingLinks(items, options).count() == len(covers)
    assert BitsetCover(items, options).count() == len(covers)


@pytest.mark.parametrize("structure", [DancingLinks, BitsetCover])
def test_compiled_kernels_search_as_their_python_source(structure, monkeypatch):
    # a search runs its first slices as Python, then compiled: both must be the same
    # search (numba's integer types are not Python's); here each runs a whole search
    from pyasp_games.engines import compiled

    instances = [random_x3c(q, 4, planted=seed % 2 == 0, seed=seed) for q, seed in ((8, 1), (10, 2), (12, 3))]
    monkeypatch.setattr(compiled, "INTERPRETED_SECONDS", 1e9)
    def run(inst):
        searched, counted = structure(inst.size, inst.subsets), structure(inst.size, inst.subsets)
        return list(searched.search()), searched.nodes, counted.count(), counted.nodes

    python = [run(inst) for inst in instances]
    module = structure.__module__
    compiled.compile_kernels(module)
    assert compiled.is_compiled(module)
    assert [run(inst) for inst in instances] == python and any(run[0] for run in python)


@pytest.mark.parametrize("entries", [0, 3, 1 << 21])
def test_memo_counts_exactly_whatever_its_size(entries, monkeypatch):
    # a full memo stops remembering counts, never miscounts
    inst = random_x3c(15, 3, planted=True, seed=5)
    expected = sorted(map(sorted, DancingLinks(inst.size, inst.subsets).search()))
    monkeypatch.setattr(BitsetCover, "MEMO_ENTRIES", entries)
    assert BitsetCover(inst.size, inst.subsets).count() == len(expected) > 0


def test_memo_saves_nodes_where_subproblems_repeat():
    # two ways ({0,1} or {2,3}) to cover items 0-3 leave the same subproblem on 4-7
    options = [(0, 1), (2, 3), (0, 2), (1, 3), (4, 5), (6, 7), (4, 6), (5, 7)]
    plain, memo = BitsetCover(8, options), BitsetCover(8, options)
    assert sum(1 for _ in plain.search()) == memo.count() == 4
    assert memo.memo_hits >= 1 and memo.nodes < plain.nodes


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_bitset_without_conflict_sets_agrees(seed, monkeypatch):
    # big matrices skip the precomputed conflict sets; force that path on a small one
    inst = random_x3c(12, 4, planted=seed % 2 == 0, seed=seed)
    expected = list(DancingLinks(inst.size, inst.subsets).search())
    monkeypatch.setattr(BitsetCover, "CONFLICT_BYTES", 0)
    bits = BitsetCover(inst.size, inst.subsets)
    assert bits.keep.shape[0] == 0
    assert list(bits.search()) == expected
    assert BitsetCover(inst.size, inst.subsets).count() == len(expected)


@pytest.mark.parametrize("structure", [DancingLinks, BitsetCover])
@pytest.mark.parametrize("method", ["search", "count"])
def test_kernels_look_at_the_clock_after_their_first_slice(structure, method):
    inst = random_x3c(60, 5, seed=1)
    matrix = structure(inst.size, inst.subsets)
    with pytest.raises(LimitReached) as stopped:
        if method == "count":
            matrix.count(Deadline(1e-9))
        else:
            list(matrix.search(Deadline(1e-9)))
    assert 0 < matrix.nodes <= 256 and stopped.value.args[0]["nodes"] == matrix.nodes
    # a node of a huge matrix is slow: its first slice scans at most 10**7 words
    huge = BitsetCover(10**4, [[i] for i in range(10**4)])
    assert huge.first * 10**4 * huge.columns.shape[1] <= 10**7


def test_three_dm_witnesses_are_checked_as_matchings():
    inst = load_instance(instance_dir("cover") / "matching-small.txt")
    out = solve(inst, "sat", mode="all")
    assert out.answer == 2 and out.verdict.verified is True
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
    assert out.status == "no-solution" and out.verdict.verified is True
    assert "element 5" in out.verdict.message


@pytest.mark.parametrize("backend", ["dlx", "asp", "sat", "bitset"])
@pytest.mark.xdist_group("timing")
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


def test_kernels_compile_without_any_writable_cache(tmp_path, monkeypatch):
    # a package installed read-only, with no writable user cache either: numba refuses
    # cache=True at decoration ("no locator available"); the kernels compile in memory
    import importlib
    import sys

    import numba

    from pyasp_games.engines import compiled

    (tmp_path / "ro_kernels.py").write_text(
        "from pyasp_games.engines.compiled import kernel\n\n"
        "@kernel\ndef twice(x):\n    return 2 * x\n\n"
        "def warm_up():\n    twice(1)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    njit = numba.njit

    def no_locator(*args, **options):
        if options.get("cache"):
            raise RuntimeError("cannot cache function 'twice': no locator available for file")
        return njit(*args, **options)

    monkeypatch.setattr(numba, "njit", no_locator)
    module = importlib.import_module("ro_kernels")
    try:
        compiled.compile_kernels("ro_kernels")
        assert isinstance(module.twice, numba.core.registry.CPUDispatcher)
        assert module.twice(21) == 42 and not module.twice.stats.cache_hits
    finally:
        sys.modules.pop("ro_kernels", None)
        compiled._COMPILED.discard("ro_kernels")
