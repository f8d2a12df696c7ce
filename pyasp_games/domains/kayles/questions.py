"""The questions the kayles domain answers, declared once (``pyasp-games kayles ...``).

``value``: the Grundy value of a graph, the outcome (the player to move wins or loses)
and every winning move, by the component search (``native``), the ASP program deriving
the positions (``asp``), or the game graph expanded and answered by ``grundy values``
(``expanded``). ``sequence``: the values of a family's members (paths, cycles, stars,
grids, ...). Every answer is checked by :mod:`~pyasp_games.domains.kayles.verify`; a
user encoding's answers are cross-checked against ``native`` (:data:`REFERENCE`).

>>> from pyasp_games.engines.graphs import numbered_graph
>>> c5 = numbered_graph(5, [(0, 1), (1, 2), (2, 3), (3, 4), (0, 4)], "C5")
>>> out = VALUE.ask(c5, "asp")
>>> out.answer, out.verdict.verified
(0, True)
>>> describe_value(c5, out, {})
('value 0: the second player wins', ['  every move leaves a position of value 1'])
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pyasp_games.domains.grundy.model import Misere, played
from pyasp_games.domains.grundy.questions import MISERE
from pyasp_games.domains.kayles.asp import solve_asp
from pyasp_games.domains.kayles.expansion import BY, solve_expanded
from pyasp_games.domains.kayles.model import Family, load_graph, parse_family
from pyasp_games.domains.kayles.native import solve_native, solve_sequence
from pyasp_games.domains.kayles.verify import check_sequence, check_value
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.graphs import FORMATS, Graph
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.question import EMIT_LP, Param, Question, encoding_param
from pyasp_games.engines.reference import Reference

#: The backends of ``kayles value``; the first is the default.
BACKENDS: dict[str, Callable[..., Claim]] = {
    "native": solve_native,
    "asp": solve_asp,
    "expanded": solve_expanded,
}

#: A user encoding's value is cross-checked against the component search.
REFERENCE = Reference("kayles", lambda graph, options: ("native", {}))

#: Winning moves listed in the human output (all of them are in the JSON).
SHOWN_MOVES = 20


def describe_value(
    graph: Graph, outcome: Outcome, options: dict[str, Any]
) -> tuple[str | None, list[str]]:
    """The value and who wins, then the winning moves (or what every move leaves); under
    the misère rule the class instead of the value."""
    if outcome.status != "solved" or not isinstance(outcome.witness, dict):
        return None, []
    if isinstance(graph, Misere):
        w = outcome.witness
        who = "the first player (to move) wins" if w["class"] == "N" else "the second player wins"
        moves = w.get("winning_moves") or []
        shown = ", ".join(moves[:SHOWN_MOVES]) + (f" ... ({len(moves)} in all)" if len(moves) > SHOWN_MOVES else "")
        line = f"  winning moves: {shown}" if moves else (
            "  every move leaves an N-position" if w["options"] else "  no move: the player to move wins at once")
        return f"{w['class']}-position under misère play: {who}", [line]
    w = outcome.witness
    value = outcome.answer
    said = f"value {value}: " + ("the first player (to move) wins" if value else "the second player wins")
    moves = w.get("winning_moves") or []
    if moves:
        shown = ", ".join(moves[:SHOWN_MOVES])
        more = f" ... ({len(moves)} in all)" if len(moves) > SHOWN_MOVES else ""
        lines = [f"  winning moves: {shown}{more}"]
    elif w.get("options"):
        left = Counter(w["options"].values())
        told = ", ".join(f"{k} ({c})" for k, c in sorted(left.items()))
        lines = [f"  every move leaves a position of value {told}" if len(left) > 1
                 else f"  every move leaves a position of value {next(iter(left))}"]  # fmt: skip
    else:
        lines = ["  no move (the graph is empty)"]
    return said, lines


def describe_sequence(
    family: Family, outcome: Outcome, options: dict[str, Any]
) -> tuple[str | None, list[str]]:
    """The terms, 34 to a line (the period of the path family), with the first index."""
    terms = outcome.answer
    if outcome.status != "solved" or not isinstance(terms, list):
        found = outcome.stats.get("found_before_limit")
        return None, [] if not found else [f"  {len(found)} terms found before the limit"]
    if family.misere:
        lines = [f"  n={family.first + i}: " + " ".join(terms[i : i + 34]) for i in range(0, len(terms), 34)]
        ps = [str(family.first + i) for i, c in enumerate(terms) if c == "P"]
        lines.append(f"  P-positions: {', '.join(ps) or 'none'}")
        if family.kind in ("path", "cycle"):
            lines.append("  no period claimed: the Guy-Smith theorem is about normal play")
        return f"misère outcomes of {family.name}(n) for n = {family.first}..{family.upto}", lines
    lines = []
    for i in range(0, len(terms), 34):
        n = family.first + i
        lines.append(f"  n={n}: " + " ".join(map(str, terms[i : i + 34])))
    period = (outcome.witness or {}).get("period")
    if period:
        if family.kind == "cycle":
            lines.append("  every move on C_n leaves P_(n-3): g(C_n) = mex{g(P_(n-3))}; for paths:")
        lines.append(f"  period {period['period']} from n = {period['preperiod']} "
                     f"(exceptions {', '.join(map(str, period['exceptions']))}): {period['proof']}")  # fmt: skip
    first, last = family.first, family.upto
    return f"g({family.name}(n)) for n = {first}..{last}", lines


def read_graph(graph: Path, fmt: str | None = None, misere: bool | None = False) -> Any:
    """The graph (``misere``: played under the misère rule)."""
    return played(load_graph(graph, fmt), misere)


def read_family(family: str, upto: int | None = None, misere: bool | None = False) -> Family:
    """The family up to ``upto`` (``misere``: its misère outcomes are asked)."""
    if upto is None:
        from pyasp_games.errors import InputError

        raise InputError("give --upto N: the last member of the family")
    return dataclasses.replace(parse_family(family, upto), misere=bool(misere))


VALUE = Question(
    "value",
    "The Grundy value of a graph, who wins, and every winning move.\n\n"
    "With --json: answer the value; witness value, outcome (first: the player to move "
    "wins), options (every vertex's move and the value it leaves), winning_moves; "
    "certificate (native, at most 62 vertices): the search's table of K-set values, "
    "which the checker confirms by the mex rule (--no-certificate leaves it out).",
    backends=BACKENDS,
    check=check_value,
    read=read_graph,
    describe=describe_value,
    params=(
        Param(
            "graph",
            help="An undirected graph: one edge 'u v' per line ('# value: N' states the "
            "known value), or .adjlist, .graphml, node-link .json.",
            type=Path,
            to="read",
            metavar="GRAPH",
        ),
        Param("fmt", "--format", "Graph file format (default: by extension).", type=FORMATS, to="read"),
        Param(
            "reductions",
            "--reductions/--no-reductions",
            "twins, paths and cycles by formula, isomorphic components (off: the plain "
            "memoised search over connected K-sets).",
            type=bool,
            default=True,
            backends=("native",),
        ),
        Param(
            "by",
            "--by",
            "how grundy answers the expanded graph: values (linear pass), sat or asp "
            "(grundy exists: the one Grundy function of the acyclic game graph).",
            type=BY,
            default="values",
            backends=("expanded",),
        ),
        encoding_param("a bundled encoding (kayles) or an .lp file.", default="kayles"),
        dataclasses.replace(MISERE, backends=("native", "expanded")),
    ),
    emits=(EMIT_LP,),
    reference=REFERENCE,
    without_certificate="the mex rule at the root and the options' values by the checker's "
    "own search within its budget (beyond it: verified in part)",
)

SEQUENCE = Question(
    "sequence",
    "The Grundy values of a family's members n = 0..N (path, cycle, star, complete, "
    "wheel, complete-bipartite:M, grid:M, caterpillar:K, and the families of Brown et al. "
    "2020: 3-path, linked-diamonds, linked-4-cycles, chained-4-cycles, prism, hypercube, "
    "generalized-petersen:K).\n\n"
    "With --json: answer the list of values from the family's first member (n = 3 for "
    "cycle, wheel and prism, 2K+1 for generalized-petersen:K, else 0); witness the family, "
    "and for path and cycle the proof of "
    "the period.",
    backends={"native": solve_sequence},
    check=check_sequence,
    read=read_family,
    describe=describe_sequence,
    params=(
        Param("family", help="path, cycle, star, complete, wheel, complete-bipartite:M, "
              "grid:M (P_M x P_n), caterpillar:K (K leaves per spine vertex), 3-path "
              "(P_n plus the edges between vertices 3 apart), linked-diamonds, "
              "linked-4-cycles or chained-4-cycles (n links), prism (C_n x K_2), hypercube "
              "(Q_n) or generalized-petersen:K (GP(n, K)).",
              to="read", metavar="FAMILY"),
        Param("upto", "--upto", "The last member n (required).", type=int, to="read", metavar="N"),
        MISERE,
    ),
)

#: The kayles domain's questions.
QUESTIONS = (VALUE, SEQUENCE)
