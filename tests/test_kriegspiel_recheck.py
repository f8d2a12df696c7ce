"""Saved kriegspiel answers checked again (``Question.recheck``): ``solve`` and ``table``
as ``--json`` prints them, read back and confirmed by the checker alone (the table of
values from the JSON certificate, or from the cached file the witness names); a tampered
copy refuted."""

from __future__ import annotations

import copy
import json

import pytest

from pyasp_games.domains.kriegspiel import tablebase
from pyasp_games.domains.kriegspiel.model import parse_metaposition
from pyasp_games.domains.kriegspiel.questions import SOLVE, TABLE, read_board

from .conftest import run_cli
from .conftest import saved_answer as saved

START = "4/4/1R2/K3 unknown"  # a forced mate in 8


@pytest.fixture
def no_cache(tmp_path, monkeypatch):
    """An empty cache: a start's own table, carried in the certificate."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(tablebase, "_LOADED", {})
    return tmp_path


def refuted(question, instance, data) -> None:
    back = question.recheck(instance, data)
    assert back.verdict.verified is False and back.status == "error", back.verdict.message


@pytest.mark.parametrize("backend", ["native", "asp"])
def test_solve_round_trip_and_tampering(backend, no_cache):
    m = parse_metaposition(START)
    out = SOLVE.ask(m, backend)
    data = saved(out)
    if backend == "native":  # the start's table of values travels in the certificate
        assert len(data["certificate"]["values"]) == data["witness"]["certificate"]["values"]
    back = SOLVE.recheck(m, data)
    assert back.verdict.fully_verified and back.answer == 8, back.verdict.message
    assert back.stats["checked"] == {"mate_within": 8, "no_mate_within": 7}
    wrong = copy.deepcopy(data)
    wrong["answer"] = 7
    refuted(SOLVE, m, wrong)
    wrong = copy.deepcopy(data)
    wrong["witness"]["nodes"][0]["attempt"] = "Kb1"  # a witness move
    refuted(SOLVE, m, wrong)
    if backend == "native":
        wrong = copy.deepcopy(data)
        del wrong["witness"]["refutation"]  # the faster mate refuted by the table alone
        assert SOLVE.recheck(m, wrong).verdict.fully_verified
        wrong["certificate"]["values"][0] -= 1  # a certificate entry: the start's own value
        refuted(SOLVE, m, wrong)


def test_solve_json_of_the_command_line_is_rechecked(no_cache):
    run = run_cli("kriegspiel", "solve", START, "--json")
    assert run.code == 0
    back = SOLVE.recheck(parse_metaposition(START), json.loads(run.stdout))
    assert back.verdict.fully_verified and back.answer == 8


def test_no_forced_mate_and_a_bound_round_trip(no_cache):
    m = parse_metaposition("4R/5/5/5/1K3 unknown")
    data = saved(SOLVE.ask(m))
    assert data["status"] == "no-solution"
    assert SOLVE.recheck(m, data).verdict.fully_verified
    start = parse_metaposition(START)
    from pyasp_games.engines.limits import Limits

    bounded = saved(SOLVE.ask(start, limits=Limits(max_length=7)))
    assert bounded["stats"]["bounded"] == 7
    back = SOLVE.recheck(start, bounded)
    assert back.verdict.fully_verified and back.verdict.bound == 7
    bounded["stats"]["bounded"] = 8  # "none within 8": the start mates in 8
    refuted(SOLVE, start, bounded)


def test_the_heuristics_claims_round_trip():
    upper = parse_metaposition("?1?/2?/KR1")
    data = saved(SOLVE.ask(upper, "heuristic"))
    assert data["stats"]["optimal"] is False
    back = SOLVE.recheck(upper, data)
    assert back.verdict.fully_verified and not back.verdict.exact
    m = parse_metaposition(START)
    data = saved(SOLVE.ask(m, "heuristic"))
    assert data["answer"] == "strategy-fails" and data["stats"]["bounded"] == "the heuristic's strategy"
    assert SOLVE.recheck(m, data).verdict.fully_verified
    wrong = copy.deepcopy(data)
    wrong["witness"]["line"][0]["attempt"] = "Rb1" if data["witness"]["line"][0]["attempt"] != "Rb1" else "Rc2"
    refuted(SOLVE, m, wrong)


def test_table_round_trip_and_tampering(no_cache):
    request = read_board("3x3")
    out = TABLE.ask(request)
    data = saved(out)
    # the table of values is the cached file the witness names, not carried in the JSON
    assert "certificate" not in data and data["witness"]["certificate"]["file"].startswith(str(no_cache))
    back = TABLE.recheck(request, data)
    assert back.verdict.fully_verified, back.verdict.message
    assert back.stats["checked"] == out.stats["checked"]
    wrong = copy.deepcopy(data)
    wrong["answer"]["longest"] += 1  # a number the printed claim rests on
    refuted(TABLE, request, wrong)
    wrong = copy.deepcopy(data)
    wrong["answer"]["metapositions"] -= 1
    refuted(TABLE, request, wrong)
    wrong = copy.deepcopy(data)
    row = next(r for r in wrong["witness"]["starts"] if r["value"] is not None)
    row["value"] += 1  # a start's value
    refuted(TABLE, request, wrong)


def test_a_table_not_on_this_machine_is_no_refutation(no_cache):
    # a saved answer whose table of values is a file elsewhere: what rests on it alone is
    # said not re-checked (in part), or left unconfirmed, never refuted
    m = parse_metaposition(START)
    table = TABLE.ask(read_board("4x4"))  # writes the cache
    assert table.verdict.verified is True
    out = SOLVE.ask(m)
    assert out.stats["table"] == "the board's cached table" and out.certificate is None
    data = saved(out)
    assert "certificate" not in data
    assert SOLVE.recheck(m, data).verdict.fully_verified  # the file read again
    elsewhere = copy.deepcopy(data)
    elsewhere["witness"]["certificate"]["file"] = str(no_cache / "elsewhere.npz")
    assert SOLVE.recheck(m, elsewhere).verdict.fully_verified  # the readable refutation holds
    del elsewhere["witness"]["refutation"]
    back = SOLVE.recheck(m, elsewhere)
    assert back.verdict.in_part and "not on this machine" in back.verdict.not_checked
    # "no forced mate" resting on that table alone: unconfirmed (exit 3), not refuted
    drawn = parse_metaposition(next(r["metaposition"] for r in table.witness["starts"] if r["value"] is None))
    lost = saved(SOLVE.ask(drawn))
    assert lost["status"] == "no-solution" and SOLVE.recheck(drawn, lost).verdict.fully_verified
    lost["witness"] = {"certificate": {**lost["witness"]["certificate"], "file": str(no_cache / "elsewhere.npz")}}
    back = SOLVE.recheck(drawn, lost)
    assert back.verdict.verified is None and back.unconfirmed and back.exit_code == 3
