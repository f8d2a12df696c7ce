"""No unproven answer printed as proven: user encodings are cross-checked (issue 11, section 1).

A claim that cannot be checked alone ("none", a count, a plan's optimality) from a
user's own encoding is compared with the domain's reference backend; a disagreement
is an error naming both answers with the reference's verified witness, a reference
out of time leaves the claim marked "not verified" (exit 3). Counts are of distinct,
verified solutions (projected on the output predicate), not of answer sets.
"""

from __future__ import annotations

from typing import Any

import pytest

from pyasp_games.domains.grundy.model import arc_text, load_graph, random_arcs
from pyasp_games.domains.grundy.verify import check_grundy_function, check_kernel
from pyasp_games.domains.puzzle.model import load_boards
from pyasp_games.domains.puzzle.verify import verify_plan
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.resources import encoding_path, instance_dir

from .conftest import assert_bad_input, run_cli, run_cli_process

COVER = instance_dir("cover")
PUZZLE = instance_dir("puzzle")

#: the issue's encodings: each makes a wrong claim that no checker refutes alone
NO_COVER = ":- element(E).\n#show chosen/1.\n"
NO_GRUNDY = ":- vertex(V).\n"
NO_PLAN = "#program check(t).\n:- query(t).\n"  # added to the bundled sliding.lp


@pytest.fixture
def encodings(tmp_path):
    files = {
        "no-cover": NO_COVER,
        "junk": encoding_path("cover", "x3c").read_text() + "\n{ junk }.\n",
        "junk-projected": encoding_path("cover", "x3c").read_text()
        + "\n{ junk }.\n#project junk.\n#show junk/0.\n",
        "any-subsets": "{ chosen(S) : member(S,_) }.\n#show chosen/1.\n",
        "no-grundy": NO_GRUNDY,
        "no-plan": encoding_path("puzzle", "sliding").read_text() + "\n" + NO_PLAN,
        "long-plan": encoding_path("puzzle", "sliding").read_text()
        + "\n#program check(t).\n:- query(t), t < 26.\n",
        "nothing": "#program base.\n#program step(t).\n#program check(t).\n"
        "#external query(t).\n:- query(t).\n",
    }
    paths = {}
    for name, text in files.items():
        paths[name] = tmp_path / f"{name}.lp"
        paths[name].write_text(text)
    return paths


@pytest.fixture
def graph60(tmp_path):
    """A 60-position game graph with cycles: native finds a Grundy function and a kernel."""
    path = tmp_path / "g60.txt"
    path.write_text(arc_text(random_arcs(60, 2, 0.0, 1, 4), 60))
    return path


# -- cover -------------------------------------------------------------------------


def test_cover_no_cover_claim_disagrees_with_dlx(encodings):
    tiny = COVER / "tiny-cover.txt"
    run = run_cli("cover", "solve", tiny, "-b", "asp", "--encoding", encodings["no-cover"])
    assert run.code == 1, run.stdout + run.stderr
    assert "DISAGREES with the reference dlx" in run.stdout
    # both answers in the words of the question's one formatter
    assert "answers no exact cover, but" in run.stderr
    assert "dlx answers an exact cover exists (cover: 0 1;" in run.stderr
    out = run_cli(
        "cover", "solve", tiny, "-b", "asp", "--encoding", encodings["no-cover"], "--json"
    ).json()
    assert out["status"] == "error" and out["stats"]["failed_status"] == "no-solution"
    assert out["stats"]["cross_check"] == "disagrees" and out["stats"]["verified"] is False
    assert out["stats"]["reference_witness"] == [0, 1]


def test_cover_count_of_zero_disagrees_and_shows_a_missed_cover(encodings):
    tiny = COVER / "tiny-cover.txt"
    run = run_cli(
        "cover", "solve", tiny, "-b", "asp", "--encoding", encodings["no-cover"], "--count",
        "--json",
    )  # fmt: skip
    assert run.code == 1
    stats = run.json()["stats"]
    assert (stats["reference_answer"], stats["reference_witness"]) == (1, [0, 1])
    assert "0 exact covers" in stats["verification"]


