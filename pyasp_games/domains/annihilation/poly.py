"""The polynomial backend: the second player's positions of Annihilation are a linear
space over GF(2), built up from a one-round test on polynomially many positions.

A position is a vector ``x`` over GF(2) (one coordinate per vertex); a move of a token
``u -> v`` adds ``e_u + e_v`` and is open when ``u`` holds a token (a self-loop adds 0:
a pass). Write ``P`` for the positions the player to move loses (the second player
wins) and, for a set ``X`` of positions, ``Φ(X)`` for the positions every move from
which leads to a position that has a move into ``X``. ``P`` is the least fixpoint of
``Φ`` (retrograde analysis): ``L_0`` = the positions without a move, ``L_{k+1} =
Φ(L_k)``, ``P`` = their union, and the *rank* ``r(x)`` of ``x`` in ``P`` is the least
``k`` with ``x`` in ``L_k``. A position is a first-player win iff it has a move into
``P``, and a draw iff it is not in ``P`` and has no move into ``P``.

**Theorem 1.** ``P`` is closed under addition: a linear subspace of ``GF(2)^n``.

*Proof*, by induction on ``r(x) + r(y)`` for ``x, y`` in ``P``. A move from ``x + y``
moves a token ``u`` of exactly one of them, say ``x``: it leads to ``R = A + B`` with
``A = y`` in ``P`` and ``B = x + e_u + e_v`` a move away from ``B_0 = x`` in ``P``, so
``B`` has a move ``m`` (a token ``s`` of ``B`` to ``t``) to ``B + m`` in ``P`` of rank
``< r(B_0)``. If ``s`` is a token of ``R`` (not of ``A``), the reply ``m`` leads to ``A
+ (B + m)``. Otherwise ``s`` is a token of ``A``, and ``R = (A + m) + (B + m)`` with
``A' = B + m`` in ``P`` and ``B' = A + m`` a move away from ``B'_0 = A``: repeat with
these. Each exchange lowers ``r(A) + r(B_0)``, so after finitely many an open reply is
found, to a sum of two positions of ``P`` of smaller total rank: in ``P`` by induction.
So every move from ``x + y`` has a reply into ``P``: ``x + y`` is in ``P``. ∎

**Theorem 2.** If ``X ⊆ P`` is a subspace, so is ``span(X ∪ Φ(X)) ⊆ P``: a position of
``Φ(X)`` leaves the opponent only positions with a move into ``P``, so it is in ``P``,
and Theorem 1 closes the span.

**The algorithm.** ``X_0`` is spanned by the nim-sum relations of the digraph's own
generalized Sprague-Grundy function ``γ`` (Smith; its counters ``c``): ``e_u`` for
``γ(u) = 0``, ``e_u + e_v`` for ``γ(u) = γ(v)``, ``e_u + e_v + e_w`` for ``γ(u) XOR
γ(v) = γ(w)``, all finite. They are in ``P`` by the nim-sum theorem: if every token is
on a vertex of finite ``γ`` and the XOR ``s`` of their values is 0, every move either
lowers one value (the XOR becomes nonzero, and the mex property gives a token with a
move to restore 0) or raises one (to a finite or infinite value): then Smith's
condition moves that token on to its old value at a smaller counter; two tokens meeting
leave the XOR as addition mod 2 does; the multiset of the tokens' pairs ``(γ, c)``
decreases every round, so the play is finite and the player facing XOR 0 loses. Then
``X_{k+1} = span(X_k ∪ (Φ(X_k) ∩ C))`` for the candidates ``C``: on up to 46 vertices
(:data:`ALL_FOUR_TOKENS`) every position of at most four tokens; on more, every position
of at most two tokens, every sum of two arc vectors ``e_u + e_v + e_w + e_t`` (each
``x`` of ``Φ(X) \\ X`` lies in ``X + m_1 + m_2`` for a move ``m_1`` and its reply
``m_2``) and every arc vector plus one token: O(n² + m² + mn) positions. Each round
costs one test per candidate (at most ``4Δ⁺`` moves, each answered by at most five set
lookups), there are at most ``n`` rounds (each one that adds anything raises the
dimension), so the whole is polynomial: O(n · (n⁴ + m² + mn) · Δ⁺) set lookups, ``Δ⁺``
the largest out-degree.

**Answers.** ``second`` when the start is in ``X`` and ``first`` with a move into ``X``
are proved by Theorems 1 and 2 whatever ``C`` is (the test is sound). ``draw`` (the
start outside ``X`` and no move into ``X``) also needs ``X = P`` at the fixpoint, which
is *not proved*. With every position of at most four tokens as candidates it held on
every position compared with exhaustive search (every digraph of at most 4 vertices,
random ones of 6 to 13 vertices: ``benchmarks/annihilation_linear.py``); the structured
families used beyond 46 vertices do *not* always reach ``P``: on a 13-vertex digraph
(seed 251 of ``--all-placements``) they miss the lost position of tokens 0 4 8 12,
which only the four-token candidate 2 6 8 12 reveals. So a ``draw`` is checked by
replaying the rules where the positions are few enough, and is otherwise cross-checked
or labelled NOT VERIFIED.

The certificate travels with the answer: ``stats['grundy']`` and ``stats['counters']``
(Smith's conditions, checked), ``stats['rounds']`` (the generators added at each
round, as lists of token vertices; the checker repeats each one-round test against the
span of what came before) and for ``second`` the start's membership in the span.

>>> from pyasp_games.domains.annihilation.model import parse_instance
>>> out = solve_poly(parse_instance("a b\\nb c\\nc d\\nd e\\n", "b c e"))
>>> out.answer, out.witness
('first', ['b', 'c'])
>>> fan = parse_instance("a b\\na c\\na d\\nb c\\nc d\\nd b\\n", "a b c d")
>>> out = solve_poly(fan)
>>> out.answer, out.stats["rounds"]
('second', [[['a', 'b', 'c', 'd']]])
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import combinations
from math import comb

from pyasp_games.domains.annihilation.model import Annihilation, vertices_of
from pyasp_games.domains.grundy.generalized import generalized_grundy
from pyasp_games.domains.grundy.model import Value, format_value
from pyasp_games.engines.graphs import Digraph
from pyasp_games.engines.limits import Deadline, Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.errors import InputError

_POLL = 2048  # candidates tested between deadline checks


class Span:
    """A subspace of ``GF(2)^n`` in reduced echelon form: ``rows[p]`` the basis vector
    whose highest bit is ``p``, no other row having bit ``p``; so the normal form of a
    vector (its representative without pivot bits) is linear in it.

    >>> s = Span(); s.add(0b011), s.add(0b110), s.add(0b101)
    (True, True, False)
    >>> s.normal_form(0b101), s.normal_form(0b001) == s.normal_form(0b100)
    (0, True)
    """

    def __init__(self) -> None:
        self.rows: dict[int, int] = {}
        self.pivots = 0

    def normal_form(self, vector: int) -> int:
        hit = vector & self.pivots
        while hit:
            low = hit & -hit
            vector ^= self.rows[low.bit_length() - 1]
            hit ^= low
        return vector

    def add(self, vector: int) -> bool:
        """Add a vector; ``False`` if it was in the span already."""
        r = self.normal_form(vector)
        if not r:
            return False
        p = r.bit_length() - 1
        for q, row in self.rows.items():
            if row >> p & 1:
                self.rows[q] = row ^ r
        self.rows[p] = r
        self.pivots |= 1 << p
        return True

    def __len__(self) -> int:
        return len(self.rows)

    def vertex_forms(self, n: int) -> list[int]:
        """The normal form of every ``e_u``: a position's is the XOR of its tokens'."""
        rows = self.rows
        return [(1 << u) ^ rows[u] if u in rows else 1 << u for u in range(n)]


def nim_relations(values: list[Value]) -> Iterator[int]:
    """Vectors spanning the positions whose tokens are all on vertices of finite ``γ``
    with XOR 0: ``e_u`` (value 0), ``e_u + e_r`` (``r`` the first vertex of ``u``'s
    value), ``e_r + e_s + e_t`` for representatives whose values XOR to 0."""
    first: dict[int, int] = {}
    for u, g in enumerate(values):
        if isinstance(g, int):
            if g == 0:
                yield 1 << u
            elif g in first:
                yield (1 << u) | (1 << first[g])
            else:
                first[g] = u
    for i, r in first.items():
        for j, s in first.items():
            k = i ^ j
            if i < j < k and k in first:
                yield (1 << r) | (1 << s) | (1 << first[k])


#: The most candidate positions the backend tests (about half a gigabyte of them).
MAX_CANDIDATES = 4_000_000

#: Up to this many positions of three and four tokens, the candidates are all of them
#: (n up to 46): the structured families alone missed a lost position on a 13-vertex
#: digraph (``docs/annihilation.md``).
ALL_FOUR_TOKENS = 200_000


def candidate_count(graph: Digraph) -> int:
    """An upper bound on the candidates: ``n(n+1)/2 + m(m-1)/2 + mn``."""
    n, m = len(graph), graph.arc_count
    return n * (n + 1) // 2 + m * (m - 1) // 2 + m * n


def candidates(
    graph: Digraph, finite: list[bool], deadline: Deadline | None = None
) -> dict[int, tuple[int, ...]]:
    """The positions the one-round test is tried on (see the module docstring), without
    those whose tokens are all on vertices of finite ``γ`` (the nim-sum relations decide
    those already): bitmask -> token vertices."""
    deadline = deadline or Deadline(None)
    n = len(graph)
    out: dict[int, tuple[int, ...]] = {}
    for u in range(n):
        deadline.check()
        if not finite[u]:
            out[1 << u] = (u,)
        for v in range(u + 1, n):
            if not (finite[u] and finite[v]):
                out[(1 << u) | (1 << v)] = (u, v)
    if comb(n, 3) + comb(n, 4) <= ALL_FOUR_TOKENS:
        for k in (3, 4):
            for tokens in combinations(range(n), k):
                if not all(finite[x] for x in tokens):
                    out[sum(1 << x for x in tokens)] = tokens
        return out
    arcs = sorted({(min(u, v), max(u, v)) for u in range(n) for v in graph.succ[u] if u != v})
    for i, (u, v) in enumerate(arcs):
        deadline.check()
        arc = (1 << u) | (1 << v)
        for w, t in arcs[i + 1 :]:
            mask = arc ^ (1 << w) ^ (1 << t)
            if mask not in out:
                tokens = tuple(x for x in {u, v} ^ {w, t})
                if tokens and not all(finite[x] for x in tokens):
                    out[mask] = tokens
        for w in range(n):
            mask = arc ^ (1 << w)
            if mask not in out:
                tokens = tuple({u, v} ^ {w})
                if not all(finite[x] for x in tokens):
                    out[mask] = tokens
    return out


@dataclass
class Closure:
    """What the algorithm built: Smith's ``γ`` and counters on the digraph, the span
    ``X`` of positions proved lost for the player to move, the generators each round
    added, and whether the fixpoint was reached (``complete``)."""

    values: list[Value]
    counters: list[int | None]
    span: Span
    rounds: list[list[int]] = field(default_factory=list)
    complete: bool = False

    def lost(self, position: int) -> bool:
        return self.span.normal_form(position) == 0


def one_round(
    tokens: tuple[int, ...], form: int, red: list[int], succ: tuple[tuple[int, ...], ...],
    replies: list[set[int]],
) -> bool:
    """Whether every move from the position (``tokens``, normal form ``form``) leads to a
    position with a move into the span (``red``: the vertices' normal forms;
    ``replies[c]``: the normal forms ``red[c] ^ red[d]`` of ``c``'s moves)."""
    for a in tokens:
        base = form ^ red[a]
        for b in succ[a]:
            if b == a:  # a pass: the position itself must have a move into the span
                if not any(form in replies[c] for c in tokens):
                    return False
                continue
            after = base ^ red[b]
            if b not in tokens and after in replies[b]:
                continue
            for c in tokens:
                if c != a and c != b and after in replies[c]:
                    break
            else:
                return False
    return True


def build_closure(
    inst: Annihilation, deadline: Deadline | None = None, stop_at: int | None = None
) -> Closure:
    """``X`` by rounds of the one-round test (module docstring); with ``stop_at`` (a
    position), stop as soon as it or a move from it is in ``X``."""
    deadline = deadline or Deadline(None)
    graph = inst.graph
    n, succ = len(graph), graph.succ
    if candidate_count(graph) > MAX_CANDIDATES:
        raise InputError(
            f"{inst.name}: {n} vertices and {graph.arc_count} arcs make up to "
            f"{candidate_count(graph):,} positions to test, beyond the poly backend's limit "
            f"of {MAX_CANDIDATES:,}"
        )
    values, counters = generalized_grundy(graph, deadline)
    span = Span()
    for vector in nim_relations(values):
        span.add(vector)
    closure = Closure(values, counters, span)
    if stop_at is not None and decided(inst, closure, stop_at):
        return closure
    todo = list(candidates(graph, [isinstance(g, int) for g in values], deadline).items())
    while True:
        deadline.check()
        red = span.vertex_forms(n)
        replies = [{red[c] ^ red[d] for d in succ[c]} for c in range(n)]
        found, keep = [], []
        for i, (mask, tokens) in enumerate(todo):
            if i % _POLL == 0:
                deadline.check()
            form = 0
            for t in tokens:
                form ^= red[t]
            if not form:
                continue  # in X already, for good
            keep.append((mask, tokens))
            if one_round(tokens, form, red, succ, replies):
                found.append(mask)
        todo = keep
        added = [m for m in found if span.add(m)]
        if not added:
            closure.complete = True
            return closure
        closure.rounds.append(added)
        if stop_at is not None and decided(inst, closure, stop_at):
            return closure


def decided(inst: Annihilation, closure: Closure, position: int) -> bool:
    """Whether ``position`` or a move from it is in ``X`` (its answer is proved)."""
    return closure.lost(position) or any(closure.lost(q) for _, _, q in inst.moves(position))


def solve_poly(inst: Annihilation, limits: Limits = Limits()) -> Outcome:
    """``second`` (the start is in ``X``), ``first`` with a move into ``X``, or ``draw``
    (neither, at the fixpoint): the module docstring proves the first two and says what
    the third rests on."""
    closure = build_closure(inst, limits.deadline(), stop_at=inst.start)
    names = inst.names
    witness = None
    if closure.lost(inst.start):
        answer = "second"
    else:
        move = next(((u, v) for u, v, q in inst.moves(inst.start) if closure.lost(q)), None)
        if move is not None:
            answer, witness = "first", inst.move_name(move)
        else:
            answer = "draw"  # a draw-keeping move: to a position that is neither
            safe = next(
                (m for m in inst.moves(inst.start) if not decided(inst, closure, m[2])), None
            )
            witness = None if safe is None else inst.move_name(safe[:2])
    stats = {
        "dimension": len(closure.span),
        "complete": closure.complete,
        "grundy": [format_value(x) for x in closure.values],
        "counters": closure.counters,
        "rounds": [[[names[v] for v in vertices_of(m)] for m in found] for found in closure.rounds],
    }
    return Outcome(inst.name, "poly", "solved", answer, witness, 0.0, stats)
