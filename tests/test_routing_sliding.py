"""The sliding puzzle's worst case (issue 41, section 4): the two-bit breadth-first search
of the state graph against published layer counts, a plain BFS and Wilson's theorem,
and ``routing number -m blank`` as a user runs it."""

from __future__ import annotations

import copy
import math
import time
from collections import Counter

import pytest

from pyasp_games.domains.routing.native import distance_table, home_orbits
from pyasp_games.domains.routing.sliding_bfs import LISTED, index_space, sliding_layers
from pyasp_games.domains.routing.specs import graph_spec
from pyasp_games.domains.routing.verify import verify_schedule
from tests.conftest import assert_bad_input, run_cli

#: The 8-puzzle's arrangements at each distance from the goal, by the blank's home
#: (OEIS A089473: a corner, A089483: mid-side, A089474: the centre; Reinefeld 1993).
EIGHT_PUZZLE = {
    "2,2": [1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485,
            5638, 9529, 10878, 16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274,
            3910, 760, 221, 2],
    "0,1": [1, 3, 5, 10, 14, 28, 42, 80, 108, 202, 278, 524, 726, 1348, 1804, 3283, 4193,
            7322, 8596, 13930, 14713, 21721, 19827, 25132, 18197, 18978, 9929, 7359, 2081,
            878, 126, 2],
    "1,1": [1, 4, 8, 8, 16, 32, 60, 72, 136, 200, 376, 512, 964, 1296, 2368, 3084, 5482,
            6736, 11132, 12208, 18612, 18444, 24968, 19632, 22289, 13600, 11842, 4340, 2398,
            472, 148],
}  # fmt: skip


#: The 2 x 3 board's layers from a corner (OEIS A090034, Karlemo and Östergård 2000).
TWO_BY_THREE = [1, 2, 3, 5, 6, 7, 10, 12, 12, 16, 23, 25, 28, 39, 44, 40, 29, 21, 18, 12, 6, 1]

#: The 3 x 4 board's layers from a corner (OEIS A090166): 239,500,800 arrangements, 53
#: moves at most, 18 antipodes (Korf 2008's 53).
THREE_BY_FOUR = [
    1, 2, 4, 9, 20, 37, 63, 122, 232, 431, 781, 1392, 2494, 4442, 7854, 13899, 24215,
    41802, 71167, 119888, 198363, 323206, 515778, 811000, 1248011, 1885279, 2782396,
    4009722, 5621354, 7647872, 10065800, 12760413, 15570786, 18171606, 20299876,
    21587248, 21841159, 20906905, 18899357, 16058335, 12772603, 9515217, 6583181,
    4242753, 2503873, 1350268, 643245, 270303, 92311, 27116, 5390, 1115, 86, 18,
]  # fmt: skip


def _profile(table: dict) -> list[int]:
    """The layer counts of a distance table."""
    counts = Counter(table.values())
    return [counts[d] for d in range(max(counts) + 1)]


@pytest.mark.parametrize(
    "spec",
    ["grid:2x3", "grid:2x2", "cycle:5", "star:3", "path:3", "complete:4", "bipartite:2,3",
     "grid:2x3-0,0", "random:6:3"],
)  # fmt: skip
def test_every_home_searched_as_the_plain_bfs_does(spec):
    # the kernel (run interpreted: these are small) against the dict BFS of
    # native.distance_table, from every home, with each antipode's plan replayed
    g = graph_spec(spec)
    for home in range(len(g)):
        found = sliding_layers(g, home)
        table = distance_table(g, "blank", home)
        assert found.counts == _profile(table), (spec, home)
        far = {s for s, d in table.items() if d == found.eccentricity}
        assert len(found.antipodes) == min(len(far), LISTED) and set(found.antipodes) <= far
        edges = [(g.names[u], g.names[v]) for u, v in g.edges]
        for state, plan in zip(found.antipodes, found.plans, strict=True):
            start = {g.names[v]: g.names[t] for v, t in enumerate(state)}
            steps = [[(g.names[u], g.names[v])] for u, v in plan]
            blank = g.names[state.index(home)]
            assert len(plan) == found.eccentricity
            assert verify_schedule(edges, start, "blank", steps, blank).ok


