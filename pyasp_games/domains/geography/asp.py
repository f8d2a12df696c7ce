"""Geography with clingo: the program derives the game tree and the win/lose relation.

Facts are ``vertex/1``, ``edge/1``, ``start/1`` and ``step/3`` over vertex numbers
(see ``encodings/geography/README.md``); the encoding is ``vertex`` or ``edge``
after the instance's variant. The unique answer set holds ``first_wins`` iff the
player to move at the start wins and ``winning_move(W)`` for each winning first
move; the witness is the first of them in vertex order.

>>> from pyasp_games.domains.geography.model import parse_instance
>>> out = solve_asp(parse_instance("s a\\na b\\ns b\\n", "s", "vertex"))
>>> out.status, out.answer, out.witness, out.stats["winning_moves"]
('solved', 'first', 'b', ['b'])
>>> solve_asp(parse_instance("s a\\na b\\n", "s", "edge", undirected=True)).answer
'second'
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pyasp_games.domains.geography.model import Geography
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.clingo_runner import int_arguments, run_program, write_facts
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.resources import encoding_path
from pyasp_games.errors import MalformedAnswer

DOMAIN = "geography"


def facts(game: Geography) -> str:
    """``vertex/1``, ``edge/1``, ``start/1`` and ``step/3`` facts."""
    out = [f"vertex({v})." for v in range(len(game))]
    out += [f"edge({f})." for f in range(game.edge_count)]
    out.append(f"start({game.start}).")
    out += [f"step({u},{v},{f})." for u, ms in enumerate(game.moves) for v, f in ms]
    return "\n".join(out) + "\n"


def _move(game: Geography, symbol: Any) -> int:
    """The vertex of a ``winning_move(W)`` atom; any other shape is a malformed answer."""
    (w,) = int_arguments(symbol, "winning_move", 1, "a vertex number")
    if not 0 <= w < len(game):
        raise MalformedAnswer(f"the answer set shows {symbol}: no vertex numbered {w}")
    return w


def write_lp(game: Geography, path: Path | str, encoding: str | None = None) -> None:
    """Write the facts of ``game`` and how to run clingo on them by hand."""
    names = " ".join(f"{i}={n}" for i, n in enumerate(game.names[:50]))
    write_facts(
        path, facts(game), [encoding_path(DOMAIN, encoding or game.variant)],
        f"geography instance {game.name}: {game.describe()}",
        notes=[f"vertices: {names}{' ...' if len(game) > 50 else ''}"],
    )  # fmt: skip


def solve_asp(
    game: Geography,
    limits: Limits = Limits(),
    encoding: str | None = None,
    emit_lp: Path | str | None = None,
) -> Claim:
    """The ``asp`` backend; ``emit_lp`` writes the facts run (:func:`write_lp`) first."""
    if emit_lp is not None:
        write_lp(game, emit_lp, encoding)

    def answer(symbols: list[Any]) -> Claim:
        """The winner an answer set shows, with the first player's winning moves."""
        first = any(s.name == "first_wins" for s in symbols)
        moves = sorted(_move(game, s) for s in symbols if s.name == "winning_move")
        stats: dict[str, Any] = {}
        for s in symbols:
            if s.name == "positions":
                stats["positions"] = int_arguments(s, "positions", 1, "a number")[0]
        stats["winning_moves"] = [game.names[w] for w in moves]
        witness = game.move_name(moves[0]) if first and moves else None
        return Claim.solved("first" if first else "second", witness, stats=stats)

    # a well-founded model: always one answer set, so none at all is the encoding's fault
    return run_program([encoding_path(DOMAIN, encoding or game.variant)], facts(game),
                       limits.deadline(), answer, no_answer_set="the encoding has no answer set")  # fmt: skip
