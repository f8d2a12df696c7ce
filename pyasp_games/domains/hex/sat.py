"""Hex by SAT: "the prover wins within k of its own moves", expanded over the other
player's moves (cf. Mayer-Eichberger and Saffidine, SAT 2020) and solved with PySAT.

The quantified question (the prover's move, for every reply, the prover's move, ...) is
expanded: every sequence of the other player's replies is a branch of the tree, and the
prover's move at each of its nodes is a set of variables ``x(node, cell)`` (exactly one,
at a node the play can reach). A reply on a cell the prover took earlier on the branch
is no move: the branch below it is switched off by its literal ``act(node)`` (the
corrective part: the prover's choices decide which replies exist). At every leaf the
prover has won: Black (or White on the rhombus) by a chain of its cells from side to
side, unrolled in distance layers ``r(leaf, t, cell)``; White in graph Hex by a closed
set of cells ``z(leaf, cell)`` that holds Black's first side and every non-white cell
next to it, and none of Black's second side (no way through). A model is the prover's
strategy: the proof, read back and checked like the other backends' proofs.

As the asp backend: the player to move within ``moves`` (default: to the end), then, if
the whole game was expanded, the opponent, which must win; trees of more than
:data:`MAX_LEAVES` branches are refused up front (:func:`reaches`).

>>> from pyasp_games.domains.hex.model import parse_position
>>> out = solve_sat(parse_position("BW./.../..."))
>>> out.status, out.answer
('solved', 'black')
>>> solve_sat(parse_position("B../.W./...")).answer
'white'
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pyasp_games.domains.hex.model import PLAYERS, Hex, other
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.sat_runner import SatSession
from pyasp_games.errors import InputError

#: The most branches (leaves) of an expanded tree the sat backend builds.
MAX_LEAVES = 3_000


def _plies(game: Hex, moves: int | None, prover_first: bool) -> int:
    empty = len(game.empty())
    if moves is None:
        return empty
    return min(empty, 2 * moves - 1 if prover_first else 2 * moves)


def leaves(empty: int, plies: int, prover_first: bool) -> int:
    """The branches of the expansion: the product of the other player's choices (every
    cell it has not taken on the branch)."""
    count, taken = 1, 0
    for ply in range(plies):
        if (ply % 2 == 0) != prover_first:
            count *= max(1, empty - taken)
            taken += 1
    return count


def reaches(game: Hex, moves: int | None = None) -> bool:
    """Whether both questions the backend may ask stay within :data:`MAX_LEAVES`."""
    empty = len(game.empty())
    first = leaves(empty, _plies(game, moves, True), True)
    second = leaves(empty, empty, False) if moves is None else 0
    return max(first, second) <= MAX_LEAVES


class Expansion:
    """The CNF of "``prover`` wins within ``plies`` plies" and the proof read from a model."""

    def __init__(self, game: Hex, prover: str, plies: int, session: SatSession) -> None:
        self.game, self.prover, self.plies, self.s = game, prover, plies, session
        self.empty = game.empty()
        self.first = game.to_move == prover
        self.count = 0
        root_act = session.var("act", ())
        session.add([root_act])
        self.build((), (), root_act, 0)

    def x(self, node: tuple[int, ...], cell: int) -> int:
        return self.s.var("x", node, cell)

    def prover_nodes(self, path: tuple[int, ...]) -> list[tuple[int, ...]]:
        """The prover's nodes on the branch of ``path`` (the other player's moves so far)."""
        out = []
        ply = 0
        replies = 0
        while ply < self.plies:
            prover_turn = (ply % 2 == 0) == self.first
            if prover_turn:
                out.append(path[:replies])
            else:
                if replies == len(path):
                    break
                replies += 1
            ply += 1
        return out

    def build(self, path: tuple[int, ...], before: tuple[tuple[int, ...], ...], act: int, ply: int) -> None:
        """Clauses for the subtree at ``ply`` on the branch ``path``; ``before`` are the
        prover's nodes above."""
        s = self.s
        if ply == self.plies:
            self.leaf(path, before, act)
            return
        if (ply % 2 == 0) == self.first:  # the prover moves: exactly one legal cell
            node = path
            free = [c for c in self.empty if c not in path]
            lits = [self.x(node, c) for c in free]
            s.add([-act, *lits])
            s.at_most_one(lits)
            for c in free:
                for above in before:  # not a cell the prover took before on this branch
                    s.add([-self.x(node, c), -self.x(above, c)])
            self.build(path, (*before, node), act, ply + 1)
            return
        for d in (c for c in self.empty if c not in path):  # every reply of the other player
            child = (*path, d)
            live = s.var("act", child)
            # the reply exists when the branch does and the prover has not taken d on it
            s.add([-live, act])
            for above in before:
                s.add([-live, -self.x(above, d)])
            s.add([live, -act, *[self.x(above, d) for above in before]])
            self.build(child, before, live, ply + 1)

    def owned(self, path: tuple[int, ...], before: tuple[tuple[int, ...], ...], cell: int) -> int | bool:
        """The prover's ownership of ``cell`` at the leaf: a constant or a variable."""
        stone = self.game.stones[cell]
        if stone == self.prover:
            return True
        if stone != "." or cell in path:
            return False
        own = self.s.var("own", path, cell)
        lits = [self.x(above, cell) for above in before]
        self.s.add([-own, *lits])
        for lit in lits:
            self.s.add([own, -lit])
        return own

    def leaf(self, path: tuple[int, ...], before: tuple[tuple[int, ...], ...], act: int) -> None:
        self.count += 1
        s, game = self.s, self.game
        own = [self.owned(path, before, c) for c in range(len(game))]
        if self.prover in game.sides and not (self.prover == "W" and not game.is_board):
            if game.joined and self.prover == "B":
                return
            one, two = game.sides[self.prover]
            layers = min(len(game), sum(1 for o in own if o is not False))
            previous: list[int | None] = [None] * len(game)
            for t in range(layers):
                current: list[int | None] = [None] * len(game)
                for c in range(len(game)):
                    if own[c] is False:
                        continue
                    reasons: list[int] = []
                    if t == 0 and c not in one:
                        continue
                    r = s.var("r", path, t, c)
                    current[c] = r
                    if own[c] is not True:
                        s.add([-r, own[c]])  # type: ignore[list-item]
                    if t > 0:
                        reasons = [p for p in (previous[c], *[previous[d] for d in game.neighbours[c]]) if p]
                        s.add([-r, *reasons])
                previous = current
            s.add([-act, *[previous[c] for c in two if previous[c]]])
            return
        # graph Hex, White: a set closed under Black's way through non-white cells that
        # holds Black's first side and no non-white cell of Black's second side
        if game.joined:
            s.add([-act])
            return
        one, two = game.sides["B"]
        z = [s.var("z", path, c) for c in range(len(game))]

        def white(c: int) -> list[int]:  # the clause's literal "c is white" (or nothing)
            o = own[c]
            return [] if o is False else ([] if o is True else [o])  # type: ignore[list-item]

        for c in one:
            if own[c] is not True:
                s.add([-act, z[c], *white(c)])
        for c in range(len(game)):
            for d in game.neighbours[c]:
                if own[d] is not True:
                    s.add([-act, -z[c], z[d], *white(d)])
        for c in two:
            if own[c] is not True:
                s.add([-act, -z[c], *white(c)])

    def proof(self, model: set[int]) -> dict[str, Any]:
        """The prover's strategy in the model, as a proof."""
        nodes: list[dict[str, Any]] = []
        names = self.game.cells

        def build(path: tuple[int, ...], taken: tuple[int, ...], ply: int) -> int:
            index = len(nodes)
            node: dict[str, Any] = {}
            nodes.append(node)
            if ply == self.plies:
                node["won"] = True
                return index
            if (ply % 2 == 0) == self.first:
                cell = next(c for c in self.empty if c not in path and self.x(path, c) in model)
                node["move"] = names[cell]
                node["next"] = build(path, (*taken, cell), ply + 1)
            else:
                node["replies"] = {names[d]: build((*path, d), (*taken, d), ply + 1)
                                   for d in self.empty if d not in taken}
            return index

        root = build((), (), 0)
        return {"winner": PLAYERS[self.prover], "root": root, "nodes": nodes}


