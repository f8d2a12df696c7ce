"""The polynomial backend of Annihilation (``--poly``) and the linear construction first
tried for it, each against the exhaustive backend (docs/annihilation.md, "The
polynomial algorithm").

``--poly`` answers every position (every digraph on at most ``--small`` vertices with
every token placement, then ``--random`` random digraphs on ``--sizes`` vertices with 6
random placements each) with the shipped ``poly`` backend, which builds the linear space
of lost positions one proved position at a time until none is left outside it
(pyasp_games/domains/annihilation/poly.py), and with ``native``; it counts agreements by
answer, how many poly answers its checker verified (certificate and rules), and lists
the disagreements. ``--all-placements COUNT`` labels every position of COUNT random
digraphs by retrograde analysis and compares each with the backend's complete span.

The construction first tried (the default mode): the generalized Sprague-Grundy function of the auxiliary digraph of
the positions with at most two tokens (the grundy domain's ``generalized_grundy``); the
span over GF(2) of its finite-valued positions, the values extended linearly (checked
consistent); a position in the span has the extended value, one outside it is ``first``
if a move reaches a value-0 vector of the span, else ``draw``. It is not shipped as a
backend: this script shows where it disagrees with exhaustive search.

Run from the repository root:

    python benchmarks/annihilation_linear.py --structure 4 --small 4 --random 600

prints first, for every digraph on at most ``--structure`` vertices, whether the
finite-valued positions of its whole game graph form a subspace with the value linear
on it, and how many tokens its generators need; then, for every digraph on at most ``--small`` vertices with every token placement
and then for ``--random`` random digraphs of 6 to 8 vertices with 6 random placements
each, how many positions were compared, how many disagree (by pair of answers) and
the first disagreements found. It is not shipped: it misses lost positions that need
more than two tokens (instances/annihilation/fan3.txt).

    python benchmarks/annihilation_linear.py --poly --small 4 --random 600
    python benchmarks/annihilation_linear.py --poly --small 0 --random 400 --sizes 10,11,12
    python benchmarks/annihilation_linear.py --poly --all-placements 300 --sizes 10,11,12
"""

from __future__ import annotations

import argparse
import collections
import random
import resource
import time

from pyasp_games.domains.annihilation.model import (
    Annihilation,
    numbered_instance,
    random_instance,
    small_instances,
)
from pyasp_games.domains.annihilation.native import solve_native
from pyasp_games.domains.grundy.generalized import generalized_grundy
from pyasp_games.engines.graphs import Digraph, small_digraphs


def linear_answer(inst: Annihilation) -> tuple[str, bool]:
    """The construction's answer, and whether its consistency checks failed."""
    n = len(inst)
    masks = [0] + [1 << u for u in range(n)]
    masks += [(1 << u) | (1 << v) for u in range(n) for v in range(u + 1, n)]
    index = {m: i for i, m in enumerate(masks)}
    succ = tuple(tuple(sorted({index[q] for _, _, q in inst.moves(m)})) for m in masks)
    values, _ = generalized_grundy(Digraph(tuple(map(str, masks)), succ, "pairs"))
    basis: dict[int, tuple[int, int]] = {}

    def reduce(vector: int, value: int) -> tuple[int, int]:
        while vector:
            top = basis.get(vector.bit_length() - 1)
            if top is None:
                break
            vector, value = vector ^ top[0], value ^ top[1]
        return vector, value

    inconsistent = False
    for m, g in zip(masks, values, strict=True):
        if isinstance(g, int):
            r, value = reduce(m, g)
            if r:
                basis[r.bit_length() - 1] = (r, value)
            elif value:
                inconsistent = True
    for m, g in zip(masks, values, strict=True):
        if not isinstance(g, int) and reduce(m, 0)[0] == 0:
            inconsistent = True
    r, value = reduce(inst.start, 0)
    if r == 0:
        return ("second" if value == 0 else "first"), inconsistent
    if any(reduce(q, 0) == (0, 0) for _, _, q in inst.moves(inst.start)):
        return "first", inconsistent
    return "draw", inconsistent