@pytest.mark.parametrize("encoding", ["junk", "junk-projected"])
def test_counts_are_distinct_covers_not_answer_sets(encodings, encoding):
    small = COVER / "matching-small.txt"
    for flag in ("--count", "--all"):
        run = run_cli(
            "cover", "solve", small, "-b", "asp", "--encoding", encodings[encoding], flag, "--json"
        )
        assert run.code == 0, run.stderr
        out = run.json()
        assert out["answer"] == 2 and out["stats"]["cross_check"] == "agrees"
        if flag == "--all":
            assert len({tuple(c) for c in out["witness"]}) == 2
    # projection alone, without the reference: still 2
    from pyasp_games.domains.cover import solve
    from pyasp_games.domains.cover.model import load_instance

    inst = load_instance(small)
    out = solve(inst, "asp", mode="count", encoding=str(encodings[encoding]), trust_encoding=True)
    assert out.answer == 2 and out.verdict.cross_check.result == "trusted"  # no reference asked


def test_counting_checks_every_cover(encodings):
    run = run_cli(
        "cover", "solve", COVER / "tiny-cover.txt", "-b", "asp", "--encoding",
        encodings["any-subsets"], "--count", "--json",
    )  # fmt: skip
    assert run.code == 1
    out = run.json()
    assert out["stats"]["verified"] is False and "not an exact cover" in out["stats"]["verification"]


def test_an_agreeing_none_reads_cross_checked(encodings):
    run = run_cli(
        "cover", "solve", COVER / "tiny-none.txt", "-b", "asp", "--encoding", encodings["no-cover"]
    )
    assert run.code == 0, run.stderr
    assert "no exact cover" in run.stdout and "cross-checked against dlx" in run.stdout


def test_bundled_encodings_keep_their_status():
    run = run_cli("cover", "solve", COVER / "tiny-none.txt", "-b", "asp", "--json")
    assert run.code == 0
    stats = run.json()["stats"]
    assert stats["verified"] is None and "reference" not in stats


def test_trust_encoding_turns_the_check_off(encodings):
    tiny = COVER / "tiny-cover.txt"
    run = run_cli(
        "cover", "solve", tiny, "-b", "asp", "--encoding", encodings["no-cover"],
        "--trust-encoding", "--json",
    )  # fmt: skip
    assert run.code == 0 and run.json()["status"] == "no-solution"
    assert run.json()["stats"]["cross_check"] == "trusted"  # said, in the JSON too
    headline = run_cli("cover", "solve", tiny, "-b", "asp", "--encoding", encodings["no-cover"],
                       "--trust-encoding").stdout.splitlines()[0]  # fmt: skip
    assert "no exact cover" in headline and "trusted, not cross-checked" in headline
    assert_bad_input(run_cli("cover", "solve", tiny, "-b", "asp", "--trust-encoding"), "--encoding")


def test_a_trusted_none_is_no_proof(encodings):
    # the encoding's "no plan within 20 moves" is taken on trust, never shown as a proof
    run = run_cli(
        "puzzle", "solve", PUZZLE / "thesis-board1.txt", "-b", "asp", "--encoding",
        encodings["no-plan"], "--max-length", "20", "--trust-encoding",
    )  # fmt: skip
    assert run.code == 0, run.stderr
    assert "trusted, not cross-checked" in run.stdout.splitlines()[0]
    assert "proof:" not in run.stdout and "the encoding's claim: no plan" in run.stdout


# -- grundy ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("verb", "flags", "claim"),
    [
        ("exists", [], "no Grundy function"),
        ("exists", ["--count"], "0 Grundy functions"),
        ("kernel", [], "no kernel"),
    ],
)
def test_grundy_none_disagrees_with_the_reference(encodings, graph60, verb, flags, claim):
    # existence is cross-checked by SAT (the fastest independent backend), counts by native
    reference = "native" if flags else "sat"
    run = run_cli(
        "grundy", verb, graph60, "-b", "asp", "--encoding", encodings["no-grundy"], *flags,
        "--json",
    )  # fmt: skip
    assert run.code == 1, run.stdout + run.stderr
    stats = run.json()["stats"]
    assert stats["cross_check"] == "disagrees" and stats["reference"] == reference
    assert claim in stats["verification"]
    graph = load_graph(graph60)
    check = check_kernel if verb == "kernel" else check_grundy_function
    assert check(graph, stats["reference_witness"])[0]
    text = run_cli(
        "grundy", verb, graph60, "-b", "asp", "--encoding", encodings["no-grundy"], *flags
    )
    assert f"DISAGREES with the reference {reference}" in text.stdout and claim in text.stderr


