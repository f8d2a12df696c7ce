"""Book drawings of a vertex-geography digraph, planarized by crossing gadgets, and a
winner's strategy lifted through them.

A **book drawing** puts every vertex on a line (the *spine*, :attr:`BookDrawing.order`)
and every arc on one of two *pages*: a half-circle above the spine (page 1) or below it
(page 2) between its two ends. Two arcs cross exactly when they are on the same page and
their ends are strictly interleaved along the spine (arcs sharing an end never cross);
:func:`crossings` finds them by a sweep along the spine.

Two crossing half-circles meet at exactly one point, whose abscissa is rational (for
spans ``l1 < l2 < r1 < r2``: ``(l2 r2 - l1 r1) / (l2 + r2 - l1 - r1)``), so the order of
the crossings along each arc, from its tail to its head, is computed exactly
(:func:`crossing_order`); where three or more half-circles meet at one point the spine's
places are perturbed symbolically (each place ``p + eps q_p`` for a fixed irregular
``q``, ``eps`` infinitesimal: the comparisons are of polynomials in ``eps``), which gives
the order of a nearby drawing with only simple crossings (a tie left at every order of
``eps``, which would need the point to survive that perturbation, is broken by crossing
number; none was met in the tests' random drawings). Putting the crossing gadget of
:mod:`~pyasp_games.domains.geography.planar` (:func:`~pyasp_games.domains.geography.planar.with_gadgets`)
at every crossing in that order gives a planar digraph (the drawing itself, each crossing
point replaced by a small planar piece). It has the book game's winner when every
crossing is *safe* (no play from the start uses both of its arcs: the gadget's proof in
:mod:`~pyasp_games.domains.geography.planar`); :func:`planar_game` asks the caller to
prove each one and refuses the drawing otherwise.

A winner's strategy of the book game (a function of the play) becomes one of the planar
game by :func:`lift`: along the arc the book strategy chose, through its gadgets, and the
punishing reply to every deviation of the other player inside a gadget. It is checked on
the planar game itself by
:func:`~pyasp_games.domains.geography.verify.check_strategy_function` (every reply of the
other player, no value trusted), which scales to 10^5 and more vertices.

>>> from pyasp_games.domains.geography.verify import check_strategy_function
>>> book = BookDrawing(names=["s", "a", "b", "c", "d"],
...                    arcs=[(0, 2), (1, 3), (0, 1), (1, 4)],
...                    order=[0, 1, 2, 3, 4], page=[1, 1, 2, 2], start=0)
>>> crossings(book)                      # s -> b and a -> c interleave on page 1
[(0, 1)]
>>> planar = planar_game(book, safe=lambda i, j: True)   # no play uses both: s moves once
>>> planar.crossing_count, len(planar.game), planar.book_vertex[:5]
(1, 14, [0, 1, 2, 3, 4])
>>> def book_strategy(play):             # the first player: s -> b, and b is a dead end
...     return 2
>>> check_strategy_function(planar.game, "first", lift(planar, book_strategy))
(True, 'a winning strategy checked over 8 positions: every play ends with the second player stuck')
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right, insort
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cmp_to_key
from typing import Any

from pyasp_games.domains.geography.model import Geography, make_instance
from pyasp_games.domains.geography.planar import _fresh_prefix, polled, with_gadgets
from pyasp_games.engines.graphs import Digraph, from_arcs
from pyasp_games.engines.limits import Deadline
from pyasp_games.errors import InputError

Arc = tuple[int, int]
#: A strategy: the play so far (vertex numbers, the start first, the token's vertex last;
#: the strategy's owner to move) -> the vertex to move to. The list is the caller's and
#: may change after the call: a strategy must not keep it.
Strategy = Callable[[Sequence[int]], int]

#: The kinds of planar vertices (:attr:`PlanarBook.gadget`'s part): a gadget arc's three
#: private vertices ("1", "2" before the centre, "3" after it), the centre, a punisher.
PARTS = ("1", "2", "3", "x", "y")


@dataclass(frozen=True)
class BookDrawing:
    """A digraph drawn in a book of two pages.

    Attributes:
        names: vertex names (index = vertex number).
        arcs: the arcs ``(tail, head)`` by vertex number; no duplicates, no loops.
        order: the spine: every vertex number once, in order along the spine.
        page: per arc, 1 (above the spine) or 2 (below); an arc whose ends are adjacent on
            the spine crosses nothing, whatever its page.
        start: the start vertex's number.

    Raises :class:`~pyasp_games.errors.InputError` (one sentence) for a drawing that is
    not one: an order that is no permutation, a page not 1 or 2, a loop, a repeated arc,
    a vertex number out of range. (Two arcs ``u -> v`` and ``v -> u`` on one page are
    the same half-circle: :func:`planar_game` refuses them where another arc crosses them.)
    """

    names: list[str]
    arcs: list[tuple[int, int]]
    order: list[int]
    page: list[int]
    start: int
    place: list[int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        n = len(self.names)
        if len(set(self.names)) != n:
            raise InputError("book drawing: two vertices have the same name")
        if sorted(self.order) != list(range(n)):
            raise InputError(f"book drawing: the spine order is not a permutation of the {n} vertices")
        if len(self.page) != len(self.arcs):
            raise InputError(f"book drawing: {len(self.page)} pages given for {len(self.arcs)} arcs")
        if not (isinstance(self.start, int) and 0 <= self.start < n):
            raise InputError(f"book drawing: start {self.start!r} is no vertex number")
        seen: set[Arc] = set()
        for k, (u, v) in enumerate(self.arcs):
            if not (0 <= u < n and 0 <= v < n):
                raise InputError(f"book drawing: arc {k} ({u}, {v}) has an end that is no vertex number")
            if u == v:
                raise InputError(f"book drawing: arc {k} is a loop at {self.names[u]}")
            if (u, v) in seen:
                raise InputError(f"book drawing: the arc {self.names[u]} -> {self.names[v]} is given twice")
            seen.add((u, v))
            if self.page[k] not in (1, 2):
                raise InputError(f"book drawing: arc {k} is on page {self.page[k]!r}, not 1 or 2")
        place = [0] * n
        for p, v in enumerate(self.order):
            place[v] = p
        object.__setattr__(self, "place", place)

    def span(self, k: int) -> tuple[int, int]:
        """Arc ``k``'s ends as places on the spine, the smaller first."""
        u, v = self.arcs[k]
        a, b = self.place[u], self.place[v]
        return (a, b) if a < b else (b, a)

    def shown(self, k: int) -> str:
        """Arc ``k`` by its ends' names, for messages."""
        u, v = self.arcs[k]
        return f"{self.names[u]} -> {self.names[v]}"


