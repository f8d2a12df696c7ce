"""The questions the kriegspiel domain answers, declared once (``pyasp-games kriegspiel ...``).

``solve``: whether White forces mate from a metaposition (White to move, the black king
somewhere among the ``?`` squares), the worst-case number of White moves to mate
(illegal attempts are free) and the strategy, a graph keyed by White's observations
(:mod:`~pyasp_games.domains.kriegspiel.strategy`). The independent checker
(:func:`~pyasp_games.domains.kriegspiel.verify.check_outcome`) confirms both halves of an
optimal value N: the strategy replayed against every square and every Black reply
(mate within N), and the refutation of a faster mate (no mate within N - 1): native's
table of values, confirmed on what the metaposition needs, and on small boards a
refutation graph one can read. An optimum that comes with neither (the asp backend's
refutation beyond its size limit) is said to rest on the solver alone ("lower bound not
re-checked").
"No forced mate" comes with a refutation it checks too; the heuristic's failure with
the Black line on which its own policy goes round in circles.

>>> from pyasp_games.domains.kriegspiel.model import parse_metaposition
>>> m = parse_metaposition("?1?/2?/KR1")
>>> out = SOLVE.ask(m)
>>> describe_solve(m, out, {})[0], out.stats["checked"]
('White mates in 4 moves at worst (optimal)', {'mate_within': 4, 'no_mate_within': 3})
>>> for line in describe_solve(m, out, {})[1]:
...     print(line)
  KRK on 3x3: Ka1 Rb1, the black king on one of 3 squares
  first attempt: Ka2
  checked: the strategy mates within 4 moves, and no strategy mates within 3 (a refutation)
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from typing import Any

from pyasp_games.domains.kriegspiel.asp import solve_asp
from pyasp_games.domains.kriegspiel.heuristic import policy_attempt, solve_heuristic
from pyasp_games.domains.kriegspiel.magari import (
    MAX_REPETITIONS,
    check_magari,
    read_magari,
    solve_magari_lp,
)
from pyasp_games.domains.kriegspiel.model import (
    PIECES,
    Board,
    Metaposition,
    StartSet,
    board_of,
    load_metaposition,
)
from pyasp_games.domains.kriegspiel.native import solve_native, solve_table
from pyasp_games.domains.kriegspiel.pawn import (
    RULE_SETS,
    PawnBoard,
    PawnMetaposition,
    parse_pawn,
    solve_pawn_native,
    solve_pawn_table,
)
from pyasp_games.domains.kriegspiel.verify import (
    check_outcome,
    check_pawn_outcome,
    check_pawn_table,
    check_table,
)
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.question import EMIT_LP, Output, Param, Question, encoding_param
from pyasp_games.engines.reference import Reference, unchecked_claim
from pyasp_games.errors import InputError

#: The backends of ``solve``: ``backend(metaposition, limits, **options) -> Claim`` with
#: answer the worst-case number of White moves to mate and witness the strategy (or, with
#: status ``no-solution``, the refutation). Exact backends claim the default kind
#: (``exact``); ``heuristic`` (the evaluation-function player) claims an ``upper bound``
#: (its strategy's worst case), or a ``no-solution`` of kind ``about a strategy`` (bound:
#: the strategy's name) naming a Black line that keeps that strategy from mating.
BACKENDS: dict[str, Callable[..., Claim]] = {
    "native": solve_native,
    "asp": solve_asp,
    "heuristic": solve_heuristic,
}


def _needs_reference(outcome: Outcome) -> bool:
    """What a user encoding claims that the checker did not confirm: an answer it could
    not check (a bound with no refutation), or an optimum whose refutation of a faster
    mate was too large to build (the verdict's ``not_checked``)."""
    return unchecked_claim(outcome) or (
        outcome.status == "solved" and bool(outcome.verdict.not_checked)
    )


#: A user encoding's claims that the checker could not confirm alone are cross-checked
#: against ``native`` (the retrograde analysis; same ``--max-moves``).
REFERENCE = Reference("kriegspiel", lambda m, options: ("native", {}), _needs_reference)


def read_metaposition(metaposition: str) -> Metaposition:
    """The metaposition of the command line: a file (diagram or one line) or the one-line
    form itself."""
    return load_metaposition(metaposition)


def _moves(n: int) -> str:
    return f"{n} move{'s' if n != 1 else ''}"


def describe_solve(
    m: Metaposition, outcome: Outcome, options: dict[str, Any]
) -> tuple[str | None, list[str]]:
    """The formatter: the worst case in words and what of it was checked, then the
    metaposition and the first attempt."""
    lines = [f"  {m.describe()}"]
    stats = outcome.stats
    if outcome.status == "solved":
        root = outcome.witness["nodes"][outcome.witness["root"]]
        lines.append(f"  first attempt: {root['attempt']}")
        checked = stats.get("checked") or {}
        if not outcome.verdict.exact:
            exact = "an upper bound: this strategy's worst case, not the optimum"
        elif "no_mate_within" in checked:
            exact = "optimal"
            faster = outcome.answer - 1
            lines.append(
                f"  checked: the strategy mates within {_moves(outcome.answer)}"
                + (f", and no strategy mates within {faster} (a refutation)" if faster else "")
            )
        else:
            exact = f"optimal by {stats.get('optimal_by', 'the solver')}, lower bound not re-checked"
        return f"White mates in {_moves(outcome.answer)} at worst ({exact})", lines
    if outcome.status == "no-solution":
        bound = outcome.verdict.bound
        if isinstance(bound, int) and not isinstance(bound, bool):
            return f"no forced mate within {_moves(bound)}", lines
        if bound is not None:  # the heuristic's strategy fails: about it, not the metaposition
            lines.append(f"  the Black line: {stats.get('line')}")
            return f"{bound} does not mate (a claim about this strategy, not the metaposition)", lines
        return "no forced mate (the black king can hold a draw)", lines
    return None, lines


METAPOSITION = Param(
    "metaposition",
    help="A metaposition: a file (a diagram: ranks from the top, K R/Q/B B/B N ? k .) or the "
    "one-line form, e.g. '4/4/1R2/K3 unknown', '?1??/?1??/1R2/K1??' or "
    "'4/1B2/1N2/K3 unknown' (KBNK).",
    to="read",
)

SOLVE = Question(
    "solve",
    "Whether White forces mate, in how many moves at worst, and the strategy.\n\n"
    "White to move; the black king may be on any '?' square ('unknown': on every square "
    "where it may legally stand). Illegal attempts are free and are information. With "
    "--json: answer the worst-case number of White moves to mate, witness the strategy "
    "as nodes (metaposition, attempt, and the next node for each referee's answer) with "
    "the refutation of a faster mate (witness.refutation); for no forced mate (or none "
    "within --max-moves) the refutation; stats.checked says what the checker confirmed. "
    "The heuristic's failure is answer 'strategy-fails' (about its strategy, not the "
    "metaposition), its witness the Black line.",
    backends=BACKENDS,
    # the heuristic's "its strategy fails" is checked against that very policy
    check=partial(check_outcome, policy=policy_attempt),
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
        encoding_param("a bundled encoding (retrograde) or an .lp file.", default="retrograde"),
    ),
    emits=(EMIT_LP,),
    reference=REFERENCE,
    unchecked="not verified",
)


