"""The native backend: memoised search over induced subgraphs, split into components.

A position of Node Kayles is the set of vertices still on the board (a bitmask); a move
picks one and deletes its closed neighbourhood. A position is the (disjunctive) sum of
its connected components, so its Grundy value is the XOR of theirs (Sprague-Grundy), and
only *components* are ever searched. Bodlaender, Kratsch and Timmer (Exact algorithms
for Kayles, TCS 562, 2015) call the connected vertex sets that can arise so the
connected *K-sets*: at most O(1.6031^n) of them, O(1.4423^n) on trees. The search
counts the distinct ones it meets (``stats['components_visited']``, beside
``stats['k_set_bound']``).

Each component is resolved, cheapest first:

1. by its vertex set, memoised (``stats['components_visited']`` counts these sets);
2. *true twins*: two adjacent vertices ``u, v`` with the same closed neighbourhood
   ``N[u] = N[v]``. A move at either leaves the same position ``G - N[u]``, so one
   move per class of twins is tried. And deleting ``v`` keeps the value. Proof
   (induction on size): a move at ``u`` or at ``v`` leaves ``G - N[u]`` in ``G``, and a
   move at ``u`` leaves that same position in ``G - v``; a move at any other ``w``
   deletes both twins (``w`` adjacent to one is adjacent to the other) or neither, and
   then leaves positions ``H`` and ``H - v`` in which ``u, v`` are still true twins,
   equal in value by induction. So ``G`` and ``G - v`` have the same set of option
   values. The formulas and the isomorphism table below therefore look at the
   twin-free *core* (one vertex per class), while the search itself keeps to the
   component's own K-sets. (False twins, ``N(u) = N(v)`` not adjacent, are *not*
   removable: ``P_3`` has value 2, its middle vertex alone 1);
3. paths and cycles by Dawson's chess (:mod:`~pyasp_games.domains.kayles.octal`: the
   .137 recursion, its period proved);
4. isomorphic components, by an invariant key and an exact check
   (:mod:`~pyasp_games.domains.kayles.isomorphism`; never a hash alone);
5. else expanded: the mex, over its vertices, of the XOR of the components left.

Isolated vertices need no rule of their own: each is a component of value 1.
``reductions=False`` turns 2-4 off: the plain memoised search over connected K-sets.

On graphs of at most 62 vertices (a position is one machine word) the search runs as
a compiled kernel (:mod:`~pyasp_games.domains.kayles.bitset_search`) with rules 1-3 and
5 but no isomorphism table: on random graphs of 40 vertices the table's keys cost more
than the repeats it finds save (``benchmarks/RESULTS.md``). Larger graphs, and the
members of a family beyond 62 vertices, are searched here with all five rules.
The search runs on an explicit stack (a generator per component being expanded), so a
deep position cannot exhaust Python's recursion.

>>> from pyasp_games.engines.graphs import numbered_graph
>>> p7 = numbered_graph(7, [(i, i + 1) for i in range(6)], "P7")
>>> out = solve_native(p7)
>>> out.answer, out.witness["winning_moves"]
(1, ['1', '3', '5'])
>>> out.witness["outcome"]
'first'
>>> solve_native(p7, reductions=False).answer
1
"""

from __future__ import annotations

import math
from collections.abc import Generator
from typing import Any

from pyasp_games.domains.grundy.model import Misere
from pyasp_games.domains.kayles.bitset_search import MAX_VERTICES as BITSET_VERTICES
from pyasp_games.domains.kayles.bitset_search import BitsetSearch
from pyasp_games.domains.kayles.isomorphism import ComponentTable, Shape
from pyasp_games.domains.kayles.model import Family, encode_k_set_table, family_graph, witness
from pyasp_games.domains.kayles.octal import cycle_value, path_value, period_certificate
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.graphs import Graph, set_bits
from pyasp_games.engines.limits import Deadline, LimitReached, Limits

