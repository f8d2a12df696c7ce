"""The four backends: optimal, verified, in agreement; limits; emitted files."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyasp_games.domains.puzzle import BACKENDS, check_outcome, load_boards, parse_board, solve
from pyasp_games.domains.puzzle.verify import verify_plan
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.errors import InputError

from .conftest import quick_options, random_walk_board

ALL = list(BACKENDS)
OPTIMAL = [b for b in ALL if b != "greedy"]


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([(3, 3), (2, 4), (3, 4), (4, 4)]),
    st.integers(0, 18),
    st.integers(0, 10**6),
    st.sampled_from(["blank-last", "blank-first"]),
)
def test_backends_agree_on_optimal_length_and_plans_verify(size, steps, seed, goal):
    board = random_walk_board(*size, steps, seed, goal)
    outcomes = [solve(board, b, Limits(time_limit=60), **quick_options(board, b)) for b in OPTIMAL]
    for o in outcomes:
        assert o.status == "solved", (o.backend, o.status, o.stats)
        assert o.verdict.verified is True
        assert verify_plan(board.rows, board.cols, board.tiles, board.goal, o.witness).ok
        assert o.answer == len(o.witness) <= steps
        assert o.answer % 2 == steps % 2  # the blank's parity fixes the plan length's parity
    assert len({o.answer for o in outcomes}) == 1, [(o.backend, o.answer) for o in outcomes]


@pytest.mark.parametrize(
    ("backend", "board", "length"),
    [
        (backend, board, length)
        for board, length in [(1, 24), (2, 12), (3, None)]
        for backend in OPTIMAL
        # board 1 by asp is README.md's example command, run and compared by test_readme.py
        if (backend, board) != ("asp", 1)
    ],
)
def test_thesis_boards(puzzles, backend, board, length):
    b = load_boards(puzzles / f"thesis-board{board}.txt")[0]
    out = solve(b, backend, Limits(time_limit=60), **quick_options(b, backend))
    assert out.answer == length and out.verdict.verified is True
    if length is None:
        assert out.status == "no-solution" and "inversions" in out.certificate["reason"]


def test_seed_encoding_solves_board_2_optimally(puzzles):
    b = load_boards(puzzles / "thesis-board2.txt")[0]
    out = solve(b, "asp", Limits(time_limit=60), encoding="seed")
    assert (out.status, out.answer, out.verdict.verified) == ("solved", 12, True)
    assert out.stats["horizons"] == [12]


def test_seed_encoding_rejects_other_boards():
    with pytest.raises(InputError, match="4x4"):
        solve(parse_board("1 2 3\n4 5 6\n7 0 8"), "asp", encoding="seed")


def test_user_encoding_by_path_is_a_backend(tmp_path, puzzles):
    from pyasp_games.engines.resources import encoding_path

    mine = tmp_path / "mine.lp"
    mine.write_text(encoding_path("puzzle", "sliding").read_text())
    b = load_boards(puzzles / "thesis-board2.txt")[0]
    out = solve(b, "asp", encoding=str(mine))
    assert (out.status, out.answer) == ("solved", 12) and out.stats["encoding"] == str(mine)


@pytest.mark.parametrize("backend", OPTIMAL)
def test_max_length_gives_bounded_no_solution(puzzles, backend):
    # a 2 x 3 board 21 moves from its goal (Manhattan distance 5): asp and sat refute
    # every horizon from 5 to the bound, as on thesis board 1 (24 moves, a bound of 20:
    # 2.2 s of CPU for asp and sat, against 0.1 s)
    b = load_boards(puzzles / "small-2x3.txt")[0]
    out = solve(b, backend, Limits(max_length=19), **quick_options(b, backend))
    assert out.status == "no-solution" and out.answer is None
    assert out.certificate == "no plan of length <= 19" and out.verdict.bound == 19
    if backend in ("asp", "sat"):  # the horizons refuted, not a lower bound above the bound
        assert out.stats["horizons"][-1] == 19
    ok = solve(b, backend, Limits(max_length=21), **quick_options(b, backend))
    assert ok.answer == 21


@pytest.mark.parametrize("backend", OPTIMAL)
@pytest.mark.xdist_group("timing")
def test_time_limit_gives_unknown_within_a_second(puzzles, backend):
    hard = load_boards(puzzles / "korf100.txt")[
        0
    ]  # 57 moves; pdb: its 6-6-3 build alone takes longer
    # the stop, not the work: a quarter of a second, but half a second where the search's
    # kernels compile after 0.35 s of CPU (their compiled slices read the deadline too)
    limit = 0.5 if backend in ("idastar", "pdb") else 0.25
    out = solve(hard, backend, Limits(time_limit=limit))
    assert out.status == "unknown" and out.answer is None and out.witness is None
    assert out.seconds < 1.5


@pytest.mark.xdist_group("timing")
def test_cadical_honours_the_time_limit(puzzles):
    hard = load_boards(puzzles / "korf100.txt")[0]
    out = solve(hard, "sat", Limits(time_limit=0.25), solver="cadical195")
    assert out.status == "unknown" and out.seconds < 1.5


def test_a_wrong_plan_is_reported_not_printed(monkeypatch):
    board = parse_board("1 2 3\n4 5 6\n7 0 8")

    def liar(board, limits=Limits()):
        return Claim.solved(1, "L")

    monkeypatch.setitem(BACKENDS, "astar", liar)
    out = solve(board, "astar")
    assert out.status == "error" and out.verdict.verified is False
    assert out.verdict.failed_status == "solved"


def test_a_false_unsolvability_claim_is_caught():
    board = parse_board("1 2 3\n4 5 6\n7 0 8")
    ok, message = check_outcome(
        board, Outcome(board.name, "x", "no-solution", certificate="parity")
    )
    assert ok is False and "solvable" in message


def test_emitted_cnf_is_the_optimal_horizon_and_solves_by_hand(tmp_path, puzzles):
    from pysat.formula import CNF
    from pysat.solvers import Solver

    b = load_boards(puzzles / "thesis-board2.txt")[0]
    path = tmp_path / "b2.cnf"
    out = solve(b, "sat", emit_cnf=path)
    text = path.read_text()
    names = {
        int(m.group(1)): tuple(m.group(2).split())
        for m in re.finditer(r"^c var (\d+) (.+)$", text, re.M)
    }
    with Solver(bootstrap_with=CNF(from_file=str(path)).clauses) as s:
        assert s.solve()
        model = s.get_model()
    blanks = sorted(
        (int(n[1]), int(n[2]))
        for v, n in names.items()
        if v in model and n[0] == "at" and n[3] == "0"
    )
    assert len(blanks) == out.answer + 1 == 13
    cols = b.cols
    plan = "".join(
        {-cols: "U", cols: "D", -1: "L", 1: "R"}[q - p]
        for (_, p), (_, q) in itertools.pairwise(blanks)
    )
    assert verify_plan(b.rows, b.cols, b.tiles, b.goal, plan).ok


def test_emitted_lp_names_the_encoding_and_holds_the_facts(tmp_path, puzzles):
    from pyasp_games.domains.puzzle.asp import write_lp
    from pyasp_games.engines.clingo_runner import ClingoSession

    b = load_boards(puzzles / "thesis-board2.txt")[0]
    path = tmp_path / "b2.lp"
    write_lp(b, "sliding", path, 12)
    text = path.read_text()
    encoding = re.search(r"^% encoding: (.+)$", text, re.M).group(1)
    assert encoding.endswith("sliding.lp") and "#const imin=12." in text
    # the facts, with the encoding, reproduce the optimum (incmode lines need a scripting clingo)
    facts = "\n".join(
        line for line in text.splitlines() if not line.startswith(("#include", "#const"))
    )
    s = ClingoSession([encoding], facts)
    s.ground([("base", [])])
    h, result, _ = s.solve_horizons(12, 12, 2)
    assert (h, result.status) == (12, "sat")
    seed = tmp_path / "seed.lp"
    write_lp(b, "seed", seed, 12)
    assert "cell(0,0,0,5)." in seed.read_text() and "-c t=12" in seed.read_text()


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([(2, 2), (2, 5), (3, 3), (4, 3), (4, 4), (5, 5), (6, 4), (7, 7)]),
    st.integers(0, 400),
    st.integers(0, 10**6),
    st.sampled_from(["blank-last", "blank-first"]),
)
def test_greedy_plans_verify_and_bound_the_optimum(size, steps, seed, goal):
    board = random_walk_board(*size, steps, seed, goal)
    out = solve(board, "greedy", Limits(time_limit=60))
    assert (
        out.status == "solved" and out.verdict.verified is True and not out.verdict.exact
    )
    if board.size <= 12:
        assert out.answer >= solve(board, "astar").answer


@pytest.mark.slow  # a speed claim at scale: a benchmark's matter, kept as an opt-in test
@pytest.mark.xdist_group("timing")
def test_greedy_handles_a_ten_by_ten_board():
    board = random_walk_board(10, 10, 3000, 7)
    out = solve(board, "greedy", Limits(time_limit=120))
    assert out.status == "solved" and out.verdict.verified is True
    out = solve(board, "greedy", Limits(time_limit=0.2))
    assert out.status == "unknown" and out.seconds < 1.2


def test_greedy_never_claims_no_solution_within_a_bound(puzzles):
    b = load_boards(puzzles / "thesis-board1.txt")[0]
    out = solve(
        b, "greedy", Limits(max_length=26)
    )  # the greedy plan is longer, an optimal one is not
    assert out.status == "unknown" and out.stats["limit"] == "max-length"


@pytest.mark.parametrize("backend", [pytest.param("asp", marks=pytest.mark.slow), "sat"])
def test_pattern_database_lower_bound_skips_horizons_and_stays_optimal(puzzles, backend):
    board = load_boards(puzzles / "thesis-board1.txt")[0]  # 24 moves; Manhattan bound 12
    plain = solve(board, backend, Limits(time_limit=120))
    strong = solve(board, backend, Limits(time_limit=120), lower_bound="pdb:4-4-4-3")
    assert plain.answer == strong.answer == board.known == 24
    assert strong.verdict.verified is True
    assert strong.stats["lower_bound"]["kind"] == "pdb:4-4-4-3"
    assert strong.stats["horizons"][0] >= plain.stats["horizons"][0]
    assert (strong.stats["horizons"][0] - plain.stats["horizons"][0]) % 2 == 0
    with pytest.raises(InputError, match="unknown lower bound"):
        solve(board, backend, lower_bound="euclid")
