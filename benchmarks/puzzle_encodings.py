"""Benchmark the sliding-puzzle encodings: ours, its ablations, the thesis' seed, SAT, native.

What it measures, on the thesis boards 1 (24 moves) and 2 (12 moves) and the two
31-move 8-puzzle boards of ``eight-puzzle-hardest.txt`` (all bundled):

- ``asp:sliding``: our multi-shot ASP encoding through the library
  (``pyasp_games.domains.puzzle.solve(board, "asp", ..., encoding="sliding")``); the time
  includes grounding and the optimality proof (every shorter horizon refuted).
- ``asp:sliding-no-*``: ablations of ``sliding.lp``. Each variant is written to a
  temporary directory with one rule block removed (the per-step Manhattan-sum
  ``#sum`` bound, the per-tile distance bound, both bounds, the no-immediate-undo
  constraint, the parity constraint) and run by path through the same library
  call. Rules are found by their exact text lines; if ``sliding.lp`` no longer
  contains a line, the script stops with an error instead of measuring nonsense.
- ``asp:seed``: the thesis' single-shot encoding through the library's horizon
  loop (re-ground for every horizon, from the Manhattan bound upwards).
- ``seed@t=opt``: the thesis' encoding the way the thesis ran it: one grounding
  and one solve at the known optimal horizon only (``-c t=N``), through
  :class:`~pyasp_games.engines.clingo_runner.ClingoSession`. This is given the
  optimum, so it proves nothing about shorter plans; its plan is still verified.
- ``sat:<solver>``: the PySAT backend with glucose4, cadical195 and minisat22.
- ``native:astar`` and ``native:idastar`` for reference.

Every run is sequential and in-process, with a wall-clock limit per run; with
``--repeat K`` the median of K runs is reported (a run that hits its limit is not
repeated). A Markdown table (instance, variant, status, answer, seconds,
horizons) goes to stdout and, with ``--out``, to a file. Besides wall-clock
seconds the table gives the process' CPU seconds (less disturbed by other
processes on a shared machine) and notes the load average seen before the runs.

Run ``python benchmarks/puzzle_encodings.py --help`` for the options.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pyasp_games.domains.puzzle import check_outcome, load_boards, parse_board, solve
from pyasp_games.domains.puzzle.asp import THESIS_INTERFACE, facts, plan_from_symbols, seed_facts
from pyasp_games.domains.puzzle.model import Board
from pyasp_games.engines.clingo_runner import ClingoSession
from pyasp_games.engines.limits import LimitReached, Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.resources import encoding_path, instance_dir
from pyasp_games.errors import InputError

DOMAIN = "puzzle"
INSTANCE_FILES = ("thesis-board1.txt", "thesis-board2.txt", "eight-puzzle-hardest.txt")

#: The rules of ``sliding.lp`` that the ablations remove, by their exact text.
RULES: dict[str, str] = {
    "sum-bound": ":- query(t), T = 0..t, #sum { K,V : at(T,V,X,Y), dist(V,X,Y,K) } > t - T.",
    "tile-bound": ":- query(t), at(T,V,X,Y), dist(V,X,Y,K), K > t - T.",
    "undo": ":- blank(t,X,Y), blank(t-2,X,Y), t > 1.",
    "parity": ":- query(t), md0(M), (t - M) \\ 2 != 0.",
}
#: Ablation variant -> the rules it removes.
ABLATIONS: dict[str, tuple[str, ...]] = {
    "sliding-no-sum-bound": ("sum-bound",),
    "sliding-no-tile-bound": ("tile-bound",),
    "sliding-no-bounds": ("sum-bound", "tile-bound"),
    "sliding-no-undo": ("undo",),
    "sliding-no-parity": ("parity",),
}
SAT_SOLVERS = ("glucose4", "cadical195", "minisat22")
SEED_ONLY = "seed.lp handles 4x4 blank-last boards only"


@dataclass
class Run:
    """One measured run of one variant on one board."""

    status: str
    answer: int | None
    seconds: float
    horizons: list[int] = field(default_factory=list)
    note: str = ""
    details: str = ""
    cpu: float = 0.0
    load: float = 0.0


@dataclass
class Row:
    """The table row of one (instance, variant): the median over its runs."""

    instance: str
    variant: str
    runs: list[Run]

    @property
    def status(self) -> str:
        statuses = sorted({r.status for r in self.runs})
        return "/".join(statuses)

    @property
    def answer(self) -> str:
        answers = sorted({str(r.answer) for r in self.runs if r.answer is not None})
        return "/".join(answers) if answers else "-"

    @property
    def seconds(self) -> str:
        solved = [r.seconds for r in self.runs if r.status in ("solved", "no-solution")]
        if len(solved) == len(self.runs) and solved:
            return f"{statistics.median(solved):.3f}"
        if self.runs and self.runs[0].status == "n/a":
            return "-"
        return f">{max(r.seconds for r in self.runs):.1f}"

    @property
    def cpu(self) -> str:
        if self.seconds.startswith((">", "-")):
            return "-"
        return f"{statistics.median(r.cpu for r in self.runs):.3f}"

    @property
    def load(self) -> float:
        """The highest 1-minute load average seen just before one of the runs."""
        return max((r.load for r in self.runs), default=0.0)

    @property
    def horizons(self) -> str:
        first = self.runs[0].horizons if self.runs else []
        text = ",".join(str(h) for h in first) if first else "-"
        notes = sorted({r.note for r in self.runs if r.note})
        return text + (f" ({'; '.join(notes)})" if notes else "")

    @property
    def details(self) -> str:
        return self.runs[0].details if self.runs and self.runs[0].details else "-"


def ablated_text(source: str, remove: Sequence[str]) -> str:
    """``source`` with each rule in ``remove`` commented out; fail if one is missing.

    A rule is found by an exact match of a whole line (surrounding whitespace
    ignored) and must occur exactly once.
    """
    lines = source.splitlines()
    for name in remove:
        rule = RULES[name]
        hits = [i for i, line in enumerate(lines) if line.strip() == rule]
        if len(hits) != 1:
            raise SystemExit(
                f"error: the {name} rule {rule!r} occurs {len(hits)} times in sliding.lp "
                "(expected exactly once); update RULES in benchmarks/puzzle_encodings.py"
            )
        lines[hits[0]] = f"% ablated ({name}): {rule}"
    return "\n".join(lines) + "\n"


def write_ablations(directory: Path) -> dict[str, Path]:
    """Write every ablation variant of ``sliding.lp`` into ``directory``."""
    source = encoding_path(DOMAIN, "sliding").read_text()
    paths = {}
    for variant, remove in ABLATIONS.items():
        path = directory / f"{variant}.lp"
        path.write_text(ablated_text(source, remove))
        paths[variant] = path
    return paths


def from_outcome(outcome: Outcome) -> Run:
    """A library outcome as a :class:`Run` (an unverified witness shows as ``error``)."""
    horizons = list(outcome.stats.get("horizons", []))
    note = ""
    if outcome.status == "error":
        note = str(outcome.verdict.message or outcome.stats.get("error", ""))
    return Run(
        outcome.status, outcome.answer, outcome.seconds, horizons, note, details(outcome.stats)
    )


def details(stats: dict[str, Any]) -> str:
    """Problem size and search effort from a backend's statistics, as compact text."""
    keys = (
        ("lp_rules", "rules"),
        ("clauses", "clauses"),
        ("variables", "vars"),
        ("conflicts", "conflicts"),
        ("nodes", "nodes"),
    )
    return ", ".join(f"{label} {stats[key]}" for key, label in keys if key in stats)


