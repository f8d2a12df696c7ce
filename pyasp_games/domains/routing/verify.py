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
from typing import Any

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


#: The most vertex visits :func:`verify_sides_unsolvable` spends (a search of the graph
#: without each vertex in turn: 4,000,000 is about 2 s on a graph of 2,000 vertices).
SIDES_WORK = 4_000_000


def verify_sides_unsolvable(
    edges: Sequence[tuple[str, str]], start: Mapping[str, str], blank: str
) -> Verdict:
    """Confirm a sliding arrangement unsolvable by the sides of its cut vertices.

    Take a cut vertex ``c`` and the parts of the graph without ``c``. A pebble crosses
    ``c`` only by sliding onto it (the blank then goes to the part it came from) and off
    it (into the blank's part, the one it came from: the blank left that part only by
    way of ``c``). So every pebble other than the blank keeps its *side* of ``c``: the
    part it is in, or, while it is on ``c``, the part the blank is in. An arrangement in
    which some pebble's side differs from its target's (the target ``c`` read with the
    blank home) is unsolvable. ``ok`` is False when no cut vertex refutes it.

    >>> path = [("a", "c"), ("c", "b")]
    >>> verify_sides_unsolvable(path, {"a": "b", "c": "c", "b": "a"}, "c").ok
    True
    """
    adj: dict[str, list[str]] = {v: [] for v in start}
    for u, v in edges:
        adj[u].append(v)
        adj[v].append(u)
    home = start[blank]
    work = 0
    for cut in adj:
        if len(adj[cut]) < 2:
            continue  # a leaf cuts nothing off
        work += len(start)
        if work > SIDES_WORK:
            return Verdict(False, f"the cut vertices' sides not all examined (the checker's budget of "
                                  f"{SIDES_WORK:,} steps)")  # fmt: skip
        part: dict[str, int] = {}
        for root in adj[cut]:
            if root in part:
                continue
            part[root] = root_id = len(part)
            queue = [root]
            for u in queue:
                for w in adj[u]:
                    if w != cut and w not in part:
                        part[w] = root_id
                        queue.append(w)
        if len(set(part.values())) < 2:
            continue  # not a cut vertex
        for v, target in start.items():
            if v == blank:
                continue
            now = part[blank] if v == cut else part[v]
            then = part.get(home) if target == cut else part[target]
            if now != then:
                return Verdict(
                    True,
                    f"cut vertex invariant: the pebble on {v!r} is on another side of {cut!r} than its "
                    "target, and a pebble never changes its side of a cut vertex",
                )
    return Verdict(False, "no cut vertex refutes this arrangement")


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


def _unsolvable_by_invariant(
    edges: Sequence[tuple[str, str]], start: Mapping[str, str], blank: str | None
) -> Verdict:
    """The parity invariant, then the cut vertices' sides: the first that refutes."""
    parity = verify_parity_unsolvable(edges, start, blank)
    if parity.ok:
        return parity
    sides = verify_sides_unsolvable(edges, start, blank)
    return sides if sides.ok else Verdict(False, f"{parity.message}; {sides.message}")


