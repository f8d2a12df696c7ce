"""What a command imports is what it pays for at every start (issue 32, section 3).

The puzzle's ASP backend with its optimality proof is measured against two bare clingo
calls of the same encoding, whole processes (``benchmarks/puzzle_asp_default.py
--processes``): the pattern databases (numpy) load only for ``--prune pdb`` and
``--lower-bound pdb``, not for every ``puzzle solve -b asp``.
"""

from __future__ import annotations

import subprocess

from pyasp_games.engines.child import python_code


def test_the_puzzle_planners_load_no_numpy_until_asked():
    code = (
        "import sys; import pyasp_games.domains.puzzle.asp, pyasp_games.domains.puzzle.sat;"
        " import pyasp_games.domains.puzzle.questions;"
        " print('numpy' in sys.modules)"
    )
    done = subprocess.run(python_code(code), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"
