"""Routing: the polynomial cases against breadth-first search on every permutation."""

from __future__ import annotations

import random

import pytest

from pyasp_games.engines.limits import Limits
from pyasp_games.routing import solve
from pyasp_games.routing.graph import graph_from_edges
from pyasp_games.routing.model import Instance, schedule_names
from pyasp_games.routing.native import distance_table
from pyasp_games.routing.polynomial import CYCLE_VERIFIED_UP_TO, exact_schedule, graph_class
from pyasp_games.routing.specs import graph_spec
from pyasp_games.routing.verify import verify_schedule


@pytest.mark.parametrize(
    "spec, moves",
    [
        ("path:6", "swap"),
        ("cycle:4", "swap"),
        ("cycle:6", "swap"),
        ("star:5", "swap"),
        ("complete:5", "swap"),
        ("bipartite:2,2", "swap"),
        ("bipartite:3,3", "swap"),
        ("bipartite:2,4", "swap"),
        ("complete:5", "matching"),
        ("star:4", "matching"),
        ("path:3", "matching"),
    ],
)
def test_every_permutation_gets_the_optimum(spec, moves):
    """Each formula's schedule replays and is as short as the BFS optimum, for every permutation."""
    g = graph_spec(spec)
    edges = [(g.names[u], g.names[v]) for u, v in g.edges]
    for state, optimum in distance_table(g, moves).items():
        exact = exact_schedule(Instance(g, state, moves))
        assert exact is not None and exact.optimal
        start = {g.names[v]: g.names[t] for v, t in enumerate(state)}
        assert verify_schedule(edges, start, moves, schedule_names(g, exact.steps)).ok
        assert len(exact.steps) == optimum, (state, exact.proof)


def test_classes_are_recognised_by_shape_not_by_name():
    rng = random.Random(3)
    for spec, kind in [("path:7", "path"), ("cycle:7", "cycle"), ("star:6", "bipartite"),
                       ("bipartite:3,4", "bipartite"), ("complete:6", "complete")]:  # fmt: skip
        g = graph_spec(spec)
        names = [f"q{i}" for i in range(len(g))]
        rng.shuffle(names)
        edges = [(names[u], names[v]) for u, v in g.edges]
        rng.shuffle(edges)
        assert graph_class(graph_from_edges(edges))[0] == kind
    for spec in ("grid:3x3", "tree:8:1", "heavy-hex:27", "hypercube:3"):
        assert graph_class(graph_spec(spec)) is None


def test_the_native_backend_answers_large_paths_at_once():
    """Issue 21: a 12-vertex path got nothing from IDA* in 30 s; its optimum is the inversions."""
    g = graph_spec("path:200")
    reversal = Instance(g, tuple(reversed(range(200))), "swap")
    out = solve(reversal, "native", Limits(time_limit=20))
    assert out.status == "solved" and out.answer == 200 * 199 // 2 and out.stats["verified"]
    assert out.stats["optimal"] is True and "inversions" in out.stats["proof"]


def test_long_cycles_are_bounds_not_claims():
    """Beyond the sizes where the descent was checked exact, a cycle's answer is a bound."""
    n = CYCLE_VERIFIED_UP_TO + 3
    state = list(range(n))
    random.Random(5).shuffle(state)
    out = solve(Instance(graph_spec(f"cycle:{n}"), tuple(state), "swap"), "native")
    assert out.status == "solved" and out.stats["verified"] and out.stats["optimal"] is False
    assert "upper bound" in out.stats["proof"]
