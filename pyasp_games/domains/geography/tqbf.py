"""TQBF -> Geography: quantified CNF formulas as Geography games.

The reduction that shows Geography PSPACE-complete (T. J. Schaefer, "On the complexity
of some two-person perfect-information games", J. Computer and System Sciences 16,
1978), in the textbook form of M. Sipser, *Introduction to the Theory of Computation*,
section 8.3, with a variant for edge geography.

A formula ``Q1 x1 Q2 x2 ... Qn xn . C1 ∧ ... ∧ Cm`` is read from QDIMACS and
normalised to strictly alternating quantifiers that begin and end with ∃ (a
variable of no clause, inserted where two neighbours share a quantifier or at the
end, changes nothing; free variables are existential and outermost, as QDIMACS
says). The graph: a chain of diamonds ``in_k -> up_k | down_k -> out_k ->
in_{k+1}`` (passing ``up_k`` sets ``x_k`` true), ``out_n -> c``, ``c -> c_j`` for
every clause and ``c_j -> c_j_i`` for its literals. The player choosing at
``in_k`` is the first player for odd ``k`` (∃) and the second for even ``k``
(∀); then the second player picks a clause, the first a literal of it.

- vertex geography (Sipser): a literal node points to the diamond side the path
  took if the literal is true, so entering it is impossible exactly when it is true;
- edge geography (each move removes its arc): a literal node points to
  the *opposite* side, whose way on to ``out_k`` is used up exactly when the
  literal is false.

In both, the first player wins from ``in_1`` iff the formula is true.

>>> q = parse_qdimacs("p cnf 2 2\\ne 1 0\\na 2 0\\n1 2 0\\n1 -2 0\\n")
>>> q.prefix, q.clauses, qbf_true(q)
([('e', 1), ('a', 2), ('e', 3)], [(1, 2), (1, -2)], True)
>>> g = to_geography(q, "vertex")
>>> len(g), g.names[0], g.headers["start"], g.headers["variant"]
(19, 'in1', 'in1', 'vertex')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pyasp_games.engines.dimacs import read_cnf
from pyasp_games.engines.graphs import Digraph, from_arcs
from pyasp_games.engines.limits import Deadline
from pyasp_games.errors import InputError, read_text


@dataclass
class Qbf:
    """A prenex CNF formula: ``prefix`` strictly alternating ``('e'|'a', var)`` from ∃ to ∃."""

    prefix: list[tuple[str, int]]
    clauses: list[tuple[int, ...]]
    name: str = "qbf"
    #: the prefix as written, before the padding: ``(kind, var, free)``, the free
    #: variables (``free`` true) existential and first (``ip qbf`` runs on it)
    written: list[tuple[str, int, bool]] = field(default_factory=list)


def parse_qdimacs(text: str, name: str = "qbf") -> Qbf:
    """Read QDIMACS (``p cnf V C``, ``e``/``a`` lines ending in 0, then clauses;
    :func:`~pyasp_games.engines.dimacs.read_cnf`)."""
    read = read_cnf(text, name, quantifiers="ea")
    clauses = read.clauses
    blocks = [(line.letter, line.variables(read.variables)) for line in read.quantifiers]
    quantified = [v for _, vs in blocks for v in vs]
    if len(set(quantified)) != len(quantified):
        raise InputError(f"{name}: a variable is quantified twice")
    free = [v for v in range(1, read.variables + 1) if v not in set(quantified)]
    order = [("e", v) for v in free] + [(k, v) for k, vs in blocks for v in vs]
    prefix: list[tuple[str, int]] = []
    fresh = read.variables
    for kind, v in order:
        want = "e" if len(prefix) % 2 == 0 else "a"
        if kind != want:
            fresh += 1
            prefix.append((want, fresh))
        prefix.append((kind, v))
    if not prefix or prefix[-1][0] != "e":
        fresh += 1
        prefix.append(("e", fresh))
    written = [("e", v, True) for v in free] + [(k, v, False) for k, vs in blocks for v in vs]
    return Qbf(prefix, clauses, name, written)


def read_qdimacs(path: Path | str) -> Qbf:
    """Read a QDIMACS file; bad files raise :class:`InputError`."""
    path = Path(path)
    return parse_qdimacs(read_text(path), path.name)


def qbf_true(q: Qbf) -> bool:
    """Truth by brute force over the quantifier tree (small formulas)."""

    def value(i: int, assign: dict[int, bool]) -> bool:
        if i == len(q.prefix):
            return all(
                any(assign.get(abs(lit), False) == (lit > 0) for lit in c) for c in q.clauses
            )
        kind, v = q.prefix[i]
        results = (value(i + 1, {**assign, v: b}) for b in (True, False))
        return any(results) if kind == "e" else all(results)

    return value(0, {})


def to_geography(q: Qbf, variant: str = "vertex") -> Digraph:
    """The reduction's graph for ``q``; headers name the start ``in1`` and the variant."""
    if variant not in ("vertex", "edge"):
        raise InputError(f"unknown variant {variant!r} (choose from vertex, edge)")
    position = {v: k for k, (_, v) in enumerate(q.prefix, 1)}
    n = len(q.prefix)
    arcs: list[tuple[str, str]] = []
    for k in range(1, n + 1):
        arcs += [(f"in{k}", f"up{k}"), (f"in{k}", f"down{k}")]
        arcs += [(f"up{k}", f"out{k}"), (f"down{k}", f"out{k}")]
        arcs.append((f"out{k}", f"in{k + 1}" if k < n else "c"))
    for j, clause in enumerate(q.clauses, 1):
        arcs.append(("c", f"c{j}"))
        for i, lit in enumerate(clause, 1):
            k = position[abs(lit)]
            true_side, false_side = (f"up{k}", f"down{k}") if lit > 0 else (f"down{k}", f"up{k}")
            arcs.append((f"c{j}", f"c{j}_{i}"))
            arcs.append((f"c{j}_{i}", true_side if variant == "vertex" else false_side))
    headers = {
        "source": f"{q.name} (TQBF -> Geography)",
        "start": "in1",
        "variant": variant,
        "undirected": "no",
    }
    vertices = ["in1", "c"]
    return from_arcs(arcs, vertices, name=f"{q.name}.geography", headers=headers)


