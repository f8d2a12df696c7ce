"""Catch instances: a digraph, red and black tokens, and the colour to move.

The rules (the notes' example 5 of section 8, "Cattura", the partisan version of
Annihilation): red and black tokens sit on the vertices of a digraph, at most one per
vertex. The red player moves red tokens only, the black player black ones. A move slides
one of the mover's tokens along an arc ``u -> v`` to a vertex that holds no other token
of the mover's colour; a token of the other colour on ``v`` is captured (removed). The
player who cannot move loses (normal play); play may go on forever: a draw.

Where the notes are silent or ambiguous, this tool decides so (``docs/catch.md``):

- *the end of play*: the notes give no winning rule; as in Annihilation, the player who
  cannot move (no token of his colour left, or none with a legal move) loses;
- *a self-loop* ``u -> u``: its target holds the moving token itself and no *other*
  token of its colour, so it is a legal move that changes nothing (a pass), as in
  Annihilation;
- *who starts*: the notes' player 1 moves red; ``--first black`` lets black start.

A position is kept from the mover's side: ``(the mover's tokens, the opponent's
tokens)`` as bitmasks, so a move swaps the roles. An arc-list file may state the
tokens in headers ``# red: a b``, ``# black: c`` and ``# first: red|black``, and the
known answer in ``# outcome: first|second|draw`` (first: the player to move wins).

>>> inst = parse_instance("a b\\nb c\\nc a\\n", "a", "c")
>>> inst.describe(), sorted(inst.moves(inst.start))
('red a, black c, red to move, on a digraph of 3 vertices and 3 arcs', [(0, 1, (4, 2))])
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from math import comb
from pathlib import Path
from typing import Any

from pyasp_games.domains.annihilation.model import MAX_VERTICES, OUTCOMES, vertices_of
from pyasp_games.engines.graphs import (
    Digraph,
    OnGraph,
    check_random_size,
    from_arcs,
    numbered_digraph,
    parse_arcs,
    read_graph,
    small_digraphs,
)
from pyasp_games.errors import InputError, checked_int, checked_real

COLOURS = ("red", "black")


@dataclass(eq=False)
class Catch(OnGraph):
    """One Catch position: the digraph, the red and the black tokens (bitmasks), and the
    colour to move."""

    graph: Digraph
    red: int
    black: int
    first: str = "red"

    @property
    def start(self) -> tuple[int, int]:
        """The start position from the mover's side: (mover's tokens, opponent's)."""
        return (self.red, self.black) if self.first == "red" else (self.black, self.red)

    def shown(self, mask: int) -> str:
        return " ".join(self.names[v] for v in vertices_of(mask)) or "none"

    def describe(self) -> str:
        return (
            f"red {self.shown(self.red)}, black {self.shown(self.black)}, {self.first} to move, "
            f"on a digraph of {len(self)} vertices and {self.graph.arc_count} arcs"
        )

    def moves(self, position: tuple[int, int]) -> Iterator[tuple[int, int, tuple[int, int]]]:
        """Every move from ``position``: ``(u, v, next position)`` (next from the other side)."""
        mine, theirs = position
        succ = self.graph.succ
        for u in vertices_of(mine):
            for v in succ[u]:
                if u == v:
                    yield u, v, (theirs, mine)
                elif not mine >> v & 1:
                    yield u, v, (theirs & ~(1 << v), mine ^ (1 << u) ^ (1 << v))

    def move_name(self, move: tuple[int, int]) -> list[str]:
        return [self.names[move[0]], self.names[move[1]]]

    def reachable_bound(self) -> int:
        """An upper bound on the reachable positions: no side gains tokens, so at most
        ``i <= red`` red and ``j <= black`` black ones on distinct vertices, either to move."""
        n, r, b = len(self), len(vertices_of(self.red)), len(vertices_of(self.black))
        return 2 * sum(comb(n, i) * comb(n - i, j) for i in range(r + 1) for j in range(b + 1))


def _mask(graph: Digraph, text: str | None, colour: str) -> int:
    names = [t for t in (text or "").replace(",", " ").split() if t]
    if names == ["-"]:
        names = []
    mask = 0
    for name in names:
        v = graph.position(name)
        if mask >> v & 1:
            raise InputError(f"{graph.name}: {colour} token vertex {name!r} given twice")
        mask |= 1 << v
    return mask


def make_instance(
    graph: Digraph, red: str | None = None, black: str | None = None, first: str | None = None
) -> Catch:
    """Validate and build an instance; what is not given comes from the file's headers
    (``# red:``, ``# black:``, ``# first:``; red starts by default)."""
    if len(graph) > MAX_VERTICES:
        raise InputError(
            f"{graph.name}: {len(graph):,} vertices: beyond this tool's limit of {MAX_VERTICES:,}"
        )
    red = graph.headers.get("red") if red is None else red
    black = graph.headers.get("black") if black is None else black
    if red is None and black is None:
        raise InputError(f"{graph.name}: no tokens (give --red/--black or '# red:'/'# black:' lines)")
    first = first or graph.headers.get("first", "red")
    if first not in COLOURS:
        raise InputError(f"{graph.name}: the first player must be red or black, not {first!r}")
    r, b = _mask(graph, red, "red"), _mask(graph, black, "black")
    if r & b:
        both = " ".join(graph.names[v] for v in vertices_of(r & b))
        raise InputError(f"{graph.name}: a vertex holds a red and a black token: {both}")
    return Catch(graph, r, b, first)


