"""Loopy graphs: existence of Grundy functions and kernels (native, ASP, SAT, brute force),
Smith's generalized Sprague–Grundy function and its independent checks (1)-(4) of issue 3."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyasp_games.domains.grundy import BACKENDS, loopy, solve
from pyasp_games.domains.grundy.asp import retrograde_asp
from pyasp_games.domains.grundy.generalized import (
    generalized_grundy,
    generalized_sum,
    loopy_move,
    loopy_sum_move,
    sum_graph,
)
from pyasp_games.domains.grundy.model import Infinity, known_count, load_graph, nim_sum, parse_graph
from pyasp_games.domains.grundy.retrograde import retrograde_classes
from pyasp_games.domains.grundy.verify import (
    brute_force_count,
    brute_force_kernels,
    check_generalized,
    check_grundy_function,
    classes_of,
)
from pyasp_games.engines import reference
from pyasp_games.engines.graphs import from_arcs
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.resources import instance_dir


def digraphs(max_n: int, max_out: int = 3, loops: bool = True):
    def build(n):
        arcs = st.lists(
            st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(
                lambda a: loops or a[0] != a[1]
            ),
            max_size=max_out * n,
        )
        return arcs.map(lambda a: from_arcs(a, range(n), name=f"random{n}"))

    return st.integers(1, max_n).flatmap(build)


def test_seed_examples_on_every_backend():
    c3 = parse_graph("a b\nb c\nc a\n", name="c3")
    c4 = parse_graph("a b\nb c\nc d\nd a\n", name="c4")
    for backend in BACKENDS:
        none = solve(c3, backend)
        assert none.status == "no-solution" and none.answer is False, backend
        assert none.verdict.verified is True
        both = solve(c4, backend, mode="all")
        assert both.answer == 2 and both.verdict.verified is True, backend
        functions = sorted(tuple(f[x] for x in "abcd") for f in both.witness)
        assert functions == [(0, 1, 0, 1), (1, 0, 1, 0)]
        assert solve(c4, backend, find="kernel", mode="count").answer == 2


@pytest.mark.parametrize("name", sorted(p.name for p in instance_dir("grundy").glob("*.txt")))
def test_bundled_instances_have_their_known_counts(name):
    g = load_graph(instance_dir("grundy") / name)
    known = known_count(g)
    assert known is not None
    for backend in BACKENDS:
        out = solve(g, backend, mode="count")
        assert out.answer == known, backend


@settings(max_examples=60, deadline=None)
@given(digraphs(7))
def test_check_4_backends_agree_on_existence_and_count(g):
    truth = brute_force_count(g)
    counts = {b: solve(g, b, mode="count").answer for b in BACKENDS}
    assert set(counts.values()) == {truth}, counts
    for b in BACKENDS:
        one = solve(g, b)
        assert one.answer is (truth > 0) and one.verdict.verified is not False
        if one.answer:  # check 3: every returned function satisfies the mex rule
            assert check_grundy_function(g, one.witness)[0]


@settings(max_examples=30, deadline=None)
@given(digraphs(7))
def test_kernels_agree_with_brute_force_and_contain_grundy_zeros(g):
    truth = brute_force_kernels(g)
    for b in BACKENDS:
        out = solve(g, b, find="kernel", mode="all")
        assert out.answer == truth and out.verdict.verified is True, b
    kernels = {frozenset(k) for k in solve(g, "native", find="kernel", mode="all").witness}
    for f in solve(g, "native", mode="all").witness:
        assert frozenset(n for n, v in f.items() if v == 0) in kernels


@pytest.mark.slow  # the same agreement as the small digraphs' above, on 14 vertices
@settings(max_examples=15, deadline=None)
@given(digraphs(14, 4, loops=False))
def test_larger_random_digraphs_native_asp_sat_agree(g):
    answers = {b: solve(g, b, mode="count", limits=Limits(20)).answer for b in BACKENDS}
    assert len(set(answers.values())) == 1, answers


def test_weak_components_multiply_counts(monkeypatch):
    # No enumeration recounts 2**40 solutions: the claim goes to the SAT reference, which
    # runs (without a time limit) until CONFIRM_SECONDS and leaves it NOT VERIFIED. The
    # same path under a 1 s cap instead of 30 s (this test took a minute waiting on it).
    monkeypatch.setattr(reference, "CONFIRM_SECONDS", 1.0)
    g = from_arcs([(f"a{i}", f"b{i}") for i in range(40)] + [(f"b{i}", f"a{i}") for i in range(40)])
    out = solve(g, "native", mode="count")
    assert out.answer == 2**40 and out.stats["components"] == 40
    assert out.verdict.cross_check.result == "not verified" and out.verdict.verified is False
    assert "(its 1 s)" in out.verdict.cross_check.reason, out.stats
    kernels = solve(g, "native", find="kernel", mode="count")
    assert kernels.answer == 2**40 and kernels.verdict.cross_check.result == "not verified"
    one = solve(g, "native")
    assert one.answer is True and one.verdict.verified is True


def test_acyclic_parts_are_never_branched_on():
    # a long path feeding a 4-cycle: the path's values are forced by propagation
    arcs = [(f"p{i}", f"p{i + 1}") for i in range(300)] + [("p300", "a")]
    arcs += [("a", "b"), ("b", "c"), ("c", "d"), ("d", "a")]
    out = solve(from_arcs(arcs), "native", mode="count")
    assert out.answer == 2 and out.stats["nodes"] <= 8


@settings(max_examples=80, deadline=None)
@given(digraphs(12))
def test_check_1_generalized_classes_equal_retrograde_labelling(g):
    values, counters = generalized_grundy(g)
    assert check_generalized(g, values, counters)[0]
    cls = classes_of(values)
    assert cls == retrograde_classes(g)
    for v, c in enumerate(cls):
        w = loopy_move(g, values, v)
        if c == "P":
            assert w is None
        else:
            assert cls[w] == ("P" if c == "N" else "D")
    # on an acyclic graph the generalized function is the Grundy function
    if g.find_cycle() is None:
        from pyasp_games.domains.grundy.acyclic import grundy_values

        assert values == grundy_values(g)


@settings(max_examples=15, deadline=None)
@given(digraphs(10))
def test_check_1_asp_retrograde_program_agrees(g):
    assert retrograde_asp(g) == classes_of(generalized_grundy(g)[0])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(digraphs(5), st.integers(0, 4)), min_size=2, max_size=3))
def test_check_2_product_graph_equals_generalized_nim_sum(parts):
    graphs = [g for g, _ in parts]
    positions = [p % len(g) for g, p in parts]
    values = [generalized_grundy(g)[0] for g in graphs]
    product, start = sum_graph(graphs, positions)
    direct, counters = generalized_grundy(product)
    assert check_generalized(product, direct, counters)[0]
    summed = generalized_sum([values[i][p] for i, p in enumerate(positions)])
    assert direct[start] == summed
    move = loopy_sum_move(graphs, values, positions)
    cls = classes_of([summed])[0]
    if move is None:
        assert cls == "P"
    else:
        after = list(positions)
        after[move.component] = move.target
        label = "|".join(graphs[i].names[p] for i, p in enumerate(after))
        assert classes_of([direct[product.index[label]]])[0] == ("P" if cls == "N" else "D")


def test_generalized_nim_sum_rules_of_the_notes():
    assert nim_sum(5, 3) == 6
    assert nim_sum(Infinity(frozenset({0, 2})), 2) == Infinity(frozenset({2, 0}))
    assert nim_sum(Infinity(frozenset({1})), Infinity(frozenset({0}))) == Infinity(frozenset())


def test_loopy_outcome_on_the_notes_example_is_verified():
    g = load_graph(instance_dir("grundy") / "notes-draw.txt")
    out = loopy(g)
    assert out.verdict.verified is True
    assert out.answer == {"a": "D", "b": "D", "c": "D", "d": "N", "e": "P"}
    assert out.witness["b"] == "inf(1)" and out.witness["e"] == 0


def test_generalized_checker_rejects_wrong_values_and_counters():
    g = parse_graph("a b\nb a\nb c\n")
    values, counters = generalized_grundy(g)
    assert check_generalized(g, values, counters)[0]
    assert not check_generalized(g, [1, 1, 0], counters)[0]
    wrong = list(counters)
    wrong[0] = -1  # a's counter must exceed c's (condition b)
    assert not check_generalized(g, values, wrong)[0]
    assert not check_generalized(g, [Infinity(frozenset()), *values[1:]], counters)[0]
