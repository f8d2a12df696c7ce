"""The command line as users and scripts meet it: exit codes, one-line errors, JSON."""

from __future__ import annotations

import json

import pytest

from pyasp_games.domains.puzzle import BACKENDS
from pyasp_games.domains.puzzle.model import load_boards
from pyasp_games.domains.puzzle.verify import verify_plan

from .conftest import assert_bad_input, run_cli, run_cli_process


def write(tmp_path, text, name="board.txt"):
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("1 2 3\n4 5 6\n7 8\n", "ragged"),
        ("1 2 3\n4 5 6\n7 7 0\n", "appears twice"),
        ("1 2 3\n4 5 6\n7 8 9\n", "out of range"),
        ("1 2 3\n4 five 6\n7 8 0\n", "not an integer"),
        ("1 2 3 4 5 6 7 8 0\n", "1 x 9"),
        ("", "empty"),
        ("# size: 3x3\n1 2 3 4 5 6 7 8\n", "needs 9 entries"),
    ],
)
def test_bad_board_files_exit_2_with_one_line(tmp_path, text, fragment):
    path = write(tmp_path, text)
    for verb in (["check"], ["solve", "--backend", "sat"], ["show"]):
        assert_bad_input(run_cli("puzzle", *verb, path), fragment)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--backend", "astar", "--encoding", "seed"], "--encoding applies"),
        (["--backend", "asp", "--solver", "glucose4"], "--solver"),
        (["--backend", "sat", "--solver", "lingeling"], "'lingeling' is not one of"),
        (["--backend", "asp", "--encoding", "nosuch"], "unknown encoding"),
        (["--backend", "asp", "--encoding", "seed"], "4x4"),
        (["--backend", "bogus"], "bogus"),
        (["--time-limit", "-1"], "--time-limit must be positive"),
        (["--time-limit", "soon"], "Invalid value for '--time-limit'"),
        (["--max-length", "-3"], "--max-length"),
        (["--no-such-option"], "no-such-option"),
    ],
)
def test_bad_options_exit_2_with_one_line(tmp_path, args, fragment):
    path = write(tmp_path, "1 2 3\n4 5 6\n7 0 8\n")
    assert_bad_input(run_cli("puzzle", "solve", path, *args), fragment)


def test_missing_file_and_unknown_domain(tmp_path):
    assert_bad_input(run_cli("puzzle", "check", tmp_path / "nope.txt"), "no such file")
    assert_bad_input(run_cli("crosscheck", "chess"), "unknown domain")
    assert_bad_input(run_cli("crosscheck", "puzzle", "--backend", "dfs"), "unknown puzzle backend")


@pytest.mark.parametrize(
    "command",
    [
        ["puzzle", "check"],
        ["grundy", "values"],
        ["geography", "solve", "--start", "a"],
        ["cover", "solve"],
        ["reduce", "sat-to-3sat"],
        ["reduce", "qbf-to-geography"],
    ],
)
def test_a_directory_or_binary_file_is_bad_input(tmp_path, command):
    """Every reader fails the same way: one line naming the file and the reason."""
    group, name, *options = command
    assert_bad_input(run_cli(group, name, tmp_path, *options), "is a directory")
    binary = tmp_path / "data.bin"
    binary.write_bytes(bytes(range(128, 256)))
    assert_bad_input(run_cli(group, name, binary, *options), "not a text file")


def test_bad_encoding_file_is_bad_input(tmp_path):
    board = write(tmp_path, "1 2 3\n4 5 6\n7 0 8\n")
    enc = write(tmp_path, "move(T,u :- step(T).\n", "broken.lp")
    assert_bad_input(
        run_cli("puzzle", "solve", board, "--backend", "asp", "--encoding", enc),
        "clingo cannot parse",
    )


def test_an_encoding_that_refutes_every_plan_is_an_error_not_no_solution(tmp_path):
    """A user's encoding that finds no plan for a solvable board: the search stops at the
    length of a plan we hold and reports the encoding, never "no solution"."""
    board = write(tmp_path, "1 2 3\n4 5 6\n0 7 8\n")
    enc = write(tmp_path, "#program check(t).\n#external query(t).\n:- query(t).\n", "refutes.lp")
    run = run_cli("puzzle", "solve", board, "--backend", "asp", "--encoding", enc, "--json")
    out = json.loads(run.stdout)
    assert run.code == 1 and out["status"] == "error" and out["answer"] is None
    assert "does not follow the interface" in out["stats"]["error"]
    assert out["stats"]["horizons"] == [2]  # the greedy plan of this board has 2 moves
    run = run_cli("puzzle", "solve", board, "--backend", "asp", "--encoding", enc)
    assert run.code == 1 and "does not follow the interface" in run.stderr
    # below a --max-length cap it is "none within the bound", as for any backend
    capped = run_cli(
        "puzzle", "solve", board, "--backend", "asp", "--encoding", enc, "--max-length", "0", "--json"
    )
    out = json.loads(capped.stdout)
    assert capped.code == 0 and out["status"] == "no-solution" and out["stats"]["bounded"] == 0


