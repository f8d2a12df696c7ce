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
- under ``bound(h)``: no value stands further than ``h - t`` from its goal cell;
- ``("away", t)``: the tile moved at step ``t`` went one cell further from its goal
  cell; under ``bound(h)`` at most ``(h - md0) / 2`` steps are "away" (a sequential
  counter). Every move changes the Manhattan sum ``md`` by one and ``md`` is 0 at the
  goal, so this single constraint is the per-step Manhattan bound of IDA* (``md`` at
  step ``t`` at most ``h - t``). It is on by default (``away_counter``); measured in
  ``benchmarks/RESULTS.md``.

With ``prune="pdb[:PARTITION]"`` a :class:`PatternBoundEngine` is connected to
CaDiCaL 1.9.5 through the IPASIR-UP interface: it adds, lazily, the clauses "these
tiles cannot stand on these cells at step ``t``" whose additive pattern-database
value exceeds the ``h - t`` moves left, as IDA* with pattern databases prunes.
(``emit_cnf`` writes the formula without them: they are implied by it and the
databases, and any SAT solver reaches the same answer without them, only slower.)

The solver persists across horizons ``h0, h0+2, ...`` (``h0`` the Manhattan
bound: plan lengths have its parity); the goal and ``bound(h)`` are passed as
assumptions, so the first satisfiable horizon is the optimum.

