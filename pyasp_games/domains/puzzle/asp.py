"""Sliding puzzles in ASP: board -> facts, the encodings' names, answer set -> plan.

Two interfaces exist:

- ``sliding`` (ours, and every user encoding given by path): multi-shot, parts
  ``base``/``step(t)``/``check(t)`` with ``#external query(t)``; input
  ``dim/2``, ``init/3``, ``goal/3``; output ``move(T,D)``, ``D`` in ``u d l r``.
  Horizons run from the Manhattan lower bound upwards in steps of two, so the
  first satisfiable horizon is optimal (see ``encodings/puzzle/README.md``).
- ``seed`` (the encoding of Aleksic's thesis, :mod:`pyasp_games.domains.puzzle`; the baseline):
  single-shot with ``#const t``, input ``cell(0,X,Y,V)``, output
  ``move(T,up|down|left|right)``, 4 x 4 and blank-last only. It is re-ground for each
  horizon.

>>> from pyasp_games.domains.puzzle.model import parse_board
>>> claim = solve_asp(parse_board("1 2 3\\n4 5 6\\n0 7 8"))
>>> claim.status, claim.answer, claim.witness
('solved', 2, 'RR')
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clingo import SymbolType

from pyasp_games.domains.puzzle.horizons import Horizons, horizons
from pyasp_games.domains.puzzle.model import Board, manhattan_lower_bound, solvability
from pyasp_games.domains.puzzle.native import unsolvable
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.clingo_runner import ClingoSession, write_facts
from pyasp_games.engines.horizon_search import search_horizons
from pyasp_games.engines.limits import Deadline, Limits
from pyasp_games.engines.resources import encoding_path
from pyasp_games.errors import InputError, MalformedAnswer

if TYPE_CHECKING:  # the pattern databases (numpy) load only for --prune/--lower-bound pdb
    from pyasp_games.domains.puzzle.bounds import AdditiveBound, PartialPlacement

DOMAIN = "puzzle"
#: Bundled encodings with the thesis' single-shot interface (``seed``); all others are multi-shot.
THESIS_INTERFACE = {"seed"}
_LETTER = {
    "u": "U",
    "d": "D",
    "l": "L",
    "r": "R",
    "up": "U",
    "down": "D",
    "left": "L",
    "right": "R",
}


def facts(board: Board) -> str:
    """Facts of the multi-shot interface: ``dim/2``, ``init/3``, ``goal/3``."""
    c = board.cols
    out = [f"dim({board.rows},{c})."]
    out += [f"init({i // c},{i % c},{v})." for i, v in enumerate(board.tiles)]
    out += [f"goal({i // c},{i % c},{v})." for i, v in enumerate(board.goal_tiles)]
    return "\n".join(out) + "\n"


def seed_facts(board: Board) -> str:
    """Facts of the thesis' interface: ``cell(0,X,Y,V)``."""
    if (board.rows, board.cols, board.goal) != (4, 4, "blank-last"):
        raise InputError("the 'seed' encoding only handles 4x4 boards with the blank-last goal")
    return "\n".join(f"cell(0,{i // 4},{i % 4},{v})." for i, v in enumerate(board.tiles)) + "\n"


def plan_from_symbols(symbols: list) -> str:
    """Order ``move(T,D)`` atoms by time and spell them as ``UDLR``."""
    moves = []
    for sym in symbols:
        if sym.name == "move":
            args = sym.arguments
            if not (
                len(args) == 2
                and args[0].type == SymbolType.Number
                and args[1].type == SymbolType.Function
                and not args[1].arguments
                and args[1].name in _LETTER
            ):
                raise MalformedAnswer(
                    f"the answer set shows {sym}, expected move/2 with a time step "
                    f"and a direction ({', '.join(_LETTER)})"
                )
            moves.append((args[0].number, _LETTER[args[1].name]))
    moves.sort()
    return "".join(letter for _, letter in moves)


#: a line of an encoding that includes clingo's incmode
_INCLUDES_INCMODE = re.compile(r"^\s*#include\s*<incmode>\s*\.", re.M)


