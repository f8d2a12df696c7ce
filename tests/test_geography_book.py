"""Book drawings planarized by crossing gadgets (issue 43, the challenged game's generic
half): the crossings against an all-pairs count, the gadget graph planar whatever the
crossings, the planar game's winner the book game's when every crossing is safe (the
gadget's proof, tested), a book strategy lifted through the gadgets accepted by the
function checker on the planar game, a losing or deviation-blind strategy refused, and
the function checker against the proof-DAG checker of ``verify.py``."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from functools import cache
from pathlib import Path

import networkx as nx
import pytest

from pyasp_games.domains.geography.book import BookDrawing, crossings, lift, planar_game
from pyasp_games.domains.geography.model import make_instance, random_game
from pyasp_games.domains.geography.native import solve_game, strategy_proof
from pyasp_games.domains.geography.verify import (
    brute_force_winner,
    check_strategy,
    check_strategy_function,
)
from pyasp_games.engines.graphs import from_arcs
from pyasp_games.errors import InputError, Unconfirmed


def random_book(rng: random.Random, n: int, m: int) -> BookDrawing:
    """A random drawing: ``m`` random arcs (no loops; ``u -> v`` and ``v -> u`` on different
    pages), a random spine, random pages."""
    arcs: list[tuple[int, int]] = []
    page: list[int] = []
    where: dict[tuple[int, int], int] = {}
    for x in range(20 * m):
        if len(arcs) == min(m, n * (n - 1)):
            break
        u, v = 0 if x < 3 else rng.randrange(n), rng.randrange(n)  # the start's moves first
        if u == v or (u, v) in where:
            continue
        side = 3 - where[(v, u)] if (v, u) in where else rng.choice((1, 2))
        where[(u, v)] = side
        arcs.append((u, v))
        page.append(side)
    order = list(range(n))
    rng.shuffle(order)
    return BookDrawing([f"v{k}" for k in range(n)], arcs, order, page, 0)


def brute_crossings(book: BookDrawing) -> list[tuple[int, int]]:
    out = []
    for i in range(len(book.arcs)):
        for j in range(i + 1, len(book.arcs)):
            (a, b), (c, d) = book.span(i), book.span(j)
            if book.page[i] == book.page[j] and (a < c < b < d or c < a < d < b):
                out.append((i, j))
    return out


def used_together(book: BookDrawing) -> set[tuple[int, int]]:
    """Every pair of arcs some play from the start uses (all simple paths: exhaustive)."""
    number = {arc: k for k, arc in enumerate(book.arcs)}
    succ: list[list[int]] = [[] for _ in book.names]
    for u, v in book.arcs:
        succ[u].append(v)
    pairs: set[tuple[int, int]] = set()

    def walk(v: int, seen: int, arcs: list[int]) -> None:
        for w in succ[v]:
            if not (seen >> w) & 1:
                k = number[(v, w)]
                pairs.update((min(k, j), max(k, j)) for j in arcs)
                arcs.append(k)
                walk(w, seen | 1 << w, arcs)
                arcs.pop()

    walk(book.start, 1 << book.start, [])
    return pairs


def safe_book(rng: random.Random, n: int, m: int) -> tuple[BookDrawing, set[tuple[int, int]]]:
    """A random drawing with the arcs of unsafe crossings taken out until none is left."""
    book = random_book(rng, n, m)
    while True:
        together = used_together(book)
        unsafe = [pair for pair in crossings(book) if pair in together]
        if not unsafe:
            return book, together
        drop = rng.choice(unsafe[0])
        keep = [k for k in range(len(book.arcs)) if k != drop]
        book = BookDrawing(book.names, [book.arcs[k] for k in keep], book.order,
                           [book.page[k] for k in keep], book.start)


def proved_by(together: set[tuple[int, int]]):
    """The safety proof of an exhaustive test: no play uses both arcs."""
    return lambda i, j: (i, j) not in together


def book_game(book: BookDrawing):
    graph = from_arcs([(book.names[u], book.names[v]) for u, v in book.arcs], book.names)
    return make_instance(graph, book.names[book.start], "vertex")


def minimax_strategy(book: BookDrawing):
    """A strategy of the book game by brute-force minimax: a winning move where the mover
    wins, else its first legal move."""
    succ: list[list[int]] = [[] for _ in book.names]
    for u, v in book.arcs:
        succ[u].append(v)

    @cache
    def wins(v: int, used: int) -> bool:
        return any(not wins(w, used | 1 << w) for w in succ[v] if not (used >> w) & 1)

    def strategy(play):
        used = sum(1 << v for v in set(play))
        v = play[-1]
        legal = [w for w in succ[v] if not (used >> w) & 1]
        return next((w for w in legal if not wins(w, used | 1 << w)), legal[0] if legal else -1)

    return strategy, wins(book.start, 1 << book.start)


def test_crossings_match_an_all_pairs_count():
    rng = random.Random(1)
    total = 0
    for _ in range(150):
        book = random_book(rng, rng.randint(2, 14), rng.randint(0, 40))
        found = crossings(book)
        assert found == brute_crossings(book)
        total += len(found)
    assert total > 500  # the books cross, a lot


def test_the_gadget_graph_is_planar_whatever_the_crossings():
    """Random dense drawings (many crossings, three arcs through one point among them: on
    integer places they are common) and one built around a triple point."""
    rng = random.Random(2)
    # (1, 6), (2, 7), (3, 10) all pass through (4, sqrt 6): one point for three crossings
    names = [f"p{k}" for k in range(11)]
    triple = BookDrawing(names, [(1, 6), (7, 2), (3, 10), (0, 5), (4, 9), (8, 3)], list(range(11)),
                         [1] * 6, 0)
    meets = [Fraction(l2 * r2 - l1 * r1, l2 + r2 - l1 - r1) for (l1, r1), (l2, r2) in
             itertools.combinations([triple.span(k) for k in range(3)], 2)]
    assert meets == [4, 4, 4]
    books = [triple] + [random_book(rng, rng.randint(5, 11), rng.randint(10, 30)) for _ in range(12)]
    crossed = 0
    for book in books:
        planar = planar_game(book, safe=lambda i, j: True)
        crossed += planar.crossing_count
        assert nx.check_planarity(planar.game.graph.to_networkx().to_undirected())[0]
        assert len(planar.game) == len(book.names) + 9 * planar.crossing_count
    assert crossed > 200


def crossed_safe_books(rng: random.Random, count: int, vertices: tuple[int, int],
                       arcs: tuple[int, int]):
    """``count`` random book drawings whose crossings are all safe (proved by exhaustive
    search) and at least one, each with its planar game."""
    made = 0
    while made < count:
        book, together = safe_book(rng, rng.randint(*vertices), rng.randint(*arcs))
        planar = planar_game(book, safe=proved_by(together))
        if planar.crossing_count:
            made += 1
            yield book, planar


def test_the_planar_game_keeps_the_winner_and_the_lifted_strategy_wins_it():
    rng = random.Random(3)
    crossed = walked = punished = 0
    winners = set()
    for book, planar in crossed_safe_books(rng, 30, (6, 10), (12, 24)):
        crossed += planar.crossing_count
        game = book_game(book)
        strategy, first_wins = minimax_strategy(book)
        winner = "first" if first_wins else "second"
        winners.add(winner)
        assert brute_force_winner(game) == winner
        assert solve_game(planar.game).first_wins == first_wins  # the gadget's proof
        assert check_strategy_function(game, winner, strategy)[0]
        lifted = lift(planar, strategy)

        def counted(play, lifted=lifted, gadget=planar.gadget):
            nonlocal punished
            w = lifted(play)
            punished += gadget.get(w, (0, 0, ""))[2] == "y"  # a deviation answered
            return w

        ok, message = check_strategy_function(planar.game, winner, counted)
        assert ok, message
        # again, the lifted strategy's memory of the last play now stale (another walk)
        assert check_strategy_function(planar.game, winner, lifted)[0]
        walked += int(message.split(" over ")[1].split()[0].replace(",", "")) if " over " in message else 0
    assert winners == {"first", "second"} and crossed >= 150 and walked >= 600 and punished >= 30, (crossed, walked, punished)


def test_a_losing_move_is_refused_on_the_planar_game():
    rng = random.Random(4)
    refused = 0
    while refused < 6:
        book, together = safe_book(rng, rng.randint(6, 9), rng.randint(10, 20))
        strategy, first_wins = minimax_strategy(book)
        succ = [v for u, v in book.arcs if u == book.start]
        good = strategy([book.start])
        bad = [w for w in succ if w != good and not minimax_strategy_loses_for(book, w)]
        if not first_wins or not bad:
            continue
        planar = planar_game(book, safe=proved_by(together))

        def blunder(play, bad=bad[0], strategy=strategy):
            return bad if len(play) == 1 else strategy(play)

        ok, message = check_strategy_function(planar.game, "first", lift(planar, blunder))
        assert not ok, message  # stuck, or its book strategy has no legal move left
        refused += 1


def minimax_strategy_loses_for(book: BookDrawing, w: int) -> bool:
    """Whether the first move to ``w`` leaves the second player lost (brute force)."""
    start = book.start
    moved = BookDrawing(book.names, [(u, v) for u, v in book.arcs if v != start], book.order,
                        [p for (u, v), p in zip(book.arcs, book.page, strict=True) if v != start], w)
    return not minimax_strategy(moved)[1]


def test_a_strategy_blind_to_a_deviation_in_a_gadget_is_refused():
    """s -> b crosses a -> c; c -> e. The first player wins by s -> b (b is a dead end). At
    the centre the second player may turn towards c: the punisher wins; following the
    deviation on to c loses (the second player moves c -> e), and acting as if it had not
    happened is no legal move."""
    book = BookDrawing(list("sabce"), [(0, 2), (1, 3), (3, 4)], [0, 1, 2, 3, 4], [1, 1, 1], 0)
    planar = planar_game(book, safe=lambda i, j: True)  # a is no vertex any play reaches
    lifted = lift(planar, lambda play: 2)
    assert check_strategy_function(planar.game, "first", lifted)[0]
    succ = planar.game.graph.succ

    def follows(play):  # at a deviation, on along the arc it turned into
        v = play[-1]
        w = lifted(play)
        if planar.gadget.get(w, (0, 0, ""))[2] == "y" and planar.gadget.get(v, (0, 0, ""))[2] == "3":
            return next(x for x in succ[v] if x != w)
        return lifted(play)

    def blind(play):  # at a deviation, as if the token were still on its own arc
        v = play[-1]
        if planar.gadget.get(v, (0, 0, ""))[2] == "3" and planar.gadget.get(play[-3], (0, 0, ""))[1] != \
                planar.gadget[v][1]:
            return lifted([*play[:-1], next(w for w in succ[play[-2]] if w != v)])
        return lifted(play)

    ok, message = check_strategy_function(planar.game, "first", follows)
    assert not ok and message.endswith("s X0u1 X0u2 X0x X0w3 c e ends with the claimed winner (first) unable to move")
    ok, message = check_strategy_function(planar.game, "first", blind)
    assert not ok and message == "the strategy's move 2 after the play s X0u1 X0u2 X0x X0w3 is not legal"


def dag_strategy(game, proof):
    """A proof DAG of ``verify.check_strategy``'s format as a strategy function."""
    index, nodes = game.graph.index, proof["nodes"]

    def strategy(play):
        if "root" in proof:
            k, turns = proof["root"], play[1:]
        else:
            k, turns = proof["replies"][game.names[play[1]]], play[2:]
        for x in range(0, len(turns), 2):  # the strategy's move, the reply to it
            k = nodes[k]["replies"][game.names[turns[x + 1]]]
        return index[nodes[k]["move"]]

    return strategy