def parse_instance(
    text: str, red: str | None = None, black: str | None = None, first: str | None = None,
    name: str = "graph",
) -> Catch:  # fmt: skip
    """An instance from arc-list text."""
    return make_instance(parse_arcs(text, name), red, black, first)


def load_instance(
    path: Path | str, red: str | None = None, black: str | None = None,
    first: str | None = None, fmt: str | None = None,
) -> Catch:  # fmt: skip
    """Read a Catch game from a graph file.

    Parameters
    ----------
    path : path-like or str
        A digraph file (:func:`~pyasp_games.engines.graphs.read_graph`); what is not
        given below comes from its headers.
    red, black : str or None, optional
        The vertices of the red and of the black tokens, separated by spaces.
    first : {"red", "black"} or None, optional
        Who moves first; ``None``: the ``# first:`` header, else red.
    fmt : str or None, optional
        The graph format; ``None``: by the extension.

    Returns
    -------
    Catch
        The game.

    Raises
    ------
    InputError
        A bad file or header, an unknown vertex, or a vertex with a red and a black token.
    """
    return make_instance(read_graph(path, fmt), red, black, first)


def load_instances(path: Path) -> list[Catch]:
    return [load_instance(path)]


def known_outcome(inst: Catch) -> str | None:
    text = inst.graph.headers.get("outcome")
    if text is not None and text not in OUTCOMES:
        raise InputError(f"{inst.name}: '# outcome:' must be one of {', '.join(OUTCOMES)}")
    return text


def format_instance(inst: Catch) -> str:
    headers = {"red": inst.shown(inst.red).replace("none", "-"),
               "black": inst.shown(inst.black).replace("none", "-"), "first": inst.first}  # fmt: skip
    graph = inst.graph
    named = ((graph.names[u], graph.names[v]) for u, v in graph.arcs())
    return from_arcs(named, graph.names, graph.name, headers).format_arcs()


def random_instance(
    n: int = 10, seed: int = 0, red: int = 2, black: int = 2, degree: float = 1.5
) -> Catch:
    """A random instance (bench generator ``random``): ``round(degree * n)`` distinct
    arcs without self-loops, ``red`` and ``black`` tokens on distinct random vertices.

    >>> random_instance(8, seed=2).describe()
    'red 5 6, black 2 4, red to move, on a digraph of 8 vertices and 12 arcs'
    """
    n = checked_int(n, "n", 1, MAX_VERTICES)
    red = checked_int(red, "red", 0, n)
    black = checked_int(black, "black", 0, n - red)
    degree = checked_real(degree, "degree", 0, n)
    check_random_size(n, round(degree * n), n * (n - 1))
    rng = random.Random(checked_int(seed, "seed"))
    arcs: set[tuple[int, int]] = set()
    while len(arcs) < round(degree * n):
        u, v = rng.randrange(n), rng.randrange(n)
        if u != v:
            arcs.add((u, v))
    graph = from_arcs(sorted(arcs), range(n), name=f"rand-{n}-{red}-{black}-{seed}")
    chosen = rng.sample(range(n), red + black)
    return Catch(graph, sum(1 << v for v in chosen[:red]), sum(1 << v for v in chosen[red:]))


def small_instances(max_vertices: int = 3) -> Iterator[Catch]:
    """Every digraph on at most ``max_vertices`` vertices up to isomorphism (self-loops
    included) with every placement of red and black tokens, red to move.

    >>> sum(1 for _ in small_instances(2))
    96
    """
    for k, (n, arcs) in enumerate(small_digraphs(max_vertices)):
        graph = numbered_digraph(n, arcs, f"small-{k}")
        for colours in range(3**n):
            red = black = 0
            for v in range(n):
                colour, colours = colours % 3, colours // 3
                red |= (colour == 1) << v
                black |= (colour == 2) << v
            yield Catch(graph, red, black)


def strategy(size: int) -> Any:
    """A hypothesis strategy of instances on at most ``size`` vertices."""
    from hypothesis import strategies as st

    from pyasp_games.engines.graphs import digraph_strategy

    def build(g: tuple[int, tuple[tuple[int, int], ...]], colours: list[int], first: str) -> Catch:
        n, arcs = g
        red = sum(1 << v for v in range(n) if colours[v] == 1)
        black = sum(1 << v for v in range(n) if colours[v] == 2)
        return Catch(numbered_digraph(n, arcs, "drawn"), red, black, first)

    return digraph_strategy(size).flatmap(
        lambda g: st.builds(build, st.just(g), st.lists(st.integers(0, 2), min_size=g[0],
                            max_size=g[0]), st.sampled_from(COLOURS))
    )  # fmt: skip
