"""Exact cover as SAT: one variable per subset, exactly one chosen subset per element.

Variables (named in the session's ``IDPool``): ``("chosen", k)`` -- subset ``k``
is in the cover. Per element ``e`` with subsets ``S_e``: at least one (one
clause ``OR_{k in S_e} chosen(k)``) and at most one (a PySAT ``CardEnc``).

The at-most-one encoding (``card``), default ``auto``: **pairwise** when
``|S_e| <= 6`` -- no auxiliary variables, ``|S_e|(|S_e|-1)/2 <= 15`` binary
clauses, and unit propagation sees every conflict directly, which suits the
regular random X3C family where every element lies in ``d = 3..6`` subsets; the
**sequential counter** (Sinz 2005, ``EncType.seqcounter``) beyond -- ``3|S_e|``
clauses and ``|S_e|`` auxiliary variables, still arc-consistent under unit
propagation, where pairwise would be quadratic (the Garey–Johnson instances
have elements in up to ``2mn`` triples: pairwise would need ~10^8 clauses for
n = 10, m = 40). Any single ``EncType`` can be forced for comparisons.

Counting and listing add a blocking clause per cover found (``OR ~chosen(k)``
over the cover) and solve again under the same deadline.

>>> from pyasp_games.domains.cover.model import X3C
>>> inst = X3C(6, ((0, 1, 2), (3, 4, 5), (1, 2, 3), (0, 1, 4)))
>>> out = solve_sat(inst)
>>> out.status, out.answer, out.witness
('solved', True, [0, 1])
>>> solve_sat(inst, mode="count", card="bitwise").answer
1
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pyasp_games.domains.cover.model import X3C
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.question import checked_mode
from pyasp_games.engines.sat_runner import SatSession, checked_solver
from pyasp_games.errors import InputError

#: ``auto`` and PySAT's ``EncType`` names usable for at-most-one.
CARDS = (
    "auto",
    "pairwise",
    "seqcounter",
    "ladder",
    "bitwise",
    "totalizer",
    "mtotalizer",
    "kmtotalizer",
    "sortnetwrk",
    "cardnetwrk",
)
PAIRWISE_UP_TO = 6


def build(session: SatSession, inst: X3C, card: str = "auto") -> list[int]:
    """Add the exact-cover clauses of ``inst``; return the subset variables in order."""
    from pysat.card import CardEnc, EncType

    if card not in CARDS:
        raise InputError(f"unknown cardinality encoding {card!r} (choose from {', '.join(CARDS)})")
    chosen = [session.var("chosen", k) for k in range(len(inst.subsets))]
    holders: list[list[int]] = [[] for _ in range(inst.size)]
    for k, s in enumerate(inst.subsets):
        for e in s:
            holders[e].append(chosen[k])
    for lits in holders:
        session.add(lits)  # at least one (the empty clause if no subset holds e)
        if len(lits) <= 1:
            continue
        if card == "auto":
            kind = EncType.pairwise if len(lits) <= PAIRWISE_UP_TO else EncType.seqcounter
        else:
            kind = getattr(EncType, card)
        session.extend(CardEnc.atmost(lits, 1, vpool=session.pool, encoding=kind).clauses)
    return chosen


def solve_sat(
    inst: X3C,
    limits: Limits = Limits(),
    mode: str = "one",
    solver: str = "glucose4",
    card: str = "auto",
    emit_cnf: Path | str | None = None,
) -> Claim:
    """Solve with PySAT: ``one`` cover, ``count`` covers, or ``all`` covers."""
    checked_mode(mode)
    checked_solver(solver)  # before any work
    deadline = limits.deadline()
    with SatSession(solver, deadline, keep_clauses=emit_cnf is not None) as s:
        chosen = build(s, inst, card)
        if emit_cnf is not None:
            s.write_dimacs(emit_cnf, comment=f"exact cover of {inst.name}; card={card}")
        index = {v: k for k, v in enumerate(chosen)}
        covers: list[list[int]] = []
        count = 0
        status = "done"
        while True:
            result = s.solve()
            if result is None:
                status = "unknown"
                break
            if not result:
                break
            model = s.solver.get_model()
            cover = sorted(index[lit] for lit in model if lit > 0 and lit in index)
            count += 1
            if mode == "one":
                covers.append(cover)
                break
            if mode == "all":
                covers.append(cover)
            if not cover:  # the empty universe: one (empty) cover, no clause can block it
                break
            s.add([-chosen[k] for k in cover])
        stats: dict[str, Any] = s.statistics()
        stats["card"] = card
    if status == "unknown":
        return Claim.unknown(stats)
    if mode == "one":
        if covers:
            return Claim.solved(True, covers[0], stats=stats)
        return Claim.none(False, stats=stats)
    witness = sorted(covers) if mode == "all" else None
    return Claim("solved" if count else "no-solution", count, witness, stats=stats)
