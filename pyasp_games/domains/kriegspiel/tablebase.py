"""Retrograde analysis over metapositions: every metaposition reachable from some roots,
each one's worst-case number of White moves to mate (Ciancarini and Favini's approach).

The metapositions White can meet form a graph with cycles (the black king walks back
and forth). :func:`build` collects those reachable from the roots through attempts that
risk no draw (every White attempt, every referee's answer, every Black reply), keyed
up to the board's symmetries (8 on a square board, 4 otherwise; the belief is mapped
with the board). :func:`values` then computes, for every one of them, the least ``k``
such that White mates within ``k`` moves whatever the black king's square and replies:
the fixpoint of

    value(m) = min over attempts a of max(value(m where a is illegal),
                                           1 + max over answers of value(next state))

(an illegal attempt costs no move and leaves a strictly smaller belief, so the
recursion is well founded; a mate answer counts 0 after the move), iterated from
"infinite" over arrays of state numbers (numpy), i.e. "mate within k" for k = 1, 2, ...
States never reaching a finite value have no forced mate.

>>> from pyasp_games.domains.kriegspiel.model import Board, starts
>>> table = build([m for m in starts(Board(3, 3))])
>>> v = values(table)
>>> len(table.keys), sorted({int(x) for x in v[table.roots]})
(19, [3, 4, 1000000])
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pyasp_games.domains.kriegspiel.metaposition import DRAW, Rules, rules_for
from pyasp_games.domains.kriegspiel.model import Board, Metaposition, answers_width
from pyasp_games.domains.kriegspiel.symmetry import State, Symmetry
from pyasp_games.engines.limits import Deadline

if TYPE_CHECKING:
    # numpy is imported where a table is built or read: the CLI imports this module to
    # declare its questions, and numpy alone would double the start-up of every command.
    import numpy as np

#: The value of a metaposition without a forced mate.
NO_MATE = 1_000_000
#: Tables of more attempts than this run the fixpoint's rounds compiled.
COMPILED_ROUNDS = 200_000
#: The most metapositions one table may hold (memory: about 1 KB each while built).
MAX_STATES = 8_000_000


@dataclass
class Table:
    """The reachable metapositions (canonical states, numbered) and their attempts as
    arrays: attempt ``j`` of state ``owner[j]`` leads to ``illegal[j]`` (the smaller
    belief where it is illegal, ``-1`` if it cannot be) and to ``after[j, :]`` (the
    states after each non-mating answer and Black's reply; ``-2`` pads)."""

    board: Board
    piece: str
    keys: list[State]
    index: dict[State, int]
    roots: list[int]
    owner: np.ndarray
    illegal: np.ndarray
    after: np.ndarray
    symmetry: Symmetry = field(repr=False)
    symmetric: bool = True

    def number(self, state: State) -> int | None:
        """The number of a state (any of its symmetric images), or ``None``."""
        return self.index.get(self.symmetry.canonical(state) if self.symmetric else state)

    def worth(self, value: np.ndarray) -> Callable[[State], int]:
        """A state's value among ``value`` (the table's values), by its number."""
        return lambda state: int(value[self.number(state)])


class TooMany(Exception):
    """More metapositions are reachable than the caller takes (the number it took)."""


def build(
    roots: Sequence[Metaposition],
    deadline: Deadline | None = None,
    progress: Callable[[int], None] | None = None,
    symmetric: bool = True,
    most: int | None = None,
    compiled: bool | None = None,
) -> Table:
    """Every metaposition reachable from ``roots`` (one board and piece) through
    attempts that risk no draw, with their attempts (:class:`Table`); ``symmetric``:
    one for each class of symmetric metapositions, else every one as it stands;
    :class:`TooMany` as soon as there are more than ``most``. ``compiled`` (default:
    on boards of more than :data:`~pyasp_games.domains.kriegspiel.reachable.COMPILED_FROM`
    squares, symmetric, with no ``most``): the same walk in a compiled kernel
    (:mod:`~pyasp_games.domains.kriegspiel.reachable`), the same table."""
    import numpy as np

    board, piece = roots[0].board, roots[0].piece
    rules: Rules = rules_for(board, piece)
    symmetry = Symmetry(board, piece)
    if compiled is None:
        from pyasp_games.domains.kriegspiel.reachable import COMPILED_FROM

        compiled = symmetric and most is None and board.size > COMPILED_FROM
    if compiled:
        from pyasp_games.domains.kriegspiel.reachable import build_arrays

        found, numbers, owners, illegals, afters = build_arrays(
            [(m.king, m.piece_square, m.belief) for m in roots], board, piece, symmetry, deadline, progress)
        if len(found) > MAX_STATES:
            raise MemoryError(f"more than {MAX_STATES} metapositions")
        return Table(board, piece, found, {key: i for i, key in enumerate(found)}, numbers,
                     owners, illegals, afters, symmetry, True)  # fmt: skip
    canonical = symmetry.canonical if symmetric else (lambda state: state)
    index: dict[State, int] = {}
    keys: list[State] = []

    def number(state: State) -> int:
        key = canonical(state)
        found = index.get(key)
        if found is None:
            found = index[key] = len(keys)
            keys.append(key)
        return found

    root_numbers = [number((m.king, m.piece_square, m.belief)) for m in roots]
    owner: list[int] = []
    illegal: list[int] = []
    after: list[tuple[int, int, int, int]] = []
    width = answers_width(piece)
    done = 0
    while done < len(keys):
        if done % 2048 == 0:
            if deadline is not None:
                deadline.check()
            if len(keys) > MAX_STATES:
                raise MemoryError(f"more than {MAX_STATES} metapositions")
        if most is not None and len(keys) > most:
            raise TooMany(most)
            if progress is not None:
                progress(done)
        king, square, belief = keys[done]
        for _attempt, sub, answers in rules.outcomes(king, square, belief):
            if answers is DRAW:
                continue
            nexts = [number(s) for s in answers.values() if s is not None]
            owner.append(done)
            illegal.append(number((king, square, sub)) if sub else -1)
            after.append((*nexts, *[-2] * (width - len(nexts))))  # type: ignore[arg-type]
        done += 1
    return Table(
        board,
        piece,
        keys,
        index,
        root_numbers,
        np.array(owner, dtype=np.int32),
        np.array(illegal, dtype=np.int32),
        np.array(after, dtype=np.int32).reshape(-1, width),
        symmetry,
        symmetric,
    )


def values(table: Table, deadline: Deadline | None = None) -> np.ndarray:
    """Every state's worst-case number of White moves to mate (:data:`NO_MATE`: none)."""
    return fixpoint(len(table.keys), table.owner, table.illegal, table.after, deadline)


def fixpoint(
    n: int,
    owner: np.ndarray,
    illegal: np.ndarray,
    after: np.ndarray,
    deadline: Deadline | None = None,
    initial: np.ndarray | None = None,
) -> np.ndarray:
    """The least fixpoint of ``value(i) = min over attempts j of i of max(value(illegal[j]),
    1 + max(value(after[j, :])))`` over ``n`` states, from "no mate" down: after round k
    every state mated within k moves has its value. ``illegal[j] = -1``: no illegal part;
    ``after[j, c] = -2``: no such answer (a mate). ``owner`` must be sorted. ``initial``
    (optional): the starting values, e.g. known values of states without attempts (the
    KQK states a pawn promotes into, :mod:`~pyasp_games.domains.kriegspiel.pawn`)."""
    import numpy as np

    if len(owner) > COMPILED_ROUNDS and initial is None:  # the same rounds, compiled (an 8 x 8 start: 4 million attempts)
        from pyasp_games.domains.kriegspiel.reachable import fixpoint_rounds

        return fixpoint_rounds(n, owner, illegal, after, NO_MATE, deadline)
    # two sentinels at the end: -1 (no illegal part: no constraint), -2 (a mate: 0 more)
    value = np.full(n + 2, NO_MATE, dtype=np.int32)
    if initial is not None:
        value[:n] = initial
    value[-1], value[-2] = -NO_MATE, 0
    if len(owner) == 0:
        return value[:n]
    states, first = np.unique(owner, return_index=True)
    while True:
        if deadline is not None:
            deadline.check()
        moved = value[after].max(axis=1) + 1
        attempt = np.maximum(value[illegal], moved)
        best = np.minimum(np.minimum.reduceat(attempt, first), NO_MATE)
        improved = best < value[states]
        if not improved.any():
            return value[:n]
        value[states[improved]] = best[improved]


# -- a board's whole table, kept in the cache -------------------------------------------


def cache_dir() -> Path:
    """Where whole-board tables are kept (``$XDG_CACHE_HOME/pyasp-games/kriegspiel``)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pyasp-games" / "kriegspiel"


#: Bumped whenever the rules or the state numbering change (older files are ignored).
FORMAT = 2  # 2: a queen's five answers kept (version 1 dropped one: KQK values too low)


def cache_file(board: Board, piece: str) -> Path:
    return cache_dir() / f"K{piece}K-{board.label}-v{FORMAT}.npz"


def save_values(table: Table, value: np.ndarray) -> Path:
    """Write the values of a table built from every start of its board (symmetric)."""
    import numpy as np

    path = cache_file(table.board, table.piece)
    path.parent.mkdir(parents=True, exist_ok=True)
    keys = np.array(table.keys, dtype=np.uint64).reshape(-1, 3)
    # a partial file of this process's own: two processes building one table at once
    # (a campaign's parallel runs) must not write into one file
    partial = path.with_name(f"{path.stem}.{os.getpid()}.part.npz")
    np.savez_compressed(partial, keys=keys, values=value.astype(np.int32))
    partial.replace(path)
    return path


_LOADED: dict[Path, tuple[dict[State, int], dict]] = {}


def cached_worth(board: Board, piece: str) -> Callable[[State], int | None] | None:
    """The value of any state of the board's cached whole table (``None`` for a state
    outside it), or ``None`` when no table is cached."""
    found = cached_table(board, piece)
    return None if found is None else found[0]


def cached_table(board: Board, piece: str) -> tuple[Callable[[State], int | None], dict] | None:
    """The board's cached whole table, if there is one: the value of any state
    (``None`` outside it), and the table as the checker reads it (:func:`certificate`)."""
    import numpy as np

    path = cache_file(board, piece)
    if path not in _LOADED:
        if not path.is_file():
            return None
        with np.load(path) as data:
            keys, value = data["keys"], data["values"]
        table = dict(zip(map(tuple, keys.tolist()), value.tolist(), strict=True))
        _LOADED[path] = (table, certificate(board, piece, keys, value, path))
    table, proof = _LOADED[path]
    canonical = Symmetry(board, piece).canonical
    return (lambda state: table.get(canonical(state))), proof


def certificate(board: Board, piece: str, keys: object, value: object, path: Path | None = None) -> dict:
    """A table's metapositions and values as the checker reads them (its compact
    certificate: :mod:`~pyasp_games.domains.kriegspiel.value_check`); ``file`` says where
    it is kept, if it is."""
    import numpy as np

    return {"rows": board.rows, "cols": board.cols, "piece": piece,
            "keys": np.asarray(keys, dtype=np.uint64).reshape(-1, 3),
            "values": np.asarray(value, dtype=np.int32), "file": None if path is None else str(path)}  # fmt: skip