def structure(inst: Annihilation) -> tuple[bool, int]:
    """On the whole game graph (all 2^n positions): whether the finite-valued positions
    form a subspace with the value linear on it, and the largest number of tokens a
    generating set of it needs (greedy by weight: a minimum)."""
    n = len(inst)
    succ = tuple(tuple(sorted({q for _, _, q in inst.moves(m)})) for m in range(1 << n))
    values, _ = generalized_grundy(Digraph(tuple(map(str, range(1 << n))), succ, "all"))
    finite = {m: g for m, g in enumerate(values) if isinstance(g, int)}
    linear = all(finite.get(a ^ b) == finite[a] ^ finite[b] for a in finite for b in finite)
    basis: dict[int, int] = {}
    weight = 0
    for m in sorted(finite, key=lambda m: bin(m).count("1")):
        v = m
        while v and v.bit_length() - 1 in basis:
            v ^= basis[v.bit_length() - 1]
        if v:
            basis[v.bit_length() - 1] = v
            weight = max(weight, bin(m).count("1"))
    return linear, weight


def compare(instances, shown: list[str]) -> collections.Counter:
    counts: collections.Counter = collections.Counter()
    for inst in instances:
        truth = solve_native(inst).answer
        said, inconsistent = linear_answer(inst)
        counts["positions"] += 1
        counts["inconsistent"] += inconsistent
        if said != truth:
            counts[f"{truth} said {said}"] += 1
            if len(shown) < 5:
                arcs = " ".join(f"{inst.names[u]}{inst.names[v]}" for u, v in inst.graph.arcs())
                shown.append(f"arcs {arcs}; tokens {' '.join(inst.token_names)}: {truth}, said {said}")
    return counts


def random_positions(count: int, sizes: tuple[int, ...] = (6, 7, 8), first_seed: int = 0):
    for seed in range(first_seed, first_seed + count):
        rng = random.Random(seed)
        n, degree = rng.choice(sizes), rng.choice([1.0, 1.5, 2.0, 2.5])
        base = random_instance(n, seed, 0, degree, loops=rng.random() < 0.3)
        for _ in range(6):
            yield Annihilation(base.graph, rng.randrange(1 << n))


def poly_check(small: int, random_count: int, sizes: tuple[int, ...]) -> None:
    """The shipped ``poly`` backend against exhaustive search on every position, with
    its answer verified (certificate, and the rules)."""
    from pyasp_games.domains.annihilation import solve

    wall, cpu = time.perf_counter(), time.process_time()
    counts: collections.Counter = collections.Counter()
    shown: list[str] = []
    instances = [*small_instances(small)] if small else []
    for inst in [*instances, *random_positions(random_count, sizes)]:
        out = solve(inst, "poly")
        said = out.answer
        truth = solve_native(inst).answer
        counts["positions"] += 1
        if said == truth:
            counts[f"agree {truth}"] += 1
        else:
            counts[f"DISAGREE: {truth} said {said}"] += 1
            if len(shown) < 5:
                arcs = " ".join(f"{inst.names[u]}{inst.names[v]}" for u, v in inst.graph.arcs())
                shown.append(f"arcs {arcs}; tokens {' '.join(inst.token_names)}: {truth}, said {said}")
        counts[f"verified {out.verdict.verified}"] += 1
    print(f"poly against native: {dict(counts)}"
          f" ({time.perf_counter() - wall:.1f} s wall, {time.process_time() - cpu:.1f} s CPU)")
    for line in shown:
        print("  ", line)


