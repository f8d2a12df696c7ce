"""PySAT solving with named variables, cardinality constraints and a hard time limit.

A :class:`SatSession` is a persistent incremental solver (use it as a context
manager, as PySAT's own solvers). Variables are named by hashable tuples through
an ``IDPool``; ``exactly_one`` adds a ``CardEnc`` encoding; ``solve(assumptions)``
honours the session's deadline for every offered solver: solvers with a working
``interrupt()`` are stopped by a timer, CaDiCaL (which ignores interrupts) is run
in slices of a conflict budget with the clock checked between slices.

>>> with SatSession("glucose4") as s:
...     s.exactly_one([s.var("x", i) for i in range(3)])
...     s.add([-s.var("x", 0)])
...     s.solve(assumptions=[-s.var("x", 1)])
...     sorted(name for name in s.true_names() if name[0] == "x")
True
[('x', 2)]
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Hashable, Iterable, Sequence
from pathlib import Path
from typing import Any

from pyasp_games.engines.limits import Deadline

#: Solvers offered, all incremental and all able to stop at a limit.
SOLVERS = (
    "glucose4",
    "glucose42",
    "glucose3",
    "cadical195",
    "cadical153",
    "minisat22",
    "maplechrono",
    "maplecm",
    "maplesat",
    "mergesat3",
)


def checked_solver(name: str) -> str:
    """``name`` if it is one of :data:`SOLVERS`, else :class:`InputError` naming them.

    >>> checked_solver("lingeling")
    Traceback (most recent call last):
    pyasp_games.errors.InputError: unknown SAT solver 'lingeling' (choose from glucose4, glucose42, glucose3, cadical195, cadical153, minisat22, maplechrono, maplecm, maplesat, mergesat3)
    """
    if name not in SOLVERS:
        from pyasp_games.errors import InputError

        raise InputError(f"unknown SAT solver {name!r} (choose from {', '.join(SOLVERS)})")
    return name


#: Solvers whose ``interrupt()`` has no effect: limited by conflict budgets instead.
_BUDGETED = {"cadical153", "cadical195"}
_FIRST_BUDGET = 500


class SatSession:
    """An incremental PySAT solver with an ``IDPool``, clause log and deadline.

    Args:
        solver: one of :data:`SOLVERS`.
        deadline: the wall-clock limit every :meth:`solve` call honours.
        keep_clauses: keep a copy of every clause for :meth:`write_dimacs`.
        options: the solver's own parameters, set before any clause (PySAT's
            ``configure``: CaDiCaL's options by name, e.g. ``{"stabilizeonly": 1}``).
    """

    def __init__(
        self,
        solver: str = "glucose4",
        deadline: Deadline | None = None,
        keep_clauses: bool = True,
        options: dict[str, int] | None = None,
    ) -> None:
        checked_solver(solver)
        from pysat.formula import IDPool
        from pysat.solvers import Solver

        self.name = solver
        self.pool = IDPool()
        self.solver = Solver(name=solver)
        if options:  # the solver's own parameters (CaDiCaL's options), before any clause
            self.solver.configure(options)
        self.deadline = deadline or Deadline(None)
        self.clauses: list[list[int]] | None = [] if keep_clauses else None
        self.solve_calls = 0
        self._model: list[int] | None = None

    def __enter__(self) -> SatSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.delete()

    def delete(self) -> None:
        if self.solver is not None:
            self.solver.delete()
            self.solver = None

    # -- building --------------------------------------------------------------
    def var(self, *name: Hashable) -> int:
        """The variable named by the tuple ``name`` (created on first use)."""
        return self.pool.id(name)

    def add(self, clause: Sequence[int]) -> None:
        clause = list(clause)
        self.solver.add_clause(clause)
        if self.clauses is not None:
            self.clauses.append(clause)

    def extend(self, clauses: Iterable[Sequence[int]]) -> None:
        for clause in clauses:
            self.add(clause)

    def exactly_one(self, lits: Sequence[int]) -> None:
        """Exactly one of ``lits``: pairwise for short lists, a ladder beyond.

        Pairwise needs no auxiliary variables and gives full propagation, which
        is what planning encodings want for their small one-hot groups; longer
        groups use the ladder (sequential) encoding, linear in size.
        """
        self.at_least_one(lits)
        self.at_most_one(lits)

    def at_least_one(self, lits: Sequence[int]) -> None:
        self.add(list(lits))

    def at_most_one(self, lits: Sequence[int]) -> None:
        from pysat.card import CardEnc, EncType

        lits = list(lits)
        if len(lits) <= 1:
            return
        encoding = EncType.pairwise if len(lits) <= 8 else EncType.ladder
        self.extend(CardEnc.atmost(lits, 1, vpool=self.pool, encoding=encoding).clauses)

    # -- solving ---------------------------------------------------------------
    def solve(self, assumptions: Sequence[int] = ()) -> bool | None:
        """``True``/``False``, or ``None`` when the deadline was reached."""
        self.solve_calls += 1
        self._model = None
        remaining = self.deadline.remaining()
        if remaining is not None and remaining <= 0:
            return None
        if remaining is None:
            result = self.solver.solve(assumptions=list(assumptions))
        elif self.name in _BUDGETED:
            result = self._solve_in_slices(list(assumptions))
        else:
            result = self._solve_with_timer(list(assumptions), remaining)
        if result:
            self._model = self.solver.get_model()
        return result

    def _solve_with_timer(self, assumptions: list[int], remaining: float) -> bool | None:
        # under a CPU limit the timer may ring before the CPU is spent (a loaded
        # machine): the search goes on, its learnt clauses kept, until the deadline
        while True:
            timer = threading.Timer(remaining, self.solver.interrupt)
            timer.start()
            try:
                result = self.solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
            finally:
                timer.cancel()
                self.solver.clear_interrupt()
            if result is not None or self.deadline.expired():
                return result
            remaining = self.deadline.remaining() or 0.0

    def _solve_in_slices(self, assumptions: list[int]) -> bool | None:
        # Learnt clauses survive between calls, so slicing costs only restarts. Each
        # slice's conflict budget is sized from the conflicts per second seen so far, so
        # that a slice lasts at most a quarter of a second and never much past the limit.
        # Under a CPU limit alone the rate is per CPU second: per wall second it would
        # shrink the slices by the machine's load (each slice a restart), for nothing.
        budget = _FIRST_BUDGET
        clock = time.process_time if self.deadline.at is None else time.monotonic
        while not self.deadline.expired():
            self.solver.conf_budget(budget)
            before = self._conflicts()
            started = clock()
            result = self.solver.solve_limited(assumptions=assumptions)
            if result is not None:
                return result
            spent = max(clock() - started, 1e-3)
            rate = max(self._conflicts() - before, 1) / spent
            remaining = self.deadline.remaining() or 0.0
            budget = int(max(100, min(budget * 2, rate * min(0.25, remaining))))
        return None

    def _conflicts(self) -> int:
        try:
            return int(self.solver.accum_stats().get("conflicts", 0))
        except (NotImplementedError, AttributeError, TypeError):
            return 0

    # -- reading ---------------------------------------------------------------
    def true_names(self) -> list[Hashable]:
        """Names of the named variables true in the last model."""
        if self._model is None:
            return []
        obj = self.pool.id2obj
        return [obj[lit] for lit in self._model if lit > 0 and lit in obj]

    def statistics(self) -> dict[str, Any]:
        out: dict[str, Any] = {"solver": self.name, "solve_calls": self.solve_calls}
        out["variables"] = self.solver.nof_vars()
        out["clauses"] = self.solver.nof_clauses()
        with contextlib.suppress(NotImplementedError, AttributeError, TypeError):
            out.update({k: int(v) for k, v in self.solver.accum_stats().items()})
        return out

    def write_dimacs(self, path: Path | str, units: Sequence[int] = (), comment: str = "") -> None:
        """Write every clause so far plus ``units`` (e.g. assumptions) as DIMACS.

        The comment header maps each named variable to its name, so a model
        printed by any SAT solver can be read back by hand.
        """
        if self.clauses is None:
            raise RuntimeError("this session does not keep its clauses")
        clauses = self.clauses + [[u] for u in units]
        nvars = max([self.pool.top, *(abs(lit) for c in clauses for lit in c)], default=0)
        from pyasp_games.engines.files import writing

        with writing(path) as out:
            for line in comment.splitlines():
                out.write(f"c {line}\n")
            for var, name in sorted(self.pool.id2obj.items()):
                out.write(f"c var {var} {' '.join(map(str, name))}\n")
            out.write(f"p cnf {nvars} {len(clauses)}\n")
            for clause in clauses:
                out.write(" ".join(map(str, clause)) + " 0\n")
