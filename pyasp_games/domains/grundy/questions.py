"""The questions the grundy domain answers, declared once (``pyasp-games grundy ...``,
``pyasp-games games ...``).

``grundy``: ``values`` (Grundy values of an acyclic graph), ``sum`` (a sum of acyclic
games, XOR or OR), ``exists`` and ``kernel`` (is there a Grundy function / a kernel:
one, ``all``, their ``count``; native, ASP or SAT over one backend table, the
question fixing ``find``), ``loopy`` (Smith's generalized values, of a graph or a
sum), ``circuit`` (a Boolean circuit's value as the Grundy value of the notes' game
graph). ``games``: ``nim``, ``subtraction``, ``grundys-game``, ``nim-census`` (how many
positions of K heaps of at most M coins are P-positions). Every answer is checked
by :mod:`pyasp_games.domains.grundy.verify`; a user encoding's "none" and counts are
cross-checked against ``native`` (:data:`REFERENCE`).

>>> from pyasp_games.domains.grundy.model import parse_graph
>>> c4 = parse_graph("a b\\nb c\\nc d\\nd a\\n", name="c4")
>>> out = KERNEL.ask(c4, "sat", mode="count")
>>> out.answer, out.verdict.verified
(2, True)
>>> describe_search(c4, EXISTS.ask(c4), {"mode": "one"})
('a Grundy function exists', ['  a: 1', '  b: 0', '  c: 1', '  d: 0'])
>>> NIM.ask(nim_position([3, 4, 5])).witness
[[1, 4, 5]]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any

from pyasp_games.domains.grundy.asp import solve_asp, solve_outcomes_asp
from pyasp_games.domains.grundy.census import NimCensus, nim_census
from pyasp_games.domains.grundy.circuits import CircuitValue, read_circuit_value
from pyasp_games.domains.grundy.generalized import loopy_move
from pyasp_games.domains.grundy.model import (
    GameSum,
    GrundysGame,
    Misere,
    Nim,
    SubtractionGame,
    grundys_game_heaps,
    load_graph,
    nim_position,
    octal_game,
    played,
    read_sum,
    subtraction_game,
)
from pyasp_games.domains.grundy.native import (
    solve_circuit,
    solve_grundys_game,
    solve_loopy,
    solve_native,
    solve_nim,
    solve_nim_census,
    solve_outcomes,
    solve_quotient,
    solve_subtraction,
    solve_sum,
    solve_values,
)
from pyasp_games.domains.grundy.retrograde import retrograde_classes
from pyasp_games.domains.grundy.sat import solve_sat
from pyasp_games.domains.grundy.verify import (
    check_census,
    check_circuit,
    check_functions,
    check_grundys_game,
    check_kernels,
    check_loopy,
    check_nim,
    check_outcomes,
    check_quotient,
    check_subtraction,
    check_sum,
    check_values,
    revive_loopy,
)
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.graphs import FORMATS, Digraph
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.question import (
    EMIT_CNF,
    EMIT_LP,
    MODES,
    SOLVER,
    Param,
    Question,
    encoding_param,
)
from pyasp_games.engines.reference import Reference

#: The backends of ``exists`` and ``kernel``: ``backend(graph, limits, mode=..., find=...)
#: -> Claim``.
BACKENDS: dict[str, Callable[..., Claim]] = {
    "native": solve_native,
    "asp": solve_asp,
    "sat": solve_sat,
}


def _what(options: dict[str, Any] | None) -> str:
    return "kernel" if (options or {}).get("find") == "kernel" else "Grundy function"


def _reference(graph: Digraph, options: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The fastest backend independent of a user's ASP program for the question asked.

    Whether one exists: ``sat`` (clause learning decides the random digraphs of
    ``benchmarks/RESULTS.md`` 10-100x faster than the native search, which has none;
    n = 500: 0.06 s against 5.6 s or more). Counts and lists: ``native``, whose
    count is a product over weakly connected components, where SAT enumerates
    every solution with a blocking clause each.
    """
    mode, find = options.get("mode", "one"), options.get("find", "grundy")
    return ("sat" if mode == "one" else "native"), {"mode": mode, "find": find}


