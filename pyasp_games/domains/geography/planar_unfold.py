"""Planar Geography by unfolding the first moves: small planar games for small digraphs.

The drawing route (:mod:`~pyasp_games.domains.geography.planar`) refuses a game whose
every drawing tried has a crossing that one play uses twice. Such a conflict needs plays
that pass both arcs; after a few moves the part of the board a play can still use is
smaller and often drawable. So this route writes out the first moves as positions and
hands every position's remaining game to the drawing route:

- a *position* is the token's vertex and what is left of the board: the material
  (vertices, or arcs) not used up **and reachable** from the token (the rest can never
  matter again). In directed edge geography the unused 2-cycles are left out as well
  (:func:`~pyasp_games.domains.geography.planar.without_two_cycles`: the same winner
  from every position where both arcs are unused);
- positions whose remaining games are **isomorphic** (a bijection of their vertices that
  maps arcs to arcs and token to token: the same game tree, move for move) are one
  *class*, found by a colour refinement and confirmed by networkx's isomorphism test; the
  classes and their moves form a DAG (every move uses material up, so no class follows
  itself). A class's remaining game is redrawn once by the drawing route; where that
  succeeds, the class is a leaf (its planar game hangs from it), where it refuses, its
  moves are written out (undirected edge geography, which has no line digraph of this
  kind, to the end).

Then the DAG is written out in one of two ways, the smaller one:

- **as a tree** (a vertex per position reached, an arc per move, every leaf's planar game
  hung from its own copy): vertex geography on a tree plays exactly the game's moves;
- **shared, in rows**: the classes reached after ``d`` moves on row ``d`` (a class
  reached after different numbers of moves on each of those rows); a class appears on a
  row in as many *copies* as one position of the row above has moves into it (each move its own vertex, so no move is lost), every copy has the
  same moves, into the copies of the next row, so each path from the root is a play of
  the game and back. Arcs are straight between consecutive rows, so two arcs cross only
  between the same two rows, and **no play uses both**: a play passes each row once
  (depth grows by one per move). Every crossing is then safe and replaced by the drawing
  route's crossing gadget (the winner preserved, by its proof), each leaf's planar game
  hung from each copy of it. On a complete digraph all positions at one depth are one
  class, so K10 needs 7 classes and about 2,100 crossings where its tree would need
  hundreds of thousands of vertices; on irregular dense games the rows hold hundreds of
  classes and the crossings (quadratic in the arcs between two rows) outgrow the tree.

The result is planar (networkx's planarity test) and has the game's winner (a claim the
callers check by solving the result).

:func:`strategy_unfold` writes out the **winner's strategy** instead of the whole game
(:class:`StrategyPositions`: the game solved first, one winning move kept at a position won
for the mover, every move at a lost one; each position keeps its value), with the same
classes and the same two ways of writing: far smaller where the whole game is irregular
(edge geography on tournaments), but built from the search's values, so its callers
certify the winner on the game and on the result as well. Unlike the drawing and the QBF routes this is
**not polynomial**: the DAG has as many classes as the game has positions up to
isomorphism until its remaining games are drawable; :data:`MAX_VERTICES` bounds the
result and :data:`MAX_CLASSES` the DAG.

>>> from pyasp_games.domains.geography.model import parse_instance
>>> k5 = "".join(f"{u} {v}\\n" for u in range(5) for v in range(5) if u != v)
>>> u = unfold(parse_instance(k5, "0", "vertex"))
>>> u.unfolded > 0, u.planar, u.classes < u.unfolded + u.drawn + 2
(True, True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any

from pyasp_games.domains.geography.model import Geography
from pyasp_games.domains.geography.planar import (
    UnsafeCrossing,
    line_digraph,
    planarize,
    polled,
    with_gadgets,
)
from pyasp_games.engines.graphs import Digraph, from_arcs
from pyasp_games.engines.limits import Deadline
from pyasp_games.errors import InputError

#: The largest unfolded result (vertices: the tree and the games hung from it).
MAX_VERTICES = 300_000
#: The most classes of positions (isomorphic remaining games) the DAG may hold.
MAX_CLASSES = 200_000
#: Drawings tried per remaining game (fewer than the drawing route's own, and only the
#: crossings the dominators prove safe, no search of the plays: one more move unfolded is
#: cheap, and the games left shrink with every move).
ATTEMPTS = 1
#: Vertices a crossing gadget adds (its centre, two punishers, three per arc).
GADGET_VERTICES = 9

Piece = tuple[list[tuple[str, str]], str, int]  # a redrawn game: its arcs, its start, its crossings


@dataclass
class Unfolded:
    """The planar game and its parts.

    Attributes:
        graph: the planar digraph (vertex geography, start ``graph.headers["start"]``).
        unfolded: positions written out with their moves (tree vertices, or copies of a
            class in the shared drawing).
        drawn: positions whose remaining game the drawing route redrew (the leaves).
        crossings: crossing gadgets, all together (in the games hung from the leaves, and
            between rows in the shared drawing).
        planar: networkx's planarity test on the result.
        classes: classes of positions (remaining games up to isomorphism) in the DAG.
        shared: whether the DAG was drawn shared in rows (else written as a tree).
        row_crossings: crossing gadgets between rows (shared drawing).
    """

    graph: Digraph
    unfolded: int
    drawn: int
    crossings: int
    planar: bool
    classes: int = 0
    shared: bool = False
    row_crossings: int = 0


def _bits(x: int) -> Iterator[int]:
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low


class Positions:
    """The game's positions up to isomorphism, and their moves: a DAG of classes.

    ``classes[c]`` is a representative ``(vertex, left)`` (``left``: the bitset of the
    vertices, or arcs, not used and reachable); ``moves[c]`` the classes its moves lead
    to, one entry per move (a class twice if two moves lead to isomorphic games), or
    ``None`` for a leaf whose remaining game ``pieces[c]`` the drawing route redrew.
    ``key`` maps a remaining game to its class (``isomorphic=False``: the exact game, a
    vertex and a bitset), so a forged ``key`` merging games that differ is possible and
    the callers' check of the winner on the result catches it.

    >>> from pyasp_games.domains.geography.model import parse_instance
    >>> k6 = "".join(f"{u} {v}\\n" for u in range(6) for v in range(6) if u != v)
    >>> p = Positions(parse_instance(k6, "0", "vertex"))
    >>> len(p.classes), [len(m or []) for m in p.moves]   # one class per depth till K4
    (3, [5, 4, 0])
    """

    #: where the classes outgrow ``max_classes``, and what writes the result (the errors' words)
    too_many = "before the games left are drawable"
    writing = "unfolding the first moves"

    def __init__(self, game: Geography, deadline: Deadline | None = None, isomorphic: bool = True,
                 max_classes: int = MAX_CLASSES) -> None:
        self.game = game
        self.vertex = game.variant == "vertex"
        self.drawable = self.vertex or game.directed
        self.deadline = deadline
        self.isomorphic = isomorphic
        n = len(game.graph)
        moves = game.moves
        if self.vertex:
            self.out = [sum(1 << w for w, _ in moves[v]) for v in range(n)]
        else:
            self.out = [sum(1 << e for _, e in moves[v]) for v in range(n)]
        self.head: dict[int, dict[int, int]] = {v: {e: w for w, e in moves[v]} for v in range(n)}
        #: directed edge geography: each arc's reverse, where there is one (its 2-cycle)
        self.back: dict[int, int] = {}
        if not self.vertex and game.directed:
            arc = {(u, w): e for e, (u, w) in enumerate(game.edges)}
            self.back = {e: arc[(w, u)] for (u, w), e in arc.items() if (w, u) in arc and u != w}
        self.classes: list[tuple[int, int]] = []
        self.moves: list[list[int] | None] = []
        self.pieces: list[Piece | None] = []
        self._exact: dict[tuple[int, int], int] = {}
        self._buckets: dict[Hashable, list[tuple[int, object]]] = {}
        self.isomorphism_tests = 0
        s = game.start
        everything = ((1 << n) - 1) & ~(1 << s) if self.vertex else (1 << game.edge_count) - 1
        self.root = self.class_of(s, self.left(s, everything))
        todo = [self.root]
        while todo:
            c = todo.pop()
            if deadline is not None:
                deadline.check()
            for x in self._expand(c):
                if len(self.classes) > max_classes:
                    raise InputError(f"{game.graph.name}: more than {max_classes:,} positions up to "
                                     f"isomorphism {self.too_many}")
                todo.append(x)

    def left(self, v: int, avail: int) -> int:
        """The part of ``avail`` reachable from ``v`` (directed edge geography: after its
        unused 2-cycles are left out)."""
        out = self.out
        if self.vertex:
            seen, frontier = 0, out[v] & avail
            while frontier:
                seen |= frontier
                ahead = 0
                for x in _bits(frontier):
                    ahead |= out[x]
                frontier = ahead & avail & ~seen
            return seen
        for e in _bits(avail):
            b = self.back.get(e)
            if b is not None and (avail >> b) & 1:
                avail &= ~((1 << e) | (1 << b))
        visited, stack, arcs = {v}, [v], 0
        while stack:
            x = stack.pop()
            mine = out[x] & avail
            arcs |= mine
            for e in _bits(mine):
                w = self.head[x][e]
                if w not in visited:
                    visited.add(w)
                    stack.append(w)
        return arcs

    def remaining(self, v: int, avail: int) -> list[tuple[int, int]]:
        """The remaining game's arcs (vertex numbers of the game; the token on ``v``)."""
        if self.vertex:
            return [(x, w) for x in (v, *_bits(avail)) for w in _bits(self.out[x] & avail)]
        return [(x, self.head[x][e]) for x in range(len(self.out)) for e in _bits(self.out[x] & avail)]

    def key(self, v: int, avail: int) -> Hashable:
        """A colour refinement of the remaining game (equal for isomorphic games): the
        bucket in which an isomorphic class is looked for."""
        arcs = self.remaining(v, avail)
        nodes = {v} | {x for a in arcs for x in a}
        colour = {x: int(x == v) for x in nodes}
        succ: dict[int, list[int]] = {x: [] for x in nodes}
        pred: dict[int, list[int]] = {x: [] for x in nodes}
        for a, b in arcs:
            succ[a].append(b)
            pred[b].append(a)
        for _ in range(3):
            colour = {x: hash((colour[x], tuple(sorted(colour[y] for y in succ[x])),
                               tuple(sorted(colour[y] for y in pred[x])))) for x in nodes}
        return len(nodes), len(arcs), tuple(sorted(colour.values()))

    def class_of(self, v: int, avail: int) -> int:
        """The class of the position ``(v, avail)``, a new one if no known game is
        isomorphic to it."""
        exact = (v, avail)
        if exact in self._exact:
            return self._exact[exact]
        bucket = graph = None
        if self.isomorphic and self.drawable:  # (undirected edge games: their exact position)
            import networkx as nx

            bucket = self.key(v, avail)
            graph = nx.DiGraph(self.remaining(v, avail))
            graph.add_node(v)
            nx.set_node_attributes(graph, {x: x == v for x in graph}, "token")
            for c, other in self._buckets.get(bucket, []):
                self.isomorphism_tests += 1
                if nx.is_isomorphic(graph, other, node_match=lambda a, b: a["token"] == b["token"]):
                    self._exact[exact] = c
                    return c
        c = len(self.classes)
        self.classes.append(exact)
        self.moves.append(None)
        self.pieces.append(None)
        self._exact[exact] = c
        if bucket is not None:
            self._buckets.setdefault(bucket, []).append((c, graph))
        return c

    def _expand(self, c: int) -> list[int]:
        """Redraw class ``c``'s game, else write its moves; the classes new to the DAG."""
        v, avail = self.classes[c]
        if avail and self.drawable:  # (``avail`` is what the token can reach: empty, no move)
            self.pieces[c] = self._drawn(v, avail)
            if self.pieces[c] is not None:
                return []
        before = len(self.classes)
        if self.vertex:
            self.moves[c] = [self.class_of(w, self.left(w, avail & ~(1 << w)))
                             for w in _bits(self.out[v] & avail)]
        else:
            self.moves[c] = [self.class_of(self.head[v][e], self.left(self.head[v][e], avail & ~(1 << e)))
                             for e in _bits(self.out[v] & avail)]
        return list(range(before, len(self.classes)))

    def _drawn(self, v: int, avail: int) -> Piece | None:
        """The remaining game redrawn by the drawing route, or ``None`` where it refuses."""
        names = self.game.names
        kept = [(names[a], names[b]) for a, b in self.remaining(v, avail)]
        sub = from_arcs(kept, [names[v]], name=self.game.graph.name)
        if not self.vertex:
            sub = line_digraph(sub, names[v])  # (its 2-cycles are left out already)
        begin = sub.headers.get("start", names[v]) if not self.vertex else names[v]
        try:
            p = planarize(sub, begin, self.deadline, attempts=ATTEMPTS, exhaustive=False)
        except UnsafeCrossing:
            return None
        return [(p.graph.names[a], p.graph.names[b]) for a, b in p.graph.arcs()], begin, p.crossings

    def piece_size(self, c: int) -> int:
        """Vertices the leaf ``c``'s game adds besides its own (0 for an inner class)."""
        piece = self.pieces[c]
        if piece is None:
            return 0
        return len({x for arc in piece[0] for x in arc} - {piece[1]})

    def tree_size(self) -> int:
        """Vertices of the DAG written as a tree (with every leaf's game)."""
        size: dict[int, int] = {}
        for c in reversed(self.topological()):
            size[c] = 1 + self.piece_size(c) + sum(size[x] for x in self.moves[c] or [])
        return size[self.root]

    def topological(self) -> list[int]:
        """The classes, each before every class it moves to."""
        order, state = [], {}
        stack = [(self.root, False)]
        while stack:
            c, done = stack.pop()
            if done:
                order.append(c)
                continue
            if c in state:
                continue
            state[c] = True
            stack.append((c, True))
            stack.extend((x, False) for x in self.moves[c] or [] if x not in state)
        return order[::-1]


