"""Routing: ASP and SAT against the exhaustive table; crosscheck on a generated suite."""

from __future__ import annotations

import pytest

from pyasp_games.domains import domain_spec
from pyasp_games.domains.routing import solve
from pyasp_games.domains.routing.model import random_arrangement
from pyasp_games.domains.routing.native import distance_table
from pyasp_games.domains.routing.specs import graph_spec
from pyasp_games.engines.limits import Limits
from pyasp_games.tools.crosscheck import crosscheck
from tests.conftest import run_cli

SUITE = [
    ("grid:2x3", "matching"),
    ("star:4", "matching"),
    ("random:7:5", "matching"),
    ("cycle:6", "swap"),
    ("tree:7:1", "swap"),
    ("random:7:4", "swap"),
    ("grid:2x3", "blank"),
    ("random:6:3", "blank"),
]


@pytest.mark.parametrize("spec, moves", SUITE)
@pytest.mark.parametrize("backend", ["asp", "sat"])
def test_exact_backends_find_the_bfs_optimum(spec, moves, backend):
    g = graph_spec(spec)
    table = distance_table(g, moves, 0)
    for seed in range(4):
        inst = random_arrangement(g, seed, moves)
        out = solve(inst, backend, Limits(time_limit=30))
        assert out.status == "solved" and out.verdict.verified is True
        assert out.answer == table[inst.state]
        assert out.verdict.exact


@pytest.mark.parametrize("backend", ["asp", "sat", "native"])
def test_unsolvable_sliding_arrangement_is_refuted_and_checked(backend):
    from pyasp_games.domains.routing.model import Instance

    inst = Instance(graph_spec("grid:2x3"), (1, 0, 2, 3, 4, 5), "blank", 5)
    out = solve(inst, backend)
    assert out.status == "no-solution"
    assert out.verdict.verified is True  # the independent parity invariant agrees


@pytest.mark.slow  # crosscheck's agreement on routing: the main job's, on the bundled files
def test_crosscheck_agrees_on_a_generated_suite():
    spec = domain_spec("routing")
    instances = [random_arrangement(graph_spec(s), seed, m) for s, m in SUITE for seed in (11,)]
    report = crosscheck(spec, instances, spec.backends(), Limits(time_limit=30))
    assert report.ok, report.summary_line()
    assert all(r.outcome.status == "solved" for r in report.rows)


@pytest.mark.slow  # the main job (`pyasp-games crosscheck`, run by CI) crosschecks them all
def test_crosscheck_bundled_instances():
    """Every bundled instance's known answer (ASP runs them all in the slow variant)."""
    backends = ["native", "bfs", "sat", "oddeven", "peeling", "rowcolumn"]
    run = run_cli("crosscheck", "routing", "--time-limit", "30", *(f"-b{b}" for b in backends))
    assert run.code == 0, run.stdout + run.stderr


@pytest.mark.slow
def test_crosscheck_bundled_instances_every_backend():
    run = run_cli("crosscheck", "routing", "--time-limit", "60")
    assert run.code == 0, run.stdout + run.stderr


def test_emit_lp_and_cnf(tmp_path):
    lp, cnf = tmp_path / "x.lp", tmp_path / "x.cnf"
    assert (
        run_cli("routing", "solve", "grid:2x3", "--random", "4", "-b", "asp", "--emit-lp", lp).code
        == 0
    )
    assert "at(0," in lp.read_text() and "#include <incmode>" in lp.read_text()
    assert (
        run_cli(
            "routing", "solve", "grid:2x3", "--random", "4", "-b", "sat", "--emit-cnf", cnf
        ).code
        == 0
    )
    assert "p cnf" in cnf.read_text()
    assert (
        run_cli(
            "routing", "solve", "grid:2x3", "--random", "4", "-b", "sat", "--emit-cnf", cnf
        ).code
        == 2
    )
