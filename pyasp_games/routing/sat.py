"""Routing as SAT: one incremental PySAT solver, horizons grown one step at a time.

Variables (named through the session's ``IDPool``): ``("at", v, p, t)`` the pebble
whose target is ``p`` is on vertex ``v`` after step ``t``; ``("swap", u, v, t)`` step
``t`` swaps along edge ``u-v``; ``("goal", h)`` the goal and cuts of horizon ``h``,
switched on by an assumption so that a refuted horizon leaves the solver usable.

Clauses: the start as units; a pebble crosses a chosen edge; a pebble on an untouched
vertex stays (frame axiom); at most one pebble per vertex (with the transitions this
keeps every step a permutation); the move rule (a matching: at most one chosen edge per
vertex; ``swap``: one edge a step; ``blank``: one edge a step touching the blank); the
same edge never in two consecutive steps (sound, see the encodings' README); implied
clauses that help propagation: a pebble is within ``t`` edges of its start after step
``t``, and came from its own or a neighbouring vertex; under ``goal(h)``: every pebble
home at ``h`` and no pebble after step ``t`` farther than ``h - t`` from its target.

>>> from pyasp_games.routing.model import parse_arrangement
>>> from pyasp_games.routing.specs import graph_spec
>>> inst = parse_arrangement("0 2\\n2 0\\n", graph_spec("path:3"))
>>> out = solve_sat(inst)
>>> out.status, out.answer, out.stats["horizons"]
('solved', 3, [2, 3])
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pyasp_games.engines.horizon_search import search_horizons
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.sat_runner import SatSession, checked_solver
from pyasp_games.routing.horizons import exhausted, solved_proof, start_horizon
from pyasp_games.routing.model import Instance, schedule_names, stride


class RoutingFormula:
    """The growing formula of one instance inside a :class:`SatSession`."""

    def __init__(self, inst: Instance, session: SatSession) -> None:
        self.inst, self.s = inst, session
        g = inst.graph
        self.n = len(g)
        self.incident = [[e for e in g.edges if v in e] for v in range(self.n)]
        self.steps = 0
        for v, p in enumerate(inst.state):
            for q in range(self.n):
                session.add([session.var("at", v, q, 0) if q == p else -session.var("at", v, q, 0)])
        self.blank_pebble = inst.state[inst.blank] if inst.moves == "blank" else None
        self.start = {p: v for v, p in enumerate(inst.state)}  # where each pebble starts

    def at(self, v: int, p: int, t: int) -> int:
        return self.s.var("at", v, p, t)

    def swap(self, e: tuple[int, int], t: int) -> int:
        return self.s.var("swap", e[0], e[1], t)

    def add_step(self) -> None:
        s, t, n, inst = self.s, self.steps + 1, self.n, self.inst
        edges = inst.graph.edges
        if inst.moves == "matching":
            for v in range(n):
                s.at_most_one([self.swap(e, t) for e in self.incident[v]])
        else:
            s.at_most_one([self.swap(e, t) for e in edges])
        if inst.moves == "swap" and t > 1:
            # disjoint swaps commute: consecutive disjoint swaps in increasing edge order only
            for e in edges:
                for f in edges:
                    if f < e and not set(e) & set(f):
                        s.add([-self.swap(e, t - 1), -self.swap(f, t)])
        for e in edges:
            if t > 1:
                s.add([-self.swap(e, t), -self.swap(e, t - 1)])
            if inst.moves == "blank":
                bp = self.blank_pebble
                s.add([-self.swap(e, t), self.at(e[0], bp, t - 1), self.at(e[1], bp, t - 1)])
        dist, adj = inst.graph.distances, inst.graph.adj
        for v in range(n):
            moved = [self.swap(e, t) for e in self.incident[v]]
            for p in range(n):
                s.add([-self.at(v, p, t - 1), self.at(v, p, t), *moved])
                for e in self.incident[v]:
                    w = e[1] if e[0] == v else e[0]
                    s.add([-self.at(v, p, t - 1), -self.swap(e, t), self.at(w, p, t)])
                # Redundant (implied): a pebble moves at most one edge a step, so it is
                # within t edges of where it started, and it came from here or a neighbour
                if dist[self.start[p]][v] > t:
                    s.add([-self.at(v, p, t)])
                else:
                    s.add([-self.at(v, p, t), self.at(v, p, t - 1),
                           *(self.at(w, p, t - 1) for w in adj[v])])  # fmt: skip
            s.at_most_one([self.at(v, p, t) for p in range(n)])
        self.steps = t

    def goal(self, h: int) -> int:
        """The literal switching on horizon ``h``'s goal and distance cuts."""
        s, n = self.s, self.n
        lit = s.var("goal", h)
        dist = self.inst.graph.distances
        for v in range(n):
            s.add([-lit, self.at(v, v, h)])
            for p in range(n):
                for t in range(h + 1):
                    if dist[v][p] > h - t:
                        s.add([-lit, -self.at(v, p, t)])
        return lit

    def schedule(self, h: int) -> list[list[tuple[int, int]]]:
        steps: dict[int, list[tuple[int, int]]] = {}
        for name in self.s.true_names():
            if name[0] == "swap" and name[3] <= h:
                steps.setdefault(name[3], []).append((name[1], name[2]))
        return [sorted(steps[t]) for t in sorted(steps)]


def solve_sat(
    inst: Instance,
    limits: Limits = Limits(),
    solver: str = "glucose4",
    emit_cnf: Path | str | None = None,
    **options: Any,
) -> Outcome:
    """The optimal schedule by incremental SAT over horizons from the admissible lower bound."""
    checked_solver(solver)  # before any work
    limits = limits.started()  # the solvability check and the search share the clock
    first = start_horizon(inst, limits, "sat")
    if first.outcome is not None:
        return first.outcome
    start, stats = first.start, first.stats
    with SatSession(solver, limits.deadline(), keep_clauses=emit_cnf is not None) as session:
        formula = RoutingFormula(inst, session)

        def extend(h: int) -> bool:
            while formula.steps < h:
                formula.add_step()
            return True

        def attempt(h: int) -> str:
            lit = formula.goal(h)
            answer = session.solve(assumptions=[lit])
            if emit_cnf is not None:  # the formula of the last horizon tried
                comment = f"routing {inst.name} ({inst.moves}), horizon {h}"
                session.write_dimacs(emit_cnf, [lit], comment)
            if answer is None:
                return "unknown"
            if not answer:
                session.add([-lit])  # refuted for good: the next horizons build on it
            return "sat" if answer else "unsat"

        h, status, tried = search_horizons(start, limits.max_length, stride(inst), extend, attempt)
        stats.update(session.statistics(), horizons=tried)
        if status == "unknown":
            return Outcome(inst.name, "sat", "unknown", None, None, 0.0, stats)
        if status == "sat":
            schedule = formula.schedule(h)
            stats["optimal"] = True
            stats["proof"] = solved_proof(inst, start, tried)
            witness = schedule_names(inst.graph, schedule)
            return Outcome(inst.name, "sat", "solved", len(schedule), witness, 0.0, stats)
    return exhausted(inst, "sat", start, limits, stats)
