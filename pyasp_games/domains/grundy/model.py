"""Game graphs for impartial games: loading, positions, sums, and generalized values.

The instance of the ``grundy`` domain is a :class:`~pyasp_games.engines.graphs.Digraph`
(read by :mod:`pyasp_games.engines.graphs`): vertices are positions, arcs are moves, the
player who cannot move loses (normal play). An arc-list file may state its known
number of Grundy functions in a ``# grundy-functions: N`` header, which
``crosscheck`` compares the backends' counts against.

Values of Smith's generalized Sprague–Grundy function are either a natural number
or :class:`Infinity` ``∞(K)`` with ``K`` the finite values among the successors,
written ``inf(0,2)``:

>>> g = parse_graph("a b\\nb c\\nc a\\n", name="c3")
>>> len(g), known_count(g)
(3, None)
>>> str(Infinity(frozenset({2, 0})))
'inf(0,2)'
>>> nim_sum(Infinity(frozenset({1})), 3), nim_sum(Infinity(frozenset()), Infinity(frozenset({0})))
(Infinity(K=frozenset({2})), Infinity(K=frozenset()))
>>> split_component("games/a.txt:start")
('games/a.txt', 'start')

The classic games' positions (:class:`Nim`, :class:`SubtractionGame`,
:class:`GrundysGame`) are read from the command line's numbers:

>>> nim_position([3, 4, 5]).name, subtraction_game("3,1,2", 12).moves, mex({0, 1, 3})
('nim(3,4,5)', (1, 2, 3), 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pyasp_games.engines.graphs import Digraph, parse_arcs, read_graph
from pyasp_games.errors import InputError, ascii_int, checked_int, checked_real


def mex(values: Iterable[int]) -> int:
    """The minimum excludant: the least natural number not in ``values``."""
    present = set(values)
    k = 0
    while k in present:
        k += 1
    return k


@dataclass(frozen=True)
class Infinity:
    """The generalized value ``∞(K)``: no finite value, ``K`` = finite values of the successors."""

    K: frozenset[int]

    def __str__(self) -> str:
        return f"inf({','.join(map(str, sorted(self.K)))})"


#: A generalized Sprague–Grundy value: a natural number or ``∞(K)``.
Value = int | Infinity


def format_value(value: Value) -> int | str:
    """JSON form of a value: the number itself, or ``"inf(0,2)"``."""
    return value if isinstance(value, int) else str(value)


def nim_sum(a: Value, b: Value) -> Value:
    """Smith's generalized nim-sum: XOR of numbers, ``∞(K)⊕a = ∞(K⊕a)``, ``∞⊕∞ = ∞(∅)``."""
    if isinstance(a, int) and isinstance(b, int):
        return a ^ b
    if isinstance(a, Infinity) and isinstance(b, Infinity):
        return Infinity(frozenset())
    inf, n = (a, b) if isinstance(a, Infinity) else (b, a)
    assert isinstance(inf, Infinity) and isinstance(n, int)
    return Infinity(frozenset(k ^ n for k in inf.K))


def outcome_class(value: Value) -> str:
    """``P`` (value 0), ``D`` (``∞(K)`` with 0 not in K) or ``N`` (every other value)."""
    if isinstance(value, int):
        return "P" if value == 0 else "N"
    return "N" if 0 in value.K else "D"


def parse_graph(text: str, name: str = "graph") -> Digraph:
    """A game graph from arc-list text (see :mod:`pyasp_games.engines.graphs`)."""
    return parse_arcs(text, name)


def load_graph(path: Path | str, fmt: str | None = None) -> Digraph:
    """Read a game graph file.

    Parameters
    ----------
    path : path-like or str
        An arc list (``u v`` a line, ``# key: value`` headers), an adjacency list,
        GraphML or node-link JSON (:func:`~pyasp_games.engines.graphs.read_graph`).
    fmt : {"arcs", "adjlist", "graphml", "json"} or None, optional
        The format; ``None``: by the file's extension (``arcs`` for any other).

    Returns
    -------
    Digraph
        The game graph: positions are vertices, moves are arcs (duplicates dropped).

    Raises
    ------
    InputError
        A missing or unreadable file, an unknown format, or text that is no graph.

    Notes
    -----
    O(V + E) for an arc list.
    """
    return read_graph(path, fmt)


