"""Cook-Levin (notes section 7, proposition 2): the CNF of the tableau of ``T`` steps,
satisfiable iff the (nondeterministic) machine accepts the word within ``T`` steps.

The tableau has ``T + 1`` rows (times 0..T) of ``W = max(|w|, T + 1)`` cells (the head
moves one cell a step). Variables, named in the DIMACS comments:

- ``sym t i a``: at time ``t`` cell ``i`` holds ``a``; ``head t i``: the head is on
  cell ``i``; ``state t q``: the state is ``q`` (each exactly one);
- ``fire t r``: step ``t -> t+1`` takes transition ``r``; ``idle t``: it takes none,
  allowed in an accepting state only (the notes' accepting configuration "stays": so
  "accepting at time T" is "accepting within T steps"); exactly one of them a step.

The clauses: the first row is ``q0 w`` (the notes' ``in``); ``fire t r`` needs ``r``'s
state and, on the cell under the head, its symbol, and sets the next state, the written
symbol and the moved head (a move left on cell 1 stays); a cell the head is not on keeps
its symbol (the frame); an idle step keeps everything; the last row is accepting (the
notes' ``fin``). Every clause has at most 4 literals but the "exactly one" groups.

The notes' ``succ`` (one symbol ``g`` or ``h`` of a 5-cell window, "xor") has two
gaps this encoding closes (docs/machine.md): the choice between ``g`` and ``h`` made
cell by cell may mix two successors (here one ``fire`` variable a step chooses the
transition for the whole row), and nothing says a cell holds one symbol (here the
"exactly one" groups).

>>> from pyasp_games.domains.machine.model import FLIP, Task, parse_machine
>>> claim = solve_sat(Task(parse_machine(FLIP), "01", 3))
>>> claim.answer, claim.witness["run"]
(True, ['[q0]01', '1[q0]1', '10[q0]_', '10[yes]_'])
>>> solve_sat(Task(parse_machine(FLIP), "01", 2)).answer
False
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pyasp_games.domains.machine.model import Machine, Task, checked_tableau, format_config
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.sat_runner import SatSession
from pyasp_games.errors import InputError


def refuse_alternating(machine: Machine, what: str) -> None:
    """The tableau is one run: an alternating machine is refused in one line."""
    if machine.universal:
        raise InputError(
            f"{what} answers nondeterministic machines (one accepting run); {machine.name} has "
            f"universal states: use --backend native or fixpoint"
        )


def cook_levin(task: Task, s: SatSession) -> dict[str, int]:
    """Add the Cook-Levin clauses of ``task`` to the session ``s``; the sizes."""
    m = task.machine
    refuse_alternating(m, "the Cook-Levin CNF")
    rows, width = checked_tableau(task, "the Cook-Levin CNF")
    T = task.steps
    word = task.word
    for t in range(rows):
        for i in range(width):
            s.exactly_one([s.var("sym", t, i, a) for a in m.tape])
        s.exactly_one([s.var("head", t, i) for i in range(width)])
        s.exactly_one([s.var("state", t, q) for q in m.states])
    # in(C): the first row is q0 w
    s.add([s.var("state", 0, m.start)])
    s.add([s.var("head", 0, 0)])
    for i in range(width):
        s.add([s.var("sym", 0, i, word[i] if i < len(word) else m.blank)])
    for t in range(T):
        acts = [s.var("fire", t, r) for r in range(len(m.transitions))] + [s.var("idle", t)]
        s.exactly_one(acts)
        for r, tr in enumerate(m.transitions):
            f = s.var("fire", t, r)
            s.add([-f, s.var("state", t, tr.state)])
            s.add([-f, s.var("state", t + 1, tr.next)])
            for i in range(width):
                h = s.var("head", t, i)
                s.add([-f, -h, s.var("sym", t, i, tr.read)])
                s.add([-f, -h, s.var("sym", t + 1, i, tr.write)])
                moved = max(0, i + tr.move)
                if moved >= width:
                    s.add([-f, -h])
                else:
                    s.add([-f, -h, s.var("head", t + 1, moved)])
        idle = s.var("idle", t)
        s.add([-idle, *(s.var("state", t, q) for q in sorted(m.accept))])
        for q in m.states:
            s.add([-idle, -s.var("state", t, q), s.var("state", t + 1, q)])
        for i in range(width):
            h = s.var("head", t, i)
            s.add([-idle, -h, s.var("head", t + 1, i)])
            for a in m.tape:
                # the frame: a cell the head is not on keeps its symbol (idle: every cell)
                s.add([h, -s.var("sym", t, i, a), s.var("sym", t + 1, i, a)])
                s.add([-idle, -s.var("sym", t, i, a), s.var("sym", t + 1, i, a)])
    # fin(C): the last row is accepting
    s.add([s.var("state", T, q) for q in sorted(m.accept)])
    return {"variables": s.pool.top, "clauses": len(s.clauses), "rows": rows, "width": width}


def decode(task: Task, true: set[Any]) -> list[str]:
    """The run a model of the CNF describes, row by row, as configurations ``x[q]y``."""
    m = task.machine
    rows, _ = checked_tableau(task, "the Cook-Levin CNF")
    run = []
    for t in range(rows):
        state = next(name[2] for name in true if name[0] == "state" and name[1] == t)
        head = next(name[2] for name in true if name[0] == "head" and name[1] == t)
        cells = sorted((name[2], name[3]) for name in true if name[0] == "sym" and name[1] == t)
        config = (state, head, "".join(a for _, a in cells).rstrip(m.blank))
        run.append(format_config(m, config))
        if state in m.accept:  # the idle rows after acceptance repeat it
            break
    return run


def solve_sat(
    task: Task, limits: Limits = Limits(), solver: str = "glucose4", emit_cnf: Path | str | None = None
) -> Claim:
    """Solve the Cook-Levin CNF of ``task``: ``True`` with the decoded accepting run, or
    ``False`` (unsatisfiable: no run accepts within the bound)."""
    with SatSession(solver, limits.deadline()) as s:  # the clauses kept: counted, written
        sizes = cook_levin(task, s)
        if emit_cnf is not None:
            s.write_dimacs(emit_cnf, comment=cnf_comment(task))
        result = s.solve()
        stats = {**s.statistics(), **{f"cnf_{k}": v for k, v in sizes.items()}}
        if result is None:
            return Claim.unknown({**stats, "limit": "time"})
        witness: dict[str, Any] = {"cnf": sizes}
        if not result:
            return Claim.none(False, witness, stats=stats)
        true = set(s.true_names())
    witness["run"] = decode(task, true)
    return Claim.solved(True, witness, stats=stats)


def cnf_comment(task: Task) -> str:
    """The header of a written CNF: what it asks."""
    m = task.machine
    return (f"Cook-Levin CNF: does {m.name} accept {task.word!r} within {task.steps} steps?\n"
            f"satisfiable iff it does; each model is an accepting run (var names below)")  # fmt: skip
