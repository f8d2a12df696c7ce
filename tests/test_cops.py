"""Cops and Robbers: the literature's cop numbers, both rule sets' answers replayed by the
checker, the checker refusing tampered proofs, dismantlability against retrograde
analysis, and the command line's answers and refusals."""

from __future__ import annotations

import copy
import math
from pathlib import Path

import networkx as nx
import pytest

from pyasp_games.domains import cops
from pyasp_games.domains.cops.dismantling import dismantling_order
from pyasp_games.domains.cops.model import (
    CopsGame,
    load_graph_game,
    make_game,
    parse_instance,
    read_graph,
    small_games,
)
from pyasp_games.domains.cops.play import play
from pyasp_games.domains.cops.retrograde import Table
from pyasp_games.domains.cops.verify import check_number, check_solve
from pyasp_games.engines.graphs import graph_from_edges

from .conftest import assert_bad_input, run_cli
from .conftest import saved_answer as _saved


def cop_number(name: str) -> int:
    out = cops.number(load_graph_game(name))
    assert out.status == "solved" and out.verdict.verified is True, out.verdict.message
    return out.answer


# -- the literature's values --------------------------------------------------------------


@pytest.mark.parametrize("name", ["path:1", "path:6", "tree:12:1", "tree:15:4", "star:5",
                                  "complete:5"])  # fmt: skip
def test_trees_and_complete_graphs_need_one_cop(name):
    assert cop_number(name) == 1


def test_dismantlable_graphs_need_one_cop():
    # a chordal graph (every chordal graph is dismantlable): a fan, and two triangles
    # sharing an edge with a pendant path
    fan = "fan-5.txt"
    g = graph_from_edges([(0, i) for i in range(1, 6)] + [(i, i + 1) for i in range(1, 5)], name=fan)
    game = CopsGame(g)
    assert dismantling_order(g) is not None
    assert cops.number(game).answer == 1


@pytest.mark.parametrize("name", ["cycle:4", "cycle:5", "cycle:9", "grid:2x2", "grid:3x3",
                                  "grid:3x5", "grid:4x4"])  # fmt: skip
def test_cycles_and_grids_need_two_cops(name):
    assert cop_number(name) == 2


def test_petersen_and_dodecahedron_need_three_cops():
    assert cop_number("petersen") == 3
    assert cop_number("dodecahedron") == 3


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_hypercube_needs_ceil_half_of_n_plus_one(n):
    assert cop_number(f"hypercube:{n}") == math.ceil((n + 1) / 2)


@pytest.mark.slow
def test_hypercube_q5_needs_three_cops():
    assert cop_number("hypercube:5") == 3


def test_the_robertson_graph_is_the_four_five_cage():
    g = read_graph("robertson").to_networkx()
    assert g.number_of_nodes() == 19 and g.number_of_edges() == 38
    assert {d for _, d in g.degree()} == {4} and nx.girth(g) == 5


@pytest.mark.slow
def test_the_robertson_graph_needs_four_cops():
    assert cop_number("robertson") == 4


def test_small_atlas_graphs_one_cop_is_dismantlability():
    """Every connected graph of the atlas up to 6 vertices: retrograde analysis with one
    cop wins exactly on the dismantlable ones, and no graph needs three cops."""
    for number in range(1, 209):  # the atlas' graphs on at most 6 vertices
        g = nx.graph_atlas(number)
        if g.number_of_nodes() == 0 or not nx.is_connected(g):
            continue
        graph = read_graph(f"atlas:{number}")
        t = Table.build(CopsGame(graph), 1)
        won = (t.cops_value.reshape(t.placements, len(graph)) >= 0).all(axis=1).any()
        assert bool(won) == (dismantling_order(graph) is not None), number


@pytest.mark.slow
def test_every_connected_atlas_graph_needs_at_most_two_cops():
    for number in range(1, 1253):
        g = nx.graph_atlas(number)
        if g.number_of_nodes() == 0 or not nx.is_connected(g):
            continue
        assert cop_number(f"atlas:{number}") <= 2, number


