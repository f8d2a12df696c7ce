"""Routing: graph and arrangement files, generators, validation, the independent checker."""

from __future__ import annotations

import pytest

from pyasp_games.domains.routing.graph import grid_layout
from pyasp_games.domains.routing.model import load_instances, parse_arrangement
from pyasp_games.domains.routing.specs import graph_spec, read_graph
from pyasp_games.domains.routing.verify import verify_parity_unsolvable, verify_schedule
from pyasp_games.errors import InputError


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
    grid = grid_layout(graph_spec("grid:3x4"))
    assert (grid.rows, grid.cols, grid.cells) == (3, 4, tuple(range(12)))
    path = grid_layout(graph_spec("path:4"))
    assert (path.rows, path.cols) == (1, 4)
    for spec in ("cycle:6", "grid:3x3-1,1", "star:3", "heavy-hex:27"):
        assert grid_layout(graph_spec(spec)) is None, spec


def test_a_grid_is_recognised_by_its_names_in_any_order_and_by_its_shape():
    """Issue 20: a grid given as a file is a grid (by its 'r,c' names, or unnamed by its shape)."""
    import networkx as nx

    from pyasp_games.engines.graphs import graph_from_edges

    spec = graph_spec("grid:3x4")
    shuffled = sorted(spec.edges, key=lambda e: (e[1] * 7) % 12)
    named = graph_from_edges([(spec.names[u], spec.names[v]) for u, v in shuffled])
    grid = grid_layout(named)
    assert named.names != spec.names and (grid.rows, grid.cols) == (3, 4)
    assert [named.names[v] for v in grid.cells] == list(spec.names)
    g = nx.convert_node_labels_to_integers(nx.grid_2d_graph(4, 5), ordering="sorted")
    relabel = {v: f"q{(v * 7) % 20}" for v in g}  # unnamed, numbered out of order
    shape = graph_from_edges([(relabel[u], relabel[v]) for u, v in g.edges()])
    grid = grid_layout(shape)
    assert sorted((grid.rows, grid.cols)) == [4, 5]
    for r in range(grid.rows):  # every cell's right and lower neighbours are its edges
        for c in range(grid.cols):
            v = grid.cells[r * grid.cols + c]
            assert grid.cell(v) == (r, c)
            if c + 1 < grid.cols:
                assert grid.cells[r * grid.cols + c + 1] in shape.adj[v]
    ladder_plus = graph_from_edges([*shape.edges, (0, len(shape) - 1)][:])  # one edge too many
    assert grid_layout(ladder_plus) is None


@pytest.mark.parametrize(
    "spec, message",
    [
        ("path:3x", "expected path:N"),
        ("grid:3x", "expected grid:RxC"),
        ("random:3:4:5:6", "expected random:N"),
        ("heavy-hex:65", "heavy-hex:27 or heavy-hex:127"),
        ("grid:2x2-5,5", "no cell 5,5"),
        ("grid:3x3-0,1-1,0", "not connected"),
        ("moebius:5", "unknown graph spec"),
    ],
)
def test_malformed_specs_are_refused(spec, message):
    """Issue 20: 'path:3x' was read as path:3."""
    with pytest.raises(InputError, match=message):
        graph_spec(spec)


def test_heavy_hex_layouts():
    """IBM's coupling maps: 27 qubits, 28 couplers; 127 qubits, 144 couplers; degrees at most 3,
    the degree-3 qubits never adjacent (heavy-hex), and the two rows' bridges as IBM numbers them."""
    for qubits, couplers in ((27, 28), (127, 144)):
        g = graph_spec(f"heavy-hex:{qubits}")
        assert (len(g), len(g.edges)) == (qubits, couplers)
        assert g.names == tuple(str(q) for q in range(qubits))
        assert max(len(a) for a in g.adj) == 3
        assert not any(len(g.adj[u]) == 3 and len(g.adj[v]) == 3 for u, v in g.edges)
    eagle = graph_spec("heavy-hex:127").named_edges()
    for pair in [("0", "14"), ("14", "18"), ("12", "17"), ("17", "30"), ("32", "36"), ("36", "51"),
                 ("108", "112"), ("112", "126"), ("113", "114")]:  # fmt: skip
        assert frozenset(pair) in eagle


def test_coupling_maps(tmp_path):
    (tmp_path / "map.json").write_text("[[0, 1], [1, 0], [1, 2], [2, 1], [3, 2]]")
    g = read_graph(tmp_path / "map.json")
    assert g.names == ("0", "1", "2", "3") and g.edges == ((0, 1), (1, 2), (2, 3))
    (tmp_path / "conf.json").write_text('{"backend_name": "x", "coupling_map": [[0, 1], [1, 2]]}')
    assert len(read_graph(tmp_path / "conf.json").edges) == 2
    (tmp_path / "bad.json").write_text("[[0, 1], [1]]")
    with pytest.raises(InputError, match="list of pairs"):
        read_graph(tmp_path / "bad.json")


def test_node_link_ids_that_differ_are_not_merged(tmp_path):
    """Issue 20: node-link ids 0 and "0" merged into a self-loop."""
    (tmp_path / "g.json").write_text(
        '{"directed": false, "multigraph": false, "graph": {}, "nodes": [{"id": 0}, {"id": "0"}],'
        ' "links": [{"source": 0, "target": "0"}]}'
    )
    with pytest.raises(InputError, match="different but have the same name"):
        read_graph(tmp_path / "g.json")


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
    # the same graph given as well (its edges in another order): accepted
    (tmp_path / "h.txt").write_text("c b\nb a\n")
    assert load_instances(tmp_path / "x.txt", read_graph(tmp_path / "h.txt"))[0].state == (2, 1, 0)


def test_a_header_that_contradicts_the_graph_given_is_refused(tmp_path):
    """Issue 20: an arrangement's '# graph:' header that contradicts the GRAPH argument was ignored."""
    (tmp_path / "x.txt").write_text("# graph: path:3\n0 2\n2 0\n")
    with pytest.raises(InputError, match="names another graph than cycle:3"):
        load_instances(tmp_path / "x.txt", graph_spec("cycle:3"))
    (tmp_path / "y.txt").write_text("# graph: missing.txt\n0 2\n2 0\n")
    with pytest.raises(InputError, match=r"header: .*missing\.txt: no such file"):
        load_instances(tmp_path / "y.txt", graph_spec("path:3"))


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


@pytest.mark.parametrize(
    ("spec", "vertices"), [("path:5000", 5000), ("cycle:5000", 5000), ("star:4999", 5000), ("tree:5000", 5000)]
)
def test_a_spec_at_the_size_limit_is_taken_and_one_beyond_is_refused(spec, vertices):
    # path:5000 was refused as 5,001 vertices (the star's count, the centre added, was
    # used for every family)
    assert len(graph_spec(spec)) == vertices
    family, n = spec.split(":")
    with pytest.raises(InputError, match="at most 5,000 vertices"):
        graph_spec(f"{family}:{int(n) + 1}")


def test_a_graph_header_names_a_file_whose_name_holds_spaces(tmp_path):
    # the header's value was cut at its first space: 'my graph.txt' read as 'my'
    from pyasp_games.domains.routing.model import load_instances

    (tmp_path / "my graph.txt").write_text("a b\nb c\n")
    arrangement = tmp_path / "swap.txt"
    arrangement.write_text("# graph: my graph.txt\n# moves: swap\na c\nc a\n")
    (inst,) = load_instances(arrangement)
    assert sorted(inst.graph.names) == ["a", "b", "c"]
