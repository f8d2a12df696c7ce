"""The one graph reader (game graphs and undirected graphs): formats, names, errors, and
graph algorithms."""

from __future__ import annotations

import json
import re

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyasp_games.engines.graphs import Digraph, Graph, from_arcs, parse_arcs, read_graph
from pyasp_games.errors import InputError


def test_arc_list_names_comments_isolated_positions_and_headers():
    g = parse_arcs(
        "# grundy-functions: 2\n# a comment\nx1 y-2  # trailing\ny-2 x1\nlonely\nx1 y-2\n"
    )
    assert g.names == ("x1", "y-2", "lonely")
    assert g.succ == ((1,), (0,), ())  # the duplicate arc is dropped
    assert g.headers == {"grundy-functions": "2"}
    assert g.pred == ((1,), (0,), ())


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("a b c\n", "line 1"),
        ("", "empty"),
        ("# only a comment\n", "empty"),
    ],
)
def test_bad_arc_lists(text, fragment):
    with pytest.raises(InputError, match=fragment):
        parse_arcs(text)


def test_networkx_formats_by_extension_and_by_option(tmp_path):
    g = nx.DiGraph([("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")])
    g.add_node("e")
    nx.write_graphml(g, tmp_path / "g.graphml")
    (tmp_path / "g.json").write_text(json.dumps(nx.node_link_data(g, edges="edges")))
    nx.write_adjlist(g, tmp_path / "g.adjlist")
    (tmp_path / "g.txt").write_text("a b\nb c\nc a\nc d\ne\n")
    nx.write_adjlist(g, tmp_path / "adj.txt")
    expected = {("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")}
    for path, fmt in [
        ("g.graphml", None),
        ("g.json", None),
        ("g.adjlist", None),
        ("g.txt", None),
        ("adj.txt", "adjlist"),
    ]:
        read = read_graph(tmp_path / path, fmt)
        arcs = {(read.names[u], read.names[v]) for u, v in read.arcs()}
        assert arcs == expected and set(read.names) == set("abcde"), path


def test_reader_errors_are_input_errors(tmp_path):
    undirected = tmp_path / "u.graphml"
    nx.write_graphml(nx.Graph([(1, 2)]), undirected)
    (tmp_path / "bad.json").write_text("[1, 2]")
    (tmp_path / "broken.graphml").write_text("<graphml><graph")
    cases = [
        (tmp_path / "missing.txt", None, "no such file"),
        (undirected, None, "undirected"),
        (tmp_path / "bad.json", None, "node-link"),
        (tmp_path / "broken.graphml", None, "cannot read it as graphml"),
        (undirected, "dot", "unknown graph format"),
    ]
    for path, fmt, fragment in cases:
        with pytest.raises(InputError, match=fragment):
            read_graph(path, fmt)
    with pytest.raises(InputError, match="no position named 'zz'"):
        parse_arcs("a b\n").position("zz")



def test_one_reader_reads_every_format_as_a_digraph_or_an_undirected_graph(tmp_path):
    """Each format read both ways: a Digraph of the arcs as written, or a Graph whose edges
    are the arcs either way round (a Graph is a Digraph whose arcs come in pairs)."""
    arcs = [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")]
    g = nx.DiGraph(arcs)
    nx.write_graphml(g, tmp_path / "g.graphml")
    (tmp_path / "g.json").write_text(json.dumps(nx.node_link_data(g, edges="edges")))
    nx.write_adjlist(g, tmp_path / "g.adjlist")
    (tmp_path / "g.txt").write_text("# about: four\na b\nb c\nc a\nc d\nb a\n")
    for path in ("g.graphml", "g.json", "g.adjlist", "g.txt"):
        game = read_graph(tmp_path / path)
        assert type(game) is Digraph and game.directed
        undirected = read_graph(tmp_path / path, undirected=True)
        assert isinstance(undirected, Graph) and not undirected.directed
        assert undirected.named_edges() == {frozenset(a) for a in arcs}, path
        assert {(undirected.names[u], undirected.names[v]) for u, v in undirected.arcs()} == {
            p for a in arcs for p in (a, a[::-1])
        }
        assert undirected.succ == undirected.adj and undirected.to_networkx().is_directed() is False
    assert read_graph(tmp_path / "g.txt", undirected=True).headers == {"about": "four"}
    # a coupling map: its pairs are arcs (couplers one way), or edges
    (tmp_path / "map.json").write_text("[[0, 1], [1, 0], [2, 1]]")
    directed = read_graph(tmp_path / "map.json")
    assert directed.names == ("0", "1", "2") and set(directed.arcs()) == {(0, 1), (1, 0), (2, 1)}
    assert read_graph(tmp_path / "map.json", undirected=True).edges == ((0, 1), (1, 2))


@pytest.mark.parametrize(
    ("name", "text", "fragment"),
    [
        ("loop.txt", "a b\nb b\n", "self-loop at 'b'"),
        ("three.txt", "a b c\n", "line 1: expected 'u v' (an edge)"),
        ("empty.txt", "# nothing\n", "empty"),
        ("list.json", "[1, 2]", "node-link JSON (an object with 'nodes' and edges) or a coupling map"),
        ("names.json", '{"nodes": [{"id": 1}, {"id": "1"}], "links": []}', "different but have the same name"),
        ("space.json", '{"nodes": [{"id": "a b"}], "links": []}', "not a token"),
    ],
)
def test_undirected_reader_errors_are_one_line(tmp_path, name, text, fragment):
    (tmp_path / name).write_text(text)
    with pytest.raises(InputError, match=re.escape(fragment)) as caught:
        read_graph(tmp_path / name, undirected=True)
    assert "\n" not in str(caught.value) and str(caught.value).startswith(name)

digraphs = st.integers(1, 9).flatmap(
    lambda n: st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3 * n).map(
        lambda arcs: from_arcs(arcs, range(n))
    )
)


@settings(max_examples=60, deadline=None)
@given(digraphs)
def test_components_cycles_and_order_agree_with_networkx(g):
    h = g.to_networkx()
    ours = {frozenset(g.names[v] for v in c) for c in g.strongly_connected_components()}
    assert ours == {frozenset(c) for c in nx.strongly_connected_components(h)}
    where = {v: i for i, c in enumerate(g.strongly_connected_components()) for v in c}
    assert all(where[v] <= where[u] for u, v in g.arcs())  # sinks first
    cycle = g.find_cycle()
    assert (cycle is None) == nx.is_directed_acyclic_graph(h)
    if cycle:
        assert all(cycle[(i + 1) % len(cycle)] in g.succ[v] for i, v in enumerate(cycle))
    order = g.topological_order()
    assert (order is None) == (cycle is not None)
    if order is not None:
        rank = {v: i for i, v in enumerate(order)}
        assert all(rank[v] < rank[u] for u, v in g.arcs())
    again = parse_arcs(g.format_arcs())

    def named(x):
        return {(x.names[u], x.names[v]) for u, v in x.arcs()}

    assert named(again) == named(g) and set(again.names) == set(g.names)