def _beyond_brute_force(tmp_path, cycle: bool):
    """A digraph beyond the checker's brute force: a 40-position random graph, with a
    directed 3-cycle beside it (no Grundy function at all) when ``cycle``."""
    import random

    rng = random.Random(1)
    arcs = [(f"v{i}", f"v{j}") for i in range(40) for j in rng.sample(range(40), 3) if i != j]
    if cycle:
        arcs += [("a", "b"), ("b", "c"), ("c", "a")]
    path = tmp_path / f"g40{'-cycle' if cycle else ''}.txt"
    path.write_text("".join(f"{u} {v}\n" for u, v in arcs))
    return path


@pytest.mark.parametrize(
    ("backend", "flags", "cycle", "reference"),
    [
        ("native", ["--count"], False, "sat"),  # native is the count's reference: the other one
        ("sat", ["--count"], False, "native"),
        ("sat", [], True, "asp"),  # sat is the existence reference: asp checks its none
        ("native", [], True, "sat"),
        ("asp", [], True, "sat"),
    ],
)
def test_a_bundled_claim_beyond_the_checker_is_cross_checked(tmp_path, backend, flags, cycle, reference):
    # no brute force recounts these: the claim is confirmed by an independent backend,
    # never printed as proven on its own backend's word
    graph = _beyond_brute_force(tmp_path, cycle)
    run = run_cli("grundy", "exists", graph, "-b", backend, *flags, "--json")
    assert run.code == 0, run.stdout + run.stderr
    out = run.json()
    stats = out["stats"]
    assert stats["unconfirmed"] == "too large to recount by brute force"
    assert stats["cross_check"] == "agrees" and stats["reference"] == reference
    assert stats["reference_answer"] == out["answer"]
    assert (out["answer"] is False) == cycle
    text = run_cli("grundy", "exists", graph, "-b", backend, *flags)
    assert f"cross-checked against {reference}" in text.stdout.splitlines()[0]


def test_a_bundled_claim_the_other_backend_contradicts_is_an_error(tmp_path, monkeypatch):
    from pyasp_games.domains.grundy.questions import EXISTS

    graph = load_graph(_beyond_brute_force(tmp_path, cycle=False))
    native = EXISTS.backends["native"]

    def one_too_many(instance, limits, **options):
        outcome = native(instance, limits, **options)
        outcome.answer += 1
        return outcome

    monkeypatch.setitem(EXISTS.backends, "native", one_too_many)
    outcome = EXISTS.ask(graph, "native", mode="count")
    assert outcome.status == "error" and outcome.exit_code == 1
    assert outcome.verdict.cross_check.result == "disagrees"
    assert outcome.verdict.message.startswith("the backend native answers 8 Grundy functions")


def test_a_bundled_claim_without_time_for_its_check_stays_unconfirmed(tmp_path):
    from pyasp_games.domains.grundy.questions import REFERENCE
    from pyasp_games.engines.outcome import Outcome
    from pyasp_games.engines.reference import cross_check

    claim = Outcome.from_dict({"problem": "g", "backend": "native", "status": "solved", "answer": 7,
                               "stats": {"verified": None, "unconfirmed": "too large"}})

    def never(*args):
        raise AssertionError("no reference run without time")

    spent = Limits(0.01).started()
    cross_check(REFERENCE, None, claim, {"mode": "count"}, spent, never, str)
    assert claim.verdict.cross_check.result == "not verified" and claim.exit_code == 3


# -- puzzle ------------------------------------------------------------------------


