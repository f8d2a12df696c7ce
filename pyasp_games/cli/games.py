"""``pyasp-games games``: Nim, subtraction games and Grundy's game."""

from __future__ import annotations

import sys
from typing import Any

import typer

from pyasp_games.cli.common import JSON, MEMORY_LIMIT, TIME_LIMIT, finish, limits
from pyasp_games.errors import InputError

app = typer.Typer(
    help="Classic impartial games: Nim, subtraction games, Grundy's game.", no_args_is_help=True
)


@app.command()
def nim(
    heaps: list[int] = typer.Argument(..., help="Heap sizes, e.g. 3 4 5."),
    time_limit: float = TIME_LIMIT,
    memory_limit: float = MEMORY_LIMIT,
    json: bool = JSON,
) -> None:
    """Nim: P or N (XOR of the heaps) and every winning move."""
    from pyasp_games.engines.outcome import Outcome
    from pyasp_games.engines.runner import run_backend
    from pyasp_games.grundy.classic_games import nim_winning_moves

    if any(h < 0 for h in heaps):
        raise InputError("heap sizes must be non-negative")
    lim = limits(time_limit, memory_limit=memory_limit)
    name = "nim(" + ",".join(map(str, heaps)) + ")"

    def native(hs: list[int], _: Any) -> Outcome:
        moves = [list(m) for m in nim_winning_moves(hs)]
        total = 0
        for h in hs:
            total ^= h
        return Outcome(name, "native", "solved", "N" if total else "P", moves, 0.0, {"xor": total})

    def check(hs: list[int], outcome: Outcome) -> tuple[bool | None, str]:
        # A move lowers one heap i to some x; the XOR becomes x ^ others_i (the XOR of
        # the other heaps), which is 0 exactly for x = others_i. So heap i has one
        # move to XOR 0 when others_i < h_i and none otherwise: counting those heaps
        # (others_i from prefix and suffix XORs) and replaying every claimed move
        # checks "exactly these" in O(heaps x moves), not O(sum of the heaps).
        if outcome.status != "solved":
            return None, "nothing to verify"
        n = len(hs)
        prefix, suffix = [0] * (n + 1), [0] * (n + 1)
        for i in range(n):
            prefix[i + 1] = prefix[i] ^ hs[i]
            suffix[n - 1 - i] = suffix[n - i] ^ hs[n - 1 - i]
        movable = [i for i in range(n) if prefix[i] ^ suffix[i + 1] < hs[i]]
        lowered = set()
        for after in outcome.witness:
            changed = [i for i in range(n) if after[i] != hs[i]] if len(after) == n else []
            if len(changed) != 1 or not 0 <= after[changed[0]] < hs[changed[0]]:
                return False, f"{after} is not one Nim move from {hs}"
            x = 0
            for a in after:
                x ^= a
            if x != 0:
                return False, f"the move to {after} leaves XOR {x}, not 0"
            lowered.add(changed[0])
        if len(lowered) != len(outcome.witness) or sorted(lowered) != movable:
            return False, f"the heaps with a move to XOR 0 are {movable}"
        if (outcome.answer == "P") != (not movable):
            return False, "a position is P exactly when it has no move to XOR 0"
        return True, "every move checked: exactly these reach XOR 0"

    outcome = run_backend({"native": native}, "native", heaps, name, lim, check)
    lines = [f"  {outcome.answer}-position (XOR {outcome.stats.get('xor')})"]
    lines += [f"  winning move: to ({', '.join(map(str, m))})" for m in outcome.witness or []]
    finish(outcome, json, lines, show_backend=False)


def _parse_moves(text: str) -> list[int]:
    try:
        moves = sorted({int(x) for x in text.split(",") if x.strip()})
    except ValueError:
        raise InputError(
            f"--moves: expected comma-separated positive integers, got {text!r}"
        ) from None
    if not moves or moves[0] < 1:
        raise InputError(f"--moves: expected comma-separated positive integers, got {text!r}")
    return moves


