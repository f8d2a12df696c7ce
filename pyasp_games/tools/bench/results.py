"""A campaign's results directory: what it holds, how rows are written and read back.

``DIR/results.jsonl`` (one JSON object per run: the record of truth) and ``DIR/results.csv``
grow as runs finish (:class:`Sink`), so an interrupted campaign keeps what it has; resuming
repairs a line cut short by a kill and writes the CSV anew from the JSON lines
(:func:`open_dir`). ``DIR/suite.toml`` is a copy of the suite and ``DIR/meta.json`` records
the suite, the settings and each session: date, machine, versions, git commit
(:func:`write_meta`, :func:`finish_meta`; :mod:`pyasp_games.tools.bench.machine`).

>>> import tempfile
>>> out = Path(tempfile.mkdtemp())
>>> sink = Sink(out)
>>> sink.write({"instance": "a", "backend": "dlx", "repeat": 0, "status": "solved"})
>>> sink.close()
>>> [(r["instance"], r["status"]) for r in read_rows(out)]
[('a', 'solved')]
"""

from __future__ import annotations

import csv
import datetime
import json
import os
import time
from pathlib import Path
from typing import Any

from pyasp_games.engines.files import write_text
from pyasp_games.errors import InputError
from pyasp_games.tools.bench.machine import git_commit, machine, versions
from pyasp_games.tools.bench.suite import Suite

#: Files a campaign writes into its directory (``--force`` replaces them).
RESULTS = "results.jsonl"
CSV = "results.csv"
META = "meta.json"
SUITE = "suite.toml"
CSV_COLUMNS = (
    "suite",
    "domain",
    "instance",
    "size",
    "backend",
    "repeat",
    "status",
    "answer",
    "known",
    "seconds",
    "wall",
    "cpu",
    "verified",
    "error",
)


def read_rows(out: Path) -> list[dict[str, Any]]:
    """The rows recorded in ``out/results.jsonl`` (a line cut short by a kill is skipped).

    A run recorded twice (a run stopped by its limit and retried by ``--resume
    --retry-unknown``) is given once, by its last row, in the place of its first: the
    earlier row stays in the file as history, never in a table."""
    path = Path(out) / RESULTS
    if not path.is_file():
        return []
    return read_rows_counted(out)[0]


def read_rows_counted(out: Path) -> tuple[list[dict[str, Any]], list[int]]:
    """:func:`read_rows`, and the numbers of the lines that hold no row (not JSON, not
    text, not a result: a line cut short by a kill, or a file that is no results file)."""
    path = Path(out) / RESULTS
    if not path.is_file():
        return [], []
    rows: list[dict[str, Any]] = []
    bad: list[int] = []
    place: dict[tuple[Any, Any, Any], int] = {}  # a run's key -> its place in rows
    with open(path, "rb") as f:
        for number, raw in enumerate(f, 1):
            try:
                row = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError):
                row = None
            if isinstance(row, dict) and {"instance", "backend", "repeat"} <= set(row):
                run = (row["instance"], row["backend"], str(row["repeat"]))
                if run in place:  # retried: the later row supersedes the earlier one
                    rows[place[run]] = row
                else:
                    place[run] = len(rows)
                    rows.append(row)
            elif raw.strip():
                bad.append(number)
    return rows, bad


def check_out(
    out: Path | str, suite: Suite, time_limit: float, resume: bool, force: bool
) -> None:
    """Refuse what would lose or mix results: a non-empty ``out`` without ``resume`` or
    ``force``, or resuming a campaign of another suite or time limit."""
    out = Path(out)
    if resume and force:
        raise InputError("--resume and --force contradict each other (resume keeps the results)")
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {out}: exists and is not a directory")
    if resume:
        if not (out / RESULTS).is_file():
            raise InputError(f"--resume: {out} holds no {RESULTS} to continue")
        recorded = read_meta(out).get("settings", {})
        if recorded.get("time_limit") not in (None, time_limit):
            raise InputError(
                f"--resume: {out} was run with a {recorded['time_limit']:g} s limit, not {time_limit:g} s"
            )
        if (out / SUITE).is_file() and (out / SUITE).read_text() != suite.text:
            raise InputError(f"--resume: the suite differs from the one recorded in {out / SUITE}")
    elif out.is_dir() and any(out.iterdir()) and not force:
        raise InputError(f"--out {out}: directory is not empty (pass --resume or --force)")
    # the nearest existing folder must let us create the results folder and write in it
    existing = next(p for p in (out, *out.absolute().parents) if p.exists())
    if not existing.is_dir():
        raise InputError(f"--out {out}: {existing} is not a directory")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise InputError(f"--out {out}: permission denied in {existing}")


