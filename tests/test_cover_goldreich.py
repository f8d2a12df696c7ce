"""X3C -> the 15-puzzle on a graph (``reduce x3c-to-puzzle``): both directions, on every
small X3C instance by brute force on the X3C side and the routing domain's IDA* on the
puzzle side, on the bundled instances, and through the command line."""

from __future__ import annotations

import json
from itertools import combinations, combinations_with_replacement, permutations

import networkx as nx
import pytest

from pyasp_games.domains.cover.goldreich import (
    bound,
    check_both_ways,
    cover_from_plan,
    lower_bound,
    plan_from_cover,
    x3c_to_puzzle,
)
from pyasp_games.domains.cover.model import X3C, as_x3c, load_instance, small_x3c
from pyasp_games.domains.cover.reductions import map_back
from pyasp_games.domains.cover.verify import check_cover
from pyasp_games.domains.routing.native import blank_solvability, idastar
from pyasp_games.domains.routing.verify import verify_schedule
from pyasp_games.engines.limits import Deadline
from pyasp_games.engines.resources import instance_dir
from pyasp_games.errors import InputError

from .conftest import assert_bad_input, run_cli

COVER = instance_dir("cover")


def brute_covers(x3c: X3C) -> list[list[int]]:
    """Every exact cover, by trying every q subsets (the reference: no dancing links)."""
    return [list(c) for c in combinations(range(len(x3c.subsets)), x3c.q)
            if check_cover(x3c.size, x3c.subsets, list(c))[0]]  # fmt: skip


def min_gates(x3c: X3C) -> int:
    """The fewest gates reaching every element: subsets, and a gate of its own for an
    element in fewer than two subsets (a minimum set cover, by brute force)."""
    count = [0] * x3c.size
    for s in x3c.subsets:
        for e in s:
            count[e] += 1
    sets = [set(s) for s in x3c.subsets] + [{e} for e in range(x3c.size) if count[e] < 2]
    for k in range(len(sets) + 1):
        if any(set().union(*c) == set(range(x3c.size)) for c in combinations(sets, k)):
            return k
    raise AssertionError("the gates reach every element")


def names(puzzle, schedule):
    g = puzzle.graph
    return [[[g.names[u], g.names[v]] for u, v in step] for step in schedule]


def replay(puzzle, plan):
    g = puzzle.graph
    edges = [(g.names[u], g.names[v]) for u, v in g.edges]
    start = {g.names[v]: g.names[t] for v, t in enumerate(puzzle.state)}
    return verify_schedule(edges, start, "blank", plan, "hub")


def test_the_graph_has_the_stated_shape():
    x3c = as_x3c(load_instance(COVER / "tiny-cover.txt"))  # element 5 is in one subset
    puzzle, back = x3c_to_puzzle(x3c)
    g = nx.Graph(puzzle.graph.to_networkx())
    k, m, u, q = 5, 4, 1, 2
    assert (len(g), g.number_of_edges()) == (2 + k + 9 * q, 2 * k + 6 * m + 2 * u + 6 * q)
    assert nx.is_bipartite(g) and nx.is_biconnected(g)  # Wilson's theorem applies
    assert blank_solvability(puzzle).solvable is True
    assert back["bound"] == bound(q) == 28 and lower_bound(q) == 24


SMALL = [x for x in small_x3c() if x.q <= 2]


def both_ways(x3c: X3C, optimum: bool) -> None:
    """A cover exists iff the puzzle is solvable within 14q moves (IDA* within the
    bound); with ``optimum``, the optimum is 12q + 2 (the fewest gates); every cover's
    plan has 14q moves and maps back to it; a plan within the bound maps back to a cover."""
    covers = brute_covers(x3c)
    puzzle, back = x3c_to_puzzle(x3c)
    # IDA* exhausts every shorter budget: its plan is optimal
    found, _ = idastar(puzzle, Deadline(600), None if optimum else back["bound"])
    assert (found is not None and len(found) <= back["bound"]) == bool(covers), x3c
    if found is not None:
        plan = names(puzzle, found)
        assert replay(puzzle, plan).ok
        if optimum:
            assert len(plan) == lower_bound(x3c.q) + 2 * min_gates(x3c)
        if covers:
            assert sorted(cover_from_plan(back, plan)) in covers
        else:
            with pytest.raises(InputError, match="more than the bound"):
                cover_from_plan(back, plan)
    for cover in covers:
        plan = plan_from_cover(x3c, cover)
        assert len(plan) == back["bound"] and replay(puzzle, plan).ok
        assert cover_from_plan(back, plan) == cover


def test_every_small_instance_both_ways():
    """Every X3C of 3 elements (at most 2 subsets) and of 6 (at most 3), up to renaming."""
    for x3c in SMALL:
        both_ways(x3c, optimum=False)


@pytest.mark.parametrize("x3c", [x for x in SMALL if x.q == 1], ids=lambda x: x.name)
def test_the_optimum_is_twice_the_fewest_gates_above_the_distances(x3c):
    both_ways(x3c, optimum=True)


@pytest.mark.parametrize("name", ["tiny-cover.txt", "tiny-none.txt"])
def test_bundled_instances_both_ways(name):
    report = check_both_ways(as_x3c(load_instance(COVER / name)))
    assert report["puzzle"]["searched"] and report["agree"] is True
    assert report["puzzle"]["within_bound"] == (name != "tiny-none.txt")
    if report["cover"] is not None:
        assert report["cover_plan"]["replayed"] and report["cover_plan"]["maps_back"]
        assert report["puzzle"]["mapped_exact"]


