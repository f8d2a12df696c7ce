"""Graph classes where routing is solved exactly in polynomial time, recognised by shape.

Token swapping (``swap`` moves), each with the theorem it rests on; every formula below
was checked against breadth-first search on every permutation of the small members of
its class (``tests/test_routing_polynomial.py`` repeats that check):

- **paths**: the fewest swaps is the number of inversions of the arrangement read along
  the path; bubble sort reaches it (every adjacent swap changes the inversions by one;
  Knuth, TAOCP vol. 3, 5.2.2).
- **complete graphs**: n minus the number of cycles of the permutation; every swap
  changes the cycle count by one, and a swap sending a pebble home splits its cycle
  (Cayley 1849).
- **complete bipartite graphs** K_{A,B}, stars K_{1,M} among them (Yamanaka et al.,
  "Swapping labeled tokens on graphs", TCS 586, 2015, which solves K_{A,B} exactly; the
  star is Akers and Krishnamurthy's star-graph distance, 1989):
  ``n - c(pi) + 2 max(s_A, s_B)``, where ``s_A`` (``s_B``) counts the cycles of two or
  more vertices that lie entirely on side A (B). Every swap merges two cycles or splits
  one, so a schedule has ``n - c + 2 m`` swaps for ``m`` merges; a one-sided cycle can only
  be touched by a merge, and a merge touches at most one one-sided cycle per side; a
  cycle with both sides is split to fixed points without merges.
- **cycles**: Jerrum (1985, "The complexity of finding minimum-length generator
  sequences", TCS 36): give every pebble a net displacement ``x_i`` around the cycle
  (``x_i`` congruent to its clockwise distance ``r_i`` to its target modulo ``n``, and
  ``sum x_i = 0``: every swap moves one pebble each way); the fewest swaps with those
  displacements is the number of crossings of the lifted straight paths,
  ``sum_{i<j} |floor((j - i + x_j - x_i) / n)|`` (the length of an affine permutation:
  Shi 1986; Björner and Brenti, *Combinatorics of Coxeter Groups*, 8.3), and the optimum
  is its minimum over ``x``. **Balanced displacements are optimal**: every ``x`` with
  ``max x - min x <= n``, e.g. the ``L = sum r_i / n`` pebbles with the longest clockwise
  way go anticlockwise (``x_i = r_i - n``), the others clockwise (``x_i = r_i``). Proof:
  (1) with ``a`` a pebble of largest and ``b`` one of smallest displacement and
  ``x_a - x_b >= n``, the exchange ``x_a - n, x_b + n`` never adds crossings. The pair
  ``a, b`` loses ``2 - 2 c_ab >= 0`` of them; a third pebble gains 2 if it crosses neither,
  0 if one, loses 2 if both. Put ``a`` at 0 and ``b`` at ``d`` clockwise, ``L = x_a - x_b``;
  only ``L < n + d`` needs an argument. Then ``b``'s target lies ``n + d - L`` after ``a``'s;
  a pebble crossing neither starts after ``b`` and ends between ``a``'s and ``b``'s targets,
  so (counting the ``n + d - L - 1`` targets there, and the ``d - 1`` starts between ``a``
  and ``b``) the pebbles crossing neither are ``n - L + Q``, with ``Q`` those that start
  between ``a`` and ``b`` and end after ``b``'s target; each of those crosses both, or ends
  in the ``L - n - 1`` places that follow ``b``'s target by less than ``L - n``: the
  pebbles crossing neither are at most those crossing both. (2) From an optimum, these
  exchanges (each lowering ``sum x_i^2`` while ``max x - min x > n``) reach a balanced
  ``x`` no worse. (3) Two balanced ``x`` have the same maximum and differ by exchanges
  between the values ``max`` and ``max - n``, each an exchange of (1) both ways: all have
  the same count. The schedule is the lifted bubble sort (one crossing a swap).
  (``tests/test_routing_polynomial.py`` compares it with breadth-first search on every
  arrangement of the cycles up to 8 vertices, and on all 362,880 of C_9 in a slow test.)

The routing number with matchings (``matching`` moves):

- **complete graphs** (Alon, Chung and Graham 1994: rt(K_n) = 2): 0 for the identity, 1
  for an involution (its 2-cycles are one matching), else 2: every cycle is the product
  of two reflections, each a matching; one step can only apply an involution.
- **stars**: every matching of a star is one edge, so rt equals token swapping.

>>> from pyasp_games.domains.routing.model import Instance
>>> from pyasp_games.domains.routing.specs import graph_spec
>>> exact_schedule(Instance(graph_spec("path:4"), (3, 2, 1, 0), "swap")).proof
'path: the inversions along it, 6 (bubble sort; Knuth, TAOCP 5.2.2)'
>>> len(exact_schedule(Instance(graph_spec("complete:5"), (1, 2, 0, 4, 3), "matching")).steps)
2
"""

from __future__ import annotations

from dataclasses import dataclass

from pyasp_games.domains.routing.model import Instance, cycle_count
from pyasp_games.engines.graphs import Graph

Swap = tuple[int, int]


