"""The core (shrinking the graph) used by the ASP and SAT backends (``pyasp_games.domains.grundy.core``):
deleting positions nobody moves to keeps the Grundy functions one to one."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pyasp_games.domains.grundy import solve
from pyasp_games.domains.grundy.core import extend, in_core
from pyasp_games.domains.grundy.loopy_search import grundy_functions
from pyasp_games.domains.grundy.model import parse_graph, random_digraph
from pyasp_games.domains.grundy.verify import check_grundy_function
from pyasp_games.engines.graphs import from_arcs

from .conftest import run_cli


def digraphs(max_n: int, max_out: int = 3):
    def build(n):
        arcs = st.lists(
            st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=max_out * n
        )
        return arcs.map(lambda a: from_arcs(a, range(n), name=f"random{n}"))

    return st.integers(1, max_n).flatmap(build)


@given(digraphs(9))
def test_core_is_closed_and_deletion_order_is_sound(g):
    core, removed = in_core(g)
    kept = set(core.names)
    assert len(core) + len(removed) == len(g) and len(set(removed)) == len(removed)
    position = {v: i for i, v in enumerate(removed)}
    for v in removed:
        # a deleted position is only reached from positions deleted before it
        assert all(u in position and position[u] < position[v] for u in g.pred[v])
    for name in core.names:
        v = g.index[name]
        assert any(g.names[u] in kept for u in g.pred[v]), "a core position has a core predecessor"
        assert sorted(core.names[w] for w in core.succ[core.index[name]]) == sorted(
            g.names[w] for w in g.succ[v]
        ), "the core keeps every move of its positions"


@given(digraphs(8))
@settings(max_examples=60, deadline=None)
def test_core_functions_extend_one_to_one(g):
    core, removed = in_core(g)
    extended = []
    for values in grundy_functions(core):
        function = dict(zip(core.names, values, strict=True))
        full = extend(g, core, removed, function)
        assert check_grundy_function(g, full)[0]
        assert all(full[n] == function[n] for n in core.names)
        extended.append(tuple(full[n] for n in g.names))
    direct = sorted(tuple(values) for values in grundy_functions(g))
    assert sorted(extended) == direct


@given(digraphs(7))
@settings(max_examples=40, deadline=None)
def test_asp_and_sat_agree_with_and_without_the_core(g):
    native = solve(g, "native", mode="count").answer
    for backend in ("asp", "sat"):
        for core in (True, False):
            assert solve(g, backend, mode="count", core=core).answer == native, (backend, core)
            one = solve(g, backend, core=core)
            assert one.answer is (native > 0) and one.verdict.verified is not False


def test_sources_are_solved_off_the_core_and_the_witness_covers_every_position():
    # s and t are reached by nobody (t first, then s): the core is the 2-cycle a <-> b
    g = parse_graph("t s\ns a\na b\nb a\nt b\n", name="tail")
    for backend in ("asp", "sat"):
        out = solve(g, backend, mode="all")
        assert (
            out.answer == 2 and out.verdict.verified is True and out.stats["core_positions"] == 2
        )
        assert sorted(tuple(f[x] for x in "tsab") for f in out.witness) == [
            (0, 1, 0, 1),
            (1, 0, 1, 0),
        ]
    big = random_digraph(300, seed=5)
    out = solve(big, "sat")
    assert out.verdict.verified is True and 0 < out.stats["core_positions"] < len(big)


def test_cli_core_switch_changes_the_search_not_the_answer(tmp_path):
    path = tmp_path / "tail.txt"
    path.write_text("t s\ns a\na b\nb a\nt b\n")
    for backend in ("asp", "sat"):
        on = run_cli("grundy", "exists", path, "-b", backend, "--count", "--json").json()
        off = run_cli("grundy", "exists", path, "-b", backend, "--count", "--no-core", "--json")
        assert on["answer"] == off.json()["answer"] == 2
        assert on["stats"]["core_positions"] == 2 and off.json()["stats"]["core_positions"] == 4
