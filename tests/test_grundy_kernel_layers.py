"""Grundy functions searched as chains of kernels (``grundy exists -b sat --by-kernels``,
``pyasp_games.domains.grundy.kernel_layers``): the same functions as the independent
enumeration of ``loopy_search``, on every digraph of up to three positions (self-loops
included), random ones of up to seven, and every loopless one of four (slow)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from pyasp_games.domains.grundy import solve
from pyasp_games.domains.grundy.kernel_layers import kernel_chains
from pyasp_games.domains.grundy.loopy_search import grundy_functions
from pyasp_games.domains.grundy.model import arc_text, parse_graph, random_arcs
from pyasp_games.domains.grundy.verify import check_grundy_function
from pyasp_games.engines.graphs import from_arcs
from pyasp_games.engines.limits import Deadline, Limits

from .conftest import run_cli
from .test_grundy_core import digraphs


def every_digraph(n: int, loops: bool):
    pairs = [(u, v) for u in range(n) for v in range(n) if loops or u != v]
    for bits in range(1 << len(pairs)):
        arcs = [p for i, p in enumerate(pairs) if bits >> i & 1]
        yield from_arcs(arcs, range(n), name=f"g{n}-{bits}")


def chains_equal_the_functions(g, solver: str = "glucose4") -> None:
    functions, stats = kernel_chains(g, Deadline(None), solver, enumerate_all=True)
    expected = sorted(tuple(values) for values in grundy_functions(g))
    assert sorted(tuple(values) for values in functions) == expected, g.format_arcs()
    # each function is found once, through one kernel per value
    assert len(functions) == len(expected)
    for values in functions:
        assert check_grundy_function(g, dict(zip(g.names, values, strict=True)))[0]
    assert stats["kernels_per_layer"][0] >= (1 if expected else 0)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_every_digraph_of_up_to_three_positions(n):
    for g in every_digraph(n, loops=True):
        chains_equal_the_functions(g)


@given(digraphs(7))
@settings(max_examples=60, deadline=None)
def test_random_digraphs_through_the_backend(g):
    expected = sorted(tuple(values) for values in grundy_functions(g))
    for core in (True, False):
        out = solve(g, "sat", mode="all", core=core, by_kernels=True)
        assert out.verdict.verified is True
        got = sorted(tuple(f[name] for name in g.names) for f in out.witness)
        assert got == expected, (core, g.format_arcs())
        one = solve(g, "sat", core=core, by_kernels=True, solver="cadical195")
        assert one.answer is bool(expected) and one.verdict.verified is True


@pytest.mark.slow
def test_every_loopless_digraph_of_four_positions():
    for g in every_digraph(4, loops=False):
        chains_equal_the_functions(g)


def test_a_kernel_that_no_second_layer_completes():
    # exactly one kernel and no Grundy function: the search must go past layer 0 and come
    # back empty
    g = from_arcs([(0, 1), (0, 3), (1, 2), (1, 3), (2, 0), (2, 3), (3, 2)], range(4), name="k1")
    assert solve(g, "sat", find="kernel", mode="count").answer == 1
    functions, stats = kernel_chains(g, Deadline(None))
    assert functions == [] and stats["kernels_per_layer"][0] == 1
    assert len(stats["kernels_per_layer"]) >= 2, "the kernel's remainder was searched"
    out = solve(g, "sat", by_kernels=True, core=False)
    assert out.status == "no-solution" and out.answer is False


def test_one_layer_per_value():
    # the transitive tournament on 40 positions (each moves to every later one, the last
    # to none): values 39, ..., 0, one layer each; a path has two values, two layers
    n = 1200
    g = from_arcs([(u, v) for u in range(40) for v in range(u + 1, 40)], range(40), name="t40")
    out = solve(g, "sat", by_kernels=True, core=False)
    assert out.answer is True and out.witness == {str(v): 39 - v for v in range(40)}
    assert len(out.stats["kernels_per_layer"]) == 40
    path = from_arcs([(v, v + 1) for v in range(n - 1)], range(n), name="path")
    values, stats = kernel_chains(path, Deadline(None))
    assert values == [[(n - 1 - v) % 2 for v in range(n)]] and len(stats["kernels_per_layer"]) == 2


def test_time_limit_gives_unknown(tmp_path):
    # n = 3,000 seed 3 needs about 90,000 conflicts (seconds): unknown at 0.3 s, exit 3
    n = 3000
    path = tmp_path / "r3000.txt"
    path.write_text(arc_text(random_arcs(n, 3), n))
    out = solve(parse_graph(path.read_text()), "sat", Limits(0.3), by_kernels=True)
    assert out.status == "unknown" and out.answer is None
    run = run_cli("grundy", "exists", str(path), "-b", "sat", "--by-kernels", "--time-limit", "0.3")
    assert run.code == 3 and "unknown" in run.stdout


def test_by_kernels_refuses_what_it_cannot_do(tmp_path):
    graph = tmp_path / "c3.txt"
    graph.write_text("a b\nb c\nc a\n")
    run = run_cli("grundy", "exists", str(graph), "-b", "asp", "--by-kernels")
    assert run.code == 2 and "sat only" in run.stderr
    cnf = tmp_path / "out.cnf"
    run = run_cli("grundy", "exists", graph, "-b", "sat", "--by-kernels", "--emit-cnf", cnf)
    assert run.code == 2 and "not with --by-kernels" in run.stderr and not cnf.exists()
    run = run_cli("grundy", "exists", str(graph), "-b", "sat", "--by-kernels")
    assert run.code == 0 and "no Grundy function exists" in run.stdout and "verified" in run.stdout


def test_counts_match_every_backend_on_small_cycles():
    for n in range(2, 7):
        cycle = parse_graph("".join(f"{v} {(v + 1) % n}\n" for v in range(n)), name=f"c{n}")
        counts = {b: solve(cycle, b, mode="count").answer for b in ("native", "asp", "sat")}
        layered = solve(cycle, "sat", mode="count", by_kernels=True).answer
        assert set(counts.values()) == {layered}, (n, counts, layered)
        assert layered == (2 if n % 2 == 0 else 0)
