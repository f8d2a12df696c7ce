"""``pyasp-games fuzz``: the defects the encoding lab's measurement found (issue 45), each
a test, and what an author writes beside an encoding (assertions, coverage)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import hypothesis  # noqa: F401 (imported here, its import is not counted in a session's time)
import pytest

from pyasp_games.domains import domain_spec
from pyasp_games.tools.fuzz import fuzz
from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
PLANTED = ROOT / "benchmarks" / "planted"


def test_a_dynamics_that_refutes_every_length_is_found_and_reproduced(tmp_path):
    """A frame axiom that copies a pebble refutes every horizon: the loop stops at the
    length of a schedule held (the tree peeling's) and says so, a failure (exit 1), not a
    time-out; the reproducing command names the graph and fails as fuzz said."""
    report = fuzz(domain_spec("routing"), "solve", str(PLANTED / "routing-frame-copies-pebble.lp"),
                  runs=1, out=tmp_path, total_limit=20)  # fmt: skip
    failure = report.failure
    assert failure is not None and report.exit_code() == 1 and report.timeout is None
    assert failure.phase == "small scope" and failure.size == 2
    assert "refutes every schedule length up to 1, but a schedule of 1 step exists" in failure.reason
    # blamed by diagnosis: the program unrolled to the reference's schedule of 1 step
    # names the frame axiom (the planted line), at step T=1
    named = [b for b in failure.blame if "blame: " in b]
    assert named and "routing-frame-copies-pebble.lp:20: at(V,P,t) :- at(V,P,t-1)." in named[0]
    assert "T=1" in failure.blame[failure.blame.index(named[0]) + 1], failure.blame
    words = shlex.split(failure.command)
    assert words[1:4] == ["routing", "solve", "path:2"], words
    run = run_cli(*words[1:])
    assert run.code == 1, run.stdout + run.stderr
    assert "refutes every schedule length up to 1" in run.stdout + run.stderr


def test_a_case_whose_answer_is_a_fraction_is_exported_whole(tmp_path):
    """A matrix game's value is a Fraction: the case's answer file is written (as --json
    writes it) and replays, failed by the wrong encoding and passed by the bundled one."""
    from pyasp_games.tools.fuzz.regression import replay

    wrong = str(PLANTED / "zerosum-saddle-first-row-only.lp")
    cases = tmp_path / "cases"
    report = fuzz(domain_spec("zerosum"), "saddle", wrong, runs=1, out=tmp_path, export=cases,
                  total_limit=20, blame=False)  # fmt: skip
    assert report.failure is not None and report.failure.case is not None
    names = sorted(p.name for p in cases.iterdir())
    assert names == ["zerosum-saddle-matrix-case.expect.json", "zerosum-saddle-matrix-case.txt"]
    expect = json.loads((cases / names[0]).read_text())
    assert expect["answer"] == str(report.failure.reference.answer)
    assert [c.status for c in replay(cases, wrong)] == ["failed"]
    assert [c.status for c in replay(cases, "saddle")] == ["ok"]


def test_an_encoding_of_an_older_interface_is_told_the_input_it_never_reads(tmp_path):
    """Kriegspiel's encodings before sym/3 fail with 'the universe lacks where ...
    leads': fuzz says the predicate they never read and the version they were written
    for, against the interface documented in encodings/kriegspiel/README.md."""
    old = ROOT / "tests" / "fuzz_encodings" / "kriegspiel-interface-1.lp"
    report = fuzz(domain_spec("kriegspiel"), "solve", str(old), runs=1, out=tmp_path,
                  total_limit=20, blame=False)  # fmt: skip
    assert report.failure is not None and "the universe lacks where" in report.failure.reason
    said = " ".join(report.interface)
    assert "never reads sym/3, an input of kriegspiel interface 2" in said
    assert "encodings/kriegspiel/README.md" in said and "written for kriegspiel interface 1" in said
    from pyasp_games.tools.fuzz import report_lines

    lines = list(report_lines(report, str))
    why = next(k for k, line in enumerate(lines) if line.startswith("  why:"))
    assert lines[why + 1].startswith("  interface: ") and "sym/3" in lines[why + 1] + lines[why + 2]


def test_the_interface_check_reads_the_readme_and_the_version_line(tmp_path):
    from pyasp_games.engines.interface import check, versions
    from pyasp_games.engines.resources import encoding_path
    from pyasp_games.errors import InputError

    assert [v.number for v in versions("kriegspiel")][-1] == 2
    assert check("kriegspiel", encoding_path("kriegspiel", "retrograde")) == []
    text = (ROOT / "tests" / "fuzz_encodings" / "kriegspiel-interface-1.lp").read_text()
    undeclared = tmp_path / "undeclared.lp"
    undeclared.write_text(text.replace("% interface: 1\n", ""))
    (note,) = check("kriegspiel", undeclared)
    assert note.startswith("the encoding never reads sym/3")
    future = tmp_path / "future.lp"
    future.write_text("% interface: 7\n" + text)
    with pytest.raises(InputError, match="documents kriegspiel interface 1, 2"):
        check("kriegspiel", future)


def test_a_bug_only_in_graph_hex_is_found(tmp_path):
    """Graph Hex is drawn beside the rhombus (by default both families, their small
    scopes taken in turn): a wrong rule that only graph Hex uses is found on a tiny graph."""
    spec = domain_spec("hex")
    assert [f.name for f in spec.fuzzing.families_for(None, {})] == ["boards", "graphs"]
    wrong = ROOT / "tests" / "fuzz_encodings" / "hex-graph-cut-one-cell.lp"
    report = fuzz(spec, "solve", str(wrong), family="graphs", runs=1, out=tmp_path,
                  total_limit=20, blame=False)  # fmt: skip
    failure = report.failure
    assert failure is not None and failure.phase == "small scope", report.to_dict()
    assert not failure.instance.is_board and failure.size <= 2
    assert failure.shape.startswith("graph Hex on")
    (again,) = spec.load_file(failure.file)  # the file reads back as graph Hex
    assert not again.is_board and len(again) == len(failure.instance)


@pytest.mark.xdist_group("timing")  # sessions of 1.5 s and 0.5 s, ended by their total time
def test_the_random_phase_grows_while_the_total_time_allows(tmp_path):
    """Past its planned runs, a session with a total time draws larger instances than the
    family's largest (a bug beyond it is reached); those extra runs never make a correct
    encoding's session undecided (exit 0)."""
    spec = domain_spec("cover")
    report = fuzz(spec, "solve", runs=2, out=tmp_path, small_scope=False, total_limit=1.5)
    assert report.grown_to is not None and report.grown_to > spec.fuzzing.families[0].sizes[1]
    assert report.failure is None and report.stopped is None and report.exit_code() == 0
    bounded = fuzz(spec, "solve", runs=2, out=tmp_path, small_scope=False, total_limit=0.5,
                   max_size=4)  # fmt: skip
    assert bounded.grown_to is None and max(bounded.sizes) <= 4


@pytest.mark.slow
def test_a_time_out_only_above_the_family_sizes_is_found_by_growing(tmp_path):
    """A grounding that never ends only on more than 10 positions (grundy's largest):
    reached by growing, and written as a time-out (30 s)."""
    wrong = PLANTED / "grundy-never-grounds-above-ten.lp"
    report = fuzz(domain_spec("grundy"), "exists", str(wrong), runs=30, out=tmp_path,
                  small_scope=False, run_limit=2, total_limit=30)  # fmt: skip
    assert report.timeout is not None and report.timeout.size > 10, report.to_dict()
    assert report.timeout.phase == "grounding" and report.exit_code() == 3


@pytest.mark.slow  # a session of 14 s whose answers on two positions never end
def test_the_total_time_holds_after_a_time_out_is_found(tmp_path):
    """The time-out's phase (grounding or solving) was told after the search, by a run of
    --time-limit seconds past the total time (10-13 s over with the default 10 s)."""
    import time

    grundy = (ROOT / "encodings" / "grundy" / "grundy.lp").read_text()
    mine = tmp_path / "mine.lp"  # right on one position, grounds forever on two
    mine.write_text(grundy + "big :- #count { V : vertex(V) } > 1.\nlevel(0) :- big.\n"
                    "level(N+1) :- level(N).\n")  # fmt: skip
    started = time.perf_counter()
    report = fuzz(domain_spec("grundy"), encoding=str(mine), runs=1, out=tmp_path,
                  run_limit=10, total_limit=14, started=started)  # fmt: skip
    took = time.perf_counter() - started
    assert report.timeout is not None and report.timeout.size == 2
    assert took < 15, took


@pytest.mark.parametrize("domain", ["annihilation", "catch", "geography"])
def test_a_win_claimed_without_a_move_is_said_so(domain):
    """An answer 'first' without its move read 'the move None is not a pair'."""
    from pyasp_games.engines.outcome import Outcome
    from pyasp_games.engines.question import find_question

    spec = domain_spec(domain)
    question = find_question(spec.questions, spec.fuzzing.questions[0])
    instance = next(iter(spec.fuzzing.families[0].small()))
    claimed = Outcome("tiny", "asp", "solved", "first", None)
    ok, why = question.check(instance, claimed)
    assert ok is False and "names no winning move" in why and "None" not in why, why


# -- section 2: what an author writes ---------------------------------------------------


def test_an_assertion_on_an_auxiliary_predicate_is_checked_and_its_line_named(tmp_path):
    """reach/2 is meant as the transitive closure of arc/2 (the assertion says so, with
    tc/2 defined beside it); its recursive rule is missing, which no answer shows: the
    assertion fails on the smallest instance, a 2-cycle, and the report names its line."""
    mine = ROOT / "tests" / "fuzz_encodings" / "grundy-reach-not-closed.lp"
    report = fuzz(domain_spec("grundy"), "exists", str(mine), runs=1, out=tmp_path,
                  total_limit=20)  # fmt: skip
    failure = report.failure
    assert report.assertions == 3 and failure is not None and report.exit_code() == 1
    assert failure.assertion == f"{mine}:32" and failure.size == 2
    assert "for every answer set, no tc(X,Y), not reach(X,Y): an answer set holds it for X=" \
        in failure.reason  # fmt: skip
    assert failure.tested.answer == failure.reference.answer  # the answers agree
    from pyasp_games.tools.fuzz import report_lines

    lines = list(report_lines(report, str))
    assert any(f"breaks its assertion {mine}:32 on 2 positions" in line for line in lines)


def test_assertions_mean_every_and_some_answer_set(tmp_path):
    """The four forms on a program of four answer sets ({}, {a}, {b}, {a, b} minus one)."""
    from pyasp_games.tools.fuzz.assertions import check, read_assertions

    program = "{ a; b }.\n:- a, b.\n"  # answer sets: {}, {a}, {b}
    cases = {
        "for every answer set, no a, b.": True,
        "for every answer set, a.": False,
        "for some answer set, a.": True,
        "for some answer set, no a.": True,
        "for every answer set, #count { X : x(X) } = 2.": True,  # x(1..2): facts
        "for some answer set, #count { 1 : a; 2 : b } = 2.": False,
        "for every answer set, no x(X), not a, X > 1.": False,
    }
    for claim, holds in cases.items():
        mine = tmp_path / "mine.lp"
        mine.write_text(program + f"%! assert: {claim}\n")
        broken = check(mine, "x(1..2).", read_assertions(mine))
        assert (broken is None) is holds, (claim, broken and broken.reason)
    mine.write_text(program + "%! assert: for every answer set, no x(X), not a, X > 1.\n")
    assert "for X=2" in check(mine, "x(1..2).", read_assertions(mine)).reason
    from pyasp_games.errors import InputError

    mine.write_text(program + "%! assert: for some answer set, a.\n%! assert: for every answer "
                    "set, no Y > 1.\n")  # fmt: skip
    with pytest.raises(InputError, match=f"^{mine}:4: clingo refuses .*unsafe"):
        check(mine, "x(1..2).", read_assertions(mine))


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("%! assert: a holds.", "an assertion reads 'for every answer set, BODY.'"),
        ("%! assert: for every answer set, a :- b.", "no clingo rule body"),
        ("%! define: tc(X,Y) :- arc(X,Y", "holds no clingo rule"),
    ],
)
def test_an_assertion_that_does_not_parse_is_bad_input_naming_its_line(tmp_path, line, fragment):
    from pyasp_games.errors import InputError
    from pyasp_games.tools.fuzz.assertions import read_assertions

    mine = tmp_path / "mine.lp"
    mine.write_text("{ a }.\n" + line + "\n")
    with pytest.raises(InputError, match=f"^{mine}:2: .*{fragment[:20]}"):
        read_assertions(mine)
    if line.startswith("%! assert: a"):  # the command line: one line, exit 2
        run = run_cli("fuzz", "grundy", "--encoding", mine, "--out", tmp_path, "--total-time", "5")
        assert run.code == 2 and f"{mine}:2" in run.stderr and fragment in run.stderr, run.stderr