# -- Geography -> TQBF -------------------------------------------------------------------

#: The largest game written as a QBF (vertices reachable from the start; in edge geography
#: the usable arcs bound the length of a play, and so the number of blocks).
MAX_QBF_MOVES = 64


@dataclass
class GameQbf:
    """A Geography game as a QBF: true exactly when the first player wins.

    Attributes:
        blocks: the quantifier blocks, ``('e'|'a', [variables])``, outermost first:
            block ``i`` holds the bits of move ``i`` (and, in the first player's blocks,
            the auxiliary variables that flag an illegal move of the second player).
        clauses: the CNF matrix.
        variables: how many variables.
        moves: the number of moves encoded (odd, above the longest play).
        bits: the bits of one move (a vertex number among the ``vertices``).
        vertices: the vertices a play can reach, by number (the start first).
    """

    blocks: list[tuple[str, list[int]]]
    clauses: list[tuple[int, ...]]
    variables: int
    moves: int
    bits: int
    vertices: list[str]

    def qdimacs(self) -> str:
        """The QDIMACS text (``p cnf``, the quantifier lines, the clauses)."""
        lines = [f"c Geography -> TQBF: {self.moves} moves of {self.bits} bits over the "
                 f"vertices {' '.join(self.vertices)} (numbered from 0)",
                 f"p cnf {self.variables} {len(self.clauses)}"]
        lines += [f"{kind} {' '.join(map(str, vs))} 0" for kind, vs in self.blocks if vs]
        lines += [" ".join(map(str, c)) + " 0" for c in self.clauses]
        return "\n".join(lines) + "\n"

    def qbf(self, name: str = "game") -> Qbf:
        """As a :class:`Qbf` (the prefix made strictly alternating) for :func:`to_geography`."""
        return parse_qdimacs(self.qdimacs(), name)


def play_layers(
    size: int, arcs: Sequence[tuple[int, int]], variant: str, directed: bool = True,
    budget: int = 200_000, deadline: Deadline | None = None,
) -> tuple[int, list[set[int]]]:
    """The longest play from vertex 0 and, for each ``i``, the vertices a play of ``i``
    moves can end on (``[{0}, ...]``): exact, by a search over the positions (the token's
    vertex and what is used up, each position once) within ``budget`` positions; beyond
    it, bounds (every vertex a walk of ``i`` moves reaches, plays no longer than the
    material: the vertices, or the arcs).

    >>> play_layers(3, [(0, 1), (1, 2), (0, 2)], "vertex")
    (2, [{0}, {1, 2}, {2}])
    >>> play_layers(2, [(0, 1), (1, 0)], "edge", directed=False)
    (1, [{0}, {1}])
    """
    out: list[list[int]] = [[] for _ in range(size)]
    for u, v in arcs:
        out[u].append(v)
    keys = {}
    for u, v in arcs:
        keys.setdefault((u, v) if directed else frozenset((u, v)), len(keys))
    key = {(u, v): keys[(u, v) if directed else frozenset((u, v))] for u, v in arcs}
    start_used = 1 if variant == "vertex" else 0
    layers: list[set[int]] = [{0}]
    seen = {(0, start_used)}
    frontier = [(0, start_used)]
    while frontier and len(seen) <= budget:
        if deadline is not None:
            deadline.check()
        following = []
        for v, used in frontier:
            for w in out[v]:
                bit = 1 << (w if variant == "vertex" else size + key[(v, w)])
                if not used & bit and (w, used | bit) not in seen:
                    seen.add((w, used | bit))
                    following.append((w, used | bit))
        if following:
            layers.append({w for w, _ in following})
        frontier = following
    if len(seen) <= budget:
        return len(layers) - 1, layers
    bound = size - 1 if variant == "vertex" else len(keys)  # the material
    walks = [{0}]
    for _ in range(bound):
        walks.append({w for v in walks[-1] for w in out[v] if variant != "vertex" or w != 0})
    return bound, walks