def given_board(board: str | None, command: str) -> Board:
    """The board of ``--board RxC``, which ``kriegspiel COMMAND`` needs: the one reader
    of the option for every command that solves a whole board (``table``,
    ``pawn-table``).

    >>> given_board("4x5", "table").label
    '4x5'
    """
    if board is None:
        raise InputError(f"kriegspiel {command} needs --board RANKSxFILES (e.g. --board 4x4)")
    return board_of(board)


def read_board(board: str, piece: str | None = None) -> StartSet:
    """The board of ``--board RxC`` (and White's piece)."""
    return StartSet(given_board(board, "table"), piece or "R")


def describe_table(
    request: StartSet, outcome: Outcome, options: dict[str, Any]
) -> tuple[str | None, list[str]]:
    """The formatter: the share of forced wins, the longest, the distribution."""
    if outcome.status != "solved":
        return None, []
    a = outcome.answer
    said = f"{a['forced']} of {a['starts']} starts are forced mates, the longest in {_moves(a['longest'] or 0)}"
    spread = "  ".join(f"{k}: {n}" for k, n in a["distribution"].items())
    lines = [
        f"  {a['metapositions']} metapositions reachable (up to symmetry)",
        f"  worst-case moves to mate: {spread}",
    ]
    checked = outcome.stats.get("checked")
    if checked:
        lines.append(
            f"  checked: {checked['mate_within']} strategies replayed, {checked['no_mate_within']} "
            f"of their values refuted one move less, {checked['no_forced_mate']} starts without "
            "a forced mate refuted"
        )
    if outcome.verdict.not_checked:
        lines.append(f"  not re-checked: {outcome.verdict.not_checked}")
    return said, lines