def load_graphs(path: Path) -> list[Any]:
    """One-element list, for the domain's ``load_file`` (a ``# play: misere`` header, as
    the fuzzer writes a misère instance, reads the graph under the misère rule)."""
    graph = load_graph(path)
    return [Misere(graph) if graph.headers.get("play") == "misere" else graph]


def known_count(graph: Digraph) -> int | None:
    """The number of Grundy functions stated by a ``# grundy-functions: N`` header."""
    text = getattr(graph, "game", graph).headers.get("grundy-functions")  # a Misere graph: its own
    if text is None:
        return None
    if not text.isdigit():
        raise InputError(f"{graph.name}: '# grundy-functions:' needs a number, got {text!r}")
    return int(text)


def split_component(text: str) -> tuple[str, str]:
    """``GRAPH:POSITION`` -> ``(GRAPH, POSITION)`` (split at the last colon)."""
    path, sep, position = text.rpartition(":")
    if not sep or not path or not position:
        raise InputError(f"expected GRAPH:POSITION, got {text!r}")
    return path, position


def random_arcs(
    n: int, seed: int, sinks: float = 0.0, low: int = 1, high: int = 4
) -> list[tuple[int, int]]:
    """Random game-graph arcs on vertices ``0 .. n-1`` (the Grundy benchmarks' family).

    Every vertex is a sink with probability ``sinks`` and otherwise gets an out-degree
    uniform in ``low..high`` and that many distinct successors uniform among the other
    vertices (no self-loops).

    >>> arcs = random_arcs(5, seed=1)
    >>> all(u != v for u, v in arcs), sorted({u for u, _ in arcs})
    (True, [0, 1, 2, 3, 4])
    """
    import random

    rng = random.Random(seed)
    arcs = []
    for u in range(n):
        if sinks and rng.random() < sinks:
            continue
        k = min(rng.randint(low, high), n - 1)
        outs: set[int] = set()
        while len(outs) < k:
            v = rng.randrange(n)
            if v != u:
                outs.add(v)
        arcs += [(u, v) for v in sorted(outs)]
    return arcs


def arc_text(arcs: list[tuple[int, int]], n: int) -> str:
    """The arc-list format with vertices ``v0 .. v{n-1}`` (every position declared)."""
    lines = [f"v{u}\n" for u in range(n)]  # declare every position (sinks included)
    lines += [f"v{u} v{v}\n" for u, v in arcs]
    return "".join(lines)


def random_digraph(
    n: int, seed: int, sinks: float = 0.0, low: int = 1, high: int = 4
) -> Digraph:
    """:func:`random_arcs` as a game graph named ``random-{n}-{seed}`` (bench generator ``random``).

    >>> random_digraph(6, seed=2).name
    'random-6-2'
    """
    from pyasp_games.engines.graphs import check_random_size

    # refused before any work: the out-degrees are clipped to the n - 1 other vertices
    checked_int(n, "n", 1)
    checked_real(sinks, "sinks", 0, 1)
    checked_int(low, "low")
    checked_int(high, "high", low)
    check_random_size(n, n * min(high, n - 1), n * (n - 1))
    return parse_graph(arc_text(random_arcs(n, seed, sinks, low, high), n), name=f"random-{n}-{seed}")


@dataclass(frozen=True)
class GameSum:
    """A sum of games: component ``i`` is ``graphs[i]`` at position ``positions[i]``,
    read from ``paths[i]`` (a file given twice is read once: the same graph object)."""

    graphs: tuple[Digraph, ...]
    positions: tuple[int, ...]
    paths: tuple[str, ...]
    name: str = "sum"


def read_sum(components: Sequence[str], fmt: str | None = None) -> GameSum:
    """The sum of the ``components`` ``GRAPH:POSITION`` (bad ones raise :class:`InputError`)."""
    graphs, positions, paths = [], [], []
    cache: dict[str, Digraph] = {}
    for spec in components:
        path, position = split_component(spec)
        if path not in cache:
            cache[path] = load_graph(path, fmt)
        graphs.append(cache[path])
        positions.append(cache[path].position(position))
        paths.append(path)
    if len(graphs) < 2:  # each component was good: what is missing is a second one
        raise InputError(
            "a sum needs two or more components GRAPH:POSITION (the value of one game: "
            "grundy values GRAPH --position POSITION)"
        )
    return GameSum(tuple(graphs), tuple(positions), tuple(paths))


