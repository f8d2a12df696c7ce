"""The challenged game: Geography as vertex geography in which every illegal move is
challenged at once, drawn as a two-page book whose every crossing is proved safe (issue 43).

:func:`challenged` turns a Geography game G (vertex geography, or edge geography: directed,
after :func:`~pyasp_games.domains.geography.planar.without_two_cycles`, or undirected)
into a vertex-geography game P0 of polynomial size with the same winner, and draws it as
a book (a spine order and a page per arc) in which two arcs cross only where no play uses
both: the crossing gadget of :mod:`~pyasp_games.domains.geography.planar` then makes it
planar with the winner kept. :func:`challenged_strategy` turns the winner's strategy on G
into the winner's strategy on P0, so the winner of P0 can be *checked on the result*:
its proof is G's strategy plus a short refutation of every deviation.

**The construction.** G is cut to the part a play can use (the vertices reachable from
the start; in vertex geography no loop and no arc into the start); its vertices are
numbered ``0..n-1`` and written in ``k = max(1, ceil(log2 n))`` bits (a code ``c >= n``
names no vertex). A play of G is ``w_0 = s, w_1, w_2, ...``; the *material* of move
``t`` is ``x_t = w_t`` (vertex geography; ``x_0 = s`` is used) or the arc (edge)
``w_{t-1} -> w_t``; move ``t`` is legal iff ``w_{t-1} -> w_t`` is an arc and ``x_t``
differs from every earlier material. ``L`` bounds the number of moves of any play
(vertex: the vertices less one; edge: the sum over ``v`` of ``min(out(v), in(v) +
[v = s])``, at most the number of arcs). Layer ``t = 1..L`` has mover ``M_t`` (the first
player for odd ``t``) and other player ``O_t``:

- *the chain*: ``k`` diamonds ``d(t,j) -> S(t,j,b) -> d(t,j+1)``: ``M_t`` picks every side,
  passing ``S(t,j,b)`` sets bit ``j`` of ``w_t`` to ``b``; ``B_t = d(t,k+1) -> B'_t``
  (forced); at ``B'_t`` the player ``O_t`` *passes*, ``B'_t -> U_t -> T_{t+1}`` (``T_t =
  d(t,1)``; ``T_{L+1}`` has no move), or *challenges* move ``t``;
- *claims*: ``D(c,t) -> S(t,j,c_j)`` for every bit ``j``: whoever is to move at ``D(c,t)``
  wins iff ``w_t != c`` (he enters a side not passed and the other, there, can only go to
  the used ``d(t,j+1)``; if ``w_t = c`` every such side is used). So *entering*
  ``D(c,t)`` asserts ``w_t = c``; entering ``F(c,t) -> D(c,t)`` asserts ``w_t != c``.
  Layer 0 is static: ``D(s,0)`` is a dead end, ``D(c,0) -> Z(c)`` (a dead end) otherwise;
- *the challenger's choice*: the entries of the challenges below (every ``N(u,t)`` and
  ``R(a,t)``), taken in the reverse of their spine order ``e_1, e_2, ...``, are reached by
  a walk: ``B'_t -> H(e_1,t) -> E(e_1,t)``, and at ``E(e_i,t)`` the challenger enters
  ``e_i`` or walks on, ``E(e_i,t) -> H(e_{i+1},t) -> E(e_{i+1},t)`` (``H`` forced, so the
  challenger keeps the choice; the last ``E`` only enters). Who moves into an entry is as
  if ``B'_t`` entered it directly; each entry's ``E`` and ``H`` stand next to it on the
  spine, so that the walk's arcs are short;
- *challenge (a), not a move*: the challenger enters ``N(u,t)`` (asserts ``w_{t-1} = u``);
  the refuter denies it, ``N(u,t) -> G1(u,t) -> G2(u,t) -> F(u,t-1)`` (a two-step forward
  keeps who moves; every arc into layer ``t - 1``'s claims goes through it), or shows the
  move: ``N(u,t) -> D(v,t)`` for an out-neighbour ``v`` of ``u`` (he asserts ``w_t = v``);
- *challenge (b), material used before*: the challenger enters ``R(a,t)``, one for every
  arc ``a = u -> w`` (vertex geography: every vertex ``m``): he asserts that move ``t`` was ``a``
  and its material was used before. The refuter denies the move or concedes. The denial
  is shared with the walk's (below): ``R(a,t) -> X(a,t) -> Q(a,t)`` (a forward), and at
  ``Q(a,t)`` (the brief's ``R'``) the refuter asserts ``w_{t-1} != u`` (``-> G1(u,t)``) or
  ``w_t != w`` (``-> F(w,t)``; vertex: ``-> F(m,t)``). The concession is
  ``R(a,t) -> Y(m,t) -> J(m,t) -> K(m,t-1)`` (a forward into the walk's one arc per
  material between layers ``t`` and ``t - 1``); on the *walk* ``K(m,r)`` the challenger
  names layer ``r``, ``K(m,r) -> Q(a',r)`` (an arc ``a'`` of material ``m``), where the
  refuter must deny ``x_r = m``, or walks on, ``K(m,r) -> J(m,r) -> K(m,r-1)`` (``J`` is
  the brief's ``K2``: forced). The walk stops at layer 1 (edge geography) or, for the
  start vertex, at layer 0, where ``Q(s,0)`` is a dead end for the refuter (the start is
  used at move 0); a challenge (b) that no walk can support (nothing used before) does
  not exist.

**Why the winner is kept.** The winner W of G plays its strategy's (legal) moves; as
``O_t`` it challenges every illegal move of the loser with true assertions (it knows the
whole history: ``N(w_{t-1},t)``, then ``D(w_t,t)`` is not among the refuter's options,
or ``R(a,t)`` and the walk to a layer where ``a``'s material was used), and passes legal
ones. Every false challenge of the loser against a legal move is refuted by a true
denial (a bit that differs, the out-neighbour ``w_t`` itself, or, at the layer the walk
names, a differing tail or head), and every claim is settled within a few moves, never
returning to the chain (a play holds at most one dispute). A play without challenges is
a legal play of G consistent with W's strategy, so the loser runs out of legal moves at
some layer ``t <= L``: every code he picks is illegal and challenged, or he stands at
``T_{L+1}``. Size: ``O(L (n k + |items|))`` vertices, polynomial.

**The drawing.** The spine holds layer 0's block, then per layer the chain (``d(t,1),
S(t,1,0), S(t,1,1), d(t,2), ...``, ``B_t``), ``B'_t``, the layer's block and ``U_t``. The
block (the groups of :data:`BLOCK_ORDER`) is the ``D``'s, the ``G2``'s, the ``N``'s, then
the *material runs*, grouped by head: per vertex ``w``, ``F(w)`` and then, for each
material whose arcs have head ``w`` (vertex geography: the material ``w``), one run
``Q, X, Y, J, K, R`` (:data:`MATERIAL_ORDER`; an undirected edge's two arcs have two
heads: its run comes after every group), so that the arcs of a dispute about one material
are short; each ``G1(u)`` stands just before the first run with an item of tail ``u``
(those of no run before the runs). Each entry ``N``, ``R`` is followed by its ``E`` and
``H``, and the challenger's walk runs right to left, against the denials' arcs (which
leave to the left): an arc crossing the walk's arc over its tail leaves an entry the walk
has passed, so neither reaches the other. The runs' order alternates by layer, so that
the material walk's arcs between two layers nest; the ``D``'s are in the reverse order of
the ``F``'s, and ``G2``'s in the reverse order of the layer below's ``F``'s, so that ``F
-> D`` and ``G2 -> F`` nest. ``F(w) -> D(w)`` and ``G1(u) -> G2(u)`` pass over runs whose
material walks cannot reach them (a walk into ``K(t,m)`` reaches ``F(t,w)`` or
``G1(t,u)`` only if an item of ``m`` has head ``w`` or tail ``u``, and those runs are
further on). Page 2 holds each diamond's two long chords (they cross once: *safe*, a play
passes one side only, and a side entered later from a claim leads only to a used top),
the pass chords ``B'_t -> U_t`` and the challenger's walks (``B'_t -> H(e_1,t)`` nested
inside the pass chord); page 1 the claims' arcs into the chain and the arcs between
layers; every other arc (within one layer's block) goes on the page where it crosses
fewer arcs already placed, longest first, never where a crossing is not proved safe.
Two challenge arcs are used by one play only if both are on its one dispute, a path in
the DAG of challenge arcs, so a crossing is *safe* when neither arc's head reaches the
other's tail in that DAG (:meth:`Challenged.safe`, reachability bitsets); the block
order keeps every dispute path from crossing itself, and :func:`challenged` refuses a
drawing with a crossing it cannot prove safe. The crossings are counted (a sweep along
the spine): about 3-5 per arc on the tournaments of 8 and 10 vertices
(``benchmarks/RESULTS.md``), still quadratic per layer in the number of materials ``M``:
within a block the walk's arcs leaving the ``J``'s cross those entering the ``K``'s of
the runs before them, and the forwards ``G2 -> F`` and the arcs into and out of the
``G1``'s cross the walks of the runs they pass over.

>>> from pyasp_games.domains.geography.model import parse_instance
>>> from pyasp_games.domains.geography.native import solve_game, strategy_proof
>>> g = parse_instance("s a\\na b\\nb s\\n", "s", "edge")   # the first player wins
>>> ch = challenged(g)
>>> ch.layers, ch.code_bits, len(ch.game), ch.crossing_count > 0
(3, 2, 150, True)
>>> solve_game(g).first_wins, solve_game(ch.game).first_wins
(True, True)
>>> play = challenged_strategy(ch, "first", strategy_proof(ch.base))
>>> ch.game.names[play([ch.book.start])]
'L1.s1.1'
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pyasp_games.domains.geography.book import BookDrawing, Strategy
from pyasp_games.domains.geography.model import Geography, make_instance
from pyasp_games.domains.geography.planar import without_two_cycles
from pyasp_games.engines.graphs import Digraph, from_arcs, reachable_from
from pyasp_games.engines.limits import Deadline
from pyasp_games.errors import InputError

#: The order of the groups of a layer's challenge vertices along the spine (``M``: the
#: material runs grouped by head, with the ``F``'s and the ``G1``'s among them).
BLOCK_ORDER = ("D", "G2", "N", "M")
#: The order of one material's run (group ``M``): its item's ``Q``, ``X``, its ``Y``,
#: ``J``, ``K`` and the item's ``R`` (last: its ``E`` and ``H`` follow it, and the
#: challenger's walk passes the run in one arc), so that every arc among them is short.
MATERIAL_ORDER = "QXYJKR"
#: The largest P0 built (vertices).
MAX_VERTICES = 2_000_000


class UnsafeDrawing(Exception):
    """The drawing has a crossing that :meth:`Challenged.safe` cannot prove safe (a bug)."""


@dataclass
class Challenged:
    """P0, its book drawing and the pieces its proofs and strategy use.

    Attributes:
        base: the game P0 is built from (G cut to its usable part; directed edge
            geography without its 2-cycles): a winner's certificate is of this game.
        book: the book drawing of P0 (vertex numbers as in ``game``; start kept).
        game: P0 as vertex geography.
        layers: ``L``, the bound on the number of moves.
        code_bits: ``k``.
        crossing_count: the drawing's crossings (all proved safe).
        crossing_pairs: the crossings, pairs of arc numbers ``(i, j)``, ``i < j``.
        info: per vertex of P0, its kind and indices (``("d", t, j)``, ``("s", t, j, b)``,
            ``("c", t)`` for ``B'_t``, ``("u", t)``, ``("D", t, c)``, ``("F", t, c)``,
            ``("Z", 0, c)``, ``("N", t, u)``, ``("G1", t, u)``, ``("G2", t, u)``,
            ``("R", t, item)``, ``("X", t, item)``, ``("Q", t, item)`` for ``R'``,
            ``("Y", t, m)``, ``("J", t, m)`` for ``K2``, ``("K", t, m)``; on the
            challenger's walk ``("E", t, entry)`` and ``("H", t, entry)``, ``entry`` the
            key of an ``N`` or ``R``).
    """

    base: Geography
    book: BookDrawing
    game: Geography
    layers: int
    code_bits: int
    crossing_count: int
    crossing_pairs: list[tuple[int, int]]
    info: list[tuple]
    vertex_variant: bool
    #: arcs of the base as code pairs, and each arc's (or vertex's) material
    arc_material: dict[tuple[int, int], int]
    #: items of challenge (b): arcs (u, w) (edge) or vertices (vertex geography)
    items: list[Any]
    lookup: dict[tuple, int] = field(repr=False, default_factory=dict)
    #: per layer, the entry whose ``H`` the walk of the challenger's choice starts at
    chain_start: dict[int, tuple] = field(repr=False, default_factory=dict)
    _diamonds: set[frozenset[int]] = field(repr=False, default_factory=set)
    _challenge: list[bool] = field(repr=False, default_factory=list)
    _reach: list[int] = field(repr=False, default_factory=list)

    def safe(self, i: int, j: int) -> bool:
        """Whether the construction proves that no play uses both arcs ``i`` and ``j``:
        the two long chords of one diamond (a play passes one side only; a side entered
        later from a claim leads only to its used top), or two challenge arcs neither of
        whose heads reaches the other's tail in the DAG of challenge arcs (a play holds
        at most one dispute, a path of that DAG). ``False`` is "not proved".

        Parameters
        ----------
        i, j : int
            Arc numbers of :attr:`book`.

        Returns
        -------
        bool
            Proved safe.

        Examples
        --------
        >>> from pyasp_games.domains.geography.model import parse_instance
        >>> ch = challenged(parse_instance("s a\\na s\\n", "s", "vertex"))
        >>> all(ch.safe(i, j) for i, j in ch.crossing_pairs)
        True
        """
        if frozenset((i, j)) in self._diamonds:
            return True
        if not (self._challenge[i] and self._challenge[j]):
            return False
        (a, b), (c, d) = self.book.arcs[i], self.book.arcs[j]
        reach = self._reach
        return not (reach[b] >> c) & 1 and not (reach[d] >> a) & 1

    @property
    def sizes(self) -> dict[str, int]:
        """Vertices, arcs, layers, code bits and crossings, for reports."""
        return {"vertices": len(self.book.names), "arcs": len(self.book.arcs), "layers": self.layers,
                "code_bits": self.code_bits, "crossings": self.crossing_count}


def _base_game(game: Geography) -> Geography:
    """G cut to what a play can use: the vertices reachable from the start; in vertex
    geography no loop and no arc into the start; directed edge geography without its
    2-cycles (the same winner: :func:`~pyasp_games.domains.geography.planar.without_two_cycles`)."""
    graph = game.graph
    if game.variant == "edge" and game.directed:
        graph = without_two_cycles(graph)
    s = game.start
    undirected = not game.directed
    adj: list[set[int]] = [set() for _ in graph.names]
    for u, v in graph.arcs():
        adj[u].add(v)
        if undirected:
            adj[v].add(u)
    seen = reachable_from(adj, s)
    names = graph.names
    vertices = [names[v] for v in sorted(seen)]
    if game.variant == "vertex":
        # vertex geography on an undirected graph is the symmetric digraph's game
        arcs = [(names[u], names[v]) for u in sorted(seen) for v in sorted(adj[u]) if v != u and v != s]
        undirected = False
    else:
        arcs = [(names[u], names[v]) for u, v in graph.arcs() if u in seen]
    return make_instance(from_arcs(arcs, vertices, name=graph.name), names[s], game.variant, undirected)


def challenged(game: Geography, deadline: Deadline | None = None) -> Challenged:
    """P0 for ``game`` (vertex or edge geography), drawn as a book with every crossing
    proved safe (module docstring).

    Parameters
    ----------
    game : Geography
        The game G.
    deadline : Deadline or None, optional
        Polled while building (:class:`~pyasp_games.engines.limits.LimitReached`).

    Returns
    -------
    Challenged
        P0 (``.game``), its drawing (``.book``), ``.safe``, the sizes.

    Raises
    ------
    InputError
        P0 would have more than :data:`MAX_VERTICES` vertices.
    UnsafeDrawing
        A crossing not proved safe (a bug of the drawing, never expected).

    Examples
    --------
    >>> from pyasp_games.domains.geography.model import parse_instance
    >>> ch = challenged(parse_instance("s a\\ns b\\na b\\n", "s", "vertex"))
    >>> ch.layers, ch.code_bits, ch.game.names[ch.game.start]
    (2, 2, 'L1.d1')
    """
    base = _base_game(game)
    vertex = base.variant == "vertex"
    n = len(base)
    s = base.start
    k = max(1, math.ceil(math.log2(n))) if n > 1 else 1
    # arcs of the base (code pairs) and the material of each move along one
    arc_material: dict[tuple[int, int], int] = {}
    for u, ms in enumerate(base.moves):
        for w, e in ms:
            arc_material[u, w] = w if vertex else e
    if vertex:
        layers = n - 1
        items: list[Any] = list(range(n))
        material_count = n
    else:
        out = [len(ms) for ms in base.moves]
        into = [0] * n
        for ms in base.moves:
            for w, _ in ms:
                into[w] += 1
        layers = min(base.edge_count, sum(min(out[v], into[v] + (v == s)) for v in range(n)))
        items = sorted(arc_material, key=lambda a: (arc_material[a], a))
        material_count = base.edge_count

    def item_material(item: Any) -> int:
        return item if vertex else arc_material[item]

    def lowest(m: int) -> int:
        """The lowest layer whose material the walk for ``m`` can name."""
        return 0 if vertex and m == s else 1

    per_layer = 3 * k + 3 + 7 * n + 6 * len(items) + 2 * material_count
    if (layers + 1) * per_layer > MAX_VERTICES:
        raise InputError(f"the challenged game would have about {(layers + 1) * per_layer:,} vertices "
                         f"(limit {MAX_VERTICES:,})")

    names: list[str] = []
    info: list[tuple] = []
    lookup: dict[tuple, int] = {}
    entries: dict[int, list[tuple]] = {}  # per layer, the challenges' entries in spine order

    def add(key: tuple, name: str) -> None:
        lookup[key] = len(names)
        names.append(name)
        info.append(key)
        if key[0] in ("N", "R"):  # an entry of a challenge: the chooser's step, then a forced one
            entries.setdefault(key[1], []).append(key)
            add(("E", key[1], key), f"{name}.e")
            add(("H", key[1], key), f"{name}.h")

    def item_name(item: Any) -> str:
        return str(item) if vertex else f"{item[0]}-{item[1]}"

    # -- vertices, created in spine order -------------------------------------------------
    vs = range(n)
    by_material = sorted(range(material_count), reverse=True)
    def head(item: Any) -> int:
        """The vertex whose ``F`` denies an item's head (vertex geography: the vertex)."""
        return item if vertex else item[1]

    def tail(item: Any) -> int:
        """The vertex whose ``G1`` denies an item's tail (vertex geography: the vertex)."""
        return item if vertex else item[0]

    items_of: list[list[Any]] = [[] for _ in range(material_count)]
    for item in items:
        items_of[item_material(item)].append(item)
    # the materials grouped by their arcs' head (the F their denials enter), those of two
    # heads (an undirected edge) after every group
    heads_of = [{head(item) for item in items_of[m]} for m in range(material_count)]
    by_head: list[tuple[int | None, list[int]]] = [
        (w, [m for m in by_material if heads_of[m] == {w}]) for w in reversed(vs)]
    by_head.append((None, [m for m in by_material if len(heads_of[m]) > 1]))
    for c in vs:  # layer 0: static claims
        add(("D", 0, c), f"L0.D{c}")
        if c != s:
            add(("Z", 0, c), f"L0.Z{c}")
    for c in reversed(vs):
        add(("F", 0, c), f"L0.F{c}")
    if vertex and layers >= 1:
        add(("Q", 0, s), f"L0.Q{s}")
        add(("K", 0, s), f"L0.K{s}")
    for t in range(1, layers + 1):
        if deadline is not None:
            deadline.check()
        for j in range(1, k + 1):
            add(("d", t, j), f"L{t}.d{j}")
            add(("s", t, j, 0), f"L{t}.s{j}.0")
            add(("s", t, j, 1), f"L{t}.s{j}.1")
        add(("d", t, k + 1), f"L{t}.d{k + 1}")
        add(("c", t), f"L{t}.c")
        _block(t, layers, n, items_of, by_material, by_head, lowest, tail, item_name, add)
        add(("u", t), f"L{t}.u")
    add(("d", layers + 1, 1), f"L{layers + 1}.d1")

    # -- arcs: a fixed page for the chain and the arcs between layers, else chosen --------
    V = lookup.__getitem__
    arcs: list[tuple[int, int]] = []
    page: list[int] = []
    challenge: list[bool] = []
    diamonds: set[frozenset[int]] = set()

    def arc(a: tuple, b: tuple, on: int = 0, disputed: bool = True) -> int:
        arcs.append((V(a), V(b)))
        page.append(on)
        challenge.append(disputed)
        return len(arcs) - 1

    for c in vs:
        if c != s:
            arc(("D", 0, c), ("Z", 0, c))
        arc(("F", 0, c), ("D", 0, c))
    if vertex and layers >= 1:
        arc(("K", 0, s), ("Q", 0, s))
    for t in range(1, layers + 1):
        if deadline is not None:
            deadline.check()
        for j in range(1, k + 1):
            arc(("d", t, j), ("s", t, j, 0), 1, False)
            one = arc(("d", t, j), ("s", t, j, 1), 2, False)
            zero = arc(("s", t, j, 0), ("d", t, j + 1), 2, False)
            arc(("s", t, j, 1), ("d", t, j + 1), 1, False)
            diamonds.add(frozenset((one, zero)))
        arc(("d", t, k + 1), ("c", t), 1, False)
        arc(("c", t), ("u", t), 2, False)
        arc(("u", t), ("d", t + 1, 1), 1, False)
        # the challenger's choice: a walk along the spine, right to left, from B'_t
        chain = [key for key in reversed(entries[t])]
        arc(("c", t), ("H", t, chain[0]), 2)
        for i, key in enumerate(chain):
            arc(("H", t, key), ("E", t, key), 2)
            arc(("E", t, key), key, 2)
            if i + 1 < len(chain):
                arc(("E", t, key), ("H", t, chain[i + 1]), 2)
        for c in vs:
            for j in range(1, k + 1):
                arc(("D", t, c), ("s", t, j, (c >> (j - 1)) & 1), 1)
            arc(("F", t, c), ("D", t, c))
        for u in vs:
            arc(("N", t, u), ("G1", t, u))
            arc(("G1", t, u), ("G2", t, u))
            arc(("G2", t, u), ("F", t - 1, u), 1)
            for w, _ in base.moves[u]:
                arc(("N", t, u), ("D", t, w))
        for item in items:
            if ("R", t, item) in lookup:
                arc(("R", t, item), ("X", t, item))
                arc(("X", t, item), ("Q", t, item))
                arc(("R", t, item), ("Y", t, item_material(item)))
            if vertex:
                arc(("Q", t, item), ("F", t, item))
            else:
                arc(("Q", t, item), ("G1", t, item[0]))
                arc(("Q", t, item), ("F", t, item[1]))
        for m in range(material_count):
            if ("J", t, m) in lookup:
                arc(("Y", t, m), ("J", t, m))
                arc(("J", t, m), ("K", t - 1, m), 1)
            if ("K", t, m) in lookup:
                if ("J", t, m) in lookup:
                    arc(("K", t, m), ("J", t, m))
                for item in items_of[m]:
                    arc(("K", t, m), ("Q", t, item))
    start = V(("d", 1, 1))
    order = list(range(len(names)))  # vertices were created in spine order
    reach = _reach_sets(len(names), arcs, challenge, deadline)
    diamonds_ = diamonds
    _choose_pages(order, arcs, page, info, lambda i, j: _proved(i, j, arcs, challenge, reach, diamonds_),
                  deadline)
    succ: list[list[int]] = [[] for _ in names]
    for a, b in arcs:
        succ[a].append(b)
    graph = Digraph(tuple(names), tuple(map(tuple, succ)), f"{base.name}.challenged",
                    {"start": names[start], "variant": "vertex"})
    p0 = make_instance(graph, names[start], "vertex")
    book = BookDrawing(names, arcs, order, page, start)
    ch = Challenged(base, book, p0, layers, k, 0, [], info, vertex, arc_material, items, lookup,
                    {t: keys[-1] for t, keys in entries.items()}, diamonds, challenge, reach)
    pairs = _crossings(order, arcs, page, deadline)
    for i, j in pairs:
        if not ch.safe(i, j):
            (a, b), (c, d) = arcs[i], arcs[j]
            raise UnsafeDrawing(f"the arcs {names[a]} -> {names[b]} and {names[c]} -> {names[d]} "
                                "cross and are not proved never both used")
    ch.crossing_pairs = pairs
    ch.crossing_count = len(pairs)
    return ch


