"""The questions the machine domain answers, declared once (``pyasp-games machine ...``).

``run``: the direct simulator, every configuration of the run printed; ``accepts``:
the same question by the simulator, the Cook-Levin CNF (``sat``), its program
(``asp``) and the least fixpoint over the configurations (``fixpoint``); ``savitch``:
reachability answered by Savitch's game.

>>> from pyasp_games.domains.machine.model import FLIP, Task, parse_machine
>>> out = ACCEPTS.ask(Task(parse_machine(FLIP), "01", 3), "sat")
>>> out.answer, out.verdict.verified, out.verdict.message
(True, True, 'a run of 3 steps replayed: accepts')
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pyasp_games.domains.machine.alt import format_graph, read_alt, solve_alt
from pyasp_games.domains.machine.asp import solve_asp, solve_fixpoint
from pyasp_games.domains.machine.model import Task, read_task
from pyasp_games.domains.machine.native import simulate
from pyasp_games.domains.machine.sat import solve_sat
from pyasp_games.domains.machine.savitch import read_savitch, solve_savitch, solve_savitch_asp
from pyasp_games.domains.machine.verify import check_alt, check_outcome, check_savitch
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.question import (
    EMIT_CNF,
    EMIT_LP,
    SOLVER,
    Output,
    Param,
    Question,
    encoding_param,
)
from pyasp_games.engines.reference import Reference

#: The backends of ``accepts``: ``backend(task, limits, **options) -> Claim``, answer
#: whether the machine accepts the word within the bound.
BACKENDS = {"native": simulate, "sat": solve_sat, "asp": solve_asp, "fixpoint": solve_fixpoint}

#: A user encoding's claims the checker cannot confirm alone (its own search out of
#: budget) are cross-checked against the simulator.
REFERENCE = Reference("machine", lambda task, options: ("native", {}))

INPUT = (
    Param("machine", help="A machine file (TOML: docs/machine.md).", type=Path, to="read"),
    Param("word", help="The input word ('-': the empty word; default: the file's first example).",
          to="read", optional=True),
    Param("steps", "--steps -t", "the bound on the steps (default (|word| + 1)^2 + 10, or the example's).",
          type=int, to="read", metavar="T"),
)  # fmt: skip


def _said(task: Task, outcome: Outcome) -> str | None:
    if outcome.answer is True:
        return f"{task.machine.name} accepts {task.word or '(the empty word)'!s} within {task.steps} steps"
    if outcome.answer is False:
        return f"{task.machine.name} does not accept {task.word or '(the empty word)'!s} within {task.steps} steps"
    return None


def _summary(task: Task, outcome: Outcome) -> list[str]:
    witness = outcome.witness if isinstance(outcome.witness, dict) else {}
    lines = [f"  {task.machine.kind} machine, {len(task.machine.states)} states, "
             f"{len(task.machine.transitions)} transitions"]  # fmt: skip
    if "configurations" in witness:
        lines.append(f"  configurations reachable within the bound: {witness['configurations']:,}")
    if isinstance(witness.get("cnf"), dict):
        lines.append("  cnf: {variables:,} variables, {clauses:,} clauses "
                     "(tableau {rows} x {width})".format(**witness["cnf"]))  # fmt: skip
    return lines


def describe_accepts(task: Task, outcome: Outcome, options: dict[str, Any]) -> tuple[str | None, list[str]]:
    """The formatter of ``accepts``: the answer, the run's length or the strategy's size."""
    lines = _summary(task, outcome)
    witness = outcome.witness if isinstance(outcome.witness, dict) else {}
    if outcome.answer is True and isinstance(witness.get("run"), list):
        lines.append(f"  accepting run of {len(witness['run']) - 1} steps, ends {witness['run'][-1]}")
    if outcome.answer is True and isinstance(witness.get("strategy"), dict):
        lines.append(f"  winning strategy: {len(witness['strategy'])} existential choices")
    return _said(task, outcome), lines


def describe_run(task: Task, outcome: Outcome, options: dict[str, Any]) -> tuple[str | None, list[str]]:
    """The formatter of ``run``: every configuration of the run (or the strategy)."""
    lines = _summary(task, outcome)
    witness = outcome.witness if isinstance(outcome.witness, dict) else {}
    if isinstance(witness.get("run"), list):
        lines += [f"  {t:>4}  {c}" for t, c in enumerate(witness["run"])]
    if isinstance(witness.get("strategy"), dict):
        lines.append("  existential choices:")
        lines += [f"    {a} -> {b}" for a, b in witness["strategy"].items()]
    return _said(task, outcome), lines


RUN = Question(
    "run",
    "Run the machine on the word for at most --steps steps: the direct simulator.\n\n"
    "A deterministic machine's run is printed whether it accepts or not; a "
    "nondeterministic one's shortest accepting run (breadth-first search over the "
    "configurations); an alternating one's strategy for its existential states (least "
    "fixpoint). Every answer is replayed by the checker. With --json: answer is whether "
    "it accepts, witness {run | strategy, configurations}.",
    backends={"simulator": simulate},
    check=check_outcome,
    read=read_task,
    describe=describe_run,
    params=INPUT,
)

ACCEPTS = Question(
    "accepts",
    "Does the machine accept the word within --steps steps? Simulator, SAT, ASP, fixpoint.\n\n"
    "native: the simulator; sat: the Cook-Levin CNF (notes section 7), its model decoded "
    "into the accepting run; asp: the same tableau as a program (encodings/machine/"
    "tableau.lp); fixpoint: the notes' inductive definition of acceptance as a least "
    "fixpoint (encodings/machine/fixpoint.lp), alternating machines too. Every run is "
    "replayed, every strategy played out, every 'no' searched again by the checker. "
    "With --json: answer true/false, witness {run | strategy, cnf, configurations}.",
    backends=BACKENDS,
    check=check_outcome,
    read=read_task,
    describe=describe_accepts,
    params=(*INPUT, SOLVER, encoding_param("a bundled encoding (tableau) or an .lp file.", default="tableau")),
    emits=(EMIT_LP, EMIT_CNF),
    reference=REFERENCE,
)

def describe_savitch(task: Task, outcome: Outcome, options: dict[str, Any]) -> tuple[str | None, list[str]]:
    """The formatter of ``savitch``: who wins, the game's size and depth beside the
    notes' bounds, player 1's play."""
    w = outcome.witness if isinstance(outcome.witness, dict) else {}
    word = task.word or "(the empty word)"
    said = {True: f"player 1 wins: {task.machine.name} accepts {word} within {task.steps} steps in space {task.space}",
            False: f"player 2 wins: {task.machine.name} does not accept {word} within {task.steps} steps in space {task.space}",
            }.get(outcome.answer)  # fmt: skip
    lines = []
    if "rounds" in w:
        lines += [
            f"  configurations of space {w['space']}: {w['configurations']:,} (|Q| S |Gamma|^S); "
            f"reachable from the start: {w['reachable']:,}",
            f"  the notes' interval (k+1)^p(n), k = |Gamma|, p(n) = S: {w['notes_interval']:,}",
            f"  depth: {w['rounds']} rounds of halving the interval {w['interval']:,} "
            f"(the notes' p(n) log2(k+1) = {w['notes_rounds']})",
            f"  positions: (A, L) pairs decided {w['pairs_evaluated']:,}; the game's positions at most "
            f"{w['positions_bound']:,} by length (2 x rounds x configurations^2), "
            f"{w.get('positions_with_times', 0):,} with their times ((2T - 1) x configurations^2)",
        ]  # fmt: skip
    if isinstance(w.get("run"), list):
        lines.append(f"  player 1's midpoints spell a run of {len(w['run']) - 1} steps: " + " ".join(w["run"]))
    return said, lines


SAVITCH = Question(
    "savitch",
    "Reachability by Savitch's game (notes section 6): player 1 proposes midpoints, player 2 picks a half.\n\n"
    "A position is <(a,A),(b,B)>; at b = a + 1 player 1 wins iff B is A or one step from "
    "it. Configurations of space --space S (default |word| + 1); the interval is --steps "
    "(default: the number of configurations of space S). native: the game decided "
    "position by position from the start; asp: the same rules (encodings/machine/"
    "savitch.lp). Prints the game's size and depth beside the notes' bounds; player 1's "
    "play is replayed, player 2's win checked by breadth-first search. With --json: "
    "answer true/false, witness {run, rounds, configurations, ...}.",
    backends={"native": solve_savitch, "asp": solve_savitch_asp},
    check=check_savitch,
    read=read_savitch,
    describe=describe_savitch,
    params=(INPUT[0], INPUT[1],
            Param("steps", "--steps -t", "the interval T (default: the configurations of space S).",
                  type=int, to="read", metavar="T"),
            Param("space", "--space -s", "the space S: the cells the head may visit (default |word| + 1).",
                  type=int, to="read", metavar="S")),
)

def describe_alt(task: Task, outcome: Outcome, options: dict[str, Any]) -> tuple[str | None, list[str]]:
    """The formatter of ``alt``: who wins ALT(w), player 1's opening claim, the sizes."""
    w = outcome.witness if isinstance(outcome.witness, dict) else {}
    word = task.word or "(the empty word)"
    said = {True: f"player 1 wins ALT({word}) within {task.steps} steps",
            False: f"player 2 wins ALT({word}) within {task.steps} steps"}.get(outcome.answer)  # fmt: skip
    lines = []
    if "windows" in w:
        lines.append(f"  challenges s in {list(range(-w['challenge'], w['challenge'] + 1))}; "
                     f"|Delta| = {w['symbols']}; {w['cells']:,} cells x times decided, "
                     f"{w['claims_won']:,} claims player 1 wins, {w['windows']:,} windows examined")  # fmt: skip
    if isinstance(w.get("claim"), list):
        p, t, q = w["claim"]
        lines.append(f"  player 1 opens with the claim C({t}, {p}) = {q}: after {t - 1} steps, "
                     f"state {q} on cell {p} of x q y")  # fmt: skip
    lines.append(f"  {outcome.verdict.message}" if outcome.verdict.message else "")
    return said, [line for line in lines if line]