>>> from pyasp_games.domains.puzzle.model import parse_board
>>> claim = solve_sat(parse_board("1 2 3\\n4 5 6\\n0 7 8"))
>>> claim.status, claim.answer, claim.witness
('solved', 2, 'RR')
"""

from __future__ import annotations

import time
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING

from pyasp_games.domains.puzzle.horizons import horizons
from pyasp_games.domains.puzzle.model import Board
from pyasp_games.domains.puzzle.native import unsolvable
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.horizon_search import search_horizons
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.sat_runner import SatSession
from pyasp_games.errors import InputError

if TYPE_CHECKING:  # the pattern databases (numpy) load only for --prune/--lower-bound pdb
    from pyasp_games.domains.puzzle.bounds import AdditiveBound

#: The one PySAT solver with an external-propagator interface (IPASIR-UP).
PRUNING_SOLVER = "cadical195"


class PlanningCNF:
    """The incremental planning formula of one board in one :class:`SatSession`."""

    def __init__(self, board: Board, session: SatSession, away_counter: bool = False) -> None:
        self.board, self.s = board, session
        self.away_counter = away_counter
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
        self.md0 = sum(self.dist[v][p] for p, v in enumerate(board.tiles) if v)

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
        if self.away_counter:
            # away(t): the tile moved at step t went one cell further from its goal cell
            # (the blank went p -> q, so the tile went q -> p)
            away = s.var("away", t)
            for p in range(n):
                for q in self.adj[p]:
                    for v in range(1, n):
                        if self.dist[v][p] > self.dist[v][q]:
                            s.add([-at(t - 1, p, 0), -at(t, q, 0), -at(t, p, v), away])
        self.steps = t

    def horizon_assumptions(self, h: int) -> list[int]:
        """Goal at ``h`` plus the activation literal of ``h``'s distance bounds."""
        act = self.s.var("bound", h)
        for t in range(h + 1):
            for p in range(self.n):
                for v in range(self.n):
                    if self.dist[v][p] > h - t:
                        self.s.add([-act, -self.at(t, p, v)])
        if self.away_counter:
            # Every move changes the Manhattan sum by one, and the sum is 0 at the goal:
            # a plan of h moves makes exactly (h - md0) / 2 moves away from the goal.
            # "At most that many" is the per-step Manhattan bound of IDA* in one constraint.
            from pysat.card import CardEnc, EncType

            lits = [self.s.var("away", t) for t in range(1, h + 1)]
            k = (h - self.md0) // 2
            if k < len(lits):
                card = CardEnc.atmost(lits, k, vpool=self.s.pool, encoding=EncType.seqcounter)
                for clause in card.clauses:
                    self.s.add([-act, *clause])
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
    solver: str | None = None,
    emit_cnf: Path | str | None = None,
    lower_bound: str = "manhattan",
    prune: str = "none",
    away_counter: bool = True,
) -> Claim:
    """Optimal plan by incremental SAT over horizons ``h0, h0+2, ...``.

    ``h0`` is the ``lower_bound`` (``manhattan`` or ``pdb[:PARTITION]``, see
    :func:`~pyasp_games.domains.puzzle.horizons.start_horizon`). ``prune`` is
    ``none`` or ``pdb[:PARTITION]`` (the solver is then ``cadical195``, the only one
    with an external-propagator interface); ``away_counter`` adds the Manhattan
    bound as one cardinality constraint. Neither changes the answer: both only cut
    partial plans that cannot reach the goal within the horizon.

    ``emit_cnf`` writes the formula of the last horizon tried, its assumptions as
    unit clauses, as DIMACS with a variable-name header.
    """
    if prune != "none":
        solver = solver or PRUNING_SOLVER
        if solver != PRUNING_SOLVER:
            raise InputError(f"pruning needs the {PRUNING_SOLVER} solver (IPASIR-UP), not {solver}")
    solver = solver or "glucose4"
    if (none := unsolvable(board)) is not None:
        return none
    limits = limits.started()  # horizons() polls the same clock
    deadline = limits.deadline()
    cpu = time.process_time()  # this process' CPU seconds (all threads): robust on a busy machine
    span = horizons(board, lower_bound, limits)
    engine = None
    if prune != "none":
        from pyasp_games.domains.puzzle.bounds import pruning_bound

        engine = PatternBoundEngine(board, pruning_bound(board, prune, deadline))
    try:
        session = SatSession(solver, deadline, keep_clauses=emit_cnf is not None)
    except ValueError as err:
        raise InputError(str(err)) from None
    with session:
        cnf = PlanningCNF(board, session, away_counter)
        if engine is not None:
            session.solver.connect_propagator(engine)
            for x in engine.add_time(0, cnf.at):
                session.solver.observe(x)
        assumptions: list[int] = []
        previous: list[int] = []  # the horizon extended last, whose bounds are retired next

        def extend(h: int) -> bool:
            nonlocal assumptions
            while cnf.steps < h:
                if session.deadline.expired():
                    return False
                cnf.add_step()
                if engine is not None:
                    for x in engine.add_time(cnf.steps, cnf.at):
                        session.solver.observe(x)
            if previous:
                session.add([-session.var("bound", previous.pop())])  # retire the old bounds
            assumptions = cnf.horizon_assumptions(h)
            if engine is not None:
                engine.set_horizon(h, assumptions[0])
            previous.append(h)
            return True

        def attempt(h: int) -> str:
            result = session.solve(assumptions)
            return "unknown" if result is None else "sat" if result else "unsat"

        h, status, tried = search_horizons(span.start, span.stop, 2, extend, attempt)
        plan = cnf.plan(h) if h is not None else None
        stats = {"lower_bound": span.lower, "horizons": tried, **session.statistics()}
        stats["cpu_seconds"] = round(time.process_time() - cpu, 3)
        if engine is not None:
            stats["propagator"] = {"prune": prune, "clauses": engine.clauses}
        if emit_cnf is not None:
            session.write_dimacs(emit_cnf, assumptions, _cnf_comment(board, tried))
    if plan is not None:
        return Claim.solved(len(plan), plan, stats=stats)
    if status == "unsat":
        return span.exhausted(board, stats)
    return Claim.unknown(stats)


