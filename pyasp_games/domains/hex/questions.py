"""The questions the hex domain answers, declared once (``pyasp-games hex ...``).

``solve``: who wins a position with the player to move, a winning move, and a proof
(checked by :mod:`~pyasp_games.domains.hex.verify`, written with ``--json``);
``openings``: the winner after every first move on an empty board, as a map.

>>> from pyasp_games.domains.hex.model import parse_position
>>> game = parse_position("3x3")
>>> out = SOLVE.ask(game, "native")
>>> out.answer, out.witness, out.verdict.verified
('black', 'b2', True)
>>> describe_winner(game, out, {})[0]
'black wins (black to move)'
"""

from __future__ import annotations

from typing import Any

from pyasp_games.domains.hex.asp import solve_asp
from pyasp_games.domains.hex.model import PLAYERS, Hex, load_position, parse_position
from pyasp_games.domains.hex.native import solve_native, solve_openings
from pyasp_games.domains.hex.sat import solve_sat
from pyasp_games.domains.hex.verify import check_openings, check_outcome
from pyasp_games.engines.graphs import FORMATS
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.question import (
    EMIT_CNF,
    EMIT_LP,
    SOLVER,
    Output,
    Param,
    Question,
    encoding_param,
)
from pyasp_games.engines.reference import Reference
from pyasp_games.errors import InputError

#: The backends of ``solve``: ``backend(game, limits, **options) -> Claim`` with answer
#: the winner (``black``/``white``), witness the winning move of the player to move (or
#: ``None``) and the proof as the certificate.
BACKENDS = {"native": solve_native, "asp": solve_asp, "sat": solve_sat}

#: A user encoding's claims no proof confirms (a no-win within --moves) are cross-checked
#: against ``native``.
REFERENCE = Reference("hex", lambda game, options: ("native", {}))


def describe_winner(game: Hex, outcome: Outcome, options: dict[str, Any]) -> tuple[str | None, list[str]]:
    """The formatter: the winner, then the position, the winning move and the proof's size."""
    mover = PLAYERS[game.to_move]
    if outcome.status == "no-solution" and outcome.verdict.bound is not None:
        return f"{mover} does not win within {outcome.verdict.bound} of its moves", [f"  {game.describe()}"]
    if outcome.status != "solved" or outcome.answer not in ("black", "white"):
        return None, []
    lines = [f"  {game.describe()}"]
    if outcome.answer == mover:
        lines.append(f"  winning move: {outcome.witness or '(none needed: won already)'}")
    else:
        lines.append(f"  every move of {mover} loses")
    proof = outcome.certificate
    if isinstance(proof, dict) and isinstance(proof.get("nodes"), list):
        lines.append(f"  proof: {len(proof['nodes']):,} nodes (--json writes it)")
    return f"{outcome.answer} wins ({mover} to move)", lines


def openings_map(game: Hex, answer: dict[str, str]) -> list[str]:
    """The map of openings as a diagram: ``B`` where Black's first move wins, ``W`` where
    it loses (``?`` where ``answer`` has no winner: a campaign's cell not settled)."""
    width = len(str(game.rows))
    lines = [" " * (width + 1) + " ".join(c[0] for c in game.cells[: game.cols])]
    for r in range(game.rows):
        row = " ".join(answer.get(c, "?")[0].upper() for c in game.cells[r * game.cols: (r + 1) * game.cols])
        lines.append(" " * r + f"{r + 1:>{width}} " + row)
    return lines


def describe_openings(game: Hex, outcome: Outcome, options: dict[str, Any]) -> tuple[str | None, list[str]]:
    """The formatter of ``openings``: how many first moves win, then the map."""
    if outcome.status != "solved" or not isinstance(outcome.answer, dict):
        return None, []
    wins = sorted((c for c, w in outcome.answer.items() if w == "black"), key=game.index.get)
    said = f"{len(wins)} of {len(game)} openings win for black"
    lines = ["  " + line for line in openings_map(game, outcome.answer)]
    lines.append(f"  winning openings: {' '.join(wins) or 'none'}")
    return said, lines


