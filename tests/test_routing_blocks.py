"""Routing: sliding (blank) solvability on graphs with a cut vertex, by Wilson's theorem
block by block, against the complete search; the backends' early answers and refusals."""

from __future__ import annotations

import random
import time

import pytest

from pyasp_games.domains.routing import solve
from pyasp_games.domains.routing.blocks import reachable_count
from pyasp_games.domains.routing.model import Instance, parse_arrangement
from pyasp_games.domains.routing.native import blank_solvability, distance_table
from pyasp_games.domains.routing.specs import graph_spec
from pyasp_games.domains.routing.verify import verify_sides_unsolvable
from pyasp_games.engines.graphs import graph_from_edges, numbered_graph
from pyasp_games.engines.limits import Limits
from tests.conftest import run_cli

THETA0 = [(0, 1), (1, 2), (0, 3), (3, 4), (4, 2), (0, 5), (5, 6), (6, 2)]

#: Graphs with a cut vertex (and a few without): two triangles sharing a vertex, a
#: lollipop, theta0 with a pendant vertex, two squares joined by a bridge (bipartite),
#: a tree, a cycle.
SMALL = {
    "bowtie": graph_from_edges([("x", "a"), ("a", "b"), ("b", "x"), ("x", "c"), ("c", "d"), ("d", "x")]),
    "lollipop": graph_from_edges([("a", "b"), ("a", "c"), ("a", "d"), ("b", "c"), ("b", "d"), ("c", "d"),
                                  ("d", "t1"), ("t1", "t2")]),
    "theta0+1": numbered_graph(8, [*THETA0, (3, 7)]),
    "squares": graph_from_edges([("a", "b"), ("b", "c"), ("c", "d"), ("d", "a"), ("c", "e"),
                                 ("e", "f"), ("f", "g"), ("g", "h"), ("h", "e")]),
    "tree": graph_spec("tree:6:2"),
    "cycle": graph_spec("cycle:5"),
}


def _two_grids() -> object:
    """Two 3 x 4 grids sharing a corner, ``x``: 23 vertices, 23 x (11!/2)^2 arrangements
    reachable from any one."""
    edges = []
    for side in "ab":
        for r in range(3):
            for c in range(4):
                if c < 3:
                    edges.append((f"{side}{r}{c}", f"{side}{r}{c + 1}"))
                if r < 2:
                    edges.append((f"{side}{r}{c}", f"{side}{r + 1}{c}"))
    return graph_from_edges([tuple("x" if v in ("a23", "b00") else v for v in e) for e in edges])


@pytest.mark.parametrize("name", sorted(SMALL))
def test_the_block_theorem_agrees_with_the_complete_search(name):
    g = SMALL[name]
    rng = random.Random(name)
    for home in (0, len(g) - 1):
        table = distance_table(g, "blank", home)
        assert len(table) == reachable_count(g)  # the count a search is sized by
        states = rng.sample(sorted(table), min(10, len(table)))
        for _ in range(25):
            state = list(range(len(g)))
            rng.shuffle(state)
            states.append(tuple(state))
        edges = [(g.names[u], g.names[v]) for u, v in g.edges]
        for state in states:
            inst = Instance(g, state, "blank", state.index(home))
            reachable = state in table
            assert blank_solvability(inst).solvable is reachable, (name, state)
            named = {g.names[v]: g.names[t] for v, t in enumerate(state)}
            # the checker's own invariant never refutes a reachable arrangement
            refuted = verify_sides_unsolvable(edges, named, g.names[state.index(home)]).ok
            assert not (refuted and reachable), (name, state)


def test_a_23_vertex_graph_with_a_cut_vertex_is_decided_at_once():
    """The complete search of 23 x (11!/2)^2 arrangements ran out of memory (asp, sat and
    native start with the solvability); the theorem answers at once, and the checker
    confirms "unsolvable" by the cut vertex's sides where parity cannot."""
    g = _two_grids()
    # two swaps across the cut vertex: an even arrangement, so parity refutes nothing
    crossed = parse_arrangement("# moves: blank\nblank x\na00 b11\nb11 a00\na01 b12\nb12 a01\n", g)
    started = time.process_time()
    verdict = blank_solvability(crossed, Limits(time_limit=1).deadline())
    assert verdict.solvable is False and "outside its block" in verdict.reason
    assert time.process_time() - started < 0.5
    for backend in ("native", "asp", "sat"):
        out = solve(crossed, backend, Limits(time_limit=10))
        assert out.status == "no-solution" and out.verdict.verified is True, (backend, out.verdict.message)
        assert "cut vertex invariant" in out.verdict.message
    near = parse_arrangement("# moves: blank\nblank a21\na21 x\na22 a21\nx a22\n", g)
    for backend in ("native", "asp", "sat"):
        out = solve(near, backend, Limits(time_limit=10))
        assert out.status == "solved" and out.answer == 2 and out.verdict.verified is True, backend


def test_check_on_a_cut_vertex_graph_answers_by_the_theorem(tmp_path):
    graph = tmp_path / "bowtie.txt"
    graph.write_text("x a\na b\nb x\nx c\nc d\nd x\n")
    (tmp_path / "turned.txt").write_text("blank x\na b\nb a\n")  # a triangle turned: solvable
    run = run_cli("routing", "check", graph, tmp_path / "turned.txt", "--json")
    out = run.json()
    assert run.code == 0 and out["answer"] is True and out["stats"]["verified"] is True
    assert "Wilson's theorem" in out["certificate"] and "complete search" in out["certificate"]
    (tmp_path / "swapped.txt").write_text("blank x\na c\nc a\n")  # across the cut vertex
    run = run_cli("routing", "check", graph, tmp_path / "swapped.txt", "--json")
    out = run.json()
    assert out["answer"] is False and out["stats"]["verified"] is True
    assert "outside its block" in out["certificate"]


def test_bfs_refuses_a_table_beyond_the_memory_limit():
    inst = parse_arrangement("0 1\n1 0\n", graph_spec("complete:11"), moves="swap")
    started = time.perf_counter()
    out = solve(inst, "bfs", Limits(memory_limit=200 * 2**20))
    assert time.perf_counter() - started < 5
    assert out.status == "unknown" and out.stats["limit"] == "memory"
    assert "39,916,800 arrangements" in out.stats["stopped"]
