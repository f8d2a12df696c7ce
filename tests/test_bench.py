"""bench: suites, campaigns in child processes, resume, reports, the Dask executor."""

from __future__ import annotations

import concurrent.futures
import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pyasp_games.bench.campaign import (
    CampaignError,
    local_executor,
    plan_campaign,
    read_rows,
    run_campaign,
)
from pyasp_games.bench.report import write_report
from pyasp_games.bench.suite import expand, parse_suite, read_suite
from pyasp_games.errors import InputError

from .conftest import assert_bad_input, run_cli

HERE = Path(__file__).resolve().parent
SUITES = HERE.parent / "benchmarks" / "suites"

# 2 generated X3C instances (one with a planted cover, one without) x 2 backends
TINY = """
name = "tiny"
domain = "cover"
backends = ["dlx", "sat"]
time_limit = 20
repeat = 2
[[instances]]
generator = "x3c-regular"
params = { d = 3, q = 5 }
grid = { planted = [true, false] }
seeds = [3]
[scaling]
x = "q"
"""


def write(folder: Path, text: str, name: str = "suite.toml") -> Path:
    path = folder / name
    path.write_text(text)
    return path


def rows_of(out: Path) -> list[dict]:
    return read_rows(out)


def keys(rows: list[dict]) -> list[tuple]:
    return sorted((r["instance"], r["backend"], r["repeat"]) for r in rows)


# -- suites ------------------------------------------------------------------------------


def test_every_shipped_suite_is_valid_and_names_its_instances():
    files = sorted(SUITES.glob("*.toml"))
    assert len(files) >= 7
    for path in files:
        plan = plan_campaign(read_suite(path))
        assert plan.jobs() and plan.time_limit > 0, path
        ids = [ref.id for ref, _ in plan.instances]
        assert len(set(ids)) == len(ids), path


def test_suite_expansion_and_overrides(tmp_path):
    suite = parse_suite(TINY, folder=tmp_path)
    plan = plan_campaign(suite, backends=["dlx"], time_limit=3, repeat=1)
    assert [b.label for b in plan.backends] == ["dlx"]
    assert (plan.time_limit, plan.repeat, len(plan.jobs())) == (3, 1, 2)
    refs = [ref for ref, _ in expand(suite, plan.spec)]
    assert refs[0].size == {"d": 3, "q": 5, "planted": True, "seed": 3}
    assert refs[0].ref == {"generator": "x3c-regular", "params": {"d": 3, "q": 5, "planted": True}, "seed": 3}
    # each encoding is a backend of its own; suite options reach every column of a backend
    enc = parse_suite(
        'domain = "puzzle"\nbackends = ["asp"]\nencodings = ["seed", "sliding"]\n'
        '[options]\nasp = { lower_bound = "manhattan" }\n[[instances]]\nbundled = "thesis-board2.txt"\n'
    )
    specs = plan_campaign(enc).backends
    assert [(s.label, s.options) for s in specs] == [
        ("asp[seed]", {"lower_bound": "manhattan", "encoding": "seed"}),
        ("asp[sliding]", {"lower_bound": "manhattan", "encoding": "sliding"}),
    ]


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('domain = "cover"\ntime_limit = 5\n', "no [[instances]]"),
        ('domain = "cover"\ncolour = 1\n[[instances]]\nbundled = "tiny-cover.txt"\n', "unknown key 'colour'"),
        ('domain = "cover"\nrepeat = "2"\n[[instances]]\nbundled = "tiny-cover.txt"\n', "repeat must be an integer"),
        ('domain = "cover"\n[[instances]]\nbundled = "tiny-cover.txt"\nseeds = 2\n', "generators only"),
        ('domain = "cover"\n[[instances]]\ngenerator = "x3c-regular"\nfirst = 2\n', "files only"),
        ('domain = "cover"\n[[instances]]\nfile = "a"\nbundled = "b"\n', "exactly one of"),
        ('domain = "cover"\n[[instances]]\ngenerator = "x3c-regular"\n[scaling]\nx = "n"\n', "scaling.x"),
        ("domain = [", "not valid TOML"),
        (TINY.replace("time_limit = 20", "time_limit = true"), "time_limit must be a number"),
        (TINY.replace("seeds = [3]", "seeds = [true]"), "seeds must be"),
        (TINY.replace('backends = ["dlx", "sat"]', 'backends = "dlx"'), "backends must be a list"),
    ],
)
def test_malformed_suites_are_one_clear_error(text, fragment):
    with pytest.raises(InputError) as err:
        parse_suite(text)
    assert fragment in str(err.value)