# -- solve: both rule sets, replayed by the checker ----------------------------------------


@pytest.mark.parametrize("variant", ["classic", "notes"])
def test_every_small_game_is_proved(variant):
    for game in small_games(variant):
        for side in ("cops", "robber"):
            game.to_move = side
            out = cops.solve(game, "native")
            assert out.status == "solved" and out.verdict.verified is True, (
                game.describe(), out.verdict.message)  # fmt: skip


def test_path_and_cycle_answers():
    path = parse_instance("a b\nb c\nc d\n", cops="a", robber="d")
    assert cops.solve(path, "native").answer == {"winner": "cops", "moves": 3}
    cycle = "a b\nb c\nc d\nd a\n"
    assert cops.solve(parse_instance(cycle, "a", "c"), "native").answer["winner"] == "robber"
    two = parse_instance("a b\nb c\nc d\nd e\ne a\n", "a b", "d", variant="notes")
    assert cops.solve(two, "native").answer == {"winner": "cops", "moves": 2}


def test_the_notes_cops_pass_when_stuck():
    # a-b-c: the cop on a cannot move (b holds the robber); it passes, the robber must
    # move to c, and the cop traps it from b
    game = parse_instance("a b\nb c\n", "a", "b", variant="notes")
    out = cops.solve(game, "native")
    assert out.answer == {"winner": "cops", "moves": 2} and out.verdict.verified


def test_the_notes_start_trapped_is_a_win_in_no_moves():
    game = parse_instance("a b\nb c\n", "b", "a", variant="notes")
    assert cops.solve(game, "native").answer == {"winner": "cops", "moves": 0}


def _solved(text: str, cops_at: str, robber: str, variant: str = "classic"):
    game = parse_instance(text, cops_at, robber, variant=variant)
    return game, cops.solve(game, "native")


def test_the_checker_refuses_a_tampered_cops_strategy():
    game, out = _solved("a b\nb c\nc d\nd e\n", "a", "e")
    assert out.answer == {"winner": "cops", "moves": 4} and out.verdict.verified
    faster = copy.deepcopy(out)
    faster.answer = {"winner": "cops", "moves": 3}  # the defence shows 4 are needed
    assert check_solve(game, faster)[0] is False
    wrong = copy.deepcopy(out)
    wrong.witness["cops_strategy"][0]["move"] = ["c"]  # not a neighbour of a
    assert check_solve(game, wrong) == (False, "cops a robber e: the cops cannot move to ['c']")
    short = copy.deepcopy(out)
    short.witness["cops_strategy"].pop()
    assert check_solve(game, short)[0] is False
    robber = copy.deepcopy(out)
    robber.answer = {"winner": "robber", "moves": None}
    assert check_solve(game, robber)[0] is False


def test_the_checker_refuses_a_tampered_robber_strategy():
    game, out = _solved("a b\nb c\nc d\nd a\n", "a", "c")
    assert out.answer["winner"] == "robber" and out.verdict.verified
    walk_in = copy.deepcopy(out)
    entry = walk_in.witness["robber_strategy"][0]
    entry["move"] = entry["cops"][0]  # onto the cop
    assert check_solve(game, walk_in)[0] is False
    gap = copy.deepcopy(out)
    gap.witness["robber_strategy"] = gap.witness["robber_strategy"][1:]
    assert check_solve(game, gap)[0] is False


def test_the_checker_refuses_a_tampered_cop_number():
    game = load_graph_game("petersen")
    out = cops.number(game)
    low = copy.deepcopy(out)
    low.answer, low.witness["cops"] = 2, 2
    assert check_number(game, low)[0] is False
    thin = copy.deepcopy(out)
    first = thin.witness["escape"][0]["cops"]  # no escape against one placement
    thin.witness["escape"] = [e for e in thin.witness["escape"] if e["cops"] != first]
    assert check_number(game, thin)[0] is False
    caught = copy.deepcopy(out)
    caught.witness["escape"][0]["robber"] = caught.witness["escape"][0]["cops"][0]
    assert check_number(game, caught)[0] is False


