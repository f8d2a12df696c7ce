"""Planar Geography on random digraphs of 6 to 10 vertices, both variants (issue 43).

    python benchmarks/geography_planar_campaign.py                   # the table of RESULTS.md
    python benchmarks/geography_planar_campaign.py --count 4 --sizes 6 7 --limit 10
    python benchmarks/geography_planar_campaign.py --complete --limit 120 --check-limit 60 --cpu

``--cpu`` makes both limits CPU seconds of this process (comparable on a loaded machine).

For every size n and variant: ``--count`` random digraphs on n vertices (each arc present
with probability ``--degree / (n - 1)``, start 0; ``--complete``: the complete digraph; ``--tournament``: random tournaments), redrawn as ``geography planarize``
(``--route auto``) does it, in this process, with a deadline of ``--limit`` seconds:
the drawing route (vertex geography; edge geography through its line digraph), where it
refuses the unfolding of the first moves (up to 100,000 vertices), else the challenged game
(its winner certified on the result by the game's strategy carried over and walked over
every reply of the loser), else the QBF route. Then the winner is checked: the game solved (native) against the planar game
solved (native, ``--check-limit`` seconds, up to :data:`CHECKED` vertices; beyond, the
winner's strategy route's result is walked by ``verify.check_strategy_function``, its own
strategy) -- *on the result* -- and, on the QBF route,
against the QBF's truth (its own search) as well. Printed: per size and variant, how
many were planarized (by which route), refused (the QBF route's crossing limit) or out
of time, the sizes of the results (median and largest vertices and arcs), the seconds,
and how many winners were checked on the result and agreed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pyasp_games.cli.geography import AUTO_UNFOLDED
from pyasp_games.domains.geography.book import gadget_vertices, lift_gadgets
from pyasp_games.domains.geography.model import make_instance
from pyasp_games.domains.geography.native import solve_game, strategy_proof
from pyasp_games.domains.geography.planar import (
    UnsafeCrossing,
    line_digraph,
    planarize,
    without_two_cycles,
)
from pyasp_games.domains.geography.planar_challenge import certified_on_result, planar_challenged
from pyasp_games.domains.geography.planar_tqbf import planarize_via_qbf
from pyasp_games.domains.geography.planar_unfold import strategy_unfold, unfold
from pyasp_games.domains.geography.tqbf import qbf_value
from pyasp_games.domains.geography.verify import check_strategy, check_strategy_function
from pyasp_games.engines.graphs import from_arcs
from pyasp_games.engines.limits import Deadline, LimitReached
from pyasp_games.errors import InputError, Unconfirmed

#: The largest planar game solved to check its winner.
CHECKED = 20_000


def random_digraph(rng: random.Random, n: int, degree: float) -> list[tuple[int, int]]:
    p = min(1.0, degree / (n - 1))
    return [(u, v) for u in range(n) for v in range(n) if u != v and rng.random() < p]


def clock(seconds: float, cpu: bool) -> Deadline:
    """A deadline of ``seconds``: wall clock, or with ``--cpu`` CPU seconds of this process
    (comparable between runs on a machine others load)."""
    return Deadline(None, seconds) if cpu else Deadline(seconds)


def one(arcs: list[tuple[int, int]], n: int, variant: str, limit: float, check_limit: float,
        cpu: bool = False, strategy: bool = False) -> dict:
    g = from_arcs([(str(u), str(v)) for u, v in arcs], [str(i) for i in range(n)])
    game = make_instance(g, "0", variant)
    solved = solve_game(game, line=False)
    winner = solved.first_wins
    row: dict = {"winner": winner}
    # the game's winner certified by verify.py's checker (its strategy walked on the game)
    proof = strategy_proof(game, search=solved.search)
    row["game_certified"] = proof is not None and check_strategy(
        game, "first" if winner else "second", None if solved.move is None else game.move_name(solved.move), proof)[0]
    started = time.process_time()
    deadline = clock(limit, cpu)
    challenge = None
    try:
        result = qbf = None
        # edge geography: the arcs used up are the line digraph's vertices (2-cycles left out)
        drawn = g if variant == "vertex" else line_digraph(without_two_cycles(g), "0")
        try:
            p = planarize(drawn, drawn.headers.get("start", "0"), deadline)
            result, start, row["route"] = p.graph, p.start, "planar" if p.planar_input else "drawing"
        except UnsafeCrossing:
            pass
        if result is None and strategy:
            try:  # the winner's strategy written out (the game solved first; asked for)
                began = time.process_time()
                u = strategy_unfold(make_instance(g, "0", variant), deadline, AUTO_UNFOLDED)
                row["route_seconds"] = time.process_time() - began
                result, start, row["route"] = u.graph, "p", "strategy"
                row["shared"] = u.shared
            except InputError:
                pass
        if result is None:
            try:
                u = unfold(make_instance(g, "0", variant), deadline, AUTO_UNFOLDED)
                result, start, row["route"] = u.graph, "p", "unfold"
                row["shared"] = getattr(u, "shared", False)  # the positions' DAG drawn in rows
            except InputError:
                pass
        if result is None:
            try:  # the challenged game (every illegal move challenged at once; polynomial)
                challenge = planar_challenged(make_instance(g, "0", variant), deadline)
                result = challenge[1].game.graph
                start, row["route"] = result.headers["start"], "challenge"
                row["crossings"] = challenge[1].crossing_count
            except InputError:
                pass
        if result is None:
            route = planarize_via_qbf(g, "0", variant, True, deadline)
            result, start, qbf, row["route"] = route.graph, "in1", route.qbf, "qbf"
    except LimitReached:
        row["route"] = "timeout"
    except InputError:
        row["route"] = "refused"
    row["seconds"] = time.process_time() - started
    if row["route"] in ("timeout", "refused"):
        return row
    row["vertices"], row["arcs"] = len(result), result.arc_count
    if qbf is not None:
        try:
            row["truth"] = qbf_value(qbf.blocks, qbf.clauses, clock(check_limit, cpu)) == winner
        except LimitReached:
            row["truth"] = None
    row["checked"] = None  # beyond CHECKED vertices the native search's table outgrows memory
    if challenge is not None:
        # the game's strategy carried over to the result and walked there over every reply
        # of the loser (the same certificate as `planarize --route challenge --check`)
        try:
            said = certified_on_result("game", *challenge, clock(check_limit, cpu))
            ok = not said["result"].startswith("not certified")
            row["checked"] = (said["result"].split(":", 1)[0] == ("first" if winner else "second")) if ok else None
            row["certified"] = bool(ok and row["checked"] and row["game_certified"])
        except LimitReached:
            pass
    elif len(result) <= CHECKED:
        try:
            planar = make_instance(result, start)
            solved = solve_game(planar, clock(check_limit, cpu), line=False)
            row["checked"] = solved.first_wins == winner
            # and by verify.py's checker, walking the result's real positions
            proof = strategy_proof(planar, clock(check_limit, cpu), search=solved.search)
            if proof is not None:
                answer = "first" if solved.first_wins else "second"
                move = None if solved.move is None else planar.move_name(solved.move)
                row["certified"] = (check_strategy(planar, answer, move, proof)[0] and row["checked"]
                                    and row["game_certified"])
        except LimitReached:
            pass
    elif row["route"] == "strategy":
        # too large for the native search, but the result is the winner's strategy itself:
        # the function checker of verify.py walks it on the result (one arc out of each of
        # the winner's positions, the punishing replies in the gadgets between rows)
        planar = make_instance(result, start)
        lifted = lift_gadgets(planar, gadget_vertices(result, "X"), None)
        try:
            ok = check_strategy_function(planar, "first" if winner else "second", lifted,
                                         deadline=clock(check_limit, cpu))[0]
            row["checked"] = ok
            row["certified"] = ok and row["game_certified"]
        except (LimitReached, Unconfirmed):
            pass
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[6, 7, 8, 9, 10])
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--degree", type=float, default=2.0, help="mean out-degree")
    parser.add_argument("--limit", type=float, default=20.0, help="seconds to planarize one game")
    parser.add_argument("--check-limit", type=float, default=10.0, help="seconds to solve a result")
    parser.add_argument("--seed", type=int, default=43)
    parser.add_argument("--cpu", action="store_true", help="--limit and --check-limit in CPU seconds, not wall")
    parser.add_argument("--complete", action="store_true", help="the complete digraph on n vertices instead")
    parser.add_argument("--tournament", action="store_true", help="random tournaments instead (each pair one way)")
    parser.add_argument("--strategy", action="store_true",
                        help="after the drawing, the winner's strategy written out (--route strategy: no reduction)")
    parser.add_argument("--per-game", action="store_true", help="also a line per game (route, sizes, CPU, checks)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print("| n | variant | planarized (planar / drawing / strategy / unfolded [shared in rows] / challenged / QBF) | refused / out of time | "
          "vertices median (largest) | arcs median (largest) | CPU s median (largest) | "
          "winner checked on the result | certified on the result | QBF truth = winner |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    started = time.perf_counter(), time.process_time()
    for n in args.sizes:
        if args.complete:
            games = [[(u, v) for u in range(n) for v in range(n) if u != v]]
        elif args.tournament:
            games = [[(u, v) if rng.random() < 0.5 else (v, u) for u in range(n) for v in range(u + 1, n)]
                     for _ in range(args.count)]
        else:
            games = [random_digraph(rng, n, args.degree) for _ in range(args.count)]
        for variant in ("vertex", "edge"):
            rows = [one(arcs, n, variant, args.limit, args.check_limit, args.cpu, args.strategy) for arcs in games]
            for k, r in enumerate(rows if args.per_game else []):
                print(f"  game | {n} | {k} | {variant} | {'first' if r['winner'] else 'second'} | {r['route']} | "
                      f"{r.get('vertices', '-')} | {r.get('arcs', '-')} | {r['seconds']:.2f} | "
                      f"{r.get('route_seconds', 0):.2f} | {r.get('checked')} | {r.get('certified')} |", flush=True)
            done = [r for r in rows if "vertices" in r]
            routes = [r["route"] for r in rows]
            size = [r["vertices"] for r in done] or [0]
            arcs_ = [r["arcs"] for r in done] or [0]
            seconds = [r["seconds"] for r in rows]
            checked = [r["checked"] for r in done]
            truth = [r["truth"] for r in done if "truth" in r]
            if any(c is False for c in checked) or any(t is False for t in truth):
                print(f"WINNER CHANGED: {[(g, r) for g, r in zip(games, rows, strict=True) if r.get('checked') is False]}")
            print(f"| {n} | {variant} | {len(done)}/{len(rows)} ({routes.count('planar')} / "
                  f"{routes.count('drawing')} / {routes.count('strategy')} / {routes.count('unfold')} [{sum(1 for r in rows if r.get('shared'))}] / {routes.count('challenge')} / {routes.count('qbf')}) | {routes.count('refused')} / "
                  f"{routes.count('timeout')} | {statistics.median(size):,.0f} ({max(size):,}) | "
                  f"{statistics.median(arcs_):,.0f} ({max(arcs_):,}) | {statistics.median(seconds):.2f} "
                  f"({max(seconds):.2f}) | {checked.count(True)}/{len(done)} (unknown "
                  f"{checked.count(None)}) | {sum(1 for r in done if r.get('certified'))}/{len(done)} | "
                  f"{truth.count(True)}/{len(truth)} |", flush=True)

    print(f"\n{time.perf_counter() - started[0]:.0f} s wall, {time.process_time() - started[1]:.0f} s CPU "
          f"(--degree {args.degree}, --count {args.count}, --limit {args.limit}, --seed {args.seed}"
          f"{', --cpu' if args.cpu else ''}{', --complete' if args.complete else ''}{', --tournament' if args.tournament else ''})")


if __name__ == "__main__":
    main()