def write_lp(board: Board, encoding: str, path: Path | str, horizon: int | None = None) -> None:
    """Write the facts of ``board`` for ``encoding`` plus how to run it by hand."""
    enc = encoding_path(DOMAIN, encoding)
    h = horizon if horizon is not None else manhattan_lower_bound(board)
    about = f"puzzle instance {board.name} ({board.rows}x{board.cols}, goal {board.goal})"
    if encoding in THESIS_INTERFACE:  # one shot at horizon t
        write_facts(path, seed_facts(board), [enc], about, options=["-c", f"t={h}"])
        return
    # an encoding that includes <incmode> itself (sliding.lp) must not get it twice
    include = "" if _INCLUDES_INCMODE.search(enc.read_text()) else "#include <incmode>.\n"
    program = f"{include}#const imin={h}.\n"
    if not solvability(board).solvable:  # no plan at any horizon: stop at the first
        program += f"#const imax={h}.\n"
    write_facts(path, facts(board), [enc], about, incremental=True, program=program)


def solve_asp(
    board: Board,
    limits: Limits = Limits(),
    encoding: str = "sliding",
    lower_bound: str = "manhattan",
    prune: str = "none",
    clingo_args: Sequence[str] = (),
    emit_lp: Path | str | None = None,
) -> Claim:
    """Optimal plan with clingo: horizons from an admissible bound, step two.

    The first satisfiable horizon is optimal: every shorter horizon of the same
    parity was refuted or lies below the bound, and horizons of the other parity
    are impossible. ``lower_bound`` is ``manhattan`` or ``pdb[:PARTITION]`` (see
    :func:`~pyasp_games.domains.puzzle.horizons.start_horizon`). ``prune`` is
    ``none`` or ``pdb[:PARTITION]``: a :class:`PatternBoundPropagator` then cuts
    partial plans whose pattern-database bound exceeds the moves left (any
    multi-shot encoding with ``at/4`` and ``query/1``). ``clingo_args`` are further
    clingo options (e.g. ``["--configuration=trendy"]``). ``emit_lp`` writes the facts
    run, with how to run them (:func:`write_lp`): from the first horizon on (clingo's
    incremental mode finds the optimum from there), or for ``seed`` the last horizon run.
    """
    if encoding in THESIS_INTERFACE:
        seed_facts(board)  # reject unsupported boards before anything else
        if prune != "none":
            raise InputError("pruning applies to multi-shot encodings (at/4, query/1), not to seed")
    path = encoding_path(DOMAIN, encoding)
    if (none := unsolvable(board)) is not None:
        if emit_lp is not None:
            write_lp(board, encoding, emit_lp)
        return none
    limits = limits.started()  # horizons() polls the same clock
    deadline = limits.deadline()
    cpu = time.process_time()  # this process' CPU seconds (all threads): robust on a busy machine
    span = horizons(board, lower_bound, limits)
    if encoding in THESIS_INTERFACE:
        emit = None if emit_lp is None else partial(write_lp, board, encoding, emit_lp)
        return _solve_single_shot(board, path, span, deadline, emit)
    if emit_lp is not None:
        write_lp(board, encoding, emit_lp, span.start)
    propagator = None
    if prune != "none":
        from pyasp_games.domains.puzzle.bounds import pruning_bound

        propagator = PatternBoundPropagator(board, pruning_bound(board, prune, deadline))
    session = ClingoSession([path], facts(board), deadline=deadline, arguments=clingo_args)
    if propagator is not None:
        session.control.register_propagator(propagator)
    session.ground([("base", [])])
    h, result, tried = session.solve_horizons(span.start, span.stop, 2)
    stats = {"encoding": str(path), "lower_bound": span.lower, "horizons": tried}
    stats.update(session.statistics())
    stats["cpu_seconds"] = round(time.process_time() - cpu, 3)
    if propagator is not None:
        stats["propagator"] = {"prune": prune, "nogoods": propagator.nogoods}
    if session.messages:
        stats["messages"] = session.messages[:5]
    return _claim(board, h, result.status, result.symbols, stats, span)