def test_capture_within_is_the_strategys_worst_case():
    """The number ``cops number`` prints ("within N moves") is checked against the
    strategy itself: a smaller or a larger one is refused."""
    game = load_graph_game("path:5")
    out = cops.number(game)
    assert out.witness["capture_within"] == 2 and out.verdict.verified is True
    assert "within 2 moves, the strategy's worst case" in out.verdict.message
    for wrong in (0, 1, 3, "2", True, None):
        tampered = copy.deepcopy(out)
        tampered.witness["capture_within"] = wrong
        ok, message = check_number(game, tampered)
        assert ok is False and "the strategy's worst case is 2 moves" in message, wrong


def test_the_certificates_dismantlability_is_checked():
    game = load_graph_game("path:4")
    out = cops.number(game)
    assert out.certificate == {"dismantlable": True, "dismantling_order": ["0", "1", "2", "3"]}
    for certificate, said in [
        ({"dismantlable": True, "dismantling_order": ["1", "0", "2", "3"]}, "removes 1, not a corner"),
        ({"dismantlable": True, "dismantling_order": ["0", "1", "2"]}, "every vertex once"),
        ({"dismantlable": False, "dismantling_order": None}, "one cop wins exactly"),
        ({"dismantlable": "yes"}, "does not say whether"),
    ]:
        tampered = copy.deepcopy(out)
        tampered.certificate = certificate
        ok, message = check_number(game, tampered)
        assert ok is False and said in message, certificate
    cycle = load_graph_game("cycle:4")
    out = cops.number(cycle)
    assert out.answer == 2 and out.certificate == {"dismantlable": False, "dismantling_order": None}
    tampered = copy.deepcopy(out)
    tampered.certificate = {"dismantlable": True, "dismantling_order": ["0", "1", "2", "3"]}
    assert check_number(cycle, tampered)[0] is False


# -- saved answers checked again (pyasp-games verify) ----------------------------------------


def _refuted(again) -> bool:
    return again.verdict.verified is False and again.status == "error"


@pytest.mark.parametrize("backend", ["native", "asp", "sat"])
@pytest.mark.parametrize("name", ["path4.txt", "cycle4.txt", "cycle5-notes-two-cops.txt",
                                  "star-robber-first.txt", "grid3x3-notes-robber-first.txt"])  # fmt: skip
def test_a_saved_solve_answer_is_checked_again_and_a_tampered_one_refused(backend, name):
    from pyasp_games.domains.cops.model import load_game
    from pyasp_games.domains.cops.questions import SOLVE

    game = load_game(f"instances/cops/{name}")
    out = SOLVE.solve(game, backend)
    assert out.verdict.verified is True
    saved = _saved(out)
    again = SOLVE.recheck(game, saved)
    assert (again.status, again.answer, again.witness) == ("solved", out.answer, out.witness)
    assert again.verdict.fully_verified, again.verdict.message
    if out.answer["winner"] == "cops":
        moves = out.answer["moves"]
        for wrong in (moves - 1, moves + 1):
            assert _refuted(SOLVE.recheck(game, {**saved, "answer": {"winner": "cops", "moves": wrong}}))
        assert _refuted(SOLVE.recheck(game, {**saved, "answer": {"winner": "robber", "moves": None}}))
        table = "cops_strategy"
    else:
        assert _refuted(SOLVE.recheck(game, {**saved, "answer": {"winner": "cops", "moves": 1}}))
        table = "robber_strategy"
    tampered = copy.deepcopy(saved)
    entry = tampered["witness"][table][0]
    entry["move"] = entry["cops"] if table == "cops_strategy" else entry["cops"][0]  # no move / caught
    again = SOLVE.recheck(game, tampered)
    assert _refuted(again), again.verdict.message


