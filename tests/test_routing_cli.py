"""Routing: the command line as a user runs it."""

from __future__ import annotations

import copy

import pytest

from tests.conftest import assert_bad_input, run_cli, run_cli_process


def test_solve_prints_a_verified_optimal_schedule(tmp_path):
    (tmp_path / "a.txt").write_text("0 3\n3 0\n")
    run = run_cli("routing", "solve", "path:4", tmp_path / "a.txt", "--json")
    assert run.code == 0
    out = run.json()
    assert out["status"] == "solved" and out["answer"] == 3 and out["stats"]["verified"] is True


def test_number_gives_rt_with_a_witness():
    run = run_cli("routing", "number", "star:3")
    assert run.code == 0 and "rt(G) = 4" in run.stdout and "verified" in run.stdout


def test_check_prints_wilsons_reason(tmp_path):
    (tmp_path / "a.txt").write_text("0,0 0,1\n0,1 0,0\nblank 1,2\n")
    run = run_cli("routing", "check", "grid:2x3", tmp_path / "a.txt")
    assert run.code == 0 and "unsolvable" in run.stdout and "Wilson" in run.stdout


def test_bad_input_is_one_line(tmp_path):
    (tmp_path / "g.txt").write_text("a b\nc d\n")
    run = run_cli("routing", "number", tmp_path / "g.txt")
    assert run.code == 2 and "not connected" in run.stderr and "Traceback" not in run.stderr


@pytest.mark.xdist_group("timing")
def test_time_limit_gives_exit_3():
    # a child process: the time limit holds for the whole command, as a user runs it
    run = run_cli_process(
        "routing", "solve", "grid:5x5", "--random", "1", "-m", "swap", "--time-limit", "0.5"
    )
    assert run.code == 3


def test_generate_refuses_to_overwrite(tmp_path):
    out = tmp_path / "g.txt"
    assert run_cli("routing", "generate", "grid:2x2", "-o", out).code == 0
    assert run_cli("routing", "generate", "grid:2x2", "-o", out).code == 2


def test_number_json_is_the_verified_outcome():
    out = run_cli("routing", "number", "star:3", "--json").json()
    assert out["status"] == "solved" and out["backend"] == "bfs" and out["answer"] == 4
    # the schedule replayed; the maximum rests on the search: verified in part
    assert out["stats"]["verified"] == "partial" and "all 24 arrangements" in out["stats"]["not_checked"]
    assert out["certificate"]["arrangements"] == 24
    assert len(out["witness"]) == 4 and out["certificate"]["worst"] == {"0": "3", "1": "2", "2": "1", "3": "0"}


def test_check_checker_refuses_a_schedule_that_does_not_solve_the_arrangement():
    from pyasp_games.domains.routing.model import random_arrangement
    from pyasp_games.domains.routing.questions import CHECK
    from pyasp_games.domains.routing.specs import graph_spec
    from pyasp_games.domains.routing.verify import check_solvability

    inst = random_arrangement(graph_spec("cycle:5"), 2, "blank")
    out = CHECK.ask(inst)
    assert out.answer is True and check_solvability(inst, out)[0] is True
    out.witness = out.witness[1:]
    assert check_solvability(inst, out)[0] is False


def test_number_checker_refuses_a_schedule_that_does_not_route_the_worst_arrangement():
    from pyasp_games.domains.routing.model import identity_instance
    from pyasp_games.domains.routing.questions import NUMBER
    from pyasp_games.domains.routing.specs import graph_spec
    from pyasp_games.domains.routing.verify import check_number

    inst = identity_instance(graph_spec("path:3"))
    out = NUMBER.ask(inst)
    assert check_number(inst, out)[0] is True
    out.witness = out.witness[:-1]
    ok, why = check_number(inst, out)
    assert ok is False and "not home" in why


def test_check_answers_with_the_uniform_outcome(tmp_path):
    (tmp_path / "a.txt").write_text("0,0 0,1\n0,1 0,0\nblank 1,2\n")
    run = run_cli("routing", "check", "grid:2x3", tmp_path / "a.txt", "--json")
    out = run.json()
    # unsolvable on a bipartite graph: the parity invariant confirms it independently
    assert run.code == 0 and out["status"] == "no-solution" and out["answer"] is False
    assert out["stats"]["verified"] is True and "Wilson" in out["certificate"]
    # solvable by the complete search (a cycle): its schedule is replayed
    searched = run_cli("routing", "check", "cycle:5", "--random", "2", "--json").json()
    assert searched["answer"] is True and searched["stats"]["verified"] is True
    assert searched["witness"] and "complete search" in searched["certificate"]
    # solvable by Wilson's theorem: no schedule, so not shown as verified
    wilson = run_cli("routing", "check", "grid:3x3", "--random", "2")
    assert wilson.code == 0 and "solved, solvable" in wilson.stdout
    assert "not checkable alone" in wilson.stdout


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["solve", "path:4", "--random", "1", "--solver", "cadical195"], "--solver applies to --backend sat only"),
        (["solve", "path:4", "--random", "1", "--emit-cnf", "x.cnf"], "--emit-cnf applies to --backend sat only"),
        (["solve", "path:4"], "give an ARRANGEMENT file or --random SEED"),
        (["number", "cycle:5", "--blank", "0"], "applies to --moves blank only"),
        (["number", "path:11"], "at most 10 vertices"),
        (["check", "path:4", "--random", "1", "--json", "--time-limit", "-1"], "--time-limit"),
    ],
)
def test_options_that_do_not_apply_are_one_line(args, fragment):
    assert_bad_input(run_cli("routing", *args), fragment)


