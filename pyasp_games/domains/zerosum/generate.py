"""The games ``zerosum generate`` writes (Kuhn poker, Leduc hold'em, random matrix games),
and the normal forms ``zerosum normal-form`` writes.

>>> print(generate_text("matrix", size=2, low=-1, high=1, seed=0), end="")
# rows: r1 r2
# cols: c1 c2
 0  0
-1  0
"""

from __future__ import annotations

import json
from pathlib import Path

from pyasp_games.domains.zerosum.extensive import (
    ExtensiveGame,
    from_dict,
    load_extensive,
    normal_form,
)
from pyasp_games.domains.zerosum.gambit import format_efg, format_nfg, load_gambit, sniff
from pyasp_games.domains.zerosum.model import format_matrix, random_matrix
from pyasp_games.domains.zerosum.poker import kuhn_tree, leduc_tree
from pyasp_games.errors import InputError

#: The families ``generate`` knows.
FAMILIES = ("kuhn", "leduc", "matrix")
#: The formats it writes: text (a matrix as text, a tree as JSON), Gambit's nfg and efg.
FORMATS = ("text", "nfg", "efg")


def generate_text(
    family: str,
    cards: int = 3,
    size: int = 10,
    low: int = -100,
    high: int = 100,
    seed: int = 0,
    fmt: str = "text",
) -> str:
    """A game of ``family`` as file text: a tree (``kuhn`` with ``cards`` cards,
    ``leduc``) as JSON, or a matrix (``matrix``: ``size`` x ``size``, entries
    ``low..high``) as text; ``fmt`` ``nfg`` or ``efg``: in Gambit's formats (a tree's
    ``nfg`` is its normal form).

    >>> print(generate_text("kuhn", fmt="efg").splitlines()[3])
    c "" 1 "" { "JQ" 1/6 "JK" 1/6 "QJ" 1/6 "QK" 1/6 "KJ" 1/6 "KQ" 1/6 } 0
    """
    if family not in FAMILIES:
        raise InputError(f"unknown family {family!r} (choose from {', '.join(FAMILIES)})")
    if fmt not in FORMATS:
        raise InputError(f"unknown format {fmt!r} (choose from {', '.join(FORMATS)})")
    if family == "matrix":
        game = random_matrix(size, size, low, high, seed)
        return {"text": format_matrix, "nfg": format_nfg, "efg": format_efg}[fmt](game)
    tree = kuhn_tree(cards) if family == "kuhn" else leduc_tree()
    if fmt == "text":
        return json.dumps(tree, indent=1) + "\n"
    game = from_dict(tree)
    return format_efg(game) if fmt == "efg" else format_nfg(normal_form(game)[0])


def normal_form_text(path: Path | str, reduced: bool = False, fmt: str = "text") -> str:
    """The (reduced) normal form of the game tree in file ``path`` (JSON or Gambit's
    ``.efg``) as a text matrix, or in Gambit's ``nfg`` or ``efg`` format (``fmt``)."""
    tree = load_gambit(path) if sniff(Path(path)) else load_extensive(path)
    if not isinstance(tree, ExtensiveGame):
        raise InputError(f"{path}: a matrix game already (normal-form takes a game tree)")
    nf, _, _ = normal_form(tree, reduced)
    return {"text": format_matrix, "nfg": format_nfg, "efg": format_efg}[fmt](nf)
