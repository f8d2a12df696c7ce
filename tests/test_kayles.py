"""Node Kayles: published values (Dawson's chess), the cycle rule, the three backends on
the networkx atlas, the checker rejecting wrong answers, the reductions and the
isomorphism table, and the command line on hostile input."""

from __future__ import annotations

import random
from pathlib import Path

import networkx as nx
import pytest

from pyasp_games.domains import domain_spec, kayles
from pyasp_games.domains.kayles.isomorphism import ComponentTable, Shape, isomorphic
from pyasp_games.domains.kayles.model import Family, family_graph, parse_family, random_graph
from pyasp_games.domains.kayles.native import Search, solve_native
from pyasp_games.domains.kayles.octal import path_values, period_certificate
from pyasp_games.domains.kayles.questions import SEQUENCE, VALUE
from pyasp_games.domains.kayles.verify import check_value
from pyasp_games.engines.graphs import numbered_graph
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.resources import instance_dir

from .conftest import assert_bad_input, run_cli
from .conftest import saved_answer as _saved

#: OEIS A002187 (Sprague-Grundy values of Dawson's chess, the octal game .137), a(0..119),
#: as published.
A002187 = [
    0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4,
    5, 2, 7, 4, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2, 3, 3, 0, 1, 1, 3, 0, 2,
    1, 1, 0, 4, 5, 3, 7, 4, 8, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 9, 3, 3, 0, 1,
    1, 3, 0, 2, 1, 1, 0, 4, 5, 3, 7, 4, 8, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 9,
]  # fmt: skip


def graph_of(g: nx.Graph, name: str = "g"):
    g = nx.convert_node_labels_to_integers(g)
    return numbered_graph(g.number_of_nodes(), list(g.edges()), name)


def brute_force(graph) -> int:
    """The value by the definition: mex over every move, memoised on vertex sets only."""
    closed = [(1 << v) | sum(1 << w for w in graph.adj[v]) for v in range(len(graph))]
    memo: dict[int, int] = {}

    def value(mask: int) -> int:
        if mask not in memo:
            seen = {value(mask & ~closed[v]) for v in range(len(graph)) if mask >> v & 1}
            k = 0
            while k in seen:
                k += 1
            memo[mask] = k
        return memo[mask]

    return value((1 << len(graph)) - 1)


# -- Dawson's chess ------------------------------------------------------------------------


def test_paths_are_the_published_sequence():
    assert path_values(119) == A002187


def test_period_34_and_the_exceptions_are_proved_from_the_values():
    cert = period_certificate()
    assert (cert["period"], cert["preperiod"]) == (34, 52)
    assert cert["exceptions"] == [0, 14, 16, 17, 31, 34, 51]  # as OEIS states them
    g = path_values(400)
    assert all(g[n] == g[n + 34] for n in range(52, 366))
    assert all(g[n] != g[n + 34 * 3] for n in cert["exceptions"])


def test_paths_up_to_1000_by_the_component_recursion():
    """A move on P_n leaves two paths P_a + P_b: the recursion on their XOR, run to 1,000
    here, against the command's sequence (recursion to 271, the proved period beyond)."""
    g = [0]
    for n in range(1, 1001):
        seen = {g[max(i - 1, 0)] ^ g[max(n - i - 2, 0)] for i in range(n)}
        k = 0
        while k in seen:
            k += 1
        g.append(k)
    out = SEQUENCE.ask(parse_family("path", 1000), "native")
    assert out.answer == g and out.verdict.verified is True


@pytest.mark.parametrize("n", [1, 2, 3, 14, 17, 51, 52, 1000])
def test_path_graphs_by_the_search(n):
    graph = family_graph(Family("path"), n)
    out = kayles.solve(graph, "native")
    assert out.answer == path_values(n)[n] and out.verdict.verified is True


@pytest.mark.parametrize("n", range(3, 13))
def test_path_graphs_without_reductions(n):
    assert solve_native(family_graph(Family("path"), n), reductions=False).answer == A002187[n]


@pytest.mark.parametrize("n", [4, 5, 7, 12, 20, 37, 55])
def test_every_first_move_on_a_cycle_leaves_the_path_n_minus_3(n):
    graph = family_graph(Family("cycle"), n)
    backends = ["native", "asp", "expanded"] if n <= 12 else ["native"]
    for backend in backends:
        out = kayles.solve(graph, backend)
        assert out.verdict.verified is True
        assert set(out.witness["options"].values()) == {path_values(n)[n - 3]}
        assert out.answer == (1 if A002187[n - 3] == 0 else 0) if n - 3 < 120 else True


