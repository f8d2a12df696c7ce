"""The map of a campaign of Hex openings, and its comparison with a published map.

A campaign is a bench suite of the generator ``opening`` (one verified ``hex solve`` per
opening: the board after Black's first stone there, White to move; e.g.
``benchmarks/suites/hex-7x7-openings.toml``). The half-turn about the centre maps the
rhombus and each player's two sides onto themselves, so an opening and its half-turn image
have the same winner: a suite may list only half the board, and :func:`campaign_map` gives
each cell either its own run or its image's. A published map is a text file
(:func:`parse_map`): ``B`` where Black's opening wins, ``W`` where it loses, ``?`` where the
source says nothing, one row a line as ``hex openings`` prints it. :func:`compare` sets the
two side by side cell by cell: ``agree``, ``DISAGREE`` or ``unsolved`` (no verified answer
of ours), or ``unsourced`` (the source does not say).

>>> published = parse_map('''
...     a b
...   1 W B
...    2 B W
... ''')
>>> published.size, published.winners["b1"]
(2, 'black')
>>> rows = [{"instance": "opening:cell=a1,size=2:s0", "size": {"size": 2, "cell": "a1", "seed": 0},
...          "backend": "native", "repeat": 0, "status": "solved", "answer": "white",
...          "verified": True, "cpu": 0.2, "stats": {"nodes": 1, "proof_nodes": 2}}]
>>> ours = campaign_map(rows, 2)
>>> ours["b2"].winner, ours["b2"].source
('white', 'image of a1')
>>> [(c.cell, c.verdict) for c in compare(ours, published)]
[('a1', 'agree'), ('b1', 'unsolved'), ('a2', 'unsolved'), ('b2', 'agree')]
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pyasp_games.domains.hex.model import MAX_SIDE, board
from pyasp_games.errors import InputError, read_text

#: The letters of a map file and the winner each stands for (``?``: not stated).
MAP_LETTERS = {"B": "black", "W": "white", "?": None}


@dataclass(frozen=True)
class PublishedMap:
    """A map of openings read from a file: the board's side and, for every cell, the
    winner after Black's opening there (``None`` where the source says nothing)."""

    size: int
    winners: dict[str, str | None]

    def sourced(self) -> list[str]:
        """The cells whose winner the source states, in board order."""
        return [c for c, w in self.winners.items() if w is not None]


@dataclass(frozen=True)
class Opening:
    """One cell of a campaign's map: who wins after Black's opening there, and what it cost.

    ``source`` is ``searched`` (the cell's own run) or ``image of CELL`` (its half-turn
    image's run); ``winner`` is ``None`` unless that run is solved and its proof verified.
    """

    cell: str
    winner: str | None
    status: str
    source: str
    verified: bool
    cpu: float | None = None
    cpu_all: float | None = None
    positions: int | None = None
    proof_nodes: int | None = None


@dataclass(frozen=True)
class Comparison:
    """A cell of the map set beside the published one."""

    cell: str
    ours: str | None
    published: str | None
    verdict: str


def parse_map(text: str, name: str = "map") -> PublishedMap:
    """Read a map of openings: ``#`` comments, an optional line of column letters, then one
    line per row, its number first, then one letter per cell (``B``, ``W`` or ``?``).

    Raises
    ------
    InputError
        Rows of different lengths, a board that is not square, rows out of order, a letter
        other than ``B``, ``W``, ``?``.
    """
    rows: list[list[str]] = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        tokens = line.split()
        if not tokens[0].isdigit():
            if all(re.fullmatch("[a-z]", t) for t in tokens):
                continue  # the line of column letters
            raise InputError(f"{name}:{number}: a row starts with its number, got {tokens[0]!r}")
        if int(tokens[0]) != len(rows) + 1:
            raise InputError(f"{name}:{number}: row {tokens[0]} where row {len(rows) + 1} was due")
        bad = [t for t in tokens[1:] if t.upper() not in MAP_LETTERS]
        if bad:
            raise InputError(f"{name}:{number}: {bad[0]!r} is not B, W or ?")
        rows.append([t.upper() for t in tokens[1:]])
    size = len(rows)
    if not 1 <= size <= MAX_SIDE or any(len(r) != size for r in rows):
        raise InputError(
            f"{name}: a map is a square board of 1 to {MAX_SIDE} rows of as many cells"
        )
    cells = board(size, size).cells
    letters = [t for r in rows for t in r]
    return PublishedMap(size, {c: MAP_LETTERS[t] for c, t in zip(cells, letters, strict=True)})