def game_to_qbf(
    succ: list[list[int]], start: int, variant: str = "vertex", directed: bool = True,
    names: list[str] | None = None, deadline: Deadline | None = None,
) -> GameQbf:
    """Geography -> TQBF: a QBF, one block of variables per move, true exactly when the
    first player wins Geography on ``succ`` from ``start``.

    Move ``i`` is the vertex the token enters at the ``i``-th move, written in
    ``bits`` bits (block ``i``: ∃ for the first player's moves, ∀ for the second's). The
    clauses ``legal(i)`` say move ``i`` is legal after moves ``1..i-1``: a vertex number
    that exists, an arc from the vertex before (the start for move 1), and a vertex not
    entered before (vertex geography), or an arc not used before (edge geography; an
    undirected edge in either direction). With ``N`` moves, odd and above the longest
    play, the first illegal move of ``1..N`` is the move of the player who cannot move,
    so the first player wins iff it is the second player's::

        ∃x1 ∀x2 ∃x3 ... ∃xN .  ∧_{i odd} ( (∧_{j < i even} legal(j)) → legal(i) )

    (a first-player move need not be legal once a second-player move was not, and no
    play lasts ``N`` moves, so the last conjunct forces the second player to be stuck
    first). In CNF: an auxiliary ``g`` per clause of ``legal(j)`` (``j`` even) may be
    true only where its clause is false (``¬g ∨ ¬ℓ`` for each literal ℓ), and ``F_j``
    ("a second-player move up to ``j`` was illegal") only where ``F_{j-2}`` or one of
    move ``j``'s ``g`` is; every clause of ``legal(i)`` (``i`` odd) gets ``F_{i-1}``.
    These depend on the moves up to ``j`` only, and true is their best value wherever
    allowed, so they sit in the first player's block right after move ``j``.
    Polynomial: O(N·n²) clauses in vertex geography, O(N²·m) in edge geography.

    >>> q = game_to_qbf([[1], [2], []], 0)    # a path s -> a -> b: the second player wins
    >>> q.moves, q.bits, [kind for kind, _ in q.blocks]
    (3, 2, ['e', 'a', 'e'])
    >>> qbf_value(q.blocks, q.clauses)
    False
    >>> edge = game_to_qbf([[1], []], 0)    # s -> a: the first player wins
    >>> qbf_value(edge.blocks, edge.clauses)
    True
    """
    n = len(succ)
    names = names or [str(v) for v in range(n)]
    # the part a play can reach, numbered from the start
    order, seen = [start], {start}
    for u in order:
        for v in succ[u]:
            if v not in seen:
                seen.add(v)
                order.append(v)
    code = {v: k for k, v in enumerate(order)}
    size = len(order)
    arcs = sorted({(code[u], code[v]) for u in order for v in succ[u]})
    if not directed:
        arcs = sorted(set(arcs) | {(v, u) for u, v in arcs})
    adjacent = set(arcs)
    longest, possible = play_layers(size, arcs, variant, directed, deadline=deadline)
    moves = longest + 1 if longest % 2 == 0 else longest + 2  # odd, above the longest play
    if moves > MAX_QBF_MOVES:
        raise InputError(f"a play can last {longest} moves; the QBF is written for at most "
                         f"{MAX_QBF_MOVES - 1}")
    # where a move can stand after i legal moves (move 0: the start); a later move is
    # the first illegal one when it stands elsewhere, so the clauses about a vertex no
    # legal play can reach there are left out (the first illegal move decides the game)
    possible += [set()] * (moves + 1 - len(possible))
    bits = max(1, (size - 1).bit_length())
    counter = [moves * bits]

    def var(i: int, b: int) -> int:
        return (i - 1) * bits + b + 1

    def differs(i: int, c: int) -> list[int]:
        """The literals of 'move i is not vertex c' (move 0 is the start, code 0)."""
        return [-var(i, b) if (c >> b) & 1 else var(i, b) for b in range(bits)]

    def legal(i: int) -> list[list[int]]:
        if deadline is not None:
            deadline.check()
        out = [differs(i, c) for c in range(1 << bits) if c not in possible[i]]
        for u in possible[i - 1]:
            for v in possible[i]:
                if (u, v) not in adjacent:
                    out.append((differs(i - 1, u) if i > 1 else []) + differs(i, v))
        if variant == "vertex":
            for j in range(1, i):
                out += [differs(j, v) + differs(i, v) for v in possible[j] & possible[i]]
            return out
        edges = arcs if directed else [(u, v) for u, v in arcs if u <= v]
        for j in range(1, i):
            for u, v in edges:  # move j along the arc (edge), and move i along it again
                ways = ((u, v),) if directed else tuple(dict.fromkeys(((u, v), (v, u))))
                for a, b in ways:
                    if a not in possible[j - 1] or b not in possible[j]:
                        continue
                    for c, d in ways:
                        if c not in possible[i - 1] or d not in possible[i]:
                            continue
                        clause = _clause([*(differs(j - 1, a) if j > 1 else []), *differs(j, b),
                                          *differs(i - 1, c), *differs(i, d)])
                        if clause is not None:
                            out.append(clause)
        return out

    def fresh() -> int:
        counter[0] += 1
        return counter[0]

    clauses: list[tuple[int, ...]] = []
    blocks: list[tuple[str, list[int]]] = []
    illegal = 0  # F_{i-1}: a second-player move so far was illegal (0: none yet)
    pending: list[int] = []  # auxiliaries of the last second-player move
    for i in range(1, moves + 1):
        own = [var(i, b) for b in range(bits)]
        if i % 2 == 1:
            blocks.append(("e", pending + own))
            for clause in legal(i):
                clauses.append(tuple(clause + ([illegal] if illegal else [])))
            pending = []
        else:
            blocks.append(("a", own))
            flags = []
            for clause in legal(i):
                g = fresh()
                flags.append(g)
                clauses += [(-g, -lit) for lit in clause]
            f = fresh()
            clauses.append(tuple([-f] + ([illegal] if illegal else []) + flags))
            pending = [*flags, f]
            illegal = f
    clauses = list(dict.fromkeys(clauses))  # a clause met twice is written once
    return GameQbf(blocks, clauses, counter[0], moves, bits, [names[v] for v in order])


