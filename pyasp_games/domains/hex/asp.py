"""Hex with clingo: the program derives the game tree, decides it, and picks the proof.

Facts are ``cell/1``, ``adj/2``, ``side/3``, ``stone/2``, ``tomove/1``, ``prover/1``,
``plies/1`` (and ``cutter(w)``, ``joined`` for graph Hex) over cell numbers (see
``encodings/hex/README.md``). The answer set holds ``xwin(r)`` iff the prover wins within
the plies, and ``pick(S,C)``, the prover's move at each node of its strategy, from which
the proof is read (the checker replays it like the native one's).

The backend first asks whether the player to move wins within ``moves`` of its own
moves (default: all of them to the end of the game); when not and the tree reached the
end of every game, it asks the same of the opponent, which must then win: the answer
comes with a proof either way. A ``moves`` short of the end with no win is a no-solution
within that bound. Game trees beyond :data:`MAX_TREE` nodes are refused up front
(:func:`reaches`).

>>> from pyasp_games.domains.hex.model import parse_position
>>> out = solve_asp(parse_position("BW./.B./W.."))
>>> out.status, out.answer, out.witness
('solved', 'black', 'c3')
>>> solve_asp(parse_position("B../.WB/.W.")).answer
'white'
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pyasp_games.domains.hex.model import PLAYERS, Hex, other
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.clingo_runner import ClingoSession, write_facts
from pyasp_games.engines.limits import LimitReached, Limits
from pyasp_games.engines.resources import encoding_path
from pyasp_games.errors import InputError, MalformedAnswer

DOMAIN = "hex"
#: The most nodes of a game tree the asp backend grounds.
MAX_TREE = 20_000


def tree_size(empty: int, plies: int) -> int:
    """An upper bound on the nodes of the game tree of ``plies`` plies over ``empty`` cells."""
    total, width = 1, 1
    for i in range(min(plies, empty)):
        width *= empty - i
        total += width
        if total > 10**12:
            break
    return total


def plies_for(game: Hex, moves: int | None, prover_first: bool = True) -> int:
    """The plies of a tree in which the prover makes at most ``moves`` moves (``None``: to
    the end of the game)."""
    empty = len(game.empty())
    if moves is None:
        return empty
    return min(empty, 2 * moves - 1 if prover_first else 2 * moves)


def reaches(game: Hex, moves: int | None = None, limit: int = MAX_TREE) -> bool:
    """Whether the game trees this backend would ground stay within ``limit`` nodes."""
    return tree_size(len(game.empty()), plies_for(game, moves)) <= limit


def facts(game: Hex, prover: str, plies: int) -> str:
    """The position as facts (cells numbered as in ``game.cells``)."""
    out = [f"cell({i})." for i in range(len(game))]
    out += [f"adj({i},{j})." for i, near in enumerate(game.neighbours) for j in near]
    for p, (one, two) in game.sides.items():
        out += [f"side({p.lower()},1,{c})." for c in sorted(one)]
        out += [f"side({p.lower()},2,{c})." for c in sorted(two)]
    if not game.is_board:
        out.append("cutter(w).")
        if game.joined:
            out.append("joined.")
    out += [f"stone({s.lower()},{i})." for i, s in enumerate(game.stones) if s != "."]
    out.append(f"tomove({game.to_move.lower()}).")
    out.append(f"prover({prover.lower()}).")
    out.append(f"plies({plies}).")
    return "\n".join(out) + "\n"


def _path(game: Hex, symbol: Any, known: dict[Any, tuple[int, ...]] | None = None) -> tuple[int, ...]:
    """The moves leading to a node term (``r``, ``m(S,C)``); ``known``: the paths of the
    terms read already (the nodes of a proof share their prefixes, and each step through
    clingo's symbols costs microseconds: reading a tree node by node from the root made a
    3 x 3 position's answer take 0.3 s)."""
    known = {} if known is None else known
    chain: list[Any] = []
    while symbol not in known and symbol.name == "m" and len(symbol.arguments) == 2:
        chain.append(symbol)
        symbol = symbol.arguments[0]
    if symbol in known:
        path = known[symbol]
    elif symbol.name != "r" or symbol.arguments:
        raise MalformedAnswer(f"the answer set shows {symbol}: not a node of the tree")
    else:
        path = known[symbol] = ()
    for node in reversed(chain):
        cell = node.arguments[1]
        if cell.type != cell.type.Number or not 0 <= cell.number < len(game):
            raise MalformedAnswer(f"the answer set shows a node {node}: no cell {cell}")
        path = known[node] = (*path, cell.number)
    return path


def read_proof(game: Hex, prover: str, symbols: list[Any]) -> dict[str, Any]:
    """The proof the answer set shows: the prover's picks, every reply of the other
    player, and the prover's won nodes as leaves."""
    picks: dict[tuple[int, ...], int] = {}
    won: set[tuple[int, ...]] = set()
    known: dict[Any, tuple[int, ...]] = {}
    for s in symbols:
        name = s.name
        if name == "pick" and len(s.arguments) == 2:
            node, cell = s.arguments
            if cell.type != cell.type.Number:
                raise MalformedAnswer(f"the answer set shows {s}: the move is no cell number")
            picks[_path(game, node, known)] = cell.number
        elif name == "xwon" and len(s.arguments) == 1:
            won.add(_path(game, s.arguments[0], known))
    nodes: list[dict[str, Any]] = []
    empty0 = game.empty()

    def build(path: tuple[int, ...]) -> int:
        index = len(nodes)
        node: dict[str, Any] = {}
        nodes.append(node)
        if path in won:
            node["won"] = True
        elif path in picks:
            node["move"] = game.cells[picks[path]]
            node["next"] = build((*path, picks[path]))
        else:
            taken = set(path)
            node["replies"] = {game.cells[c]: build((*path, c)) for c in empty0 if c not in taken}
        return index

    root = build(())
    return {"winner": PLAYERS[prover], "root": root, "nodes": nodes}


def write_lp(game: Hex, path: Path | str, prover: str, plies: int, encoding: str | None = None) -> None:
    """Write the facts of the first question asked and how to run clingo on them."""
    names = " ".join(f"{i}={n}" for i, n in enumerate(game.cells[:60]))
    write_facts(
        path, facts(game, prover, plies), [encoding_path(DOMAIN, encoding or "hex")],
        f"hex position {game.name}: {game.describe()}; does {PLAYERS[prover]} win within {plies} plies?",
        notes=[f"cells: {names}{' ...' if len(game) > 60 else ''}"],
    )  # fmt: skip


def _ask(game: Hex, prover: str, plies: int, limits: Limits, encoding: str | None,
         stats: dict[str, Any]) -> dict[str, Any] | None:
    session = ClingoSession(
        [encoding_path(DOMAIN, encoding or "hex")], facts(game, prover, plies), deadline=limits.deadline()
    )
    session.ground([("base", [])])
    result = session.solve()
    stats.setdefault("asked", []).append({"prover": PLAYERS[prover], "plies": plies, **session.statistics()})
    if result.status == "unknown":
        raise LimitReached("time")
    if result.status != "sat":
        raise MalformedAnswer("the encoding has no answer set")
    if not any(s.name == "xwin" and _path(game, s.arguments[0]) == () for s in result.symbols if s.arguments):
        return None
    return read_proof(game, prover, result.symbols)


def solve_asp(game: Hex, limits: Limits = Limits(), moves: int | None = None,
              encoding: str | None = None, emit_lp: Path | str | None = None) -> Claim:
    """The ``asp`` backend (module docstring); ``emit_lp`` writes the first program run."""
    if moves is not None and moves < 1:
        raise InputError(f"--moves must be at least 1, got {moves}")
    if not reaches(game, moves):
        raise InputError(
            f"a game tree of up to {tree_size(len(game.empty()), plies_for(game, moves)):,} nodes "
            f"({len(game.empty())} empty cells): asp grounds at most {MAX_TREE:,} (give fewer --moves, "
            "or use native)"
        )
    mover = game.to_move
    plies = plies_for(game, moves)
    if emit_lp is not None:
        write_lp(game, emit_lp, mover, plies, encoding)
    stats: dict[str, Any] = {"to_move": PLAYERS[mover]}
    try:
        proof = _ask(game, mover, plies, limits, encoding, stats)
        if proof is not None:
            root = proof["nodes"][proof["root"]]
            return Claim.solved(PLAYERS[mover], root.get("move"), stats=stats, certificate=proof)
        if plies < len(game.empty()):
            return Claim.none(bound=moves, stats=stats)
        proof = _ask(game, other(mover), len(game.empty()), limits, encoding, stats)
    except LimitReached:
        return Claim.unknown({**stats, "limit": "time"})
    if proof is None:
        return Claim.error("neither player wins the whole game tree: the program is wrong", stats)
    return Claim.solved(PLAYERS[other(mover)], None, stats=stats, certificate=proof)
