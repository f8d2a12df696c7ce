"""``pyasp-games grundy ...`` as users meet it: JSON shapes, exit codes, bad input, limits."""

from __future__ import annotations

import random

import pytest

from pyasp_games.engines.resources import instance_dir

from .conftest import assert_bad_input, run_cli, run_cli_process

GRUNDY = instance_dir("grundy")


def write(tmp_path, text, name="g.txt"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_exists_json_shapes_for_one_all_and_count():
    for backend in ("native", "asp", "sat"):
        one = run_cli("grundy", "exists", GRUNDY / "cycle4.txt", "-b", backend, "--json")
        out = one.json()
        assert one.code == 0 and out["answer"] is True and out["stats"]["verified"] is True
        assert out["witness"] in (
            {"a": 0, "b": 1, "c": 0, "d": 1},
            {"a": 1, "b": 0, "c": 1, "d": 0},
        )
    every = run_cli("grundy", "exists", GRUNDY / "cycle4.txt", "--all", "--json").json()
    assert every["answer"] == 2 and len(every["witness"]) == 2
    count = run_cli("grundy", "exists", GRUNDY / "cycle4.txt", "--count", "-b", "sat", "--json")
    assert count.json()["answer"] == 2
    none = run_cli("grundy", "exists", GRUNDY / "cycle3.txt", "-b", "asp", "--json")
    assert none.code == 0 and none.json()["answer"] is False and none.json()["witness"] is None


def test_kernel_and_values_and_sum(tmp_path):
    k = run_cli("grundy", "kernel", GRUNDY / "cycle4.txt", "--all", "--json").json()
    assert k["answer"] == 2 and sorted(map(sorted, k["witness"])) == [["a", "c"], ["b", "d"]]
    v = run_cli("grundy", "values", GRUNDY / "subtraction-123.txt", "--position", "h7", "--json")
    out = v.json()
    assert out["answer"] == {f"h{j}": j % 4 for j in range(13)}
    assert out["witness"]["winning_moves"] == ["h4"] and out["witness"]["class"] == "N"
    s = run_cli(
        "grundy",
        "sum",
        f"{GRUNDY / 'subtraction-123.txt'}:h5",
        f"{GRUNDY / 'subtraction-123.txt'}:h6",
        "--json",
    ).json()
    assert s["answer"] == "N" and s["witness"]["value"] == 3
    # h6 -> h5 is the Sprague-Grundy move (2 down to 1); h5 -> h2 raises 1 to 2 and wins too
    assert s["witness"]["winning_moves"] == [
        {"component": 0, "from": "h5", "to": "h2"},
        {"component": 1, "from": "h6", "to": "h5"},
    ]
    o = run_cli(
        "grundy", "sum", "--rule", "or", f"{GRUNDY / 'subtraction-123.txt'}:h4",
        f"{GRUNDY / 'subtraction-123.txt'}:h8", "--json",
    ).json()  # fmt: skip
    assert o["answer"] == "P"


def test_values_on_a_cyclic_graph_names_the_cycle():
    assert_bad_input(run_cli("grundy", "values", GRUNDY / "cycle3.txt"), "a -> b -> c -> a")


def test_loopy_json_and_sum():
    run = run_cli("grundy", "loopy", GRUNDY / "notes-draw.txt", "--check-asp", "--json")
    out = run.json()
    assert run.code == 0 and out["stats"]["verified"] is True
    assert out["stats"]["asp_retrograde_agrees"] is True
    assert out["answer"] == {"a": "D", "b": "D", "c": "D", "d": "N", "e": "P"}
    assert out["witness"] == {"a": "inf()", "b": "inf(1)", "c": "inf()", "d": 1, "e": 0}
    s = run_cli(
        "grundy",
        "loopy",
        f"{GRUNDY / 'notes-draw.txt'}:a",
        "--sum",
        f"{GRUNDY / 'notes-draw.txt'}:d",
        "--json",
    ).json()
    assert s["answer"] == "D" and s["witness"]["value"] == "inf()"
    assert s["witness"]["move"] == {"component": 1, "from": "d", "to": "e"}


@pytest.mark.parametrize(
    ("text", "args", "fragment"),
    [
        ("a b c\n", ["exists"], "line 1"),
        ("", ["exists"], "empty"),
        ("a b\n", ["values", "--position", "zz"], "no position named 'zz'"),
        ("a b\n", ["exists", "--all", "--count"], "exclude"),
        ("a b\n", ["exists", "--encoding", "x"], "--encoding applies"),
        ("a b\n", ["exists", "-b", "sat", "--solver", "lingeling"], "'lingeling' is not one of"),
        ("a b\n", ["exists", "-b", "asp", "--encoding", "nosuch"], "unknown encoding"),
        ("a b\n", ["exists", "-b", "bogus"], "bogus"),
        ("a b\n", ["exists", "--time-limit", "-1"], "--time-limit must be positive"),
        ("a b\n", ["kernel", "--format", "dot"], "dot"),
        ("a b\n", ["loopy", "--time-limit", "0"], "--time-limit must be positive"),
    ],
)
def test_bad_input_exits_2_with_one_line(tmp_path, text, args, fragment):
    path = write(tmp_path, text)
    verb, *rest = args
    assert_bad_input(run_cli("grundy", verb, path, *rest), fragment)


def test_bad_files_and_components(tmp_path):
    assert_bad_input(run_cli("grundy", "exists", tmp_path / "nope.txt"), "no such file")
    bad = write(tmp_path, "<graphml>", "g.graphml")
    assert_bad_input(run_cli("grundy", "loopy", bad), "graphml")
    good = write(tmp_path, "a b\n")
    assert_bad_input(run_cli("grundy", "sum", str(good)), "GRAPH:POSITION")
    assert_bad_input(run_cli("grundy", "sum", f"{good}:zz"), "no position named 'zz'")
    assert_bad_input(
        run_cli("grundy", "sum", f"{GRUNDY / 'cycle3.txt'}:a", f"{good}:a"), "grundy loopy"
    )


def test_emit_files_are_not_overwritten(tmp_path):
    out = tmp_path / "f.lp"
    run = run_cli("grundy", "exists", GRUNDY / "cycle4.txt", "-b", "asp", "--emit-lp", out)
    assert run.code == 0 and "arc(0,1)." in out.read_text()
    assert_bad_input(
        run_cli("grundy", "exists", GRUNDY / "cycle4.txt", "-b", "asp", "--emit-lp", out), "exists"
    )
    cnf = tmp_path / "f.cnf"
    run = run_cli("grundy", "kernel", GRUNDY / "cycle4.txt", "-b", "sat", "--emit-cnf", cnf)
    assert run.code == 0 and "p cnf" in cnf.read_text()


@pytest.mark.xdist_group("timing")
def test_time_limit_gives_unknown_and_exit_3(tmp_path):
    """The time limit holds for each backend's search (in this process: the run is
    forked and stopped at its limit) and, in a child process, for the whole command
    (reading a large file too, where nothing polls a clock: the command's alarm)."""
    # 40 two-cycles joined by a hub moving into each: one weak component with 2^40
    # Grundy functions and 2^40 kernels to count (the hub's value is determined)
    many = write(
        tmp_path, "".join(f"a{i} b{i}\nb{i} a{i}\nhub a{i}\n" for i in range(40)), "many.txt"
    )
    for args in (
        ["exists", many, "--count", "-b", "native"],
        ["exists", many, "--count", "-b", "asp"],
        ["exists", many, "--count", "-b", "sat"],
        ["kernel", many, "--count", "-b", "native"],
    ):
        run = run_cli("grundy", *args, "--time-limit", "0.25", "--json")  # the stop, not the work
        out = run.json()
        assert run.code == 3 and out["status"] == "unknown" and out["answer"] is None, args
        assert out["seconds"] < 2.5
    rng = random.Random(1)
    n = 60_000
    big = write(
        tmp_path,
        "".join(f"v{u} v{rng.randrange(n)}\n" for u in range(n) for _ in range(rng.randint(1, 4))),
        "big.txt",
    )
    run = run_cli_process("grundy", "loopy", big, "--time-limit", "0.05", "--json")
    assert run.code == 3 and run.json()["status"] == "unknown"