def crossings(book: BookDrawing, deadline: Deadline | None = None) -> list[tuple[int, int]]:
    """Pairs of arc numbers ``(i, j)``, ``i < j``, that cross: on the same page, ends
    strictly interleaved along the spine (arcs sharing an end never cross); sorted.

    A sweep along the spine, page by page: at each place the arcs ending there leave the
    set of open arcs (kept sorted by their right end), then each arc starting there
    crosses exactly the open arcs ending strictly inside it, a prefix of that sorted list,
    then joins it. O(m log m + K) comparisons for ``m`` arcs and ``K`` crossings, plus a
    list insertion and removal per arc (a memory move of at most ``m`` entries): 0.1 s of
    CPU for 27,000 arcs and 117,558 crossings (``benchmarks/geography_book.py``).

    >>> b = BookDrawing(list("abcd"), [(0, 2), (1, 3), (0, 3)], [0, 1, 2, 3], [1, 1, 1], 0)
    >>> crossings(b)
    [(0, 1)]
    """
    found: list[tuple[int, int]] = []
    for page in (1, 2):
        starting: dict[int, list[tuple[int, int]]] = {}
        ending: dict[int, list[tuple[int, int]]] = {}
        for k in range(len(book.arcs)):
            if book.page[k] == page:
                a, b = book.span(k)
                if b - a > 1:  # adjacent ends: crosses nothing
                    starting.setdefault(a, []).append((b, k))
                    ending.setdefault(b, []).append((b, k))
        open_arcs: list[tuple[int, int]] = []  # (right end, arc), sorted
        for count, p in enumerate(sorted(set(starting) | set(ending))):
            if deadline is not None and count % 1024 == 0:
                deadline.check()
            for item in ending.get(p, ()):
                del open_arcs[bisect_left(open_arcs, item)]
            for b, k in starting.get(p, ()):
                # open arcs start before p and end after p: they cross k iff they end before b
                for _, j in open_arcs[: bisect_left(open_arcs, (b, -1))]:
                    found.append((j, k) if j < k else (k, j))
            for item in starting.get(p, ()):
                insort(open_arcs, item)
    found.sort()
    return found