def test_emit_files_never_overwrite_without_force(tmp_path):
    board = write(tmp_path, "1 2 3\n4 5 6\n7 0 8\n")
    existing = write(tmp_path, "keep me\n", "out.cnf")
    assert_bad_input(
        run_cli("puzzle", "solve", board, "-b", "sat", "--emit-cnf", existing), "file exists"
    )
    assert existing.read_text() == "keep me\n"
    run = run_cli("puzzle", "solve", board, "-b", "sat", "--emit-cnf", existing, "--force")
    assert run.code == 0 and existing.read_text().startswith("c pyasp-games")
    lp = tmp_path / "out.lp"
    run = run_cli("puzzle", "solve", board, "-b", "asp", "--emit-lp", lp)
    assert run.code == 0 and "init(2,1,0)." in lp.read_text()
    assert_bad_input(
        run_cli("puzzle", "solve", board, "-b", "astar", "--emit-lp", tmp_path / "x.lp"),
        "--emit-lp applies",
    )


@pytest.mark.parametrize("backend", ["astar", "idastar", "asp", "sat"])
def test_solve_json_is_one_verified_outcome(puzzles, backend):
    run = run_cli("puzzle", "solve", puzzles / "thesis-board2.txt", "--backend", backend, "--json")
    assert run.code == 0, run.stderr
    out = run.json()
    # the outcome's fields, and what `pyasp-games verify` needs to check it again
    assert set(out) == {"problem", "backend", "status", "answer", "witness", "seconds", "stats",
                        "question", "input", "index"}
    assert (out["status"], out["answer"], out["backend"]) == ("solved", 12, backend)
    board = load_boards(puzzles / "thesis-board2.txt")[0]
    assert verify_plan(4, 4, board.tiles, board.goal, out["witness"]).ok
    assert out["stats"]["verified"] is True
    key = {"astar": "nodes", "idastar": "nodes", "asp": "choices", "sat": "horizons"}[backend]
    assert key in out["stats"]


def test_unsolvable_board_answers_with_exit_0(puzzles):
    run = run_cli("puzzle", "solve", puzzles / "thesis-board3.txt", "-b", "sat", "--json")
    out = run.json()
    assert run.code == 0 and out["status"] == "no-solution" and out["answer"] is None
    assert "inversions" in out["certificate"]["reason"]


@pytest.mark.parametrize(
    "args",
    [  # each backend's own stop is test_puzzle_solvers'; here the whole command's, in a child
        ["-b", "astar"],
        pytest.param(["-b", "idastar"], marks=pytest.mark.slow),
        pytest.param(["-b", "asp"], marks=pytest.mark.slow),
        ["-b", "asp", "--encoding", "seed"],  # in this process (the seed encoding's stop)
        pytest.param(["-b", "sat"], marks=pytest.mark.slow),
        # test_puzzle_solvers.py::test_cadical_honours_the_time_limit stops this very run
        pytest.param(["-b", "sat", "--solver", "cadical195"], marks=pytest.mark.slow),
    ],
)
@pytest.mark.xdist_group("timing")
def test_time_limit_exits_3_with_unknown_in_time(tmp_path, puzzles, args):
    korf1 = load_boards(puzzles / "korf100.txt")[0]  # 57 moves, blank-first
    path = write(
        tmp_path,
        "# goal: blank-first\n" + "\n".join(" ".join(map(str, r)) for r in korf1.grid()) + "\n",
    )
    if "seed" in args:  # the seed encoding knows only the blank-last goal: turn the board half-way
        # round (cell p -> 15-p) and relabel v -> 16-v: the same puzzle, blank-last, 57 moves
        tiles = [16 - v if v else 0 for v in reversed(korf1.tiles)]
        path = write(
            tmp_path,
            "\n".join(" ".join(map(str, tiles[r * 4 : r * 4 + 4])) for r in range(4)) + "\n",
        )
    # a child process: the limit holds for the whole command, start-up included (one
    # such process; the seed encoding's grounding is stopped in this process's fork)
    run_command = run_cli if "seed" in args else run_cli_process
    run = run_command("puzzle", "solve", path, *args, "--time-limit", "0.5", "--json")
    out = run.json()
    assert run.code == 3 and out["status"] == "unknown" and out["answer"] is None
    assert out["seconds"] < 1.5
    assert run.seconds < 5.5  # interpreter start-up included


