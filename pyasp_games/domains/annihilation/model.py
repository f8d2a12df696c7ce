"""Annihilation instances: a digraph and the vertices that hold a token at the start.

The rules (Fraenkel and Yesha's annihilation game; the notes' example 2 of section 5):
a position is a set of vertices, those holding a token (at most one token per vertex).
A move picks a vertex ``u`` that holds a token and an arc ``u -> v`` and slides the
token to ``v``; if ``v`` already holds a token, both tokens vanish (annihilate). A
self-loop ``u -> u`` moves the token back where it was: the position does not change
(a pass, allowed while the token is there). The player who cannot move loses (normal
play: every token on a sink, or none left). Play may go on forever: such positions are
draws. As a vector over GF(2) (one coordinate per vertex) a move adds ``e_u + e_v``:
annihilation is addition mod 2 (:mod:`~pyasp_games.domains.annihilation.poly`).

A position is kept as a bitmask (bit ``i`` for vertex number ``i``). An arc-list file
may state the tokens in a header ``# tokens: a b c`` and the known answer in
``# outcome: first|second|draw`` (first: the player to move at the start wins).

>>> inst = parse_instance("a b\\nb a\\nb c\\n", "a c")
>>> inst.token_names, sorted(inst.moves(inst.start))
(['a', 'c'], [(0, 1, 6)])
>>> inst.describe()
'2 tokens (a c) on a digraph of 3 vertices and 3 arcs'
>>> parse_instance("a b\\n", "a a")
Traceback (most recent call last):
...
pyasp_games.errors.InputError: graph: token vertex 'a' given twice (a position holds at most one token per vertex)
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from math import comb
from pathlib import Path
from typing import Any

from pyasp_games.engines.graphs import (
    Digraph,
    OnGraph,
    check_random_size,
    from_arcs,
    numbered_digraph,
    parse_arcs,
    read_graph,
    set_bits,
    small_digraphs,
)
from pyasp_games.errors import InputError, checked_int, checked_real

#: The answers: the player to move at the start wins, loses, or neither can force a win.
OUTCOMES = ("first", "second", "draw")

#: The most vertices an instance may have (the tool's limit; the polynomial backend
#: tests about n²/2 + m²/2 + mn positions of at most four tokens).
MAX_VERTICES = 2_000


@dataclass(eq=False)
class Annihilation(OnGraph):
    """One Annihilation position: a digraph and the token vertices (a bitmask).

    Attributes:
        graph: the digraph as read.
        start: the token vertices at the start, bit ``i`` for vertex number ``i``.
    """

    graph: Digraph
    start: int

    @property
    def tokens(self) -> list[int]:
        return vertices_of(self.start)

    @property
    def token_names(self) -> list[str]:
        return [self.names[v] for v in self.tokens]

    def describe(self) -> str:
        k = len(self.tokens)
        shown = " ".join(self.token_names) or "none"
        return (
            f"{k} token{'s' * (k != 1)} ({shown}) on a digraph of {len(self)} vertices "
            f"and {self.graph.arc_count} arcs"
        )

    def moves(self, position: int) -> Iterator[tuple[int, int, int]]:
        """Every move from ``position``: ``(u, v, next position)``."""
        succ = self.graph.succ
        for u in vertices_of(position):
            for v in succ[u]:
                yield u, v, position ^ (1 << u) ^ (1 << v) if u != v else position

    def move_name(self, move: tuple[int, int]) -> list[str]:
        """The JSON witness of a move: ``[from, to]`` by vertex name."""
        return [self.names[move[0]], self.names[move[1]]]

    def reachable_bound(self) -> int:
        """An upper bound on the positions reachable from the start: a move keeps the
        number of tokens or removes two, and no token leaves the vertices reachable from
        the start's tokens, so at most the sets of ``k, k-2, ...`` of those ``r``
        vertices: ``C(r,k) + C(r,k-2) + ...``."""
        succ, k = self.graph.succ, len(self.tokens)
        seen, todo = set(self.tokens), list(self.tokens)
        while todo:
            for v in succ[todo.pop()]:
                if v not in seen:
                    seen.add(v)
                    todo.append(v)
        return sum(comb(len(seen), j) for j in range(k % 2, k + 1, 2))


#: The vertex numbers of a position's bitmask, smallest first.
vertices_of = set_bits


def _split(text: str) -> list[str]:
    return [t for t in text.replace(",", " ").split() if t]


def make_instance(graph: Digraph, tokens: str | list[str] | None) -> Annihilation:
    """Validate and build an instance; ``tokens`` (names, space- or comma-separated)
    default to the file's ``# tokens:`` header."""
    if len(graph) > MAX_VERTICES:
        raise InputError(
            f"{graph.name}: {len(graph):,} vertices: beyond this tool's limit of {MAX_VERTICES:,}"
        )
    if not tokens:
        tokens = graph.headers.get("tokens")
        if tokens is None:
            raise InputError(f"{graph.name}: no tokens (give TOKENS or a '# tokens:' line)")
    names = _split(tokens if isinstance(tokens, str) else " ".join(tokens))
    if names == ["-"]:
        names = []
    mask = 0
    for name in names:
        v = graph.position(name)
        if mask >> v & 1:
            raise InputError(
                f"{graph.name}: token vertex {name!r} given twice (a position holds at most "
                "one token per vertex)"
            )
        mask |= 1 << v
    return Annihilation(graph, mask)