def table_data(request: StartSet, outcome: Outcome) -> dict[str, Any]:
    """A table's data (``kriegspiel table --output FILE``): the board, the answer (the
    number of starts, of forced mates, the distribution of their worst-case values) and
    each start's value (``values``; ``null``: no forced mate), with
    what the checker confirmed (``checked``) and what it did not (``not_checked``).

    >>> out = TABLE.ask(read_board("3x3"))
    >>> data = table_data(read_board("3x3"), out)
    >>> data["starts"], data["distribution"], data["checked"]["no_forced_mate"]
    (48, {'3': 20, '4': 24, 'none': 4}, 4)
    >>> data["values"][0]
    {'metaposition': '?1?/2?/KR1', 'value': 4}
    """
    stats = outcome.stats
    return {
        "ending": f"K{request.piece}K",
        "board": request.board.label,
        **outcome.answer,
        "values": [{"metaposition": row["metaposition"], "value": row["value"]}
                   for row in outcome.witness["starts"]],
        "verified": outcome.verdict.verified_as_written,  # "partial": verified in part
        "verification": outcome.verdict.message,
        "checked": stats.get("checked"),
        "not_checked": outcome.verdict.not_checked,
    }  # fmt: skip


def _table_file(request: StartSet, outcome: Outcome) -> str:
    return json.dumps(table_data(request, outcome), indent=1) + "\n"


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
        Param("piece", "--piece", "White's men besides the king: R (KRK), Q (KQK), BB (KBBK: the "
              "bishops on squares of both colours) or BN (KBNK).", type=PIECES, to="read"),
    ),
    unchecked="not verified",
    output=Output(
        "write the table's data as JSON: the distribution and every start's value "
        "(null: no forced mate), with what was checked.",
        _table_file,
    ),
)



# -- Kriegspiel with a pawn (KPK) and Magari's ending -----------------------------------------



RULES = Param("rules", "--rules", "The rule set named in the answer: english, rand or icc (in KPK "
              "no pawn capture is ever possible: the rule set changes no sure win).",
              type=tuple(RULE_SETS), default="english")


def read_pawn(metaposition: str) -> PawnMetaposition:
    """A KPK metaposition of the command line: its one-line form, or a file holding it."""
    from pathlib import Path

    from pyasp_games.errors import read_text

    text = metaposition
    if "/" not in text.split()[0] if text.split() else True:
        text = read_text(Path(metaposition))  # not a one-line form: a file (one clear line if absent)
    elif Path(text).is_file():
        text = read_text(Path(text))
    return parse_pawn(text.strip(), name=metaposition)


def describe_pawn(m: PawnMetaposition, outcome: Outcome, options: dict[str, Any]
                  ) -> tuple[str | None, list[str]]:
    """The formatter of ``pawn-solve``."""
    lines = [f"  {m.describe()}"]
    if outcome.stats.get("rules"):
        lines.append(f"  rules: {outcome.stats['rules']} (no pawn capture is possible in KPK: a sure win "
                     "is the same under every rule set)")
    if outcome.status == "solved":
        lines.append(f"  White's main line: {' '.join(outcome.witness['first_attempts'])}")
        lines.append(f"  the promotion hands over to {outcome.stats.get('handover')}")
        return f"White mates in {_moves(outcome.answer)} at worst (promoting; optimal)", lines
    if outcome.status == "no-solution":
        return "no sure win (against some square and reply the king holds a draw)", lines
    return None, lines


PAWN_SOLVE = Question(
    "pawn-solve",
    "Whether White's king and pawn win for sure against the unseen king (KPK).\n\n"
    "White to move; the black king on any '?' square ('unknown': every legal square). "
    "White's pawn moves up the board and promotes to a queen on the last rank; the "
    "ending then goes on as KQK (its metaposition table). A sure win mates against every "
    "square and reply (a capture of the pawn or queen, or a stalemate, is a draw). No "
    "pawn capture is ever possible in KPK, so the rule sets (English, RAND, ICC) do not "
    "change the answer. With --json: answer the worst-case number of White moves to "
    "mate, certificate every metaposition reached with its value (the checker re-derives "
    "each from its own rules).",
    backends={"native": solve_pawn_native},
    check=check_pawn_outcome,
    read=read_pawn,
    describe=describe_pawn,
    params=(Param("metaposition", help="A KPK metaposition, e.g. '4/1KP?/3?/????' or "
                  "'4/4/1P2/1K2 unknown' (ranks from the top; K P ? k, digits).", to="read"), RULES),
    unchecked="not verified",
)


