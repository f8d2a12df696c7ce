"""ALT(w) (notes section 10): the EXPTIME-complete game of a deterministic machine and a
word, won by player 1 iff the machine accepts the word within the bound.

Configurations are the notes' strings ``x q y`` over ``Delta = Gamma + Q`` (the state
symbol takes a cell; the head reads the symbol after it), cell 1 the first; ``C(t, p)``
is the symbol on cell ``p`` at time ``t`` (time 1 is ``c = q0 w``). The symbol at
``(t + 1, p)`` is ``delta(C(t, p-2), ..., C(t, p+2))``: a move to the left puts the
state symbol where the cell before it was, so the window has radius 2. The positions:

- ``(p, t, A)``, player 1 to move: the claim ``C(t, p) = A``; player 1 names a window
  ``A-2 .. A2`` with ``delta(window) = A`` (at ``t = 2``: the window must be ``c``'s
  cells ``p-2 .. p+2``);
- ``(p, t, A-2 .. A2)``, player 2 to move (``t > 1``): it challenges one cell ``s`` and
  moves to ``(p + s, t, A_s)``.

Who cannot move loses. Three precisions the notes leave open: cells before cell 1 hold
a boundary symbol ``#`` no window may change (a window over them must say ``#``; the
notes' positions are positive); a move to the left on cell 1 stays there; and since a
machine here may accept with its head anywhere, player 1 opens by naming the cell ``p``
and the accepting state ``q`` of its claim ``C(T + 1, p) = q`` (the notes' start
``(w, 1, 2^|w|, q_si)`` fixes ``p = 1``). The bound ``T`` replaces the notes' ``2^|w|``.

Player 2's challenge: the notes' rule 4 lets it pick ``s`` in ``{-1, 0, 1}``, but their
proof needs ``s`` in ``{-2, ..., 2}`` (player 1 may lie about ``A-2`` and ``A2``, on
which ``delta`` depends: a state two cells to the right moving left). ``challenge=2``
(the default) is the proof's rule; ``challenge=1`` the rule as written, on which player 1
can win on words the machine rejects (docs/machine.md shows one).

The native solver decides the game by times: the symbols ``A`` for which player 1 wins
the claim ``(p, t, A)`` are the ``delta`` of the windows whose challenged cells it wins
one row down (unchallenged cells: any symbol).

>>> from pyasp_games.domains.machine.model import FLIP, Task, parse_machine
>>> claim = solve_alt(Task(parse_machine(FLIP), "01", 3))
>>> claim.answer, claim.witness["claim"]
(True, [3, 4, 'yes'])
>>> solve_alt(Task(parse_machine(FLIP), "01", 2)).answer
False
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from pyasp_games.domains.machine.model import MAX_STEPS, MAX_TABLEAU_CELLS, Machine, Task, read_task
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.limits import Deadline, LimitReached, Limits
from pyasp_games.errors import InputError

#: The symbol of the cells before cell 1.
BOUNDARY = "#"
#: The most positions of ALT(w)'s graph ``--output`` writes.
MAX_GRAPH = 300_000


def alphabet(m: Machine) -> list[str]:
    """``Delta``: the tape symbols, the states, the boundary."""
    return [*m.tape, *m.states, BOUNDARY]


def refuse(m: Machine) -> None:
    """ALT(w) is the game of a deterministic machine."""
    if m.kind != "deterministic":
        raise InputError(f"ALT(w) is the game of a deterministic machine; {m.name} is {m.kind}")


def read_alt(machine: Path | str, word: str | None = None, steps: int | None = None) -> Task:
    """The game's input: a deterministic machine, the word, the bound ``T`` (default the
    notes' ``2^|w|``; no word: the file's first example, with its bound); the cells of
    the game's tableau are bounded like the Cook-Levin tableau's."""
    if steps is None and word is not None:  # the notes' bound: 2^|w| steps
        steps = 2 ** len(word if word != "-" else "")
        if steps > MAX_STEPS:
            raise InputError(f"2^|w| = 2^{len(word)} steps: beyond this tool's limit; give --steps")
    task = read_task(machine, word, steps)
    refuse(task.machine)
    if task.steps < 1:
        raise InputError("ALT(w) needs --steps of at least 1 (its claims are made at times 2 and on)")
    rows, width = task.steps + 1, len(task.word) + 3 * task.steps + 4
    if rows * width > MAX_TABLEAU_CELLS:
        raise InputError(f"ALT(w): {rows:,} times x {width:,} cells = {rows * width:,} claims' cells, "
                         f"beyond this tool's limit of {MAX_TABLEAU_CELLS:,}")  # fmt: skip
    return task


def delta(m: Machine, window: tuple[str, ...]) -> str:
    """The symbol a cell holds one step later, from its window ``A-2 .. A2`` (a total
    function: windows no configuration has still get a symbol).

    >>> from pyasp_games.domains.machine.model import FLIP, parse_machine
    >>> m = parse_machine(FLIP)
    >>> delta(m, ("#", "#", "q0", "0", "1")), delta(m, ("#", "q0", "0", "1", "_"))
    ('1', 'q0')
    """
    _, a_1, a0, a1, a2 = window

    def step(state: str, read: str) -> Any:
        if state in m.accept or state in m.reject:
            return None
        found = m.table.get((state, read))
        return m.transitions[found[0]] if found else None

    states = set(m.states)
    if a0 == BOUNDARY:
        return BOUNDARY
    if a0 in states:  # the state is here: it moves right (write here), stays, or left
        t = step(a0, a1)
        if t is None:
            return a0
        if t.move == 1:
            return t.write
        if t.move == 0 or a_1 == BOUNDARY:
            return t.next  # a move left on cell 1 stays
        return a_1
    if a_1 in states:  # the state is on the left: this is the cell it reads
        t = step(a_1, a0)
        if t is None:
            return a0
        return t.next if t.move == 1 else t.write
    if a1 in states:  # the state is on the right: it may come here
        t = step(a1, a2)
        if t is not None and t.move == -1:
            return t.next
    return a0


def first_row(task: Task, position: int) -> str:
    """``c_p``: the symbol of ``c = q0 w`` on cell ``p`` (``#`` before cell 1)."""
    if position < 1:
        return BOUNDARY
    if position == 1:
        return task.machine.start
    if position - 2 < len(task.word):
        return task.word[position - 2]
    return task.machine.blank


def challenged(challenge: int) -> tuple[int, ...]:
    if challenge not in (1, 2):
        raise InputError(f"--challenge must be 1 (the notes' rule: s in -1..1) or 2 (s in -2..2), got {challenge!r}")
    return tuple(range(-challenge, challenge + 1))


def winning_claims(task: Task, challenge: int = 2, deadline: Deadline | None = None) -> tuple[dict[tuple[int, int], set[str]], int]:
    """For each time ``t >= 2`` and cell ``p`` (the cone the start can reach), the symbols
    ``A`` for which player 1 wins the claim ``(p, t, A)``; and the windows examined."""
    m = task.machine
    sigma = alphabet(m)
    checked = challenged(challenge)
    top = task.steps + 1
    win: dict[tuple[int, int], set[str]] = {}
    windows = 0

    def options(p: int, t: int, s: int) -> list[str]:
        """What player 1 may put on cell ``p + s`` of a window at time ``t``."""
        q = p + s
        if t == 1:
            return [first_row(task, q)]  # the notes: at t = 1 the window is c's
        if q < 1:
            return [BOUNDARY]
        if s in checked:
            return sorted(win.get((q, t), set()))
        return [a for a in sigma if a != BOUNDARY]

    for t in range(2, top + 1):
        reach = task.steps + 1 + 2 * (top - t)  # the cells the start's claims depend on
        for p in range(1, reach + 1):
            if deadline is not None:
                deadline.check()
            found = set()
            for window in itertools.product(*(options(p, t - 1, s) for s in range(-2, 3))):
                windows += 1
                found.add(delta(m, window))
            win[p, t] = found
    return win, windows


def solve_alt(task: Task, limits: Limits = Limits(), challenge: int = 2) -> Claim:
    """Who wins ALT(w) with the bound ``task.steps``: ``True`` (player 1: with the claim
    ``[p, T + 1, q]`` it opens with) or ``False``."""
    refuse(task.machine)
    try:
        win, windows = winning_claims(task, challenge, limits.deadline())
    except LimitReached:
        return Claim.unknown({"limit": "time"})
    m, top = task.machine, task.steps + 1
    sizes = {"symbols": len(alphabet(m)), "claims_won": sum(len(v) for v in win.values()),
             "cells": len(win), "windows": windows, "challenge": challenge}  # fmt: skip
    opening = [(p, top, q) for p in range(1, top + 1) for q in sorted(m.accept) if q in win.get((p, top), ())]
    witness: dict[str, Any] = {**sizes, "claim": list(opening[0]) if opening else None}
    if opening:
        return Claim.solved(True, witness, stats={"windows": windows})
    return Claim.none(False, witness, stats={"windows": windows})


# -- the game graph, written out ------------------------------------------------------------


def game_graph(task: Task, challenge: int = 2, deadline: Deadline | None = None) -> tuple[list[tuple[str, str]], list[str]]:
    """ALT(w)'s positions reachable from the start, as arcs ``(u, v)`` (the player to move
    at ``start`` is player 1; positions without moves are listed too). Names: ``start``,
    ``open.P.Q`` (player 2's one move after the opening), ``claim.P.T.A`` and
    ``window.P.T.A-2.A-1.A0.A1.A2``, symbols by their index in ``Delta``."""
    m = task.machine
    sigma = alphabet(m)
    index = {a: i for i, a in enumerate(sigma)}
    checked = challenged(challenge)
    top = task.steps + 1
    arcs: list[tuple[str, str]] = []
    seen: set[str] = set()
    todo: list[tuple[int, int, str]] = []

    def claim(p: int, t: int, a: str) -> str:
        name = f"claim.{p}.{t}.{index[a]}"
        if name not in seen:
            seen.add(name)
            todo.append((p, t, a))
        return name

    by_symbol: dict[tuple[int, int], dict[str, list[tuple[str, ...]]]] = {}

    def windows(p: int, t: int) -> dict[str, list[tuple[str, ...]]]:
        """Player 1's windows at cell ``p``, time ``t`` (the row below), by their delta."""
        if (p, t) not in by_symbol:
            cells = [[first_row(task, p + s)] if t == 1 else
                     [BOUNDARY] if p + s < 1 else [a for a in sigma if a != BOUNDARY]
                     for s in range(-2, 3)]  # fmt: skip
            table: dict[str, list[tuple[str, ...]]] = {}
            for w in itertools.product(*cells):
                table.setdefault(delta(m, w), []).append(w)
            by_symbol[p, t] = table
        return by_symbol[p, t]

    seen.add("start")
    for p in range(1, top + 1):
        for q in sorted(m.accept):
            opening = f"open.{p}.{index[q]}"
            arcs += [("start", opening), (opening, claim(p, top, q))]
    while todo:
        if deadline is not None and len(seen) % 1024 == 0:
            deadline.check()
        if len(seen) > MAX_GRAPH:
            raise InputError(f"ALT(w)'s graph has more than {MAX_GRAPH:,} positions: beyond this tool's limit")
        p, t, a = todo.pop()
        here = f"claim.{p}.{t}.{index[a]}"
        if t == 1:
            continue  # claims are made at times 2 and on
        for w in windows(p, t - 1).get(a, []):
            name = f"window.{p}.{t - 1}." + ".".join(str(index[x]) for x in w)
            arcs.append((here, name))
            if name in seen:
                continue
            seen.add(name)
            if t - 1 > 1:
                arcs += [(name, claim(p + s, t - 1, w[s + 2])) for s in checked if p + s >= 1]
    sinks = sorted(seen - {u for u, _ in arcs})
    return arcs, sinks


def format_graph(task: Task, challenge: int = 2) -> str:
    """The game graph as an arc list ``grundy values`` and ``geography solve`` read: the
    start is ``start`` and player 1 moves there."""
    arcs, sinks = game_graph(task, challenge)
    head = [f"# ALT(w) of {task.machine.name} on {task.word or '(the empty word)'} within {task.steps} steps, "
            f"challenges s in {list(challenged(challenge))}",
            "# player 1 moves at 'start'; who cannot move loses", "# start: start",
            "# variant: vertex"]  # fmt: skip
    return "\n".join([*head, *(f"{u} {v}" for u, v in arcs), *sinks]) + "\n"
