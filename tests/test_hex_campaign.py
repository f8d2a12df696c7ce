"""The campaign of Hex openings (issue 46): the 7 x 7 suite, the published 7 x 7 map as
bundled, and the map of a tiny campaign (3 x 3, run as bench runs it) compared cell by cell
with a map computed here by plain minimax."""

from __future__ import annotations

from pathlib import Path

import pytest

from pyasp_games.domains.hex.model import board, opening
from pyasp_games.errors import InputError
from pyasp_games.tools.bench.campaign import local_executor, plan_campaign, run_campaign
from pyasp_games.tools.bench.hex_openings import (
    asymmetric_cells,
    campaign_map,
    compare,
    half_turn_image,
    parse_map,
    read_map,
    report,
)
from pyasp_games.tools.bench.suite import read_suite

from .test_hex import brute_force

ROOT = Path(__file__).resolve().parent.parent
SUITE = ROOT / "benchmarks" / "suites" / "hex-7x7-openings.toml"
HAYWARD = ROOT / "instances" / "hex" / "hayward-7x7-map.txt"

TINY = """
name = "hex-3x3-openings"
domain = "hex"
backends = ["native"]
time_limit = 60
cpu_limit = 30
[[instances]]
generator = "opening"
params = { size = 3 }
grid = { cell = ["a1", "b1", "c1", "a2", "b2"] }
"""


def test_the_7x7_suite_runs_every_opening_of_half_the_board_under_a_cpu_cap():
    suite = read_suite(SUITE)
    plan = plan_campaign(suite)
    cells = [ref.ref["params"]["cell"] for ref, _ in plan.instances]
    assert len(cells) == len(set(cells)) == 25 and suite.backends == ["native"]
    assert suite.cpu_limit and suite.cpu_limit < suite.time_limit
    # with their half-turn images the 25 cover the board
    assert {c for cell in cells for c in (cell, half_turn_image(cell, 7))} == set(board(7, 7).cells)
    for ref, game in plan.instances:
        assert game.to_move == "W" and game.stones_of("B") == [ref.ref["params"]["cell"]]


def test_the_published_7x7_map_has_49_cells_and_the_half_turn_symmetry():
    published = read_map(HAYWARD)
    assert published.size == 7 and len(published.sourced()) == 49
    assert asymmetric_cells(published.winners, 7) == []
    # facts every source states: the centre wins, the acute corners lose, the obtuse win
    assert [published.winners[c] for c in ("d4", "a1", "g7", "g1", "a7")] == [
        "black",
        "white",
        "white",
        "black",
        "black",
    ]


def test_a_tiny_campaign_is_mapped_and_compared_cell_by_cell(tmp_path):
    (tmp_path / "suite.toml").write_text(TINY)
    with local_executor(1) as pool:
        run_campaign(plan_campaign(read_suite(tmp_path / "suite.toml")), tmp_path / "out", pool)
    cells = board(3, 3).cells
    truth = {c: brute_force(opening(size=3, cell=c)) for c in cells}
    rows = "\n".join(
        f"{r + 1} " + " ".join(truth[c][0].upper() for c in cells[3 * r : 3 * r + 3])
        for r in range(3)
    )
    text, summary = report(tmp_path / "out", parse_map(rows))
    assert summary["map"] == truth  # 5 searched, 4 by the half turn
    assert summary["comparison"]["counts"] == {
        "agree": 9,
        "DISAGREE": 0,
        "unsolved": 0,
        "unsourced": 0,
    }
    assert "CPU s" in text and "| b1 (b3) |" in text
    # a published map with one cell flipped and one unstated: one disagreement, one unsourced
    flipped = {**truth, "c1": "white" if truth["c1"] == "black" else "black"}
    letters = [flipped[c][0].upper() for c in cells]
    letters[cells.index("a1")] = "?"
    wrong = parse_map(
        "\n".join(f"{r + 1} " + " ".join(letters[3 * r : 3 * r + 3]) for r in range(3))
    )
    verdicts = {
        c.cell: c.verdict for c in compare(campaign_map(summary_rows(tmp_path / "out"), 3), wrong)
    }
    assert verdicts.pop("c1") == "DISAGREE" and verdicts.pop("a1") == "unsourced"
    assert set(verdicts.values()) == {"agree"}


def summary_rows(out: Path) -> list[dict]:
    from pyasp_games.tools.bench.results import read_rows

    return read_rows(out)


def test_unsolved_cells_stay_unsolved_and_bad_maps_are_refused():
    row = {
        "instance": "x",
        "backend": "native",
        "repeat": 0,
        "size": {"size": 3, "cell": "b1"},
        "status": "unknown",
        "answer": None,
        "verified": False,
        "cpu": 30.0,
        "stats": {},
    }
    ours = campaign_map([row], 3)
    assert ours["b1"].winner is None and ours["b3"].source == "image of b1"
    assert ours["a1"].status == "not run"
    assert {c.verdict for c in compare(ours, parse_map("1 W W B\n2 B B B\n3 B W W"))} == {
        "unsolved"
    }
    for text in ("1 W W\n2 B", "2 W W\n1 W W", "1 W X\n2 W W", "a b\nrow W W"):
        with pytest.raises(InputError):
            parse_map(text)
    with pytest.raises(InputError, match="no cell"):
        opening(size=3, cell="d1")