def read_map(path: Path | str) -> PublishedMap:
    """:func:`parse_map` of a file (e.g. ``instances/hex/hayward-7x7-map.txt``)."""
    return parse_map(read_text(Path(path)), str(path))


def half_turn_image(cell: str, size: int) -> str:
    """The cell a half turn about the centre of the ``size x size`` board maps ``cell`` to
    (row ``r``, column ``c`` to ``size - 1 - r``, ``size - 1 - c``).

    >>> half_turn_image("a1", 7), half_turn_image("d4", 7), half_turn_image("b1", 7)
    ('g7', 'd4', 'f7')
    """
    cells = board(size, size).cells
    return cells[len(cells) - 1 - cells.index(cell)]


def asymmetric_cells(winners: Mapping[str, str | None], size: int) -> list[str]:
    """The cells whose stated winner differs from their half-turn image's (a map that is
    right has none: the half turn is a symmetry of the game)."""
    return [
        c for c, w in winners.items()
        if w is not None and winners.get(half_turn_image(c, size)) not in (None, w)
    ]  # fmt: skip


def _cell_of(row: Mapping[str, Any]) -> str | None:
    size = row.get("size")
    return size.get("cell") if isinstance(size, dict) else None


def campaign_map(
    rows: Iterable[Mapping[str, Any]], size: int, history: Iterable[Mapping[str, Any]] = ()
) -> dict[str, Opening]:
    """Every cell of the ``size x size`` board from a campaign's rows (``read_rows``: the
    last row of each run), its own run's or its half-turn image's.

    ``history`` is every row the campaign wrote (superseded ones too: a run stopped by its
    CPU cap and retried), whose CPU is summed into :attr:`Opening.cpu_all`.
    """
    cells = board(size, size).cells
    spent: dict[str, float] = {}
    for row in history:
        cell = _cell_of(row)
        if cell is not None and isinstance(row.get("cpu"), int | float):
            spent[cell] = spent.get(cell, 0.0) + float(row["cpu"])
    own: dict[str, Opening] = {}
    for row in rows:
        cell = _cell_of(row)
        if cell not in cells or (row.get("size") or {}).get("size") != size:
            continue
        stats = row.get("stats") or {}
        verified = row.get("verified") is True
        solved = row.get("status") == "solved" and verified
        own[cell] = Opening(
            cell, row.get("answer") if solved else None, str(row.get("status")), "searched", verified,
            row.get("cpu"), spent.get(cell, row.get("cpu")), stats.get("nodes"), stats.get("proof_nodes"),
        )  # fmt: skip
    out: dict[str, Opening] = {}
    for cell in cells:
        if cell in own:
            out[cell] = own[cell]
            continue
        image = half_turn_image(cell, size)
        if image in own:
            o = own[image]
            out[cell] = Opening(cell, o.winner, o.status, f"image of {image}", o.verified)
        else:
            out[cell] = Opening(cell, None, "not run", "-", False)
    return out


def compare(ours: Mapping[str, Opening], published: PublishedMap) -> list[Comparison]:
    """Each cell of the board, in board order: ``agree``, ``DISAGREE``, ``unsolved`` (no
    verified answer of ours) or ``unsourced`` (the source states no winner)."""
    out = []
    for cell, theirs in published.winners.items():
        mine = ours[cell].winner if cell in ours else None
        if theirs is None:
            verdict = "unsourced"
        elif mine is None:
            verdict = "unsolved"
        else:
            verdict = "agree" if mine == theirs else "DISAGREE"
        out.append(Comparison(cell, mine, theirs, verdict))
    return out


