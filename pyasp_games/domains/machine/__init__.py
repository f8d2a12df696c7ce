"""Turing machines as games: the simulator, Cook-Levin, alternation, Savitch's game, ALT(w).

The lecture notes' machines (sections 6, 7, 10): a machine file (deterministic,
nondeterministic or alternating), its direct simulator (``machine run``), acceptance
within a bound by the simulator, by the Cook-Levin CNF and program and by the least
fixpoint of the notes' definition (``machine accepts``), reachability by Savitch's game
(``machine savitch``) and bounded halting by the game ALT(w) (``machine alt``), every
answer checked by :mod:`~pyasp_games.domains.machine.verify` (runs replayed,
strategies played out, "no" searched again, ALT(w)'s winner against the machine's run).

>>> from pyasp_games.domains.machine.model import FLIP, Task, parse_machine
>>> out = solve(Task(parse_machine(FLIP), "0110", 5), "asp")
>>> out.answer, out.verdict.verified
(True, True)
"""

from __future__ import annotations

from typing import Any

from pyasp_games.domains.machine.model import Machine, Task, load_instances
from pyasp_games.domains.machine.questions import ACCEPTS, BACKENDS, QUESTIONS
from pyasp_games.engines.domain import DomainSpec
from pyasp_games.engines.fuzzing import Family, Fuzzing, plural
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome

__all__ = ["BACKENDS", "QUESTIONS", "Machine", "Task", "domain", "solve"]


def solve(task: Task, backend: str, limits: Limits = Limits(), **options: Any) -> Outcome:
    """Whether the machine accepts the word within the bound, by ``backend``, verified
    (:data:`~pyasp_games.domains.machine.questions.ACCEPTS`).

    Parameters
    ----------
    task : Task
        The machine, the word and the bound on the steps
        (:func:`~pyasp_games.domains.machine.model.read_task` reads them).
    backend : str
        ``native`` (the simulator), ``sat`` (the Cook-Levin CNF), ``asp`` (its
        program), ``fixpoint`` (the least fixpoint of acceptance, alternating machines
        too).
    limits : Limits
        The time and memory limits.

    Returns
    -------
    Outcome
        Answer ``True``/``False``; witness ``{run | strategy, ...}``; the verdict
        holds the checker's replay.

    Examples
    --------
    >>> from pyasp_games.domains.machine.model import FLIP, Task, parse_machine
    >>> solve(Task(parse_machine(FLIP), "01", 2), "sat").answer
    False
    """
    return ACCEPTS.solve(task, backend, limits, **options)


def _known(task: Task) -> tuple[bool, Any]:
    return task.known is not None, task.known


def domain() -> DomainSpec:
    """The machine domain for crosscheck and bench (answers: ``machine accepts``)."""
    from pyasp_games.domains.machine.model import random_task

    return DomainSpec.asking(
        ACCEPTS, load_instances, _known, generators={"random": random_task}, questions=QUESTIONS,
        fuzzing=fuzzing(), applies=_applies,
    )  # fmt: skip


def _applies(task: Task, backend: str) -> bool:
    """The Cook-Levin tableau is one run: ``sat`` and ``asp`` answer machines without
    universal states (crosscheck runs them only there)."""
    return backend not in ("sat", "asp") or not task.machine.universal


def fuzzing() -> Fuzzing:
    """What ``pyasp-games fuzz machine`` draws: small random machines and words."""
    from pyasp_games.domains.machine.model import format_task, small_tasks, strategy

    family = Family(
        "random",
        "machines of up to N transitions over 2 states and {a, b}, words of up to 3 symbols",
        strategy=strategy,
        small=small_tasks,
        small_help="the bundled nondeterministic machines on every word of up to 2 symbols, bounds 0 to 4",
        sizes=(2, 8),
        unit="transitions",
    )
    return Fuzzing(
        ("accepts",), (family,), size=lambda t: len(t.machine.transitions), unit="transitions",
        write=format_task,
        measure=lambda t: f"{plural(len(t.machine.transitions), 'transition')}, word {t.word!r}, {t.steps} steps",
    )  # fmt: skip
