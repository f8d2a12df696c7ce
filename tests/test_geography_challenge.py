"""The challenged game P0 (planar_challenge.py): the winner kept, the winner's strategy
mapped and checked on P0 itself, the movers, a forged construction caught, every crossing
of the book drawing safe and counted, the size polynomial."""

from __future__ import annotations

import math
import random

import pytest

import pyasp_games.domains.geography.planar_challenge as pc
from pyasp_games.domains.geography.model import Geography, make_instance
from pyasp_games.domains.geography.native import solve_game, strategy_proof
from pyasp_games.domains.geography.planar import play_using
from pyasp_games.domains.geography.verify import brute_force_winner
from pyasp_games.engines.graphs import Digraph, from_arcs
from pyasp_games.engines.limits import Deadline, LimitReached
from pyasp_games.errors import InputError


def _game(n: int, arcs: list[tuple[int, int]], variant: str, undirected: bool = False) -> Geography:
    g = from_arcs([(str(u), str(v)) for u, v in arcs], [str(i) for i in range(n)])
    return make_instance(g, "0", variant, undirected)


def _random_games(seed: int, count: int, most: int) -> list[Geography]:
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        n = rng.randint(2, most)
        # the start has a move (else P0 is one vertex)
        arcs = [(u, v) for u in range(n) for v in range(n) if rng.random() < 0.45 or (u, v) == (0, 1)]
        games.append(_game(n, arcs, rng.choice(["vertex", "edge"]), rng.random() < 0.15))
    return games


def _winner(game: Geography) -> str:
    return "first" if solve_game(game, line=False).first_wins else "second"


def _check_exhaustively(game: Geography, answer: str, strategy) -> tuple[bool, str]:
    """Every play from the start: the claimed winner's move from ``strategy`` (must be
    legal), every legal move of the other; the winner must never be stuck. (A small
    checker of its own, independent of the construction.)"""
    succ = game.graph.succ
    first = answer == "first"
    stack = [[game.start]]
    while stack:
        play = stack.pop()
        options = [w for w in succ[play[-1]] if w not in play]
        if (len(play) % 2 == 1) == first:  # the claimed winner moves
            if not options:
                return False, f"the winner is stuck at {game.names[play[-1]]}"
            w = strategy(play)
            if w not in options:
                return False, f"the strategy's move to {game.names[w]} is not legal"
            stack.append([*play, w])
        else:
            stack.extend([*play, w] for w in options)
    return True, "every play ends with the loser stuck"


def _forged(ch: pc.Challenged, arcs: list[tuple[int, int]]) -> Geography:
    """P0 with other arcs: the same vertices and start."""
    succ: list[list[int]] = [[] for _ in ch.book.names]
    for a, b in arcs:
        succ[a].append(b)
    graph = Digraph(tuple(ch.book.names), tuple(map(tuple, succ)), "forged")
    return make_instance(graph, ch.book.names[ch.book.start], "vertex")


GAMES = _random_games(43, 10, 3)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g.variant}-{len(g)}-{g.graph.arc_count}")
def test_winner_kept_and_strategy_checked_on_p0(game: Geography) -> None:
    ch = pc.challenged(game)
    winner = brute_force_winner(game)
    assert _winner(game) == winner
    assert _winner(ch.base) == winner  # the cut (and 2-cycles left out) keeps it
    assert _winner(ch.game) == winner  # P0 solved natively
    strategy = pc.challenged_strategy(ch, winner, strategy_proof(ch.base))
    ok, message = _check_exhaustively(ch.game, winner, strategy)
    assert ok, message


@pytest.mark.slow
def test_winner_kept_on_many_games() -> None:
    for game in _random_games(7, 120, 4):
        ch = pc.challenged(game)
        winner = brute_force_winner(game)
        assert _winner(ch.game) == winner
        ok, message = _check_exhaustively(ch.game, winner, pc.challenged_strategy(ch, winner, strategy_proof(ch.base)))
        assert ok, message


def test_strategy_from_a_function() -> None:
    # the 3-cycle s -> a -> b -> s in edge geography: the first player wins in 3 moves
    game = _game(3, [(0, 1), (1, 2), (2, 0)], "edge")
    ch = pc.challenged(game)
    assert ch.layers == 3 and _winner(ch.game) == "first"
    nxt = {0: 1, 1: 2, 2: 0}
    ok, message = _check_exhaustively(ch.game, "first", pc.challenged_strategy(ch, "first", lambda play: nxt[play[-1]]))
    assert ok, message
    # a losing strategy of G gives a strategy on P0 the checker refuses
    game = _game(3, [(0, 1), (0, 2), (1, 2)], "vertex")  # first wins by s -> b only
    ch = pc.challenged(game)
    ok, _ = _check_exhaustively(ch.game, "first", pc.challenged_strategy(ch, "first", lambda play: 1))
    assert not ok


