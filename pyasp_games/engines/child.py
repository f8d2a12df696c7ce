"""Starting a child Python that runs exactly this copy of pyasp_games.

``python -m pyasp_games...`` in a child would import whatever ``pyasp_games`` comes
first on the child's own path, and for ``-m`` that is the current directory: run
from a checkout's root, a child of the installed package would import the
checkout's source tree (another version, timed silently). :func:`python_command`
instead starts ``sys.executable`` in safe-path mode (``-P``: no current directory
on the path) with the folder that holds the parent's package put first on the path,
so parent and child run the same code whatever the current directory, the
``PYTHONPATH`` or the way the package was installed (wheel, editable, a checkout).

>>> import subprocess
>>> done = subprocess.run(
...     python_command("pyasp_games", "--help"), capture_output=True, text=True
... )
>>> done.returncode, "Usage" in done.stdout
(0, True)
>>> code = "import pyasp_games, sys; sys.stdout.write(pyasp_games.__file__)"
>>> out = subprocess.run(python_code(code), capture_output=True, text=True).stdout
>>> out == str(ROOT / "pyasp_games" / "__init__.py")
True
"""

from __future__ import annotations

import sys
from pathlib import Path

#: The folder holding the running ``pyasp_games`` package (site-packages, or a checkout).
ROOT = Path(__file__).resolve().parent.parent.parent

# -P: no script folder or current directory in front of the path; the parent's
# package folder goes first instead, so `import pyasp_games` finds the parent's code.
_BOOT = "import sys; sys.path.insert(0, {root!r}); "


def python_code(code: str, *args: str) -> list[str]:
    """The command running ``code`` (like ``python -c``) against the parent's package."""
    return [sys.executable, "-P", "-c", _BOOT.format(root=str(ROOT)) + code, *args]


def python_command(module: str, *args: str) -> list[str]:
    """The command running ``module`` as ``__main__`` (like ``python -m``) with the
    parent's package; ``args`` become the module's ``sys.argv[1:]``."""
    code = (
        f"import runpy; runpy.run_module({module!r}, run_name='__main__', alter_sys=True)"
    )
    return python_code(code, *args)
