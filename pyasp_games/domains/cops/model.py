"""Cops and Robbers instances: an undirected graph, a rule set, and (for ``solve``) the
start squares and who moves first.

Two rule sets, named in every answer (:data:`VARIANTS`):

- ``classic`` (Nowakowski and Winkler; Quilliot, 1983): on their turn *every* cop moves
  to a neighbour or stays (cops may share a vertex), then the robber moves to a
  neighbour or stays; a cop on the robber's vertex captures it. For the **cop number**
  the cops choose their starts, then the robber, and the cops move first.
- ``notes`` (the combinatorial-games notes' "robber and k cops"): the cops' player moves
  *one* cop to an adjacent unoccupied vertex, the robber moves to an adjacent unoccupied
  vertex (it may not stay); the cops win when every neighbour of the robber holds a cop
  (the robber is trapped). A play that never traps the robber is the robber's. The notes
  leave open what a cops' player with no legal move does: here it passes (the robber
  moves again), so the game never ends by the cops being stuck.

In both, a *move of the cops* is one turn of the cops' player, and the number of moves
an answer gives counts those turns until capture (or trap).

A graph is a file (:func:`pyasp_games.engines.graphs.read_graph`, every line ``u v`` an
edge) or a name: ``petersen``, ``dodecahedron``, ``robertson``, ``heawood``,
``atlas:N`` (the N-th graph of networkx's atlas), or a spec of the routing domain's
families (``path:N``, ``cycle:N``, ``grid:RxC``, ``hypercube:D``, ``complete:N``,
``tree:N:SEED``, ...). An arc-list file may give ``# variant:``, ``# cops:``,
``# robber:``, ``# to-move:`` and the known ``# winner:``, ``# moves:`` and ``# cop-number:``.

>>> g = parse_instance("a b\\nb c\\nc d\\nd a\\n", cops="a", robber="c")
>>> g.variant, [g.names[c] for c in g.cops], g.names[g.robber], g.to_move, g.k
('classic', ['a'], 'c', 'cops', 1)
>>> read_graph("petersen").edges[:3], len(read_graph("robertson").edges)
(((0, 1), (0, 4), (0, 5)), 38)
>>> parse_instance("a b\\n", cops="a", robber="a", variant="notes")
Traceback (most recent call last):
...
pyasp_games.errors.InputError: notes rules: the robber cannot start on a cop ('a')
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from pyasp_games.engines.graphs import Graph, OnGraph, graph_from_edges
from pyasp_games.errors import InputError, checked_int

VARIANTS = ("classic", "notes")
SIDES = ("cops", "robber")

#: The largest graph any question takes (a cop number question is refused far below:
#: its positions grow as n^(k+1), :data:`MAX_POSITIONS`).
MAX_VERTICES = 2_000
#: The most cops a game may have.
MAX_COPS = 12
#: The most positions (cop placements x robber vertices) the native backend tabulates:
#: two bytes of values, a counter and queue entries each, about 2 GB at this size.
MAX_POSITIONS = 60_000_000

#: How each rule set is named in answers.
RULES = {
    "classic": "classic rules: every cop moves or stays, then the robber; a cop on the "
    "robber's vertex captures",
    "notes": "the notes' rules: one cop moves to an adjacent free vertex, then the robber "
    "does; the robber is trapped when every neighbour holds a cop",
}


@dataclass(eq=False)
class CopsGame(OnGraph):
    """One game: the graph, the rules and (for ``solve``) the start.

    Attributes:
        graph: the undirected graph.
        variant: ``classic`` or ``notes``.
        cops: the cops' start vertices, sorted (``()`` for a cop number question).
        robber: the robber's start vertex (``-1`` for a cop number question).
        to_move: ``cops`` or ``robber``: who moves first from the start.
        headers: the file's header comments (known answers).
    """

    graph: Graph
    variant: str = "classic"
    cops: tuple[int, ...] = ()
    robber: int = -1
    to_move: str = "cops"
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def k(self) -> int:
        return len(self.cops)

    def describe(self) -> str:
        """The start in words."""
        if self.robber < 0:
            return f"{self.name}: {len(self)} vertices, {len(self.graph.edges)} edges"
        cops = " ".join(self.names[c] for c in self.cops)
        return (
            f"{self.name}: {'cop' if self.k == 1 else 'cops'} {cops}, robber "
            f"{self.names[self.robber]}, the {self.to_move} to move ({self.variant} rules)"
        )


# -- graphs -------------------------------------------------------------------------------

#: Robertson's (4,5)-cage, as Sage builds it: the 19-cycle and a chord from each vertex i
#: to i + LCF[i] (mod 19): 38 edges, 4-regular, girth 5 (the test checks the cage).
ROBERTSON_CHORDS = (8, 4, 7, 4, 8, 5, 7, 4, 7, 8, 4, 5, 7, 8, 4, 8, 4, 8, 4)


def named_graph(name: str) -> Graph | None:
    """The graph called ``name`` (see the module docstring), or ``None``."""
    import networkx as nx

    builders = {
        "petersen": nx.petersen_graph,
        "dodecahedron": nx.dodecahedral_graph,
        "heawood": nx.heawood_graph,
        "robertson": _robertson,
    }
    if name in builders:
        g = builders[name]()
    else:
        m = re.fullmatch(r"atlas:(\d+)", name, re.ASCII)
        if m is None:
            return None
        number = int(m[1])
        if not 0 < number <= 1252:
            raise InputError(f"{name}: networkx's atlas numbers its graphs 1 to 1252")
        g = nx.graph_atlas(number)
    return graph_from_edges(sorted(g.edges()), sorted(g.nodes()), name)


def _robertson() -> Any:
    import networkx as nx

    g = nx.cycle_graph(19)
    g.add_edges_from((i, (i + d) % 19) for i, d in enumerate(ROBERTSON_CHORDS))
    return g


def read_graph(path: Path | str, fmt: str | None = None) -> Graph:
    """A graph file, a named graph or a routing spec (where no file of that name exists)."""
    from pyasp_games.engines import graphs

    text = str(path)
    if not Path(path).exists():
        named = named_graph(text)
        if named is not None:
            return named
        from pyasp_games.domains.routing.specs import graph_spec, looks_like_spec

        if looks_like_spec(text):
            return graph_spec(text)
    graph = cast(Graph, graphs.read_graph(path, fmt, undirected=True))
    if len(graph) > MAX_VERTICES:
        raise InputError(
            f"{graph.name}: {len(graph):,} vertices is too many (at most {MAX_VERTICES:,})"
        )
    return graph


def is_connected(graph: Graph) -> bool:
    return -1 not in graph.bfs(0)


# -- games --------------------------------------------------------------------------------


def vertex_names(graph: Graph, text: str, what: str) -> list[str]:
    """The vertex names ``text`` gives: separated by spaces (``"0,0 1,1"``: a grid's
    vertex ``r,c`` holds a comma), or by commas, read the one way the parts join into
    the graph's names (``0,3``: two vertices; on a grid ``0,0`` is one and ``0,0,2,2``
    two). A split that is not the only one is refused: separate by spaces then.

    >>> from pyasp_games.engines.graphs import parse_arcs
    >>> grid = parse_arcs("0,0 0,1\\n0,1 1,1\\n", "g", undirected=True)
    >>> vertex_names(grid, "0,0", "--cops"), vertex_names(grid, "0,0,1,1", "--cops")
    (['0,0'], ['0,0', '1,1'])
    """
    if len(text.split()) > 1:
        names = text.replace(", ", " ").split()
        for t in names:
            if t not in graph.index:
                raise InputError(f"{what}: {graph.name} has no vertex {t!r}")
        return names
    parts = [t.strip() for t in text.split(",")]
    if not text.strip() or not all(parts):
        raise InputError(f"{what}: expected vertex names separated by commas or spaces, got {text!r}")
    # ways[i]: the splits of parts[i:] into names (at most two kept: one, or ambiguous)
    ways: list[list[list[str]]] = [[] for _ in parts] + [[[]]]
    for i in reversed(range(len(parts))):
        for j in range(i + 1, len(parts) + 1):
            name = ",".join(parts[i:j])
            if name in graph.index:
                ways[i] += [[name, *rest] for rest in ways[j]][: 2 - len(ways[i])]
    if len(ways[0]) > 1:
        raise InputError(f"{what}: {text!r} splits into vertices of {graph.name} in more than one "
                         f"way ({' '.join(ways[0][0])} or {' '.join(ways[0][1])}): separate them by spaces")  # fmt: skip
    if not ways[0]:  # name what is left after the longest run of names read from the left
        reached, i = {0}, 0
        for i in range(len(parts)):
            if i in reached:
                reached |= {j for j in range(i + 1, len(parts) + 1) if ",".join(parts[i:j]) in graph.index}
        last = max(reached)
        commas = any("," in v for v in graph.names)
        bad = ",".join(parts[last:]) if commas else parts[last]
        raise InputError(f"{what}: {graph.name} has no vertex {bad!r}")
    return ways[0][0]


def _vertices(graph: Graph, text: str, what: str) -> list[int]:
    """The vertices :func:`vertex_names` reads from ``text``."""
    return [graph.index[t] for t in vertex_names(graph, text, what)]


def make_game(
    graph: Graph,
    cops: str | None = None,
    robber: str | None = None,
    variant: str | None = None,
    to_move: str | None = None,
) -> CopsGame:
    """A game on ``graph``; what is not given comes from the graph's headers."""
    headers = dict(graph.headers)
    variant = variant or headers.get("variant", "classic")
    if variant not in VARIANTS:
        raise InputError(f"unknown variant {variant!r} (choose from {', '.join(VARIANTS)})")
    to_move = to_move or headers.get("to-move", "cops")
    if to_move not in SIDES:
        raise InputError(f"unknown side to move {to_move!r} (choose from cops, robber)")
    cops = cops if cops is not None else headers.get("cops")
    robber = robber if robber is not None else headers.get("robber")
    if cops is None or robber is None:
        raise InputError(
            f"{graph.name}: give the start squares (--cops V1,V2 and --robber V, or "
            "'# cops:' and '# robber:' lines)"
        )
    placed = _vertices(graph, cops, "--cops")
    if len(placed) > MAX_COPS:
        raise InputError(f"--cops: {len(placed)} cops is too many (at most {MAX_COPS})")
    if robber in graph.index:
        r = graph.index[robber]
    else:
        found = _vertices(graph, robber, "--robber")
        if len(found) != 1:
            raise InputError(f"--robber: one robber, one vertex (got {robber!r})")
        r = found[0]
    if variant == "notes":
        if len(set(placed)) < len(placed):
            raise InputError("notes rules: two cops cannot start on one vertex")
        if r in placed:
            raise InputError(
                f"notes rules: the robber cannot start on a cop ({graph.names[r]!r})"
            )
        if len(placed) + 1 > len(graph):
            raise InputError("notes rules: more tokens than vertices")
    game = CopsGame(graph, variant, tuple(sorted(placed)), r, to_move, headers)
    check_size(game)
    return game


