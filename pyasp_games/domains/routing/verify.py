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

import math
import re
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


def _named(inst: Instance) -> tuple[list[tuple[str, str]], dict[str, str]]:
    """The graph's edges and the arrangement (vertex -> its pebble's target), by name."""
    g = inst.graph
    edges = [(g.names[u], g.names[v]) for u, v in g.edges]
    return edges, {g.names[v]: g.names[t] for v, t in enumerate(inst.state)}


def least_steps(
    edges: Sequence[tuple[str, str]], start: Mapping[str, str], moves: str, blank: str | None = None
) -> int:
    """A lower bound on every schedule of ``start``, counted here by breadth-first
    distances: a pebble moves one edge a step at most (``matching``: a step moves at most
    two pebbles per edge of a matching, at most ``n // 2`` edges); a swap moves two
    pebbles one edge each and joins or splits one cycle of the permutation; a slide
    moves one pebble that is not the blank one edge.

    >>> least_steps([("a", "b"), ("b", "c")], {"a": "c", "b": "b", "c": "a"}, "swap")  # optimum 3
    2
    """
    adj: dict[str, list[str]] = {v: [] for v in start}
    for u, v in edges:
        adj[u].append(v)
        adj[v].append(u)

    def distance(a: str, b: str) -> int:
        seen, frontier, d = {a}, [a], 0
        while b not in seen:
            frontier = [w for u in frontier for w in adj[u] if w not in seen]
            if not frontier:
                return 0  # unreachable: no bound from this pebble
            seen.update(frontier)
            d += 1
        return d

    far = {v: distance(v, t) for v, t in start.items() if v != t}
    total = sum(far.values())
    bound = max(far.values(), default=0)
    if moves == "matching" and len(start) > 1:
        bound = max(bound, -(-total // (2 * (len(start) // 2))))
    elif moves == "swap":
        seen: set[str] = set()
        cycles = 0
        for v in start:
            if v not in seen:
                cycles += 1
                while v not in seen:
                    seen.add(v)
                    v = start[v]
        bound = max(bound, -(-total // 2), len(start) - cycles)
    elif moves == "blank":
        bound = max(bound, total - far.get(blank, 0) if blank is not None else total)
    return bound


def check_outcome(inst: Instance, outcome: Outcome) -> tuple[bool | None, str]:
    """Replay a solved outcome's schedule with :mod:`~pyasp_games.domains.routing.verify`.

    A no-solution for ``blank`` is re-derived by the independent parity invariant
    where it applies (bipartite graphs); "no schedule within N steps" must state N in
    its grounds (the certificate), and is confirmed alone where :func:`least_steps`
    exceeds N; otherwise it rests on the backend's search and is cross-checked, not
    verified. A lower bound the ``swapper`` states beside its schedule (and the gap it
    prints) is confirmed where :func:`least_steps` reaches it, else said not re-checked
    (:attr:`Verdict.not_checked <pyasp_games.engines.verdict.Verdict.not_checked>`).
    """
    g = inst.graph
    blank = g.names[inst.blank] if inst.blank is not None else None
    if outcome.status == "solved":
        schedule = outcome.witness
        if not isinstance(schedule, list):
            return False, "no schedule given"
        start = {g.names[v]: g.names[t] for v, t in enumerate(inst.state)}
        verdict = verify_schedule(_edges_named(inst, schedule), start, inst.moves, schedule, blank)
        if verdict.ok and outcome.answer != len(schedule):
            return False, f"answer {outcome.answer} is not the schedule's length {len(schedule)}"
        if verdict.ok and "lower_bound" in outcome.stats and "gap" in outcome.stats:
            return _check_stated_bound(inst, outcome, verdict.message)
        return verdict.ok, verdict.message
    if outcome.status == "no-solution":
        if outcome.answer is not None:
            return False, f"a claim of no schedule with the answer {outcome.answer!r}"
        bound = outcome.verdict.bound
        if bound is not None:
            return _check_none_within(inst, bound, outcome.certificate)
        if inst.moves == "blank":
            edges, start = _named(inst)
            verdict = verify_parity_unsolvable(edges, start, blank)
            if verdict.ok:
                return True, verdict.message
        return None, str(outcome.certificate or "no grounds given")
    return None, "nothing to verify"


def _check_none_within(inst: Instance, bound: object, grounds: object) -> tuple[bool | None, str]:
    """"No schedule of at most ``bound`` steps": the bound a length its grounds state."""
    if not isinstance(bound, int) or isinstance(bound, bool) or bound < 0:
        return False, f"the bound {bound!r} is not a number of steps"
    if not isinstance(grounds, str) or str(bound) not in re.findall(r"\d+", grounds):
        return False, f"the grounds {grounds!r} do not state the bound {bound}"
    edges, start = _named(inst)
    blank = inst.graph.names[inst.blank] if inst.blank is not None else None
    least = least_steps(edges, start, inst.moves, blank)
    if least > bound:
        return True, f"no schedule of at most {bound} steps: every schedule has at least {least}"
    return None, grounds


def _check_stated_bound(inst: Instance, outcome: Outcome, replayed: str) -> tuple[bool | None, str]:
    """The lower bound the ``swapper`` prints beside its schedule, and the gap."""
    lower, gap = outcome.stats["lower_bound"], outcome.stats["gap"]
    if not isinstance(lower, int) or lower > outcome.answer or gap != outcome.answer - lower:
        return False, f"the lower bound {lower!r} and gap {gap!r} do not fit {outcome.answer} steps"
    if outcome.verdict.exact and lower != outcome.answer:
        return False, f"claimed optimal, but its lower bound {lower} is below its {outcome.answer} steps"
    edges, start = _named(inst)
    least = least_steps(edges, start, inst.moves)
    if least >= lower:
        return True, f"{replayed}; the lower bound {lower} confirmed (every schedule has at least {least})"
    optimum = " (so the optimum)" if outcome.verdict.exact else ""
    outcome.verdict.not_checked = f"the lower bound {lower}{optimum}: rests on the swapper's search"
    return True, replayed


def check_number(inst: Instance, outcome: Outcome) -> tuple[bool | None, str]:
    """Replay the worst arrangement's schedule of a routing number (``number``).

    The witness schedule must route the certificate's ``worst`` (vertex -> target;
    vertices not named stay) in ``answer`` steps, and its ``arrangements`` must be every
    arrangement (n! on a connected graph). That the schedule is optimal, and that no
    arrangement needs more, rests on the exhaustive search and is not checked here: the
    answer is verified in part (:attr:`Verdict.not_checked
    <pyasp_games.engines.verdict.Verdict.not_checked>`).
    """
    if outcome.status != "solved":
        return None, "nothing to verify"
    certificate = outcome.certificate if isinstance(outcome.certificate, dict) else {}
    worst, schedule = certificate.get("worst"), outcome.witness
    if not isinstance(worst, dict) or not isinstance(schedule, list):
        return False, "no worst arrangement and schedule given"
    g = inst.graph
    if not set(worst) <= set(g.names) or not set(worst.values()) <= set(g.names):
        return False, "the worst arrangement names vertices the graph does not have"
    start = {name: name for name in g.names}
    start.update(worst)
    verdict = verify_schedule([(g.names[u], g.names[v]) for u, v in g.edges], start, inst.moves, schedule)
    if not verdict.ok:
        return False, f"the worst arrangement's schedule: {verdict.message}"
    if outcome.answer != len(schedule):
        return False, f"answer {outcome.answer} is not the schedule's length {len(schedule)}"
    searched = certificate.get("arrangements")
    if searched != math.factorial(len(g)):
        return False, f"{searched!r} arrangements searched, not all {math.factorial(len(g)):,}"
    outcome.verdict.not_checked = f"the maximum: rests on the BFS over all {searched:,} arrangements"
    return True, f"the worst arrangement's schedule: {verdict.message}"


def check_solvability(inst: Instance, outcome: Outcome) -> tuple[bool | None, str]:
    """Confirm a sliding arrangement's solvability: "solvable" by replaying the schedule
    given with it, "unsolvable" by the parity invariant where it applies (bipartite
    graphs); without either it rests on the backend (Wilson's theorem, the search). The
    answer must be the status's (``True`` solved, ``False`` no-solution)."""
    g = inst.graph
    edges, start = _named(inst)
    if outcome.status in ("solved", "no-solution") and outcome.answer is not (outcome.status == "solved"):
        return False, f"the answer {outcome.answer!r} is not the status {outcome.status}'s"
    if outcome.status == "no-solution":
        verdict = verify_parity_unsolvable(edges, start, g.names[inst.blank])
        return (True if verdict.ok else None), verdict.message
    if outcome.status == "solved" and outcome.witness is not None:
        if not isinstance(outcome.witness, list):
            return False, "the schedule is not a list of steps"
        verdict = verify_schedule(edges, start, "blank", outcome.witness, g.names[inst.blank])
        return verdict.ok, verdict.message
    return None, "nothing to verify"
