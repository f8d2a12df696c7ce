"""Build hook: the repository's top-level data folders go into the wheel inside the package.

``encodings/`` and ``instances/`` stay at the top level of the repository as plain
folders of data (not Python packages: a top-level ``encodings`` package would shadow the
standard library's codecs for anyone with the repository on ``PYTHONPATH``). A wheel
carries every file under them as ``pyasp_games/encodings/`` and
``pyasp_games/instances/``; ``pyasp_games.engines.resources`` looks there first and
falls back to the checkout's folders beside the package (an editable install, or the
source tree run as it is). A new domain's ``encodings/<domain>/`` and
``instances/<domain>/`` need no entry anywhere. Everything else is in ``pyproject.toml``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent

#: Top-level data folders copied into the package in the wheel.
DATA = ("encodings", "instances")


class BuildPyWithData(build_py):
    """``build_py``, then every file of the data folders into ``build_lib/pyasp_games/``."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:  # an editable install finds them beside the package
            return
        for kind in DATA:
            target = Path(self.build_lib) / "pyasp_games" / kind
            # anew: a file deleted from the checkout must not live on in a reused build/
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(HERE / kind, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


setup(cmdclass={"build_py": BuildPyWithData})
