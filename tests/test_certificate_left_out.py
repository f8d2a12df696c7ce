"""``--no-certificate``: a question whose checker can do without its certificate prints
its JSON answer without it, and ``verify`` checks such an answer and says what it covers."""

from __future__ import annotations

import json

from tests.conftest import assert_bad_input, run_cli

GAME = "instances/geography/tqbf-true-vertex.txt"


def test_geography_prints_its_answer_without_the_strategy_and_verify_says_so(tmp_path):
    full = run_cli("geography", "solve", GAME, "--json")
    lean = run_cli("geography", "solve", GAME, "--json", "--no-certificate")
    assert full.code == lean.code == 0
    kept, left = full.json(), lean.json()
    assert kept["certificate"]["nodes"] and "certificate_left_out" not in kept
    assert "certificate" not in left and left["certificate_left_out"] is True
    assert left["answer"] == kept["answer"] == "first" and len(lean.stdout) < len(full.stdout)
    (tmp_path / "full.json").write_text(full.stdout)
    (tmp_path / "lean.json").write_text(lean.stdout)
    again = run_cli("verify", tmp_path / "full.json")
    assert again.code == 0 and "re-checked: verified" in again.stdout
    assert "without its certificate" not in again.stderr
    again = run_cli("verify", tmp_path / "lean.json")
    assert again.code == 0 and "re-checked: verified" in again.stdout
    assert "saved without its certificate (--no-certificate)" in again.stderr and "minimax" in again.stderr
    # a wrong winner saved without the strategy is still refuted by the minimax
    wrong = dict(left, answer="second", witness=None)
    (tmp_path / "wrong.json").write_text(json.dumps(wrong))
    assert run_cli("verify", tmp_path / "wrong.json").code == 1


def test_no_certificate_needs_json_and_a_question_that_declares_it():
    assert_bad_input(run_cli("geography", "solve", GAME, "--no-certificate"), "give --json")
    # a question whose checker needs its certificate has no such option
    run = run_cli("routing", "number", "path:3", "--json", "--no-certificate")
    assert run.code == 2 and "No such option" in run.stderr