def test_the_2x3_layers_are_the_published_ones():
    g = graph_spec("grid:2x3")
    assert [sliding_layers(g, corner).counts for corner in (0, 2, 3, 5)] == [TWO_BY_THREE] * 4


def test_the_reachable_arrangements_are_wilsons_count():
    # n!/2 on a 2-connected bipartite graph that is no cycle, n! on one that is not
    # bipartite, n(n-1) on a cycle; the table's index space halves on bipartite graphs
    for spec, count in (("grid:2x3", math.factorial(6) // 2), ("complete:4", 24),
                        ("cycle:6", 30), ("bipartite:2,3", math.factorial(5) // 2)):  # fmt: skip
        g = graph_spec(spec)
        assert sum(sliding_layers(g, 0).counts) == count, spec
    assert index_space(graph_spec("grid:3x4")) == 239_500_800
    assert index_space(graph_spec("complete:4")) == 24


def test_the_compiled_kernels_search_as_their_python_source(monkeypatch):
    from pyasp_games.domains.routing import sliding_bfs
    from pyasp_games.engines import compiled

    g = graph_spec("grid:2x3")
    python = [sliding_layers(g, home) for home in (0, 1)]
    compiled.compile_kernels(sliding_bfs.__name__)
    assert compiled.is_compiled(sliding_bfs.__name__)
    again = [sliding_layers(g, home) for home in (0, 1)]
    assert [(f.counts, f.antipodes, f.plans) for f in again] == [
        (f.counts, f.antipodes, f.plans) for f in python
    ]


@pytest.mark.slow
def test_the_8_puzzle_layers_are_the_published_ones():
    # pytest -m slow tests/test_routing_sliding.py (compiles the kernels, 181,440 x 3)
    g = graph_spec("grid:3x3")
    for home, counts in EIGHT_PUZZLE.items():
        found = sliding_layers(g, g.index[home])
        assert found.counts == counts
        assert len(found.antipodes) == min(counts[-1], LISTED)


@pytest.mark.slow
@pytest.mark.parametrize("spec, value", [("grid:2x4", 36), ("grid:2x5", 55)])
def test_korfs_two_row_boards(spec, value):
    # Korf (2008): 2 x 4 in 36 moves, 2 x 5 in 55, from a corner
    assert sliding_layers(graph_spec(spec), 0).eccentricity == value


@pytest.mark.slow
def test_the_3x4_layers_are_the_published_ones():
    # pytest -m slow tests/test_routing_sliding.py::test_the_3x4_layers_are_the_published_ones
    # (about 4 minutes of CPU, 60 MB of table)
    found = sliding_layers(graph_spec("grid:3x4"), 0)
    assert found.counts == THREE_BY_FOUR and len(found.antipodes) == LISTED


def test_home_orbits_are_the_automorphism_classes():
    assert home_orbits(graph_spec("grid:2x3")) == [[0, 2, 3, 5], [1, 4]]
    assert home_orbits(graph_spec("star:3")) == [[0], [1, 2, 3]]
    assert home_orbits(graph_spec("path:4")) == [[0, 3], [1, 2]]


# -- the command line -------------------------------------------------------------------


def test_number_blank_on_2x3_is_21_verified_by_the_checkers_own_search():
    run = run_cli("routing", "number", "grid:2x3", "-m", "blank")
    assert run.code == 0, run.stderr
    assert "sliding diameter = 21" in run.stdout and "(bfs," in run.stdout
    assert "blank home 0,0 (and 0,2 1,0 1,2): 21 slides at most" in run.stdout
    assert "every layer found again by the checker's own search" in run.stdout


def test_number_blank_with_a_home_is_that_goals_worst_case():
    run = run_cli("routing", "number", "grid:2x3", "-m", "blank", "--blank", "1,1", "--json")
    out = run.json()
    assert run.code == 0 and out["answer"] == 21 and out["stats"]["verified"] is True
    assert [h["home"] for h in out["certificate"]["homes"]] == ["1,1"]
    assert out["certificate"]["homes"][0]["layers"][:4] == [1, 3, 4, 4]


def _saved(*args: str) -> dict:
    run = run_cli("routing", "number", *args, "--json")
    assert run.code == 0, run.stderr
    return run.json()


def _refuted(inst, data: dict, change) -> None:
    from pyasp_games.domains.routing.questions import NUMBER

    tampered = copy.deepcopy(data)
    change(tampered)
    out = NUMBER.recheck(inst, tampered)
    assert out.verdict.verified is False and out.status == "error", (out.status, out.verdict)


def _moved_between_layers(data: dict) -> None:
    layers = data["certificate"]["homes"][0]["layers"]
    layers[1] -= 1
    layers[2] += 1


def test_a_saved_sliding_number_is_checked_again_and_a_tampered_one_refuted():
    from pyasp_games.domains.routing.questions import NUMBER, read_number

    data = _saved("cycle:5", "-m", "blank")
    inst = read_number("cycle:5", "blank")
    again = NUMBER.recheck(inst, data)
    assert again.status == "solved" and again.verdict.fully_verified, again.verdict
    _refuted(inst, data, lambda d: d.update(answer=d["answer"] + 1))
    _refuted(inst, data, lambda d: d["witness"][0]["plan"].pop())
    _refuted(inst, data, lambda d: d["certificate"]["homes"][0]["layers"].append(1))
    _refuted(inst, data, _moved_between_layers)  # the same sum: only the search tells
    _refuted(inst, data, lambda d: d["certificate"].update(arrangements=21))
    _refuted(inst, data, lambda d: d["certificate"]["homes"][0]["like"].pop())


def test_a_nearer_antipode_is_refuted_by_the_checkers_search():
    # the arrangement two slides into an antipode's plan, given with that plan's rest
    # padded by a slide there and back: it replays in as many slides as claimed, but the
    # checker's own search knows that it is nearer
    from pyasp_games.domains.routing.questions import NUMBER, read_number

    data = _saved("grid:2x3", "-m", "blank", "--blank", "1,2")
    inst = read_number("grid:2x3", "blank", None, "1,2")
    assert NUMBER.recheck(inst, data).verdict.fully_verified
    far = data["witness"][0]
    where = {v: v for v in inst.graph.names}
    where.update(far["arrangement"])
    for [(u, v)] in far["plan"][:2]:
        where[u], where[v] = where[v], where[u]
    edge = far["plan"][2]
    blank = next(v for v, t in where.items() if t == "1,2")
    near = {"home": "1,2", "blank": blank, "plan": [edge, edge, *far["plan"][2:]],
            "arrangement": {v: t for v, t in where.items() if v != t}}  # fmt: skip
    _refuted(inst, data, lambda d: d.update(witness=[near]))


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["grid:2x3", "--blank", "0,0"], "applies to --moves blank only"),
        (["grid:2x3", "-m", "blank", "--blank", "9,9"], "no such vertex"),
        (["grid:2x3", "-m", "blank", "--blank", "nan"], "no such vertex"),
        (["path:17", "-m", "blank"], "at most 16 vertices"),
        (["grid:2x3", "-m", "blank", "--time-limit", "nan"], "--time-limit"),
        (["nowhere:3", "-m", "blank"], "nowhere"),
    ],
)
def test_bad_input_is_one_line(args, fragment):
    assert_bad_input(run_cli("routing", "number", *args), fragment)