def distinct(graphs: Sequence[Digraph]) -> list[int]:
    """For each graph, the index of its first occurrence (a graph given twice is solved once).

    >>> g, h = parse_graph("a b\\n"), parse_graph("a b\\n")
    >>> distinct([g, h, g])
    [0, 1, 0]
    """
    return [next(j for j in range(i + 1) if graphs[j] is g) for i, g in enumerate(graphs)]


# -- the classic games' positions -----------------------------------------------------

#: the largest heap (``--upto``) and the largest move the classic games take: beyond
#: these the values alone would fill the memory, which no user can mean
MAX_HEAP = 10_000_000


def check_heap_size(n: int, what: str) -> None:
    """Raise :class:`InputError` naming :data:`MAX_HEAP` when ``n`` exceeds it."""
    if n > MAX_HEAP:
        raise InputError(f"{what} {n} is beyond this tool's limit of {MAX_HEAP:,}")


@dataclass(frozen=True)
class Nim:
    """A Nim position: the heap sizes."""

    heaps: tuple[int, ...]
    #: the play convention: misère (the player who moves last loses) or normal
    misere: bool = False

    @property
    def name(self) -> str:
        return _played(self.misere) + "nim(" + ",".join(map(str, self.heaps)) + ")"


@dataclass(frozen=True)
class SubtractionGame:
    """The subtraction game with the (sorted) subtraction set ``moves``, shown up to ``upto``."""

    moves: tuple[int, ...]
    upto: int
    #: the play convention: misère (the player who moves last loses) or normal
    misere: bool = False

    @property
    def name(self) -> str:
        return _played(self.misere) + f"subtraction({','.join(map(str, self.moves))})"


@dataclass(frozen=True)
class GrundysGame:
    """Grundy's game (split a heap into two unequal heaps) on the heaps ``1..upto``."""

    upto: int
    #: the play convention: misère (the player who moves last loses) or normal
    misere: bool = False

    @property
    def name(self) -> str:
        return _played(self.misere) + f"grundys-game({self.upto})"


def _played(misere: bool) -> str:
    """How a name says the play convention: ``misere-`` before it, nothing for normal play."""
    return "misere-" if misere else ""


@dataclass(frozen=True)
class Misere:
    """A game graph or a sum of them (:attr:`game`) played under the misère rule: the
    player who moves last loses (the player unable to move wins). What ``--misere``
    reads: the play convention is part of the instance, so that the checker and a saved
    answer's recheck know which rule the answer is about.

    >>> Misere(parse_graph("a b\\n", name="g")).name
    'misere-g'
    """

    game: Digraph | GameSum

    @property
    def name(self) -> str:
        return _played(True) + self.game.name


def played(game: Digraph | GameSum, misere: bool | None) -> Digraph | GameSum | Misere:
    """``game`` under the misère rule when ``misere``, else itself (normal play)."""
    return Misere(game) if misere else game


def _required(value: object, option: str, what: str) -> None:
    if value is None:
        raise InputError(f"missing option {option} ({what})")


def nim_position(heaps: Sequence[int] | None, misere: bool | None = False) -> Nim:
    """A Nim position (``misere``: under the misère rule); negative heaps are :class:`InputError`."""
    _required(heaps or None, "HEAPS", "the heap sizes, e.g. 3 4 5")
    if any(h < 0 for h in heaps or ()):
        raise InputError("heap sizes must be non-negative")
    return Nim(tuple(heaps or ()), bool(misere))


def subtraction_game(
    moves: str | None, upto: int | None, misere: bool | None = False
) -> SubtractionGame:
    """The subtraction game of ``moves`` (comma-separated positive integers) up to ``upto``."""
    _required(moves, "--moves", "the subtraction set, e.g. 1,2,3")
    _required(upto, "--upto", "the largest heap to show")
    assert moves is not None and upto is not None
    bad = f"--moves: expected comma-separated positive integers, got {moves!r}"
    try:
        ds = sorted({ascii_int(x) for x in moves.split(",") if x.strip()})
    except ValueError:
        raise InputError(bad) from None
    if not ds or ds[0] < 1:
        raise InputError(bad)
    if upto < 0:
        raise InputError(f"--upto must be non-negative, got {upto}")
    check_heap_size(upto, "--upto")
    check_heap_size(ds[-1], "--moves: a move of")
    return SubtractionGame(tuple(ds), upto, bool(misere))


