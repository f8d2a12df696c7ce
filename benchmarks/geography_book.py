"""Book drawings planarized by crossing gadgets, and the function checker, at the sizes of
issue 43's challenged game (about 11,000 vertices and 27,000 arcs before the gadgets).

    python benchmarks/geography_book.py                 # the numbers of RESULTS.md
    python benchmarks/geography_book.py --diamonds 2000 --vertices 3000 --arcs 7000

Three measurements, each with its CPU seconds:

1. ``crossings`` and ``planar_game`` on a random book of ``--vertices`` vertices and
   ``--arcs`` arcs whose ends are near each other on the spine (spans of at most
   ``--reach`` places: about 10^5 crossings at the default sizes); every crossing taken as
   safe (this measures the construction, not a game);
2. ``check_strategy_function`` on a chain of ``--diamonds`` diamonds with dead-end
   branches (vertex geography, 5 vertices a diamond): the first player picks a side, the
   second moves on or into a dead end where it is stuck after one more move; the
   strategy a dictionary look-up;
3. the same chain drawn as a book with two safe crossings a diamond (``in -> b`` and
   ``b -> in'`` both cross ``a -> d`` on page 2), planarized (23 vertices a diamond), and
   the book strategy lifted through the gadgets (``lift``) and checked on the planar game;
4. with ``--tournaments N`` (about 220 s of CPU for 40): the edge games of ``N`` random
   10-vertex tournaments (seed 7), ``--route strategy``'s result of each (up to 300,000
   vertices), and those beyond 20,000 vertices certified by walking them as the winner's
   strategy (``lift_gadgets(..., None)``: one arc out of each of the winner's positions).

    python benchmarks/geography_book.py --tournaments 40
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pyasp_games.domains.geography.book import (
    BookDrawing,
    crossings,
    gadget_vertices,
    lift,
    lift_gadgets,
    planar_game,
)
from pyasp_games.domains.geography.model import make_instance
from pyasp_games.domains.geography.native import solve_game
from pyasp_games.domains.geography.planar_unfold import strategy_unfold
from pyasp_games.domains.geography.verify import check_strategy_function
from pyasp_games.engines.graphs import from_arcs


def cpu() -> float:
    return time.process_time()


def local_book(n: int, m: int, reach: int, seed: int) -> BookDrawing:
    rng = random.Random(seed)
    arcs: set[tuple[int, int]] = set()
    while len(arcs) < m:
        u = rng.randrange(n)
        v = u + rng.choice((-1, 1)) * rng.randint(1, reach)
        if 0 <= v < n:
            arcs.add((u, v))
    listed = sorted(arcs)
    page = [1 if (u + v) % 2 else 2 for u, v in listed]
    for k, (u, v) in enumerate(listed):  # u -> v and v -> u: one per page
        if (v, u) in arcs:
            page[k] = 1 if u < v else 2
    return BookDrawing([f"v{k}" for k in range(n)], listed, list(range(n)), page, 0)


def diamond_names(k: int) -> list[str]:
    return [f"in{k}", f"a{k}", f"b{k}", f"d{k}", f"e{k}"]


def diamonds(count: int) -> tuple[list[str], list[tuple[int, int]], list[int], dict[int, int]]:
    """The chain: per diamond in, a, b, d, e (numbers 5k .. 5k + 4), then in_count and a
    final sink f. Arcs in -> a, in -> b, a -> in', b -> in', a -> d, b -> d, d -> e; the
    first player's strategy: in -> b, d -> e, the last in -> f."""
    names: list[str] = []
    arcs: list[tuple[int, int]] = []
    move: dict[int, int] = {}
    for k in range(count):
        names += diamond_names(k)
        i, a, b, d, e = range(5 * k, 5 * k + 5)
        nxt = 5 * k + 5
        arcs += [(i, a), (i, b), (a, nxt), (b, nxt), (a, d), (b, d), (d, e)]
        move[i], move[d] = b, e
    last = 5 * count
    names += [f"in{count}", "f"]
    arcs.append((last, last + 1))
    move[last] = last + 1
    return names, arcs, list(range(len(names))), move


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vertices", type=int, default=11_000)
    parser.add_argument("--arcs", type=int, default=27_000)
    parser.add_argument("--reach", type=int, default=12)
    parser.add_argument("--diamonds", type=int, default=25_000)
    parser.add_argument("--book-diamonds", type=int, default=5_000)
    parser.add_argument("--tournaments", type=int, default=0)
    args = parser.parse_args()
    if args.tournaments:
        tournaments(args.tournaments)
        return

    book = local_book(args.vertices, args.arcs, args.reach, 1)
    t = cpu()
    pairs = crossings(book)
    t1 = cpu()
    planar = planar_game(book, safe=lambda i, j: True)
    t2 = cpu()
    print(f"1. book of {len(book.names):,} vertices, {len(book.arcs):,} arcs: {len(pairs):,} crossings "
          f"in {t1 - t:.2f} s of CPU; planar game ({len(planar.game):,} vertices, "
          f"{planar.game.graph.arc_count:,} arcs) in {t2 - t1:.2f} s of CPU (crossings again included)")

    names, arcs, _, move = diamonds(args.diamonds)
    game = make_instance(from_arcs([(names[u], names[v]) for u, v in arcs], names), "in0", "vertex")
    t = cpu()
    ok, message = check_strategy_function(game, "first", lambda play: move[play[-1]])
    t1 = cpu()
    positions = int(message.split(" over ")[1].split()[0].replace(",", ""))
    print(f"2. chain of {args.diamonds:,} diamonds ({len(game):,} vertices): {ok}, {message}; "
          f"{t1 - t:.2f} s of CPU, {positions / (t1 - t):,.0f} positions a second")

    names, arcs, _, move = diamonds(args.book_diamonds)
    # the spine in, a, b, d, e per diamond; in -> b (0, 2), b -> in' (2, 5) and a -> d (1, 3)
    # on page 2 (a -> d crosses both: safe, a play through b never reaches a, one through
    # a -> d ends at e), everything else on page 1, where nothing crosses
    page = []
    for u, v in arcs:
        role = (v - u, u % 5)
        page.append(2 if role in ((2, 0), (3, 2), (2, 1)) else 1)
    book = BookDrawing(names, arcs, list(range(len(names))), page, 0)
    t = cpu()
    planar = planar_game(book, safe=lambda i, j: True)
    t1 = cpu()
    lifted = lift(planar, lambda play: move[play[-1]])
    ok, message = check_strategy_function(planar.game, "first", lifted)
    t2 = cpu()
    positions = int(message.split(" over ")[1].split()[0].replace(",", ""))
    print(f"3. the chain of {args.book_diamonds:,} diamonds as a book: {planar.crossing_count:,} crossings, "
          f"planar game of {len(planar.game):,} vertices in {t1 - t:.2f} s of CPU; the lifted strategy "
          f"{ok}: {message}; {t2 - t1:.2f} s of CPU, {positions / (t2 - t1):,.0f} positions a second")