# -- the published tables: Brown et al. 2020 and the OEIS entries it deposited -------------
#
# S. Brown, S. Daugherty, E. Fiorini, B. Maldonado, D. Manzano-Ruiz, S. Rainville,
# R. Waechter, T. W. H. Wong, "Nimber sequences of Node-Kayles games", Journal of
# Integer Sequences 23 (2020), Article 20.3.5. Its tables are the OEIS entries below
# (each cites the article); the terms are copied as OEIS publishes them (n from the
# entry's offset). benchmarks/RESULTS.md ("Node Kayles: the published tables") says
# how far each was compared and at what cost.

#: OEIS A316632: P_3 x P_n, n = 1..16.
A316632 = [2, 1, 1, 0, 3, 3, 2, 2, 2, 3, 3, 5, 2, 4, 1, 3]
#: OEIS A317367: P_n(3), the path with the edges between vertices 3 apart, n = 4..108.
A317367 = [
    0, 2, 1, 3, 0, 1, 1, 3, 0, 2, 3, 3, 2, 2, 3, 4, 2, 4, 0, 4, 2, 5, 3, 2, 2, 3, 3, 2, 0, 3,
    1, 1, 0, 3, 1, 2, 0, 3, 1, 2, 0, 1, 1, 4, 0, 4, 5, 4, 7, 2, 6, 4, 7, 5, 0, 4, 1, 1, 0, 2,
    1, 3, 0, 2, 1, 3, 0, 1, 1, 3, 0, 2, 3, 3, 2, 2, 7, 4, 6, 5, 4, 4, 5, 5, 7, 2, 6, 3, 3, 2,
    0, 3, 1, 1, 0, 3, 1, 2, 0, 3, 1, 2, 0, 1, 1,
]  # fmt: skip
#: OEIS A316781: n linked diamonds, n = 1..93.
A316781 = [
    2, 1, 0, 3, 3, 1, 4, 2, 6, 5, 0, 2, 7, 1, 4, 3, 3, 1, 4, 7, 7, 5, 0, 2, 8, 4, 4, 6, 3, 1,
    8, 7, 7, 5, 0, 2, 2, 1, 4, 6, 3, 1, 8, 2, 7, 5, 0, 2, 8, 1, 4, 6, 3, 1, 4, 2, 7, 5, 0, 2,
    8, 1, 4, 6, 3, 1, 8, 7, 7, 5, 0, 2, 8, 1, 4, 6, 3, 1, 8, 2, 7, 5, 0, 2, 8, 1, 4, 6, 3, 1,
    8, 2, 7,
]  # fmt: skip
#: OEIS A316629: n linked 4-cycles on a path (the semi-regular graph), n = 1..90.
A316629 = [
    0, 1, 3, 4, 2, 3, 1, 2, 0, 4, 6, 5, 7, 3, 2, 7, 6, 2, 0, 2, 1, 3, 2, 4, 3, 5, 0, 3, 1, 2,
    10, 1, 11, 2, 1, 9, 7, 8, 4, 9, 5, 3, 1, 2, 7, 4, 9, 7, 6, 9, 7, 8, 4, 3, 5, 2, 6, 5, 10, 4,
    9, 14, 0, 4, 11, 8, 13, 3, 7, 2, 3, 9, 5, 3, 4, 5, 7, 4, 9, 7, 8, 9, 7, 8, 6, 9, 5, 10, 16, 5,
]  # fmt: skip


def _published(name: str) -> tuple[int, list[int]]:
    """The first member and the published terms of a family (the OEIS comments of
    A316632 and A316629 for the ladders, the 4 x n grids and the chained 4-cycles)."""
    return {
        "grid:2": (1, [n % 2 for n in range(1, 41)]),  # A316632's comment: A000035
        "grid:3": (1, A316632),
        "grid:4": (1, [0] * 12),  # A316632's comment: A000004
        "3-path": (4, A317367),
        "linked-diamonds": (1, A316781),
        "linked-4-cycles": (1, A316629),
        "chained-4-cycles": (1, [0 if n % 2 else 1 for n in range(1, 41)]),  # A316629's comment
    }[name]


#: How many published terms the default run compares (a few seconds in all); the slow
#: test compares them all.
QUICK = {"grid:2": 10, "grid:3": 6, "grid:4": 4, "3-path": 26, "linked-diamonds": 10,
         "linked-4-cycles": 10, "chained-4-cycles": 10}  # fmt: skip


def _compare(name: str, count: int | None) -> None:
    first, terms = _published(name)
    terms = terms if count is None else terms[:count]
    family = parse_family(name, first + len(terms) - 1)
    out = SEQUENCE.ask(family, "native")
    assert out.status == "solved" and out.verdict.verified is True, out.verdict.message
    assert out.answer[first - family.first :] == terms