@pytest.mark.parametrize("backend", ["native", "asp", "sat"])
@pytest.mark.parametrize("name", ["path:4", "cycle:4", pytest.param("petersen", marks=pytest.mark.slow)])
def test_a_saved_cop_number_is_checked_again_and_a_tampered_one_refused(backend, name):
    from pyasp_games.domains.cops.questions import NUMBER

    game = load_graph_game(name)
    out = NUMBER.solve(game, backend)
    assert out.verdict.verified is True
    saved = _saved(out)
    again = NUMBER.recheck(game, saved)
    assert (again.status, again.answer, again.witness) == ("solved", out.answer, out.witness)
    assert again.certificate == out.certificate and again.verdict.fully_verified
    k = out.answer
    low = copy.deepcopy(saved)
    low["answer"] = low["witness"]["cops"] = k + 1
    assert _refuted(NUMBER.recheck(game, low))
    within = copy.deepcopy(saved)  # the printed "within N moves", set to 0
    within["witness"]["capture_within"] = 0
    again = NUMBER.recheck(game, within)
    assert _refuted(again) and "the strategy's worst case is" in again.verdict.message
    escape = copy.deepcopy(saved)
    if k > 1:
        first = escape["witness"]["escape"][0]["cops"]  # no escape against one placement
        escape["witness"]["escape"] = [e for e in escape["witness"]["escape"] if e["cops"] != first]
        assert _refuted(NUMBER.recheck(game, escape))
    flipped = {**saved, "certificate": {"dismantlable": k > 1, "dismantling_order": None}}
    assert _refuted(NUMBER.recheck(game, flipped))


# -- the command line ----------------------------------------------------------------------


