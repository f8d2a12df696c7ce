"""``pyasp-games fuzz``: the defects the encoding lab's measurement found (issue 45), each
a test, and what an author writes beside an encoding (assertions, coverage)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

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
                  total_limit=20)  # fmt: skip
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
                  total_limit=20)  # fmt: skip
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
