"""The puzzle's declared questions: check and solve, generated commands, set files,
workers, the pdb progress line, and the files the backends emit themselves."""

from __future__ import annotations

import copy
import json
import re

import pytest

from pyasp_games.domains.puzzle import CHECK, SOLVE, load_boards, parse_board
from pyasp_games.domains.puzzle.model import manhattan_lower_bound
from pyasp_games.domains.puzzle.verify import check_solvability
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome

from .conftest import assert_bad_input, random_walk_board, run_cli
from .conftest import saved_answer as _saved


def test_check_answers_are_verified_by_the_other_invariant():
    solvable = parse_board("1 2 3\n4 5 6\n7 0 8")
    unsolvable = parse_board("1 2 3\n4 5 6\n8 7 0")
    assert CHECK.ask(solvable).answer is True and CHECK.ask(unsolvable).answer is False
    for board in (solvable, unsolvable):
        out = CHECK.ask(board)
        assert out.verdict.verified is True
        lie = Outcome(board.name, "native", "solved", not out.answer, None, 0.0, {})
        ok, message = check_solvability(board, lie)
        assert ok is False and "the answer says" in message


def test_solve_each_keeps_the_order_with_workers(puzzles):
    boards = load_boards(puzzles / "small-2x3.txt")
    alone = [o.answer for o in SOLVE.solve_each(boards, "astar")]
    pooled = [o.answer for o in SOLVE.solve_each(boards, "astar", Limits(), workers=2)]
    assert alone == pooled and len(alone) == 5 and alone[-1] is None  # the last is unsolvable
    assert all(o.verdict.verified for o in SOLVE.solve_each(boards, "astar", workers=2))


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["-b", "pdb", "--lower-bound", "pdb"], "--lower-bound applies to --backend asp and sat"),
        (["-b", "astar", "--prune", "pdb"], "--prune applies"),
        (["-b", "asp", "--partition", "5-5-5"], "--partition applies to --backend pdb only"),
        (["-b", "asp", "--emit-cnf", "x.cnf"], "--emit-cnf applies to --backend sat only"),
        (["--workers", "0"], "--workers must be at least 1"),
    ],
)
def test_options_that_do_not_apply_come_from_the_declaration(puzzles, args, fragment):
    assert_bad_input(run_cli("puzzle", "solve", puzzles / "thesis-board2.txt", *args), fragment)


def test_a_set_file_cannot_take_an_emitted_file(puzzles, tmp_path):
    run = run_cli("puzzle", "solve", puzzles / "small-2x3.txt", "-b", "asp", "--emit-lp", tmp_path / "x.lp")
    assert_bad_input(run, "--emit-lp")
    assert not (tmp_path / "x.lp").exists()