#: Steps between two looks at the clock.
_POLL = 512
#: BKT's bounds on the number of connected K-sets: general graphs, trees.
K_SET_BASE, K_SET_BASE_TREES = 1.6031, 1.4423
#: Components larger than this are not looked up up to isomorphism (the key would cost
#: more than it saves; such components rarely repeat).
ISO_MAX_VERTICES = 200


def mex(values: set[int]) -> int:
    k = 0
    while k in values:
        k += 1
    return k


class Search:
    """Grundy values of positions (vertex bitmasks) of one graph."""

    def __init__(self, graph: Graph, deadline: Deadline | None = None, reductions: bool = True,
                 table: ComponentTable | None = None) -> None:  # fmt: skip
        self.n = len(graph)
        self.nbr = [sum(1 << w for w in graph.adj[v]) for v in range(self.n)]
        self.closed = [m | (1 << v) for v, m in enumerate(self.nbr)]
        self.deadline = deadline
        self.reductions = reductions
        self.table = table if table is not None else ComponentTable()
        self.memo: dict[int, int] = {}
        self.pending: dict[int, tuple[int, Shape | None]] = {}
        self.steps = 0
        self.counts = {"components_visited": 0, "expanded": 0, "twins_removed": 0,
                       "by_formula": 0, "isomorphic": 0}  # fmt: skip

    # -- splitting ----------------------------------------------------------------------

    def components(self, mask: int) -> list[int]:
        """The connected components of the position ``mask``."""
        out = []
        nbr = self.nbr
        while mask:
            comp = frontier = mask & -mask
            while frontier:
                reach = 0
                while frontier:
                    low = frontier & -frontier
                    reach |= nbr[low.bit_length() - 1]
                    frontier ^= low
                frontier = reach & mask & ~comp
                comp |= frontier
            out.append(comp)
            mask &= ~comp
        return out

    # -- resolving one component ----------------------------------------------------------

    def _tick(self) -> None:
        self.steps += 1
        if self.deadline is not None and self.steps % _POLL == 0:
            self.deadline.check()

    def resolve(self, comp: int) -> int | None:
        """The value of the component ``comp`` if it is known or cheap, else ``None``
        (then :attr:`pending` holds what :meth:`finish` stores once it is expanded)."""
        value = self.memo.get(comp)
        if value is not None:
            return value
        self.counts["components_visited"] += 1
        if comp & (comp - 1) == 0:  # one vertex
            self.memo[comp] = 1
            return 1
        core = comp
        shape = None
        if self.reductions:
            core = self._without_twins(comp)
            value = self._by_formula(core)
            if value is None and core.bit_count() <= ISO_MAX_VERTICES:
                shape = self._shape(core)
                value = self.table.find(shape)
                if value is not None:
                    self.counts["isomorphic"] += 1
            if value is not None:
                self.memo[comp] = value
                return value
        self.pending[comp] = (core, shape)
        return None

    def _without_twins(self, comp: int) -> int:
        """``comp`` less one of every pair of true twins (see the module docstring);
        one pass removes them all (twins of the reduced graph were twins before)."""
        seen: set[int] = set()
        core = comp
        closed = self.closed
        for v in set_bits(comp):
            key = closed[v] & comp
            if key in seen:
                core &= ~(1 << v)
                self.counts["twins_removed"] += 1
            else:
                seen.add(key)
        return core

    def _by_formula(self, comp: int) -> int | None:
        """A path or a cycle, by Dawson's chess; else ``None``."""
        k = comp.bit_count()
        if k == 1:
            return 1
        degree_sum = 0
        for v in set_bits(comp):
            d = (self.nbr[v] & comp).bit_count()
            if d > 2:
                return None
            degree_sum += d
        self.counts["by_formula"] += 1
        if degree_sum == 2 * (k - 1):
            return path_value(k)
        return cycle_value(k)  # connected, every degree <= 2, as many edges as vertices

    def _shape(self, comp: int) -> Shape:
        verts = set_bits(comp)
        local = {v: i for i, v in enumerate(verts)}
        return Shape.of([sum(1 << local[w] for w in set_bits(self.nbr[v] & comp)) for v in verts])

    def finish(self, comp: int, value: int) -> None:
        shape = self.pending.pop(comp)[1]
        self.memo[comp] = value
        if shape is not None:
            self.table.add(shape, value)

    # -- expanding ----------------------------------------------------------------------

    def _expand(self, comp: int) -> Generator[int, int, int]:
        """The mex over the moves of ``comp`` (one per class of true twins: the vertices
        of its core): yields each unknown component it needs and receives its value."""
        core = self.pending[comp][0]
        self.counts["expanded"] += 1
        options = set()
        for v in set_bits(core):
            total = 0
            for part in self.components(comp & ~self.closed[v]):
                self._tick()
                value = self.resolve(part)
                if value is None:
                    value = yield part
                total ^= value
            options.add(total)
        return mex(options)

    def component_value(self, comp: int) -> int:
        """The Grundy value of the connected vertex set ``comp`` (explicit stack)."""
        value = self.resolve(comp)
        if value is not None:
            return value
        stack = [(comp, self._expand(comp))]
        sent: int | None = None
        while True:
            top, gen = stack[-1]
            try:
                need = gen.send(sent)  # type: ignore[arg-type]
            except StopIteration as done:
                self.finish(top, done.value)
                stack.pop()
                if not stack:
                    return done.value
                sent = done.value
                continue
            sent = None
            stack.append((need, self._expand(need)))

    def value(self, mask: int) -> int:
        """The Grundy value of the position ``mask``: the XOR of its components'."""
        total = 0
        for comp in self.components(mask):
            total ^= self.component_value(comp)
        return total

    def option_values(self, mask: int) -> dict[int, int]:
        """The value after every move of the position ``mask``, by vertex."""
        parts = self.components(mask)
        values = [self.component_value(c) for c in parts]
        total = 0
        for x in values:
            total ^= x
        out: dict[int, int] = {}
        for comp, cv in zip(parts, values, strict=True):
            order = self._path_order(comp) if self.reductions else None
            rest = total ^ cv
            if order is not None:  # a path's options are two shorter paths
                k = len(order)
                for i, v in enumerate(order):
                    out[v] = rest ^ path_value(max(i - 1, 0)) ^ path_value(max(k - i - 2, 0))
                continue
            for v in set_bits(comp):
                out[v] = rest ^ self.value(comp & ~self.closed[v])
        return out

    def _path_order(self, comp: int) -> list[int] | None:
        """The vertices of ``comp`` from one end to the other if it is a path (else ``None``)."""
        verts = set_bits(comp)
        ends = [v for v in verts if (self.nbr[v] & comp).bit_count() <= 1]
        if len(ends) != (1 if len(verts) == 1 else 2):
            return None
        if any((self.nbr[v] & comp).bit_count() > 2 for v in verts):
            return None
        order, prev, cur = [ends[0]], -1, ends[0]
        while len(order) < len(verts):
            step = self.nbr[cur] & comp & ~(1 << prev if prev >= 0 else 0)
            if step == 0:
                return None
            prev, cur = cur, step.bit_length() - 1
            order.append(cur)
        return order

    def stats(self, tree: bool) -> dict[str, Any]:
        out: dict[str, Any] = dict(self.counts)
        out["k_set_bound"] = power_text(K_SET_BASE_TREES if tree else K_SET_BASE, self.n)
        out["k_set_bound_of"] = "1.4423^n (trees)" if tree else "1.6031^n"
        out["isomorphism_classes"] = len(self.table)
        out["isomorphism_checks"] = self.table.checks
        return out