def read_position(position: str, terminals: str | None = None, fmt: str | None = None) -> Hex:
    """The position of the command line (:func:`~pyasp_games.domains.hex.model.load_position`)."""
    return load_position(position, terminals, fmt)


def read_board(board: str | None = None) -> Hex:
    """The empty board of ``--board NxM``."""
    if board is None:
        raise InputError("--board NxN is required (e.g. --board 4x4)")
    game = parse_position(board, board)
    if game.stones.count(".") != len(game):
        raise InputError("--board takes a size such as 5x5, not a position")
    return game


def openings_svg(game: Hex, outcome: Outcome) -> str:
    """``--output``: the openings map drawn as an SVG picture (:mod:`.plot`)."""
    from pyasp_games.domains.hex.plot import openings_picture

    return openings_picture(game, outcome.answer, "svg").decode()


def proof_json(game: Hex, outcome: Outcome) -> str:
    """``--output``: the proof as a JSON file (its own shape: the position, the winner,
    the move and, under ``proof``, the outcome's certificate)."""
    import json

    return json.dumps({"position": game.one_line(), "winner": outcome.answer,
                       "move": outcome.witness, "proof": outcome.certificate}) + "\n"


POSITION = Param(
    "position",
    help="A position: a board file (rows of B, W and ., headers '# turn:', '# known:'), "
    "the one-line form (rows joined by '/', e.g. '..B/.W./...'), NxN for the empty board, "
    "or a graph file for graph Hex (with --terminals or '# terminals: s t').",
    to="read",
)
TERMINALS = Param("terminals", "--terminals", "graph Hex: the two vertices Black joins, s,t.", to="read")
FORMAT = Param("fmt", "--format", "graph Hex: the graph file's format (default: by extension).",
               type=FORMATS, to="read")  # fmt: skip

SOLVE = Question(
    "solve",
    "Who wins POSITION with the player to move, a winning move, and a proof.\n\n"
    "Black joins top and bottom, White left and right (in graph Hex Black joins the "
    "terminals and White cuts them); Black moves first. With --json: answer black/white, "
    "witness the winning move of the player to move (or null), certificate the proof "
    "(nodes: {move, next} for the winner, {replies} with every reply of the loser, "
    "leaves {won} or {pairs}), checked move by move before it is printed.",
    backends=BACKENDS,
    check=check_outcome,
    read=read_position,
    describe=describe_winner,
    params=(
        POSITION, TERMINALS, FORMAT,
        Param("moves", "--moves", "does the player to move win within this many of its own "
              "moves (default: to the end of the game; short of it, no win is a bound).",
              type=int, backends=("asp", "sat")),
        SOLVER,
        encoding_param("a bundled encoding (hex) or an .lp file.", default="hex"),
    ),
    emits=(EMIT_LP, EMIT_CNF),
    reference=REFERENCE,
    unchecked="NOT VERIFIED: no win within --moves is a bound no proof shows",
    output=Output("write the proof as JSON (position, winner, move, proof).", proof_json),
)

OPENINGS = Question(
    "openings",
    "The winner after each first move of Black on an empty board, as a map.\n\n"
    "B where the opening wins for Black, W where it loses; every cell's proof is "
    "checked (--json holds them in certificate, by cell; a cell of the half not searched holds "
    "{\"image_of\": CELL}, the cell it is the half-turn image of, whose proof is checked). "
    "--output FILE.svg draws the map.",
    backends={"native": solve_openings},
    check=check_openings,
    read=read_board,
    describe=describe_openings,
    params=(Param("board", "--board", "the board's size, NxN or NxM (e.g. 5x5).", to="read"),),
    output=Output("draw the map as an SVG picture (FILE.svg).", openings_svg, (".svg",), "picture"),
)

#: The hex domain's questions.
QUESTIONS = (SOLVE, OPENINGS)