def test_puzzle_no_plan_within_bound_disagrees(encodings):
    board = PUZZLE / "thesis-board1.txt"
    run = run_cli(
        "puzzle", "solve", board, "-b", "asp", "--encoding", encodings["no-plan"],
        "--max-length", "30", "--json",
    )  # fmt: skip
    assert run.code == 1, run.stderr
    out = run.json()
    assert out["status"] == "error" and out["stats"]["reference_answer"] == 24
    b = load_boards(board)[0]
    plan = out["stats"]["reference_witness"]
    assert len(plan) == 24 and verify_plan(b.rows, b.cols, b.tiles, b.goal, plan).ok
    assert "no plan of length <= 30" in out["stats"]["verification"]


def test_puzzle_plan_not_optimal_disagrees(encodings):
    from pyasp_games.domains.puzzle import solve

    board = load_boards(PUZZLE / "thesis-board1.txt")[0]
    out = solve(board, "asp", encoding=str(encodings["long-plan"]))
    assert out.status == "error" and out.verdict.failed_status == "solved"
    assert len(out.witness) == 26 and out.verdict.cross_check.answer == 24


@pytest.mark.xdist_group("timing")
def test_reference_out_of_time_is_not_verified(encodings, tmp_path, monkeypatch):
    # a 5 x 5 board 66 moves from home by Manhattan distance: the encoding refutes every
    # horizon up to 84 at once; IDA* with pattern databases cannot refute them within the
    # limit (an empty cache: the quick databases are built first, inside it). Not 76: the
    # compiled search refutes that in about 1.3 s, too close to the limit.
    from pyasp_games.domains.puzzle.model import format_board, random_walk_board

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "empty-cache"))
    board = tmp_path / "b5.txt"
    board.write_text(format_board(random_walk_board(5, 5, 400, 3), header=False) + "\n")
    args = ["puzzle", "solve", board, "-b", "asp", "--encoding", encodings["nothing"]]
    args += ["--max-length", "84", "--time-limit", "1.5"]
    # a child process: a new process compiles its search first, as a user's command does
    run = run_cli_process(*args, "--json")
    assert run.code == 3, run.stderr
    out = run.json()
    assert out["status"] == "no-solution" and out["stats"]["verified"] is False
    assert out["stats"]["verification"].startswith("not verified: the reference pdb")
    text = run_cli(*args)  # the same, said in words (in this process: its run forked)
    assert "NOT VERIFIED" in text.stdout and text.code == 3


def test_a_run_that_uses_the_whole_limit_leaves_none_for_the_reference(encodings):
    from pyasp_games.domains.cover import REFERENCE
    from pyasp_games.engines.outcome import Outcome
    from pyasp_games.engines.reference import cross_check

    claim = Outcome("i", "asp", "no-solution", False)

    def never(*args):
        raise AssertionError("no reference run without time")

    spent = Limits(0.01).started()  # the run took all but 0.01 s of its limit
    cross_check(REFERENCE, None, claim, {"encoding": "mine.lp"}, spent, never, str)
    assert claim.verdict.cross_check.result == "not verified" and claim.exit_code == 3


# -- geography (library: the CLI takes no --encoding) -------------------------------


def test_geography_winner_beyond_minimax_is_cross_checked(tmp_path, monkeypatch):
    import pyasp_games.domains.geography.verify as verify
    from pyasp_games.domains.geography import solve
    from pyasp_games.domains.geography.model import parse_instance

    game = parse_instance("s a\n", "s", "vertex")  # the first player moves to a and wins
    mine = tmp_path / "second.lp"
    mine.write_text("#show first_wins/0.\n")  # never derives first_wins: "second"
    monkeypatch.setattr(verify, "MAX_MATERIAL", 0)  # as if the game were too large
    out = solve(game, "asp", encoding=str(mine))
    assert out.status == "error" and out.verdict.cross_check.answer == "first"
    assert "the second player wins" in out.verdict.message
    assert solve(game, "asp", encoding=str(mine), trust_encoding=True).answer == "second"