def test_a_large_cover_maps_to_a_plan_of_the_bound():
    """q = 30: the cover's plan is replayed (the puzzle, 400-odd vertices, is not searched:
    the "no" side of the unplanted instance rests on the X3C side)."""
    planted = check_both_ways(as_x3c(load_instance(COVER / "regular-q30-d5-planted.txt")))
    plan = planted["cover_plan"].pop("plan")
    assert planted["cover_plan"] == {"moves": 420, "replayed": True, "maps_back": True,
                                     "message": "420 steps replayed; every pebble on its target"}  # fmt: skip
    assert len(plan) == 420 and plan[0] == [["hub", f"s{planted['cover'][0]}"]]
    assert planted["agree"] is None and not planted["puzzle"]["searched"]
    assert "X3C side only" in planted["puzzle"]["why"]


def test_map_back_refuses_what_proves_nothing():
    x3c = as_x3c(load_instance(COVER / "tiny-cover.txt"))
    _, back = x3c_to_puzzle(x3c)
    plan = plan_from_cover(x3c, [0, 1])
    assert map_back(back, plan) == [0, 1]
    assert map_back(back, [e for step in plan for e in step]) == [0, 1]  # a flat list of moves
    detour = [*plan[:1], [["s0", "hub"]], [["hub", "s0"]], *plan[1:]]  # 30 moves
    with pytest.raises(InputError, match="more than the bound 28"):
        map_back(back, detour)
    with pytest.raises(InputError, match="not an edge at the blank"):
        map_back(back, [[["s0", "e0a"]]])
    with pytest.raises(InputError, match="does not solve"):
        map_back(back, plan[:-1])
    with pytest.raises(InputError, match="not an exact cover"):
        plan_from_cover(x3c, [0, 2])


def test_the_command_writes_three_files_and_the_plan_maps_back(tmp_path):
    out = tmp_path / "tiny.txt"
    run = run_cli("reduce", "x3c-to-puzzle", COVER / "tiny-cover.txt", "-o", out)
    assert run.code == 0, run.stderr
    graph, mapping = tmp_path / "tiny.graph.txt", tmp_path / "tiny.txt.map.json"
    assert graph.is_file() and mapping.is_file() and "# bound: 28" in out.read_text()
    assert_bad_input(run_cli("reduce", "x3c-to-puzzle", COVER / "tiny-cover.txt", "-o", out), "exists")
    solved = run_cli("routing", "solve", graph, out, "--max-length", "28", "--json")
    assert solved.json()["status"] == "solved" and solved.json()["answer"] == 28
    (tmp_path / "plan.json").write_text(solved.stdout)
    back = run_cli("reduce", "back", mapping, tmp_path / "plan.json")
    assert json.loads(back.stdout) == [0, 1]


def test_the_command_checks_both_sides_and_refuses_bad_input(tmp_path):
    run = run_cli("reduce", "x3c-to-puzzle", COVER / "tiny-none.txt", "--check", "--json")
    assert run.code == 0 and run.json()["check"]["agree"] is True and run.json()["bound"] == 28
    assert run.json()["check"]["puzzle"]["within_bound"] is False
    assert_bad_input(run_cli("reduce", "x3c-to-puzzle", COVER / "tiny-none.txt", "--graph",
                             tmp_path / "g.txt"), "--graph needs -o")  # fmt: skip
    assert_bad_input(run_cli("reduce", "x3c-to-puzzle", tmp_path / "missing.txt"), "missing.txt")
    assert_bad_input(run_cli("reduce", "x3c-to-puzzle", COVER / "tiny-none.txt", "--check",
                             "--search-vertices", "-1"), "--search-vertices")  # fmt: skip
    huge = tmp_path / "huge.txt"
    huge.write_text("903\n0 1 2\n")
    assert_bad_input(run_cli("reduce", "x3c-to-puzzle", huge), "beyond this tool's limits")


def _every_x3c(q: int, most: int):
    """Every X3C instance over 3q elements with at most ``most`` subsets, up to renaming."""
    triples = list(combinations(range(3 * q), 3))
    renamings = list(permutations(range(3 * q)))
    seen = set()
    for m in range(most + 1):
        for chosen in combinations_with_replacement(triples, m):
            canonical = min(tuple(sorted(tuple(sorted(p[e] for e in s)) for s in chosen))
                            for p in renamings)  # fmt: skip
            if canonical not in seen:
                seen.add(canonical)
                yield X3C(3 * q, canonical, name=f"q{q}-{len(seen)}")


@pytest.mark.slow
def test_every_instance_of_six_elements_and_four_subsets_and_q3_both_ways():
    """Slow (a few minutes): every X3C of 6 elements with up to 4 subsets, the optimum
    of every small one, the structured ones of 9 elements and the bundled 3DM instance,
    both sides decided independently."""
    for x3c in _every_x3c(2, 4):
        both_ways(x3c, optimum=False)
    for x3c in SMALL:
        both_ways(x3c, optimum=True)
    for x3c in small_x3c():
        if x3c.q == 3:
            both_ways(x3c, optimum=False)
    report = check_both_ways(as_x3c(load_instance(COVER / "matching-small.txt")))
    assert report["agree"] is True and report["puzzle"]["mapped_exact"]


@pytest.mark.xdist_group("timing")
def test_the_check_keeps_its_time_limit(tmp_path):
    """q = 4: the puzzle's search outlasts 0.3 s; the X3C side is printed, exit 3."""
    from pyasp_games.domains.cover.model import format_x3c, random_x3c

    hard = tmp_path / "q4.txt"
    hard.write_text(format_x3c(random_x3c(4, 2, seed=1)))
    run = run_cli("reduce", "x3c-to-puzzle", hard, "--check", "--search-vertices", "200",
                  "--time-limit", "0.3")  # fmt: skip
    assert run.code == 3 and "x3c: no exact cover" in run.stdout
    assert "puzzle: unknown (the time limit was reached" in run.stdout and run.seconds < 5
