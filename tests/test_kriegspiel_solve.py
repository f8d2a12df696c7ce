"""Kriegspiel solve: optimal worst-case values, strategies replayed by the independent
checker, refutations, the checker refusing wrong witnesses, and the command line."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from pyasp_games.domains.kriegspiel import solve
from pyasp_games.domains.kriegspiel.asp import solve_asp
from pyasp_games.domains.kriegspiel.model import (
    Board,
    known_value,
    load_metaposition,
    load_metapositions,
    parse_metaposition,
    starts,
)
from pyasp_games.domains.kriegspiel.native import solve_native
from pyasp_games.domains.kriegspiel.tablebase import NO_MATE, build, values
from pyasp_games.domains.kriegspiel.verify import check_outcome, check_refutation, check_strategy
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.resources import instance_dir
from pyasp_games.engines.verdict import ABOUT_STRATEGY, Verdict
from pyasp_games.errors import InputError

from .conftest import assert_bad_input, run_cli
from .kriegspiel_common import play_process

SMALL = instance_dir("kriegspiel") / "small.txt"


def test_bundled_metapositions_have_their_known_values():
    for m in load_metapositions(SMALL):
        out = solve(m, "native")
        assert out.verdict.verified is True, out.verdict.message
        assert (True, out.answer) == known_value(m), m.name


def test_every_4x4_start_is_verified_and_the_values_are_a_fixpoint():
    ms = starts(Board(4, 4))
    table = build(ms)
    v = values(table)
    for m in ms[::20]:
        out = solve(m, "native")
        assert out.answer == (None if v[table.number((m.king, m.piece_square, m.belief))] >= NO_MATE
                              else int(v[table.number((m.king, m.piece_square, m.belief))]))
        assert out.verdict.verified is True


def test_the_checker_refuses_wrong_strategies():
    m = parse_metaposition("4/4/1R2/K3 unknown")
    out = solve_native(m, Limits())
    assert check_strategy(m, out.witness, 8)[0] is True
    ok, why = check_strategy(m, out.witness, 9)
    assert not ok and "within 8 moves" in why
    bad = copy.deepcopy(out.witness)
    bad["nodes"][0]["attempt"] = "Rb4"  # unprotected next to a3 / c3
    assert check_strategy(m, bad, 8)[0] is False
    one = parse_metaposition("4/?3/1R2/K3")
    plan = {"root": 0, "nodes": [{"attempt": "Rb4", "answers": {"silent": 0}}]}
    ok, why = check_strategy(one, plan, 1)
    assert not ok and why == "after Rb4 with the black king on a3: capture"
    bad = copy.deepcopy(out.witness)
    bad["nodes"][0]["attempt"] = "Kb3"  # not a move White can make from a1
    assert "not a move White can try" in check_strategy(m, bad, 8)[1]
    bad = copy.deepcopy(out.witness)
    first = bad["nodes"][0]["answers"]
    first[next(iter(first))] = 0  # loop back to the root: never mates
    assert check_strategy(m, bad, 8)[0] is False
    # a run whose strategy fails verification is an error, never an answer
    wrong = Outcome("m", "native", "solved", 8, bad)
    assert check_outcome(m, wrong)[0] is False


def test_the_checker_refuses_wrong_refutations():
    m = parse_metaposition("4R/5/5/5/1K3 unknown")
    out = solve_native(m, Limits())
    assert out.status == "no-solution" and check_refutation(m, out.witness)[0] is True
    won = parse_metaposition("5/5/5/5/KR3 unknown")  # a forced mate: no refutation holds
    fake = {"root": 0, "nodes": [{"metaposition": won.fen(), "depth": None, "refutes": {}}]}
    ok, why = check_refutation(won, fake)
    assert not ok and "is not refuted" in why
    fake["nodes"][0]["refutes"] = dict.fromkeys(("Rb2", "Rb3", "Rb4", "Rb5", "Ka2", "Kb2"), "draw")
    assert check_refutation(won, fake)[0] is False
    del fake["nodes"][0]["depth"]  # a node says what it refutes
    assert "malformed" in check_refutation(won, fake)[1]


def test_an_optimal_value_is_checked_from_both_sides():
    m = parse_metaposition("4/4/1R2/K3 unknown")
    out = solve(m, "native")
    assert out.verdict.verified is True and out.stats["checked"] == {"mate_within": 8, "no_mate_within": 7}
    proof = out.witness["refutation"]
    assert check_refutation(m, proof, 7)[0] is True
    ok, why = check_refutation(m, proof, 8)  # the root claims 7 moves, not 8
    assert not ok and "claims less" in why
    # the value is 8: no refutation of a mate within 8 can hold, whatever its depths say
    deeper = copy.deepcopy(proof)
    for node in deeper["nodes"]:
        node["depth"] = None if node["depth"] is None else node["depth"] + 1
    assert check_refutation(m, deeper, 8)[0] is False
    # a faster claim with the same certificate fails on the lower bound, not the strategy
    node = next(n for n in proof["nodes"] if n["depth"] and any(v != "draw" for v in n["refutes"].values()))
    attempt, (answer, target) = next((a, v) for a, v in node["refutes"].items() if v != "draw")
    wrong = copy.deepcopy(out.witness)
    step = next(n for n in wrong["refutation"]["nodes"] if n["metaposition"] == node["metaposition"])
    step["refutes"][attempt] = ["mate", target]  # a mate refutes nothing
    assert "refutes nothing" in check_outcome(m, Outcome("m", "native", "solved", 8, wrong))[1]
    step["refutes"][attempt] = [answer, proof["root"]]  # the root is not where it leads
    ok, why = check_outcome(m, Outcome("m", "native", "solved", 8, wrong))
    assert not ok and why.startswith("the claimed optimum:")


def test_a_refutation_links_symmetric_metapositions_and_the_checker_maps_them():
    m = parse_metaposition("4/4/1R2/K3 unknown")
    proof = solve(m, "native").witness["refutation"]
    turned = [(n, a) for n in proof["nodes"] for a, v in n["refutes"].items() if len(v) == 3]
    assert turned and check_refutation(m, proof, 7)[0] is True
    node, attempt = turned[0]
    for wrong, said in (("x,y", "names no symmetry"), ("r,r", "names no symmetry")):
        node["refutes"][attempt][2] = wrong
        ok, why = check_refutation(m, proof, 7)
        assert not ok and said in why
    held = []  # under another symmetry White is not at the node (a few may coincide)
    for name in ("r,f", "-r,f", "r,-f", "-r,-f", "f,r", "-f,r", "f,-r", "-f,-r"):
        node["refutes"][attempt][2] = name
        held.append(check_refutation(m, proof, 7)[0])
    assert held.count(False) >= 4
    wide = parse_metaposition("5/5/5/KR3 unknown")  # 4 x 5: ranks and files cannot swap
    proof = solve(wide, "native").witness["refutation"]
    node, attempt = next((n, a) for n in proof["nodes"] for a, v in n["refutes"].items() if v != "draw")
    node["refutes"][attempt] = [*node["refutes"][attempt][:2], "f,r"]
    assert "not square" in check_refutation(wide, proof, 8)[1]


def test_a_large_refutation_is_left_to_the_table_of_values(monkeypatch):
    from pyasp_games.cli.common import verdict
    from pyasp_games.domains.kriegspiel import native
    from pyasp_games.domains.kriegspiel.questions import describe_solve

    monkeypatch.setattr(native, "READABLE_REFUTATION", 50)
    m = parse_metaposition("4/4/1R2/K3 unknown")
    out = solve(m, "native")
    assert "refutation" not in out.witness and out.witness["certificate"]["values"] > 50
    assert out.verdict.verified is True, out.verdict.message
    assert out.stats["checked"] == {"mate_within": 8, "no_mate_within": 7}
    assert describe_solve(m, out, {})[0] == "White mates in 8 moves at worst (optimal)"
    # with neither a refutation nor a table, the optimum rests on the solver: said so
    bare = {k: v for k, v in out.witness.items() if k != "certificate"}
    alone = Outcome("m", "native", "solved", 8, bare, stats={
        "optimal_by": "the retrograde analysis", "no_certificate": "none kept"})
    assert check_outcome(m, alone)[0] is True and "none kept" in alone.verdict.not_checked
    alone.verdict.verified = True
    said = describe_solve(m, alone, {})[0]
    assert said == "White mates in 8 moves at worst (optimal by the retrograde analysis, lower bound not re-checked)"
    assert verdict(alone).startswith("verified in part, not re-checked: no mate within 7 (optimal by")


def test_the_checker_refuses_a_wrong_table_of_values(tmp_path, monkeypatch):
    import numpy as np

    from pyasp_games.domains.kriegspiel import tablebase

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # no cached table: the start's own
    monkeypatch.setattr(tablebase, "_LOADED", {})
    m = parse_metaposition("4/4/1R2/K3 unknown")
    good = solve(m, "native")
    keys, value = good.certificate["keys"], good.certificate["values"]

    def checked(keys, value, answer=8, status="solved"):
        witness = {k: v for k, v in good.witness.items() if k != "refutation"}
        if status != "solved":  # a no-solution's witness is its refutation: here none
            witness = {"certificate": witness["certificate"]}
        proof = dict(good.certificate, keys=keys, values=value)
        out = Outcome("m", "native", status, answer if status == "solved" else None, witness,
                      certificate=proof)
        return check_outcome(m, out)

    ok, why = checked(keys, value)
    assert ok and "does not mate within 7 moves: the table's values confirmed on the" in why
    lower = value.copy()
    lower[0] -= 1  # the start's own row (number 0: the root of the table's walk)
    ok, why = checked(keys, lower, 7)
    assert not ok  # the strategy mates in 8, not 7
    ok, why = checked(keys, lower)
    assert not ok and "the table of values" in why and "no attempt mates within it" in why
    held = [checked(keys, np.where(np.arange(len(value)) == r, value + 1, value))[0] for r in range(0, 60)]
    assert held.count(False) >= 30  # most rows of this table are needed by the start
    ok, why = checked(keys[1:], value[1:])
    assert not ok and "not in the table" in why
    ok, why = checked(keys[:-40], value[:-40])
    assert not ok and "the table lacks" in why
    ok, why = checked(np.concatenate([keys, keys[3:4]]), np.concatenate([value, value[3:4]]))
    assert not ok and "twice" in why
    # "no forced mate" claimed from a start that mates: refused by the same table
    ok, why = checked(keys, value, status="no-solution")
    assert not ok and "White mates within 8 moves" in why


def test_max_moves_bounds_the_answer():
    m = parse_metaposition("4/4/1R2/K3 unknown")
    out = solve(m, "native", Limits(max_length=7))
    assert out.status == "no-solution" and out.verdict.bound == 7
    assert out.verdict.verified is True and out.stats["checked"] == {"no_mate_within": 7}
    assert solve(m, "native", Limits(max_length=8)).answer == 8


def test_cli_solve_show_and_json():
    run = run_cli("kriegspiel", "solve", "4/4/1R2/K3 unknown")
    assert run.code == 0 and "White mates in 8 moves at worst (optimal)" in run.stdout
    assert "verified" in run.stdout
    out = run_cli("kriegspiel", "solve", SMALL.parent / "small.txt", "--json")
    assert out.code == 2  # a file of several metapositions is not one metaposition
    data = run_cli("kriegspiel", "solve", "k2/2K/1R1", "--json").json()
    assert data["answer"] == 1 and data["witness"]["nodes"][0]["attempt"] == "Ra1"
    show = run_cli("kriegspiel", "show", "4/4/1R2/K3 unknown")
    assert show.code == 0 and "1 K . ? ?" in show.stdout and "?1??/?1??/1R2/K1??" in show.stdout


@pytest.mark.parametrize("text", [
    "4/4/1R2/K3 unknown",  # KRK, 4 x 4, a set of squares
    "4/4/1R2/K2k",  # the square known
    "K1k/3/1R1",  # 3 x 3
    "5/5/2B2/1N3/K4 unknown",  # KBNK, 5 x 5
    "6/6/6/6/2Q3/K5 unknown",  # KQK on 6 x 6: ranks wider than 4 squares
    "7/7/7/1B5/3B3/K6 unknown",  # KBBK on 6 ranks of 7 files
    "8/8/8/8/8/8/1R6/K6k",  # 8 x 8
])
def test_what_show_prints_reads_back(tmp_path, text):
    m = load_metaposition(text)
    shown = run_cli("kriegspiel", "show", text)
    assert shown.code == 0
    lines = shown.stdout.splitlines()
    whole, diagram, no_fen = tmp_path / "whole.txt", tmp_path / "diagram.txt", tmp_path / "no-fen.txt"
    whole.write_text(shown.stdout)
    diagram.write_text("\n".join(lines[1:-1]) + "\n")  # the board alone, as printed
    no_fen.write_text("\n".join(lines[:-1]) + "\n")
    for file in (whole, diagram, no_fen):
        assert load_metaposition(file) == m, file.read_text()
    if m.board.size <= 16:  # the command reads it as the user gave it
        run = run_cli("kriegspiel", "solve", diagram)
        assert run.code == 0 and m.describe() in run.stdout, run.stderr


def test_a_diagram_with_wrong_rank_numbers_is_refused(tmp_path):
    file = tmp_path / "m.txt"
    file.write_text("1 . . . .\n2 . . . .\n3 . R . .\n4 K . . k\n  a b c d\n")
    assert_bad_input(run_cli("kriegspiel", "solve", file), "is numbered 1, but it is rank 4")


def test_cli_bad_input():
    assert_bad_input(run_cli("kriegspiel", "solve", "4/4/1R2/K?2"), "next to White's king")
    assert_bad_input(run_cli("kriegspiel", "solve", "nosuchfile"), "no such file")
    # a missing path with '/' in it: both readings said, on one line
    assert_bad_input(run_cli("kriegspiel", "solve", "no/such/file.txt"), "no such file, nor a metaposition")
    assert_bad_input(run_cli("kriegspiel", "show", "4/4/1R2/K3"), "no '?' mark")
    # time limits: tests/test_kriegspiel_hostile.py


@pytest.mark.slow
def test_6x6_starts_are_verified():
    for m in starts(Board(6, 6))[::151]:
        out = solve(m, "native")
        assert out.verdict.verified is not False, out.verdict.message


# -- asp: clingo decides "mate within d" with the rules in ASP ------------------------


def test_asp_agrees_with_native_on_3x3_starts():
    for m in starts(Board(3, 3))[::5]:
        a, n = solve(m, "asp"), solve(m, "native")
        assert a.verdict.verified is True, a.verdict.message
        assert (a.status, a.answer) == (n.status, n.answer), m.fen()


def test_asp_emit_lp_and_max_moves(tmp_path):
    m = parse_metaposition("?1?/2?/KR1")
    lp = tmp_path / "m.lp"
    run = run_cli("kriegspiel", "solve", "?1?/2?/KR1", "-b", "asp", "--emit-lp", lp)
    assert run.code == 0 and "mates in 4 moves" in run.stdout
    assert "state(0," in lp.read_text() and "% encoding:" in lp.read_text()
    bounded = solve(m, "asp", Limits(max_length=3))
    assert bounded.status == "no-solution" and bounded.verdict.bound


def test_a_user_encodings_claims_are_checked_by_their_certificates(tmp_path):
    from pyasp_games.engines.resources import encoding_path

    bundled = encoding_path("kriegspiel", "retrograde").read_text()
    mine = tmp_path / "mine.lp"
    mine.write_text(bundled)
    m = parse_metaposition("?1?/2?/KR1")
    out = solve(m, "asp", encoding=str(mine))
    # the optimum is certified from both sides: no reference needed
    assert out.stats["checked"] == {"mate_within": 4, "no_mate_within": 3}
    assert out.verdict.cross_check is None and out.verdict.verified is True
    never = tmp_path / "never.lp"  # wins nothing: "no forced mate" everywhere
    never.write_text(bundled.replace("works(U,M,T,d) :- possible(U,M,T),", "works(U,M,T,d) :- never, possible(U,M,T),"))
    out = solve(parse_metaposition("k2/2K/1R1"), "asp", encoding=str(never))
    assert out.status == "error" and out.verdict.verified is False
    assert "the answer set's values refute nothing" in out.verdict.message


def test_asp_refuses_at_once_what_it_cannot_reach():
    # a 6 x 6 start ran out every time limit without a word; now one line, before grounding
    # (in this process: a limit below the guard's forks the run, so a grounding that
    # started after all would be stopped, not hang the test)
    run = run_cli("kriegspiel", "solve", "6/6/6/6/1R4/K5 unknown", "-b", "asp", "--time-limit", "5")
    assert_bad_input(run, "the asp backend reaches boards of at most 25 squares (5 x 5); 6x6 has 36")
    from pyasp_games.domains.kriegspiel import asp

    with pytest.raises(InputError, match="reaches metapositions with at most 40 others"):
        asp.MAX_UNIVERSE, kept = 40, asp.MAX_UNIVERSE
        try:
            solve_asp(parse_metaposition("4/4/1R2/K3 unknown"))
        finally:
            asp.MAX_UNIVERSE = kept


@pytest.mark.slow
def test_asp_answers_a_5x5_start_through_the_symmetries():
    m = parse_metaposition("5/5/5/1R3/K4 unknown")  # 4,500 metapositions up to symmetry
    a, n = solve(m, "asp"), solve(m, "native")
    assert a.answer == n.answer == 12 and a.verdict.verified is True
    assert a.stats["checked"] == {"mate_within": 12, "no_mate_within": 11}


@pytest.mark.slow
def test_asp_agrees_with_native_on_4x4():
    for text in ("?1?1/4/1R2/K3", "4/4/1R2/K3 unknown"):
        m = parse_metaposition(text)
        a, n = solve(m, "asp"), solve(m, "native")
        assert a.answer == n.answer and a.verdict.verified is True


# -- table ---------------------------------------------------------------------------


def test_table_of_small_boards_is_the_shipped_data():
    import json

    from pyasp_games.domains.kriegspiel.questions import TABLE, read_board

    shipped = json.loads((SMALL.parent / "tables.json").read_text())
    out = TABLE.ask(read_board("3x3"))
    assert out.verdict.verified is True, out.verdict.message
    assert out.answer["distribution"] == {"3": 20, "4": 24, "none": 4}
    assert out.answer == shipped["KRK"]["3x3"]
    out = TABLE.ask(read_board("4x4"))
    assert out.verdict.verified is True and out.answer == shipped["KRK"]["4x4"]
    assert out.answer["distribution"] == {"4": 28, "5": 52, "6": 64, "7": 48, "8": 20, "none": 24}
    assert (out.answer["forced"], out.answer["starts"], out.answer["longest"]) == (212, 236, 8)


def test_the_table_checker_refuses_a_wrong_value():
    from pyasp_games.domains.kriegspiel.questions import read_board
    from pyasp_games.domains.kriegspiel.verify import check_table

    request = read_board("3x3")
    out = TABLE_SOLVE(request)
    assert check_table(request, out)[0] is True
    assert out.stats["checked"] == {"mate_within": 44, "no_mate_within": 44, "no_forced_mate": 4}
    row = next(r for r in out.witness["starts"] if r["value"] == 3)
    good = copy.deepcopy(row)
    row["value"] = 2
    assert check_table(request, out)[0] is False
    row["value"] = None  # now claimed lost: its refutation claims 2 moves, not every number
    assert check_table(request, out)[0] is False
    row.update(good)
    row["refutation"] = next(r["refutation"] for r in out.witness["starts"] if r["value"] is None)
    assert check_table(request, out)[0] is False  # another start's refutation


def TABLE_SOLVE(request):
    from pyasp_games.domains.kriegspiel.native import solve_table

    return solve_table(request, Limits())


@pytest.mark.xdist_group("timing")
def test_cli_table(tmp_path):
    import json

    data = tmp_path / "krk3.json"
    run = run_cli("kriegspiel", "table", "--board", "3x3", "--output", data)
    assert run.code == 0 and "44 of 48 starts are forced mates, the longest in 4 moves" in run.stdout
    table = json.loads(data.read_text())  # the distribution and every start's value, as data
    assert (table["board"], table["starts"], table["forced"]) == ("3x3", 48, 44)
    assert table["distribution"] == {"3": 20, "4": 24, "none": 4} and len(table["values"]) == 48
    assert {"metaposition": "?1?/2?/KR1", "value": 4} in table["values"]
    assert table["verified"] is True and table["checked"]["no_mate_within"] == 44
    # never over a file without --force; with it, the file is written again
    assert_bad_input(run_cli("kriegspiel", "table", "--board", "4x4", "-o", data), "file exists")
    assert json.loads(data.read_text())["board"] == "3x3"
    assert run_cli("kriegspiel", "table", "--board", "4x4", "-o", data, "--force").code == 0
    assert json.loads(data.read_text())["board"] == "4x4"
    # the build stopped at its limit (in this process, the run forked; the whole command's
    # limit in a child: test_kriegspiel_hostile.py's 8 x 8 start)
    # (7 x 7: a quiet machine with warm kernels builds the 6 x 6 table within 0.3 s)
    late = run_cli("kriegspiel", "table", "--board", "7x7", "-o", tmp_path / "none.json", "--time-limit", "0.3")
    assert late.code == 3 and "nothing written: the answer is unknown" in late.stderr
    assert not (tmp_path / "none.json").exists()
    assert_bad_input(run_cli("kriegspiel", "table", "--board", "9x9"), "3 to 8")


# -- heuristic: the evaluation-function player (Bolognesi-Ciancarini), measured --------


def test_heuristic_is_an_upper_bound_or_names_the_line_that_beats_it():
    m = parse_metaposition("?1?/2?/KR1")
    out = solve(m, "heuristic")
    assert out.status == "solved" and not out.verdict.exact
    assert out.verdict.verified is True and out.answer >= solve(m, "native").answer
    start = parse_metaposition("4/4/1R2/K3 unknown")  # a forced mate in 8 ...
    beaten = solve(start, "heuristic")  # ... that the evaluation function never finds
    assert (beaten.status, beaten.answer) == ("no-solution", "strategy-fails")
    assert beaten.verdict.bound == "the heuristic's strategy" and beaten.verdict.verified is True
    assert beaten.stats["checked"] == {"strategy_fails": True}
    assert "the policy goes round in circles" in beaten.stats["line"]
    run = run_cli("kriegspiel", "solve", "4/4/1R2/K3 unknown", "-b", "heuristic")
    assert run.code == 0 and "the heuristic's strategy does not mate (a claim about this strategy" in run.stdout
    assert "the Black line: Rb1: check-rank;" in run.stdout


def test_the_checker_replays_the_heuristics_failing_line():
    from pyasp_games.domains.kriegspiel.heuristic import policy_attempt
    from pyasp_games.domains.kriegspiel.verify import check_policy_line

    def check(line):
        return check_policy_line(start, line, policy_attempt)

    start = parse_metaposition("4/4/1R2/K3 unknown")
    beaten = solve(start, "heuristic")
    line = beaten.witness
    assert check(line)[0] is True
    wrong = copy.deepcopy(line)
    wrong["line"][0]["attempt"] = "Ra2"  # not what the policy plays
    assert "the policy plays Rb1, not Ra2" in check(wrong)[1]
    wrong = copy.deepcopy(line)
    wrong["returns_to"] = 0  # it comes back elsewhere
    assert "does not return" in check(wrong)[1]
    wrong = copy.deepcopy(line)
    wrong["line"][0]["answer"] = "check-file"  # no square gives it
    assert "no square of the black king gives" in check(wrong)[1]
    wrong = copy.deepcopy(line)
    del wrong["line"][-1]  # one step short of the cycle
    assert check(wrong)[0] is False
    wrong["returns_to"] = None  # nor is the policy stuck there
    assert "still has an attempt" in check(wrong)[1]
    # the claim is about one policy: another one (here: always Rb1) does not fail so
    assert check_policy_line(start, line, lambda m: "Rb1")[0] is False
    # without the policy the claim is not checkable (the question hands it in)
    claim = Outcome(beaten.problem, "heuristic", "no-solution", beaten.answer, line,
                    verdict=Verdict(kind=ABOUT_STRATEGY, bound=beaten.verdict.bound))
    assert check_outcome(start, claim)[0] is None


def test_the_checker_imports_nothing_from_the_solvers():
    """verify.py has its own rules: of the kriegspiel package it reads the model only."""
    import ast

    import pyasp_games.domains.kriegspiel.verify as verify

    tree = ast.parse(Path(verify.__file__).read_text())
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
    ours = {name for name in imported if name and name.startswith("pyasp_games.domains.kriegspiel")}
    assert ours == {"pyasp_games.domains.kriegspiel.model", "pyasp_games.domains.kriegspiel.value_check"}
    # its compiled half reads no module of the package at all
    import pyasp_games.domains.kriegspiel.value_check as compiled

    tree = ast.parse(Path(compiled.__file__).read_text())
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not {name for name in imported if name and name.startswith("pyasp_games.domains")}


def test_crosscheck_of_small_metapositions(tmp_path):
    # every backend, each answer verified and compared with the known one; a heuristic
    # failure (about its strategy) and a "no forced mate" side by side exit 0
    small = tmp_path / "small.txt"  # the bundled ones of at most 16 squares (asp applies)
    small.write_text("# name: mate@1\nk2/2K/1R1\n# name: corner@4\n?1?/2?/KR1\n"
                     "# name: start@8\n4/4/1R2/K3 unknown\n# name: far@none\n4R/5/5/5/1K3 unknown\n")  # fmt: skip
    run = run_cli("crosscheck", "kriegspiel", small, "--json", timeout=600)
    assert run.code == 0, run.stdout[-2000:] + run.stderr
    assert '"strategy-fails"' in run.stdout and '"no-solution"' in run.stdout


@pytest.mark.slow
def test_crosscheck_of_the_bundled_metapositions():
    run = run_cli("crosscheck", "kriegspiel", "--json", timeout=600)
    assert run.code == 0, run.stdout[-2000:] + run.stderr


# -- play ------------------------------------------------------------------------------


def test_play_as_black_against_the_engine():
    from pyasp_games.domains.kriegspiel.play import play

    # the engine mates whatever Black does: Black always takes its first legal step
    m = parse_metaposition("?1?/2?/KR1")
    for start in ("a3", "c3", "c2"):
        said: list[str] = []
        result = play(m, "black", _black_player(m, start), said.append)
        assert result == "mate" and said[-1].startswith("White plays") and "mate" in said[-1]
    run = play_process("4/4/1R2/K3 unknown", stdin="a4\nb4\nquit\n")
    assert run.returncode == 0 and "White plays Rb1: silence." in run.stdout
    assert "b4: illegal, try again." in run.stdout


def _black_player(m, start):
    """Black's moves for a test: the start square, then every square in turn until the
    referee accepts one (the referee refuses the illegal ones)."""
    squares = [f"{f}{r}" for r in range(1, m.board.rows + 1) for f in "abcdefgh"[: m.board.cols]]
    state = {"next": 0}

    def read(prompt):
        if prompt.startswith("your king"):
            return start
        square = squares[state["next"] % len(squares)]
        state["next"] += 1
        return square

    return read


def test_play_as_white_shows_the_referee_and_the_metaposition():
    run = play_process("4/4/1R2/K3 unknown", "--side", "white", "--seed", "3", stdin="Kb3\nRb1\nquit\n")
    assert run.returncode == 0
    assert "Kb3 is not a move you can try" in run.stdout and "Rb1: silence." in run.stdout
    assert "1 K R . ." in run.stdout  # White's metaposition after the move
    bad = play_process("4/4/1R2/K3 unknown", "--side", "grey", stdin="")
    assert bad.returncode == 2 and "--side is black or white" in bad.stderr


def test_kqk_table_and_asp_with_diagonal_checks():
    import json

    from pyasp_games.domains.kriegspiel.questions import TABLE, read_board

    out = TABLE.ask(read_board("4x4", "Q"))
    assert out.verdict.verified is True and out.answer["forced"] == out.answer["starts"] == 236
    shipped = json.loads((SMALL.parent / "tables.json").read_text())
    assert out.answer == shipped["KQK"]["4x4"]
    assert out.answer["distribution"] == {"1": 12, "2": 32, "3": 84, "4": 40, "5": 56, "6": 12}
    m = parse_metaposition("4/4/1Q2/K3 unknown")
    a, n = solve(m, "asp"), solve(m, "native")
    assert (a.answer, n.answer) == (6, 6) and a.verdict.verified is True


def test_the_compiled_walk_and_rounds_give_the_python_table(monkeypatch):
    # large boards are walked and iterated compiled (reachable.py): the same table, the
    # same numbering, the same values as the Python walk and the numpy rounds
    from pyasp_games.domains.kriegspiel import tablebase

    ms = starts(Board(5, 5))
    slow, fast = build(ms, compiled=False), build(ms, compiled=True)
    assert slow.keys == fast.keys and slow.roots == fast.roots
    for name in ("owner", "illegal", "after"):
        assert (getattr(slow, name) == getattr(fast, name)).all(), name
    numpy_values = values(slow)
    monkeypatch.setattr(tablebase, "COMPILED_ROUNDS", 0)
    assert (values(fast) == numpy_values).all()


def test_the_checker_reads_the_cached_table_a_witness_names(tmp_path, monkeypatch):
    # the certificate kept with the cached table: a --json witness names its file, and
    # the checker confirms the answer from that file alone (and refuses a damaged one)
    import numpy as np

    from pyasp_games.domains.kriegspiel import tablebase
    from pyasp_games.domains.kriegspiel.questions import TABLE, read_board

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(tablebase, "_LOADED", {})
    assert TABLE.ask(read_board("4x4")).verdict.verified is True  # writes the cache
    m = parse_metaposition("4/4/1R2/K3 unknown")
    out = solve(m, "native")
    said = out.witness["certificate"]
    assert out.stats["table"] == "the board's cached table" and said["file"].startswith(str(tmp_path))
    witness = {k: v for k, v in out.witness.items() if k != "refutation"}
    alone = Outcome("m", "native", "solved", 8, witness)  # no certificate object
    ok, why = check_outcome(m, alone)
    assert ok and "the table's values confirmed" in why
    with np.load(said["file"]) as data:
        keys, value = data["keys"], data["values"].copy()
    value[value < NO_MATE] += 1  # every value one too many
    np.savez_compressed(said["file"], keys=keys, values=value)
    ok, why = check_outcome(m, Outcome("m", "native", "solved", 8, witness))
    assert not ok and "the table of values" in why
    Path(said["file"]).write_text("not a table")
    ok, why = check_outcome(m, Outcome("m", "native", "solved", 8, witness))
    assert not ok and "cannot be read" in why


def test_a_table_verified_in_part_says_partial_in_its_file():
    # the --output file of a table reads like every JSON of the tool: never `true` in part
    from pyasp_games.domains.kriegspiel.questions import TABLE, read_board, table_data

    request = read_board("3x3")
    out = TABLE.ask(request)
    assert table_data(request, out)["verified"] is True
    out.verdict.not_checked = "no mate within 3 for 4 starts (the retrograde analysis alone)"
    data = table_data(request, out)
    assert data["verified"] == "partial" and data["not_checked"] == out.verdict.not_checked