def _second(graph: Digraph, options: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The other independent backend, for the reference's own claims that the checker
    cannot recount (graphs beyond brute force): ``asp`` for existence (clingo's
    conflict-driven search shares nothing with the CNF and decides the random digraphs
    as far as ``sat`` does, about 3,000 positions in 10 s, where the native search,
    without clause learning, stops at about 500: a "none" of ``sat`` on 1,500 positions
    was left NOT VERIFIED), ``sat`` (blocking clauses) for counts and lists."""
    backend, asked = _reference(graph, options)
    return ("asp" if backend == "sat" else "sat"), asked


#: A user encoding's "none", counts and enumerations are cross-checked against ``sat``
#: (existence) or ``native`` (counts and lists); so is any backend's claim too large for
#: the checker to recount, the reference's own against ``asp`` (existence) or ``sat``.
REFERENCE = Reference(
    "grundy", _reference, example=lambda o: {**o, "mode": "one"}, second=_second
)


# -- the formatters: (answer in words or None, lines below the headline) -------------------


def _shown(solution: Any) -> str:
    if isinstance(solution, dict):
        return " ".join(f"{n}={v}" for n, v in solution.items())
    return " ".join(solution)


def describe_search(
    graph: Digraph, outcome: Outcome, options: dict[str, Any], find: str = "grundy"
) -> tuple[str | None, list[str]]:
    """``exists`` and ``kernel`` (``find``): whether one exists (shown), or how many (listed)."""
    what = _what({"find": find})
    answer, witness = outcome.answer, outcome.witness
    if answer is None:
        found = outcome.stats.get("found_before_limit")
        return None, [] if found is None else [f"  {found} found before the limit"]
    if answer is False:
        return f"no {what} exists", []
    if answer is True:
        if isinstance(witness, dict):
            return f"a {what} exists", [f"  {n}: {v}" for n, v in witness.items()]
        return f"a {what} exists", [f"  {what}: {_shown(witness or [])}"]
    lines = [f"  {i}: {_shown(w)}" for i, w in enumerate(witness or [], 1)]
    return f"{answer} {what}{'' if answer == 1 else 's'}", lines


def describe_values(
    graph: Digraph, outcome: Outcome, options: dict[str, Any]
) -> tuple[str | None, list[str]]:
    """``values``: every position's value and class, or one position's and its winning moves
    (under the misère rule: every position's class, or one position's class, winning
    moves and genus)."""
    if outcome.answer is None:
        return None, []
    if isinstance(graph, Misere):
        return describe_misere_values(graph.game, outcome, options)
    w = outcome.witness
    if "position" not in options:
        return None, [f"  {n}: {v} ({'P' if v == 0 else 'N'})" for n, v in outcome.answer.items()]
    moves = ", ".join(w["winning_moves"]) or "none (every move leads to an N-position)"
    return f"{w['class']}-position", [
        f"  {w['position']}: value {w['value']}, {w['class']}-position",
        f"  winning moves: {moves}",
    ]


def _component_lines(witness: dict[str, Any]) -> list[str]:
    return [
        f"  component {i}: {c['graph']}:{c['position']} value {c['value']}"
        for i, c in enumerate(witness["components"])
    ]


def describe_sum(
    game: GameSum, outcome: Outcome, options: dict[str, Any]
) -> tuple[str | None, list[str]]:
    """``sum``: the components' values, the sum's class and its winning moves (under the
    misère rule: the components' genera, the class by direct search and by genus)."""
    if outcome.answer is None:
        return None, []
    if isinstance(game, Misere):
        return describe_misere_sum(game.game, outcome, options)
    w = outcome.witness
    lines = _component_lines(w)
    if options.get("rule", "xor") == "xor":
        lines.append(f"  sum: value {w['value']}, {outcome.answer}-position")
        lines += [
            f"  winning move: component {m['component']}: {m['from']} -> {m['to']}"
            for m in w["winning_moves"]
        ]
    else:
        lines.append(f"  OR sum: {outcome.answer}-position (P iff every component is 0)")
        lines += [
            f"  winning move: component {i} to one of {', '.join(opts)}"
            for i, opts in enumerate(w["winning_move"] or [])
            if opts
        ]
    return f"{outcome.answer}-position", lines


def describe_loopy(
    instance: Digraph | GameSum, outcome: Outcome, options: dict[str, Any]
) -> tuple[str | None, list[str]]:
    """``loopy``: every position's value, class and winning or draw-keeping move; for a
    sum, the components' values, the generalized nim-sum and the sum's move (under the
    misère rule: classes and moves by retrograde analysis)."""
    if outcome.answer is None:
        return None, []
    if isinstance(instance, Misere):
        return describe_misere_loopy(instance.game, outcome, options)
    w = outcome.witness
    if isinstance(instance, GameSum):
        lines = _component_lines(w)
        lines.append(f"  generalized nim-sum: {w['value']}, {outcome.answer}-position")
        if w["move"]:
            kind = "winning move" if outcome.answer == "N" else "draw-keeping move"
            m = w["move"]
            lines.append(f"  {kind}: component {m['component']}: {m['from']} -> {m['to']}")
        return f"{outcome.answer}-position", lines
    values = outcome.certificate[0]
    lines = []
    for v, name in enumerate(instance.names):
        cls = outcome.answer[name]
        move = loopy_move(instance, values, v)
        verb = "wins by" if cls == "N" else "keeps the draw by"
        note = "" if move is None else f", {verb} -> {instance.names[move]}"
        lines.append(f"  {name}: {w[name]} ({cls}{note})")
    return None, lines


def describe_nim(nim: Nim, outcome: Outcome, options: dict[str, Any]) -> tuple[str | None, list[str]]:
    """``nim``: the class, the XOR, every winning move."""
    if outcome.answer is None:
        return None, []
    if nim.misere:
        big = outcome.certificate["big"]
        moves = [f"  winning move: to ({', '.join(map(str, m))})" for m in outcome.witness]
        said = f"{outcome.answer}-position under misère play (XOR {outcome.certificate['xor']}, "
        return said + f"{big} heap{'' if big == 1 else 's'} of 2 or more)", moves
    moves = [f"  winning move: to ({', '.join(map(str, m))})" for m in outcome.witness]
    return f"{outcome.answer}-position (XOR {outcome.certificate['xor']})", moves


def describe_subtraction(
    game: SubtractionGame, outcome: Outcome, options: dict[str, Any]
) -> tuple[str | None, list[str]]:
    """``subtraction``: ``g(0..N)`` (misère: the outcomes ``o(0..N)``), the preperiod and
    period, and their proof."""
    if outcome.answer is None:
        return None, []
    w = outcome.witness
    if game.misere:
        return f"misère outcomes: preperiod {w['preperiod']}, period {w['period']}", [
            f"  o(0..{game.upto}) = {' '.join(outcome.answer)}",
            f"  proof: {w['proof']}",
        ]
    return f"preperiod {w['preperiod']}, period {w['period']}", [
        f"  g(0..{game.upto}) = {' '.join(map(str, outcome.answer))}",
        f"  proof: {w['proof']}",
    ]


def describe_grundys_game(
    game: GrundysGame, outcome: Outcome, options: dict[str, Any]
) -> tuple[str | None, list[str]]:
    """``grundys-game``: ``g(1..N)`` (misère: the outcomes ``o(1..N)``)."""
    if outcome.answer is None:
        return None, []
    if game.misere:
        ps = [str(n) for n, c in enumerate(outcome.answer, 1) if c == "P"]
        return f"{len(ps)} P-positions among heaps 1..{game.upto} under misère play", [
            f"  o(1..{game.upto}) = {' '.join(outcome.answer)}",
            f"  P-positions: {', '.join(ps) or 'none'}",
        ]
    return None, [f"  g(1..{game.upto}) = {' '.join(map(str, outcome.answer))}"]


# -- the readers and the parameters -------------------------------------------------------


def read_graph(graph: Path, fmt: str | None = None, misere: bool | None = None) -> Any:
    """The game graph file ``graph`` (format by extension unless ``fmt``; ``misere``:
    played under the misère rule, :class:`~pyasp_games.domains.grundy.model.Misere`, as
    it is too when a question that takes ``--misere`` reads a file with the header
    ``# play: misere``, as the fuzzer writes a misère counterexample)."""
    read = load_graph(graph, fmt)
    return played(read, misere or (misere is not None and read.headers.get("play") == "misere"))


def read_loopy(
    graph: str,
    sum_with: Sequence[str] | None = None,
    fmt: str | None = None,
    misere: bool | None = False,
) -> Any:
    """A graph file, or with ``sum_with`` the sum of ``graph`` and those components
    (each ``GRAPH:POSITION``); ``misere``: played under the misère rule."""
    if sum_with:
        return played(read_sum([graph, *sum_with], fmt), misere)
    return played(load_graph(Path(graph), fmt), misere)


def read_played_sum(components: Sequence[str], fmt: str | None = None, misere: bool | None = False) -> Any:
    """The sum of the ``components`` (``GRAPH:POSITION``); ``misere``: under the misère rule."""
    return played(read_sum(components, fmt), misere)


#: ``--misere``, the one play-convention switch of every impartial question: read with
#: the input, so that the instance, its checker and a saved answer know the rule
MISERE = Param(
    "misere",
    "--misere",
    "Misère play: the player who moves last loses (outcomes by direct search, not Grundy values).",
    type=bool,
    default=False,
    to="read",
)


GRAPH = Param(
    "graph",
    help="A game graph: one move 'u v' per line, '#' comments, a line with one name a "
    "position without moves; or .adjlist, .graphml, node-link .json.",
    type=Path,
    to="read",
    metavar="GRAPH",
)
FORMAT = Param(
    "fmt", "--format", "Graph file format (default: by extension).", type=FORMATS, to="read"
)
SEARCH_PARAMS = (
    GRAPH,
    encoding_param("a bundled encoding (grundy, kernel) or an .lp file."),
    SOLVER,
    FORMAT,
)
SEARCH_JSON = (
    "With --json: answer true/false (or the count), witness the solution "
    "(with --all: the list of solutions)."
)

VALUES = Question(
    "values",
    "Grundy values of an acyclic graph (linear time), P/N classes, winning moves.",
    backends={"native": solve_values},
    check=check_values,
    read=read_graph,
    describe=describe_values,
    params=(
        GRAPH,
        Param("position", "--position -p", "Also show this position's class and winning moves."),
        FORMAT,
        MISERE,
    ),
)

SUM = Question(
    "sum",
    "Value and winning moves of a sum of acyclic games (XOR: Sprague-Grundy; or: OR-sum, Smith).",
    backends={"native": solve_sum},
    check=check_sum,
    read=read_played_sum,
    describe=describe_sum,
    params=(
        Param(
            "components",
            help="Components GRAPH:POSITION (two or more; a graph may repeat).",
            type=list[str],
            to="read",
            metavar="GRAPH:POSITION...",
        ),
        Param(
            "rule",
            "--rule",
            "xor: move in one component (Sprague–Grundy); or: move in any non-empty set.",
            type=("xor", "or"),
            default="xor",
        ),
        FORMAT,
        MISERE,
    ),
)

EXISTS = Question(
    "exists",
    "Does the graph have a Grundy function (NP-complete)? One, all (--all) or how many "
    f"(--count).\n\n{SEARCH_JSON}",
    backends=BACKENDS,
    check=check_functions,
    read=read_graph,
    describe=describe_search,
    params=(
        *SEARCH_PARAMS,
        Param(
            "core",
            "--core/--no-core",
            "search only the core (unreached positions deleted, then filled in by mex; "
            "same functions).",
            type=bool,
            default=True,
            backends=("asp", "sat"),
        ),
        Param(
            "by_kernels",
            "--by-kernels",
            "search layer by layer: a kernel (the value-0 positions), then a kernel of what "
            "it leaves, ...; one small formula at a time (fastest with --solver cadical195).",
            type=bool,
            default=False,
            backends=("sat",),
        ),
    ),
    modes=MODES,
    emits=(EMIT_LP, EMIT_CNF),
    fixed={"find": "grundy"},
    reference=REFERENCE,
    unchecked="not checkable alone",
)

KERNEL = Question(
    "kernel",
    "Kernels (independent, absorbing sets; the value-0 set of a Grundy function): one, all, "
    f"count.\n\n{SEARCH_JSON}",
    backends=BACKENDS,
    check=check_kernels,
    read=read_graph,
    describe=partial(describe_search, find="kernel"),
    params=SEARCH_PARAMS,
    modes=MODES,
    emits=(EMIT_LP, EMIT_CNF),
    fixed={"find": "kernel"},
    reference=REFERENCE,
    unchecked="not checkable alone",
)

LOOPY = Question(
    "loopy",
    "Smith's generalized Sprague–Grundy values and P/N/D classes (draws on cycles).\n\n"
    "Without --sum: every position's value (a number, or inf(K) with K its successors' "
    "finite values), its class, and for N-positions a winning move, for D-positions a "
    "move that keeps the draw. With --sum: the generalized nim-sum of the components and "
    "the class and move of the sum.",
    backends={"native": solve_loopy},
    check=partial(check_loopy, retrograde=retrograde_classes),
    revive=revive_loopy,
    read=read_loopy,
    describe=describe_loopy,
    params=(
        Param(
            "graph",
            help="A game graph file; GRAPH:POSITION for the first component of a sum.",
            to="read",
            metavar="GRAPH",
        ),
        Param(
            "sum_with",
            "--sum",
            "Add a component GRAPH:POSITION to the sum (repeatable).",
            type=list[str],
            to="read",
        ),
        Param(
            "check_asp",
            "--check-asp",
            "Also compare the classes with the ASP retrograde labelling (within the limit).",
            type=bool,
            default=False,
        ),
        FORMAT,
        MISERE,
    ),
)

def describe_circuit(
    instance: CircuitValue, outcome: Outcome, options: dict[str, Any]
) -> tuple[str | None, list[str]]:
    """``circuit``: the output's Grundy value, then every wire's gate, Boolean value (by
    direct evaluation) and Grundy value."""
    if outcome.answer is None:
        return None, []
    circuit, values = instance.circuit, outcome.witness
    direct = circuit.evaluate(instance.inputs)  # shown beside: the two ways side by side
    lines = [f"  {w} = {v} (input)" for w, v in zip(circuit.inputs, instance.inputs, strict=True)]
    lines += [f"  {w} = {op} {' '.join(args)} = {direct[w]}: Grundy value {values[w]}"
              for w, op, args in circuit.gates]  # fmt: skip
    if len(lines) > 60:  # a large circuit: its wires are in --json
        lines[59:] = [f"  ... ({len(lines) - 59} more wires; --json lists them)"]
    lines.append(f"  game graph: {outcome.stats.get('positions')} positions, {outcome.stats.get('moves')} moves")
    return f"output {circuit.output}: Grundy value {outcome.answer}", lines


CIRCUIT = Question(
    "circuit",
    "A Boolean circuit's value as a Grundy value (CIRCUIT VALUE reduced to it: P-hardness).\n\n"
    "Builds the lecture notes' game graph (an input 1 is a position with one move to a "
    "position without moves, an input 0 one without; NOT y = mex(y); x AND y = mex(mex(x, "
    "y)); OR by De Morgan), computes its Grundy values in linear time and checks that every "
    "wire's value is the circuit's, evaluated directly. 'reduce circuit-to-grundy' writes "
    "the graph.",
    backends={"native": solve_circuit},
    check=check_circuit,
    read=read_circuit_value,
    describe=describe_circuit,
    params=(
        Param(
            "circuit",
            help="A circuit file: 'input NAME...', then 'WIRE = and|or A B' or 'WIRE = not A' "
            "per gate, and 'output WIRE' (default: the last gate); '#' comments.",
            type=Path,
            to="read",
            metavar="CIRCUIT",
        ),
        Param("inputs", "--inputs", "The inputs' values in order, e.g. 1,0,1 (required).", to="read"),
    ),
)

#: The grundy domain's questions (``pyasp-games grundy ...``).
QUESTIONS = (VALUES, SUM, EXISTS, KERNEL, LOOPY, CIRCUIT)

NIM = Question(
    "nim",
    "Nim: P or N (XOR of the heaps) and every winning move.",
    backends={"native": solve_nim},
    check=check_nim,
    read=nim_position,
    describe=describe_nim,
    params=(
        Param("heaps", help="Heap sizes, e.g. 3 4 5.", type=list[int], to="read", metavar="HEAPS..."),
        MISERE,
    ),
)

SUBTRACTION = Question(
    "subtraction",
    "Subtraction game: g(0..N) and its exact preperiod and period, with the proof.",
    backends={"native": solve_subtraction},
    check=check_subtraction,
    read=subtraction_game,
    describe=describe_subtraction,
    params=(
        Param("moves", "--moves", "The subtraction set, e.g. 1,2,3 (required).", to="read"),
        Param("upto", "--upto", "Print g(0..N) (required).", type=int, to="read", metavar="N"),
        MISERE,
    ),
)

GRUNDYS_GAME = Question(
    "grundys-game",
    "Grundy's game (split a heap into two unequal heaps): g(1..N).",
    backends={"native": solve_grundys_game},
    check=check_grundys_game,
    read=grundys_game_heaps,
    describe=describe_grundys_game,
    params=(
        Param("upto", "--upto", "Compute g(1..N) (required).", type=int, to="read", metavar="N"),
        MISERE,
    ),
)

def describe_census(
    census: NimCensus, outcome: Outcome, options: dict[str, Any]
) -> tuple[str | None, list[str]]:
    """``nim-census``: the P-positions among all, their fraction and the first player's."""
    if outcome.answer is None:
        return None, []
    count, total = outcome.answer, outcome.witness["positions"]
    share = Fraction(count, total)
    exact = f" = {share}" if share.denominator < 10**12 else ""
    return f"{count} P-positions of {total}", [
        f"  P (XOR 0, the player to move loses): {float(share):.6g}{exact}",
        f"  N (the first player wins): {float(1 - share):.6g}",
    ]


NIM_CENSUS = Question(
    "nim-census",
    "How many positions of K heaps of at most M coins are P-positions (XOR 0)?\n\n"
    "Counts exactly by a digit DP over the bits of M, not by enumeration; the checker "
    "counts again by a character sum and, up to 200,000 positions, by enumeration. The "
    "Nim handout's closing claim: the first player's share tends to 1 as the coins grow.",
    backends={"native": solve_nim_census},
    check=check_census,
    read=nim_census,
    describe=describe_census,
    params=(
        Param("heaps", help="K, the number of heaps.", type=int, to="read", metavar="K"),
        Param("coins", help="M, the most coins a heap holds.", type=int, to="read", metavar="M"),
    ),
)

#: The classic games' questions (``pyasp-games games ...``).
GAMES = (NIM, SUBTRACTION, GRUNDYS_GAME, NIM_CENSUS)


# -- misère play: the formatters ----------------------------------------------------------


def describe_misere_values(
    graph: Digraph, outcome: Outcome, options: dict[str, Any]
) -> tuple[str | None, list[str]]:
    """``values --misere``: every position's class, or one position's class, winning moves
    and genus."""
    w = outcome.witness
    if "position" not in w:
        return None, [f"  {n}: {c}" for n, c in outcome.answer.items()]
    moves = ", ".join(w["winning_moves"]) or "none (every move leads to an N-position)"
    tame = "tame" if w["tame"] else f"not tame: it reaches {w['wild']}"
    return f"{w['class']}-position under misère play", [
        f"  {w['position']}: {w['class']}-position, genus {w['genus']} ({tame})",
        f"  winning moves: {moves}",
    ]


def describe_misere_sum(
    game: GameSum, outcome: Outcome, options: dict[str, Any]
) -> tuple[str | None, list[str]]:
    """``sum --misere``: the components' genera, the class and the winning moves."""
    w = outcome.witness
    lines = [
        f"  component {i}: {c['graph']}:{c['position']} genus {c['genus']} "
        f"({'tame' if c['tame'] else 'not tame: it reaches ' + c['wild']})"
        for i, c in enumerate(w["components"])
    ]
    lines.append(f"  misère sum: {outcome.answer}-position (direct search over the sum)")
    if w["by_genus"] is not None:
        lines.append(f"  by the genera (all tame): {w['by_genus']}-position")
    for m in w["winning_moves"]:
        if "component" in m:
            lines.append(f"  winning move: component {m['component']}: {m['from']} -> {m['to']}")
        else:
            lines.append(f"  winning move: to ({', '.join(m['to'])})")
    return f"{outcome.answer}-position under misère play", lines


def describe_misere_loopy(
    instance: Digraph | GameSum, outcome: Outcome, options: dict[str, Any]
) -> tuple[str | None, list[str]]:
    """``loopy --misere``: every position's class and move, or the sum's."""
    w = outcome.witness
    verb = {"N": "wins by", "D": "keeps the draw by"}
    if isinstance(instance, GameSum):
        cls, move = w["class"], w["move"]
        lines = [f"  misère sum: {cls}-position ({w['positions']} positions of the sum searched)"]
        if move is not None:
            lines.append(f"  {'winning' if cls == 'N' else 'draw-keeping'} move: to {move}")
        return f"{cls}-position under misère play", lines
    lines = []
    for name, item in w.items():
        note = "" if item["move"] is None else f", {verb[item['class']]} -> {item['move']}"
        if item["class"] == "N" and item["move"] is None:
            note = ", no move: its player wins at once"
        lines.append(f"  {name}: {item['class']}{note}")
    return None, lines


def describe_outcomes(
    instance: Digraph | Misere, outcome: Outcome, options: dict[str, Any]
) -> tuple[str | None, list[str]]:
    """``outcomes``: how many positions of each class, then every position's class and move."""
    if outcome.answer is None:
        return None, []
    count = {c: list(outcome.answer.values()).count(c) for c in "PND"}
    verb = {"N": "wins by", "D": "keeps the draw by"}
    lines = [f"  {name}: {item['class']}" + ("" if item["move"] is None else f", {verb[item['class']]} -> {item['move']}")
             for name, item in outcome.witness.items()]  # fmt: skip
    rule = "misère" if isinstance(instance, Misere) else "normal"
    return f"{count['P']} P, {count['N']} N, {count['D']} D under {rule} play", lines


OUTCOMES = Question(
    "outcomes",
    "Win, loss or draw (P/N/D) of every position by retrograde analysis, normal or misère "
    "play (--misere), with a winning or draw-keeping move for each; native, or the ASP "
    "labelling (retrograde.lp, misere.lp, or your --encoding).\n\n"
    "With --json: answer {position: P|N|D}; witness every position's class and move.",
    backends={"native": solve_outcomes, "asp": solve_outcomes_asp},
    check=check_outcomes,
    read=read_graph,
    describe=describe_outcomes,
    params=(
        GRAPH,
        encoding_param("a bundled encoding (retrograde, misere; default: by the play "
                       "convention) or an .lp file showing win/1, lose/1, draw/1."),
        FORMAT,
        MISERE,
    ),
    emits=(EMIT_LP,),
    reference=Reference("grundy", lambda graph, options: ("native", {})),
)

#: The grundy domain's questions, with ``outcomes`` (appended, not reordered).
QUESTIONS = (*QUESTIONS, OUTCOMES)


def describe_quotient(game: Any, outcome: Outcome, options: dict[str, Any]) -> tuple[str | None, list[str]]:
    """``quotient``: the order, the heaps' elements, the P-portion and the product table."""
    if outcome.answer is None:
        return None, []
    w = outcome.witness
    names = w["elements"]
    lines = [
        "  heaps 1..{}: {}".format(game.upto, " ".join(w["heaps"])),
        f"  P-portion: {', '.join(w['p_portion'])}",
        "  products: " + "  ".join(f"{k}={v}" for k, v in w["table"].items()),
        "  representatives: " + "  ".join(f"{x}=({','.join(map(str, w['representatives'][x]))})" for x in names),
    ]
    return f"misère quotient of order {outcome.answer}", lines


QUOTIENT = Question(
    "quotient",
    "The misère quotient of an octal game for the sums of heaps up to N (Plambeck and "
    "Siegel): the commutative monoid of the sums' classes under indistinguishability, "
    "its P-portion and each heap's element, proved by the checker.\n\n"
    "With --json: answer the order; witness elements, representatives, table, "
    "p_portion, heaps.",
    backends={"native": solve_quotient},
    check=check_quotient,
    read=octal_game,
    describe=describe_quotient,
    params=(
        Param("code", "--code", "The octal code, e.g. 0.07 (Dawson's Kayles) or 0.77 (Kayles).", to="read"),
        Param("upto", "--upto", "The largest heap (required, at most 10).", type=int, to="read", metavar="N"),
    ),
)

#: The classic games' questions, with ``quotient`` (appended, not reordered).
GAMES = (*GAMES, QUOTIENT)
