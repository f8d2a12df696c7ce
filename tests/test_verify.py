"""The backend contract (a typed claim; the runner alone judges it) and saved answers
checked again (``pyasp-games verify``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pyasp_games.engines.claim import Claim, Kind, Status
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.runner import run_backend
from pyasp_games.engines.verdict import STATS_KEYS, Verdict
from pyasp_games.tools.crosscheck import confirmation

from .conftest import assert_bad_input, run_cli

ROOT = Path(__file__).resolve().parent.parent
COVER = ROOT / "instances" / "cover"


def _ok(instance, outcome):
    return True, "checked"


# -- the contract ------------------------------------------------------------------------


def test_the_runner_alone_stamps_names_time_and_verdict():
    def backend(n, limits):
        return Claim.solved(n + 1, witness=[n], kind=Kind.UPPER_BOUND, certificate={"why": n})

    out = run_backend({"b": backend}, "b", 4, "four", Limits(), _ok)
    assert (out.problem, out.backend, out.status, out.answer) == ("four", "b", Status.SOLVED, 5)
    assert out.seconds >= 0 and out.stats["cpu_seconds"] >= 0
    assert out.verdict.kind is Kind.UPPER_BOUND and out.verdict.verified is True
    assert out.certificate == {"why": 4} and out.to_dict()["certificate"] == {"why": 4}


@pytest.mark.parametrize("key", sorted(STATS_KEYS))
def test_a_claim_with_a_verdict_key_in_its_stats_is_refused(key):
    def backend(n, limits):
        return Claim.solved(n, stats={key: False})

    with pytest.raises(ValueError, match="verdict's keys"):
        run_backend({"b": backend}, "b", 1, "one", Limits(), _ok)


def test_a_malformed_claim_fails_without_a_checker():
    def backend(n, limits):
        return Claim.refuted("an answer set of the wrong shape", {"models": 1})

    def never(instance, outcome):
        raise AssertionError("the checker must not run on a malformed claim")

    out = run_backend({"b": backend}, "b", 1, "one", Limits(), never)
    assert out.status == "error" and out.verdict.failed
    assert out.verdict.message == "an answer set of the wrong shape" and out.stats["models"] == 1


def test_verified_in_part_is_no_full_check_for_any_reader():
    def partial(instance, outcome):
        outcome.verdict.not_checked = "49 of 50 options' values (they rest on the search)"
        return True, "1 of 50 options recomputed"

    out = run_backend({"b": lambda n, limits: Claim.solved(n)}, "b", 3, "i", Limits(), partial)
    assert out.verdict.in_part and not out.verdict.fully_verified
    data = json.loads(json.dumps(out.to_dict()))
    assert data["stats"]["verified"] == "partial"  # never `true` in JSON
    back = Outcome.from_dict(data)
    assert back.verdict.in_part and back.verdict.not_checked == out.verdict.not_checked
    assert confirmation([out], False) == ["verified in part"]  # crosscheck's own category


def test_a_saved_outcome_reads_back_with_its_verdict_and_certificate():
    from fractions import Fraction

    out = Outcome("m", "lp", "no-solution", None, None, 0.5, {"nodes": 3},
                  certificate={(0, 1): [Fraction(1, 3)], "s": {2}},
                  verdict=Verdict(kind=Kind.WITHIN_BOUND, bound=7))  # fmt: skip
    back = Outcome.from_dict(json.loads(json.dumps(out.to_dict())))
    assert back.certificate == {(0, 1): [Fraction(1, 3)], "s": frozenset({2})}
    assert (back.verdict.kind, back.verdict.bound, back.stats) == (Kind.WITHIN_BOUND, 7, {"nodes": 3})
    with pytest.raises(ValueError, match="status"):
        Outcome.from_dict({"problem": "p", "backend": "b", "status": "maybe"})


# -- pyasp-games verify ------------------------------------------------------------------


def _saved(tmp_path: Path, *command: str | Path) -> Path:
    run = run_cli(*command, "--json")
    assert run.code == 0, run.stderr
    path = tmp_path / "answer.json"
    path.write_text(run.stdout)
    return path


def test_verify_accepts_a_saved_hex_proof_and_refutes_a_tampered_one(tmp_path):
    path = _saved(tmp_path, "hex", "solve", "3x3")
    run = run_cli("verify", path)
    assert run.code == 0 and "re-checked: verified" in run.stdout, (run.stdout, run.stderr)
    data = json.loads(path.read_text())
    proof = data.get("certificate") or data["stats"]["proof"]
    leaf = next(node for node in proof["nodes"] if "pairs" in node)
    leaf["pairs"] = leaf["pairs"][:1]  # a pairing that no longer joins the sides
    path.write_text(json.dumps(data))
    run = run_cli("verify", path)
    assert run.code == 1, (run.stdout, run.stderr)
    assert len(run.stderr.splitlines()) == 1 and "refuted:" in run.stderr


def test_verify_rechecks_a_cover_against_the_instance_given(tmp_path):
    path = _saved(tmp_path, "cover", "solve", COVER / "tiny-cover.txt")
    assert run_cli("verify", path, COVER / "tiny-cover.txt").code == 0
    data = json.loads(path.read_text())
    data["witness"] = data["witness"][:-1]  # a cover with a subset left out
    path.write_text(json.dumps(data))
    run = run_cli("verify", path)
    assert run.code == 1 and "refuted:" in run.stderr
    # the same saved cover is no cover of another instance
    other = _saved(tmp_path, "cover", "solve", COVER / "tiny-cover.txt")
    assert run_cli("verify", other, COVER / "regular-q30-d5-planted.txt").code == 1


def test_verify_finds_a_relative_input_beside_the_saved_answer(tmp_path, monkeypatch):
    shutil.copy(COVER / "tiny-cover.txt", tmp_path / "tiny-cover.txt")
    monkeypatch.chdir(tmp_path)
    path = _saved(tmp_path, "cover", "solve", "tiny-cover.txt")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert run_cli("verify", path).code == 0


def test_a_claim_no_checker_confirms_alone_is_not_shown_verified(tmp_path):
    path = _saved(tmp_path, "cover", "solve", COVER / "tiny-none.txt")
    run = run_cli("verify", path)
    assert run.code == 3 and "verified" not in run.stdout.replace("not checkable", ""), run.stdout


def test_verify_with_the_question_named_by_hand(tmp_path):
    path = _saved(tmp_path, "games", "nim", "3", "4", "5")
    data = json.loads(path.read_text())
    for key in ("question", "input"):
        data.pop(key)
    path.write_text(json.dumps(data))
    assert_bad_input(run_cli("verify", path), "--question")
    assert run_cli("verify", path, "3 4 5", "--question", "games nim").code == 0
    # the same answer ("N": the player to move wins) is refuted on a lost position
    run = run_cli("verify", path, "1,2,3", "--question", "games nim")
    assert run.code == 1 and "refuted:" in run.stderr, (run.stdout, run.stderr)


def test_verify_bad_input_is_one_line(tmp_path):
    assert_bad_input(run_cli("verify", tmp_path / "missing.json"), "missing.json")
    junk = tmp_path / "junk.json"
    junk.write_text("{not json")
    assert_bad_input(run_cli("verify", junk), "not JSON")
    junk.write_text("[1, 2]")
    assert_bad_input(run_cli("verify", junk), "one JSON object")
    junk.write_text(json.dumps({"problem": "p", "backend": "b", "status": "solved",
                                "question": "nosuch solve"}))  # fmt: skip
    assert_bad_input(run_cli("verify", junk), "unknown command group")
    junk.write_text(json.dumps({"problem": "p", "backend": "b", "status": "perhaps",
                                "question": "cover solve",
                                "input": {"file": str(COVER / "tiny-cover.txt")}}))  # fmt: skip
    assert_bad_input(run_cli("verify", junk), "status")


# -- no verdict facts in the domains' stats ------------------------------------------------


def test_no_domain_declares_a_verdict_in_its_stats():
    """The kind of an answer, its bound, a malformed answer and a proof are a claim's own
    fields: no domain writes them as ``stats`` keys (nor builds an Outcome in a backend)."""
    import re

    pattern = re.compile(r"""stats\[["'](optimal|bounded|malformed|proof)["']\]""")
    literal = re.compile(r"""["'](optimal|bounded|malformed)["']\s*:""")
    found = []
    for path in sorted((ROOT / "pyasp_games" / "domains").rglob("*.py")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if pattern.search(line) or literal.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)


def test_every_backend_returns_a_claim():
    def old(n, limits):
        return Outcome("n", "old", "solved", n)

    with pytest.raises(TypeError, match="not a Claim"):
        run_backend({"old": old}, "old", 1, "one", Limits(), _ok)


def test_a_rechecked_answer_is_shown_as_the_command_shows_it(tmp_path):
    # a stochastic game's values came back as "[Fraction(1, 1), Fraction(1, 1)]"
    from pyasp_games.engines.resources import instance_dir

    game = instance_dir("zerosum") / "recursive-q-half.json"
    saved = tmp_path / "answer.json"
    saved.write_text(run_cli("zerosum", "stochastic", game, "--json").stdout)
    run = run_cli("verify", saved)
    assert run.code == 0, run.stderr
    assert run.stdout.startswith("recursive-q-half: solved, [1, 1] (shapley, re-checked: verified")