@pytest.mark.parametrize("name", list(QUICK))
def test_the_published_families(name):
    _compare(name, QUICK[name])


@pytest.mark.parametrize("name", list(QUICK))
def test_the_published_families_by_the_expanded_game_graph(name):
    """The referee: the first members' values by the expanded game graph answered by
    the grundy domain (no component search at all) against the published terms."""
    first, terms = _published(name)
    family = Family(*parse_family(name).__dict__.values())
    for n, term in zip(range(first, first + 6), terms, strict=False):
        graph = family_graph(family, n)
        if len(graph) > 16:
            break
        out = kayles.solve(graph, "expanded")
        assert out.verdict.verified is True and out.answer == term, (name, n)


# -- the article's other families: prisms, hypercubes, generalized Petersen graphs ---------
#
# Brown et al. study these too, but no table of their values (no OEIS entry) was found to
# compare with; what is proved independently of any search is compared instead: a graph
# with a fixed-point-free automorphism of order two that maps no vertex to a neighbour is
# a second-player win (value 0) by the mirror strategy (answer each move by its image).
# Rotating by half a turn is one for the prism and GP(n, K) of even n (n >= 4), the
# antipodal map x -> ~x for the hypercube Q_d (d >= 2); GP(n, 1) is the prism.


def _mirror_zero(name: str, n: int) -> bool:
    """Whether member ``n`` of the family is a value-0 graph by the mirror strategy."""
    if name == "hypercube":
        return n >= 2
    return n % 2 == 0 and n >= 4  # prism, generalized-petersen:K (n >= 2K + 1)


SYMMETRIC = {"prism": 10, "hypercube": 4, "generalized-petersen:2": 10, "generalized-petersen:3": 10}


def _symmetric(name: str, upto: int) -> list[int]:
    family = parse_family(name, upto)
    out = SEQUENCE.ask(family, "native")
    assert out.status == "solved" and out.verdict.verified is True, out.verdict.message
    for n, value in zip(range(family.first, upto + 1), out.answer, strict=True):
        if _mirror_zero(name.split(":")[0], n):
            assert value == 0, (name, n, value)
    return out.answer


@pytest.mark.parametrize("name", list(SYMMETRIC))
def test_the_article_s_symmetric_families_are_zero_where_the_mirror_strategy_says(name):
    _symmetric(name, SYMMETRIC[name])


def test_the_prism_is_gp_n_1_and_the_complete_graphs_are_one():
    prism = SEQUENCE.ask(parse_family("prism", 9), "native").answer
    assert prism == SEQUENCE.ask(parse_family("generalized-petersen:1", 9), "native").answer
    complete = SEQUENCE.ask(parse_family("complete", 9), "native")
    assert complete.answer == [0] + [1] * 9 and complete.verdict.verified is True


@pytest.mark.slow
@pytest.mark.parametrize(("name", "upto"), [("prism", 20), ("hypercube", 5),
                                            ("generalized-petersen:2", 16),
                                            ("generalized-petersen:3", 16)])  # fmt: skip
def test_the_article_s_symmetric_families_further(name, upto):
    _symmetric(name, upto)


#: How far the slow test compares the two families whose later members are out of easy
#: reach (beyond 62 vertices, n > 20, the pure-Python search runs: in 60 s of CPU it
#: reaches n = 79 and n = 70, benchmarks/kayles_published.py and RESULTS.md).
REACH = {"linked-diamonds": 30, "linked-4-cycles": 30}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(QUICK))
def test_the_published_families_in_full(name):
    _compare(name, REACH.get(name))


# -- the backends agree: the networkx atlas ------------------------------------------------


def _atlas_sample(step: int):
    return [g for i, g in enumerate(nx.graph_atlas_g()) if i % step == 0 and g.number_of_nodes()]


@pytest.mark.parametrize("step", [9])
def test_atlas_sample_native_asp_expanded_agree(step):
    for i, g in enumerate(_atlas_sample(step)):
        graph = graph_of(g, f"atlas{i}")
        truth = brute_force(graph)
        for backend in kayles.BACKENDS:
            out = kayles.solve(graph, backend)
            assert (out.answer, out.verdict.verified) == (truth, True), (i, backend)
        assert solve_native(graph, reductions=False).answer == truth
        everything = (1 << len(graph)) - 1
        assert Search(graph).value(everything) == truth  # the Python search, isomorphism table


