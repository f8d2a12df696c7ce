"""The questions the kriegspiel domain answers, declared once (``pyasp-games kriegspiel ...``).

``solve``: whether White forces mate from a metaposition (White to move, the black king
somewhere among the ``?`` squares), the worst-case number of White moves to mate
(illegal attempts are free) and the strategy, a graph keyed by White's observations
(:mod:`~pyasp_games.kriegspiel.strategy`). Every strategy is replayed by the independent
checker (:func:`~pyasp_games.kriegspiel.verify.check_outcome`) against every square and
every Black reply; "no forced mate" comes with a refutation it checks too. That no
strategy is faster (optimality) is not checkable alone: it is cross-checked.

>>> from pyasp_games.kriegspiel.model import parse_metaposition
>>> m = parse_metaposition("k2/2K/1R1")
>>> out = SOLVE.ask(m)
>>> describe_solve(m, out, {})
('White mates in 1 move at worst (optimal)', ['  KRK on 3x3: Kc2 Rb1, the black king its square known', '  first attempt: Ra1'])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.question import EMIT_LP, Param, Question
from pyasp_games.engines.reference import Reference, unchecked_claim
from pyasp_games.kriegspiel.asp import solve_asp
from pyasp_games.kriegspiel.heuristic import solve_heuristic
from pyasp_games.kriegspiel.model import PIECES, Metaposition, StartSet, board_of, load_metaposition
from pyasp_games.kriegspiel.native import solve_native, solve_table
from pyasp_games.kriegspiel.verify import check_outcome, check_table

#: The backends of ``solve``: ``backend(metaposition, limits, **options) -> Outcome`` with
#: answer the worst-case number of White moves to mate and witness the strategy (or, with
#: status ``no-solution``, the refutation). Exact backends set ``stats["optimal"] = True``;
#: ``heuristic`` (the seed's evaluation-function player) sets it to ``False``: its
#: strategy's worst case is an upper bound, or (``no-solution`` with ``stats["bounded"]``)
#: it names a Black line that keeps that strategy from mating.
BACKENDS: dict[str, Callable[..., Outcome]] = {
    "native": solve_native,
    "asp": solve_asp,
    "heuristic": solve_heuristic,
}


def describe(outcome: Outcome, options: dict[str, Any] | None = None) -> str:
    """The answer in words: mate in N at worst, or no forced mate."""
    if outcome.status == "solved":
        return f"mate in {_moves(outcome.answer)} at worst"
    if outcome.status == "no-solution":
        return "no forced mate"
    return "no answer"


def _claims_optimum(outcome: Outcome) -> bool:
    # the checker replays the strategy (mate within N), not that no strategy is faster
    return unchecked_claim(outcome) or (
        outcome.status == "solved" and outcome.stats.get("optimal") is True
    )


#: A user encoding's optimum and "no forced mate" are cross-checked against ``native``
#: (the retrograde analysis; same ``--max-moves``).
REFERENCE = Reference("kriegspiel", lambda m, options: ("native", {}), describe, _claims_optimum)


def read_metaposition(metaposition: str) -> Metaposition:
    """The metaposition of the command line: a file (diagram or one line) or the one-line
    form itself."""
    return load_metaposition(metaposition)


def _moves(n: int) -> str:
    return f"{n} move{'s' if n != 1 else ''}"


def describe_solve(
    m: Metaposition, outcome: Outcome, options: dict[str, Any]
) -> tuple[str | None, list[str]]:
    """The formatter: the worst case in words, then the metaposition and the first attempt."""
    lines = [f"  {m.describe()}"]
    if outcome.status == "solved":
        exact = "optimal" if outcome.stats.get("optimal") else "an upper bound"
        root = outcome.witness["nodes"][outcome.witness["root"]]
        lines.append(f"  first attempt: {root['attempt']}")
        return f"White mates in {_moves(outcome.answer)} at worst ({exact})", lines
    if outcome.status == "no-solution":
        bound = outcome.stats.get("bounded")
        return (bound if bound else "no forced mate (the black king can hold a draw)"), lines
    return None, lines


METAPOSITION = Param(
    "metaposition",
    help="A metaposition: a file (a diagram: ranks from the top, K R/Q ? k .) or the "
    "one-line form, e.g. '4/4/1R2/K3 unknown' or '?1??/?1??/1R2/K1??'.",
    to="read",
)

SOLVE = Question(
    "solve",
    "Whether White forces mate, in how many moves at worst, and the strategy.\n\n"
    "White to move; the black king may be on any '?' square ('unknown': on every square "
    "where it may legally stand). Illegal attempts are free and are information. With "
    "--json: answer the worst-case number of White moves to mate, witness the strategy "
    "as nodes (metaposition, attempt, and the next node for each referee's answer), or "
    "for no forced mate the refutation.",
    backends=BACKENDS,
    check=check_outcome,
    read=read_metaposition,
    describe=describe_solve,
    params=(
        METAPOSITION,
        Param(
            "max_length",
            "--max-moves",
            "Only mates within this many White moves (no-solution beyond).",
            type=int,
            to="limits",
        ),
        Param(
            "encoding",
            "--encoding",
            "a bundled encoding (retrograde) or an .lp file.",
            default="retrograde",
            backends=("asp",),
        ),
    ),
    emits=(EMIT_LP,),
    reference=REFERENCE,
    unchecked="not verified",
)


def read_board(board: str, piece: str | None = None) -> StartSet:
    """The board of ``--board RxC`` (and White's piece)."""
    return StartSet(board_of(board), piece or "R")


def describe_table(
    request: StartSet, outcome: Outcome, options: dict[str, Any]
) -> tuple[str | None, list[str]]:
    """The formatter: the share of forced wins, the longest, the distribution."""
    if outcome.status != "solved":
        return None, []
    a = outcome.answer
    said = f"{a['forced']} of {a['starts']} starts are forced mates, the longest in {_moves(a['longest'] or 0)}"
    spread = "  ".join(f"{k}: {n}" for k, n in a["distribution"].items())
    return said, [
        f"  {a['metapositions']} metapositions reachable (up to symmetry)",
        f"  worst-case moves to mate: {spread}",
    ]


TABLE = Question(
    "table",
    "Every metaposition reachable from every full-uncertainty start, solved.\n\n"
    "Retrograde analysis over the metapositions White can meet from each placement of its "
    "men with the black king unknown. With --json: answer the starts' distribution of "
    "worst-case values ('none': no forced mate), witness every start's value with one "
    "strategy graph (and one refutation graph) covering them, which the checker replays.",
    backends={"native": solve_table},
    check=check_table,
    read=read_board,
    describe=describe_table,
    params=(
        Param("board", "--board", "The board, RANKSxFILES (3 to 8 each).", to="read", metavar="RxC"),
        Param("piece", "--piece", "White's piece: R (KRK) or Q (KQK).", type=PIECES, to="read"),
    ),
    unchecked="not verified",
)

#: The kriegspiel domain's questions.
QUESTIONS = (SOLVE, TABLE)
