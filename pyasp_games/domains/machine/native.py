"""The direct simulator: acceptance within ``T`` steps over the configurations.

One algorithm for the three kinds of machine, the notes' inductive definition of an
accepting configuration (section 6) computed as a least fixpoint over the configurations
reachable from ``q0 w`` within ``T`` steps, stage by stage: stage 0 holds the
configurations in an accepting state (and the universal ones with no successor, which
accept vacuously), stage ``k + 1`` adds the existential configurations with a successor
in stage ``k`` and the universal ones with all their successors in it. ``w`` is accepted
within ``T`` steps when ``q0 w`` is in stage ``T``. With no universal state this is
breadth-first search: the witness is then a shortest accepting run (for a deterministic
machine, the run, accepting or not); for an alternating machine it is the strategy of
the existential player (the successor it chooses in each configuration it meets).

>>> from pyasp_games.domains.machine.model import FLIP, Task, parse_machine
>>> claim = simulate(Task(parse_machine(FLIP), "01", 5))
>>> claim.answer, claim.witness["run"]
(True, ['[q0]01', '1[q0]1', '10[q0]_', '10[yes]_'])
"""

from __future__ import annotations

from typing import Any

from pyasp_games.domains.machine.model import (
    Config,
    Machine,
    Task,
    accepting,
    format_config,
    initial,
    reachable,
    run_of,
    strategy_of,
)
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.limits import Deadline, LimitReached, Limits


def acceptance_ranks(machine: Machine, depth: dict[Config, int], succ: dict[Config, tuple[Config, ...]],
                     steps: int, deadline: Deadline | None = None) -> dict[Config, int]:  # fmt: skip
    """The least fixpoint, stage by stage: each configuration accepting within the steps
    left to it (``steps`` minus its depth), with the first stage it enters."""
    rank: dict[Config, int] = {}
    for c in depth:
        if c[0] in machine.reject:
            continue
        if accepting(machine, c) or (c[0] in machine.universal and c in succ and not succ[c]):
            rank[c] = 0
    for k in range(1, steps + 1):
        if deadline is not None:
            deadline.check()
        added = {}
        for c, nexts in succ.items():
            if c in rank or depth[c] > steps - k or not nexts:
                continue
            if c[0] in machine.universal:
                if all(n in rank for n in nexts):
                    added[c] = k
            elif any(n in rank for n in nexts):
                added[c] = k
        if not added:
            break
        rank.update(added)
    return rank


def simulate(task: Task, limits: Limits = Limits()) -> Claim:
    """Whether ``task.machine`` accepts ``task.word`` within ``task.steps`` steps.

    Witness: ``run`` (the configurations of an accepting run, or of the one run of a
    deterministic machine), or ``strategy`` (alternating: the configuration chosen in
    each existential configuration met); ``configurations``: how many were reachable.
    """
    deadline = limits.deadline()
    m = task.machine
    start = initial(m, task.word)
    try:
        depth, succ = reachable(m, start, task.steps, deadline)
        rank = acceptance_ranks(m, depth, succ, task.steps, deadline)
    except LimitReached:
        return Claim.unknown({"limit": "time"})
    stats = {"configurations": len(depth), "depth": max(depth.values())}
    witness: dict[str, Any] = {"configurations": len(depth)}
    if m.kind == "deterministic":  # the one run, however it ends
        run, c = [start], start
        while succ.get(c) and len(run) <= task.steps:
            c = succ[c][0]
            run.append(c)
            if accepting(m, c):
                break
        witness["run"] = [format_config(m, x) for x in run]
    accepted = start in rank
    if not accepted:
        return Claim.none(False, witness, stats=stats)
    if m.universal:
        witness["strategy"] = strategy_of(m, start, succ, rank)
    else:
        witness["run"] = run_of(m, start, succ, rank)
    return Claim.solved(True, witness, stats=stats)
