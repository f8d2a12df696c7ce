"""The reductions SAT -> 3SAT -> 3DM -> X3C: sizes, equisatisfiability, maps back."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyasp_games.domains.cover import solve
from pyasp_games.domains.cover.chain import chain
from pyasp_games.domains.cover.cnf import CNF
from pyasp_games.domains.cover.model import ThreeDM
from pyasp_games.domains.cover.reductions import (
    gj_sizes,
    map_back,
    sat_to_3sat,
    threedm_to_x3c,
    threesat_to_3dm,
)
from pyasp_games.domains.cover.verify import check_cover, check_matching, evaluate_cnf
from pyasp_games.errors import InputError


def pysat_model(cnf: CNF) -> dict[int, bool] | None:
    """The CNF solved directly (the reference the reductions are checked against)."""
    from pysat.solvers import Solver

    with Solver(name="minisat22", bootstrap_with=[list(c) for c in cnf.clauses]) as s:
        if not s.solve():
            return None
        model = {abs(lit): lit > 0 for lit in s.get_model()}
        return {v: model.get(v, False) for v in range(1, cnf.num_vars + 1)}


@st.composite
def three_cnfs(draw, n_min=3, n_max=3, ratio=4.3):
    """Random 3-CNFs: clauses of three distinct variables, m around ratio * n."""
    n = draw(st.integers(n_min, n_max))
    m = draw(st.integers(max(1, int(ratio * n) - 2), int(ratio * n) + 2))
    clause = st.lists(st.integers(1, n), min_size=3, max_size=3, unique=True).flatmap(
        lambda vs: st.tuples(*(st.sampled_from([v, -v]) for v in vs))
    )
    clauses = draw(st.lists(clause, min_size=m, max_size=m))
    return CNF(n, tuple(clauses), f"r{n}-{m}")


@st.composite
def cnfs(draw):
    """Random CNFs with clauses of any length 0..6 (repeated and opposite literals allowed)."""
    n = draw(st.integers(1, 5))
    lit = st.integers(1, n).flatmap(lambda v: st.sampled_from([v, -v]))
    clauses = draw(st.lists(st.lists(lit, min_size=0, max_size=6).map(tuple), max_size=8))
    return CNF(n, tuple(clauses))


@given(st.integers(3, 6), st.integers(1, 7), st.randoms(use_true_random=False))
@settings(max_examples=25, deadline=None)
def test_garey_johnson_counts(n, m, rnd):
    clauses = tuple(
        tuple(rnd.choice([1, -1]) * v for v in rnd.sample(range(1, n + 1), 3)) for _ in range(m)
    )
    dm, back = threesat_to_3dm(CNF(n, clauses))
    assert len(dm.W) == len(dm.X) == len(dm.Y) == 2 * m * n
    assert len(dm.triples) == 2 * m * n + 3 * m + 2 * m * m * n * (n - 1)
    assert gj_sizes(n, m) == {"q": dm.q, "triples": len(dm.triples)}
    assert len(set(dm.triples)) == len(dm.triples)
    assert back["triples"] == len(dm.triples)
    x3c, _ = threedm_to_x3c(dm)
    assert x3c.size == 3 * dm.q and len(x3c.subsets) == len(dm.triples)


def test_the_gadgets_of_one_variable():
    # one variable, one clause (x1): a ring of 2 triples, one clause triple, no garbage
    dm, back = threesat_to_3dm(CNF(1, ((1,),)))
    named = [(dm.W[w], dm.X[x], dm.Y[y]) for w, x, y in dm.triples]
    assert named == [("nu1_1", "a1_1", "b1_1"), ("u1_1", "a1_1", "b1_1"), ("u1_1", "s1_1", "s2_1")]
    # the only matching takes T^t (x1 true) and the clause triple
    assert map_back(back, [0, 2]) == {1: True}


@given(cnfs())
@settings(max_examples=60, deadline=None)
def test_sat_to_3sat_is_equisatisfiable_and_maps_back(cnf):
    three, back = sat_to_3sat(cnf)
    assert all(len(c) == 3 and len(set(c)) == 3 for c in three.clauses)
    model = pysat_model(three)
    assert (model is None) == (pysat_model(cnf) is None)
    if model is not None:
        assignment = map_back(back, model)
        assert evaluate_cnf(cnf.clauses, assignment)[0]
    repeat, back2 = sat_to_3sat(cnf, pad="repeat")
    assert all(len(c) == 3 for c in repeat.clauses)
    model = pysat_model(repeat)
    assert (model is None) == (pysat_model(cnf) is None)
    if model is not None:
        assert evaluate_cnf(cnf.clauses, map_back(back2, model))[0]


@pytest.mark.parametrize(  # the property is the reduction's: dlx decides it; asp and sat are slow
    "backend",
    ["dlx", pytest.param("asp", marks=pytest.mark.slow), pytest.param("sat", marks=pytest.mark.slow)],
)
@given(cnf=three_cnfs(n_min=3, n_max=4))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_cnf_satisfiable_iff_the_x3c_image_has_a_cover(backend, cnf):
    three, back1 = sat_to_3sat(cnf)
    dm, back2 = threesat_to_3dm(three)
    x3c, back3 = threedm_to_x3c(dm)
    out = solve(x3c, backend)
    assert out.status in ("solved", "no-solution")
    assert out.answer == (pysat_model(cnf) is not None)
    if out.answer:
        assert out.verdict.verified is True
        matching = map_back(back3, out.witness)
        assert check_matching((dm.q, dm.q, dm.q), dm.triples, matching)[0]
        assignment = map_back(back1, map_back(back2, matching))
        assert evaluate_cnf(cnf.clauses, assignment)[0]


@given(cnf=three_cnfs(n_min=3, n_max=4, ratio=3.5))
@settings(max_examples=15, deadline=None)
def test_every_satisfying_assignment_has_a_matching(cnf):
    """The forward direction built explicitly: T_i^t or T_i^f by the value, clause and garbage."""
    model = pysat_model(cnf)
    dm, back = threesat_to_3dm(cnf)
    if model is None:
        assert solve(dm, "dlx").answer is False
        return
    # the matching for `model`, built from the construction's layout
    n, m = cnf.num_vars, cnf.num_clauses
    chosen = []
    for i, start in enumerate(back["truth_triples"]):
        chosen += range(start, start + m) if model[i + 1] else range(start + m, start + 2 * m)
    used_w = {dm.triples[k][0] for k in chosen}
    by_clause: dict[int, list[int]] = {}
    first_clause = 2 * m * n
    for k in range(first_clause, first_clause + sum(len(set(c)) for c in cnf.clauses)):
        by_clause.setdefault(dm.triples[k][1], []).append(k)
    for ks in by_clause.values():
        k = next(k for k in ks if dm.triples[k][0] not in used_w)
        chosen.append(k)
        used_w.add(dm.triples[k][0])
    free = [w for w in range(dm.q) if w not in used_w]
    garbage = {}
    for k in range(first_clause + sum(len(set(c)) for c in cnf.clauses), len(dm.triples)):
        garbage.setdefault(dm.triples[k][1], {})[dm.triples[k][0]] = k
    assert len(free) == len(garbage) == m * (n - 1)
    for (_g, row), w in zip(sorted(garbage.items()), free, strict=True):
        chosen.append(row[w])
    assert check_matching((dm.q,) * 3, dm.triples, chosen)[0]
    assert map_back(back, chosen) == model


@pytest.mark.parametrize("backend", ["dlx", "asp", "sat"])
def test_chain_maps_back_and_checks(backend):
    sat = CNF(4, ((1, 2, 3, 4), (-1,), (-2, 3), (-3, -4, 1)), "mixed")
    out = chain(sat, backend)
    assert out.status == "solved" and out.answer is True and out.verdict.verified is True
    assert evaluate_cnf(sat.clauses, out.witness["assignment"])[0]
    assert set(out.witness["sizes"]) == {"cnf", "3sat", "3dm", "x3c"}
    assert {"sat-to-3sat", "3sat-to-3dm", "3dm-to-x3c", "solve", "map-back"} <= set(
        out.witness["seconds"]
    )
    unsat = CNF(2, ((1, 2), (-1, 2), (1, -2), (-1, -2)), "unsat")
    out = chain(unsat, backend)
    assert out.status == "no-solution" and out.answer is False and out.verdict.verified is True


def test_map_back_rejects_what_does_not_fit():
    dm, back = threesat_to_3dm(CNF(2, ((1, 2), (-1, -2))))
    with pytest.raises(InputError):
        map_back(back, [0, 1, 2, 99999])
    with pytest.raises(InputError, match="partially"):
        map_back(back, [0, 3])  # T_1^t's first triple with T_1^f's second
    _, back3 = threedm_to_x3c(dm)
    with pytest.raises(InputError):
        map_back(back3, [0])
    with pytest.raises(InputError):
        map_back({"reduction": "nonsense"}, [])
    with pytest.raises(InputError, match="empty"):
        threesat_to_3dm(CNF(1, ((),)))
    with pytest.raises(InputError, match="sat-to-3sat"):
        threesat_to_3dm(CNF(4, ((1, 2, 3, 4),)))


def test_3dm_to_x3c_is_the_identity_on_indices():
    dm = ThreeDM(("a", "b"), ("c", "d"), ("e", "f"), ((0, 0, 0), (1, 1, 1), (0, 1, 1)))
    x3c, back = threedm_to_x3c(dm)
    assert x3c.subsets == ((0, 2, 4), (1, 3, 5), (0, 3, 5))
    assert x3c.names == ("a", "b", "c", "d", "e", "f")
    assert check_cover(6, x3c.subsets, [0, 1])[0]
    assert map_back(back, [1, 0]) == [0, 1]


def test_the_chain_checker_judges_on_the_original_formula():
    from pyasp_games.domains.cover.chain import CHAIN
    from pyasp_games.domains.cover.verify import check_chain

    sat = CNF(2, ((1, 2), (-1,)), "tiny")
    out = CHAIN.ask(sat, "bitset")
    assert out.answer is True and out.verdict.verified is True
    out.witness["assignment"] = {1: True, 2: True}  # violates the original clause (-1)
    assert check_chain(sat, out) == (False, "original CNF: clause 2 (-1) is false")
    unsat = CNF(1, ((1,), (-1,)), "contradiction")
    out = CHAIN.ask(unsat, "dlx")
    assert out.status == "no-solution" and out.verdict.verified is True
    assert "PySAT proves" in out.verdict.message
    # a cover backend that missed a cover is caught: PySAT, run by the checker, finds one
    out.witness["sizes"]["cnf"] = {"variables": 2, "clauses": 2}
    assert check_chain(sat, out) == (False, "no cover, but PySAT finds the original CNF satisfiable")


def test_an_unconfirmed_no_cover_is_not_shown_as_proven(monkeypatch):
    from pyasp_games.domains.cover import chain as chain_module
    from pyasp_games.domains.cover import verify

    monkeypatch.setattr(verify, "direct_sat", lambda clauses: None)
    out = chain_module.chain(CNF(1, ((1,), (-1,)), "contradiction"), "dlx")
    assert out.status == "no-solution" and out.verdict.verified is None
    assert out.exit_code == 3 and "direct SAT check" in out.verdict.unconfirmed