def _perturbation(p: int) -> int:
    """The direction ``q_p`` of the symbolic perturbation of spine place ``p``: a mixing
    hash (splitmix64's finaliser), 30 bits. It must be irregular: the half-circles are the
    geodesics of the hyperbolic half-plane, so a move of the places by a Moebius map
    (``q_p`` a polynomial of degree at most 2 in ``p``, an affine one among them) keeps
    every point where three of them meet."""
    mask = (1 << 64) - 1
    z = ((p + 1) * 0x9E3779B97F4A7C15) & mask
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    return ((z ^ (z >> 31)) >> 34) + 1


def _meeting(book: BookDrawing, i: int, j: int) -> tuple[tuple[int, int, int], tuple[int, int]]:
    """Where the half-circles of arcs ``i`` and ``j`` meet: the abscissa ``N / D`` with
    ``N``, ``D`` polynomials in the perturbation ``eps`` (coefficients from the constant up)."""
    (l1, r1), (l2, r2) = sorted((book.span(i), book.span(j)))
    q = _perturbation

    def product(a: int, b: int) -> tuple[int, int, int]:
        # (a + eps q_a)(b + eps q_b)
        return a * b, a * q(b) + q(a) * b, q(a) * q(b)

    n2, n1 = product(l2, r2), product(l1, r1)
    numerator = (n2[0] - n1[0], n2[1] - n1[1], n2[2] - n1[2])
    denominator = (l2 + r2 - l1 - r1, q(l2) + q(r2) - q(l1) - q(r1))
    return numerator, denominator


def _compare(x: tuple, y: tuple) -> int:
    """The sign of ``x - y`` for two meeting points ``(N, D)`` (``D > 0`` for small ``eps``)."""
    (n0, n1, n2), (d0, d1) = x[0], x[1]
    (m0, m1, m2), (e0, e1) = y[0], y[1]
    # N/D - M/E has the sign of N E - M D, a polynomial in eps: its first nonzero coefficient
    for c in (n0 * e0 - m0 * d0, n0 * e1 + n1 * e0 - m0 * d1 - m1 * d0,
              n1 * e1 + n2 * e0 - m1 * d1 - m2 * d0, n2 * e1 - m2 * d1):
        if c:
            return 1 if c > 0 else -1
    return 0


def crossing_order(
    book: BookDrawing, pairs: Sequence[tuple[int, int]], deadline: Deadline | None = None
) -> list[list[tuple[int, int]]]:
    """For every arc, the crossings on it from its tail to its head, each as ``(crossing
    number, role)``: ``pairs[c]`` is crossing ``c``, its first arc in role 0, its second in
    role 1 (the input of :func:`~pyasp_games.domains.geography.planar.with_gadgets`).

    Along a half-circle the abscissa is monotone, so the crossings are sorted by the
    abscissa of their meeting point, exactly (module docstring; ties at a point where
    several arcs meet broken by the symbolic perturbation), increasing when the tail is
    the left end.

    >>> b = BookDrawing(list("abcdef"), [(4, 1), (0, 2), (3, 5)], list(range(6)), [1, 1, 1], 0)
    >>> pairs = crossings(b)                 # e -> b crosses a -> c (at 4/3), d -> f (at 11/3)
    >>> pairs, crossing_order(b, pairs)      # from e, d -> f's crossing comes first
    ([(0, 1), (0, 2)], [[(1, 0), (0, 0)], [(0, 1)], [(1, 1)]])
    """
    rows: list[list[tuple[tuple, int, int]]] = [[] for _ in book.arcs]
    for c, (i, j) in enumerate(polled(pairs, deadline)):
        point = _meeting(book, i, j)
        rows[i].append((point, c, 0))
        rows[j].append((point, c, 1))
    out: list[list[tuple[int, int]]] = []
    by_point = cmp_to_key(lambda x, y: _compare(x[0], y[0]) or (x[1] > y[1]) - (x[1] < y[1]))
    for k, row in enumerate(polled(rows, deadline, 1024)):
        row.sort(key=by_point)
        u, v = book.arcs[k]
        if book.place[u] > book.place[v]:
            row.reverse()
        out.append([(c, role) for _, c, role in row])
    return out


