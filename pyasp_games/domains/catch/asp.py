"""Catch with clingo: ``encodings/catch/catch.lp`` derives the positions (from the
mover's side) from the rules and labels them by the well-founded model of the win/lose
definition; the decoding of ``outcome/1`` and ``option/3`` and the size limits are
Annihilation's (:mod:`~pyasp_games.domains.annihilation.asp`), the clingo call the
engines' one (:func:`~pyasp_games.engines.clingo_runner.run_program`).

>>> from pyasp_games.domains.catch.model import parse_instance
>>> claim = solve_asp(parse_instance("a b\\nb c\\n", "a", "b"))
>>> claim.status, claim.answer, claim.witness, claim.stats["options"]
('solved', 'first', ['a', 'b'], {'a -> b': 'lose'})
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pyasp_games.domains.annihilation.asp import (
    MAX_ASP_POSITIONS,
    MAX_ASP_VERTICES,
    NO_ANSWER_SET,
    decode_outcome,
)
from pyasp_games.domains.catch.model import Catch
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.clingo_runner import run_program, write_facts
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.resources import encoding_path
from pyasp_games.errors import InputError

DOMAIN = "catch"

def facts(inst: Catch) -> str:
    """``bit/2``, ``arc/2`` and ``start/2`` (the mover's bits, the opponent's)."""
    out = [f"bit({v},{1 << v})." for v in range(len(inst))]
    out += [f"arc({u},{v})." for u, v in inst.graph.arcs()]
    out.append("start({},{}).".format(*inst.start))
    return "\n".join(out) + "\n"


def check_size(inst: Catch) -> None:
    """Refuse, before any grounding, an instance the program cannot or should not take."""
    if len(inst) > MAX_ASP_VERTICES:
        raise InputError(f"{inst.name}: {len(inst)} vertices: the asp backend takes at most "
                         f"{MAX_ASP_VERTICES} (positions are 32-bit integers); use --backend native")  # fmt: skip
    if inst.reachable_bound() > MAX_ASP_POSITIONS:
        raise InputError(f"{inst.name}: up to {inst.reachable_bound():,} reachable positions: the "
                         f"asp backend takes at most {MAX_ASP_POSITIONS:,}; use --backend native")  # fmt: skip


def solve_asp(
    inst: Catch, limits: Limits = Limits(), encoding: str = "catch", emit_lp: Path | str | None = None
) -> Claim:
    """The ``asp`` backend: the outcome, and a first move that keeps it."""
    check_size(inst)
    program = encoding_path(DOMAIN, encoding)
    if emit_lp is not None:
        write_facts(emit_lp, facts(inst), [program], f"catch instance {inst.name}: {inst.describe()}")

    def decode(symbols: list[Any]) -> Claim:
        return decode_outcome(symbols, inst.names, "catch")

    return run_program([program], facts(inst), limits.deadline(), decode, no_answer_set=NO_ANSWER_SET)