def test_the_expanded_graph_by_grundys_sat_and_asp_backends():
    """The expanded game graph answered by grundy exists --backend sat|asp: its one Grundy
    function gives the value and every move's value, as grundy values does."""
    for i, g in enumerate(_atlas_sample(60)):
        graph = graph_of(g, f"atlas{i}")
        expected = kayles.solve(graph, "expanded")
        for by in ("sat", "asp"):
            out = kayles.solve(graph, "expanded", by=by)
            assert out.witness == expected.witness and out.verdict.verified is True
            assert out.stats["grundy_verified"] is True


@pytest.mark.slow
def test_every_atlas_graph_native_asp_expanded_agree():
    for i, g in enumerate(nx.graph_atlas_g()[1:]):
        graph = graph_of(g, f"atlas{i}")
        answers = {b: kayles.solve(graph, b) for b in kayles.BACKENDS}
        assert {o.answer for o in answers.values()} == {brute_force(graph)}, i
        assert all(o.verdict.verified is True for o in answers.values()), i


@pytest.mark.parametrize("seed", range(6))
def test_random_graphs_every_backend_and_the_reductions(seed):
    graph = random_graph(seed=seed, n=12 + seed % 3, degree=2 + seed % 4)
    truth = brute_force(graph)
    assert solve_native(graph, reductions=False).answer == truth
    for backend in kayles.BACKENDS:
        out = kayles.solve(graph, backend)
        assert (out.answer, out.verdict.verified) == (truth, True)
        # a winning move leads to a value-0 position, by the definition
        closed = {v: {v, *graph.adj[v]} for v in range(len(graph))}
        for name in out.witness["winning_moves"]:
            v = graph.index[name]
            rest = [u for u in range(len(graph)) if u not in closed[v]]
            sub = graph_of(nx.Graph(graph.to_networkx().subgraph([graph.names[u] for u in rest])))
            assert brute_force(sub) == 0


def test_twins_are_removed_and_keep_the_value():
    k5 = family_graph(Family("complete"), 5)  # every pair true twins: K5 behaves as K1
    search = Search(k5)
    assert search.value(31) == 1 and search.counts["twins_removed"] == 4
    # false twins are not removed: the two ends of P3
    p3 = family_graph(Family("path"), 3)
    assert Search(p3).value(7) == 2


def test_components_and_the_count_of_positions():
    g = random_graph(seed=3, n=18, degree=3)
    plain = solve_native(g, reductions=False)
    reduced = solve_native(g)
    assert plain.answer == reduced.answer
    assert reduced.stats["components_visited"] <= plain.stats["components_visited"]
    assert plain.stats["k_set_bound"] == "4.89e+03" and plain.stats["k_set_bound_of"] == "1.6031^n"
    tree = kayles.solve(family_graph(Family("caterpillar", 1), 6), "native")
    assert tree.stats["k_set_bound_of"] == "1.4423^n (trees)"


def test_isomorphism_is_exact_on_the_atlas():
    """No two distinct atlas graphs pass the exact check; every relabelling does."""
    shapes = []
    for g in nx.graph_atlas_g()[1:]:
        if nx.is_connected(g):
            nodes = list(g.nodes())
            index = {v: i for i, v in enumerate(nodes)}
            shapes.append(Shape.of([sum(1 << index[w] for w in g[v]) for v in nodes]))
    by_key: dict = {}
    for s in shapes:
        by_key.setdefault(s.key, []).append(s)
    for group in by_key.values():
        for i, a in enumerate(group):
            assert not any(isomorphic(a, b) for b in group[i + 1 :])
    rng = random.Random(5)
    for s in shapes[::7]:
        perm = list(range(len(s.adj)))
        rng.shuffle(perm)
        moved = [0] * len(perm)
        for i, a in enumerate(s.adj):
            moved[perm[i]] = sum(1 << perm[j] for j in range(len(perm)) if a >> j & 1)
        assert isomorphic(s, Shape.of(moved))
    table = ComponentTable()
    table.add(shapes[-1], 7)
    assert table.find(shapes[-1]) == 7 and table.find(shapes[-2]) is None


def test_sequences_of_families():
    star = SEQUENCE.ask(parse_family("star", 8), "native")
    assert star.answer == [1, 1, 2, 1, 2, 1, 2, 1, 2] and star.verdict.verified is True
    ladder = SEQUENCE.ask(parse_family("grid:2", 10), "native")
    assert ladder.answer[0::2] == [0] * 6  # even ladders: the symmetry strategy
    for name in ("complete-bipartite:2", "caterpillar:1", "wheel", "complete", "grid:3"):
        family = parse_family(name, 7)
        out = SEQUENCE.ask(family, "native")
        assert out.verdict.verified is True
        assert out.answer == [brute_force(family_graph(family, n)) for n in range(family.first, 8)]


# -- the checker ---------------------------------------------------------------------------


