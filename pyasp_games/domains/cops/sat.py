"""Cops and Robbers as SAT: "the cops capture within t rounds", unrolled one round at a time.

For every position ``p`` (a sorted placement of the cops and the robber's vertex) and
round ``t`` two variables: ``C(t, p)``, with the cops to move they capture (trap) within
``t`` of their moves, and ``R(t, p)``, the same with the robber to move. Each is defined
by an equivalence over the round before (Tseitin clauses):

- ``C(0, p)`` and ``R(0, p)`` hold exactly where the robber is caught (trapped);
- ``C(t, p) <-> over(p) or OR over the cops' moves p -> q of R(t - 1, q)``;
- ``R(t, p) <-> over(p) or AND over the robber's moves p -> q of C(t, q)``.

The formula defines every variable, so it has one model; PySAT answers "within t" by
the assumption ``C(t, start)``. The backend adds rounds until the start is won (the
number of moves is the first such ``t``), or a round wins no new position (asked by a
selector clause: some ``C(t, p)`` without ``C(t - 1, p)``): the least fixpoint is
reached and the robber escapes. The values read off the last model fill a
:class:`~pyasp_games.domains.cops.retrograde.Table`, the strategies are read from it
as for every backend, and the checker replays them. The positions and moves are this
module's own (itertools over the rules), not the native kernels'.

>>> from pyasp_games.domains.cops.model import parse_instance
>>> claim = solve_sat(parse_instance("a b\\nb c\\nc d\\n", cops="a", robber="d"))
>>> claim.status, claim.answer, claim.stats["rounds"]
('solved', {'winner': 'cops', 'moves': 3}, 3)
>>> solve_sat(parse_instance("a b\\nb c\\nc d\\nd a\\n", "a", "c")).answer
{'winner': 'robber', 'moves': None}
"""

from __future__ import annotations

from functools import partial
from itertools import combinations, combinations_with_replacement, product
from typing import Any

from pyasp_games.domains.cops.model import CopsGame
from pyasp_games.domains.cops.retrograde import Table
from pyasp_games.domains.cops.strategies import cop_number_claim, solve_claim
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.limits import Deadline, LimitReached, Limits
from pyasp_games.engines.sat_runner import SatSession
from pyasp_games.errors import InputError

#: The most clauses one round may add.
MAX_CLAUSES = 2_000_000

Placement = tuple[int, ...]


class Rules:
    """The positions and moves of one game, from the rules (itertools)."""

    def __init__(self, game: CopsGame, k: int) -> None:
        self.game = game
        self.classic = game.variant == "classic"
        n = len(game)
        self.adj = [set(a) for a in game.graph.adj]
        closed = [sorted(a | {v}) for v, a in enumerate(self.adj)]
        pick = combinations_with_replacement if self.classic else combinations
        self.placements: list[Placement] = list(pick(range(n), k))
        #: the cops' moves: ``{placement: {placement after: the vertex a cop lands on}}``
        self.moves: dict[Placement, dict[Placement, int]] = {}
        for cops in self.placements:
            if self.classic:
                self.moves[cops] = {tuple(sorted(p)): 0 for p in product(*(closed[c] for c in cops))}
            else:
                out = {}
                for i, c in enumerate(cops):
                    for w in self.adj[c] - set(cops):
                        out[tuple(sorted((*cops[:i], w, *cops[i + 1 :])))] = w
                self.moves[cops] = out
        self.positions = [(c, r) for c in self.placements for r in range(n)
                          if self.classic or r not in c]  # fmt: skip

    def over(self, cops: Placement, r: int) -> bool:
        return r in cops if self.classic else self.adj[r] <= set(cops)

    def cop_moves(self, cops: Placement, r: int) -> list[Placement]:
        if self.classic:
            return list(self.moves[cops])
        return [to for to, w in self.moves[cops].items() if w != r] or [cops]  # a pass

    def robber_moves(self, cops: Placement, r: int) -> list[int]:
        if self.classic:
            return [r, *self.adj[r]]
        return [w for w in self.adj[r] if w not in cops]


def round_size(game: CopsGame, k: int) -> int:
    """About the clauses of one round (one per move of either side), counted up front
    from the number of placements and the largest degree, before any move is built."""
    from math import comb

    n = len(game)
    degree = max((len(a) for a in game.graph.adj), default=0)
    if game.variant == "classic":
        placements, moves = comb(n + k - 1, k), (degree + 1) ** k
    else:
        placements, moves = comb(n, k), k * degree
    return placements * n * (moves + degree + 1)


