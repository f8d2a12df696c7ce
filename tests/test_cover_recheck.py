"""Saved answers of ``cover solve`` and ``reduce chain`` checked again alone
(``Question.recheck``, ``pyasp-games verify``): the answer, written as ``--json`` writes it
and read back, gets the checker's verdict again (verified, in part where only the listed
covers are checkable, none where nothing is checkable alone); a tampered copy is refuted."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from pyasp_games.domains.cover.chain import CHAIN
from pyasp_games.domains.cover.cnf import CNF, load_cnf
from pyasp_games.domains.cover.model import X3C, load_instance
from pyasp_games.domains.cover.questions import SOLVE
from pyasp_games.engines.question import Question
from pyasp_games.engines.resources import instance_dir

from .conftest import run_cli, saved_answer

COVER = instance_dir("cover")


def rechecked(question: Question, instance: Any, out: Any) -> dict[str, Any]:
    """The saved answer of ``out`` given the same verdict again; its saved form returned."""
    data = saved_answer(out)
    again = question.recheck(instance, data)
    assert again.status == out.status and again.answer == out.answer
    assert again.verdict.verified == out.verdict.verified, again.verdict.message
    assert again.verdict.in_part == out.verdict.in_part
    return data


def assert_refuted(question: Question, instance: Any, data: dict[str, Any], tamper: Any) -> None:
    wrong = copy.deepcopy(data)
    tamper(wrong)
    again = question.recheck(instance, wrong)
    assert again.verdict.verified is False and again.status == "error", again.verdict.message


@pytest.mark.parametrize("backend", ["dlx", "bitset", "asp", "sat"])
@pytest.mark.parametrize("file", ["tiny-cover.txt", "matching-small.txt"])
def test_solve_saved_and_rechecked(backend, file):
    inst = load_instance(COVER / file)
    one = SOLVE.ask(inst, backend)
    assert one.verdict.fully_verified
    data = rechecked(SOLVE, inst, one)
    assert_refuted(SOLVE, inst, data, lambda d: d["witness"].pop())
    assert_refuted(SOLVE, inst, data, lambda d: d.update(answer=False))
    every = SOLVE.ask(inst, backend, mode="all")
    assert every.verdict.in_part and "no other cover" in every.verdict.not_checked
    data = rechecked(SOLVE, inst, every)
    assert data["stats"]["verified"] == "partial"
    assert_refuted(SOLVE, inst, data, lambda d: d.update(answer=d["answer"] + 1))
    assert_refuted(SOLVE, inst, data, lambda d: d["witness"][0].reverse() or d["witness"][0].pop())
    count = SOLVE.ask(inst, backend, mode="count")
    assert count.verdict.verified is None  # a count is not checkable alone
    rechecked(SOLVE, inst, count)


def test_no_cover_saved_and_rechecked():
    proved = X3C(6, ((0, 1, 2), (0, 1, 3), (2, 3, 4)))  # element 5 in no subset
    out = SOLVE.ask(proved, "dlx")
    assert out.status == "no-solution" and out.verdict.fully_verified
    data = rechecked(SOLVE, proved, out)
    assert_refuted(SOLVE, proved, data, lambda d: d.update(answer=True))
    none = load_instance(COVER / "tiny-none.txt")
    out = SOLVE.ask(none, "dlx")
    assert out.status == "no-solution" and out.verdict.verified is None  # not checkable alone
    rechecked(SOLVE, none, out)


@pytest.mark.parametrize("backend", ["dlx", "sat"])
def test_chain_saved_and_rechecked(backend):
    sat = load_cnf(COVER / "cnf-sat-small.txt")
    out = CHAIN.ask(sat, backend)
    assert out.answer is True and out.verdict.fully_verified
    data = rechecked(CHAIN, sat, out)
    assert set(data["witness"]["assignment"]) == {"1", "2", "3"}  # JSON's keys: strings
    # an assignment that falsifies the first clause
    falsified = {str(abs(lit)): lit < 0 for lit in sat.clauses[0]}
    falsified = {**{str(v): False for v in range(1, sat.num_vars + 1)}, **falsified}
    assert_refuted(CHAIN, sat, data, lambda d: d["witness"].update(assignment=falsified))
    assert_refuted(CHAIN, sat, data, lambda d: d["witness"]["sizes"]["cnf"].update(clauses=9))
    # "no cover" on a satisfiable CNF: the checker's own PySAT call refutes it
    assert_refuted(CHAIN, sat, data,
                   lambda d: d.update(status="no-solution", answer=False,
                                      witness={**d["witness"], "assignment": None}))  # fmt: skip
    unsat = load_cnf(COVER / "cnf-unsat-small.txt")
    out = CHAIN.ask(unsat, backend)
    assert out.status == "no-solution" and out.verdict.fully_verified
    data = rechecked(CHAIN, unsat, out)
    assert_refuted(CHAIN, unsat, data, lambda d: d.update(answer=True, status="solved"))


def test_chain_of_a_formula_with_no_clause_is_rechecked():
    empty = CNF(2, (), "empty")
    out = CHAIN.ask(empty, "dlx")
    assert out.answer is True and out.verdict.verified is True
    rechecked(CHAIN, empty, out)


def test_the_command_line_json_is_rechecked():
    file = COVER / "matching-small.txt"
    run = run_cli("cover", "solve", file, "--all", "--json")
    assert run.code == 0 and run.json()["stats"]["verified"] == "partial"
    again = SOLVE.recheck(load_instance(file), run.json())
    assert again.verdict.in_part and again.answer == 2
    file = COVER / "cnf-unsat-small.txt"
    run = run_cli("reduce", "chain", file, "--json")
    assert run.code == 0
    assert CHAIN.recheck(load_cnf(file), run.json()).verdict.fully_verified