def function_dag(game, answer, strategy):
    """A strategy function written out as a proof DAG (a tree) by walking every reply."""
    nodes: list[dict] = []
    vertex = game.variant == "vertex"

    def legal(v, used):
        return [(w, w if vertex else e) for w, e in game.moves[v] if (w if vertex else e) not in used]

    def node(play, used):
        k = len(nodes)
        nodes.append({})
        w = strategy(play)
        step = next((item for x, item in legal(play[-1], used) if x == w), None)
        nodes[k]["move"] = game.names[w] if 0 <= w < len(game) else None
        replies = {}
        if step is not None:
            after = used | {step}
            for r, item in legal(w, after):
                replies[game.names[r]] = node([*play, w, r], after | {item})
        nodes[k]["replies"] = replies
        return k

    start = game.start
    used0 = frozenset({start}) if vertex else frozenset()
    if answer == "first":
        if not legal(start, used0):
            return {"root": node([start], used0), "nodes": nodes}, None
        root = node([start], used0)
        return {"root": root, "nodes": nodes}, nodes[root]["move"]
    replies = {game.names[r]: node([start, r], used0 | {item}) for r, item in legal(start, used0)}
    return {"replies": replies, "nodes": nodes}, None


@pytest.mark.parametrize(("variant", "undirected"), [("vertex", False), ("edge", False), ("edge", True)])
def test_the_function_checker_agrees_with_the_proof_dag_checker(variant, undirected):
    rng = random.Random(5)
    verdicts = []
    for seed in range(16):
        game = random_game(rng.randint(4, 7), seed, variant, degree=1.5 if undirected else 2.0,
                           undirected=undirected)
        winner = brute_force_winner(game)
        proof = strategy_proof(game)
        assert check_strategy(game, winner, None if winner == "second" else
                              proof["nodes"][proof["root"]]["move"] if variant == "vertex" else
                              [game.names[game.start], proof["nodes"][proof["root"]]["move"]], proof)[0]
        assert check_strategy_function(game, winner, dag_strategy(game, proof))[0]
        proved = dag_strategy(game, proof)
        for salt in range(4):  # random strategies (the last the proof's, random off it)
            def random_strategy(play, salt=salt, game=game, proved=proved):
                if salt == 3:
                    try:
                        return proved(play)
                    except (KeyError, IndexError):
                        pass
                v = play[-1]
                options = [w for w, _ in game.moves[v]] or [-1]
                return options[hash((tuple(play), salt)) % len(options)]

            answer = winner if salt == 3 else rng.choice(("first", "second"))
            dag, move = function_dag(game, answer, random_strategy)
            if variant == "edge" and move is not None:
                move = [game.names[game.start], move]
            expected = check_strategy(game, answer, move, dag)[0]
            verdicts.append(expected)
            assert check_strategy_function(game, answer, random_strategy)[0] == expected, (seed, salt)
    assert True in verdicts and False in verdicts


