"""Zero-sum games exactly: random matrix games, Kuhn and Leduc poker, and peers side by side.

Ours: ``pyasp_games.domains.zerosum.solve`` (the backend, then the independent exact certificate
check every answer gets; the time includes both). Random ``n x n`` games with integer
entries in [-100, 100] (``random_matrix(n, n, seed=s)``) by ``lp`` (HiGHS made exact);
Kuhn poker by ``simplex`` (the 64 x 64 normal form) and by ``lp`` (sequence form); Leduc
hold'em by ``lp`` (sequence form). The floating-point price: ``highs``, scipy's HiGHS
alone on the same matrix (``linprog``, dense, the payoffs as doubles built before the
clock starts): what ``lp`` pays on top of it is the exact answer and its check. Peers
where installed (benchmark-only, the ``bench`` extra): ``nashpy`` (floating point, support enumeration is hopeless at 200: its
``linear_program`` method), ``pygambit`` (``gbt.nash.lp_solve`` with ``rational=True``,
exact; on trees its sequence-form LP), ``open_spiel`` (``sequence_form_lp``, through cvxpy
and ECOS). Each run is
in a forked child killed at ``--time-limit``, timed in CPU seconds (``time.process_time``
in the child: the machine is shared) beside wall seconds; values must agree with ours
(exactly for exact peers, to 1e-6 for floating ones).

    python benchmarks/zerosum_exact.py --sizes 50 100 200 --count 5 --time-limit 60
    python benchmarks/zerosum_exact.py --sizes 50 100 200 300 400 --count 5 --peers highs --no-trees --repeat 3
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import time
from fractions import Fraction
from typing import Any


def make_game(kind: str, param: int, k: int) -> Any:
    """Repetition ``k`` of a family: random matrix games get seed ``k``."""
    from pyasp_games.domains.zerosum.model import random_matrix
    from pyasp_games.domains.zerosum.poker import kuhn_poker, leduc_poker

    if kind == "matrix":
        return random_matrix(param, param, seed=k)
    return kuhn_poker(param) if kind == "kuhn" else leduc_poker()


def ours(kind: str, param: int, k: int, backend: str) -> tuple[Any, bool]:
    from pyasp_games.domains.zerosum import solve

    game = make_game(kind, param, k)
    start = time.process_time()  # the answer and its check: the game is built
    out = solve(game, backend)
    _spent["cpu"] = time.process_time() - start
    return out.answer, out.verdict.verified is True


def highs_value(kind: str, param: int, k: int) -> tuple[Any, bool]:
    import numpy as np
    from scipy.optimize import linprog

    game = make_game(kind, param, k)
    A = np.array([[float(a) for a in row] for row in game.matrix])
    m, n = A.shape
    start = time.process_time()  # the solve only: the matrix is built
    c = np.zeros(m + 1)
    c[m] = -1.0
    a_ub = np.empty((n, m + 1))
    a_ub[:, :m], a_ub[:, m] = -A.T, 1.0
    a_eq = np.ones((1, m + 1))
    a_eq[0, m] = 0.0
    result = linprog(c, A_ub=a_ub, b_ub=np.zeros(n), A_eq=a_eq, b_eq=[1.0],
                     bounds=[(0, None)] * m + [(None, None)], method="highs")
    _spent["cpu"] = time.process_time() - start
    return -result.fun, False


#: CPU seconds a peer reports for its solve alone (set in the child), else the call's.
_spent: dict[str, float] = {}


def nashpy_value(kind: str, param: int, k: int) -> tuple[Any, bool]:
    import nashpy
    import numpy as np

    game = make_game(kind, param, k)
    A = np.array([[float(a) for a in row] for row in game.matrix])
    x, y = nashpy.Game(A).linear_program()
    return float(x @ A @ y), False


def gambit_value(kind: str, param: int, k: int) -> tuple[Any, bool]:
    import pygambit as gbt

    if kind == "matrix":
        game = make_game(kind, param, k)
        A = [[int(a) for a in row] for row in game.matrix]
        g = gbt.Game.from_arrays(A, [[-a for a in row] for row in A])
        result = gbt.nash.lp_solve(g, rational=True)
        eq = result.equilibria[0]
        return Fraction(str(eq.payoff(next(iter(g.players))))), False
    tree = _gambit_tree(make_game(kind, param, k))
    result = gbt.nash.lp_solve(tree, rational=True)
    return Fraction(str(result.equilibria[0].payoff(next(iter(tree.players))))), False


def _gambit_tree(game: Any) -> Any:
    """Our tree rebuilt in pygambit (same infosets, chance probabilities, payoffs)."""
    import pygambit as gbt

    g = gbt.Game.new_tree(players=["1", "2"])
    infosets: dict[tuple[int, str], Any] = {}

    def build(k: int, node: Any) -> None:
        n = game.nodes[k]
        if n.kind == "leaf":
            g.set_outcome(node, g.add_outcome(f"leaf{k}", [n.payoff, -n.payoff]))
            return
        actions = [a for a, _, _ in n.children]
        if n.kind == "chance":
            g.append_move(node, g.players.chance, actions)
            g.set_chance_probs(node.infoset, [p for _, p, _ in n.children])
        else:
            key = (n.player, n.infoset)
            if key in infosets:
                g.append_infoset(node, infosets[key])
            else:
                g.append_move(node, list(g.players)[n.player - 1], actions)
                infosets[key] = node.infoset
        for child, (_, _, c) in zip(node.children, n.children, strict=True):
            build(c, child)

    build(0, g.root)
    return g


def openspiel_value(kind: str, param: int, k: int) -> tuple[Any, bool]:
    import pyspiel
    from open_spiel.python.algorithms import sequence_form_lp

    game = pyspiel.load_game("kuhn_poker" if kind == "kuhn" else "leduc_poker")
    v1, _, _, _ = sequence_form_lp.solve_zero_sum_game(game)
    return float(v1), False


PEERS = {"highs": highs_value, "nashpy": nashpy_value, "pygambit": gambit_value,
         "open_spiel": openspiel_value}


def _child(conn: Any, fn: Any, args: tuple) -> None:
    start, cpu = time.perf_counter(), time.process_time()
    try:
        value, verified = fn(*args)
        spent = _spent.get("cpu", time.process_time() - cpu)
        conn.send(("ok", str(value), verified, spent, time.perf_counter() - start))
    except Exception as err:
        spent = time.process_time() - cpu
        conn.send(("error", f"{type(err).__name__}: {err}", False, spent, time.perf_counter() - start))


def timed(fn: Any, args: tuple, limit: float) -> tuple[str, str, bool, float, float]:
    """``(status, value, verified, CPU seconds, wall seconds)`` of ``fn(*args)`` in a child."""
    ctx = multiprocessing.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(send, fn, args), daemon=True)
    proc.start()
    try:
        if receive.poll(limit):
            return receive.recv()
        return ("timeout", "", False, limit, limit)
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()


def agree(ours_value: str, theirs: str, peer: str) -> bool:
    """Exact peers must give the same rational; floating ones must be within 1e-6."""
    if peer == "pygambit":
        return Fraction(ours_value) == Fraction(theirs)
    return abs(float(Fraction(ours_value)) - float(theirs)) < 1e-6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[50, 100, 200])
    parser.add_argument("--count", type=int, default=5)
    parser.add_argument("--time-limit", type=float, default=60)
    parser.add_argument("--peers", nargs="*", default=list(PEERS))
    parser.add_argument("--no-trees", action="store_true", help="Matrix games only (no poker).")
    parser.add_argument("--repeat", type=int, default=1,
                        help="Runs of ours and of highs per game, the least CPU kept (a loaded "
                        "machine's noise is one-sided)")
    args = parser.parse_args()
    ours("kuhn", 2, 0, "lp")  # warm the imports (scipy, flint) before forking the runs
    ours("matrix", 20, 0, "lp")
    jobs: list[tuple[str, int, str]] = [("matrix", n, "lp") for n in args.sizes]
    if not args.no_trees:
        jobs += [("kuhn", 3, "simplex"), ("kuhn", 3, "lp"), ("leduc", 0, "lp")]
    for kind, param, backend in jobs:
        times: list[float] = []
        walls: list[float] = []
        peer_times: dict[str, list[float]] = {p: [] for p in args.peers}
        ratios: list[float] = []
        notes: set[str] = set()
        for k in range(args.count if kind == "matrix" else 1):
            runs = [timed(ours, (kind, param, k, backend), args.time_limit) for _ in range(args.repeat)]
            status, value, verified, secs, wall = min(runs, key=lambda r: r[3])
            times.append(secs if status == "ok" else float("inf"))
            walls.append(wall)
            if status != "ok" or not verified:
                notes.add(f"ours {status} {value[:60]}")
            for peer in args.peers:
                if peer == "nashpy" and kind != "matrix":
                    continue  # nashpy: matrix games only
                if peer == "open_spiel" and kind == "matrix":
                    continue  # open_spiel: its own kuhn_poker and leduc_poker
                if backend == "simplex":
                    continue  # peers once per game: beside our lp row
                if peer == "highs" and kind != "matrix":
                    continue  # the floating price of matrix games
                tries = 1 if peer != "highs" else args.repeat
                st, pv, _, ps, _ = min((timed(PEERS[peer], (kind, param, k), args.time_limit)
                                        for _ in range(tries)), key=lambda r: r[3])
                peer_times[peer].append(ps if st == "ok" else float("inf"))
                if peer == "highs" and st == "ok":
                    ratios.append(times[-1] / ps)
                if st != "ok":
                    notes.add(f"{peer} {st} {pv[:60]}")
                elif status == "ok" and not agree(value, pv, peer):
                    notes.add(f"{peer} DISAGREES: {pv} vs {value}")
        label = f"{kind} {param}x{param}" if kind == "matrix" else f"{kind}"
        line: dict[str, Any] = {"game": label, "ours": backend,
                                "median_cpu_s": round(statistics.median(times), 4),
                                "max_cpu_s": round(max(times), 4),
                                "median_wall_s": round(statistics.median(walls), 4)}
        for peer, ts in peer_times.items():
            if ts:
                line[f"{peer}_cpu_s"] = round(statistics.median(ts), 4)
        if ratios:  # ours / HiGHS per game, CPU
            line["ratio_median"] = round(statistics.median(ratios), 2)
            line["ratio_max"] = round(max(ratios), 2)
        line["notes"] = "; ".join(sorted(notes)) or "all ours verified; peers agree"
        print(line, flush=True)


if __name__ == "__main__":
    main()
