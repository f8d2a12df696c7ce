"""Planar Geography for every digraph (issue 43): Geography -> TQBF keeps the winner (the
QBF's truth by its own search against the game's brute-force minimax), Schaefer's graph
drawn with every crossing used by at most one play is planar with the QBF's truth as its
winner, and ``geography planarize`` takes this route where no drawing of the game is safe."""

from __future__ import annotations

import itertools
import json
import random

import networkx as nx
import pytest

from pyasp_games.domains.geography.model import make_instance, parse_instance
from pyasp_games.domains.geography.native import solve_game
from pyasp_games.domains.geography.planar_tqbf import (
    crossing_safe,
    planarize_via_qbf,
    schaefer_drawing,
)
from pyasp_games.domains.geography.tqbf import game_to_qbf, parse_qdimacs, qbf_true, qbf_value
from pyasp_games.domains.geography.verify import brute_force_winner
from pyasp_games.engines.graphs import from_arcs

from .conftest import run_cli
from .test_geography_tqbf import random_qdimacs


def small_games(n: int, undirected: bool):
    """Every graph on ``n`` vertices (loops left out), start ``0``, as arc lists."""
    pairs = [(u, v) for u in range(n) for v in range(n) if (u < v if undirected else u != v)]
    for chosen in itertools.product((False, True), repeat=len(pairs)):
        yield [p for p, keep in zip(pairs, chosen, strict=True) if keep]


def succ_of(n, arcs, undirected):
    succ = [[] for _ in range(n)]
    for u, v in arcs:
        succ[u].append(v)
        if undirected:
            succ[v].append(u)
    return succ


@pytest.mark.parametrize("variant", ["vertex", "edge"])
@pytest.mark.parametrize("undirected", [False, True])
def test_the_qbf_of_every_small_game_is_true_iff_the_first_player_wins(variant, undirected):
    """Every graph on up to 3 vertices (directed: 64 on 3), from vertex 0, both variants."""
    checked = 0
    for n in (1, 2, 3):
        for arcs in small_games(n, undirected):
            succ = succ_of(n, arcs, undirected)
            game = parse_instance("".join(f"{u} {v}\n" for u, v in arcs), "0", variant,
                                  undirected) if succ[0] else None  # 0 stuck: second wins
            q = game_to_qbf(succ, 0, variant, not undirected)
            winner = "second" if game is None else brute_force_winner(game)
            assert qbf_value(q.blocks, q.clauses) == (winner == "first"), (arcs, variant)
            checked += 1
    assert checked == (1 + 2 + 8) if undirected else (1 + 4 + 64)


def test_the_qbf_of_random_four_vertex_games():
    rnd = random.Random(4)
    for _ in range(12):
        arcs = sorted({(rnd.randrange(4), rnd.randrange(4)) for _ in range(6)} - {(v, v) for v in range(4)})
        succ = succ_of(4, arcs, False)
        for variant in ("vertex", "edge"):
            q = game_to_qbf(succ, 0, variant)
            expected = bool(succ[0]) and solve_game(make_instance(
                from_arcs([(str(u), str(v)) for u, v in arcs]), "0", variant), line=False).first_wins
            assert qbf_value(q.blocks, q.clauses) == expected, (arcs, variant)


def test_qbf_value_agrees_with_brute_force():
    rng = random.Random(8)
    for _ in range(60):
        q = parse_qdimacs(random_qdimacs(rng)[0])
        blocks = [(kind, [v]) for kind, v in q.prefix]
        assert qbf_value(blocks, q.clauses) == qbf_true(q)


def test_the_qdimacs_of_a_game_reads_back():
    q = game_to_qbf([[1, 2], [2], []], 0)
    back = parse_qdimacs(q.qdimacs())
    assert back.clauses == q.clauses
    # the prefix made alternating (a ∀ variable of no clause between two ∃ ones)
    assert [v for kind, v in back.prefix if kind == "e"][: q.bits] == [1, 2]


def test_schaefer_drawings_are_planar_safe_and_keep_the_truth():
    """Random QBFs (the tests' generator): the drawing's only crossings are between arcs no
    play uses together, proved, and the planar graph's winner (solved) is the truth."""
    rng = random.Random(5)
    crossed = 0
    for _ in range(25):
        q = parse_qdimacs(random_qdimacs(rng)[0])
        d = schaefer_drawing(q)
        assert d.planar and d.safe
        assert nx.check_planarity(d.graph.to_networkx().to_undirected())[0]
        winner = solve_game(make_instance(d.graph, "in1"), line=False).first_wins
        assert winner == qbf_true(q) == solve_game(make_instance(d.schaefer, "in1"), line=False).first_wins
        crossed += d.crossings > 0
    assert crossed >= 5


