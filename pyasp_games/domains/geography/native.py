"""Native Geography solver: depth-first game search with memoisation on bitsets.

Who wins from the start, a winning first move and a line of play: :func:`solve_game`
(a :class:`GameResult`), behind the ``native`` backend :func:`solve_native`;
:func:`make_search` gives the search itself, for positions handed in from outside
(interactive play).

>>> from pyasp_games.domains.geography.model import parse_instance
>>> path3 = parse_instance("s a\\na b\\n", "s", "vertex")
>>> r = solve_game(path3)
>>> r.first_wins, r.move, r.line
(False, None, [0, 1, 2])
>>> star = parse_instance("s a\\ns b\\nb c\\n", "s", "vertex")
>>> r = solve_game(star)
>>> r.first_wins, star.names[r.move], [star.names[v] for v in r.line]
(True, 'a', ['s', 'a'])

Notes
-----
A position is the token's vertex and the material still available as one Python
``int`` bitset (vertices in vertex geography, edges in edge geography), reduced
to the part the token can still reach: leftovers it can never reach cannot
matter, so positions that differ only there share one entry of the transposition
table (keyed on ``(vertex, available)``). ``wins`` is a negamax search. Move
ordering: a move after which the opponent has no move wins at once; the others
are tried in increasing order of the opponent's number of replies, then of the
size of the region left. The deadline is polled every few thousand positions.

Edge geography (:class:`_EdgeSearch`) adds two value-preserving reductions, so its
table is keyed on a smaller canonical position:

- *retrograde classification*: in the graph of unused arcs, a vertex without
  moves is lost (L), a vertex with an arc to an L vertex is won (W), a vertex
  whose arcs all lead to W vertices is L, and so on to a fixpoint. A classified
  vertex keeps its value for the token standing there, whatever happens later,
  because its strategy only follows arcs into vertices classified *earlier*
  (strictly decreasing rank: no arc repeats, and the arc by which the token
  enters it is never one of them). A move from an unclassified vertex into a
  classified one is therefore a losing move (it can only reach W vertices), so
  every classified vertex and its arcs are dropped from the position. Kept
  incrementally: only the vertex just left loses an arc, so only when it becomes
  a sink does the classification have anything new to find.
- *2-cycles* (directed): arcs ``a -> b`` and ``b -> a`` both unused can be
  deleted together: the side winning without them answers the opponent's use of
  one with the other, back to the same position.

Positions handed in from outside (the start, interactive play) are reduced in
full first (O(V + E) bit operations); a child of a reduced position only drops
the arc just used (and is classified further when that arc was its tail's last).
Unlike the vertex search, children are not cut down to their reachable part:
on random graphs that merged few positions and cost more than it saved.

Vertex geography applies the same classification (over unused vertices, see
:meth:`_Search.classify`) to the positions handed in from outside only; its
search below them is the plain one.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any

from pyasp_games.domains.geography.model import Geography
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.graphs import set_bits
from pyasp_games.engines.limits import Deadline, LimitReached, Limits

_POLL = 4096  # positions between deadline checks
#: the largest winning strategy written as a certificate (proof-tree positions)
CERTIFICATE_NODES = 200_000
_CACHED_DEGREE = 10  # vertices up to this degree cache their move targets per arc subset


@dataclass
class GameResult:
    """The value of the start position, a winning first move and a line of play."""

    first_wins: bool
    move: int | None
    line: list[int]
    stats: dict[str, int] = field(default_factory=dict)
    #: the search, its table filled (a proof of the answer reads it again)
    search: Any = field(default=None, repr=False)


class _Search:
    """Negamax over ``(vertex, avail)``: ``avail`` is the bitset of the material (vertices
    or edges) still unused *and reachable* from the token. Material the token can no
    longer reach cannot matter, so dropping it merges transpositions (positions that
    differ only in unreachable leftovers share one table entry)."""

    def __init__(self, game: Geography, deadline: Deadline | None) -> None:
        self.vertex = game.variant == "vertex"
        self.moves = game.moves
        self.deadline = deadline
        self.table: dict[tuple[int, int], bool] = {}
        self.nodes = 0
        self.edge_count = game.edge_count
        n = len(game)
        #: vertex variant: successor bitsets; edge variant: bitsets of usable edges
        self.out = [0] * n
        #: edge variant: for vertex v and edge e, where e leads from v
        self.head: list[dict[int, int]] = [{} for _ in range(n)]
        #: vertex variant: predecessor bitsets (for the retrograde classification)
        self.pred = [0] * n
        for v, ms in enumerate(game.moves):
            for w, e in ms:
                self.out[v] |= 1 << (w if self.vertex else e)
                self.head[v][e] = w
                self.pred[w] |= 1 << v
        #: positions of real play already reduced (a line asks for value, then move)
        self.reduced: dict[tuple[int, int], Any] = {}

    def reach(self, v: int, avail: int) -> int:
        """The part of ``avail`` reachable from ``v`` (``v`` itself already spent)."""
        out = self.out
        if self.vertex:
            seen = 0
            frontier = out[v] & avail
            while frontier:
                seen |= frontier
                nxt = 0
                while frontier:
                    low = frontier & -frontier
                    nxt |= out[low.bit_length() - 1]
                    frontier ^= low
                frontier = nxt & avail & ~seen
            return seen
        seen = 0
        visited = {v}
        stack = [v]
        head = self.head
        while stack:
            u = stack.pop()
            es = out[u] & avail & ~seen
            seen |= es
            while es:
                low = es & -es
                x = head[u][low.bit_length() - 1]
                es ^= low
                if x not in visited:
                    visited.add(x)
                    stack.append(x)
        return seen

    def initial(self, s: int) -> int:
        if self.vertex:
            return self.reach(s, ((1 << len(self.out)) - 1) & ~(1 << s))
        return self.reach(s, (1 << self.edge_count) - 1)

    def legal(self, v: int, avail: int) -> list[tuple[int, int]]:
        """Moves ``(target, avail after)`` from ``v``."""
        out = []
        options = self.out[v] & avail
        while options:
            low = options & -options
            options ^= low
            i = low.bit_length() - 1
            w = i if self.vertex else self.head[v][i]
            out.append((w, self.reach(w, avail & ~low)))
        return out

    def mobility(self, v: int, avail: int) -> int:
        return (self.out[v] & avail).bit_count()

    def ordered(self, v: int, avail: int) -> list[tuple[int, int]]:
        """Legal moves, fewest replies for the opponent first (children not yet reduced)."""
        out, vertex, head = self.out, self.vertex, self.head[v]
        scored = []
        options = out[v] & avail
        while options:
            low = options & -options
            options ^= low
            i = low.bit_length() - 1
            w = i if vertex else head[i]
            rest = avail & ~low
            scored.append(((out[w] & rest).bit_count(), w, rest))
        scored.sort()
        return [(w, rest) for _, w, rest in scored]

    def wins(self, v: int, avail: int) -> bool:
        """Does the player to move at ``v`` (with ``avail`` left) win?"""
        if not self.out[v] & avail:
            return False
        key = (v, avail)
        known = self.table.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.deadline is not None and self.nodes % _POLL == 0 and self.deadline.expired():
            raise LimitReached({"nodes": self.nodes, "positions": len(self.table)})
        options = self.ordered(v, avail)
        out = self.out
        # a move after which the opponent cannot move wins at once
        result = not out[options[0][0]] & options[0][1]
        if not result:
            wins = self.wins
            result = any(not wins(w, after) for w, after in self.children(options))
        self.table[key] = result
        return result

    def children(self, options: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """Moves with each child reduced to its reachable part, in search order: fewest
        replies for the opponent first, then the smallest region left."""
        out, reach = self.out, self.reach
        children = [(w, reach(w, rest)) for w, rest in options]
        children.sort(key=lambda m: ((out[m[0]] & m[1]).bit_count(), m[1].bit_count()))
        return children

    def winning_move(self, v: int, avail: int) -> tuple[int, int] | None:
        for w, after in self.children(self.ordered(v, avail)):
            if not self.wins(w, after):
                return w, after
        return None

    def longest_defence(self, v: int, avail: int) -> tuple[int, int] | None:
        """A losing side's reply: the one after which the opponent has most options."""
        options = self.legal(v, avail)
        if not options:
            return None
        return max(options, key=lambda m: self.mobility(m[0], m[1]))

    # Positions as the players see them (every legal move still present) are first
    # reduced by the retrograde classification (see the module docstring), here for
    # vertex geography; the edge search overrides these with its own reductions.
    def classify(self, v: int, avail: int) -> tuple[bool | None, int, dict[int, bool]]:
        """Vertex geography: classify the available vertices from the dead ends.

        A vertex whose successors are all used loses for the player who must move on
        from it (L), one with an L successor wins (W), one whose successors are all W
        loses, to a fixpoint; a strategy goes to strictly lower ranks only, so it needs
        none of the vertices play among unclassified ones uses. Returns the token's
        value if decided, ``avail`` without the classified vertices (entering one from
        an unclassified vertex can only be a losing move), and the classes.
        O(V + E) bit operations, remembered per position.
        """
        known = self.reduced.get((v, avail))
        if known is not None:
            return known
        out, pred = self.out, self.pred
        label: dict[int, bool] = {}
        queue = []
        rest = avail
        while rest:
            low = rest & -rest
            rest ^= low
            x = low.bit_length() - 1
            if not out[x] & avail & ~low:
                label[x] = False
                queue.append(x)
        reduced = avail
        for x in queue:  # the queue grows while it is read
            reduced &= ~(1 << x)
            won = not label[x]  # every predecessor of an L vertex is W
            preds = pred[x] & reduced
            while preds:
                low = preds & -preds
                preds ^= low
                p = low.bit_length() - 1
                if p in label:
                    continue
                if won:
                    label[p] = True
                    queue.append(p)
                elif not out[p] & reduced & ~low:  # its last successor was W
                    label[p] = False
                    queue.append(p)
        successors = out[v] & avail
        status: bool | None = None
        if any(label.get(w) is False for w in set_bits(successors)):
            status = True
        elif not successors & reduced:  # no successor, or W ones only
            status = False
        result = (status, self.reach(v, reduced), label)
        self.reduced[v, avail] = result
        return result

    def position_wins(self, v: int, avail: int) -> bool:
        """Does the mover win at the position ``(v, avail)`` of real play?"""
        status, reduced, _ = self.classify(v, avail)
        return status if status is not None else self.wins(v, reduced)

    def position_winning_move(self, v: int, avail: int) -> tuple[int, int] | None:
        """A winning move ``(target, avail after)`` of real play, or ``None``: into an L
        vertex, or the reduced position's winning move (entering a W vertex only loses,
        so the reduced and the real position's children have equal values)."""
        status, reduced, label = self.classify(v, avail)
        if status is False:
            return None
        if status is True:
            w = next(w for w in set_bits(self.out[v] & avail) if label.get(w) is False)
        else:
            found = self.winning_move(v, reduced)
            if found is None:
                return None
            w = found[0]
        return w, self.reach(w, avail & ~(1 << w))


