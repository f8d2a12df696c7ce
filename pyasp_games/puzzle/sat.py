"""Sliding puzzles as SAT: planning with one-hot tile positions, optimal by horizons.

Variables (named in an ``IDPool``): ``("at", t, p, v)`` -- at time ``t`` cell ``p``
(row-major) holds ``v`` (``0`` is the blank); ``("bound", h)`` -- activates the
distance bounds for horizon ``h``. Per step ``t``:

- the blank moves to a neighbouring cell: ``at(t-1,p,0) -> OR_q at(t,q,0)``;
  at most one blank cell per time step;
- effect: ``at(t-1,p,0) & at(t,q,0) & at(t-1,q,v) -> at(t,p,v)``;
- frame: ``at(t-1,r,v) -> at(t,r,v) | at(t,r,0)`` for tiles ``v``;
- at most one value per cell (pairwise for small boards, a ladder beyond);
- no immediate undo: ``~at(t,p,0) | ~at(t-2,p,0)``;
- under ``bound(h)``: no value stands further than ``h - t`` from its goal cell.

The solver persists across horizons ``h0, h0+2, ...`` (``h0`` the Manhattan
bound: plan lengths have its parity); the goal and ``bound(h)`` are passed as
assumptions, so the first satisfiable horizon is the optimum.

>>> from pyasp_games.puzzle.model import parse_board
>>> out = solve_sat(parse_board("1 2 3\\n4 5 6\\n0 7 8"))
>>> out.status, out.answer, out.witness
('solved', 2, 'RR')
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.sat_runner import SatSession
from pyasp_games.errors import InputError
from pyasp_games.puzzle.model import Board, solvability
from pyasp_games.puzzle.pattern_databases import start_horizon

_NO_LIMIT = 10_000


class PlanningCNF:
    """The incremental planning formula of one board in one :class:`SatSession`."""

    def __init__(self, board: Board, session: SatSession) -> None:
        self.board, self.s = board, session
        r, c = board.rows, board.cols
        self.n = r * c
        self.adj = [
            [
                q
                for q in (p - c, p + c, p - 1, p + 1)
                if 0 <= q < self.n and (abs(q - p) == c or q // c == p // c)
            ]
            for p in range(self.n)
        ]
        home = {v: divmod(i, c) for i, v in enumerate(board.goal_tiles)}
        self.dist = [
            [abs(p // c - home[v][0]) + abs(p % c - home[v][1]) for p in range(self.n)]
            for v in range(self.n)
        ]
        self.steps = 0
        for p, v in enumerate(board.tiles):
            self.s.add([self.at(0, p, v)])

    def at(self, t: int, p: int, v: int) -> int:
        return self.s.var("at", t, p, v)

    def add_step(self) -> None:
        """Add the transition from time ``steps`` to ``steps + 1``."""
        s, n, at = self.s, self.n, self.at
        t = self.steps + 1
        for p in range(n):
            s.add([-at(t - 1, p, 0)] + [at(t, q, 0) for q in self.adj[p]])
        s.at_most_one([at(t, p, 0) for p in range(n)])
        for p in range(n):
            for q in self.adj[p]:
                for v in range(1, n):
                    s.add([-at(t - 1, p, 0), -at(t, q, 0), -at(t - 1, q, v), at(t, p, v)])
            for v in range(1, n):
                s.add([-at(t - 1, p, v), at(t, p, v), at(t, p, 0)])
            s.at_most_one([at(t, p, v) for v in range(n)])
            if t >= 2:
                s.add([-at(t, p, 0), -at(t - 2, p, 0)])
        self.steps = t

    def horizon_assumptions(self, h: int) -> list[int]:
        """Goal at ``h`` plus the activation literal of ``h``'s distance bounds."""
        act = self.s.var("bound", h)
        for t in range(h + 1):
            for p in range(self.n):
                for v in range(self.n):
                    if self.dist[v][p] > h - t:
                        self.s.add([-act, -self.at(t, p, v)])
        goal = [self.at(h, p, v) for p, v in enumerate(self.board.goal_tiles)]
        return [act, *goal]

    def plan(self, h: int) -> str:
        true = {name for name in self.s.true_names() if name[0] == "at" and name[3] == 0}
        blanks = [next(p for p in range(self.n) if ("at", t, p, 0) in true) for t in range(h + 1)]
        c = self.board.cols
        letters = {-c: "U", c: "D", -1: "L", 1: "R"}
        return "".join(letters[b - a] for a, b in pairwise(blanks))


def solve_sat(
    board: Board,
    limits: Limits = Limits(),
    solver: str = "glucose4",
    emit_cnf: Path | str | None = None,
    lower_bound: str = "manhattan",
) -> Outcome:
    """Optimal plan by incremental SAT over horizons ``h0, h0+2, ...``.

    ``h0`` is the ``lower_bound`` (``manhattan`` or ``pdb[:PARTITION]``, see
    :func:`~pyasp_games.puzzle.pattern_databases.start_horizon`).

    ``emit_cnf`` writes the formula of the last horizon tried, its assumptions as
    unit clauses, as DIMACS with a variable-name header.
    """
    check = solvability(board)
    if not check.solvable:
        return Outcome(board.name, "", "no-solution", None, None, 0.0, {"proof": check.reason})
    deadline = limits.deadline()
    h, bound = start_horizon(board, lower_bound, deadline)
    stop = limits.max_length if limits.max_length is not None else _NO_LIMIT
    tried: list[int] = []
    try:
        session = SatSession(solver, deadline, keep_clauses=emit_cnf is not None)
    except ValueError as err:
        raise InputError(str(err)) from None
    with session:
        cnf = PlanningCNF(board, session)
        status, plan, assumptions = "no-solution", None, []
        while h <= stop:
            while cnf.steps < h:
                if session.deadline.expired():
                    break
                cnf.add_step()
            if cnf.steps < h:
                status = "unknown"
                break
            if tried:
                session.add([-session.var("bound", tried[-1])])  # retire the old bounds
            assumptions = cnf.horizon_assumptions(h)
            tried.append(h)
            result = session.solve(assumptions)
            if result is None:
                status = "unknown"
                break
            if result:
                status, plan = "solved", cnf.plan(h)
                break
            h += 2
        stats = {"lower_bound": bound, "horizons": tried, **session.statistics()}
        if emit_cnf is not None:
            session.write_dimacs(emit_cnf, assumptions, _cnf_comment(board, tried))
    if status == "solved":
        return Outcome(board.name, "", "solved", len(plan), plan, 0.0, stats)
    if status == "no-solution":
        stats["proof"] = f"no plan of length <= {limits.max_length}"
        stats["bounded"] = limits.max_length
    return Outcome(board.name, "", status, None, None, 0.0, stats)


def _cnf_comment(board: Board, tried: list[int]) -> str:
    h = tried[-1] if tried else None
    return (
        f"pyasp-games puzzle instance {board.name} ({board.rows}x{board.cols}, goal {board.goal})\n"
        f"plan of exactly {h} moves; goal and bound({h}) added as unit clauses\n"
        "var at t p v: at time t cell p (row-major) holds v (0 = blank)"
    )
