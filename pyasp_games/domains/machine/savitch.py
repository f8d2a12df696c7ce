"""Savitch's game (notes section 6, NPSPACE in ATIME(poly)): reachability between
configurations answered by a game of halving intervals.

A position is ``<(a,A),(b,B)>``: configuration ``A`` at time ``a``, ``B`` at time ``b``.
If ``b = a + 1`` player 1 wins iff ``A |- B`` (here: ``B`` is ``A`` or one step from
it, so that "in exactly b - a steps" is "within b - a steps" and an accepting
configuration may wait for the end); otherwise player 1 proposes a configuration ``C``
for the midpoint ``c = floor((a + b) / 2)`` and player 2 chooses the half
``<(a,A),(c,C)>`` or ``<(c,C),(b,B)>``. Configurations are those of space ``S``: the
head within the first ``S`` cells (a step out of them is no step). The notes' start is
``<(1, q0 w), ((k+1)^p(n), C_si)>`` with one accepting configuration ``C_si``; a
machine here may accept in several, so player 1 names the accepting configuration
first (an opening move), and the interval is the bound ``T`` (default: the number of
configurations of space ``S``, beyond which a shortest run cannot go).

The native solver decides the game position by position, demand-driven from the start:
``W(A, L)``, the configurations ``B`` with player 1 winning ``<(0,A),(L,B)>``, is ``A``
and its successors for ``L = 1`` and, for longer intervals, the union over the
midpoints ``C`` in ``W(A, floor(L/2))`` of ``W(C, L - floor(L/2))``: exactly the
positions where some proposal of player 1 wins both halves. The ASP backend states the
same rules (``encodings/machine/savitch.lp``). The witness is player 1's winning play:
the run its midpoints spell, which the checker replays; "player 2 wins" is checked by
the checker's own breadth-first search within the space.

>>> from pyasp_games.domains.machine.model import FLIP, Task, parse_machine
>>> claim = solve_savitch(Task(parse_machine(FLIP), "01", 7, space=3))
>>> claim.answer, claim.witness["run"], claim.witness["rounds"]
(True, ['[q0]01', '1[q0]1', '10[q0]_', '10[yes]_'], 3)
"""

from __future__ import annotations

import math
from collections import deque
from pathlib import Path
from typing import Any

from pyasp_games.domains.machine.model import (
    Config,
    Machine,
    Task,
    checked_word,
    format_config,
    initial,
    load_machine,
    successors,
)
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.limits import Deadline, LimitReached, Limits
from pyasp_games.errors import InputError, checked_int

#: The most configurations of space S the game may range over (the notes' player 1
#: proposes any of them).
MAX_CONFIGURATIONS = 10**12
#: The most configurations reachable within the space the solvers will hold.
MAX_REACHABLE = 20_000


def configurations_in_space(m: Machine, space: int) -> int:
    """|Q| * S * |Gamma|^S: the configurations whose head is on the first ``S`` cells and
    whose tape is blank beyond them (what player 1 may propose)."""
    return len(m.states) * space * len(m.tape) ** space


def read_savitch(machine: Path | str, word: str | None = None, steps: int | None = None,
                 space: int | None = None) -> Task:  # fmt: skip
    """The game's input: the machine, the word, the space ``S`` (default ``|w| + 1``) and
    the interval ``T`` (default: the number of configurations of space ``S``)."""
    m = load_machine(machine)
    if m.universal:
        raise InputError(f"Savitch's game asks reachability, for nondeterministic machines; {m.name} has universal states")
    word = "" if word in (None, "-") else checked_word(m, word)
    space = len(word) + 1 if space is None else checked_int(space, "--space", 1, 1_000)
    if space < len(word):
        raise InputError(f"--space {space} is shorter than the word ({len(word)} symbols)")
    count = configurations_in_space(m, space)
    if count > MAX_CONFIGURATIONS:
        raise InputError(f"{count:.3g} configurations of space {space}: beyond this tool's limit of {MAX_CONFIGURATIONS:.0e}")
    if steps is None:
        steps = count
    steps = checked_int(steps, "--steps", 0, MAX_CONFIGURATIONS)
    return Task(m, word, steps, f"{m.name}:{word or '-'}", space=space)


