"""The questions the routing domain answers, declared once (``pyasp-games routing ...``).

- ``solve``: route one arrangement in the fewest steps (or by an upper-bound algorithm);
  every schedule is replayed by :func:`~pyasp_games.domains.routing.verify.check_outcome`.
- ``number``: rt(G) (or the token-swapping maximum) by BFS over every arrangement; the
  worst arrangement's schedule is replayed (:func:`~pyasp_games.domains.routing.verify.check_number`).
  Under ``blank`` moves: the sliding puzzle's worst case, the state graph's diameter (or,
  with ``--blank``, one goal's eccentricity), by a compiled two-bit BFS; the antipodes'
  plans are replayed and their distances confirmed
  (:func:`~pyasp_games.domains.routing.verify.check_sliding_number`).
- ``check``: is a sliding (blank) arrangement solvable, by Wilson's theorem (block by
  block, :mod:`~pyasp_games.domains.routing.blocks`); "unsolvable" is confirmed by the
  parity invariant or a cut vertex's sides where they apply, "solvable" by replaying the
  schedule a complete search gives where the reachable arrangements are few
  (:func:`~pyasp_games.domains.routing.verify.check_solvability`).

>>> from pyasp_games.domains.routing.model import identity_instance
>>> from pyasp_games.domains.routing.specs import graph_spec
>>> out = NUMBER.ask(identity_instance(graph_spec("star:3")))
>>> describe_number(identity_instance(graph_spec("star:3")), out, {})[0], out.verdict.verified
('rt(G) = 4', True)
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from pyasp_games.domains.routing.asp import solve_asp
from pyasp_games.domains.routing.bounds import (
    pack,
    solve_oddeven,
    solve_peeling,
    solve_rowcolumn,
    solve_swapper,
)
from pyasp_games.domains.routing.model import (
    MOVES,
    Instance,
    identity_instance,
    load_instances,
    random_arrangement,
)
from pyasp_games.domains.routing.native import (
    solve_bfs,
    solve_idastar,
    solve_number,
    solve_solvability,
)
from pyasp_games.domains.routing.sat import solve_sat
from pyasp_games.domains.routing.specs import read_graph
from pyasp_games.domains.routing.verify import (
    check_number,
    check_outcome,
    check_solvability,
)
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.graphs import FORMATS
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.question import (
    EMIT_CNF,
    EMIT_LP,
    SOLVER,
    Param,
    Question,
    encoding_param,
)
from pyasp_games.engines.reference import Reference
from pyasp_games.engines.verdict import UPPER_BOUND
from pyasp_games.errors import InputError, checked_int

#: The backends of ``solve``: ``backend(instance, limits, **options) -> Claim``. Exact
#: backends claim an exact answer, the grounds of its optimality the certificate; the
#: upper bounds (``oddeven``, ``peeling``, ``rowcolumn``, ``swapper`` short of its lower
#: bound) claim an upper bound.
BACKENDS: dict[str, Callable[..., Claim]] = {
    "native": solve_idastar,
    "bfs": solve_bfs,
    "asp": solve_asp,
    "sat": solve_sat,
    "oddeven": solve_oddeven,
    "peeling": solve_peeling,
    "rowcolumn": solve_rowcolumn,
    "swapper": solve_swapper,
}

#: Exhaustive routing numbers are refused beyond this many vertices (n! arrangements).
MAX_NUMBER_VERTICES = 10

#: The sliding (``blank``) number is refused beyond this many vertices: the search keeps
#: the pebbles' targets four bits each in one 64-bit word (and the 15-puzzle's table
#: alone would take 2.4 TiB); within it, a table larger than the memory limit is refused
#: by the backend before it allocates anything.
MAX_SLIDING_VERTICES = 16

# -- reading -----------------------------------------------------------------------


def read_arrangement(
    graph: str,
    arrangement: Path | None = None,
    moves: str | None = None,
    random_seed: int | None = None,
    fmt: str | None = None,
) -> Instance:
    """The instance of the command line: ``graph`` (a file or a spec) with an
    ``arrangement`` file or a random arrangement from ``random_seed``; ``moves`` given
    overrides the file's ``# moves:`` header (default ``matching``)."""
    g = read_graph(graph, fmt)
    if arrangement is not None and random_seed is not None:
        raise InputError("give an ARRANGEMENT file or --random SEED, not both")
    if arrangement is not None:
        return load_instances(arrangement, g, moves)[0]
    if random_seed is None:
        raise InputError("give an ARRANGEMENT file or --random SEED")
    # non-negative: Python's random.Random(-s) is random.Random(s), another seed's arrangement
    return random_arrangement(g, checked_int(random_seed, "--random"), moves or "matching")


