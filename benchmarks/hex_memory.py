"""Where a Hex opening's memory goes: the native search, the proof's writing and its
check, each phase's resident memory sampled in time, and the proof's nodes by kind.

    python benchmarks/hex_memory.py a4 3000                 # the 7 x 7 board after Black's a4
    python benchmarks/hex_memory.py c4 300 --memory 4096 --every 10

Every ``--every`` seconds of wall time a line: the phase (search, proof, check), CPU
seconds, resident memory (MB), positions searched and settled. After the proof is
written: its nodes by kind with their JSON size (what the kinds cost, proportionally),
then the check (:func:`~pyasp_games.domains.hex.verify.check_proof`). ``--memory`` caps
the process's address space (MB; 8192, the tool's default cap): beyond it the phase
that ran out is named.
"""

from __future__ import annotations

import argparse
import collections
import json
import resource
import threading
import time

from pyasp_games.domains.hex.connections import warm_up
from pyasp_games.domains.hex.model import PLAYERS, opening
from pyasp_games.domains.hex.native import Engine, _stones, solve_position
from pyasp_games.domains.hex.verify import check_proof
from pyasp_games.engines.limits import Deadline, LimitReached

KINDS = ("move", "replies", "pairs", "won", "connect", "carrier", "fill", "dead")


def rss() -> float:
    """This process's resident memory, MB."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) / 1024
    return 0.0


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cell", help="Black's opening cell, e.g. a4")
    parser.add_argument("cpu", type=float, help="CPU seconds before the search is stopped")
    parser.add_argument("--size", type=int, default=7)
    parser.add_argument("--memory", type=float, default=8192, help="address space cap, MB")
    parser.add_argument("--every", type=float, default=20, help="wall seconds between samples")
    args = parser.parse_args()
    cap = int(args.memory * 2**20)
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    game = opening(size=args.size, cell=args.cell)
    engine = Engine(game, Deadline(None, cpu_seconds=args.cpu))
    engine.compile_now()
    warm_up()
    phase = ["search"]
    start = time.time()
    done = threading.Event()

    def sample() -> None:
        while not done.wait(args.every):
            print(f"  [{phase[0]}] wall {time.time() - start:7.0f} s, CPU {cpu():7.1f} s, {rss():7.0f} MB, "
                  f"positions {engine.nodes:,}, settled {len(engine.table):,}", flush=True)

    threading.Thread(target=sample, daemon=True).start()
    black, white = _stones(game)
    try:
        at = cpu()
        engine.prove(black, white, game.to_move)
        print(f"search: {cpu() - at:.1f} s CPU, {rss():.0f} MB, {engine.nodes:,} positions", flush=True)
        phase[0], at = "proof", cpu()
        result = solve_position(game, engine=engine)
        nodes = result.proof["nodes"]
        print(f"proof: {cpu() - at:.1f} s CPU, {rss():.0f} MB, {len(nodes):,} nodes", flush=True)
        count: collections.Counter[str] = collections.Counter()
        size: collections.Counter[str] = collections.Counter()
        for node in nodes:
            kind = next(k for k in KINDS if k in node)
            count[kind] += 1
            size[kind] += len(json.dumps(node))
        for kind in count:
            print(f"  {kind:8} {count[kind]:10,} nodes {size[kind]:14,} JSON characters")
        phase[0], at = "check", cpu()
        print(check_proof(game, PLAYERS[result.winner], result.proof))
        print(f"check: {cpu() - at:.1f} s CPU, {rss():.0f} MB", flush=True)
    except LimitReached:
        print(f"stopped by the CPU cap in the {phase[0]}: {engine.nodes:,} positions, {rss():.0f} MB")
    except MemoryError:
        print(f"out of memory in the {phase[0]}: {engine.nodes:,} positions")
    done.set()
    print(f"peak {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB, {cpu():.1f} s CPU")


if __name__ == "__main__":
    main()
