"""Annihilation: the exhaustive backend against the rules, the ASP program and the
``grundy`` domain; the checker; the command line."""

from __future__ import annotations

import json

import pytest

from pyasp_games.domains.annihilation import BACKENDS, solve
from pyasp_games.domains.annihilation.model import (
    Annihilation,
    load_instance,
    numbered_instance,
    parse_instance,
    random_instance,
    small_instances,
)
from pyasp_games.domains.annihilation.native import solve_native
from pyasp_games.domains.annihilation.positions import explore
from pyasp_games.domains.annihilation.verify import check_answer
from pyasp_games.domains.grundy.generalized import generalized_grundy
from pyasp_games.domains.grundy.model import outcome_class
from pyasp_games.engines.graphs import from_arcs
from tests.conftest import run_cli

from .conftest import saved_answer as _saved

SMALL = list(small_instances(3))
CLASS = {"first": "N", "second": "P", "draw": "D"}


def test_every_small_instance_is_verified_from_the_rules():
    """All 876 positions on digraphs of at most 3 vertices: the native answer and its
    move pass the checker (its own move generator, the greatest safe set)."""
    assert len(SMALL) == 876
    answers = set()
    for inst in SMALL:
        out = solve(inst, "native")
        assert out.status == "solved" and out.verdict.verified is True, (inst.name, out.verdict.message)
        answers.add(out.answer)
    assert answers == {"first", "second", "draw"}


def test_asp_agrees_with_native_on_small_instances():
    for inst in SMALL[::7]:
        a, b = solve(inst, "native"), solve(inst, "asp")
        assert a.answer == b.answer and b.verdict.verified is True, inst.name


def _expanded(inst: Annihilation):
    """The explicit game graph of the position, for the ``grundy`` domain."""
    graph = explore(inst.start, lambda p: (((u, v), q) for u, v, q in inst.moves(p)))
    arcs = [(str(graph.positions[i]), str(graph.positions[j])) for i, out in enumerate(graph.moves)
            for _, j in out]  # fmt: skip
    return from_arcs(arcs, [str(p) for p in graph.positions])


@pytest.mark.parametrize("seed", range(6))
def test_expanded_graph_through_grundy_loopy(seed):
    """The expanded game graph answered by the grundy domain's generalized
    Sprague-Grundy function (a different algorithm): the same class at the start."""
    inst = random_instance(7, seed, tokens=3 + seed % 3, degree=1.6, loops=seed % 2 == 1)
    values, _ = generalized_grundy(_expanded(inst))
    assert outcome_class(values[0]) == CLASS[solve_native(inst).answer]


def test_acyclic_digraphs_follow_the_nim_sum():
    """On an acyclic digraph two tokens on one vertex add nothing to the nim-sum, so the
    position's value is the XOR of the tokens' Grundy values (second iff 0)."""
    from pyasp_games.domains.grundy.acyclic import grundy_values

    for seed in range(20):
        n = 7
        inst = random_instance(n, seed, tokens=seed % n, degree=1.5)
        arcs = [(u, v) for u, v in inst.graph.arcs() if u < v]  # keep it acyclic
        inst = numbered_instance(n, tuple(arcs), inst.start, "dag")
        values = grundy_values(inst.graph)
        total = 0
        for v in inst.tokens:
            total ^= values[v]
        assert solve_native(inst).answer == ("second" if total == 0 else "first")


def test_poly_agrees_with_native_on_every_small_position():
    """The linear space of lost positions against exhaustive search: all 876 positions
    on at most 3 vertices and random ones on 6-9 vertices (tokens anywhere); every poly
    answer passes its certificate and the rules."""
    extra = [random_instance(n, seed, tokens=seed % n, degree=1.0 + seed % 3 / 2, loops=seed % 4 == 0)
             for n in (6, 7, 8, 9) for seed in range(8)]  # fmt: skip
    answers = set()
    for inst in [*SMALL, *extra]:
        out = solve(inst, "poly")
        assert out.answer == solve_native(inst).answer, inst.name
        assert out.verdict.verified is True, (inst.name, out.verdict.message)
        answers.add(out.answer)
    assert answers == {"first", "second", "draw"}


