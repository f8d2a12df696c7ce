"""Saved answers of the grundy and games questions checked again alone
(``Question.recheck``, ``pyasp-games verify``): every question's answer, written as the
command's ``--json`` writes it and read back, is verified again by its checker, and a
tampered copy (the answer, a witness entry, a certificate entry) is refuted."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from pyasp_games.domains.grundy.model import (
    grundys_game_heaps,
    load_graph,
    nim_position,
    read_sum,
    subtraction_game,
)
from pyasp_games.domains.grundy.questions import (
    EXISTS,
    GRUNDYS_GAME,
    KERNEL,
    LOOPY,
    NIM,
    SUBTRACTION,
    SUM,
    VALUES,
)
from pyasp_games.domains.grundy.verify import GRUNDYS_GAME_CHECKED
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.question import Question
from pyasp_games.engines.resources import instance_dir

from .conftest import run_cli
from .conftest import saved_answer as saved

GRUNDY = instance_dir("grundy")
SUB = str(GRUNDY / "subtraction-123.txt")
DRAW = str(GRUNDY / "notes-draw.txt")


def assert_rechecked(question: Question, instance: Any, outcome: Outcome) -> dict[str, Any]:
    """The saved answer of ``outcome`` verified again alone; its saved form returned."""
    assert outcome.verdict.verified is True, outcome.verdict.message
    data = saved(outcome)
    again = question.recheck(instance, data)
    assert again.verdict.verified is True, again.verdict.message
    assert again.status == outcome.status and again.answer == outcome.answer
    return data


def assert_refuted(question: Question, instance: Any, data: dict[str, Any],
                   tamper: Callable[[dict[str, Any]], Any]) -> None:  # fmt: skip
    wrong = copy.deepcopy(data)
    tamper(wrong)
    again = question.recheck(instance, wrong)
    assert again.verdict.verified is False and again.status == "error", again.verdict.message


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def tamper(data: dict[str, Any]) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return tamper


def test_values_saved_and_rechecked():
    g = load_graph(GRUNDY / "subtraction-123.txt")
    data = assert_rechecked(VALUES, g, VALUES.ask(g))
    assert_refuted(VALUES, g, data, _set(("answer", "h5"), 0))
    assert_refuted(VALUES, g, data, _set(("witness", "h4"), "N"))
    data = assert_rechecked(VALUES, g, VALUES.ask(g, position="h7"))
    assert_refuted(VALUES, g, data, _set(("witness", "winning_moves"), ["h5"]))
    assert_refuted(VALUES, g, data, _set(("witness", "value"), 2))


@pytest.mark.parametrize("rule", ["xor", "or"])
def test_sum_saved_and_rechecked(rule):
    game = read_sum([f"{SUB}:h5", f"{SUB}:h6"])
    data = assert_rechecked(SUM, game, SUM.ask(game, rule=rule))
    assert data["certificate"][0][:4] == [0, 1, 2, 3]  # every component's values
    assert_refuted(SUM, game, data, _set(("answer",), "P"))
    assert_refuted(SUM, game, data, _set(("certificate", 0, 5), 0))
    assert_refuted(SUM, game, data, _set(("witness", "components", 1, "value"), 3))
    assert_refuted(SUM, game, data, _set(("stats", "rule"), "or" if rule == "xor" else "xor"))
    assert_refuted(SUM, game, data, _set(("certificate",), [[0]]))


@pytest.mark.parametrize("question", [EXISTS, KERNEL], ids=lambda q: q.name)
@pytest.mark.parametrize("backend", ["native", "asp", "sat"])
def test_exists_and_kernel_saved_and_rechecked(question, backend):
    c4 = load_graph(GRUNDY / "cycle4.txt")
    one = assert_rechecked(question, c4, question.ask(c4, backend))
    first = one["witness"][0] if question is KERNEL else next(iter(one["witness"]))
    if question is KERNEL:
        assert_refuted(question, c4, one, _set(("witness",), [first]))
    else:
        assert_refuted(question, c4, one, _set(("witness", first), 5))
    count = assert_rechecked(question, c4, question.ask(c4, backend, mode="count"))
    assert_refuted(question, c4, count, _set(("answer",), 3))
    every = assert_rechecked(question, c4, question.ask(c4, backend, mode="all"))
    assert_refuted(question, c4, every, _set(("witness",), every["witness"][:1]))
    assert_refuted(question, c4, every, _set(("witness", 1), every["witness"][0]))


def test_exists_none_saved_and_rechecked():
    c3 = load_graph(GRUNDY / "cycle3.txt")
    out = EXISTS.ask(c3, "sat")
    assert out.status == "no-solution"
    data = assert_rechecked(EXISTS, c3, out)
    assert_refuted(EXISTS, load_graph(GRUNDY / "cycle4.txt"), data, lambda d: None)


@pytest.mark.parametrize("check_asp", [False, True])
def test_loopy_saved_and_rechecked(check_asp):
    g = load_graph(GRUNDY / "notes-draw.txt")
    data = assert_rechecked(LOOPY, g, LOOPY.ask(g, check_asp=check_asp))
    assert data["witness"]["a"].startswith("inf(")  # the values of the draws, inf(K)
    assert_refuted(LOOPY, g, data, _set(("answer", "a"), "N"))
    assert_refuted(LOOPY, g, data, _set(("witness", "e"), 1))
    assert_refuted(LOOPY, g, data, _set(("certificate", 0, 4), 1))  # e's value
    assert_refuted(LOOPY, g, data, _set(("certificate", 1, 4), None))  # e's counter
    assert_refuted(LOOPY, g, data, _set(("certificate", 0, 0), {"K": ["x"]}))
    if check_asp:
        assert_refuted(LOOPY, g, data, _set(("certificate", 2), ["P", "D", "D", "N", "P"]))


def test_loopy_sum_saved_and_rechecked():
    game = read_sum([f"{DRAW}:a", f"{DRAW}:d"])
    data = assert_rechecked(LOOPY, game, LOOPY.ask(game))
    assert data["answer"] == "D"
    assert_refuted(LOOPY, game, data, _set(("answer",), "P"))
    assert_refuted(LOOPY, game, data, _set(("witness", "move", "to"), "a"))
    assert_refuted(LOOPY, game, data, _set(("witness", "components", 1, "value"), 0))
    assert_refuted(LOOPY, game, data, _set(("certificate", 1, 0, 3), 0))


def test_nim_saved_and_rechecked():
    nim = nim_position([3, 4, 5])
    data = assert_rechecked(NIM, nim, NIM.ask(nim))
    assert data["certificate"] == {"xor": 2}
    assert_refuted(NIM, nim, data, _set(("certificate", "xor"), 0))
    assert_refuted(NIM, nim, data, _set(("witness", 0), [3, 4, 4]))
    assert_refuted(NIM, nim, data, _set(("answer",), "P"))


def test_subtraction_saved_and_rechecked():
    game = subtraction_game("1,2,3", 8)
    data = assert_rechecked(SUBTRACTION, game, SUBTRACTION.ask(game))
    assert_refuted(SUBTRACTION, game, data, _set(("certificate", 5), 0))
    assert_refuted(SUBTRACTION, game, data, _set(("answer", 2), 1))
    assert_refuted(SUBTRACTION, game, data, _set(("witness", "period"), 8))  # not minimal
    assert_refuted(SUBTRACTION, game, data, _set(("witness", "preperiod"), 1))  # not minimal


def test_grundys_game_saved_and_rechecked_in_full_and_in_part():
    heaps = grundys_game_heaps(40)
    data = assert_rechecked(GRUNDYS_GAME, heaps, GRUNDYS_GAME.ask(heaps))
    assert data["stats"]["verified"] is True
    assert_refuted(GRUNDYS_GAME, heaps, data, _set(("answer", 14), 2))
    more = grundys_game_heaps(GRUNDYS_GAME_CHECKED + 20)
    out = GRUNDYS_GAME.ask(more)
    assert out.verdict.in_part and "rest on the backend" in out.verdict.not_checked
    data = saved(out)
    assert data["stats"]["verified"] == "partial"
    again = GRUNDYS_GAME.recheck(more, data)
    assert again.verdict.in_part and not again.verdict.fully_verified
    assert_refuted(GRUNDYS_GAME, more, data, _set(("answer", 14), 2))


def test_the_command_line_json_is_rechecked():
    run = run_cli("grundy", "loopy", DRAW, "--json")
    assert run.code == 0
    data = run.json()
    g = load_graph(GRUNDY / "notes-draw.txt")
    assert LOOPY.recheck(g, data).verdict.verified is True
    run = run_cli("games", "nim", "3", "4", "5", "--json")
    assert NIM.recheck(nim_position([3, 4, 5]), run.json()).verdict.verified is True