def _runs(t: int, by_head: list[tuple[int | None, list[int]]]) -> list[tuple[int | None, list[int]]]:
    """Layer ``t``'s material runs grouped by head, in spine order: ``by_head`` for odd
    ``t``, reversed for even ``t`` (the materials of two heads last), so that the walk's
    arcs between two layers nest."""
    if t % 2:
        return by_head
    return [(w, ms[::-1]) for w, ms in reversed(by_head[:-1])] + [(None, by_head[-1][1][::-1])]


def _f_order(t: int, n: int, by_head: list[tuple[int | None, list[int]]]) -> list[int]:
    """The spine order of layer ``t``'s ``F``'s: the order of their groups of runs (the
    ``F``'s of no group after them); layer 0's (and a block with its ``F``'s apart)
    descending."""
    if t == 0 or "F" in BLOCK_ORDER:
        return list(reversed(range(n)))
    order = [w for w, _ in _runs(t, by_head) if w is not None]
    return order + [c for c in range(n) if c not in order]


def _block(t: int, layers: int, n: int, items_of: list[list[Any]], by_material: list[int],
           by_head: list[tuple[int | None, list[int]]], lowest: Callable[[int], int],
           tail: Callable[[Any], int], item_name: Callable[[Any], str],
           add: Callable[[tuple, str], None]) -> None:
    """Layer ``t``'s challenge vertices, in spine order (module docstring): the groups of
    :data:`BLOCK_ORDER`, each in an order that nests the arcs between groups (an arc
    bundle between two groups crosses itself least when one group is in the reverse
    order of the other)."""
    walked_set = {m for m in by_material if t - 1 >= lowest(m)}  # materials with a walk below t
    f_order = _f_order(t, n, by_head)
    for group in BLOCK_ORDER:
        if group == "D":  # the reverse of the F's: F -> D nested
            for c in reversed(f_order):
                add(("D", t, c), f"L{t}.D{c}")
        elif group == "G2":  # the reverse of layer t - 1's F's: G2 -> F nested
            for u in reversed(_f_order(t - 1, n, by_head)):
                add(("G2", t, u), f"L{t}.G{u}b")
        elif group == "F":  # (then no F among the runs)
            for c in f_order:
                add(("F", t, c), f"L{t}.F{c}")
        elif group == "N":
            for u in range(n):
                add(("N", t, u), f"L{t}.N{u}")
        elif group == "M":  # per vertex w: F(w), then one run per material of head w
            # (vertex geography: the material w), each G1(u) just before the first run
            # with an item of tail u; a run's arcs are short
            placed = set(range(n)) - {tail(item) for _, ms in by_head for m in ms for item in items_of[m]}
            for u in sorted(placed):  # the G1's no run's denial enters
                add(("G1", t, u), f"L{t}.G{u}a")
            for w, ms in _runs(t, by_head):
                if w is not None and "F" not in BLOCK_ORDER:
                    add(("F", t, w), f"L{t}.F{w}")
                for m in ms:
                    for item in items_of[m]:
                        if tail(item) not in placed:
                            placed.add(tail(item))
                            add(("G1", t, tail(item)), f"L{t}.G{tail(item)}a")
                    walks = m in walked_set
                    for part in MATERIAL_ORDER:
                        if part == "R" and walks:
                            for item in items_of[m]:
                                add(("R", t, item), f"L{t}.R{item_name(item)}")
                        elif part == "X" and walks:
                            for item in items_of[m]:
                                add(("X", t, item), f"L{t}.X{item_name(item)}")
                        elif part == "Y" and walks:
                            add(("Y", t, m), f"L{t}.Y{m}")
                        elif part == "Q":
                            for item in items_of[m]:
                                add(("Q", t, item), f"L{t}.Q{item_name(item)}")
                        elif part == "J" and walks:
                            add(("J", t, m), f"L{t}.J{m}")
                        elif part == "K" and t < layers:
                            add(("K", t, m), f"L{t}.K{m}")


