"""Every command the README shows is run, and its output compared with what the README says.

A README block is a fenced block whose lines start with ``$ pyasp-games ...``; the lines
after a command, up to the next ``$``, are its output. Compared are the stable parts:
every shown line must appear, in order, with times (any decimal number, ``0:01:36``)
and column padding free; a line ``...`` stands for any number of lines. ``$ echo $?``
followed by a number checks the previous command's exit code (otherwise it must be 0).
A command whose comment says ``# long: ...`` (e.g. all of Korf's 100) is skipped,
visibly, in the README itself. ``--json`` output (wrapped in the README for reading) is
parsed and every shown ``"key": value`` with a stable value must match.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

#: JSON keys whose values depend on the machine or the solver's search, not the answer
UNSTABLE = {"seconds", "cpu_seconds", "conflicts", "choices", "decisions", "propagations", "restarts", "time"}


@dataclass
class Command:
    line: str
    expected: list[str] = field(default_factory=list)
    code: int = 0

    @property
    def long(self) -> bool:
        return bool(re.search(r"#\s*long\b", self.line))

    @property
    def shell(self) -> str:
        command = re.sub(r"\s+#.*$", "", self.line)
        python = f"{shlex.quote(sys.executable)} -P -m pyasp_games"  # the installed package
        return re.sub(r"^pyasp-games\b", python, command)


def readme_commands(text: str) -> list[Command]:
    """The ``$ pyasp-games`` commands of the README's fenced blocks, with their output."""
    commands: list[Command] = []
    for block in re.findall(r"^```[^\n]*\n(.*?)^```", text, flags=re.S | re.M):
        current: Command | None = None
        for line in block.splitlines():
            if line.startswith("$ echo $?"):
                current = None
                continue
            if line.startswith("$ pyasp-games "):
                current = Command(line[2:])
                commands.append(current)
            elif line.startswith("$ "):
                current = None
            elif current is not None:
                current.expected.append(line)
            elif commands and re.fullmatch(r"\d+", line.strip()):
                commands[-1].code = int(line)  # the number after `echo $?`
    return commands


def _pattern(line: str) -> re.Pattern[str]:
    """A shown line as a regex: times free, runs of spaces and table rules free, and a
    line ending in ``...`` a prefix."""
    line = " ".join(line.split())
    if line and set(line) <= set("━─┏┓┗┛┡┩└┘┳┻╇┴┬┼┃│ "):
        return re.compile(r"[━─┏┓┗┛┡┩└┘┳┻╇┴┬┼┃│ ]+")
    if line.endswith("...") and line != "...":  # a line cut short in the README
        return re.compile(_pattern(line[:-3].rstrip()).pattern + r".*")
    parts = re.split(r"(\d+\.\d+|\d+:\d\d:\d\d)", line)
    regex = "".join(
        r"\d+(\.\d+)?" if i % 2 else r"\s+".join(map(re.escape, p.split(" ")))
        for i, p in enumerate(parts)
    )
    return re.compile(regex)


def compare(expected: list[str], actual: list[str]) -> str | None:
    """``None`` if every shown line appears in order (``...``: any lines), else why not."""
    actual = [" ".join(a.split()) for a in actual if a.strip()]
    expected = [e for e in expected if e.strip()]
    i = 0
    gap = False
    for line in expected:
        if line.strip() == "...":
            gap = True
            continue
        pattern = _pattern(line)
        while i < len(actual) and not pattern.fullmatch(actual[i]):
            if not gap:
                return f"expected {line!r}, got {actual[i]!r}"
            i += 1
        if i == len(actual):
            return f"expected {line!r}: not in the output"
        i += 1
        gap = False
    return None


def _flat(obj, out: dict) -> dict:
    for key, value in obj.items():
        if isinstance(value, dict):
            _flat(value, out)
        else:
            out[key] = value
    return out


def compare_json(expected: list[str], stdout: str) -> str | None:
    """Every stable ``"key": value`` shown in the README matches the printed object."""
    got = _flat(json.loads(stdout), {})
    shown = " ".join(expected)
    pairs = re.findall(r'"(\w+)": ("[^"]*"|\[[^\]]*\]|-?\d+(?:\.\d+)?|true|false|null)', shown)
    for key, value in pairs:
        if key in UNSTABLE or key == "witness":  # a plan: any optimal one (checked: verified)
            continue
        if got.get(key) != json.loads(value):
            return f"{key}: README shows {value}, the command printed {got.get(key)!r}"
    return None


COMMANDS = readme_commands(README.read_text())


def test_the_readme_shows_commands():
    assert len(COMMANDS) >= 15 and sum(c.long for c in COMMANDS) <= 4


@pytest.mark.parametrize("command", COMMANDS, ids=[c.line[12:60] for c in COMMANDS])
def test_readme_command(command: Command):
    if command.long:
        pytest.skip("marked long in the README")
    proc = subprocess.run(
        ["bash", "-c", command.shell],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == command.code, (command.line, proc.stdout, proc.stderr)
    if "--json" in command.line:
        problem = compare_json(command.expected, proc.stdout)
    else:
        problem = compare(command.expected, proc.stdout.splitlines())
    assert problem is None, f"{command.line}\n{problem}\n--- output:\n{proc.stdout}"


def test_compare_tolerates_times_and_padding_only():
    shown = ["x: solved (asp, 0.989 s, verified)", "...", "│ a │ 12 │   0.1 │"]
    assert compare(shown, ["x: solved (asp, 12.5 s, verified)", "y", "│ a   │ 12 │ 3.25 │"]) is None
    assert compare(shown, ["x: solved (asp, 1 s, FAILED)", "│ a │ 12 │ 0.1 │"]) is not None
    assert compare(shown, ["x: solved (asp, 1.0 s, verified)", "│ a │ 13 │ 0.1 │"]) is not None
