"""Bad or hostile input: one line on stderr and exit code 2, never an internal error.

And the user's text is printed as given: rich never interprets a file name as markup.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pyasp_games.engines.resources import encoding_dir, instance_dir

from .conftest import assert_bad_input, run_cli, run_cli_process, run_cli_processes

BOARD = "1 2 3\n4 5 6\n7 0 8\n"


@pytest.fixture
def board(tmp_path: Path) -> Path:
    path = tmp_path / "board.txt"
    path.write_text(BOARD)
    return path


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e400"])
@pytest.mark.parametrize(
    "command",
    [
        ["puzzle", "solve", "BOARD"],
        ["crosscheck", "puzzle", "BOARD", "-b", "astar"],
        ["games", "nim", "3", "4"],
    ],
)
def test_time_limit_must_be_a_finite_positive_number(board, command, value):
    args = [board if a == "BOARD" else a for a in command]
    assert_bad_input(run_cli(*args, "--time-limit", value), "--time-limit must be positive")


@pytest.mark.parametrize("value", ["nan", "inf", "-1"])
def test_a_campaign_time_limit_must_be_a_finite_positive_number(tmp_path, board, value):
    # from the command line and from the suite file alike (no run is started)
    suite = tmp_path / "suite.toml"
    text = 'domain = "puzzle"\nbackends = ["astar"]\n[[instances]]\nfile = "board.txt"\n'
    suite.write_text(text)
    run = run_cli("bench", suite, "--out", tmp_path / "out", "--time-limit", value)
    assert_bad_input(run, "--time-limit must be positive")
    suite.write_text(f"time_limit = {value}\n{text}")
    assert_bad_input(run_cli("bench", suite, "--out", tmp_path / "out"), "time_limit must be positive")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("option", ["--emit-lp", "--emit-cnf"])
def test_emitted_files_go_to_a_writable_file_only(board, tmp_path, option):
    backend = "asp" if option == "--emit-lp" else "sat"
    solve = ("puzzle", "solve", board, "-b", backend)
    missing = tmp_path / "no-such-folder" / "out.txt"
    assert_bad_input(run_cli(*solve, option, missing), "no such folder")
    assert_bad_input(run_cli(*solve, option, tmp_path), "is a directory")
    assert_bad_input(run_cli(*solve, option, tmp_path, "--force"), "is a directory")
    inside_a_file = board / "out.txt"
    assert_bad_input(run_cli(*solve, option, inside_a_file), "no such folder")


def test_reduction_outputs_and_bench_results_go_to_a_writable_place(tmp_path):
    cnf = instance_dir("cover") / "cnf-sat-small.txt"
    assert_bad_input(
        run_cli("reduce", "sat-to-3sat", cnf, "-o", tmp_path / "missing" / "x.cnf"),
        "no such folder",
    )
    assert_bad_input(run_cli("reduce", "sat-to-3sat", cnf, "-o", tmp_path), "is a directory")
    assert_bad_input(
        run_cli("reduce", "sat-to-3sat", cnf, "-o", tmp_path / "x.cnf", "--map", tmp_path),
        "is a directory",
    )
    assert not (tmp_path / "x.cnf").exists()  # refused before anything was written
    a_file = tmp_path / "file"
    a_file.write_text("")
    suite = Path(__file__).parents[1] / "benchmarks" / "suites" / "cover-x3c-regular.toml"
    assert_bad_input(run_cli("bench", suite, "--out", a_file / "results"), "not a directory")


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["puzzle", "solve", "BOARD", "-b", "pdb", "--max-length", "30"], "--max-length applies"),
        (["puzzle", "solve", "BOARD", "-b", "greedy", "--max-length", "30"], "--max-length"),
        (["grundy", "exists", "GRAPH", "--no-core"], "--no-core applies"),
        (["crosscheck", "puzzle", "BOARD", "-b", "astar", "--encoding", "seed"], "--encoding"),
        (["crosscheck", "puzzle", "BOARD", "--workers", "0"], "--workers"),
        (["puzzle", "solve", "BOARD", "--workers", "-2"], "--workers"),
    ],
)
def test_an_option_that_does_not_apply_is_refused(board, args, fragment):
    graph = instance_dir("grundy") / "cycle4.txt"
    args = [board if a == "BOARD" else graph if a == "GRAPH" else a for a in args]
    assert_bad_input(run_cli(*args), fragment)


def _one_failed_line(run) -> None:
    """A failed verification: exit 1, the reason on one line, no internal error."""
    assert run.code == 1, (run.stdout, run.stderr)
    assert "FAILED verification" in run.stdout
    assert "internal error" not in run.stderr and "Traceback" not in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1, run.stderr


def test_a_wrong_cover_from_a_user_encoding_fails_verification(tmp_path):
    tiny = instance_dir("cover") / "tiny-cover.txt"
    wrong = tmp_path / "wrong.lp"
    wrong.write_text("chosen(0).\n#show chosen/1.\n")
    run = run_cli("cover", "solve", tiny, "-b", "asp", "--encoding", wrong)
    _one_failed_line(run)
    assert "cover: 0" in run.stdout and "not covered" in run.stderr


@pytest.mark.parametrize("limit", [[], ["--time-limit", "20"]])
def test_malformed_output_atoms_fail_verification(tmp_path, limit):
    tiny = instance_dir("cover") / "tiny-cover.txt"
    odd = tmp_path / "odd.lp"
    odd.write_text("chosen(a).\n#show chosen/1.\n")
    run = run_cli("cover", "solve", tiny, "-b", "asp", "--encoding", odd, *limit)
    _one_failed_line(run)
    assert "chosen(a)" in run.stderr
    run = run_cli("cover", "solve", tiny, "-b", "asp", "--encoding", odd, "--all", "--json")
    out = run.json()
    assert run.code == 1 and out["status"] == "error" and out["stats"]["verified"] is False


def test_a_kernel_encoding_asked_for_grundy_functions_fails_verification():
    graph = instance_dir("grundy") / "cycle4.txt"
    run = run_cli("grundy", "exists", graph, "-b", "asp", "--encoding", "kernel")
    _one_failed_line(run)
    assert "no value/2 atom" in run.stderr


def test_malformed_moves_fail_verification(board, tmp_path):
    odd = tmp_path / "odd.lp"
    odd.write_text("move(1,sideways).\n#show move/2.\n")
    run = run_cli("puzzle", "solve", board, "-b", "asp", "--encoding", odd)
    _one_failed_line(run)
    assert "move(1,sideways)" in run.stderr


def test_brackets_in_file_names_are_printed_as_given(tmp_path):
    folder = tmp_path / "runs [v2]"
    folder.mkdir()
    board = folder / "board[1].txt"  # a 4x4 board, as the seed encoding needs (2 moves)
    board.write_text("# goal: blank-last\n1 2 3 4\n5 6 7 8\n9 10 0 11\n13 14 15 12\n")
    encoding = folder / "mine[bold].lp"
    shutil.copy(encoding_dir("puzzle") / "sliding.lp", encoding)
    run = run_cli(
        "crosscheck", "puzzle", board, "-b", "asp", "--encoding", encoding, "--encoding", "seed"
    )
    assert run.code == 0, run.stderr
    assert "board[1]" in run.stdout and "asp[mine[bold].lp]" in run.stdout
    assert "asp[seed]" in run.stdout
    run = run_cli("crosscheck", "puzzle", board, "-b", "asp", "--encoding", encoding, "--json")
    labels = [json.loads(line).get("label") for line in run.stdout.splitlines()]
    assert "asp[mine[bold].lp]" in labels


@pytest.mark.parametrize("value", ["1e30", "inf", "nan", "0", "-5"])
def test_memory_limit_must_fit(board, value):
    run = run_cli("puzzle", "solve", board, "--memory-limit", value)
    assert_bad_input(run, "--memory-limit must be a positive number of megabytes")


@pytest.mark.parametrize("where", ["option", "suite"])
def test_a_campaign_memory_limit_must_fit(tmp_path, board, where):
    # too large for the process limit: refused up front, not an error in every row
    huge = "100000000000000000000"
    suite = tmp_path / "suite.toml"
    text = 'domain = "puzzle"\nbackends = ["astar"]\n[[instances]]\nfile = "board.txt"\n'
    suite.write_text(text if where == "option" else f"memory_limit = {huge}\n{text}")
    extra = ["--memory-limit", huge] if where == "option" else []
    run = run_cli("bench", suite, "--out", tmp_path / "out", *extra)
    assert_bad_input(run, "must be a positive number of megabytes")
    assert not (tmp_path / "out").exists()


BINARY_ENCODING_COMMANDS = [
    ["puzzle", "solve", "BOARD", "-b", "asp"],
    ["puzzle", "solve", "BOARD", "-b", "asp", "--time-limit", "5"],
    ["cover", "solve", "COVER", "-b", "asp"],
    ["grundy", "exists", "GRAPH", "-b", "asp"],
    ["crosscheck", "cover", "COVER", "-b", "asp"],
]


def test_a_binary_encoding_is_refused(tmp_path, board):
    # clingo aborts the whole process (PANIC) on an encoding that is not UTF-8 text
    encoding = tmp_path / "enc.lp"
    encoding.write_bytes(bytes(range(128, 256)) * 3)
    files = {"BOARD": board, "COVER": instance_dir("cover") / "tiny-cover.txt",
             "GRAPH": instance_dir("grundy") / "cycle4.txt"}  # fmt: skip
    commands = [[*(files.get(a, a) for a in c), "--encoding", encoding] for c in BINARY_ENCODING_COMMANDS]
    # a child process (one for the five): were a refusal lost, clingo's abort would end
    # the test run
    runs = run_cli_processes(*commands)
    assert len(runs) == len(commands)
    for run in runs:
        assert_bad_input(run, "not a text file")


@pytest.mark.parametrize("where", ["option", "suite"])
def test_a_campaign_of_more_runs_than_anyone_means_is_refused(tmp_path, board, where):
    # planning a billion repeats filled the memory before the first run (a hang)
    suite = tmp_path / "suite.toml"
    text = 'domain = "puzzle"\nbackends = ["astar"]\n[[instances]]\nfile = "board.txt"\n'
    suite.write_text(text if where == "option" else f"repeat = 1000000000\n{text}")
    extra = ["--repeat", "1000000000"] if where == "option" else []
    # a child process: were the refusal lost, the plan would fill the test run's memory
    run = run_cli_process("bench", suite, "--out", tmp_path / "out", *extra, timeout=30)
    assert_bad_input(run, "runs: at most 1000000 in one campaign")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    "command",
    [
        ["puzzle", "check", "FIFO"],
        ["puzzle", "solve", "FIFO", "--time-limit", "2"],
        ["cover", "solve", "FIFO"],
        ["grundy", "values", "FIFO"],
        ["geography", "solve", "FIFO"],
        ["reduce", "sat-to-3sat", "FIFO"],
        ["crosscheck", "cover", "FIFO"],
        ["bench", "FIFO", "--out", "OUT"],
    ],
)
def test_a_named_pipe_is_refused_not_waited_on(tmp_path, command):
    # opening a FIFO blocks until a writer comes: a hang, even under --time-limit
    import os

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    args = [fifo if a == "FIFO" else tmp_path / "out" if a == "OUT" else a for a in command]
    assert_bad_input(run_cli(*args, timeout=20), "named pipe")


def test_a_pipe_the_process_holds_is_read(tmp_path):
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-P", "-m", "pyasp_games", "puzzle", "solve", "/dev/stdin"],
        input=BOARD, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 0 and "verified" in proc.stdout, proc.stderr


@pytest.mark.parametrize(
    "args,fragment",
    [
        (["routing", "generate", "grid:1000000x1000000"], "too large"),
        (["routing", "generate", "complete:100000"], "too large"),
        (["routing", "number", "hypercube:100"], "too large"),
        (["zerosum", "generate", "kuhn", "--cards", "100000000"], "at most 100 cards"),
        (["zerosum", "generate", "matrix", "--size", "1000000000"], "at most 9,000,000 entries"),
        (["zerosum", "stochastic", str(instance_dir("zerosum") / "recursive-seed.json"),
          "-n", "100000000"], "--iterations must be from 1 to"),
    ],
)
def test_generated_sizes_nobody_means_are_refused(args, fragment):
    assert_bad_input(run_cli(*args), fragment)


#: A path that no one can write: a file in /proc (for the superuser too, whom a
#: read-only folder does not stop, so only the write itself finds out).
UNWRITABLE = Path("/proc/pyasp-games-cannot-write-here")


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
@pytest.mark.parametrize(
    "args",
    [
        ["puzzle", "solve", "BOARD", "-b", "asp", "--emit-lp", "OUT"],
        ["puzzle", "solve", "BOARD", "-b", "sat", "--emit-cnf", "OUT"],
        ["cover", "solve", "COVER", "-b", "asp", "--emit-lp", "OUT"],
        ["cover", "solve", "COVER", "-b", "sat", "--emit-cnf", "OUT"],
        ["reduce", "sat-to-3sat", "CNF", "-o", "OUT", "--map", "MAP"],
        ["reduce", "sat-to-3sat", "CNF", "-o", "MAP", "--map", "OUT"],
        ["zerosum", "solve", "GAME", "-b", "asp", "--emit-lp", "OUT"],
        ["zerosum", "generate", "kuhn", "-o", "OUT"],
        ["routing", "solve", "path:4", "--random", "1", "-b", "asp", "--emit-lp", "OUT"],
        ["routing", "solve", "path:4", "--random", "1", "-b", "sat", "--emit-cnf", "OUT"],
        ["routing", "generate", "path:4", "-o", "OUT"],
        ["routing", "generate", "path:4", "--arrangement", "OUT"],
    ],
)
def test_an_output_path_that_cannot_be_written_is_one_line(tmp_path, board, args):
    game = tmp_path / "game.txt"
    game.write_text("1 2\n3 4\n")
    named = {
        "BOARD": board, "COVER": instance_dir("cover") / "tiny-cover.txt",
        "CNF": instance_dir("cover") / "cnf-sat-small.txt", "GAME": game,
        "OUT": UNWRITABLE, "MAP": tmp_path / "x.cnf",
    }  # fmt: skip
    run = run_cli(*[named.get(a, a) for a in args])
    assert_bad_input(run, f"cannot write {UNWRITABLE}")
