"""``pyasp-games geography solve`` as users meet it: JSON shape, exit codes, bad input, limits."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from pyasp_games.engines.resources import instance_dir

from .conftest import assert_bad_input, run_cli, run_cli_process

GEO = instance_dir("geography")


def write(tmp_path, text, name="g.txt"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_json_answer_and_witness_for_every_backend(tmp_path):
    path = write(tmp_path, "a b\nb c\nc d\n")
    for backend in ("native", "asp", "matching"):
        run = run_cli(
            "geography", "solve", path, "--start", "b", "--undirected", "-b", backend, "--json"
        )
        out = run.json()
        assert run.code == 0 and out["status"] == "solved" and out["stats"]["verified"] is True
        assert out["answer"] == "first" and out["witness"] == "a"
    lost = run_cli("geography", "solve", path, "--start", "a", "--json").json()
    assert lost["answer"] == "first" and lost["witness"] == "b"  # directed: a -> b -> c -> d
    second = run_cli("geography", "solve", GEO / "path3.txt", "--json").json()
    assert second["answer"] == "second" and second["witness"] is None


def test_edge_variant_witness_is_an_arc_and_line_is_shown():
    run = run_cli("geography", "solve", GEO / "cycle3-edge.txt", "--line", "--json")
    out = run.json()
    assert out["answer"] == "first" and out["witness"] == ["s", "a"]
    assert out["stats"]["line"] == ["s", "a", "b", "s"]
    text = run_cli("geography", "solve", GEO / "cycle3-edge.txt", "--line")
    assert text.code == 0 and "winning move: s -> a" in text.stdout
    assert "line of play: s a b s" in text.stdout
    # the command line overrides the file's headers
    vertex = run_cli("geography", "solve", GEO / "cycle3-edge.txt", "--variant", "vertex", "--json")
    assert vertex.json()["answer"] == "second"


def test_emit_lp_writes_facts(tmp_path):
    lp = tmp_path / "f.lp"
    run = run_cli("geography", "solve", GEO / "path3.txt", "-b", "asp", "--emit-lp", lp)
    assert run.code == 0 and "start(0)." in lp.read_text()
    again = run_cli("geography", "solve", GEO / "path3.txt", "-b", "asp", "--emit-lp", lp)
    assert_bad_input(again, "file exists")


@pytest.mark.parametrize(
    ("text", "args", "fragment"),
    [
        ("a b\n", ["--start", "zz"], "no position named 'zz'"),
        ("a b\n", [], "no start vertex"),
        ("a b c\n", ["--start", "a"], "line 1"),
        ("", ["--start", "a"], "empty"),
        ("a b\n", ["--start", "a", "--variant", "arcs"], "arcs"),
        ("a b\n", ["--start", "a", "-b", "matching"], "undirected vertex geography only"),
        ("a b\n", ["--start", "a", "-b", "matching", "--undirected", "--variant", "edge"], "only"),
        ("a b\n", ["--start", "a", "-b", "asp", "--line"], "--line applies"),
        ("a b\n", ["--start", "a", "--emit-lp", "x.lp"], "--emit-lp applies"),
        ("a b\n", ["--start", "a", "--time-limit", "0"], "--time-limit must be positive"),
        ("# winner: maybe\n# start: a\na b\n", ["-b", "bogus"], "bogus"),
        ("# start: a\n# undirected: perhaps\na b\n", [], "yes or no"),
    ],
)
def test_bad_input_exits_2_with_one_line(tmp_path, text, args, fragment):
    assert_bad_input(run_cli("geography", "solve", write(tmp_path, text), *args), fragment)


def test_missing_file():
    assert_bad_input(run_cli("geography", "solve", "nope.txt", "--start", "a"), "no such file")


@pytest.mark.parametrize(  # each backend's stop: test_geography_solvers.py's, in this process
    "backend", [pytest.param("native", marks=pytest.mark.slow), "asp"]
)
@pytest.mark.xdist_group("timing")
def test_time_limit_exits_3_within_the_limit(tmp_path, backend):
    rng = random.Random(11)
    n = 80
    lines = {f"v{rng.randrange(n)} v{rng.randrange(n)}" for _ in range(4 * n)}
    path = write(tmp_path, "v0 v1\n" + "\n".join(sorted(lines)) + "\n")
    run = run_cli_process(  # a child process: the limit holds for the whole command
        "geography", "solve", path, "--start", "v0", "--undirected", "-b", backend,
        "--time-limit", "0.5", "--json",
    )  # fmt: skip
    out = run.json()
    assert run.code == 3 and out["status"] == "unknown" and out["answer"] is None
    # the limit, the grace, and starting Python and clingo (up to 3 s on a loaded machine;
    # a search that ignored the limit would run for more than 20 s on this graph)
    assert run.seconds < 0.5 + 1 + 3


def test_crosscheck_bundled_instances_agree_with_the_known_winners():
    run = run_cli("crosscheck", "geography", "--json")
    assert run.code == 0, (run.stdout, run.stderr)
    rows = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
    runs = [r for r in rows if "backend" in r]
    # native and asp on every instance, matching where it applies (undirected vertex games)
    by_backend = {b: [r for r in runs if r["backend"] == b] for b in ("native", "asp", "matching")}
    assert len(by_backend["native"]) == len(by_backend["asp"]) == len(list(GEO.glob("*.txt")))
    assert len(by_backend["matching"]) == 4
    assert all(r["ok"] and r["matches_known"] and r["stats"]["verified"] for r in runs)


def play(*args, stdin: str):
    proc = subprocess.run(
        [sys.executable, "-P", "-m", "pyasp_games", "geography", "play", *map(str, args)],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return proc.returncode, proc.stdout, proc.stderr


def test_play_handles_illegal_input_and_the_solver_wins(tmp_path):
    # path s -> a -> b (directed): the second player wins; the human moves first
    path = write(tmp_path, "s a\na b\n")
    code, out, err = play(path, "--start", "s", stdin="zz\nb\na\n")
    assert code == 0 and err == "", err
    assert "'zz': no vertex of that name" in out
    assert "'b': not a legal move from here" in out
    assert "I move to b." in out and "you cannot move, so you lose" in out
    # the solver moves first where the first player wins, and wins
    code, out, _ = play(GEO / "star-leaf-undirected.txt", "--start", "s", stdin="")
    assert code == 0 and "I move first" in out and "you lose" in out
    # end of input mid-game: a message, not a crash
    code, out, err = play(GEO / "path3.txt", stdin="")
    assert code == 0 and "game abandoned" in out and "Traceback" not in err
    code, _, err = play(path, "--start", "nowhere", stdin="")
    assert code == 2 and "no position named 'nowhere'" in err


def test_matching_backend_refuses_what_it_does_not_answer_in_the_library_too():
    from pyasp_games.domains.geography import solve
    from pyasp_games.domains.geography.model import parse_instance
    from pyasp_games.errors import InputError

    with pytest.raises(InputError, match="undirected vertex geography only"):
        solve(parse_instance("a b\n", "a", "vertex"), "matching")


def test_a_users_encoding_is_checked_not_believed(tmp_path):
    """``--encoding FILE`` (asp only): a lying encoding's winner fails verification; a
    bundled encoding answers as the native search does."""
    game = instance_dir("geography") / "tqbf-false-vertex.txt"  # the second player wins
    liar = tmp_path / "liar.lp"
    liar.write_text("first_wins.\n#show first_wins/0.\n")
    run = run_cli("geography", "solve", game, "-b", "asp", "--encoding", liar, "--json")
    out = run.json()
    assert run.code == 1 and out["status"] == "error" and out["stats"]["verified"] is False
    run = run_cli("geography", "solve", game, "-b", "asp", "--encoding", "vertex", "--json")
    assert run.code == 0 and run.json()["answer"] == "second"
    assert_bad_input(run_cli("geography", "solve", game, "--encoding", liar), "applies to")
    assert_bad_input(
        run_cli("geography", "solve", game, "-b", "asp", "--encoding", "vertex", "--trust-encoding"),
        "your own --encoding FILE",
    )
