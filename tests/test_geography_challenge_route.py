"""`geography planarize --route challenge` (issue 43): the challenged game as a route of
the command, its winner certified on the planar result, and `auto`'s fallback to it."""

from __future__ import annotations

import random

import pytest

from pyasp_games.domains.geography.model import make_instance, parse_instance
from pyasp_games.domains.geography.native import solve_game
from pyasp_games.engines.graphs import from_arcs

from .conftest import run_cli


def _winner(text: str, start: str | None, variant: str, undirected: bool = False) -> str:
    g = parse_instance(text, start, variant, undirected)
    return "first" if solve_game(g, line=False).first_wins else "second"


@pytest.mark.parametrize(("text", "variant", "flags"), [
    ("s a\na b\nb s\n", "edge", []),                       # the first player wins
    ("s a\na s\n", "edge", []),                            # a 2-cycle: the second wins
    ("s a\ns b\na b\nb c\n", "vertex", []),
    ("s a\na b\nb s\nb c\n", "edge", ["--undirected"]),
])
def test_the_challenged_route_certifies_its_winner_on_the_result(tmp_path, text, variant, flags):
    src = tmp_path / "g.txt"
    src.write_text(f"# start: s\n# variant: {variant}\n{text}")
    out = tmp_path / "planar.txt"
    run = run_cli("geography", "planarize", src, "--route", "challenge", "--check", "--json", "-o", out,
                  *flags)
    assert run.code == 0, run.stderr
    said = run.json()
    winner = _winner(text, "s", variant, undirected=bool(flags))
    assert said["route"] == "challenge" and said["planar"] is True and said["winner_preserved"] is True
    assert said["winner_checked"] == winner, said
    assert said["certificates"]["result"].startswith(f"{winner}: "), said
    if said["vertices"] <= 1_000:  # the file written is the planar game: solved where small
        again = run_cli("geography", "solve", out, "--json")
        assert again.code == 0 and again.json()["answer"] == winner


def test_auto_falls_back_to_the_challenged_game_beyond_the_unfolding(tmp_path, monkeypatch):
    """With the unfolding given no room, `auto` goes to the challenged game (not the QBF
    route) on a game the drawing refuses: K5's orientation of `k5-unsafe.txt`."""
    import pyasp_games.cli.geography as cli

    monkeypatch.setattr(cli, "AUTO_UNFOLDED", 0)
    run = run_cli("geography", "planarize", "instances/geography/k5-unsafe.txt", "--json", "--check",
                  "-o", tmp_path / "p.txt")
    assert run.code == 0, run.stderr
    said = run.json()
    assert said["route"] == "challenge" and "refused_drawing" in said
    with open("instances/geography/k5-unsafe.txt") as f:
        assert said["winner_checked"] == _winner(f.read(), None, "vertex")


def test_the_challenged_route_refuses_a_result_beyond_its_size(tmp_path, monkeypatch):
    import pyasp_games.cli.geography as cli

    monkeypatch.setattr(cli, "CHALLENGED_VERTICES", 100)
    src = tmp_path / "g.txt"
    src.write_text("# start: s\n# variant: edge\ns a\na b\nb s\n")
    run = run_cli("geography", "planarize", src, "--route", "challenge", "-o", tmp_path / "p.txt")
    assert run.code == 2 and "beyond 100" in run.stderr and "Traceback" not in run.stderr
    assert not (tmp_path / "p.txt").exists()


@pytest.mark.slow
def test_an_eight_vertex_tournament_edge_game_certified_through_the_challenged_game(tmp_path):
    """The case the unfolding and the QBF route could not carry: a random tournament's edge
    game on 8 vertices (no safe drawing of its line digraph), its winner certified on the
    planar result of about 10^5-10^6 vertices."""
    rnd = random.Random(8)
    arcs = [(u, v) if rnd.random() < 0.5 else (v, u) for u in range(8) for v in range(u + 1, 8)]
    src = tmp_path / "t8.txt"
    src.write_text("# start: 0\n# variant: edge\n" + "".join(f"{u} {v}\n" for u, v in arcs))
    run = run_cli("geography", "planarize", src, "--route", "challenge", "--check", "--json",
                  "-o", tmp_path / "out.txt", timeout=600)
    assert run.code == 0, run.stderr
    said = run.json()
    game = make_instance(from_arcs([(str(u), str(v)) for u, v in arcs], [str(i) for i in range(8)]), "0", "edge")
    assert said["winner_checked"] == ("first" if solve_game(game, line=False).first_wins else "second")


def test_a_certificate_walk_beyond_its_budget_is_said_not_certified(tmp_path, monkeypatch):
    """Past the walk's budget the result's winner is not claimed as checked: said "not
    certified", `winner_checked` null, while the construction's proof still stands."""
    import pyasp_games.cli.geography as cli

    monkeypatch.setattr(cli, "CHALLENGED_WALK", 50)
    src = tmp_path / "g.txt"
    src.write_text("# start: s\n# variant: edge\ns a\na b\nb s\n")
    run = run_cli("geography", "planarize", src, "--route", "challenge", "--check", "--json",
                  "-o", tmp_path / "p.txt")
    assert run.code == 0, run.stderr
    said = run.json()
    assert said["winner_checked"] is None and said["winner_preserved"] is True
    assert said["certificates"]["result"].startswith("not certified"), said
    plain = run_cli("geography", "planarize", src, "--route", "challenge", "--check", "-o", tmp_path / "q.txt")
    assert plain.code == 0 and "not certified" in plain.stderr and "certified on the result" not in plain.stderr