@pytest.mark.xdist_group("timing")
def test_number_time_limit_gives_unknown_and_exit_3():
    # in this process (the whole command's limit in a child: test_time_limit_gives_exit_3)
    run = run_cli("routing", "number", "complete:9", "--time-limit", "0.5", "--json")
    out = run.json()
    assert run.code == 3 and out["status"] == "unknown" and out["answer"] is None


def test_check_and_solve_on_one_vertex(tmp_path):
    """Issue 20: 'routing check' on a one-vertex graph was an IndexError."""
    (tmp_path / "one.txt").write_text("a\n")
    run = run_cli("routing", "check", tmp_path / "one.txt", "--random", "0", "--json")
    assert run.code == 0 and run.json()["answer"] is True, run.stderr
    for moves in ("matching", "swap", "blank"):
        run = run_cli("routing", "solve", tmp_path / "one.txt", "--random", "0", "-m", moves, "--json")
        assert run.code == 0 and run.json()["answer"] == 0, (moves, run.stderr)


def test_rowcolumn_on_a_grid_file(tmp_path):
    """Issue 20: a grid written by 'routing generate' was refused by -b rowcolumn."""
    arr = tmp_path / "a.txt"
    made = run_cli("routing", "generate", "grid:2x3", "-o", tmp_path / "g.txt", "--arrangement", arr)
    assert made.code == 0
    lines = (tmp_path / "g.txt").read_text().splitlines()
    (tmp_path / "shuffled.txt").write_text("\n".join(reversed(lines)) + "\n")
    spec = run_cli("routing", "solve", "grid:2x3", arr, "-b", "rowcolumn", "--json").json()
    for graph in ("g.txt", "shuffled.txt"):
        run = run_cli("routing", "solve", tmp_path / graph, arr, "-b", "rowcolumn", "--json")
        assert run.code == 0, run.stderr
        assert run.json()["stats"]["verified"] is True and run.json()["answer"] == spec["answer"]


def test_a_bound_beyond_max_length_is_not_a_time_limit():
    """Issue 20: '-b peeling --max-length 3' said "time limit reached" with no time limit."""
    run = run_cli("routing", "solve", "grid:3x3", "--random", "1", "-b", "peeling", "--max-length", "3")
    assert run.code == 3 and "time limit" not in run.stdout + run.stderr
    assert "max-length limit reached" in run.stdout


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["number", "path:3x"], "expected path:N"),
        (["solve", "cycle:3", "{arr}"], "names another graph than cycle:3"),
    ],
)
def test_contradictions_are_one_line(tmp_path, args, fragment):
    """Issue 20: 'path:3x' was read as path:3; a contradicting '# graph:' header was ignored."""
    (tmp_path / "arr.txt").write_text("# graph: path:3\n0 2\n2 0\n")
    args = [a.format(arr=tmp_path / "arr.txt") for a in args]
    assert_bad_input(run_cli("routing", *args), fragment)


# -- saved answers, checked again (pyasp-games verify) -----------------------------------


def _refuted(question, inst, data: dict, change) -> None:
    tampered = copy.deepcopy(data)
    change(tampered)
    out = question.recheck(inst, tampered)
    assert out.verdict.verified is False and out.status == "error", (out.status, out.verdict)


def _saved(*args: str) -> dict:
    """The answer as ``--json`` prints it."""
    run = run_cli("routing", *args, "--json")
    assert run.code == 0, run.stderr
    return run.json()


