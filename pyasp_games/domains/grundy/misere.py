"""Misère play: the player who moves last loses (the player unable to move wins).

Misère outcomes do not follow from Grundy values, and the outcome of a sum is not a
nim-sum: everything here is computed directly, by one mechanism for every game.

- :func:`play_labels`: the P/N/D class of every position of a game graph by retrograde
  analysis with the terminal rule turned round (a position without moves is N), and a
  rank for each P and N position (the length of the longest forced play from it): the
  certificate the checker reads (:func:`~pyasp_games.domains.grundy.verify.check_play_labels`).
- :class:`Outcomes`: the misère (or normal) outcome of positions given by a successor
  function, memoised; what Nim, the subtraction games, Grundy's game, Dawson's chess,
  Node Kayles and the sums of graph games all use.
- :func:`misere_nim_moves`: Bouton's misère rule (play as in normal Nim unless the move
  would leave only heaps of size at most 1; then leave an odd number of 1-heaps).
- :func:`genus`: Conway's genus ``g^(γ0 γ1 γ2 ...)`` (On Numbers and Games, ch. 12;
  Winning Ways, ch. 13) and :func:`tame_outcome`, the outcome of a sum of tame games
  decided by their genera alone.

>>> from pyasp_games.domains.grundy.model import parse_graph
>>> play_labels(parse_graph("a b\\nb c\\n").succ, parse_graph("a b\\nb c\\n").pred, misere=True)
(['N', 'P', 'N'], [2, 1, 0])
>>> nim = Outcomes(lambda heaps: nim_options(heaps))
>>> [nim.wins((h,)) for h in range(4)]  # a single heap of 1 is P under misère play
[True, False, True, True]
>>> misere_nim_moves([1, 1, 3])
[(1, 1, 1)]
>>> str(Genus.of_nim([0])), str(Genus.of_nim([1])), str(Genus.of_nim([2])), str(Genus.of_nim([2, 2]))
('0^120', '1^031', '2^20', '0^02')
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pyasp_games.engines.limits import Deadline

_POLL = 4096  # positions between deadline checks

#: How many terms of the genus sequence γ_0, γ_1, ... are computed (γ_k: G + k copies of *2).
GENUS_TERMS = 6


def play_labels(
    succ: Sequence[Sequence[int]],
    pred: Sequence[Sequence[int]],
    misere: bool = True,
    deadline: Deadline | None = None,
) -> tuple[list[str], list[int | None]]:
    """Win/lose/draw of every position by retrograde analysis, O(|S| + |A|).

    Parameters
    ----------
    succ, pred : sequences of sequences of int
        The moves of the game graph (positions ``0..n-1``) and their reverse.
    misere : bool, optional
        The play convention: misère (the default: a position without moves is N, its
        player wins because the other moved last) or normal (it is P).
    deadline : Deadline, optional
        Checked every few thousand positions.

    Returns
    -------
    (list of str, list of int or None)
        The class ``P``, ``N`` or ``D`` (a draw: neither side can force an end) of
        every position, and its rank: 0 for a position without moves, for an
        N-position one more than the rank of the P-position that labelled it, for a
        P-position one more than its successors' largest rank; ``None`` for a draw.
        A P-position's successors all have lower ranks, an N-position has a move to a
        P-position of lower rank: the induction a checker replays.

    Examples
    --------
    >>> play_labels([[1], [0], []], [[1], [0], []], misere=True)
    (['D', 'D', 'N'], [None, None, 0])
    >>> play_labels([[1, 2], [0], []], [[1], [0], [0]], misere=False)
    (['N', 'P', 'P'], [1, 2, 0])
    """
    n = len(succ)
    remaining = [len(s) for s in succ]
    cls = ["D"] * n
    rank: list[int | None] = [None] * n
    highest = [0] * n  # the largest rank among a vertex's successors labelled N so far
    terminal = "N" if misere else "P"
    queue = [v for v in range(n) if not succ[v]]
    for v in queue:
        cls[v], rank[v] = terminal, 0
    i = 0
    while i < len(queue):
        v = queue[i]
        i += 1
        if deadline is not None and i % _POLL == 0:
            deadline.check()
        rv = rank[v]
        assert rv is not None
        for u in pred[v]:
            if cls[u] != "D":
                continue
            if cls[v] == "P":
                cls[u], rank[u] = "N", rv + 1
                queue.append(u)
            else:
                remaining[u] -= 1
                highest[u] = max(highest[u], rv)
                if remaining[u] == 0:
                    cls[u], rank[u] = "P", highest[u] + 1
                    queue.append(u)
    return cls, rank


class Outcomes:
    """The outcome of positions of an acyclic game given by its moves, memoised.

    ``options(position)`` lists the positions one move reaches (hashable, in a canonical
    form: two positions that are the same game should be equal, e.g. sorted heaps).
    :meth:`wins` says whether the player to move wins: under misère play a position
    without moves is a win, under normal play a loss; otherwise a position is a win
    exactly when some move reaches a loss. The search is iterative (no recursion
    limit) and stops looking at a position's moves once a losing one is found.

    >>> o = Outcomes(lambda n: [n - d for d in (1, 2) if d <= n], misere=False)
    >>> [o.wins(n) for n in range(7)]
    [False, True, True, False, True, True, False]
    >>> o.winning_moves(5)
    [3]
    """

    def __init__(
        self,
        options: Callable[[Any], Iterable[Hashable]],
        misere: bool = True,
        deadline: Deadline | None = None,
    ) -> None:
        self.options = options
        self.misere = misere
        self.deadline = deadline
        self.memo: dict[Hashable, bool] = {}

    def wins(self, start: Hashable) -> bool:
        """Whether the player to move at ``start`` wins."""
        memo = self.memo
        if start in memo:
            return memo[start]
        # a frame: [position, its moves still to look at, has it a move, child awaited]
        stack: list[list[Any]] = [[start, iter(self.options(start)), False, None]]
        steps = 0
        while stack:
            steps += 1
            if self.deadline is not None and steps % _POLL == 0:
                self.deadline.check()
            frame = stack[-1]
            position, moves, moved, waiting = frame
            result = None
            if waiting is not None:
                frame[3] = None
                if not memo[waiting]:
                    result = True
            if result is None:
                for q in moves:
                    moved = frame[2] = True
                    known = memo.get(q)
                    if known is None:
                        frame[3] = q
                        stack.append([q, iter(self.options(q)), False, None])
                        break
                    if not known:
                        result = True
                        break
                else:
                    result = self.misere if not moved else False
            if result is not None:
                memo[position] = result
                stack.pop()
        return memo[start]

    def winning_moves(self, position: Hashable) -> list[Hashable]:
        """The positions one move reaches from ``position`` that the player to move there
        loses: exactly the winning moves (none from a losing position)."""
        return [q for q in self.options(position) if not self.wins(q)]


# -- Nim ------------------------------------------------------------------------------


def nim_options(heaps: Sequence[int]) -> list[tuple[int, ...]]:
    """Every Nim position one move reaches from ``heaps``, as sorted tuples without
    empty heaps (an empty heap is no game: the sum is the same without it).

    >>> nim_options((1, 2))
    [(1,), (2,), (1, 1)]
    """
    out = set()
    for i, h in enumerate(heaps):
        if i and heaps[i - 1] == h:
            continue  # the same heap size again: the same moves
        rest = list(heaps[:i]) + list(heaps[i + 1 :])
        for x in range(h):
            out.add(tuple(sorted([*rest, x] if x else rest)))
    return sorted(out, key=lambda p: (len(p), p))


def misere_nim_class(heaps: Sequence[int]) -> str:
    """``P`` or ``N`` under misère play by Bouton's theorem: with a heap of 2 or more,
    P exactly when the XOR is 0 (as in normal play); with heaps of at most 1 only,
    P exactly when the number of 1-heaps is odd."""
    total, big = 0, False
    for h in heaps:
        total ^= h
        big = big or h >= 2
    return ("P" if total == 0 else "N") if big else ("P" if total == 1 else "N")


def misere_nim_moves(heaps: Sequence[int]) -> list[tuple[int, ...]]:
    """Every winning move of misère Nim (empty for a P-position), each as the heaps after it.

    Bouton's misère rule: play as in normal Nim (to XOR 0) unless that move would leave
    only heaps of size at most 1; then leave an odd number of 1-heaps. Lowering heap
    ``i`` to ``x`` wins exactly when the position left is P (:func:`misere_nim_class`),
    and only ``x`` = the XOR of the other heaps, 0 or 1 can do that, so each heap is
    tried with those three values: O(number of heaps).

    >>> misere_nim_moves([2, 2]), misere_nim_moves([1, 1, 1]), misere_nim_moves([3, 1])
    ([], [], [(0, 1)])
    """
    hs = list(heaps)
    n = len(hs)
    total = 0
    bigs = 0
    for h in hs:
        total ^= h
        bigs += h >= 2
    out = []
    for i, h in enumerate(hs):
        others = total ^ h
        big_others = bigs - (h >= 2) > 0
        for x in sorted({others, 0, 1}, reverse=True):
            if x >= h:
                continue
            left = others ^ x
            lost = (left == 0) if (big_others or x >= 2) else (left == 1)
            if lost:
                out.append(tuple(x if j == i else hs[j] for j in range(n)))
    return out


# -- the genus ------------------------------------------------------------------------


@dataclass(frozen=True)
class Genus:
    """Conway's genus ``g^(γ0 γ1 γ2 ...)``: ``g`` the normal-play Grundy value, ``γk``
    the misère Grundy value of the game plus ``k`` nim-heaps of size 2. The misère Grundy
    value is the mex of the options' misère values, and 1 for a game without options;
    a game is a misère P-position exactly when it is 0. The sequence ends alternating
    two values; it is written up to where that alternation starts (``0^120``: 1, 2, 0,
    2, 0, ...), as in Winning Ways (ch. 13), from the :data:`GENUS_TERMS` terms computed.
    """

    g: int
    gammas: tuple[int, ...]

    def __str__(self) -> str:
        gs = self.gammas
        end = len(gs)
        while end > 2 and gs[end - 1] == gs[end - 3]:
            end -= 1
        return f"{self.g}^" + ("".join(map(str, gs[:end])) if max(gs) < 10 else ",".join(map(str, gs[:end])))

    @classmethod
    def of_nim(cls, heaps: Sequence[int], terms: int = GENUS_TERMS) -> Genus:
        """The genus of a Nim position, by its own search (tests compare it with
        Winning Ways: ``*0`` is ``0^120``, ``*1`` is ``1^031``, ``*n`` is ``n^(n, n⊕2)``
        for ``n >= 2``)."""
        total = 0
        for h in heaps:
            total ^= h
        values = MisereValues(nim_options)
        base = tuple(sorted(h for h in heaps if h))
        return cls(total, tuple(values.value(tuple(sorted(base + (2,) * k))) for k in range(terms)))

    def tame_heaps(self) -> tuple[int, ...] | None:
        """The Nim position a tame genus stands for (Winning Ways, ch. 13: the fickle
        ``0^120`` = *0 and ``1^031`` = *1, the firm ``0^02`` = *2+*2, ``1^13`` = *2+*3
        and ``a^(a, a⊕2)`` = *a for a >= 2), or ``None`` for any other genus."""
        gs = self.gammas
        for heaps in ((), (1,), (2, 2), (2, 3)):
            if self == _nim_genus(heaps, len(gs)):
                return heaps
        if self.g >= 2 and self == _nim_genus((self.g,), len(gs)):
            return (self.g,)
        return None


def _nim_genus(heaps: tuple[int, ...], terms: int) -> Genus:
    """The genus of the nim position ``heaps`` from Bouton's rules (the tame genera)."""
    total = 0
    for h in heaps:
        total ^= h
    gammas = []
    for k in range(terms):
        hs = [h for h in heaps if h] + [2] * k
        x = 0
        for h in hs:
            x ^= h
        # the misère Grundy value of a nim position: its XOR when some heap is 2 or more,
        # else 1 - XOR (an odd number of 1-heaps is the misère 0)
        gammas.append(x if any(h >= 2 for h in hs) else 1 - x)
    return Genus(total, tuple(gammas))