class PatternBoundPropagator:
    """A clingo propagator that prunes like IDA* with additive pattern databases.

    It watches the atoms ``at(T,V,X,Y)`` (tile ``V`` stands in row ``X`` column ``Y``
    at time ``T``). Whenever every tile of one or more patterns has a known cell at
    time ``T`` and their database values add up to more than the ``H - T`` moves
    left (``H`` the horizon being solved), it adds the nogood "these tiles on these
    cells at time ``T``, and ``query(H)``": the partial state cannot reach the goal
    in time. ``query(H)`` in the nogood keeps it from cutting longer horizons.

    The horizon is read from the ground program at each solve call: the largest
    ``T`` of an ``at/4`` atom, which is what :meth:`ClingoSession.solve_horizons`
    grounds (steps ``1..H`` and ``check(H)``) before solving horizon ``H``.
    """

    def __init__(self, board: Board, bound: AdditiveBound) -> None:
        self.rows, self.cols = board.rows, board.cols
        self.bound = bound
        self.tiles = board.rows * board.cols
        self.watched = {t for tiles in bound.patterns for t in tiles}
        self.horizon = 0
        self.nogoods = 0

    def init(self, init: Any) -> None:
        import clingo

        atoms: dict[int, list[tuple[int, int, int]]] = {}
        self.literal: dict[tuple[int, int, int], int] = {}
        horizon = 0
        number = clingo.SymbolType.Number
        for atom in init.symbolic_atoms.by_signature("at", 4):
            if any(a.type != number for a in atom.symbol.arguments):
                continue  # not the interface's at(T,V,X,Y): leave it alone
            t, v, x, y = (a.number for a in atom.symbol.arguments)
            if v not in self.watched or not (0 <= x < self.rows and 0 <= y < self.cols):
                continue
            lit = init.solver_literal(atom.literal)
            atoms.setdefault(lit, []).append((t, v, x * self.cols + y))
            self.literal[t, v, x * self.cols + y] = lit
            horizon = max(horizon, t)
        self.horizon = horizon
        query = init.symbolic_atoms[clingo.Function("query", [clingo.Number(horizon)])]
        self.query = init.solver_literal(query.literal) if query is not None else None
        self.atoms = atoms
        from pyasp_games.domains.puzzle.bounds import PartialPlacement

        base = PartialPlacement(self.bound, self.tiles)
        base.add_time(horizon)
        for lit, items in atoms.items():
            if init.assignment.is_true(lit):
                for item in items:
                    base.assign(*item)
            elif not init.assignment.is_false(lit):
                init.add_watch(lit)  # clingo ignores a watch it already has
        self.states = [base.copy() for _ in range(init.number_of_threads)]
        if self.query is None:
            return
        for t in range(horizon + 1):
            if base.exceeds(t, horizon - t):  # the fixed part alone is too far
                init.add_clause([-self.query] + [-lit for lit in self._reason(base, t)])
                return

    def _reason(self, st: PartialPlacement, t: int) -> list[int]:
        """The literals of the fewest complete patterns at ``t`` whose values exceed the moves left."""
        return [self.literal[item] for item in st.reason(t, self.horizon - t)]

    def propagate(self, control: Any, changes: Sequence[int]) -> None:
        st = self.states[control.thread_id]
        touched = set()
        # record every change first: undo receives all of them even if we stop early
        for lit in changes:
            for item in self.atoms[lit]:
                if st.assign(*item):
                    touched.add(item[0])
        if self.query is None:
            return
        for t in touched:
            if st.exceeds(t, self.horizon - t):
                self.nogoods += 1
                if not control.add_nogood([self.query, *self._reason(st, t)]):
                    return
                if not control.propagate():
                    return

    def undo(self, thread_id: int, assignment: Any, changes: Sequence[int]) -> None:
        st = self.states[thread_id]
        for lit in changes:
            for item in self.atoms[lit]:
                st.unassign(*item)


def _solve_single_shot(
    board: Board,
    path: Path,
    span: Horizons,
    deadline: Deadline,
    emit: Callable[[int], None] | None = None,
) -> Claim:
    """Re-ground and solve for each horizon; ``emit(h)`` writes the program of horizon ``h``
    (so the file written last is the last one run)."""
    stats: dict = {"encoding": str(path), "lower_bound": span.lower, "horizons": []}
    last: list[Any] = []  # the shown atoms of the last horizon solved
    built: dict[str, ClingoSession] = {}

    def extend(h: int) -> bool:
        built["session"] = ClingoSession([path], seed_facts(board), consts={"t": h}, deadline=deadline)
        built["session"].ground([("base", [])])
        if emit is not None:
            emit(h)
        return True

    def attempt(h: int) -> str:
        session = built["session"]
        result = session.solve()
        stats.update(session.statistics())
        last[:] = result.symbols
        return result.status

    h, status, stats["horizons"] = search_horizons(span.start, span.stop, 2, extend, attempt)
    return _claim(board, h, status, last, stats, span)


def _claim(
    board: Board, h: int | None, status: str, symbols: list, stats: dict, span: Horizons
) -> Claim:
    if status == "sat":
        plan = plan_from_symbols(symbols)
        return Claim.solved(len(plan), plan, stats=stats)
    if status == "unsat":
        return span.exhausted(board, stats)
    return Claim.unknown(stats)
