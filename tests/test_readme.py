"""Every command the README and the docs pages show is run, and its output compared with what they say.

The pages are ``README.md`` and every ``docs/*.md`` with such commands (``docs/api.md``'s
Python examples are doctests: ``tests/test_api_doc.py``). A block is a fenced block whose
lines start with ``$ pyasp-games ...``; the lines after a command, up to the next ``$``,
are its output. Compared are the stable parts: every shown line must appear, in order,
with times (any decimal number, ``0:01:36``) and column padding free; a line ``...``
stands for any number of lines. ``$ echo $?`` followed by a number checks the previous
command's exit code (otherwise it must be 0). A command whose comment says ``# long: ...``
(e.g. all of Korf's 100) is skipped, visibly, in the page itself. ``--json`` output
(wrapped in the page for reading) is parsed and every shown ``"key": value`` with a stable
value must match. A command shown on several pages (the README's example of a domain is
one of its page's) runs once, and every page's output is compared with it."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"

#: JSON keys whose values depend on the machine or the solver's search, not the answer
UNSTABLE = {"seconds", "cpu_seconds", "conflicts", "choices", "decisions", "propagations", "restarts", "time"}


@dataclass
class Command:
    line: str
    expected: list[str] = field(default_factory=list)
    code: int = 0
    where: str = ""  # page:line, e.g. docs/puzzle.md:12

    @property
    def long(self) -> bool:
        return bool(re.search(r"#\s*long\b", self.line))

    @property
    def shell(self) -> str:
        command = re.sub(r"\s+#.*$", "", self.line)
        python = f"{shlex.quote(sys.executable)} -P -m pyasp_games"  # the installed package
        return re.sub(r"^pyasp-games\b", python, command)


def readme_commands(text: str, page: str = "README.md") -> list[Command]:
    """The ``$ pyasp-games`` commands of a page's fenced blocks, with their output."""
    commands: list[Command] = []
    for match in re.finditer(r"^```[^\n]*\n(.*?)^```", text, flags=re.S | re.M):
        first = text.count("\n", 0, match.start(1)) + 1  # the block's first line
        current: Command | None = None
        for number, line in enumerate(match.group(1).splitlines(), start=first):
            if line.startswith("$ echo $?"):
                current = None
                continue
            if line.startswith("$ pyasp-games "):
                current = Command(line[2:], where=f"{page}:{number}")
                commands.append(current)
            elif line.startswith("$ "):
                current = None
            elif current is not None:
                current.expected.append(line)
            elif commands and re.fullmatch(r"\d+", line.strip()):
                commands[-1].code = int(line)  # the number after `echo $?`
    return commands


def pages() -> list[Path]:
    """README.md, then every docs page that shows commands."""
    docs = sorted(p for p in DOCS.glob("*.md") if "$ pyasp-games " in p.read_text())
    return [README, *docs]


def page_commands() -> dict[str, list[Command]]:
    """Every page's commands, the same command line (on one page or several) grouped:
    it runs once, and each showing of it is compared with that run."""
    grouped: dict[str, list[Command]] = {}
    for page in pages():
        for command in readme_commands(page.read_text(), page.relative_to(ROOT).as_posix()):
            grouped.setdefault(command.line, []).append(command)
    return grouped


def _pattern(line: str) -> re.Pattern[str]:
    """A shown line as a regex: times free, runs of spaces and table rules free, and a
    line ending in ``...`` a prefix."""
    line = " ".join(line.split())
    if line and set(line) <= set("━─┏┓┗┛┡┩└┘┳┻╇┴┬┼┃│ "):
        return re.compile(r"[━─┏┓┗┛┡┩└┘┳┻╇┴┬┼┃│ ]+")
    if line.endswith("...") and line != "...":  # a line cut short on the page
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
    """Every stable ``"key": value`` shown on the page matches the printed object."""
    got = _flat(json.loads(stdout), {})
    shown = " ".join(expected)
    pairs = re.findall(r'"(\w+)": ("[^"]*"|\[[^\]]*\]|-?\d+(?:\.\d+)?|true|false|null)', shown)
    for key, value in pairs:
        if key in UNSTABLE or key == "witness":  # a plan: any optimal one (checked: verified)
            continue
        if got.get(key) != json.loads(value):
            return f"{key}: the page shows {value}, the command printed {got.get(key)!r}"
    return None