def parse_instance(text: str, tokens: str | None = None, name: str = "graph") -> Annihilation:
    """An instance from arc-list text (see :mod:`pyasp_games.engines.graphs`)."""
    return make_instance(parse_arcs(text, name), tokens)


def load_instance(path: Path | str, tokens: str | None = None, fmt: str | None = None) -> Annihilation:
    """Read an Annihilation game from a graph file.

    Parameters
    ----------
    path : path-like or str
        A digraph file (:func:`~pyasp_games.engines.graphs.read_graph`), with an optional
        ``# tokens:`` header.
    tokens : str or None, optional
        The vertices holding a token, separated by spaces or commas; ``None``: the header.
    fmt : str or None, optional
        The graph format; ``None``: by the extension.

    Returns
    -------
    Annihilation
        The game: the digraph and its tokens.

    Raises
    ------
    InputError
        A bad file, no tokens, an unknown vertex or two tokens on one vertex.
    """
    return make_instance(read_graph(path, fmt), tokens)


def load_instances(path: Path) -> list[Annihilation]:
    """One-element list, for the domain's ``load_file`` (tokens from the header)."""
    return [load_instance(path)]


def known_outcome(instance: Annihilation) -> str | None:
    """The answer stated by a ``# outcome: first|second|draw`` header, if any."""
    text = instance.graph.headers.get("outcome")
    if text is None:
        return None
    if text not in OUTCOMES:
        raise InputError(f"{instance.name}: '# outcome:' must be one of {', '.join(OUTCOMES)}")
    return text


def format_instance(inst: Annihilation) -> str:
    """The instance as an arc-list file whose ``# tokens:`` header gives the tokens."""
    graph = inst.graph
    headers = {"tokens": " ".join(inst.token_names) or "-"}
    named = ((graph.names[u], graph.names[v]) for u, v in graph.arcs())
    return from_arcs(named, graph.names, graph.name, headers).format_arcs()


def random_instance(
    n: int = 20,
    seed: int = 0,
    tokens: int = 4,
    degree: float = 1.5,
    loops: bool = False,
    finite: bool = False,
) -> Annihilation:
    """A random instance (bench generator ``random``): ``round(degree * n)`` distinct
    arcs on ``n`` vertices (self-loops only with ``loops``), ``tokens`` tokens on
    distinct random vertices (with ``finite``: on vertices of finite generalized
    Sprague-Grundy value only, where the nim-sum relations alone decide); deterministic in its
    arguments.

    >>> inst = random_instance(10, seed=1, tokens=3)
    >>> inst.name, len(inst.tokens), inst.graph.arc_count
    ('rand-10-3-1', 3, 15)
    """
    n = checked_int(n, "n", 1, MAX_VERTICES)
    tokens = checked_int(tokens, "tokens", 0, n)
    degree = checked_real(degree, "degree", 0, n)
    possible = n * n if loops else n * (n - 1)
    check_random_size(n, round(degree * n), possible)
    rng = random.Random(checked_int(seed, "seed"))
    arcs: set[tuple[int, int]] = set()
    while len(arcs) < round(degree * n):
        u, v = rng.randrange(n), rng.randrange(n)
        if loops or u != v:
            arcs.add((u, v))
    graph = from_arcs(sorted(arcs), range(n), name=f"rand-{n}-{tokens}-{seed}")
    places = list(range(n))
    if finite:
        from pyasp_games.domains.grundy.generalized import generalized_grundy

        values, _ = generalized_grundy(graph)
        places = [v for v in places if isinstance(values[v], int)]
        if len(places) < tokens:
            raise InputError(
                f"only {len(places)} vertices of finite value for {tokens} tokens (seed {seed})"
            )
    chosen = rng.sample(places, tokens)
    return Annihilation(graph, sum(1 << v for v in chosen))


def numbered_instance(n: int, arcs: tuple[tuple[int, int], ...], mask: int, name: str) -> Annihilation:
    """The instance on vertices ``a, b, ...`` with ``arcs`` and the tokens of ``mask``."""
    graph = numbered_digraph(n, arcs, name)
    return Annihilation(graph, mask)


def small_instances(max_vertices: int = 3) -> Iterator[Annihilation]:
    """Every digraph on at most ``max_vertices`` vertices up to isomorphism (self-loops
    included) with every placement of the tokens, fewest vertices first: the fuzzer's
    small scope and the tests' exhaustive comparison (3 vertices: 116 digraphs, 876
    instances).

    >>> sum(1 for _ in small_instances(2))
    44
    """
    for k, (n, arcs) in enumerate(small_digraphs(max_vertices)):
        for mask in range(1 << n):
            yield numbered_instance(n, arcs, mask, f"small-{k}-{mask}")


def strategy(size: int) -> Any:
    """A hypothesis strategy of instances on at most ``size`` vertices."""
    from hypothesis import strategies as st

    from pyasp_games.engines.graphs import digraph_strategy

    return digraph_strategy(size).flatmap(
        lambda g: st.integers(0, (1 << g[0]) - 1).map(
            lambda mask: numbered_instance(g[0], g[1], mask, "drawn")
        )
    )