@dataclass
class PlanarBook:
    """The planar game of a book drawing (:func:`planar_game`).

    Attributes:
        game: the planar vertex-geography game (the book's start kept); its vertices
            ``0 .. len(book.names) - 1`` are the book's, numbered as in the book.
        book: the drawing.
        crossings: crossing ``c`` is the pair of arcs ``crossings[c]`` (role 0, role 1).
        along: per arc, its crossings from tail to head as ``(crossing, role)``.
        book_vertex: per planar vertex, its book vertex number, or ``-1`` (a gadget's).
        gadget: per gadget vertex, ``(crossing, role, part)``: ``part`` "1", "2" (before
            the centre) or "3" (after it) on the arc of that role; "x" the centre (role
            ``None``); "y" a punisher, its role that of the arc whose vertex "2" it leads
            back into (the one entered from the other role's "3").
    """

    game: Geography
    book: BookDrawing
    crossings: list[tuple[int, int]]
    along: list[list[tuple[int, int]]]
    book_vertex: list[int]
    gadget: dict[int, tuple[int, int | None, str]]

    @property
    def crossing_count(self) -> int:
        return len(self.crossings)

    @property
    def sizes(self) -> dict[str, int]:
        """Vertices and arcs of the book and of the planar game, and the crossings."""
        return {"book_vertices": len(self.book.names), "book_arcs": len(self.book.arcs),
                "crossings": len(self.crossings), "vertices": len(self.game),
                "arcs": self.game.graph.arc_count}


def planar_game(
    book: BookDrawing, safe: Callable[[int, int], bool], deadline: Deadline | None = None
) -> PlanarBook:
    """The planar vertex-geography game of ``book``: a crossing gadget at every crossing
    (:func:`~pyasp_games.domains.geography.planar.with_gadgets`, in the order of
    :func:`crossing_order`), each crossing ``(i, j)`` first proved safe by ``safe(i, j)``
    (no play from the start uses both arcs), else refused: the gadget's proof then gives
    the book game's winner, and :func:`lift` carries a winner's strategy over.

    Raises :class:`~pyasp_games.errors.InputError` naming the two arcs of the first
    crossing ``safe`` does not prove, and :class:`~pyasp_games.engines.limits.LimitReached`
    at the deadline. Linear in the drawing and its crossings (beyond :func:`crossings`);
    9 vertices per crossing.

    >>> b = BookDrawing(list("sabc"), [(0, 2), (1, 3)], [0, 1, 2, 3], [1, 1], 0)
    >>> planar_game(b, safe=lambda i, j: False)
    Traceback (most recent call last):
    ...
    pyasp_games.errors.InputError: book drawing: the arcs s -> b and a -> c cross and are not proved safe (a play might use both: no crossing gadget can carry it)
    """
    pairs = crossings(book, deadline)
    crossed = {k for pair in pairs for k in pair}
    number = {arc: k for k, arc in enumerate(book.arcs)}
    for k in crossed:
        u, v = book.arcs[k]
        twin = number.get((v, u))
        if twin is not None and book.page[twin] == book.page[k]:
            raise InputError(f"book drawing: the arcs {book.shown(k)} and {book.shown(twin)} are one "
                             "half-circle (same page) and are crossed: put them on different pages")
    for i, j in polled(pairs, deadline, 256):
        if not safe(i, j):
            raise InputError(f"book drawing: the arcs {book.shown(i)} and {book.shown(j)} cross and are "
                             "not proved safe (a play might use both: no crossing gadget can carry it)")
    along = crossing_order(book, pairs, deadline)
    names = list(book.names)
    prefix = _fresh_prefix(names)
    headers = {"source": "book drawing (planar)", "start": names[book.start], "variant": "vertex",
               "undirected": "no"}
    graph = from_arcs(polled(with_gadgets(names, book.arcs, along, prefix), deadline), names,
                      name="book.planar", headers=headers)
    game = make_instance(graph, names[book.start], "vertex")
    n = len(names)
    book_vertex = list(range(n)) + [-1] * (len(graph) - n)
    gadget = gadget_vertices(graph, prefix)
    if len(gadget) != len(graph) - n:  # pragma: no cover - with_gadgets names every vertex it adds so
        raise AssertionError("a vertex of the planar game is neither the book's nor a gadget's")
    return PlanarBook(game, book, pairs, along, book_vertex, gadget)