def grundys_game_heaps(upto: int | None, misere: bool | None = False) -> GrundysGame:
    """Grundy's game on the heaps ``1..upto``."""
    _required(upto, "--upto", "the largest heap")
    assert upto is not None
    if upto < 1:
        raise InputError(f"--upto must be at least 1, got {upto}")
    check_heap_size(upto, "--upto")
    return GrundysGame(upto, bool(misere))


# -- fuzzing: every small game graph, then random ones (``pyasp-games fuzz grundy``) --------


def small_game_graphs() -> Iterable[Digraph]:
    """Every game graph on at most 3 positions up to isomorphism, self-loops included
    (116 graphs), then every one on 4 positions without self-loops (218), fewest
    positions and moves first: the fuzzer's small scope. Four positions is where a mex
    that looks at one value only first fails (``v a, v b, a z, b z, z v``).

    >>> graphs = list(small_game_graphs())
    >>> len(graphs), graphs[1].format_arcs()
    (334, 'a a\\n')
    """
    from pyasp_games.engines.graphs import numbered_digraph, small_digraphs

    k = 0
    for n, arcs in small_digraphs(3):
        yield numbered_digraph(n, arcs, name=f"small-{k}")
        k += 1
    for n, arcs in small_digraphs(4, loops=False):
        if n == 4:
            yield numbered_digraph(n, arcs, name=f"small-{k}")
            k += 1


def graph_parts(graph: Digraph) -> Iterable[Digraph]:
    """The game graph with one position or one move deleted, for each: what the
    fuzzer's shrinker tries."""
    from pyasp_games.engines.graphs import digraph_parts, numbered_digraph

    for n, arcs in digraph_parts(len(graph), graph.arcs()):
        yield numbered_digraph(n, arcs, name=graph.name)


def graph_relabellings(graph: Digraph) -> Iterable[Digraph]:
    """The game graph under other position names, the canonical smallest first."""
    from pyasp_games.engines.graphs import digraph_relabellings, numbered_digraph

    for n, arcs in digraph_relabellings(len(graph), graph.arcs()):
        yield numbered_digraph(n, arcs, name=graph.name)


def game_graph_strategy(size: int) -> object:
    """A hypothesis strategy of game graphs on at most ``size`` positions (any arcs,
    self-loops included); hypothesis shrinks them to fewer positions and moves."""
    from pyasp_games.engines.graphs import digraph_strategy, numbered_digraph

    return digraph_strategy(size).map(lambda g: numbered_digraph(*g, name="fuzz"))


def outcome_witness(graph: Digraph, classes: Sequence[str]) -> dict[str, dict[str, str | None]]:
    """Every position's class and the move shown for it (``grundy outcomes``): from an
    N-position its first move to a P-position, from a D-position its first move to a
    D-position, none from a P-position (or an N-position without moves, misère). How
    a labelling is shown, the same whichever backend found it.

    >>> g = parse_graph("a b\\nb c\\n")
    >>> outcome_witness(g, ["N", "P", "N"])["a"]
    {'class': 'N', 'move': 'b'}
    """
    out: dict[str, dict[str, str | None]] = {}
    for v, name in enumerate(graph.names):
        want = {"N": "P", "D": "D"}.get(classes[v])
        move = next((w for w in graph.succ[v] if classes[w] == want), None) if want else None
        out[name] = {"class": classes[v], "move": None if move is None else graph.names[move]}
    return out


@dataclass(frozen=True)
class OctalGame:
    """An octal game (its code, e.g. ``0.07``) on the sums of heaps up to ``upto``:
    what ``games quotient`` answers (under misère play: a quotient is misère's)."""

    code: str
    upto: int

    @property
    def name(self) -> str:
        return f"octal({self.code}, heaps<={self.upto})"


def octal_game(code: str | None, upto: int | None) -> OctalGame:
    """The octal game ``code`` on heaps up to ``upto`` (both checked)."""
    from pyasp_games.domains.grundy.quotient import MAX_HEAP, parse_octal

    _required(code, "--code", "the octal code, e.g. 0.07")
    _required(upto, "--upto", "the largest heap")
    assert code is not None and upto is not None
    parse_octal(code)
    if not 1 <= upto <= MAX_HEAP:
        raise InputError(f"--upto must be from 1 to {MAX_HEAP} (this tool's limit), got {upto}")
    return OctalGame(code, upto)