def positions(n: int, k: int, variant: str = "classic") -> int:
    """How many cop placements times robber vertices a game of ``k`` cops on ``n``
    vertices has (multisets of cops in the classic rules, sets in the notes').

    >>> positions(19, 4), positions(36, 3, "notes")
    (138985, 257040)
    """
    from math import comb

    places = comb(n + k - 1, k) if variant == "classic" else comb(n, k)
    return places * n


def check_size(game: CopsGame, k: int | None = None) -> None:
    """Refuse, up front and in one line, a game whose table no backend could hold."""
    k = game.k if k is None else k
    count = positions(len(game), k, game.variant)
    if count > MAX_POSITIONS or len(game) ** k > 4 * MAX_POSITIONS:
        raise InputError(
            f"{game.name}: {k} cops on {len(game)} vertices make {count:,} positions "
            f"(at most {MAX_POSITIONS:,})"
        )


def parse_instance(
    text: str,
    cops: str | None = None,
    robber: str | None = None,
    variant: str | None = None,
    to_move: str | None = None,
    name: str = "graph",
) -> CopsGame:
    """A game from arc-list text (every line ``u v`` an edge)."""
    from pyasp_games.engines.graphs import parse_arcs

    graph = cast(Graph, parse_arcs(text, name, undirected=True))
    return make_game(graph, cops, robber, variant, to_move)