GROUPED = page_commands()
SHOWN = [shown[0] for shown in GROUPED.values()]  # one per command line, where first shown


def test_the_pages_show_commands():
    from pyasp_games.domains import DOMAINS

    assert len(SHOWN) >= 35 and sum(c.long for c in SHOWN) <= 4
    front = {c.line.split()[1] for c in readme_commands(README.read_text())}
    for domain in DOMAINS:  # the README shows every domain, and each has its page
        page = DOCS / f"{domain}.md"
        assert page.is_file() and readme_commands(page.read_text()), page
        assert domain in front, f"the README shows no {domain} command"
    assert (DOCS / "tools.md") in pages()


def _anchors(page: Path) -> set[str]:
    """The anchors of a page's headings, as GitHub makes them."""
    headings = re.findall(r"^#+ (.*)$", page.read_text(), flags=re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


def test_the_pages_links_resolve():
    for page in [ROOT / "CONTRIBUTING.md", *pages(), DOCS / "api.md"]:
        for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text()):
            if re.match(r"[a-z]+:", target):
                continue
            file, _, anchor = target.partition("#")
            path = (page.parent / file).resolve() if file else page
            where = f"{page.relative_to(ROOT)}: {target}"
            assert path.exists(), f"{where} does not exist"
            assert not anchor or anchor in _anchors(path), f"{where}: no such heading"


#: What only a process shows (a limit held on the command's process, a pool of workers,
#: standard input, signals) or only a shell runs (pipes, redirections, variables, globs):
#: such a command runs as typed, in bash, with ``python -P -m pyasp_games``; any other in
#: this process (``run_cli``: the same output and exit code, without an interpreter's
#: start-up and imports, a third of a second of CPU each, for over a hundred commands).
#: A fresh folder, ``"$(mktemp -d)"`` (the pages' ``fuzz --out``), is the one piece of
#: shell such a command may hold: it is given a new temporary folder in this process.
IN_A_PROCESS = re.compile(
    r"[|<>;&$`*]|--(time|memory|cpu)-limit|--workers|--executor|\bplay\b|\bbench\b"
)
FRESH_FOLDER = '"$(mktemp -d)"'


@dataclass
class Ran:
    returncode: int
    stdout: str
    stderr: str


def run_shown(command: Command, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Ran:
    """Run a page's command from the repository root, as :data:`IN_A_PROCESS` says."""
    line = re.sub(r"\s+#.*$", "", command.line)
    if IN_A_PROCESS.search(line.replace(FRESH_FOLDER, "")):
        proc = subprocess.run(
            ["bash", "-c", command.shell],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=180,  # a guard against a hang: a loaded machine stretches seconds threefold
            stdin=subprocess.DEVNULL,
        )
        return Ran(proc.returncode, proc.stdout, proc.stderr)
    from .conftest import run_cli

    monkeypatch.chdir(ROOT)
    args = shlex.split(line.replace(FRESH_FOLDER, shlex.quote(tempfile.mkdtemp(dir=tmp_path))))
    run = run_cli(*args[1:], timeout=180)
    return Ran(run.code, run.stdout, run.stderr)


@pytest.mark.parametrize("command", SHOWN, ids=[f"{c.where} {c.line[12:60]}" for c in SHOWN])
def test_readme_command(command: Command, monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    if command.long:
        pytest.skip(f"marked long in {command.where}")
    proc = run_shown(command, monkeypatch, tmp_path)
    for shown in GROUPED[command.line]:
        assert proc.returncode == shown.code, (shown.where, shown.line, proc.stdout, proc.stderr)
        if "--json" in shown.line:
            problem = compare_json(shown.expected, proc.stdout)
        else:
            problem = compare(shown.expected, proc.stdout.splitlines())
        assert problem is None, f"{shown.where}: {shown.line}\n{problem}\n--- output:\n{proc.stdout}"


def test_compare_tolerates_times_and_padding_only():
    shown = ["x: solved (asp, 0.989 s, verified)", "...", "│ a │ 12 │   0.1 │"]
    assert compare(shown, ["x: solved (asp, 12.5 s, verified)", "y", "│ a   │ 12 │ 3.25 │"]) is None
    assert compare(shown, ["x: solved (asp, 1 s, FAILED)", "│ a │ 12 │ 0.1 │"]) is not None
    assert compare(shown, ["x: solved (asp, 1.0 s, verified)", "│ a │ 13 │ 0.1 │"]) is not None