class _EdgeSearch(_Search):
    """Edge geography: the search of :class:`_Search` on canonical positions.

    A canonical ``(v, avail)`` has no 2-cycle and no vertex the retrograde
    classification can decide, except that the token's own vertex may be a sink
    (see the module docstring). :meth:`canonical` reduces any position in
    O(V + E) bit operations; :meth:`expand` reduces the children of a canonical
    position incrementally: removing the arc ``v -> u`` changes only ``v``'s
    moves, so unless ``v`` became a sink (then :meth:`settle` runs from ``v``,
    O(arcs it classifies)) the child is the same arcs less that one: O(1) big-int
    operations per child.
    """

    def __init__(self, game: Geography, deadline: Deadline | None) -> None:
        super().__init__(game, deadline)
        n = len(game)
        #: for vertex x, the arcs by which the token can enter x (undirected: its edges)
        self.inn = [0] * n
        #: for vertex x and arc e entering x, the vertex e leaves from
        self.tail: list[dict[int, int]] = [{} for _ in range(n)]
        for v, ms in enumerate(game.moves):
            for w, e in ms:
                self.inn[w] |= 1 << e
                self.tail[w][e] = v
        #: for vertex x, its moves' target vertices as a bitset per subset of its arcs
        #: (filled lazily; kept only for vertices of small degree, where it stays small)
        self.targets: list[dict[int, int] | None] = [
            {} if len(ms) <= _CACHED_DEGREE else None for ms in game.moves
        ]
        #: directed 2-cycles a -> b, b -> a as two-bit masks (the graph has no multi-arcs)
        self.pairs: list[int] = []
        if game.directed:
            arc = {(u, w): e for e, (u, w) in enumerate(game.edges)}
            for (u, w), e in arc.items():
                back = arc.get((w, u))
                if u < w and back is not None:
                    self.pairs.append((1 << e) | (1 << back))

    def reach(self, v: int, avail: int) -> int:
        """The arcs of ``avail`` reachable from ``v``: a search over vertex bitsets, with
        each vertex's move targets cached per subset of its arcs. O(vertices reached)."""
        out, targets, head = self.out, self.targets, self.head
        seen = 1 << v
        stack = [v]
        arcs = 0
        while stack:
            x = stack.pop()
            mine = out[x] & avail
            if not mine:
                continue
            arcs |= mine
            cache = targets[x]
            ahead = None if cache is None else cache.get(mine)
            if ahead is None:
                ahead, rest, hx = 0, mine, head[x]
                while rest:
                    low = rest & -rest
                    rest ^= low
                    ahead |= 1 << hx[low.bit_length() - 1]
                if cache is not None:
                    cache[mine] = ahead
            new = ahead & ~seen
            seen |= new
            while new:
                low = new & -new
                new ^= low
                stack.append(low.bit_length() - 1)
        return arcs

    def settle(self, avail: int, lost: list[int]) -> tuple[int, dict[int, bool]]:
        """Retrograde classification from the sinks ``lost``, to a fixpoint.

        Returns ``avail`` without the arcs of classified vertices and the classes
        (True: the mover standing there wins). O(arcs of classified vertices).
        """
        out, inn, tail = self.out, self.inn, self.tail
        label = dict.fromkeys(lost, False)
        queue = list(lost)
        for x in queue:  # the queue grows while it is read
            entering = inn[x] & avail
            avail &= ~(entering | out[x])
            won = not label[x]  # every predecessor of an L vertex is W
            tails = tail[x]
            while entering:
                low = entering & -entering
                entering ^= low
                p = tails[low.bit_length() - 1]
                if p in label:
                    continue
                if won:
                    label[p] = True
                    queue.append(p)
                elif not out[p] & avail:  # its last move led to a W vertex
                    label[p] = False
                    queue.append(p)
        return avail, label

    def canonical(self, v: int, avail: int) -> tuple[bool | None, int, int, dict[int, bool]]:
        """Reduce a position of real play: ``(value if classified, canonical avail, avail
        before classification, classes)``. O(V + E) bit operations, remembered (a line of
        play asks for the value and then the winning move of the same position)."""
        known = self.reduced.get((v, avail))
        if known is None:
            known = self.reduced[v, avail] = self._canonical(v, avail)
        return known

    def _canonical(self, v: int, avail: int) -> tuple[bool | None, int, int, dict[int, bool]]:
        avail = self.reach(v, avail)
        paired = avail
        for pair in self.pairs:
            if paired & pair == pair:
                paired ^= pair
        if paired != avail:
            avail = self.reach(v, paired)
        out, inn = self.out, self.inn
        sinks = [x for x in range(len(out)) if inn[x] & avail and not out[x] & avail]
        if not sinks:  # nothing to classify (the usual case after a few moves)
            return None, avail, avail, {}
        reduced, label = self.settle(avail, sinks)
        if v in label:
            return label[v], reduced, avail, label
        return None, self.reach(v, reduced), avail, label

    def initial(self, s: int) -> int:
        return self.reach(s, (1 << self.edge_count) - 1)

    def expand(self, v: int, avail: int) -> list[tuple[int, int, bool | None, int]]:
        """The moves of canonical ``(v, avail)``: ``(arc bit, target, value for the
        mover at the target if classified, canonical avail there)``."""
        out, inn, reach = self.out, self.inn, self.reach
        head = self.head[v]
        moves = []
        options = out[v] & avail
        while options:
            low = options & -options
            options ^= low
            u = head[low.bit_length() - 1]
            # Only the used arc is dropped: restricting every child to its reachable
            # part saved about 20% of the positions on random graphs (n = 40-100) but
            # made the search about 1.6x slower overall.
            rest = avail ^ low
            status = None
            if not out[v] & rest and inn[v] & rest:
                # v just became a sink the token may come back to: classify from it
                rest, label = self.settle(reach(u, rest), [v])
                status = label.get(u)
                if status is None:
                    rest = reach(u, rest)
            moves.append((low, u, status, rest))
        return moves

    def wins(self, v: int, avail: int) -> bool:
        """Does the mover win at canonical ``(v, avail)``?

        Exponential in the worst case (the game is PSPACE-complete); per new position
        O(out-degree) big-int operations plus the classification work of :meth:`expand`.
        """
        if not self.out[v] & avail:
            return False
        key = (v, avail)
        table = self.table
        known = table.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.deadline is not None and self.nodes % _POLL == 0 and self.deadline.expired():
            raise LimitReached({"nodes": self.nodes, "positions": len(table)})
        out = self.out
        open_moves = []
        for _, u, status, rest in self.expand(v, avail):
            if status is True:
                continue  # the opponent stands on a won vertex: a losing move
            replies = out[u] & rest
            if status is False or not replies or table.get((u, rest)) is False:
                table[key] = True  # the opponent is lost there: no search needed
                return True
            if table.get((u, rest)) is None:
                open_moves.append((replies.bit_count(), rest.bit_count(), u, rest))
        # fewest replies for the opponent first (then the smaller region, which
        # differs only after a classification)
        open_moves.sort()
        wins = self.wins
        result = any(not wins(u, rest) for _, _, u, rest in open_moves)
        table[key] = result
        return result

    def canonical_winning_arc(self, v: int, avail: int) -> tuple[int, int] | None:
        """A winning move of canonical ``(v, avail)`` as ``(arc bit, target)`` (children
        are looked up in, or added to, the table)."""
        for low, u, status, rest in self.expand(v, avail):
            if status is False or (status is None and not self.wins(u, rest)):
                return low, u
        return None

    def position_wins(self, v: int, avail: int) -> bool:
        """:meth:`canonical`, then :meth:`wins` unless the position is classified."""
        status, reduced, _, _ = self.canonical(v, avail)
        return status if status is not None else self.wins(v, reduced)

    def position_winning_move(self, v: int, avail: int) -> tuple[int, int] | None:
        """A winning move of real play: the canonical position's winning move (a real
        move, and winning there too, since every reduction keeps values), or for a
        classified W vertex its arc into an L vertex."""
        status, reduced, unclassified, label = self.canonical(v, avail)
        if status is False:
            return None
        if status is None:
            found = self.canonical_winning_arc(v, reduced)
            if found is None:
                return None
            low, u = found
        else:
            # v is W: an arc (not of a deleted 2-cycle) into an L vertex wins
            options = self.out[v] & unclassified
            head = self.head[v]
            while options:
                low = options & -options
                options ^= low
                u = head[low.bit_length() - 1]
                if label.get(u) is False:
                    break
            else:  # pragma: no cover - a W vertex has such an arc by construction
                raise AssertionError("classified W vertex without a move to an L vertex")
        return u, self.reach(u, avail & ~low)


