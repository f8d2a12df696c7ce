"""One bench run in a process of its own: ``python -m pyasp_games.tools.bench.job < job.json``.

:func:`run_job` is what an executor (a local process pool or a Dask worker)
executes for each run. It starts a fresh Python with :mod:`subprocess`, hands it
the job as JSON on stdin and reads one JSON result line back. Why a subprocess and
not ``multiprocessing``: executor workers are often daemonic (a
``ProcessPoolExecutor``'s workers, Dask's worker processes) and daemonic processes
may not have ``multiprocessing`` children, while ``subprocess`` works in every
worker; a fresh interpreter also starts from a clean state, not from whatever the
worker holds. The child runs the worker's own copy of the package
(:func:`pyasp_games.engines.child.python_command`), never a source tree that happens
to be in the current directory. The job names its instance by reference (file and
index, or generator, parameters and seed), so the child rebuilds it.

Inside the child:

- the memory limit (``memory_mb``) is set with ``resource.setrlimit(RLIMIT_AS)``
  before the domain and its solvers are imported, so an allocation beyond it fails in
  this run only (``MemoryError``, or the solver's process dying);
- on Linux the child asks to be killed when the worker that started it dies, so a
  stopped campaign leaves no solver running;
- the domain's ``solve`` runs with the time limit (the library enforces it inside:
  deadlines polled by the solvers and, in :func:`pyasp_games.engines.runner.run_backend`,
  a forked solver process stopped 0.5 s after the limit);
- the result goes to a private copy of stdout; the solvers' own prints go to stderr.

Outside, :func:`run_job` kills the child's whole process group ``kill_after``
seconds after it started (a solver that ignores every interrupt), and turns a child
that died (a crash, the memory limit) into an ``error`` row with the reason.

>>> from pyasp_games.tools.bench.suite import InstanceRef
>>> job = make_job("cover", InstanceRef("tiny", {"generator": "x3c-regular",
...     "params": {"q": 3, "d": 2, "planted": True}, "seed": 0}),
...     "dlx", "dlx", {}, 0, time_limit=10)
>>> row = run_job(job)
>>> row["status"], row["answer"], row["verified"], row["backend"], row["instance"]
('solved', True, True, 'dlx', 'tiny')
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from typing import Any

from pyasp_games.engines.child import python_command
from pyasp_games.engines.processes import die_with_parent, worker_init

#: Seconds a run may take past its time limit (interpreter start-up, reading the
#: instance, verification) before its process group is killed.
KILL_MARGIN = 10.0

#: Statistics kept in a result row: scalar values only (a clingo statistics tree or
#: a witness-sized list would swell the results files).
MAX_STAT_TEXT = 300


def make_job(
    domain: str,
    instance: Any,
    label: str,
    backend: str,
    options: dict[str, Any],
    repeat: int,
    time_limit: float,
    memory_mb: int | None = None,
    suite: str = "",
    folder: str | None = None,
    kill_after: float | None = None,
    cpu_limit: float | None = None,
) -> dict[str, Any]:
    """The JSON-able description of one run (``instance`` an :class:`InstanceRef`)."""
    return {
        "suite": suite,
        "domain": domain,
        "folder": folder,
        "instance": instance.id,
        "ref": instance.ref,
        "size": instance.size,
        "backend": label,
        "solver": backend,
        "options": options,
        "repeat": repeat,
        "time_limit": time_limit,
        "cpu_limit": cpu_limit,
        "memory_mb": memory_mb,
        "kill_after": kill_after if kill_after is not None else time_limit + KILL_MARGIN,
    }


#: The run this worker is waiting for (its child process), if any: what a local pool
#: worker kills when it is stopped (:func:`pool_worker_init`). Only read there, where
#: one job runs at a time; threads of other executors may overwrite it harmlessly.
_CURRENT: subprocess.Popen | None = None


def pool_worker_init() -> None:
    """Initializer of the local pool's workers: SIGTERM (the campaign stopping the pool)
    or SIGINT (Ctrl-C reaching the whole process group) kills the run in progress, if
    any, with its process group, and ends the worker at once and quietly."""
    worker_init(on_stop=_stop_current)


def _stop_current() -> None:
    if _CURRENT is not None:
        _kill(_CURRENT)


def key(row: dict[str, Any]) -> tuple[str, str, int]:
    """What identifies a run across a resumed campaign."""
    return (row["instance"], row["backend"], int(row["repeat"]))


def _row(job: dict[str, Any], **fields: Any) -> dict[str, Any]:
    row = {
        "suite": job["suite"],
        "domain": job["domain"],
        "instance": job["instance"],
        "size": job["size"],
        "backend": job["backend"],
        "solver": job["solver"],
        "repeat": job["repeat"],
        "status": "error",
        "answer": None,
        "known": None,
        "seconds": None,
        "wall": None,
        "cpu": None,
        "verified": None,
        "error": None,
        "stats": {},
    }
    row.update(fields)
    return row


def run_job(job: dict[str, Any]) -> dict[str, Any]:
    """Run one job in a child process under its limits; always return a result row."""
    env = dict(os.environ)
    # one BLAS thread: its per-thread buffers would otherwise eat an address-space limit
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    global _CURRENT
    start, cpu_start = time.monotonic(), _children_cpu()
    process = subprocess.Popen(
        # this worker's own pyasp_games, never a source tree in the current directory
        python_command("pyasp_games.tools.bench.job"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,  # a process group of its own: killed with its solver child
    )
    _CURRENT = process
    try:
        out, err = process.communicate(json.dumps(job), timeout=job["kill_after"])
    except subprocess.TimeoutExpired:
        _kill(process)
        process.communicate()
        wall = round(time.monotonic() - start, 4)
        return _row(
            job,
            status="unknown",
            seconds=wall,
            wall=wall,
            cpu=_children_cpu() - cpu_start,
            stats={"limit": "time", "stopped": f"the run's process was killed after {job['kill_after']:g} s"},
        )
    except BaseException:  # interrupted (Ctrl-C in a thread or Dask worker): leave no orphan
        _kill(process)
        raise
    finally:
        _CURRENT = None
    wall = round(time.monotonic() - start, 4)
    cpu = _children_cpu() - cpu_start  # the run's whole process tree, start-up included
    lines = [line for line in out.splitlines() if line.strip()]
    if process.returncode == 0 and lines:
        try:
            row = json.loads(lines[-1])
        except json.JSONDecodeError:
            row = None
        if isinstance(row, dict):
            row["wall"], row["cpu"] = wall, cpu
            if row.get("status") == "error" and _out_of_memory(job, err):
                # a solver process that died at the memory limit (e.g. clingo unable to
                # start a thread) reported as the backend failing: it reached the limit
                return _memory_stop(row, job, row["error"])
            return row
    reason = _death(process.returncode, err, job)
    if _out_of_memory(job, err):
        return _memory_stop(_row(job, seconds=wall, wall=wall, cpu=cpu), job, reason)
    if job.get("cpu_limit") and process.returncode in _CPU_KILLED:
        # the kernel ended the run's process at its CPU limit (_limit_cpu): a limit reached
        stopped = f"the operating system ended the run after {cpu:.1f} s of CPU (RLIMIT_CPU)"
        return _row(job, status="unknown", seconds=wall, wall=wall, cpu=cpu,
                    stats={"limit": "cpu", "stopped": stopped})  # fmt: skip
    return _row(job, seconds=wall, wall=wall, cpu=cpu, error=reason)


#: How a run's process ends at the hard CPU limit (SIGKILL) or at the soft one where
#: nothing caught its signal (SIGXCPU).
_CPU_KILLED = (-signal.SIGKILL, -getattr(signal, "SIGXCPU", signal.SIGKILL))


def _children_cpu() -> float:
    """CPU seconds of this process's ended children (a run's process and its own
    children, once it has been waited for): one run at a time per worker."""
    import resource

    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return round(used.ru_utime + used.ru_stime, 4)


def _kill(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        process.kill()


def _death(code: int, stderr: str, job: dict[str, Any]) -> str:
    """Why a run's process ended without a result, in one line."""
    if code < 0:
        try:
            reason = f"killed by {signal.Signals(-code).name}"
        except ValueError:
            reason = f"killed by signal {-code}"
    else:
        reason = f"exit code {code}"
    tail = [line.strip() for line in stderr.splitlines() if line.strip()]
    last = tail[-1][:MAX_STAT_TEXT] if tail else ""
    return f"the run's process died ({reason})" + (f": {last}" if last else "")


