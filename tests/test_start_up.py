"""What a command imports is what it pays for at every start (issue 32, section 3).

The puzzle's ASP backend with its optimality proof is measured against two bare clingo
calls of the same encoding, whole processes (``benchmarks/puzzle_asp_default.py
--processes``): the pattern databases (numpy) load only for ``--prune pdb`` and
``--lower-bound pdb``, not for every ``puzzle solve -b asp``.
"""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from pyasp_games.engines.child import python_code
from pyasp_games.engines.resources import instance_dir

from .conftest import assert_bad_input, run_cli


def test_the_puzzle_planners_load_no_numpy_until_asked():
    code = (
        "import sys; import pyasp_games.domains.puzzle.asp, pyasp_games.domains.puzzle.sat;"
        " import pyasp_games.domains.puzzle.questions;"
        " print('numpy' in sys.modules)"
    )
    done = subprocess.run(python_code(code), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_a_command_converts_its_options_without_pydantic():
    """typer converts option values through pydantic (0.13 s of CPU per process to load
    it and build its adapters); the command line's own converters
    (:mod:`pyasp_games.cli.values`) leave it unloaded. A typer that keeps its converters
    elsewhere fails this test: the start-up cost is back, and to be found."""
    code = (
        "import sys; from pyasp_games.cli import main\n"
        "try:\n"
        "    main(['puzzle', 'solve', sys.argv[1], '-b', 'astar', '--time-limit', '60',"
        " '--cpu-limit', '60', '--json'], enforce=False)\n"
        "except SystemExit as done:\n"
        "    print(done.code, 'pydantic' in sys.modules)"
    )
    board = instance_dir("puzzle") / "eight-puzzle-hardest.txt"
    done = subprocess.run(
        python_code(code, str(board)), capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "0 False"


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--time-limit", "٧"], "Invalid value for '--time-limit': '٧' is not a number"),
        (["--time-limit", ""], "'' is not a number"),
        (["--workers", "1_0"], "'1_0' is not an integer (ASCII digits only)"),
        (["-b", "bfs"], "'bfs' is not one of 'astar', 'idastar'"),
    ],
)
def test_the_plain_converters_refuse_what_pydantic_refused(args, fragment):
    board = instance_dir("puzzle") / "eight-puzzle-hardest.txt"
    assert_bad_input(run_cli("puzzle", "solve", board, *args), fragment)


def test_the_plain_converters_read_what_pydantic_read():
    board = instance_dir("puzzle") / "eight-puzzle-hardest.txt"
    run = run_cli("puzzle", "solve", board, "-b", "ASTAR", "--time-limit", " 6_0 ", "--json")
    assert run.code == 0, run.stderr
    assert {json.loads(line)["backend"] for line in run.stdout.splitlines()} == {"astar"}
    nim = run_cli("games", "nim", "1", "2", "3")  # a list of integers
    assert nim.code == 0 and "XOR 0" in nim.stdout, nim.stderr


def test_a_switch_given_as_a_word_and_a_path_checked_as_typer_checks_it(tmp_path):
    from pyasp_games.cli.values import _truth

    words = ("yes", " On", "0", "", True)
    assert [_truth(word, None, None) for word in words] == [True, True, False, False, True]
    with pytest.raises(ValueError, match="not a valid boolean"):
        _truth("maybe", None, None)
    board = instance_dir("puzzle") / "eight-puzzle-hardest.txt"
    target = tmp_path / "board.cnf"  # a path option: the file the user has is kept
    target.write_text("mine\n")
    run = run_cli("puzzle", "solve", board, "-b", "sat", "--emit-cnf", target)
    assert_bad_input(run, "--force")
    assert target.read_text() == "mine\n"


