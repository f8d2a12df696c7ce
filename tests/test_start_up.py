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


def test_a_light_command_loads_no_solver_library():
    """``cover solve tiny-cover.txt`` (issue 46: at most 0.18 s of CPU as a process) loads
    what it runs and no more: no clingo, PySAT, numba (nor its llvmlite), numpy,
    networkx, rich or pydantic, though its group offers backends that use them."""
    heavy = ("clingo", "pysat", "numba", "llvmlite", "numpy", "networkx", "rich", "pydantic")
    code = (
        "import sys; from pyasp_games.cli import main\n"
        "try:\n"
        "    main(['cover', 'solve', sys.argv[1]], enforce=False)\n"
        "except SystemExit as done:\n"
        f"    print(done.code, sorted(m for m in {heavy!r} if m in sys.modules))"
    )
    tiny = instance_dir("cover") / "tiny-cover.txt"
    done = subprocess.run(python_code(code, str(tiny)), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "an exact cover exists" in done.stdout
    assert done.stdout.strip().splitlines()[-1] == "0 []"


def test_kept_machine_code_runs_as_the_kernel_and_refuses_what_it_cannot_take(tmp_path, monkeypatch):
    """A kernel module with ``MACHINE_CODE = True``: once numba has compiled it, its
    wrappers' object code is kept, and a load binds each kernel called from Python to
    it (arrays, integers, a yes/no); it computes what the source computes, refuses an
    array of another type (its address would be read as the wrong numbers), and a
    damaged file is no load (numba's way then)."""
    import importlib
    import sys
    from array import array

    from pyasp_games.engines import compiled, machine_code

    (tmp_path / "kept_kernels.py").write_text(
        "from pyasp_games.engines.compiled import kernel\n"
        "MACHINE_CODE = True\n\n"
        "@kernel\ndef _weight(x):\n    return 3 * x + 1\n\n"
        "@kernel\ndef total(values, out, start, twice):\n"
        "    s = start\n"
        "    for i in range(len(values)):\n"
        "        s += _weight(values[i])\n"
        "        out[i] = s\n"
        "    return 2 * s if twice else s\n\n"
        "def warm_up():\n"
        "    import numpy as np\n"
        "    total(np.zeros(2, dtype=np.int64), np.zeros(2, dtype=np.int64), 0, True)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("kept_kernels")
    source = module.total
    try:
        out = [0, 0, 0]
        assert source([1, 2, 5], out, 4, True) == 2 * 4 + 2 * (4 + 7 + 16) and out == [8, 15, 31]
        compiled.compile_kernels("kept_kernels")  # numba's way, the machine code kept
        names = compiled._names("kept_kernels")
        assert machine_code.kept(module, names)
        assert machine_code.load(module, names)
        loaded = module.total
        assert loaded is not source and loaded.machine_code
        out = array("q", [0, 0, 0])
        assert loaded(array("q", [1, 2, 5]), out, 4, True) == 2 * 31 and list(out) == [8, 15, 31]
        assert loaded(array("q", [1, 2, 5]), out, 4, False) == 31
        with pytest.raises(TypeError, match="int64"):
            loaded(array("i", [1, 2, 5]), out, 4, False)  # 32-bit: not what the code reads
        with pytest.raises(TypeError, match="int64"):
            loaded([1, 2, 5], out, 4, False)
        path = machine_code._file(module, names, create=False)
        path.write_text(path.read_text()[:-200])  # cut short
        assert not machine_code.load(module, names)
    finally:
        sys.modules.pop("kept_kernels", None)
        compiled._COMPILED.discard("kept_kernels")
        compiled._MACHINE_CODE.discard("kept_kernels")


def test_dancing_links_load_their_kept_machine_code_without_numba():
    """The ``dlx`` kernels kept (here, compiled in this process first if need be) are
    loaded by a new process with neither numba nor numpy imported, and search the same
    tree as their source: the same covers in the same order, the same node count."""
    from pyasp_games.domains.cover import dancing_links
    from pyasp_games.domains.cover.model import random_x3c
    from pyasp_games.engines import compiled, machine_code

    compiled.compile_kernels(dancing_links.__name__)  # numba's way keeps the code
    assert machine_code.kept(dancing_links, compiled._names(dancing_links.__name__))
    instances = [(12, 4, True, 3), (14, 4, False, 1)]
    expected = []
    for q, d, planted, seed in instances:
        inst = random_x3c(q, d, planted, seed)
        links = dancing_links.DancingLinks(inst.size, inst.subsets)
        expected.append([list(links.search()), links.nodes])
    code = (
        "import sys, json\n"
        "from pyasp_games.engines import compiled\n"
        "from pyasp_games.domains.cover import dancing_links as dl\n"
        "from pyasp_games.domains.cover.model import random_x3c\n"
        "compiled.compile_kernels(dl.__name__)\n"
        "found = []\n"
        f"for q, d, planted, seed in {instances!r}:\n"
        "    inst = random_x3c(q, d, planted, seed)\n"
        "    links = dl.DancingLinks(inst.size, inst.subsets)\n"
        "    found.append([list(links.search()), links.nodes])\n"
        "print(json.dumps(found))\n"
        "print(dl.__name__ in compiled._MACHINE_CODE, 'numba' in sys.modules, 'numpy' in sys.modules)"
    )
    done = subprocess.run(python_code(code), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    found, modules = done.stdout.strip().splitlines()
    assert json.loads(found) == expected and any(covers for covers, _ in expected)
    assert modules == "True False False"


@pytest.mark.parametrize("kept", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_a_kernel_is_compiled_again_when_what_it_calls_changes(tmp_path, monkeypatch, kept):
    """numba keyed a kernel's cached machine code by its own bytecode and its own file's
    stamp, though the code holds its callees' code and the constants it reads: a change
    in another module (a shared kernel's body, a constant imported) went unseen, and the
    old code ran until the kernel's file changed. Each round here is a new process's view
    (the modules imported afresh, the kernels compiled or loaded from the caches)."""
    import importlib
    import sys

    from pyasp_games.engines import compiled

    package = tmp_path / "stale_kernels"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "kern.py").write_text(
        "from pyasp_games.engines.compiled import kernel\n"
        "from stale_kernels.helpers import offset\n"
        "from stale_kernels.sizes import SCALE\n"
        f"MACHINE_CODE = {kept}\n\n"
        "@kernel\ndef scaled(x):\n    return SCALE * offset(x)\n\n"
        "def warm_up():\n    scaled(1)\n"
    )

    def write(step: int, scale: int) -> None:
        (package / "helpers.py").write_text(
            "from pyasp_games.engines.compiled import shared_kernel\n\n"
            f"@shared_kernel\ndef offset(x):\n    return x + {step}\n"
        )
        (package / "sizes.py").write_text(f"SCALE = {scale}\n")

    def result() -> tuple[int, int]:
        for name in [m for m in sys.modules if m.partition(".")[0] == "stale_kernels"]:
            del sys.modules[name]
        compiled._COMPILED.discard("stale_kernels.kern")
        compiled._MACHINE_CODE.discard("stale_kernels.kern")
        module = importlib.import_module("stale_kernels.kern")
        compiled.compile_kernels("stale_kernels.kern")
        loaded = getattr(module.scaled, "stats", None)  # numba's dispatcher (not kept code)
        return module.scaled(1), -1 if loaded is None else sum(loaded.cache_hits.values())

    monkeypatch.setattr(sys, "dont_write_bytecode", True)  # a rewrite in the same second
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        write(1, 2)
        assert result()[0] == 4
        write(5, 2)  # the callee's body
        assert result()[0] == 12
        write(5, 3)  # a constant of a third module
        assert result()[0] == 18
        # nothing changed: loaded, not compiled again (numba's cache, or the kept code)
        assert result() == (18, -1 if kept else 1)
    finally:
        for name in [m for m in sys.modules if m.partition(".")[0] == "stale_kernels"]:
            del sys.modules[name]
        compiled._COMPILED.discard("stale_kernels.kern")
        compiled._MACHINE_CODE.discard("stale_kernels.kern")
