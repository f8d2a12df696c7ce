"""Native Geography solver: depth-first game search with memoisation on bitsets.

A position is the token's vertex and the material still available as one Python
``int`` bitset (vertices in vertex geography, edges in edge geography), reduced
to the part the token can still reach: leftovers it can never reach cannot
matter, so positions that differ only there share one entry of the transposition
table (keyed on ``(vertex, available)``). ``wins`` is a negamax search. Move
ordering: a move after which the opponent has no move wins at once; the others
are tried in increasing order of the opponent's number of replies, then of the
size of the region left. The deadline is polled every few thousand positions.

>>> from pyasp_games.geography.model import parse_instance
>>> path3 = parse_instance("s a\\na b\\n", "s", "vertex")
>>> r = solve_game(path3)
>>> r.first_wins, r.move, r.line
(False, None, [0, 1, 2])
>>> star = parse_instance("s a\\ns b\\nb c\\n", "s", "vertex")
>>> r = solve_game(star)
>>> r.first_wins, star.names[r.move], [star.names[v] for v in r.line]
(True, 'a', ['s', 'a'])
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

from pyasp_games.engines.limits import Deadline, LimitReached, Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.geography.model import Geography

_POLL = 4096  # positions between deadline checks


@dataclass
class GameResult:
    """The value of the start position, a winning first move and a line of play."""

    first_wins: bool
    move: int | None
    line: list[int]
    stats: dict[str, int] = field(default_factory=dict)


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
        for v, ms in enumerate(game.moves):
            for w, e in ms:
                self.out[v] |= 1 << (w if self.vertex else e)
                self.head[v][e] = w

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


def solve_game(game: Geography, deadline: Deadline | None = None) -> GameResult:
    """Who wins from the start, a winning first move, and a line of play.

    The line follows a winning strategy for the winner at every turn; the loser
    replies with its move leaving the winner the most options (every reply loses).
    """
    search = _Search(game, deadline)
    s = game.start
    start = search.initial(s)
    limit = sys.getrecursionlimit()
    depth = (len(game) if search.vertex else game.edge_count) + 100
    sys.setrecursionlimit(max(limit, 4 * depth))
    try:
        first = search.wins(s, start)
        move = search.winning_move(s, start) if first else None
        line = [s]
        v, used = s, start
        while True:
            step = (
                search.winning_move(v, used)
                if search.wins(v, used)
                else search.longest_defence(v, used)
            )
            if step is None:
                break
            v, used = step
            line.append(v)
    finally:
        sys.setrecursionlimit(limit)
    stats = {"nodes": search.nodes, "positions": len(search.table)}
    return GameResult(first, None if move is None else move[0], line, stats)


class Player:
    """The solver's side in interactive play; its transposition table lasts the whole game.

    A position is ``(vertex, used)`` as in the search; :meth:`reply` is a winning
    move when the mover has one, else the reply leaving the opponent most options.
    """

    def __init__(self, game: Geography, deadline: Deadline | None = None) -> None:
        self.game = game
        self.search = _Search(game, deadline)
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 4 * (len(game) + game.edge_count + 100)))

    def start(self) -> tuple[int, int]:
        s = self.game.start
        return s, self.search.initial(s)

    def legal(self, v: int, used: int) -> dict[int, int]:
        """``{next vertex: used after}`` for every legal move from ``v``."""
        return dict(self.search.legal(v, used))

    def wins(self, v: int, used: int) -> bool:
        return self.search.wins(v, used)

    def reply(self, v: int, used: int) -> tuple[int, int] | None:
        if self.search.wins(v, used):
            return self.search.winning_move(v, used)
        return self.search.longest_defence(v, used)


def solve_native(game: Geography, limits: Limits = Limits(), line: bool = False) -> Outcome:
    """The ``native`` backend: answer ``first``/``second``, witness the winning first move."""
    result = solve_game(game, limits.deadline())
    stats: dict = dict(result.stats)
    if line:
        stats["line"] = [game.names[v] for v in result.line]
    witness = None if result.move is None else game.move_name(result.move)
    answer = "first" if result.first_wins else "second"
    return Outcome(game.name, "native", "solved", answer, witness, 0.0, stats)
