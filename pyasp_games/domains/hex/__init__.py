"""Hex: who wins a position with the player to move, a winning move, and a checked proof.

The rhombus board (Black joins top and bottom, White left and right, Black moves
first) and Hex on a graph (Black joins two terminals by its vertices, White cuts them).
``solve`` answers a position with a proof: for the winner one move at each node, for
the loser every reply, down to won boards or to pairing connections (bridges and edge
templates, whose every choice the checker tries); ``openings`` maps every first move of
an empty board. ``native`` is a depth-first proof search with a transposition table and
Hex knowledge (:mod:`.native`); ``asp`` lets clingo derive and decide the game tree of
small positions, or of "the player to move wins within k moves" (:mod:`.asp`); ``sat``
expands the same question over the replies into a CNF for PySAT (:mod:`.sat`).

>>> from pyasp_games.domains.hex.model import parse_position
>>> out = solve(parse_position("4x4"), "native")
>>> out.answer, out.witness, out.verdict.verified
('black', 'c2', True)
"""

from __future__ import annotations

from typing import Any

from pyasp_games.domains.hex.model import PLAYERS, Hex, known_winner, load_instances, load_position
from pyasp_games.domains.hex.questions import BACKENDS, OPENINGS, QUESTIONS, SOLVE
from pyasp_games.domains.hex.verify import check_outcome, check_proof
from pyasp_games.engines.domain import DomainSpec
from pyasp_games.engines.fuzzing import Family, Fuzzing, plural
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome

__all__ = [
    "BACKENDS",
    "OPENINGS",
    "QUESTIONS",
    "SOLVE",
    "Hex",
    "check_outcome",
    "check_proof",
    "domain",
    "load_position",
    "solve",
]


def solve(game: Hex, backend: str, limits: Limits = Limits(), **options: Any) -> Outcome:
    """Decide who wins a Hex position with the player to move, a winning move and a proof, checked.

    Parameters
    ----------
    game : Hex
        A position on the rhombus board or Hex on a graph
        (:func:`~pyasp_games.domains.hex.model.load_position`,
        :func:`~pyasp_games.domains.hex.model.parse_position`).
    backend : str
        One of :data:`BACKENDS`: ``native`` (depth-first proof search with a transposition
        table and Hex knowledge), ``asp``, ``sat`` (small positions, or "the player to move
        wins within ``moves`` moves").
    limits : Limits, optional
        What the run may spend (:class:`~pyasp_games.engines.limits.Limits`): wall-clock and
        CPU seconds, memory. The default sets none but the memory cap
        (:func:`~pyasp_games.engines.limits.default_memory_limit`).
    **options
        ``native`` takes ``knowledge``; ``asp`` ``moves``, ``encoding`` and ``emit_lp``;
        ``sat`` ``moves``, ``solver`` and ``emit_cnf``; the clingo options
        ``clingo_option=[...]``, ``const=[...]``, ``parallel_mode`` (``asp``); and
        ``trust_encoding=True`` (a user encoding's claims that no checker confirms alone are
        then marked trusted instead of cross-checked against the reference backend).

    Returns
    -------
    Outcome
        ``answer`` the winner (``black`` or ``white``), ``witness`` a winning move for the
        player to move (or ``None`` when that player loses); the proof (one move per node
        for the winner, every reply for the loser, down to won boards or pairing
        connections) is checked move by move.

    Raises
    ------
    InputError
        An unknown ``backend``, an option the backend does not take (named, with the nearest
        one), or a bad option value (e.g. an encoding file that does not exist, a clingo
        option clingo refuses).

    Notes
    -----
    Deciding the winner of a Hex position is PSPACE-complete [1]_, so every backend is
    exponential in the worst case. ``native`` uses the knowledge of [2]_ and [3]_
    (dead and captured cells, virtual connections found by H-search [4]_).

    References
    ----------
    .. [1] S. Reisch, "Hex ist PSPACE-vollständig", Acta Informatica 15, 1981.
    .. [2] R. Hayward, Y. Björnsson, M. Johanson, M. Kan, N. Po and J. van Rijswijck,
       "Solving 7x7 Hex: virtual connections and game-state reduction", Advances in
       Computer Games 10, 2003.
    .. [3] P. Henderson, B. Arneson and R. B. Hayward, "Solving 8x8 Hex", IJCAI 2009.
    .. [4] V. V. Anshelevich, "A hierarchical approach to computer Hex", Artificial
       Intelligence 134, 2002.
    """
    return SOLVE.solve(game, backend, limits, **options)


