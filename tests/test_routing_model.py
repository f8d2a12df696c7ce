"""Routing: graph and arrangement files, generators, validation, the independent checker."""

from __future__ import annotations

import pytest

from pyasp_games.errors import InputError
from pyasp_games.routing.model import graph_spec, load_instances, parse_arrangement, read_graph
from pyasp_games.routing.verify import verify_parity_unsolvable, verify_schedule


@pytest.mark.parametrize(
    "spec, n, m",
    [
        ("path:5", 5, 4),
        ("cycle:6", 6, 6),
        ("star:4", 5, 4),
        ("complete:5", 5, 10),
        ("bipartite:2,3", 5, 6),
        ("grid:3x4", 12, 17),
        ("hypercube:3", 8, 12),
        ("tree:9:4", 9, 8),
        ("random:8:3", 8, 16),
        ("random:8:10:3", 8, 10),
    ],
)
def test_generators(spec, n, m):
    g = graph_spec(spec)
    assert (len(g), len(g.edges)) == (n, m)
    assert graph_spec(spec).edges == g.edges  # deterministic


def test_grid_shape_is_recognised():
    assert graph_spec("grid:3x4").grid == (3, 4)
    assert graph_spec("path:4").grid is None


def test_graph_formats(tmp_path):
    import json

    import networkx as nx

    (tmp_path / "g.txt").write_text("# a path\na b\nb c\n")
    assert len(read_graph(tmp_path / "g.txt").edges) == 2
    nx.write_graphml(nx.cycle_graph(4), tmp_path / "g.graphml")
    assert len(read_graph(tmp_path / "g.graphml").edges) == 4
    (tmp_path / "g.json").write_text(json.dumps(nx.node_link_data(nx.path_graph(3), edges="edges")))
    assert len(read_graph(tmp_path / "g.json").edges) == 2


@pytest.mark.parametrize(
    "graph_text, arrangement, message",
    [
        ("a b\nc d\n", "", "not connected"),
        ("a b\nb c\n", "a b\na c\n", "duplicate pebble"),
        ("a b\nb c\n", "a b\nc b\n", "both go to"),
        ("a b\nb c\n", "a x\n", "unknown vertex"),
        ("a b\nb c\n", "a b\n", "wrong count"),
        ("a b\nb c\n", "a b c\n", "expected"),
        ("a a\n", "", "self-loop"),
        ("", "", "empty"),
    ],
)
def test_bad_input(tmp_path, graph_text, arrangement, message):
    (tmp_path / "g.txt").write_text(graph_text)
    with pytest.raises(InputError, match=message):
        g = read_graph(tmp_path / "g.txt")
        parse_arrangement(arrangement, g)


def test_blank_rule_needs_a_blank():
    with pytest.raises(InputError, match="blank"):
        parse_arrangement("# moves: blank\n0 1\n1 0\n", graph_spec("path:2"))


def test_bundled_header_names_the_graph(tmp_path):
    (tmp_path / "g.txt").write_text("a b\nb c\n")
    (tmp_path / "x.txt").write_text("# graph: g.txt\n# known: 3\na c\nc a\n")
    inst = load_instances(tmp_path / "x.txt")[0]
    assert inst.known == 3 and inst.state == (2, 1, 0)


EDGES = [("a", "b"), ("b", "c"), ("c", "d")]


def test_checker_rejects_bad_schedules():
    start = {"a": "b", "b": "a", "c": "c", "d": "d"}
    assert verify_schedule(EDGES, start, "matching", [[("a", "b")]]).ok
    assert "not an edge" in verify_schedule(EDGES, start, "matching", [[("a", "c")]]).message
    assert "not home" in verify_schedule(EDGES, start, "matching", [[("c", "d")]]).message
    assert "one edge" in verify_schedule(EDGES, start, "swap", [[("a", "b"), ("c", "d")]]).message
    assert "moves nothing" in verify_schedule(EDGES, start, "matching", [[]]).message
    # the blank on c: a-b does not touch it
    assert "blank" in verify_schedule(EDGES, start, "blank", [[("a", "b")]], blank="c").message


def test_parity_refutation():
    grid = [("a", "b"), ("b", "c"), ("d", "e"), ("e", "f"), ("a", "d"), ("b", "e"), ("c", "f")]
    start = {v: v for v in "abcdef"} | {"a": "b", "b": "a"}
    assert verify_parity_unsolvable(grid, start, "f").ok
    assert not verify_parity_unsolvable(grid, {v: v for v in "abcdef"}, "f").ok