def check_outcome(inst: Instance, outcome: Outcome) -> tuple[bool | None, str]:
    """Replay a solved outcome's schedule with :mod:`~pyasp_games.domains.routing.verify`.

    A no-solution for ``blank`` is re-derived by the independent parity invariant
    where it applies (bipartite graphs), or by a cut vertex's sides
    (:func:`verify_sides_unsolvable`); "no schedule within N steps" must state N in
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
            verdict = _unsolvable_by_invariant(edges, start, blank)
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
    <pyasp_games.engines.verdict.Verdict.not_checked>`). Under ``blank``:
    :func:`check_sliding_number`.
    """
    if inst.moves == "blank":
        return check_sliding_number(inst, outcome)
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
    graphs) or a cut vertex's sides (:func:`verify_sides_unsolvable`); without either it
    rests on the backend (Wilson's theorem). The answer must be the status's (``True``
    solved, ``False`` no-solution)."""
    g = inst.graph
    edges, start = _named(inst)
    if outcome.status in ("solved", "no-solution") and outcome.answer is not (outcome.status == "solved"):
        return False, f"the answer {outcome.answer!r} is not the status {outcome.status}'s"
    if outcome.status == "no-solution":
        verdict = _unsolvable_by_invariant(edges, start, g.names[inst.blank])
        return (True if verdict.ok else None), verdict.message
    if outcome.status == "solved" and outcome.witness is not None:
        if not isinstance(outcome.witness, list):
            return False, "the schedule is not a list of steps"
        verdict = verify_schedule(edges, start, "blank", outcome.witness, g.names[inst.blank])
        return verdict.ok, verdict.message
    return None, "nothing to verify"


# -- the sliding puzzle's worst case (``number`` under ``blank``) ---------------------------

#: Up to this many arrangements a home, the checker searches the state graph again itself
#: (a plain breadth-first search over a dict) and compares every layer; beyond, each
#: antipode's distance is confirmed by an optimal solver where one applies.
CHECK_BFS_ARRANGEMENTS = 200_000

#: Wall seconds the puzzle's optimal solver is given for each antipode of a board.
CONFIRM_SECONDS = 60.0

#: The most arrangements the checker's search from both ends
#: (:func:`sliding_distance_by_meeting`) keeps to confirm one antipode's distance.
MEETING_ARRANGEMENTS = 2_000_000


def sliding_layers_by_dict(inst: Instance, home: int) -> tuple[list[int], set[tuple[int, ...]]]:
    """The number of arrangements at each distance from the solved arrangement whose
    blank (the pebble with target ``home``) is on ``home``, and the farthest ones: a
    breadth-first search over a dict of tuples, written for the checker alone.

    >>> from pyasp_games.domains.routing.model import identity_instance
    >>> from pyasp_games.domains.routing.specs import graph_spec
    >>> sliding_layers_by_dict(identity_instance(graph_spec("cycle:4"), "blank"), 0)[0]
    [1, 2, 2, 2, 2, 2, 1]
    """
    adj = inst.graph.adj
    start = tuple(range(len(adj)))
    seen = {start}
    layer = [(start, home)]
    counts = [1]
    while True:
        following = []
        for state, blank in layer:
            for w in adj[blank]:
                moved = list(state)
                moved[blank], moved[w] = moved[w], home
                key = tuple(moved)
                if key not in seen:
                    seen.add(key)
                    following.append((key, w))
        if not following:
            return counts, {state for state, _ in layer}
        counts.append(len(following))
        layer = following


def sliding_distance_by_meeting(
    inst: Instance, state: tuple[int, ...], home: int, most: int = MEETING_ARRANGEMENTS
) -> int | None:
    """The fewest slides from ``state`` to the solved arrangement whose blank (the pebble
    with target ``home``) is on ``home``: a breadth-first search from both ends, a whole
    layer of the smaller side at a time, until they meet (``None``: unsolvable, or more
    than ``most`` arrangements kept first). Written for the checker alone.

    >>> from pyasp_games.domains.routing.model import identity_instance
    >>> from pyasp_games.domains.routing.specs import graph_spec
    >>> sliding_distance_by_meeting(identity_instance(graph_spec("grid:2x2"), "blank"), (3, 2, 1, 0), 0)
    6
    """
    adj = inst.graph.adj
    goal = tuple(range(len(adj)))
    sides = [{state: 0}, {goal: 0}]
    fronts = [[state], [goal]]
    depths = [0, 0]
    if state == goal:
        return 0
    while fronts[0] and fronts[1]:
        if sum(len(side) for side in sides) > most:
            return None
        k = 0 if len(fronts[0]) <= len(fronts[1]) else 1
        mine, other = sides[k], sides[1 - k]
        depths[k] += 1
        best = None
        following = []
        for s in fronts[k]:
            blank = s.index(home)
            for w in adj[blank]:
                moved = list(s)
                moved[blank], moved[w] = moved[w], home
                key = tuple(moved)
                if key in mine:
                    continue
                mine[key] = depths[k]
                following.append(key)
                if key in other and (best is None or depths[k] + other[key] < best):
                    best = depths[k] + other[key]
        if best is not None:
            return best
        fronts[k] = following
    return None


def wilson_count(inst: Instance) -> int | None:
    """How many arrangements Wilson's theorem (1974) says are reachable from a solved one:
    ``n!`` on a 2-connected graph that is neither a cycle, nor bipartite, nor theta0,
    ``n! / 2`` on a 2-connected bipartite one that is no cycle, ``n (n - 1)`` on a cycle
    (the tiles keep their cyclic order); ``None`` where it says nothing (a graph that is
    not 2-connected, theta0)."""
    import networkx as nx

    g = inst.graph
    n = len(g)
    nxg = g.to_networkx()
    if n < 3 or not nx.is_biconnected(nxg):
        return None
    if len(g.edges) == n:
        return n * (n - 1)
    theta = nx.Graph([(0, 1), (1, 2), (0, 3), (3, 4), (4, 2), (0, 5), (5, 6), (6, 2)])
    if n == 7 and nx.is_isomorphic(nxg, theta):
        return None
    return math.factorial(n) // (2 if nx.is_bipartite(nxg) else 1)


def check_sliding_number(inst: Instance, outcome: Outcome) -> tuple[bool | None, str]:
    """Check the sliding puzzle's worst case (``number`` under ``blank``).

    The homes searched must be the home given, or classes that cover every vertex once;
    each home's layers must start with the solved arrangement, add up to the same number
    of arrangements (Wilson's count where his theorem gives one), and end at its
    eccentricity, the answer the largest. Each antipode's plan is replayed to the solved
    arrangement in exactly the answer's slides. Where a home has at most
    :data:`CHECK_BFS_ARRANGEMENTS` arrangements, the checker's own search
    (:func:`sliding_layers_by_dict`) must find every layer and every antipode as
    claimed: all verified. Beyond, each antipode of a board's corner is solved again by
    the puzzle's optimal solver (IDA*, with pattern databases of the quick partition
    beyond 3 x 3, within :data:`CONFIRM_SECONDS`), and any other antipode by the
    checker's own search from both ends (:func:`sliding_distance_by_meeting`, up to
    :data:`MEETING_ARRANGEMENTS`): its optimum must be the answer; that no
    arrangement is farther then rests on the layers' count (verified in part).
    """
    if outcome.status != "solved":
        return None, "nothing to verify"
    g = inst.graph
    certificate = outcome.certificate if isinstance(outcome.certificate, dict) else {}
    homes, total = certificate.get("homes"), certificate.get("arrangements")
    if not isinstance(homes, list) or not homes or not all(isinstance(h, dict) for h in homes):
        return False, "no homes searched"
    wrong = _homes_wrong(inst, homes)
    if wrong:
        return False, wrong
    if not isinstance(total, int) or isinstance(total, bool) or total < 1:
        return False, f"{total!r} is not a number of arrangements"
    for entry in homes:
        layers = entry.get("layers")
        if not isinstance(layers, list) or not layers or layers[0] != 1 or not all(
            isinstance(c, int) and not isinstance(c, bool) and c > 0 for c in layers
        ):
            return False, f"home {entry.get('home')}: its layers {layers!r} are not counts from 1"
        if sum(layers) != total:
            return False, f"home {entry.get('home')}: its layers add up to {sum(layers):,}, not {total:,}"
        if entry.get("eccentricity") != len(layers) - 1 or entry.get("antipodes") != layers[-1]:
            return False, f"home {entry.get('home')}: its eccentricity or antipodes are not its last layer's"
    diameter = max(entry["eccentricity"] for entry in homes)
    if outcome.answer != diameter:
        return False, f"answer {outcome.answer!r} is not the largest eccentricity {diameter}"
    wilson = wilson_count(inst)
    if wilson is not None and total != wilson:
        return False, f"{total:,} arrangements reached, but Wilson's theorem counts {wilson:,}"
    antipodes = _replayed_antipodes(inst, outcome, homes, diameter)
    if isinstance(antipodes, str):
        return False, antipodes
    said = (f"{len(antipodes)} antipode plan(s) of {diameter} slides replayed; "
            f"{total:,} arrangements a home" + (" (Wilson's count)" if wilson else ""))  # fmt: skip
    if total <= CHECK_BFS_ARRANGEMENTS:
        for entry in homes:
            home = g.index[entry["home"]]
            layers, farthest = sliding_layers_by_dict(inst, home)
            if layers != entry["layers"]:
                return False, f"home {entry['home']}: the checker's search finds the layers {layers}"
            for state, far_home in antipodes:
                if far_home == home and state not in farthest:
                    return False, f"an antipode of home {entry['home']} is nearer than {diameter}"
        return True, said + "; every layer found again by the checker's own search"
    confirmed = _confirm_on_board(inst, antipodes, diameter)
    if isinstance(confirmed, str):
        return False, confirmed
    met = 0
    for state, home in antipodes[len(confirmed):]:
        distance = sliding_distance_by_meeting(inst, state, home)
        if distance is not None and distance != diameter:
            return False, f"an antipode is {distance} slides from its home {g.names[home]}, not {diameter}"
        met += distance is not None
    rest = "that no arrangement is farther: rests on the BFS's layer counts"
    if len(confirmed) + met < len(antipodes):
        rest = f"the distance of {len(antipodes) - len(confirmed) - met} antipode(s) and " + rest
    elif confirmed and met:
        said += (f"; each antipode's optimum {diameter} confirmed, by the puzzle's IDA* (a"
                 " corner's) or the checker's search from both ends")  # fmt: skip
    elif confirmed:
        said += f"; each antipode's optimum {diameter} confirmed by the puzzle's IDA*"
    else:
        said += f"; each antipode's distance {diameter} confirmed by the checker's search from both ends"
    outcome.verdict.not_checked = rest
    return True, said


def _homes_wrong(inst: Instance, homes: list[dict]) -> str:
    """Why the homes searched are not the ones asked (empty: they are)."""
    g = inst.graph
    given = inst.headers.get("home")
    named = [entry.get("home") for entry in homes]
    if given is not None:
        return "" if named == [given] else f"the homes {named} are not the blank's home {given}"
    covered: list[Any] = []
    for entry in homes:
        like = entry.get("like")
        if not isinstance(like, list) or entry.get("home") not in like:
            return f"home {entry.get('home')!r}: no class of vertices like it"
        covered += like
    if sorted(map(str, covered)) != sorted(g.names) or len(covered) != len(g):
        return "the homes' classes do not cover every vertex once"
    try:
        from networkx.algorithms.isomorphism import GraphMatcher

        nxg = g.to_networkx()
        for entry in homes:
            for other in entry["like"]:
                first, second = nxg.copy(), nxg.copy()
                first.nodes[entry["home"]]["h"] = second.nodes[other]["h"] = True
                matcher = GraphMatcher(first, second, node_match=lambda a, b: a.get("h") == b.get("h"))
                if not matcher.is_isomorphic():
                    return f"no automorphism takes {entry['home']} to {other}"
    except KeyError:
        return "a class names a vertex the graph does not have"
    return ""


def _replayed_antipodes(
    inst: Instance, outcome: Outcome, homes: list[dict], diameter: int
) -> list[tuple[tuple[int, ...], int]] | str:
    """The witness's antipodes (arrangement, home), each plan replayed; or why not."""
    g = inst.graph
    farthest = {entry["home"] for entry in homes if entry["eccentricity"] == diameter}
    witness = outcome.witness
    if not isinstance(witness, list) or not witness:
        return "no antipode given"
    edges = [(g.names[u], g.names[v]) for u, v in g.edges]
    out = []
    for far in witness:
        if not isinstance(far, dict) or far.get("home") not in farthest:
            return f"an antipode {far!r} of no farthest home"
        moved, plan, blank = far.get("arrangement"), far.get("plan"), far.get("blank")
        if not isinstance(moved, dict) or not isinstance(plan, list) or blank not in g.index:
            return "an antipode without its arrangement, blank and plan"
        if not set(moved) <= set(g.names) or not set(moved.values()) <= set(g.names):
            return "an antipode names vertices the graph does not have"
        start = {name: name for name in g.names}
        start.update(moved)
        if start[blank] != far["home"]:
            return f"the antipode's blank on {blank} does not go to its home {far['home']}"
        verdict = verify_schedule(edges, start, "blank", plan, blank)
        if not verdict.ok:
            return f"an antipode's plan: {verdict.message}"
        if len(plan) != diameter:
            return f"an antipode's plan has {len(plan)} slides, not {diameter}"
        out.append((tuple(g.index[start[v]] for v in g.names), g.index[far["home"]]))
    for home in farthest:
        if not any(g.names[h] == home for _, h in out):
            return f"no antipode of the farthest home {home}"
    return out


