"""Impartial games on graphs: Grundy values, sums, Nim, loopy graphs, existence.

The questions are declared in :mod:`pyasp_games.domains.grundy.questions` (``QUESTIONS``:
``grundy values|sum|exists|kernel|loopy|circuit``; ``GAMES``: ``games
nim|subtraction|grundys-game|nim-census``). ``BACKENDS`` maps each backend's name to ``(graph, limits, mode=..., find=...)
-> Claim`` for the NP-complete questions (does a Grundy function / a kernel
exist; all of them; how many). :func:`solve` runs one under limits and verifies
it; :func:`loopy` computes Smith's generalized Sprague–Grundy function and checks
it against Smith's conditions and an independent retrograde labelling.

>>> from pyasp_games.domains.grundy.model import parse_graph
>>> c4 = parse_graph("a b\\nb c\\nc d\\nd a\\n", name="c4")
>>> [solve(c4, b, mode="count").answer for b in BACKENDS]
[2, 2, 2]
>>> out = solve(parse_graph("a b\\nb c\\nc a\\n"), "sat")
>>> out.status, out.answer, out.verdict.verified
('no-solution', False, True)
>>> loopy(parse_graph("a b\\nb a\\nb c\\nd e\\ne d\\n")).witness
{'a': 0, 'b': 1, 'c': 0, 'd': 'inf()', 'e': 'inf()'}
"""

from __future__ import annotations

from typing import Any

from pyasp_games.domains.grundy.model import Misere, known_count, load_graph, load_graphs
from pyasp_games.domains.grundy.questions import (
    BACKENDS,
    EXISTS,
    GAMES,
    KERNEL,
    LOOPY,
    OUTCOMES,
    QUESTIONS,
    REFERENCE,
)
from pyasp_games.domains.grundy.verify import check_outcome
from pyasp_games.engines.domain import DomainSpec
from pyasp_games.engines.fuzzing import Family, Fuzzing, plural
from pyasp_games.engines.graphs import Digraph
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.errors import InputError

__all__ = [
    "BACKENDS",
    "GAMES",
    "QUESTIONS",
    "REFERENCE",
    "check_outcome",
    "domain",
    "load_graph",
    "loopy",
    "solve",
]


def solve(
    graph: Digraph, backend: str, limits: Limits = Limits(), find: str = "grundy", **options: Any
) -> Outcome:
    """Decide, count or list the Grundy functions (or kernels) of a digraph, verified.

    Parameters
    ----------
    graph : Digraph
        The game graph (:func:`~pyasp_games.domains.grundy.model.load_graph`,
        :func:`~pyasp_games.domains.grundy.model.parse_graph`); cycles allowed.
    backend : str
        One of :data:`BACKENDS`: ``native``, ``asp``, ``sat``.
    limits : Limits, optional
        What the run may spend (:class:`~pyasp_games.engines.limits.Limits`): wall-clock and
        CPU seconds, memory. The default sets none but the memory cap
        (:func:`~pyasp_games.engines.limits.default_memory_limit`).
    find : {"grundy", "kernel"}, optional
        What to look for: a Grundy function (the default) or a kernel (an independent,
        absorbing set of vertices).
    **options
        ``mode``: ``one`` (existence, the default), ``count`` or ``all``; the backend's own
        keywords (``asp``: ``encoding``, ``core``, ``arguments``, ``emit_lp``; ``sat``:
        ``solver``, ``core``, ``by_kernels``, ``emit_cnf``); the clingo options
        ``clingo_option=[...]``, ``const=[...]``, ``parallel_mode`` (``asp``); and
        ``trust_encoding=True`` (a user encoding's claims that no checker confirms alone are
        then marked trusted instead of cross-checked against the reference backend).

    Returns
    -------
    Outcome
        With ``mode="one"``: ``answer`` ``True`` and the function (vertex -> value) or
        kernel as ``witness``, or ``False`` (status ``no-solution``); with ``count``: the
        number found; with ``all``: the number and every one as ``witness``. Every function
        or kernel reported is checked against the definition.

    Raises
    ------
    InputError
        An unknown ``backend``, an option the backend does not take (named, with the nearest
        one), or a bad option value (e.g. an encoding file that does not exist, a clingo
        option clingo refuses); a ``find`` other than ``grundy`` or ``kernel``.

    Notes
    -----
    On a digraph with cycles a Grundy function may not exist: deciding whether one does
    is NP-complete [2]_, and so is deciding whether a kernel exists [1]_ (``by_kernels``
    builds a Grundy function as a kernel per value). On an acyclic graph the Grundy
    function exists, is unique and takes linear time (``grundy values``). ``native`` is
    a backtracking search, exponential in the worst case; ``asp`` and ``sat`` hand the
    same question to clingo and to a SAT solver.

    References
    ----------
    .. [1] V. Chvátal, "On the computational complexity of finding a kernel", Report
       CRM-300, Centre de Recherches Mathématiques, Université de Montréal, 1973.
    .. [2] J. van Leeuwen, "Having a Grundy-numbering is NP-complete", Report 207,
       Computer Science Department, Pennsylvania State University, 1976.
    """
    if find not in ("grundy", "kernel"):
        raise InputError(f"find={find!r}: choose 'grundy' (a Grundy function) or 'kernel'")
    if isinstance(graph, Misere):  # a '# play: misere' file: no Grundy function is misère
        raise InputError(
            f"{graph.game.name} is played under the misère rule ('# play: misere'): Grundy "
            "functions and kernels are about normal play; ask 'grundy outcomes --misere'"
        )
    return (KERNEL if find == "kernel" else EXISTS).solve(graph, backend, limits, **options)


