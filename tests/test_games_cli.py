"""``pyasp-games games ...``: Nim, subtraction games and Grundy's game from the command line."""

from __future__ import annotations

import pytest

from .conftest import run_cli, run_cli_process


def test_nim_handout_examples():
    out = run_cli("games", "nim", "3", "4", "5", "--json").json()
    assert out["answer"] == "N" and out["witness"] == [[1, 4, 5]]
    assert out["stats"]["verified"] is True
    assert run_cli("games", "nim", "3", "4", "8", "--json").json()["witness"] == [[3, 4, 7]]
    # the Nim handout prints (7,1,4) for the middle move, a typo: see test_grundy_native
    moves = run_cli("games", "nim", "7", "6", "4", "--json").json()["witness"]
    assert moves == [[2, 6, 4], [7, 3, 4], [7, 6, 1]]
    p = run_cli("games", "nim", "1", "4", "5", "--json").json()
    assert p["answer"] == "P" and p["witness"] == []


def test_subtraction_and_its_period():
    out = run_cli("games", "subtraction", "--moves", "1,2,3", "--upto", "20", "--json").json()
    assert out["answer"] == [j % 4 for j in range(21)]
    assert (out["witness"]["preperiod"], out["witness"]["period"]) == (0, 4)
    assert out["stats"]["verified"] is True


def test_grundys_game_matches_the_seed_table():
    out = run_cli("games", "grundys-game", "--upto", "15", "--json").json()
    assert out["answer"] == [0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1]
    assert out["stats"]["verified"] is True
    human = run_cli("games", "grundys-game", "--upto", "15")
    assert human.code == 0 and "0 0 1 0 2 1 0 2 1 0 2 1 3 2 1" in human.stdout


@pytest.mark.slow  # test_hostile.py's battery runs this command on 10**7 heaps, in a child
@pytest.mark.xdist_group("timing")
def test_grundys_game_time_limit():
    # a child process: the time limit holds for the whole command
    run = run_cli_process("games", "grundys-game", "--upto", "400000", "--time-limit", "0.5", "--json")
    assert run.code == 3 and run.json()["status"] == "unknown"


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["nim", "--", "3", "-4"], "non-negative"),
        (["nim", "3", "x"], "Invalid value"),
        (["subtraction", "--moves", "1,a", "--upto", "5"], "--moves"),
        (["subtraction", "--moves", "0,2", "--upto", "5"], "--moves"),
        (["subtraction", "--moves", "1,2", "--upto", "-5"], "--upto"),
        (["grundys-game", "--upto", "0"], "--upto"),
        (["grundys-game", "--upto", "10", "--time-limit", "-2"], "--time-limit"),
    ],
)
def test_bad_input_exits_2_with_one_line(args, fragment):
    run = run_cli("games", *args)
    assert run.code == 2, (run.code, run.stderr)
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in run.stderr and fragment in lines[0], run.stderr