def read_pawn_board(board: str) -> PawnBoard:
    """The board of ``--board RxC`` for ``pawn-table``."""
    return PawnBoard(given_board(board, "pawn-table"))


def describe_pawn_table(request: PawnBoard, outcome: Outcome, options: dict[str, Any]
                        ) -> tuple[str | None, list[str]]:
    if outcome.status != "solved":
        return None, []
    a = outcome.answer
    spread = "  ".join(f"{k}: {n}" for k, n in a["distribution"].items())
    return (f"{a['forced']} of {a['starts']} starts are sure wins, the longest in "
            f"{_moves(a['longest'] or 0)}",
            [f"  rules: {outcome.stats.get('rules')} (the same sure wins under every rule set)",
             f"  {a['states']} metapositions (KPK and the KQK after the promotion)",
             f"  worst-case moves to mate: {spread}"])


PAWN_TABLE = Question(
    "pawn-table",
    "Every full-uncertainty KPK start of a board: which White wins for sure.\n\n"
    "Each placement of White's king and pawn with the black king unknown, solved by "
    "the retrograde analysis over the metapositions (the promotion handed over to the "
    "KQK table). With --json: answer the distribution, witness every start's value, "
    "certificate the whole table, which the checker re-derives from its own rules.",
    backends={"native": solve_pawn_table},
    check=check_pawn_table,
    read=read_pawn_board,
    describe=describe_pawn_table,
    params=(Param("board", "--board", "The board, RANKSxFILES (4x4 and up; 5x5 in seconds).",
                  to="read", metavar="RxC"), RULES),
    unchecked="not verified",
)


def describe_magari(request: Any, outcome: Outcome, options: dict[str, Any]
                    ) -> tuple[str | None, list[str]]:
    if outcome.status != "solved":
        return None, []
    w = outcome.witness
    lines = [f"  rules: {request.rules} ({RULE_SETS[request.rules].split(':')[0]})",
             f"  game tree: {outcome.stats.get('leaves')} leaves, information sets "
             f"{outcome.stats.get('infosets')} (White, Black)"]
    for who, key in (("White", "behaviour_I"), ("Black", "behaviour_II")):
        mixed = {h: p for h, p in w[key].items() if sum(1 for x in p.values() if x) > 1}
        shown = "; ".join(f"[{h.strip() or 'start'}] " + ", ".join(f"{a} {x}" for a, x in p.items() if x)
                          for h, p in list(mixed.items())[:4])
        lines.append(f"  {who} mixes at {len(mixed)} information sets: {shown}"
                     + (" ..." if len(mixed) > 4 else ""))
    return (f"White wins with probability {outcome.answer} at best "
            f"({request.repetitions} repetition{'s' if request.repetitions > 1 else ''})", lines)


MAGARI = Question(
    "magari",
    "Magari's K+P vs K (thesis 3.2.4): White's best probability of winning.\n\n"
    "White Kc5, Pc6 against Kc7, Black to move, known to both; White repeats the "
    "manoeuvre (K to b6 or d6, the seventh-rank try, then push or back to c5) at most "
    "REPETITIONS times. The game over the referee's answers, with Black's hidden "
    "choices, solved exactly by the sequence-form LP; both behaviour strategies are "
    "checked by exact best responses. With --json: answer the value (a fraction), "
    "witness both behaviour strategies.",
    backends={"lp": solve_magari_lp},
    check=check_magari,
    read=read_magari,
    describe=describe_magari,
    params=(
        Param("repetitions", help=f"At most this many repetitions (1 to {MAX_REPETITIONS}; 1: the "
              "last one; default 1).", type=int, to="read", optional=True),
        Param("rules", "--rules", "The rule set: english, rand or icc.", type=tuple(RULE_SETS), to="read"),
    ),
    unchecked="not verified",
)

#: The kriegspiel domain's questions.
QUESTIONS = (SOLVE, TABLE, PAWN_SOLVE, PAWN_TABLE, MAGARI)
