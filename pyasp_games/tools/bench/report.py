"""The report of a campaign directory: a Markdown summary and cactus and scaling plots.

Reads ``DIR/results.jsonl`` and ``DIR/meta.json`` (see :mod:`pyasp_games.tools.bench.campaign`)
and writes ``DIR/report.md`` (per backend: runs, solved, no-solution, unknown, error,
median and max seconds of the answered runs; per instance: every backend's answer and
whether they agree, by the crosscheck rules of :func:`pyasp_games.tools.crosscheck.agreement`),
``DIR/cactus.png|svg`` (instances answered within a time, per backend) and
``DIR/scaling.png|svg`` (median time per instance against the suite's size parameter,
log scale, an unanswered run counted as the time limit; one line per backend, or per
backend and value of the suite's ``scaling.series`` parameter).
A failed verification or a disagreement is listed first, under PROBLEMS, and makes
:attr:`Report.ok` false. A claim that stands unconfirmed (a user encoding's claim whose
reference gave no answer in time, or a claim beyond its checker that no second backend
settled: the runs whose command prints NOT VERIFIED and exits 3) is no failure: it is
counted in the ``not verified`` column and listed under NOT VERIFIED. An answer whose
checker confirmed only part of it (verified in part,
:attr:`~pyasp_games.engines.verdict.Verdict.in_part`) is counted in the ``in part``
column, never as a full check.

>>> rows = [
...     {"instance": "a", "backend": "x", "repeat": 0, "status": "solved", "answer": 3,
...      "seconds": 0.5, "verified": True, "size": {"n": 1}, "known": None, "stats": {}},
...     {"instance": "a", "backend": "y", "repeat": 0, "status": "solved", "answer": 4,
...      "seconds": 0.2, "verified": True, "size": {"n": 1}, "known": None, "stats": {}},
... ]
>>> report = build_report(rows, {"suite": "doc", "settings": {"time_limit": 1}})
>>> report.ok, report.problems
(False, ['a: the backends disagree (x: 3, y: 4)'])
>>> [(s.backend, s.solved, s.median) for s in report.backends]
[('x', 1, 0.5), ('y', 1, 0.2)]
"""

from __future__ import annotations

import json
import math
import statistics
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pyasp_games.engines.files import cannot_write, write_text
from pyasp_games.engines.verdict import UPPER_BOUND
from pyasp_games.errors import InputError
from pyasp_games.tools.bench.results import RESULTS, read_meta, read_rows_counted

ANSWERED = ("solved", "no-solution")


@dataclass
class BackendSummary:
    backend: str
    runs: int = 0
    solved: int = 0
    no_solution: int = 0
    unknown: int = 0
    error: int = 0
    failed_verification: int = 0
    not_verified: int = 0
    #: answers the checker confirmed only in part (the rest rests on the backend)
    in_part: int = 0
    median: float | None = None
    max: float | None = None
    #: medians, over the answered runs that report them, of the solver statistics that
    #: explain the time (:data:`EFFORT`): grounding vs solving seconds, the ground
    #: program's atoms and rules, choices and conflicts
    effort: dict[str, float] = field(default_factory=dict)


#: The statistics a report shows per backend: stats key -> column title. Every run
#: reports its CPU seconds (the backend's process tree,
#: :func:`~pyasp_games.engines.runner.run_backend`), the figure to compare on a loaded
#: machine, where wall seconds measure the load as much as the solver. clingo's
#: sessions report all of them (grounding and solving summed over horizons); a SAT
#: backend reports choices (decisions) and conflicts where PySAT gives them.
EFFORT = {
    "cpu_seconds": "CPU s",
    "time_ground": "ground s",
    "time_solve": "solve s",
    "lp_atoms": "atoms",
    "lp_rules": "rules",
    "choices": "choices",
    "conflicts": "conflicts",
}


@dataclass
class Report:
    meta: dict[str, Any]
    backends: list[BackendSummary]
    instances: list[dict[str, Any]]
    problems: list[str] = field(default_factory=list)
    #: runs whose claim no reference confirmed in time (see the module docstring)
    not_verified: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def _labels(rows: list[dict[str, Any]], meta: dict[str, Any]) -> list[str]:
    """The backends in the suite's order (rows arrive in the order runs finish)."""
    planned = [b["label"] for b in meta.get("settings", {}).get("backends", [])]
    present = set(r["backend"] for r in rows)
    return [b for b in planned if b in present] + sorted(present - set(planned))


