"""Bundled data is found wherever the package is installed (CI installs the wheel), and
the package runs from a checkout's root: as the source tree, or installed with the
checkout in the current directory (children run the parent's code)."""

from __future__ import annotations

import encodings
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import pyasp_games
from pyasp_games.domains.puzzle.model import load_boards
from pyasp_games.engines.child import python_code
from pyasp_games.engines.resources import (
    PACKAGE_DIR,
    bundled_encodings,
    data_root,
    encoding_path,
    instance_dir,
)
from pyasp_games.tools.bench.job import make_job, run_job
from pyasp_games.tools.bench.suite import InstanceRef


def test_encodings_and_instances_are_installed():
    assert {"seed", "sliding"} <= set(bundled_encodings("puzzle"))
    for name in ("seed", "sliding"):
        text = encoding_path("puzzle", name).read_text()
        assert text.startswith("%") and "#show move/2." in text
    folder = instance_dir("puzzle")
    assert (folder / "index.toml").is_file() and (folder / "README.md").is_file()
    assert (folder / "korf100.txt").is_file() and (
        Path(encoding_path("puzzle", "sliding")).parent / "README.md"
    ).is_file()


def test_every_bundled_instance_file_parses():
    files = sorted(instance_dir("puzzle").glob("*.txt"))
    assert len(files) >= 6
    for path in files:
        assert load_boards(path)


def test_ci_tests_the_installed_wheel_not_the_source_tree():
    # .ci/run installs the package non-editable; a missing data file must fail there.
    if os.environ.get("PYASP_GAMES_CI_WHEEL"):
        assert "site-packages" in pyasp_games.__file__


# -- data folders, not packages; runs from a checkout ----------------------------------------

REPO = Path(__file__).resolve().parent.parent
DATA = ("encodings", "instances")


def _data_files(folder: Path) -> set[str]:
    return {
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }


def test_the_repository_root_does_not_shadow_the_standard_library():
    # a top-level encodings/__init__.py made `PYTHONPATH=<repo> python` die at start-up
    for kind in DATA:
        assert not (REPO / kind / "__init__.py").exists(), kind
    done = subprocess.run(
        [sys.executable, "-c", "import encodings, sys; sys.stdout.write(encodings.__file__)"],
        env={**os.environ, "PYTHONPATH": str(REPO)},
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert Path(done.stdout) == Path(encodings.__file__)  # the standard library's codecs


def test_the_wheel_carries_every_encoding_and_instance(tmp_path):
    # a copy of what the wheel is built from (no build/ or egg-info left in the checkout)
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md"):
        shutil.copy(REPO / name, source)
    for name in ("pyasp_games", *DATA):
        shutil.copytree(REPO / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(tmp_path / "dist"), str(source)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for kind in DATA:
        expected = {f"pyasp_games/{kind}/{name}" for name in _data_files(REPO / kind)}
        assert any(name.endswith(".lp") for name in expected) or kind == "instances"
        assert expected <= names, sorted(expected - names)[:5]
        # data, not packages: nothing at the wheel's top level but the package itself
        assert not any(name.startswith(f"{kind}/") for name in names)
        assert f"pyasp_games/{kind}/__init__.py" not in names
    assert {"pyasp_games/encodings/puzzle/sliding.lp", "pyasp_games/instances/cover/index.toml"} <= names


def test_the_installed_data_is_the_code_s_own():
    # wheel: inside the package; editable or a checkout: the folders beside the package
    for kind in DATA:
        root = data_root(kind)
        assert root in (PACKAGE_DIR / kind, PACKAGE_DIR.parent / kind)
        assert _data_files(REPO / kind) <= _data_files(root), kind
        if os.environ.get("PYASP_GAMES_CI_WHEEL"):
            assert root == PACKAGE_DIR / kind and "site-packages" in str(root)


def _from_the_root(*args: str, safe_path: bool = False, timeout: float = 120) -> subprocess.CompletedProcess:
    """``python [-P] -m pyasp_games ARGS`` with the repository root as the current directory:
    without -P the checkout's source tree runs (it is first on the path), with -P the
    installed package does (for CI, the wheel) while the checkout sits in the cwd."""
    command = [sys.executable, *(["-P"] if safe_path else []), "-m", "pyasp_games", *args]
    return subprocess.run(
        command, cwd=REPO, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL
    )


@pytest.mark.parametrize("safe_path", [False, True], ids=["checkout", "installed"])
def test_asp_and_crosscheck_run_from_the_repository_root(safe_path):
    solved = _from_the_root(
        "cover", "solve", "instances/cover/tiny-cover.txt", "-b", "asp", "--json", safe_path=safe_path
    )
    assert solved.returncode == 0, solved.stderr
    outcome = json.loads(solved.stdout)
    assert (outcome["status"], outcome["stats"]["verified"]) == ("solved", True)
    crossed = _from_the_root(
        "crosscheck", "cover", "instances/cover/tiny-cover.txt", "instances/cover/tiny-none.txt",
        "-b", "asp", "-b", "dlx", "--json", safe_path=safe_path,
    )
    assert crossed.returncode == 0, crossed.stderr
    runs = [json.loads(line) for line in crossed.stdout.splitlines() if '"backend"' in line]
    assert {(r["backend"], r["status"]) for r in runs} >= {("asp", "solved"), ("asp", "no-solution")}


ASP_SUITE = """
domain = "cover"
backends = ["asp", "dlx"]
encodings = ["x3c", "x3c-card"]
time_limit = 30
[[instances]]
bundled = "tiny-cover.txt"
[[instances]]
bundled = "tiny-none.txt"
"""


def test_an_asp_campaign_from_the_repository_root_runs_the_parent_s_package(tmp_path):
    # the installed command (-P) started from the checkout's root: every run is a child
    # process, which must import the parent's package, not the source tree in the cwd
    suite = tmp_path / "asp.toml"
    suite.write_text(ASP_SUITE)
    done = _from_the_root("bench", str(suite), "--out", str(tmp_path / "out"), "--json", safe_path=True)
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()][:-1]
    assert len(rows) == 6
    assert {r["backend"] for r in rows} == {"asp[x3c]", "asp[x3c-card]", "dlx"}
    assert all(r["status"] in ("solved", "no-solution") and r["error"] is None for r in rows), rows
    assert all(r["verified"] is True for r in rows if r["status"] == "solved")


def test_a_run_imports_exactly_the_parent_s_package(tmp_path, monkeypatch):
    # a decoy pyasp_games in the current directory and on PYTHONPATH: never imported
    decoy = tmp_path / "pyasp_games"
    (decoy / "bench").mkdir(parents=True)
    (decoy / "__init__.py").write_text("raise SystemExit('the decoy was imported')\n")
    (decoy / "bench" / "__init__.py").write_text("")
    (decoy / "bench" / "job.py").write_text("raise SystemExit('the decoy was imported')\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    job = make_job(
        "cover",
        InstanceRef("tiny", {"generator": "x3c-regular", "params": {"q": 3, "d": 2, "planted": True}, "seed": 0}),
        "dlx", "dlx", {}, 0, time_limit=20,
    )
    row = run_job(job)
    assert (row["status"], row["verified"], row["error"]) == ("solved", True, None), row
    where = subprocess.run(
        python_code("import pyasp_games; sys.stdout.write(pyasp_games.__file__)"),
        capture_output=True, text=True, timeout=60,
    )
    assert Path(where.stdout) == Path(pyasp_games.__file__).resolve()
