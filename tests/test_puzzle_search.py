"""``puzzle search``: A* and IDA* on a weighted graph with a heuristic table, on the
thesis's toy graph (section 3.2.5) and random graphs against networkx, every claim
checked again from a saved answer and refuted when tampered, bad input one line."""

from __future__ import annotations

import copy
import random

import networkx as nx
import pytest

from pyasp_games.domains.puzzle.graph_search import SearchProblem, parse_weighted_graph, read_search
from pyasp_games.domains.puzzle.questions import SEARCH
from pyasp_games.engines.resources import instance_dir

from .conftest import run_cli
from .conftest import saved_answer as saved

PUZZLES = instance_dir("puzzle")
TOY, TOY_H = PUZZLES / "search" / "thesis-toy-graph.txt", PUZZLES / "search" / "thesis-toy-heuristic.txt"


def test_the_thesis_toy_graph():
    problem = read_search(TOY, TOY_H)
    star = SEARCH.ask(problem, "astar")
    assert star.verdict.verified is True and star.answer == 6
    assert star.witness["path"] == ["S", "A", "G"]
    # the thesis: f(A) = 2 + 2 = 4, f(B) = 4 + 1 = 5, cost 6; but A* expands B too (f 5 < 6)
    # before it selects G, where the thesis says "without exploring B"
    assert star.witness["expanded"] == [["S", 0, 0, 0], ["A", 2, 2, 4], ["B", 4, 1, 5]]
    ida = SEARCH.ask(problem, "idastar")
    assert ida.verdict.verified is True and ida.answer == 6
    assert [(r["threshold"], [e[0] for e in r["expanded"]]) for r in ida.witness["rounds"]] == [
        (0, ["S"]), (4, ["S", "A"]), (5, ["S", "A", "B"]), (6, ["S", "A"])
    ]
    assert sum(len(r["expanded"]) for r in ida.witness["rounds"]) == 8  # A* needs 3
    run = run_cli("puzzle", "search", TOY, "--heuristic", TOY_H, "--backend", "idastar")
    assert run.code == 0 and "round 3, threshold 5: expanded S (f=0), A (f=4), B (f=5)" in run.stdout


def random_problem(rng: random.Random) -> SearchProblem:
    n = rng.randint(2, 9)
    lines = ["# start: n0", f"# goal: n{n - 1}"] + [f"n{i}" for i in range(n)]
    for u in range(n):
        for v in rng.sample(range(n), rng.randint(0, min(3, n))):
            if u != v:
                lines.append(f"n{u} n{v} {rng.randint(0, 6)}")
    graph = parse_weighted_graph("\n".join(lines), name="random")
    g = nx.DiGraph((u, v, {"weight": w}) for u, out in graph.arcs.items() for v, w in out)
    g.add_nodes_from(graph.nodes)
    to_goal = nx.single_source_dijkstra_path_length(g.reverse(), graph.goal)
    alpha = rng.random()  # a scaled distance to the goal is consistent
    # a node that cannot reach the goal has a large h: an arc into it stays consistent
    h = {v: int(alpha * to_goal[v]) if v in to_goal else 100 for v in graph.nodes}
    return SearchProblem(graph, h)


def test_random_graphs_against_networkx():
    rng = random.Random(41)
    for _ in range(60):
        problem = random_problem(rng)
        for backend in ("astar", "idastar"):
            out = SEARCH.ask(problem, backend)
            assert out.verdict.verified is True, (backend, out.verdict.message)
            if out.status == "solved":
                assert out.verdict.kind == "exact"


def test_an_inconsistent_heuristic_is_not_claimed_cheapest(tmp_path):
    heuristic = tmp_path / "h.txt"
    heuristic.write_text("A 9\n")  # h(A) = 9 > cost(A, G) = 4: A* takes S -> B -> G
    for backend in ("astar", "idastar"):
        out = SEARCH.ask(read_search(TOY, heuristic), backend)
        assert out.answer == 7 and out.verdict.kind == "upper bound" and out.verdict.verified is True
        assert "the cheapest costs 6" in out.verdict.message
    run = run_cli("puzzle", "search", TOY, "--heuristic", heuristic)
    assert run.code == 0 and "cost 7 (not claimed cheapest)" in run.stdout


def test_no_path(tmp_path):
    graph = tmp_path / "g.txt"
    graph.write_text("# start: a\n# goal: c\na b 1\nc a 1\n")
    for backend in ("astar", "idastar"):
        run = run_cli("puzzle", "search", graph, "--backend", backend)
        assert run.code == 0 and "no path" in run.stdout and "verified" in run.stdout


@pytest.mark.parametrize("backend", ["astar", "idastar"])
def test_saved_and_tampered(backend):
    problem = read_search(TOY, TOY_H)
    data = saved(SEARCH.ask(problem, backend))
    assert SEARCH.recheck(problem, data).verdict.verified is True
    trace = "expanded" if backend == "astar" else "rounds"
    for change in (
        lambda d: d.update(answer=7),
        lambda d: d["witness"].update(path=["S", "B", "G"]),
        lambda d: d["witness"].update(path=["S", "G"], answer=0),
        lambda d: d["witness"][trace].pop(1),
    ):
        wrong = copy.deepcopy(data)
        change(wrong)
        assert SEARCH.recheck(problem, wrong).verdict.verified is False


@pytest.mark.parametrize(
    ("graph", "heuristic", "said"),
    [
        ("# start: S\n# goal: G\nS G -1\n", "", "the value -1 is negative"),
        ("# start: S\n# goal: G\nS G 1\n", "X 3\n", "X is not a node of g.txt"),
        ("# start: S\n# goal: G\nS G 1\n", "G -2\n", "the value -2 is negative"),
        ("# start: S\n# goal: G\nS G 1.5\n", "", "'1.5' is not an integer"),
        ("# goal: G\nS G 1\n", "", "no start node"),
        ("# start: T\n# goal: G\nS G 1\n", "", "the start node T is not in the graph"),
        ("# start: S\n# goal: G\nS G 1\nS G 2\n", "", "the arc S G is given twice"),
        ("# start: S\n# goal: G\nS G\n", "", "expected 'u v cost' or one node name"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, graph, heuristic, said):
    (tmp_path / "g.txt").write_text(graph)
    (tmp_path / "h.txt").write_text(heuristic)
    run = run_cli("puzzle", "search", tmp_path / "g.txt", "--heuristic", tmp_path / "h.txt")
    assert run.code == 2 and said in run.stderr, run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


@pytest.mark.xdist_group("timing")
def test_idastar_honours_the_time_limit(tmp_path):
    # every simple path of a complete digraph on 13 nodes, the goal out of reach
    graph = tmp_path / "k13.txt"
    arcs = [f"n{u} n{v} 1" for u in range(13) for v in range(13) if u != v]
    graph.write_text("# start: n0\n# goal: z\nz\n" + "\n".join(arcs) + "\n")
    run = run_cli("puzzle", "search", graph, "--backend", "idastar", "--time-limit", "0.25")
    assert run.code == 3 and "unknown" in run.stdout and run.seconds < 5
    done = run_cli("puzzle", "search", graph)  # A* closes each node once: no path, at once
    assert done.code == 0 and "no path" in done.stdout and "n0 (0+0=0)" in done.stdout