def _movers(ch: pc.Challenged, claims: bool = True) -> list[set[int]]:
    """For every vertex, the parities of the numbers of moves of the paths to it from the
    start (0: the first player is to move there); without ``claims``, not through a claim
    vertex ``D`` (which enters a side, to end the play there)."""
    succ = [() if not claims and ch.info[v][0] == "D" else out for v, out in enumerate(ch.game.graph.succ)]
    seen: list[set[int]] = [set() for _ in succ]
    stack = [(ch.game.start, 0)]
    while stack:
        v, p = stack.pop()
        if p in seen[v]:
            continue
        seen[v].add(p)
        stack.extend((w, 1 - p) for w in succ[v])
    return seen


def test_movers() -> None:
    """Layer t's mover M_t (the first player for odd t) moves at d(t, j), B_t and U_t, the
    other at the sides and at B'_t; on the challenger's walk the challenger (the other)
    chooses at each E, M_t steps on at each H, and at the entries N, R the refuter moves."""
    for game in (_game(3, [(0, 1), (1, 2), (2, 0), (0, 2)], "edge"), _game(4, [(0, 1), (1, 2), (2, 3), (1, 3)], "vertex")):
        ch = pc.challenged(game)
        movers = _movers(ch, claims=False)
        for v, key in enumerate(ch.info):
            kind, t = key[0], key[1]
            mover = (t - 1) % 2  # M_t: 0 (first) for odd t
            expected = {"d": mover, "u": mover, "s": 1 - mover, "c": 1 - mover, "N": mover,
                        "R": mover, "X": 1 - mover, "Y": 1 - mover, "H": mover, "E": 1 - mover}.get(kind)
            if expected is not None and movers[v]:
                assert movers[v] == {expected}, (ch.book.names[v], movers[v])
        # the claims and walks are entered by either player (their meaning does not
        # depend on who): some claim vertex is reached at both parities
        movers = _movers(ch)
        assert any(len(movers[v]) == 2 for v, key in enumerate(ch.info) if key[0] == "D")


def test_forged_claims_change_a_winner() -> None:
    """Claim vertices without the side of bit 1 (D(c, t) -> S(t, 1, c_1) left out): P0's
    winner then differs from G's on some game, and the mapped strategy is refused."""
    changed = refused = 0
    for game in GAMES:
        ch = pc.challenged(game)
        info = ch.info
        arcs = [(a, b) for a, b in ch.book.arcs
                if not (info[a][0] == "D" and info[b][0] == "s" and info[b][2] == 1)]
        forged = _forged(ch, arcs)
        winner = brute_force_winner(game)
        changed += _winner(forged) != winner
        strategy = pc.challenged_strategy(ch, winner, strategy_proof(ch.base))
        refused += not _check_exhaustively(forged, winner, strategy)[0]
    assert changed >= 1 and refused >= changed


def _naive_crossings(ch: pc.Challenged) -> set[tuple[int, int]]:
    book = ch.book
    position = {v: p for p, v in enumerate(book.order)}
    spans = [tuple(sorted((position[a], position[b]))) for a, b in book.arcs]
    found = set()
    for i, (a, b) in enumerate(spans):
        for j in range(i + 1, len(spans)):
            c, d = spans[j]
            if book.page[i] == book.page[j] and (a < c < b < d or c < a < d < b):
                found.add((i, j))
    return found


def test_book_crossings_counted_and_safe() -> None:
    game = _game(4, [(0, 1), (1, 2), (2, 3), (3, 0), (0, 2), (1, 3)], "edge")
    ch = pc.challenged(game)
    book = ch.book
    assert sorted(book.order) == list(range(len(book.names))) and set(book.page) <= {1, 2}
    assert set(ch.crossing_pairs) == _naive_crossings(ch) and ch.crossing_count == len(ch.crossing_pairs) > 0
    assert all(ch.safe(i, j) for i, j in ch.crossing_pairs)
    # independently: no play from the start uses both arcs of a crossing (exhaustive, on
    # the 3-cycle's smaller P0)
    small = pc.challenged(_game(3, [(0, 1), (1, 2), (2, 0)], "edge"))
    succ = small.game.graph.succ
    for i, j in random.Random(1).sample(small.crossing_pairs, 10):
        assert play_using(succ, small.book.start, small.book.arcs[i], small.book.arcs[j], None) is None
    succ = ch.game.graph.succ
    # and safe() is no blanket yes: two arcs of one dispute, a challenge arc and a chain arc
    lookup = ch.lookup
    number = {arc: k for k, arc in enumerate(book.arcs)}
    fan = number[lookup["E", 2, ("N", 2, 1)], lookup["N", 2, 1]]  # the challenger's choice
    forward = number[lookup["G2", 2, 1], lookup["F", 1, 1]]
    chain = number[lookup["d", 2, 1], lookup["s", 2, 1, 0]]
    assert not ch.safe(fan, forward) and not ch.safe(forward, chain)
    assert play_using(succ, book.start, book.arcs[fan], book.arcs[forward], None) is not None