def _ask(game: Hex, prover: str, plies: int, solver: str, limits: Limits, stats: dict[str, Any],
         emit_cnf: Path | str | None = None) -> dict[str, Any] | None:
    try:
        session = SatSession(solver, limits.deadline(), keep_clauses=emit_cnf is not None)
    except ValueError as err:
        raise InputError(str(err)) from None
    with session:
        expansion = Expansion(game, prover, plies, session)
        if emit_cnf is not None:
            session.write_dimacs(emit_cnf, comment=f"hex {game.name}: {PLAYERS[prover]} wins within {plies} plies")
        answer = session.solve()
        stats.setdefault("asked", []).append(
            {"prover": PLAYERS[prover], "plies": plies, "leaves": expansion.count,
             "variables": session.solver.nof_vars(), "clauses": session.solver.nof_clauses()}
        )  # fmt: skip
        if answer is None:
            raise TimeoutError
        if not answer:
            return None
        model = {lit for lit in session.solver.get_model() if lit > 0}
        return expansion.proof(model)


def solve_sat(game: Hex, limits: Limits = Limits(), moves: int | None = None, solver: str = "glucose4",
              emit_cnf: Path | str | None = None) -> Claim:
    """The ``sat`` backend (module docstring); ``emit_cnf`` writes the first CNF solved."""
    if moves is not None and moves < 1:
        raise InputError(f"--moves must be at least 1, got {moves}")
    if not reaches(game, moves):
        raise InputError(
            f"an expansion of more than {MAX_LEAVES:,} branches ({len(game.empty())} empty cells): "
            "give fewer --moves, or use native"
        )
    mover = game.to_move
    plies = _plies(game, moves, True)
    stats: dict[str, Any] = {"to_move": PLAYERS[mover]}
    try:
        proof = _ask(game, mover, plies, solver, limits, stats, emit_cnf)
        if proof is not None:
            root = proof["nodes"][proof["root"]]
            return Claim.solved(PLAYERS[mover], root.get("move"), stats=stats, certificate=proof)
        if plies < len(game.empty()):
            return Claim.none(bound=moves, stats=stats)
        proof = _ask(game, other(mover), len(game.empty()), solver, limits, stats)
    except TimeoutError:
        return Claim.unknown({**stats, "limit": "time"})
    if proof is None:
        return Claim.error("neither player wins the expanded game: the formula is wrong", stats)
    return Claim.solved(PLAYERS[other(mover)], None, stats=stats, certificate=proof)
