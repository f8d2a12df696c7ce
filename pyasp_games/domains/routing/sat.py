"""Routing as SAT: one formula per horizon, each pebble confined to its corridor.

A pebble moves at most one edge a step, so in a schedule of ``h`` steps the pebble bound
for ``p`` is, after step ``t``, within ``t`` edges of where it started and within
``h - t`` of ``p``: its corridor. Only those places get a variable: ``("at", v, p, t)``
the pebble whose target is ``p`` is on ``v`` after step ``t`` (``v`` in the corridor);
``("swap", u, v, t)`` step ``t`` swaps along edge ``u-v``. A pebble whose distance is
the horizon has one vertex a step (its shortest paths' levels); on the 8 x 8 grid this
leaves a few per cent of the n * n * h places of a formula that grows with the horizon,
which is why each horizon gets its own (horizons are few: from the lower bound, rt is
rarely more than one or two steps above it).

Clauses: the start as units; each pebble somewhere in its corridor, at most one place;
a pebble crosses a chosen edge (or that edge is not chosen, where the crossing leaves the
corridor); a pebble on an untouched vertex stays (frame axiom); at most one pebble per
vertex; the move rule (a matching: at most one chosen edge per vertex; ``swap``: one edge
a step, consecutive disjoint swaps in increasing order; ``blank``: one edge a step
touching the blank); the same edge never in two consecutive steps (sound, see the
encodings' README); implied: a pebble came from its own or a neighbouring vertex.

>>> from pyasp_games.domains.routing.model import parse_arrangement
>>> from pyasp_games.domains.routing.specs import graph_spec
>>> inst = parse_arrangement("0 2\\n2 0\\n", graph_spec("path:3"))
>>> claim = solve_sat(inst)
>>> claim.status, claim.answer, claim.stats["horizons"]
('solved', 3, [2, 3])
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pyasp_games.domains.routing.horizons import exhausted, solved_proof, start_horizon
from pyasp_games.domains.routing.model import Instance, schedule_names, stride
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.horizon_search import search_horizons
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.sat_runner import SatSession, checked_solver


class CorridorFormula:
    """Horizon ``h``'s formula of one instance inside a :class:`SatSession` (see the
    module docstring); ``feasible`` is false when some pebble's corridor is empty."""

    def __init__(self, inst: Instance, session: SatSession, h: int) -> None:
        self.inst, self.s, self.h = inst, session, h
        g = inst.graph
        n, dist, edges = len(g), g.distances, g.edges
        start = {p: v for v, p in enumerate(inst.state)}
        # corridor[p][t]: where pebble p can be after step t and still be home at h
        corridor = [[[v for v in range(n) if dist[start[p]][v] <= t and dist[v][p] <= h - t]
                     for t in range(h + 1)] for p in range(n)]  # fmt: skip
        self.feasible = all(c for per in corridor for c in per)
        if not self.feasible:
            return
        s = session
        incident = [[k for k, e in enumerate(edges) if v in e] for v in range(n)]
        swap = [[0] + [s.var("swap", u, v, t) for u, v in edges] for t in range(h + 1)]
        for t in range(1, h + 1):
            step = swap[t][1:]
            if inst.moves == "matching":
                for v in range(n):
                    s.at_most_one([swap[t][k + 1] for k in incident[v]])
            else:
                s.at_most_one(step)
            if t > 1:  # Dominance: an edge swapped twice in a row undoes itself
                s.extend([-a, -b] for a, b in zip(step, swap[t - 1][1:], strict=True))
            if inst.moves == "swap" and t > 1:
                # Dominance: disjoint swaps commute; consecutive ones in increasing order
                for k, e in enumerate(edges):
                    for f in range(k):
                        if not set(e) & set(edges[f]):
                            s.add([-swap[t - 1][k + 1], -swap[t][f + 1]])
        holders: dict[tuple[int, int], list[int]] = {}
        for p in range(n):
            here = [{v: s.var("at", v, p, t) for v in corridor[p][t]} for t in range(h + 1)]
            s.add([here[0][start[p]]])
            for t in range(1, h + 1):
                now, before = here[t], here[t - 1]
                s.add(list(now.values()))
                s.at_most_one(list(now.values()))
                for v, lit in now.items():
                    holders.setdefault((v, t), []).append(lit)
                    # Redundant (implied): it came from here or a neighbour
                    s.add([-lit, *(before[u] for u in (v, *g.adj[v]) if u in before)])
                for u, lit in before.items():
                    moved = [swap[t][k + 1] for k in incident[u]]
                    s.add([-lit, *([now[u]] if u in now else []), *moved])  # stays unless moved
                    for k in incident[u]:
                        v = edges[k][1] if edges[k][0] == u else edges[k][0]
                        s.add([-lit, -swap[t][k + 1], *([now[v]] if v in now else [])])
            if inst.moves == "blank" and p == inst.state[inst.blank]:
                for t in range(1, h + 1):  # a slide moves the blank
                    for k, (u, v) in enumerate(edges):
                        ends = [here[t - 1][x] for x in (u, v) if x in here[t - 1]]
                        s.add([-swap[t][k + 1], *ends])
        for lits in holders.values():  # one pebble per vertex
            s.at_most_one(lits)

    def schedule(self) -> list[list[tuple[int, int]]]:
        steps: dict[int, list[tuple[int, int]]] = {}
        for name in self.s.true_names():
            if name[0] == "swap":
                steps.setdefault(name[3], []).append((name[1], name[2]))
        return [sorted(steps[t]) for t in sorted(steps)]


def solve_sat(
    inst: Instance,
    limits: Limits = Limits(),
    solver: str = "glucose4",
    emit_cnf: Path | str | None = None,
    **options: Any,
) -> Claim:
    """The optimal schedule by SAT, one formula per horizon from the admissible lower bound."""
    checked_solver(solver)  # before any work
    limits = limits.started()  # the solvability check and the search share the clock
    first = start_horizon(inst, limits, "sat")
    if first.claim is not None:
        return first.claim
    start, stats = first.start, first.stats
    deadline = limits.deadline()
    found: list[list[tuple[int, int]]] = []
    totals: dict[str, Any] = {}

    def attempt(h: int) -> str:
        with SatSession(solver, deadline, keep_clauses=emit_cnf is not None) as session:
            formula = CorridorFormula(inst, session, h)
            if deadline.expired():
                return "unknown"
            answer = session.solve() if formula.feasible else False
            if emit_cnf is not None:  # the formula of the last horizon tried
                comment = f"routing {inst.name} ({inst.moves}), horizon {h}"
                session.write_dimacs(emit_cnf, [], comment)
            for key, value in session.statistics().items():
                if isinstance(value, int | float) and not isinstance(value, bool):
                    totals[key] = totals.get(key, 0) + value
            if answer:
                found[:] = formula.schedule()
        return {None: "unknown", True: "sat", False: "unsat"}[answer]

    _, status, tried = search_horizons(start, limits.max_length, stride(inst),
                                       lambda h: not deadline.expired(), attempt)  # fmt: skip
    stats.update(totals, horizons=tried)
    if status == "unknown":
        return Claim.unknown(stats)
    if status == "sat":
        witness = schedule_names(inst.graph, found)
        return Claim.solved(len(found), witness, stats=stats, certificate=solved_proof(inst, start, tried))
    return exhausted(inst, start, limits, stats)
