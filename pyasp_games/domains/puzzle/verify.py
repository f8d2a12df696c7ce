"""Independent checks of puzzle answers.

Shares no code with the solvers it checks: it replays a plan with its own move
rules and goal, and checks unsolvability claims with Aleksic's thesis' formulation of
the invariant (permutation parity against the blank's distance from home),
which differs from the inversion count the solvers use.

>>> verify_plan(3, 3, (1, 2, 3, 4, 5, 6, 7, 0, 8), "blank-last", "R").ok
True
>>> verify_plan(3, 3, (1, 2, 3, 4, 5, 6, 7, 0, 8), "blank-last", "L").message
'after 1 moves the board is not the goal'
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from math import gcd
from typing import Any

from pyasp_games.domains.puzzle.model import Board, parity_argument
from pyasp_games.engines.outcome import Outcome

_STEP = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}


@dataclass(frozen=True)
class Verdict:
    ok: bool
    message: str


def _goal(n: int, goal: str) -> list[int]:
    return [*range(1, n), 0] if goal == "blank-last" else list(range(n))


def replay(rows: int, cols: int, tiles: Sequence[int], plan: str) -> list[int]:
    """The board after ``plan``; raises ``ValueError`` at an illegal move."""
    board = list(tiles)
    r, c = divmod(board.index(0), cols)
    for i, letter in enumerate(plan):
        if letter not in _STEP:
            raise ValueError(f"move {i + 1}: {letter!r} is not one of U, D, L, R")
        dr, dc = _STEP[letter]
        nr, nc = r + dr, c + dc
        if not (0 <= nr < rows and 0 <= nc < cols):
            raise ValueError(f"move {i + 1}: {letter} takes the blank off the board")
        board[r * cols + c], board[nr * cols + nc] = board[nr * cols + nc], 0
        r, c = nr, nc
    return board


def verify_plan(rows: int, cols: int, tiles: Sequence[int], goal: str, plan: str) -> Verdict:
    """Does ``plan`` (a string of U D L R, the blank's moves) take the board to the goal?"""
    try:
        final = replay(rows, cols, tiles, plan)
    except ValueError as err:
        return Verdict(False, str(err))
    if final != _goal(rows * cols, goal):
        return Verdict(False, f"after {len(plan)} moves the board is not the goal")
    return Verdict(True, f"the plan of {len(plan)} moves reaches the goal")


def verify_unsolvable(rows: int, cols: int, tiles: Sequence[int], goal: str) -> Verdict:
    """Confirm an unsolvability claim by permutation parity vs. the blank's distance.

    Every move is a transposition (the blank with a tile) and moves the blank one
    cell, so ``parity(permutation) == parity(distance of blank from home)`` holds
    along every plan; a board violating it cannot reach the goal.
    """
    target = _goal(rows * cols, goal)
    where = {v: i for i, v in enumerate(target)}
    perm = [where[v] for v in tiles]  # position i holds the tile whose home is perm[i]
    seen = [False] * len(perm)
    transpositions = 0
    for i in range(len(perm)):
        length = 0
        while not seen[i]:
            seen[i] = True
            i = perm[i]
            length += 1
        transpositions += max(0, length - 1)
    br, bc = divmod(list(tiles).index(0), cols)
    hr, hc = divmod(target.index(0), cols)
    distance = abs(br - hr) + abs(bc - hc)
    if transpositions % 2 != distance % 2:
        return Verdict(True, "permutation parity differs from the blank's distance parity")
    return Verdict(
        False, "permutation parity equals the blank's distance parity: the board is solvable"
    )


def manhattan(rows: int, cols: int, tiles: Sequence[int], goal: str) -> int:
    """The tiles' Manhattan distances to their goal cells: no plan is shorter (a move
    moves one tile by one cell). Counted here, not by the solvers' heuristic.

    >>> manhattan(3, 3, (1, 2, 3, 4, 5, 6, 0, 7, 8), "blank-last")
    2
    """
    home = {v: divmod(i, cols) for i, v in enumerate(_goal(rows * cols, goal))}
    total = 0
    for i, v in enumerate(tiles):
        if v:
            (r, c), (hr, hc) = divmod(i, cols), home[v]
            total += abs(r - hr) + abs(c - hc)
    return total


def check_parity_terms(board: Board, terms: object) -> Verdict:
    """Count again the invariant's terms a claim states (its certificate: inversions, the
    blank's row, the goal's, the width's parity and the argument in words,
    :func:`~pyasp_games.domains.puzzle.model.parity_terms`): every number the printed
    argument rests on, counted here by pairs of tiles, and the words they give."""
    if not isinstance(terms, dict):
        return Verdict(False, "the certificate is not the invariant's terms")
    target = _goal(board.size, board.goal)
    order = {v: i for i, v in enumerate(target)}
    tiles = [v for v in board.tiles if v]
    inversions = 0
    for i, a in enumerate(tiles):
        for b in tiles[i + 1 :]:
            inversions += order[a] > order[b]
    counted = {
        "inversions": inversions,
        "blank_row": list(board.tiles).index(0) // board.cols,
        "goal_blank_row": target.index(0) // board.cols,
        "width_even": board.cols % 2 == 0,
    }
    for key, value in counted.items():
        if terms.get(key) != value:
            return Verdict(False, f"the certificate says {key} {terms.get(key)!r}, counted {value!r}")
    words = parity_argument(board.cols, inversions, counted["blank_row"], counted["goal_blank_row"])[1]
    if terms.get("reason") != words:
        return Verdict(False, "the certificate's argument is not the one its terms give")
    return Verdict(True, f"{inversions} inversions counted again")


def check_outcome(board: Board, outcome: Outcome) -> tuple[bool | None, str]:
    """Verify an outcome independently: ``(True|False, message)``, ``None`` if nothing to check.

    A plan must replay to the goal and its length must be the answer; a
    ``no-solution`` without a length bound must be backed by the parity invariant (and
    the terms its certificate states counted again); "no plan of length <= N" must say
    N in its certificate, and is confirmed alone where the board is unsolvable or its
    Manhattan distance exceeds N (otherwise it rests on the backend's search, and a user
    encoding's is cross-checked).
    """
    if outcome.status == "solved":
        if not isinstance(outcome.witness, str):
            return False, "no plan given"
        verdict = verify_plan(board.rows, board.cols, board.tiles, board.goal, outcome.witness)
        if verdict.ok and outcome.answer != len(outcome.witness):
            return False, f"answer {outcome.answer} is not the plan's length {len(outcome.witness)}"
        return verdict.ok, verdict.message
    if outcome.status == "no-solution":
        if outcome.answer is not None:
            return False, f"a claim of no plan with the answer {outcome.answer!r}"
        bound = outcome.verdict.bound
        if bound is not None:
            return _check_none_within(board, bound, outcome.certificate)
        verdict = verify_unsolvable(board.rows, board.cols, board.tiles, board.goal)
        if verdict.ok and outcome.certificate is not None:
            terms = check_parity_terms(board, outcome.certificate)
            if not terms.ok:
                return False, terms.message
        return verdict.ok, verdict.message
    return None, "nothing to verify"


def _check_none_within(board: Board, bound: object, grounds: object) -> tuple[bool | None, str]:
    """"No plan of length <= ``bound``": the bound a length, the certificate saying it."""
    if not isinstance(bound, int) or isinstance(bound, bool) or bound < 0:
        return False, f"the bound {bound!r} is not a plan length"
    if grounds != f"no plan of length <= {bound}":
        return False, f"the certificate {grounds!r} does not state the bound {bound}"
    if verify_unsolvable(board.rows, board.cols, board.tiles, board.goal).ok:
        return True, f"no plan of length <= {bound}: the board is unsolvable (parity)"
    least = manhattan(board.rows, board.cols, board.tiles, board.goal)
    if least > bound:
        return True, f"no plan of length <= {bound}: every plan has at least {least} moves (Manhattan distance)"
    # rests on the backend's search; a user encoding's is cross-checked (not verifiable alone)
    return None, grounds


def check_solvability(board: Board, outcome: Outcome) -> tuple[bool | None, str]:
    """Verify a solvability answer (``True``/``False``) by :func:`verify_unsolvable`'s
    invariant (permutation parity against the blank's distance), not the solvers' one,
    and the terms of the argument the certificate states by counting them again
    (:func:`check_parity_terms`)."""
    if outcome.status != "solved" or not isinstance(outcome.answer, bool):
        return None, "nothing to verify"
    parity = verify_unsolvable(board.rows, board.cols, board.tiles, board.goal)
    if outcome.answer is parity.ok:  # parity.ok: the invariant proves it unsolvable
        said = "solvable" if outcome.answer else "unsolvable"
        return False, f"the answer says {said}, but {parity.message}"
    if outcome.certificate is not None:
        terms = check_parity_terms(board, outcome.certificate)
        if terms.ok and "permutation" in outcome.certificate:
            terms = check_thesis_terms(board, outcome.certificate)
        if not terms.ok:
            return False, terms.message
    return True, parity.message


# -- permutations (``puzzle permutation``), counted here another way ----------------------


def _from_cycles(text: object, n: int) -> list[int] | str:
    """The images of ``1..n`` under the cycles ``text`` written in the thesis's canonical
    form (each cycle from its smallest element, cycles in the order of those, no fixed
    points), or why ``text`` is not that."""
    if not isinstance(text, str) or not re.fullmatch(r"(\((\d+( \d+)+)\))*|\(\)", text):
        return f"{text!r} is not cycle notation"
    images = list(range(1, n + 1))
    firsts = []
    for body in re.findall(r"\(([^()]+)\)", text):
        cycle = [int(a) for a in body.split()]
        if cycle[0] != min(cycle) or not all(1 <= a <= n for a in cycle):
            return f"{text}: a cycle must start at its smallest element, within 1..{n}"
        for a, b in zip(cycle, [*cycle[1:], cycle[0]], strict=True):
            if images[a - 1] != a:
                return f"{text}: {a} appears twice"
            images[a - 1] = -b  # marked as placed, undone below
        firsts.append(cycle[0])
    if firsts != sorted(firsts):
        return f"{text}: the cycles are not in the order of their smallest elements"
    return [abs(a) for a in images]


def _inversions_by_fenwick(images: Sequence[int]) -> int:
    """Pairs ``i < j`` with ``images[i] > images[j]``: a Fenwick tree of the values seen."""
    n = len(images)
    tree = [0] * (n + 1)
    count = 0
    for seen, a in enumerate(images):
        smaller, i = 0, a
        while i > 0:
            smaller += tree[i]
            i -= i & -i
        count += seen - smaller
        i = a
        while i <= n:
            tree[i] += 1
            i += i & -i
    return count


def _swaps_to_sort(images: Sequence[int]) -> int:
    """How many swaps put every element home, one element at a time: ``n`` minus the
    number of cycles, counted without listing a cycle."""
    a, swaps = list(images), 0
    for i in range(len(a)):
        while a[i] != i + 1:
            j = a[i] - 1
            a[i], a[j] = a[j], a[i]
            swaps += 1
    return swaps


def _power(images: Sequence[int], m: int) -> list[int]:
    """``sigma^m`` by repeated squaring."""
    result, base = list(range(1, len(images) + 1)), list(images)
    while m:
        if m & 1:
            result = [base[a - 1] for a in result]
        base = [base[a - 1] for a in base]
        m >>= 1
    return result


def _cycle_lengths(images: Sequence[int]) -> list[int]:
    seen, lengths = [False] * len(images), []
    for start in range(len(images)):
        length, i = 0, start
        while not seen[i]:
            seen[i], i, length = True, images[i] - 1, length + 1
        if length:
            lengths.append(length)
    return lengths


#: up to this degree the order is checked by powers of the permutation; beyond, by the
#: cycle lengths walked here (powers would take n log(order) steps a prime)
ORDER_BY_POWERS = 2000


def _is_order(images: Sequence[int], m: object) -> bool:
    """Is ``m`` the least power that gives the identity? By powers: ``sigma^m`` is the
    identity and no ``sigma^(m/p)`` is, for the primes ``p <= n`` dividing ``m``, and
    ``m`` has no prime factor beyond ``n`` (no cycle length has one, so ``m`` would not be
    least). Beyond :data:`ORDER_BY_POWERS`: every cycle length divides ``m`` and
    ``m`` is no more than their least common multiple, built here prime by prime."""
    if not isinstance(m, int) or isinstance(m, bool) or m < 1:
        return False
    n = len(images)
    if n > ORDER_BY_POWERS:
        lengths = _cycle_lengths(images)
        least = 1
        for length in lengths:
            least = least * length // gcd(least, length)
        return all(m % length == 0 for length in lengths) and m <= least
    identity = list(range(1, n + 1))
    if _power(images, m) != identity:
        return False
    rest, primes = m, []
    for p in range(2, n + 1):
        if rest % p == 0:
            primes.append(p)
            while rest % p == 0:
                rest //= p
    return rest == 1 and all(_power(images, m // p) != identity for p in primes)


def _from_transpositions(text: object, n: int) -> list[int] | str:
    """The product of ``(a b)(c d)...``, the rightmost applied first: built from the
    left, ``R o (a b)`` is ``R`` with its images of ``a`` and ``b`` swapped."""
    if not isinstance(text, str) or not re.fullmatch(r"(\(\d+ \d+\))*|\(\)", text):
        return f"{text!r} is not a product of transpositions"
    images = list(range(1, n + 1))
    for a, b in (tuple(map(int, t.split())) for t in re.findall(r"\((\d+ \d+)\)", text)):
        if not (1 <= a <= n and 1 <= b <= n):
            return f"{text}: ({a} {b}) is beyond 1..{n}"
        images[a - 1], images[b - 1] = images[b - 1], images[a - 1]
    return images


def check_permutation(query: Any, outcome: Outcome) -> tuple[bool | None, str]:
    """Check ``puzzle permutation`` by other computations: the cycles applied give the
    array back; the inverse composes to the identity; the order by powers (``sigma^m``
    the identity, no ``sigma^(m/p)``); inversions by a Fenwick tree; transpositions by
    sorting with swaps; the parity both ways (the thesis's theorem 1 says they agree);
    the transpositions multiplied give the permutation; each composition by definition."""
    if outcome.status != "solved":
        return None, "nothing to verify"
    p, facts = list(query.perm), outcome.witness
    n = len(p)
    if not isinstance(facts, dict) or facts.get("array") != p:
        return False, "the witness does not state the permutation's array"
    if _from_cycles(outcome.answer, n) != p:
        return False, f"the cycles {outcome.answer} do not give the array ({_from_cycles(outcome.answer, n)})"
    inv = facts.get("inverse")
    if not isinstance(inv, list) or len(inv) != n or any(
        not isinstance(a, int) or not 1 <= a <= n or p[a - 1] != i for i, a in enumerate(inv, 1)
    ):
        return False, "the inverse composed with the permutation is not the identity"
    if _from_cycles(facts.get("inverse_cycles"), n) != inv:
        return False, "the inverse's cycles do not give the inverse"
    if not _is_order(p, facts.get("order")):
        return False, f"{facts.get('order')} is not the order: the least m with sigma^m the identity"
    inversions = _inversions_by_fenwick(p)
    if facts.get("inversions") != inversions:
        return False, f"the permutation has {inversions} inversions, not {facts.get('inversions')}"
    swaps = _swaps_to_sort(p)
    if facts.get("transpositions") != swaps or facts.get("cycles") != n - swaps:
        return False, f"{n} - {n - swaps} cycles = {swaps} transpositions, not as the witness says"
    if inversions % 2 != swaps % 2:  # theorem 1: impossible unless a count above is wrong
        return False, f"{inversions} inversions and {swaps} transpositions differ in parity"
    if facts.get("parity") != ("even" if swaps % 2 == 0 else "odd"):
        return False, f"the parity is {'even' if swaps % 2 == 0 else 'odd'}"
    product = facts.get("as_transpositions")
    if _from_transpositions(product, n) != p or (product.count("(") if product != "()" else 0) != swaps:
        return False, f"the {swaps} transpositions given do not multiply to the permutation"
    if query.other is not None:
        q = list(query.other)
        for key, first, then in (("then_other", p, q), ("other_then", q, p)):
            want = [then[first[k] - 1] for k in range(n)]
            if facts.get(key) != want or _from_cycles(facts.get(f"{key}_cycles"), n) != want:
                return False, f"the composition {key.replace('_', ' ')} is not k -> second(first(k))"
    return True, (
        f"cycles, inverse, order {facts['order']} (by powers), {inversions} inversions "
        f"(Fenwick tree) and {swaps} transpositions (sorting by swaps) counted again"
    )


def check_thesis_terms(board: Board, terms: dict) -> Verdict:
    """The thesis's terms ``puzzle check`` states beside the inversions: the cells'
    permutation in cycles (the blank read as its goal cell's number), its
    transpositions and the blank's distance from home, counted again here."""
    target = _goal(board.size, board.goal)
    home = {v: i + 1 for i, v in enumerate(target)}
    images = [home[v] for v in board.tiles]
    if _from_cycles(terms.get("permutation"), board.size) != images:
        return Verdict(False, f"the cycles {terms.get('permutation')!r} are not the board's permutation")
    swaps = _swaps_to_sort(images)
    if terms.get("transpositions") != swaps:
        return Verdict(False, f"the board's permutation is {swaps} transpositions, not {terms.get('transpositions')}")
    (r, c), (hr, hc) = divmod(board.tiles.index(0), board.cols), divmod(target.index(0), board.cols)
    if terms.get("blank_distance") != abs(r - hr) + abs(c - hc):
        return Verdict(False, f"the blank is {abs(r - hr) + abs(c - hc)} moves from home")
    return Verdict(True, "the permutation's cycles counted again")


# -- search on a weighted graph (``puzzle search``), against networkx ----------------------


def check_search(problem: Any, outcome: Outcome) -> tuple[bool | None, str]:
    """Check ``puzzle search``: the path follows arcs from the start to the goal at the
    claimed cost; networkx's Dijkstra and its ``astar_path_length`` with the same
    heuristic give the cheapest cost, which the claim must be when the heuristic is
    consistent (checked here arc by arc); "no path" is networkx's ``has_path``. The
    trace: A*'s expansions carry the true distance from the start (consistent ``h``),
    their ``f`` never decreases, every node with ``f < cost`` is expanded and none with
    ``f > cost``; IDA*'s first threshold is ``h(start)``, every round's expansions stay
    within its threshold, each next threshold is the next round's and the last the cost."""
    import networkx as nx

    graph, h = problem.graph, problem.heuristic
    g = nx.DiGraph()
    g.add_nodes_from(graph.nodes)
    g.add_weighted_edges_from((u, v, w) for u, out in graph.arcs.items() for v, w in out)
    s, t = graph.start, graph.goal
    if outcome.status == "no-solution":
        if nx.has_path(g, s, t):
            return False, f"networkx finds a path from {s} to {t}"
        return True, f"networkx finds no path from {s} to {t}"
    if outcome.status != "solved":
        return None, "nothing to verify"
    w = outcome.witness
    path = w.get("path") if isinstance(w, dict) else None
    if not isinstance(path, list) or not path or path[0] != s or path[-1] != t:
        return False, f"the path does not lead from {s} to {t}"
    if not all(isinstance(v, str) and g.has_node(v) for v in path):
        return False, "the path names a node that is not in the graph"
    if any(not g.has_edge(u, v) for u, v in itertools.pairwise(path)):
        return False, "the path uses a move that is not an arc"
    cost = sum(g[u][v]["weight"] for u, v in itertools.pairwise(path))
    if outcome.answer != cost:
        return False, f"the path costs {cost}, not {outcome.answer}"
    best = nx.dijkstra_path_length(g, s, t)
    by_astar = nx.astar_path_length(g, s, t, heuristic=lambda u, _: h[u])
    consistent = h[t] == 0 and all(h[u] <= d["weight"] + h[v] for u, v, d in g.edges(data=True))
    if not consistent:
        return True, f"the path costs {cost}; the cheapest costs {best} (networkx's Dijkstra)"
    if cost != best or cost != by_astar:
        return False, f"the cheapest path costs {best} (networkx: Dijkstra; {by_astar} by its A*), not {cost}"
    distance = nx.single_source_dijkstra_path_length(g, s)
    trace = _check_astar_trace(w, h, distance, cost) if "expanded" in w else _check_idastar_trace(w, h, s, cost)
    if trace is not None:
        return False, trace
    return True, f"cost {cost} is the cheapest (networkx's Dijkstra and A*); the expansions checked"


def _check_astar_trace(w: dict, h: dict, distance: dict, cost: int) -> str | None:
    rows = w.get("expanded")
    if not isinstance(rows, list) or not all(isinstance(r, list) and len(r) == 4 for r in rows):
        return "the expansions are not [node, g, h, f] rows"
    last = None
    for node, gv, hv, f in rows:
        if node not in distance or gv != distance[node] or hv != h[node] or f != gv + hv:
            return f"the expansion of {node} at g={gv}, h={hv}, f={f}: g must be its distance {distance.get(node)}"
        if last is not None and f < last:
            return f"f decreases at {node} ({f} after {last}): not A*'s order with a consistent h"
        last = f
    expanded = [r[0] for r in rows]
    if len(set(expanded)) != len(expanded):
        return "a node is expanded twice under a consistent heuristic"
    must = {v for v, d in distance.items() if d + h[v] < cost}
    if not must <= set(expanded):
        return f"{sorted(must - set(expanded))[0]} has f < {cost} but was not expanded"
    if any(f > cost for *_, f in rows):
        return f"a node with f > {cost} was expanded"
    return None


def _check_idastar_trace(w: dict, h: dict, start: str, cost: int) -> str | None:
    rounds = w.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        return "the witness has no rounds"
    if rounds[0].get("threshold") != h[start]:
        return f"the first threshold must be h({start}) = {h[start]}"
    for i, r in enumerate(rounds):
        cut = r.get("threshold")
        for node, gv, f in r.get("expanded", []):
            if f != gv + h[node] or f > cut:
                return f"round {i + 1}: {node} expanded with f={f} over the threshold {cut}"
        if i + 1 < len(rounds) and not (r.get("next") == rounds[i + 1]["threshold"] > cut):
            return f"round {i + 1}: the next threshold is not the next round's, larger"
    if rounds[-1]["threshold"] != cost or rounds[-1].get("next") is not None:
        return f"the last round's threshold is not the cost {cost}"
    return None