def test_knuths_estimate_of_the_search_tree_is_near_its_size_and_changes_nothing():
    from pyasp_games.domains.cover.dancing_links import DancingLinks
    from pyasp_games.domains.cover.model import random_x3c

    for q, seed in ((12, 1), (20, 2)):
        inst = random_x3c(q, 4, False, seed)
        probed = DancingLinks(inst.size, inst.subsets)
        before = {name: list(values) for name, values in probed.arrays.items()}
        estimate = probed.estimated_nodes(probes=64)
        assert {name: list(values) for name, values in probed.arrays.items()} == before
        counted = DancingLinks(inst.size, inst.subsets)
        counted.count()
        assert counted.nodes / 4 <= estimate <= counted.nodes * 4, (estimate, counted.nodes)


def test_a_search_seen_to_outgrow_the_interpreted_phase_is_compiled_at_once():
    from pyasp_games.engines.compiled import INTERPRETED_SECONDS, _outgrows

    # 1,000 steps in 10 ms: 100,000 steps a second
    rate = 1000 / 0.01
    assert _outgrows(2 * rate * INTERPRETED_SECONDS, 1000, 0.01)
    assert not _outgrows(rate * INTERPRETED_SECONDS / 2, 1000, 0.01)
    assert not _outgrows(None, 1000, 0.01)


def test_numba_loads_the_kernels_without_what_they_do_not_use():
    """numba's first load imports scipy.linalg (0.22 s of CPU, for np.dot) and cffi's
    parser unless refused, and refreshes its whole compiler (every registry, 0.13 s)
    before loading a cached kernel; the kernels load without either, search as before,
    and scipy.linalg and cffi import as ever afterwards."""
    code = (
        "import sys\n"
        "from pyasp_games.engines.compiled import compile_kernels\n"
        "import pyasp_games.domains.cover.dancing_links as links\n"
        "compile_kernels(links.__name__)\n"
        "print(sorted(m for m in ('scipy', 'scipy.linalg', 'cffi') if m in sys.modules))\n"
        "from numba.core.caching import Cache\n"  # numba's own method again
        "load = Cache.load_overload.__module__ == 'numba.core.caching'\n"
        "print('numba.np.arraymath' in sys.modules, load)\n"
        "print(list(links.DancingLinks(2, [[0], [1], [0, 1]]).search()))\n"
        "import scipy.linalg\n"
        "print(scipy.linalg.det([[2.0]]))"
    )
    numba_way = {**os.environ, "PYASP_GAMES_MACHINE_CODE": "0"}  # not the kept machine code
    for _ in range(2):  # the first may compile and cache the kernels; the second loads them
        done = subprocess.run(
            python_code(code), capture_output=True, text=True, timeout=300, env=numba_way
        )
        assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:4] == ["[]", "False True", "[[0, 1], [2]]", "2.0"]


def test_the_command_leaves_without_tear_down_but_with_its_output_and_exit_hooks(tmp_path):
    """The console command ends by ``os._exit`` once its output is flushed (Python's
    tear-down of a process that loaded numba costs 0.27 s of CPU): every line arrives
    through the pipe, the exit code is the command's, and what was registered with
    ``atexit`` still runs."""
    marker = tmp_path / "atexit-ran"
    code = (
        "import atexit, sys\n"
        "atexit.register(lambda: open(sys.argv[1], 'w').write('yes'))\n"
        "class Freed:\n"  # freed by Python's tear-down only
        "    def __del__(self, path=sys.argv[1] + '.freed', open=open):\n"
        "        open(path, 'w').write('freed')\n"
        "kept = Freed()\n"
        "from pyasp_games.cli import main\n"
        "main(sys.argv[2:])\n"
    )
    boards = instance_dir("puzzle") / "small-2x3.txt"
    for args, code_expected, lines in (
        (["puzzle", "solve", str(boards), "--json"], 0, 5),  # five boards, five JSON lines
        (["puzzle", "solve", str(tmp_path / "missing.txt")], 2, 0),
    ):
        marker.unlink(missing_ok=True)
        done = subprocess.run(
            python_code(code, str(marker), *args), capture_output=True, text=True, timeout=120
        )
        assert len(done.stdout.splitlines()) == lines, done.stdout
        assert done.returncode == code_expected, done.stderr
        assert marker.read_text() == "yes"
        assert not (tmp_path / "atexit-ran.freed").exists()  # no tear-down
