"""The checkers, from the notes' definitions alone (section 6): a run is replayed step by
step against the transitions; an alternating machine's strategy is played against every
answer of the universal player; "no" is decided again by the checker's own search.

The checker's step (:func:`_step`) is written here again from the transition table, not
taken from the simulator; it imports nothing from ``native``, ``asp`` or ``sat``.

>>> from pyasp_games.domains.machine.model import FLIP, Task, parse_machine
>>> task = Task(parse_machine(FLIP), "01", 5)
>>> check_run(task, ["[q0]01", "1[q0]1", "10[q0]_", "10[yes]_"])
(True, 'a run of 3 steps replayed: accepts')
>>> check_run(task, ["[q0]01", "0[q0]1"])[1]
"step 1: '[q0]01' -> '0[q0]1' is no transition of the machine"
"""

from __future__ import annotations

from functools import cache
from itertools import pairwise
from typing import Any

from pyasp_games.domains.machine.model import Config, Machine, Task, parse_config
from pyasp_games.engines.outcome import Outcome
from pyasp_games.errors import InputError, Unconfirmed

#: The most configurations the checker's own search visits before it gives up
#: (the claim then stands unconfirmed).
CHECK_BUDGET = 300_000


def _step(m: Machine, c: Config) -> list[Config]:
    """Every configuration one step from ``c``: the transitions on its state and the
    symbol under its head, applied (the tape starts at cell 1: a move left there stays)."""
    state, head, tape = c
    if state in m.accept or state in m.reject:
        return []
    cells = list(tape) + [m.blank] * (head + 1 - len(tape))
    out = []
    for t in m.transitions:
        if t.state == state and t.read == cells[head]:
            new = cells.copy()
            new[head] = t.write
            out.append((t.next, max(head + t.move, 0), "".join(new).rstrip(m.blank)))
    return out


def _config(m: Machine, text: Any) -> Config | None:
    try:
        return parse_config(m, text)
    except InputError:
        return None


def check_run(task: Task, run: Any, accepts: bool = True) -> tuple[bool, str]:
    """Whether ``run`` (configurations as ``x[q]y``) starts at ``q0 w``, takes a legal
    step each time, and, if ``accepts``, ends accepting within the bound; else (a
    deterministic machine's "no") is the one run, not accepting, to its end or the bound.
    """
    m = task.machine
    if not isinstance(run, list) or not run:
        return False, f"not a run: {run!r}"
    configs = [_config(m, c) for c in run]
    if None in configs:
        return False, f"not a configuration: {run[configs.index(None)]!r}"
    begin = (m.start, 0, task.word.rstrip(m.blank))
    if configs[0] != begin:
        return False, f"the run starts at {run[0]!r}, not at the machine's start on {task.word!r}"
    if len(run) - 1 > task.steps:
        return False, f"the run takes {len(run) - 1} steps, more than {task.steps}"
    for i, (a, b) in enumerate(pairwise(configs), 1):
        nexts = _step(m, a)
        if b not in nexts:
            return False, f"step {i}: {run[i - 1]!r} -> {run[i]!r} is no transition of the machine"
        if not accepts and len(nexts) > 1:
            return False, f"step {i}: {run[i - 1]!r} has {len(nexts)} successors: the machine is not deterministic"
    last = configs[-1]
    if accepts:
        if last[0] not in m.accept:
            return False, f"the run ends in {run[-1]!r}, not in an accepting state"
        return True, f"a run of {len(run) - 1} steps replayed: accepts"
    if any(c[0] in m.accept for c in configs):
        return False, "the run enters an accepting state"
    if len(run) - 1 < task.steps and _step(m, last):
        return False, f"the run stops at {run[-1]!r} after {len(run) - 1} steps, but the machine goes on"
    return True, f"the one run replayed for {len(run) - 1} steps: no accepting state"