def test_the_checker_rejects_wrong_answers():
    c5 = family_graph(Family("cycle"), 5)
    good = kayles.solve(c5, "native")
    w = good.witness

    def claim(answer, **changes):
        return Outcome("c5", "native", "solved", answer, {**w, **changes})

    assert check_value(c5, claim(0))[0] is True
    assert check_value(c5, claim(1, value=1, outcome="first"))[0] is False  # not the mex
    wrong = {**w["options"], "0": 0}
    assert "mex" in check_value(c5, claim(0, options=wrong))[1]
    lying = {name: 2 for name in w["options"]}
    assert "leaves a position of value 1" in check_value(c5, claim(0, options=lying))[1]
    missing = dict(list(w["options"].items())[:-1])
    assert check_value(c5, claim(0, options=missing))[0] is False
    assert check_value(c5, claim(0, winning_moves=["0"]))[0] is False
    assert check_value(c5, claim(0, outcome="first"))[0] is False


def test_a_user_encoding_that_lies_fails(tmp_path):
    wrong = tmp_path / "wrong.lp"
    # the planted encoding sits beside the tests (not in the installed package)
    wrong.write_text((Path(__file__).parent / "fuzz_encodings" / "kayles-forgets-neighbours.lp").read_text())
    run = run_cli("kayles", "value", instance_dir("kayles") / "path7.txt", "-b", "asp",
                  "--encoding", wrong)  # fmt: skip
    assert run.code == 1 and "FAILED" in run.stdout + run.stderr


# -- the command line ------------------------------------------------------------------------


def test_value_and_sequence_json():
    run = run_cli("kayles", "value", instance_dir("kayles") / "random14.txt", "--json")
    assert run.code == 0 and run.json()["answer"] == 4 and run.json()["stats"]["verified"]
    run = run_cli("kayles", "sequence", "path", "--upto", "10000", "--json")
    assert run.code == 0 and run.json()["answer"][-1] == path_values(10000)[10000]


def test_crosscheck_of_the_bundled_instances():
    spec = domain_spec("kayles")
    for graph in spec.bundled():
        for backend in spec.backend_names:
            out = kayles.solve(graph, backend)
            assert out.answer == spec.known(graph)[1] and out.verdict.verified is True


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("value", "missing.txt"), "missing.txt"),
        (("sequence", "path"), "--upto"),
        (("sequence", "trees", "--upto", "3"), "unknown family"),
        (("sequence", "grid:0", "--upto", "3"), "grid family's M"),
        (("sequence", "grid:abc", "--upto", "5"), "grid family's M"),
        (("sequence", "caterpillar:x", "--upto", "5"), "caterpillar family's K"),
        (("sequence", "generalized-petersen:1.5", "--upto", "5"), "generalized-petersen family's K"),
        (("sequence", "complete-bipartite:\uff13", "--upto", "5"), "complete-bipartite family's M"),
        (("sequence", "grid:1_0", "--upto", "5"), "grid family's M"),
        (("sequence", "grid", "--upto", "3"), "needs its parameter"),
        (("sequence", "path:3", "--upto", "3"), "takes no parameter"),
        (("sequence", "path", "--upto", "1000000000"), "--upto"),
        (("sequence", "star", "--upto", "-1"), "--upto"),
        (("sequence", "grid:1000", "--upto", "9000"), "beyond this tool's limit"),
        (("sequence", "cycle", "--upto", "2"), "--upto"),
    ],
)
def test_hostile_input_is_one_line(args, fragment):
    assert_bad_input(run_cli("kayles", *args), fragment)


def test_hostile_graph_files(tmp_path):
    loop = tmp_path / "loop.txt"
    loop.write_text("a a\n")
    assert_bad_input(run_cli("kayles", "value", loop), "self-loop")
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n")
    assert_bad_input(run_cli("kayles", "value", empty), "empty")
    header = tmp_path / "header.txt"
    header.write_text("# value: many\na b\n")
    assert_bad_input(run_cli("kayles", "value", header), "'# value:' needs a number")
    big = tmp_path / "big.txt"
    big.write_text("".join(f"{i} {i + 1}\n" for i in range(21)))
    assert_bad_input(run_cli("kayles", "value", big, "-b", "asp"), "at most 20")
    assert_bad_input(run_cli("kayles", "value", big, "-b", "expanded"), "at most 20")
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\x00\xff\xfe")
    assert run_cli("kayles", "value", binary).code == 2


@pytest.mark.xdist_group("timing")
def test_time_limit_is_unknown_not_a_guess():
    g = random_graph(seed=1, n=60, degree=3)
    out = VALUE.ask(g, "native", limits=__import__("pyasp_games.engines.limits", fromlist=["Limits"]).Limits(time_limit=0.5))
    assert out.status == "unknown" and out.answer is None


