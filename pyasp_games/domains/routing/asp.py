"""Routing with clingo: the instance as facts, horizons grown one step at a time.

The encodings are ``encodings/routing/routing.lp`` (the dynamics) plus one move-rule
file (``matching.lp``, ``swap.lp``, ``blank.lp``); see their README. The horizon loop
starts at the admissible lower bound of :func:`pyasp_games.domains.routing.model.lower_bound`:
every horizon refuted below the first satisfiable one is the optimality proof.

>>> from pyasp_games.domains.routing.model import parse_arrangement
>>> from pyasp_games.domains.routing.specs import graph_spec
>>> inst = parse_arrangement("0 2\\n2 0\\n", graph_spec("path:3"))
>>> claim = solve_asp(inst)
>>> claim.status, claim.answer, claim.stats["horizons"], claim.certificate
('solved', 3, [2, 3], 'lower bound 2; horizons [2] unsatisfiable')
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pyasp_games.domains.routing.horizons import (
    exhausted,
    last_horizon,
    solved_proof,
    start_horizon,
    unsolvable,
)
from pyasp_games.domains.routing.model import Instance, lower_bound, schedule_names, stride
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.clingo_runner import ClingoSession, write_facts
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.resources import encoding_path


def facts(inst: Instance) -> str:
    """The instance as ASP facts (vertices are numbered ``0..n-1``)."""
    g = inst.graph
    n = len(g)
    out = [f"vertex(0..{n - 1})."]
    out += [f"edge({u},{v})." for u, v in g.edges]
    out += [f"at({v},{p},0)." for v, p in enumerate(inst.state)]
    out += [f"dist({u},{v},{g.distances[u][v]})." for u in range(n) for v in range(n)]
    out.append(f"maxmatch({g.max_matching}).")
    if inst.moves == "blank":
        out.append(f"blankpebble({inst.state[inst.blank]}).")
    return "\n".join(out) + "\n"


def encodings(inst: Instance, encoding: str | None = None) -> list[Path]:
    """The dynamics plus the move rule's file (``encoding`` replaces the dynamics)."""
    return [encoding_path("routing", encoding or "routing"), encoding_path("routing", inst.moves)]


def write_lp(
    inst: Instance, path: Path | str, encoding: str | None = None, limits: Limits = Limits()
) -> None:
    """Write the facts plus how to run them by hand with clingo's incremental mode
    (:mod:`pyasp_games.engines.incmode`). A sliding arrangement found unsolvable (within
    ``limits``: the backend's own, started) gets ``imax`` at the first horizon, so the
    run stops (UNSATISFIABLE)."""
    h = lower_bound(inst)
    program = f"#include <incmode>.\n#const imin={h}.\n"
    if unsolvable(inst, limits):
        program += f"#const imax={h}.\n"
    names = " ".join(f"{i}={nm}" for i, nm in enumerate(inst.graph.names))
    write_facts(
        path, facts(inst), encodings(inst, encoding), f"routing instance {inst.name} ({inst.moves} moves)",
        incremental=True, program=program, notes=[f"vertices: {names}"],
    )  # fmt: skip


def solve_asp(
    inst: Instance,
    limits: Limits = Limits(),
    encoding: str | None = None,
    emit_lp: Path | str | None = None,
    **options: Any,
) -> Claim:
    """The optimal schedule by clingo's horizon loop (from the admissible lower bound)."""
    limits = limits.started()  # the emitted file, the solvability check and the search share the clock
    if emit_lp is not None:
        write_lp(inst, emit_lp, encoding, limits)
    first = start_horizon(inst, limits, "asp")
    if first.claim is not None:
        return first.claim
    start, stats, deadline = first.start, first.stats, limits.deadline()
    session = ClingoSession(encodings(inst, encoding), facts(inst), deadline=deadline)
    session.ground([("base", [])])
    # never past a schedule held: a wrong encoding that refutes it ends, not times out
    stop, known = last_horizon(inst, limits)
    h, result, tried = session.solve_horizons(start, stop, stride(inst))
    stats["horizons"] = tried
    stats.update(session.statistics())
    if result.status == "unknown":
        return Claim.unknown(stats)
    if h is None:
        return exhausted(inst, start, limits, stats, known)
    steps: dict[int, list[tuple[int, int]]] = {}
    for sym in result.symbols:
        if sym.name == "swap":
            u, v, t = (a.number for a in sym.arguments)
            steps.setdefault(t, []).append((u, v))
    schedule = [sorted(steps[t]) for t in sorted(steps)]
    witness = schedule_names(inst.graph, schedule)
    return Claim.solved(len(schedule), witness, stats=stats, certificate=solved_proof(inst, start, tried))
