"""The report of a campaign of Hex openings: the map, each opening's CPU, and the map
compared cell by cell with a published one (issue 46).

The campaign itself is a bench suite (``benchmarks/suites/hex-7x7-openings.toml``: one
verified ``hex solve`` per opening of half the board, resumable, on the local pool or
Dask); this reads its results directory:

    nice -n 19 pyasp-games bench run benchmarks/suites/hex-7x7-openings.toml \\
        --out benchmarks/results/hex-7x7-openings --workers 2
    nice -n 19 pyasp-games bench run benchmarks/suites/hex-7x7-openings.toml \\
        --out benchmarks/results/hex-7x7-openings --resume --retry-unknown --cpu-limit 1200
    python benchmarks/hex_campaign.py benchmarks/results/hex-7x7-openings

It writes ``campaign.md`` and ``campaign.json`` into the directory (or ``--markdown``,
``--json``), prints the Markdown, and exits 1 if a cell disagrees with the published map.
The published map is ``--published FILE`` (default for 7 x 7:
``instances/hex/hayward-7x7-map.txt``, Hayward et al.'s map with its sources).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from pyasp_games.errors import InputError
from pyasp_games.tools.bench.hex_openings import read_map, report

HAYWARD_7X7 = Path(__file__).resolve().parent.parent / "instances" / "hex" / "hayward-7x7-map.txt"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", type=Path, help="the campaign's bench results directory")
    parser.add_argument("--published", type=Path, help="a published map (rows of B, W, ?)")
    parser.add_argument(
        "--markdown", type=Path, help="where to write the Markdown (default: RESULTS/campaign.md)"
    )
    parser.add_argument(
        "--json", type=Path, help="where to write the summary (default: RESULTS/campaign.json)"
    )
    args = parser.parse_args(argv)
    try:
        published = read_map(args.published) if args.published else None
        text, summary = report(args.results, published)
        if published is None and summary["size"] == 7:
            published = read_map(HAYWARD_7X7)
            text, summary = report(args.results, published)
    except InputError as err:
        print(f"hex_campaign: {err}", file=sys.stderr)
        return 2
    (args.markdown or args.results / "campaign.md").write_text(text)
    (args.json or args.results / "campaign.json").write_text(json.dumps(summary, indent=1) + "\n")
    print(text, end="")
    counts = summary.get("comparison", {}).get("counts", {})
    return 1 if counts.get("DISAGREE") else 0


if __name__ == "__main__":
    sys.exit(main())