# -- the compiled kernel ---------------------------------------------------------------------


def test_the_kernel_compiled_searches_as_its_python_source(monkeypatch):
    """The bitset search runs its first slices as Python, then compiled: the same search
    (numba's integers are not Python's), the same values and counts, a table grown from
    8 entries on the way."""
    from pyasp_games.domains.kayles import bitset_search
    from pyasp_games.engines import compiled

    from .conftest import _uncompile

    monkeypatch.setattr(compiled, "INTERPRETED_SECONDS", 1e9)
    monkeypatch.setattr(bitset_search, "_FIRST_CAPACITY", 8)
    graphs = [random_graph(seed=s, n=14 + s, degree=2 + s % 3) for s in range(4)]

    def run(graph):
        kern = bitset_search.BitsetSearch(graph, reductions=graph.name[-1] != "0")
        return kern.value((1 << len(graph)) - 1), kern.stats()["components_visited"]

    python = [run(g) for g in graphs]
    assert [v for v, _ in python] == [brute_force(g) for g in graphs]
    module = bitset_search.__name__
    try:
        compiled.compile_kernels(module)
        assert [run(g) for g in graphs] == python
    finally:
        _uncompile({module})


# -- verified in part; saved answers checked again (pyasp-games verify) -------------------


def _refuted(question, instance, data) -> bool:
    again = question.recheck(instance, data)
    return again.verdict.verified is False and again.status == "error"


def test_options_beyond_the_checker_s_budget_are_verified_in_part(monkeypatch):
    """A value without a K-set table whose checker recomputed none of its options (a
    budget of 0 positions: the Petersen graph's options are no paths) is verified in part, never fully: the verdict
    names what rests on the backend alone, the JSON says "partial", and so does the
    answer checked again."""
    from pyasp_games.domains.kayles import verify

    monkeypatch.setattr(verify, "BUDGET", 0)
    petersen = VALUE.read(instance_dir("kayles") / "petersen.txt")
    out = VALUE.ask(petersen, "asp")  # no certificate: native's table is checked in full
    assert out.status == "solved" and out.answer == 1
    assert out.verdict.in_part and not out.verdict.fully_verified and out.verdict.stands
    assert "0 of 10 options recomputed" in out.verdict.message
    assert out.verdict.not_checked.startswith("10 options' values")
    data = _saved(out)
    assert data["stats"]["verified"] == "partial" and data["stats"]["not_checked"] == out.verdict.not_checked
    again = VALUE.recheck(petersen, data)
    assert again.verdict.in_part and _saved(again)["stats"]["verified"] == "partial"
    run = run_cli("kayles", "value", instance_dir("kayles") / "petersen.txt", "-b", "asp")
    assert run.code == 0 and "verified in part" in run.stdout


@pytest.mark.parametrize("backend", ["native", "asp", "expanded"])
def test_a_saved_value_is_checked_again_and_a_tampered_one_refuted(backend):
    grid = VALUE.read(instance_dir("kayles") / "grid3x3.txt")
    out = VALUE.ask(grid, backend)
    data = _saved(out)
    again = VALUE.recheck(grid, data)
    assert again.verdict.fully_verified and (again.status, again.answer) == ("solved", 1)
    w = data["witness"]
    assert _refuted(VALUE, grid, {**data, "answer": 2})
    assert _refuted(VALUE, grid, {**data, "answer": 2, "witness": {**w, "value": 2}})
    assert _refuted(VALUE, grid, {**data, "witness": {**w, "options": {**w["options"], "4": 3}}})
    assert _refuted(VALUE, grid, {**data, "witness": {**w, "winning_moves": w["winning_moves"][1:]}})
    assert _refuted(VALUE, grid, {**data, "witness": {**w, "outcome": "second"}})


@pytest.mark.parametrize("family", ["path", "cycle", "grid:2"])
def test_a_saved_sequence_is_checked_again_and_a_tampered_one_refuted(family):
    members = SEQUENCE.read(family=family, upto=60 if family != "grid:2" else 8)
    out = SEQUENCE.ask(members)
    data = _saved(out)
    again = SEQUENCE.recheck(members, data)
    assert again.verdict.fully_verified and again.answer == out.answer
    terms = data["answer"]
    assert _refuted(SEQUENCE, members, {**data, "answer": [*terms[:-1], terms[-1] + 1]})
    assert _refuted(SEQUENCE, members, {**data, "answer": terms[:-1]})
    w = data["witness"]
    assert _refuted(SEQUENCE, members, {**data, "witness": {**w, "upto": w["upto"] + 1}})
    if family == "grid:2":
        assert "period" not in w  # a period of paths claimed for another family is refused
        assert _refuted(SEQUENCE, members, {**data, "witness": {**w, "period": period_certificate()}})
        return
    period = w["period"]
    for changed in ({"preperiod": 51}, {"exceptions": period["exceptions"][:-1]}, {"checked_upto": 300},
                    {"proof": period["proof"].replace("52 <= n", "51 <= n")}):  # fmt: skip
        assert _refuted(SEQUENCE, members, {**data, "witness": {**w, "period": {**period, **changed}}})
    assert _refuted(SEQUENCE, members, {**data, "witness": {k: v for k, v in w.items() if k != "period"}})