def _proved(i: int, j: int, arcs: Sequence[tuple[int, int]], challenge: Sequence[bool],
            reach: Sequence[int], diamonds: set[frozenset[int]]) -> bool:
    """:meth:`Challenged.safe` before the object exists."""
    if frozenset((i, j)) in diamonds:
        return True
    if not (challenge[i] and challenge[j]):
        return False
    (a, b), (c, d) = arcs[i], arcs[j]
    return not (reach[b] >> c) & 1 and not (reach[d] >> a) & 1


def _choose_pages(order: Sequence[int], arcs: Sequence[tuple[int, int]], page: list[int],
                  info: Sequence[tuple], safe: Callable[[int, int], bool],
                  deadline: Deadline | None) -> None:
    """Put every arc without a page (``0``) on the page where it crosses fewer arcs already
    placed, never where a crossing is not proved safe; layer by layer (an arc whose page
    is chosen has both ends in one layer's block), longest first."""
    import numpy as np

    position = np.empty(len(order), dtype=np.int64)
    position[np.asarray(order, dtype=np.int64)] = np.arange(len(order))
    ends = np.sort(position[np.asarray(arcs, dtype=np.int64).reshape(-1, 2)], axis=1)
    layer = np.array([info[a][1] for a, _ in arcs])
    pages = np.asarray(page)
    for t in np.unique(layer[pages == 0]):
        if deadline is not None:
            deadline.check()
        free = np.flatnonzero((pages == 0) & (layer == t))
        lo, hi = ends[free, 0].min(), ends[free, 1].max()
        # the placed arcs with an end inside the block's span (the others cannot cross)
        near = np.flatnonzero((pages != 0) & (((ends[:, 0] > lo) & (ends[:, 0] < hi))
                                              | ((ends[:, 1] > lo) & (ends[:, 1] < hi))))
        placed = {1: list(near[pages[near] == 1]), 2: list(near[pages[near] == 2])}
        free = free[np.argsort(ends[free, 0] - ends[free, 1], kind="stable")]
        for i in free:
            left, right = ends[i]
            options = []
            for side in (1, 2):
                others = np.asarray(placed[side], dtype=np.int64)
                a, b = ends[others, 0], ends[others, 1]
                crossing = others[((a < left) & (left < b) & (b < right))
                                  | ((left < a) & (a < right) & (right < b))]
                if all(safe(int(i), int(j)) for j in crossing):
                    options.append((len(crossing), side))
            side = min(options)[1] if options else 1
            pages[i] = side
            placed[side].append(i)
    page[:] = pages.tolist()


