"""bench: suites, campaigns in child processes, resume, reports, the Dask executor."""

from __future__ import annotations

import concurrent.futures
import csv
import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pyasp_games.engines.resources import data_root
from pyasp_games.errors import InputError
from pyasp_games.tools.bench.campaign import (
    CampaignError,
    local_executor,
    plan_campaign,
    run_campaign,
)
from pyasp_games.tools.bench.report import write_report
from pyasp_games.tools.bench.results import read_rows
from pyasp_games.tools.bench.suite import expand, parse_suite, read_suite

from .conftest import assert_bad_input, run_cli, run_cli_process, run_cli_processes

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
        (TINY.replace('name = "tiny"', 'name = "../../etc/x"'), "must be a plain name"),
        (TINY.replace('name = "tiny"', 'name = ".."'), "must be a plain name"),
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
        # an unknown encoding is refused before any run, not reported once per run
        (good, ["-b", "asp", "--encoding", "nope"], "unknown cover encoding 'nope'"),
        (good, ["-b", "asp", "--encoding", "x3c", "--encoding", str(tmp_path / "no.lp")], "no.lp"),
        # a suite's name becomes the default results folder: never a path out of it
        (write(tmp_path, TINY.replace('name = "tiny"', 'name = "../../etc/x"'), "d.toml"), [], "plain name"),
    ]
    for suite, extra, fragment in cases:
        assert_bad_input(run_cli("bench", suite, "--out", tmp_path / "out", *extra), fragment)
    assert not (tmp_path / "out").exists()  # nothing was written by a refused campaign
    # the same suite without --out (results/<name> from the current directory): refused
    escape = write(tmp_path, TINY.replace('name = "tiny"', 'name = "../../escaped"'), "e.toml")
    here = tmp_path / "a" / "b"
    here.mkdir(parents=True)
    done = subprocess.run(
        [sys.executable, "-P", "-m", "pyasp_games", "bench", str(escape)],
        cwd=here, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 2 and "plain name" in done.stderr, done.stderr
    assert not (tmp_path / "a" / "escaped").exists() and not (here / "results").exists()
    assert_bad_input(run_cli("bench", "report", tmp_path / "none"), "no such directory")
    (tmp_path / "results.jsonl").write_text("")  # a file was said to be no such directory
    assert_bad_input(
        run_cli("bench", "report", tmp_path / "results.jsonl"), "a file, not a campaign directory"
    )


def test_encodings_are_resolved_before_the_campaign(tmp_path, monkeypatch):
    # a suite's encoding file is found beside the suite (like its instance files), a
    # command-line one from the current directory; both become absolute for every run
    (tmp_path / "mine.lp").write_text((data_root("encodings") / "cover" / "x3c.lp").read_text())
    text = 'domain = "cover"\nbackends = ["asp"]\nencodings = ["x3c", "mine.lp"]\n[[instances]]\nbundled = "tiny-cover.txt"\n'
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    specs = plan_campaign(parse_suite(text, folder=tmp_path)).backends
    assert [(s.label, s.options["encoding"]) for s in specs] == [
        ("asp[x3c]", "x3c"), ("asp[mine.lp]", str(tmp_path / "mine.lp"))
    ]
    with pytest.raises(InputError, match=r"unknown cover encoding 'mine\.lp'"):
        plan_campaign(parse_suite(text, folder=tmp_path), encodings=["mine.lp"])
    (elsewhere / "cli.lp").write_text("% mine\n")
    specs = plan_campaign(parse_suite(text, folder=tmp_path), encodings=["cli.lp"]).backends
    assert [s.options["encoding"] for s in specs] == [str(elsewhere / "cli.lp")]


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


@pytest.mark.parametrize(  # a PNG costs matplotlib's raster back end: slow
    "blocked", ["report.md", pytest.param("cactus.png", marks=pytest.mark.slow), "scaling.svg"]
)
def test_report_that_cannot_be_written_is_one_line(tiny_campaign, tmp_path, blocked):
    """A report or plot path that cannot be written (here a folder stands there, which
    stops root too): one line naming it, exit 2, not an internal error."""
    out = tmp_path / "copy"
    shutil.copytree(tiny_campaign / "out", out)
    (out / blocked).mkdir()
    run = run_cli("bench", "report", out)
    assert run.code == 2, run.stderr
    assert run.stderr.strip() == (
        f"pyasp-games: error: cannot write {out / blocked}: Is a directory"
    ), run.stderr


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
    # (as a run writes it: the verdict in the row's statistics, its `verified` column beside)
    rows[1] = {**rows[1], "status": "error", "verified": False,
               "stats": {"verified": False, "verification": "not a cover"}}
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


def _toy_campaign(tmp_path: Path, domain: str, suite: str, workers: int, **options) -> list[dict]:
    """The rows of the campaign ``suite`` of the toy domain module ``domain`` (copied from
    here into ``tmp_path``, as a user's own domain beside their suite)."""
    shutil.copy(HERE / domain, tmp_path)
    plan = plan_campaign(read_suite(write(tmp_path, suite)), **options)
    with local_executor(workers) as pool:
        return run_campaign(plan, tmp_path / "out", pool)


def test_crash_memory_and_ignored_limits_become_rows(tmp_path):
    rows = _toy_campaign(
        tmp_path,
        "bench_plugin_domain.py",
        'domain = "bench_plugin_domain:domain"\n'
        'backends = ["double", "crash", "hog", "stubborn"]\ntime_limit = 1\nmemory_limit = 300\n'
        '[[instances]]\ngenerator = "number"\nparams = { base = 20 }\nseeds = 1\n',
        workers=2,
        kill_after=2,
    )  # one run of each kind (a run is a new process: four, not eight)
    assert len(rows) == 4 and len(rows_of(tmp_path / "out")) == 4
    by = {}
    for r in rows:
        by.setdefault(r["backend"], []).append(r)
    assert all(r["status"] == "solved" and r["verified"] and r["answer"] == 2 * (20 + r["size"]["seed"]) for r in by["double"])
    assert all(r["status"] == "error" and "SIGABRT" in r["error"] for r in by["crash"]), by["crash"]
    # a memory stop is a reached limit, as everywhere: unknown, not an error
    for r in by["hog"]:
        assert r["status"] == "unknown" and r["stats"]["limit"] == "memory", r
        assert "memory limit of 300 MB reached" in r["stats"]["stopped"] and r["error"] is None
    for r in by["stubborn"]:
        assert r["status"] == "unknown" and r["stats"]["limit"] == "time", r
        assert 1.5 < r["wall"] < 15  # killed at 2 s (kill_after), not stopped at 1 s
    report, _ = write_report(tmp_path / "out")
    assert report.ok  # errors and unknowns are not disagreements
    assert [(s.backend, s.solved, s.error, s.unknown) for s in report.backends] == [
        ("double", 1, 0, 0), ("crash", 0, 1, 0), ("hog", 0, 0, 1), ("stubborn", 0, 0, 1)
    ]


def _descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (Linux /proc), e.g. a campaign's pool workers, the
    resource tracker and the runs."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.xdist_group("timing")
def test_an_interrupted_campaign_stops_at_once_and_resumes(tmp_path, stop):
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
    below = _descendants(process.pid)  # pool workers, resource tracker, the runs
    assert len(below) >= 3, below
    process.send_signal(stop)
    start = time.monotonic()
    # the pipes close only when every process holding them has ended, workers included
    _, err = process.communicate(timeout=60)
    assert process.returncode == 128 + stop and "continue with --resume" in err, err
    assert "Traceback" not in err, err
    assert time.monotonic() - start < 8  # the running runs were killed, not waited for
    deadline = time.monotonic() + 5
    while any(_alive(p) for p in below) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [p for p in below if _alive(p)], "a worker, the resource tracker or a run survived"
    before = rows_of(out)
    assert 1 <= len(before) < 6
    resumed = run_cli("bench", suite, "--out", out, "--resume", "-b", "double")
    assert resumed.code == 0, resumed.stderr
    after = rows_of(out)
    assert len(set(keys(after))) == len(after)  # nothing recorded twice
    assert {r["instance"] for r in after if r["backend"] == "double"} == {
        "number::s0", "number::s1", "number::s2"
    }


def test_resume_repairs_the_csv_from_the_json_lines(tmp_path):
    plan = plan_campaign(parse_suite(TINY, folder=tmp_path), backends=["dlx"])
    out = tmp_path / "out"
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        run_campaign(plan, out, pool)
    lines = (out / "results.csv").read_text().splitlines(keepends=True)
    assert len(lines) == 5
    # killed while writing: the CSV holds rows 1-2, row 3 cut short (no line end), and
    # row 4 reached the JSON lines only
    (out / "results.csv").write_text("".join(lines[:3]) + lines[3][:17])
    resumed = plan_campaign(parse_suite(TINY, folder=tmp_path))
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        rows = run_campaign(resumed, out, pool, resume=True)
    assert len(rows) == 8
    with open(out / "results.csv", newline="") as f:
        table = list(csv.DictReader(f))
    # one CSV row per recorded run, each the run's own (nothing glued, nothing missing)
    assert sorted((t["instance"], t["backend"], int(t["repeat"])) for t in table) == keys(rows_of(out))
    by_key = {(r["instance"], r["backend"], r["repeat"]): r for r in rows_of(out)}
    for t in table:
        row = by_key[(t["instance"], t["backend"], int(t["repeat"]))]
        assert (t["status"], json.loads(t["answer"]), t["suite"]) == (row["status"], row["answer"], "tiny")


def test_retry_unknown_runs_again_only_the_runs_stopped_by_a_limit(tmp_path):
    plan = plan_campaign(parse_suite(TINY, folder=tmp_path), backends=["dlx"])
    out = tmp_path / "out"
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        run_campaign(plan, out, pool)
    rows = rows_of(out)
    statuses = [r["status"] for r in rows]
    assert "unknown" not in statuses
    # one run was stopped by its limit in an earlier sitting: the first, so that a table
    # listing the retried run last would differ from the record whatever the order of the rest
    stopped = {**rows[0], "status": "unknown", "answer": None, "verified": None}
    rows[0] = stopped
    (out / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    with concurrent.futures.ThreadPoolExecutor(2) as pool:  # a plain resume has nothing to do
        assert len(run_campaign(plan, out, pool, resume=True)) == 4
    assert len((out / "results.jsonl").read_text().splitlines()) == 4
    seen = []
    # the next sitting gives the stopped run a CPU cap the first had not
    capped = plan_campaign(parse_suite(TINY, folder=tmp_path), backends=["dlx"], cpu_limit=30)
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        again = run_campaign(capped, out, pool, resume=True, retry_unknown=True, on_row=seen.append)
    assert [(r["instance"], r["repeat"]) for r in seen] == [(stopped["instance"], stopped["repeat"])]
    # meta.json records every sitting with its own options and what it ran, not only the first's
    meta = json.loads((out / "meta.json").read_text())
    assert meta["settings"]["cpu_limit"] is None  # the campaign's: the first sitting's
    sittings = [(s["settings"]["cpu_limit"], s["runs"], s["instances"], s["retry_unknown"])
                for s in meta["sessions"]]  # fmt: skip
    every = list(dict.fromkeys(r["instance"] for r in rows))
    assert sittings == [(None, 4, every, False), (None, 0, [], False), (30, 1, [stopped["instance"]], True)]
    from pyasp_games.tools.bench.report import build_report, markdown

    report = markdown(build_report(rows_of(out), meta))
    assert "CPU limit 30 s, the runs stopped by a limit again." in report, report
    # the new row supersedes the old one, in its place; the file keeps both as history
    assert len((out / "results.jsonl").read_text().splitlines()) == 5
    after = rows_of(out)
    assert keys(after) == keys(rows) == keys(again)
    assert [r["status"] for r in after] == statuses and after[0] == seen[0]
    with open(out / "results.csv", newline="") as f:
        assert [t["status"] for t in csv.DictReader(f)] == statuses
    # the flag continues a campaign: alone it contradicts a fresh start
    suite = write(tmp_path, TINY)
    assert_bad_input(run_cli("bench", suite, "--out", tmp_path / "new", "--retry-unknown"), "--resume")


def test_a_run_stopped_by_its_limit_keeps_the_search_it_reported():
    # a row stopped by a cap kept only the scalar statistics: IDA*'s thresholds so far
    # (how deep it got) were dropped with the statistics trees
    from pyasp_games.tools.bench.job import execute, make_job
    from pyasp_games.tools.bench.suite import InstanceRef

    board = InstanceRef("korf-1", {"file": str(data_root("instances") / "puzzle" / "korf100.txt"), "index": 0})
    row = execute(make_job("puzzle", board, "idastar", "idastar", {}, 0, time_limit=0.25))
    assert row["status"] == "unknown" and row["stats"]["limit"] == "time", row
    thresholds = row["stats"]["thresholds"]
    assert row["stats"]["nodes"] > 0 and thresholds[0] == row["stats"]["h0"] == 43, row
    assert thresholds == list(range(43, 43 + 2 * len(thresholds), 2))  # parity: two by two


@pytest.mark.xdist_group("timing")
def test_a_run_stopped_at_its_cpu_limit_is_labelled_so_with_its_search():
    # a backend that says "time" for any stop of its deadline was relabelled "cpu" only
    # when the run's CPU reached 98% of the cap; a stage before it (0.12 s of the run's
    # 0.2) left the backend's share below the cap, and the row said "time". The label
    # is now the one the backend's own clock found passed first
    from pyasp_games.tools.bench.job import execute, make_job
    from pyasp_games.tools.bench.suite import InstanceRef

    prepared = InstanceRef("p", {"generator": "prepared", "params": {"cpu": 0.12}, "seed": 0})
    job = make_job("bench_stops_domain:domain", prepared, "busy", "busy", {}, 0, time_limit=30,
                   folder=str(HERE), cpu_limit=0.2)  # fmt: skip
    row = execute(job)
    assert row["status"] == "unknown" and row["stats"]["limit"] == "cpu", row
    assert row["stats"]["nodes"] > 0 and row["stats"]["cpu_seconds"] < 0.98 * 0.2, row


@pytest.mark.slow  # three runs, each a process (about 3 s of CPU, 6 s of wall)
@pytest.mark.xdist_group("timing")
def test_each_stopped_row_says_the_limit_that_stopped_it(tmp_path):
    rows = _toy_campaign(
        tmp_path,
        "bench_stops_domain.py",
        'domain = "bench_stops_domain:domain"\n'
        'backends = ["sleepy", "busy", "hungry"]\ntime_limit = 4\nmemory_limit = 300\n'
        '[[instances]]\ngenerator = "prepared"\nparams = { cpu = 0.3 }\nseeds = 1\n',
        workers=1,
        cpu_limit=0.8,  # busy's 0.8 s of CPU within 4 s, on a loaded machine
    )
    said = {r["backend"]: r["stats"].get("limit") for r in rows}
    assert said == {"sleepy": "time", "busy": "cpu", "hungry": "memory"}, rows
    for r in rows:  # what each search reported when it stopped stays in its row
        assert r["status"] == "unknown" and r["stats"]["nodes"] > 0, r


def _git(folder: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
        cwd=folder, capture_output=True, text=True, check=True,
    )
    return done.stdout.strip()


def test_meta_records_the_user_s_checkout_and_resume_keeps_the_first_commit(tmp_path, monkeypatch):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    for variable in ("GIT_DIR", "GIT_WORK_TREE"):  # each folder's own repository, if any
        monkeypatch.delenv(variable, raising=False)
    repo = tmp_path / "checkout"
    repo.mkdir()
    _git(repo, "init", "-q")
    _git(repo, "commit", "-q", "--allow-empty", "-m", "first")
    first = _git(repo, "rev-parse", "HEAD")
    monkeypatch.chdir(repo)  # the user runs in their checkout; the suite lies elsewhere
    suite_dir = tmp_path / "suites"
    suite_dir.mkdir()
    plan = plan_campaign(parse_suite(TINY, folder=suite_dir), backends=["dlx"], repeat=1)
    out = tmp_path / "out"
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        run_campaign(plan, out, pool)
    meta = json.loads((out / "meta.json").read_text())
    assert meta["git_commit"] == first == meta["sessions"][0]["git_commit"]
    _git(repo, "commit", "-q", "--allow-empty", "-m", "second")
    second = _git(repo, "rev-parse", "HEAD")
    more = plan_campaign(parse_suite(TINY, folder=suite_dir), repeat=1)
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        run_campaign(more, out, pool, resume=True)
    meta = json.loads((out / "meta.json").read_text())
    assert meta["git_commit"] == first  # the campaign's first commit is not overwritten
    assert [s["git_commit"] for s in meta["sessions"]] == [first, second]
    write_report(out)
    assert f"Resumed on other code: {meta['sessions'][1]['date']}: commit {second[:10]}" in (
        out / "report.md"
    ).read_text()
    # outside any checkout (cwd and suite): no commit, whatever folder the package is in
    monkeypatch.chdir(suite_dir)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        run_campaign(plan, tmp_path / "elsewhere", pool)
    assert json.loads((tmp_path / "elsewhere" / "meta.json").read_text())["git_commit"] is None


def test_workers_are_capped_by_the_runs_and_the_cpus(tmp_path):
    suite = write(tmp_path, TINY)
    run = run_cli("bench", suite, "--out", tmp_path / "out", "-b", "dlx", "--repeat", "1", "--workers", "1000")
    assert run.code == 0, run.stderr
    assert "--workers 1000: using" in run.stderr and "2 runs to do" in run.stderr, run.stderr
    session = json.loads((tmp_path / "out" / "meta.json").read_text())["sessions"][0]
    assert session["executor"] in ("local process pool, 1 worker", "local process pool, 2 workers")
    assert len(rows_of(tmp_path / "out")) == 2


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


@pytest.mark.slow  # a Dask cluster started and stopped: 2-3 s of CPU
def test_dask_executor_gives_the_local_results(tiny_campaign, tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, processes=True, threads_per_worker=2, dashboard_address=None
    ) as cluster:
        # child processes: a Dask client's threads, logging and clean-up are the process's
        run = run_cli_process(
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


@pytest.mark.slow  # Dask tries the refused address until its 5 s timeout
def test_dask_scheduler_that_cannot_be_reached(tmp_path):
    pytest.importorskip("distributed")
    suite = write(tmp_path, TINY)
    run = run_cli_process("bench", suite, "--out", tmp_path / "o", "--executor", "dask", "--scheduler", "tcp://127.0.0.1:9")
    assert_bad_input(run, "cannot reach the Dask scheduler")


@pytest.mark.xdist_group("timing")
def test_dask_scheduler_address_that_is_not_one(tmp_path):
    pytest.importorskip("distributed")
    suite = write(tmp_path, TINY)
    addresses = ["foo", "tcp://127.0.0.1", "tcp://:x"]
    # one child process for the three (Dask's client, threads and clean-up at exit are a
    # process's; its imports cost most of a child's second of CPU)
    runs = run_cli_processes(*(
        ["bench", suite, "--out", tmp_path / "o", "--executor", "dask", "--scheduler", address]
        for address in addresses
    ))  # fmt: skip
    assert len(runs) == len(addresses)
    for run in runs:
        # one line, at once: no half-made client printing a traceback when it is collected
        assert_bad_input(run, "not a scheduler address such as tcp://HOST:PORT")
        assert run.seconds < 8 and not (tmp_path / "o").exists()


def test_report_counts_every_claim_its_command_left_unconfirmed():
    """The report's 'not verified' column holds the runs whose command printed NOT
    VERIFIED (exit 3): a user encoding's claim with no reference answer in time, and a
    claim beyond its checker that no second backend settled; a settled one is not there."""
    from pyasp_games.tools.bench.report import build_report

    def row(backend, stats):
        return {"instance": "g", "backend": backend, "repeat": 0, "status": "no-solution",
                "answer": False, "seconds": 1.0, "verified": None, "size": {"n": 9},
                "known": None, "stats": stats}

    rows = [
        row("user", {"verified": False, "cross_check": "not verified",
                     "cross_check_reason": "the reference sat reached the time limit"}),
        row("native", {"unconfirmed": "too large to recount"}),
        row("sat", {"unconfirmed": "too large to recount", "cross_check": "agrees"}),
    ]
    report = build_report(rows, {"suite": "t", "settings": {"time_limit": 5}})
    assert {s.backend: s.not_verified for s in report.backends} == {"user": 1, "native": 1, "sat": 0}
    assert report.not_verified == [
        "g: user (repeat 0) not verified: the reference sat reached the time limit",
        "g: native (repeat 0) not verified: too large to recount",
    ]
    assert report.ok  # unconfirmed is no failure


def test_the_readme_names_every_domain_and_generator_of_the_registry():
    """benchmarks/README.md's table of suite keys names every registered domain and
    every generator of each (with its parameters), so it cannot fall behind the registry."""
    import inspect

    from pyasp_games.domains import DOMAINS, domain_spec

    text = (Path(__file__).parent.parent / "benchmarks" / "README.md").read_text()
    row = {line.split("|")[1].strip(): line for line in text.splitlines() if line.startswith("| `")}
    for name in DOMAINS:
        assert f"`{name}`" in row["`domain`"], name
        for generator, make in domain_spec(name).generators.items():
            params = [p for p in inspect.signature(make).parameters if p != "seed"]
            told = f"`{generator}` (`{', '.join(params)}`)" if params else f"`{generator}` (none)"
            own = row["`instances.generator`"].split(f"`{name}`:", 1)[1].split("; `")[0]
            assert told in own, (name, told)


def test_a_run_verified_in_part_counts_in_its_own_column():
    from pyasp_games.tools.bench.report import build_report, markdown

    def row(backend, stats):
        return {"instance": "a", "backend": backend, "repeat": 0, "status": "solved", "answer": 3,
                "seconds": 0.5, "verified": stats.get("verified"), "size": {"n": 1},
                "known": None, "stats": stats}  # fmt: skip

    rows = [
        row("full", {"verified": True, "verification": "recomputed"}),
        row("part", {"verified": "partial", "verification": "1 of 50 options recomputed",
                     "not_checked": "49 options' values (the search's)"}),
    ]  # fmt: skip
    report = build_report(rows, {"suite": "doc", "settings": {"time_limit": 1}})
    counts = {s.backend: s.in_part for s in report.backends}
    assert counts == {"full": 0, "part": 1} and report.ok
    assert "verified in part" in markdown(report)