def test_poly_proves_fan3_lost_with_a_four_token_generator():
    """fan3: no position of at most two tokens is lost but the empty one, yet the four
    tokens are: the one-round test finds them (every move leaves a pair that annihilates)."""
    inst = load_instance("instances/annihilation/fan3.txt")
    out = solve(inst, "poly")
    assert (out.answer, out.witness, out.verdict.verified) == ("second", None, True)
    assert out.certificate["rounds"] == [[["a", "b", "c", "d"]]]
    assert "the start is a sum of lost positions" in out.verdict.message


def test_poly_finds_the_four_token_lost_position_and_a_missing_one_is_caught():
    """random13-four: its start (tokens 0 4 8 12) is lost only through a generator of four
    tokens, which the search for lost positions outside the span finds. A certificate
    that leaves that round out and claims the span complete (a draw) is refuted by the
    checker's own search, which finds a lost position outside the span."""
    import dataclasses

    from pyasp_games.domains.annihilation.verify import check_outcome

    inst = load_instance("instances/annihilation/random13-four.txt")
    out = solve(inst, "poly")
    assert (out.answer, out.verdict.verified) == ("second", True)
    assert any(len(g) == 4 for found in out.certificate["rounds"] for g in found)
    assert solve_native(inst).answer == "second"
    short = {**out.certificate, "rounds": out.certificate["rounds"][:-1], "complete": True}
    verdicts = [
        check_outcome(inst, dataclasses.replace(out, answer="draw", witness=inst.move_name(m[:2]), certificate=short))
        for m in inst.moves(inst.start)
    ]
    assert all(ok is False for ok, _ in verdicts)  # never a draw, whichever move is named
    assert any("the span is not every lost position" in message for _, message in verdicts)


def test_a_forged_certificate_is_caught():
    import dataclasses

    from pyasp_games.domains.annihilation.verify import check_outcome

    inst = load_instance("instances/annihilation/path5.txt")
    out = solve(inst, "poly")
    assert out.verdict.verified is True
    forged = dataclasses.replace(out, certificate={**out.certificate, "grundy": [0, 0, 0, 0, 0]})
    ok, message = check_outcome(inst, forged)
    assert ok is False and "not the generalized Sprague-Grundy function" in message
    lying = dataclasses.replace(out, answer="second", witness=None)
    assert check_outcome(inst, lying)[0] is False
    fan = load_instance("instances/annihilation/fan3.txt")
    out = solve(fan, "poly")
    padded = dataclasses.replace(out, certificate={**out.certificate, "rounds": [[["a", "b"]], *out.certificate["rounds"]]})
    ok, message = check_outcome(fan, padded)
    assert ok is False and "round 1: a move from (a b) leaves no move into the span" in message
    early = dataclasses.replace(out, certificate={**out.certificate, "rounds": []})
    assert check_outcome(fan, early)[0] is False  # without the round the start is unproved


def test_a_large_draw_is_proved_by_its_certificate(monkeypatch):
    """200 vertices, 20 tokens: far too many positions to replay the rules, yet the draw
    is proved: the checker's own search finds no lost position outside the span (Theorem
    3 of the poly module). The exhaustive cross-check is not needed and never started."""
    import dataclasses

    from pyasp_games.domains.annihilation.questions import BACKENDS as RUN
    from pyasp_games.domains.annihilation.verify import check_outcome
    from pyasp_games.errors import Unconfirmed

    def never(*args, **kwargs):  # pragma: no cover - the point is that it is not called
        raise AssertionError("the exhaustive cross-check was started")

    monkeypatch.setitem(RUN, "native", never)
    inst = random_instance(200, 1, tokens=20, degree=2.0)
    out = solve(inst, "poly")
    assert (out.status, out.answer, out.certificate["complete"]) == ("solved", "draw", True)
    assert out.verdict.verified is True and out.exit_code == 0
    assert "no lost position is left outside the span" in out.verdict.message
    incomplete = dataclasses.replace(out, certificate={**out.certificate, "complete": False})
    with pytest.raises(Unconfirmed, match="not proved"):
        check_outcome(inst, incomplete)