def _clause(literals: list[int]) -> list[int] | None:
    """The literals without repeats, or ``None`` for a clause that always holds."""
    out = list(dict.fromkeys(literals))
    return None if any(-lit in out for lit in out) else out


def qbf_value(
    blocks: list[tuple[str, list[int]]], clauses: list[tuple[int, ...]],
    deadline: Deadline | None = None,
) -> bool:
    """The truth of a prenex CNF formula, by search over its prefix in order (each
    variable's two values, the ∃ player needing one to be true, the ∀ player both),
    stopping a branch as soon as a clause has every literal false (false) or every
    clause has a true literal (true). Exponential in the worst case, but only a
    falsified clause's prefix is ever searched, so :func:`game_to_qbf`'s formulas of
    small games take a moment (every illegal move is refuted as soon as it is made).
    Independent of the Geography solvers (the reduction's check).

    >>> qbf_value([("e", [1]), ("a", [2])], [(1, 2), (1, -2)])
    True
    >>> qbf_value([("a", [2]), ("e", [1])], [(1, 2), (-1, -2), (2,)])
    False
    """
    order = [(kind == "e", v) for kind, vs in blocks for v in vs]
    occurs: dict[int, list[tuple[int, bool]]] = {}
    for k, clause in enumerate(clauses):
        for lit in clause:
            occurs.setdefault(abs(lit), []).append((k, lit > 0))
    true_count = [0] * len(clauses)
    false_count = [0] * len(clauses)
    size = [len(c) for c in clauses]
    state = {"satisfied": 0, "nodes": 0}
    if any(n == 0 for n in size):
        return False

    def assign(v: int, value: bool, sign: int) -> bool:
        """Apply (sign 1) or undo (sign -1) ``v = value``; False if a clause is falsified."""
        ok = True
        for k, positive in occurs.get(v, ()):
            if positive == value:
                if sign > 0:
                    true_count[k] += 1
                    state["satisfied"] += true_count[k] == 1
                else:
                    state["satisfied"] -= true_count[k] == 1
                    true_count[k] -= 1
            else:
                false_count[k] += sign
                if sign > 0 and false_count[k] == size[k] and not true_count[k]:
                    ok = False
        return ok

    def value(i: int) -> bool:
        state["nodes"] += 1
        if deadline is not None and state["nodes"] % 4096 == 0:
            deadline.check()
        if state["satisfied"] == len(clauses):
            return True
        exists, v = order[i]  # a falsified clause stops before; all assigned: satisfied
        for choice in (False, True):
            ok = assign(v, choice, 1)
            result = ok and value(i + 1)
            assign(v, choice, -1)
            if result == exists:
                return exists
        return not exists

    import sys

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 2 * len(order) + 100))
    try:
        return value(0)
    finally:
        sys.setrecursionlimit(limit)