def load_game(
    graph: Path | str,
    cops: str | None = None,
    robber: str | None = None,
    variant: str | None = None,
    to_move: str | None = None,
    fmt: str | None = None,
) -> CopsGame:
    """Read the game of ``cops solve``: a graph and its start.

    Parameters
    ----------
    graph : path-like or str
        A graph file (read as undirected), or, where no such file exists, a named graph
        (``petersen``) or a graph spec (``cycle:5``, ``grid:3x3``).
    cops, robber : str or None, optional
        The cops' vertices and the robber's (separated by spaces or commas); ``None``:
        the ``# cops:`` and ``# robber:`` headers.
    variant : {"classic", "notes"} or None, optional
        The rule set; ``None``: the ``# variant:`` header, else ``classic``.
    to_move : {"cops", "robber"} or None, optional
        Who moves first; ``None``: the ``# to-move:`` header, else the cops.
    fmt : str or None, optional
        The graph format; ``None``: by the extension.

    Returns
    -------
    CopsGame
        The game.

    Raises
    ------
    InputError
        A bad file or name, too many vertices or cops, an unknown variant or side, a
        start that is missing or not on the graph.
    """
    return make_game(read_graph(graph, fmt), cops, robber, variant, to_move)


def load_graph_game(graph: Path | str, fmt: str | None = None) -> CopsGame:
    """Read the game of ``cops number``: a connected graph under the classic rules.

    Parameters
    ----------
    graph : path-like or str
        A graph file, a named graph or a graph spec, as :func:`load_game` takes them.
    fmt : str or None, optional
        The graph format; ``None``: by the extension.

    Returns
    -------
    CopsGame
        The game without a start (the cop number places the cops).

    Raises
    ------
    InputError
        A bad file or name, or a graph that is not connected.

    Notes
    -----
    Connectivity by one breadth-first search, O(V + E).
    """
    g = read_graph(graph, fmt)
    if not is_connected(g):
        lost = g.names[g.bfs(0).index(-1)]
        raise InputError(
            f"{g.name}: the graph is not connected ({lost!r} cannot be reached from "
            f"{g.names[0]!r}); the cop number of a graph is the sum of its components'"
        )
    return CopsGame(g, "classic", headers=dict(g.headers))