def _outcome(row: dict[str, Any]) -> Any:
    """The row's outcome, its verdict read back from the row's statistics (the JSON
    shape, :meth:`~pyasp_games.engines.outcome.Outcome.from_dict`): the one record every
    column is read from."""
    from pyasp_games.engines.outcome import Outcome

    return Outcome.from_dict({
        "problem": row["instance"], "backend": row["backend"], "status": row["status"],
        "answer": row.get("answer"), "seconds": row.get("seconds") or 0.0,
        "stats": dict(row.get("stats") or {}),
    })  # fmt: skip


def unconfirmed(row: dict[str, Any]) -> str | None:
    """Why the run's claim stands unconfirmed (its command printed NOT VERIFIED and
    exited 3), or ``None``: :attr:`~pyasp_games.engines.outcome.Outcome.unconfirmed`."""
    return None if row["status"] == "error" else _outcome(row).unconfirmed


def failed_check(row: dict[str, Any]) -> bool:
    """The run's witness or claim failed its check: its verdict read back from the row's
    statistics."""
    return row["status"] == "error" and _outcome(row).verdict.failed


def _relation(rows: list[dict[str, Any]]) -> Any:
    """The rule of agreement of the campaign's question: its domain's
    (:meth:`~pyasp_games.engines.domain.DomainSpec.relation`) for a built-in domain, else
    the general one (a suite's own domain module may not be importable where the report
    is made)."""
    from pyasp_games.domains import DOMAINS, domain_spec
    from pyasp_games.engines.agreement import relation

    domains = {r.get("domain") for r in rows}
    if len(domains) == 1 and (name := domains.pop()) in DOMAINS:
        return domain_spec(name).relation
    return relation


def _show(value: Any) -> str:
    return json.dumps(value) if not isinstance(value, str) else value


def build_report(rows: list[dict[str, Any]], meta: dict[str, Any]) -> Report:
    """Summarise result rows (see the module docstring)."""
    from pyasp_games.tools.crosscheck import agreement

    relate = _relation(rows)
    labels = _labels(rows, meta)
    summaries = {b: BackendSummary(b) for b in labels}
    for r in rows:
        s = summaries[r["backend"]]
        s.runs += 1
        if r["status"] == "solved":
            s.solved += 1
        elif r["status"] == "no-solution":
            s.no_solution += 1
        elif r["status"] == "unknown":
            s.unknown += 1
        else:
            s.error += 1
        if unconfirmed(r) is not None:
            s.not_verified += 1
        elif failed_check(r):
            s.failed_verification += 1
        elif _outcome(r).verdict.in_part:
            s.in_part += 1
    for b, s in summaries.items():
        answered = [r for r in rows if r["backend"] == b and r["status"] in ANSWERED]
        times = [r["seconds"] for r in answered]
        if times:
            s.median, s.max = round(statistics.median(times), 4), round(max(times), 4)
        for key in EFFORT:
            values = [r["stats"][key] for r in answered if isinstance((r.get("stats") or {}).get(key), int | float)]
            if values:
                s.effort[key] = round(statistics.median(values), 4)
    problems = []
    unverified = []
    by_instance: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by_instance[r["instance"]].append(r)
    instances = []
    for name, group in by_instance.items():
        known = group[0].get("known")
        verdicts = agreement([_outcome(r) for r in group], (known is not None, known), relate)
        for r in group:
            why = unconfirmed(r)
            if why is not None:
                unverified.append(f"{name}: {r['backend']} (repeat {r['repeat']}) not verified: {why}")
            elif failed_check(r):
                why = _outcome(r).verdict.message or r.get("error") or ""
                problems.append(f"{name}: {r['backend']} (repeat {r['repeat']}) FAILED verification: {why}")
        if not all(agrees for agrees, _ in verdicts):
            answers = ", ".join(
                f"{b}: {a}" for b, a in dict.fromkeys(
                    (r["backend"], _show(r.get("answer"))) for r in group if r["status"] in ANSWERED
                )
            )
            problems.append(f"{name}: the backends disagree ({answers})")
        wrong = sorted({r["backend"] for r, (_, k) in zip(group, verdicts, strict=True) if not k})
        if wrong:
            problems.append(f"{name}: {', '.join(wrong)} differ from the known answer {_show(known)}")
        cells = {}
        for b in labels:
            mine = [r for r in group if r["backend"] == b]
            cells[b] = _cell(mine)
        instances.append(
            {
                "instance": name,
                "size": group[0].get("size") or {},
                "known": known,
                "cells": cells,
                "agree": all(agrees for agrees, _ in verdicts) and not any(map(failed_check, group)),
            }
        )
    return Report(meta, list(summaries.values()), instances, problems, unverified)