def _confirm_on_board(inst: Instance, antipodes: list, diameter: int) -> list | str:
    """The antipodes the puzzle's optimal solver confirms at ``diameter`` slides (a
    full ``grid:RxC`` with the home in a corner: the board turned so that the home is
    the top left, Korf's goal), moved to the front of ``antipodes``; or why the claim is
    wrong (a shorter plan found)."""
    from pyasp_games.domains.puzzle.model import Board
    from pyasp_games.domains.puzzle.native import solve_idastar, solve_pdb
    from pyasp_games.engines.limits import LimitReached, Limits

    g = inst.graph
    shape = re.fullmatch(r"grid:(\d+)x(\d+)", g.name)
    if shape is None:
        return []
    rows, cols = int(shape.group(1)), int(shape.group(2))
    if list(g.names) != [f"{r},{c}" for r in range(rows) for c in range(cols)]:
        return []
    confirmed = []
    for state, home in antipodes:
        r0, c0 = divmod(home, cols)
        if r0 not in (0, rows - 1) or c0 not in (0, cols - 1):
            continue
        flip_rows, flip_cols = r0 > 0, c0 > 0
        turned = []  # the cell each cell goes to when the home turns to the top left
        for v in range(len(state)):
            r, c = divmod(v, cols)
            turned.append((rows - 1 - r if flip_rows else r) * cols + (cols - 1 - c if flip_cols else c))
        tiles = [0] * len(state)
        for v, target in enumerate(state):
            tiles[turned[v]] = turned[target]
        board = Board(rows, cols, tuple(tiles), "blank-first", "antipode")
        limits = Limits(time_limit=CONFIRM_SECONDS)
        try:  # up to 3 x 3 Manhattan distance is enough; beyond, the quick partition's
            # databases build in a second or two
            if rows * cols <= 9:
                claim = solve_idastar(board, limits)
            else:
                claim = solve_pdb(board, limits, partition="quick")
        except (LimitReached, MemoryError):
            continue
        if claim.status != "solved":
            continue
        if claim.answer != diameter:
            return f"the puzzle's IDA* solves an antipode in {claim.answer} moves, not {diameter}"
        confirmed.append((state, home))
    antipodes[:] = confirmed + [far for far in antipodes if far not in confirmed]
    return confirmed
