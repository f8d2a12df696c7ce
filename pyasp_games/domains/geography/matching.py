"""Undirected vertex Geography in polynomial time by maximum matching.

Fraenkel, Scheinerman and Ullman (1993): in undirected vertex geography the
player to move at ``s`` wins iff every maximum matching of the graph covers
``s``. Strategy: fix a maximum matching ``M`` and always move to the mate (under
``M``) of the token's vertex. If ``s`` is covered by every maximum matching, the
mate of ``s`` is a winning first move: were the opponent ever to reach a vertex
unmatched, or matched to a used vertex, an alternating path would give a maximum
matching avoiding ``s``. Otherwise a maximum matching ``M`` avoiding ``s`` is a
strategy for the second player (every first move enters a matched vertex).

Only the connected component of ``s`` matters. One maximum matching ``M`` is
computed by Edmonds' blossom algorithm (:func:`maximum_matching`: a greedy start,
then one search per exposed vertex, with sparse per-search state). If ``s`` is
exposed, ``M`` avoids it. Otherwise, with ``t`` its mate, ``s`` is avoided by some
maximum matching iff ``G - s`` has an augmenting path for ``M - st``; every such
path ends at ``t`` (one avoiding ``t`` would augment ``M``), so a single search
from ``t`` decides it. networkx's matching is the tests' independent reference.

>>> from pyasp_games.domains.geography.model import parse_instance
>>> path = parse_instance("a b\\nb c\\n", "a", "vertex", undirected=True)
>>> matching_winner(path)
(False, None, {'component': 3, 'matching': 1})
>>> first, move, _ = matching_winner(parse_instance("a b\\nb c\\n", "b", "vertex", undirected=True))
>>> first, move in (0, 2)
(True, True)
"""

from __future__ import annotations

from collections import deque

from pyasp_games.domains.geography.model import Geography
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.graphs import reachable_from
from pyasp_games.engines.limits import Limits
from pyasp_games.errors import InputError


def applies(game: Geography) -> bool:
    """The matching algorithm answers undirected vertex geography only."""
    return game.variant == "vertex" and not game.directed


def _search(
    root: int, adj: list[list[int]], match: dict[int, int], blocked: int = -1
) -> tuple[int, dict[int, int]]:
    """Edmonds' search for an augmenting path from the exposed vertex ``root`` (never
    entering ``blocked``): its far end (or -1) and the tree's parent links."""
    base: dict[int, int] = {}
    parent: dict[int, int] = {}
    outer = {root}
    tree = [root]
    queue = deque([root])

    def b(v: int) -> int:
        return base.get(v, v)

    def common_base(a: int, c: int) -> int:
        seen = set()
        while True:
            a = b(a)
            seen.add(a)
            if a not in match:
                break
            a = parent[match[a]]
        while True:
            c = b(c)
            if c in seen:
                return c
            c = parent[match[c]]

    def mark(v: int, top: int, child: int, blossom: set[int]) -> None:
        while b(v) != top:
            blossom.add(b(v))
            blossom.add(b(match[v]))
            parent[v] = child
            child = match[v]
            v = parent[match[v]]

    while queue:
        v = queue.popleft()
        for to in adj[v]:
            if to == blocked or b(v) == b(to) or match.get(v) == to:
                continue
            mate = match.get(to)
            if to == root or (mate is not None and mate in parent):
                top = common_base(v, to)  # an odd cycle: contract the blossom
                blossom: set[int] = set()
                mark(v, top, to, blossom)
                mark(to, top, v, blossom)
                for i in tree:
                    if b(i) in blossom:
                        base[i] = top
                        if i not in outer:
                            outer.add(i)
                            queue.append(i)
            elif to not in parent:
                parent[to] = v
                tree.append(to)
                if mate is None:
                    return to, parent
                outer.add(mate)
                tree.append(mate)
                queue.append(mate)
    return -1, parent


def _augment(end: int, parent: dict[int, int], match: dict[int, int]) -> None:
    v = end
    while v != -1:
        pv = parent[v]
        next_v = match.get(pv, -1)
        match[v] = pv
        match[pv] = v
        v = next_v


def maximum_matching(adj: list[list[int]], vertices: list[int]) -> dict[int, int]:
    """A maximum matching (``{v: mate}`` both ways) of the graph ``adj`` on ``vertices``.

    >>> sorted(maximum_matching([[1, 2], [0, 2], [0, 1, 3], [2]], [0, 1, 2, 3]).items())
    [(0, 1), (1, 0), (2, 3), (3, 2)]
    """
    match: dict[int, int] = {}
    for v in sorted(vertices, key=lambda x: len(adj[x])):
        if v in match:
            continue
        free = [w for w in adj[v] if w not in match and w != v]
        if free:
            w = min(free, key=lambda x: len(adj[x]))
            match[v], match[w] = w, v
    for v in vertices:
        if v not in match:
            end, parent = _search(v, adj, match)
            if end != -1:
                _augment(end, parent, match)
    return match


def _component(game: Geography) -> tuple[list[list[int]], list[int]]:
    """Simple-graph neighbour lists (no loops) and the vertices of the start's component."""
    adj = [sorted({w for w, _ in ms if w != v}) for v, ms in enumerate(game.moves)]
    return adj, sorted(reachable_from(adj, game.start))


def matching_winner(game: Geography) -> tuple[bool, int | None, dict[str, int]]:
    """``(first player wins, winning first move or None, sizes)``."""
    if not applies(game):
        raise InputError(
            "the matching backend answers undirected vertex geography only "
            "(give --undirected and --variant vertex)"
        )
    adj, component = _component(game)
    match = maximum_matching(adj, component)
    s = game.start
    stats = {"component": len(component), "matching": len(match) // 2}
    if s not in match:
        return False, None, stats
    t = match.pop(s)
    del match[t]
    end, _ = _search(t, adj, match, blocked=s)
    if end != -1:  # G - s has a matching as large: some maximum matching avoids s
        return False, None, stats
    return True, t, stats


def solve_matching(game: Geography, limits: Limits = Limits()) -> Claim:
    """The ``matching`` backend: undirected vertex geography only (else :class:`InputError`).

    networkx's matching cannot look at the clock; ``run_backend`` enforces the limit.
    """
    if not applies(game):
        raise InputError(
            "the matching backend answers undirected vertex geography only "
            "(give --undirected and --variant vertex)"
        )
    first, move, stats = matching_winner(game)
    witness = None if move is None else game.move_name(move)
    answer = "first" if first else "second"
    return Claim.solved(answer, witness, stats=dict(stats))