def test_crossing_safe_is_sound():
    """Where the polynomial test says no play uses both arcs, the exhaustive search agrees."""
    from pyasp_games.domains.geography.planar import play_using

    rnd = random.Random(2)
    proved = 0
    for _ in range(200):
        n = rnd.randint(3, 7)
        succ = [[v for v in range(1, n) if v != u and rnd.random() < 0.35] for u in range(n)]
        arcs = [(u, v) for u in range(n) for v in succ[u]]
        if len(arcs) < 2:
            continue
        pairs = [tuple(rnd.sample(arcs, 2)) for _ in range(5)]
        for (e, f), safe in zip(pairs, crossing_safe(succ, 0, pairs), strict=True):
            if safe:
                proved += 1
                assert play_using(succ, 0, e, f, None) is None
    assert proved > 100


@pytest.mark.slow
def test_the_route_on_the_smallest_game():
    """s -> a through the QBF (3 moves of 1 bit): planar, every crossing safe, and the first
    player still wins (solved: about 2,200 vertices, 30-50 s)."""
    route = planarize_via_qbf(from_arcs([("s", "a")]), "s")
    assert route.planar and route.safe and route.moves == 3
    assert solve_game(make_instance(route.graph, "in1"), line=False).first_wins


def test_cli_planarizes_edge_geography_through_the_qbf(tmp_path):
    src = tmp_path / "edge.txt"
    src.write_text("# start: s\n# variant: edge\ns a\na s\n")
    out = tmp_path / "planar.txt"
    run = run_cli("geography", "planarize", src, "-o", out, "--check", "--json", "--route", "qbf")
    assert run.code == 0, run.stderr
    said = json.loads(run.stdout)
    assert said["route"] == "qbf" and said["planar"] and said["winner_checked"] == "second"
    assert said["crossing_count"] > 0 and said["planarity_tested"] and said["qbf_clauses"] > 0
    graph = from_arcs([tuple(line.split()) for line in out.read_text().splitlines()
                       if line and not line.startswith("#")])
    assert len(graph) == said["vertices"] and nx.check_planarity(graph.to_networkx().to_undirected())[0]
    # the planar game is vertex geography from in1 whatever the input's variant
    solved = run_cli("geography", "solve", out, "--json")
    assert solved.code == 0 and solved.json()["answer"] == "second", solved.stderr


def test_cli_qbf_route_and_reduction(tmp_path):
    src = tmp_path / "one.txt"
    src.write_text("# start: s\ns a\n")
    run = run_cli("geography", "planarize", src, "--route", "qbf", "--check")
    assert run.code == 0 and "via TQBF (asked for)" in run.stderr and "winner first" in run.stderr
    assert run.stdout.startswith("#")  # the arc list, on stdout without -o
    qdimacs = tmp_path / "game.qdimacs"
    made = run_cli("reduce", "geography-to-qbf", src, "-o", qdimacs, "--json")
    assert made.code == 0 and made.json()["moves"] == 3, made.stderr
    q = parse_qdimacs(qdimacs.read_text())
    assert qbf_value([(kind, [v]) for kind, v in q.prefix], q.clauses)
    again = run_cli("reduce", "geography-to-qbf", src, "-o", qdimacs)
    assert again.code == 2 and "exists" in again.stderr  # never overwritten unasked


def test_cli_qbf_route_refuses_what_it_cannot_draw(tmp_path):
    complete = tmp_path / "k7.txt"  # the complete digraph: K6 is drawn (84,000 crossings), K7 not
    complete.write_text("# start: 0\n" + "".join(f"{u} {v}\n" for u in range(7) for v in range(7) if u != v))
    run = run_cli("geography", "planarize", complete, "--route", "qbf")
    assert run.code == 2 and "crossings" in run.stderr and len(run.stderr.splitlines()) == 1
    assert run_cli("geography", "planarize", complete, "--route", "sideways").code == 2


