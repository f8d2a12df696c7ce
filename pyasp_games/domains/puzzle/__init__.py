"""Sliding-tile puzzles (R x C; the 15-puzzle is 4 x 4).

The domain started from A. Aleksic, "Instradamento di permutazioni su grafi tramite
accoppiamenti con applicazione al gioco del 15" (thesis, University of Udine, 2025):
its ASP encoding is the bundled ``seed`` encoding, the baseline; its three test boards
are ``instances/puzzle/thesis-board*.txt``.

``BACKENDS`` maps each backend's name to a function ``(board, limits, **options)
-> Claim``; :func:`solve` is the one entry point the CLI, crosscheck and bench
use: it runs a backend under its limits, times it, verifies its claim and gives the
:class:`~pyasp_games.engines.outcome.Outcome`.

>>> board = parse_board("1 2 3\\n4 5 6\\n7 0 8")
>>> out = solve(board, "sat")
>>> out.status, out.answer, out.witness, out.verdict.verified
('solved', 1, 'R', True)
"""

from __future__ import annotations

from typing import Any

from pyasp_games.domains.puzzle.model import Board, load_boards, parse_board, parse_set, solvability
from pyasp_games.domains.puzzle.questions import BACKENDS, CHECK, QUESTIONS, REFERENCE, SOLVE
from pyasp_games.domains.puzzle.verify import check_outcome
from pyasp_games.engines.domain import DomainSpec
from pyasp_games.engines.fuzzing import Family, Fuzzing
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome

__all__ = [
    "BACKENDS",
    "CHECK",
    "QUESTIONS",
    "REFERENCE",
    "SOLVE",
    "Board",
    "check_outcome",
    "domain",
    "load_boards",
    "parse_board",
    "parse_set",
    "solvability",
    "solve",
]


def solve(board: Board, backend: str, limits: Limits = Limits(), **options: Any) -> Outcome:
    """Solve a sliding-tile board: an optimal plan (or none), timed and verified.

    Parameters
    ----------
    board : Board
        The board (:func:`~pyasp_games.domains.puzzle.model.load_boards`,
        :func:`~pyasp_games.domains.puzzle.model.parse_board`), its goal included.
    backend : str
        One of :data:`BACKENDS`: ``astar``, ``idastar``, ``pdb`` (exact); ``greedy`` (an
        upper bound); ``asp`` and ``sat`` (exact, horizon by horizon).
    limits : Limits, optional
        What the run may spend (:class:`~pyasp_games.engines.limits.Limits`): wall-clock and
        CPU seconds, memory, and ``max_length``, the longest plan to look for. The default
        sets none but the memory cap
        (:func:`~pyasp_games.engines.limits.default_memory_limit`).
    **options
        The backend's own keywords: ``pdb`` takes ``partition``, ``lookups``, ``pruning``,
        ``checkpoint``, ``progress``; ``asp`` takes ``encoding`` (a bundled name or a
        ``.lp`` file), ``lower_bound``, ``prune``, ``emit_lp``; ``sat`` takes ``solver``,
        ``lower_bound``, ``prune``, ``away_counter``, ``emit_cnf``. Also the clingo options
        ``clingo_option=[...]``, ``const=[...]``, ``parallel_mode`` (``asp``), and
        ``trust_encoding=True`` (a user encoding's claims that no checker confirms alone are
        then marked trusted instead of cross-checked against the reference backend).

    Returns
    -------
    Outcome
        ``status`` ``solved`` with ``answer`` the number of moves and ``witness`` the moves
        (``"R"``, ``"U"``, ...), replayed by the checker; ``no-solution`` when the board
        cannot reach its goal (the parity of its permutation) or no plan is within
        ``limits.max_length`` (``verdict.kind`` ``within bound``); ``unknown`` at a limit;
        ``error`` when the check fails. ``greedy``'s answer is an upper bound
        (``verdict.kind`` ``upper bound``).

    Raises
    ------
    InputError
        An unknown ``backend``, an option the backend does not take (named, with the nearest
        one), or a bad option value (e.g. an encoding file that does not exist, a clingo
        option clingo refuses).

    Notes
    -----
    Finding a shortest plan for the (n^2 - 1)-puzzle is NP-hard [4]_. ``astar`` [1]_
    expands each position at most once: time and memory O(b^d) in the worst case (``b``
    the branching factor, ``d`` the plan's length). ``idastar`` [2]_ (Manhattan distance
    and linear conflicts) needs memory O(d) only, at the price of re-expanding positions
    over its iterations. ``pdb`` is IDA* with additive pattern databases [3]_, built once
    per partition and cached. The bundled ``seed`` encoding is the one of [5]_.

    References
    ----------
    .. [1] P. E. Hart, N. J. Nilsson and B. Raphael, "A formal basis for the heuristic
       determination of minimum cost paths", IEEE Trans. Systems Science and
       Cybernetics 4(2), 1968.
    .. [2] R. E. Korf, "Depth-first iterative-deepening: an optimal admissible tree
       search", Artificial Intelligence 27(1), 1985.
    .. [3] R. E. Korf and A. Felner, "Disjoint pattern database heuristics", Artificial
       Intelligence 134, 2002.
    .. [4] D. Ratner and M. Warmuth, "The (n^2 - 1)-puzzle and related relocation
       problems", Journal of Symbolic Computation 10(2), 1990.
    .. [5] A. Aleksic, "Instradamento di permutazioni su grafi tramite accoppiamenti con
       applicazione al gioco del 15", thesis, University of Udine, 2025.
    """
    return SOLVE.solve(board, backend, limits, **options)


def _known(board: Board) -> tuple[bool, Any]:
    if board.known is None:
        return False, None
    return True, None if board.known == "none" else board.known


def domain() -> DomainSpec:
    """The puzzle domain for crosscheck and bench."""
    from pyasp_games.domains.puzzle.model import random_walk_board

    return DomainSpec.asking(
        SOLVE, load_boards, _known, generators={"walk": random_walk_board},
        questions=QUESTIONS, fuzzing=fuzzing(),
    )  # fmt: skip


def fuzzing() -> Fuzzing:
    """What ``pyasp-games fuzz puzzle`` draws: small boards, every 2 x 2 board first,
    then random scrambles (some made unsolvable)."""
    from pyasp_games.domains.puzzle.model import board_strategy, format_board, small_boards

    boards = Family(
        "scramble",
        "boards 2 x 2 to 3 x 3 (square or not) a random walk away from either goal (blank "
        "last or first), some made unsolvable",
        strategy=board_strategy,
        small=small_boards,
        small_help="every 2 x 2 board, and every 2 x 3 and 3 x 2 board within 4 moves of "
        "the goal, for both goal conventions",
        sizes=(4, 16),
        unit="scramble moves",
    )
    return Fuzzing(
        ("solve",), (boards,), size=lambda board: board.size, unit="cells", write=format_board,
        measure=lambda board: f"{board.rows} x {board.cols} board",
        witness=_plan_atoms, horizon=lambda board, out: out.answer,
    )  # fmt: skip


def _plan_atoms(board: Board, outcome: Any) -> list[tuple[str, bool]]:
    """A plan (the blank's moves, ``"RD"``) as the multi-shot interface's output:
    ``move(T,D)`` for the blank's move ``D`` in ``u d l r`` at step ``T``.

    >>> _plan_atoms(None, Outcome("b", "astar", "solved", answer=2, witness="RD"))
    [('move(1,r)', True), ('move(2,d)', True)]
    """
    return [(f"move({t},{letter.lower()})", True) for t, letter in enumerate(outcome.witness or "", 1)]