def test_bad_input_on_the_command_line(tmp_path):
    good = write(tmp_path, TINY)
    cases = [
        (write(tmp_path, 'domain = "chess"\n[[instances]]\nfile = "x"\n', "a.toml"), [], "unknown domain 'chess'"),
        (good, ["-b", "dlx,magic"], "unknown cover backend 'magic'"),
        (write(tmp_path, TINY.replace('"x3c-regular"', '"x3c-random"'), "b.toml"), [], "unknown cover generator"),
        (write(tmp_path, 'domain = "cover"\n[[instances]]\nfile = "missing.txt"\n', "c.toml"), [], "missing.txt: no such file"),
        (tmp_path / "nowhere.toml", [], "no such file"),
        (good, ["--executor", "dask"], "needs --scheduler"),
        (good, ["--resume", "--force"], "contradict"),
        (good, ["--time-limit", "0"], "--time-limit must be positive"),
        (good, ["--encoding", "x3c-card", "-b", "dlx"], "no asp backend runs"),
        (good, ["--executor", "local", "--scheduler", "tcp://127.0.0.1:1"], "--scheduler applies"),
    ]
    for suite, extra, fragment in cases:
        assert_bad_input(run_cli("bench", suite, "--out", tmp_path / "out", *extra), fragment)
    assert not (tmp_path / "out").exists()  # nothing was written by a refused campaign
    assert_bad_input(run_cli("bench", "report", tmp_path / "none"), "no such directory")


# -- campaigns ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tiny_campaign(tmp_path_factory) -> Path:
    """The tiny suite run once through the CLI: 2 instances x 2 backends x 2 repeats."""
    folder = tmp_path_factory.mktemp("tiny")
    suite = write(folder, TINY)
    run = run_cli("bench", suite, "--out", folder / "out", "--workers", "2", "--json")
    assert run.code == 0, run.stderr
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    assert lines[-1]["summary"]["runs"] == 8 and lines[-1]["summary"]["ok"]
    assert "ETA" in run.stderr  # the progress bar goes to stderr, never into --json output
    return folder


def test_campaign_rows_are_verified_and_agree(tiny_campaign):
    out = tiny_campaign / "out"
    rows = rows_of(out)
    assert len(rows) == 8 and len(set(keys(rows))) == 8
    for r in rows:
        # planted: a cover, verified; seed 3 without a planted cover happens to have none
        assert (r["status"], r["answer"]) == (("solved", True) if r["size"]["planted"] else ("no-solution", False)), r
        assert r["verified"] is not False
        assert r["seconds"] > 0 and r["wall"] >= r["seconds"]
    answers = {}
    for r in rows:
        answers.setdefault(r["instance"], set()).add(r["answer"])
    assert len(answers) == 2 and all(len(a) == 1 for a in answers.values())
    planted = [r for r in rows if r["size"]["planted"]]
    assert all(r["answer"] is True and r["known"] is True for r in planted)
    csv_lines = (out / "results.csv").read_text().splitlines()
    assert csv_lines[0].startswith("suite,domain,instance") and len(csv_lines) == 9
    meta = json.loads((out / "meta.json").read_text())
    assert meta["settings"]["repeat"] == 2 and meta["sessions"][0]["machine"]["cpus"]
    assert (out / "suite.toml").read_text() == TINY
    # an existing campaign directory is never overwritten by accident
    again = run_cli("bench", tiny_campaign / "suite.toml", "--out", out)
    assert_bad_input(again, "not empty")


