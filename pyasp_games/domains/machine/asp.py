"""The ASP backends: the Cook-Levin tableau as a program (``tableau.lp``, one answer set
per accepting run) and acceptance as a least fixpoint over the configuration graph
(``fixpoint.lp``, alternating machines too).

>>> from pyasp_games.domains.machine.model import FLIP, Task, parse_machine
>>> solve_asp(Task(parse_machine(FLIP), "01", 3)).witness["run"]
['[q0]01', '1[q0]1', '10[q0]_', '10[yes]_']
>>> claim = solve_fixpoint(Task(parse_machine(FLIP), "01", 3))
>>> claim.answer, claim.witness["run"][-1]
(True, '10[yes]_')
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pyasp_games.domains.machine.model import (
    Config,
    Task,
    checked_tableau,
    format_config,
    initial,
    reachable,
    run_of,
    strategy_of,
)
from pyasp_games.domains.machine.sat import refuse_alternating
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.clingo_runner import int_arguments, run_program, write_facts
from pyasp_games.engines.limits import LimitReached, Limits
from pyasp_games.engines.resources import encoding_path
from pyasp_games.errors import MalformedAnswer

DOMAIN = "machine"


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def facts(task: Task) -> str:
    """The tableau's facts: the machine, the word, the bound and the width."""
    m = task.machine
    _, width = checked_tableau(task, "the Cook-Levin program")
    out = [f"steps({task.steps}).", f"width({width}).", f"start({_quoted(m.start)}).",
           f"blank({_quoted(m.blank)})."]  # fmt: skip
    out += [f"accept({_quoted(q)})." for q in sorted(m.accept)]
    out += [f"word({i},{_quoted(a)})." for i, a in enumerate(task.word)]
    out += [f"delta({r},{_quoted(t.state)},{_quoted(t.read)},{_quoted(t.next)},{_quoted(t.write)},{t.move})."
            for r, t in enumerate(m.transitions)]  # fmt: skip
    return "\n".join(out) + "\n"


def read_run(task: Task, symbols: list[Any]) -> list[str]:
    """The run an answer set shows (``state/2``, ``head/2``, ``cell/3``), up to acceptance."""
    m = task.machine
    state: dict[int, str] = {}
    head: dict[int, int] = {}
    cells: dict[int, dict[int, str]] = {}
    try:
        for s in symbols:
            if s.name == "state" and len(s.arguments) == 2:
                state[s.arguments[0].number] = s.arguments[1].string
            elif s.name == "head":
                t, i = int_arguments(s, "head", 2, "a time and a cell")
                head[t] = i
            elif s.name == "cell" and len(s.arguments) == 3:
                cells.setdefault(s.arguments[0].number, {})[s.arguments[1].number] = s.arguments[2].string
    except RuntimeError:  # clingo's word for a symbol of another type (a number for a string)
        raise MalformedAnswer(f"the answer set shows {s}, not state(Time,\"Q\"), head(Time,Cell) or cell(Time,Cell,\"A\")") from None
    run = []
    for t in range(task.steps + 1):
        if t not in state or t not in head or t not in cells:
            raise MalformedAnswer(f"the answer set gives no configuration at time {t}")
        tape = "".join(cells[t].get(i, m.blank) for i in range(max(cells[t], default=-1) + 1))
        run.append(format_config(m, (state[t], head[t], tape.rstrip(m.blank))))
        if state[t] in m.accept:
            break
    return run


def solve_asp(
    task: Task, limits: Limits = Limits(), encoding: str = "tableau", emit_lp: Path | str | None = None
) -> Claim:
    """The Cook-Levin program: ``True`` with the accepting run an answer set shows, or
    ``False`` (no answer set: no run accepts within the bound)."""
    refuse_alternating(task.machine, "the Cook-Levin program")
    program = encoding_path(DOMAIN, encoding)
    text = facts(task)
    if emit_lp is not None:
        write_facts(emit_lp, text, [program], f"machine {task.name} within {task.steps} steps")
    return run_program([program], text, limits.deadline(), lambda symbols: read_run(task, symbols),
                       claim=lambda run: Claim.solved(True, {"run": run}))  # fmt: skip


def graph_facts(task: Task, limits: Limits) -> tuple[str, list[Config], dict[Config, tuple[Config, ...]]]:
    """The configuration graph within the bound as facts (configurations numbered in the
    order found), the configurations and their successors."""
    m = task.machine
    start = initial(m, task.word)
    depth, succ = reachable(m, start, task.steps, limits.deadline())
    configs = list(depth)
    number = {c: i for i, c in enumerate(configs)}
    out = [f"steps({task.steps}).", "start(0)."]
    for c, i in number.items():
        out.append(f"left({i},{task.steps - depth[c]}).")
        if c[0] in m.accept:
            out.append(f"final({i}).")
        if c[0] in m.reject:
            out.append(f"rejecting({i}).")
        if c[0] in m.universal:
            out.append(f"universal({i}).")
        if succ.get(c):
            out.append(f"moves({i}).")
            out += [f"next({i},{number[d]})." for d in succ[c] if d in number]
    return "\n".join(out) + "\n", configs, succ


def solve_fixpoint(
    task: Task, limits: Limits = Limits(), emit_lp: Path | str | None = None
) -> Claim:
    """Acceptance as the least fixpoint of ``fixpoint.lp`` over the configurations
    reachable within the bound: ``True`` with a run (or, alternating, the existential
    player's strategy) read down the ranks, or ``False``."""
    m = task.machine
    program = encoding_path(DOMAIN, "fixpoint")
    try:
        text, configs, succ = graph_facts(task, limits)
    except LimitReached:
        return Claim.unknown({"limit": "time"})
    if emit_lp is not None:
        write_facts(emit_lp, text, [program], f"machine {task.name}: acceptance as a least fixpoint")

    def read(symbols: list[Any]) -> Claim:
        rank = {}
        accepted = False
        for s in symbols:
            if s.name == "rank":
                i, k = int_arguments(s, "rank", 2, "a configuration and a stage")
                if not 0 <= i < len(configs):
                    raise MalformedAnswer(f"rank({i},{k}) names no configuration")
                rank[configs[i]] = k
            elif s.name == "accepted":
                accepted = True
        witness: dict[str, Any] = {"configurations": len(configs)}
        stats = {"configurations": len(configs)}
        if not accepted:
            return Claim.none(False, witness, stats=stats)
        if m.universal:
            witness["strategy"] = strategy_of(m, configs[0], succ, rank)
        else:
            witness["run"] = run_of(m, configs[0], succ, rank)
        return Claim.solved(True, witness, stats=stats)

    return run_program([program], text, limits.deadline(), read,
                       no_answer_set="the least fixpoint has no answer set")  # fmt: skip