def _cell(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "-"
    answered = [r for r in rows if r["status"] in ANSWERED]
    if len(answered) == len(rows):
        answers = {_show(r.get("answer")) for r in answered}
        time = statistics.median(r["seconds"] for r in answered)
        bound = " (bound)" if any(_outcome(r).verdict.kind == UPPER_BOUND for r in answered) else ""
        return f"{' / '.join(sorted(answers))}{bound}, {time:.3g} s"
    statuses = sorted({r["status"] for r in rows if r["status"] not in ANSWERED})
    return " / ".join(statuses) + (f" ({len(answered)}/{len(rows)} answered)" if answered else "")


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.3g}"


def effort_columns(report: Report) -> list[str]:
    """The :data:`EFFORT` statistics some backend of the report has."""
    return [k for k in EFFORT if any(k in s.effort for s in report.backends)]


def sittings_of(meta: dict[str, Any]) -> list[dict[str, Any]]:
    """Each session of a campaign with the limits it ran under: its own ``settings``
    (recorded since sessions record them; an older session: the campaign's), how many
    runs it had to do (``None``: not recorded) and whether it ran again the runs stopped
    by a limit.

    >>> meta = {"settings": {"cpu_limit": 300}, "sessions": [{"date": "d1"},
    ...     {"date": "d2", "settings": {"cpu_limit": 1200}, "runs": 2, "retry_unknown": True}]}
    >>> [(s["date"], s["cpu_limit"], s["runs"]) for s in sittings_of(meta)]
    [('d1', 300, None), ('d2', 1200, 2)]
    """
    first = meta.get("settings", {})
    out = []
    for session in meta.get("sessions", []):
        settings = session.get("settings", first)
        out.append({
            "date": session.get("date"), "cpu_limit": settings.get("cpu_limit"),
            "memory_limit_mb": settings.get("memory_limit_mb"), "runs": session.get("runs"),
            "retry_unknown": bool(session.get("retry_unknown")),
        })  # fmt: skip
    return out


