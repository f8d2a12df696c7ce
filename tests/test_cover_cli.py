"""The cover and reduce commands as a user runs them: exit codes, streams, files."""

from __future__ import annotations

import json

import pytest

from pyasp_games.domains.cover.cnf import parse_dimacs
from pyasp_games.domains.cover.model import format_x3c, load_instance, random_x3c
from pyasp_games.engines.resources import instance_dir

from .conftest import assert_bad_input, run_cli, run_cli_process

COVER = instance_dir("cover")


@pytest.mark.parametrize("backend", ["dlx", "asp", "sat", "bitset"])
def test_solve_json_gives_the_outcome(backend):
    run = run_cli("cover", "solve", COVER / "tiny-cover.txt", "--backend", backend, "--json")
    assert run.code == 0, run.stderr
    out = run.json()
    # the outcome's fields, and what `pyasp-games verify` needs to check it again
    assert set(out) == {"problem", "backend", "status", "answer", "witness", "seconds", "stats",
                        "question", "input"}
    assert (out["status"], out["answer"], out["witness"]) == ("solved", True, [0, 1])
    assert out["stats"]["verified"] is True


def test_count_and_all():
    run = run_cli("cover", "solve", COVER / "matching-small.txt", "--count", "--json", "-b", "asp")
    assert run.code == 0 and run.json()["answer"] == 2
    run = run_cli("cover", "solve", COVER / "matching-small.txt", "--all")
    assert run.code == 0 and run.stdout.count("cover:") == 2
    run = run_cli("cover", "solve", COVER / "tiny-none.txt", "--json", "-b", "sat")
    assert run.code == 0 and run.json()["answer"] is False


@pytest.mark.parametrize(
    "backend",  # each backend's stop on this instance: test_cover_solvers.py's
    ["dlx", *(pytest.param(b, marks=pytest.mark.slow) for b in ("asp", "sat", "bitset"))],
)
@pytest.mark.xdist_group("timing")
def test_time_limit_exits_3(backend, tmp_path):
    hard = tmp_path / "hard.txt"
    hard.write_text(format_x3c(random_x3c(60, 5, seed=1)))
    # a child process: the time limit holds for the whole command, as a user runs it
    run = run_cli_process("cover", "solve", hard, "-b", backend, "--time-limit", "0.5", "--json")
    assert run.code == 3, run.stderr
    assert run.json()["status"] == "unknown"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("7\n0 1 2\n", "not a multiple of 3"),
        ("6\n0 1 1\n", "repeats element 1"),
        ("6\n0 1 9\n", "outside the universe"),
        ("W: a b\nX: c\nY: d e\n", "equal size"),
        ("W: a\nX: b\nY: c\na b q\n", "none of W, X, Y"),
    ],
)
def test_bad_instance_is_one_line_exit_2(tmp_path, content, message):
    bad = tmp_path / "bad.txt"
    bad.write_text(content)
    assert_bad_input(run_cli("cover", "solve", bad), message)


def test_bad_dimacs_is_one_line_exit_2(tmp_path):
    bad = tmp_path / "bad.cnf"
    bad.write_text("p cnf 2 3\n1 2 0\n")
    for verb in ("sat-to-3sat", "3sat-to-3dm", "chain"):
        assert_bad_input(run_cli("reduce", verb, bad), f"{bad}: the header promises 3 clauses, found 1")


def test_option_misuse_exits_2():
    tiny = COVER / "tiny-cover.txt"
    assert_bad_input(run_cli("cover", "solve", tiny, "--all", "--count"), "exclude")
    assert_bad_input(run_cli("cover", "solve", tiny, "--card", "pairwise"), "--card")
    assert_bad_input(run_cli("cover", "solve", tiny, "--time-limit", "-1"), "--time-limit")


def test_reductions_write_instances_and_maps_and_map_back(tmp_path):
    src = COVER / "cnf-mixed-lengths.txt"
    three = tmp_path / "three.cnf"
    run = run_cli("reduce", "sat-to-3sat", src, "-o", three)
    assert run.code == 0, run.stderr
    assert all(len(c) == 3 for c in parse_dimacs(three.read_text()).clauses)
    dm = tmp_path / "three.3dm"
    assert run_cli("reduce", "3sat-to-3dm", three, "-o", dm).code == 0
    x3c = tmp_path / "three.x3c.json"
    assert run_cli("reduce", "3dm-to-x3c", dm, "-o", x3c).code == 0
    assert load_instance(x3c).size == 3 * load_instance(dm).q
    solution = tmp_path / "solution.json"
    run = run_cli("cover", "solve", x3c, "-b", "sat", "--json")
    assert run.code == 0
    solution.write_text(run.stdout)
    matching = tmp_path / "matching.json"
    run = run_cli("reduce", "back", f"{x3c}.map.json", solution)
    assert run.code == 0, run.stderr
    matching.write_text(run.stdout)
    assignment = tmp_path / "assignment.json"
    run = run_cli("reduce", "back", f"{dm}.map.json", matching)
    assert run.code == 0, run.stderr
    assignment.write_text(run.stdout)
    run = run_cli("reduce", "back", f"{three}.map.json", assignment)
    assert run.code == 0, run.stderr
    values = {int(k): v for k, v in json.loads(run.stdout).items()}
    cnf = parse_dimacs(src.read_text())
    assert all(any(values[abs(lit)] == (lit > 0) for lit in c) for c in cnf.clauses)


def test_never_overwrites_without_force(tmp_path):
    out = tmp_path / "out.cnf"
    out.write_text("keep me")
    run = run_cli("reduce", "sat-to-3sat", COVER / "cnf-sat-small.txt", "-o", out)
    assert run.code == 2 and "--force" in run.stderr and out.read_text() == "keep me"
    run = run_cli("reduce", "sat-to-3sat", COVER / "cnf-sat-small.txt", "-o", out, "--force")
    assert run.code == 0 and out.read_text().startswith("c ")


@pytest.mark.parametrize(
    ("name", "answer"), [("cnf-sat-small.txt", True), ("cnf-unsat-small.txt", False)]
)
def test_chain_json(name, answer):
    run = run_cli("reduce", "chain", COVER / name, "--backend", "asp", "--json")
    assert run.code == 0, run.stderr
    out = run.json()
    assert out["answer"] is answer and out["stats"]["verified"] is True
    assert set(out["witness"]) == {"assignment", "sizes", "seconds"}
    assert out["witness"]["sizes"]["3dm"]["q"] == out["witness"]["sizes"]["x3c"]["elements"] // 3
    if answer:
        assignment = {int(k): v for k, v in out["witness"]["assignment"].items()}
        cnf = parse_dimacs((COVER / name).read_text())
        assert all(any(assignment[abs(lit)] == (lit > 0) for lit in c) for c in cnf.clauses)


@pytest.mark.xdist_group("timing")
def test_chain_human_output_and_time_limit(tmp_path):
    run = run_cli("reduce", "chain", COVER / "cnf-sat-small.txt")
    assert run.code == 0 and "3dm: q 24" in run.stdout and "satisfiable" in run.stdout
    big = tmp_path / "big.cnf"
    lines = ["p cnf 12 52"] + [
        f"{1 + i % 12} {-(1 + (i + 5) % 12)} {1 + (i * 7 + 3) % 12} 0" for i in range(52)
    ]
    big.write_text("\n".join(lines) + "\n")
    run = run_cli_process("reduce", "chain", big, "--time-limit", "0.2", "--json")
    assert run.code == 3 and run.json()["status"] == "unknown"