def loopy(graph: Digraph, limits: Limits = Limits(), check_asp: bool = False) -> Outcome:
    """Smith's generalized Sprague–Grundy function, verified (conditions (a)-(c) with the
    counter, local P/N/D consistency, and agreement with retrograde labelling;
    ``check_asp``: with the ASP retrograde labelling too)."""
    return LOOPY.solve(graph, "native", limits, check_asp=check_asp)


def _count(graph: Digraph | Misere, backend: str, limits: Limits, **options: Any) -> Outcome:
    # counting by default; a bench suite may ask for another mode (e.g. ``one``: existence).
    # A '# play: misere' file has no Grundy function to count: it asks for the misère
    # classes of its positions (``grundy outcomes``), which native and ASP both answer.
    if isinstance(graph, Misere):
        options.pop("mode", None)
        return OUTCOMES.solve(graph, backend, limits, **options)
    return solve(graph, backend, limits, **{"mode": "count", **options})


def _applies(graph: Digraph | Misere, backend: str) -> bool:
    """Every backend counts Grundy functions; a misère file is answered by ``outcomes``'
    backends only (a SAT formula of the misère classes is not built)."""
    return not isinstance(graph, Misere) or backend in OUTCOMES.backends


def _describe(graph: Digraph | Misere, outcome: Outcome, options: dict[str, Any]) -> Any:
    return (OUTCOMES if isinstance(graph, Misere) else EXISTS).describe(graph, outcome, options)


def _known(graph: Digraph) -> tuple[bool, Any]:
    count = known_count(graph)
    return (False, None) if count is None else (True, count)


def domain() -> DomainSpec:
    """The grundy domain for crosscheck: every backend counts the Grundy functions; a file
    under the misère rule (``# play: misere``) is classified instead (``grundy outcomes``)
    by the native and the ASP labelling."""
    from pyasp_games.domains.grundy.model import random_digraph

    return DomainSpec.asking(
        EXISTS, load_graphs, _known, solve=_count, generators={"random": random_digraph},
        questions=QUESTIONS, fuzzing=fuzzing(), applies=_applies, describe=_describe,
    )  # fmt: skip


def _witness_atoms(graph: Any, outcome: Any) -> list[tuple[str, bool]]:
    """The reference's Grundy function (``value(V,K)``), kernel (``in(V)``) or classes
    (``win/lose/draw(V)``, ``grundy outcomes``) as atoms over position numbers, for
    blaming an encoding that missed it."""
    graph = getattr(graph, "game", graph)  # a graph under the misère rule: its own positions
    number = {name: v for v, name in enumerate(graph.names)}
    if isinstance(outcome.answer, dict) and set(outcome.answer.values()) <= {"P", "N", "D"}:
        named = {"P": "lose", "N": "win", "D": "draw"}
        return [(f"{named[c]}({number[n]})", True) for n, c in outcome.answer.items()]
    if isinstance(outcome.witness, dict):
        return [(f"value({number[n]},{k})", True) for n, k in outcome.witness.items()]
    inside = {number[n] for n in outcome.witness}
    return [(f"in({v})", v in inside) for v in range(len(graph))]


def fuzzing() -> Fuzzing:
    """What ``pyasp-games fuzz grundy`` draws: game graphs (cycles and self-loops
    included), every small one first, for ``exists`` and ``kernel``."""
    from pyasp_games.domains.grundy.model import (
        game_graph_strategy,
        graph_parts,
        graph_relabellings,
        small_game_graphs,
    )

    graphs = Family(
        "digraph",
        "game graphs with any moves (cycles and self-loops included)",
        strategy=game_graph_strategy,
        small=small_game_graphs,
        small_help="every game graph on at most 3 positions and every one on 4 without "
        "self-loops, up to isomorphism",
        sizes=(3, 10),
        relabel=graph_relabellings,
        parts=graph_parts,
        answers={"play": "normal"},
    )
    # the same graphs under the misère rule, for an encoding whose header says '% play: misere'
    misere = Family(
        "misere-digraph",
        "game graphs with any moves, played under the misère rule (grundy outcomes --misere)",
        strategy=lambda size: game_graph_strategy(size).map(Misere),
        small=lambda: map(Misere, small_game_graphs()),
        small_help="every game graph on at most 3 positions and every one on 4 without "
        "self-loops, up to isomorphism, under the misère rule",
        sizes=(3, 10),
        relabel=lambda g: map(Misere, graph_relabellings(g.game)),
        parts=lambda g: map(Misere, graph_parts(g.game)),
        answers={"play": "misere"},
    )

    def graph_of(instance: Any) -> Digraph:
        return instance.game if isinstance(instance, Misere) else instance

    def write(instance: Any) -> str:  # the play convention as a header the loader reads
        head = "# play: misere\n" if isinstance(instance, Misere) else ""
        return head + graph_of(instance).format_arcs()

    return Fuzzing(
        ("exists", "kernel", "outcomes"), (graphs, misere), size=lambda g: len(graph_of(g)),
        unit="positions", write=write, witness=_witness_atoms, defaults={"play": "normal"},
        measure=lambda g: f"{plural(len(graph_of(g)), 'position')}, {plural(graph_of(g).arc_count, 'move')}",
    )  # fmt: skip