def test_the_material_runs_keep_the_crossings_few() -> None:
    """The drawing's layout (the material runs grouped by head, each G1 before the first
    run of its tail): a 6-vertex tournament's P0 has at most 3.5 crossings per arc, every
    one safe (the layout before the runs had 5.8), and each G1(u) and F(w) stands before
    every run whose walk reaches it."""
    arcs = [(0, 1), (2, 0), (3, 0), (0, 4), (0, 5), (2, 1), (1, 3), (4, 1), (5, 1), (3, 2), (4, 2), (2, 5),
            (3, 4), (3, 5), (5, 4)]
    ch = pc.challenged(_game(6, arcs, "edge"))
    assert ch.crossing_count <= 3.5 * len(ch.book.arcs) and all(ch.safe(i, j) for i, j in ch.crossing_pairs)
    position = {v: p for p, v in enumerate(ch.book.order)}
    for key, v in ch.lookup.items():
        if key[0] == "K":
            _, t, m = key
            (u, w), = [item for item in ch.items if ch.arc_material[item] == m]
            assert position[ch.lookup["G1", t, u]] < position[v] and position[ch.lookup["F", t, w]] < position[v]


def test_an_unsafe_drawing_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # F(u, t) before D(u, t): the forward G2(u, t+1) -> F(u, t) crosses D(u, t)'s claims,
    # the same dispute's next arcs
    monkeypatch.setattr(pc, "BLOCK_ORDER", ("F", "D", "N", "G2", "M"))
    with pytest.raises(pc.UnsafeDrawing, match="cross and are not proved"):
        pc.challenged(_game(4, [(0, 1), (1, 2), (2, 3), (3, 0), (0, 2), (1, 3)], "edge"))


def test_refusals(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game(3, [(0, 1), (1, 2), (2, 0)], "edge")
    ch = pc.challenged(game)
    with pytest.raises(InputError, match="neither a proof DAG nor a function"):
        pc.challenged_strategy(ch, "first", [1, 2])
    with pytest.raises(InputError, match="winner must be first or second"):
        pc.challenged_strategy(ch, "nobody", lambda play: 1)
    with pytest.raises(LimitReached):
        pc.challenged(game, Deadline(0))
    monkeypatch.setattr(pc, "MAX_VERTICES", 50)
    with pytest.raises(InputError, match="limit 50"):
        pc.challenged(game)


def _expected_vertices(ch: pc.Challenged) -> int:
    """The size by the construction's formula: O(L (n k + |items|))."""
    n, k, L = len(ch.base), ch.code_bits, ch.layers
    s = ch.base.start
    items = len(ch.items)
    materials = n if ch.vertex_variant else ch.base.edge_count
    total = n + (n - 1) + n + (2 if ch.vertex_variant and L >= 1 else 0) + 1  # layer 0, T_{L+1}
    def lowest(m: int) -> int:  # the lowest layer a walk for material m names
        return 0 if ch.vertex_variant and m == s else 1

    for t in range(1, L + 1):
        with_r = sum(1 for it in ch.items if t - 1 >= lowest(it if ch.vertex_variant else ch.arc_material[it]))
        walks = sum(1 for m in range(materials) if t - 1 >= lowest(m))
        # chain; D, F, G1, G2, N; R and X per item with a walk; Q per item; Y and J; K;
        # the challenger's walk: E and H per entry (N, R)
        total += ((3 * k + 3) + 5 * n + 2 * with_r + items + 2 * walks + (materials if t < L else 0)
                  + 2 * (n + with_r))
    return total


@pytest.mark.parametrize("n", [4, 6])
def test_size_polynomial(n: int) -> None:
    rng = random.Random(n)
    complete = [(u, v) for u in range(n) for v in range(n) if u != v]
    tournament = [(u, v) if rng.random() < 0.5 else (v, u) for u in range(n) for v in range(u + 1, n)]
    for variant, arcs in (("vertex", complete), ("edge", tournament)):
        ch = pc.challenged(_game(n, arcs, variant))
        k = max(1, math.ceil(math.log2(len(ch.base))))
        assert ch.code_bits == k
        items = len(ch.base) if variant == "vertex" else ch.base.edge_count
        assert len(ch.items) == items
        assert len(ch.book.names) == _expected_vertices(ch) <= 10 * (ch.layers + 1) * (n * k + items + 1)
        assert len(ch.book.arcs) <= 30 * (ch.layers + 1) * (n * k + items + 1)
