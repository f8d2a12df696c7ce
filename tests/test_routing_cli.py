"""Routing: the command line as a user runs it."""

from __future__ import annotations

from tests.conftest import run_cli


def test_solve_prints_a_verified_optimal_schedule(tmp_path):
    (tmp_path / "a.txt").write_text("0 3\n3 0\n")
    run = run_cli("routing", "solve", "path:4", tmp_path / "a.txt", "--json")
    assert run.code == 0
    out = run.json()
    assert out["status"] == "solved" and out["answer"] == 3 and out["stats"]["verified"] is True


def test_number_gives_rt_with_a_witness():
    run = run_cli("routing", "number", "star:3")
    assert run.code == 0 and "rt(G) = 4" in run.stdout and "verified" in run.stdout


def test_check_prints_wilsons_reason(tmp_path):
    (tmp_path / "a.txt").write_text("0,0 0,1\n0,1 0,0\nblank 1,2\n")
    run = run_cli("routing", "check", "grid:2x3", tmp_path / "a.txt")
    assert run.code == 0 and "unsolvable" in run.stdout and "Wilson" in run.stdout


def test_bad_input_is_one_line(tmp_path):
    (tmp_path / "g.txt").write_text("a b\nc d\n")
    run = run_cli("routing", "number", tmp_path / "g.txt")
    assert run.code == 2 and "not connected" in run.stderr and "Traceback" not in run.stderr


def test_time_limit_gives_exit_3():
    run = run_cli(
        "routing", "solve", "grid:5x5", "--random", "1", "-m", "swap", "--time-limit", "0.5"
    )
    assert run.code == 3


def test_generate_refuses_to_overwrite(tmp_path):
    out = tmp_path / "g.txt"
    assert run_cli("routing", "generate", "grid:2x2", "-o", out).code == 0
    assert run_cli("routing", "generate", "grid:2x2", "-o", out).code == 2