def unfold(game: Geography, deadline: Deadline | None = None, max_vertices: int = MAX_VERTICES,
           isomorphic: bool = True, share: bool | None = None,
           positions: Callable[..., Positions] = Positions) -> Unfolded:
    """The game as a planar vertex-geography digraph with the same winner (module docstring).

    ``share``: ``None`` writes the smaller of the tree and the shared drawing, ``True``
    and ``False`` force one. Raises
    :class:`~pyasp_games.errors.InputError` beyond ``max_vertices`` and
    :class:`~pyasp_games.engines.limits.LimitReached` at the deadline.
    """
    import networkx as nx

    dag = positions(game, deadline, isomorphic)
    tree = dag.tree_size()
    rows = None
    if share is not False:
        rows = _Rows(dag)
        if share is None and rows.size >= tree:
            rows = None
    size = rows.size if rows is not None else tree
    if size > max_vertices:
        raise InputError(f"{game.graph.name}: {dag.writing} writes more than {max_vertices:,} "
                         f"vertices ({size:,}, from {len(dag.classes):,} classes of positions)")
    if rows is not None:
        arcs, unfolded, drawn, crossings = rows.arcs(deadline)
    else:
        arcs, unfolded, drawn, crossings = _tree_arcs(dag)
    headers = {"source": f"{game.graph.headers.get('source', game.graph.name)} (unfolded, planar)",
               "start": "p", "variant": "vertex", "undirected": "no"}
    out = from_arcs(polled(arcs, deadline), ["p"], name=f"{game.graph.name}.planar", headers=headers)
    if deadline is not None:
        deadline.check()
    planar = bool(nx.check_planarity(out.to_networkx().to_undirected())[0])
    return Unfolded(out, unfolded, drawn, crossings, planar, len(dag.classes), rows is not None,
                    rows.crossing_count if rows is not None else 0)


