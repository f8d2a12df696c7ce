"""Deciding a CNF through the reductions: SAT -> 3SAT -> 3DM -> X3C -> cover -> assignment.

:func:`chain` runs every stage under one deadline, records the size of every
intermediate instance and the time of every stage, solves the X3C instance with
a cover backend (its cover verified exact), maps the cover back through the
three maps and evaluates the assignment on the *original* CNF. A "no cover"
answer is checked against a direct PySAT call on the original CNF (within the
time left), so the chain's verdict is verified either way.

>>> from pyasp_games.cover.model import parse_dimacs
>>> out = chain(parse_dimacs("p cnf 3 2\\n1 -2 3 0\\n-1 2 0\\n"), "dlx")
>>> out.status, out.answer, out.stats["verified"]
('solved', True, True)
>>> out.witness["sizes"]["3dm"]
{'q': 24, 'triples': 249}
>>> chain(parse_dimacs("p cnf 1 2\\n1 0\\n-1 0\\n"), "sat").answer
False
"""

from __future__ import annotations

import time
from typing import Any

from pyasp_games.cover.model import CNF
from pyasp_games.cover.reductions import map_back, sat_to_3sat, threedm_to_x3c, threesat_to_3dm
from pyasp_games.cover.verify import evaluate_cnf
from pyasp_games.engines.limits import LimitReached, Limits, default_memory_limit, memory_cap
from pyasp_games.engines.outcome import Outcome


def _direct_sat(cnf: CNF, remaining: float | None) -> bool | None:
    """The original CNF solved directly by PySAT (``None`` at the limit): the independent check."""
    from pyasp_games.engines.limits import Deadline
    from pyasp_games.engines.sat_runner import SatSession

    with SatSession("glucose4", Deadline(remaining), keep_clauses=False) as s:
        for clause in cnf.clauses:
            s.add(list(clause))
        return s.solve()


def chain(cnf: CNF, backend: str, limits: Limits = Limits(), **options: Any) -> Outcome:
    """Decide ``cnf`` through the cover instance; the witness maps back and is checked."""
    from pyasp_games.cover import solve

    limits = limits.started()  # the cover solver below shares the clock
    deadline = limits.deadline()
    sizes: dict[str, dict[str, int]] = {
        "cnf": {"variables": cnf.num_vars, "clauses": cnf.num_clauses}
    }
    seconds: dict[str, float] = {}
    witness: dict[str, Any] = {"assignment": None, "sizes": sizes, "seconds": seconds}
    stats: dict[str, Any] = {}

    def outcome(status: str, answer: Any) -> Outcome:
        return Outcome(
            cnf.name, backend, status, answer, witness, round(deadline.elapsed(), 4), stats
        )

    def stage(name: str, fn: Any, *args: Any) -> Any:
        start = time.perf_counter()
        result = fn(*args)
        seconds[name] = round(time.perf_counter() - start, 4)
        return result

    try:
        with memory_cap(limits.memory_limit or default_memory_limit()):
            three, map1 = stage("sat-to-3sat", sat_to_3sat, cnf)
            sizes["3sat"] = {"variables": three.num_vars, "clauses": three.num_clauses}
            deadline.check()
            dm, map2 = stage("3sat-to-3dm", threesat_to_3dm, three, deadline)
            sizes["3dm"] = {"q": dm.q, "triples": len(dm.triples)}
            deadline.check()
            x3c, map3 = stage("3dm-to-x3c", threedm_to_x3c, dm)
            sizes["x3c"] = {"elements": x3c.size, "subsets": len(x3c.subsets)}
            del dm
        deadline.check()
    except LimitReached:
        stats["limit"] = "time"
        return outcome("unknown", None)
    except MemoryError:
        stats["limit"] = "memory"
        return outcome("unknown", None)
    solved = stage("solve", solve, x3c, backend, limits, **options)
    stats["cover"] = {k: v for k, v in solved.to_dict().items() if k not in ("witness",)}
    if solved.status == "unknown":
        stats["limit"] = "time"
        return outcome("unknown", None)
    if solved.status == "error":
        stats["verified"] = False
        stats["verification"] = f"the cover backend failed: {solved.stats.get('verification')}"
        return outcome("error", None)
    if solved.status == "solved":
        start = time.perf_counter()
        assignment = map_back(map1, map_back(map2, map_back(map3, solved.witness)))
        seconds["map-back"] = round(time.perf_counter() - start, 4)
        witness["assignment"] = assignment
        start = time.perf_counter()
        ok, message = evaluate_cnf(cnf.clauses, assignment)
        seconds["check"] = round(time.perf_counter() - start, 4)
        stats["verified"], stats["verification"] = ok, f"original CNF: {message}"
        return outcome("solved" if ok else "error", True if ok else None)
    start = time.perf_counter()
    direct = _direct_sat(cnf, deadline.remaining())
    seconds["check"] = round(time.perf_counter() - start, 4)
    if direct is None:
        stats["verified"] = None
        stats["verification"] = "no cover; the direct SAT check reached the time limit"
    elif direct:
        stats["verified"] = False
        stats["verification"] = "no cover, but PySAT finds the original CNF satisfiable"
        return outcome("error", None)
    else:
        stats["verified"] = True
        stats["verification"] = "no cover, and PySAT proves the original CNF unsatisfiable"
    return outcome("no-solution", False)
