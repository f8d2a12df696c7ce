"""The games ``zerosum generate`` writes: Kuhn poker, Leduc hold'em, random matrix games.

>>> print(generate_text("matrix", size=2, low=-1, high=1, seed=0), end="")
# rows: r1 r2
# cols: c1 c2
 0  0
-1  0
"""

from __future__ import annotations

import json

from pyasp_games.zerosum.model import format_matrix, random_matrix
from pyasp_games.zerosum.poker import kuhn_tree, leduc_tree

#: The families ``generate`` knows.
FAMILIES = ("kuhn", "leduc", "matrix")


def generate_text(
    family: str, cards: int = 3, size: int = 10, low: int = -100, high: int = 100, seed: int = 0
) -> str:
    """A game of ``family`` as file text: a JSON tree (``kuhn`` with ``cards`` cards,
    ``leduc``) or a text matrix (``matrix``: ``size`` x ``size``, entries ``low..high``)."""
    if family == "matrix":
        return format_matrix(random_matrix(size, size, low, high, seed))
    tree = kuhn_tree(cards) if family == "kuhn" else leduc_tree()
    return json.dumps(tree, indent=1) + "\n"
