"""Catch with clingo: ``encodings/catch/catch.lp`` derives the positions (from the
mover's side) from the rules and labels them by the well-founded model of the win/lose
definition; the session, the decoding of ``outcome/1`` and ``option/3`` and the size
limits are Annihilation's (:mod:`~pyasp_games.domains.annihilation.asp`).

>>> from pyasp_games.domains.catch.model import parse_instance
>>> out = solve_asp(parse_instance("a b\\nb c\\n", "a", "b"))
>>> out.answer, out.witness, out.stats["options"]
('first', ['a', 'b'], {'a -> b': 'lose'})
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pyasp_games.domains.annihilation.asp import (
    MAX_ASP_POSITIONS,
    MAX_ASP_VERTICES,
    decode_outcome,
    run_program,
)
from pyasp_games.domains.catch.model import Catch
from pyasp_games.engines.clingo_runner import write_facts
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.resources import encoding_path
from pyasp_games.errors import InputError

DOMAIN = "catch"

def facts(inst: Catch) -> str:
    """``bit/2``, ``arc/2`` and ``start/2`` (the mover's bits, the opponent's)."""
    out = [f"bit({v},{1 << v})." for v in range(len(inst))]
    out += [f"arc({u},{v})." for u, v in inst.graph.arcs()]
    out.append("start({},{}).".format(*inst.start))
    return "\n".join(out) + "\n"


def solve_asp(
    inst: Catch, limits: Limits = Limits(), encoding: str = "catch", emit_lp: Path | str | None = None
) -> Outcome:
    """The ``asp`` backend: the outcome, and a first move that keeps it."""
    if len(inst) > MAX_ASP_VERTICES:
        raise InputError(f"{inst.name}: {len(inst)} vertices: the asp backend takes at most "
                         f"{MAX_ASP_VERTICES} (positions are 32-bit integers); use --backend native")  # fmt: skip
    if inst.reachable_bound() > MAX_ASP_POSITIONS:
        raise InputError(f"{inst.name}: up to {inst.reachable_bound():,} reachable positions: the "
                         f"asp backend takes at most {MAX_ASP_POSITIONS:,}; use --backend native")  # fmt: skip
    program = encoding_path(DOMAIN, encoding)
    if emit_lp is not None:
        write_facts(emit_lp, facts(inst), [program], f"catch instance {inst.name}: {inst.describe()}")

    def decode(symbols: list[Any]) -> tuple[str, Any, dict[str, Any]]:
        return decode_outcome(symbols, inst.names, "catch")

    return run_program(inst.name, facts(inst), program, limits, decode)
