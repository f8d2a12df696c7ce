"""The native edge-geography search's reductions against a plain reference search.

The reference is the game's definition and nothing else: minimax over ``(vertex, set of
used edge ids)`` with a memo, no reduction, no move ordering. The native search keys its
table on reduced positions (reachable part, 2-cycles deleted, retrograde-classified
vertices dropped); every reduction must keep the value of every position, and the
classes it assigns must be the true values. Random graphs are dense in 2-cycles, sinks
and self-loops so that every reduction fires.
"""

from __future__ import annotations

import random
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from pyasp_games.domains.geography.model import Geography, make_instance
from pyasp_games.domains.geography.native import _EdgeSearch, _Search, solve_game
from pyasp_games.domains.geography.play import Player
from pyasp_games.domains.geography.verify import check_answer, check_line
from pyasp_games.engines.graphs import from_arcs


def reference(game: Geography):
    """``wins(v, used)`` for the mover at ``v`` with the set of used ids ``used``
    (edge ids in edge geography, vertices in vertex geography)."""
    vertex = game.variant == "vertex"

    @cache
    def wins(v: int, used: frozenset[int]) -> bool:
        for w, e in game.moves[v]:
            item = w if vertex else e
            if item not in used and not wins(w, used | {item}):
                return True
        return False

    return wins


def used_of(game: Geography, avail: int) -> frozenset[int]:
    """The used edge ids of a bitset of available ones."""
    return frozenset(e for e in range(game.edge_count) if not avail >> e & 1)


def random_game(rng: random.Random, n: int, arcs: int, variant: str, undirected: bool):
    pairs = [(u, v) for u in range(n) for v in range(n) if (u < v if undirected else u != v)]
    if variant == "edge":
        pairs += [(u, u) for u in range(n)]
    chosen = set(rng.sample(pairs, min(arcs, len(pairs))))
    if not undirected:  # add reverse arcs often: many 2-cycles
        chosen |= {(v, u) for u, v in chosen if rng.random() < 0.35}
    graph = from_arcs(sorted(chosen), range(n), name=f"r{n}")
    return make_instance(graph, str(rng.randrange(n)), variant, undirected)


@st.composite
def games(draw, variant):
    n = draw(st.integers(1, 8))
    undirected = draw(st.booleans())
    rng = random.Random(draw(st.integers(0, 10**9)))
    cap = 15 if variant == "edge" else 16
    return random_game(rng, n, draw(st.integers(0, cap)), variant, undirected)


def _check_game(game: Geography) -> None:
    ref = reference(game)
    start = frozenset({game.start}) if game.variant == "vertex" else frozenset()
    expected = ref(game.start, start)
    result = solve_game(game)
    assert result.first_wins == expected
    answer = "first" if expected else "second"
    witness = None if result.move is None else game.move_name(result.move)
    assert check_answer(game, answer, witness)[0] is True
    assert check_line(game, [game.names[v] for v in result.line])[0] is True


@settings(max_examples=150, deadline=None)
@given(games("edge"))
def test_edge_search_agrees_with_reference(game):
    _check_game(game)


@settings(max_examples=100, deadline=None)
@given(games("vertex"))
def test_vertex_search_agrees_with_reference(game):
    _check_game(game)


