"""Routing: the known values of rt(G), token swapping and the sliding puzzle on graphs, by exhaustive search."""

from __future__ import annotations

import random

import pytest

from pyasp_games.domains.routing import solve
from pyasp_games.domains.routing.model import Instance, lower_bound, schedule_names
from pyasp_games.domains.routing.native import blank_solvability, distance_table, routing_number
from pyasp_games.domains.routing.specs import graph_spec
from pyasp_games.domains.routing.verify import verify_schedule
from pyasp_games.engines.limits import Limits


def _verifies(g, moves, state, schedule, blank=None) -> bool:
    return verify_schedule(
        [(g.names[u], g.names[v]) for u, v in g.edges],
        {g.names[v]: g.names[t] for v, t in enumerate(state)},
        moves,
        schedule_names(g, schedule),
        None if blank is None else g.names[blank],
    ).ok


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7])
def test_rt_of_paths_is_n_attained_by_the_reversal(n):
    g = graph_spec(f"path:{n}")
    r = routing_number(g)
    assert r.value == (1 if n == 2 else n)
    assert _verifies(g, "matching", r.worst, r.schedule) and len(r.schedule) == r.value
    reversal = tuple(reversed(range(n)))
    assert distance_table(g, "matching")[reversal] == r.value


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_rt_of_complete_graphs_is_2(n):
    assert routing_number(graph_spec(f"complete:{n}")).value == 2


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7, pytest.param(8, marks=pytest.mark.slow)])
def test_rt_of_cycles_is_n_minus_1(n):
    assert routing_number(graph_spec(f"cycle:{n}")).value == n - 1


@pytest.mark.parametrize("m", [2, 3, 4, 5, 6, 7])
def test_rt_of_stars_is_three_halves_m(m):
    assert routing_number(graph_spec(f"star:{m}")).value == 3 * m // 2


@pytest.mark.parametrize(
    "spec, value", [("grid:2x3", 4), pytest.param("grid:2x4", 5, marks=pytest.mark.slow)]
)
def test_rt_of_small_grids(spec, value):
    r = routing_number(graph_spec(spec))
    assert r.value == value
    assert _verifies(graph_spec(spec), "matching", r.worst, r.schedule)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_token_swapping_maximum_on_paths(n):
    r = routing_number(graph_spec(f"path:{n}"), "swap")
    assert r.value == n * (n - 1) // 2
    assert _verifies(graph_spec(f"path:{n}"), "swap", r.worst, r.schedule)


@pytest.mark.parametrize(
    "spec, reachable, farthest",
    [("grid:2x3", 360, 21), ("cycle:6", 30, 15), ("complete:4", 24, 4), ("grid:3x3", 181_440, 31)],
)
def test_sliding_reachable_counts_and_diameters(spec, reachable, farthest):
    table = distance_table(graph_spec(spec), "blank", 0)
    assert len(table) == reachable
    assert max(table.values()) == farthest


@pytest.mark.parametrize(
    "spec, moves",
    [
        ("grid:2x3", "matching"),
        ("star:4", "matching"),
        ("cycle:6", "swap"),
        ("random:7:1", "matching"),
        ("tree:7:3", "swap"),
        ("grid:2x3", "blank"),
        ("random:6:2", "blank"),
        ("tree:6:1", "blank"),
    ],
)
def test_idastar_matches_the_bfs_table(spec, moves):
    g = graph_spec(spec)
    table = distance_table(g, moves, 0)
    rng = random.Random(7)
    states = sorted(table)
    for s in rng.sample(states, min(25, len(states))):
        inst = Instance(g, s, moves, s.index(0) if moves == "blank" else None)
        assert lower_bound(inst) <= table[s]
        out = solve(inst, "native")
        assert out.status == "solved" and out.verdict.verified is True
        assert out.answer == table[s]


def test_blank_solvability_agrees_with_complete_search():
    """Wilson's verdict (and the search where it does not apply) against the reachable set."""
    for spec in ["grid:2x3", "cycle:5", "complete:4", "tree:6:2", "random:6:4", "bipartite:2,3"]:
        g = graph_spec(spec)
        table = distance_table(g, "blank", 0)
        rng = random.Random(3)
        for _ in range(20):
            s = list(range(len(g)))
            rng.shuffle(s)
            inst = Instance(g, tuple(s), "blank", s.index(0))
            assert blank_solvability(inst).solvable == (tuple(s) in table), (spec, s)


def test_wilson_reasons():
    g = graph_spec("grid:3x3")
    odd = Instance(g, (1, 0, *range(2, 9)), "blank", 8)
    verdict = blank_solvability(odd)
    assert verdict.solvable is False and "bipartite" in verdict.reason
    k4 = Instance(graph_spec("complete:4"), (1, 0, 2, 3), "blank", 3)
    assert blank_solvability(k4).solvable is True
    assert "not bipartite" in blank_solvability(k4).reason
    cycle = Instance(graph_spec("cycle:5"), (1, 0, 2, 3, 4), "blank", 4)
    assert (
        blank_solvability(cycle).solvable is False and "a cycle" in blank_solvability(cycle).reason
    )


def test_theta0_is_the_exception():
    """theta0 is 2-connected, not bipartite, not a cycle, yet not every arrangement is solvable."""
    from pyasp_games.domains.routing.native import is_theta0
    from pyasp_games.engines.graphs import graph_from_edges

    g = graph_from_edges([(0, 1), (1, 2), (0, 3), (3, 4), (4, 2), (0, 5), (5, 6), (6, 2)])
    assert is_theta0(g)
    table = distance_table(g, "blank", 0)
    assert len(table) == 7 * 120  # PGL(2,5) on the six pebbles, times the blank's positions
    s = (0, 2, 1, *range(3, 7))
    assert blank_solvability(Instance(g, s, "blank", 0)).solvable == (s in table)


def test_limit_gives_unknown():
    from pyasp_games.domains.routing.model import random_instance

    out = solve(random_instance("grid:5x5", 1, "swap"), "native", Limits(time_limit=0.5))
    assert out.status == "unknown"


def test_shipped_atlas_table():
    """The shipped rt table: one row per connected graph (1, 1, 2, 6, 21, 112, 853 by n), rows re-derived."""
    import collections

    import networkx as nx

    from pyasp_games.engines.graphs import graph_from_networkx
    from pyasp_games.engines.resources import instance_dir

    rows = [
        line.split("\t")
        for line in (instance_dir("routing") / "atlas-rt.txt").read_text().splitlines()
        if not line.startswith("#")
    ]
    counts = collections.Counter(int(r[1]) for r in rows)
    assert [counts[n] for n in range(1, 8)] == [1, 1, 2, 6, 21, 112, 853]
    atlas = nx.graph_atlas_g()
    sample = [r for r in rows if int(r[1]) <= 5] + rows[-853::284]
    for index, n, m, rt, worst, _ in sample:
        g = graph_from_networkx(atlas[int(index)], "g", undirected=True)
        assert (len(g), len(g.edges)) == (int(n), int(m))
        table = distance_table(g, "matching")
        assert max(table.values()) == int(rt)
        state = list(range(len(g)))
        for pair in worst.split() if worst != "-" else []:
            u, t = pair.split(">")
            state[g.index[u]] = g.index[t]
        assert table[tuple(state)] == int(rt)
