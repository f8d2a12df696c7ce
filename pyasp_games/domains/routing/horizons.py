"""Planning horizons shared by the ASP and SAT planners: where the search starts, and what
its end proves.

A planner tries the horizons ``start``, ``start + stride``, ... up to ``--max-length``:
``start`` is the admissible lower bound of :func:`~pyasp_games.domains.routing.model.lower_bound`
and ``stride`` keeps the parity of every schedule. A sliding (``blank``) arrangement is
first decided by :func:`~pyasp_games.domains.routing.native.blank_solvability` (Wilson's theorem,
block by block on a graph with a cut vertex: no search): an unsolvable one has no horizon to try.

>>> from pyasp_games.domains.routing.model import Instance
>>> from pyasp_games.domains.routing.specs import graph_spec
>>> g = graph_spec("path:3")
>>> inst = Instance(g, (2, 1, 0), "swap")
>>> h = start_horizon(inst, Limits(), "sat")
>>> h.start, h.stats
(3, {'lower_bound': 3})
>>> solved_proof(inst, 3, [3])
'lower bound 3 reached'
>>> claim = exhausted(inst, 3, Limits(max_length=1), {})
>>> claim.status, claim.kind, claim.bound, claim.certificate
('no-solution', 'within bound', 1, 'horizons 3..1 unsatisfiable')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pyasp_games.domains.routing.model import Instance, lower_bound, stride
from pyasp_games.domains.routing.native import blank_solvability
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.fuzzing import plural
from pyasp_games.engines.limits import Limits


@dataclass
class Start:
    """Where a planner starts: the first horizon, or a claim that needs no search."""

    start: int = 0
    stats: dict[str, Any] = field(default_factory=dict)
    claim: Claim | None = None


def start_horizon(inst: Instance, limits: Limits, backend: str) -> Start:
    """The first horizon of ``inst`` within ``limits``, with the statistics that say why;
    or the claim without search: ``no-solution`` for an unsolvable sliding arrangement
    (the reason its certificate) or a lower bound beyond ``limits.max_length``."""
    stats: dict[str, Any] = {}
    if inst.moves == "blank":
        verdict = blank_solvability(inst, limits.deadline())
        stats["solvability"] = verdict.reason
        if verdict.solvable is False:
            return Start(stats=stats, claim=Claim.none(certificate=verdict.reason, stats=stats))
    start = lower_bound(inst)
    stats["lower_bound"] = start
    if limits.max_length is not None and start > limits.max_length:
        grounds = f"the lower bound {start} exceeds the maximum length {limits.max_length}"
        return Start(start, stats, Claim.none(bound=limits.max_length, certificate=grounds, stats=stats))
    return Start(start, stats)


def unsolvable(inst: Instance, limits: Limits) -> bool:
    """Whether ``inst`` is a sliding arrangement shown unsolvable within ``limits``."""
    return inst.moves == "blank" and blank_solvability(inst, limits.deadline()).solvable is False


def solved_proof(inst: Instance, start: int, tried: list[int]) -> str:
    """Why the first satisfiable horizon (the last of ``tried``) is optimal."""
    if tried[-1] == start:
        return f"lower bound {start} reached"
    parity = " (the others have the wrong parity)" if stride(inst) == 2 else ""
    return f"lower bound {start}; horizons {tried[:-1]} unsatisfiable{parity}"


def known_length(inst: Instance) -> int | None:
    """The length of a schedule held before any search: the tree peeling's swaps
    (:func:`~pyasp_games.domains.routing.bounds.peeling_swaps`; under ``matching`` packed
    into matchings), replayed to the goal; ``None`` under ``blank`` moves or where the
    peeling does not route the arrangement (a disconnected graph).

    No optimal schedule is longer, so a planner never needs a longer horizon, and an
    encoding that refutes every horizon up to it is wrong (:func:`exhausted`).

    >>> from pyasp_games.domains.routing.specs import graph_spec
    >>> known_length(Instance(graph_spec("path:3"), (2, 1, 0), "swap"))
    3
    """
    from pyasp_games.domains.routing.bounds import pack, peeling_swaps

    if inst.moves == "blank":
        return None
    try:
        swaps = peeling_swaps(inst)
    except (ValueError, IndexError):
        return None
    state = list(inst.state)
    for u, v in swaps:
        state[u], state[v] = state[v], state[u]
    if state != list(range(len(state))):
        return None
    return len(pack(swaps)) if inst.moves == "matching" else len(swaps)


def last_horizon(inst: Instance, limits: Limits) -> tuple[int | None, int | None]:
    """``(stop, known)``: the last horizon a planner tries (``--max-length``, or the
    length of a schedule held, :func:`known_length`, if shorter) and that length."""
    known = known_length(inst)
    stop = limits.max_length
    if known is not None and (stop is None or known < stop):
        stop = known
    return stop, known


def exhausted(inst: Instance, start: int, limits: Limits, stats: dict[str, Any],
              known: int | None = None) -> Claim:  # fmt: skip
    """Every horizon up to the last one refuted: no schedule within ``limits.max_length``;
    but up to ``known``, the length of a schedule held (:func:`known_length`), it
    contradicts that schedule, so the encoding is wrong (a user's encoding that does not
    follow the interface): an ``error``, never a claim that there is no schedule."""
    if known is not None and (limits.max_length is None or known <= limits.max_length):
        return Claim.error(
            f"the encoding refutes every schedule length up to {known}, but a schedule of "
            f"{plural(known, 'step')} exists (the tree peeling's): it is wrong or does not follow "
            "the interface (encodings/routing/README.md)",
            stats,
        )
    grounds = f"horizons {start}..{limits.max_length} unsatisfiable"
    return Claim.none(bound=limits.max_length, certificate=grounds, stats=stats)
