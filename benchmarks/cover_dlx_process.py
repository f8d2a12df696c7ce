"""The whole ``cover solve -b dlx`` command against xcover's search, as a user times them.

Issue 32, section 3: the compiled ``dlx`` search is at parity with the numba package
``xcover`` on 5-regular X3C with q = 50 (no planted cover: the proof that there is none),
but the command pays its start-up, numba's import and the loading of its machine code
on top. Ours: the whole process ``python -m pyasp_games cover solve FILE -b dlx`` on the
instance written with ``format_x3c`` (CPU seconds of the child, ``RUSAGE_CHILDREN``,
beside its wall seconds); xcover: its search alone, compiled before the clock, in a
forked child (``cover_common.run_external``). The answer of each is checked against the
other's. Medians of ``--repeat`` rounds (ours, then xcover: a load that drifts during
the measurement weighs on both alike); the load average is printed before and after.

    python benchmarks/cover_dlx_process.py --seeds 1 2 --repeat 3

Issue 46 adds xcover as a whole process too (a fresh Python that imports xcover, reads
the same file, and takes the first cover or none: numba's import and cache load
included, as ours), and the ratio of the two whole processes beside the first one.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from cover_common import run_external

from pyasp_games.domains.cover.model import format_x3c, random_x3c
from pyasp_games.engines.child import python_command


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def command_run(path: Path, extra: list[str]) -> tuple[float, float, str]:
    """CPU and wall seconds of the whole command, and its first line of output."""
    cmd = python_command("pyasp_games", "cover", "solve", str(path), "-b", "dlx", *extra)
    cpu, wall = _children_cpu(), time.monotonic()
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode not in (0,):
        raise SystemExit(f"the command failed ({done.returncode}): {done.stderr.strip()}")
    return _children_cpu() - cpu, time.monotonic() - wall, done.stdout.splitlines()[0]


#: xcover as a whole process: import, read the instance file (X3C: the universe's size,
#: then one subset a line), the first cover or none.
_XCOVER = """
import sys
from xcover import covers
lines = [line.split() for line in open(sys.argv[1]) if line.strip() and not line.startswith("#")]
items = int(lines[0][0])
first = next(covers([[int(e) for e in row] for row in lines[1:]], primary=list(range(items))), None)
print("none" if first is None else "cover")
"""


def xcover_process(path: Path) -> tuple[float, float, str]:
    """CPU and wall seconds of xcover as a whole process, and what it found."""
    cpu, wall = _children_cpu(), time.monotonic()
    done = subprocess.run([sys.executable, "-c", _XCOVER, str(path)], capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"xcover failed ({done.returncode}): {done.stderr.strip()}")
    return _children_cpu() - cpu, time.monotonic() - wall, done.stdout.strip()


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--q", type=int, default=50)
    ap.add_argument("--d", type=int, default=5)
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--time-limit", type=float, default=300.0)
    ap.add_argument("--option", action="append", default=[], help="passed on to the command")
    args = ap.parse_args(argv)
    print(f"load average before: {load()}")
    print(
        "| seed | answer | ours, whole process CPU s (wall) | xcover, in-process CPU s | ratio (cpu)"
        " | xcover, whole process CPU s (wall) | ratio of processes (cpu) |"
    )
    print("|---|---|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory(prefix="pyasp-dlx-") as tmp:
        for seed in args.seeds:
            inst = random_x3c(args.q, args.d, False, seed)
            path = Path(tmp) / f"x3c-{args.q}-{args.d}-{seed}.txt"
            path.write_text(format_x3c(inst))
            ours, theirs, whole = [], [], []
            for _ in range(args.repeat):  # in rounds: a drifting load weighs on both alike
                ours.append(command_run(path, args.option))
                theirs.append(run_external("xcover", inst.size, inst.subsets, "one", args.time_limit))
                whole.append(xcover_process(path))
            said = {first.split(":", 1)[1].split("(")[0].strip() for _, _, first in ours}
            statuses = {status for status, _, _, _ in theirs}
            assert len(said) == 1 and len(statuses) == 1, (said, statuses)
            answer = said.pop()
            agree = ("no-solution" in statuses) == ("no-solution" in answer)
            assert agree, (answer, statuses)
            assert {found for _, _, found in whole} == {"none" if "no-solution" in answer else "cover"}
            cpu = statistics.median(c for c, _, _ in ours)
            wall = statistics.median(w for _, w, _ in ours)
            xcpu = statistics.median(c for _, _, _, c in theirs)
            pcpu = statistics.median(c for c, _, _ in whole)
            pwall = statistics.median(w for _, w, _ in whole)
            print(
                f"| {seed} | {answer} | {cpu:.2f} ({wall:.2f}) | {xcpu:.2f} | {cpu / xcpu:.2f}"
                f" | {pcpu:.2f} ({pwall:.2f}) | {cpu / pcpu:.2f} |",
                flush=True,
            )
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