class MisereValues:
    """Misère Grundy values (the mex rule, with 1 for a position without moves) and
    normal Grundy values of positions given by their moves, memoised (acyclic)."""

    def __init__(self, options: Callable[[Any], Iterable[Hashable]], deadline: Deadline | None = None) -> None:
        self.options = options
        self.deadline = deadline
        self.memo: dict[tuple[bool, Hashable], int] = {}

    def value(self, start: Hashable, misere: bool = True) -> int:
        """``G^-`` (``misere``) or ``G^+`` of ``start``."""
        memo = self.memo
        key = (misere, start)
        if key in memo:
            return memo[key]
        stack = [start]
        steps = 0
        while stack:
            steps += 1
            if self.deadline is not None and steps % _POLL == 0:
                self.deadline.check()
            p = stack[-1]
            if (misere, p) in memo:
                stack.pop()
                continue
            moves = list(self.options(p))
            todo = [q for q in moves if (misere, q) not in memo]
            if todo:
                stack.extend(todo)
                continue
            if not moves:
                memo[(misere, p)] = 1 if misere else 0
            else:
                seen = {memo[(misere, q)] for q in moves}
                k = 0
                while k in seen:
                    k += 1
                memo[(misere, p)] = k
            stack.pop()
        return memo[key]


def genus(
    options: Callable[[Any], Iterable[Hashable]],
    position: Hashable,
    terms: int = GENUS_TERMS,
    deadline: Deadline | None = None,
) -> Genus:
    """The genus of ``position`` of a game given by ``options``: ``γk`` by direct search of
    the game plus ``k`` nim-heaps of size 2 (a position of the sum: the game's position
    and the sorted heaps left of those 2s).

    >>> str(genus(lambda n: range(n), 3))  # the nim-heap *3
    '3^31'
    """
    return Genera(options, terms, deadline).genus(position)