def power_text(base: float, n: int) -> str:
    """``base ** n`` in three significant digits (written, so no JSON infinity).

    >>> power_text(1.6031, 40), power_text(1.6031, 5000)
    ('1.58e+08', '6.35e+1024')
    """
    exponent = n * math.log10(base)
    whole = math.floor(exponent)
    return f"{10 ** (exponent - whole):.3g}e+{whole:02d}"


def is_forest(graph: Graph) -> bool:
    """Whether ``graph`` has no cycle (its edges number its vertices less its components)."""
    search = Search(graph)
    return len(graph.edges) == len(graph) - len(search.components((1 << len(graph)) - 1))


def solve_native(graph: Graph, limits: Limits = Limits(), reductions: bool = True) -> Claim:
    """The Grundy value of ``graph``, the outcome and every winning move.

    Answer: the value; witness: ``value``, ``outcome`` (``first``: the player to move
    wins), ``options`` (every vertex's move and the value it leaves) and
    ``winning_moves`` (the moves to value 0). Under the misère rule
    (:class:`~pyasp_games.domains.grundy.model.Misere`): :func:`solve_misere_native`.
    """
    if isinstance(graph, Misere):
        return solve_misere_native(graph.game, limits)
    everything = (1 << len(graph)) - 1
    tree = is_forest(graph)
    if len(graph) <= BITSET_VERTICES:
        return _by_kernel(graph, limits, reductions, tree)
    search = Search(graph, limits.deadline(), reductions)
    try:
        value = search.value(everything)
        options = search.option_values(everything)
    except LimitReached:
        raise LimitReached(search.stats(tree)) from None
    stats = search.stats(tree)
    return Claim.solved(value, witness(graph, value, options), stats=stats)