def test_refusals_and_limits_of_the_function_checker():
    game = random_game(8, 1, "vertex", degree=2.5)
    winner = brute_force_winner(game)
    proof = strategy_proof(game)
    strategy = dag_strategy(game, proof)
    assert check_strategy_function(game, "nobody", strategy) == (
        False, "answer 'nobody' is neither 'first' nor 'second'")
    with pytest.raises(Unconfirmed, match="budget of 3 positions"):
        check_strategy_function(game, winner, strategy, budget=3)

    def failing(play):
        raise RuntimeError("lost")

    ok, message = check_strategy_function(game, winner, failing)
    assert not ok and message.endswith("RuntimeError('lost')")
    ok, message = check_strategy_function(game, winner, lambda play: "a")
    assert not ok and message.startswith("the strategy's move 'a' after the play")

    def meddling(play):
        move = strategy(play)
        play.append(move)  # the play is the checker's: a strategy must not change it
        return move

    ok, message = check_strategy_function(game, winner, meddling)
    assert not ok and message.startswith("the strategy changed the play")


def test_drawings_that_are_none_or_unsafe_are_refused():
    names = list("sabc")
    with pytest.raises(InputError, match="not a permutation"):
        BookDrawing(names, [(0, 1)], [0, 1, 2, 2], [1], 0)
    with pytest.raises(InputError, match="page 3"):
        BookDrawing(names, [(0, 1)], [0, 1, 2, 3], [3], 0)
    with pytest.raises(InputError, match="loop"):
        BookDrawing(names, [(1, 1)], [0, 1, 2, 3], [1], 0)
    with pytest.raises(InputError, match="given twice"):
        BookDrawing(names, [(0, 1), (0, 1)], [0, 1, 2, 3], [1, 2], 0)
    book = BookDrawing(names, [(0, 2), (1, 3)], [0, 1, 2, 3], [1, 1], 0)
    with pytest.raises(InputError, match="the arcs s -> b and a -> c cross and are not proved safe"):
        planar_game(book, safe=lambda i, j: False)
    twins = BookDrawing(names, [(0, 2), (2, 0), (1, 3)], [0, 1, 2, 3], [1, 1, 1], 0)
    with pytest.raises(InputError, match="one half-circle"):
        planar_game(twins, safe=lambda i, j: True)
    apart = BookDrawing(names, [(0, 2), (2, 0), (1, 3)], [0, 1, 2, 3], [1, 2, 1], 0)
    assert planar_game(apart, safe=lambda i, j: True).crossing_count == 1


