"""Independent checking of a routing schedule (imports nothing from native, asp or sat).

A schedule is a list of steps, each step a list of edges ``(u, v)`` given by vertex
names. The checker replays it on its own copy of the arrangement: under ``matching``
each step's edges are graph edges no two of which share a vertex; under ``swap`` each
step is exactly one edge; under ``blank`` each step is one edge with the blank at one
end. The final arrangement must be the target (every pebble on its target vertex).

>>> edges = [("a", "b"), ("b", "c")]
>>> start = {"a": "c", "b": "b", "c": "a"}   # the pebble on a goes to c, ...
>>> verify_schedule(edges, start, "matching", [[("a", "b")], [("b", "c")], [("a", "b")]]).ok
True
>>> verify_schedule(edges, start, "matching", [[("a", "b"), ("b", "c")]]).message
"step 1: vertex 'b' is in two edges (not a matching)"
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pyasp_games.domains.routing.model import Instance
from pyasp_games.engines.outcome import Outcome


@dataclass
class Verdict:
    ok: bool
    message: str


def verify_schedule(
    edges: Sequence[tuple[str, str]],
    start: Mapping[str, str],
    moves: str,
    schedule: Sequence[Sequence[Sequence[str]]],
    blank: str | None = None,
) -> Verdict:
    """Replay ``schedule`` from ``start`` (vertex -> its pebble's target vertex)."""
    edge_set = {(u, v) for u, v in edges} | {(v, u) for u, v in edges}
    where = dict(start)  # vertex -> target of the pebble on it
    if sorted(where.values()) != sorted(where):
        return Verdict(False, "the start arrangement is not a permutation")
    if moves == "blank" and blank not in where:
        return Verdict(False, "no blank vertex given")
    for i, step in enumerate(schedule, 1):
        if not step:
            return Verdict(False, f"step {i} moves nothing")
        if moves in ("swap", "blank") and len(step) != 1:
            return Verdict(False, f"step {i} has {len(step)} edges ({moves} moves one edge a step)")
        used: set[str] = set()
        for edge in step:
            if len(edge) != 2:
                return Verdict(False, f"step {i}: {edge!r} is not an edge")
            u, v = edge
            if (u, v) not in edge_set or u == v:
                return Verdict(False, f"step {i}: {u}-{v} is not an edge of the graph")
            for x in (u, v):
                if x in used:
                    return Verdict(
                        False, f"step {i}: vertex {x!r} is in two edges (not a matching)"
                    )
                used.add(x)
            if moves == "blank":
                if blank not in (u, v):
                    return Verdict(
                        False, f"step {i}: {u}-{v} does not touch the blank (on {blank!r})"
                    )
                blank = v if blank == u else u
        for u, v in step:
            where[u], where[v] = where[v], where[u]
    wrong = [v for v, t in where.items() if v != t]
    if wrong:
        return Verdict(
            False,
            f"after {len(schedule)} steps the pebble on {wrong[0]!r} is not home (it goes to {where[wrong[0]]!r})",
        )
    return Verdict(True, f"{len(schedule)} steps replayed; every pebble on its target")


def verify_parity_unsolvable(
    edges: Sequence[tuple[str, str]], start: Mapping[str, str], blank: str
) -> Verdict:
    """Confirm a sliding arrangement unsolvable by parity, where that invariant applies.

    On a bipartite graph every slide is a transposition and moves the blank to the
    other colour class, so the arrangement's parity must equal the parity of the
    colour change of the blank's pebble. ``ok`` is False when the invariant does not
    refute the arrangement (other graphs, or the parities agree).
    """
    adj: dict[str, list[str]] = {v: [] for v in start}
    for u, v in edges:
        adj[u].append(v)
        adj[v].append(u)
    colour = {blank: 0}
    queue = [blank]
    for u in queue:
        for w in adj[u]:
            if w not in colour:
                colour[w] = colour[u] ^ 1
                queue.append(w)
            elif colour[w] == colour[u]:
                return Verdict(False, "the graph is not bipartite: no parity invariant")
    parity, seen = 0, set()
    for v in start:
        if v not in seen:
            length, w = 0, v
            while w not in seen:
                seen.add(w)
                w = start[w]
                length += 1
            parity ^= (length - 1) & 1
    if parity != colour[start[blank]] ^ colour[blank]:
        return Verdict(
            True,
            "parity invariant: the arrangement's parity differs from the blank's colour change",
        )
    return Verdict(False, "the parity invariant does not refute this arrangement")


def _edges_named(inst: Instance, schedule: list) -> list[tuple[str, str]]:
    """The graph's edges among the pairs the schedule names (what the replay looks up;
    a complete graph on 1,000 vertices has half a million edges, a schedule a thousand)."""
    g = inst.graph
    pairs = {tuple(e) for step in schedule if isinstance(step, list) for e in step
             if isinstance(e, (list, tuple)) and len(e) == 2}  # fmt: skip
    out = []
    for a, b in pairs:
        u, v = g.index.get(a), g.index.get(b)
        if u is not None and v is not None:
            row = g.adj[u]
            i = bisect_left(row, v)
            if i < len(row) and row[i] == v:
                out.append((a, b))
    return out


def check_outcome(inst: Instance, outcome: Outcome) -> tuple[bool | None, str]:
    """Replay a solved outcome's schedule with :mod:`~pyasp_games.domains.routing.verify`.

    A no-solution for ``blank`` is re-derived by the independent parity invariant
    where it applies (bipartite graphs); otherwise it rests on the backend's search
    and is cross-checked, not verified.
    """
    g = inst.graph
    if outcome.status == "solved":
        schedule = outcome.witness
        if not isinstance(schedule, list):
            return False, "no schedule given"
        start = {g.names[v]: g.names[t] for v, t in enumerate(inst.state)}
        blank = g.names[inst.blank] if inst.blank is not None else None
        verdict = verify_schedule(_edges_named(inst, schedule), start, inst.moves, schedule, blank)
        if verdict.ok and outcome.answer != len(schedule):
            return False, f"answer {outcome.answer} is not the schedule's length {len(schedule)}"
        return verdict.ok, verdict.message
    if outcome.status == "no-solution":
        if inst.moves == "blank" and outcome.verdict.bound is None:
            edges = [(g.names[u], g.names[v]) for u, v in g.edges]
            start = {g.names[v]: g.names[t] for v, t in enumerate(inst.state)}
            verdict = verify_parity_unsolvable(edges, start, g.names[inst.blank])
            if verdict.ok:
                return True, verdict.message
        return None, outcome.stats.get("proof", "no proof given")
    return None, "nothing to verify"


def check_number(inst: Instance, outcome: Outcome) -> tuple[bool | None, str]:
    """Replay the worst arrangement's schedule of a routing number (``number``).

    The witness schedule must route ``stats["worst"]`` (vertex -> target; vertices not
    named stay) in ``answer`` steps. That it is optimal, and that no arrangement needs
    more, rests on the exhaustive search and is not checked here.
    """
    if outcome.status != "solved":
        return None, "nothing to verify"
    worst, schedule = outcome.stats.get("worst"), outcome.witness
    if not isinstance(worst, dict) or not isinstance(schedule, list):
        return False, "no worst arrangement and schedule given"
    g = inst.graph
    start = {name: name for name in g.names}
    start.update(worst)
    verdict = verify_schedule([(g.names[u], g.names[v]) for u, v in g.edges], start, inst.moves, schedule)
    if not verdict.ok:
        return False, f"the worst arrangement's schedule: {verdict.message}"
    if outcome.answer != len(schedule):
        return False, f"answer {outcome.answer} is not the schedule's length {len(schedule)}"
    return True, f"the worst arrangement's schedule: {verdict.message}"


def check_solvability(inst: Instance, outcome: Outcome) -> tuple[bool | None, str]:
    """Confirm a sliding arrangement's solvability: "solvable" by replaying the schedule
    given with it, "unsolvable" by the parity invariant where it applies (bipartite
    graphs); without either it rests on the backend (Wilson's theorem, the search)."""
    g = inst.graph
    edges = [(g.names[u], g.names[v]) for u, v in g.edges]
    start = {g.names[v]: g.names[t] for v, t in enumerate(inst.state)}
    if outcome.status == "no-solution":
        verdict = verify_parity_unsolvable(edges, start, g.names[inst.blank])
        return (True if verdict.ok else None), verdict.message
    if outcome.status == "solved" and outcome.witness is not None:
        if not isinstance(outcome.witness, list):
            return False, "the schedule is not a list of steps"
        verdict = verify_schedule(edges, start, "blank", outcome.witness, g.names[inst.blank])
        return verdict.ok, verdict.message
    return None, "nothing to verify"
