"""Running one backend of a domain: limits, timing and verification in one place.

Every domain's ``solve(instance, backend, limits, **options)`` is this function
with the domain's backend table and checker filled in, so all domains treat a
reached limit, a failed verification and the timing identically.

>>> from pyasp_games.engines.outcome import Outcome
>>> def guess(x, limits):
...     return Outcome("", "", "solved", x * 2, x * 2)
>>> def check(x, outcome):
...     return outcome.witness == x + x, "doubling checked"
>>> out = run_backend({"guess": guess}, "guess", 21, "n=21", Limits(), check)
>>> out.status, out.answer, out.verdict.verified
('solved', 42, True)
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from pyasp_games.engines.enforcement import memory_cap, memory_stop
from pyasp_games.engines.limits import LimitReached, Limits, default_memory_limit
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.processes import child_started
from pyasp_games.errors import MalformedAnswer, Unconfirmed

#: ``check(instance, outcome) -> (True | False | None, message)``; ``None``: nothing to check.
Checker = Callable[[Any, Outcome], tuple[bool | None, str]]


#: Seconds past the time limit after which a backend still running is stopped by force.
GRACE = 0.5


def run_backend(
    backends: Mapping[str, Callable[..., Outcome]],
    backend: str,
    instance: Any,
    problem: str,
    limits: Limits,
    check: Checker,
    **options: Any,
) -> Outcome:
    """Run ``backends[backend](instance, limits, **options)``; time and verify it.

    A backend signals a reached limit by returning status ``unknown`` or by
    raising :class:`LimitReached` (whose first argument may carry statistics). It
    runs under a memory cap (``limits.memory_limit``, by default
    :func:`~pyasp_games.engines.limits.default_memory_limit`); running out of
    memory is ``unknown`` with ``stats["limit"] = "memory"``.
    With a time limit the backend runs in a forked child process as well, which is
    stopped :data:`GRACE` seconds after the limit if it has not returned by then:
    the limit holds even where a backend cannot look at the clock (clingo's
    grounding, a long library call). The backend receives the limits started
    (:meth:`~pyasp_games.engines.limits.Limits.started`): limits that already run (a
    stage handing its own on) keep their clock. The outcome's
    :class:`~pyasp_games.engines.verdict.Verdict` records the checker's word (``verified``
    True/False/None and its message); a witness that fails its check turns the status
    into ``error`` (the claimed status kept as ``failed_status``). A backend reports an answer set of the wrong shape, or one
    that is no solution met while counting, as a failed verification too: it raises
    :class:`~pyasp_games.errors.MalformedAnswer`, or returns the reason in
    ``stats["malformed"]`` to keep its statistics. (A user encoding's claims that no
    checker confirms alone are cross-checked by the question that asked,
    :meth:`~pyasp_games.engines.question.Question.solve`.)

    ``options["clingo"]`` (the user's clingo options, checked by
    :func:`~pyasp_games.engines.question.fold_clingo`) reaches every clingo session the
    backend starts (:func:`~pyasp_games.engines.clingo_runner.clingo_setting`) and is
    recorded in ``stats["clingo_options"]``.
    """
    clingo = tuple(options.pop("clingo", ()))  # the user's clingo options, for every session
    start = time.perf_counter()
    limits = limits.started()  # the backend's clock; a stage it hands the limits to shares it
    job = partial(_run_here, backends[backend], instance, problem, backend, limits, options, clingo)
    # a callback (e.g. a progress display) cannot report across a process boundary
    left = limits.deadline().remaining()
    if left is not None and _can_fork() and options.get("progress") is None:
        outcome = _run_in_child(job, problem, backend, left)
    else:
        outcome = job()
    outcome.problem, outcome.backend = problem, backend
    outcome.seconds = round(time.perf_counter() - start, 4)
    if clingo:
        outcome.stats["clingo_options"] = list(clingo)
    if outcome.status == "unknown":
        outcome.stats.setdefault("limit", "time")
    outcome.take_verdict()  # the kind of answer the backend declared after building it
    malformed = outcome.stats.pop("malformed", None)
    try:
        ok, message = (False, malformed) if malformed else check(instance, outcome)
    except Unconfirmed as err:  # the checker's own limit: the claim stands, unconfirmed
        ok, message = None, f"not verified: {err}"
        outcome.verdict.unconfirmed = str(err)
    outcome.verdict.checked(ok, message, outcome.status)
    if ok is False:
        outcome.claim_failed()
    return outcome


def _run_here(
    solver: Callable[..., Outcome],
    instance: Any,
    problem: str,
    backend: str,
    limits: Limits,
    options: dict,
    clingo: tuple[str, ...] = (),
) -> Outcome:
    from pyasp_games.engines.clingo_runner import clingo_setting

    try:
        with memory_cap(limits.memory_limit or default_memory_limit()), clingo_setting(clingo):
            return solver(instance, limits, **options)
    except LimitReached as reached:
        stats = reached.args[0] if reached.args and isinstance(reached.args[0], dict) else {}
        return Outcome(problem, backend, "unknown", None, None, 0.0, dict(stats))
    except MalformedAnswer as err:  # an answer of the wrong shape fails verification
        return Outcome(problem, backend, "solved", None, None, 0.0, {"malformed": str(err)})
    except MemoryError:
        # the frames holding the backend's data are gone here, so there is room again
        stats = memory_stop("the backend ran out of memory")
    return Outcome(problem, backend, "unknown", None, None, 0.0, stats)


def _can_fork() -> bool:
    # a daemonic process (a worker of a multiprocessing pool) may not have children
    return (
        "fork" in multiprocessing.get_all_start_methods()
        and not multiprocessing.current_process().daemon
    )


def _child(conn: Any, job: Callable[[], Outcome]) -> None:
    child_started()  # dies with the parent, even one killed outright
    try:
        result: Any = ("outcome", job())
    except BaseException as err:  # carried to the parent, which raises it there
        result = ("exception", err)
    try:
        conn.send(result)
    except Exception as err:  # an unpicklable exception: send its text
        conn.send(("exception", RuntimeError(f"{err.__class__.__name__}: {err}")))
    finally:
        conn.close()


def _run_in_child(
    job: Callable[[], Outcome], problem: str, backend: str, seconds: float
) -> Outcome:
    """Run ``job`` in a forked child; stop it ``GRACE`` seconds after ``seconds``."""
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(send, job), daemon=True)
    process.start()
    send.close()
    try:
        if receive.poll(seconds + GRACE):
            kind, value = receive.recv()
            if kind == "exception":
                raise value
            return value
    except EOFError:  # the child died without a word (killed, out of memory, ...)
        process.join()
        return Outcome(
            problem,
            backend,
            "error",
            None,
            None,
            0.0,
            {"error": f"the solver process ended with exit code {process.exitcode}"},
        )
    finally:
        if process.is_alive():
            process.kill()
        process.join()
        receive.close()
    return Outcome(
        problem,
        backend,
        "unknown",
        None,
        None,
        0.0,
        {"limit": "time", "stopped": "the solver process was stopped at the limit"},
    )