def _reach_sets(n: int, arcs: Sequence[tuple[int, int]], challenge: Sequence[bool],
                deadline: Deadline | None) -> list[int]:
    """Per vertex, the bitset of the vertices it reaches by challenge arcs (itself
    included): the DAG of disputes, each vertex after its successors."""
    succ: list[list[int]] = [[] for _ in range(n)]
    for (a, b), disputed in zip(arcs, challenge, strict=True):
        if disputed:
            succ[a].append(b)
    reach = [0] * n
    done = [False] * n
    for root in range(n):
        if done[root]:
            continue
        stack = [(root, 0)]
        while stack:
            v, i = stack.pop()
            if i < len(succ[v]):
                stack.append((v, i + 1))
                w = succ[v][i]
                if not done[w]:
                    stack.append((w, 0))
                continue
            if done[v]:
                continue
            bits = 1 << v
            for w in succ[v]:
                bits |= reach[w]
            reach[v] = bits
            done[v] = True
        if deadline is not None and root % 4096 == 0:
            deadline.check()
    return reach


def _crossings(order: Sequence[int], arcs: Sequence[tuple[int, int]], page: Sequence[int],
               deadline: Deadline | None = None) -> list[tuple[int, int]]:
    """The pairs of arcs (``i < j``) on one page whose ends interleave strictly along the
    spine: a sweep over the spine keeping the open arcs sorted by their right end."""
    position = [0] * len(order)
    for p, v in enumerate(order):
        position[v] = p
    pairs: list[tuple[int, int]] = []
    for side in (1, 2):
        starting: dict[int, list[tuple[int, int]]] = {}
        for i, (a, b) in enumerate(arcs):
            if page[i] != side:
                continue
            lo, hi = sorted((position[a], position[b]))
            if hi - lo > 1:  # an arc between neighbours crosses nothing
                starting.setdefault(lo, []).append((hi, i))
        open_: list[tuple[int, int]] = []  # (right end, arc) of arcs begun before, sorted
        for p in sorted(starting):
            if deadline is not None:
                deadline.check()
            cut = bisect.bisect_right(open_, (p, len(arcs)))
            del open_[:cut]  # arcs ending at or before p
            for hi, j in starting[p]:
                # an arc begun earlier and ending strictly inside (p, hi) interleaves
                for _, i in open_[: bisect.bisect_left(open_, (hi, -1))]:
                    pairs.append((min(i, j), max(i, j)))
            for item in starting[p]:
                bisect.insort(open_, item)
    return pairs