def test_the_bit_kernels_are_the_engine_s_shared_ones():
    """Kayles' component search and Hex's connection search call one bit_index and one
    bit_count (engines.compiled), compiled with each module's own kernels."""
    from pyasp_games.domains.hex import connections
    from pyasp_games.domains.kayles import bitset_search
    from pyasp_games.engines import compiled

    for module in (connections, bitset_search):
        for name in ("bit_index", "bit_count"):
            function = getattr(module, name)
            assert getattr(function, "py_func", function) is getattr(compiled, name)
        assert not hasattr(module, "_index") and not hasattr(module, "_count")
    from .conftest import _uncompile

    module = bitset_search.__name__
    was_compiled = compiled.is_compiled(module)
    try:
        compiled.compile_kernels(module)
        assert {"bit_index", "bit_count"} <= set(compiled._KERNELS[module])
        assert hasattr(bitset_search.bit_index, "py_func") and bitset_search.bit_index(1 << 61) == 61
    finally:
        if not was_compiled:  # interpreted again, the shared kernels too
            _uncompile({module})
            assert bitset_search.bit_index is compiled.bit_index


# -- the native backend's certificate: its table of K-set values ------------------------


def _table(graph):
    """The native backend's certificate on ``graph``, decoded: {vertex set: value}."""
    from pyasp_games.domains.kayles.k_set_check import decode_table

    cert = solve_native(graph).certificate
    sets, values = decode_table(cert, len(graph))
    return cert, dict(zip(sets.tolist(), values.tolist(), strict=True))


def test_the_k_set_table_is_the_grundy_function_and_a_forged_entry_is_refuted():
    """The certificate's entries are connected vertex sets with their values by the
    definition (brute force on the induced subgraph); the checker confirms the table
    and refutes it with any one entry changed, dropped or added off the graph."""
    from pyasp_games.domains.kayles.k_set_check import Refuted, confirm
    from pyasp_games.domains.kayles.model import encode_k_set_table

    graph = random_graph(seed=3, n=16, degree=3)
    cert, table = _table(graph)
    closed = [(1 << v) | sum(1 << w for w in graph.adj[v]) for v in range(len(graph))]
    for mask, value in list(table.items())[::5]:  # the definition, on every fifth set
        verts = [v for v in range(len(graph)) if mask >> v & 1]
        local = numbered_graph(len(verts), [(i, j) for i, u in enumerate(verts) for j, w in enumerate(verts)
                                            if i < j and w in graph.adj[u]], "part")  # fmt: skip
        assert brute_force(local) == value
    whole, options, checked = confirm(graph, cert)
    everything = (1 << len(graph)) - 1
    assert whole == brute_force(graph) and checked == len(table) > 20
    assert options == [brute_force_mask(graph, everything & ~closed[v]) for v in range(len(graph))]
    sets = sorted(table)
    for i in range(0, len(sets), 7):  # one entry changed: refuted at that very entry
        forged = dict(table)
        forged[sets[i]] ^= 1
        with pytest.raises(Refuted, match="the table says"):
            confirm(graph, encode_k_set_table(sets, [forged[m] for m in sets]))
    used = sets[-1]  # the largest set is a component of the whole graph
    with pytest.raises(Refuted, match="lacks"):
        confirm(graph, encode_k_set_table(sets[:-1], [table[m] for m in sets[:-1]]))
    with pytest.raises(Refuted, match="not distinct vertex sets of the graph"):
        confirm(graph, encode_k_set_table([*sets, 1 << 20], [*(table[m] for m in sets), 0]))
    with pytest.raises(Refuted, match="not distinct"):
        confirm(graph, encode_k_set_table([used, used], [table[used]] * 2))
    with pytest.raises(Refuted, match=r"the certificate's sets are (more than 18 bytes|not 2 numbers)"):
        confirm(graph, {**cert, "count": 2})


