"""The Python API as a hostile caller meets it: a misspelt keyword is refused by its name,
clingo's options go by the command line's names, a refuted answer is withdrawn, and the
statistics are clingo's own figures under clingo's names."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pyasp_games.domains import cover, grundy
from pyasp_games.domains.cover.model import parse_instance
from pyasp_games.engines.clingo_runner import ClingoSession
from pyasp_games.engines.graphs import parse_arcs
from pyasp_games.errors import InputError

from .conftest import run_cli

PLANTED = Path(__file__).parent / "fuzz_encodings"
TINY = parse_instance("6\n0 1 2\n3 4 5\n1 2 3\n0 1 4\n", "tiny")
# no exact cover; "at least once" takes all three subsets (2 and 4 twice, 1 twice)
OVERLAP = parse_instance("6\n0 1 2\n2 3 4\n1 4 5\n", "overlap")


def test_misspelt_question_and_options_are_refused_by_name():
    graph = parse_arcs("a b\nb c\n")
    with pytest.raises(InputError, match="find='kernal'"):
        grundy.solve(graph, "asp", find="kernal")
    with pytest.raises(InputError, match=r"no option 'clingo_optoin'; did you mean 'clingo_option'"):
        cover.solve(TINY, "asp", clingo_optoin=["--configuration=crafty"])
    with pytest.raises(InputError, match="no option 'colour'"):
        cover.solve(TINY, "dlx", colour="red")


def test_clingo_options_by_the_command_lines_names():
    out = cover.solve(TINY, "asp", clingo_option=["--configuration=crafty"], const=["q=2"])
    assert out.status == "solved" and out.verdict.verified is True
    assert "--configuration=crafty" in out.stats["clingo_options"]


def test_a_refuted_answer_is_withdrawn():
    out = cover.solve(OVERLAP, "asp", encoding=str(PLANTED / "cover-at-least-once.lp"))
    assert out.status == "error" and out.answer is None
    assert out.verdict.failed_answer is not None and out.verdict.verified is False
    data = out.to_dict()
    assert data["answer"] is None and data["stats"]["failed_answer"] == out.verdict.failed_answer


def test_a_refuted_answer_reads_as_a_failed_claim(tmp_path):
    path = tmp_path / "overlap.txt"
    path.write_text("6\n0 1 2\n2 3 4\n1 4 5\n")
    run = run_cli("cover", "solve", path, "-b", "asp", "--encoding", PLANTED / "cover-at-least-once.lp")
    assert run.code == 1 and "failed" in run.stdout + run.stderr
    as_json = json.loads(run_cli("cover", "solve", path, "-b", "asp", "--encoding",
                                 PLANTED / "cover-at-least-once.lp", "--json").stdout)
    assert as_json["status"] == "error" and as_json["answer"] is None
    assert as_json["stats"]["failed_answer"] is not None


def test_statistics_are_clingos_figures(tmp_path):
    program = tmp_path / "p.lp"
    program.write_text(
        "n(1..20).\n{ p(X) : n(X) }.\n:- p(X), p(Y), X+Y=21.\nq(X) :- p(X), p(X+1).\n"
        ":- #count{X: p(X)} < 7.\n:- q(X), q(Y), q(Z), X<Y, Y<Z.\n"
    )
    session = ClingoSession([program], arguments=["--stats=2"])
    session.ground([("base", [])])
    session.solve()
    stats = session.statistics()
    shown = subprocess.run([sys.executable, "-m", "clingo", str(program), "--stats"],
                           capture_output=True, text=True).stdout
    figure = {name: int(re.search(rf"^{name}\s*:\s*(\d+)", shown, re.M).group(1))
              for name in ("Constraints", "Variables", "Rules", "Atoms", "Bodies")}
    assert stats["constraints"] == figure["Constraints"]
    assert stats["constraints"] == sum(stats[f"constraints_{k}"] for k in ("binary", "ternary", "other"))
    assert stats["variables"] == figure["Variables"]
    assert (stats["lp_rules"], stats["lp_atoms"], stats["lp_bodies"]) == (
        figure["Rules"], figure["Atoms"], figure["Bodies"])
    assert "lemmas" in stats and "solving" in stats["clingo_statistics"]  # --stats=2: the tree
    json.dumps(stats)  # plain data