ALT = Question(
    "alt",
    "Who wins ALT(w) (notes section 10)? Player 1 claims a window of the tableau, player 2 checks one cell.\n\n"
    "Bounded halting as a game: player 1 wins iff the deterministic machine accepts the "
    "word within --steps T; the checker runs the machine and confirms it. --challenge 2 "
    "(the default) lets player 2 check any cell of the window, as the notes' proof needs; "
    "--challenge 1 plays the notes' rule 4 as written (s in -1..1), checked by solving the "
    "explicit game graph. -o FILE writes that graph (arcs; player 1 moves at 'start') for "
    "'grundy values FILE --position start' or 'geography solve FILE'. With --json: answer "
    "true when player 1 wins, witness {claim, windows, ...}.",
    backends={"native": solve_alt},
    check=check_alt,
    read=read_alt,
    describe=describe_alt,
    params=(INPUT[0], INPUT[1],
            Param("steps", "--steps -t", "the bound T (default the notes' 2^|word|, or the example's).",
                  type=int, to="read", metavar="T"),
            Param("challenge", "--challenge", "the cells player 2 may check: 2 (s in -2..2) or 1 (s in -1..1).",
                          type=int, default=2)),
    output=Output("write ALT(w)'s game graph (arcs 'u v', player 1 moves at 'start').",
                  lambda task, outcome: format_graph(task, outcome.witness["challenge"]), (".txt",), "game graph"),
)

QUESTIONS = (RUN, ACCEPTS, SAVITCH, ALT)
