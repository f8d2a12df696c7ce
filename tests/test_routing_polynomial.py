"""Routing: the polynomial cases against breadth-first search on every permutation."""

from __future__ import annotations

import random

import numpy as np
import pytest

from pyasp_games.domains.routing import solve
from pyasp_games.domains.routing.model import Instance, schedule_names
from pyasp_games.domains.routing.native import distance_table
from pyasp_games.domains.routing.polynomial import (
    balanced_displacement,
    exact_schedule,
    graph_class,
)
from pyasp_games.domains.routing.specs import graph_spec
from pyasp_games.domains.routing.verify import verify_schedule
from pyasp_games.engines.graphs import graph_from_edges
from pyasp_games.engines.limits import Limits


@pytest.mark.parametrize(
    "spec, moves",
    [
        ("path:6", "swap"),
        ("cycle:4", "swap"),
        ("cycle:6", "swap"),
        ("cycle:7", "swap"),
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
    assert out.status == "solved" and out.answer == 200 * 199 // 2 and out.verdict.verified
    assert out.verdict.exact and "inversions" in out.certificate


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["cycle:8", "cycle:9"])
def test_every_cycle_arrangement_gets_the_optimum(spec):
    """The balanced displacement's schedule against BFS on all 40,320 / 362,880 arrangements."""
    g = graph_spec(spec)
    for state, optimum in distance_table(g, "swap").items():
        exact = exact_schedule(Instance(g, state, "swap"))
        assert exact.optimal and len(exact.steps) == optimum, state


def _crossings(keys: list[int], shift: list[int]) -> int:
    n = len(keys)
    return sum(abs((j - i + shift[j] - shift[i]) // n) for i in range(n) for j in range(i + 1, n))


def test_the_balanced_displacement_minimises_jerrums_count():
    """Beyond BFS: against every displacement with laps in -2..1 for every pebble (sum 0)."""
    import itertools

    rng = random.Random(7)
    for n in (10, 11):
        keys = list(range(n))
        rng.shuffle(keys)
        r = [(k - i) % n for i, k in enumerate(keys)]
        # every tuple of laps in -2..1 (4 ** n rows, int8: 46 MB at n = 11), those of sum 0
        axes = np.meshgrid(*[np.arange(-2, 2, dtype=np.int8)] * n, indexing="ij", copy=False)
        every = np.stack(axes, -1).reshape(-1, n)
        laps = every[sum(r) + n * every.sum(axis=1) == 0].astype(np.int32)
        del axes, every
        # _crossings of every displacement at once (440,000 of them for n = 11: 4 s a loop)
        shifts = np.array(r) + n * laps
        counts = np.zeros(len(shifts), dtype=np.int32)
        for i, j in itertools.combinations(range(n), 2):
            counts += np.abs((j - i + shifts[:, j] - shifts[:, i]) // n)
        best = int(counts.min())
        assert counts[0] == _crossings(keys, list(shifts[0]))  # the same count as the loop's
        shift = balanced_displacement(keys)
        assert max(shift) - min(shift) <= n and _crossings(keys, shift) == best


def test_long_cycles_are_optimal():
    """Jerrum's count of the balanced displacement is proved optimal at every size."""
    state = list(range(300))
    random.Random(5).shuffle(state)
    out = solve(Instance(graph_spec("cycle:300"), tuple(state), "swap"), "native")
    assert out.status == "solved" and out.verdict.verified and out.verdict.exact
    assert "balanced displacement" in out.certificate