def _hung(dag: Positions, c: int, here: str) -> list[tuple[str, str]]:
    """Leaf ``c``'s game with its vertices renamed after ``here`` (its start *is* ``here``)."""
    piece = dag.pieces[c]
    assert piece is not None
    sub_arcs, begin, _ = piece
    rename = {begin: here}
    for a, b in sub_arcs:
        for x in (a, b):
            if x not in rename:
                rename[x] = f"{here}.{x}"
    return [(rename[a], rename[b]) for a, b in sub_arcs]


def _tree_arcs(dag: Positions) -> tuple[list[tuple[str, str]], int, int, int]:
    """The DAG written as a tree: a vertex per position (named after its moves)."""
    arcs: list[tuple[str, str]] = []
    counts = [0, 0, 0]
    stack = [("p", dag.root)]
    while stack:
        here, c = stack.pop()
        if dag.pieces[c] is not None:
            arcs += _hung(dag, c, here)
            counts[1] += 1
            counts[2] += dag.pieces[c][2]
            continue
        counts[0] += 1
        for k, x in enumerate(dag.moves[c] or []):
            child = f"{here}.{k}"  # a leaf's game's vertices are named after its position too
            arcs.append((here, child))
            stack.append((child, x))
    return arcs, *counts


class _Rows:
    """The DAG drawn shared, in rows (module docstring): the copies, their order on each
    row, and the crossings between consecutive rows. A copy is ``(class, depth, k)``: a
    class reached after different numbers of moves has copies on each of those rows."""

    def __init__(self, dag: Positions) -> None:
        self.dag = dag
        # the rows ordered top down, each copy at the mean place of the copies moving into it
        Node = tuple[int, int, int]
        self.place: dict[Node, int] = {(dag.root, 0, 0): 0}
        self.rows: list[list[Node]] = [[(dag.root, 0, 0)]]
        self.between: list[list[tuple[Node, Node]]] = []
        while True:
            pairs = [(node, child) for node in self.rows[-1] for child in self.children(node)]
            if not pairs:
                break
            where: dict[Node, list[int]] = {}
            for node, child in pairs:
                where.setdefault(child, []).append(self.place[node])
            row = sorted(where, key=lambda x: (sum(where[x]) / len(where[x]), x))
            self.place.update((x, k) for k, x in enumerate(row))
            self.rows.append(row)
            self.between.append(pairs)
        self.crossing_count = sum(_inversions([(self.place[a], self.place[b]) for a, b in pairs])
                                  for pairs in self.between)
        nodes = sum(len(r) for r in self.rows)
        hung = sum(dag.piece_size(node[0]) for row in self.rows for node in row)
        self.size = nodes + hung + GADGET_VERTICES * self.crossing_count

    def children(self, node: tuple[int, int, int]) -> list[tuple[int, int, int]]:
        """The copies a copy moves to, on the next row: the k-th move into a class, its
        k-th copy there."""
        seen: dict[int, int] = {}
        out = []
        for x in self.dag.moves[node[0]] or []:
            out.append((x, node[1] + 1, seen.get(x, 0)))
            seen[x] = seen.get(x, 0) + 1
        return out

    def arcs(self, deadline: Deadline | None) -> tuple[list[tuple[str, str]], int, int, int]:
        """The arcs, with a crossing gadget at every crossing between rows and every leaf's
        game hung from each of its copies."""
        dag = self.dag
        name = {(dag.root, 0, 0): "p"}
        for d, row in enumerate(self.rows[1:], 1):
            name.update((x, f"p{d}.{k}") for k, x in enumerate(row))
        names = list(name.values())
        number = {x: k for k, x in enumerate(name)}
        arcs = [(number[a], number[b]) for pairs in self.between for a, b in pairs]
        along: list[list[tuple[int, int]]] = [[] for _ in arcs]
        crossings = 0
        first = 0
        for pairs in self.between:
            crossings = _crossings(pairs, self.place, first, crossings, along, deadline)
            first += len(pairs)
        assert crossings == self.crossing_count
        prefix = "X"  # every other name starts with "p"
        out = list(with_gadgets(names, arcs, along, prefix))
        unfolded = drawn = hung_crossings = 0
        for row in self.rows:
            for node in row:
                if dag.pieces[node[0]] is not None:
                    out += _hung(dag, node[0], name[node])
                    drawn += 1
                    hung_crossings += dag.pieces[node[0]][2]
                else:
                    unfolded += 1
        return out, unfolded, drawn, crossings + hung_crossings


