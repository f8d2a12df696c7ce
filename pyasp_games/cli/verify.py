"""``pyasp-games verify OUTCOME.json [INSTANCE]``: a saved answer checked again, alone.

The file holds what ``--json`` printed: one JSON object, or one per line (a file of
several instances). Each answer is checked by its question's checker alone
(:func:`~pyasp_games.tools.saved.recheck`); exit 0 when every answer is verified, 1 when
one is refuted (the checker's reason on stderr), 3 when one cannot be confirmed alone
(nothing a checker confirms alone, the checker's own limit, no answer saved: a limit was
reached), 2 for a file that is no saved answer.
"""

from __future__ import annotations

import json as jsonlib
from pathlib import Path
from typing import Any

import typer

from pyasp_games.cli.common import CPU_LIMIT, JSON, MEMORY_LIMIT, TIME_LIMIT, print_json, warn
from pyasp_games.engines.outcome import Outcome


def verify(
    saved: Path = typer.Argument(..., help="An answer saved with --json (one JSON object a line)."),
    instance: str = typer.Argument(
        None, help="The instance the answer is about (default: the input the answer names)."
    ),
    question: str = typer.Option(
        None,
        "--question",
        metavar="'GROUP NAME'",
        help="The command that gave the answer, e.g. 'hex solve' (default: the one it names).",
    ),
    time_limit: float = TIME_LIMIT,
    cpu_limit: float = CPU_LIMIT,
    memory_limit: float = MEMORY_LIMIT,
    json: bool = JSON,
) -> None:
    """Check a saved answer again: its witness, proof or certificate, alone.

    Re-reads the instance, runs the question's checker on the saved answer and prints the
    verdict. Exit 0 verified, 1 refuted (with the checker's reason), 3 not confirmed alone
    (nothing to check, the checker's own limit, or no answer saved), 2 bad input."""
    from pyasp_games.cli.common import verdict
    from pyasp_games.engines.enforcement import arm
    from pyasp_games.engines.files import read_text
    from pyasp_games.engines.limits import Limits
    from pyasp_games.errors import InputError
    from pyasp_games.tools.saved import left_out, recheck

    lim = Limits.given(time_limit, memory_megabytes=memory_limit, cpu_seconds=cpu_limit)
    arm(lim)
    text = read_text(saved)
    try:
        answers = [jsonlib.loads(line) for line in text.splitlines() if line.strip()]
    except jsonlib.JSONDecodeError as err:
        raise InputError(f"{saved}: not JSON (line {err.lineno}: {err.msg})") from None
    if not answers:
        raise InputError(f"{saved}: no saved answer in it")
    codes = []
    for data in answers:
        asked, outcome = recheck(data, instance, question, saved.parent)
        code = _code(outcome)
        codes.append(code)
        lean = left_out(asked, data)
        if json:
            from pyasp_games.tools.saved import saved as saved_answer

            again = saved_answer(asked, outcome, data.get("input") or {}, data.get("index"))
            if lean is not None:
                again["certificate_left_out"] = True
            print_json(again)
            continue
        said = verdict(outcome, asked.unchecked) if code != 3 or outcome.status != "unknown" \
            else "no answer saved (a limit was reached): nothing to check"  # fmt: skip
        answer = f", {_shown(outcome.answer)}" if outcome.answer is not None else ""
        typer.echo(f"{outcome.problem}: {outcome.status}{answer} ({outcome.backend}, re-checked: {said})")
        if lean is not None:
            warn(lean)
        if outcome.status == "error":
            warn(f"refuted: {outcome.verdict.message}" if outcome.verdict.failed
                 else f"no answer saved: {outcome.reason}")  # fmt: skip
    raise typer.Exit(1 if 1 in codes else 3 if 3 in codes else 0)


def _shown(value: Any) -> str:
    """An answer as a line shows it: numbers as written (a fraction ``1/2``, not
    ``Fraction(1, 2)``), lists and tables by their items.

    >>> from fractions import Fraction
    >>> _shown([Fraction(1), Fraction(1, 2)]), _shown({"a": Fraction(3, 4)}), _shown("black")
    ('[1, 1/2]', '{a: 3/4}', 'black')
    """
    if isinstance(value, list | tuple):
        return "[" + ", ".join(map(_shown, value)) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key}: {_shown(item)}" for key, item in value.items()) + "}"
    return str(value)


def _code(outcome: Outcome) -> int:
    """0 verified (in full or in part), 1 refuted (or the saved run failed), 3 not
    confirmed alone."""
    record = outcome.verdict
    if outcome.status == "error":
        return 1
    if record.verified is True and record.unconfirmed is None:
        return 0
    return 3