def open_dir(
    out: Path, suite: Suite, time_limit: float, resume: bool, force: bool
) -> list[dict[str, Any]]:
    """Check ``out`` (:func:`check_out`) and make it ready; the rows already there when resuming."""
    check_out(out, suite, time_limit, resume, force)
    if resume:
        _repair_tail(out / RESULTS)
        rows = read_rows(out)
        rewrite_csv(out, rows)
        return rows
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise InputError(f"--out {out}: cannot create it ({err.strerror})") from None
    # --force: start over, the old report and plots included
    for name in (RESULTS, CSV, META, SUITE, "report.md", f"{CSV}.partial", f"{META}.partial",
                 *(f"{p}.{e}" for p in ("cactus", "scaling") for e in ("png", "svg"))):
        (out / name).unlink(missing_ok=True)
    return []


def _repair_tail(path: Path) -> None:
    """Drop a last line cut short by a kill, so that appended rows start on a line of their own."""
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        path.write_bytes(data[: data.rfind(b"\n") + 1])


def rewrite_csv(out: Path, rows: list[dict[str, Any]]) -> None:
    """Write ``results.csv`` anew from the JSON-lines rows (the record of truth): a row
    cut short by a kill is gone, and a row that reached the JSON-lines file but not the
    CSV before the kill is back. Written beside and renamed, so a kill here loses nothing."""
    path = out / CSV
    partial = out / (CSV + ".partial")
    with open(partial, "w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(CSV_COLUMNS)
        for row in rows:
            writer.writerow(_csv_cells(row))
    os.replace(partial, path)


def _csv_cells(row: dict[str, Any]) -> list[Any]:
    return [
        json.dumps(row.get(c), default=str) if c in ("size", "answer", "known") else row.get(c)
        for c in CSV_COLUMNS
    ]


def write_meta(
    out: Path,
    suite: Suite,
    settings: dict[str, Any],
    executor_name: str,
    resumed: bool,
    runs: list[dict[str, Any]] | None = None,
    retry_unknown: bool = False,
) -> None:
    """Record the campaign (the suite, its ``settings``: the first session's) and this
    session in ``meta.json``: date, machine, versions, git commit, its own ``settings``
    (a resumed sitting may give another ``--cpu-limit``, other backends), whether it ran
    the runs stopped by a limit again (``retry_unknown``) and what it ran (``runs``, the
    jobs it had to do: their number and their instances); copy the suite beside it."""
    path = out / META
    meta = read_meta(out) if resumed else {}
    now = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    commit = git_commit([Path.cwd(), suite.folder])
    found = versions()
    session = {
        "date": now, "executor": executor_name, "machine": machine(),
        "git_commit": commit, "versions": found, "settings": settings,
        "retry_unknown": retry_unknown,
    }
    if runs is not None:
        session["runs"] = len(runs)
        session["instances"] = list(dict.fromkeys(run["instance"] for run in runs))
    meta.setdefault("suite", suite.name)
    meta.setdefault("domain", suite.domain)
    meta.setdefault("description", suite.description)
    meta.setdefault("scaling_x", suite.scaling_x)
    meta.setdefault("scaling_series", suite.scaling_series)
    meta.setdefault("settings", settings)
    # what the campaign started with; each session (a resumed one too) records its own
    meta.setdefault("versions", found)
    meta.setdefault("git_commit", commit)
    meta.setdefault("sessions", []).append(session)
    _write_json(path, meta)
    if not (out / SUITE).is_file():
        write_text(out / SUITE, suite.text)


class Sink:
    """Appends each finished run to the JSON-lines and CSV files at once."""

    def __init__(self, out: Path) -> None:
        new_csv = not (out / CSV).is_file()
        self.jsonl = open(out / RESULTS, "a", encoding="utf-8")  # noqa: SIM115 - closed in close()
        self.csv_file = open(out / CSV, "a", encoding="utf-8", newline="")  # noqa: SIM115
        self.csv = csv.writer(self.csv_file)
        if new_csv:
            self.csv.writerow(CSV_COLUMNS)

    def write(self, row: dict[str, Any]) -> None:
        self.jsonl.write(json.dumps(row, default=str) + "\n")
        self.jsonl.flush()
        self.csv.writerow(_csv_cells(row))
        self.csv_file.flush()

    def close(self) -> None:
        self.jsonl.close()
        self.csv_file.close()


def finish_meta(out: Path, started: float) -> None:
    """Record when the session ended and how long it took (an interrupted one has neither)."""
    path = out / META
    meta = read_meta(out)
    session = meta["sessions"][-1]
    session["finished"] = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    session["seconds"] = round(time.monotonic() - started, 1)
    _write_json(path, meta)


def _write_json(path: Path, data: dict[str, Any]) -> None:
    """Write beside and rename: a campaign killed here leaves the old file or the new one."""
    partial = path.with_name(path.name + ".partial")
    write_text(partial, json.dumps(data, indent=2, default=str) + "\n")
    os.replace(partial, path)


def read_meta(out: Path | str) -> dict[str, Any]:
    """``out/meta.json`` (empty when there is none); a damaged one is bad input."""
    path = Path(out) / META
    if not path.is_file():
        return {}
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError, OSError) as err:
        raise InputError(f"{path}: not a campaign's meta.json ({err})") from None
    if not isinstance(meta, dict):
        raise InputError(f"{path}: not a campaign's meta.json (not a JSON object)")
    return meta
