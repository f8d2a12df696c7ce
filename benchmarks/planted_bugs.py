"""The planted-bug suite: does ``fuzz`` find every wrong encoding, fast, at the smallest
size, and blame the right rule; does it pass every correct one (issue 29)?

Every ``benchmarks/planted/*.lp`` is a wrong encoding written for this suite from a
bundled one, its header saying what is wrong (``% planted:``), the question, the kind
(``missed``: it misses a solution the reference has; ``wrong``: it accepts a wrong
answer), the smallest counterexample known (``% smallest:``, in the domain's unit) and
the line of the wrong rule (``% fault:``, older files ``% blame:``), where there is one
(a missing constraint has none). The blame is right when that line is named first; a
table per domain sums up found / smallest / faulty line named first, and for the wrong
answers accepted whether a rule is named at all (issue 45). Every
``benchmarks/planted/correct/*.lp`` and every bundled encoding (as a user's file) must
pass. Each is fuzzed once (seed 0, ``--runs``, a total time each); the table gives the
seconds to the first failure, the shrunk size against the smallest known and the rule
blamed, and the summary the median time to the first failure.

Run from the repository root::

    python benchmarks/planted_bugs.py [--total-time 60] [--runs 60] [--correct-time 20] [--only puzzle-,cops-]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pyasp_games.domains import domain_spec  # noqa: E402
from pyasp_games.engines.resources import encoding_path  # noqa: E402
from pyasp_games.tools.fuzz import fuzz  # noqa: E402

PLANTED = ROOT / "benchmarks" / "planted"

#: The bundled encodings that must pass, by domain and question.
BUNDLED = [
    ("cover", "solve", "x3c"), ("cover", "solve", "x3c-card"),
    ("grundy", "exists", "grundy"), ("grundy", "kernel", "kernel"),
    ("geography", "solve", "vertex"), ("geography", "solve", "edge"),
    ("puzzle", "solve", "sliding"), ("kriegspiel", "solve", "retrograde"),
    ("routing", "solve", "routing"), ("zerosum", "saddle", "saddle"),
    ("cops", "solve", "classic"),
]  # fmt: skip


def headers(path: Path) -> dict[str, str]:
    found = {}
    for line in path.read_text().splitlines():
        if line.startswith("%") and ":" in line:
            key, _, value = line.lstrip("% ").partition(":")
            if " " not in key.strip():
                found.setdefault(key.strip(), value.strip())
    return found


def cpu() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def run_bug(path: Path, runs: int, total: float) -> dict:
    said = headers(path)
    domain = path.name.split("-")[0]
    spec = domain_spec(domain)
    wall, used = time.perf_counter(), cpu()
    with tempfile.TemporaryDirectory() as out:
        report = fuzz(spec, said["question"], str(path), runs=runs, seed=0, total_limit=total,
                      run_limit=10, out=Path(out))  # fmt: skip
    wall, used = time.perf_counter() - wall, cpu() - used
    f = report.failure or report.timeout
    blamed = [b.split("blame: ", 1)[1] for b in (f.blame if f else []) if "blame: " in b]
    expected = said.get("fault", said.get("blame"))
    blame_ok = None
    lines = [b.split(":")[1] for b in blamed if b.count(":") >= 2 and b.split(":")[1].isdigit()]
    if expected is not None:  # the planted line named first
        blame_ok = bool(lines) and lines[0] == expected
    if f is not None:
        print(f"{path.name}: " + " | ".join(x.strip() for x in f.blame), file=sys.stderr)
    return {
        "name": path.stem, "domain": domain, "question": said["question"],
        "kind": said["kind"], "found": f is not None,
        "how": None if f is None else ("time-out" if f is report.timeout else f.phase),
        "first": report.first_found, "size": None if f is None else f.size,
        "smallest": int(said["smallest"]), "blamed": blamed, "blame_ok": blame_ok, "lines": lines,
        "named": expected is not None,
        "wall": wall, "cpu": used,
    }  # fmt: skip


def run_correct(domain: str, question: str, path: Path, runs: int, total: float) -> dict:
    wall, used = time.perf_counter(), cpu()
    with tempfile.TemporaryDirectory() as out:
        mine = Path(out) / path.name  # as a user's file
        shutil.copy(path, mine)
        report = fuzz(domain_spec(domain), question, str(mine), runs=runs, seed=0,
                      total_limit=total, run_limit=10, out=Path(out))  # fmt: skip
    return {"name": path.stem, "domain": domain, "question": question,
            "false_alarm": report.failure is not None, "runs": report.runs,
            "unknown": report.unknown, "wall": time.perf_counter() - wall, "cpu": cpu() - used}  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--total-time", type=float, default=60.0, help="seconds for each bug")
    parser.add_argument("--runs", type=int, default=60, help="random runs after the small scope")
    parser.add_argument("--correct-time", type=float, default=20.0,
                        help="seconds for each correct encoding")  # fmt: skip
    parser.add_argument("--only", default="", help="only the files whose name contains this "
                        "(several: comma-separated, e.g. puzzle-,routing-)")
    args = parser.parse_args()
    load = os.getloadavg()
    bugs = [run_bug(p, args.runs, args.total_time) for p in sorted(PLANTED.glob("*.lp"))
            if any(part in p.name for part in args.only.split(","))]  # fmt: skip
    print("| encoding | kind | found | first failure (s) | size / smallest known | rule blamed | wall s | CPU s |")
    print("|---|---|---|---|---|---|---|---|")
    for b in bugs:
        blame = "-" if b["blame_ok"] is None else ("right: " if b["blame_ok"] else "WRONG: ") + (
            "; ".join("line " + x.split(": ", 1)[0].rsplit(":", 1)[-1] for x in b["blamed"]
                      if x.split(": ", 1)[0].rsplit(":", 1)[-1].isdigit()) or "none")
        first = "-" if b["first"] is None else f"{b['first']:.1f}"
        size = "-" if b["size"] is None else f"{b['size']} / {b['smallest']}"
        print(f"| {b['name']} | {b['kind']} | {b['how'] or 'NOT FOUND'} | {first} | {size} | "
              f"{blame} | {b['wall']:.1f} | {b['cpu']:.1f} |")  # fmt: skip
    correct = [run_correct(d, q, encoding_path(d, n), args.runs, args.correct_time)
               for d, q, n in BUNDLED if not args.only]  # fmt: skip
    for path in sorted((PLANTED / "correct").glob("*.lp")) if not args.only else []:
        correct.append(run_correct(path.name.split("-")[0], headers(path)["question"], path,
                                   args.runs, args.correct_time))  # fmt: skip
    if correct:
        print()
        print("| correct encoding | question | runs | undecided | false alarm | wall s | CPU s |")
        print("|---|---|---|---|---|---|---|")
        for c in correct:
            print(f"| {c['domain']}/{c['name']} | {c['question']} | {c['runs']} | {c['unknown']} | "
                  f"{'YES' if c['false_alarm'] else 'no'} | {c['wall']:.1f} | {c['cpu']:.1f} |")  # fmt: skip
    firsts = [b["first"] for b in bugs if b["first"] is not None]
    found = sum(b["found"] for b in bugs)
    small = sum(1 for b in bugs if b["size"] is not None and b["size"] <= b["smallest"])
    missed = [b for b in bugs if b["kind"] == "missed"]
    print()
    print("| domain | planted | found | smallest | faulty line named first (of found with a fault line) |"
          " blamed, another line first | nothing blamed | wrong answers accepted: a rule named |"
          " right (of those with a fault line) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for domain in sorted({b["domain"] for b in bugs}):
        mine = [b for b in bugs if b["domain"] == domain]
        found_ = [b for b in mine if b["found"]]
        named = [b for b in found_ if b["named"]]
        right = sum(bool(b["blame_ok"]) for b in named)
        other = sum(1 for b in named if not b["blame_ok"] and b["blamed"])
        none = sum(1 for b in named if not b["blamed"])
        smallest_ = sum(1 for b in found_ if b["size"] is not None and b["size"] <= b["smallest"])
        share = f" ({100 * right // len(named)}%)" if named else ""
        accepted = [b for b in found_ if b["kind"] == "wrong"]
        ruled = sum(1 for b in accepted if b["lines"])
        judged = [b for b in accepted if b["named"]]
        said = f"{ruled} of {len(accepted)}" if accepted else "-"
        right_ = f"{sum(bool(b['blame_ok']) for b in judged)} of {len(judged)}" if judged else "-"
        print(f"| {domain} | {len(mine)} | {len(found_)} | {smallest_} | {right} of {len(named)}{share} |"
              f" {other} | {none} | {said} | {right_} |")
    print()
    print(f"found {found} of {len(bugs)}; median seconds to the first failure "
          f"{statistics.median(firsts) if firsts else float('nan'):.1f}; shrunk to at most the "
          f"smallest known {small} of {len(bugs)}; faulty line named first {sum(bool(b['blame_ok']) for b in bugs)} "
          f"of {sum(1 for b in bugs if b['named'] and b['found'])} found with a fault line "
          f"({len(missed)} missed solutions); false alarms {sum(c['false_alarm'] for c in correct)} "
          f"of {len(correct)} correct encodings; load average at start {load[0]:.1f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