# -- the winner's strategy on P0 ------------------------------------------------------------


def _g_player(base: Geography, winner: str, g_strategy: Any) -> Callable[[Sequence[int]], int]:
    """The winner's move in the base game after a play (vertex numbers, start first):
    from a proof DAG (:func:`~pyasp_games.domains.geography.native.strategy_proof`) or
    a function of the play."""
    if callable(g_strategy):
        return g_strategy
    if not isinstance(g_strategy, dict) or not isinstance(g_strategy.get("nodes"), list):
        raise InputError("the game's strategy is neither a proof DAG nor a function")
    nodes = g_strategy["nodes"]
    names, index = base.names, base.graph.index
    memo: dict[tuple[int, ...], Any] = {}

    def node_after(play: tuple[int, ...]) -> Any:
        """The proof node where the winner moves after ``play`` (its own turn)."""
        if play in memo:
            return memo[play]
        if len(play) <= 2:
            node = (nodes[g_strategy["root"]] if winner == "first" else
                    nodes[g_strategy["replies"][names[play[1]]]])
        else:
            node = nodes[node_after(play[:-2])["replies"][names[play[-1]]]]
        memo[play] = node
        return node

    def move(play: Sequence[int]) -> int:
        return index[node_after(tuple(play))["move"]]

    return move


