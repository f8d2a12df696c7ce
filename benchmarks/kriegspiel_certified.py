"""Kriegspiel: certified answers in seconds (issue 30, part 1), measured as a user runs them.

Three targets, each a fresh ``pyasp-games`` process whose CPU seconds (user + system,
from ``resource.getrusage(RUSAGE_CHILDREN)``) and wall seconds are printed with the
machine's load before and after:

- ``cached``: starts of a board whose whole table is cached (``kriegspiel table`` ran
  first, in the same ``XDG_CACHE_HOME``), each answered and certified (<= 5 s on 8 x 8);
- ``cold``: starts with nothing cached (a fresh cache folder each; <= 30 s of CPU on 8 x 8,
  the certificate included);
- ``table``: the whole table, every start certified (<= 10 minutes on 8 x 8).

Every run must end verified (exit 0 and "verified" in its line), else the script fails.

    python benchmarks/kriegspiel_certified.py --board 8x8 --starts 3 --cache /tmp/kr-cache

Results: benchmarks/RESULTS.md ("Kriegspiel, round two").
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = {"7x7": "starts-7x7.txt", "8x8": "starts-8x8.txt"}


def load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def run(args: list[str], cache: Path) -> tuple[float, float, str]:
    """Run ``pyasp-games ARGS`` with ``cache`` as XDG_CACHE_HOME: (CPU s, wall s, first line)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-P", "-m", "pyasp_games", *args], capture_output=True, text=True,
        env={**os.environ, "XDG_CACHE_HOME": str(cache)}, cwd=ROOT,
    )  # fmt: skip
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    line = out.stdout.splitlines()[0] if out.stdout else out.stderr.strip()
    if out.returncode != 0 or "verified" not in line or "not verified" in line:
        raise SystemExit(f"not a verified answer (exit {out.returncode}): {line}")
    return cpu, wall, line


def starts(board: str, count: int) -> list[str]:
    """The bundled starts of the board (7 x 7, 8 x 8), the first ``count``."""
    text = (ROOT / "instances" / "kriegspiel" / BUNDLED[board]).read_text()
    return [line for line in text.splitlines() if line and not line.startswith("#")][:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="8x8", choices=sorted(BUNDLED))
    parser.add_argument("--starts", type=int, default=3, help="how many bundled starts")
    parser.add_argument("--cache", type=Path, default=None, help="the cache folder of the cached runs")
    parser.add_argument("--only", choices=("cached", "cold", "table"), default=None)
    args = parser.parse_args()
    cache = args.cache or Path(tempfile.mkdtemp(prefix="kr-cache-"))
    print(f"board {args.board}, load {load()} at the start")
    if args.only in (None, "table"):
        cpu, wall, line = run(["kriegspiel", "table", "--board", args.board], cache)
        print(f"table: {cpu:.1f} s CPU, {wall:.1f} s wall (load {load()}): {line}")
    if args.only in (None, "cached"):
        for start in starts(args.board, args.starts):
            cpu, wall, line = run(["kriegspiel", "solve", start], cache)
            print(f"cached: {cpu:.2f} s CPU, {wall:.2f} s wall (load {load()}): {line[:140]}")
    if args.only in (None, "cold"):
        for start in starts(args.board, args.starts):
            fresh = Path(tempfile.mkdtemp(prefix="kr-cold-"))
            try:
                cpu, wall, line = run(["kriegspiel", "solve", start], fresh)
            finally:
                shutil.rmtree(fresh, ignore_errors=True)
            print(f"cold: {cpu:.2f} s CPU, {wall:.2f} s wall (load {load()}): {line[:140]}")


if __name__ == "__main__":
    main()
