"""One long-lived process that answers a fuzz session's questions, and is replaced when
an answer runs past its limit.

A question answered under a time limit runs in a child process forked for that answer
alone (:func:`pyasp_games.engines.runner.run_backend`), so that a grounding that never
ends is stopped too. That fork costs more than answering a tiny instance (110 ms against
14 ms for clingo on a 3-position game graph), and a fuzz session answers hundreds of
tiny instances: here one forked worker answers them all, in its own process (a daemonic
process forks no further child: the answer's deadline is held inside it, by clingo's
cancelled search and the backends' polling), and the session kills and replaces the
worker when an answer has not come back :data:`~pyasp_games.engines.runner.GRACE`
seconds after its limit (a grounding that never ends): status ``unknown``, as before.

>>> from pyasp_games.domains import domain_spec
>>> from pyasp_games.engines.question import find_question
>>> from pyasp_games.domains.grundy.model import small_game_graphs
>>> q = find_question(domain_spec("grundy").questions, "exists")
>>> with Worker(q) as worker:
...     out = worker.solve(next(iter(small_game_graphs())), "native", Limits(time_limit=5), q.fixed)
>>> out.status, out.answer
('solved', True)
"""

from __future__ import annotations

import contextlib
import multiprocessing
from typing import Any

from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.question import Question
from pyasp_games.engines.runner import GRACE, _can_fork


class Worker:
    """Answers ``question`` in a forked process of its own (in this process where no
    fork can be had)."""

    def __init__(self, question: Question) -> None:
        self.question = question
        self.process: Any = None
        self.conn: Any = None

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _start(self) -> None:
        context = multiprocessing.get_context("fork")
        mine, theirs = context.Pipe()
        self.process = context.Process(target=_serve, args=(theirs, self.question), daemon=True)
        self.process.start()
        theirs.close()
        self.conn = mine

    def close(self) -> None:
        """End the worker (it is started again by the next answer)."""
        if self.process is not None:
            with contextlib.suppress(OSError):
                self.conn.send(None)
            self.process.join(0.5)
            if self.process.is_alive():
                self.process.kill()
                self.process.join()
            self.conn.close()
        self.process = self.conn = None

    def solve(self, instance: Any, backend: str, limits: Limits, options: dict[str, Any],
              **extra: Any) -> Outcome:  # fmt: skip
        """``question.solve(instance, backend, limits, **extra, **options)`` in the worker."""
        if not _can_fork():
            return self.question.solve(instance, backend, limits, **extra, **options)
        if self.process is None:
            self._start()
        self.conn.send((instance, backend, limits, {**extra, **options}))
        wait = None if limits.time_limit is None else limits.time_limit + GRACE
        try:
            if self.conn.poll(wait):
                kind, value = self.conn.recv()
                if kind == "exception":
                    raise value
                return value
        except EOFError:  # the worker died (killed, out of memory): the next one starts anew
            code = self.process.exitcode if self.process is not None else None
            self.close()
            return Outcome(getattr(instance, "name", ""), backend, "error", None, None, 0.0,
                           {"error": f"the solver process ended with exit code {code}"})  # fmt: skip
        self.close()  # past its limit: stopped, and replaced by the next answer
        return Outcome(getattr(instance, "name", ""), backend, "unknown", None, None, 0.0,
                       {"limit": "time", "stopped": "the solver process was stopped at the limit"})


def _serve(conn: Any, question: Question) -> None:
    from pyasp_games.engines.processes import child_started

    child_started()  # dies with the session
    while True:
        try:
            job = conn.recv()
        except EOFError:
            return
        if job is None:
            return
        instance, backend, limits, options = job
        try:
            result: Any = ("outcome", question.solve(instance, backend, limits, **options))
        except BaseException as err:  # carried to the session, which raises it there
            result = ("exception", err)
        try:
            conn.send(result)
        except Exception as err:  # an unpicklable exception or outcome: its text
            conn.send(("exception", RuntimeError(f"{err.__class__.__name__}: {err}")))
