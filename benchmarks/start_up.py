"""Start-up: what a light command costs as a whole process, beside the interpreter alone.

Issue 46: ``pyasp-games cover solve instances/cover/tiny-cover.txt`` at or below 0.18 s
of CPU as a whole process. Each command runs ``--repeat`` times, in rounds (every
command once, then again: a load that drifts weighs on all alike); CPU seconds of the
child (user + system, ``RUSAGE_CHILDREN``) beside its wall seconds, the minimum and the
median of the rounds (the machine is shared: the minimum is the least disturbed run).
The peers: the Python interpreter doing nothing (``python -c pass``, the floor of any
Python command), importing clingo (what a bare ASP call pays before it grounds), and
``xcover`` (numba) answering the same tiny file as a whole process, when installed.

``--bytecode`` runs as an installed package does (Python's ``.pyc`` files written and
read); without it, as a checkout under ``PYTHONDONTWRITEBYTECODE=1`` (this session's
shell): the package's ``.pyc`` files are removed first and every process compiles its
sources (numba's cache and the kept machine code are left alone).

    python benchmarks/start_up.py --repeat 15
    python benchmarks/start_up.py --repeat 15 --bytecode
    git archive main | tar -x -C /tmp/before   # then the same, of that copy:
    python benchmarks/start_up.py --repeat 15 --tree /tmp/before
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: xcover on the tiny file, as a whole process (the file: its universe's size, then the subsets).
_XCOVER = """
import sys
from xcover import covers
rows = [line.split() for line in open(sys.argv[1]) if line.strip() and not line.startswith("#")]
first = next(covers([[int(e) for e in r] for r in rows[1:]], primary=list(range(int(rows[0][0])))), None)
print("none" if first is None else "cover")
"""


def commands(root: Path) -> dict[str, list[str]]:
    py = sys.executable
    tiny = root / "instances" / "cover" / "tiny-cover.txt"
    ours = [py, "-m", "pyasp_games"]
    listed = {
        "python -c pass": [py, "-c", "pass"],
        "python -c 'import clingo'": [py, "-c", "import clingo"],
        "pyasp-games cover solve tiny-cover.txt": [*ours, "cover", "solve", str(tiny)],
        "pyasp-games cover solve tiny-cover.txt --json": [*ours, "cover", "solve", str(tiny), "--json"],
        "pyasp-games cover solve --help": [*ours, "cover", "solve", "--help"],
        "pyasp-games --help (every group)": [*ours, "--help"],
    }
    if importlib.util.find_spec("xcover") is not None:
        listed["xcover on tiny-cover.txt (python, import, solve)"] = [py, "-c", _XCOVER, str(tiny)]
    return listed


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run(cmd: list[str], env: dict[str, str], root: Path) -> tuple[float, float]:
    cpu, wall = _children_cpu(), time.monotonic()
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=root)
    if done.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.strip()}")
    return _children_cpu() - cpu, time.monotonic() - wall


def _remove_bytecode(root: Path) -> int:
    removed = 0
    for pyc in (root / "pyasp_games").rglob("__pycache__/*.pyc"):
        pyc.unlink()
        removed += 1
    return removed


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--bytecode", action="store_true", help="as installed: .pyc written and read")
    ap.add_argument("--tree", type=Path, default=ROOT, help="the source tree to run (a copy of another commit)")
    args = ap.parse_args(argv)
    root = args.tree.resolve()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(root), env.get("PYTHONPATH")) if p)
    if args.bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        removed = _remove_bytecode(root)
        print(f"removed {removed} .pyc files of {root}/pyasp_games: every process compiles its sources")
    listed = commands(root)
    for cmd in listed.values():  # once untimed: caches (and .pyc files, with --bytecode) written
        run(cmd, env, root)
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in listed}
    print(f"load average before: {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")
    for _ in range(args.repeat):
        for name, cmd in listed.items():
            times[name].append(run(cmd, env, root))
    print(f"load average after: {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")
    print("| command | CPU s, min | CPU s, median | wall s, min | wall s, median |")
    print("|---|---:|---:|---:|---:|")
    for name, runs in times.items():
        cpu = [c for c, _ in runs]
        wall = [w for _, w in runs]
        print(f"| `{name}` | {min(cpu):.3f} | {statistics.median(cpu):.3f} "
              f"| {min(wall):.3f} | {statistics.median(wall):.3f} |")  # fmt: skip


if __name__ == "__main__":
    main()