def test_count_crossings_agrees_with_pairs():
    from pyasp_games.domains.geography.planar_tqbf import _chords_cross, count_crossings

    rnd = random.Random(6)
    for _ in range(100):
        chords = [tuple(rnd.sample(range(12), 2)) for _ in range(rnd.randint(0, 9))]
        pairs = sum(_chords_cross(p, q) for p, q in itertools.combinations(chords, 2))
        assert count_crossings(chords) == pairs, chords


@pytest.mark.slow
def test_the_refused_k5_orientations_go_through_the_qbf():
    """Orientations of K5 (start 0) that no drawing tried makes safe: the QBF's truth is the
    game's winner, and the QBF route's drawing stays within its limit (about 20 s)."""
    from pyasp_games.domains.geography.planar import UnsafeCrossing, planarize
    from pyasp_games.domains.geography.planar_tqbf import MAX_CROSSINGS, drawing_size

    rnd = random.Random(5)
    refused = 0
    for _ in range(300):
        arcs = []
        for u, v in itertools.combinations(range(5), 2):
            c = rnd.randrange(3)
            arcs += [(u, v)] * (c != 1) + [(v, u)] * (c != 0)
        arcs = [(u, v) for u, v in arcs if v != 0]
        g = from_arcs([(str(u), str(v)) for u, v in arcs], [str(i) for i in range(5)])
        try:
            planarize(g, "0")
            continue
        except UnsafeCrossing:
            refused += 1
        q = game_to_qbf(succ_of(5, arcs, False), 0)
        winner = solve_game(make_instance(g, "0"), line=False).first_wins
        assert qbf_value(q.blocks, q.clauses) == winner, arcs
        assert drawing_size(q.qbf())[1] <= MAX_CROSSINGS
    assert refused >= 10


def test_bad_input_is_one_line(tmp_path):
    from .conftest import assert_bad_input

    assert_bad_input(run_cli("reduce", "geography-to-qbf", tmp_path / "nope.txt"), "no such file")
    assert_bad_input(run_cli("reduce", "geography-to-qbf", tmp_path), "is a directory")
    src = tmp_path / "edge.txt"
    src.write_text("# start: s\n# variant: edge\n# undirected: yes\ns a\n")
    assert_bad_input(run_cli("geography", "planarize", src, "--route", "drawing"), "undirected edge geography")
    assert_bad_input(run_cli("reduce", "geography-to-qbf", src, "--start", "x"), "no position named 'x'")
    long = tmp_path / "long.txt"  # a path of 80 vertices: plays of 79 moves
    long.write_text("# start: 0\n" + "".join(f"{i} {i + 1}\n" for i in range(79)))
    assert_bad_input(run_cli("reduce", "geography-to-qbf", long), "at most 63")
    assert_bad_input(run_cli("geography", "planarize", long, "--route", "qbf"), "at most 63")


def k5_orientations(every: bool, rnd: random.Random | None = None, count: int = 0):
    """Orientations of K5 (each pair one way, the other or both), arcs into the start 0
    left out (no play uses them): every one up to renaming the vertices 1-4, or ``count``
    drawn at random. Every other digraph on up to 5 vertices is planar already."""
    pairs = list(itertools.combinations(range(5), 2))
    if not every:
        for _ in range(count):
            yield _oriented(pairs, [rnd.randrange(3) for _ in pairs])
        return
    seen = set()
    for choice in itertools.product(range(3), repeat=len(pairs)):
        arcs = _oriented(pairs, choice)
        key = min(tuple(sorted((p[u], p[v]) for u, v in arcs))
                  for p in ([0, *perm] for perm in itertools.permutations(range(1, 5))))
        if key not in seen:
            seen.add(key)
            yield arcs


def _oriented(pairs, choice):
    arcs = []
    for (u, v), c in zip(pairs, choice, strict=True):
        arcs += [(u, v)] * (c != 1) + [(v, u)] * (c != 0)
    return sorted({(u, v) for u, v in arcs if v != 0})