def read_sliding(
    graph: str,
    arrangement: Path | None = None,
    random_seed: int | None = None,
    fmt: str | None = None,
) -> Instance:
    """A sliding (``blank``) arrangement (:func:`read_arrangement`)."""
    return read_arrangement(graph, arrangement, "blank", random_seed, fmt)


def read_number(
    graph: str, moves: str | None = None, fmt: str | None = None, home: str | None = None
) -> Instance:
    """The graph whose routing number is asked, as its solved arrangement under ``moves``
    (``matching``, the default, or ``swap``: at most :data:`MAX_NUMBER_VERTICES` vertices;
    ``blank``: at most :data:`MAX_SLIDING_VERTICES`, the blank's home ``home`` if given,
    recorded in the instance's ``headers["home"]``)."""
    moves = moves or "matching"
    if home is not None and moves != "blank":
        raise InputError("--blank names the blank's home: it applies to --moves blank only")
    g = read_graph(graph, fmt)
    if moves == "blank":
        if len(g) > MAX_SLIDING_VERTICES:
            raise InputError(
                f"{g.name}: {len(g)} vertices: the sliding puzzle's state graph has up to "
                f"{len(g)}! arrangements (at most {MAX_SLIDING_VERTICES} vertices)"
            )
        if home is None:
            return identity_instance(g, "blank")
        if home not in g.index:
            raise InputError(f"--blank {home!r}: no such vertex in {g.name}")
        inst = identity_instance(g, "blank")
        inst.blank = g.index[home]
        inst.headers["home"] = home
        return inst
    if len(g) > MAX_NUMBER_VERTICES:
        raise InputError(
            f"{g.name}: {len(g)} vertices: the exhaustive search takes {len(g)}! arrangements "
            f"(at most {MAX_NUMBER_VERTICES} vertices)"
        )
    return identity_instance(g, moves)


# -- formatters ----------------------------------------------------------------------


def _steps(schedule: Any) -> list[str]:
    if not isinstance(schedule, list):
        return []
    return [f"  step {i}: " + " ".join(f"{u}-{v}" for u, v in step) for i, step in enumerate(schedule, 1)]


def _verification(outcome: Outcome) -> list[str]:
    """The checker's word on a verified answer (what "verified" covers)."""
    if outcome.status != "error" and outcome.verdict.verified:
        return [f"  verified: {outcome.verdict.message}"]
    return []


def describe_schedule(
    inst: Instance, outcome: Outcome, options: dict[str, Any]
) -> tuple[str | None, list[str]]:
    """``solve``'s formatter: the steps (optimal or an upper bound), each step's edges,
    and the optimality proof."""
    said = None
    if outcome.answer is not None:
        exact = outcome.verdict.exact
        proved = "optimal" if exact else "an upper bound, not proved optimal"
        said = f"{outcome.answer} steps ({inst.moves}; {proved})"
    lines = _steps(outcome.witness) if outcome.status == "solved" else []
    if outcome.status == "solved" and inst.moves == "swap" and isinstance(outcome.witness, list):
        layers = pack([tuple(e) for step in outcome.witness for e in step])
        lines.append(f"  depth: {len(layers)} steps with disjoint swaps in parallel")
    if "lower_bound" in outcome.stats and outcome.verdict.kind == UPPER_BOUND:
        lines.append(
            f"  lower bound {outcome.stats['lower_bound']} proved: the optimum is within"
            f" {outcome.stats.get('gap', '?')} of this schedule"
        )
    if outcome.status == "unknown" and outcome.stats.get("stopped"):
        lines.append(f"  {outcome.stats['stopped']}")
    searched = outcome.stats.get("bound")
    if outcome.status == "unknown" and isinstance(searched, int) and outcome.stats.get("iterations"):
        lines.append(f"  no schedule shorter than {searched} steps (every smaller budget refuted)")
    if outcome.stats.get("limit") == "max-length" and "found" in outcome.stats:
        lines.append(
            f"  the bound's schedule has {outcome.stats['found']} steps, more than"
            f" --max-length {outcome.verdict.bound}"
        )
    # the grounds of an optimum or of "none" (an upper bound's name its only grounds)
    if isinstance(outcome.certificate, str) and outcome.verdict.kind != UPPER_BOUND:
        lines.append(f"  proof: {outcome.certificate}")
    return said, lines