def test_a_draw_the_checker_cannot_recheck_is_not_verified_and_hopeless_search_not_run(monkeypatch):
    """Beyond the checker's budget for its own completeness search (lowered here), a
    200-vertex draw is unconfirmed; the exhaustive cross-check, which could not finish,
    is never started: the output says why in one line, NOT VERIFIED."""
    import pyasp_games.domains.annihilation.verify as verify
    from pyasp_games.domains.annihilation.questions import BACKENDS as RUN

    def never(*args, **kwargs):  # pragma: no cover - the point is that it is not called
        raise AssertionError("the hopeless exhaustive cross-check was started")

    monkeypatch.setitem(RUN, "native", never)
    monkeypatch.setattr(verify, "COMPLETENESS_BUDGET", 10)
    out = solve(random_instance(200, 1, tokens=20, degree=2.0), "poly")
    assert (out.status, out.answer) == ("solved", "draw")
    assert out.verdict.verified is False and out.exit_code == 3
    check = out.verdict.cross_check
    assert (check.result, check.reference, check.status) == ("not verified", "native", None)
    assert out.verdict.message.startswith("not verified: the reference native was not run: up to ")
    assert "reachable positions: more than its limit of 3,000,000" in out.verdict.message
    assert "\n" not in out.verdict.message


def test_a_draw_beyond_the_checker_is_still_cross_checked_when_native_can_finish(monkeypatch):
    """A draw the checker cannot check alone (its budgets lowered here) but whose bound
    the exhaustive search can cover is cross-checked by it, as before."""
    import pyasp_games.domains.annihilation.verify as verify

    monkeypatch.setattr(verify, "BUDGET", 10)
    monkeypatch.setattr(verify, "COMPLETENESS_BUDGET", 0)
    inst = random_instance(12, 3, tokens=5, degree=2.0)
    out = solve(inst, "poly")
    assert (out.answer, out.exit_code, out.verdict.cross_check.result) == ("draw", 0, "agrees")
    assert "cross-checked: the reference native agrees" in out.verdict.message


def test_checker_rejects_wrong_claims():
    inst = parse_instance("a b\nb a\nb c\n", "b c")
    assert check_answer(inst, "first", ["b", "a"])[0] is True  # {a, c}: lost for the mover
    assert check_answer(inst, "second", None)[0] is False
    assert check_answer(inst, "draw", ["b", "a"])[0] is False
    assert check_answer(inst, "first", ["c", "b"]) == (False, "c -> b is not an arc of the graph")
    assert check_answer(inst, "first", ["a", "b"])[1] == "a -> b moves no token: a holds none"
    cycle = parse_instance("a b\nb a\n", "a")
    assert check_answer(cycle, "draw", ["a", "b"])[0] is True
    assert check_answer(cycle, "second", None)[0] is False
    assert check_answer(cycle, "first", ["a", "b"])[0] is False


def test_bundled_instances_have_their_known_outcome():
    from pyasp_games.domains import domain_spec

    for inst in domain_spec("annihilation").bundled():
        known = inst.graph.headers["outcome"]
        for backend in BACKENDS:
            out = solve(inst, backend)
            assert (out.answer, out.verdict.verified) == (known, True), (inst.name, backend)


def test_fan3_is_a_second_player_win():
    """Every move from the four tokens annihilates a pair and leaves a pair one of
    whose tokens reaches the other: lost for the player to move."""
    inst = load_instance("instances/annihilation/fan3.txt")
    out = solve(inst, "native")
    assert (out.answer, out.witness, out.verdict.verified) == ("second", None, True)