def test_a_table_beyond_the_memory_limit_is_refused_before_it_is_allocated():
    # the 15-puzzle's table: 10,461,394,944,000 arrangements, 2.4 TiB at two bits each
    run = run_cli("routing", "number", "grid:4x4", "-m", "blank", "--blank", "0,0")
    assert run.code == 3 and "unknown" in run.stdout, run.stderr
    assert "10,461,394,944,000 arrangements" in run.stdout and "TiB" in run.stdout
    assert "Traceback" not in run.stderr


@pytest.mark.xdist_group("timing")
def test_the_time_limit_gives_unknown_and_exit_3():
    # in this process: the search is forked and stopped (the whole command's limit in a
    # child process: test_routing_cli.py's)
    run = run_cli("routing", "number", "grid:3x4", "-m", "blank", "--blank", "0,0",
                  "--time-limit", "0.5", "--json")  # fmt: skip
    out = run.json()
    assert run.code == 3 and out["status"] == "unknown" and out["answer"] is None
    assert run.seconds < 10


def test_the_checkers_search_from_both_ends_finds_every_distance():
    from pyasp_games.domains.routing.model import identity_instance
    from pyasp_games.domains.routing.verify import sliding_distance_by_meeting

    for spec, home in (("grid:2x3", 1), ("cycle:5", 0), ("complete:4", 2)):
        g = graph_spec(spec)
        inst = identity_instance(g, "blank")
        table = distance_table(g, "blank", home)
        for state in sorted(table)[:: max(1, len(table) // 40)]:
            assert sliding_distance_by_meeting(inst, state, home) == table[state], (spec, state)
        assert sliding_distance_by_meeting(inst, next(iter(table)), home, most=1) in (None, 0)


def test_beyond_the_checkers_own_bfs_each_antipode_is_solved_again(monkeypatch):
    # as on boards too large for the checker's BFS: a corner's antipodes by the puzzle's
    # IDA* with pattern databases, the others by the search from both ends; the maximum
    # rests on the layers (verified in part)
    from pyasp_games.domains.routing import verify

    monkeypatch.setattr(verify, "CHECK_BFS_ARRANGEMENTS", 0)
    out = run_cli("routing", "number", "grid:2x3", "-m", "blank", "--json").json()
    assert out["stats"]["verified"] == "partial", out["stats"]
    assert "confirmed, by the puzzle's IDA* (a corner's) or the checker's search" in out["stats"]["verification"]
    assert out["stats"]["not_checked"].startswith("that no arrangement is farther")
    from pyasp_games.domains.routing.questions import read_number

    inst = read_number("grid:2x3", "blank")
    _refuted(inst, out, lambda d: d["witness"].reverse() or d.update(witness=d["witness"][:1])
             or d["witness"][0].update(home="0,1", blank="0,0", arrangement={"0,0": "0,1", "0,1": "0,0"},
                                       plan=[[["0,0", "0,1"]]] * 21))  # fmt: skip


def test_a_graph_with_a_cut_vertex_is_decided_without_searching_its_arrangements():
    # a graph with a cut vertex was searched completely (one level of that search
    # outlasted a 60 s limit by 70 s); Wilson's theorem block by block decides it at once
    from pyasp_games.domains.routing.model import parse_arrangement
    from pyasp_games.domains.routing.native import blank_solvability
    from pyasp_games.engines.graphs import graph_from_edges
    from pyasp_games.engines.limits import Limits

    # K20 with a path of 2 hung on one vertex: 22 x 19! arrangements reachable
    names = [f"k{i}" for i in range(20)]
    edges = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    graph = graph_from_edges([*edges, ("k0", "p1"), ("p1", "p2")])
    inst = parse_arrangement("# moves: blank\nblank k1\nk2 k3\nk3 k2\n", graph)
    started = time.process_time()
    verdict = blank_solvability(inst, Limits(time_limit=0.5).deadline())
    assert time.process_time() - started < 0.5  # the search took the whole limit
    assert verdict.solvable is True and "not 2-connected" in verdict.reason