def markdown(report: Report) -> str:
    """The report as Markdown (what ``report.md`` holds)."""
    meta = report.meta
    settings = meta.get("settings", {})
    lines = [f"# Benchmark report: {meta.get('suite', '?')} ({meta.get('domain', '?')})", ""]
    if meta.get("description"):
        lines += [meta["description"], ""]
    sessions = meta.get("sessions", [])
    if sessions:
        m = sessions[-1].get("machine", {})
        took = sum(s.get("seconds", 0) for s in sessions)
        lines.append(
            f"Run {', '.join(s['date'] for s in sessions)}"
            + (f" ({took:g} s in all, preparation included)" if took else "")
            + f" on {m.get('host')} "
            f"({m.get('processor')}, {m.get('cpus')} CPUs, Python {m.get('python')}, "
            f"load {_fmt(m.get('load_average_1min'))} at start); executor {sessions[-1].get('executor')}."
        )
    versions = meta.get("versions", {})
    if versions:
        lines.append("Versions: " + ", ".join(f"{k} {v}" for k, v in versions.items())
                     + (f"; commit {meta['git_commit'][:10]}" if meta.get("git_commit") else "") + ".")
    first = meta.get("versions", {})
    later = [
        s for s in sessions[1:]
        if s.get("git_commit", meta.get("git_commit")) != meta.get("git_commit")
        or s.get("versions", first) != first
    ]
    if later:  # a campaign resumed on other code: its rows do not all time the same code
        notes = []
        for s in later:
            changed = [f"{k} {v}" for k, v in s.get("versions", first).items() if first.get(k) != v]
            notes.append(f"{s['date']}: commit {(s.get('git_commit') or 'unknown')[:10]}"
                         + "".join(f", {c}" for c in changed))
        lines.append("Resumed on other code: " + "; ".join(notes) + ".")
    lines.append(
        f"Time limit {settings.get('time_limit', '?')} s per run"
        + (f", CPU limit {settings['cpu_limit']:g} s" if settings.get("cpu_limit") else "")
        + f", repeat {settings.get('repeat', 1)}"
        + (f", memory limit {settings['memory_limit_mb']} MB" if settings.get("memory_limit_mb") else "")
        + f"; {len(report.instances)} instances."
    )
    sittings = sittings_of(meta)
    if len({(s["cpu_limit"], s["memory_limit_mb"]) for s in sittings}) > 1:
        # a resumed sitting with another cap: its rows were not all run under the first
        lines.append("Sittings: " + "; ".join(
            f"{s['date']}" + (f", {s['runs']} runs" if s["runs"] is not None else "")
            + (f", CPU limit {s['cpu_limit']:g} s" if s["cpu_limit"] else ", no CPU limit")
            + (f", memory limit {s['memory_limit_mb']} MB" if s["memory_limit_mb"] else "")
            + (", the runs stopped by a limit again" if s["retry_unknown"] else "")
            for s in sittings) + ".")  # fmt: skip
    lines.append("")
    if report.problems:
        lines += ["## PROBLEMS", ""]
        lines += [f"- **{p}**" for p in report.problems]
        lines.append("")
    else:
        lines += [
            "Every answer verified where checkable"
            + (" (except those not verified below)" if report.not_verified else "")
            + "; all backends agree on every instance and with every known answer.",
            "",
        ]
    if report.not_verified:
        lines += ["## NOT VERIFIED", "",
                  "A user encoding's claim whose reference backend gave no answer in time: "
                  "neither confirmed nor refuted.", ""]  # fmt: skip
        lines += [f"- {p}" for p in report.not_verified]
        lines.append("")
    lines += [
        "## Per backend",
        "",
        "| backend | runs | solved | no-solution | unknown | error | not verified | verified in part "
        "| median s | max s |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for s in report.backends:
        error = f"{s.error}" + (f" ({s.failed_verification} FAILED verification)" if s.failed_verification else "")
        lines.append(
            f"| {s.backend} | {s.runs} | {s.solved} | {s.no_solution} | {s.unknown} | {error} "
            f"| {s.not_verified} | {s.in_part} | {_fmt(s.median)} | {_fmt(s.max)} |"
        )
    lines += ["", "Median and max over the answered runs (solved or no-solution).", ""]
    shown = effort_columns(report)
    if shown:
        lines += [
            "## What the time went to",
            "",
            "| backend | " + " | ".join(EFFORT[k] for k in shown) + " |",
            "|---|" + "---:|" * len(shown),
        ]
        for s in report.backends:
            cells = " | ".join(_fmt(s.effort.get(k)) for k in shown)
            lines.append(f"| {s.backend} | {cells} |")
        lines += ["", "Medians over the answered runs that report them (- where a backend "
                  "does not): grounding and solving seconds, the ground program's atoms and "
                  "rules, and the search's choices and conflicts.", ""]  # fmt: skip
    labels = [s.backend for s in report.backends]
    lines += [
        "## Per instance",
        "",
        "| instance | known | " + " | ".join(labels) + " | agree |",
        "|---|---|" + "---|" * len(labels) + "---|",
    ]
    for inst in report.instances:
        known = "-" if inst["known"] is None else _show(inst["known"])
        row = " | ".join(inst["cells"][b] for b in labels)
        lines.append(f"| {inst['instance']} | {known} | {row} | {'yes' if inst['agree'] else '**NO**'} |")
    lines += [
        "",
        "Cells: the answer and the median seconds of the repeats, or the status of runs without an "
        "answer; `(bound)`: an answer not claimed optimal.",
        "",
        "![cactus plot](cactus.png)",
        "",
        "![scaling plot](scaling.png)",
        "",
    ]
    return "\n".join(lines)


# -- plots -------------------------------------------------------------------------------


def _per_instance_times(rows: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """``{backend: {instance: median seconds}}`` over runs with an answer, all repeats answered."""
    runs: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        runs[(r["backend"], r["instance"])].append(r)
    times: dict[str, dict[str, float]] = defaultdict(dict)
    for (backend, instance), group in runs.items():
        if all(r["status"] in ANSWERED for r in group):
            times[backend][instance] = statistics.median(r["seconds"] for r in group)
    return times


def plot(rows: list[dict[str, Any]], meta: dict[str, Any], out: Path) -> list[Path]:
    """Write ``cactus`` and ``scaling`` as PNG and SVG into ``out``; the files written."""
    import matplotlib

    matplotlib.use("Agg")  # files only: never a display
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    matplotlib.rcParams["svg.hashsalt"] = "pyasp-games"  # the same SVG for the same data
    labels = _labels(rows, meta)
    times = _per_instance_times(rows)
    limit = meta.get("settings", {}).get("time_limit")
    suite = meta.get("suite", "")
    written = []

    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for b in labels:
        ts = sorted(times.get(b, {}).values())
        ax.step([max(t, 1e-4) for t in ts], range(1, len(ts) + 1), where="post", marker=".", label=b)
    ax.set_xscale("log")
    ax.set_xlabel("time limit per instance (s, log scale)")
    ax.set_ylabel("instances answered")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # counts, not fractions
    if limit:
        ax.axvline(limit, color="grey", linestyle=":", linewidth=1)
    ax.set_title(f"{suite}: cactus plot")
    ax.legend(fontsize="small")
    ax.grid(True, which="both", alpha=0.3)
    written += _save(fig, out / "cactus")
    plt.close(fig)

    x_name = meta.get("scaling_x")
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    instances = list(dict.fromkeys(r["instance"] for r in rows))
    size = {r["instance"]: r.get("size") or {} for r in rows}
    known = {r["instance"]: r.get("known") for r in rows}

    answer: dict[str, Any] = {}
    for r in rows:  # "answer": the instance's exact answer (e.g. an optimal plan's length)
        if r["status"] in ANSWERED and _outcome(r).verdict.exact:
            answer.setdefault(r["instance"], r.get("answer"))

    def x_of(instance: str) -> Any:
        if x_name == "known":
            return known[instance]
        if x_name == "answer":
            return answer.get(instance)
        if x_name:
            return size[instance].get(x_name)
        return instances.index(instance)

    series_name = meta.get("scaling_series")
    # an unanswered run counts as the limit (or, without one, as the slowest answer seen)
    ceiling = limit or max((t for ts in times.values() for t in ts.values()), default=1.0)
    for b in labels:
        points: dict[tuple[Any, Any], list[float]] = defaultdict(list)
        for inst in instances:
            x = x_of(inst)
            if not isinstance(x, int | float) or isinstance(x, bool):
                continue
            if not any(r["backend"] == b and r["instance"] == inst for r in rows):
                continue  # the backend does not apply to this instance
            series = size[inst].get(series_name) if series_name else None
            points[(series, x)].append(times.get(b, {}).get(inst, math.inf))
        for series in sorted({k[0] for k in points}, key=str):
            xs = sorted(x for (s, x) in points if s == series)
            ys = [statistics.median(min(t, ceiling) for t in points[(series, x)]) for x in xs]
            label = b if series is None else f"{b} ({series_name} {series})"
            line = ax.plot(xs, [max(y, 1e-4) for y in ys], marker="o", label=label)
            out_of_reach = [x for x in xs if statistics.median(points[(series, x)]) == math.inf]
            if out_of_reach:  # most instances of that size unanswered: the median is a floor
                ax.plot(out_of_reach, [ceiling] * len(out_of_reach), linestyle="none",
                        marker="x", markersize=9, color=line[0].get_color())
    ax.set_yscale("log")
    ax.set_xlabel(x_name if x_name else "instance (suite order)")
    ax.set_ylabel("median time per instance (s, log)")
    ax.set_title(f"{suite}: scaling (unanswered = the limit; x: median unanswered)", fontsize="medium")
    if limit:
        ax.axhline(limit, color="grey", linestyle=":", linewidth=1)
    ax.legend(fontsize="small")
    ax.grid(True, which="both", alpha=0.3)
    written += _save(fig, out / "scaling")
    plt.close(fig)
    return written


def _save(fig: Any, stem: Path) -> list[Path]:
    fig.tight_layout()
    png, svg = stem.with_suffix(".png"), stem.with_suffix(".svg")
    for path, options in ((png, {"dpi": 100}), (svg, {"metadata": {"Date": None}})):
        try:
            fig.savefig(path, **options)
        except OSError as err:
            raise cannot_write(path, err) from None
    return [png, svg]


def write_report(out: Path | str) -> tuple[Report, list[Path]]:
    """Read a campaign directory, write ``report.md`` and the plots; the report and files."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise InputError(f"bench report: {out}: a file, not a campaign directory (bench run --out)")
    if not out.is_dir():
        raise InputError(f"bench report: {out}: no such directory")
    if not (out / RESULTS).is_file():
        raise InputError(f"bench report: {out} holds no {RESULTS} (run a campaign into it first)")
    rows, bad = read_rows_counted(out)
    if not rows and bad:
        shown = ", ".join(map(str, bad[:5])) + (", ..." if len(bad) > 5 else "")
        raise InputError(
            f"bench report: {out / RESULTS} holds no results: none of its {len(bad):,} lines "
            f"is a result row (lines {shown}; not a results file, or a damaged one)"
        )
    if not rows:
        raise InputError(f"bench report: {out / RESULTS} holds no results yet")
    meta = read_meta(out)
    report = build_report(rows, meta)
    path = out / "report.md"
    write_text(path, markdown(report))
    return report, [path, *plot(rows, meta, out)]
