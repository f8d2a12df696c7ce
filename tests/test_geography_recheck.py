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
