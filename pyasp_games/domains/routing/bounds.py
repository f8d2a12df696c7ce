"""Upper-bound routing algorithms: valid schedules, never claimed optimal.

Each backend returns a schedule claimed as an upper bound (:attr:`Kind.UPPER_BOUND
<pyasp_games.engines.claim.Kind.UPPER_BOUND>`), so the CLI prints it as one and
crosscheck compares it as one (at least the optimum).
They apply to the ``matching`` and ``swap`` rules (a matching step is written as
single swaps for ``swap``):

- ``oddeven``: odd-even transposition sort along a path (at most n steps); on a cycle
  along the path left by dropping one edge (each edge tried, the best kept).
- ``peeling``: the tree peeling the seed meant, done right: a BFS spanning tree, its
  vertices in reverse BFS order (each a leaf of the tree left), the pebble destined for
  the vertex brought there along the tree path (all moved pebbles updated), the vertex
  removed. A swap sequence, packed into matchings as early as each swap's vertices allow.
- ``rowcolumn``: on an R x C grid, route within rows so that every column holds pebbles
  for distinct target rows (a C-regular bipartite multigraph split into C perfect
  matchings, König), then within columns to the target row, then within rows to the
  target column: at most 2C + R steps.

>>> from pyasp_games.domains.routing.model import Instance
>>> from pyasp_games.domains.routing.specs import graph_spec
>>> inst = Instance(graph_spec("path:5"), (4, 3, 2, 1, 0))
>>> len(odd_even_schedule(inst)), len(peeling_schedule(inst)) >= 5
(5, True)
"""

from __future__ import annotations

from collections import deque
from itertools import pairwise
from typing import Any

from pyasp_games.domains.routing.graph import grid_layout
from pyasp_games.domains.routing.model import Instance, schedule_names
from pyasp_games.engines.claim import Claim, Kind
from pyasp_games.engines.limits import Limits
from pyasp_games.errors import InputError

Step = list[tuple[int, int]]


def _edge(u: int, v: int) -> tuple[int, int]:
    return (u, v) if u < v else (v, u)


def odd_even_on_path(order: list[int], key: dict[int, int]) -> list[Step]:
    """Odd-even transposition sort of the pebbles on the path ``order`` by ``key[vertex]``
    (the key of the pebble on each vertex): at most ``len(order)`` rounds."""
    keys = [key[v] for v in order]
    steps: list[Step] = []
    rnd = 0
    idle = 0
    while idle < 2 and keys != sorted(keys):
        step = []
        for i in range(rnd % 2, len(order) - 1, 2):
            if keys[i] > keys[i + 1]:
                keys[i], keys[i + 1] = keys[i + 1], keys[i]
                step.append(_edge(order[i], order[i + 1]))
        rnd += 1
        if step:
            steps.append(step)
            idle = 0
        else:
            idle += 1
    return steps


def _path_order(inst: Instance, dropped: tuple[int, int] | None = None) -> list[int] | None:
    g = inst.graph
    adj = [[w for w in g.adj[v] if _edge(v, w) != dropped] for v in range(len(g))]
    ends = [v for v in range(len(g)) if len(adj[v]) <= 1]
    if any(len(a) > 2 for a in adj) or not ends:
        return None
    order, prev = [ends[0]], None
    while len(order) < len(g):
        nxt = [w for w in adj[order[-1]] if w != prev]
        if not nxt:
            return None
        prev = order[-1]
        order.append(nxt[0])
    return order


def odd_even_schedule(inst: Instance) -> list[Step]:
    """Odd-even transposition sort on a path or a cycle (see the module docstring)."""
    g = inst.graph
    if len(g) == 1:
        return []
    candidates = (
        [None] if len(g.edges) == len(g) - 1 else list(g.edges) if len(g.edges) == len(g) else []
    )
    best = None
    for dropped in candidates:
        order = _path_order(inst, dropped)
        if order is None:
            continue
        rank = {v: i for i, v in enumerate(order)}
        steps = odd_even_on_path(order, {v: rank[inst.state[v]] for v in order})
        if best is None or len(steps) < len(best):
            best = steps
    if best is None:
        raise InputError(f"{g.name}: odd-even transposition needs a path or a cycle")
    return best