def test_a_plan_whose_optimality_is_unconfirmed_says_both(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # no databases: pdb, quick partition
    from pyasp_games.domains.puzzle import REFERENCE
    from pyasp_games.engines.outcome import Outcome
    from pyasp_games.engines.reference import cross_check

    board = load_boards(PUZZLE / "thesis-board1.txt")[0]
    plan = Outcome.from_dict({"problem": "b", "backend": "asp", "status": "solved", "answer": 24,
                              "witness": "R" * 24,
                              "stats": {"verified": True, "verification": "replays"}})

    mine = Limits(5, max_length=40, memory_limit=2**30).started()

    def out_of_time(backend, limits, options):
        # the encoding's own limits handed on: one clock, the same memory and length
        assert limits.clock is mine.clock and limits == mine
        return Outcome("b", backend, "unknown", stats={"limit": "time"})

    cross_check(REFERENCE, board, plan, {"encoding": "mine.lp"}, mine, out_of_time, str)
    assert plan.status == "solved" and plan.verdict.verified is False and plan.exit_code == 3
    assert plan.verdict.message.startswith("not verified: the reference pdb")
    assert plan.verdict.message.endswith("; replays")


def test_puzzle_reference_is_pdb_with_the_cached_databases_else_the_quick_ones(tmp_path, monkeypatch):
    from pyasp_games.domains.puzzle import REFERENCE, solve
    from pyasp_games.domains.puzzle.model import parse_board

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    board = parse_board("1 2 3\n4 0 5")
    assert REFERENCE.choose(board, {}) == ("pdb", {"partition": "quick"})
    assert solve(board, "pdb").answer == 1  # builds and caches the 2x3 default databases
    assert REFERENCE.choose(board, {}) == ("pdb", {"partition": "default"})
    big = parse_board("\n".join(" ".join(str((r * 9 + c + 1) % 81) for c in range(9)) for r in range(9)))
    assert REFERENCE.choose(big, {})[0] == "idastar"  # no databases beyond 64 cells


# -- "not verified" is no failure: crosscheck and bench report count it apart ------------


def _not_verified_claim(backend: str = "asp") -> Any:
    from pyasp_games.engines.outcome import Outcome

    return Outcome.from_dict({"problem": "i", "backend": backend, "status": "no-solution",
                              "answer": False, "stats": {
        "verified": False, "cross_check": "not verified",
        "cross_check_reason": "the reference dlx reached the time limit",
        "verification": "not verified: the reference dlx reached the time limit"}})  # fmt: skip


def test_crosscheck_counts_not_verified_apart_from_failures():
    from pyasp_games.engines.outcome import Outcome
    from pyasp_games.tools.crosscheck import Report, Row, confirmation

    failed = Outcome.from_dict({"problem": "i", "backend": "bad", "status": "error",
                                "stats": {"verified": False, "failed_status": "solved"}})
    outcomes = [_not_verified_claim(), failed]
    rows = [Row(o.backend, o, confirmed=c) for o, c in zip(outcomes, confirmation(outcomes, False), strict=True)]
    summary = Report("cover", rows, 1).summary()
    assert summary["not_verified"] == 1 and summary["failed_verification"] == 1
    alone = Report("cover", rows[:1], 1)
    assert alone.ok and alone.exit_code() == 3 and alone.summary()["failed_verification"] == 0
    assert alone.rows[0].to_dict()["confirmed"] == "not verified"
    line = alone.summary_line()
    assert "1 not verified" in line and "failed" in line and "PROBLEMS" not in line


def test_bench_report_lists_not_verified_apart_from_failures(tmp_path):
    import json

    row = {"suite": "s", "domain": "cover", "instance": "a", "backend": "asp[mine]", "repeat": 0,
           "size": {"n": 1}, "known": None, "seconds": 0.5, "error": None,
           **{k: v for k, v in _not_verified_claim().to_dict().items()
              if k in ("status", "answer", "stats")}}  # fmt: skip
    row["verified"] = False
    out = tmp_path / "campaign"
    out.mkdir()
    (out / "results.jsonl").write_text(json.dumps(row) + "\n")
    (out / "meta.json").write_text(json.dumps({"suite": "s", "domain": "cover", "settings": {}}))
    run = run_cli("bench", "report", out, "--json")
    assert run.code == 0, run.stderr
    result = run.json()
    assert result["ok"] and result["problems"] == []
    (backend,) = result["backends"]
    assert backend["not_verified"] == 1 and backend["failed_verification"] == 0
    assert result["not_verified"] and "reached the time limit" in result["not_verified"][0]
    text = (out / "report.md").read_text()
    assert "FAILED" not in text and "PROBLEMS" not in text and "## NOT VERIFIED" in text
    shown = run_cli("bench", "report", out)
    assert shown.code == 0 and "FAILED" not in shown.stdout and "not verified" in shown.stdout


# -- an answer set of the wrong shape: a failed verification, one reason, exit 1 ---------

GRUNDY = instance_dir("grundy")

MALFORMED = [
    # (command, instance, encoding text, words of the reason)
    (["cover", "solve"], COVER / "tiny-cover.txt", "chosen(0).\n#show chosen/1.\n", "not covered"),
    (["cover", "solve"], COVER / "tiny-cover.txt", "chosen(a).\n#show chosen/1.\n", "chosen(a)"),
    (["cover", "solve"], COVER / "tiny-cover.txt", "chosen(99).\n#show chosen/1.\n", "99 is not"),
    (["grundy", "exists"], GRUNDY / "cycle4.txt", "value(0,0).\n#show value/2.\n", "no value/2"),
    (["grundy", "exists"], GRUNDY / "cycle4.txt", "value(a,0).\n#show value/2.\n", "value(a,0)"),
    (["grundy", "kernel"], GRUNDY / "cycle4.txt", "in(99).\n#show in/1.\n", "in(99)"),
    (["grundy", "kernel"], GRUNDY / "cycle4.txt", "#show in/1.\n", "cannot move into it"),
    (["puzzle", "solve"], PUZZLE / "thesis-board1.txt",
     "#program step(t).\nmove(x,u).\n#show move/2.\n", "move(x,u)"),
]  # fmt: skip


@pytest.mark.parametrize(
    "command,instance,text,why,mode",
    [
        (*case, mode)
        for case in MALFORMED
        for mode in ["", "--count", "--all"]
        if not (case[0][0] == "puzzle" and mode)  # puzzle solve answers with one plan only
    ],
)
def test_a_malformed_answer_is_a_failed_verification(tmp_path, command, instance, text, why, mode):
    encoding = tmp_path / "mine.lp"
    encoding.write_text(text)
    args = [*command, instance, "-b", "asp", "--encoding", encoding, *([mode] if mode else [])]
    args += ["--max-length", "30"] if command[0] == "puzzle" else []
    run = run_cli(*args, "--json")
    assert run.code == 1 and "Traceback" not in run.stderr, run.stderr
    out = run.json()
    assert out["status"] == "error" and out["stats"]["verified"] is False
    assert why in out["stats"]["verification"]
    # the user's encoding ran: what grounding and solving cost stays on record
    assert out["stats"]["solve_calls"] >= 1 and out["stats"]["time_ground"] >= 0
    text_run = run_cli(*args)
    assert text_run.code == 1 and "FAILED verification" in text_run.stdout, text_run.stdout
    assert "internal error" not in text_run.stderr and "Traceback" not in text_run.stderr


@pytest.mark.parametrize("shown,why", [("winning_move(a)", "winning_move(a)"),
                                       ("winning_move(99)", "no vertex numbered 99"),
                                       ("positions(x)", "positions(x)")])  # fmt: skip
def test_a_malformed_geography_answer_is_a_failed_verification(tmp_path, shown, why):
    from pyasp_games.domains.geography import solve
    from pyasp_games.domains.geography.model import parse_instance

    encoding = tmp_path / "mine.lp"
    encoding.write_text(f"first_wins. {shown}.\n")
    out = solve(parse_instance("s a\na b\ns b\n", "s", "vertex"), "asp", encoding=str(encoding))
    assert out.status == "error" and out.verdict.verified is False
    assert why in out.verdict.message