def _by_kernel(graph: Graph, limits: Limits, reductions: bool, tree: bool) -> Claim:
    """:func:`solve_native` on a graph of at most 62 vertices: the compiled search."""
    search = BitsetSearch(graph, limits.deadline(), reductions)
    everything = (1 << len(graph)) - 1

    def stats() -> dict[str, Any]:
        out = search.stats()
        out["k_set_bound"] = power_text(K_SET_BASE_TREES if tree else K_SET_BASE, len(graph))
        out["k_set_bound_of"] = "1.4423^n (trees)" if tree else "1.6031^n"
        return out

    try:
        value = search.value(everything)
        options = {v: search.value(everything & ~search.closed_of(v)) for v in range(len(graph))}
    except LimitReached:
        raise LimitReached(stats()) from None
    table = encode_k_set_table(*search.k_set_table())
    return Claim.solved(value, witness(graph, value, options), stats=stats(), certificate=table)


def solve_sequence(family: Family, limits: Limits = Limits()) -> Claim:
    """The Grundy values of the members ``first..upto`` of a family (answer: the list).

    Paths and cycles by Dawson's chess (the recursion, and the period it proves: the
    witness carries the certificate); other families by the component search, one
    table of components shared by all members (a member's pieces recur in the next);
    each member of at most 62 vertices with its table of K-set values (the certificate's
    ``tables``, by ``n``: :func:`~pyasp_games.domains.kayles.model.encode_k_set_table`).
    Under the misère rule (``family.misere``): :func:`solve_misere_sequence`.
    """
    if family.misere:
        return solve_misere_sequence(family, limits)
    deadline = limits.deadline()
    first, upto = family.first, family.upto
    found: dict[str, Any] = {"family": family.name, "first": first, "upto": upto}
    if family.kind in ("path", "cycle"):
        rule = path_value if family.kind == "path" else cycle_value
        terms = []
        for n in range(first, upto + 1):
            if n % 65536 == 0:
                deadline.check()
            terms.append(rule(n))
        found["period"] = period_certificate()
        return Claim.solved(terms, found)
    table = ComponentTable()
    terms, visited = [], 0
    tables: dict[str, Any] = {}  # member n -> its table of K-set values (the certificate)
    try:
        for n in range(first, upto + 1):
            member = family_graph(family, n)
            if len(member) <= BITSET_VERTICES:
                kern = BitsetSearch(member, deadline)
                terms.append(kern.value((1 << len(member)) - 1))
                visited += kern.visited
                tables[str(n)] = encode_k_set_table(*kern.k_set_table())
                continue
            search = Search(member, deadline, True, table)
            terms.append(search.value((1 << search.n) - 1))
            visited += search.counts["components_visited"]
    except LimitReached:
        raise LimitReached({"found_before_limit": terms, "components_visited": visited}) from None
    stats = {"components_visited": visited, "isomorphism_classes": len(table)}
    return Claim.solved(terms, found, stats=stats, certificate={"tables": tables} if tables else None)


