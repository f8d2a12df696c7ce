"""Saved answers checked again: ``pyasp-games verify OUTCOME.json [INSTANCE]``.

An answer printed with ``--json`` names the command that gave it (``question``) and the
input it read (``input``: the reader's values, a file's path as given). Read back, it is
checked again by that question's checker alone, on the instance re-read (or the one the
user names): the proof, the certificate, the strategy and every number the printed claim
rests on. Nothing of the saved verdict is believed: the claim is checked as it was made
(:meth:`~pyasp_games.engines.question.Question.recheck`).

>>> import json
>>> from pyasp_games.domains import find_command
>>> ask = find_command("cover solve")
>>> instance = ask.read(file="instances/cover/tiny-cover.txt")
>>> data = json.loads(json.dumps(saved(ask, ask.ask(instance), {"file": "x"}), default=str))
>>> data["question"], recheck(data, "instances/cover/tiny-cover.txt")[1].verdict.verified
('cover solve', True)
>>> data["witness"] = data["witness"][:-1]
>>> recheck(data, "instances/cover/tiny-cover.txt")[1].status
'error'
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pyasp_games.domains import command_of, find_command
from pyasp_games.engines.outcome import Outcome
from pyasp_games.errors import InputError


def saved(question: Any, outcome: Outcome, given: dict[str, Any], index: int | None = None,
          lean: bool = False) -> dict[str, Any]:  # fmt: skip
    """The JSON object of an answer, as ``--json`` prints it: the outcome
    (:meth:`~pyasp_games.engines.outcome.Outcome.to_dict`), the command that asked
    (``question``) and the reader's values it was given (``input``; with ``index``, the
    instance's place among those a file holds), so that :func:`recheck` can read it
    again. With ``lean`` (``--no-certificate``), a certificate is left out and the
    answer says so (``"certificate_left_out": true``)."""
    data = outcome.to_dict()
    if lean and data.pop("certificate", None) is not None:
        data["certificate_left_out"] = True
    data["question"] = command_of(question)
    data["input"] = {k: (str(v) if isinstance(v, Path) else v) for k, v in given.items()}
    if index is not None:
        data["index"] = index
    return data


def left_out(question: Any, data: Any) -> str | None:
    """What a saved answer printed with ``--no-certificate`` can be checked for, in one
    sentence for ``verify`` to say beside its verdict; ``None`` for an answer that kept
    its certificate (or never had one)."""
    if not isinstance(data, dict) or not data.get("certificate_left_out") or "certificate" in data:
        return None
    can = getattr(question, "without_certificate", "") or "what its witness shows alone"
    return f"saved without its certificate (--no-certificate), so checked again without it: {can}"


def recheck(
    data: Any, instance: str | None = None, command: str | None = None, base: Path | None = None
) -> tuple[Any, Outcome]:
    """The question and the outcome of a saved answer checked again alone.

    Parameters
    ----------
    data : dict
        The saved JSON object (:func:`saved`; an outcome's plain ``to_dict`` with
        ``command`` given works too).
    instance : str, optional
        The instance the answer is about, as the question's first argument reads it (a
        file, a board); default: the input the answer names.
    command : str, optional
        The command that gave the answer, ``"GROUP NAME"``; default: the one it names.
    base : Path, optional
        Where a relative file name of the saved input is also looked for (the saved
        file's folder), when it is not found from the current directory.

    Returns
    -------
    (Question, Outcome)
        The outcome's verdict holds the checker's word: ``verified`` true (in full or in
        part, :attr:`~pyasp_games.engines.verdict.Verdict.in_part`), false (the status is
        then ``error``, the reason in the verdict's message), or ``None``: nothing a
        checker confirms alone.

    Raises
    ------
    InputError
        The data is no saved answer, names no known command or no input, or the input
        cannot be read.
    """
    if not isinstance(data, dict):
        raise InputError("a saved answer is one JSON object (as --json prints it)")
    command = command or data.get("question")
    if not isinstance(command, str) or not command.strip():
        raise InputError("the saved answer names no command: give --question 'GROUP NAME'")
    question = find_command(command)
    given = data.get("input") or {}
    if not isinstance(given, dict):
        raise InputError("the saved answer's 'input' is not a JSON object")
    reads = [p for p in question.params if p.to == "read"]
    values = {p.name: given.get(p.name) for p in reads}
    first = next((p for p in reads if not p.flags), None)
    if instance is not None:
        if first is None:
            raise InputError(f"{command} reads no instance argument")
        values[first.name] = _typed(first, instance)
    elif first is None or values.get(first.name) is None:
        raise InputError("the saved answer names no input: give the INSTANCE")
    for p in reads:  # a saved file name, found from here or beside the saved answer
        if p.type is Path and isinstance(values.get(p.name), str):
            values[p.name] = _found(values[p.name], base if instance is None else None)
    read = question.read(**values)
    if question.several:
        index = data.get("index", 0)
        if not isinstance(index, int) or not 0 <= index < len(read):
            raise InputError(f"the saved answer's index {index!r} is not one of the file's {len(read)} instances")
        read = read[index]
    try:
        return question, question.recheck(read, data)
    except ValueError as err:
        raise InputError(f"not a saved answer: {err}") from None


def _typed(param: Any, text: str) -> Any:
    """The INSTANCE argument as the question's first argument reads it: a list of values
    separated by spaces or commas (``"3 4 5"``, Nim's heaps), a number, a path, a string."""
    kind = {list[int]: int, int: int, list[str]: str}.get(param.type)
    several = param.type in (list[int], list[str])
    items = text.replace(",", " ").split() if several else [text]
    try:
        typed = [kind(x) for x in items] if kind is not None else items
    except ValueError:
        raise InputError(f"{param.option}: {text!r} is not {'a list of ' * (len(items) > 1)}whole numbers") from None
    if several:
        return typed
    return Path(text) if param.type is Path else typed[0]


def _found(name: str, base: Path | None) -> Path:
    path = Path(name)
    if path.exists() or path.is_absolute() or base is None:
        return path
    beside = base / path
    return beside if beside.exists() else path


__all__ = ["left_out", "recheck", "saved"]