def whole_graphs(count: int, sizes: tuple[int, ...], first: int = 0) -> None:
    """Every token placement (all ``2^n`` positions) of ``count`` random digraphs: the
    whole game graph labelled once by retrograde analysis against one ``poly`` closure
    (its span of lost positions) per digraph."""
    from pyasp_games.domains.annihilation import poly
    from pyasp_games.domains.annihilation.positions import PositionGraph, labels

    wall, cpu = time.perf_counter(), time.process_time()
    counts: collections.Counter = collections.Counter()
    shown: list[str] = []
    for seed in range(first, first + count):
        rng = random.Random(seed)
        n, degree = rng.choice(sizes), rng.choice([1.0, 1.2, 1.5, 2.0, 2.5, 3.0])
        inst = random_instance(n, seed, 0, degree, loops=rng.random() < 0.3)
        game = PositionGraph(list(range(1 << n)), [[((u, v), q) for u, v, q in inst.moves(p)]
                                                    for p in range(1 << n)])  # fmt: skip
        truth = labels(game)
        closure = poly.build_closure(inst)
        counts["complete"] += closure.complete
        counts["SAT refutations"] += closure.refuted
        wrong = 0
        for p in range(1 << n):
            said = "P" if closure.lost(p) else "N" if poly.decided(inst, closure, p) else "D"
            counts[f"{truth[p]} said {said}"] += 1
            wrong += said != truth[p]
        counts["digraphs"] += 1
        counts["digraphs with a disagreement"] += wrong > 0
        if wrong and len(shown) < 5:
            arcs = " ".join(f"{inst.names[u]}{inst.names[v]}" for u, v in inst.graph.arcs())
            shown.append(f"seed {seed}, n {n}: arcs {arcs}: {wrong} positions")
    print(f"every placement on {count} random digraphs of {sizes} vertices (seeds {first}-{first + count - 1}) "
          f": {dict(sorted(counts.items()))}"
          f" ({time.perf_counter() - wall:.1f} s wall, {time.process_time() - cpu:.1f} s CPU)")
    for line in shown:
        print("  ", line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", type=int, default=4)
    parser.add_argument("--random", type=int, default=600)
    parser.add_argument("--structure", type=int, default=4,
                        help="the whole game graph of every digraph on at most this many vertices")
    parser.add_argument("--poly", action="store_true",
                        help="the shipped poly backend against native on every position")
    parser.add_argument("--sizes", default="6,7,8", help="vertices of the random digraphs")
    parser.add_argument("--all-placements", type=int, default=0, metavar="COUNT",
                        help="with --poly: every placement on COUNT random digraphs of --sizes")
    parser.add_argument("--first-seed", type=int, default=0, help="with --all-placements")
    args = parser.parse_args()
    if args.poly and args.all_placements:
        sizes = tuple(int(x) for x in args.sizes.split(","))
        whole_graphs(args.all_placements, sizes, args.first_seed)
        return
    if args.poly:
        sizes = tuple(int(x) for x in args.sizes.split(","))
        poly_check(args.small, args.random, sizes)
        return
    wall = time.perf_counter()
    counts: collections.Counter = collections.Counter()
    for n, arcs in small_digraphs(args.structure):
        linear, weight = structure(numbered_instance(n, arcs, 0, "all"))
        counts[f"{'linear' if linear else 'NOT LINEAR'}, generators of {weight} tokens"] += 1
    print(f"finite positions of every digraph on at most {args.structure} vertices: {dict(counts)}"
          f" ({time.perf_counter() - wall:.1f} s wall)")
    for label, instances in (
        (f"every digraph on at most {args.small} vertices", small_instances(args.small)),
        (f"{args.random} random digraphs on 6-8 vertices", random_positions(args.random)),
    ):
        wall, cpu = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF).ru_utime
        shown: list[str] = []
        counts = compare(instances, shown)
        wall = time.perf_counter() - wall
        cpu = resource.getrusage(resource.RUSAGE_SELF).ru_utime - cpu
        print(f"{label}: {dict(counts)} ({wall:.1f} s wall, {cpu:.1f} s CPU)")
        for line in shown:
            print(f"  {line}")


if __name__ == "__main__":
    main()
