"""Catch: the exhaustive backend against the rules and the ASP program; the rules where
the notes leave them open; the command line."""

from __future__ import annotations

import json

import pytest

from pyasp_games.domains.catch import BACKENDS, solve
from pyasp_games.domains.catch.model import Catch, parse_instance, random_instance, small_instances
from pyasp_games.domains.catch.verify import check_answer
from tests.conftest import run_cli

from .conftest import saved_answer

SMALL = list(small_instances(3))


def test_every_small_instance_is_verified_from_the_rules():
    """Every digraph on at most 3 vertices, every colouring, red to move (2,904
    positions): the native answer and its move pass the checker."""
    assert len(SMALL) == 2904
    answers = set()
    for inst in SMALL:
        out = solve(inst, "native")
        assert out.status == "solved" and out.verdict.verified is True, (inst.name, out.verdict.message)
        answers.add(out.answer)
    assert answers == {"first", "second", "draw"}


def test_asp_agrees_with_native_on_small_instances():
    for inst in SMALL[::29]:
        a, b = solve(inst, "native"), solve(inst, "asp")
        assert a.answer == b.answer and b.verdict.verified is True, inst.name


@pytest.mark.parametrize("seed", range(4))
def test_asp_agrees_with_native_on_random_instances(seed):
    inst = random_instance(7, seed, red=2, black=2, degree=1.5)
    assert solve(inst, "native").answer == solve(inst, "asp").answer


def test_colours_swapped_is_the_same_game():
    """Swapping the colours of every token and of the player to move changes nothing."""
    for inst in SMALL[::11]:
        swapped = Catch(inst.graph, inst.black, inst.red, "black")
        assert solve(inst, "native").answer == solve(swapped, "native").answer


def test_a_token_never_lands_on_its_own_colour():
    inst = parse_instance("a b\n", "a b", "-")  # red a cannot move onto red b
    assert list(inst.moves(inst.start)) == []
    assert solve(inst, "native").answer == "second"
    assert check_answer(inst, "first", ["a", "b"]) == (False, "a -> b lands on a red token")


def test_a_self_loop_is_a_pass():
    inst = parse_instance("a a\n", "a", "-")  # red passes forever; black has no token
    out = solve(inst, "native")
    assert (out.answer, out.witness) == ("first", ["a", "a"])


def test_checker_rejects_wrong_claims():
    inst = parse_instance("a b\nb c\n", "a", "b")
    assert check_answer(inst, "first", ["a", "b"])[0] is True
    assert check_answer(inst, "draw", ["a", "b"])[0] is False
    assert check_answer(inst, "second", None)[0] is False
    assert check_answer(inst, "first", ["b", "c"]) == (False, "b -> c moves no red token")


def test_bundled_instances_have_their_known_outcome():
    from pyasp_games.domains import domain_spec

    for inst in domain_spec("catch").bundled():
        for backend in BACKENDS:
            out = solve(inst, backend)
            assert (out.answer, out.verdict.verified) == (inst.graph.headers["outcome"], True)


def test_cli_options_override_the_headers():
    run = run_cli("catch", "solve", "instances/catch/capture.txt", "--first", "black", "--json")
    assert run.code == 0 and json.loads(run.stdout)["answer"] == "second"
    run = run_cli("catch", "solve", "instances/catch/capture.txt", "--red", "c", "--black", "a")
    assert run.code == 0 and "the second player wins" in run.stdout


@pytest.mark.parametrize(("args", "said"), [
    (("--red", "a", "--black", "a"), "a vertex holds a red and a black token: a"),
    (("--red", "z"), "no position named 'z'"),
    ((), "no tokens"),
])  # fmt: skip
def test_cli_bad_tokens(tmp_path, args, said):
    graph = tmp_path / "g.txt"
    graph.write_text("a b\nb a\n")
    run = run_cli("catch", "solve", graph, *args)
    assert run.code == 2 and said in run.stderr and "Traceback" not in run.stderr


# -- saved answers checked again (pyasp-games verify) ----------------------------------------


@pytest.mark.parametrize("backend", list(BACKENDS))
@pytest.mark.parametrize("name", ["capture.txt", "capture-black-first.txt", "cycle3-chase.txt", "random8-2.txt"])
def test_a_saved_answer_is_checked_again_and_a_tampered_one_refused(backend, name):
    from pyasp_games.domains.catch.model import load_instance
    from pyasp_games.domains.catch.questions import SOLVE

    inst = load_instance(f"instances/catch/{name}")
    out = SOLVE.solve(inst, backend)
    assert out.verdict.verified is True
    saved = saved_answer(out)
    again = SOLVE.recheck(inst, saved)
    assert (again.status, again.answer, again.witness) == ("solved", out.answer, out.witness)
    assert again.verdict.fully_verified, again.verdict.message
    other = {"first": "second", "second": "first", "draw": "second"}[out.answer]
    move = ["a", "b"] if out.witness is None else out.witness[::-1]
    for tampered in ({**saved, "answer": other}, {**saved, "witness": move}):
        again = SOLVE.recheck(inst, tampered)
        assert again.verdict.verified is False and again.status == "error", tampered
