"""The ASP backend: instance -> facts ``number(I,N)``, ``target(T)``; answer sets ->
the chosen indices (``pick/1``), by the bundled encoding or the user's.

>>> from subsetsum.model import SubsetSum
>>> solve_asp(SubsetSum((3, 4, 5), 7)).witness
[0, 1]
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pyasp_games.engines.claim import Claim
from pyasp_games.engines.clingo_runner import int_arguments, run_program, write_facts
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.question import checked_mode
from pyasp_games.engines.resources import encoding_path
from subsetsum.model import SubsetSum
from subsetsum.verify import check_choice

DOMAIN = "subsetsum"


def facts(inst: SubsetSum) -> str:
    numbers = "".join(f"number({i},{n}).\n" for i, n in enumerate(inst.numbers))
    return numbers + f"target({inst.target}).\n"


def chosen(symbols: list[Any]) -> list[int]:
    """The sorted indices of the ``pick/1`` atoms."""
    return sorted(int_arguments(s, "pick", 1, "an index")[0] for s in symbols if s.name == "pick")


def solve_asp(
    inst: SubsetSum,
    limits: Limits = Limits(),
    mode: str = "one",
    encoding: str = "subsetsum",
    emit_lp: Path | str | None = None,
) -> Claim:
    """``one`` choice (answer ``True``/``False``) or the ``count`` of choices."""
    checked_mode(mode)
    program = encoding_path(DOMAIN, encoding)
    if emit_lp is not None:
        write_facts(emit_lp, facts(inst), [program], f"subset sum {inst.name}")
    # one answer set, or the distinct choices counted (each checked): the one helper
    return run_program([program], facts(inst), limits.deadline(), chosen, mode,
                       check=lambda c: check_choice(inst, c), project=["pick/1"])  # fmt: skip
