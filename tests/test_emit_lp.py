"""Files written by ``--emit-lp`` run as their ``% run:`` line says, and give the answer."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from pyasp_games.domains.puzzle.model import load_boards
from pyasp_games.domains.puzzle.verify import verify_plan
from pyasp_games.engines.resources import instance_dir

from .conftest import run_cli

LETTER = {"u": "U", "d": "D", "l": "L", "r": "R", "up": "U", "down": "D", "left": "L", "right": "R"}


def run_as_printed(path: Path) -> str:
    """Run the file by the call its ``% run:`` line gives, exactly as printed (pip installs
    no ``clingo`` program: the call is ``python -m``, of our incmode runner where the
    program is incremental, since ``python -m clingo`` ignores ``<incmode>``)."""
    text = path.read_text()
    line = next(x for x in text.splitlines() if x.startswith("% run: "))
    args = shlex.split(line[len("% run: ") :])
    files = [Path(a) for a in args if a.endswith(".lp")]
    incremental = any("#include <incmode>." in f.read_text() for f in files)
    runner = "pyasp_games.engines.incmode" if incremental else "clingo"
    assert args[:3] == ["python", "-m", runner] and Path(args[-1]) == path, line
    proc = subprocess.run(
        [sys.executable, *args[1:]], capture_output=True, text=True, timeout=60, cwd=path.parent
    )
    assert proc.returncode in (0, 10, 20, 30), proc.stderr  # clingo's answer codes
    return proc.stdout


@pytest.mark.parametrize("encoding", ["sliding", "seed"])
def test_an_emitted_puzzle_runs_as_printed_and_gives_an_optimal_plan(tmp_path, encoding):
    board_file = instance_dir("puzzle") / "thesis-board2.txt"
    run = run_cli(
        "puzzle", "solve", board_file, "-b", "asp", "--encoding", encoding,
        "--emit-lp", tmp_path / "board.lp",
    )  # fmt: skip
    assert run.code == 0, run.stderr
    out = run_as_printed(tmp_path / "board.lp")
    moves = sorted(
        (int(t), LETTER[d]) for t, d in re.findall(r"\bmove\((\d+),(\w+)\)", out)
    )
    plan = "".join(d for _, d in moves)
    board = load_boards(board_file)[0]
    assert len(plan) == 12
    assert verify_plan(board.rows, board.cols, board.tiles, board.goal, plan).ok


def test_incmode_is_included_once_whether_or_not_the_encoding_includes_it(tmp_path):
    from pyasp_games.domains.puzzle.asp import write_lp
    from pyasp_games.engines.incmode import solve_incrementally
    from pyasp_games.engines.resources import encoding_path

    board = load_boards(instance_dir("puzzle") / "thesis-board2.txt")[0]
    sliding = encoding_path("puzzle", "sliding")
    assert "\n#include <incmode>.\n" in sliding.read_text()  # it runs by itself under clingo
    mine = tmp_path / "mine.lp"  # a user's encoding without the include
    mine.write_text(sliding.read_text().replace("\n#include <incmode>.\n", "\n"))
    for encoding in (sliding, mine):
        facts = tmp_path / f"{encoding.stem}-facts.lp"
        write_lp(board, str(encoding), facts)
        files = (encoding, facts)
        assert sum(f.read_text().count("#include <incmode>.") for f in files) == 1
        horizon, atoms = solve_incrementally(files)
        assert horizon == 12 and atoms is not None and len(atoms) == 12


def test_an_emitted_unsolvable_puzzle_stops(tmp_path):
    board_file = instance_dir("puzzle") / "thesis-board3.txt"
    run = run_cli("puzzle", "solve", board_file, "-b", "asp", "--emit-lp", tmp_path / "b.lp")
    assert run.code == 0
    assert "UNSATISFIABLE" in run_as_printed(tmp_path / "b.lp")


def test_emitted_cover_grundy_and_geography_files_run_as_printed(tmp_path):
    cover = tmp_path / "cover.lp"
    run_cli("cover", "solve", instance_dir("cover") / "tiny-cover.txt", "-b", "asp",
            "--emit-lp", cover)  # fmt: skip
    assert re.search(r"chosen\(0\) chosen\(1\)|chosen\(1\) chosen\(0\)", run_as_printed(cover))
    grundy = tmp_path / "grundy.lp"
    run_cli("grundy", "exists", instance_dir("grundy") / "cycle4.txt", "-b", "asp",
            "--emit-lp", grundy)  # fmt: skip
    assert run_as_printed(grundy).count("Answer:") == 2  # the two Grundy functions
    geo = tmp_path / "geo.lp"
    run_cli("geography", "solve", instance_dir("geography") / "cycle3-edge.txt", "-b", "asp",
            "--emit-lp", geo)  # fmt: skip
    assert "first_wins" in run_as_printed(geo)


def test_emitted_routing_files_run_as_printed(tmp_path):
    # the reversal of P_5 takes 5 matching steps; an unsolvable sliding arrangement stops
    folder = instance_dir("routing")
    reversal = tmp_path / "reversal.lp"
    run = run_cli("routing", "solve", "path:5", folder / "path5-reversal.txt", "-b", "asp",
                  "--emit-lp", reversal)  # fmt: skip
    assert run.code == 0, run.stderr
    out = run_as_printed(reversal)
    steps = {int(t) for t in re.findall(r"\bswap\(\d+,\d+,(\d+)\)", out)}
    assert steps == {1, 2, 3, 4, 5}, out
    stuck = tmp_path / "stuck.lp"
    run = run_cli("routing", "solve", "grid:2x3", folder / "grid2x3-blank-unsolvable.txt", "-b", "asp",
                  "--emit-lp", stuck)  # fmt: skip
    assert run.code == 0, run.stderr
    assert "UNSATISFIABLE" in run_as_printed(stuck)


def test_routing_lp_runs_with_the_call_its_readme_gives(tmp_path):
    # the README's two lines, as written there, run from the repository root
    root = Path(__file__).parents[1]
    text = (root / "encodings" / "routing" / "README.md").read_text()
    block = text.split("Run by hand", 1)[1].split("```\n", 2)[1]
    emit, call = [shlex.split(line) for line in block.splitlines() if line.strip()]
    facts = tmp_path / "facts.lp"
    assert emit[0] == "pyasp-games" and emit[-1] == "facts.lp" and call[-1] == "facts.lp"
    given = [root / a if (root / a).is_file() else a for a in emit[1:-1]]  # from the root
    run = run_cli(*given, facts)
    assert run.code == 0, run.stderr
    assert call[:3] == ["python", "-m", "pyasp_games.engines.incmode"]
    proc = subprocess.run([sys.executable, *call[1:-1], str(facts)], capture_output=True,
                          text=True, timeout=60, cwd=root)  # fmt: skip
    assert proc.returncode == 10, proc.stdout + proc.stderr  # satisfiable
    steps = {int(t) for t in re.findall(r"\bswap\(\d+,\d+,(\d+)\)", proc.stdout)}
    assert steps == {1, 2, 3, 4, 5}, proc.stdout  # the reversal of P_5: 5 matching steps


def test_the_encodings_use_one_vocabulary_for_the_solvers_helpers():
    root = Path(__file__).parents[1] / "encodings"
    labels = re.compile(r"^%\s*(pruning|symmetry|[a-z]+ cut)\b.*\(sound\)", re.I | re.M)
    for lp in root.glob("*/*.lp"):
        assert not labels.search(lp.read_text()), f"{lp}: label it Redundant: or Dominance:"
    for name in ("routing/routing.lp", "routing/swap.lp", "zerosum/support.lp", "puzzle/sliding.lp"):
        assert "% Dominance" in (root / name).read_text(), name
    for name in ("routing/routing.lp", "routing/matching.lp", "routing/blank.lp", "cover/x3c-card.lp"):
        assert "% Redundant" in (root / name).read_text(), name


def test_emitted_kernel_kriegspiel_and_saddle_files_run_as_printed(tmp_path):
    # the 4-cycle a->b->c->d->a has two kernels: {a, c} and {b, d}
    kernel = tmp_path / "kernel.lp"
    run = run_cli("grundy", "kernel", instance_dir("grundy") / "cycle4.txt", "-b", "asp",
                  "--emit-lp", kernel)  # fmt: skip
    assert run.code == 0, run.stderr
    kernels = {
        frozenset(re.findall(r"\bin\((\d+)\)", line))
        for line in run_as_printed(kernel).splitlines() if line.startswith("in(")
    }
    assert kernels == {frozenset({"0", "2"}), frozenset({"1", "3"})}
    # KRK on 3 x 3, the black king on one of three squares: mate in 4 at worst, so the
    # incremental program first answers at horizon 4
    krk = tmp_path / "krk.lp"
    run = run_cli("kriegspiel", "solve", "?1?/2?/KR1", "-b", "asp", "--emit-lp", krk)
    assert run.code == 0 and "mates in 4 moves" in run.stdout, run.stdout + run.stderr
    assert re.findall(r"Answer at horizon (\d+)", run_as_printed(krk)) == ["4"]
    # the saddle point of [[3, 1], [4, 2]] is (row 2, column 2), 0-based (1, 1)
    saddle = tmp_path / "saddle.lp"
    run = run_cli("zerosum", "saddle", instance_dir("zerosum") / "saddle.txt", "-b", "asp",
                  "--emit-lp", saddle)  # fmt: skip
    assert run.code == 0, run.stderr
    assert re.findall(r"\bsaddle\((\d+),(\d+)\)", run_as_printed(saddle)) == [("1", "1")]