def challenged_strategy(ch: Challenged, winner: str, g_strategy: Any) -> Strategy:
    """The winner's strategy on P0 from the winner's strategy on the base game G.

    Parameters
    ----------
    ch : Challenged
        The challenged game.
    winner : {"first", "second"}
        G's winner (who owns ``g_strategy``).
    g_strategy : dict or callable
        A proof DAG of ``ch.base`` (:func:`~pyasp_games.domains.geography.native.strategy_proof`,
        the format of :func:`~pyasp_games.domains.geography.verify.check_strategy`), or a
        function from a play of ``ch.base`` (vertex numbers, start first, the winner to
        move) to the winner's next vertex.

    Returns
    -------
    Strategy
        From a play of P0 (vertex numbers, start first, the winner to move at its last
        vertex) to the winner's next vertex: G's moves written bit by bit, every illegal
        move of the loser challenged with true assertions, every false challenge refuted,
        legal moves passed (module docstring).

    Examples
    --------
    >>> from pyasp_games.domains.geography.model import parse_instance
    >>> from pyasp_games.domains.geography.native import strategy_proof
    >>> ch = challenged(parse_instance("s a\\na b\\n", "s", "vertex"))
    >>> play = challenged_strategy(ch, "second", strategy_proof(ch.base))
    >>> p = [ch.book.start]   # the first player sets w_1 = 0 = s: no move
    >>> for name in ["L1.s1.0", "L1.d2", "L1.s2.0", "L1.d3", "L1.c"]:
    ...     p.append(ch.game.graph.index[name])
    >>> p.append(play(p))   # challenged: the walk of the challenger's choice starts
    >>> while ch.game.names[p[-1]].endswith(".h"):   # the loser steps on, the winner chooses
    ...     p += [ch.game.graph.succ[p[-1]][0]]
    ...     p += [play(p)]
    >>> ch.game.names[p[-1]]   # "w_0 = 0, and 0 -> 0 is no arc"
    'L1.N0'
    """
    if winner not in ("first", "second"):
        raise InputError(f"winner must be first or second, got {winner!r}")
    g_move = _g_player(ch.base, winner, g_strategy)
    info, V, k, vertex = ch.info, ch.lookup, ch.code_bits, ch.vertex_variant
    base = ch.base
    n, s = len(base), base.start
    arc_material = ch.arc_material
    succ = ch.game.graph.succ

    def codes(play: Sequence[int]) -> list[int]:
        """``w_0, w_1, ...``: the codes the chain's sides spell (the last one partial)."""
        w = [s]
        for prev, v in itertools.pairwise(play):
            kind = info[v]
            if kind[0] == "s" and info[prev][0] == "d":
                _, t, j, b = kind
                if t >= len(w):
                    w.append(0)
                w[t] |= b << (j - 1)
        return w

    def material(w: list[int], r: int) -> int | None:
        """``x_r``, or ``None`` for a move that is no arc."""
        if r == 0:
            return s
        return arc_material.get((w[r - 1], w[r]))

    def claim_true(item: Any, w: list[int], r: int) -> Any:
        """The refuter's true denial of "move ``r`` was ``item``", or ``None``."""
        if vertex:
            return ("F", r, item) if w[r] != item else None
        u, x = item
        if w[r - 1] != u:
            return ("G1", r, u)
        return ("F", r, x) if w[r] != x else None

    def challenge(w: list[int], t: int) -> tuple | None:
        """The entry of the true challenge of move ``t`` (``None``: a legal move)."""
        u, x = w[t - 1], w[t]
        m = material(w, t)
        if x >= n or m is None:
            return ("N", t, u)
        if m in {material(w, r) for r in range(0 if vertex else 1, t)}:
            return ("R", t, x if vertex else (u, x))
        return None

    def move(play: Sequence[int]) -> int:
        v = play[-1]
        kind = info[v]
        if len(succ[v]) == 1:  # forced
            return succ[v][0]
        what, t = kind[0], kind[1]
        w = codes(play)
        if what == "d":  # the winner's own move t, bit j
            if len(w) <= t:
                w.append(0)
            target = g_move(w[:t])
            return V[("s", t, kind[2], (target >> (kind[2] - 1)) & 1)]
        if what in ("c", "E"):  # the loser's move t: challenge it (walk to its entry) or pass
            target = challenge(w, t)
            if what == "c":
                return V[("u", t)] if target is None else V[("H", t, ch.chain_start[t])]
            if kind[2] == target:
                return V[target]
            return next(x for x in succ[v] if x != V[kind[2]])  # walk on
        if what == "N":  # a challenge "not a move": deny w_{t-1} = u, or show the move
            u = kind[2]
            if w[t - 1] != u:
                return V[("G1", t, u)]
            return V[("D", t, w[t])]
        if what == "D":  # w_t != c: a side the chain did not pass
            c = kind[2]
            for j in range(1, k + 1):
                if (w[t] >> (j - 1)) & 1 != (c >> (j - 1)) & 1:
                    return V[("s", t, j, (c >> (j - 1)) & 1)]
            return succ[v][0]  # pragma: no cover - the winner never asserts a false claim
        if what in ("R", "Q"):  # deny "move t was this item" (R: or concede)
            item = kind[2]
            denial = claim_true(item, w, t) if t > 0 else None
            if what == "Q" or denial is None:
                return V[denial] if what == "Q" else V[("Y", t, item if vertex else arc_material[item])]
            return V[("X", t, item)]
        if what == "K":  # the walk: name layer t if its material is m
            m = kind[2]
            if material(w, t) == m:
                if t == 0:
                    return V[("Q", 0, s)]
                return V[("Q", t, w[t] if vertex else (w[t - 1], w[t]))]
            return V[("J", t, m)]
        return succ[v][0]  # pragma: no cover - no other vertex has a choice for the winner

    return move