def check_strategy(task: Task, strategy: Any) -> tuple[bool, str]:
    """Whether ``strategy`` ({existential configuration: the successor chosen}) wins:
    every play from ``q0 w`` against every universal choice accepts within the bound."""
    m = task.machine
    if not isinstance(strategy, dict):
        return False, f"not a strategy: {strategy!r}"
    chosen = {}
    for a, b in strategy.items():
        ca, cb = _config(m, a), _config(m, b)
        if ca is None or cb is None:
            return False, f"not a configuration: {a!r} -> {b!r}"
        chosen[ca] = cb
    visited = 0

    @cache
    def wins(c: Config, left: int) -> str | None:  # None: wins; else why not
        nonlocal visited
        visited += 1
        if visited > CHECK_BUDGET:
            raise Unconfirmed(f"the strategy's plays visit more than {CHECK_BUDGET:,} configurations")
        if c[0] in m.accept:
            return None
        if c[0] in m.reject:
            return f"a play reaches the rejecting configuration {c}"
        nexts = _step(m, c)
        if c[0] in m.universal:
            if not nexts:
                return None  # all of its successors (none) accept
            if left == 0:
                return f"a play is not accepted within {task.steps} steps (at {c})"
            return next((why for n in nexts if (why := wins(n, left - 1))), None)
        if c not in chosen:
            return f"the strategy makes no choice in the existential configuration {c}"
        if chosen[c] not in nexts:
            return f"the strategy's choice in {c} is no successor of it"
        if left == 0:
            return f"a play is not accepted within {task.steps} steps (at {c})"
        return wins(chosen[c], left - 1)

    import sys

    depth = sys.getrecursionlimit()
    sys.setrecursionlimit(max(depth, 4 * task.steps + 1000))
    try:
        why = wins((m.start, 0, task.word.rstrip(m.blank)), task.steps)
    finally:
        sys.setrecursionlimit(depth)
    if why:
        return False, why
    return True, f"the strategy wins every play ({visited:,} positions played)"


def accepts_within(task: Task) -> bool:
    """The checker's own answer: whether ``q0 w`` accepts within the bound, by the
    definition read top down (memoised on configuration and steps left), or
    :class:`Unconfirmed` beyond :data:`CHECK_BUDGET` configurations."""
    m = task.machine
    memo: dict[tuple[Config, int], bool] = {}
    start = ((m.start, 0, task.word.rstrip(m.blank)), task.steps)
    # an explicit stack: the depth is the bound, which may be deep
    stack = [start]
    while stack:
        c, left = stack[-1]
        if (c, left) in memo:
            stack.pop()
            continue
        if len(memo) > CHECK_BUDGET:
            raise Unconfirmed(f"the checker's own search passed {CHECK_BUDGET:,} positions")
        if c[0] in m.accept or c[0] in m.reject:
            memo[c, left] = c[0] in m.accept
            stack.pop()
            continue
        nexts = _step(m, c)
        if not nexts or left == 0:
            memo[c, left] = not nexts and c[0] in m.universal
            stack.pop()
            continue
        missing = [(n, left - 1) for n in nexts if (n, left - 1) not in memo]
        if missing:
            stack.extend(missing)
            continue
        values = [memo[n, left - 1] for n in nexts]
        memo[c, left] = all(values) if c[0] in m.universal else any(values)
        stack.pop()
    return memo[start]


def check_outcome(task: Task, outcome: Outcome) -> tuple[bool | None, str]:
    """The checker of ``machine accepts`` and ``machine run``: an accepting run replayed or
    a strategy played out; "no" by the deterministic machine's one run replayed, else by
    the checker's own search (:func:`accepts_within`)."""
    if outcome.status not in ("solved", "no-solution"):
        return None, "no answer to check"
    witness = outcome.witness if isinstance(outcome.witness, dict) else {}
    if outcome.answer is True:
        if task.machine.universal:
            return check_strategy(task, witness.get("strategy"))
        return check_run(task, witness.get("run"))
    if outcome.answer is False:
        if task.machine.kind == "deterministic" and "run" in witness:
            return check_run(task, witness["run"], accepts=False)
        if accepts_within(task):
            return False, f"the machine accepts {task.word!r} within {task.steps} steps (the checker's own search)"
        return True, f"no acceptance within {task.steps} steps (the checker's own search)"
    return False, f"the answer must be true or false, got {outcome.answer!r}"