def planarized_and_checked(arcs) -> str:
    """``planarize`` (auto): the drawing's winner solved and compared, or, where the
    drawing is refused, the QBF's truth compared and the route's drawing within its limit."""
    from pyasp_games.domains.geography.planar import UnsafeCrossing, planarize
    from pyasp_games.domains.geography.planar_tqbf import MAX_CROSSINGS, drawing_size

    g = from_arcs([(str(u), str(v)) for u, v in arcs], [str(i) for i in range(5)])
    winner = solve_game(make_instance(g, "0"), line=False).first_wins
    try:
        p = planarize(g, "0")
    except UnsafeCrossing:
        q = game_to_qbf(succ_of(5, arcs, False), 0)
        assert qbf_value(q.blocks, q.clauses) == winner, arcs
        assert drawing_size(q.qbf())[1] <= MAX_CROSSINGS
        return "qbf"
    assert solve_game(make_instance(p.graph, "0"), line=False).first_wins == winner, arcs
    return "planar" if p.planar_input else "drawing"


def test_random_five_vertex_digraphs_are_planarized_with_their_winner():
    routes = [planarized_and_checked(arcs) for arcs in k5_orientations(False, random.Random(1), 40)]
    # (arcs into the start dropped, most are planar already: 30, 5 drawn, 5 via the QBF)
    assert routes.count("drawing") >= 3 and routes.count("qbf") >= 3


@pytest.mark.slow
def test_every_five_vertex_digraph_is_planarized_with_its_winner():
    """Every orientation of K5 up to renaming 1-4, arcs into the start dropped (the only
    digraphs on up to 5 vertices that can be non-planar): 558, of which 516 are planar
    already, 21 drawn (both winners solved) and 21 through the QBF (its truth searched);
    about 7 s."""
    routes = [planarized_and_checked(arcs) for arcs in k5_orientations(True)]
    assert len(routes) == 558
    assert (routes.count("planar"), routes.count("drawing"), routes.count("qbf")) == (516, 21, 21)


def test_cli_qbf_route_reads_an_undirected_edge_once(tmp_path):
    """Undirected edge geography on one edge: s -> a, and the edge is used up (read as two
    arcs, the second player would walk back and win)."""
    src = tmp_path / "edge.txt"
    src.write_text("# start: s\n# variant: edge\n# undirected: yes\ns a\n")
    run = run_cli("geography", "planarize", src, "--check", "-o", tmp_path / "out.txt", "--json",
                  "--route", "qbf")
    assert run.code == 0, run.stderr
    assert run.json()["winner_checked"] == "first" and run.json()["route"] == "qbf"


#: an orientation of K5 that no drawing tried makes safe (the QBF route: about 10 s)
REFUSED_K5 = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 1), (2, 3), (2, 4),
              (3, 1), (4, 2), (4, 3)]


@pytest.mark.xdist_group("timing")
def test_the_qbf_route_honours_the_time_limit(tmp_path):
    import time

    src = tmp_path / "k5.txt"
    src.write_text("# start: 0\n" + "".join(f"{u} {v}\n" for u, v in REFUSED_K5))
    started = time.monotonic()
    # in this process: no whole-command alarm, every phase looks at the clock itself
    # (unlimited, the drawing takes about 10 s)
    run = run_cli("geography", "planarize", src, "--route", "qbf", "--time-limit", "0.25",
                  "-o", tmp_path / "out.txt")
    assert run.code == 3 and "time limit reached" in run.stdout, run.stdout
    assert time.monotonic() - started < 2.5
    assert not (tmp_path / "out.txt").exists()


def test_play_layers_are_the_plays_depths():
    """The longest play and where plays of each length end, against an enumeration of
    the plays (random digraphs on 5 vertices, both variants, directed and not)."""
    from pyasp_games.domains.geography.tqbf import play_layers

    rnd = random.Random(11)
    for _ in range(40):
        arcs = sorted({(rnd.randrange(5), rnd.randrange(5)) for _ in range(7)})
        for variant, directed in (("vertex", True), ("edge", True), ("edge", False)):
            ways = set(arcs) if directed else set(arcs) | {(v, u) for u, v in arcs}
            ends: dict[int, set[int]] = {}

            def walk(v, used, depth, ways=ways, variant=variant, directed=directed, ends=ends):
                ends.setdefault(depth, set()).add(v)
                for a, b in sorted(ways):
                    item = b if variant == "vertex" else ((a, b) if directed else frozenset((a, b)))
                    if a == v and item not in used:
                        walk(b, used | {item}, depth + 1)

            walk(0, {0} if variant == "vertex" else set(), 0)
            longest, layers = play_layers(5, sorted(ways), variant, directed)
            assert longest == max(ends) and layers == [ends[d] for d in range(longest + 1)], arcs