class Genera:
    """Genera of the positions of one game (given by ``options``), memoised, and whether
    a position is *tame*: its genus and the genus of every position it can reach are
    tame genera (:meth:`Genus.tame_heaps`). Only then do the genera decide sums
    (:func:`tame_outcome`): a position whose own genus is tame but which can reach a wild
    one need not behave as its Nim equivalent (random acyclic graphs give examples; the
    hereditary condition gave none in 69,006 sums of up to three such positions).

    >>> nim = Genera(lambda n: range(n))
    >>> str(nim.genus(2)), nim.tame(5)
    ('2^20', (True, None))
    """

    def __init__(
        self,
        options: Callable[[Any], Iterable[Hashable]],
        terms: int = GENUS_TERMS,
        deadline: Deadline | None = None,
    ) -> None:
        self.options = options
        self.terms = terms
        self.deadline = deadline
        self.known: dict[Hashable, Genus] = {}
        self.wild: dict[Hashable, tuple[bool, Hashable | None]] = {}

        def with_heaps(state: tuple[Hashable, tuple[int, ...]]) -> Iterable[Hashable]:
            p, heaps = state
            for q in options(p):
                yield (q, heaps)
            for h in nim_options(heaps):
                yield (p, h)

        self.values = MisereValues(with_heaps, deadline)

    def genus(self, position: Hashable) -> Genus:
        """The genus of ``position``."""
        if position not in self.known:
            values = self.values
            g = values.value((position, ()), misere=False)
            gammas = tuple(values.value((position, (2,) * k)) for k in range(self.terms))
            self.known[position] = Genus(g, gammas)
        return self.known[position]

    def tame(self, position: Hashable) -> tuple[bool, Hashable | None]:
        """Whether ``position`` is tame, and if not a position it reaches (itself
        perhaps) whose genus is not a tame one."""
        if position not in self.wild:
            self.wild[position] = self._tame(position)
        return self.wild[position]

    def _tame(self, position: Hashable) -> tuple[bool, Hashable | None]:
        seen = {position}
        stack = [position]
        while stack:
            p = stack.pop()
            if self.genus(p).tame_heaps() is None:
                return False, p
            for q in self.options(p):
                if q not in seen:
                    seen.add(q)
                    stack.append(q)
        return True, None


def tame_outcome(genera: Sequence[Genus]) -> str | None:
    """The misère outcome of a sum of tame games from their genera alone (each stands for
    the Nim position :meth:`Genus.tame_heaps`; Bouton's misère rule decides the sum), or
    ``None`` when a genus is not tame. The components must be tame, not only their genera
    (:meth:`Genera.tame`).

    >>> tame_outcome([Genus.of_nim([1]), Genus.of_nim([1])]), tame_outcome([Genus.of_nim([2, 2])])
    ('N', 'P')
    """
    heaps: list[int] = []
    for gen in genera:
        stands = gen.tame_heaps()
        if stands is None:
            return None
        heaps += stands
    return misere_nim_class(heaps)