# -- misère play (the player who moves last loses) ---------------------------------------

#: The most vertices ``--misere`` takes on a graph: misère outcomes of a sum do not follow
#: from its components', so the search visits the positions of the whole graph.
MISERE_VERTICES = 40


def misere_search(graph: Graph, deadline: Deadline | None = None) -> tuple[Any, list[int]]:
    """The misère outcomes of the positions of Node Kayles on ``graph`` (a position: the
    set of vertices still on the board, as a bit mask), and every vertex's closed
    neighbourhood (what a move there deletes)."""
    from pyasp_games.domains.grundy.misere import Outcomes
    from pyasp_games.errors import InputError

    if len(graph) > MISERE_VERTICES:
        raise InputError(f"{graph.name}: {len(graph)} vertices; misère Node Kayles is answered "
                         f"by direct search over the whole graph, up to {MISERE_VERTICES} vertices")  # fmt: skip
    closed = [1 << v for v in range(len(graph))]
    for u, v in graph.edges:
        closed[u] |= 1 << v
        closed[v] |= 1 << u

    def options(mask: int) -> set[int]:
        return {mask & ~closed[v] for v in set_bits(mask)}

    return Outcomes(options, misere=True, deadline=deadline), closed


def solve_misere_native(graph: Graph, limits: Limits = Limits()) -> Claim:
    """``kayles value --misere``: the misère outcome (``P``/``N``) of Node Kayles on
    ``graph`` and the class every move leaves, by direct search (memoised positions)."""
    search, closed = misere_search(graph, limits.deadline())
    everything = (1 << len(graph)) - 1
    cls = "N" if search.wins(everything) else "P"
    options = {v: "N" if search.wins(everything & ~closed[v]) else "P" for v in range(len(graph))}
    from pyasp_games.domains.kayles.model import misere_witness

    return Claim.solved(cls, misere_witness(graph, cls, options), stats={"positions": len(search.memo)})


def solve_misere_sequence(family: Family, limits: Limits = Limits()) -> Claim:
    """``kayles sequence FAMILY --misere``: the misère outcomes of the members. Paths by
    misère Dawson's chess (direct search over sums of paths), cycles from them (every move
    on ``C_n`` leaves ``P_(n-3)``), other families member by member over the graph."""
    from pyasp_games.domains.kayles.octal import MISERE_PATH_UPTO, misere_path_outcomes
    from pyasp_games.errors import InputError

    deadline = limits.deadline()
    first, upto = family.first, family.upto
    found: dict[str, Any] = {"family": family.name, "first": first, "upto": upto, "play": "misere"}
    if family.kind in ("path", "cycle"):
        top = upto if family.kind == "path" else upto - 3
        if top > MISERE_PATH_UPTO:
            raise InputError(f"--upto {upto}: misère {family.kind}s are answered by direct search "
                             f"over sums of paths, up to P_{MISERE_PATH_UPTO}")  # fmt: skip
        paths = misere_path_outcomes(max(top, 0), deadline)
        if family.kind == "path":
            return Claim.solved(paths[first:], found)
        return Claim.solved(["N" if paths[n - 3] == "P" else "P" for n in range(first, upto + 1)], found)
    terms: list[str] = []
    try:
        for n in range(first, upto + 1):
            member = family_graph(family, n)
            search, _ = misere_search(member, deadline)
            terms.append("N" if search.wins((1 << len(member)) - 1) else "P")
    except LimitReached:
        raise LimitReached({"found_before_limit": terms}) from None
    return Claim.solved(terms, found)