def test_solve_and_number_on_the_command_line():
    run = run_cli("cops", "solve", "instances/cops/cycle5-notes-two-cops.txt")
    assert run.code == 0 and "the cops win in 2 moves" in run.stdout
    assert "the notes' rules" in run.stdout
    run = run_cli("cops", "solve", "cycle:5", "--cops", "0", "--robber", "2", "--json")
    assert run.code == 0 and run.json()["answer"] == {"winner": "robber", "moves": None}
    assert run.json()["witness"]["rules"] == "classic"
    run = run_cli("cops", "number", "petersen")
    assert run.code == 0 and "c(G) = 3" in run.stdout and "2 cops never catch it" in run.stdout


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["solve", "cycle:4", "--cops", "0", "--robber", "9"], "has no vertex '9'"),
        (["solve", "cycle:4", "--cops", "0,x", "--robber", "2"], "has no vertex 'x'"),
        (["solve", "cycle:4", "--cops", ",", "--robber", "2"], "expected vertex names"),
        (["solve", "cycle:4", "--robber", "2"], "give the start squares"),
        (["solve", "cycle:4", "--cops", "0,0", "--robber", "2", "--variant", "notes"],
         "two cops cannot start on one vertex"),
        (["solve", "cycle:4", "--cops", "0", "--robber", "0", "--variant", "notes"],
         "cannot start on a cop"),
        (["solve", "cycle:4", "--cops", "0", "--robber", "1,2"], "one robber"),
        (["solve", "grid:40x40", "--cops", "0,0 0,1 0,2 0,3", "--robber", "5,5"],
         "positions (at most"),
        (["solve", "cycle:4", "--cops", ",".join("0" * 13), "--robber", "2"], "too many"),
        (["solve", "missing-file.txt", "--cops", "0", "--robber", "1"], "missing-file.txt"),
        (["number", "atlas:0"], "numbers its graphs 1 to 1252"),
        (["number", "nowhere.txt"], "nowhere.txt"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line(args, fragment):
    assert_bad_input(run_cli("cops", *args), fragment)


@pytest.mark.parametrize("cops_at, placed", [
    ("0,0", ("0,0",)),  # one cop on a grid vertex, as docs/cops.md names it
    ("0,0,2,0", ("0,0", "2,0")),  # two, the commas read the one way they make vertices
    ("0,0 2,0", ("0,0", "2,0")),  # two, separated by a space
])
def test_grid_vertices_are_named_as_the_doc_says(cops_at, placed):
    run = run_cli("cops", "solve", "grid:3x3", "--cops", cops_at, "--robber", "2,2", "--json")
    assert run.code == 0, run.stderr
    witness = run.json()["witness"]
    game = make_game(read_graph("grid:3x3"), cops_at, "2,2")
    assert tuple(game.names[c] for c in game.cops) == placed and game.names[game.robber] == "2,2"
    assert witness is not None


def test_vertex_names_that_split_two_ways_are_refused(tmp_path):
    f = tmp_path / "g.txt"
    f.write_text("1 1,1\n1,1 2\n2 1\n")
    assert_bad_input(run_cli("cops", "solve", f, "--cops", "1,1", "--robber", "2"),
                     "splits into vertices of g.txt in more than one way")
    run = run_cli("cops", "solve", f, "--cops", "1 1", "--robber", "2", "--json")
    assert run.code == 0, run.stderr  # spaces: two cops on 1
    assert_bad_input(run_cli("cops", "solve", "grid:3x3", "--cops", "0,0,9,9", "--robber", "2,2"),
                     "grid:3x3 has no vertex '9,9'")


def test_the_notes_convention_for_a_robber_trapped_at_the_start_is_documented():
    run = run_cli("cops", "solve", "path:3", "--cops", "0,2", "--robber", "1", "--variant", "notes",
                  "--json")
    assert run.json()["answer"] == {"winner": "cops", "moves": 0}
    for side in ("cops", "robber"):
        run = run_cli("cops", "solve", "path:3", "--cops", "0,2", "--robber", "1", "--variant",
                      "notes", "--to-move", side)
        assert run.code == 0 and "the robber is caught at the start" in run.stdout
    doc = " ".join((Path(__file__).parent.parent / "docs" / "cops.md").read_text().split())
    assert "who wins when the robber is trapped at the start" in doc
    assert "the robber is caught at the start" in doc


def test_play_never_offers_the_robber_a_cop_s_vertex_and_says_who_stays():
    said: list[str] = []
    # path a-b-c, the cop on a, the robber (you) on c: the cops win; c's neighbour b is free
    game = parse_instance("a b\nb c\nc d\n", cops="a", robber="c")
    play(game, iter(["b", "d"]).__next__, said.append)
    offer = next(line for line in said if "one of:" in line)
    assert offer.endswith("(one of: c d)"), offer  # the cop moved to b: not offered
    assert any("a cop stands there" in line for line in said), said
    said.clear()
    # cycle:4, the cop on 0, the robber on 2: the robber escapes; he stays while he can
    game = make_game(read_graph("cycle:4"), "0", "2")
    play(game, iter(["0", "1", "quit"]).__next__, said.append)
    robber = [line for line in said if line.startswith("The robber")]
    assert robber and all(" stays at " in line or " moves to " in line for line in robber)
    assert robber[0] == "The robber stays at 2.", said  # not "moves to 2"


def test_a_disconnected_graph_has_no_cop_number(tmp_path):
    f = tmp_path / "two.txt"
    f.write_text("a b\nc d\n")
    assert_bad_input(run_cli("cops", "number", f), "not connected")


def test_a_game_on_a_disconnected_graph_is_played(tmp_path):
    f = tmp_path / "two.txt"
    f.write_text("a b\nc d\n")
    run = run_cli("cops", "solve", f, "--cops", "a", "--robber", "c", "--json")
    assert run.code == 0 and run.json()["answer"]["winner"] == "robber"


@pytest.mark.xdist_group("timing")
def test_a_time_limit_is_unknown():
    run = run_cli("cops", "number", "hypercube:7", "--time-limit", "0.5")
    assert run.code == 3, run.stderr


def test_a_limit_reached_outside_the_backend_names_the_graph_and_the_backend(monkeypatch):
    """A limit reached in the check (after the backend) is reported as the outcome would
    be: the problem named after the graph, the backend given (not "cops number", null)."""
    import pyasp_games.engines.question as question
    from pyasp_games.engines.limits import LimitReached

    real = question.run_backend

    def checked_too_long(*args, **kwargs):
        real(*args, **kwargs)
        raise LimitReached({"limit": "time"})

    monkeypatch.setattr(question, "run_backend", checked_too_long)
    run = run_cli("cops", "number", "petersen", "--json")
    assert run.code == 3
    data = run.json()
    assert (data["problem"], data["backend"], data["status"]) == ("petersen", "native", "unknown")
    run = run_cli("cops", "number", "instances/cops/cycle5-notes-two-cops.txt", "-b", "sat")
    assert run.code == 3 and run.stdout.startswith("cycle5-notes-two-cops.txt: unknown ("), run.stdout


def test_make_game_reads_the_headers():
    g = read_graph("instances/cops/grid3x3-notes-robber-first.txt")
    game = make_game(g)
    assert (game.variant, game.to_move, game.k) == ("notes", "robber", 2)


# -- asp and sat against native -------------------------------------------------------------


@pytest.mark.parametrize("variant", ["classic", "notes"])
@pytest.mark.parametrize("backend", ["asp", "sat"])
def test_asp_and_sat_agree_with_native_on_small_games(variant, backend):
    for game in list(small_games(variant))[::2]:
        for side in ("cops", "robber"):
            game.to_move = side
            mine, native = cops.solve(game, backend), cops.solve(game, "native")
            assert mine.verdict.verified is True, (game.describe(), mine.verdict.message)
            assert mine.answer == native.answer, game.describe()


@pytest.mark.parametrize("backend", ["asp", "sat"])
def test_asp_and_sat_answer_the_bundled_games(backend):
    from pyasp_games.domains.cops.model import known_answer
    from pyasp_games.engines.resources import instance_dir

    for name in ("path4", "cycle4", "cycle5-notes-two-cops", "grid3x3-notes-robber-first"):
        game = make_game(read_graph(instance_dir("cops") / f"{name}.txt"))
        out = cops.solve(game, backend)
        assert out.verdict.verified is True and out.answer == known_answer(game), name


def test_the_backends_refuse_what_they_cannot_ground():
    game = make_game(read_graph("grid:6x6"), "0,0 0,1 0,2", "5,5")
    assert_bad_input(run_cli("cops", "solve", "grid:6x6", "--cops", "0,0 0,1 0,2 0,3",
                             "--robber", "5,5", "-b", "asp"), "the asp backend would ground")  # fmt: skip
    assert_bad_input(run_cli("cops", "solve", "grid:6x6", "--cops", "0,0 0,1 0,2 0,3",
                             "--robber", "5,5", "-b", "sat"), "the sat backend would add")  # fmt: skip
    assert game.k == 3


def test_an_emitted_program_runs_as_printed(tmp_path):
    import shlex
    import subprocess
    import sys

    f = tmp_path / "c5.lp"
    run = run_cli("cops", "solve", "instances/cops/cycle5-notes-two-cops.txt", "-b", "asp",
                  "--emit-lp", f)  # fmt: skip
    assert run.code == 0
    call = shlex.split(next(line for line in f.read_text().splitlines() if line.startswith("% run:"))[7:])
    assert call[:3] == ["python", "-m", "pyasp_games.engines.incmode"]
    done = subprocess.run([sys.executable, *call[1:]], capture_output=True, text=True, timeout=120)
    assert "SATISFIABLE" in done.stdout and "cw_at(" in done.stdout


# -- play ----------------------------------------------------------------------------------


def test_play_in_a_terminal_asks_again_and_ends_with_the_input():
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "pyasp_games", "cops", "play", "cycle:4", "--cops",
                          "0", "--robber", "2"], input="zz\n0 2\n1\n", capture_output=True,
                         text=True, timeout=120)  # fmt: skip
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "I play the robber" in out and "'zz': no vertex of that name" in out
    assert "'0 2': give the vertex the cop moves to (or stays on)" in out
    assert "The robber moves to" in out and out.rstrip().endswith("end of input: game abandoned")


