"""``--cpu-limit``: CPU seconds per run, held by the operating system for the run's
process tree, recorded beside wall seconds (issue 32, section 4).

The limits here are small (a fraction of a second to two seconds of CPU): what is
tested is where the run stops and what it says, not a solver's speed.
"""

from __future__ import annotations

import json
import re
import signal
import time
from pathlib import Path

import pytest

from pyasp_games.domains.cover.model import format_x3c, random_x3c
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.limits import Deadline, Limits, process_cpu
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.runner import run_backend

from .conftest import assert_bad_input, run_cli, run_cli_process

TINY = Path(__file__).resolve().parent.parent / "instances" / "cover" / "tiny-cover.txt"


def _nothing_to_check(instance, outcome):
    return None, "nothing to verify"


def _polling(instance, limits):
    """A native loop that polls its deadline, as every native backend does."""
    deadline = limits.deadline()
    steps = 0
    while not deadline.expired():
        steps += 1
    return Claim.unknown({"limit": "time", "steps": steps})


def _deaf(instance, limits):
    """A loop that polls nothing: only the operating system's signal stops it."""
    while True:
        pass


def _deaf_to_the_signal(instance, limits):
    """Like C code that never returns to Python (a grounding): the signal is not even
    seen, so only the kernel's kill at the hard limit ends the process."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGXCPU})
    while True:
        pass


BACKENDS = {"polling": _polling, "deaf": _deaf, "deaf_to_the_signal": _deaf_to_the_signal}


def _run(backend: str, cpu: float) -> Outcome:
    return run_backend(BACKENDS, backend, None, "spin", Limits(cpu_limit=cpu), _nothing_to_check)


@pytest.mark.xdist_group("timing")
def test_a_polling_backend_stops_at_its_cpu_limit_and_says_so():
    outcome = _run("polling", 0.3)
    assert outcome.status == "unknown"
    # the backend said "time" for its deadline: the run says which limit it was
    assert outcome.stats["limit"] == "cpu"
    assert 0.3 <= outcome.stats["cpu_seconds"] < 1.5


@pytest.mark.xdist_group("timing")
def test_the_operating_system_holds_the_limit_where_nothing_polls():
    outcome = _run("deaf", 0.2)  # RLIMIT_CPU's signal at the next whole second
    assert (outcome.status, outcome.stats["limit"]) == ("unknown", "cpu")
    assert "operating system" in outcome.stats["stopped"]
    assert outcome.stats["cpu_seconds"] < 2.5


@pytest.mark.slow  # the default run: clingo's grounding killed so, in a command (below)
@pytest.mark.xdist_group("timing")
def test_the_kernel_kills_a_run_that_never_sees_the_signal():
    outcome = _run("deaf_to_the_signal", 0.2)  # killed at the hard limit, a second later
    assert (outcome.status, outcome.stats["limit"]) == ("unknown", "cpu")
    assert "RLIMIT_CPU" in outcome.stats["stopped"]
    assert outcome.stats["cpu_seconds"] < 3.5


@pytest.mark.slow  # about 2 s of CPU: the kernel's kill a second past the signal
@pytest.mark.xdist_group("timing")
def test_the_child_s_own_word_names_the_kernel_s_kill_inside_c_code():
    # C code that never returns to Python (here a sum in C; clingo's grounding) sees no
    # Python handler run, but the signal arrives: the child's C handler writes it down for
    # the parent, which labels the kill by it, with no CPU measure to compare (none given)
    import itertools
    from functools import partial

    from pyasp_games.engines.runner import _run_here, _run_in_child

    def in_c(instance, limits):
        return sum(itertools.repeat(1, 10**13))

    job = partial(_run_here, in_c, None, Limits(cpu_limit=0.2).started(), {})
    claim = _run_in_child(job, None, None)
    assert (claim.status, claim.stats["limit"]) == ("unknown", "cpu"), claim.stats
    assert "RLIMIT_CPU" in claim.stats["stopped"]


def test_a_cpu_limit_waits_again_where_a_wall_clock_wait_ran_out():
    # a solver's wait returns after the seconds it was given, the CPU not yet spent
    # (a loaded machine): the deadline has it wait again, until the CPU is spent
    deadline = Deadline(None, cpu_seconds=0.2)
    waits = []

    def wait(seconds):
        waits.append(seconds)
        time.sleep(min(seconds, 0.01))  # sleeping spends no CPU
        return len(waits) == 3

    assert deadline.wait_for(wait) is True
    assert len(waits) == 3 and all(0 < w <= 0.2 for w in waits)
    spent = Deadline(None, cpu_seconds=0.01)
    start = process_cpu()
    while process_cpu() - start < 0.02:
        pass
    assert spent.expired() and spent.reached() == "cpu"
    assert spent.wait_for(lambda seconds: False) is False


def test_every_outcome_records_its_cpu_seconds_beside_wall_seconds():
    run = run_cli("cover", "solve", TINY, "--cpu-limit", "30", "--json")
    assert run.code == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["status"] == "solved" and out["stats"]["verified"] is True
    assert 0 <= out["stats"]["cpu_seconds"] < 30 and out["seconds"] > 0
    plain = json.loads(run_cli("cover", "solve", TINY, "--json").stdout)  # no limit: recorded too
    assert "cpu_seconds" in plain["stats"]


def test_the_headline_gives_cpu_seconds_when_a_cpu_limit_holds_the_run():
    held = run_cli("cover", "solve", TINY, "--cpu-limit", "30")
    assert held.code == 0, held.stderr
    headline = held.stdout.splitlines()[0]
    assert re.search(r"\(\w+, [0-9.]+ s, [0-9.]+ s CPU, verified\)$", headline), headline
    assert " s CPU" not in run_cli("cover", "solve", TINY).stdout.splitlines()[0]


@pytest.mark.parametrize("value", ["nan", "inf", "0", "-1"])
@pytest.mark.parametrize(
    "command", [["cover", "solve", "TINY"], ["crosscheck", "cover", "TINY"], ["games", "nim", "3", "4"]]
)
def test_cpu_limit_must_be_a_finite_positive_number(command, value):
    args = [TINY if a == "TINY" else a for a in command]
    assert_bad_input(run_cli(*args, "--cpu-limit", value), "--cpu-limit must be positive")


def test_a_campaign_cpu_limit_must_be_a_finite_positive_number(tmp_path):
    suite = tmp_path / "suite.toml"
    text = f'domain = "cover"\nbackends = ["dlx"]\n[[instances]]\nfile = "{TINY}"\n'
    suite.write_text(text)
    run = run_cli("bench", suite, "--out", tmp_path / "out", "--cpu-limit", "nan")
    assert_bad_input(run, "--cpu-limit must be positive")
    suite.write_text(f"cpu_limit = -1\n{text}")
    assert_bad_input(run_cli("bench", suite, "--out", tmp_path / "out"), "cpu_limit must be positive")
    assert not (tmp_path / "out").exists()


@pytest.mark.xdist_group("timing")
def test_the_command_stops_at_its_cpu_limit_with_exit_3(tmp_path):
    # a user encoding whose grounding spins in clingo's C code (1000003 is prime: no
    # X * Y reaches it, the constraint never fires): held by the OS, in
    # the backend's child (its process is the command's own: a child process here)
    encoding = tmp_path / "slow.lp"
    bundled = (Path(__file__).resolve().parent.parent / "encodings" / "cover" / "x3c.lp").read_text()
    encoding.write_text(bundled + "\n:- X = 2..40000, Y = 2..40000, X * Y = 1000003.\n")
    run = run_cli_process(
        "cover", "solve", TINY, "-b", "asp", "--encoding", encoding, "--cpu-limit", "0.5", "--json"
    )
    assert run.code == 3, run.stderr
    out = run.json()
    assert (out["status"], out["stats"]["limit"]) == ("unknown", "cpu")
    # clingo's C code never returns to Python to see the signal: the kernel kills the
    # run at the hard limit, a second later
    assert "RLIMIT_CPU" in out["stats"]["stopped"] and out["stats"]["cpu_seconds"] < 3.5
    # in words: a search that polls its CPU deadline (in this process, the run forked)
    hard = tmp_path / "hard.txt"
    hard.write_text(format_x3c(random_x3c(60, 5, seed=1)))
    headline = run_cli("cover", "solve", hard, "-b", "dlx", "--cpu-limit", "0.3").stdout.splitlines()[0]
    assert "CPU limit reached" in headline and " s CPU" in headline, headline


def test_a_bench_run_records_its_cpu_and_the_report_shows_it(tmp_path):
    from pyasp_games.tools.bench.job import make_job, run_job
    from pyasp_games.tools.bench.report import build_report, markdown
    from pyasp_games.tools.bench.suite import InstanceRef

    ref = InstanceRef("tiny", {"generator": "x3c-regular", "params": {"q": 3, "d": 2, "planted": True}, "seed": 0})
    row = run_job(make_job("cover", ref, "dlx", "dlx", {}, 0, time_limit=60, cpu_limit=20))
    assert row["status"] == "solved" and row["verified"] is True
    # the run's process, start-up included, and the backend's run within it
    assert row["cpu"] >= row["stats"]["cpu_seconds"] >= 0
    text = markdown(build_report([row], {"suite": "t", "settings": {"time_limit": 60, "cpu_limit": 20}}))
    assert "CPU limit 20 s" in text and "CPU s" in text