def test_coverage_names_the_rules_no_instance_fired(tmp_path):
    """--coverage: a rule whose body no instance makes true (a value above 5 on graphs of
    at most 3 positions) and a constraint that never cuts a candidate are named with
    their lines; the rest fired."""
    grundy = (ROOT / "encodings" / "grundy" / "grundy.lp").read_text()
    mine = tmp_path / "mine.lp"
    mine.write_text(grundy + "high(V) :- value(V,K), K > 5.\n:- value(V,K), K > 7.\n")
    lines = len(grundy.splitlines())
    report = fuzz(domain_spec("grundy"), "exists", str(mine), runs=6, max_size=3, out=tmp_path,
                  small_scope=False, coverage=True)  # fmt: skip
    assert report.failure is None and report.coverage.instances == 6
    said = report.coverage.lines()
    assert said[0].startswith("coverage: ") and "of 7 rules fired on 6 instances" in said[0]
    assert said[-2:] == [
        f"  never fired (never grounded): {mine}:{lines + 1}: high(V) :- value(V,K), K > 5.",
        f"  never cut a candidate (never grounded): {mine}:{lines + 2}: :- value(V,K), K > 7.",
    ]
    assert report.to_dict()["coverage"]["rules"][-1]["fired"] == 0
    run = run_cli("fuzz", "grundy", "--coverage", "--out", tmp_path)
    assert run.code == 2 and "--coverage measures an encoding" in run.stderr