@pytest.mark.parametrize("variant", ["classic", "notes"])
def test_the_solver_wins_what_it_can_whatever_you_play(variant):
    from pyasp_games.domains.cops.play import play

    game = parse_instance("a b\nb c\nc d\nd e\nc f\n", "a b", "e", variant=variant)
    said: list[str] = []
    moves = iter(["zz", "e", "d", "e", "f", "c", "d", "e", "d", "e", "f"] * 3)
    play(game, moves.__next__, said.append)
    assert "I play the cops" in said[1]
    assert said[-1].endswith("the cops win."), said


def test_fuzz_finds_a_planted_bug_in_the_small_scope(tmp_path):
    from pyasp_games.engines.resources import encoding_path

    bad = tmp_path / "no-staying.lp"  # nobody may stay: not the classic game
    bad.write_text(encoding_path("cops", "classic").read_text().replace("step(V,V) :- vertex(V).", ""))
    run = run_cli("fuzz", "cops", "--encoding", bad, "--family", "classic", "--total-time", "30",
                  "--out", tmp_path, "--no-blame")  # fmt: skip
    assert run.code == 1 and "found in the small scope" in run.stdout, run.stdout + run.stderr


@pytest.mark.parametrize("backend", ["asp", "sat"])
def test_asp_and_sat_cop_numbers_agree_with_native(backend):
    for name in ("path:3", "cycle:5", "grid:2x3", "complete:4", "tree:7:2", "atlas:112"):
        game = load_graph_game(name)
        mine, native = cops.number(game, backend), cops.number(game)
        assert mine.verdict.verified is True, (name, mine.verdict.message)
        assert mine.answer == native.answer, name


