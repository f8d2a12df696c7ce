"""Routing permutations on graphs: the instance (graph + arrangement + target), its files,
random arrangements, and the permutation facts every backend and the checker share.

A connected graph carries one pebble on every vertex; the pebble on vertex ``u``
must reach vertex ``pi(u)``. Three move rules:

- ``matching``: one step swaps the pebbles at both ends of every edge of a matching
  (Alon, Chung, Graham 1994: the routing number rt(G, pi));
- ``swap``: one step swaps the pebbles at the ends of one edge (token swapping);
- ``blank``: one vertex is empty; one step slides a neighbouring pebble into it
  (the 15-puzzle on any graph). The blank is a pebble too: it must reach ``pi(blank)``.

A state is a tuple ``s`` with ``s[v]`` the target vertex of the pebble now on ``v``;
the goal is the identity ``s[v] == v``. Every move exchanges two entries.

Files: the graph is a file (:func:`pyasp_games.engines.graphs.read_graph`) or a spec
(:mod:`~pyasp_games.domains.routing.specs`); the arrangement is lines ``u v`` (the pebble on
``u`` goes to ``v``; vertices not named stay) and optionally ``blank u``, with
``# moves: matching|swap|blank``, ``# known: N`` and ``# graph: FILE`` (relative to the
arrangement, or a spec) headers. A ``# graph:`` header names the arrangement's graph:
given a graph as well, the two must be the same graph.

>>> g = graph_spec("path:3")
>>> g.names, g.edges
(('0', '1', '2'), ((0, 1), (1, 2)))
>>> inst = parse_arrangement("0 2\\n2 0\\n", g)
>>> inst.state, inst.moves
((2, 1, 0), 'matching')
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pyasp_games.domains.routing.specs import graph_spec, looks_like_spec, read_graph
from pyasp_games.engines.files import comment_header, comment_headers
from pyasp_games.engines.graphs import Graph
from pyasp_games.errors import InputError, read_text

#: The move rules.
MOVES = ("matching", "swap", "blank")


@dataclass(eq=False)
class Instance:
    """A routing problem: ``state[v]`` is the target vertex of the pebble on ``v``."""

    graph: Graph
    state: tuple[int, ...]
    moves: str = "matching"
    #: the vertex that is empty (``blank`` moves only)
    blank: int | None = None
    name: str = "routing"
    known: int | str | None = None
    headers: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.moves not in MOVES:
            raise InputError(
                f"{self.name}: unknown move rule {self.moves!r} (choose from {', '.join(MOVES)})"
            )
        n = len(self.graph)
        if sorted(self.state) != list(range(n)):
            raise InputError(f"{self.name}: the arrangement is not a permutation of the vertices")
        if self.moves == "blank" and self.blank is None:
            raise InputError(f"{self.name}: the blank move rule needs a 'blank VERTEX' line")
        if self.moves != "blank":
            self.blank = None

    def format_arrangement(self) -> str:
        g = self.graph
        lines = [f"# moves: {self.moves}"]
        if self.known is not None:
            lines.append(f"# known: {self.known}")
        lines += [f"{g.names[u]} {g.names[t]}" for u, t in enumerate(self.state) if u != t]
        if self.blank is not None:
            lines.append(f"blank {g.names[self.blank]}")
        return "\n".join(lines) + "\n"


# -- arrangements --------------------------------------------------------------------


def parse_arrangement(
    text: str, graph: Graph, name: str = "routing", moves: str | None = None
) -> Instance:
    """Parse an arrangement (``u v`` lines, ``blank u``, headers) against ``graph``."""
    headers: dict[str, str] = {}
    target: dict[int, int] = {}
    blank = None
    for number, raw in enumerate(text.splitlines(), 1):
        header = comment_header(raw)
        if header is not None:
            headers[header[0]] = header[1]
        parts = raw.partition("#")[0].split()
        if not parts:
            continue
        where = f"{name}, line {number}"
        if len(parts) != 2:
            raise InputError(
                f"{where}: expected 'u v' (the pebble on u goes to v) or 'blank u', got {raw.strip()!r}"
            )
        if parts[0] == "blank" and "blank" not in graph.index:
            if blank is not None:
                raise InputError(f"{where}: a second blank")
            blank = _vertex(graph, parts[1], where)
            continue
        u, v = _vertex(graph, parts[0], where), _vertex(graph, parts[1], where)
        if u in target:
            raise InputError(
                f"{where}: vertex {parts[0]!r} already has its pebble's target (duplicate pebble)"
            )
        target[u] = v
    taken: dict[int, int] = {}
    for u, v in target.items():
        if v in taken:
            raise InputError(
                f"{name}: the pebbles on {graph.names[taken[v]]!r} and {graph.names[u]!r} both go to {graph.names[v]!r}"
            )
        taken[v] = u
    for u in range(len(graph)):  # vertices not named keep their pebble, unless that target is taken
        if u not in target:
            if u in taken:
                raise InputError(
                    f"{name}: vertex {graph.names[u]!r} is the target of {graph.names[taken[u]]!r} but its own pebble has no target (wrong count)"
                )
            target[u] = u
    moves = moves or headers.get("moves", "blank" if blank is not None else "matching")
    known = headers.get("known")
    if known is not None and known != "none":
        try:
            known = int(known)
        except ValueError:
            raise InputError(
                f"{name}: '# known:' must be a number or 'none', got {known!r}"
            ) from None
    state = tuple(target[u] for u in range(len(graph)))
    return Instance(graph, state, moves, blank, name, known, headers)


def _vertex(graph: Graph, token: str, where: str) -> int:
    if token not in graph.index:
        raise InputError(f"{where}: unknown vertex {token!r} (not in the graph {graph.name})")
    return graph.index[token]


def load_instances(
    path: Path | str, graph: Graph | None = None, moves: str | None = None
) -> list[Instance]:
    """Read an arrangement file; its ``# graph:`` header names the graph where ``graph``
    is not given, and must name the same graph where it is."""
    path = Path(path)
    text = read_text(path)
    ref = comment_headers(text).get("graph", "").strip()  # a file name may hold spaces
    if graph is None and not ref:
        raise InputError(f"{path.name}: no graph given (pass one, or a '# graph: FILE' header)")
    if ref:
        try:
            named = read_graph(ref if looks_like_spec(ref) else path.parent / ref)
        except InputError as err:
            raise InputError(f"{path.name}: its '# graph: {ref}' header: {err}") from None
        if graph is None:
            graph = named
        elif set(named.names) != set(graph.names) or named.named_edges() != graph.named_edges():
            raise InputError(
                f"{path.name}: its '# graph: {ref}' header names another graph than {graph.name}"
            )
    return [parse_arrangement(text, graph, path.name, moves)]


def random_arrangement(
    graph: Graph, seed: int = 0, moves: str = "matching", name: str | None = None
) -> Instance:
    """A random arrangement on ``graph``, deterministic in ``seed``.

    ``matching``/``swap``: a uniformly random permutation. ``blank``: the blank starts
    on vertex 0 and must return there; the arrangement is a long random walk of the
    blank from the solved one, hence always solvable.
    """
    rng = random.Random(seed)
    state = list(range(len(graph)))
    blank = None
    if moves == "blank":
        blank = 0
        for _ in range(200 + 20 * len(graph) if len(graph) > 1 else 0):
            w = rng.choice(graph.adj[blank])
            state[blank], state[w] = state[w], state[blank]
            blank = w
    else:
        rng.shuffle(state)
    return Instance(graph, tuple(state), moves, blank, name or f"{graph.name}#{seed}")


def random_instance(graph: str = "grid:4x4", seed: int = 0, moves: str = "matching") -> Instance:
    """A random arrangement (:func:`random_arrangement`) on a generated graph (a spec)."""
    return random_arrangement(graph_spec(graph), seed, moves, f"{graph}#{seed}:{moves}")


def identity_instance(graph: Graph, moves: str = "matching") -> Instance:
    return Instance(
        graph, tuple(range(len(graph))), moves, 0 if moves == "blank" else None, graph.name
    )


# -- permutations, bounds and schedules (shared by every backend and the checker) --------


def cycle_count(state: tuple[int, ...] | list[int]) -> int:
    """The number of cycles of the permutation (fixed points included)."""
    seen = [False] * len(state)
    cycles = 0
    for i in range(len(state)):
        if not seen[i]:
            cycles += 1
            j = i
            while not seen[j]:
                seen[j] = True
                j = state[j]
    return cycles


def permutation_parity(state: tuple[int, ...] | list[int]) -> int:
    """0 for an even permutation, 1 for odd (by counting cycles)."""
    seen = [False] * len(state)
    parity = 0
    for i in range(len(state)):
        if not seen[i]:
            j, length = i, 0
            while not seen[j]:
                seen[j] = True
                j = state[j]
                length += 1
            parity ^= (length - 1) & 1
    return parity


def lower_bound(inst: Instance, state: tuple[int, ...] | None = None) -> int:
    """An admissible bound on the steps still needed (see the module docstring).

    Under ``swap`` and ``blank`` every step is one transposition, so a schedule's length
    has the parity of the arrangement (as a permutation): the bound is rounded up to it.
    """
    state = inst.state if state is None else state
    d = inst.graph.distances
    if inst.moves == "blank":
        token = inst.state[inst.blank]
        bound = sum(d[v][t] for v, t in enumerate(state) if t != token)
    else:
        dists = [d[v][t] for v, t in enumerate(state)]
        total = sum(dists)
        if inst.moves == "swap":
            # a swap moves two pebbles one edge each, and changes the number of cycles by one
            bound = max(-(-total // 2), len(state) - cycle_count(state))
        else:
            mm = max(inst.graph.max_matching, 1)
            return max(max(dists, default=0), -(-total // (2 * mm)))
    return bound + ((permutation_parity(state) - bound) % 2)


def stride(inst: Instance) -> int:
    """How far apart the possible schedule lengths are: 2 when every step is one transposition."""
    return 1 if inst.moves == "matching" else 2


def schedule_names(g: Graph, schedule: list) -> list[list[list[str]]]:
    """A schedule with vertex names (the witness format)."""
    return [[[g.names[u], g.names[v]] for u, v in step] for step in schedule]


# -- fuzzing: every small arrangement, then random ones (``pyasp-games fuzz routing``) -----

#: The graph families the fuzzer draws, as specs of ``n`` vertices.
FUZZ_GRAPHS = ("path", "cycle", "star", "complete")


def _families(n: int) -> tuple[str, ...]:
    return FUZZ_GRAPHS if n >= 3 else ("path",)  # two vertices: one graph


def _spec(family: str, n: int) -> str:
    return f"star:{n - 1}" if family == "star" else f"{family}:{n}"


def _on_spec(spec: str, state: tuple[int, ...], moves: str, name: str) -> Instance:
    from pyasp_games.domains.routing.specs import graph_spec

    graph = graph_spec(spec)
    return Instance(graph, tuple(state), moves, name=name, headers={"graph": spec})


def small_arrangements(moves: str = "matching") -> Iterator[Instance]:
    """Every arrangement of a path, cycle, star and complete graph on 2 to 4 vertices
    (the same graph met once), fewest vertices first: the fuzzer's small scope.

    >>> len(list(small_arrangements()))
    122
    """
    from itertools import permutations

    seen: set[str] = set()
    for n in (2, 3, 4):
        for family in _families(n):
            spec = _spec(family, n)
            if spec in seen:
                continue
            seen.add(spec)
            for k, state in enumerate(permutations(range(n))):
                yield _on_spec(spec, state, moves, f"small-{spec}-{k}")


def arrangement_strategy(size: int, moves: str = "matching") -> Any:
    """A hypothesis strategy of arrangements on paths, cycles, stars and complete graphs
    of 2 to ``size`` vertices; hypothesis shrinks to fewer vertices and the identity."""
    from hypothesis import strategies as st

    def on(n: int) -> Any:
        return st.builds(
            lambda family, state: _on_spec(_spec(family, n), tuple(state), moves, "fuzz"),
            st.sampled_from(_families(n)), st.permutations(range(n)),
        )

    return st.integers(2, max(2, size)).flatmap(on)


def format_fuzzed(inst: Instance) -> str:
    """An arrangement on a spec graph as a file the routing commands read alone."""
    return f"# graph: {inst.headers['graph']}\n" + inst.format_arrangement()
