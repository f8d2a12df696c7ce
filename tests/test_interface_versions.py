"""Every domain's encodings README states its interface with a version line the lab
checks (issue 45, section 3): the bundled encodings meet it, and an encoding written for
an older version, or under an interface name the README does not know, is told so."""

from __future__ import annotations

import json

import pytest

from pyasp_games.domains import DOMAINS
from pyasp_games.engines.interface import check, held_to, parse, versions
from pyasp_games.engines.resources import encoding_dir
from pyasp_games.errors import InputError
from tests.conftest import run_cli


def test_every_domain_with_encodings_documents_a_versioned_interface_its_encodings_meet():
    with_encodings = [d for d in DOMAINS if encoding_dir(d).is_dir() and any(encoding_dir(d).glob("*.lp"))]
    assert len(with_encodings) >= 13
    for domain in with_encodings:
        assert versions(domain), f"encodings/{domain}/README.md states no 'interface N:' line"
        for program in sorted(encoding_dir(domain).glob("*.lp")):
            assert check(domain, program) == [], program


README = """
interface moves 1: input `vertex/1` `edge/2` `[weight/3]`; output `swap/3`
interface moves 2: input `vertex/1` `edge/2` `at/3` `[weight/3]`; output `swap/3` (adds at/3: where each pebble starts)
interface kernel 1: input `vertex/1` `arc/2`; output `in/1`
"""


def test_an_encoding_of_an_older_named_interface_is_told_what_changed(tmp_path):
    documented = parse(README)
    assert [v.label for v in documented] == ["moves 1", "moves 2", "kernel 1"]
    old = tmp_path / "old.lp"
    old.write_text("% interface: moves 1\nswap(U,V,1) :- edge(U,V), vertex(U).\n")
    said = held_to(documented, "lab", old)
    assert said[0].startswith("the encoding says it was written for lab interface moves 1, the current is moves 2")
    assert said[1] == ("the encoding never reads at/3, an input of lab interface moves 2 "
                       "(encodings/lab/README.md; interface moves 2 adds at/3: where each pebble starts)")
    # undeclared, it is held to the interface it reads best; optional inputs go unsaid
    kernel = tmp_path / "kernel.lp"
    kernel.write_text("in(V) :- vertex(V), not arc(V,V).\n")
    assert held_to(documented, "lab", kernel) == []
    (tmp_path / "unknown.lp").write_text("% interface: colouring 1\n")
    with pytest.raises(InputError, match="documents the lab interfaces moves, kernel"):
        held_to(documented, "lab", tmp_path / "unknown.lp")
    (tmp_path / "future.lp").write_text("% interface: kernel 4\n")
    with pytest.raises(InputError, match="documents lab interface kernel 1"):
        held_to(documented, "lab", tmp_path / "future.lp")


def test_test_encoding_says_what_the_encoding_does_not_handle_of_the_interface(tmp_path):
    # a saddle encoding that never reads col/1: the replay names the input and the README
    (tmp_path / "c.txt").write_text("2 2\n1 0\n0 1\n")
    case = {"domain": "zerosum", "question": "saddle", "status": "no-solution", "answer": None,
            "stats": {}, "reference": "native", "instance": "c.txt"}
    (tmp_path / "c.expect.json").write_text(json.dumps(case))
    mine = tmp_path / "mine.lp"
    mine.write_text("% interface: saddle 1\n"
                    "saddle(I,J) :- pay(I,J,A), row(I), A >= B : pay(K,J,B); A <= C : pay(I,L,C).\n")
    run = run_cli("test-encoding", tmp_path, "--encoding", mine, "--json")
    said = run.json()["interface"]
    assert said == ["the encoding never reads col/1, an input of zerosum interface saddle 1 "
                    "(encodings/zerosum/README.md)"], run.stdout + run.stderr


def test_a_command_run_with_an_older_encoding_says_the_input_it_never_reads():
    # issue 45, section 3: Kriegspiel's encodings before sym/3 failed with "the universe
    # lacks where (...) leads" and nothing more
    old = "tests/fuzz_encodings/kriegspiel-interface-1.lp"
    run = run_cli("kriegspiel", "solve", "?1?/2?/KR1", "-b", "asp", "--encoding", old)
    assert run.code == 1 and "the universe lacks where" in run.stderr
    assert "interface: the encoding says it was written for kriegspiel interface 1, the current is 2" in run.stdout
    assert "interface: the encoding never reads sym/3, an input of kriegspiel interface 2" in run.stdout
    said = run_cli("kriegspiel", "solve", "?1?/2?/KR1", "-b", "asp", "--encoding", old, "--json").json()
    assert any("never reads sym/3" in note for note in said["interface"])