def make_search(game: Geography, deadline: Deadline | None) -> _Search:
    """The search of ``game``'s variant (vertex or edge geography), its transposition
    table empty: positions are ``(vertex, used)``, handed in from outside through
    ``initial`` and ``legal`` (interactive play: :class:`~pyasp_games.domains.geography.play.Player`)."""
    return _Search(game, deadline) if game.variant == "vertex" else _EdgeSearch(game, deadline)


def solve_game(game: Geography, deadline: Deadline | None = None, line: bool = True) -> GameResult:
    """Who wins from the start, a winning first move, and (with ``line``) a line of play.

    The line follows a winning strategy for the winner at every turn; the loser
    replies with its move leaving the winner the most options (every reply loses).
    Without ``line`` the result's line is just ``[start]``: on large sink-rich
    graphs, where the search itself takes milliseconds, following a line (a few
    O(V + E) steps per move) would cost more than the answer.
    """
    search = make_search(game, deadline)
    s = game.start
    start = search.initial(s)
    limit = sys.getrecursionlimit()
    depth = (len(game) if search.vertex else game.edge_count) + 100
    sys.setrecursionlimit(max(limit, 4 * depth))
    try:
        first = search.position_wins(s, start)
        move = search.position_winning_move(s, start) if first else None
        played = [s]
        v, used = s, start
        while line:
            step = (
                search.position_winning_move(v, used)
                if search.position_wins(v, used)
                else search.longest_defence(v, used)
            )
            if step is None:
                break
            v, used = step
            played.append(v)
    finally:
        sys.setrecursionlimit(limit)
    stats = {"nodes": search.nodes, "positions": len(search.table)}
    return GameResult(first, None if move is None else move[0], played, stats, search)


