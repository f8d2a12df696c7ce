"""Node Kayles: pick a vertex, delete it with its neighbours; who cannot move loses.

A compressed game (Schaefer 1978: PSPACE-complete): the position is a graph, its game
graph holds every induced subgraph a line of play can leave. ``kayles value`` gives
the Grundy value, the outcome and every winning move, by a memoised search over
connected components (``native``), an ASP program deriving the positions and their
values by the mex rule (``asp``), or the game graph expanded and answered by the
``grundy`` domain (``expanded``); ``kayles sequence`` the values along a family
(paths: Dawson's chess, OEIS A002187).

There is no ``sat.py``: a formula for a Grundy *value* has to name every position and
its value, that is, the expanded game graph itself, and the grundy domain already
states "a Grundy function of this graph" as CNF. So the SAT route goes through it:
``--backend expanded --by sat`` expands the position and asks ``grundy exists
--backend sat`` for the (unique, the graph being acyclic) Grundy function; "is the
start a P-position" is its value 0, the kernel of that graph.

>>> from pyasp_games.engines.graphs import numbered_graph
>>> p5 = numbered_graph(5, [(0, 1), (1, 2), (2, 3), (3, 4)], "P5")
>>> [(b, solve(p5, b).answer, solve(p5, b).verdict.verified) for b in BACKENDS]
[('native', 3, True), ('asp', 3, True), ('expanded', 3, True)]
"""

from __future__ import annotations

from typing import Any

from pyasp_games.domains.kayles.model import known_value, load_graphs
from pyasp_games.domains.kayles.questions import BACKENDS, QUESTIONS, REFERENCE, VALUE
from pyasp_games.domains.kayles.verify import check_value
from pyasp_games.engines.domain import DomainSpec
from pyasp_games.engines.fuzzing import Family, Fuzzing, plural
from pyasp_games.engines.graphs import Graph
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome

__all__ = ["BACKENDS", "QUESTIONS", "REFERENCE", "check_value", "domain", "solve"]


def solve(graph: Graph, backend: str, limits: Limits = Limits(), **options: Any) -> Outcome:
    """The Grundy value of a Node Kayles position, who wins and every winning move, verified.

    Parameters
    ----------
    graph : Graph
        The position, an undirected graph
        (:func:`~pyasp_games.domains.kayles.model.load_graph`).
    backend : str
        One of :data:`BACKENDS`: ``native`` (memoised search over connected components),
        ``asp`` (small graphs), ``expanded`` (the game graph answered by the grundy domain).
    limits : Limits, optional
        What the run may spend (:class:`~pyasp_games.engines.limits.Limits`): wall-clock and
        CPU seconds, memory. The default sets none but the memory cap
        (:func:`~pyasp_games.engines.limits.default_memory_limit`).
    **options
        ``native`` takes ``reductions``; ``asp`` ``encoding`` and ``emit_lp``; ``expanded``
        ``by`` (``values``, or a grundy backend); the clingo options
        ``clingo_option=[...]``, ``const=[...]``, ``parallel_mode`` (``asp``); and
        ``trust_encoding=True`` (a user encoding's claims that no checker confirms alone are
        then marked trusted instead of cross-checked against the reference backend).

    Returns
    -------
    Outcome
        ``answer`` the Grundy value (0: the player to move loses), ``witness`` the value
        each move leaves and the winning moves (``winning_moves``), recomputed by the
        checker.

    Raises
    ------
    InputError
        An unknown ``backend``, an option the backend does not take (named, with the nearest
        one), or a bad option value (e.g. an encoding file that does not exist, a clingo
        option clingo refuses).

    Notes
    -----
    Node Kayles is PSPACE-complete [1]_. ``native`` visits connected K-sets, at most
    O(1.6031^n) of them, O(1.4423^n) on trees [2]_ (``stats["components_visited"]``);
    paths are Dawson's chess, whose values are periodic with period 34 [3]_.

    References
    ----------
    .. [1] T. J. Schaefer, "On the complexity of some two-person perfect-information
       games", Journal of Computer and System Sciences 16(2), 1978.
    .. [2] H. L. Bodlaender, D. Kratsch and S. T. H. Timmer, "Exact algorithms for
       Kayles", Theoretical Computer Science 562, 2015.
    .. [3] R. K. Guy and C. A. B. Smith, "The G-values of various games", Proceedings
       of the Cambridge Philosophical Society 52(3), 1956.
    """
    return VALUE.solve(graph, backend, limits, **options)


def _known(graph: Graph) -> tuple[bool, Any]:
    value = known_value(graph)
    return (False, None) if value is None else (True, value)


def _applies(graph: Graph, backend: str) -> bool:
    from pyasp_games.domains.kayles.asp import MAX_VERTICES

    return backend == "native" or len(graph) <= MAX_VERTICES


def domain() -> DomainSpec:
    """The kayles domain for crosscheck, bench and fuzz: the value by every backend that
    applies (``asp`` and ``expanded`` take small graphs only)."""
    from pyasp_games.domains.kayles.model import grid_graph, random_graph, random_tree

    return DomainSpec.asking(
        VALUE, load_graphs, _known, applies=_applies,
        generators={"random": random_graph, "tree": random_tree, "grid": grid_graph},
        questions=QUESTIONS, fuzzing=fuzzing(),
    )  # fmt: skip


def _witness_atoms(graph: Graph, outcome: Any) -> list[tuple[str, bool]]:
    """The reference's verified value (``start_value/1``) and its options' values
    (``option(V,K)``, every move, over vertex numbers) as the encoding's output atoms.

    >>> from pyasp_games.engines.claim import Claim
    >>> path = Graph(["a", "b"], [(0, 1)])
    >>> _witness_atoms(path, Claim.solved(1, {"value": 1, "options": {"a": 0, "b": 0}}))
    [('start_value(1)', True), ('option(0,0)', True), ('option(1,0)', True)]
    """
    if outcome.answer is None:
        return []
    atoms = [(f"start_value({outcome.answer})", True)]
    options = outcome.witness.get("options") if isinstance(outcome.witness, dict) else None
    if isinstance(options, dict) and set(options) <= set(graph.names):
        atoms += [(f"option({graph.names.index(v)},{k})", True) for v, k in options.items()]
    return atoms


def fuzzing() -> Fuzzing:
    """What ``pyasp-games fuzz kayles`` draws: graphs, every one on at most 4 vertices
    first, then random ones."""
    from pyasp_games.domains.kayles.model import format_graph, small_graphs, strategy

    graphs = Family(
        "graph",
        "undirected graphs",
        strategy=strategy,
        small=small_graphs,
        small_help="every graph on at most 4 vertices, up to isomorphism",
        sizes=(3, 8),
    )
    return Fuzzing(
        ("value",), (graphs,), size=len, unit="vertices", write=format_graph,
        witness=_witness_atoms,
        measure=lambda g: f"{plural(len(g), 'vertex', 'vertices')}, {plural(len(g.edges), 'edge')}",
    )  # fmt: skip