@app.command()
def subtraction(
    moves: str = typer.Option(..., "--moves", help="The subtraction set, e.g. 1,2,3."),
    upto: int = typer.Option(..., "--upto", help="Print g(0..N)."),
    time_limit: float = TIME_LIMIT,
    memory_limit: float = MEMORY_LIMIT,
    json: bool = JSON,
) -> None:
    """Subtraction game: g(0..N) and its exact preperiod and period, with the proof."""
    from pyasp_games.engines.outcome import Outcome
    from pyasp_games.engines.runner import run_backend
    from pyasp_games.grundy.classic_games import (
        check_heap_size,
        subtraction_period,
        subtraction_values,
    )

    ds = _parse_moves(moves)
    if upto < 0:
        raise InputError(f"--upto must be non-negative, got {upto}")
    check_heap_size(upto, "--upto")
    check_heap_size(ds[-1], "--moves: a move of")
    lim = limits(time_limit, memory_limit=memory_limit)
    name = f"subtraction({','.join(map(str, ds))})"

    def native(_: Any, lim: Any) -> Outcome:
        deadline = lim.deadline()
        period = subtraction_period(ds, deadline)
        top = max(upto, period.preperiod + period.period + ds[-1])
        values = subtraction_values(ds, top, deadline)
        witness = {"preperiod": period.preperiod, "period": period.period, "proof": period.proof}
        return Outcome(name, "native", "solved", values[: upto + 1], witness, 0.0, {}, values)

    def check(_: Any, outcome: Outcome) -> tuple[bool | None, str]:
        if outcome.status != "solved":
            return None, "nothing to verify"
        g = outcome.certificate
        for n, v in enumerate(g):
            options = {g[n - d] for d in ds if d <= n}
            k = 0
            while k in options:
                k += 1
            if v != k:
                return False, f"g({n}) = {v} breaks the mex rule"
        p, s = outcome.witness["period"], outcome.witness["preperiod"]
        if any(g[n] != g[n + p] for n in range(s, len(g) - p)):
            return False, "the sequence is not periodic as claimed"
        if s + p + ds[-1] > len(g):
            return False, "too few terms to confirm the period window"
        return True, f"mex rule checked for n <= {len(g) - 1}; window of {ds[-1]} repeats"

    outcome = run_backend({"native": native}, "native", ds, name, lim, check)
    lines = []
    if outcome.status == "solved":
        w = outcome.witness
        lines.append(f"  g(0..{upto}) = {' '.join(map(str, outcome.answer))}")
        lines.append(f"  preperiod {w['preperiod']}, period {w['period']}")
        lines.append(f"  proof: {w['proof']}")
    finish(outcome, json, lines, show_backend=False)


#: the mex rule is re-checked by definition for n up to this bound
GRUNDYS_GAME_CHECKED = 1500


@app.command("grundys-game")
def grundys_game(
    upto: int = typer.Option(..., "--upto", help="Compute g(1..N)."),
    time_limit: float = TIME_LIMIT,
    memory_limit: float = MEMORY_LIMIT,
    json: bool = JSON,
) -> None:
    """Grundy's game (split a heap into two unequal heaps): g(1..N)."""
    from pyasp_games.engines.outcome import Outcome
    from pyasp_games.engines.runner import run_backend
    from pyasp_games.grundy.classic_games import check_heap_size
    from pyasp_games.grundy.classic_games import grundys_game as compute

    if upto < 1:
        raise InputError(f"--upto must be at least 1, got {upto}")
    check_heap_size(upto, "--upto")
    lim = limits(time_limit, memory_limit=memory_limit)
    name = f"grundys-game({upto})"

    def native(_: Any, lim: Any) -> Outcome:
        if upto >= 20_000 and sys.stderr.isatty():
            from rich.progress import Progress

            with Progress(transient=True) as bar:
                task = bar.add_task("Grundy's game", total=upto)
                values = compute(upto, lim.deadline(), lambda n: bar.update(task, completed=n))
        else:
            values = compute(upto, lim.deadline())
        return Outcome(name, "native", "solved", values, None, 0.0, {"max_value": max(values)})

    def check(_: Any, outcome: Outcome) -> tuple[bool | None, str]:
        if outcome.status != "solved":
            return None, "nothing to verify"
        g = [0, *outcome.answer]
        top = min(upto, GRUNDYS_GAME_CHECKED)
        for n in range(1, top + 1):
            reach = {g[a] ^ g[n - a] for a in range(1, n) if 2 * a < n}
            k = 0
            while k in reach:
                k += 1
            if g[n] != k:
                return False, f"g({n}) = {g[n]} breaks the mex rule"
        return True, f"mex rule checked by definition for n <= {top}"

    outcome = run_backend({"native": native}, "native", upto, name, lim, check)
    lines = []
    if outcome.status == "solved":
        lines.append(f"  g(1..{upto}) = {' '.join(map(str, outcome.answer))}")
    finish(outcome, json, lines, show_backend=False)