def test_reductions_keep_every_positions_value():
    """For random positions of real play: the classes assigned by the retrograde pass are
    the true values there, the canonical position has the value of the real one, and
    every child the incremental reduction produces has the value of the real child."""
    rng = random.Random(7)
    checked = classified = children = 0
    for _ in range(300):
        undirected = rng.random() < 0.3
        game = random_game(rng, rng.randint(2, 8), rng.randint(3, 14), "edge", undirected)
        ref = reference(game)
        search = _EdgeSearch(game, None)
        full = (1 << game.edge_count) - 1
        for _ in range(6):
            # about three in four edges still unused
            avail = (rng.getrandbits(game.edge_count) | rng.getrandbits(game.edge_count)) & full
            v = rng.randrange(len(game))
            truth = ref(v, used_of(game, avail))
            status, reduced, before, label = search.canonical(v, avail)
            # classes are values of the position with the token there and `before` unused
            for x, won in label.items():
                assert ref(x, used_of(game, before)) == won, (game.edges, x, before)
                classified += 1
            if status is not None:
                assert status == truth
                continue
            assert ref(v, used_of(game, reduced)) == truth
            assert search.wins(v, reduced) == truth
            for low, u, child_status, rest in search.expand(v, reduced):
                real_child = ref(u, used_of(game, avail & ~low))
                if child_status is not None:
                    assert child_status == real_child
                else:
                    assert ref(u, used_of(game, rest)) == real_child
                children += 1
            checked += 1
    assert checked > 200 and classified > 200 and children > 300


def test_player_positions_and_replies_match_reference():
    """Interactive play hands the search positions with arbitrary used sets."""
    rng = random.Random(11)
    for _ in range(200):
        undirected = rng.random() < 0.3
        game = random_game(rng, rng.randint(2, 7), rng.randint(3, 12), "edge", undirected)
        ref = reference(game)
        player = Player(game)
        v, avail = player.start()
        while True:
            legal = player.legal(v, avail)
            wins = ref(v, used_of(game, avail))
            assert player.wins(v, avail) == wins
            assert set(legal) == {w for w, e in game.moves[v] if avail >> e & 1}
            if not legal:
                assert not wins
                break
            reply = player.reply(v, avail)
            assert reply is not None
            if wins:  # the solver's reply leaves the opponent lost
                assert not ref(reply[0], used_of(game, reply[1]))
            v, avail = rng.choice(list(legal.items())) if rng.random() < 0.5 else reply


def test_two_cycles_and_sinks_alone_decide():
    # 0 <-> 1 is a 2-cycle, 0 -> 2 -> 3 a path of two arcs: without the 2-cycle the
    # mover at 0 loses (two moves left); using 0 -> 1 is answered by 1 -> 0
    game = make_instance(from_arcs([(0, 1), (1, 0), (0, 2), (2, 3)], range(4)), "0", "edge")
    result = solve_game(game)
    assert not result.first_wins and result.move is None
    assert check_line(game, [game.names[v] for v in result.line])[0] is True
    # the same with a third arc on the path: the mover at 0 now wins by 0 -> 2
    game = make_instance(from_arcs([(0, 1), (1, 0), (0, 2), (2, 3), (3, 4)], range(5)), "0", "edge")
    result = solve_game(game)
    assert result.first_wins and game.names[result.move] == "2"


def test_vertex_classification_keeps_every_positions_value():
    """Vertex geography's root reduction: each class is the value of the position with
    the token just moved there, and dropping the classified vertices keeps the value."""
    rng = random.Random(13)
    classified = checked = 0
    for _ in range(300):
        undirected = rng.random() < 0.3
        n = rng.randint(2, 9)
        game = random_game(rng, n, rng.randint(2, 16), "vertex", undirected)
        ref = reference(game)
        search = _Search(game, None)
        everything = frozenset(range(n))
        for _ in range(4):
            v = rng.randrange(n)
            avail = search.reach(v, rng.getrandbits(n) & ~(1 << v))
            used = everything - {x for x in range(n) if avail >> x & 1}
            status, reduced, label = search.classify(v, avail)
            for x, won in label.items():
                assert ref(x, used | {x}) == won, (game.edges, v, avail, x)
                classified += 1
            truth = ref(v, used)
            if status is not None:
                assert status == truth
            else:
                kept = everything - {x for x in range(n) if reduced >> x & 1}
                assert ref(v, kept) == truth == search.position_wins(v, avail)
            move = search.position_winning_move(v, avail)
            assert (move is not None) == truth
            if move is not None:
                assert not ref(move[0], used | {move[0]})
            checked += 1
    assert checked > 1000 and classified > 500
