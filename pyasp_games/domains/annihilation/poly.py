"""The polynomial backend: the second player's positions of Annihilation are a linear
space over GF(2), built up from Smith's function one proved lost position at a time,
until a search proves that none is left outside it (and every draw is then proved).

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

**Theorem 3.** Write ``W(X)`` for the positions with a move into a subspace ``X ⊆
P``. If no position outside ``X`` has all its moves into ``W(X)``, then ``X = P``, the
positions of ``W(X)`` are exactly the first player's wins, and all others are draws.

*Proof.* Every position of ``W(X)`` is a win (a move into ``X ⊆ P``). Let ``D`` be the
positions neither in ``X`` nor in ``W(X)``. A position ``d`` of ``D`` has no move into
``X`` (it is not in ``W(X)``), so each of its moves leads into ``D`` or ``W(X)``, and by
the hypothesis not all of them into ``W(X)``: ``d`` has a move into ``D``. Give won and
lost positions their ranks (a lost one: one more than its moves' largest; a won one: one
more than its smallest move into ``P``) and take ``d`` in ``D`` decided with the least
rank. If ``d`` is lost, its move into ``D`` leads to a won position of smaller rank; if
``d`` is won, its move into ``P`` leads to a lost position of smaller rank, which is not
in ``W(X)`` (those are won), so in ``D``. Either way the rank was not the least: no
position of ``D`` is decided. ∎

**Lemma 4.** Let ``red[u]`` be the normal form of ``e_u`` modulo ``X`` (linear, with
kernel ``X``). If ``x`` lies outside ``X`` with every move into ``W(X)`` and ``σ`` is its
normal form (``σ ≠ 0``), then ``x`` has a token ``u`` with a move (a position whose
tokens all stand on sinks is lost and in ``X``: sinks have ``γ = 0``), and for every
token ``u`` with moves and every arc ``u -> v``, the move to ``y = x + e_u + e_v`` is
answered by a move ``s -> t`` of a token ``s`` of ``y`` into ``X``:
``σ + red[u] + red[v] + red[s] + red[t] = 0``. So ``σ`` lies in ``S_u``, the set of
``c + red[u] + red[v]`` with ``c`` the normal form of a move, for every arc ``u -> v``
out of ``u``; and every token of ``x`` stands on a sink or on a vertex ``w`` with ``σ``
in ``S_w``.

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
round after round :func:`lost_outside` looks for a position outside ``X`` with every
move into ``W(X)``, over the normal forms Lemma 4 leaves (at most ``n·m`` of them: each
``S_u`` has at most ``m`` members); a form that is not a sum of the admitted vertices'
forms is out by Gaussian elimination, and each one left is a SAT question (tokens on the
admitted vertices, their normal forms XOR to ``σ``, every move of every token answered
by a move into ``X``). A position found is lost (Theorem 2) and joins ``X`` (the
dimension grows, so at most ``n`` rounds); when none is left, ``X = P`` (Theorem 3).
Each round costs ``O(n·m)`` set lookups and eliminations of ``O(n)`` vectors, and at most
``n·m`` SAT questions: polynomial but for those questions, which are NP-hard in general
(``stats['refuted']`` counts the ones answered "none"): 274 over the 300 random digraphs
of 10-13 vertices compared with exhaustive search, each one small; on the 200-vertex
benchmark Gaussian elimination alone ruled out every normal form (``benchmarks/RESULTS.md``). This exact algorithm is ours; Fraenkel
and Yesha's own O(n^6) construction (1982) was not at hand.

**Answers.** ``second`` when the start is in ``X`` and ``first`` with a move into ``X``
are proved by Theorems 1 and 2 as soon as they hold (the rounds stop there). ``draw``
(the start outside ``X``, no move into it) is proved by Theorem 3 once no lost position
is left outside ``X`` (the certificate's ``complete``), which the checker establishes
again with its own code.

The certificate travels with the answer (the claim's ``certificate``, JSON's
``certificate``): ``grundy`` and ``counters`` (Smith's conditions, checked), ``rounds``
(the generators added at each round, as lists of token vertices; the checker repeats
each one-round test against the span of what came before), ``complete`` (for a
``draw``: the checker repeats Lemma 4's search) and for ``second`` the start's
membership in the span. The statistics say the span's ``dimension`` and how many
normal forms the SAT solver ``refuted``.

>>> from pyasp_games.domains.annihilation.model import parse_instance
>>> claim = solve_poly(parse_instance("a b\\nb c\\nc d\\nd e\\n", "b c e"))
>>> claim.status, claim.answer, claim.witness
('solved', 'first', ['b', 'c'])
>>> fan = parse_instance("a b\\na c\\na d\\nb c\\nc d\\nd b\\n", "a b c d")
>>> claim = solve_poly(fan)
>>> claim.answer, claim.certificate["rounds"], claim.stats
('second', [[['a', 'b', 'c', 'd']]], {'dimension': 1, 'refuted': 0})
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from pyasp_games.domains.annihilation.model import Annihilation, vertices_of
from pyasp_games.domains.grundy.generalized import generalized_grundy
from pyasp_games.domains.grundy.model import Value, format_value
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.graphs import Digraph
from pyasp_games.engines.limits import Deadline, LimitReached, Limits

_POLL = 256  # normal forms tried between deadline checks


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


def arc_forms(graph: Digraph, red: list[int]) -> dict[int, list[int]]:
    """The normal form of every move ``e_u + e_v`` (0 for a self-loop), mapped to the
    tails ``u`` of the arcs that have it (``red``: the vertices' normal forms)."""
    tails: dict[int, list[int]] = {}
    for u in range(len(graph)):
        for v in graph.succ[u]:
            tails.setdefault(red[u] ^ red[v], []).append(u)
    return tails


def token_syndromes(graph: Digraph, red: list[int], forms: dict[int, list[int]]) -> dict[int, set[int]]:
    """For every vertex ``u`` with a move, the normal forms ``σ`` a position ``x`` with
    a token on ``u`` can have if every move of that token leads into ``W(X)``: for each
    arc ``u -> v``, ``σ + red[u] + red[v]`` must be the normal form of some move
    (Lemma 4 of the module docstring)."""
    fits: dict[int, set[int]] = {}
    for u in range(len(graph)):
        arcs = graph.succ[u]
        if not arcs:
            continue
        first = red[u] ^ red[arcs[0]]
        common = {first ^ c for c in forms}
        for v in arcs[1:]:
            shift = red[u] ^ red[v]
            common = {s for s in common if s ^ shift in forms}
        fits[u] = common
    return fits


def lost_outside(
    graph: Digraph, span: Span, deadline: Deadline | None = None
) -> tuple[int | None, int]:
    """A position outside the span ``X`` every move from which leads into ``W(X)`` (so
    lost: Theorem 2), or ``None`` when there is none (then ``X = P``: Theorem 3); and
    how many normal forms needed the SAT solver to be ruled out.

    Lemma 4 of the module docstring narrows the normal form ``σ`` of such a position to
    :func:`token_syndromes` and its tokens to the vertices that admit ``σ``; a ``σ`` that
    is not a sum of those vertices' normal forms is out at once. What is left is one
    SAT question per ``σ``: tokens on the admitted vertices with normal form ``σ`` (XOR
    constraints), every move of every token answered by a move into ``X``."""
    deadline = deadline or Deadline(None)
    n = len(graph)
    red = span.vertex_forms(n)
    forms = arc_forms(graph, red)
    admitting: dict[int, list[int]] = {}  # sigma -> the vertices with moves admitting it
    for u, sigmas in token_syndromes(graph, red, forms).items():
        for sigma in sigmas:
            admitting.setdefault(sigma, []).append(u)
    sinks = [u for u in range(n) if not graph.succ[u]]
    admitting.pop(0, None)
    refuted = 0
    for i, sigma in enumerate(sorted(admitting)):
        if i % _POLL == 0:
            deadline.check()
        admitted = sorted(sinks + admitting[sigma])
        reachable = Span()  # the normal forms the admitted vertices' tokens can make
        for u in admitted:
            reachable.add(red[u])
        if reachable.normal_form(sigma):
            continue
        found = _position_with_form(graph, red, forms, admitted, sigma, deadline)
        if found is not None:
            return found, refuted
        refuted += 1
    return None, refuted


def _position_with_form(
    graph: Digraph, red: list[int], forms: dict[int, list[int]], admitted: list[int],
    sigma: int, deadline: Deadline,
) -> int | None:
    """The SAT question of :func:`lost_outside` for one normal form ``sigma``."""
    from pyasp_games.engines.sat_runner import SatSession

    with SatSession("glucose4", deadline, keep_clauses=False) as sat:
        token = {u: sat.var("token", u) for u in admitted}
        true = sat.var("true")
        sat.add([true])

        def holds(w: int) -> int:  # the literal "w holds a token" (never, off the admitted)
            return token.get(w, -true)

        bits = 0
        for u in admitted:
            bits |= red[u]
        b = 0
        while bits >> b:  # the tokens' normal forms XOR to sigma, bit by bit
            if bits >> b & 1:
                members = [token[u] for u in admitted if red[u] >> b & 1]
                acc = members[0]
                for lit in members[1:]:
                    out = sat.var("xor", b, lit)
                    sat.extend([[-out, acc, lit], [-out, -acc, -lit], [out, -acc, lit], [out, acc, -lit]])
                    acc = out
                sat.add([acc] if sigma >> b & 1 else [-acc])
            b += 1
        for u in admitted:
            for v in graph.succ[u]:
                # the token on u moves to v; the opponent must answer with a move into X:
                # a move of normal form sigma + red[u] + red[v] by a token of the new position
                answers = [-token[u]]
                for w in forms.get(sigma ^ red[u] ^ red[v], ()):
                    if v == u or w not in (u, v):
                        answers.append(holds(w))
                    elif w == v:
                        answers.append(-holds(v))  # v holds a token after the move iff it did not
                sat.add(answers)
        solved = sat.solve()
        if solved is None:
            deadline.check()
            raise LimitReached({"limit": "time"})
        if not solved:
            return None
        chosen = set(sat.true_names())
        return sum(1 << u for u in admitted if ("token", u) in chosen)


@dataclass
class Closure:
    """What the algorithm built: Smith's ``γ`` and counters on the digraph, the span
    ``X`` of positions proved lost for the player to move, the generators each round
    added, whether ``X = P`` was proved (``complete``), and how many normal forms the
    SAT solver ruled out on the way (``refuted``)."""

    values: list[Value]
    counters: list[int | None]
    span: Span
    rounds: list[list[int]] = field(default_factory=list)
    complete: bool = False
    refuted: int = 0

    def lost(self, position: int) -> bool:
        return self.span.normal_form(position) == 0


def build_closure(
    inst: Annihilation, deadline: Deadline | None = None, stop_at: int | None = None
) -> Closure:
    """``X`` from the nim-sum relations, one position of :func:`lost_outside` at a time,
    until there is none (``complete``: ``X = P``); with ``stop_at`` (a position), stop as
    soon as it or a move from it is in ``X``."""
    deadline = deadline or Deadline(None)
    graph = inst.graph
    values, counters = generalized_grundy(graph, deadline)
    span = Span()
    for vector in nim_relations(values):
        span.add(vector)
    closure = Closure(values, counters, span)
    while not (stop_at is not None and decided(inst, closure, stop_at)):
        found, refuted = lost_outside(graph, span, deadline)
        closure.refuted += refuted
        if found is None:
            closure.complete = True
            break
        span.add(found)
        closure.rounds.append([found])
    return closure


def decided(inst: Annihilation, closure: Closure, position: int) -> bool:
    """Whether ``position`` or a move from it is in ``X`` (its answer is proved)."""
    return closure.lost(position) or any(closure.lost(q) for _, _, q in inst.moves(position))


def solve_poly(inst: Annihilation, limits: Limits = Limits()) -> Claim:
    """``second`` (the start is in ``X``), ``first`` with a move into ``X``, or ``draw``
    (neither, at the fixpoint): the module docstring proves the first two and says what
    the third rests on; the certificate is what the checker replays."""
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
    certificate = {
        "grundy": [format_value(x) for x in closure.values],
        "counters": closure.counters,
        "rounds": [[[names[v] for v in vertices_of(m)] for m in found] for found in closure.rounds],
        "complete": closure.complete,
    }
    stats = {"dimension": len(closure.span), "refuted": closure.refuted}
    return Claim.solved(answer, witness, certificate=certificate, stats=stats)
