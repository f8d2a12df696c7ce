"""Generalized Geography instances: a graph, a start vertex, a variant, a direction.

A token starts on the vertex ``start``; the players alternately move it along an
arc (an edge, if undirected); the player who cannot move loses. In **vertex**
geography a vertex may not be entered twice (the start counts as used); in
**edge** geography every arc (edge) is used at most once. The graph is read by
:mod:`pyasp_games.engines.graphs`; with ``undirected`` every line ``u v`` is the edge
``{u, v}``, usable in both directions (once, in the edge variant).

An arc-list file may state ``# start:``, ``# variant:``, ``# undirected: yes`` and
the known ``# winner: first|second`` in its header comments (crosscheck uses them).

>>> g = parse_instance("s a\\na b\\ns b\\n", "s", "vertex", name="tri")
>>> g.moves[g.start], g.names[g.start], g.variant, g.directed
(((1, 0), (2, 1)), 's', 'vertex', True)
>>> u = parse_instance("s a\\na b\\n", "s", "edge", undirected=True)
>>> u.moves, u.edge_count
((((1, 0),), ((0, 0), (2, 1)), ((1, 1),)), 2)
>>> parse_instance("s a\\n", "x", "vertex")
Traceback (most recent call last):
...
pyasp_games.errors.InputError: graph: no position named 'x'
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pyasp_games.engines.graphs import Digraph, OnGraph, format_of, parse_arcs, read_graph
from pyasp_games.errors import InputError, checked_int, checked_real

VARIANTS = ("vertex", "edge")
WINNERS = ("first", "second")


@dataclass(eq=False)
class Geography(OnGraph):
    """One Geography position at the start of play.

    Attributes:
        graph: the graph as read (arcs as in the file).
        start: the start vertex (a number of ``graph``).
        variant: ``vertex`` or ``edge``.
        directed: ``False`` when every line ``u v`` is an edge usable both ways.
        moves: for every vertex, its moves ``(next vertex, edge id)``; an undirected
            edge has one id for both directions, a directed arc its own id.
        edges: for every edge id, its end points ``(u, v)`` as written in the file.
    """

    graph: Digraph
    start: int
    variant: str
    directed: bool
    moves: tuple[tuple[tuple[int, int], ...], ...]
    edges: tuple[tuple[int, int], ...]

    @property
    def edge_count(self) -> int:
        return len(self.edges)

    def describe(self) -> str:
        kind = "a directed" if self.directed else "an undirected"
        return f"{self.variant} geography on {kind} graph from {self.names[self.start]}"

    def move_name(self, v: int) -> Any:
        """The JSON witness of the first move to ``v``: the vertex name, or the arc (edge)."""
        if self.variant == "vertex":
            return self.names[v]
        return [self.names[self.start], self.names[v]]


def make_instance(
    graph: Digraph, start: str | None, variant: str = "vertex", undirected: bool = False
) -> Geography:
    """Build and validate an instance; ``start``/``variant`` default to the file's headers."""
    if start is None:
        start = graph.headers.get("start")
        if start is None:
            raise InputError(f"{graph.name}: no start vertex (give --start or a '# start:' line)")
    if variant not in VARIANTS:
        raise InputError(f"unknown variant {variant!r} (choose from {', '.join(VARIANTS)})")
    s = graph.position(start)
    edges: list[tuple[int, int]] = []
    lists: list[list[tuple[int, int]]] = [[] for _ in graph.names]
    if undirected:
        ids: dict[tuple[int, int], int] = {}
        for u, v in graph.arcs():
            key = (min(u, v), max(u, v))
            if key not in ids:
                ids[key] = len(edges)
                edges.append((u, v))
                lists[u].append((v, ids[key]))
                if u != v:
                    lists[v].append((u, ids[key]))
    else:
        for u, v in graph.arcs():
            lists[u].append((v, len(edges)))
            edges.append((u, v))
    moves = tuple(tuple(sorted(m)) for m in lists)
    return Geography(graph, s, variant, not undirected, moves, tuple(edges))


def parse_instance(
    text: str,
    start: str | None,
    variant: str = "vertex",
    undirected: bool = False,
    name: str = "graph",
) -> Geography:
    """An instance from arc-list text (see :mod:`pyasp_games.engines.graphs`)."""
    return make_instance(parse_arcs(text, name), start, variant, undirected)


def _yes(graph: Digraph, key: str) -> bool:
    text = graph.headers.get(key, "no").lower()
    if text not in ("yes", "no", "true", "false"):
        raise InputError(f"{graph.name}: '# {key}:' must be yes or no, got {text!r}")
    return text in ("yes", "true")


def load_instance(
    path: Path | str,
    start: str | None = None,
    variant: str | None = None,
    undirected: bool | None = None,
    fmt: str | None = None,
) -> Geography:
    """Read a Generalized Geography game from a graph file.

    Parameters
    ----------
    path : path-like or str
        A graph file (:func:`~pyasp_games.engines.graphs.read_graph`), with optional
        ``# start:``, ``# variant:`` and ``# undirected:`` headers.
    start : str or None, optional
        The start vertex; ``None``: the ``# start:`` header.
    variant : {"vertex", "edge"} or None, optional
        Whether a vertex or an arc may not be used twice; ``None``: the header, else
        ``vertex``.
    undirected : bool or None, optional
        Whether the lines are edges; ``None``: the header, else directed.
    fmt : str or None, optional
        The graph format; ``None``: by the extension.

    Returns
    -------
    Geography
        The game.

    Raises
    ------
    InputError
        A bad file, no start vertex, an unknown start or variant, or a bad header.
    """
    # a graph file that states its own direction (GraphML, node-link JSON) is read as an
    # undirected graph when the user says so; arc lines stay arcs, made edges below
    given = bool(undirected) and format_of(Path(path), fmt) in ("graphml", "json")
    graph = read_graph(path, fmt, undirected=given)
    if variant is None:
        variant = graph.headers.get("variant", "vertex")
    if undirected is None:
        undirected = _yes(graph, "undirected")
    return make_instance(graph, start, variant, undirected)