def test_a_missing_database_shows_a_progress_line(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # an empty cache: the command builds
    board = tmp_path / "board.txt"
    board.write_text("1 2 3\n4 5 6\n0 7 8\n")
    run = run_cli("puzzle", "solve", board, "-b", "pdb", "--partition", "4-4")
    assert run.code == 0 and "solved, 2 moves (pdb" in run.stdout
    assert "building pattern databases for board" in run.stderr
    again = run_cli("puzzle", "solve", board, "-b", "pdb", "--partition", "4-4")
    assert again.code == 0 and "building" not in again.stderr  # cached: nothing to show


def test_the_asp_backend_writes_its_program_as_it_starts(tmp_path):
    board = random_walk_board(3, 3, 40, 3)
    path = tmp_path / "board.lp"
    out = SOLVE.ask(board, "asp", emit_lp=path)
    text = path.read_text()
    assert out.status == "solved" and out.stats["horizons"][0] == manhattan_lower_bound(board)
    assert f"#const imin={manhattan_lower_bound(board)}." in text  # incmode goes on from there
    seed = random_walk_board(4, 4, 12, 5)
    path = tmp_path / "seed.lp"
    out = SOLVE.ask(seed, "asp", encoding="seed", emit_lp=path)
    assert out.status == "solved"
    assert re.search(rf"-c t={out.answer}\b", path.read_text())  # the last horizon run


def test_a_set_file_in_worker_processes_prints_in_input_order(puzzles):
    alone = run_cli("puzzle", "solve", puzzles / "small-2x3.txt", "-b", "idastar", "--json")
    pooled = run_cli("puzzle", "solve", puzzles / "small-2x3.txt", "-b", "idastar", "--workers", "3", "--json")
    rows = [[json.loads(line) for line in run.stdout.splitlines()] for run in (alone, pooled)]
    assert alone.code == pooled.code == 0
    assert [(r["problem"], r["answer"]) for r in rows[0]] == [(r["problem"], r["answer"]) for r in rows[1]]
    assert len(rows[1]) == 5 and all(r["stats"]["verified"] for r in rows[1])


# -- saved answers, checked again (pyasp-games verify) -----------------------------------


def _refuted(question, board, data: dict, change) -> Outcome:
    tampered = copy.deepcopy(data)
    change(tampered)
    out = question.recheck(board, tampered)
    assert out.verdict.verified is False and out.status == "error", (out.status, out.verdict)
    return out


def _set(*path):
    *keys, value = path

    def change(data: dict) -> None:
        for key in keys[:-1]:
            data = data[key]
        data[keys[-1]] = value(data[keys[-1]]) if callable(value) else value

    return change


@pytest.mark.parametrize(
    "text", ["1 2 3\n4 5 6\n7 0 8", "1 2 3\n4 5 6\n8 7 0", "1 2 3 4\n5 6 7 8\n9 10 11 12\n13 15 14 0"]
)
def test_a_saved_check_is_checked_again(text):
    board = parse_board(text)
    data = _saved(CHECK.ask(board))
    assert set(data["certificate"]) >= {"inversions", "blank_row", "reason"}
    again = CHECK.recheck(board, data)
    assert again.verdict.fully_verified and again.answer == data["answer"]
    _refuted(CHECK, board, data, _set("answer", lambda a: not a))
    _refuted(CHECK, board, data, _set("certificate", "inversions", lambda n: n + 2))  # same parity
    _refuted(CHECK, board, data, _set("certificate", "blank_row", lambda r: r + 2))
    _refuted(CHECK, board, data, _set("certificate", "reason", lambda r: r.replace("width", "size")))


def test_a_saved_plan_is_checked_again():
    board = random_walk_board(3, 3, 14, 2)
    for backend in ("sat", "idastar", "greedy"):
        data = _saved(SOLVE.ask(board, backend))
        again = SOLVE.recheck(board, data)
        assert again.status == "solved" and again.verdict.fully_verified, backend
        assert again.verdict.exact is (backend != "greedy")
        _refuted(SOLVE, board, data, _set("answer", lambda n: n - 2))
        moved = "U" if data["witness"][0] != "U" else "D"
        _refuted(SOLVE, board, data, _set("witness", lambda plan, m=moved: m + plan[1:]))


def test_a_saved_no_plan_is_checked_again(puzzles):
    unsolvable = load_boards(puzzles / "thesis-board3.txt")[0]
    data = _saved(SOLVE.ask(unsolvable, "astar"))
    assert data["status"] == "no-solution" and "inversions" in data["certificate"]["reason"]
    assert SOLVE.recheck(unsolvable, data).verdict.fully_verified
    _refuted(SOLVE, unsolvable, data, _set("certificate", "inversions", lambda n: n + 2))
    _refuted(SOLVE, unsolvable, data, _set("answer", 24))
    solvable = load_boards(puzzles / "thesis-board1.txt")[0]  # Manhattan distance 12
    _refuted(SOLVE, solvable, data, _set("status", "no-solution"))  # another board: solvable
    # "none within 10" holds below the Manhattan distance: checked alone, bound and all
    within = _saved(SOLVE.ask(solvable, "idastar", Limits(max_length=10)))
    assert within["certificate"] == "no plan of length <= 10" and within["stats"]["bounded"] == 10
    assert SOLVE.recheck(solvable, within).verdict.fully_verified
    _refuted(SOLVE, solvable, within, _set("stats", "bounded", 8))
    _refuted(SOLVE, solvable, within, _set("certificate", "no plan of length <= 12"))
    beyond = _saved(SOLVE.ask(solvable, "idastar", Limits(max_length=20)))  # rests on the search
    assert SOLVE.recheck(solvable, beyond).verdict.verified is None
