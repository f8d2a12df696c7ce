"""Saved answers of ``geography solve`` checked again alone (``Question.recheck``,
``pyasp-games verify``): the answer, written as ``--json`` writes it and read back, is
verified again by the checker; a tampered copy (the winner, the first move, the line of
play) is refuted."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from pyasp_games.domains.geography.model import load_instance
from pyasp_games.domains.geography.questions import SOLVE
from pyasp_games.engines.resources import instance_dir

from .conftest import run_cli, saved_answer

GEOGRAPHY = instance_dir("geography")


def saved_and_rechecked(game: Any, **options: Any) -> dict[str, Any]:
    out = SOLVE.ask(game, **options)
    assert out.verdict.verified is True, out.verdict.message
    data = saved_answer(out)
    again = SOLVE.recheck(game, data)
    assert again.verdict.verified is True and again.answer == out.answer, again.verdict.message
    return data


def assert_refuted(game: Any, data: dict[str, Any], **changes: Any) -> None:
    wrong = copy.deepcopy(data)
    for key, value in changes.items():
        if key == "line":
            wrong["stats"]["line"] = value
        else:
            wrong[key] = value
    again = SOLVE.recheck(game, wrong)
    assert again.verdict.verified is False and again.status == "error", again.verdict.message


@pytest.mark.parametrize(
    ("file", "backend"),
    [
        ("tqbf-true-vertex.txt", "native"),
        ("tqbf-true-vertex.txt", "asp"),
        ("tqbf-false-vertex.txt", "native"),
        ("tqbf-true-edge.txt", "native"),
        ("tqbf-false-edge.txt", "asp"),
        ("path4-undirected.txt", "matching"),
        ("star-leaf-undirected.txt", "matching"),
    ],
)
def test_solve_saved_and_rechecked(file, backend):
    game = load_instance(GEOGRAPHY / file)
    data = saved_and_rechecked(game, backend=backend)
    other = "second" if data["answer"] == "first" else "first"
    assert_refuted(game, data, answer=other)
    if data["answer"] == "first":
        assert_refuted(game, data, witness=None)
        assert_refuted(game, data, witness="nowhere")
    else:
        assert_refuted(game, data, witness=game.names[0])


@pytest.mark.parametrize("file", ["tqbf-true-vertex.txt", "tqbf-false-vertex.txt", "cycle3-edge.txt"])
def test_the_line_of_play_is_rechecked(file):
    game = load_instance(GEOGRAPHY / file)
    data = saved_and_rechecked(game, backend="native", line=True)
    line = data["stats"]["line"]
    assert len(line) >= 2
    assert_refuted(game, data, line=line[:-1])  # stops while a move is left, or the other wins
    assert_refuted(game, data, line=[*line, line[-1]])
    assert_refuted(game, data, line="not a line")


def test_the_command_line_json_is_rechecked():
    file = GEOGRAPHY / "tqbf-true-vertex.txt"
    run = run_cli("geography", "solve", file, "--line", "--json")
    assert run.code == 0
    again = SOLVE.recheck(load_instance(file), run.json())
    assert again.verdict.verified is True and again.answer == "first"


# -- the winner's strategy as a certificate ----------------------------------------------


def planarized_tqbf_game(seed: int = 3, skip: int = 16) -> Any:
    """The 114-vertex planar graph of a random QBF (``benchmarks/RESULTS.md``, planar
    Geography, QBF 16): beyond the brute-force checker's 80 vertices."""
    import random

    from pyasp_games.domains.geography.model import parse_instance
    from pyasp_games.domains.geography.planar import planarize
    from pyasp_games.domains.geography.tqbf import parse_qdimacs, to_geography

    from .test_geography_tqbf import random_qdimacs

    rng = random.Random(seed)
    for _ in range(skip):
        random_qdimacs(rng)
    p = planarize(to_geography(parse_qdimacs(random_qdimacs(rng)[0])), "in1")
    return parse_instance(p.graph.format_arcs(), "in1", "vertex")


def test_a_large_planar_game_is_verified_by_its_strategy():
    game = planarized_tqbf_game()
    assert len(game) > 100
    data = saved_and_rechecked(game, backend="native")
    assert "winning strategy" in SOLVE.recheck(game, data).verdict.message
    nodes = data["certificate"]["nodes"]
    # a reply left unanswered, a move that is not legal, a node that does not exist
    inner = next(k for k, node in enumerate(nodes) if node["replies"])
    broken = copy.deepcopy(data)
    reply = next(iter(broken["certificate"]["nodes"][inner]["replies"]))
    del broken["certificate"]["nodes"][inner]["replies"][reply]
    assert SOLVE.recheck(game, broken).verdict.verified is False
    broken = copy.deepcopy(data)
    broken["certificate"]["nodes"][inner]["move"] = game.names[game.start]
    assert SOLVE.recheck(game, broken).verdict.verified is False
    broken = copy.deepcopy(data)
    broken["certificate"]["nodes"][inner]["replies"][reply] = len(nodes)
    assert SOLVE.recheck(game, broken).verdict.verified is False
    # without its strategy the same answer is beyond the brute-force checker
    bare = copy.deepcopy(data)
    del bare["certificate"]
    assert SOLVE.recheck(game, bare).verdict.verified is None


@pytest.mark.parametrize("file", ["tqbf-true-vertex.txt", "tqbf-false-vertex.txt",
                                  "tqbf-true-edge.txt", "tqbf-false-edge.txt", "cycle3-edge.txt"])
def test_every_strategy_move_is_checked(file):
    """Each winner's move of the strategy replaced by another legal one (or by none) is
    refuted, unless the other move also wins with the same continuation: the checker
    reads every node."""
    game = load_instance(GEOGRAPHY / file)
    data = saved_and_rechecked(game, backend="native")
    proof = data["certificate"]
    assert ("root" in proof) == (data["answer"] == "first")
    for k in range(len(proof["nodes"])):
        wrong = copy.deepcopy(data)
        wrong["certificate"]["nodes"][k] = {"move": None, "replies": {}}
        assert SOLVE.recheck(game, wrong).verdict.verified is False
    tampered = copy.deepcopy(data)
    tampered["certificate"]["nodes"].append({"move": "x"})  # unreachable nodes are ignored
    assert SOLVE.recheck(game, tampered).verdict.verified is True


def test_verify_rechecks_a_saved_strategy(tmp_path):
    file = tmp_path / "planar.txt"
    game = planarized_tqbf_game()
    file.write_text(game.graph.format_arcs())
    run = run_cli("geography", "solve", file, "--json")
    assert run.code == 0 and run.json()["stats"]["verified"] is True, run.stderr
    path = tmp_path / "answer.json"
    path.write_text(run.stdout)
    again = run_cli("verify", path)
    assert again.code == 0 and "re-checked: verified" in again.stdout, (again.stdout, again.stderr)
    data = run.json()
    data["certificate"]["nodes"][0]["replies"] = {}
    path.write_text(__import__("json").dumps(data))
    again = run_cli("verify", path)
    assert again.code == 1 and "refuted:" in again.stderr