def seed_single_shot(board: Board, time_limit: float) -> Run:
    """The thesis' way: ground ``seed.lp`` at the known optimum ``t`` and solve once."""
    if board.known is None:
        return Run("n/a", None, 0.0, note="no known optimum")
    try:
        program = seed_facts(board)
    except InputError:
        return Run("n/a", None, 0.0, note=SEED_ONLY)
    horizon = board.known
    start = time.perf_counter()
    session = ClingoSession(
        [encoding_path(DOMAIN, "seed")],
        program,
        consts={"t": horizon},
        deadline=Limits(time_limit=time_limit).deadline(),
    )
    try:
        session.ground([("base", [])])
        result = session.solve()
    except LimitReached:
        return Run("unknown", None, time.perf_counter() - start, [horizon])
    seconds = time.perf_counter() - start
    stats = session.statistics()
    effort = details(stats)
    if "time_sat" in stats and "time_unsat" in stats:
        # seed.lp has a #minimize over a constant number of moves: after the first
        # model clingo still has to refute a cheaper one
        effort += (
            f", first model {stats['time_sat']:.2f}s, #minimize proof {stats['time_unsat']:.2f}s"
        )
    if result.status == "sat":
        plan = plan_from_symbols(result.symbols)
        outcome = Outcome(board.name, "seed", "solved", len(plan), plan, seconds)
        ok, message = check_outcome(board, outcome)
        if not ok:
            return Run("error", len(plan), seconds, [horizon], message, effort)
        return Run("solved", len(plan), seconds, [horizon], details=effort)
    if result.status == "unsat":
        return Run("no-solution", None, seconds, [horizon], details=effort)
    return Run("unknown", None, seconds, [horizon], details=effort)


