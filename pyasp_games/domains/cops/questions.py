"""The questions the cops domain answers, declared once (``pyasp-games cops ...``).

``solve``: who wins Cops and Robbers from given start squares, under the classic rules
or the notes' (:data:`~pyasp_games.domains.cops.model.VARIANTS`), in how many moves of
the cops, with the strategies that prove it. ``number``: the cop number c(G) of a
connected graph, with the cops' winning strategy for c(G) cops and the robber's escape
from c(G) - 1. Every answer is replayed by :mod:`~pyasp_games.domains.cops.verify`.

>>> from pyasp_games.domains.cops.model import parse_instance
>>> g = parse_instance("a b\\nb c\\nc d\\nd a\\n", cops="a", robber="c")
>>> out = SOLVE.ask(g, "native")
>>> out.answer, out.verdict.verified
({'winner': 'robber', 'moves': None}, True)
>>> describe_solve(g, out, {})[0]
'the robber escapes for ever'
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from pyasp_games.domains.cops.asp import cop_number_asp, solve_asp
from pyasp_games.domains.cops.model import (
    RULES,
    SIDES,
    VARIANTS,
    CopsGame,
    load_game,
    load_graph_game,
)
from pyasp_games.domains.cops.native import cop_number_native, solve_native
from pyasp_games.domains.cops.sat import cop_number_sat, solve_sat
from pyasp_games.domains.cops.verify import check_number, check_solve
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.fuzzing import plural
from pyasp_games.engines.graphs import FORMATS
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.question import EMIT_LP, SOLVER, Param, Question, encoding_param
from pyasp_games.engines.reference import Reference

#: The backends of ``solve``: ``backend(game, limits, **options) -> Claim`` with answer
#: ``{"winner": "cops"|"robber", "moves": n|None}`` and the strategies as witness.
BACKENDS: dict[str, Callable[..., Claim]] = {
    "native": solve_native,
    "asp": solve_asp,
    "sat": solve_sat,
}

#: A user encoding's claims are cross-checked against ``native`` (the strategies are
#: replayed whatever produced them; the reference confirms the least fixpoint's extent).
REFERENCE = Reference("cops", lambda game, options: ("native", {}))

#: How many positions of a strategy the text shows (the JSON has them all).
SHOWN = 8


def _cops(names: list[str]) -> str:
    return " ".join(names)


def _table_lines(title: str, entries: list[dict[str, Any]], number: str | None) -> list[str]:
    lines = [f"  {title} ({plural(len(entries), 'position')}):"]
    for e in entries[:SHOWN]:
        move = _cops(e["move"]) if isinstance(e["move"], list) else e["move"]
        said = f" ({number} {e[number]})" if number and number in e else ""
        lines.append(f"    cops {_cops(e['cops'])} robber {e['robber']} -> {move}{said}")
    if len(entries) > SHOWN:
        lines.append(f"    ... {len(entries) - SHOWN} more (--json for the whole table)")
    return lines


def describe_solve(
    game: CopsGame, outcome: Outcome, options: dict[str, Any]
) -> tuple[str | None, list[str]]:
    """The formatter of ``solve``: the winner and the number of moves, the rules, then
    the strategies (their first positions)."""
    answer = outcome.answer
    if outcome.status != "solved" or not isinstance(answer, dict):
        return None, []
    lines = [f"  {game.describe()}", f"  {RULES[game.variant]}"]
    witness = outcome.witness or {}
    if answer.get("winner") == "robber":
        lines += _table_lines("the robber's strategy, closed under every move of the cops",
                              witness.get("robber_strategy", []), None)  # fmt: skip
        return "the robber escapes for ever", lines
    moves = answer.get("moves")
    said = f"the cops win in {plural(moves, 'move')}" if moves else "the robber is caught at the start"
    if moves:
        lines.append(f"  the cops catch the robber within {plural(moves, 'move')} of theirs, and "
                     "no sooner against the robber's best defence")  # fmt: skip
        lines += _table_lines("the cops' strategy", witness.get("cops_strategy", []), "within")
        lines += _table_lines("the robber's longest defence", witness.get("robber_defence", []),
                              "survives")  # fmt: skip
    return said, lines


def describe_number(
    game: CopsGame, outcome: Outcome, options: dict[str, Any]
) -> tuple[str | None, list[str]]:
    """The formatter of ``number``: c(G), the cops' start and both proofs' sizes."""
    if outcome.status != "solved" or not isinstance(outcome.witness, dict):
        return None, []
    k, w = outcome.answer, outcome.witness
    lines = [f"  {game.describe()}"]
    verb = "catches" if k == 1 else "catch"
    lines.append(f"  {plural(k, 'cop')} starting on {_cops(w['start'])} {verb} the robber "
                 f"wherever it starts, within {plural(w['capture_within'], 'move')} "
                 f"(a strategy of {plural(len(w['strategy']), 'position')})")  # fmt: skip
    if k == 1:
        lines.append("  (0 cops catch no one)")
    else:
        verb = "catches" if k == 2 else "catch"
        lines.append(f"  {plural(k - 1, 'cop')} never {verb} it: the robber's escape is a set of "
                     f"{plural(len(w['escape']), 'position')} closed under the play")  # fmt: skip
    certificate = outcome.certificate
    if isinstance(certificate, dict) and "dismantlable" in certificate:
        order = certificate.get("dismantling_order")
        lines.append("  dismantlable: " + (f"yes, removing {' '.join(order)}" if order else "no"))
    return f"c(G) = {k}", lines


GRAPH_HELP = (
    "A graph: a file (one edge 'u v' per line, or .adjlist, .graphml, node-link .json) or "
    "a name: petersen, dodecahedron, heawood, robertson, atlas:N, path:N, cycle:N, "
    "grid:RxC, hypercube:D, complete:N, tree:N:SEED, ..."
)
FORMAT = Param("fmt", "--format", "Graph file format (default: by extension).", type=FORMATS,
               to="read")  # fmt: skip

SOLVE = Question(
    "solve",
    "Who wins from the start squares, in how many moves of the cops, and the strategies.\n\n"
    "Classic rules: every cop moves or stays, then the robber; a cop on the robber's vertex "
    "captures. The notes' rules: one cop moves to a free neighbour, then the robber must; "
    "the robber is trapped when every neighbour holds a cop (a cops' player without a move "
    "passes). With --json: answer {winner, moves}; witness the winner's strategy (a table "
    "keyed by positions) and, when the cops win, the robber's longest defence.",
    backends=BACKENDS,
    check=check_solve,
    read=load_game,
    describe=describe_solve,
    params=(
        Param("graph", help=GRAPH_HELP, type=Path, to="read"),
        Param("cops", "--cops", "The cops' start vertices, V1,V2,... or 'V1 V2 ...' (default: the file's "
              "'# cops:' line).", to="read", metavar="V1,V2"),
        Param("robber", "--robber", "The robber's start vertex (default: the file's "
              "'# robber:' line).", to="read", metavar="V"),
        Param("variant", "--variant", "classic or notes (default: the file's '# variant:' "
              "line, else classic).", type=VARIANTS, to="read"),
        Param("to_move", "--to-move", "Who moves first: cops (default) or robber.",
              type=SIDES, to="read"),
        FORMAT,
        encoding_param("a bundled encoding (classic, notes) or an .lp file (default: the "
                       "game's rules)."),
        SOLVER,
    ),
    emits=(EMIT_LP,),
    reference=REFERENCE,
)

NUMBER = Question(
    "number",
    "The cop number c(G) of a connected graph (classic rules), with both halves proved.\n\n"
    "The cops choose their starts, then the robber; c(G) is the least number of cops that "
    "catch the robber wherever it starts. The proof: the cops' winning strategy from their "
    "start for c(G) cops, and for c(G) - 1 cops the robber's escape, a set of positions "
    "(one against every placement) from which the robber always has a move back into the "
    "set. With --json: answer c(G); witness {cops, start, capture_within, strategy, escape}; "
    "certificate {dismantlable, dismantling_order}.",
    backends={"native": cop_number_native, "asp": cop_number_asp, "sat": cop_number_sat},
    check=check_number,
    read=lambda graph, fmt=None: load_graph_game(graph, fmt),
    describe=describe_number,
    params=(Param("graph", help=GRAPH_HELP, type=Path, to="read"), FORMAT, SOLVER),
)

#: The cops domain's questions.
QUESTIONS = (SOLVE, NUMBER)