def _rules(game: CopsGame, k: int) -> Rules:
    """The positions and moves of ``k`` cops, refused up front beyond :data:`MAX_CLAUSES`."""
    size = round_size(game, k)
    if size > MAX_CLAUSES:
        raise InputError(
            f"{game.name}: the sat backend would add about {size:,} clauses per round "
            f"(at most {MAX_CLAUSES:,}); the native backend takes it"
        )
    return Rules(game, k)


def _unroll(session: SatSession, rules: Rules, asked: Any) -> tuple[int, set[Any]]:
    """Round 0, then round after round until the variable ``asked(t)`` can hold (the
    start won within ``t``; ``None``: never asked) or a round wins no new position: the
    rounds added and the names true in the formula's one model. Raises
    :class:`LimitReached` at the deadline."""
    for p in rules.positions:
        for name in "CR":
            session.add([session.var(name, 0, p) if rules.over(*p) else -session.var(name, 0, p)])
    t = 0
    while True:
        if asked is not None:
            got = session.solve([asked(t)])
            if got is None:
                raise LimitReached({"rounds": t})
            if got:
                break
        if t > 0:
            changed = session.var("new", t)
            session.add([-changed] + [_fresh(session, t, p) for p in rules.positions])
            got = session.solve([changed])
            if got is None:
                raise LimitReached({"rounds": t})
            if not got:
                break  # no new position: the least fixpoint
        t += 1
        _add_round(session, rules, t)
    if session.solve() is not True:
        raise LimitReached({"rounds": t})
    return t, set(session.true_names())


def _table(game: CopsGame, rules: Rules, k: int, true: set[Any]) -> Table:
    """The table of the values the model shows (each position's first round)."""
    values: dict[str, dict[Any, int]] = {"C": {}, "R": {}}
    for name in true:
        if name[0] in values:
            kind, when, p = name
            got = values[kind]
            got[p] = min(when, got.get(p, when))
    return Table.from_values(game, k, rules.moves, values["C"], values["R"])


def solve_sat(game: CopsGame, limits: Limits = Limits(), solver: str = "glucose4") -> Claim:
    """The ``sat`` backend of ``cops solve``."""
    rules = _rules(game, game.k)
    start = (game.cops, game.robber)
    side = "C" if game.to_move == "cops" else "R"
    session = SatSession(solver, limits.deadline(), keep_clauses=False)
    try:
        t, true = _unroll(session, rules, lambda t: session.var(side, t, start))
        stats = {**session.statistics(), "rounds": t}
    except LimitReached as reached:
        stats = {**session.statistics(), "limit": "time", **(reached.args[0] if reached.args else {})}
        return Claim.unknown(stats)
    finally:
        session.delete()
    return solve_claim(game, _table(game, rules, game.k, true), stats)


def full_table(game: CopsGame, k: int, deadline: Deadline, solver: str = "glucose4") -> Table:
    """Every position's value for ``k`` cops, the rounds unrolled to the fixpoint
    (``cops number``'s tables)."""
    rules = _rules(game, k)
    session = SatSession(solver, deadline, keep_clauses=False)
    try:
        _, true = _unroll(session, rules, None)
    finally:
        session.delete()
    return _table(game, rules, k, true)


def cop_number_sat(game: CopsGame, limits: Limits = Limits(), solver: str = "glucose4") -> Claim:
    """The ``sat`` backend of ``cops number``: the unrolled tables for 1, 2, ... cops
    (:func:`~pyasp_games.domains.cops.strategies.cop_number_claim`)."""
    return cop_number_claim(game, partial(full_table, game, solver=solver), "sat", limits)


def _fresh(session: SatSession, t: int, p: Any) -> int:
    """A variable true only if ``p`` is first won in round ``t`` (with the cops to move)."""
    d = session.var("first", t, p)
    session.add([-d, session.var("C", t, p)])
    session.add([-d, -session.var("C", t - 1, p)])
    return d


def _add_round(session: SatSession, rules: Rules, t: int) -> None:
    """The clauses defining ``C(t, .)`` and ``R(t, .)`` from round ``t - 1``."""
    var, add = session.var, session.add
    session.deadline.check()
    for p in rules.positions:
        cops, r = p
        c = var("C", t, p)
        if rules.over(cops, r):
            add([c])
            add([var("R", t, p)])
            continue
        before = [var("R", t - 1, (to, r)) for to in rules.cop_moves(cops, r)]
        add([-c, *before])
        for b in before:
            add([c, -b])
    for p in rules.positions:
        cops, r = p
        if rules.over(cops, r):
            continue
        rr = var("R", t, p)
        after = [var("C", t, (cops, w)) for w in rules.robber_moves(cops, r)]
        add([rr, *(-a for a in after)])
        for a in after:
            add([-rr, a])