def space_graph(task: Task, deadline: Deadline | None = None) -> tuple[list[Config], list[list[int]]]:
    """The configurations of space ``S`` reachable from ``q0 w`` (numbered breadth first,
    the start 0) and each one's successors (itself included: the reflexive step)."""
    m = task.machine
    start = initial(m, task.word)
    number = {start: 0}
    configs = [start]
    nexts: list[list[int]] = []
    queue = deque([start])
    while queue:
        c = queue.popleft()
        if deadline is not None and len(configs) % 512 == 0:
            deadline.check()
        out = [number[c]]
        for _, d in successors(m, c, task.space):
            if d not in number:
                if len(configs) >= MAX_REACHABLE:
                    raise InputError(f"more than {MAX_REACHABLE:,} configurations reachable in space "
                                     f"{task.space}: beyond this tool's limit")  # fmt: skip
                number[d] = len(configs)
                configs.append(d)
                queue.append(d)
            out.append(number[d])
        nexts.append(out)
    return configs, nexts


def halves(length: int) -> tuple[int, int]:
    """The notes' ``c = floor((a + b) / 2)``: the two halves of an interval."""
    return length // 2, length - length // 2


def rounds(length: int) -> int:
    """The game's depth: the rounds of halving until an interval of 1 (0 for ``T <= 1``)."""
    depth = 0
    while length > 1:
        length = halves(length)[1]
        depth += 1
    return depth


def game_sizes(task: Task, reachable: int, evaluated: int) -> dict[str, Any]:
    """The game's size and depth beside the notes' bounds: the notes' initial interval
    ``(k+1)^p(n)`` with ``k = |Gamma|`` and ``p(n) = S``, and their depth
    ``T = p(n) log2(k+1)``."""
    m, space = task.machine, task.space
    count = configurations_in_space(m, space)
    k = len(m.tape)
    return {
        "space": space, "interval": task.steps, "rounds": rounds(task.steps),
        "configurations": count, "reachable": reachable, "pairs_evaluated": evaluated,
        "positions_bound": 2 * max(rounds(task.steps), 1) * count * count,
        # <(a,A),(b,B)> with its times: the intervals of a halving tree over [0, T]
        "positions_with_times": max(2 * task.steps - 1, 1) * count * count,
        "notes_interval": (k + 1) ** space, "notes_rounds": round(space * math.log2(k + 1), 2),
    }  # fmt: skip


def winning_sets(task: Task, nexts: list[list[int]], deadline: Deadline | None = None) -> tuple[dict[tuple[int, int], int], int]:
    """``W(A, L)`` as bitsets over the reachable configurations, for the pairs the game
    from the start demands; and how many pairs were evaluated."""
    win: dict[tuple[int, int], int] = {}

    def solve(a: int, length: int) -> int:
        stack = [(a, length)]
        while stack:
            if deadline is not None and len(win) % 256 == 0:
                deadline.check()
            a, length = stack[-1]
            if (a, length) in win:
                stack.pop()
                continue
            if length <= 1:
                win[a, length] = sum(1 << b for b in set(nexts[a])) if length == 1 else 1 << a
                stack.pop()
                continue
            first, second = halves(length)
            if (a, first) not in win:
                stack.append((a, first))
                continue
            mids = win[a, first]
            missing = [(c, second) for c in _members(mids) if (c, second) not in win]
            if missing:
                stack.extend(missing)
                continue
            total = 0
            for c in _members(mids):
                total |= win[c, second]
            win[a, length] = total
            stack.pop()
        return win[a, length]

    solve(0, task.steps)
    return win, len(win)


def _members(bits: int) -> list[int]:
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def play(win: dict[tuple[int, int], int], a: int, b: int, length: int) -> list[int]:
    """Player 1's winning play from ``<(0,A),(L,B)>``: the configuration at every time,
    each midpoint one it can defend in both halves."""
    if length == 0:
        return [a]
    if length == 1:
        return [a, b]
    first, second = halves(length)
    c = next(c for c in _members(win[a, first]) if win[c, second] >> b & 1)
    return play(win, a, c, first)[:-1] + play(win, c, b, second)