def check_savitch(task: Task, outcome: Outcome) -> tuple[bool | None, str]:
    """The checker of ``machine savitch``: player 1's play, a run within the space and the
    interval (waiting steps left out), replayed; "player 2 wins" by the checker's own
    breadth-first search over the configurations of the space."""
    if outcome.status not in ("solved", "no-solution"):
        return None, "no answer to check"
    m, space = task.machine, task.space or 1
    witness = outcome.witness if isinstance(outcome.witness, dict) else {}
    if outcome.answer is True:
        run = witness.get("run")
        if not isinstance(run, list) or not run:
            return False, f"not a run: {run!r}"
        configs = [_config(m, c) for c in run]
        if None in configs:
            return False, f"not a configuration: {run[configs.index(None)]!r}"
        if configs[0] != (m.start, 0, task.word.rstrip(m.blank)):
            return False, f"the play starts at {run[0]!r}, not at the machine's start"
        if len(run) - 1 > task.steps:
            return False, f"the run takes {len(run) - 1} steps, beyond the interval {task.steps}"
        for i, (a, b) in enumerate(pairwise(configs), 1):
            if b not in _step(m, a) or b[1] >= space:
                return False, f"step {i}: {run[i - 1]!r} -> {run[i]!r} is no step within space {space}"
        if configs[-1][0] not in m.accept:
            return False, f"the play ends in {run[-1]!r}, not in an accepting state"
        return True, f"player 1's play replayed: a run of {len(run) - 1} steps within space {space}"
    if outcome.answer is False:
        start = (m.start, 0, task.word.rstrip(m.blank))
        depth = {start: 0}
        queue = [start]
        for c in queue:  # breadth first: the queue grows as it is read
            if c[0] in m.accept:
                return False, f"{c} is reachable in {depth[c]} steps within space {space} (the checker's own search)"
            if len(depth) > CHECK_BUDGET:
                raise Unconfirmed(f"the checker's own search passed {CHECK_BUDGET:,} configurations")
            if depth[c] < task.steps:
                for n in _step(m, c):
                    if n[1] < space and n not in depth:
                        depth[n] = depth[c] + 1
                        queue.append(n)
        return True, f"no accepting configuration within {task.steps} steps in space {space} ({len(depth):,} configurations searched)"
    return False, f"the answer must be true or false, got {outcome.answer!r}"


def check_alt(task: Task, outcome: Outcome) -> tuple[bool | None, str]:
    """The checker of ``machine alt``. With the proof's challenges (``s`` in -2..2) the
    winner must be what the notes prove it is: player 1 iff the machine accepts within
    the bound, by the checker's own run of the machine, and player 1's opening claim
    must be true of that run. With the notes' literal rule (``s`` in -1..1) the game is
    solved again as an explicit graph (positions and moves), by backward induction."""
    if outcome.status not in ("solved", "no-solution"):
        return None, "no answer to check"
    m = task.machine
    witness = outcome.witness if isinstance(outcome.witness, dict) else {}
    challenge = witness.get("challenge", 2)
    if challenge == 1:
        from pyasp_games.domains.machine.alt import game_graph

        try:
            arcs, _ = game_graph(task, 1)
        except InputError as err:
            raise Unconfirmed(str(err)) from None
        moves: dict[str, list[str]] = {}
        for u, v in arcs:
            moves.setdefault(u, []).append(v)
        wins: dict[str, bool] = {}
        order = [("start", False)]
        while order:  # the graph is acyclic (times go down): depth first, then decide
            node, ready = order.pop()
            if node in wins:
                continue
            if not ready:
                order.append((node, True))
                order += [(v, False) for v in moves.get(node, []) if v not in wins]
                continue
            wins[node] = any(not wins[v] for v in moves.get(node, []))
        said = wins["start"]
        if said is not outcome.answer:
            return False, f"the explicit game graph ({len(wins):,} positions) says player {1 if said else 2} wins"
        return True, f"the explicit game graph ({len(wins):,} positions) agrees: player {1 if said else 2} wins"
    config = (m.start, 0, task.word.rstrip(m.blank))
    for _ in range(task.steps):
        if config[0] in m.accept:
            break
        nexts = _step(m, config)
        if len(nexts) != 1:
            break
        config = nexts[0]
    accepted = config[0] in m.accept
    if outcome.answer is not accepted:
        return False, (f"the machine {'accepts' if accepted else 'does not accept'} within {task.steps} steps "
                       f"(the checker's run), so player {1 if accepted else 2} wins")  # fmt: skip
    if accepted:
        claim = witness.get("claim")
        if claim != [config[1] + 1, task.steps + 1, config[0]]:
            return False, f"player 1's opening claim {claim} is not the run's: {[config[1] + 1, task.steps + 1, config[0]]}"
    return True, f"player {1 if accepted else 2} wins, as the machine's run within {task.steps} steps says"
