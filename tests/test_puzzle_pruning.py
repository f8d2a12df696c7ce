"""Pattern-database pruning inside the solvers (clingo propagator, IPASIR-UP engine) and
the SAT encoding's away-move counter: still optimal, plans verify, limits hold."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyasp_games.domains.puzzle import load_boards, parse_board, solve
from pyasp_games.domains.puzzle.databases import tile_partition
from pyasp_games.domains.puzzle.verify import verify_plan
from pyasp_games.engines.limits import Limits
from pyasp_games.errors import InputError

from .conftest import assert_bad_input, random_walk_board, run_cli

#: Small patterns per board size: each database builds in well under a second.
SMALL = {(3, 3): "4-4", (3, 4): "4-4-3", (4, 4): "4-4-4-3"}

VARIANTS = [
    ("asp", {"prune": "pdb"}),
    ("sat", {"prune": "pdb"}),
    ("sat", {"away_counter": False}),
    ("sat", {"away_counter": True, "solver": "minisat22"}),
    ("sat", {"prune": "pdb", "away_counter": False}),
]


def _options(board, options: dict) -> dict:
    out = dict(options)
    if "prune" in out:
        out["prune"] = f"pdb:{SMALL[board.rows, board.cols]}"
    return out


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(sorted(SMALL)),
    st.integers(0, 30),
    st.integers(0, 10**6),
    st.sampled_from(["blank-last", "blank-first"]),
    st.sampled_from(range(len(VARIANTS))),
)
def test_pruned_solvers_stay_optimal_and_plans_verify(size, steps, seed, goal, variant):
    board = random_walk_board(*size, steps, seed, goal)
    backend, options = VARIANTS[variant]
    reference = solve(board, "astar", Limits(time_limit=60))
    out = solve(board, backend, Limits(time_limit=120), **_options(board, options))
    assert out.status == "solved", (backend, options, out.status, out.stats)
    assert out.verdict.verified is True
    assert verify_plan(board.rows, board.cols, board.tiles, board.goal, out.witness).ok
    assert out.answer == reference.answer
    if "prune" in options:
        assert out.stats["propagator"]["prune"] == _options(board, options)["prune"]


@pytest.mark.parametrize(
    "size",
    [size if size != (4, 4) else pytest.param(size, marks=pytest.mark.slow) for size in sorted(SMALL)],
)  # 4 x 4: the same property at the largest board, 3 s of CPU: slow
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_every_variant_on_every_size(size, variant):
    """One fixed 24-step random walk per board size and variant: the A* length, verified
    (every variant refutes at least one horizon below it; 30 steps took 4x as long)."""
    board = random_walk_board(*size, 24, 2026 + variant, "blank-last")
    backend, options = VARIANTS[variant]
    out = solve(board, backend, Limits(time_limit=120), **_options(board, options))
    assert out.status == "solved" and out.verdict.verified is True
    assert out.answer == solve(board, "astar", Limits(time_limit=60)).answer


@pytest.mark.slow  # thesis board 1 from the Manhattan bound; 3 x 3 and 3 x 4 boards are the default
@pytest.mark.parametrize("backend", ["asp", "sat"])
def test_pruning_proves_a_deep_board_and_cuts(puzzles, backend):
    """Thesis board 1 (24 moves) from the Manhattan bound: every lower horizon refuted."""
    board = load_boards(puzzles / "thesis-board1.txt")[0]
    out = solve(board, backend, Limits(time_limit=120), prune="pdb:4-4-4-3")
    assert (out.status, out.answer, out.verdict.verified) == ("solved", 24, True)
    assert out.stats["horizons"] == list(range(12, 26, 2))
    cuts = out.stats["propagator"]["nogoods" if backend == "asp" else "clauses"]
    assert cuts > 0  # the databases did prune


def test_the_propagator_applies_to_a_user_encoding(tmp_path, puzzles):
    from pyasp_games.engines.resources import encoding_path

    mine = tmp_path / "mine.lp"
    mine.write_text(encoding_path("puzzle", "sliding").read_text())
    board = load_boards(puzzles / "thesis-board1.txt")[0]
    out = solve(board, "asp", Limits(time_limit=120), encoding=str(mine), prune="pdb:4-4-4-3")
    assert (out.answer, out.verdict.verified) == (24, True)
    assert out.stats["propagator"]["nogoods"] > 0


@pytest.mark.parametrize("backend", ["asp", "sat"])
@pytest.mark.xdist_group("timing")
def test_pruning_honours_the_time_limit(puzzles, backend):
    hard = load_boards(puzzles / "korf100.txt")[0]  # 57 moves
    out = solve(hard, backend, Limits(time_limit=0.75), prune="pdb:4-4-4-3")
    assert out.status == "unknown" and out.answer is None and out.seconds < 2.25


def test_pruning_options_are_checked(puzzles):
    board = parse_board("1 2 3\n4 5 6\n7 0 8")
    with pytest.raises(InputError, match="unknown pruning"):
        solve(board, "asp", prune="linear")
    with pytest.raises(InputError, match="unknown pruning"):
        solve(board, "sat", prune="linear")
    with pytest.raises(InputError, match="cadical195"):
        solve(board, "sat", prune="pdb", solver="glucose4")
    with pytest.raises(InputError, match="multi-shot"):
        solve(load_boards(puzzles / "thesis-board2.txt")[0], "asp", encoding="seed", prune="pdb")


def test_partitions_by_group_sizes_on_any_board():
    assert tile_partition(3, 4, "blank-last", "4-4-3") == ((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11))
    with pytest.raises(InputError, match="adding up to 8"):
        tile_partition(3, 3, "blank-last", "4-3")


@pytest.mark.parametrize("backend", ["asp", "sat"])
def test_cli_prune_option(puzzles, backend):
    board = puzzles / "thesis-board2.txt"
    run = run_cli("puzzle", "solve", board, "-b", backend, "--prune", "pdb:4-4-4-3", "--json")
    out = run.json()
    assert run.code == 0 and (out["status"], out["answer"]) == ("solved", 12)
    assert out["stats"]["propagator"]["prune"] == "pdb:4-4-4-3"


def test_cli_prune_is_for_asp_and_sat_only(puzzles):
    run = run_cli("puzzle", "solve", puzzles / "thesis-board2.txt", "--prune", "pdb")
    assert_bad_input(run, "--prune")