class PatternBoundEngine:
    """An IPASIR-UP propagator (CaDiCaL 1.9.5 through PySAT) pruning like IDA* with databases.

    It observes the variables ``at(t,p,v)`` of the tiles. When every tile of one or more
    patterns has a known cell at time ``t`` and their database values add up to more
    than the ``h - t`` moves left, it hands the solver the clause "not all of these
    tiles on these cells at ``t``, unless ``bound(h)`` is off", which the solver
    finds falsified and analyses like any conflict. ``bound(h)`` is the horizon's
    activation literal (an assumption), so the clause cannot cut longer horizons.
    The state follows the solver's trail: assignments are recorded per decision
    level and undone on backtracking.
    """

    def __init__(self, board: Board, bound: AdditiveBound) -> None:
        # The interface of pysat.engines.Propagator, without inheriting from it so that
        # PySAT stays a lazy import: the solver only calls these methods.
        self.is_lazy = False  # check partial assignments, not only complete ones
        self.bound = bound
        self.n = board.rows * board.cols
        from pyasp_games.domains.puzzle.bounds import PartialPlacement

        self.state = PartialPlacement(bound, self.n)
        self.meaning: dict[int, tuple[int, int, int]] = {}
        self.var_of: dict[tuple[int, int, int], int] = {}
        self.trail: list[tuple[int, int, int]] = []
        self.limits: list[int] = []
        self.pending: list[list[int]] = []
        self.horizon, self.activation = 0, 0
        self.clauses = 0

    def add_time(self, t: int, var: Callable[[int, int, int], int]) -> list[int]:
        """Make time ``t`` known; returns the variables to observe."""
        self.state.add_time(t)
        out = []
        for p in range(self.n):
            for v in self.state.pattern_of:
                x = var(t, p, v)
                self.meaning[x] = (t, v, p)
                self.var_of[t, v, p] = x
                out.append(x)
        return out

    def set_horizon(self, h: int, activation: int) -> None:
        """Solve for horizon ``h`` next; ``activation`` is its ``bound(h)`` literal."""
        self.horizon, self.activation = h, activation
        self.pending.clear()
        for t in range(min(h, len(self.state.total) - 1) + 1):  # fixed assignments seen already
            if self.state.exceeds(t, h - t):
                self.pending.append([-activation, *(-x for x in self._reason(t))])

    # -- the IPASIR-UP callbacks -------------------------------------------------
    def on_assignment(self, lit: int, fixed: bool = False) -> None:
        item = self.meaning.get(lit) if lit > 0 else None
        if item is None:
            return
        if not fixed:
            self.trail.append(item)
        t = item[0]
        if (
            self.state.assign(*item)
            and self.activation
            and t <= self.horizon
            and self.state.exceeds(t, self.horizon - t)
        ):
            self.pending.append([-self.activation, *(-x for x in self._reason(t))])

    def on_new_level(self) -> None:
        self.limits.append(len(self.trail))

    def on_backtrack(self, to: int) -> None:
        if to >= len(self.limits):
            return
        keep = self.limits[to]
        while len(self.trail) > keep:
            self.state.unassign(*self.trail.pop())
        del self.limits[to:]
        self.pending.clear()

    def check_model(self, model: list[int]) -> bool:
        return True  # a model is a plan of h moves: no database value can exceed it

    def decide(self) -> int:
        return 0

    def propagate(self) -> list[int]:
        return []

    def provide_reason(self, lit: int) -> list[int]:
        return []

    def add_clause(self) -> list[int]:
        if not self.pending:
            return []
        self.clauses += 1
        return self.pending.pop()

    def _reason(self, t: int) -> list[int]:
        return [self.var_of[item] for item in self.state.reason(t, self.horizon - t)]


def _cnf_comment(board: Board, tried: list[int]) -> str:
    h = tried[-1] if tried else None
    return (
        f"pyasp-games puzzle instance {board.name} ({board.rows}x{board.cols}, goal {board.goal})\n"
        f"plan of exactly {h} moves; goal and bound({h}) added as unit clauses\n"
        "var at t p v: at time t cell p (row-major) holds v (0 = blank)"
    )