def load_instances(path: Path) -> list[CopsGame]:
    """One game from a file whose headers give its start (crosscheck's bundled files)."""
    return [load_game(path)]


def known_answer(game: CopsGame) -> dict[str, Any] | None:
    """The answer a file's ``# winner:`` (and ``# moves:``) headers state, if any."""
    winner = game.headers.get("winner")
    if winner is None:
        return None
    if winner not in SIDES:
        raise InputError(f"{game.name}: '# winner:' must be cops or robber, got {winner!r}")
    moves = game.headers.get("moves")
    return {"winner": winner, "moves": None if moves is None else int(moves)}


def known_cop_number(game: CopsGame) -> int | None:
    text = game.headers.get("cop-number")
    return None if text is None else int(text)


# -- generators (bench) and fuzzing -------------------------------------------------------


def random_game(
    n: int, seed: int = 0, cops: int = 1, edges: int | None = None, variant: str = "classic"
) -> CopsGame:
    """A random connected graph (a random tree plus random edges, ``edges`` in all,
    default ``3n/2``) with ``cops`` cops on the first vertices and the robber on the
    last (bench generator ``random``).

    >>> g = random_game(8, seed=2, cops=2)
    >>> g.name, g.k, g.names[g.robber]
    ('random:8:12:2', 2, '7')
    """
    from pyasp_games.domains.routing.specs import graph_spec

    checked_int(n, "n", 2, MAX_VERTICES)
    checked_int(cops, "cops", 1, MAX_COPS)
    if cops >= n:
        raise InputError(f"{cops} cops and a robber need more than {n} vertices")
    m = checked_int(edges if edges is not None else 3 * n // 2, "edges", n - 1, n * (n - 1) // 2)
    if variant not in VARIANTS:
        raise InputError(f"unknown variant {variant!r} (choose from {', '.join(VARIANTS)})")
    graph = graph_spec(f"random:{n}:{m}:{seed}")
    start = " ".join(graph.names[:cops])
    return make_game(graph, start, graph.names[-1], variant)


def small_games(variant: str = "classic") -> Iterator[CopsGame]:
    """Every connected graph on 2 to 4 vertices (up to isomorphism) with one cop on ``a``
    and the robber on each other vertex, the cops to move: the fuzzer's small scope.

    >>> len(list(small_games()))
    23
    """
    from pyasp_games.engines.graphs import small_digraphs

    for k, (n, edges) in enumerate(small_digraphs(4, loops=False, undirected=True)):
        if n < 2:
            continue
        graph = _lettered(n, edges, f"small-{k}")
        if not is_connected(graph):
            continue
        for r in range(1, n):
            yield make_game(graph, "a", graph.names[r], variant)


def _lettered(n: int, edges: Any, name: str) -> Graph:
    from pyasp_games.engines.graphs import vertex_name

    return graph_from_edges(
        [(vertex_name(u), vertex_name(v)) for u, v in edges],
        [vertex_name(v) for v in range(n)],
        name,
    )


def game_strategy(size: int, variant: str = "classic") -> Any:
    """A hypothesis strategy of games on at most ``size`` vertices: any simple graph, one
    or two cops and the robber on distinct vertices, either side to move."""
    from hypothesis import strategies as st

    from pyasp_games.engines.graphs import digraph_strategy

    def game(drawn: Any) -> Any:
        n, arcs = drawn
        edges = sorted({(min(u, v), max(u, v)) for u, v in arcs})
        graph = _lettered(n, edges, "fuzz")
        return st.tuples(st.permutations(range(n)), st.integers(1, min(2, n - 1)),
                         st.sampled_from(SIDES)).map(
            lambda t: make_game(graph, " ".join(graph.names[v] for v in t[0][: t[1]]),
                                graph.names[t[0][-1]], variant, t[2])
        )  # fmt: skip

    return digraph_strategy(max(size, 2), loops=False, min_vertices=2).flatmap(game)


def format_game(game: CopsGame) -> str:
    """The game as an arc-list file whose headers give its rules and start."""
    headers = {
        "variant": game.variant,
        "cops": " ".join(game.names[c] for c in game.cops),
        "robber": game.names[game.robber],
        "to-move": game.to_move,
    }
    g = game.graph
    return Graph(g.names, g.edges, g.name, headers).format_arcs()


__all__ = [
    "MAX_COPS",
    "MAX_POSITIONS",
    "RULES",
    "SIDES",
    "VARIANTS",
    "CopsGame",
    "check_size",
    "format_game",
    "known_answer",
    "known_cop_number",
    "load_game",
    "load_graph_game",
    "load_instances",
    "make_game",
    "named_graph",
    "parse_instance",
    "positions",
    "random_game",
    "read_graph",
    "small_games",
]