#: What a process (Python, a C++ solver, the C library) says when an allocation fails.
OUT_OF_MEMORY = ("MemoryError", "bad_alloc", "cannot allocate memory", "out of memory")


def _out_of_memory(job: dict[str, Any], stderr: str) -> bool:
    """Whether a run under a memory limit failed for want of memory (its stderr says so)."""
    text = stderr.lower()
    return bool(job.get("memory_mb")) and any(sign.lower() in text for sign in OUT_OF_MEMORY)


def _memory_stop(row: dict[str, Any], job: dict[str, Any], reason: str) -> dict[str, Any]:
    """``row`` as a run stopped by its memory limit: ``unknown`` with ``stats["limit"] =
    "memory"``, as everywhere a limit is reached (never an ``error``)."""
    stopped = f"memory limit of {job['memory_mb']} MB reached ({reason})"[:MAX_STAT_TEXT]
    stats = {k: v for k, v in (row.get("stats") or {}).items() if k != "error"}
    row.update(status="unknown", error=None, stats={**stats, "limit": "memory", "stopped": stopped})
    return row


def _scalar_stats(stats: dict[str, Any], stopped: bool = False) -> dict[str, Any]:
    """The statistics a row keeps: the scalar ones (text cut at :data:`MAX_STAT_TEXT`);
    of a run ``stopped`` by a limit, also the small lists and tables of scalars it
    reported (its search so far: IDA*'s thresholds, the horizons tried, the openings
    settled), each if its JSON fits in :data:`MAX_STAT_TEXT` characters.

    >>> _scalar_stats({"nodes": 7, "thresholds": [43, 45], "tree": {"a": {"b": 1}}})
    {'nodes': 7}
    >>> _scalar_stats({"nodes": 7, "thresholds": [43, 45], "tree": {"a": {"b": 1}}}, stopped=True)
    {'nodes': 7, 'thresholds': [43, 45]}
    """
    kept = {}
    for name, value in stats.items():
        if _scalar(value):
            kept[name] = value[:MAX_STAT_TEXT] if isinstance(value, str) else value
        elif stopped and _small(value):
            kept[name] = value
    return kept


