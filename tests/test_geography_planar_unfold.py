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
from pyasp_games.domains.geography.planar_unfold import Positions, unfold
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
                    assert run.json()["route"] in ("drawing", "strategy", "unfold") and run.json()["winner_checked"], arcs


def tournament(rnd: random.Random, n: int) -> list[tuple[int, int]]:
    return [(u, v) if rnd.random() < 0.5 else (v, u) for u in range(n) for v in range(u + 1, n)]


def game_on(arcs: list[tuple[int, int]], n: int, variant: str = "vertex"):
    return make_instance(from_arcs([(str(u), str(v)) for u, v in arcs], [str(i) for i in range(n)]), "0", variant)


def winner_on(result) -> bool:
    return solve_game(make_instance(result, result.headers["start"]), line=False).first_wins


def test_tournament_edge_games_unfold_through_classes_of_positions():
    """Edge geography on tournaments of 6 vertices (no drawing of the game exists):
    positions merged up to isomorphism, the result planar (networkx) and its winner, solved
    natively on the result, the game's."""
    rnd = random.Random(5)
    merged = 0
    for n in (6, 6, 6):
        game = game_on(tournament(rnd, n), n, "edge")
        u = unfold(game)
        assert nx.check_planarity(u.graph.to_networkx().to_undirected())[0]
        assert winner_on(u.graph) == solve_game(game, line=False).first_wins
        merged += u.classes < u.unfolded + u.drawn  # a class written out more than once
    assert merged


def test_complete_digraphs_are_drawn_shared_in_rows():
    """K6 as a DAG of one class per depth drawn in rows (each crossing between two rows:
    no play passes a row twice), and K8 by whichever is smaller: planar, same winner."""
    k6 = game_on([(u, v) for u in range(6) for v in range(6) if u != v], 6)
    u = unfold(k6, share=True)
    # K6, K5 and K4 (planar: hung as it is); five copies of K5 each moving to four of K4:
    # C(5, 2) * C(4, 2) crossings between rows 1 and 2
    assert u.shared and u.classes == 3 and u.row_crossings == 60
    assert nx.check_planarity(u.graph.to_networkx().to_undirected())[0]
    assert winner_on(u.graph) == solve_game(k6, line=False).first_wins
    assert not unfold(k6).shared  # its tree (86 vertices) is smaller than the rows


class Forged(Positions):
    """Merges every position with as much material left into one class, isomorphic or not
    (and draws nothing: the whole game is written through its classes)."""

    def _drawn(self, v: int, avail: int) -> None:
        return None

    def class_of(self, v: int, avail: int) -> int:
        seen = self.__dict__.setdefault("forged", {})
        left = bin(avail).count("1")
        if left not in seen:
            seen[left] = super().class_of(v, avail)
        return seen[left]


def test_a_forged_merge_is_caught_by_the_check_of_the_winner():
    """A merge of positions whose games differ changes the winner on some game; the
    command's check (the game and the result both solved) refuses it, and the honest
    merge of the same game passes (three of these 22 seeded games are caught)."""
    from pyasp_games.cli.geography import _same_winner

    rnd = random.Random(1)
    caught = 0
    for k in range(22):
        game = game_on(random_arcs(rnd, 6, 12), 6) if k % 2 else game_on(tournament(rnd, 6), 6, "edge")
        forged = unfold(game, positions=Forged, share=False)
        if winner_on(forged.graph) == solve_game(game, line=False).first_wins:
            continue
        with pytest.raises(RuntimeError, match="another winner"):
            _same_winner(game, forged.graph, "p", None, None)
        if not caught:  # the honest merge of the same game passes
            assert _same_winner(game, unfold(game).graph, "p", None, None) in ("first", "second")
        caught += 1
    assert caught >= 2


@pytest.mark.slow
def test_the_complete_digraph_on_ten_vertices_and_tournaments_of_seven():
    """K10 in vertex geography (7 classes drawn in rows: about 19,000 vertices, 2,121
    crossings, its winner solved on the result in about 30 s of CPU) and edge geography on
    tournaments of 7 vertices (thousands of classes written as trees, a few seconds each)."""
    k10 = game_on([(u, v) for u in range(10) for v in range(10) if u != v], 10)
    u = unfold(k10)
    assert u.shared and u.classes == 7 and u.row_crossings == 2121 and u.planar
    assert winner_on(u.graph) == solve_game(k10, line=False).first_wins
    rnd = random.Random(7)
    for _ in range(2):
        game = game_on(tournament(rnd, 7), 7, "edge")
        u = unfold(game)
        assert u.planar and winner_on(u.graph) == solve_game(game, line=False).first_wins


class WrittenOut(Positions):
    """Draws no remaining game: every class's moves are written out (the whole DAG)."""

    def _drawn(self, v: int, avail: int) -> None:
        return None


def test_rows_keep_the_winner_on_irregular_dense_games():
    """Whole DAGs of dense 5- and 6-vertex games (vertex geography; edge geography on
    5-vertex tournaments) drawn shared in rows, classes on several rows and crossings
    between rows: planar (networkx) and the winner, solved on the result, the game's."""
    rnd = random.Random(11)
    crossings = 0
    for k in range(24):
        n = 5 + k % 2
        arcs = [(u, v) for u in range(n) for v in range(n) if u != v and rnd.random() < 0.8]
        game = game_on(arcs, n) if k % 3 else game_on(tournament(rnd, 5), 5, "edge")
        u = unfold(game, share=True, positions=WrittenOut)
        assert u.shared and nx.check_planarity(u.graph.to_networkx().to_undirected())[0]
        assert winner_on(u.graph) == solve_game(game, line=False).first_wins, (arcs, k)
        crossings += u.row_crossings
    assert crossings > 100
