"""What a campaign's timings were measured on: the machine, the versions, the commit.

Recorded in each campaign's ``meta.json`` (:mod:`pyasp_games.tools.bench.results`), so a table
of timings always says where they come from.

>>> sorted(machine())
['cpus', 'host', 'load_average_1min', 'platform', 'processor', 'python']
>>> "clingo" in versions()
True
"""

from __future__ import annotations

import os
import platform
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def git_commit(folders: Sequence[Path | str]) -> str | None:
    """The commit checked out in the first of ``folders`` inside a git work tree.

    The campaign passes the current directory and the suite's folder: the checkout
    the user runs in, never the installed package's folder (a site-packages folder
    inside some other repository would name that repository's commit).
    """
    for folder in folders:
        try:
            done = subprocess.run(
                ["git", "rev-parse", "HEAD"], cwd=folder, capture_output=True, text=True, timeout=5
            )
        except (OSError, subprocess.SubprocessError):
            continue
        if done.returncode == 0 and done.stdout.strip():
            return done.stdout.strip()
    return None


def versions() -> dict[str, str]:
    """The versions of this package and of the solvers and libraries its timings depend on."""
    from importlib.metadata import PackageNotFoundError, version

    found = {}
    for package in ("pyasp-games", "clingo", "python-sat", "numpy", "networkx"):
        try:
            found[package] = version(package)
        except PackageNotFoundError:
            found[package] = "not installed"
    return found


def cpu_model() -> str | None:
    """The processor's model name (Linux), else ``None``."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def machine() -> dict[str, Any]:
    """What the timings were measured on."""
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = None
    return {
        "host": platform.node(),
        "platform": platform.platform(),
        "processor": cpu_model() or platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "load_average_1min": load,
    }
