"""The puzzle's declared questions: check and solve, generated commands, set files,
workers, the pdb progress line, and the files the backends emit themselves."""

from __future__ import annotations

import json
import re

import pytest

from pyasp_games.domains.puzzle import CHECK, SOLVE, load_boards, parse_board
from pyasp_games.domains.puzzle.model import manhattan_lower_bound
from pyasp_games.domains.puzzle.verify import check_solvability
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome

from .conftest import assert_bad_input, random_walk_board, run_cli


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