def planar_challenged(game: Geography, deadline: Deadline | None = None,
                      max_vertices: int = 6_000_000) -> tuple[Challenged, Any]:
    """The challenged game of ``game`` and its planar form: the book's gadgets at every
    crossing (:func:`~pyasp_games.domains.geography.book.planar_game`), each crossing
    proved safe by :meth:`Challenged.safe`.

    Raises
    ------
    InputError
        The planar form would have more than ``max_vertices`` vertices (about 9 a crossing).
    """
    from pyasp_games.domains.geography.book import planar_game

    ch = challenged(game, deadline)
    expected = len(ch.book.names) + 9 * ch.crossing_count
    if expected > max_vertices:
        raise InputError(f"{game.name}: the challenged game's planar form would have about "
                         f"{expected:,} vertices ({ch.crossing_count:,} crossings), beyond "
                         f"{max_vertices:,}")
    return ch, planar_game(ch.book, ch.safe, deadline)


def certified_on_result(name: str, ch: Challenged, built: Any, deadline: Deadline | None = None,
                        budget: int = 500_000_000) -> dict[str, str]:
    """The challenged game's winner certified on the planar result ``built``: the base
    game solved natively, its strategy checked there by
    :func:`~pyasp_games.domains.geography.verify.check_strategy`, carried over
    (:func:`challenged_strategy`, then through the gadgets by
    :func:`~pyasp_games.domains.geography.book.lift`) and walked on the result over every
    reply of the loser by
    :func:`~pyasp_games.domains.geography.verify.check_strategy_function` (only the
    strategy's moves are trusted). Returns ``{"result": ..., "game": ...}``, each
    ``"first: ..."``/``"second: ..."`` or ``"not certified: ..."`` (beyond ``budget``
    positions); a refusal is a bug and raises."""
    from pyasp_games.domains.geography.book import lift
    from pyasp_games.domains.geography.native import solve_game, strategy_proof
    from pyasp_games.domains.geography.verify import check_strategy, check_strategy_function
    from pyasp_games.errors import Unconfirmed

    base = ch.base
    solved = solve_game(base, deadline, line=False)
    answer = "first" if solved.first_wins else "second"
    proof = strategy_proof(base, deadline, search=solved.search)
    if proof is None:
        return {"result": "not certified: the game's strategy is beyond the certificate's size"}
    ok, message = check_strategy(base, answer, None if solved.move is None else base.move_name(solved.move),
                                 proof)
    if not ok:
        raise RuntimeError(f"{name}: the game's strategy is refused: {message}")
    strategy = lift(built, challenged_strategy(ch, answer, proof))
    try:
        ok, said = check_strategy_function(built.game, answer, strategy, budget=budget, deadline=deadline)
    except Unconfirmed as beyond:
        return {"result": f"not certified: {beyond}", "game": f"{answer}: {message}"}
    if not ok:
        raise RuntimeError(f"{name}: the challenged game's strategy is refused: {said}")
    return {"result": f"{answer}: {said}", "game": f"{answer}: {message}"}