def test_the_position_limit_is_unknown_never_a_guess(monkeypatch):
    import pyasp_games.domains.annihilation.positions as positions

    monkeypatch.setattr(positions, "MAX_POSITIONS", 5)
    monkeypatch.setattr(positions.explore, "__defaults__", (None, 5))
    out = solve(random_instance(10, 1, tokens=5), "native")
    assert out.status == "unknown" and out.stats["limit"] == "positions"


def test_cli_solve_json_and_tokens_override():
    run = run_cli("annihilation", "solve", "instances/annihilation/two-cycle-one.txt", "a,b", "--json")
    data = json.loads(run.stdout)
    assert run.code == 0 and (data["answer"], data["witness"]) == ("first", ["a", "b"])
    run = run_cli("annihilation", "solve", "instances/annihilation/cycle3-three.txt", "-b", "asp")
    assert run.code == 0 and "a draw" in run.stdout and "draw-keeping move: a -> b" in run.stdout


@pytest.mark.parametrize(("args", "said"), [
    (("a", "z"), "no position named 'z'"),
    (("a b a",), "given twice"),
    ((), "no tokens"),
])  # fmt: skip
def test_cli_bad_tokens(tmp_path, args, said):
    graph = tmp_path / "g.txt"
    graph.write_text("a b\nb a\n")
    run = run_cli("annihilation", "solve", graph, *args)
    assert run.code == 2 and said in run.stderr and "Traceback" not in run.stderr


def test_asp_refuses_large_instances_up_front():
    run = run_cli("annihilation", "solve", "x.txt", "-b", "asp")
    assert run.code == 2
    inst = random_instance(40, 0, tokens=10)
    with pytest.raises(Exception, match="at most 30"):
        BACKENDS["asp"](inst)


@pytest.mark.slow
def test_every_position_on_four_vertices_is_verified():
    """All 49,580 positions on digraphs of at most 4 vertices (native, checked from the
    rules), asp agreeing on every 20th, poly on every one (its answer checked too)."""
    for k, inst in enumerate(small_instances(4)):
        out = solve(inst, "native")
        assert out.verdict.verified is True, (inst.name, out.verdict.message)
        if k % 20 == 0:
            assert solve(inst, "asp").answer == out.answer, inst.name
        poly = solve(inst, "poly")
        assert (poly.answer, poly.verdict.verified) == (out.answer, True), inst.name


# -- saved answers checked again (pyasp-games verify) ----------------------------------------


def _refuted(again) -> bool:
    return again.verdict.verified is False and again.status == "error"


@pytest.mark.parametrize("backend", list(BACKENDS))
@pytest.mark.parametrize("name", ["path5.txt", "fan3.txt", "cycle3-three.txt", "random10-4.txt"])
def test_a_saved_answer_is_checked_again_and_a_tampered_one_refused(backend, name):
    from pyasp_games.domains.annihilation.questions import SOLVE

    inst = load_instance(f"instances/annihilation/{name}")
    out = SOLVE.solve(inst, backend)
    assert out.verdict.verified is True
    saved = _saved(out)
    again = SOLVE.recheck(inst, saved)
    assert (again.status, again.answer, again.witness) == ("solved", out.answer, out.witness)
    assert again.verdict.fully_verified, again.verdict.message
    other = {"first": "second", "second": "first", "draw": "second"}[out.answer]
    assert _refuted(SOLVE.recheck(inst, {**saved, "answer": other}))
    move = ["a", "b"] if out.witness is None else out.witness[::-1]  # no move / not an arc
    assert _refuted(SOLVE.recheck(inst, {**saved, "witness": move}))
    if backend == "poly":  # the certificate read back exactly, and checked again
        assert again.certificate == out.certificate
        forged = {**saved["certificate"], "grundy": [0] * len(inst)}
        again = SOLVE.recheck(inst, {**saved, "certificate": forged})
        assert _refuted(again) and "not the generalized Sprague-Grundy function" in again.verdict.message
