"""The question the annihilation domain answers, declared once (``pyasp-games annihilation solve``).

``solve``: who wins Annihilation from the start, the player to move (``first``), the
other (``second``), or neither (``draw``), with a winning or a draw-keeping first
move; by retrograde analysis of every reachable position (``native``), an ASP
program deriving them from the rules (``asp``), or the linear space of lost positions,
proved complete (``poly``, with a certificate). Every answer is checked by
:mod:`~pyasp_games.domains.annihilation.verify` (from the rules within its budget of
positions, and ``poly``'s certificate at any size).

>>> from pyasp_games.domains.annihilation.model import parse_instance
>>> inst = parse_instance("a b\\nb a\\n", "a")
>>> out = SOLVE.ask(inst, "native")
>>> out.answer, out.witness, out.verdict.verified
('draw', ['a', 'b'], True)
>>> describe_outcome(inst, out, {})
('a draw (neither player can force a win)', ['  1 token (a) on a digraph of 2 vertices and 2 arcs', \
'  draw-keeping move: a -> b'])
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from pyasp_games.domains.annihilation.asp import solve_asp
from pyasp_games.domains.annihilation.model import load_instance
from pyasp_games.domains.annihilation.native import solve_native
from pyasp_games.domains.annihilation.poly import solve_poly
from pyasp_games.domains.annihilation.positions import out_of_reach
from pyasp_games.domains.annihilation.verify import check_outcome
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.graphs import FORMATS
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.question import EMIT_LP, Param, Question, encoding_param
from pyasp_games.engines.reference import Reference

#: The backends: ``backend(instance, limits, **options) -> Claim`` with answer
#: ``first``, ``second`` or ``draw`` and witness the move ``[from, to]`` that keeps it
#: (``poly``'s proof in the claim's certificate).
BACKENDS: dict[str, Callable[..., Claim]] = {
    "native": solve_native,
    "asp": solve_asp,
    "poly": solve_poly,
}

def native_out_of_reach(inst: Any, backend: str, seconds: float | None) -> str | None:
    """Why the exhaustive cross-check cannot finish (a draw the checker could not prove,
    on a large digraph: its bound on the reachable positions is beyond what it can
    visit), said at once."""
    return out_of_reach(inst, seconds) if backend == "native" else None


#: Claims the checker cannot decide within its budget are cross-checked against
#: ``native`` (unless it cannot finish), and ``native``'s own against ``asp`` (small
#: instances only).
REFERENCE = Reference(
    "annihilation", lambda inst, options: ("native", {}), second=lambda inst, options: ("asp", {}),
    out_of_reach=native_out_of_reach,
)

#: How each answer reads.
SAID = {
    "first": "the first player (to move) wins",
    "second": "the second player wins",
    "draw": "a draw (neither player can force a win)",
}


def describe_outcome(inst: Any, outcome: Outcome, options: dict[str, Any]) -> tuple[str | None, list[str]]:
    """The formatter: who wins, then the position and the move that keeps the answer."""
    if outcome.status != "solved" or outcome.answer not in SAID:
        return None, []
    lines = [f"  {inst.describe()}"]
    move = outcome.witness
    shown = " -> ".join(move) if isinstance(move, list) else str(move)
    if outcome.answer == "first":
        lines.append(f"  winning move: {shown}")
    elif outcome.answer == "draw":
        lines.append(f"  draw-keeping move: {shown}")
    else:
        lines.append("  every move loses")
    return SAID[outcome.answer], lines


def token_param(help: str, name: str = "tokens") -> Param:
    """A positional list of token vertices (default: the file's header of that name)."""
    return Param(name, help=help, type=list[str], to="read", optional=True, metavar="TOKEN")


SOLVE = Question(
    "solve",
    'Who wins Annihilation: the player to move ("first"), the other ("second"), or '
    'neither ("draw").\n\n'
    "With --json: answer first/second/draw, witness the move [from, to] that wins or "
    "keeps the draw (null when every move loses).",
    backends=BACKENDS,
    check=check_outcome,
    read=lambda graph, tokens=None, fmt=None: load_instance(graph, tokens, fmt),
    describe=describe_outcome,
    params=(
        Param(
            "graph",
            help="A digraph: one arc 'u v' per line, with headers '# tokens: a b ...' and "
            "'# outcome: first|second|draw' (optional); or .adjlist, .graphml, node-link .json.",
            type=Path,
            to="read",
        ),
        token_param(
            "The token vertices, separated by commas or spaces ('-': none; default: the "
            "file's '# tokens:' line)."
        ),
        Param("fmt", "--format", "Graph file format (default: by extension).", type=FORMATS, to="read"),
        encoding_param("a bundled encoding (annihilation) or an .lp file.", default="annihilation"),
    ),
    emits=(EMIT_LP,),
    reference=REFERENCE,
)

#: The annihilation domain's questions.
QUESTIONS = (SOLVE,)