def _run_of(task: Task, configs: list[Config], times: list[int]) -> list[str]:
    """The run a play spells, the waiting steps (``A |- A``) left out."""
    run = [times[0]]
    for c in times[1:]:
        if c != run[-1]:
            run.append(c)
    return [format_config(task.machine, configs[c]) for c in run]


def solve_savitch(task: Task, limits: Limits = Limits()) -> Claim:
    """Solve Savitch's game for ``task`` (``space`` and ``steps`` the interval): ``True``
    (player 1 wins: an accepting configuration is reachable within the interval, in
    the space) with player 1's play as a run, or ``False``."""
    deadline = limits.deadline()
    try:
        configs, nexts = space_graph(task, deadline)
        win, evaluated = winning_sets(task, nexts, deadline)
    except LimitReached:
        return Claim.unknown({"limit": "time"})
    sizes = game_sizes(task, len(configs), evaluated)
    return _claim(task, configs, win, sizes)


def _claim(task: Task, configs: list[Config], win: dict[tuple[int, int], int], sizes: dict[str, Any]) -> Claim:
    m = task.machine
    reached = win[0, task.steps]
    targets = [b for b in _members(reached) if configs[b][0] in m.accept]
    witness: dict[str, Any] = dict(sizes)
    if not targets:
        return Claim.none(False, witness, stats={"pairs_evaluated": sizes["pairs_evaluated"]})
    witness["run"] = _run_of(task, configs, play(win, 0, targets[0], task.steps))
    return Claim.solved(True, witness, stats={"pairs_evaluated": sizes["pairs_evaluated"]})


def savitch_facts(task: Task, configs: list[Config], nexts: list[list[int]]) -> str:
    """The facts of ``savitch.lp``: the interval, the start, the steps, the accepting
    configurations."""
    m = task.machine
    out = [f"steps({task.steps}).", "start(0)."]
    for a, succ in enumerate(nexts):
        out += [f"step({a},{b})." for b in succ]
        if configs[a][0] in m.accept:
            out.append(f"final({a}).")
    return "\n".join(out) + "\n"


def solve_savitch_asp(task: Task, limits: Limits = Limits(), emit_lp: Path | str | None = None) -> Claim:
    """Savitch's game by ``savitch.lp``: the positions player 1 wins, derived from the
    start by the same halving rules (one answer set, a least model)."""
    from pyasp_games.engines.clingo_runner import int_arguments, run_program, write_facts
    from pyasp_games.engines.resources import encoding_path
    from pyasp_games.errors import MalformedAnswer

    if task.steps > 2**31 - 1:  # clingo's integers are 32-bit
        raise InputError(f"the interval {task.steps:,} is beyond clingo's integers (2^31 - 1): "
                         "give a smaller --steps or use --backend native")  # fmt: skip
    deadline = limits.deadline()
    program = encoding_path("machine", "savitch")
    try:
        configs, nexts = space_graph(task, deadline)
    except LimitReached:
        return Claim.unknown({"limit": "time"})
    text = savitch_facts(task, configs, nexts)
    if emit_lp is not None:
        write_facts(emit_lp, text, [program], f"Savitch's game for {task.name}")

    def read(symbols: list[Any]) -> Claim:
        win: dict[tuple[int, int], int] = {}
        for s in symbols:
            if s.name == "reach":
                a, length, b = int_arguments(s, "reach", 3, "a configuration, an interval, a configuration")
                if not (0 <= a < len(configs) and 0 <= b < len(configs)):
                    raise MalformedAnswer(f"{s} names no configuration")
                win[a, length] = win.get((a, length), 0) | 1 << b
        win.setdefault((0, task.steps), 0)
        pairs = len({(a, length) for a, length in win})
        try:
            return _claim(task, configs, win, game_sizes(task, len(configs), pairs))
        except (StopIteration, KeyError) as err:
            raise MalformedAnswer(f"the answer set's positions do not make a play ({err!r})") from None

    return run_program([program], text, deadline, read, no_answer_set="the game's program has no answer set")
