"""Node Kayles: the size of the native backend's certificate (its table of K-set values)
as JSON, in the format it writes and in the earlier one (8-byte steps, zlib, base 64),
with the CPU seconds of writing and of reading each.

The table comes from one native search per graph (``random_graph(seed, n, degree)``);
both forms are written from it by this script (the earlier one as ``encode_k_set_table``
wrote it before), read back by the checker's ``decode_table`` and compared entry by
entry; ``--presets`` also writes the current form at other xz presets.

    python benchmarks/kayles_certificate_size.py --graph 40 4 0 --graph 50 3 1 --graph 50 3 0
"""

from __future__ import annotations

import argparse
import base64
import json
import time
import zlib

import numpy as np

from pyasp_games.domains.kayles import model
from pyasp_games.domains.kayles.k_set_check import decode_table
from pyasp_games.domains.kayles.native import solve_native
from pyasp_games.engines.limits import Limits


def earlier(sets: np.ndarray, values: np.ndarray) -> dict:
    """The certificate as ``encode_k_set_table`` wrote it before (``model.K_SET_FORMAT``)."""
    steps = np.diff(sets.astype(np.uint64), prepend=np.uint64(0)).astype("<u8")

    def packed(raw: bytes) -> str:
        return base64.b64encode(zlib.compress(raw, 6)).decode("ascii")

    return {"format": model.K_SET_FORMAT, "count": len(sets), "sets": packed(steps.tobytes()),
            "values": packed(values.astype(np.uint8).tobytes())}  # fmt: skip


def timed(work, *args):
    """``work(*args)`` and the CPU seconds it took."""
    started = time.process_time()
    out = work(*args)
    return out, time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--graph", nargs=3, action="append", metavar=("N", "DEGREE", "SEED"),
                        required=True, help="a random graph: vertices, average degree, seed")
    parser.add_argument("--presets", nargs="*", type=int, default=[6], help="other xz presets")
    args = parser.parse_args()
    print("| graph | sets | search CPU s | earlier form bytes | write s | read s | this form bytes "
          "| write s | read s | ratio |" + "".join(f" preset {p} bytes | write s |" for p in args.presets))
    print("|---" * (10 + 2 * len(args.presets)) + "|")
    for n, degree, seed in args.graph:
        graph = model.random_graph(int(seed), int(n), float(degree))
        claim, search = timed(solve_native, graph, Limits(time_limit=3600))
        sets, values = decode_table(claim.certificate, len(graph))
        old, old_write = timed(earlier, sets, values)
        new, new_write = timed(model.encode_k_set_table, sets, values)
        (old_sets, _), old_read = timed(decode_table, old, len(graph))
        (new_sets, _), new_read = timed(decode_table, new, len(graph))
        assert old_sets.tolist() == new_sets.tolist() == sets.tolist()
        old_bytes, new_bytes = len(json.dumps(old)), len(json.dumps(new))
        row = (f"| {graph.name} | {len(sets):,} | {search:.2f} | {old_bytes:,} | {old_write:.2f} | "
               f"{old_read:.2f} | {new_bytes:,} | {new_write:.2f} | {new_read:.2f} | "
               f"{new_bytes / old_bytes:.2f} |")
        keep = model.XZ_PRESET
        for preset in args.presets:
            model.XZ_PRESET = preset
            other, write = timed(model.encode_k_set_table, sets, values)
            row += f" {len(json.dumps(other)):,} | {write:.2f} |"
        model.XZ_PRESET = keep
        print(row, flush=True)


if __name__ == "__main__":
    main()
