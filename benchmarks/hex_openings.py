"""Every opening of an empty Hex board, one at a time under its own time limit: the
winner, the native search's nodes and the proof's size, the proof checked by
verify.py, wall and CPU seconds of the search and of the check.

    python benchmarks/hex_openings.py --board 5x5 --per-opening 60 [--cells c3,a1] [--out FILE.jsonl]
    python benchmarks/hex_openings.py --board 6x6 --per-opening-cpu 120 --cells c3

``--per-opening`` limits each opening's search in wall seconds, ``--per-opening-cpu`` in
CPU seconds of this process (the figure to read on a shared, loaded machine).
``--hsearch-bounds F,S,O`` sets H-search's bounds (full and semi connections kept per
pair, semis in one OR; at most 8, 24, 8); ``--strategies`` writes the connections as
strategies move by move instead of derivations (the proofs of before issue 46);
``--no-fill-in`` fills the dead cells only (no captured cells filled, no inferior moves
pruned: the search of before the fill-in).

Openings whose half-turn image was solved are not searched again: their proof is the
image's, turned here, and checked like the others (a check more than ``hex openings``
makes, whose checker tests that the turn is a symmetry and checks the one proof).
Prints one line per opening and the map.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import time
from typing import Any

from pyasp_games.domains.hex.model import PLAYERS, parse_position
from pyasp_games.domains.hex.native import Engine, rotated, solve_position
from pyasp_games.domains.hex.verify import check_proof
from pyasp_games.engines.limits import Deadline, LimitReached
from pyasp_games.errors import Unconfirmed


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def turned(proof: dict[str, Any], rename: dict[str, str]) -> dict[str, Any]:
    """``proof`` with every cell renamed by ``rename`` (the half-turn, which swaps each
    player's two sides: a derivation's side 0 becomes side 1)."""
    def point(p: Any) -> Any:
        return 1 - p if isinstance(p, int) else rename[p]

    def step(st: dict[str, Any]) -> dict[str, Any]:
        if "adj" in st:
            return {"adj": [point(p) for p in st["adj"]]}
        if "template" in st:
            return {"template": [point(p) for p in st["template"]], "carrier": [rename[c] for c in st["carrier"]]}
        return dict(st)

    nodes = []
    for node in proof["nodes"]:
        new: dict[str, Any] = {}
        if "dead" in node:
            new["dead"] = [rename[c] for c in node["dead"]]
            new["next"] = node["next"]
        if "fill" in node:
            new["fill"] = [[st[0], *(rename[c] for c in st[1:])] for st in node["fill"]]
            new["next"] = node["next"]
        if "inferior" in node:
            new["inferior"] = {rename[c]: rename[d] for c, d in node["inferior"].items()}
        if "connect" in node:
            new["connect"] = [step(st) for st in node["connect"]]
        if "move" in node:
            new["move"] = rename[node["move"]]
            new["next"] = node["next"]
        if "replies" in node:
            new["replies"] = {rename[c]: i for c, i in node["replies"].items()}
        if "pairs" in node:
            new["pairs"] = [[rename[x], rename[y]] for x, y in node["pairs"]]
        if "carrier" in node:
            new["carrier"] = [rename[c] for c in node["carrier"]]
            new["next"] = node["next"]
        if "won" in node:
            new["won"] = True
        nodes.append(new)
    return {**proof, "nodes": nodes}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--board", default="5x5")
    parser.add_argument("--per-opening", type=float, default=60.0)
    parser.add_argument("--per-opening-cpu", type=float, default=None)
    parser.add_argument("--cells", default="")
    parser.add_argument("--out", default="")
    parser.add_argument("--hsearch-bounds", default="")
    parser.add_argument("--strategies", action="store_true")
    parser.add_argument("--no-fill-in", action="store_true",
                        help="fill the dead cells only: no captured cells, no inferior moves pruned")
    args = parser.parse_args()
    game = parse_position(args.board)
    wanted = [c for c in args.cells.split(",") if c] or list(game.cells)
    rows, answer, proofs = [], {}, {}
    each = f"{args.per_opening_cpu:g} s of CPU" if args.per_opening_cpu else f"{args.per_opening:g} s"
    print(f"{args.board}: {len(wanted)} openings, {each} each; load {os.getloadavg()[0]:.1f}")
    for name in wanted:
        cell = game.index[name]
        image = game.cells[rotated(game, cell)]
        opened = game.play(cell)
        wall, cpu0 = time.perf_counter(), cpu()
        if image in proofs:
            rename = {game.cells[c]: game.cells[rotated(game, c)] for c in range(len(game))}
            proof, winner, nodes, status = turned(proofs[image], rename), answer[image], 0, "image"
        else:
            limit = Deadline(None, args.per_opening_cpu) if args.per_opening_cpu else Deadline(args.per_opening)
            engine = Engine(opened, limit, derive=not args.strategies, captured=not args.no_fill_in)
            if args.hsearch_bounds:
                engine.compile_now()
                sweeper = engine.links.sweeper
                sweeper.hs_fulls, sweeper.hs_semis, sweeper.hs_ors = map(int, args.hsearch_bounds.split(","))
            try:
                result = solve_position(opened, engine=engine)
            except LimitReached:
                row = {"opening": name, "status": "unknown", "nodes": engine.nodes,
                       "wall": round(time.perf_counter() - wall, 2), "cpu": round(cpu() - cpu0, 2)}
                rows.append(row)
                print(json.dumps(row), flush=True)
                continue
            proof, winner, nodes, status = result.proof, PLAYERS[result.winner], result.stats["nodes"], "solved"
        search_wall, search_cpu = time.perf_counter() - wall, cpu() - cpu0
        wall, cpu0 = time.perf_counter(), cpu()
        try:
            ok, message = check_proof(opened, winner, proof)
        except Unconfirmed as beyond:  # a proof beyond the checker's budget: not counted
            ok, message, status = None, str(beyond), "unconfirmed"
        row = {"opening": name, "status": status, "winner": winner, "nodes": nodes,
               "proof_nodes": len(proof["nodes"]), "verified": ok, "check": message,
               "wall": round(search_wall, 2), "cpu": round(search_cpu, 2),
               "check_wall": round(time.perf_counter() - wall, 2), "check_cpu": round(cpu() - cpu0, 2)}
        rows.append(row)
        print(json.dumps(row), flush=True)
        if ok:
            answer[name], proofs[name] = winner, proof
    if args.out:
        with open(args.out, "w") as out:
            for row in rows:
                out.write(json.dumps(row) + "\n")
    print(f"solved and verified: {len(answer)} of {len(wanted)}; "
          f"search {sum(r['wall'] for r in rows):.1f} s wall, {sum(r['cpu'] for r in rows):.1f} s CPU; "
          f"checks {sum(r.get('check_wall', 0) for r in rows):.1f} s wall, "
          f"{sum(r.get('check_cpu', 0) for r in rows):.1f} s CPU; load {os.getloadavg()[0]:.1f}")
    for r in range(game.rows):
        cells = game.cells[r * game.cols: (r + 1) * game.cols]
        print(" " * r + " ".join(answer.get(c, "?")[0].upper() if c in answer else "?" for c in cells))


if __name__ == "__main__":
    main()