@pytest.mark.slow
def test_many_larger_book_games_keep_the_winner_through_the_lifted_strategy():
    """pytest -m slow tests/test_geography_book.py (about half a minute)."""
    rng = random.Random(6)
    for book, planar in crossed_safe_books(rng, 1000, (8, 13), (14, 34)):
        strategy, first_wins = minimax_strategy(book)
        winner = "first" if first_wins else "second"
        assert nx.check_planarity(planar.game.graph.to_networkx().to_undirected())[0]
        assert solve_game(planar.game).first_wins == first_wins
        ok, message = check_strategy_function(planar.game, winner, lift(planar, strategy))
        assert ok, message


@pytest.mark.slow
def test_large_dense_drawings_give_planar_gadget_graphs():
    rng = random.Random(7)
    for n, m in ((40, 150), (100, 200), (16, 120)):
        planar = planar_game(random_book(rng, n, m), safe=lambda i, j: True)
        assert planar.crossing_count > 500
        assert nx.check_planarity(planar.game.graph.to_networkx().to_undirected())[0]


def test_the_strategy_routes_result_is_certified_by_its_own_strategy():
    """``--route strategy`` writes the winner's strategy (one arc out of each of the
    winner's positions; in rows, gadgets between them): walked by the function checker on
    the result with the gadgets' replies, it is accepted with the game's winner; a forged
    result keeping a losing move is refused where it changes the winner."""
    from pyasp_games.domains.geography.book import gadget_vertices, lift_gadgets
    from pyasp_games.domains.geography.planar_unfold import StrategyPositions, strategy_unfold

    class LosingMove(StrategyPositions):
        def choose(self, v, avail, children):
            if children and self.search.position_wins(v, avail):
                return [ch for ch in children if self.search.position_wins(*ch)][:1] or children[:1]
            return children

    rng = random.Random(8)
    gadgets = refused = 0
    for k in range(8):
        arcs = [(u, v) if rng.random() < 0.5 else (v, u) for u in range(6) for v in range(u + 1, 6)]
        game = make_instance(from_arcs([(str(u), str(v)) for u, v in arcs], [str(i) for i in range(6)]),
                             "0", "edge" if k % 2 else "vertex")
        winner = brute_force_winner(game)
        for share in (True, False):
            result = strategy_unfold(game, share=share).graph
            planar = make_instance(result, "p")
            gadget = gadget_vertices(result, "X")
            gadgets += len(gadget)
            ok, message = check_strategy_function(planar, winner, lift_gadgets(planar, gadget, None))
            assert ok, message
        forged = make_instance(strategy_unfold(game, positions=LosingMove, share=True).graph, "p")
        if brute_force_winner(forged) != winner:
            assert not check_strategy_function(forged, winner, lift_gadgets(
                forged, gadget_vertices(forged.graph, "X"), None))[0]
            refused += 1
    assert gadgets > 0 and refused >= 2, (gadgets, refused)


def test_the_command_certifies_a_large_strategy_result_by_walking_it(monkeypatch, tmp_path):
    """``planarize --route strategy`` beyond NATIVE_CERTIFIED vertices (lowered to 0 here):
    the result certified by the function checker, not by solving it."""
    from pyasp_games.cli import geography as cli

    from .conftest import run_cli

    monkeypatch.setattr(cli, "NATIVE_CERTIFIED", 0)
    source = Path(__file__).resolve().parents[1] / "docs" / "examples" / "tournament8-edge.txt"
    run = run_cli("geography", "planarize", source, "--route", "strategy",
                  "--json", "-o", tmp_path / "out.txt")
    assert run.code == 0, run.stderr
    said = run.json()["certificates"]
    assert said["game"].startswith("first: a winning strategy of")
    assert said["result"].startswith("first: a winning strategy checked over") and run.json()["winner_preserved"]
