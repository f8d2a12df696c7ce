"""The package's folders say what each room is, and the imports go one way: the command
line uses the tools, the tools the domains, the domains the engines (CONTRIBUTING.md,
"Layout"). Read from the source (every import, at the top or inside a function), so a
back arrow fails here before any review sees it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pyasp_games

PACKAGE = Path(pyasp_games.__file__).resolve().parent

#: The kinds of room, from the top down: a module may import its own kind and the kinds
#: below it. Top-level modules of the package (errors, the version) are the ground;
#: ``__main__`` stands above them all.
FLOORS = ("cli", "tools", "domains", "engines")


def _floor(module: str) -> int:
    if module == "pyasp_games.__main__":
        return -1  # ``python -m pyasp_games``: the entry above the command line
    parts = module.split(".")
    if len(parts) < 2 or parts[0] != "pyasp_games":
        return len(FLOORS)  # not ours
    if parts[1] in FLOORS:
        return FLOORS.index(parts[1])
    return len(FLOORS)  # the ground: pyasp_games.errors, pyasp_games itself


#: A line that starts an import statement, and one that has an import after a ``:`` or
#: ``;`` (``if x: import y``), which only a parse of the whole file reads rightly.
_STARTS_IMPORT = re.compile(r"^[ \t]*(?:import|from)[ \t]", re.MULTILINE)
_IMPORT_INSIDE = re.compile(r"[:;][ \t]*(?:import|from)[ \t]+pyasp_games")


def _import_statements(text: str) -> ast.Module:
    """The import statements of a module's source, parsed: each line that starts one,
    with its continuation lines (open brackets, a final backslash), instead of a parse of
    the whole file (1.8 s of CPU for the package, against 0.1 s). A line of a string that
    reads like an import and parses as one counts too (a stricter test, never a weaker)."""
    if _IMPORT_INSIDE.search(text):
        return ast.parse(text)
    lines = text.splitlines()
    body = []
    starts = {text.count("\n", 0, m.start()) for m in _STARTS_IMPORT.finditer(text)}
    for first in sorted(starts):
        end, statement = first, lines[first].strip()
        while (statement.count("(") > statement.count(")") or statement.endswith("\\")) and end + 1 < len(lines):
            end += 1
            statement += "\n" + lines[end].strip()
        try:
            body += ast.parse(statement).body
        except SyntaxError:  # prose in a string, not code
            continue
    return ast.Module(body=body, type_ignores=[])


def _imports(path: Path) -> list[str]:
    tree = _import_statements(path.read_text())
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append(node.module)
            found += [f"{node.module}.{alias.name}" for alias in node.names]
    return [name for name in found if name.startswith("pyasp_games")]


def _module(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def test_ls_shows_the_architecture():
    folders = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file())
    assert folders == sorted(FLOORS)
    from pyasp_games.domains import DOMAINS

    for name, package in DOMAINS.items():
        assert package == f"pyasp_games.domains.{name}"
        assert (PACKAGE / "domains" / name / "__init__.py").is_file()


def test_the_imports_only_go_down():
    back = []
    for path in sorted(PACKAGE.rglob("*.py")):
        here = _module(path)
        for name in _imports(path):
            if _floor(name) < _floor(here):
                back.append(f"{here} imports {name}")
    assert not back, "\n".join(sorted(set(back)))


def test_the_engines_and_the_checkers_stay_apart():
    """Each domain's checker imports nothing of the solvers it checks (DESIGN: verify.py
    shares no code with the backends)."""
    from pyasp_games.domains import DOMAINS

    for name in DOMAINS:
        verify = PACKAGE / "domains" / name / "verify.py"
        solvers = {f"pyasp_games.domains.{name}.{m}" for m in ("native", "asp", "sat")}
        used = {i for i in _imports(verify) if any(i.startswith(s) for s in solvers)}
        assert not used, f"{name}/verify.py imports {sorted(used)}"
