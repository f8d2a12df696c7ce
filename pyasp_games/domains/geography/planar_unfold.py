"""Planar Geography by unfolding the first moves: small planar games for small digraphs.

The drawing route (:mod:`~pyasp_games.domains.geography.planar`) refuses a game whose
every drawing tried has a crossing that one play uses twice. Such a conflict needs plays
that pass both arcs; after a few moves the part of the board a play can still use is
smaller and often drawable. So this route writes out the first moves as a tree of
positions and hands every position's remaining game to the drawing route:

- a *position* is the token's vertex and what is used up; the tree has a vertex per
  position reached, an arc per move (to the child position). Vertex geography on a tree
  plays exactly the game's moves (a path down the tree never meets a vertex twice, and
  a child is legal exactly when the move is);
- at every position, the game left (vertex geography: the vertices not used, the token
  on its vertex; directed edge geography: the line digraph of the arcs not used,
  :func:`~pyasp_games.domains.geography.planar.line_digraph`, its 2-cycles left out:
  :func:`~pyasp_games.domains.geography.planar.without_two_cycles`) is redrawn by the
  drawing route; where it succeeds, that planar game hangs from the position's tree vertex (its
  start *is* the tree vertex: the same winner from there, proved by the drawing route),
  and where it refuses, the position is unfolded one move further (in directed edge
  geography not along an arc of an unused 2-cycle, as above). Undirected edge geography
  is unfolded to the end (its game tree).

The result is planar (a tree with planar games glued on at single vertices) and has the
game's winner. Unlike the drawing and the QBF routes this is **not polynomial**: the
tree can have as many vertices as the game has positions in its first moves (for the
complete digraph on 10 vertices, tens of thousands); :data:`MAX_VERTICES` bounds it.
Remaining games met twice (the same vertex and the same unused part, reached by moves
in another order) are redrawn once.

>>> from pyasp_games.domains.geography.model import parse_instance
>>> k5 = "".join(f"{u} {v}\\n" for u in range(5) for v in range(5) if u != v)
>>> u = unfold(parse_instance(k5, "0", "vertex"))
>>> u.unfolded > 0, u.planar, len(u.graph) < 200
(True, True, True)
"""

from __future__ import annotations

from dataclasses import dataclass

from pyasp_games.domains.geography.model import Geography
from pyasp_games.domains.geography.planar import (
    UnsafeCrossing,
    line_digraph,
    planarize,
    polled,
    without_two_cycles,
)
from pyasp_games.engines.graphs import Digraph, from_arcs
from pyasp_games.engines.limits import Deadline
from pyasp_games.errors import InputError

#: The largest unfolded result (vertices: the tree and the games hung from it).
MAX_VERTICES = 300_000
#: Drawings tried per remaining game (fewer than the drawing route's own, and only the
#: crossings the dominators prove safe, no search of the plays: one more move unfolded is
#: cheap, and the games left shrink with every move).
ATTEMPTS = 4


@dataclass
class Unfolded:
    """The planar game and its parts.

    Attributes:
        graph: the planar digraph (vertex geography, start ``graph.headers["start"]``).
        unfolded: positions written out as tree vertices (the first moves).
        drawn: positions whose remaining game the drawing route redrew (leaves of the tree).
        crossings: crossing gadgets in those drawings, all together.
        planar: networkx's planarity test on the result.
    """

    graph: Digraph
    unfolded: int
    drawn: int
    crossings: int
    planar: bool


def unfold(game: Geography, deadline: Deadline | None = None, max_vertices: int = MAX_VERTICES) -> Unfolded:
    """The game as a planar vertex-geography digraph with the same winner (module docstring).

    Raises :class:`~pyasp_games.errors.InputError` beyond ``max_vertices`` and
    :class:`~pyasp_games.engines.limits.LimitReached` at the deadline.
    """
    import networkx as nx

    g, names = game.graph, game.names
    vertex = game.variant == "vertex"
    drawable = vertex or game.directed
    arcs: list[tuple[str, str]] = []
    pieces: dict[tuple[int, frozenset[int]], tuple[list[tuple[str, str]], str, int] | None] = {}
    size = [1]  # vertices written so far (the root)
    counts = {"unfolded": 0, "drawn": 0, "crossings": 0}

    def piece(v: int, used: frozenset[int]) -> tuple[list[tuple[str, str]], str, int] | None:
        """The remaining game from ``v`` redrawn (its arcs, its start, its crossings), or
        ``None`` where the drawing route refuses."""
        key = (v, used)
        if key not in pieces:
            if vertex:
                kept = [(names[a], names[b]) for a in range(len(g)) if a == v or a not in used
                        for b, _ in game.moves[a] if b not in used and b != v]
                sub = from_arcs(kept, [names[v]], name=g.name)
                begin = names[v]
            else:
                kept = [(names[a], names[b]) for a in range(len(g)) for b, e in game.moves[a]
                        if e not in used]
                sub = line_digraph(without_two_cycles(from_arcs(kept, [names[v]], name=g.name)), names[v])
                begin = sub.headers["start"]
            try:
                p = planarize(sub, begin, deadline, attempts=ATTEMPTS, exhaustive=False)
                pieces[key] = ([(p.graph.names[a], p.graph.names[b]) for a, b in p.graph.arcs()],
                               begin, p.crossings)
            except UnsafeCrossing:
                pieces[key] = None
        return pieces[key]

    root = "p"
    stack = [(root, game.start, frozenset([game.start]) if vertex else frozenset())]
    while stack:
        if deadline is not None:
            deadline.check()
        here, v, used = stack.pop()
        drawn = piece(v, used) if drawable else None
        if drawn is not None:
            sub_arcs, begin, crossings = drawn
            counts["drawn"] += 1
            counts["crossings"] += crossings
            # the piece's vertices renamed into this position's own (its start: the tree vertex)
            rename = {begin: here}
            for a, b in sub_arcs:
                for x in (a, b):
                    if x not in rename:
                        rename[x] = f"{here}.{x}"
            size[0] += len(rename) - 1
            arcs.extend((rename[a], rename[b]) for a, b in sub_arcs)
        else:
            counts["unfolded"] += 1
            for k, (w, e) in enumerate(game.moves[v]):
                item = w if vertex else e
                if item in used or (not vertex and game.directed and w != v and any(
                        x == v and f not in used for x, f in game.moves[w])):
                    continue  # used, or one arc of an unused 2-cycle (without_two_cycles)
                child = f"{here}.{k}"  # a piece's vertices are named after its position too
                arcs.append((here, child))
                size[0] += 1
                stack.append((child, w, used | {item}))
        if size[0] > max_vertices:
            raise InputError(f"{g.name}: unfolding the first moves writes more than {max_vertices:,} "
                             "vertices (the positions of the game grow too fast)")
    headers = {"source": f"{g.headers.get('source', g.name)} (unfolded, planar)", "start": root,
               "variant": "vertex", "undirected": "no"}
    out = from_arcs(polled(arcs, deadline), [root], name=f"{g.name}.planar", headers=headers)
    if deadline is not None:
        deadline.check()
    planar = bool(nx.check_planarity(out.to_networkx().to_undirected())[0])
    return Unfolded(out, counts["unfolded"], counts["drawn"], counts["crossings"], planar)