def test_report_counts_and_plots(tiny_campaign, tmp_path):
    out = tmp_path / "copy"
    shutil.copytree(tiny_campaign / "out", out)
    run = run_cli("bench", "report", out, "--json")
    assert run.code == 0, run.stderr
    result = run.json()
    assert result["ok"] and result["problems"] == []
    assert [
        (b["backend"], b["runs"], b["solved"], b["no_solution"], b["unknown"], b["error"])
        for b in result["backends"]
    ] == [("dlx", 4, 2, 2, 0, 0), ("sat", 4, 2, 2, 0, 0)]
    for name in ("report.md", "cactus.png", "cactus.svg", "scaling.png", "scaling.svg"):
        assert (out / name).stat().st_size > 500, name
    text = (out / "report.md").read_text()
    assert "| dlx | 4 | 2 | 2 | 0 | 0 |" in text and "PROBLEMS" not in text
    assert (out / "cactus.svg").read_text().lstrip().startswith("<?xml")

    # a disagreement and a failed verification: shown first, exit code 1
    rows = rows_of(out)
    rows[0] = {**rows[0], "answer": not rows[0]["answer"]}
    rows[1] = {**rows[1], "status": "error", "verified": False, "stats": {"verification": "not a cover"}}
    (out / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    bad = run_cli("bench", "report", out)
    assert bad.code == 1 and "disagree" in bad.stdout
    text = (out / "report.md").read_text()
    assert "## PROBLEMS" in text and "disagree" in text and "FAILED verification: not a cover" in text
    assert text.index("PROBLEMS") < text.index("## Per backend")


def test_resume_runs_only_what_is_missing(tmp_path):
    suite = write(tmp_path, TINY)
    out = tmp_path / "out"
    first = run_cli("bench", suite, "--out", out, "-b", "dlx", "--workers", "2")
    assert first.code == 0, first.stderr
    before = rows_of(out)
    assert len(before) == 4
    # the campaign was killed while writing a row: a cut-short last line
    with open(out / "results.jsonl", "a") as f:
        f.write('{"suite": "tiny", "instance": "x3c-re')
    resumed = run_cli("bench", suite, "--out", out, "--resume", "--workers", "2", "--json")
    assert resumed.code == 0, resumed.stderr
    new = [json.loads(line) for line in resumed.stdout.splitlines()][:-1]
    assert {r["backend"] for r in new} == {"sat"} and len(new) == 4  # nothing run twice
    after = rows_of(out)
    assert len(after) == 8 and len(set(keys(after))) == 8
    assert after[:4] == before
    assert len(json.loads((out / "meta.json").read_text())["sessions"]) == 2
    # nothing left to do: resuming again runs nothing
    idle = run_cli("bench", suite, "--out", out, "--resume")
    assert idle.code == 0 and len(rows_of(out)) == 8
    # resuming under another time limit would mix incomparable runs
    assert_bad_input(run_cli("bench", suite, "--out", out, "--resume", "--time-limit", "5"), "limit")


def test_crash_memory_and_ignored_limits_become_rows(tmp_path):
    shutil.copy(HERE / "bench_plugin_domain.py", tmp_path)
    suite = read_suite(
        write(
            tmp_path,
            'domain = "bench_plugin_domain:domain"\n'
            'backends = ["double", "crash", "hog", "stubborn"]\ntime_limit = 1\nmemory_limit = 300\n'
            '[[instances]]\ngenerator = "number"\nparams = { base = 20 }\nseeds = 2\n',
        )
    )
    plan = plan_campaign(suite, kill_after=4)
    with local_executor(2) as pool:
        rows = run_campaign(plan, tmp_path / "out", pool)
    assert len(rows) == 8 and len(rows_of(tmp_path / "out")) == 8
    by = {}
    for r in rows:
        by.setdefault(r["backend"], []).append(r)
    assert all(r["status"] == "solved" and r["verified"] and r["answer"] == 2 * (20 + r["size"]["seed"]) for r in by["double"])
    assert all(r["status"] == "error" and "SIGABRT" in r["error"] for r in by["crash"]), by["crash"]
    assert all(r["status"] == "error" and "memory limit of 300 MB" in r["error"] for r in by["hog"]), by["hog"]
    for r in by["stubborn"]:
        assert r["status"] == "unknown" and r["stats"]["limit"] == "time", r
        assert 3.5 < r["wall"] < 15
    report, _ = write_report(tmp_path / "out")
    assert report.ok  # errors and unknowns are not disagreements
    assert [(s.backend, s.solved, s.error, s.unknown) for s in report.backends] == [
        ("double", 2, 0, 0), ("crash", 0, 2, 0), ("hog", 0, 2, 0), ("stubborn", 0, 0, 2)
    ]


def test_an_interrupted_campaign_stops_at_once_and_resumes(tmp_path):
    shutil.copy(HERE / "bench_plugin_domain.py", tmp_path)
    suite = write(
        tmp_path,
        'domain = "bench_plugin_domain:domain"\nbackends = ["double", "stubborn"]\ntime_limit = 1\n'
        '[[instances]]\ngenerator = "number"\nseeds = 3\n',
    )
    out = tmp_path / "out"
    command = [sys.executable, "-P", "-m", "pyasp_games", "bench", str(suite), "--out", str(out), "--workers", "2"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not rows_of(out) and time.monotonic() < deadline:  # the first double(n) is in
        time.sleep(0.2)
    time.sleep(0.5)  # both workers are now inside stubborn runs (killed only after 11 s)
    process.send_signal(signal.SIGINT)
    start = time.monotonic()
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130 and "continue with --resume" in err, err
    assert time.monotonic() - start < 8  # the running runs were killed, not waited for
    before = rows_of(out)
    assert 1 <= len(before) < 6
    resumed = run_cli("bench", suite, "--out", out, "--resume", "-b", "double")
    assert resumed.code == 0, resumed.stderr
    after = rows_of(out)
    assert len(set(keys(after))) == len(after)  # nothing recorded twice
    assert {r["instance"] for r in after if r["backend"] == "double"} == {
        "number::s0", "number::s1", "number::s2"
    }


class _LosesSomeTasks(concurrent.futures.ThreadPoolExecutor):
    """Any Executor will do; this one loses the tasks of one backend (as a dead worker would)."""

    def submit(self, fn, job):
        if job["backend"] == "sat":
            lost: concurrent.futures.Future = concurrent.futures.Future()
            lost.set_exception(ConnectionError("worker lost"))
            return lost
        return super().submit(fn, job)


def test_tasks_lost_by_the_executor_are_not_recorded_and_resume(tmp_path):
    plan = plan_campaign(parse_suite(TINY, folder=tmp_path), repeat=1)
    with _LosesSomeTasks(2) as pool, pytest.raises(CampaignError, match="2 runs were not done"):
        run_campaign(plan, tmp_path / "out", pool)
    assert {r["backend"] for r in rows_of(tmp_path / "out")} == {"dlx"}
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        rows = run_campaign(plan, tmp_path / "out", pool, resume=True)
    assert len(rows) == 4 and len(set(keys(rows_of(tmp_path / "out")))) == 4


# -- Dask ----------------------------------------------------------------------------------


def test_dask_executor_gives_the_local_results(tiny_campaign, tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, processes=True, threads_per_worker=2, dashboard_address=None
    ) as cluster:
        run = run_cli(
            "bench", tiny_campaign / "suite.toml", "--out", tmp_path / "dask",
            "--executor", "dask", "--scheduler", cluster.scheduler_address,
        )
    assert run.code == 0, run.stderr
    local, remote = rows_of(tiny_campaign / "out"), rows_of(tmp_path / "dask")
    assert keys(local) == keys(remote)

    def results(rows):
        return sorted((r["instance"], r["backend"], r["repeat"], r["status"], r["answer"], r["verified"]) for r in rows)

    assert results(local) == results(remote)
    assert "dask tcp://" in json.loads((tmp_path / "dask" / "meta.json").read_text())["sessions"][0]["executor"]


def test_dask_scheduler_that_cannot_be_reached(tmp_path):
    pytest.importorskip("distributed")
    suite = write(tmp_path, TINY)
    run = run_cli("bench", suite, "--out", tmp_path / "o", "--executor", "dask", "--scheduler", "tcp://127.0.0.1:9")
    assert_bad_input(run, "cannot reach the Dask scheduler")