def library(backend: str, **options: str) -> Callable[[Board, float], Run]:
    """A runner that calls ``pyasp_games.domains.puzzle.solve`` with ``backend`` and ``options``."""

    def run(board: Board, time_limit: float) -> Run:
        try:
            outcome = solve(board, backend, Limits(time_limit=time_limit), **options)
        except InputError as err:
            if options.get("encoding") == "seed":
                return Run("n/a", None, 0.0, note=SEED_ONLY)
            raise SystemExit(f"error: {backend} on {board.name}: {err}") from None
        return from_outcome(outcome)

    return run


def asp_encodings(ablations: dict[str, Path]) -> dict[str, str]:
    """The ``asp:*`` variants' names -> the ``encoding`` argument they pass."""
    table = {"asp:sliding": "sliding"}
    table.update({f"asp:{name}": str(path) for name, path in ablations.items()})
    table["asp:seed"] = "seed"
    return table


def variants(ablations: dict[str, Path]) -> dict[str, Callable[[Board, float], Run]]:
    """Every variant's name -> its runner, in table order."""
    table: dict[str, Callable[[Board, float], Run]] = {
        name: library("asp", encoding=encoding)
        for name, encoding in asp_encodings(ablations).items()
    }
    table["seed@t=opt"] = seed_single_shot
    for solver in SAT_SOLVERS:
        table[f"sat:{solver}"] = library("sat", solver=solver)
    table["native:astar"] = library("astar")
    table["native:idastar"] = library("idastar")
    return table


def asp_effort(board: Board, encoding: str, horizons: Sequence[int], time_limit: float) -> str:
    """Ground size and conflicts summed over ``horizons``, re-solved outside the timing.

    clingo's statistics give the search effort of the last solve call only, so the
    library's horizon loop is replayed here (multi-shot for ``sliding`` and its
    ablations, one grounding per horizon for ``seed``) and the conflicts added up.
    The rules are those of the whole multi-shot program, or of the last (largest)
    single-shot grounding for ``seed``.
    """
    path = encoding_path(DOMAIN, encoding)
    deadline = Limits(time_limit=time_limit).deadline()
    conflicts = 0
    stats: dict[str, Any] = {}
    try:
        if encoding in THESIS_INTERFACE:
            for h in horizons:
                session = ClingoSession([path], seed_facts(board), {"t": h}, deadline)
                session.ground([("base", [])])
                session.solve()
                stats = session.statistics()
                conflicts += stats.get("conflicts", 0)
        else:
            session = ClingoSession([path], facts(board), deadline=deadline)
            session.ground([("base", [])])
            grounded = 0
            for h in horizons:
                steps = [("step", [t]) for t in range(grounded + 1, h + 1)]
                session.ground([*steps, ("check", [h])])
                grounded = h
                session.set_external("query", [h], True)
                session.solve()
                stats = session.statistics()
                conflicts += stats.get("conflicts", 0)
                session.set_external("query", [h], None)
    except LimitReached:
        return "-"
    return f"rules {stats.get('lp_rules', '?')}, conflicts {conflicts} (all horizons)"


def measure(
    board: Board,
    variant: str,
    runner: Callable[[Board, float], Run],
    time_limit: float,
    repeat: int,
) -> Row:
    """Run ``runner`` up to ``repeat`` times; stop repeating after a run that did not answer."""
    runs: list[Run] = []
    for _ in range(repeat):
        gc.collect()
        load = os.getloadavg()[0]
        cpu = time.process_time()
        run = runner(board, time_limit)
        run.cpu = time.process_time() - cpu
        run.load = load
        runs.append(run)
        if run.status not in ("solved", "no-solution"):
            break
    return Row(board.name, variant, runs)


def markdown(rows: Sequence[Row], with_details: bool = False) -> str:
    """The rows as a Markdown table (``with_details``: a column of size and effort)."""
    head = "| instance | variant / backend | status | answer | seconds | cpu s | horizons |"
    rule = "| --- | --- | --- | --- | ---: | ---: | --- |"
    if with_details:
        head += " size and effort (first run) |"
        rule += " --- |"
    out = [head, rule]
    for r in rows:
        line = (
            f"| {r.instance} | {r.variant} | {r.status} | {r.answer} | {r.seconds} | {r.cpu} "
            f"| {r.horizons} |"
        )
        if with_details:
            line += f" {r.details} |"
        out.append(line)
    loads = [r.load for r in rows]
    if loads:
        out.append(
            f"\n1-minute load average just before a run: {min(loads):.2f} to {max(loads):.2f} "
            f"on {os.cpu_count()} CPUs (above about 1, other processes were competing)."
        )
    return "\n".join(out) + "\n"


