"""How clingo runs an encoding: --clingo-option, -c and --parallel-mode in every ASP
backend (checked by clingo before any work), crosscheck's and bench's named settings,
and the statistics that explain the time (grounding vs solving, per horizon)."""

from __future__ import annotations

import json
import shutil

import pytest

from pyasp_games.domains import domain_spec
from pyasp_games.engines.resources import encoding_path, instance_dir

from .conftest import assert_bad_input, run_cli

#: every domain whose question has an ASP backend, with an instance it answers quickly
ASP_QUESTIONS = [
    ("cover", "solve", "tiny-cover.txt"),
    ("grundy", "exists", "cycle4.txt"),
    ("geography", "solve", "cycle3-edge.txt"),
    ("puzzle", "solve", "thesis-board2.txt"),
    ("zerosum", "solve", "poker-endgame.txt"),
    ("kriegspiel", "solve", "small.txt"),
]


@pytest.mark.parametrize(("domain", "question", "file"), ASP_QUESTIONS)
def test_clingo_options_reach_every_asp_backend(domain, question, file):
    spec = domain_spec(domain)
    q = next(q for q in spec.questions if q.name == question)
    instance = spec.load_file(instance_dir(domain) / file)[0]
    plain = q.ask(instance, "asp")
    tuned = q.ask(instance, "asp", clingo_option=["--configuration=crafty"], const=["unused=1"],
                  parallel_mode="2")  # fmt: skip
    assert tuned.stats["clingo_options"] == [
        "--configuration=crafty", "-c", "unused=1", "--parallel-mode=2"
    ]
    assert tuned.status == plain.status and tuned.answer == plain.answer
    assert tuned.verdict.verified is not False


def test_a_constant_reaches_the_program(tmp_path):
    mine = tmp_path / "needs-n.lp"
    mine.write_text(encoding_path("cover", "x3c").read_text() + "\n:- n != 7.\n")
    tiny = instance_dir("cover") / "tiny-cover.txt"
    run = run_cli("cover", "solve", tiny, "-b", "asp", "--encoding", mine, "-c", "n=7")
    assert run.code == 0 and "verified" in run.stdout
    run = run_cli("cover", "solve", tiny, "-b", "asp", "--encoding", mine)  # n undefined
    assert run.code == 1 and "DISAGREES" in run.stdout + run.stderr


def test_clingo_refuses_before_any_work(tmp_path):
    missing = tmp_path / "no-such-file.txt"  # never read: the options are checked first
    run = run_cli("cover", "solve", missing, "-b", "asp", "--clingo-option=--configuration=nope")
    assert run.code == 2
    assert run.stderr.strip() == (
        "pyasp-games: error: clingo refuses --configuration=nope: Could not open config file 'nope'"
    )
    run = run_cli("cover", "solve", missing, "-b", "asp", "--parallel-mode", "x")
    assert run.code == 2 and "invalid value for: 'parallel-mode'" in run.stderr
    run = run_cli("cover", "solve", missing, "-b", "asp", "-c", "n")
    assert run.code == 2 and "expected NAME=VALUE" in run.stderr
    run = run_cli("cover", "solve", missing, "-b", "dlx", "--clingo-option=--configuration=crafty")
    assert run.code == 2 and "--clingo-option applies to --backend asp only" in run.stderr


def test_emitted_program_runs_with_the_same_options(tmp_path):
    out = tmp_path / "board.lp"
    board = instance_dir("puzzle") / "thesis-board2.txt"
    run = run_cli("puzzle", "solve", board, "-b", "asp", "--emit-lp", out, "-c", "k=2",
                  "--clingo-option=--configuration=trendy")  # fmt: skip
    assert run.code == 0
    (call,) = [line for line in out.read_text().splitlines() if line.startswith("% run:")]
    assert "--configuration=trendy -c k=2" in call