def gadget_vertices(graph: Digraph, prefix: str) -> dict[int, tuple[int, int | None, str]]:
    """The gadget vertices of a digraph made by
    :func:`~pyasp_games.domains.geography.planar.with_gadgets` with ``prefix``, read from
    their names (``<prefix><crossing><part>``), as :attr:`PlanarBook.gadget` gives them.

    >>> from pyasp_games.engines.graphs import Digraph, from_arcs
    >>> g = from_arcs([("s", "X0u1"), ("X0u1", "X0u2"), ("X0u2", "X0x"), ("X0x", "X0u3"), ("X0w3", "X0ya")])
    >>> gadget_vertices(g, "X")
    {1: (0, 0, '1'), 2: (0, 0, '2'), 3: (0, None, 'x'), 4: (0, 0, '3'), 5: (0, 1, '3'), 6: (0, 0, 'y')}
    """
    pattern = re.compile(re.escape(prefix) + r"(\d+)(x|ya|yb|u1|u2|u3|w1|w2|w3)")
    gadget: dict[int, tuple[int, int | None, str]] = {}
    for v, name in enumerate(graph.names):
        match = pattern.fullmatch(name)
        if match is None:
            continue
        c, part = int(match[1]), match[2]
        if part == "x":
            gadget[v] = (c, None, "x")
        elif part[0] == "y":  # ya: z1 -> ya -> u2 (back into role 0), yb: v1 -> yb -> w2
            gadget[v] = (c, 0 if part == "ya" else 1, "y")
        else:
            gadget[v] = (c, "uw".index(part[0]), part[1])
    return gadget


def lift(planar: PlanarBook, strategy: Strategy) -> Strategy:
    """The winner's strategy of the book game as one of ``planar.game``.

    ``strategy`` is called with the book play (the planar play with the gadget vertices
    dropped) whenever the token is on a book vertex, and its move ``u -> w`` is played
    into the first gadget of the arc ``u -> w``. Inside gadgets (the proof in
    :mod:`~pyasp_games.domains.geography.planar`), with P the player who entered the arc:

    - on one's own arc: ``u2 -> x`` (after the forced ``u1 -> u2``), ``v1 ->`` the next
      gadget's ``u1`` or the arc's head; when the other player turns at the centre into
      the crossing arc's exit ``z1``, the answer is the punisher ``z1 -> y``, which leads
      only back into ``u2`` (used): the other player is stuck;
    - on the other player's arc: ``u1 -> u2`` (forced) and, at the centre, on along that
      arc; when the other player turns from ``v1`` into the punisher ``y'``, the answer is
      ``y' -> w2`` of the crossing arc, whose only move is into the used centre.

    The lifted strategy reads only the play's last three vertices inside gadgets, and at
    book vertices the book play, kept from call to call: only the part of the play that
    changed since the last call is filtered (found in O(log n) by the stamps of
    :class:`~pyasp_games.domains.geography.verify.Play`, else by comparing lists). It returns the book strategy's move unchanged where that is no
    arc of the book (the checker refuses it). Like every strategy it must not keep the
    play, and neither may ``strategy`` keep or change the book play it is given.
    """
    return lift_gadgets(planar.game, planar.gadget, strategy, planar.book_vertex)