def _inversions(pairs: list[tuple[int, int]]) -> int:
    """How many pairs of arcs between two rows cross: arcs ``(tail place, head place)``
    whose tails and heads are in strictly opposite orders (a Fenwick tree over the heads).

    >>> _inversions([(0, 1), (1, 0), (0, 0), (2, 2)])
    1
    """
    heads = sorted({h for _, h in pairs})
    rank = {h: k + 1 for k, h in enumerate(heads)}
    tree = [0] * (len(heads) + 1)
    count = inserted = 0
    ordered = sorted(pairs)
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and ordered[j][0] == ordered[i][0]:
            j += 1
        for _, h in ordered[i:j]:  # the arcs with an earlier tail and a later head
            k, below = rank[h], 0
            while k:
                below += tree[k]
                k -= k & -k
            count += inserted - below
        for _, h in ordered[i:j]:
            k = rank[h]
            while k <= len(heads):
                tree[k] += 1
                k += k & -k
            inserted += 1
        i = j
    return count


def _crossings(pairs: list[tuple[tuple[int, int], tuple[int, int]]], place: dict[tuple[int, int], int],
               first: int, crossings: int, along: list[list[tuple[int, int]]],
               deadline: Deadline | None) -> int:
    """The crossings between two rows: straight arcs from their tail's place on the upper
    row to their head's on the lower, each crossing numbered, and on each arc the
    crossings in order from its tail (``along``, as :func:`with_gadgets` reads it). The
    places are spread by random amounts so that no three arcs meet at one point (checked:
    two crossings at one point of an arc would leave their order open)."""
    rng = random.Random(len(pairs))
    for _attempt in range(10):
        x = {node: place[node] * 4096 + rng.randrange(1024) for node in place}
        found: list[list[tuple[Fraction, int, int]]] = [[] for _ in pairs]
        count = crossings
        for i, (a, b) in enumerate(pairs):
            if deadline is not None and i % 64 == 0:
                deadline.check()
            for j in range(i + 1, len(pairs)):
                c, d = pairs[j]
                if a == c or b == d or (x[a] - x[c]) * (x[b] - x[d]) > 0:
                    continue
                # where the two segments meet, as a fraction of each from its upper end
                t = Fraction(x[c] - x[a], (x[b] - x[a]) - (x[d] - x[c]))
                s = Fraction(x[a] - x[c], (x[d] - x[c]) - (x[b] - x[a]))
                found[i].append((t, count, 0))
                found[j].append((s, count, 1))
                count += 1
        if all(len({t for t, _, _ in f}) == len(f) for f in found):
            for i, f in enumerate(found):
                along[first + i] = [(k, role) for _, k, role in sorted(f)]
            return count
    raise RuntimeError("three arcs between two rows meet at one point in every spread tried")



