"""Routing permutations on graphs: matchings (rt(G, pi)), token swapping, the sliding puzzle on any graph.

``BACKENDS`` maps each backend's name to ``(instance, limits, **options) -> Outcome``;
:func:`solve` runs one under its limits and verifies the schedule it returns. Exact
backends set ``stats["optimal"] = True``; the upper-bound algorithms of
:mod:`pyasp_games.routing.bounds` set it to ``False`` (crosscheck compares them as bounds).

>>> from pyasp_games.routing.model import graph_spec, parse_arrangement
>>> inst = parse_arrangement("0 3\\n3 0\\n", graph_spec("path:4"))
>>> [(b, solve(inst, b).answer) for b in ("native", "asp", "sat")]
[('native', 3), ('asp', 3), ('sat', 3)]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pyasp_games.engines.domain import DomainSpec, bundled_files
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.runner import run_backend
from pyasp_games.routing.asp import solve_asp
from pyasp_games.routing.bounds import solve_oddeven, solve_peeling, solve_rowcolumn
from pyasp_games.routing.model import Instance, load_instances, random_instance
from pyasp_games.routing.native import solve_bfs, solve_idastar
from pyasp_games.routing.sat import solve_sat
from pyasp_games.routing.verify import verify_parity_unsolvable, verify_schedule

BACKENDS: dict[str, Callable[..., Outcome]] = {
    "native": solve_idastar,
    "bfs": solve_bfs,
    "asp": solve_asp,
    "sat": solve_sat,
    "oddeven": solve_oddeven,
    "peeling": solve_peeling,
    "rowcolumn": solve_rowcolumn,
}

__all__ = ["BACKENDS", "Instance", "check_outcome", "domain", "load_instances", "solve"]


def check_outcome(inst: Instance, outcome: Outcome) -> tuple[bool | None, str]:
    """Replay a solved outcome's schedule with :mod:`~pyasp_games.routing.verify`.

    A no-solution for ``blank`` is re-derived by the independent parity invariant
    where it applies (bipartite graphs); otherwise it rests on the backend's search
    and is cross-checked, not verified.
    """
    g = inst.graph
    if outcome.status == "solved":
        schedule = outcome.witness
        if not isinstance(schedule, list):
            return False, "no schedule given"
        edges = [(g.names[u], g.names[v]) for u, v in g.edges]
        start = {g.names[v]: g.names[t] for v, t in enumerate(inst.state)}
        blank = g.names[inst.blank] if inst.blank is not None else None
        verdict = verify_schedule(edges, start, inst.moves, schedule, blank)
        if verdict.ok and outcome.answer != len(schedule):
            return False, f"answer {outcome.answer} is not the schedule's length {len(schedule)}"
        return verdict.ok, verdict.message
    if outcome.status == "no-solution":
        if inst.moves == "blank" and outcome.stats.get("bounded") is None:
            edges = [(g.names[u], g.names[v]) for u, v in g.edges]
            start = {g.names[v]: g.names[t] for v, t in enumerate(inst.state)}
            verdict = verify_parity_unsolvable(edges, start, g.names[inst.blank])
            if verdict.ok:
                return True, verdict.message
        return None, outcome.stats.get("proof", "no proof given")
    return None, "nothing to verify"


def solve(inst: Instance, backend: str, limits: Limits = Limits(), **options: Any) -> Outcome:
    """Run ``backend`` on ``inst`` under ``limits``; time and verify the outcome."""
    return run_backend(BACKENDS, backend, inst, inst.name, limits, check_outcome, **options)


def _known(inst: Instance) -> tuple[bool, Any]:
    if inst.known is None:
        return False, None
    return True, None if inst.known == "none" else inst.known


def _applies(inst: Instance, backend: str) -> bool:
    from pyasp_games.routing import bounds

    if backend == "bfs":
        return len(inst.graph) <= 9
    if backend in bounds.ALGORITHMS:
        return bounds.applies(inst, backend)
    return True


def domain() -> DomainSpec:
    """The routing domain for crosscheck and bench."""
    return DomainSpec(
        name="routing",
        backend_names=list(BACKENDS),
        solve=solve,
        load_file=load_instances,
        bundled_files=lambda: bundled_files("routing"),
        known=_known,
        applies=_applies,
        generators={"random": random_instance},
    )