def _known(game: Hex) -> tuple[bool, Any]:
    winner = known_winner(game)
    return (False, None) if winner is None else (True, winner)


def _applies(game: Hex, backend: str) -> bool:
    from pyasp_games.domains.hex import asp, sat

    return {"asp": asp.reaches, "sat": sat.reaches}.get(backend, lambda game: True)(game)


def domain() -> DomainSpec:
    """The hex domain for crosscheck, bench and fuzz."""
    from pyasp_games.domains.hex.model import opening, random_position

    return DomainSpec.asking(
        SOLVE, load_instances, _known, applies=_applies,
        generators={"random": random_position, "opening": opening},
        questions=QUESTIONS, fuzzing=fuzzing(),
    )  # fmt: skip


def fuzzing() -> Fuzzing:
    """What ``pyasp-games fuzz hex`` draws: every small position, then random ones, on the
    rhombus and on graphs (Shannon's vertex game, whose side facts differ)."""
    from pyasp_games.domains.hex.model import (
        format_position,
        graph_strategy,
        small_graph_positions,
        small_positions,
        strategy,
    )

    positions = Family(
        "boards",
        "positions on boards of at most N x N cells, stones placed in turn",
        strategy=strategy,
        small=small_positions,
        small_help="every position of at most 3 stones on 1 x 1, 2 x 2, 2 x 3 and 3 x 2, "
        "and of at most 4 stones on 3 x 3",
        sizes=(2, 3),
        unit="cells a side",
    )
    graphs = Family(
        "graphs",
        "graph Hex positions on at most N cells: any edges, any attachment to the terminals",
        strategy=graph_strategy,
        small=small_graph_positions,
        small_help="every graph Hex position on 1 and 2 cells, the path and the triangle on 3",
        sizes=(3, 6),
        unit="cells",
    )
    return Fuzzing(
        ("solve",), (positions, graphs), size=_size, unit="cells a side (graph Hex: cells)",
        write=format_position, measure=_shape,
        # the program run first asks whether the player to move wins: xwin(r)
        witness=_witness_atoms, open_outputs=("xwin/1", "xwon/1", "pick/2"),
    )  # fmt: skip


def _witness_atoms(game: Hex, outcome: Any) -> list[tuple[str, bool]]:
    """The reference's verified answer at the root of the program's tree: whether the
    player to move (the prover) wins, ``xwin(r)``; where it does, whether it has won
    already, ``xwon(r)`` (the checker's own rule), else its winning move, ``pick(r,C)``
    (the cell's number), and whether that move wins at once, ``xwon(m(r,C))``. Other
    nodes are not said: those predicates are open.

    >>> from pyasp_games.domains.hex.model import parse_position
    >>> from pyasp_games.engines.claim import Claim
    >>> game = parse_position("2x2\\n. .\\n . .\\n")
    >>> _witness_atoms(game, Claim.solved("black", "a1"))
    [('xwin(r)', True), ('xwon(r)', False), ('pick(r,0)', True), ('xwon(m(r,0))', False)]
    """
    from pyasp_games.domains.hex.verify import has_won

    if outcome.answer is None:
        return []
    wins = outcome.answer == PLAYERS[game.to_move]
    atoms = [("xwin(r)", wins)]
    if wins:
        won = has_won(game, list(game.stones), game.to_move)
        atoms.append(("xwon(r)", won))
        if not won and isinstance(outcome.witness, str) and outcome.witness in game.index:
            cell = game.index[outcome.witness]
            atoms.append((f"pick(r,{cell})", True))
            after = [game.to_move if i == cell else s for i, s in enumerate(game.stones)]
            atoms.append((f"xwon(m(r,{cell}))", has_won(game, after, game.to_move)))
    return atoms


def _size(game: Hex) -> int:
    return max(game.rows, game.cols) if game.is_board else len(game)


def _shape(game: Hex) -> str:
    stones = plural(len(game) - len(game.empty()), "stone")
    if game.is_board:
        return f"{game.rows} x {game.cols}, {stones}"
    return f"graph Hex on {plural(len(game), 'cell')}, {stones}"