@pytest.mark.slow  # a session of 3 s whose last answer searches until it is stopped
def test_an_answer_cut_by_the_total_time_is_no_time_out_finding(tmp_path):
    """At a session's end the last answer's limit is what is left of the total time: the
    encoding reaching it is the session's end (undecided), not a time-out of its own (it
    read 'asp reached its limit' and was kept as the time-out found)."""
    grundy = (ROOT / "encodings" / "grundy" / "grundy.lp").read_text()
    mine = tmp_path / "mine.lp"  # right on one position; on two, a pigeonhole search
    mine.write_text(grundy + "big :- #count { V : vertex(V) } > 1.\n"
                    "1 { hole(P,H) : H = 1..40 } 1 :- big, P = 1..41.\n"
                    ":- hole(P,H), hole(Q,H), P < Q.\n")  # fmt: skip
    report = fuzz(domain_spec("grundy"), encoding=str(mine), runs=1, out=tmp_path,
                  run_limit=10, total_limit=3)  # fmt: skip
    assert report.timeout is None and report.unknown >= 1, report.to_dict()
    assert report.undecided[0].why == "the session's total time ran out"


@pytest.mark.slow  # a session of 3 s, and its command's start
@pytest.mark.xdist_group("timing")
def test_the_total_time_holds_while_the_random_phase_grows(tmp_path):
    """The total time ran out inside hypothesis' search, which shrank the large instance
    in hand before letting the session go (fuzz zerosum --total-time 8 took 18 to 58 s)."""
    import time

    from tests.conftest import run_cli_process

    started = time.perf_counter()
    run = run_cli_process("fuzz", "zerosum", "--no-small-scope", "--runs", "5", "--total-time", "3",
                          "--out", tmp_path)  # fmt: skip
    took = time.perf_counter() - started
    assert run.code == 0 and "grown:" in run.stdout, run.stdout + run.stderr
    assert took < 4.5, took