# -- the automorphism reduction ------------------------------------------------------------


def _assert_a_fixpoint(t: Table) -> None:
    """Every position's value is the rules' (the minimum/maximum over its moves, one more
    for the cops' turn), and every recorded best move is a legal move that attains it."""
    n = t.n
    for p in range(t.placements * n):
        c, r = divmod(p, n)
        cv, rv = int(t.cops_value[p]), int(t.robber_value[p])
        if cv <= 0:
            continue
        to = int(t.cops_best[p])
        moves = [int(m) for m, w in zip(t.cop_moves(c), t.landings(c), strict=True)
                 if t.classic or w != r] or [c]  # fmt: skip
        assert to in moves and t.robber_value[to * n + r] == cv - 1
        assert min(v for m in moves if (v := int(t.robber_value[m * n + r])) >= 0) == cv - 1
        if rv > 0:
            w = int(t.robber_best[p])
            assert w in t.robber_moves(c, r) and t.cops_value[c * n + w] == rv


@pytest.mark.parametrize(("name", "k", "variant"), [
    ("petersen", 2, "classic"), ("petersen", 3, "classic"), ("cycle:7", 2, "notes"),
    ("grid:3x4", 2, "classic"), ("grid:3x3", 3, "notes"), ("hypercube:3", 2, "notes"),
    ("path:5", 1, "classic"), ("star:4", 2, "notes"),
])  # fmt: skip
def test_the_reduced_table_is_the_whole_table(name, k, variant, monkeypatch):
    """Deciding one position per orbit of the graph's automorphisms and carrying the
    values and moves back gives every position the value of the unreduced analysis, and
    moves (the images of the representatives') that are legal and optimal (small tables
    here: reduced too, for the test)."""
    monkeypatch.setattr("pyasp_games.domains.cops.symmetry.MIN_POSITIONS", 0)
    game = CopsGame(read_graph(name), variant)
    whole = Table.build(game, k, symmetric=False)
    reduced = Table.build(game, k)
    assert reduced.reduction["automorphisms"] > 1
    assert reduced.reduction["decided"] < whole.reduction["decided"]
    assert (reduced.cops_value == whole.cops_value).all()
    assert (reduced.robber_value == whole.robber_value).all()
    for c in range(0, whole.placements, 7):  # moves of placements not their orbit's least
        assert sorted(reduced.cop_moves(c).tolist()) == sorted(whole.cop_moves(c).tolist())
        if variant == "notes":
            pairs = sorted(zip(reduced.cop_moves(c).tolist(), reduced.landings(c).tolist(), strict=True))
            assert pairs == sorted(zip(whole.cop_moves(c).tolist(), whole.landings(c).tolist(), strict=True))
    _assert_a_fixpoint(reduced)