def test_check_reports_reason(puzzles):
    run = run_cli("puzzle", "check", puzzles / "thesis-board3.txt")
    assert run.code == 0 and "unsolvable" in run.stdout and "1 inversions" in run.stdout
    run = run_cli("puzzle", "check", puzzles / "small-2x3.txt", "--json")
    rows = [json.loads(line) for line in run.stdout.splitlines()]
    assert [r["answer"] for r in rows] == [True, True, True, True, False]
    assert all(r["stats"]["verified"] is True for r in rows)  # by the other invariant


def test_show_plays_a_plan_and_rejects_illegal_moves(puzzles):
    run = run_cli("puzzle", "show", puzzles / "thesis-board2.txt", "--plan", "UULLLURDDDRR")
    assert run.code == 0 and "move 12: R" in run.stdout and "reaches the goal" in run.stdout
    assert_bad_input(
        run_cli("puzzle", "show", puzzles / "thesis-board2.txt", "--plan", "DD"), "off the board"
    )
    assert_bad_input(
        run_cli("puzzle", "show", puzzles / "thesis-board2.txt", "--plan", "UX"), "'X'"
    )


def test_crosscheck_on_files_agrees_and_reports_json(puzzles):
    quick = ["-b", "astar", "-b", "idastar", "-b", "asp", "-b", "sat"]  # pdb: its 4x4 build is slow
    boards = [puzzles / "thesis-board2.txt", puzzles / "thesis-board3.txt"]
    # limits far above the work (seconds on a quiet machine): a loaded one stretches wall time
    run = run_cli("crosscheck", "puzzle", *boards, *quick, "--json", "--time-limit", "600")
    assert run.code == 0, run.stderr
    rows = [json.loads(line) for line in run.stdout.splitlines()]
    summary = rows.pop()["summary"]
    assert summary["runs"] == 8 and summary["ok"] and summary["verified"] == 8
    assert {r["label"] for r in rows} == {"astar", "idastar", "asp", "sat"}


@pytest.mark.slow
def test_crosscheck_of_the_hardest_eight_puzzle_by_every_backend(puzzles):
    """Every backend on the two hardest 8-puzzle boards (31 moves): by default the
    README's crosscheck of the 2 x 3 boards runs every backend."""
    run = run_cli("crosscheck", "puzzle", puzzles / "eight-puzzle-hardest.txt", "--json",
                  "--time-limit", "600")  # fmt: skip
    rows = [json.loads(line) for line in run.stdout.splitlines()]
    assert (
        run.code == 0
        and rows[-1]["summary"]["runs"] == 2 * len(BACKENDS)
        and rows[-1]["summary"]["ok"]
    )
    assert {r["label"] for r in rows[:-1]} == set(BACKENDS)


def test_crosscheck_flags_a_wrong_known_answer(tmp_path):
    wrong = write(tmp_path, "# optimal: 3\n1 2 3\n4 5 6\n7 0 8\n")
    run = run_cli("crosscheck", "puzzle", wrong, "--json")
    assert run.code == 1
    rows = [json.loads(line) for line in run.stdout.splitlines()]
    assert (
        rows[-1]["summary"]["wrong_known_answers"] == len(BACKENDS)
        and not rows[-1]["summary"]["ok"]
    )


def test_crosscheck_treats_each_encoding_as_a_backend(puzzles):
    run = run_cli(
        "crosscheck",
        "puzzle",
        puzzles / "thesis-board2.txt",
        "-b",
        "asp",
        "--encoding",
        "sliding",
        "--encoding",
        "seed",
        "--json",
    )
    rows = [json.loads(line) for line in run.stdout.splitlines()][:-1]
    assert run.code == 0 and [r["label"] for r in rows] == ["asp[sliding]", "asp[seed]"]
    assert {r["answer"] for r in rows} == {12}


def test_help_lists_the_commands():
    run = run_cli("--help")
    assert run.code == 0 and "puzzle" in run.stdout and "crosscheck" in run.stdout
    run = run_cli()
    assert run.code == 0 and "puzzle" in run.stdout


def test_crosscheck_without_a_domain_needs_no_files(puzzles):
    # `pyasp-games crosscheck` alone runs every domain (CI runs it as the main job)
    assert_bad_input(run_cli("crosscheck", "-b", "astar"), "name the domain")