class StrategyPositions(Positions):
    """The positions of the **winner's strategy** only, up to isomorphism: a DAG of classes
    where a position won for the player to move keeps **one** winning move and a position
    lost for the player to move keeps **every** move (no remaining game is redrawn: the
    strategy's own positions are fewer than a drawn game's vertices, measured).

    Every position keeps its value, whoever moves there (induction from the end: a lost
    position keeps all its moves, each into a position won for the opponent, kept won; a
    won position keeps a move into a position lost for the opponent, kept lost; a position
    without moves is lost in both games). So the start keeps its winner, and written out
    (as a tree, or shared in rows) the DAG is a planar vertex-geography game with the
    game's winner: the winner's proof played as a game, the loser's every option kept.
    Unlike :class:`Positions` it needs the values: a position's value comes from the
    native search (``search``, the game's own, filled or not), so the result is only as
    right as that search; the callers check the winner on the result, and the winner's
    strategy on the game (:func:`~pyasp_games.domains.geography.verify.check_strategy`).

    Of the winning moves the one leaving the opponent the fewest replies is kept (then the
    smaller game left): on a 10-vertex tournament's edge game 1,821 classes instead of
    38,344 for the first winning move in arc order.

    >>> from pyasp_games.domains.geography.model import parse_instance
    >>> won = parse_instance("s a\\ns b\\nb c\\n", "s", "vertex")  # s -> a wins, s -> b not
    >>> p = StrategyPositions(won)
    >>> [[won.names[p.classes[x][0]] for x in m] for m in p.moves]
    [['a'], []]
    >>> lost = parse_instance("s a\\ns b\\na c\\nb c\\n", "s", "vertex")  # every move loses
    >>> p = StrategyPositions(lost)   # both kept (one class: isomorphic games), then c
    >>> [[lost.names[p.classes[x][0]] for x in m] for m in p.moves]
    [['a', 'a'], ['c'], []]
    """

    too_many = "in the winner's strategy"
    writing = "the winner's strategy"

    def __init__(self, game: Geography, deadline: Deadline | None = None, isomorphic: bool = True,
                 max_classes: int = MAX_CLASSES, search: Any = None) -> None:
        from pyasp_games.domains.geography.native import make_search

        self.search = search if search is not None else make_search(game, deadline)
        super().__init__(game, deadline, isomorphic, max_classes)

    def options(self, v: int, avail: int) -> list[tuple[int, int]]:
        """The positions the moves of ``(v, avail)`` lead to (its reachable part kept)."""
        if self.vertex:
            return [(w, self.left(w, avail & ~(1 << w))) for w in _bits(self.out[v] & avail)]
        return [(self.head[v][e], self.left(self.head[v][e], avail & ~(1 << e)))
                for e in _bits(self.out[v] & avail)]

    def choose(self, v: int, avail: int, children: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """The moves kept at ``(v, avail)``: one winning move if the mover wins, else all."""
        wins = self.search.position_wins
        if not children or not wins(v, avail):
            return children
        winning = [ch for ch in children if not wins(*ch)]
        return [min(winning, key=lambda ch: (len(self.options(*ch)), ch[1].bit_count()))]

    def _expand(self, c: int) -> list[int]:
        v, avail = self.classes[c]
        before = len(self.classes)
        self.moves[c] = [self.class_of(w, rest) for w, rest in self.choose(v, avail, self.options(v, avail))]
        return list(range(before, len(self.classes)))


def strategy_unfold(game: Geography, deadline: Deadline | None = None, max_vertices: int = MAX_VERTICES,
                    isomorphic: bool = True, share: bool | None = None,
                    positions: Callable[..., Positions] = StrategyPositions) -> Unfolded:
    """The winner's strategy written out as a planar vertex-geography game with the game's
    winner (:class:`StrategyPositions`; as :func:`unfold` writes it: a tree, or rows).

    >>> from pyasp_games.domains.geography.model import parse_instance
    >>> t = "".join(f"{u} {v}\\n" for u in range(6) for v in range(u + 1, 6))  # transitive
    >>> s = strategy_unfold(parse_instance(t, "0", "edge"))
    >>> s.planar, len(s.graph), s.graph.arc_count   # 0 -> 5, and the sink 5 has no reply
    (True, 2, 1)
    """
    # no more classes than the result may have vertices (each class is written once at
    # least): the classes keep their graphs for the isomorphism tests, about 17 kB each
    bounded = partial(positions, max_classes=min(MAX_CLASSES, max_vertices))
    return unfold(game, deadline, max_vertices, isomorphic, share, bounded)