def lift_gadgets(
    game: Geography, gadget: dict[int, tuple[int, int | None, str]], strategy: Strategy | None,
    book_vertex: Sequence[int] | None = None,
) -> Strategy:
    """:func:`lift` for any digraph with crossing gadgets
    (:func:`~pyasp_games.domains.geography.planar.with_gadgets`' output, its gadget
    vertices ``gadget``, e.g. from :func:`gadget_vertices`): the arcs' chains are read off
    the digraph itself. ``strategy`` is a strategy of the digraph without gadgets, whose
    vertices are the others, numbered by ``book_vertex`` (default: their own numbers);
    ``None``: that digraph *is* the winner's strategy (``geography planarize --route
    strategy`` writes it so: one arc out of every position of the winner), and the
    winner takes the one arc there is (refused where there are several, or none).

    >>> from pyasp_games.domains.geography.model import make_instance
    >>> from pyasp_games.domains.geography.planar import with_gadgets
    >>> from pyasp_games.domains.geography.verify import check_strategy_function
    >>> arcs = [(0, 2), (1, 3)]            # s -> b crosses a -> c, at crossing 0
    >>> g = from_arcs(with_gadgets(list("sabc"), arcs, [[(0, 0)], [(0, 1)]], "X"), list("sabc"))
    >>> planar = make_instance(g, "s")
    >>> lifted = lift_gadgets(planar, gadget_vertices(g, "X"), lambda play: 2)
    >>> check_strategy_function(planar, "first", lifted)[0]
    True
    """
    n = len(game)
    succ = game.graph.succ
    if book_vertex is None:
        book_vertex = [-1 if v in gadget else v for v in range(n)]
    kind = [0] * n  # 0 book vertex, 1 part "1", 2 part "2", 3 centre, 4 part "3", 5 punisher
    step = [-1] * n  # the move that follows the arc (or the punisher's only move)
    punish = [-1] * n  # from a part "3": its punisher
    exit_of = [-1] * n  # from a part "2": the part "3" of the same arc (through the centre)
    named = {part: v for v, part in gadget.items() if part[2] != "x"}
    centre = {c: v for v, (c, role, part) in gadget.items() if part == "x"}
    for v, (c, role, part) in gadget.items():
        if part == "1":
            kind[v], step[v] = 1, named[(c, role, "2")]
        elif part == "2":
            kind[v], step[v] = 2, centre[c]
            exit_of[v] = named[(c, role, "3")]
        elif part == "x":
            kind[v] = 3
        elif part == "3":
            kind[v] = 4
            assert role is not None
            punish[v] = named.get((c, 1 - role, "y"), -1)  # v1 -> yb (role 1), z1 -> ya (role 0)
            step[v] = next((w for w in succ[v] if w != punish[v]), -1)  # on along the arc
        else:
            kind[v] = 5
            step[v] = succ[v][0]
    first: dict[tuple[int, int], int] = {}  # (tail, head) -> the first vertex after the tail
    for u in range(n):
        if kind[u] == 0:
            for s in succ[u]:
                before, x = u, s
                while x >= 0 and kind[x] in (1, 2, 3, 4):  # along the arc's chain to its head
                    before, x = x, exit_of[before] if kind[x] == 3 else step[x]
                if x >= 0 and kind[x] == 0:
                    first[(u, book_vertex[x])] = s
    planar_of = {b: v for v, b in enumerate(book_vertex) if b >= 0}

    # the book play of the last call, kept in step with the planar play it came from: a
    # depth-first walk changes only the play's end between calls, so only the new end is
    # filtered; the common beginning is found by the checker's stamps (verify.Play), or
    # else by list comparison (in C)
    seen: list[int] = []  # the planar play of the last call
    book_play: list[int] = []
    at: list[int] = []  # where in the planar play each vertex of book_play is

    def common(play: Sequence[int]) -> int:
        m = min(len(seen), len(play))
        if list(play[:m]) == seen[:m]:
            return m
        low, high = 0, m  # the play's first m are not all the same: bisect
        while low < high:
            mid = (low + high + 1) // 2
            if list(play[:mid]) == seen[:mid]:
                low = mid
            else:
                high = mid - 1
        return low

    # the last call's stamps (the list itself: the same walk) and its last stamp (-1: none)
    last: list[Any] = [None, -1]

    def book_play_of(play: Sequence[int]) -> list[int]:
        stamps = getattr(play, "stamps", None)
        if stamps is not None and (len(stamps) != len(play) or not play):
            stamps = None
        kept = -1
        if stamps is not None and stamps is last[0]:
            # the same walk: what is stamped at most the last call's last stamp is what is
            # left of that play (O(log n), no comparison)
            kept = bisect_right(stamps, last[1])
            if kept > len(seen) or (kept and play[kept - 1] != seen[kept - 1]):
                kept = -1  # not a walk that only pops and pushes: compare
        if kept < 0:
            kept = common(play)
        last[0], last[1] = stamps, -1 if stamps is None else stamps[-1]
        del seen[kept:]
        while at and at[-1] >= kept:
            at.pop()
            book_play.pop()
        for x in range(kept, len(play)):
            v = play[x]
            seen.append(v)
            if book_vertex[v] >= 0:
                at.append(x)
                book_play.append(book_vertex[v])
        return book_play

    def lifted(play: Sequence[int]) -> int:
        v = play[-1]
        k = kind[v]
        if k == 0 and strategy is None:  # the one arc out of v (else no move: refused)
            return succ[v][0] if len(succ[v]) == 1 else -1
        if k == 0:
            # the book strategy gets this module's list, under the same rule: not to keep it
            w = strategy(book_play_of(play))
            # no arc to w: w's own vertex, no move from here either (the checker refuses it)
            return first.get((v, w), planar_of.get(w, w) if type(w) is int else w)
        if k == 3:  # the centre: on along the arc the token came by
            return exit_of[play[-2]]
        if k == 4 and exit_of[play[-3]] != v:  # the other player turned at the centre
            return punish[v]
        return step[v]

    return lifted
