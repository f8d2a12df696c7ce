"""Token swapping (one edge a step) on any graph: a bound that improves on the
4-approximation.

Its depth-first searches are the exact search's
(:class:`~pyasp_games.domains.routing.swap_search.SwapSearch`, one kernel: run as Python where a
search is short, compiled where it is long) with a node limit, and without the exact
search's duplicate table and its bound of pebbles at home in the way: under the
admissible bound ``max(ceil(D / 2), n - c)``, only the lexicographically least order of
commuting swaps, never a swap that cancels with its earlier copy.

- :func:`bound_swaps`: randomised greedy schedules (in the manner of Miltzow et al. 2016:
  swaps that bring both pebbles closer, preferring those that split a cycle; a directed
  cycle of pebbles that each want the next vertex rotated; else a swap that moves a pebble
  closer and a pebble at home away), half of them for the inverse arrangement (a schedule
  for it, reversed, routes the arrangement); in the best ones, pairs of equal swaps with
  only commuting swaps between them cancelled and windows replaced by shorter sequences
  with the same effect (found by a search over the window's vertices), also in
  random other orders of the commuting swaps; then a large-neighbourhood search (a
  random part of the schedule planned anew by a greedy run, kept when no longer: its
  start, its end, or a stretch of at most :data:`SEGMENT` swaps between a kept prefix and
  suffix, in a random order of the commuting swaps); then the long search, the same with
  :data:`EFFORT` new plans per vertex beyond :data:`SMALL` (at most :data:`LONGEST`), restarted from the next
  greedy schedule wherever a third of them in a row shortens nothing (half of the greedy
  runs go without the preference for splitting a cycle: the two reach different local
  optima); last,
  depth-first searches with a node limit, from the lower bound up (an exhausted budget
  raises the proved lower bound) and just below the best schedule (one found replaces it).
  The answer is a schedule and the best lower bound proved on the way.

>>> from pyasp_games.engines.limits import Limits
>>> from pyasp_games.domains.routing.model import Instance
>>> from pyasp_games.domains.routing.specs import graph_spec
>>> inst = Instance(graph_spec("grid:3x3"), (8, 7, 6, 5, 4, 3, 2, 1, 0), "swap")
>>> found = bound_swaps(inst, Limits().deadline(), seed=0)
>>> len(found.swaps), found.lower_bound    # the optimum 16 found; 14 proved within the nodes
(16, 14)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from pyasp_games.domains.routing.model import Instance
from pyasp_games.domains.routing.swap_search import NodeLimit, SwapSearch
from pyasp_games.engines.graphs import Graph
from pyasp_games.engines.limits import Deadline, LimitReached

Swap = tuple[int, int]


# -- the bound -----------------------------------------------------------------------


@dataclass
class Bound:
    """A schedule found, the best lower bound proved on the way, and how."""

    swaps: list[Swap]
    lower_bound: int
    greedy: int
    searched: int  # the largest budget whose search ran (exhausted or found)


def greedy_swaps(graph: Graph, state: Sequence[int], rng: random.Random,
                 split: bool = True) -> list[Swap]:  # fmt: skip
    """One randomised greedy schedule (see the module docstring); ``split=False``: without
    the preference for happy swaps that split a cycle (rustworkx's choice: on some
    arrangements, the 4 x 4 grid's ``#4`` for one, only schedules without it reach the
    optimum, on others only those with it).

    The happy swaps (both pebbles one edge closer) are kept in a set and only the edges
    at the two swapped vertices are looked at again after a swap, so a step costs the
    degrees, not the whole graph."""
    dist, adj = graph.distances, graph.adj
    s, n, out = list(state), len(state), []
    far = [dist[v][s[v]] for v in range(n)]  # each pebble's distance to its target

    def is_happy(u: int, w: int) -> bool:
        return (far[u] > 0 and far[w] > 0 and dist[w][s[u]] < far[u]
                and dist[u][s[w]] < far[w])  # fmt: skip

    happy = {(u, w) for u in range(n) for w in adj[u] if u < w and is_happy(u, w)}
    away = sum(1 for f in far if f)

    def do(u: int, w: int) -> None:
        nonlocal away
        away -= (far[u] > 0) + (far[w] > 0)
        s[u], s[w] = s[w], s[u]
        far[u], far[w] = dist[u][s[u]], dist[w][s[w]]
        away += (far[u] > 0) + (far[w] > 0)
        out.append((u, w) if u < w else (w, u))
        for x in (u, w):
            for y in adj[x]:
                e = (x, y) if x < y else (y, x)
                if is_happy(*e):
                    happy.add(e)
                else:
                    happy.discard(e)

    while away:
        if happy:
            options = sorted(happy)
            rng.shuffle(options)
            # prefer a swap inside one cycle of the arrangement: it splits the cycle
            chosen = next((e for e in options if _same_cycle(s, *e)), options[0]) if split \
                else options[0]
            do(*chosen)
            continue
        moving = [v for v in range(n) if far[v]]
        walk = [rng.choice(moving)]
        where = {walk[0]: 0}
        while True:  # follow pebbles that want the next vertex
            v = walk[-1]
            wanted = [x for x in adj[v] if dist[x][s[v]] < far[v]]
            busy = [x for x in wanted if far[x]]
            if not busy:  # only pebbles at home are in the way: one steps aside
                do(v, rng.choice(wanted))
                break
            w = rng.choice(busy)
            if w in where:  # a directed cycle: rotate it, every pebble one edge closer
                cyc = walk[where[w]:]
                for i in range(len(cyc) - 2, -1, -1):
                    do(cyc[i], cyc[i + 1])
                break
            where[w] = len(walk)
            walk.append(w)
    return out


def _same_cycle(s: list[int], u: int, w: int) -> bool:
    """Whether ``u`` and ``w`` lie on one cycle of the arrangement ``s``."""
    v = s[u]
    while v != u:
        if v == w:
            return True
        v = s[v]
    return False


def _net(graph: Graph, n: int, swaps: Sequence[Swap]) -> list[int]:
    """The arrangement that ``swaps`` route (``state[v]``: where the pebble on ``v`` goes)."""
    perm = list(range(n))  # perm[v]: the start vertex of the pebble now on v
    for u, w in swaps:
        perm[u], perm[w] = perm[w], perm[u]
    state = [0] * n
    for v, start in enumerate(perm):
        state[start] = v
    return state


def _window(graph: Graph, swaps: Sequence[Swap]) -> tuple[int, dict[int, int]]:
    """:meth:`SwapSearch.start_bound` of the arrangement that ``swaps`` route, worked out on
    their vertices alone (the same number that a search of it would start from), and that
    arrangement (``perm[v]``: the vertex whose pebble ``swaps`` bring to ``v``)."""
    perm: dict[int, int] = {}
    get = perm.get
    for u, w in swaps:
        pu = get(u, u)
        perm[u] = get(w, w)
        perm[w] = pu
    dist = graph.distances
    total = cycles = 0
    seen: set[int] = set()
    for v, start in perm.items():
        total += dist[start][v]
        if v not in seen:
            cycles += 1
            while v not in seen:
                seen.add(v)
                v = perm[v]
    return SwapSearch.start_bound(total, len(perm), cycles), perm


#: Nodes a depth-first search of the bound may visit: each of its last searches, and a
#: window's (most windows are refuted or shortened well within). Earlier limits of 150 and
#: 400 nodes were read only at every 1,024th node, so that 1,023 is what they were: kept,
#: the bound's schedules and proved bounds stay what they were.
SEARCH_NODES = 1023


def improve_windows(graph: Graph, swaps: list[Swap], deadline: Deadline, width: int = 8,
                    nodes: int | None = None, first: int = 0,
                    last: int | None = None) -> list[Swap]:  # fmt: skip
    """Replace windows of ``swaps`` by shorter sequences with the same effect, each found
    by a depth-first search of at most ``nodes`` nodes over the edges between the
    window's vertices, until none shortens. Only windows starting at ``first`` or later
    are tried, and none starting within the last ``last`` swaps: a caller that changed
    one part of a schedule looks only there."""
    adj = graph.adj
    tail = last or 0
    i = max(first, 0)
    while i + 2 <= len(swaps) and i <= len(swaps) - tail:
        if deadline.expired():
            return swaps
        window = swaps[i : i + width]
        # most windows are as short as the search's start bound already: the bound is
        # worked out here, on the window's vertices alone, before any search is set up
        start, perm = _window(graph, window)
        if start >= len(window):
            i += 1
            continue
        target = {v: t for t, v in perm.items()}
        inside = sorted(target)
        edges = [(v, w) for v in inside for w in adj[v] if v < w and w in target]
        search = SwapSearch(graph, target, edges, inside)
        limit = SEARCH_NODES if nodes is None else nodes
        budget = search.start
        found = None
        try:
            while budget < len(window):
                if search.search(budget, deadline, limit):
                    found = search.schedule()
                    break
                budget += 2
        except NodeLimit:
            pass
        if found is None:
            i += 1
        else:  # the windows that overlap the change are tried again
            swaps = swaps[:i] + found + swaps[i + len(window) :]
            i = max(i - width + 1, first, 0)
    return swaps


def cancel_pairs(swaps: list[Swap]) -> list[Swap]:
    """Drop every pair of equal swaps with only swaps on other vertices between them
    (they commute past those, meet and cancel)."""
    out: list[Swap] = []
    for e in swaps:
        for k in range(len(out) - 1, -1, -1):
            f = out[k]
            if f == e:
                del out[k]
                break
            if f[0] in e or f[1] in e:
                out.append(e)
                break
        else:
            out.append(e)
    return out


def relinearize(swaps: list[Swap], rng: random.Random) -> list[Swap]:
    """The same schedule in another order of its commuting swaps, drawn at random: each
    swap waits only for the earlier swaps at its two vertices (new windows for
    :func:`improve_windows`)."""
    waiting: dict[int, list[int]] = {}
    for k, (u, w) in enumerate(swaps):
        waiting.setdefault(u, []).append(k)
        waiting.setdefault(w, []).append(k)
    head = dict.fromkeys(waiting, 0)

    def ready(k: int) -> bool:
        u, w = swaps[k]
        return waiting[u][head[u]] == k and waiting[w][head[w]] == k

    free = [k for k in range(len(swaps)) if ready(k)]
    out: list[Swap] = []
    while free:
        k = free.pop(rng.randrange(len(free)))
        out.append(swaps[k])
        for v in swaps[k]:
            head[v] += 1
            if head[v] < len(waiting[v]) and ready(waiting[v][head[v]]):
                free.append(waiting[v][head[v]])
    return out


def improve(graph: Graph, swaps: list[Swap], deadline: Deadline, rng: random.Random,
            rounds: int) -> list[Swap]:  # fmt: skip
    """Cancel, shorten windows, and again on ``rounds`` random reorderings of the best."""
    best = improve_windows(graph, cancel_pairs(swaps), deadline)
    for _ in range(rounds):
        if deadline.expired():
            break
        other = improve_windows(graph, cancel_pairs(relinearize(best, rng)), deadline)
        if len(other) < len(best):
            best = other
    return best


def _routed(state: Sequence[int], swaps: Sequence[Swap]) -> list[int]:
    """The arrangement left after ``swaps`` (``state[v]``: where the pebble on ``v`` goes)."""
    s = list(state)
    for u, w in swaps:
        s[u], s[w] = s[w], s[u]
    return s


def _between(state: Sequence[int], head: Sequence[Swap], tail: Sequence[Swap]) -> list[int]:
    """The arrangement that a schedule must route between ``head`` and ``tail`` for the
    three to route ``state``: each pebble to where ``tail`` picks it up to carry it home."""
    s = _routed(state, head)
    picked = list(range(len(s)))  # picked[x]: where the pebble that tail leaves on x starts
    for u, w in tail:
        picked[u], picked[w] = picked[w], picked[u]
    return [picked[t] for t in s]


#: The most swaps of the best schedule that one new plan of its middle replaces.
SEGMENT = 32


#: A new schedule of the large-neighbourhood search is improved only if at most this
#: much longer than the best (its windows rarely shorten it by more).
SLACK = 4


def replan(graph: Graph, state: Sequence[int], inverse: Sequence[int], swaps: list[Swap],
           deadline: Deadline, rng: random.Random, tries: int, patience: int,
           floor: int = 0) -> tuple[list[Swap], int]:  # fmt: skip
    """Large-neighbourhood search: keep a random prefix of the best schedule and plan the
    rest anew by a greedy run (or keep a suffix and plan the start, as a greedy run on the
    inverse arrangement reversed), shorten the new part's windows, keep the result when it
    is no longer; stop after ``tries``, or ``patience`` tries without a shorter one, or
    once the best is as short as ``floor`` (a lower bound: nothing shorter exists).
    Returns the best schedule and the number of new plans made."""
    best, since, k = swaps, 0, 0
    for k in range(tries):
        if deadline.expired() or since >= patience or len(best) <= floor:
            return best, k
        if k % 3 == 2:  # keep a prefix and a suffix, plan the part between anew
            # in another order of the commuting swaps: other parts, other windows
            best = relinearize(best, rng)
        cut = rng.randrange(len(best))
        if k % 3 == 2:
            end = min(len(best), cut + rng.randint(SEGMENT // 4, SEGMENT))
            head, tail = best[:cut], best[end:]
            middle = greedy_swaps(graph, _between(state, head, tail), rng, k % 2 == 0)
            other = cancel_pairs(head + middle + tail)
            if len(other) <= len(best) + SLACK:
                other = improve_windows(graph, other, deadline, first=cut - 8, last=len(tail) - 8)
        elif k % 3 == 0:
            head = best[:cut]
            other = cancel_pairs(head + greedy_swaps(graph, _routed(state, head), rng, k % 2 == 0))
            if len(other) <= len(best) + SLACK:
                other = improve_windows(graph, other, deadline, first=cut - 8)
        else:  # the same on the reversed schedule of the inverse arrangement
            tail = best[cut:][::-1]
            plan = greedy_swaps(graph, _routed(inverse, tail), rng, k % 2 == 0)
            other = cancel_pairs(tail + plan)[::-1]
            if len(other) <= len(best) + SLACK:
                other = improve_windows(graph, other, deadline, last=len(tail) - 8)
        since += 1
        if len(other) < len(best):
            since = 0
        if len(other) <= len(best):
            best = other
    return best, tries


#: New plans of the best schedule per vertex of the graph (beyond :data:`SMALL`), after
#: the first ones: the long search's budget, chosen on the benchmark's 33 arrangements
#: (``benchmarks/routing_at_scale.py --sections bound``) and checked on 33 others (its
#: ``--first-seed 3``) so that the schedule is no longer than rustworkx's best of 1,000
#: trials on every one, in less CPU than those trials (``benchmarks/RESULTS.md``).
EFFORT = 30

#: Vertices the long search's budget leaves out: on graphs this small a new plan costs
#: more than rustworkx's trials do (theirs cost about the graph's size times the
#: schedule's length, ours about the schedule's length and the windows' searches), and
#: the first plans meet rustworkx's best there already.
SMALL = 10

#: The most new plans of the long search, whatever the graph's size: on heavy-hex 127
#: (127 vertices, schedules of about 900 swaps) a plan costs about 5 ms, so that the
#: budget per vertex alone would spend 16 s there (rustworkx's 1,000 trials: 17 s), where
#: the first plans already beat those trials' best (944 swaps against 978); capped, 5 s.
#: Graphs of up to 43 vertices (the benchmark's) are below the cap.
LONGEST = 1000


def bound_swaps(
    inst: Instance,
    deadline: Deadline,
    seed: int = 0,
    trials: int = 32,
    nodes: int = SEARCH_NODES,
    keep: int = 3,
    rounds: int = 4,
    tries: int = 30,
    patience: int = 10,
    effort: int = EFFORT,
) -> Bound:
    """A short schedule and a proved lower bound (see the module docstring): the best
    ``keep`` of ``trials`` greedy schedules, each improved (:func:`improve`: windows, on
    ``rounds`` reorderings) and then by a large-neighbourhood search (:func:`replan`,
    ``tries`` new plans, ``patience`` without progress); depth-first searches of at most
    ``nodes`` nodes each, from the lower bound up while they exhaust their budget (each
    raises the proved bound by two), then just below the best schedule while they find a
    shorter one. Between the two, ``effort`` times the number of vertices more new plans
    of the best schedule (:func:`replan`, stopped early only by the lower bound or the
    deadline): the long search that the benchmark's budget, rustworkx's 1,000 trials,
    pays for (``effort=0``: none). Deterministic in ``seed``."""
    rng = random.Random(seed)
    g = inst.graph
    # every other run routes the inverse arrangement: reversed, its schedule routes this one
    inverse = [0] * len(inst.state)
    for v, t in enumerate(inst.state):
        inverse[t] = v
    # and every other pair of runs goes without the preference for splitting cycles
    runs: list = []
    for k in range(trials):
        if runs and deadline.expired():  # one schedule is the answer; more only shorten it
            break
        if k % 2 == 0:
            runs.append(greedy_swaps(g, inst.state, rng, k % 4 < 2))
        else:
            runs.append(greedy_swaps(g, inverse, rng, k % 4 < 2)[::-1])
    runs.sort(key=len)
    greedy = len(runs[0])
    best = min((replan(g, inst.state, inverse, improve(g, r, deadline, rng, rounds), deadline,
                       rng, tries, patience)[0] for r in runs[:keep]), key=len)  # fmt: skip
    search = SwapSearch(g, inst.state)
    # the long search: new plans of the best schedule; where a third of them in a row
    # shortens nothing, it starts again from the next greedy schedule (a local optimum
    # of one start is often not one of another)
    more = min(effort * max(len(inst.state) - SMALL, 0), LONGEST)
    spent, start, fresh = 0, best, keep
    while spent < more and len(best) > search.start and not deadline.expired():
        found, made = replan(g, inst.state, inverse, start, deadline, rng, more - spent,
                             max(1, more // 3), search.start)  # fmt: skip
        spent += max(made, 1)
        if len(found) < len(best):
            best = found
        start = improve(g, runs[fresh % len(runs)], deadline, rng, rounds)
        fresh += 1

    def attempt(budget: int) -> bool | None:
        """Search ``budget``: True (found, ``best`` replaced), False (exhausted) or None."""
        nonlocal best
        search.nodes = 0
        try:
            if search.search(budget, deadline, nodes):
                best = search.schedule()
                return True
            return False
        except (NodeLimit, LimitReached):
            return None

    # raise the proved bound while budgets are exhausted within the nodes
    proved = searched = search.start
    while proved < len(best):
        searched = proved
        found = attempt(proved)
        if found is None:
            break
        if found:
            return Bound(best, proved, greedy, searched)
        proved += 2
    # then look for shorter schedules just below the best one
    while len(best) - 2 >= proved and not deadline.expired():
        searched = len(best) - 2
        if not attempt(searched):
            break
    return Bound(best, proved, greedy, searched)