def brute_force_mask(graph, mask: int) -> int:
    """The value of the position ``mask`` by the definition."""
    closed = [(1 << v) | sum(1 << w for w in graph.adj[v]) for v in range(len(graph))]
    memo: dict[int, int] = {}

    def value(m: int) -> int:
        if m not in memo:
            seen = {value(m & ~closed[v]) for v in range(len(graph)) if m >> v & 1}
            k = 0
            while k in seen:
                k += 1
            memo[m] = k
        return memo[m]

    return value(mask)


def test_a_saved_value_with_its_table_is_checked_in_full_and_a_forged_table_refuted():
    """The saved answer (JSON) carries the table; ``verify`` checks it in full again, and
    refutes a table with one value changed even where the witness is the true one."""
    import base64
    import lzma

    graph = random_graph(seed=1, n=18, degree=3)
    out = VALUE.ask(graph, "native")
    assert out.verdict.fully_verified and "table of" in out.verdict.message
    data = _saved(out)
    assert data["certificate"]["count"] > 10
    again = VALUE.recheck(graph, data)
    assert again.verdict.fully_verified and again.answer == out.answer
    cert = data["certificate"]
    values = bytearray(lzma.decompress(base64.b85decode(cert["values"])))
    values[len(values) // 2] ^= 1
    forged = {**cert, "values": base64.b85encode(lzma.compress(bytes(values))).decode()}
    again = VALUE.recheck(graph, {**data, "certificate": forged})
    assert again.status == "error" and "the table says" in again.verdict.message
    assert _refuted(VALUE, graph, {**data, "certificate": {**cert, "format": "something else"}})


def test_the_k_set_table_is_written_compact_and_the_earlier_form_still_read():
    """The certificate's sets as LEB128 steps and both columns in xz and base 85: on a
    28-vertex graph under 85% of the earlier form (8-byte steps in zlib and base 64; 70%
    on 40 vertices, benchmarks/RESULTS.md), which answers saved before still hold: read
    to the same table."""
    import base64
    import zlib

    import numpy as np

    from pyasp_games.domains.kayles.k_set_check import decode_table
    from pyasp_games.domains.kayles.model import K_SET_FORMAT

    graph = random_graph(seed=4, n=28, degree=3)
    cert = solve_native(graph).certificate
    sets, values = decode_table(cert, len(graph))
    steps = np.diff(sets.astype(np.uint64), prepend=np.uint64(0)).astype("<u8")

    def packed(raw: bytes) -> str:
        return base64.b64encode(zlib.compress(raw, 6)).decode("ascii")

    earlier = {"format": K_SET_FORMAT, "count": len(sets), "sets": packed(steps.tobytes()),
               "values": packed(values.astype(np.uint8).tobytes())}  # fmt: skip
    columns = len(cert["sets"]) + len(cert["values"])
    assert len(sets) > 2000 and columns < 0.85 * (len(earlier["sets"]) + len(earlier["values"]))
    again, same = decode_table(earlier, len(graph))
    assert again.tolist() == sets.tolist() and same.tolist() == values.tolist()


def test_the_k_set_checker_compiled_checks_as_its_python_source():
    """The checker's kernels compiled give what their Python source gives (numba's
    integers are not Python's), on a table large enough to be compiled by default."""
    from pyasp_games.domains.kayles import k_set_check
    from pyasp_games.engines import compiled

    from .conftest import _uncompile

    graph = random_graph(seed=2, n=22, degree=3)
    cert = solve_native(graph).certificate
    module = k_set_check.__name__
    was_compiled = compiled.is_compiled(module)
    _uncompile({module})
    try:
        python = k_set_check.confirm(graph, cert, compile_first=False)
        assert k_set_check.confirm(graph, cert, compile_first=True) == python
        assert python[0] == brute_force(graph)
    finally:
        if not was_compiled:
            _uncompile({module})


def test_a_sequence_carries_each_member_s_table_and_a_forged_one_is_refuted():
    """``kayles sequence`` of a family beyond paths and cycles: each member's table of
    K-set values in the certificate, confirmed (no budget: every term in full), and one
    value of one member's table changed is refuted, naming the member."""
    import base64
    import lzma

    members = SEQUENCE.read(family="grid:3", upto=6)
    out = SEQUENCE.ask(members)
    assert out.verdict.fully_verified and set(out.certificate["tables"]) == {str(n) for n in range(7)}
    data = _saved(out)
    tables = data["certificate"]["tables"]
    table = tables["6"]
    values = bytearray(lzma.decompress(base64.b85decode(table["values"])))
    values[-1] ^= 1
    forged = {**table, "values": base64.b85encode(lzma.compress(bytes(values))).decode()}
    again = SEQUENCE.recheck(members, {**data, "certificate": {"tables": {**tables, "6": forged}}})
    assert again.status == "error" and again.verdict.message.startswith("grid:3(6): the certificate does not hold")