def test_statistics_per_horizon_add_up(tmp_path):
    # the 2 x 3 board farthest from its goal (small-2x3.txt's first, 21 moves): nine
    # horizons, 5 to 21, in a quarter second (thesis board 1: seven, in 1.5 s)
    board = tmp_path / "far.txt"
    board.write_text("# goal: blank-first\n3 4 5\n0 1 2\n")
    run = run_cli("puzzle", "solve", board, "-b", "asp", "--json")
    stats = run.json()["stats"]
    per = stats["per_horizon"]
    assert [h["horizon"] for h in per] == stats["horizons"]
    assert [h["status"] for h in per] == ["unsat"] * (len(per) - 1) + ["sat"]
    assert sum(h["choices"] for h in per) == stats["choices"]
    assert sum(h["conflicts"] for h in per) == stats["conflicts"]
    assert sum(h["time_solve"] for h in per) == pytest.approx(stats["time_solve"], abs=0.01)
    atoms = [h["lp_atoms"] for h in per]
    assert atoms == sorted(atoms) and atoms[-1] == stats["lp_atoms"]  # grown horizon by horizon


def test_crosscheck_settings_are_columns():
    run = run_cli("crosscheck", "cover", instance_dir("cover") / "tiny-cover.txt", "-b", "dlx,asp",
                  "--setting", "crafty=--configuration=crafty", "--setting", "two=--parallel-mode=2",
                  "--json")  # fmt: skip
    assert run.code == 0, run.stdout + run.stderr
    rows = [json.loads(line) for line in run.stdout.splitlines()][:-1]
    assert [r["label"] for r in rows] == ["dlx", "asp[crafty]", "asp[two]"]
    assert rows[1]["stats"]["clingo_options"] == ["--configuration=crafty"]
    assert {"time_ground", "time_solve", "lp_atoms", "lp_rules", "choices"} <= set(rows[1]["stats"])
    run = run_cli("crosscheck", "cover", "--setting", "bad=--frob")
    assert run.code == 2 and "clingo refuses --frob" in run.stderr


SETTINGS_SUITE = """
name = "settings"
domain = "cover"
backends = ["asp", "dlx"]
time_limit = 20
[settings]
default = []
crafty = ["--configuration=crafty"]
tweety = "--configuration=tweety --sat-prepro=2"
[[instances]]
bundled = "tiny-cover.txt"
"""


def test_bench_settings_dimension_and_effort_columns(tmp_path):
    suite = tmp_path / "suite.toml"
    suite.write_text(SETTINGS_SUITE)
    out = tmp_path / "out"
    run = run_cli("bench", suite, "--out", out)
    assert run.code == 0, run.stdout + run.stderr
    run = run_cli("bench", "report", out, "--json")
    assert run.code == 0
    backends = {b["backend"]: b for b in run.json()["backends"]}
    assert set(backends) == {"asp[default]", "asp[crafty]", "asp[tweety]", "dlx"}
    assert {"time_ground", "time_solve", "lp_atoms", "lp_rules"} <= set(backends["asp[crafty]"]["effort"])
    assert set(backends["dlx"]["effort"]) == {"cpu_seconds"}  # no clingo: its CPU only
    text = run_cli("bench", "report", out).stdout
    assert "ground s" in text and "atoms" in text
    assert "## What the time went to" in (out / "report.md").read_text()
    shutil.rmtree(out)
    suite.write_text(SETTINGS_SUITE.replace('"--configuration=crafty"', '"--frob"'))
    run = run_cli("bench", suite, "--out", out)
    assert run.code == 2 and "clingo refuses --frob" in run.stderr


def test_an_option_that_clashes_with_the_backends_own_is_bad_input():
    # clingo checks the user's options alone; with the counting backend's own --project
    # they clashed inside the backend: an internal error (exit 1) before
    matching = instance_dir("cover") / "matching-small.txt"
    run = run_cli("cover", "solve", matching, "-b", "asp", "--count", "--clingo-option=--project")
    assert_bad_input(run, "multiple occurrences: 'project'")


@pytest.mark.parametrize("mode", ["--enum-mode=brave", "--enum=cautious", "--enum-mode=query"])
def test_an_enumeration_of_consequences_is_refused_before_any_work(tmp_path, mode):
    # its "models" are consequences, not answer sets: a count or a cover read from them
    # means something else (it ended as a FAILED verification, exit 1, after solving)
    missing = tmp_path / "no-such-file.txt"
    for domain in ("cover", "puzzle"):
        run = run_cli(domain, "solve", missing, "-b", "asp", f"--clingo-option={mode}")
        assert_bad_input(run, "reports consequences, not answer sets")
    tiny = instance_dir("cover") / "tiny-cover.txt"
    run = run_cli("crosscheck", "cover", tiny, "-b", "asp", "--setting", f"b={mode}")
    assert_bad_input(run, "reports consequences, not answer sets")