def tournaments(count: int, n: int = 10) -> None:
    rng = random.Random(7)
    games = [[(u, v) if rng.random() < 0.5 else (v, u) for u in range(n) for v in range(u + 1, n)]
             for _ in range(count)]
    print("| game | winner | result's vertices | shared in rows | route CPU s | certified by walking | positions | check CPU s |")
    print("|---|---|---|---|---|---|---|---|")
    for k, arcs in enumerate(games):
        game = make_instance(from_arcs([(str(u), str(v)) for u, v in arcs], [str(i) for i in range(n)]), "0", "edge")
        t = cpu()
        winner = "first" if solve_game(game, line=False).first_wins else "second"
        result = strategy_unfold(game, None, 300_000)
        t1 = cpu()
        if len(result.graph) <= 20_000:
            continue
        planar = make_instance(result.graph, "p")
        ok, message = check_strategy_function(planar, winner, lift_gadgets(
            planar, gadget_vertices(result.graph, "X"), None))
        t2 = cpu()
        positions = message.split(" over ")[1].split()[0] if ok else "-"
        print(f"| {k} | {winner} | {len(result.graph):,} | {result.shared} | {t1 - t:.1f} | {ok} | "
              f"{positions} | {t2 - t1:.1f} |", flush=True)


if __name__ == "__main__":
    main()
