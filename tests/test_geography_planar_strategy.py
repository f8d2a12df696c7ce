"""Planar Geography by the winner's strategy (issue 43): the game solved, one winning move
kept where the mover wins and every move where it loses, written out as a planar game.
The results are planar (networkx), their winner, solved on the result, is the game's
(brute-force minimax on the game), the checker of ``verify.py`` accepts the result's
strategy, and a forged choice of move is refused by the command's check."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from pyasp_games.domains.geography.model import make_instance
from pyasp_games.domains.geography.native import solve_game, strategy_proof
from pyasp_games.domains.geography.planar_unfold import StrategyPositions, strategy_unfold
from pyasp_games.domains.geography.verify import brute_force_winner, check_strategy
from pyasp_games.engines.graphs import from_arcs

from .conftest import run_cli


def tournament(rnd: random.Random, n: int) -> list[tuple[int, int]]:
    return [(u, v) if rnd.random() < 0.5 else (v, u) for u in range(n) for v in range(u + 1, n)]


def game_on(arcs: list[tuple[int, int]], n: int, variant: str):
    return make_instance(from_arcs([(str(u), str(v)) for u, v in arcs], [str(i) for i in range(n)]), "0", variant)


def certified(result) -> str:
    """The result's winner by the checker of verify.py (its strategy walked on the result)."""
    planar = make_instance(result, result.headers["start"])
    solved = solve_game(planar, line=False)
    answer = "first" if solved.first_wins else "second"
    move = None if solved.move is None else planar.move_name(solved.move)
    ok, message = check_strategy(planar, answer, move, strategy_proof(planar, search=solved.search))
    assert ok, message
    return answer


def test_tournament_edge_games_by_the_winners_strategy():
    """Edge geography on 6-vertex tournaments (the drawing refuses most) and on random
    digraphs with 2-cycles, vertex geography on both, and undirected games: planar, and the result's winner,
    certified on the result, is the brute-force winner of the game; both winners occur."""
    rnd = random.Random(43)
    winners = set()
    for k in range(12):
        arcs = (tournament(rnd, 6) if k % 2 else
                [(u, v) for u in range(6) for v in range(6) if u != v and rnd.random() < 0.4])
        game = game_on(arcs, 6, "edge" if k % 3 else "vertex")
        s = strategy_unfold(game)
        assert s.planar and nx.check_planarity(s.graph.to_networkx().to_undirected())[0]
        truth = brute_force_winner(game)
        assert certified(s.graph) == truth, game.graph.format_arcs()
        winners.add(truth)
    assert winners == {"first", "second"}
    for k in range(6):  # undirected, both variants (no drawing of undirected edge games)
        arcs = [(u, v) for u in range(6) for v in range(u + 1, 6) if rnd.random() < 0.5]
        game = make_instance(from_arcs([(str(u), str(v)) for u, v in arcs], [str(i) for i in range(6)]), "0",
                             "edge" if k % 2 else "vertex", undirected=True)
        s = strategy_unfold(game)
        assert s.planar and certified(s.graph) == brute_force_winner(game), game.graph.format_arcs()


class LosingMove(StrategyPositions):
    """Forged: where the mover wins, keeps a move that loses, if there is one."""

    def choose(self, v, avail, children):
        wins = self.search.position_wins
        if children and wins(v, avail):
            losing = [ch for ch in children if wins(*ch)]
            return losing[:1] or children[:1]
        return children


def test_a_forged_strategy_is_refused_by_the_check_of_the_winner():
    from pyasp_games.cli.geography import _same_winner

    rnd = random.Random(2)
    caught = 0
    for _ in range(6):
        game = game_on(tournament(rnd, 6), 6, "edge")
        forged = strategy_unfold(game, positions=LosingMove, share=False)
        if certified(forged.graph) == brute_force_winner(game):
            continue
        with pytest.raises(RuntimeError, match="another winner"):
            _same_winner(game, forged.graph, "p", None, None)
        caught += 1
    assert caught >= 2


def test_cli_strategy_route_on_an_eight_vertex_tournament(tmp_path):
    """The command on an 8-vertex tournament's edge game (no safe drawing, the whole
    unfolding beyond 100,000 vertices): the winner's strategy, its winner solved on the
    result, and certified by verify.py's checker on the game and on the result."""
    arcs = tournament(random.Random(8), 8)
    src = tmp_path / "t8.txt"
    src.write_text("# start: 0\n# variant: edge\n" + "".join(f"{u} {v}\n" for u, v in arcs))
    run = run_cli("geography", "planarize", src, "--route", "strategy", "--check", "--json",
                  "-o", tmp_path / "out.txt")
    assert run.code == 0, run.stderr
    out = run.json()
    winner = "first" if solve_game(game_on(arcs, 8, "edge"), line=False).first_wins else "second"
    assert out["route"] == "strategy" and out["winner_checked"] == winner, out
    assert all(said.startswith(winner) for said in out["certificates"].values())
    assert out["winner_preserved"] is True
    # without --check as well: built from the search's values, so certified on every run
    plain = run_cli("geography", "planarize", src, "--route", "strategy", "--json",
                    "-o", tmp_path / "plain.txt")
    assert plain.code == 0 and plain.json()["winner_preserved"] is True, plain.stderr
    assert all(said.startswith(winner) for said in plain.json()["certificates"].values())
    again = run_cli("geography", "solve", tmp_path / "out.txt", "--json")
    assert again.code == 0 and again.json()["answer"] == winner


@pytest.mark.slow
def test_the_strategy_route_planarizes_the_campaigns_tournaments_in_both_variants(tmp_path):
    """The campaign's random tournaments of 8 and 10 vertices (seed 43), both variants,
    through the command's strategy route with --check: every one planarized, its winner solved
    on the result, certified on the game and the result (about 30 s of CPU, most of it the
    certificates of both winners)."""
    rnd = random.Random(43)
    games = {n: [tournament(rnd, n) for _ in range(3)] for n in (6, 8, 10)}
    for n in (8, 10):
        for arcs in games[n]:
            for variant in ("vertex", "edge"):
                src = tmp_path / "t.txt"
                src.write_text(f"# start: 0\n# variant: {variant}\n" + "".join(f"{u} {v}\n" for u, v in arcs))
                run = run_cli("geography", "planarize", src, "--route", "strategy", "--check", "--json",
                              "-o", tmp_path / "out.txt", "--force", timeout=600)  # (wall: the machine may be loaded)
                assert run.code == 0, (arcs, variant, run.stderr)
                truth = solve_game(game_on(arcs, n, variant), line=False).first_wins
                assert run.json()["winner_checked"] == ("first" if truth else "second")
                if run.json()["route"] == "strategy":
                    assert all(said.startswith(run.json()["winner_checked"])
                               for said in run.json()["certificates"].values())
