"""The questions the geography domain answers, declared once (``pyasp-games geography ...``).

``solve``: who wins Generalized Geography from the start vertex, the player to move
(``first``) or the other (``second``), with a winning first move; by game search
(``native``), an ASP program deriving the game tree (``asp``), or the matching
algorithm for undirected vertex geography (``matching``). Every answer is checked by
an independent brute-force minimax (small games); a user encoding's winner beyond its
budget is cross-checked against ``native`` (:data:`REFERENCE`).

>>> from pyasp_games.domains.geography.model import parse_instance
>>> g = parse_instance("s a\\na b\\ns b\\n", "s", "vertex")
>>> out = SOLVE.ask(g, "native", line=True)
>>> out.answer, out.witness, out.verdict.verified
('first', 'b', True)
>>> describe_winner(g, out, {})
('the first player (to move) wins', ['  vertex geography on a directed graph from s', \
'  winning move: b', '  line of play: s b'])
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from pyasp_games.domains.geography.asp import solve_asp
from pyasp_games.domains.geography.matching import solve_matching
from pyasp_games.domains.geography.model import VARIANTS, Geography, load_instance
from pyasp_games.domains.geography.native import solve_native
from pyasp_games.domains.geography.verify import check_outcome
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.graphs import FORMATS
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.question import EMIT_LP, Param, Question, encoding_param
from pyasp_games.engines.reference import Reference

#: The backends: ``backend(game, limits, **options) -> Claim`` with answer ``first``
#: or ``second`` and witness the winning first move (a vertex; an arc in edge geography).
BACKENDS: dict[str, Callable[..., Claim]] = {
    "native": solve_native,
    "asp": solve_asp,
    "matching": solve_matching,
}


def _shown(move: Any) -> str:
    return move if isinstance(move, str) else " -> ".join(map(str, move or []))


#: A user encoding's winner where minimax is out of budget is cross-checked against
#: ``native`` (search with memo; every variant).
REFERENCE = Reference("geography", lambda game, options: ("native", {}))


def describe_winner(
    game: Geography, outcome: Outcome, options: dict[str, Any]
) -> tuple[str | None, list[str]]:
    """The formatter: who wins, then the game, the winning move and a line of play."""
    if outcome.status != "solved" or outcome.answer not in ("first", "second"):
        return None, []
    lines = [f"  {game.describe()}"]
    if outcome.answer == "first":
        said = "the first player (to move) wins"
        lines.append(f"  winning move: {_shown(outcome.witness)}")
    else:
        said = "the second player wins"
        lines.append("  every first move loses")
    if "line" in outcome.stats:
        lines.append(f"  line of play: {' '.join(outcome.stats['line'])}")
    return said, lines


def read_game(
    graph: Path,
    start: str | None = None,
    variant: str | None = None,
    undirected: bool = False,
    fmt: str | None = None,
) -> Geography:
    """The game of the command line: options given override the file's headers
    (``--undirected`` not given leaves the file's ``# undirected:`` header in force)."""
    return load_instance(graph, start, variant, True if undirected else None, fmt)


SOLVE = Question(
    "solve",
    'Who wins from START: the player to move there ("first") or the other ("second").\n\n'
    "With --json: answer first/second, witness the winning first move (the vertex; in "
    "edge geography the arc, as the pair start, next) or null; certificate (native) the "
    "winner's strategy, a proof DAG the checker walks (--no-certificate leaves it out).",
    backends=BACKENDS,
    check=check_outcome,
    read=read_game,
    describe=describe_winner,
    params=(
        Param(
            "graph",
            help="A graph: one arc 'u v' per line, with headers '# start: s', "
            "'# variant: vertex|edge', '# undirected: yes', '# winner: first|second' "
            "(optional); or .adjlist, .graphml, node-link .json.",
            type=Path,
            to="read",
        ),
        Param(
            "start",
            "--start -s",
            "The start vertex (default: the file's '# start:' line).",
            to="read",
        ),
        Param(
            "variant",
            "--variant",
            "vertex (no vertex twice) or edge (no edge twice); default: the file's "
            "'# variant:' line, else vertex.",
            type=VARIANTS,
            to="read",
        ),
        Param(
            "undirected",
            "--undirected",
            "Every line 'u v' is an edge usable both ways.",
            type=bool,
            default=False,
            to="read",
        ),
        Param(
            "line",
            "--line",
            "also show a line of play (the winner's strategy).",
            type=bool,
            default=False,
            backends=("native",),
        ),
        Param(
            "fmt",
            "--format",
            "Graph file format (default: by extension).",
            type=FORMATS,
            to="read",
        ),
        encoding_param(
            "a bundled encoding (vertex, edge) or an .lp file (default: the game's variant)."
        ),
    ),
    emits=(EMIT_LP,),
    reference=REFERENCE,
    without_certificate="the winner and its first move by the checker's own minimax, within "
    "its budget of explored positions (beyond it: not confirmed, exit 3)",
)

#: The geography domain's questions.
QUESTIONS = (SOLVE,)
