"""A new domain is one package and one line in the registry (CONTRIBUTING.md, "A new
domain"): the worked example, subset sum (tests/example_domain/), registered here the way
a domain is, then asked through the command line, crosscheck, fuzz and bench's loader.

The example lives outside the package, so the test does what adding it to the
repository would do: one line in the registry (``DOMAINS``) and its folders under the
data root (``encodings/subsetsum/``, ``instances/subsetsum/``, here beside the others in
a temporary root). The commands run in-process: the registry is this process's.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import pyasp_games.engines.resources as resources
from pyasp_games.domains import DOMAINS, domain_spec

from .conftest import run_cli, saved_answer

EXAMPLE = Path(__file__).parent / "example_domain"

#: A planted bug: "at most the target" where the target must be met exactly.
AT_MOST = """\
{ pick(I) : number(I,_) }.
:- target(T), #sum { N,I : pick(I), number(I,N) } > T.
#show pick/1.
"""


@pytest.fixture
def subsetsum(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> str:
    """The example registered: its line in the registry, its data beside the others."""
    real = resources.data_root
    root = tmp_path / "data"
    for kind in ("encodings", "instances"):
        (root / kind).mkdir(parents=True)
        for folder in real(kind).iterdir():
            os.symlink(folder, root / kind / folder.name)
        os.symlink(EXAMPLE / kind / "subsetsum", root / kind / "subsetsum")
    monkeypatch.setattr(resources, "data_root", lambda kind: root / kind)
    monkeypatch.syspath_prepend(str(EXAMPLE))
    monkeypatch.setitem(DOMAINS, "subsetsum", "subsetsum")  # the one line
    return "subsetsum"


def test_the_domain_is_a_command_group(subsetsum):
    run = run_cli("--help")
    assert run.code == 0 and "subsetsum" in run.stdout
    seven = EXAMPLE / "instances" / "subsetsum" / "seven.txt"
    run = run_cli("subsetsum", "solve", seven, "--backend", "asp")
    assert run.code == 0, run.stderr
    assert "a choice adds up to the target" in run.stdout and "verified" in run.stdout
    run = run_cli("subsetsum", "solve", seven, "--count", "--json")
    assert run.code == 0 and run.json()["answer"] == 1
    assert run.json()["stats"]["verified"] is None  # a count: not checkable alone
    bad = EXAMPLE / "instances" / "subsetsum" / "README.md"
    run = run_cli("subsetsum", "solve", bad)
    assert run.code == 2 and len(run.stderr.strip().splitlines()) == 1


def test_crosscheck_runs_every_backend(subsetsum, tmp_path):
    run = run_cli("crosscheck", "subsetsum", "--json")
    assert run.code == 0, run.stderr
    rows = [json.loads(line) for line in run.stdout.splitlines() if line.startswith('{"problem"')]
    # every backend on both bundled instances, each answer matching the instance's known one
    assert {(r["problem"], r["backend"]) for r in rows} == {
        (p, b) for p in ("seven", "odd") for b in ("dp", "asp")
    }
    assert all(r["ok"] and r["matches_known"] and r["compared"] for r in rows)
    assert {r["problem"]: r["answer"] for r in rows} == {"seven": True, "odd": False}
    # a user's encoding that is wrong: crosscheck says so, the reference backend agreeing
    # with the known answers
    mine = tmp_path / "at-most.lp"
    mine.write_text(AT_MOST)
    run = run_cli("crosscheck", "subsetsum", "--encoding", mine)
    assert run.code == 1, run.stdout + run.stderr


def test_fuzz_finds_the_planted_bug(subsetsum, tmp_path):
    run = run_cli("fuzz", "subsetsum", "--runs", "5", "--out", tmp_path)
    assert run.code == 0, run.stdout + run.stderr
    mine = tmp_path / "at-most.lp"
    mine.write_text(AT_MOST)
    run = run_cli("fuzz", "subsetsum", "--encoding", mine, "--runs", "5", "--out", tmp_path, "--no-blame")
    assert run.code == 1, run.stdout + run.stderr
    found = sorted(tmp_path.glob("subsetsum-solve-numbers-counterexample*.txt"))
    assert found, run.stdout
    # the counterexample is an ordinary instance file, and the encoding is wrong on it
    again = run_cli("subsetsum", "solve", found[0], "--backend", "asp", "--encoding", mine)
    assert again.code == 1, again.stdout + again.stderr


def test_bench_and_the_question_see_it(subsetsum):
    from pyasp_games.tools.bench.suite import load_domain

    spec = load_domain("subsetsum")
    assert spec.name == "subsetsum" and set(spec.generators) == {"random"}
    assert [q.name for q in domain_spec("subsetsum").questions] == ["solve"]
    assert spec.questions[0].domain == "subsetsum"


def test_the_hostile_battery_takes_its_generator_from_the_registry(subsetsum):
    """Registered, the example's generator is in ``test_hostile``'s battery of absurd
    parameters (nothing to add there) and refuses them at once."""
    from pyasp_games.errors import InputError
    from pyasp_games.tools.bench.suite import expand

    from .test_hostile import _suite, generator_battery

    battery = generator_battery(DOMAINS)
    cases = [params for domain, _, params in battery if domain == "subsetsum"]
    assert cases == [{"n": 10**18, "high": 10**18}]
    for params in cases:
        with pytest.raises(InputError, match="this tool's limit"):
            expand(_suite("subsetsum", "random", params), domain_spec("subsetsum"))


@pytest.mark.parametrize("module", ["", ".model", ".native", ".asp", ".verify", ".questions"])
def test_the_examples_docstrings_run(subsetsum, module):
    """The example's docstring examples (a backend returns a Claim) run, registered."""
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(f"subsetsum{module}"), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_a_saved_answer_is_checked_again(subsetsum):
    """A backend returns a Claim; the runner makes the outcome, and its JSON, read back,
    is checked again by the question's checker: a tampered choice is refuted."""
    from subsetsum.model import SubsetSum
    from subsetsum.native import solve_dp
    from subsetsum.questions import SOLVE

    from pyasp_games.engines.claim import Claim

    seven = SubsetSum((3, 4, 5), 7, "seven")
    assert isinstance(solve_dp(seven), Claim)
    data = saved_answer(SOLVE.ask(seven, "asp"))
    again = SOLVE.recheck(seven, data)
    assert again.verdict.verified is True and again.answer is True
    data["witness"] = [0, 2]  # 3 + 5 = 8
    again = SOLVE.recheck(seven, data)
    assert again.verdict.verified is False and again.status == "error"


def test_contributing_names_every_registered_domain():
    """CONTRIBUTING.md's "Layout" names every domain of the registry, as many as it has."""
    text = (Path(__file__).parent.parent / "CONTRIBUTING.md").read_text(encoding="utf-8")
    layout = text[text.index("## Layout") : text.index("## What changed")]
    assert f"the {len(DOMAINS)} of `DOMAINS`" in layout
    assert all(f"`{name}/`" in layout for name in DOMAINS)