def test_the_reduction_is_skipped_where_the_rule_says():
    from pyasp_games.domains.cops.retrograde import placements
    from pyasp_games.domains.cops.symmetry import MAX_GROUP, automorphisms, symmetry_of

    lonely = read_graph("tree:15:4")  # this random tree has the identity alone
    assert len(automorphisms(lonely)) == 1
    assert symmetry_of(lonely, *placements(15, 3, True), classic=True) is None
    small = read_graph("petersen")  # 2,200 positions of 3 cops: decided whole
    assert symmetry_of(small, *placements(10, 3, True), classic=True) is None
    assert automorphisms(read_graph("complete:8")) is None  # 40,320 > MAX_GROUP
    assert math.factorial(8) > MAX_GROUP
    assert len(automorphisms(read_graph("petersen"))) == 120
    assert len(automorphisms(read_graph("dodecahedron"))) == 120
    assert len(automorphisms(read_graph("robertson"))) == 24
    out = cops.number(load_graph_game("complete:8"))  # unreduced, still answered
    assert out.answer == 1 and out.verdict.verified is True
    big = Table.build(CopsGame(read_graph("dodecahedron")), 3)  # 30,800 positions: reduced
    assert big.reduction == {"automorphisms": 120, "decided": 286}


def _atlas_games(step: int):
    for number in range(3, 209, step):  # the atlas's graphs of 3 to 6 vertices
        g = nx.graph_atlas(number)
        if nx.is_connected(g):
            yield read_graph(f"atlas:{number}")


def _reduced_equals_whole(graphs, monkeypatch) -> int:
    monkeypatch.setattr("pyasp_games.domains.cops.symmetry.MIN_POSITIONS", 0)
    reduced_somewhere = 0
    for graph in graphs:
        for variant in ("classic", "notes"):
            for k in (1, 2):
                if variant == "notes" and k + 1 > len(graph):
                    continue
                game = CopsGame(graph, variant)
                whole, reduced = Table.build(game, k, symmetric=False), Table.build(game, k)
                assert (reduced.cops_value == whole.cops_value).all(), (graph.name, variant, k)
                assert (reduced.robber_value == whole.robber_value).all(), (graph.name, variant, k)
                _assert_a_fixpoint(reduced)
                reduced_somewhere += reduced.symmetry is not None
    return reduced_somewhere


def test_the_reduction_on_a_sample_of_atlas_graphs(monkeypatch):
    assert _reduced_equals_whole(_atlas_games(9), monkeypatch) > 10


@pytest.mark.slow
def test_the_reduction_on_every_connected_atlas_graph_up_to_6_vertices(monkeypatch):
    assert _reduced_equals_whole(_atlas_games(1), monkeypatch) > 200