def load_instances(path: Path) -> list[Geography]:
    """One-element list, for the domain's ``load_file`` (everything from the headers)."""
    return [load_instance(path)]


def known_winner(instance: Geography) -> str | None:
    """The winner stated by a ``# winner: first|second`` header, if any."""
    text = instance.graph.headers.get("winner")
    if text is None:
        return None
    if text not in WINNERS:
        raise InputError(f"{instance.name}: '# winner:' must be first or second, got {text!r}")
    return text


def random_game(
    n: int,
    seed: int,
    variant: str = "vertex",
    degree: float = 2.5,
    undirected: bool = False,
    regular: bool = False,
) -> Geography:
    """A random Geography instance on ``n`` vertices, start ``0`` (bench generator ``random``).

    ``round(degree * n)`` distinct arcs without loops (undirected: no arc both ways);
    ``regular``: first give every vertex 2 or 3 out-arcs (no dead ends).

    >>> g = random_game(10, seed=3)
    >>> g.name, g.variant
    ('rand-10-3', 'vertex')
    """
    import random

    from pyasp_games.engines.graphs import check_random_size, from_arcs

    checked_int(n, "n", 1)
    if regular and n < 4:  # 2 or 3 out-arcs to other vertices
        raise InputError(f"a regular random game needs at least 4 vertices, got n = {n}")
    degree = checked_real(degree, "degree", 0, n)
    possible = n * (n - 1) // (2 if undirected else 1)  # no loops (undirected: one way)
    check_random_size(n, round(degree * n), possible)
    rng = random.Random(seed)
    arcs: set[tuple[int, int]] = set()
    if regular:
        for u in range(n):
            for v in rng.sample([w for w in range(n) if w != u], rng.choice((2, 3))):
                arcs.add((u, v))
    while len(arcs) < round(degree * n):
        u, v = rng.randrange(n), rng.randrange(n)
        if u != v and (not undirected or (v, u) not in arcs):
            arcs.add((u, v))
    graph = from_arcs(sorted(arcs), range(n), name=f"rand-{n}-{seed}")
    return make_instance(graph, "0", variant, undirected)


# -- fuzzing: every small game, then random ones (``pyasp-games fuzz geography``) ---------


def _numbered_game(
    n: int, arcs: tuple[tuple[int, int], ...], variant: str, undirected: bool, name: str
) -> Geography:
    from pyasp_games.engines.graphs import numbered_digraph, vertex_name

    headers = {"start": vertex_name(0), "variant": variant}
    if undirected:
        headers["undirected"] = "yes"
    return make_instance(numbered_digraph(n, arcs, name, headers), None, variant, undirected)


def small_games(variant: str = "vertex", undirected: bool = False) -> Iterator[Geography]:
    """Every game on at most 3 vertices from the start ``a`` (no self-loops) up to
    isomorphism keeping the start, fewest vertices and arcs first: the fuzzer's small scope.

    >>> [len(list(small_games(v, u))) for v in VARIANTS for u in (False, True)]
    [41, 9, 41, 9]
    """
    from pyasp_games.engines.graphs import small_digraphs

    graphs = small_digraphs(3, loops=False, rooted=True, undirected=undirected)
    for k, (n, arcs) in enumerate(graphs):
        yield _numbered_game(n, arcs, variant, undirected, f"small-{k}")


def game_strategy(size: int, variant: str = "vertex", undirected: bool = False) -> Any:
    """A hypothesis strategy of games on at most ``size`` vertices from the start ``a``
    (no self-loops); hypothesis shrinks them to fewer vertices and arcs."""
    from pyasp_games.engines.graphs import digraph_strategy

    return digraph_strategy(size, loops=False).map(
        lambda g: _numbered_game(*g, variant, undirected, "fuzz")
    )


def game_parts(game: Geography) -> Iterator[Geography]:
    """The game with one vertex (not the start) or one arc deleted, for each: what the
    fuzzer's shrinker tries."""
    from pyasp_games.engines.graphs import digraph_parts

    graph = game.graph
    order = [game.start, *(v for v in range(len(graph)) if v != game.start)]
    number = {v: k for k, v in enumerate(order)}
    arcs = [(number[u], number[v]) for u, v in graph.arcs()]
    for n, smaller in digraph_parts(len(graph), arcs, keep=1):
        yield _numbered_game(n, smaller, game.variant, not game.directed, graph.name)


def format_game(game: Geography) -> str:
    """The game as an arc-list file whose headers give its start, variant and direction."""
    from pyasp_games.engines.graphs import from_arcs

    headers = {"start": game.names[game.start], "variant": game.variant}
    if not game.directed:
        headers["undirected"] = "yes"
    graph = game.graph
    named = ((graph.names[u], graph.names[v]) for u, v in graph.arcs())
    return from_arcs(named, graph.names, graph.name, headers).format_arcs()
