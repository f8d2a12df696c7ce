"""What trusting a count costs: ASP counting projected, decoded and checked per solution.

Counts 2**k exact covers (k disjoint copies of a 6-element block with two covers) and
2**k Grundy functions and kernels (k disjoint 2-cycles) with the bundled encodings,
each run ``--repeat`` times (median of the wall-clock seconds). Run it on two trees to
compare (``cd OTHER_TREE && python BENCH/trust_counting.py``: it uses only
``solve(..., mode="count")``). With ``--cross-check`` it also times the issue's wrong
user encodings with their reference run (the current tree only).

    python benchmarks/trust_counting.py --k 13 --repeat 3 [--cross-check]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path


def timed(fn, repeat: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


def counting(k: int, repeat: int) -> None:
    from pyasp_games.domains.cover import solve
    from pyasp_games.domains.cover.model import X3C
    from pyasp_games.domains.grundy import solve as grundy
    from pyasp_games.domains.grundy.model import parse_graph

    subsets = []
    for i in range(k):
        b = 6 * i
        subsets += [(b, b + 1, b + 2), (b + 3, b + 4, b + 5), (b, b + 1, b + 3), (b + 2, b + 4, b + 5)]
    inst = X3C(6 * k, tuple(subsets))
    graph = parse_graph("".join(f"a{i} b{i}\nb{i} a{i}\n" for i in range(k)), name="cycles")
    print(f"| question (2^{k} = {2**k} solutions) | answer | median s |")
    print("|---|---:|---:|")
    for enc in ("x3c", "x3c-card"):
        s, out = timed(lambda e=enc: solve(inst, "asp", mode="count", encoding=e), repeat)
        print(f"| cover --count, {enc} | {out.answer} | {s:.2f} |")
    for find in ("grundy", "kernel"):
        s, out = timed(lambda f=find: grundy(graph, "asp", mode="count", find=f), repeat)
        print(f"| grundy {find} --count | {out.answer} | {s:.2f} |")


def cross_checks(repeat: int) -> None:
    from pyasp_games.domains.cover import solve as cover
    from pyasp_games.domains.cover.model import load_instance
    from pyasp_games.domains.grundy import solve as grundy
    from pyasp_games.domains.grundy.model import arc_text, parse_graph, random_arcs
    from pyasp_games.domains.puzzle import solve as puzzle
    from pyasp_games.domains.puzzle.model import load_boards
    from pyasp_games.engines.limits import Limits
    from pyasp_games.engines.resources import encoding_path, instance_dir

    folder = Path(tempfile.mkdtemp())
    files = {
        "no-cover": ":- element(E).\n#show chosen/1.\n",
        "junk": encoding_path("cover", "x3c").read_text() + "\n{ junk }.\n",
        "no-grundy": ":- vertex(V).\n",
        "no-plan": encoding_path("puzzle", "sliding").read_text()
        + "\n#program check(t).\n:- query(t).\n",
    }
    for name, text in files.items():
        (folder / f"{name}.lp").write_text(text)
    tiny = load_instance(instance_dir("cover") / "tiny-cover.txt")
    small = load_instance(instance_dir("cover") / "matching-small.txt")
    g60 = parse_graph(arc_text(random_arcs(60, 2, 0.0, 1, 4), 60), name="g60")
    board = load_boards(instance_dir("puzzle") / "thesis-board1.txt")[0]
    cases = [
        ("cover solve tiny-cover, no-cover.lp", lambda o: cover(tiny, "asp", encoding=o["e"])),
        ("cover --count matching-small, junk.lp", lambda o: cover(small, "asp", mode="count", encoding=o["j"])),
        ("grundy exists g60, no-grundy.lp", lambda o: grundy(g60, "asp", encoding=o["g"])),
        ("grundy kernel g60, no-grundy.lp", lambda o: grundy(g60, "asp", find="kernel", encoding=o["g"])),
        ("puzzle thesis-board1 --max-length 30, no-plan.lp", lambda o: puzzle(board, "asp", Limits(max_length=30), encoding=o["p"])),
    ]  # fmt: skip
    paths = {
        "e": str(folder / "no-cover.lp"),
        "j": str(folder / "junk.lp"),
        "g": str(folder / "no-grundy.lp"),
        "p": str(folder / "no-plan.lp"),
    }
    print("| case | status (answer) | reference | encoding s | reference s | total s |")
    print("|---|---|---|---:|---:|---:|")
    for label, run in cases:
        s, out = timed(lambda r=run: r(paths), repeat)
        st = out.stats
        print(
            f"| {label} | {out.status} ({out.answer}) | {st.get('reference')} "
            f"{st.get('cross_check')} | {out.seconds:.3f} | {st.get('reference_seconds', 0):.3f} "
            f"| {s:.3f} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, default=13)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cross-check", action="store_true")
    args = parser.parse_args()
    counting(args.k, args.repeat)
    if args.cross_check:
        print()
        cross_checks(args.repeat)


if __name__ == "__main__":
    main()