@pytest.mark.parametrize(
    "args",
    [
        ("path:4", "ARR", "-b", "asp"),
        ("path:4", "ARR", "-b", "sat"),
        ("path:4", "ARR", "-b", "bfs"),
        ("grid:2x3", "--random", "3", "-b", "native"),
        ("grid:3x3", "--random", "1", "-b", "peeling"),
        ("grid:3x3", "--random", "1", "-m", "swap", "-b", "native"),
        ("grid:3x3", "--random", "1", "-m", "swap", "-b", "swapper"),
    ],
)
def test_a_saved_schedule_is_checked_again(tmp_path, args):
    from pyasp_games.domains.routing.questions import SOLVE, read_arrangement

    (tmp_path / "a.txt").write_text("0 3\n3 0\n")
    args = tuple(str(tmp_path / "a.txt") if a == "ARR" else a for a in args)
    data = _saved("solve", *args)
    moves = args[args.index("-m") + 1] if "-m" in args else None
    seed = int(args[args.index("--random") + 1]) if "--random" in args else None
    inst = read_arrangement(args[0], None if seed is not None else tmp_path / "a.txt", moves, seed)
    again = SOLVE.recheck(inst, data)
    assert again.status == "solved" and again.verdict.verified is True, again.verdict
    assert again.verdict.kind == ("upper bound" if "peeling" in args else again.verdict.kind)
    assert again.answer == data["answer"] and again.certificate == data.get("certificate")
    _refuted(SOLVE, inst, data, lambda d: d.update(answer=d["answer"] - 1))
    _refuted(SOLVE, inst, data, lambda d: d.update(witness=d["witness"][1:] + d["witness"][:1]))  # moves
    _refuted(SOLVE, inst, data, lambda d: d.update(witness=d["witness"][1:], answer=d["answer"] - 1))
    if "swapper" in args:  # the lower bound it prints is checked with the schedule
        _refuted(SOLVE, inst, data, lambda d: d["stats"].update(gap=d["stats"]["gap"] + 1))


def test_a_saved_no_schedule_is_checked_again(tmp_path):
    from pyasp_games.domains.routing.questions import SOLVE, read_arrangement

    (tmp_path / "a.txt").write_text("a d\nd a\n")
    (tmp_path / "g.txt").write_text("a b\nb c\nc d\n")
    for backend in ("native", "asp", "sat", "bfs"):
        data = _saved("solve", str(tmp_path / "g.txt"), str(tmp_path / "a.txt"), "-b", backend,
                      "--max-length", "2")  # fmt: skip
        assert data["status"] == "no-solution" and data["stats"]["bounded"] == 2, data
        inst = read_arrangement(str(tmp_path / "g.txt"), tmp_path / "a.txt")
        again = SOLVE.recheck(inst, data)  # a pebble 3 edges from home: checked alone
        assert again.status == "no-solution" and again.verdict.fully_verified, (backend, again.verdict)
        _refuted(SOLVE, inst, data, lambda d: d["stats"].update(bounded=7))  # not the grounds' bound
        _refuted(SOLVE, inst, data, lambda d: d.update(certificate="horizons 3..9 unsatisfiable"))
        _refuted(SOLVE, inst, data, lambda d: d.update(answer=3))
    # a sliding arrangement the parity refutes
    (tmp_path / "b.txt").write_text("0,0 0,1\n0,1 0,0\nblank 1,2\n")
    inst = read_arrangement("grid:2x3", tmp_path / "b.txt", "blank")
    data = _saved("solve", "grid:2x3", str(tmp_path / "b.txt"), "-m", "blank")
    assert data["status"] == "no-solution" and "Wilson" in data["certificate"]
    assert SOLVE.recheck(inst, data).verdict.fully_verified
    _refuted(SOLVE, inst, data, lambda d: d.update(answer=5))


@pytest.mark.parametrize("args", [("star:3",), ("path:4", "-m", "swap"), ("cycle:5",)])
def test_a_saved_routing_number_is_checked_again(args):
    from pyasp_games.domains.routing.questions import NUMBER, read_number

    data = _saved("number", *args)
    inst = read_number(args[0], args[2] if len(args) > 1 else None)
    again = NUMBER.recheck(inst, data)
    assert again.status == "solved" and again.verdict.in_part, again.verdict
    assert "arrangements" in again.verdict.not_checked
    _refuted(NUMBER, inst, data, lambda d: d.update(answer=d["answer"] + 1))
    _refuted(NUMBER, inst, data, lambda d: d.update(witness=d["witness"][:-1]))
    _refuted(NUMBER, inst, data, lambda d: d["certificate"].update(arrangements=7))
    first = next(iter(data["certificate"]["worst"]))
    _refuted(NUMBER, inst, data, lambda d: d["certificate"]["worst"].pop(first))


def test_a_saved_solvability_is_checked_again(tmp_path):
    from pyasp_games.domains.routing.questions import CHECK, read_sliding

    (tmp_path / "a.txt").write_text("0,0 0,1\n0,1 0,0\nblank 1,2\n")
    cases = [("grid:2x3", tmp_path / "a.txt", None), ("cycle:5", None, 2)]  # parity; search
    for graph, file, seed in cases:
        data = _saved("check", graph, *([str(file)] if file else ["--random", str(seed)]))
        inst = read_sliding(graph, file, seed)
        again = CHECK.recheck(inst, data)
        assert again.verdict.fully_verified and again.answer == data["answer"], again.verdict
        _refuted(CHECK, inst, data, lambda d: d.update(answer=not d["answer"]))
    _refuted(CHECK, inst, data, lambda d: d.update(witness=d["witness"][1:]))