@dataclass
class Exact:
    """A schedule from a polynomial case: its steps (each a list of edges), why it is
    optimal (or why it is only a bound), and whether it is proved optimal."""

    steps: list[list[Swap]]
    proof: str
    optimal: bool = True


def graph_class(g: Graph) -> tuple[str, object] | None:
    """The polynomial class of ``g``: ``("complete", None)``, ``("path", order)``,
    ``("bipartite", side)`` (``side[v]`` 0 or 1), ``("cycle", order)``, or ``None``."""
    n, m = len(g), len(g.edges)
    if m == n * (n - 1) // 2:
        return "complete", None
    if m == n - 1 and all(len(a) <= 2 for a in g.adj):
        return "path", _walk(g)
    side = _two_colouring(g)
    if side is not None:
        a = sum(1 for s in side if s == 0)
        if m == a * (n - a):
            return "bipartite", side
    if m == n and all(len(a) == 2 for a in g.adj):
        return "cycle", _walk(g)
    return None


def _walk(g: Graph) -> list[int]:
    """The vertices of a path (from an end) or a cycle, in order."""
    start = min(range(len(g)), key=lambda v: (len(g.adj[v]), v))
    order = [start]
    while len(order) < len(g):
        prev = order[-2] if len(order) > 1 else None
        order.append(next(w for w in g.adj[order[-1]] if w != prev and w not in order[-2:]))
    return order


def _two_colouring(g: Graph) -> list[int] | None:
    side = [-1] * len(g)
    side[0] = 0
    queue = [0]
    for u in queue:
        for w in g.adj[u]:
            if side[w] < 0:
                side[w] = 1 - side[u]
                queue.append(w)
            elif side[w] == side[u]:
                return None
    return side


def exact_schedule(inst: Instance) -> Exact | None:
    """An optimal schedule of ``inst`` where its graph and move rule are a polynomial
    case (see the module docstring), else ``None``."""
    if inst.moves == "blank":
        return None
    found = graph_class(inst.graph)
    if found is None:
        return None
    kind, data = found
    state = list(inst.state)
    if inst.moves == "matching":
        g = inst.graph
        if kind == "complete":
            return _rt_complete(state)
        centre = next((v for v in range(len(g)) if len(g.adj[v]) == len(g) - 1), None)
        if centre is not None and len(g.edges) == len(g) - 1:  # a star (the path P_3 too)
            side = [0 if v == centre else 1 for v in range(len(g))]
            swaps, proof = _bipartite(state, side, g)
            return Exact([[e] for e in swaps], proof + "; every matching of a star is one edge")
        return None
    if kind == "complete":
        swaps = _complete(state)
        return Exact([[e] for e in swaps], f"complete graph: n - cycles = {len(swaps)} (Cayley)")
    if kind == "path":
        swaps = _path(state, data)
        return Exact(
            [[e] for e in swaps],
            f"path: the inversions along it, {len(swaps)} (bubble sort; Knuth, TAOCP 5.2.2)",
        )
    if kind == "bipartite":
        swaps, proof = _bipartite(state, data, inst.graph)
        return Exact([[e] for e in swaps], proof)
    swaps, laps = _cycle(state, data)
    proof = (
        f"cycle: Jerrum's crossing count of the balanced displacement, {len(swaps)} ({laps} "
        "pebbles go anticlockwise: those with the longest clockwise way; a displacement "
        "with max - min <= n is optimal)"
    )
    return Exact([[e] for e in swaps], proof)


def _edge(u: int, v: int) -> Swap:
    return (u, v) if u < v else (v, u)


def _complete(state: list[int]) -> list[Swap]:
    """Each cycle through its first vertex: swap it with its pebble's target (that pebble
    goes home), n - cycles swaps in all."""
    swaps = []
    for v in range(len(state)):
        while state[v] != v:
            t = state[v]
            state[v], state[t] = state[t], state[v]
            swaps.append(_edge(v, t))
    return swaps


def _path(state: list[int], order: list[int]) -> list[Swap]:
    """Insertion sort along the path: each swap exchanges an inverted adjacent pair."""
    rank = {v: i for i, v in enumerate(order)}
    keys = [rank[state[v]] for v in order]
    edge = [_edge(order[j - 1], order[j]) for j in range(len(order))]  # edge[j]: j-1 to j
    swaps: list[Swap] = []
    add = swaps.append
    for i in range(1, len(keys)):
        key, j = keys[i], i
        while j > 0 and keys[j - 1] > key:  # the pebble passes the larger one to its left
            keys[j] = keys[j - 1]
            add(edge[j])
            j -= 1
        keys[j] = key
    return swaps


def _cycles(state: list[int]) -> list[list[int]]:
    seen = [False] * len(state)
    out = []
    for v in range(len(state)):
        if not seen[v] and state[v] != v:
            cyc = []
            while not seen[v]:
                seen[v] = True
                cyc.append(v)
                v = state[v]
            out.append(cyc)
    return out