def _scalar(value: Any) -> bool:
    return isinstance(value, bool | int | float | str) or value is None


def _small(value: Any) -> bool:
    """A list or table of scalars whose JSON is short (a row stays one short line)."""
    if isinstance(value, list | tuple):
        items = value
    elif isinstance(value, dict):
        items = list(value.values())
    else:
        return False
    try:
        return all(_scalar(v) for v in items) and len(json.dumps(value)) <= MAX_STAT_TEXT
    except (TypeError, ValueError):  # keys JSON cannot write
        return False


def execute(job: dict[str, Any]) -> dict[str, Any]:
    """Rebuild the instance and solve it (in the child); the result row."""
    from pyasp_games.engines.limits import Limits
    from pyasp_games.tools.bench.suite import load_domain, make_instance

    spec = load_domain(job["domain"], job.get("folder"))
    instance = make_instance(spec, job["ref"])
    has_known, known = spec.known(instance)
    limits = Limits(time_limit=job["time_limit"], cpu_limit=job.get("cpu_limit"))
    outcome = spec.solve(instance, job["solver"], limits, **job["options"])
    # the verdict's keys as in the JSON output: the report reads the verdict back from them
    # a run stopped by a limit keeps what its search reported so far, small lists too
    stats = _scalar_stats({**outcome.stats, **outcome.verdict.to_stats()}, stopped=outcome.status == "unknown")
    error = None
    if outcome.status == "error":
        why = outcome.stats.get("error") or outcome.verdict.message
        error = why or "the backend reported an error"
    return _row(
        job,
        status=outcome.status,
        answer=outcome.answer,
        known=known if has_known else None,
        seconds=outcome.seconds,
        verified=outcome.verdict.verified_as_written,  # "partial": verified in part
        error=error,
        stats=stats,
    )


def _limit_memory(megabytes: int) -> None:
    import resource

    limit = megabytes * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _limit_cpu(seconds: float) -> None:
    """The run's whole process (start-up, reading, solving, checking) is ended by the
    kernel :data:`KILL_MARGIN` CPU seconds past its limit (the backend stops at the
    limit by itself: :func:`~pyasp_games.engines.runner.run_backend`)."""
    import math
    import resource

    soft = math.ceil(seconds + KILL_MARGIN)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 1))


def main() -> None:
    """The child's entry point: a job on stdin, one result line on the saved stdout."""
    die_with_parent()
    result = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # anything a solver prints goes to stderr, not into the result
    job = json.loads(sys.stdin.read())
    if job.get("memory_mb"):
        _limit_memory(job["memory_mb"])
    if job.get("cpu_limit"):
        _limit_cpu(job["cpu_limit"])
    try:
        row = execute(job)
    except MemoryError:  # outside the backend (reading the instance, importing a solver)
        row = _memory_stop(_row(job), job, "MemoryError")
    except Exception as err:  # the reason goes into the row; the campaign goes on
        row = _row(job, error=f"{err.__class__.__name__}: {err}"[:MAX_STAT_TEXT])
    result.write(json.dumps(row, default=str) + "\n")
    result.flush()


if __name__ == "__main__":
    main()
