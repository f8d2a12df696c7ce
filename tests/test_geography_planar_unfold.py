"""Planar Geography by the line digraph (directed edge geography) and by unfolding the first
moves (issue 43): the results are planar and their winner, solved on the result, is the
game's (brute-force minimax on the game, the native search on the result)."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from pyasp_games.domains.geography.model import make_instance, parse_instance
from pyasp_games.domains.geography.native import solve_game
from pyasp_games.domains.geography.planar import line_digraph, without_two_cycles
from pyasp_games.domains.geography.planar_unfold import unfold
from pyasp_games.domains.geography.verify import brute_force_winner
from pyasp_games.engines.graphs import from_arcs

from .conftest import run_cli
from .test_geography_planar_qbf import REFUSED_K5, k5_orientations


def random_arcs(rnd: random.Random, n: int, count: int) -> list[tuple[int, int]]:
    return sorted({(rnd.randrange(n), rnd.randrange(n)) for _ in range(count)})


def test_the_line_digraph_plays_edge_geography():
    rnd = random.Random(3)
    for _ in range(60):
        arcs = random_arcs(rnd, 4, 8)
        text = "".join(f"{u} {v}\n" for u, v in arcs) + "0\n"
        edge = parse_instance(text, "0", "edge")
        line = line_digraph(edge.graph, "0")
        vertex = make_instance(line, line.headers["start"], "vertex")
        assert brute_force_winner(vertex) == brute_force_winner(edge), arcs
        fewer = without_two_cycles(edge.graph)  # the 2-cycles left out: the same winner
        assert brute_force_winner(make_instance(fewer, "0", "edge")) == brute_force_winner(edge), arcs


def test_unfolding_keeps_the_winner_on_the_result():
    """Every variant on random small games, and orientations of K5 the drawing refuses:
    planar (networkx), and the result's winner, solved, is the game's (brute force)."""
    rnd = random.Random(9)
    games = []
    for variant, undirected in (("vertex", False), ("edge", False), ("edge", True), ("vertex", True)):
        for _ in range(5):
            arcs = random_arcs(rnd, 5, 8)
            games.append(parse_instance("".join(f"{u} {v}\n" for u, v in arcs) + "0\n", "0", variant,
                                        undirected))
    games += [make_instance(from_arcs([(str(u), str(v)) for u, v in arcs], [str(i) for i in range(5)]), "0")
              for arcs in [REFUSED_K5, *k5_orientations(False, random.Random(2), 6)]]
    unfolded = 0
    for game in games:
        u = unfold(game)
        assert nx.check_planarity(u.graph.to_networkx().to_undirected())[0]
        result = make_instance(u.graph, u.graph.headers["start"], "vertex")
        wins = solve_game(result, line=False).first_wins
        assert ("first" if wins else "second") == brute_force_winner(game), game.graph.format_arcs()
        unfolded += u.unfolded > 0
    assert unfolded >= 7  # the undirected edge games (no drawing: unfolded to the end) and K5s


def test_cli_unfolds_what_the_drawing_refuses(tmp_path):
    src = tmp_path / "k5.txt"
    src.write_text("# start: 0\n" + "".join(f"{u} {v}\n" for u, v in REFUSED_K5))
    run = run_cli("geography", "planarize", src, "--check", "--json", "-o", tmp_path / "out.txt")
    assert run.code == 0, run.stderr
    out = run.json()
    assert out["route"] == "unfold" and out["winner_checked"] == "second" and out["vertices"] < 40
    again = run_cli("geography", "solve", tmp_path / "out.txt")  # the file names its start
    assert again.code == 0 and "every first move loses" in again.stdout
    edge = tmp_path / "edge.txt"  # directed edge geography: drawn through its line digraph
    edge.write_text("# start: s\n# variant: edge\ns a\na s\ns b\nb s\na b\n")
    run = run_cli("geography", "planarize", edge, "--check", "--json", "-o", tmp_path / "e.txt")
    assert run.code == 0 and run.json()["route"] == "drawing", run.stderr


@pytest.mark.slow
def test_random_digraphs_of_six_to_ten_vertices_are_planarized_and_checked(tmp_path):
    """The campaign's games (out-degree about 2 and 3, both variants), through the command
    with --check: every one planarized, its winner solved on the result (about 15 s)."""
    rnd = random.Random(43)
    for n in range(6, 11):
        for degree in (2, 3):
            for k in range(4):
                arcs = [(u, v) for u in range(n) for v in range(n) if u != v and rnd.random() < degree / (n - 1)]
                for variant in ("vertex", "edge"):
                    src = tmp_path / f"g{n}-{degree}-{k}-{variant}.txt"
                    src.write_text(f"# start: 0\n# variant: {variant}\n0\n" + "".join(f"{u} {v}\n" for u, v in arcs))
                    run = run_cli("geography", "planarize", src, "--check", "--json", "-o", tmp_path / "out.txt",
                                  "--force", "--time-limit", "120")
                    assert run.code == 0, (arcs, variant, run.stderr)
                    assert run.json()["route"] in ("drawing", "unfold") and run.json()["winner_checked"], arcs
