"""Deciding a CNF through the reductions: SAT -> 3SAT -> 3DM -> X3C -> cover -> assignment.

``reduce chain`` is a question (:data:`CHAIN`): each backend (one per cover backend)
runs every stage under one deadline, records the size of every intermediate instance
and the time of every stage, solves the X3C instance with that cover backend (its
cover verified exact) and maps the cover back through the three maps. The checker
(:func:`pyasp_games.domains.cover.verify.check_chain`) evaluates the assignment on the
*original* CNF; a "no cover" answer stands when the checker's own PySAT call on the
original CNF (within its own limit) finds it unsatisfiable too, so the chain's verdict
is verified either way, a saved one too.

>>> from pyasp_games.domains.cover.cnf import parse_dimacs
>>> out = chain(parse_dimacs("p cnf 3 2\\n1 -2 3 0\\n-1 2 0\\n"), "dlx")
>>> out.status, out.answer, out.verdict.verified, out.verdict.message
('solved', True, True, 'original CNF: all 2 clauses satisfied')
>>> out.witness["sizes"]["3dm"]
{'q': 24, 'triples': 249}
>>> chain(parse_dimacs("p cnf 1 2\\n1 0\\n-1 0\\n"), "sat").answer
False
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from pyasp_games.domains.cover.cnf import CNF, load_cnf
from pyasp_games.domains.cover.questions import BACKENDS as COVER_BACKENDS
from pyasp_games.domains.cover.questions import SOLVE as COVER
from pyasp_games.domains.cover.reductions import (
    map_back,
    sat_to_3sat,
    threedm_to_x3c,
    threesat_to_3dm,
)
from pyasp_games.domains.cover.verify import check_chain
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.limits import LimitReached, Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.question import Param, Question


def run_chain(cnf: CNF, limits: Limits = Limits(), cover: str = "dlx") -> Claim:
    """Decide ``cnf`` through the X3C instance, solved by the cover backend ``cover``.

    Answer: satisfiable (``True``, with the mapped-back assignment) or not (``False``);
    witness ``{assignment, sizes, seconds}``; ``stats["cover"]``: the cover outcome.
    """
    limits = limits.started()  # the cover solver below shares the clock
    deadline = limits.deadline()
    sizes: dict[str, dict[str, int]] = {
        "cnf": {"variables": cnf.num_vars, "clauses": cnf.num_clauses}
    }
    seconds: dict[str, float] = {}
    witness: dict[str, Any] = {"assignment": None, "sizes": sizes, "seconds": seconds}
    stats: dict[str, Any] = {}


    def stage(name: str, fn: Any, *args: Any, **options: Any) -> Any:
        start = time.perf_counter()
        result = fn(*args, **options)
        seconds[name] = round(time.perf_counter() - start, 4)
        return result

    try:
        three, map1 = stage("sat-to-3sat", sat_to_3sat, cnf)
        sizes["3sat"] = {"variables": three.num_vars, "clauses": three.num_clauses}
        deadline.check()
        dm, map2 = stage("3sat-to-3dm", threesat_to_3dm, three, deadline)
        sizes["3dm"] = {"q": dm.q, "triples": len(dm.triples)}
        deadline.check()
        x3c, map3 = stage("3dm-to-x3c", threedm_to_x3c, dm)
        sizes["x3c"] = {"elements": x3c.size, "subsets": len(x3c.subsets)}
        del dm
    except LimitReached:
        return Claim.unknown(stats, witness=witness)
    solved = stage("solve", COVER.solve, x3c, cover, limits)
    stats["cover"] = {k: v for k, v in solved.to_dict().items() if k != "witness"}
    if solved.status == "unknown":
        stats["limit"] = solved.stats.get("limit", "time")
        return Claim.unknown(stats, witness=witness)
    if solved.status == "error":
        return Claim.error(f"the cover backend failed: {solved.reason}", stats, witness=witness)
    if solved.status == "solved":
        witness["assignment"] = stage(
            "map-back", lambda: map_back(map1, map_back(map2, map_back(map3, solved.witness)))
        )
        return Claim.solved(True, witness, stats=stats)
    # the checker confirms "no cover" by PySAT on the original CNF
    return Claim.none(False, witness, stats=stats)


#: One chain backend per cover backend.
BACKENDS: dict[str, Callable[..., Claim]] = {
    name: partial(run_chain, cover=name) for name in COVER_BACKENDS
}


def describe_chain(cnf: CNF, outcome: Outcome, options: dict[str, Any]) -> tuple[str | None, list[str]]:
    """The formatter: the verdict, every intermediate size, every stage's time, the assignment."""
    said = {True: "satisfiable", False: "unsatisfiable"}.get(outcome.answer)
    witness = outcome.witness if isinstance(outcome.witness, dict) else {}
    lines = [f"  {stage:>4}: " + ", ".join(f"{k} {v}" for k, v in size.items())
             for stage, size in witness.get("sizes", {}).items()]
    if witness.get("seconds"):
        lines.append("  time: " + ", ".join(f"{k} {v:.3f} s" for k, v in witness["seconds"].items()))
    if witness.get("assignment") is not None:
        shown = " ".join(str(v if val else -v) for v, val in witness["assignment"].items())
        lines.append(f"  assignment: {shown}")
    if outcome.status in ("solved", "no-solution"):
        lines.append(f"  {outcome.verdict.message}")
    return said, lines


CHAIN = Question(
    "chain",
    "Decide a CNF through SAT -> 3SAT -> 3DM -> X3C -> cover -> assignment, checked.\n\n"
    "Prints every intermediate size and the time of every stage; the assignment is checked "
    "on the original CNF, 'unsatisfiable' by PySAT on it. With --json: answer is whether "
    "the CNF is satisfiable, witness {assignment, sizes, seconds}.",
    backends=BACKENDS,
    check=check_chain,
    read=lambda cnf: load_cnf(cnf),
    describe=describe_chain,
    params=(Param("cnf", help="A DIMACS CNF file.", type=Path, to="read"),),
)

#: The questions of ``pyasp-games reduce``.
QUESTIONS = (CHAIN,)


def chain(cnf: CNF, backend: str, limits: Limits = Limits(), **options: Any) -> Outcome:
    """Decide ``cnf`` through the cover instance; the mapped-back witness is checked
    (:data:`CHAIN`)."""
    return CHAIN.solve(cnf, backend, limits, **options)