def describe_number(
    inst: Instance, outcome: Outcome, options: dict[str, Any]
) -> tuple[str | None, list[str]]:
    """``number``'s formatter: rt(G) (or the token-swapping maximum), then a worst
    arrangement and its schedule; under ``blank``, :func:`describe_sliding_number`."""
    if inst.moves == "blank":
        return describe_sliding_number(inst, outcome)
    if outcome.status not in ("solved", "error") or outcome.answer is None:
        return None, []
    what = "rt(G)" if inst.moves == "matching" else "token-swapping maximum"
    certificate = outcome.certificate if isinstance(outcome.certificate, dict) else {}
    worst = certificate.get("worst", {})
    lines = [
        f"  BFS over all {certificate.get('arrangements', 0):,} arrangements"
        " (the maximum rests on this search)",
        "  worst arrangement: " + " ".join(f"{u}->{v}" for u, v in worst.items()),
    ]
    return f"{what} = {outcome.answer}", lines + _steps(outcome.witness) + _verification(outcome)


def describe_sliding_number(inst: Instance, outcome: Outcome) -> tuple[str | None, list[str]]:
    """The sliding puzzle's worst case: the diameter (or one goal's eccentricity), each
    home searched with its layers, then each antipode listed with its optimal plan."""
    if outcome.status == "unknown" and outcome.stats.get("stopped"):
        return None, [f"  {outcome.stats['stopped']}"]
    if outcome.status not in ("solved", "error") or outcome.answer is None:
        return None, []
    home = inst.headers.get("home")
    said = (f"the most slides to the blank's home {home} = {outcome.answer}" if home is not None
            else f"sliding diameter = {outcome.answer}")  # fmt: skip
    certificate = outcome.certificate if isinstance(outcome.certificate, dict) else {}
    lines = [f"  BFS over all {certificate.get('arrangements', 0):,} arrangements reachable"
             " from each home below"]  # fmt: skip
    for entry in certificate.get("homes", []):
        like = [v for v in entry.get("like", []) if v != entry.get("home")]
        also = f" (and {' '.join(like)})" if like else ""
        lines.append(f"  blank home {entry.get('home')}{also}: {entry.get('eccentricity')} slides"
                     f" at most, {entry.get('antipodes'):,} arrangement(s) that far")  # fmt: skip
        lines.append("    layers: " + " ".join(str(c) for c in entry.get("layers", [])))
    for far in outcome.witness if isinstance(outcome.witness, list) else []:
        moved = " ".join(f"{u}->{v}" for u, v in far.get("arrangement", {}).items())
        lines.append(f"  antipode (home {far.get('home')}, blank on {far.get('blank')}): {moved}")
        lines.append("    plan: " + " ".join(f"{e[0]}-{e[1]}" for step in far.get("plan", []) for e in step))
    return said, lines + _verification(outcome)


def describe_solvability(
    inst: Instance, outcome: Outcome, options: dict[str, Any]
) -> tuple[str | None, list[str]]:
    """``check``'s formatter: solvable or not, why (Wilson's theorem or the search), and
    the schedule where the search gives one."""
    said = {True: "solvable", False: "unsolvable"}.get(outcome.answer)
    reason = outcome.certificate if isinstance(outcome.certificate, str) else outcome.stats.get("stopped")
    lines = [f"  {reason}"] if reason else []
    if outcome.status == "solved":
        lines += _steps(outcome.witness)
    return said, lines + _verification(outcome)


# -- the questions -----------------------------------------------------------------

GRAPH = Param(
    "graph",
    help="A graph file (edge list 'u v', .adjlist, .graphml, node-link .json, a coupling map"
    " [[0, 1], ...]) or a spec: path:N cycle:N star:M complete:N bipartite:A,B grid:RxC"
    " grid:RxC-r,c (cell r,c left out) hypercube:D heavy-hex:27 heavy-hex:127 tree:N:SEED"
    " random:N:SEED.",
    to="read",
)
ARRANGEMENT = Param(
    "arrangement",
    help="Lines 'u v' (the pebble on u goes to v; unnamed vertices stay), 'blank u';"
    " headers '# moves:', '# known:'. Omit it with --random.",
    type=Path,
    to="read",
    optional=True,
)
RANDOM = Param(
    "random_seed",
    "--random",
    "A random arrangement from this seed instead of a file.",
    type=int,
    to="read",
    metavar="SEED",
)
FORMAT = Param(
    "fmt", "--format", "Graph file format (default: by extension).", type=FORMATS, to="read"
)

