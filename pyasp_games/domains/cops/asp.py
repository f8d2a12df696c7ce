"""Cops and Robbers with clingo: the cop-win positions as a least fixpoint, round by round.

The encodings (``encodings/cops/classic.lp``, ``notes.lp``) derive the cops' moves from
the graph themselves (a placement is a list of the cops' vertices in cop order) and, in
round ``t`` (the program part ``step(t)``), the positions the cops win within ``t`` of
their moves: ``cw/3`` with the cops to move, ``rw/3`` with the robber to move. The
backend grounds one round after the other until the start is won, or a round adds no
position: the least fixpoint is reached, and every position outside it is the
robber's. The values and the cops' moves clingo derived fill a
:class:`~pyasp_games.domains.cops.retrograde.Table`, from which the strategies are read
as for every backend (the checker replays them).

The ordered lists cost ``k!`` times the sorted placements, and the grounding holds every
cops' move: games beyond :data:`MAX_GROUND` moves are refused up front, in one line.

>>> from pyasp_games.domains.cops.model import parse_instance
>>> claim = solve_asp(parse_instance("a b\\nb c\\nc d\\n", cops="a", robber="d"))
>>> claim.status, claim.answer, claim.stats["rounds"]
('solved', {'winner': 'cops', 'moves': 3}, 3)
>>> solve_asp(parse_instance("a b\\nb c\\nc d\\nd a\\n", "a", "c", variant="notes")).answer
{'winner': 'robber', 'moves': None}
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

from pyasp_games.domains.cops.model import CopsGame
from pyasp_games.domains.cops.retrograde import Table
from pyasp_games.domains.cops.strategies import cop_number_claim, solve_claim
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.clingo_runner import ClingoSession, write_facts
from pyasp_games.engines.limits import Deadline, LimitReached, Limits
from pyasp_games.engines.resources import encoding_path
from pyasp_games.errors import InputError, MalformedAnswer

DOMAIN = "cops"
#: The most cops' moves (ordered placements times their moves, per round) the ``asp``
#: backend grounds.
MAX_GROUND = 3_000_000


def ground_size(game: CopsGame, k: int) -> int:
    """The cops' moves one round grounds: every ordered placement's moves."""
    n = len(game)
    degree = max((len(a) for a in game.graph.adj), default=0)
    per_cop = degree + 1 if game.variant == "classic" else degree
    return n**k * (per_cop**k if game.variant == "classic" else k * per_cop) * n


def check_ground_size(game: CopsGame, k: int) -> None:
    size = ground_size(game, k)
    if size > MAX_GROUND:
        raise InputError(
            f"{game.name}: the asp backend would ground about {size:,} moves per round "
            f"(at most {MAX_GROUND:,}); the native backend takes it"
        )


def facts(game: CopsGame) -> str:
    """``vertex/1`` and ``edge/2`` (both directions) over vertex numbers."""
    out = [f"vertex({v})." for v in range(len(game))]
    out += [f"edge({u},{v}). edge({v},{u})." for u, v in game.graph.edges]
    return "\n".join(out) + "\n"


def _placement(symbol: Any, k: int) -> tuple[int, ...]:
    """The cops of a list term ``c(V1, c(V2, ... nil))``, sorted."""
    out = []
    while symbol.type.name == "Function" and symbol.name == "c" and len(symbol.arguments) == 2:
        head, symbol = symbol.arguments
        if head.type.name != "Number":
            break
        out.append(head.number)
    if symbol.type.name != "Function" or symbol.name != "nil" or len(out) != k:
        raise MalformedAnswer(f"the answer set shows {symbol}: no placement of {k} cops")
    return tuple(sorted(out))


def _list(cops: tuple[int, ...]) -> str:
    text = "nil"
    for c in reversed(cops):
        text = f"c({c},{text})"
    return text


def write_lp(game: CopsGame, path: Path | str, encoding: str | None = None) -> None:
    """Write the facts of ``game`` and how to run them by hand (the whole least
    fixpoint: clingo's incremental mode stops at the first round that wins nothing new)."""
    names = " ".join(f"{i}={v}" for i, v in enumerate(game.names[:50]))
    write_facts(
        path, facts(game), [encoding_path(DOMAIN, encoding or game.variant)],
        f"cops game {game.name}: {game.describe()}", incremental=True,
        program=f"#const k={game.k}.\n",
        notes=[f"vertices: {names}{' ...' if len(game) > 50 else ''}",
               f"start: cops {_list(game.cops)}, robber {game.robber}, the {game.to_move} to move"],
    )  # fmt: skip


def solve_asp(
    game: CopsGame,
    limits: Limits = Limits(),
    encoding: str | None = None,
    emit_lp: Path | str | None = None,
) -> Claim:
    """The ``asp`` backend of ``cops solve`` (the encoding: the game's rule set, or the
    user's own with the same interface); ``emit_lp`` writes the facts run first."""
    import clingo

    check_ground_size(game, game.k)
    if emit_lp is not None:
        write_lp(game, emit_lp, encoding)
    k, n = game.k, len(game)
    session = ClingoSession(
        [encoding_path(DOMAIN, encoding or game.variant)], facts(game), consts={"k": k},
        deadline=limits.deadline(),
    )  # fmt: skip
    start = clingo.parse_term(
        f"{'cw' if game.to_move == 'cops' else 'rw'}({_list(game.cops)},{game.robber},0)"
    )
    try:
        rounds = _rounds(session, start, n, k)
        result = session.solve()
    except LimitReached:
        return Claim.unknown(session.statistics())
    stats = session.statistics()
    stats["rounds"] = rounds
    if result.status == "unknown":
        return Claim.unknown(stats)
    if result.status != "sat":
        return Claim.error("the encoding has no answer set", stats)
    table = table_of(game, k, result.symbols)
    return solve_claim(game, table, stats)


def _rounds(session: ClingoSession, start: Any, n: int, k: int) -> int:
    """Ground ``base``, then ``step(1)``, ``step(2)``, ... until the ``start`` atom
    (``cw`` or ``rw`` of the start, round 0; ``None``: none) is won or a round wins no
    new position; the number of rounds grounded."""
    import clingo

    rounds = 0
    session.ground([("base", [])])
    while True:
        new = clingo.Function("new", [clingo.Number(rounds)])
        asked = [new]
        if start is not None:
            asked.append(clingo.Function(start.name, [*start.arguments[:2], clingo.Number(rounds)]))
        # the rounds' atoms rest on negation (first won in this round): clingo keeps them
        # as atoms to solve, so each round is read off a model (no search: the program
        # has one answer set, found by propagation)
        holds = _holds(session, asked)
        if not holds[0] or any(holds[1:]) or rounds > 2 * n ** (k + 1):
            return rounds
        rounds += 1
        session.ground([("step", [rounds])])


def full_table(game: CopsGame, k: int, deadline: Deadline) -> Table:
    """Every position's value for ``k`` cops under ``game``'s rules, by the least
    fixpoint to its end (``cops number``'s tables)."""
    check_ground_size(game, k)
    session = ClingoSession([encoding_path(DOMAIN, game.variant)], facts(game), consts={"k": k},
                            deadline=deadline)  # fmt: skip
    _rounds(session, None, len(game), k)
    result = session.solve()
    if result.status == "unknown":
        raise LimitReached(session.statistics())
    if result.status != "sat":
        raise MalformedAnswer("the encoding has no answer set")
    return table_of(game, k, result.symbols)


def cop_number_asp(game: CopsGame, limits: Limits = Limits()) -> Claim:
    """The ``asp`` backend of ``cops number``: the least fixpoint's tables for 1, 2, ...
    cops (:func:`~pyasp_games.domains.cops.strategies.cop_number_claim`)."""
    return cop_number_claim(game, partial(full_table, game), "asp", limits)


def _holds(session: ClingoSession, atoms: list[Any]) -> list[bool]:
    """Whether each of ``atoms`` is in the program's answer set so far."""
    session.deadline.check()
    with session.control.solve(yield_=True) as handle:
        for model in handle:
            return [model.contains(a) for a in atoms]
    return [False] * len(atoms)


def table_of(game: CopsGame, k: int, symbols: list[Any]) -> Table:
    """The table of the values and the cops' moves an answer set shows."""
    moves: dict[tuple[int, ...], dict[tuple[int, ...], int]] = {}
    known: dict[Any, tuple[int, ...]] = {}  # a placement term read once (clingo's API is slow)

    def placement(symbol: Any) -> tuple[int, ...]:
        if symbol not in known:
            known[symbol] = _placement(symbol, k)
        return known[symbol]

    values: dict[str, dict[tuple[tuple[int, ...], int], int]] = {"cw_at": {}, "rw_at": {}}
    n = len(game)
    for s in symbols:
        name = s.name
        if name in ("cw_at", "rw_at"):
            args = s.arguments
            cops, r, t = placement(args[0]), _number(args[1], n), _number(args[2], None)
            key = (cops, r)
            got = values[name]
            got[key] = min(t, got.get(key, t))
        elif name in ("jmove", "cmove"):
            args = s.arguments
            notes = name == "cmove"  # cmove(L, R, L2, W): the cop lands on W
            frm, to = placement(args[0]), placement(args[2 if notes else 1])
            land = _number(args[3], n) if notes else 0
            moves.setdefault(frm, {})[to] = land
    return Table.from_values(game, k, moves, values["cw_at"], values["rw_at"])


def _number(symbol: Any, below: int | None) -> int:
    if symbol.type.name != "Number" or symbol.number < 0 or (below is not None and symbol.number >= below):
        raise MalformedAnswer(f"the answer set shows {symbol} where a vertex or a round is due")
    return symbol.number