def strategy_proof(
    game: Geography, deadline: Deadline | None = None, max_nodes: int = CERTIFICATE_NODES,
    search: _Search | None = None,
) -> dict[str, Any] | None:
    """The winner's strategy as a proof DAG, or ``None`` beyond ``max_nodes`` positions
    (or at the deadline).

    A node is a position where the winner is to move: ``{"move": vertex, "replies":
    {reply: node, ...}}``, the winner's move and, for every legal reply of the loser
    after it, the node of the position it leads to (``{}``: the loser has no move, the
    winner has won). The first player wins: ``{"root": node, "nodes": [...]}``; the
    second: ``{"replies": {first move: node, ...}, "nodes": [...]}``. Moves are named by
    the vertex the token goes to (an arc in edge geography: from the token's vertex to
    that one). Positions that differ only in material the token can no longer reach share
    a node (the search's own reduction), so the proof is a DAG: the checker
    (:func:`~pyasp_games.domains.geography.verify.check_strategy`) walks it with the real
    positions and never trusts a value of the search.

    >>> from pyasp_games.domains.geography.model import parse_instance
    >>> strategy_proof(parse_instance("s a\\na b\\ns b\\n", "s", "vertex"))
    {'root': 0, 'nodes': [{'move': 'b', 'replies': {}}]}
    >>> strategy_proof(parse_instance("s a\\na b\\n", "s", "vertex"))
    {'replies': {'a': 0}, 'nodes': [{'move': 'b', 'replies': {}}]}
    """
    if search is None:
        search = make_search(game, deadline)
    names = game.names
    s = game.start
    start = search.initial(s)
    limit = sys.getrecursionlimit()
    depth = (len(game) if search.vertex else game.edge_count) + 100
    sys.setrecursionlimit(max(limit, 4 * depth))
    nodes: list[dict[str, Any]] = []
    index: dict[tuple[int, int], int] = {}
    work: list[tuple[int, int, int]] = []

    def node(v: int, avail: int) -> int:
        known = index.get((v, avail))
        if known is None:
            known = index[v, avail] = len(nodes)
            nodes.append({})
            work.append((known, v, avail))
        return known

    try:
        if search.position_wins(s, start):
            proof: dict[str, Any] = {"root": node(s, start)}
        else:
            proof = {"replies": {names[r]: node(r, rest) for r, rest in search.legal(s, start)}}
        while work:
            if len(nodes) > max_nodes or (deadline is not None and deadline.expired()):
                return None
            k, v, avail = work.pop()
            step = search.position_winning_move(v, avail)
            if step is None:  # pragma: no cover - a won position has a winning move
                raise AssertionError("a position of the proof has no winning move")
            w, after = step
            nodes[k] = {"move": names[w],
                        "replies": {names[r]: node(r, rest) for r, rest in search.legal(w, after)}}
    except LimitReached:
        return None
    finally:
        sys.setrecursionlimit(limit)
    proof["nodes"] = nodes
    return proof


def solve_native(
    game: Geography, limits: Limits = Limits(), line: bool = False, proof: bool = True
) -> Claim:
    """The ``native`` backend: answer ``first``/``second``, witness the winning first move,
    certificate the winner's strategy (:func:`strategy_proof`; none beyond
    :data:`CERTIFICATE_NODES` positions, or with ``proof=False``)."""
    deadline = limits.deadline()
    result = solve_game(game, deadline, line=line)
    stats: dict = dict(result.stats)
    if line:
        stats["line"] = [game.names[v] for v in result.line]
    witness = None if result.move is None else game.move_name(result.move)
    answer = "first" if result.first_wins else "second"
    certificate = strategy_proof(game, deadline, search=result.search) if proof else None
    if certificate is not None:
        stats["proof_nodes"] = len(certificate["nodes"])
    return Claim.solved(answer, witness, stats=stats, certificate=certificate)