def _bipartite(state: list[int], side: list[int], g: Graph) -> tuple[list[Swap], str]:
    """K_{A,B}: merge the one-sided cycles (an A-cycle with a B-cycle where both remain,
    else with any vertex of the other side), then split every cycle down to fixed points
    by swaps that send a pebble home and keep the cycle two-sided."""
    n = len(state)
    cycles0 = cycle_count(state)
    one_sided: list[list[list[int]]] = [[], []]
    for cyc in _cycles(state):
        sides = {side[v] for v in cyc}
        if len(sides) == 1:
            one_sided[sides.pop()].append(cyc)
    merges = max(len(one_sided[0]), len(one_sided[1]))
    swaps: list[Swap] = []

    def swap(u: int, v: int) -> None:
        state[u], state[v] = state[v], state[u]
        swaps.append(_edge(u, v))

    a_cycles, b_cycles = one_sided
    first = [next(v for v in range(n) if side[v] == s) for s in (0, 1)]
    for i in range(merges):
        a = a_cycles[i][0] if i < len(a_cycles) else first[0]
        b = b_cycles[i][0] if i < len(b_cycles) else first[1]
        swap(a, b)
    for cyc in _cycles(state):
        members = set(cyc)
        count = [sum(1 for v in cyc if side[v] == s) for s in (0, 1)]
        while len(members) > 1:
            lone = next((s for s in (0, 1) if count[s] == 1), None)
            if lone is not None:  # the one vertex of its side: its pebble's target is across
                v = next(u for u in members if side[u] == lone)
            else:
                v = next(u for u in members if side[state[u]] != side[u])
            t = state[v]
            swap(v, t)  # the pebble from v is home on t; t leaves the cycle
            members.discard(t)
            count[side[t]] -= 1
    shape = "star" if min(side.count(0), side.count(1)) == 1 else "complete bipartite graph"
    proof = (
        f"{shape}: n - cycles + 2 max(one-sided cycles per side) = {n} - {cycles0} + 2*{merges}"
        f" = {len(swaps)} (Yamanaka et al. 2015)"
    )
    return swaps, proof


def _rt_complete(state: list[int]) -> Exact:
    """rt(K_n, pi): each cycle c_0 -> c_1 -> ... is the product of two reflections,
    i <-> -1-i then i <-> -i (indices mod its length): two matchings."""
    cycles = _cycles(state)
    if not cycles:
        return Exact([], "complete graph: the identity needs no step")
    if all(len(c) == 2 for c in cycles):
        return Exact([[_edge(*c) for c in cycles]], "complete graph: an involution is one matching")
    first: list[Swap] = []
    second: list[Swap] = []
    for c in cycles:
        size = len(c)
        first += [_edge(c[i], c[size - 1 - i]) for i in range(size // 2)]
        second += [_edge(c[i], c[size - i]) for i in range(1, (size + 1) // 2)]
    return Exact(
        [sorted(first), sorted(second)],
        "complete graph: not an involution, so one matching does not do (Alon, Chung and "
        "Graham: every permutation is two matchings on K_n)",
    )


# -- cycles ---------------------------------------------------------------------------


def balanced_displacement(keys: list[int]) -> list[int]:
    """An optimal displacement for the arrangement ``keys`` around a cycle (``keys[i]``
    the target position of the pebble at position ``i``): each pebble moves its clockwise
    distance ``r_i`` to its target, except the ``sum r / n`` pebbles with the largest
    ``r_i``, which go anticlockwise (``r_i - n``); then ``max x - min x <= n`` (see the
    module docstring for why that is optimal).

    >>> balanced_displacement([1, 2, 3, 0])    # a rotation: one pebble goes back
    [-3, 1, 1, 1]
    """
    n = len(keys)
    r = [(k - i) % n for i, k in enumerate(keys)]
    x = list(r)
    for i in sorted(range(n), key=lambda i: -r[i])[: sum(r) // n]:
        x[i] -= n
    return x


def _cycle(state: list[int], order: list[int]) -> tuple[list[Swap], int]:
    """The lifted bubble sort: give the pebble at position ``i`` the lifted target
    ``i + x_i`` (the balanced displacement), then swap adjacent inverted pairs (the
    wrap-around edge compares a pebble with the next lap's copy) until none is left;
    also how many pebbles go anticlockwise."""
    n = len(order)
    pos = {v: i for i, v in enumerate(order)}
    keys = [pos[state[v]] for v in order]
    shift = balanced_displacement(keys)
    lifted = [i + shift[i] for i in range(n)]
    swaps: list[Swap] = []
    todo = list(range(n))  # edge i joins positions i and i + 1 (mod n)
    while todo:
        i = todo.pop()
        j = (i + 1) % n
        right = lifted[j] + (n if j == 0 else 0)  # the wrap edge meets the next lap
        if lifted[i] > right:
            if j == 0:
                lifted[i], lifted[0] = lifted[0] + n, lifted[i] - n
            else:
                lifted[i], lifted[j] = lifted[j], lifted[i]
            swaps.append(_edge(order[i], order[j]))
            todo += [(i - 1) % n, j]
    return swaps, sum(1 for x in shift if x < 0)