def peeling_swaps(inst: Instance) -> list[tuple[int, int]]:
    """The corrected tree peeling as a sequence of single swaps."""
    g = inst.graph
    n = len(g)
    parent = [-1] * n
    order = [0]
    seen = [False] * n
    seen[0] = True
    queue = deque([0])
    while queue:
        u = queue.popleft()
        for w in g.adj[u]:
            if not seen[w]:
                seen[w] = True
                parent[w] = u
                order.append(w)
                queue.append(w)
    depth = [0] * n
    for v in order[1:]:
        depth[v] = depth[parent[v]] + 1
    state = list(inst.state)  # state[v]: target of the pebble on v
    swaps = []
    for v in reversed(order):
        u = state.index(v)
        # the tree path u -> v through their lowest common ancestor
        up, down = [u], [v]
        a, b = u, v
        while a != b:
            if depth[a] >= depth[b]:
                a = parent[a]
                up.append(a)
            else:
                b = parent[b]
                down.append(b)
        path = up + down[-2::-1]  # both end at the common ancestor
        for x, y in pairwise(path):
            state[x], state[y] = state[y], state[x]
            swaps.append(_edge(x, y))
    return swaps


def pack(swaps: list[tuple[int, int]]) -> list[Step]:
    """Single swaps packed into matchings: each at the earliest step after the last swap
    touching one of its vertices (swaps on disjoint vertices commute)."""
    last: dict[int, int] = {}
    steps: list[Step] = []
    for u, v in swaps:
        k = max(last.get(u, -1), last.get(v, -1)) + 1
        if k == len(steps):
            steps.append([])
        steps[k].append((u, v))
        last[u] = last[v] = k
    return steps


def peeling_schedule(inst: Instance) -> list[Step]:
    return pack(peeling_swaps(inst))