def load_instances(names: Sequence[str] | None) -> list[Board]:
    """The bundled benchmark boards, optionally only those whose name is in ``names``."""
    boards: list[Board] = []
    for file in INSTANCE_FILES:
        boards += load_boards(instance_dir(DOMAIN) / file)
    if names:
        unknown = set(names) - {b.name for b in boards}
        if unknown:
            known = ", ".join(b.name for b in boards)
            raise SystemExit(f"error: unknown instance(s) {sorted(unknown)}; choose from {known}")
        boards = [b for b in boards if b.name in names]
    return boards


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0] if __doc__ else None,
        epilog="Variants: asp:sliding, asp:sliding-no-{sum-bound,tile-bound,bounds,undo,parity}, "
        "asp:seed, seed@t=opt, sat:{glucose4,cadical195,minisat22}, native:{astar,idastar}.",
    )
    parser.add_argument(
        "--time-limit",
        type=float,
        default=60.0,
        metavar="S",
        help="wall-clock seconds per run (default: 60)",
    )
    parser.add_argument(
        "--seed-time-limit",
        type=float,
        default=None,
        metavar="S",
        help="seconds per run for asp:seed and seed@t=opt (default: --time-limit)",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        metavar="K",
        help="run each measurement K times and report the median (default: 1)",
    )
    parser.add_argument(
        "--variants",
        nargs="+",
        metavar="V",
        help="only these variants (default: all; a trailing '*' matches a prefix, e.g. 'sat:*')",
    )
    parser.add_argument(
        "--instances",
        nargs="+",
        metavar="NAME",
        help="only these boards, e.g. thesis-board1 eight-puzzle-hardest:A (default: all)",
    )
    parser.add_argument(
        "--details",
        action="store_true",
        help="add a column with problem size (rules, clauses, variables) and search effort "
        "(conflicts, nodes); for asp:* the horizons are replayed once, untimed, to sum "
        "clingo's conflicts over all solve calls",
    )
    parser.add_argument("--out", type=Path, metavar="FILE", help="also write the table to FILE")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    args = parser.parse_args(argv)
    if args.time_limit <= 0 or (args.seed_time_limit is not None and args.seed_time_limit <= 0):
        parser.error("time limits must be positive")
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    return args


def select(names: Sequence[str], patterns: Sequence[str] | None) -> list[str]:
    """The variant names matching ``patterns`` (exact, or a prefix ending in ``*``)."""
    if not patterns:
        return list(names)
    chosen = []
    for pattern in patterns:
        if pattern.endswith("*"):
            hits = [n for n in names if n.startswith(pattern[:-1])]
        else:
            hits = [n for n in names if n == pattern]
        if not hits:
            raise SystemExit(
                f"error: no variant matches {pattern!r}; choose from {', '.join(names)}"
            )
        chosen += [h for h in hits if h not in chosen]
    return [n for n in names if n in chosen]


def warm_up() -> None:
    """Import clingo and PySAT and run each backend once on a tiny board (not measured)."""
    tiny = parse_board("1 2 3\n4 5 6\n0 7 8", name="warm-up")
    for backend, options in (("asp", {"encoding": "sliding"}), ("sat", {}), ("idastar", {})):
        solve(tiny, backend, Limits(time_limit=30), **options)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    boards = load_instances(args.instances)
    warm_up()
    seed_limit = args.seed_time_limit if args.seed_time_limit is not None else args.time_limit
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="pyasp-ablations-") as tmp:
        ablations = write_ablations(Path(tmp))
        table = variants(ablations)
        encodings = asp_encodings(ablations)
        chosen = select(list(table), args.variants)
        for board in boards:
            for name in chosen:
                limit = seed_limit if "seed" in name else args.time_limit
                row = measure(board, name, table[name], limit, args.repeat)
                first = row.runs[0]
                if args.details and name in encodings and first.status == "solved":
                    first.details = asp_effort(board, encodings[name], first.horizons, limit)
                rows.append(row)
                if not args.quiet:
                    print(
                        f"{row.instance:28} {name:26} {row.status:12} {row.answer:>4} "
                        f"{row.seconds:>9}s cpu {row.cpu:>8}s load {row.load:4.2f}  {row.horizons}",
                        file=sys.stderr,
                        flush=True,
                    )
    text = markdown(rows, args.details)
    sys.stdout.write(text)
    if args.out is not None:
        args.out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