def map_lines(winners: Mapping[str, str | None], size: int) -> list[str]:
    """The map as ``hex openings`` prints it (``B``, ``W``; ``?`` for a cell without a
    verified answer)."""
    from pyasp_games.domains.hex.questions import openings_map

    game = board(size, size)
    return openings_map(game, {c: w for c, w in winners.items() if w is not None})


def report(out: Path | str, published: PublishedMap | None = None) -> tuple[str, dict[str, Any]]:
    """The campaign in ``out`` (a bench results directory) as Markdown and as a JSON-able
    summary: the map, each opening's winner, status, CPU, positions and proof nodes, and
    (with ``published``) the cell-by-cell comparison.

    Raises
    ------
    InputError
        ``out`` holds no rows of the generator ``opening``, or boards of several sizes,
        or a published map of another size.
    """
    from pyasp_games.tools.bench.results import RESULTS, read_rows

    out = Path(out)
    rows = [r for r in read_rows(out) if _cell_of(r) is not None]
    if not rows:
        raise InputError(f"{out}: no run of the hex generator 'opening' in {out / RESULTS}")
    sizes = {r["size"].get("size") for r in rows}
    if len(sizes) != 1:
        raise InputError(f"{out}: openings of boards of several sizes: {sorted(sizes)}")
    size = int(sizes.pop())
    if published is not None and published.size != size:
        raise InputError(
            f"the published map is of {published.size} x {published.size}, the campaign of {size} x {size}"
        )
    history = []
    for line in (out / RESULTS).read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            history.append(json.loads(line))
        except json.JSONDecodeError:
            continue  # a line cut short by a kill
    ours = campaign_map(rows, size, [h for h in history if isinstance(h, dict)])
    winners = {c: o.winner for c, o in ours.items()}
    searched = [o for o in ours.values() if o.source == "searched"]
    settled = [o for o in searched if o.winner is not None]
    cpu_all = sum(o.cpu_all or 0.0 for o in searched)
    md = [
        f"## {size} x {size} openings: {len(settled)} of {len(searched)} searched settled, "
        f"{sum(w is not None for w in winners.values())} of {size * size} cells with a verified winner",
        "",
    ]
    md += ["```", *map_lines(winners, size), "```", ""]
    md += [
        "| opening | winner | status | verified | CPU s (last sitting) | CPU s (all sittings) | positions | proof nodes |",
        "|---|---|---|---|---:|---:|---:|---:|",
    ]
    for o in searched:
        md.append(
            f"| {o.cell} ({half_turn_image(o.cell, size)}) | {o.winner or '-'} | {o.status} | "
            f"{'yes' if o.verified else 'no'} | {_num(o.cpu)} | {_num(o.cpu_all)} | "
            f"{_num(o.positions)} | {_num(o.proof_nodes)} |"
        )
    md += ["", f"CPU of every run, every sitting: {cpu_all:,.1f} s."]
    summary: dict[str, Any] = {
        "size": size,
        "map": winners,
        "openings": [o.__dict__ for o in searched],
        "cpu_all_sittings": round(cpu_all, 2),
    }
    if published is not None:
        table = compare(ours, published)
        counts = {
            v: sum(c.verdict == v for c in table)
            for v in ("agree", "DISAGREE", "unsolved", "unsourced")
        }
        md += [
            "",
            "Compared cell by cell with the published map: "
            + ", ".join(f"{n} {v}" for v, n in counts.items())
            + ".",
            "",
        ]
        md += ["| cell | ours | published | verdict |", "|---|---|---|---|"]
        md += [
            f"| {c.cell} | {c.ours or '-'} | {c.published or '-'} | {c.verdict} |" for c in table
        ]
        summary["comparison"] = {"counts": counts, "cells": [c.__dict__ for c in table]}
    return "\n".join(md) + "\n", summary


def _num(x: float | int | None) -> str:
    if x is None:
        return "-"
    return f"{x:,}" if isinstance(x, int) else f"{x:,.2f}"