def row_column_schedule(inst: Instance) -> list[Step]:
    """Row-column-row routing on a grid (see the module docstring)."""
    import networkx as nx

    layout = grid_layout(inst.graph)
    if layout is None:
        raise InputError(f"{inst.graph.name}: row-column routing needs a full grid")
    rows, cols, at = layout.rows, layout.cols, layout.cells
    # work on cells (cell i = r * cols + c): the pebble on cell i goes to cell target[i]
    target = [layout.position[inst.state[v]] for v in at]
    target_row = [t // cols for t in target]
    # phase 1: split the row -> target-row multigraph into perfect matchings, one per column
    count: dict[tuple[int, int], list[int]] = {}
    for v in range(rows * cols):
        count.setdefault((v // cols, target_row[v]), []).append(v)
    column_of: dict[int, int] = {}
    for c in range(cols):
        # rows are nodes 0..rows-1, target rows rows..2*rows-1: integer nodes (not tuples
        # holding strings) keep networkx's set iteration, hence the schedule, the same in
        # every run whatever the string hash seed
        bg = nx.Graph()
        bg.add_nodes_from(range(rows))
        bg.add_edges_from((r, rows + t) for (r, t), vs in count.items() if vs)
        match = nx.bipartite.hopcroft_karp_matching(bg, top_nodes=range(rows))
        for r in range(rows):
            t = match[r] - rows
            column_of[count[(r, t)].pop()] = c
    state = list(target)
    schedule: list[Step] = []

    def phase(lines: list[list[int]], key_of) -> None:
        parts = [odd_even_on_path(line, {v: key_of(v, state[v]) for v in line}) for line in lines]
        for i in range(max((len(p) for p in parts), default=0)):
            step = [e for p in parts if i < len(p) for e in p[i]]
            for u, v in step:
                state[u], state[v] = state[v], state[u]
            schedule.append(step)

    row_lines = [[r * cols + c for c in range(cols)] for r in range(rows)]
    col_lines = [[r * cols + c for r in range(rows)] for c in range(cols)]
    # phase 1 needs the pebbles' identities: key each pebble by its assigned column
    pebble_column = {target[v]: column_of[v] for v in range(rows * cols)}
    phase(row_lines, lambda v, t: pebble_column[t])
    phase(col_lines, lambda v, t: t // cols)
    phase(row_lines, lambda v, t: t % cols)
    return [[_edge(at[u], at[v]) for u, v in step] for step in schedule]


def solve_swapper(inst: Instance, limits: Limits = Limits(), seed: int = 0, **options: Any) -> Claim:
    """The token-swapping bound of :func:`~pyasp_games.domains.routing.swapping.bound_swaps`:
    its schedule (one swap a step; for ``matching`` moves packed into matchings) with the
    lower bound it proved (``stats["lower_bound"]``, the gap in ``stats["gap"]``); a
    schedule as short as that bound is optimal, and says so."""
    from pyasp_games.domains.routing.swapping import bound_swaps

    if inst.moves == "blank":
        raise InputError("the swapper bound routes matching and swap moves, not blank")
    found = bound_swaps(inst, limits.deadline(), seed=seed)
    swaps = found.swaps
    steps = pack(swaps) if inst.moves == "matching" else [[e] for e in swaps]
    stats: dict[str, Any] = {"greedy": found.greedy, "depth": len(pack(swaps))}
    if inst.moves == "swap":
        stats.update(lower_bound=found.lower_bound, gap=len(swaps) - found.lower_bound)
    optimal = inst.moves == "swap" and len(swaps) == found.lower_bound
    if optimal:
        grounds = f"the schedule meets the lower bound {found.lower_bound}"
    else:
        grounds = "upper bound by swapper, not proved optimal"
    if limits.max_length is not None and len(steps) > limits.max_length:
        stats.update(limit="max-length", found=len(steps))
        return Claim.unknown(stats, kind=Kind.WITHIN_BOUND, bound=limits.max_length)
    witness = schedule_names(inst.graph, [sorted(s) for s in steps])
    kind = Kind.EXACT if optimal else Kind.UPPER_BOUND
    return Claim.solved(len(steps), witness, stats=stats, certificate=grounds, kind=kind)


ALGORITHMS = {
    "oddeven": odd_even_schedule,
    "peeling": peeling_schedule,
    "rowcolumn": row_column_schedule,
}


def applies(inst: Instance, name: str) -> bool:
    """Whether the bound algorithm ``name`` answers ``inst`` (rule and graph shape)."""
    if inst.moves == "blank":
        return False
    g = inst.graph
    if name == "oddeven":
        return len(g.edges) in (len(g) - 1, len(g)) and all(len(a) <= 2 for a in g.adj)
    if name == "rowcolumn":
        return grid_layout(g) is not None
    return True


def _solver(name: str):
    def run(inst: Instance, limits: Limits = Limits(), **options: Any) -> Claim:
        if inst.moves == "blank":
            raise InputError(f"the {name} bound routes matching and swap moves, not blank")
        steps = [sorted(s) for s in ALGORITHMS[name](inst)]
        if inst.moves == "swap":
            steps = [[e] for s in steps for e in s]
        if limits.max_length is not None and len(steps) > limits.max_length:
            # a longer bound proves nothing about shorter schedules: unknown, by the length
            stats = {"limit": "max-length", "found": len(steps)}
            return Claim.unknown(stats, kind=Kind.WITHIN_BOUND, bound=limits.max_length)
        return Claim.solved(len(steps), schedule_names(inst.graph, steps), kind=Kind.UPPER_BOUND,
                            certificate=f"upper bound by {name}, not proved optimal")  # fmt: skip

    run.__name__ = f"solve_{name}"
    run.__doc__ = f"The {name} upper bound as a claim (kind ``upper bound``)."
    return run


solve_oddeven = _solver("oddeven")
solve_peeling = _solver("peeling")
solve_rowcolumn = _solver("rowcolumn")
