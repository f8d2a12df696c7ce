"""Routing permutations on graphs: matchings (rt(G, pi)), token swapping, the sliding puzzle on any graph.

``BACKENDS`` maps each backend's name to ``(instance, limits, **options) -> Claim``;
:func:`solve` runs one under its limits and verifies the schedule it claims. Exact
backends claim an exact answer, with the grounds of its optimality as the certificate;
the upper-bound algorithms of :mod:`pyasp_games.domains.routing.bounds` claim an upper
bound (crosscheck compares them as bounds) unless they prove their schedule optimal
(``swapper``, where it meets its lower bound).

>>> from pyasp_games.domains.routing.model import parse_arrangement
>>> from pyasp_games.domains.routing.specs import graph_spec
>>> inst = parse_arrangement("0 3\\n3 0\\n", graph_spec("path:4"))
>>> [(b, solve(inst, b).answer) for b in ("native", "asp", "sat")]
[('native', 3), ('asp', 3), ('sat', 3)]
"""

from __future__ import annotations

from typing import Any

from pyasp_games.domains.routing.model import Instance, load_instances, random_instance
from pyasp_games.domains.routing.questions import BACKENDS, QUESTIONS, SOLVE
from pyasp_games.domains.routing.verify import check_outcome
from pyasp_games.engines.domain import DomainSpec
from pyasp_games.engines.fuzzing import Family, Fuzzing
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome

__all__ = [
    "BACKENDS",
    "QUESTIONS",
    "Instance",
    "check_outcome",
    "domain",
    "load_instances",
    "solve",
]


def solve(inst: Instance, backend: str, limits: Limits = Limits(), **options: Any) -> Outcome:
    """Route a permutation on a graph in the fewest steps (or bound it), verified.

    Parameters
    ----------
    inst : Instance
        The graph, the arrangement and the move rule (``matching``, ``swap`` or ``blank``):
        :func:`~pyasp_games.domains.routing.model.load_instances`,
        :func:`~pyasp_games.domains.routing.model.parse_arrangement`.
    backend : str
        One of :data:`BACKENDS`: ``native``, ``bfs``, ``asp``, ``sat`` (exact); ``oddeven``,
        ``peeling``, ``rowcolumn``, ``swapper`` (upper bounds, on the graphs each applies
        to).
    limits : Limits, optional
        What the run may spend (:class:`~pyasp_games.engines.limits.Limits`): wall-clock and
        CPU seconds, memory, and ``max_length``, the most steps to look for. The default
        sets none but the memory cap
        (:func:`~pyasp_games.engines.limits.default_memory_limit`).
    **options
        ``asp`` takes ``encoding`` and ``emit_lp``; ``sat`` ``solver`` and ``emit_cnf``;
        ``swapper`` ``seed``; the clingo options ``clingo_option=[...]``, ``const=[...]``,
        ``parallel_mode`` (``asp``); and ``trust_encoding=True`` (a user encoding's claims
        that no checker confirms alone are then marked trusted instead of cross-checked
        against the reference backend).

    Returns
    -------
    Outcome
        ``answer`` the number of steps of the schedule found, ``witness`` the schedule,
        replayed by the checker; exact backends claim it optimal (the grounds in
        ``certificate`` where there are some), the upper-bound algorithms mark it
        ``verdict.kind`` ``upper bound`` unless they prove it optimal. ``no-solution`` when
        the arrangement cannot be routed (e.g. ``blank`` on the wrong parity) or not within
        ``limits.max_length``.

    Raises
    ------
    InputError
        An unknown ``backend``, an option the backend does not take (named, with the nearest
        one), or a bad option value (e.g. an encoding file that does not exist, a clingo
        option clingo refuses).

    Notes
    -----
    Token swapping (the fewest ``swap`` steps) is NP-hard in general [3]_; exact backends
    are exponential in the worst case. Complete graphs route any
    permutation in at most 2 matching steps [1]_; the bound algorithms are polynomial
    (e.g. ``oddeven`` on paths, odd-even transposition sort), as are the closed forms on
    stars and complete bipartite graphs [2]_.

    References
    ----------
    .. [1] N. Alon, F. R. K. Chung and R. L. Graham, "Routing permutations on graphs
       via matchings", SIAM Journal on Discrete Mathematics 7(3), 1994.
    .. [2] K. Yamanaka et al., "Swapping labeled tokens on graphs", Theoretical Computer
       Science 586, 2015.
    .. [3] T. Miltzow et al., "Approximation and hardness of token swapping", ESA 2016.
    """
    return SOLVE.solve(inst, backend, limits, **options)


def _known(inst: Instance) -> tuple[bool, Any]:
    if inst.known is None:
        return False, None
    return True, None if inst.known == "none" else inst.known


def _applies(inst: Instance, backend: str) -> bool:
    from pyasp_games.domains.routing import bounds

    if backend == "bfs":
        return len(inst.graph) <= 9
    if backend in bounds.ALGORITHMS or backend == "swapper":
        return bounds.applies(inst, backend)
    return True


def domain() -> DomainSpec:
    """The routing domain for crosscheck and bench."""
    return DomainSpec.asking(
        SOLVE, load_instances, _known, applies=_applies, generators={"random": random_instance},
        questions=QUESTIONS, fuzzing=fuzzing(),
    )  # fmt: skip


def fuzzing() -> Fuzzing:
    """What ``pyasp-games fuzz routing`` draws: arrangements on paths, cycles, stars and
    complete graphs, every one on at most 4 vertices first, under matching and under
    swap moves (the move rule's file is added to the dynamics under test)."""
    from functools import partial

    from pyasp_games.domains.routing.model import (
        arrangement_strategy,
        format_fuzzed,
        small_arrangements,
    )

    families = tuple(
        Family(
            moves,
            f"arrangements under {moves} moves on paths, cycles, stars and complete graphs",
            strategy=partial(arrangement_strategy, moves=moves),
            small=partial(small_arrangements, moves),
            small_help="every arrangement on a path, cycle, star and complete graph of 2 to 4 "
            "vertices",
            sizes=(3, 7),
        )
        for moves in ("matching", "swap")
    )
    return Fuzzing(
        ("solve",), families, size=lambda inst: len(inst.graph), unit="vertices",
        write=format_fuzzed,
        measure=lambda inst: f"{inst.headers['graph']}, {inst.moves} moves",
        arguments=lambda inst, file: [inst.headers["graph"], file],  # routing solve GRAPH FILE
        witness=_schedule_atoms, horizon=lambda inst, out: out.answer,
    )  # fmt: skip


def _schedule_atoms(inst: Any, outcome: Any) -> list[tuple[str, bool]]:
    """A schedule (steps of swaps, by vertex name) as the encodings' output:
    ``swap(U,V,T)``, ``U < V`` numbered as the facts number the vertices.

    >>> from pyasp_games.domains.routing.specs import graph_spec
    >>> inst = Instance(graph_spec("path:3"), (2, 1, 0), "swap")
    >>> _schedule_atoms(inst, Outcome("i", "native", "solved", answer=1, witness=[[["1", "0"]]]))
    [('swap(0,1,1)', True)]
    """
    number = {name: i for i, name in enumerate(inst.graph.names)}
    return [(f"swap({min(number[u], number[v])},{max(number[u], number[v])},{t})", True)
            for t, step in enumerate(outcome.witness or [], 1) for u, v in step]  # fmt: skip
