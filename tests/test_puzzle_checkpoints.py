"""Resumable ``pdb`` searches (``puzzle/checkpoints.py``, ``PatternSearch.checkpoint``): a
search stopped and resumed expands exactly the nodes of one that was not and finds the
same plan; checkpoint files never overwrite anything else."""

from __future__ import annotations

import json

import pytest

from pyasp_games.domains.puzzle.checkpoints import FORMAT, CheckpointFile, search_key
from pyasp_games.domains.puzzle.databases import pattern_database, tile_partition
from pyasp_games.domains.puzzle.model import format_board
from pyasp_games.domains.puzzle.pattern_search import PatternSearch
from pyasp_games.engines.limits import Deadline, LimitReached

from .conftest import random_walk_board, run_cli

PARTITION = "4-4-4-3"


@pytest.fixture(scope="module")
def fifteen():
    """A 15-puzzle board that takes IDA* several iterations and slices, and its tables."""
    goal = "blank-first"
    dbs = [pattern_database(4, 4, goal, p) for p in tile_partition(4, 4, goal, PARTITION)]
    board = random_walk_board(4, 4, 400, 11, goal)
    return board, ([db.tiles for db in dbs], [db.table for db in dbs], [db.cell_map for db in dbs])


@pytest.fixture(scope="module")
def whole(fifteen):
    """The search of ``fifteen`` run once without a stop: what every stopped and resumed
    search must match (0.4 s of CPU, shared by the tests that compare with it)."""
    board, tables = fifteen
    search = PatternSearch(board, *tables)
    assert search.run(None)
    return search


def test_a_resumed_search_expands_the_nodes_of_an_uninterrupted_one(fifteen, whole):
    board, tables = fifteen
    saved: list[dict] = []
    # a checkpoint after every slice, each through JSON as a file holds it
    again = PatternSearch(board, *tables)
    again.run(None, save=lambda state: saved.append(json.loads(json.dumps(state))), every=0)
    assert len(saved) >= 3 and len({s["bound"] for s in saved}) >= 2, len(saved)
    assert again.nodes == whole.nodes
    for state in saved[:: max(1, len(saved) // 4)]:
        resumed = PatternSearch(board, *tables)
        assert resumed.run(None, resume=state)
        assert (resumed.nodes, resumed.plan(), resumed.thresholds) == (
            whole.nodes, whole.plan(), whole.thresholds,
        )  # fmt: skip


def test_a_search_stopped_by_its_deadline_saves_where_it_stopped(fifteen, whole):
    board, tables = fifteen
    saved: list[dict] = []
    stopped = PatternSearch(board, *tables)
    with pytest.raises(LimitReached):
        stopped.run(Deadline(0.0), save=saved.append, every=1e9)  # saved only when stopped
    assert len(saved) == 1 and 0 < saved[0]["nodes"] < whole.nodes
    resumed = PatternSearch(board, *tables)
    resumed.run(None, resume=saved[0])
    assert (resumed.nodes, resumed.plan()) == (whole.nodes, whole.plan())


def test_a_state_of_another_search_is_refused(fifteen):
    board, tables = fifteen
    saved: list[dict] = []
    with pytest.raises(LimitReached):
        PatternSearch(board, *tables).run(Deadline(0.0), save=saved.append)
    other = random_walk_board(4, 4, 400, 12, "blank-first")
    with pytest.raises(ValueError, match="not a state of this search"):
        PatternSearch(other, *tables).run(None, resume=saved[0])
    broken = {**saved[0], "path": [*saved[0]["path"][:-1], 99]}
    with pytest.raises(ValueError, match="not a state of this search"):
        PatternSearch(board, *tables).run(None, resume=broken)


def test_the_cli_resumes_from_a_checkpoint_file(tmp_path, fifteen, whole):
    board, tables = fifteen
    path = tmp_path / "b.txt"
    path.write_text("# goal: blank-first\n" + format_board(board, header=False) + "\n")
    # a file holding the state of a search stopped part-way, as a run under a limit leaves it
    saved: list[dict] = []
    with pytest.raises(LimitReached):
        PatternSearch(board, *tables).run(Deadline(0.0), save=saved.append)
    file = tmp_path / "ck.json"
    patterns = tile_partition(4, 4, "blank-first", PARTITION)
    key = search_key(board.tiles, 4, 4, "blank-first", patterns, "reflected", 10)
    CheckpointFile(file).put(key, saved[0])
    args = ("puzzle", "solve", str(path), "-b", "pdb", "--partition", PARTITION, "--checkpoint", str(file), "--json")
    first = run_cli(*args)
    out = first.json()
    assert first.code == 0 and out["answer"] == len(whole.plan()) and out["witness"] == whole.plan()
    assert out["stats"]["nodes"] == whole.nodes and out["stats"]["resumed"].startswith("at ")
    # the finished search is kept: a later run answers from the file, and checks the plan again
    assert json.loads(file.read_text())["searches"][key]["plan"] == whole.plan()
    second = run_cli(*args).json()
    assert second["witness"] == whole.plan() and second["stats"]["resumed"] == "from a finished search"
    assert second["stats"]["verified"] is True
    # a finished entry whose plan is not the length its search ended at (a longer plan
    # that still reaches the goal) is refused, never answered as the optimum
    data = json.loads(file.read_text())
    plan = whole.plan()
    undo = {"U": "D", "D": "U", "L": "R", "R": "L"}[plan[-1]]
    data["searches"][key]["plan"] = plan + undo + plan[-1]
    file.write_text(json.dumps(data))
    tampered = run_cli(*args)
    assert tampered.code == 2 and "does not match its last threshold" in tampered.stderr


def test_a_file_that_is_not_a_checkpoint_is_never_overwritten(tmp_path, fifteen):
    board, _ = fifteen
    path = tmp_path / "b.txt"
    text = "# goal: blank-first\n" + format_board(board, header=False) + "\n"
    path.write_text(text)
    # the board file itself given as the checkpoint: refused, untouched
    run = run_cli("puzzle", "solve", str(path), "-b", "pdb", "--partition", PARTITION, "--checkpoint", str(path))
    assert run.code == 2 and "not a checkpoint file" in run.stderr and "Traceback" not in run.stderr
    assert path.read_text() == text
    missing = run_cli("puzzle", "solve", str(path), "-b", "pdb", "--checkpoint", str(tmp_path / "no" / "ck.json"))
    assert missing.code == 2 and "no folder" in missing.stderr
    # a new file is a checkpoint file
    fresh = run_cli("puzzle", "solve", str(path), "-b", "pdb", "--partition", PARTITION,
                    "--checkpoint", str(tmp_path / "ck.json"))  # fmt: skip
    assert fresh.code == 0 and json.loads((tmp_path / "ck.json").read_text())["format"] == FORMAT