SOLVE = Question(
    "solve",
    "Route the arrangement in the fewest steps and verify the schedule.\n\n"
    "Backends oddeven, peeling, rowcolumn and swapper give upper bounds, not optima (swapper"
    " proves a lower bound too, and says optimal where its schedule meets it). With --json: "
    "answer the number of steps, witness the schedule (a list of steps, each a list of "
    "edges, each a pair of vertex names), "
    "certificate the grounds of its optimum (or of no schedule), stats.optimal false for an "
    "upper bound.",
    backends=BACKENDS,
    check=check_outcome,
    read=read_arrangement,
    describe=describe_schedule,
    params=(
        GRAPH,
        ARRANGEMENT,
        Param(
            "moves",
            "--moves -m",
            "Move rule (default: the file's '# moves:', else matching).",
            type=MOVES,
            to="read",
        ),
        RANDOM,
        encoding_param(
            "the routing dynamics: a bundled encoding (routing) or an .lp file (the move "
            "rule's file, matching, swap or blank, is added to it; encodings/routing/README.md "
            "gives the predicates).",
            default="routing",
        ),
        SOLVER,
        Param(
            "max_length",
            "--max-length",
            "Give up beyond this many steps (no-solution within it).",
            type=int,
            to="limits",
        ),
        FORMAT,
    ),
    emits=(EMIT_LP, EMIT_CNF),
    reference=Reference(
        "routing",
        # the exhaustive search where it is small, else IDA*: both prove the optimum
        lambda inst, options: ("bfs" if len(inst.graph) <= 8 else "native", {}),
        # a user's schedule is replayed by the checker, but its optimality (or "no
        # schedule") is a claim only an exact backend confirms
        needs_check=lambda outcome: outcome.status in ("solved", "no-solution"),
    ),
)

NUMBER = Question(
    "number",
    "rt(G) exactly (the worst arrangement's optimum), by BFS over every arrangement.\n\n"
    "With -m blank: the sliding puzzle's worst case, the diameter of its state graph (the most"
    " slides a solvable arrangement needs, over every home of the blank; --blank V: the"
    " solved arrangement with the blank on V, that goal's worst case), with the number of"
    " arrangements at each distance and the antipodes, by a compiled breadth-first search"
    " at two bits an arrangement.\n\n"
    "With --json: answer the number, witness a worst arrangement's schedule, certificate.worst "
    "that arrangement (vertex -> target, moved pebbles only), certificate.arrangements how many "
    "the BFS reached. With -m blank: witness the antipodes of the farthest homes, each with"
    " its home, blank, arrangement and optimal plan; certificate.homes each home searched"
    " (the vertices like it, its eccentricity, its layers, its antipodes).",
    backends={"bfs": solve_number},
    check=check_number,
    read=read_number,
    describe=describe_number,
    params=(
        GRAPH,
        Param(
            "moves",
            "--moves -m",
            "Move rule (matching: rt(G); swap: token swapping; blank: the sliding puzzle's"
            " worst case).",
            type=MOVES,
            default="matching",
            to="read",
        ),
        Param(
            "home",
            "--blank",
            "With -m blank: the blank's vertex in the solved arrangement (default: every"
            " vertex, the state graph's diameter).",
            to="read",
            metavar="VERTEX",
        ),
        FORMAT,
    ),
)

CHECK = Question(
    "check",
    "Is the sliding (blank) arrangement solvable? Wilson's theorem with its reason (block "
    "by block on a graph with a cut vertex), and a schedule by complete search where at most "
    "100,000 arrangements are reachable.\n\n"
    "With --json: answer true/false, certificate why.",
    backends={"native": solve_solvability},
    check=check_solvability,
    read=read_sliding,
    describe=describe_solvability,
    params=(GRAPH, ARRANGEMENT, RANDOM, FORMAT),
    unchecked="not checkable alone",
)

#: The routing domain's questions.
QUESTIONS = (SOLVE, NUMBER, CHECK)
