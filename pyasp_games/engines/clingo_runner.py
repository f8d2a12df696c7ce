"""Grounding and solving with clingo under a wall-clock limit.

A :class:`ClingoSession` wraps one ``clingo.Control``: it loads encodings, adds
facts, grounds program parts, and solves asynchronously so that a deadline can
cancel the search. Models are copied out of the callback as plain symbols (a
``clingo.Model`` must not outlive it). :meth:`ClingoSession.solve_horizons` runs
the multi-shot planning loop used by clingo's ``incmode``: ``#program step(t)``
adds time step ``t``, ``#program check(t)`` holds the goal guarded by
``#external query(t)``. :meth:`ClingoSession.enumerate_distinct` counts and lists
solutions, not answer sets: projected on the output predicates, decoded, each
checked, and counted once however many answer sets give it. :func:`run_program` is the
one "one answer / count answers" call of a backend: a program grounded and solved
under limits, its answer sets read into a
:class:`~pyasp_games.engines.claim.Claim`. :func:`write_facts` writes
what ``--emit-lp`` gives: the facts a backend ran, under a header whose ``% run:`` line
is the call that runs them by hand.

>>> s = ClingoSession(facts="p(1..3). #show p/1.")
>>> s.ground([("base", [])])
>>> r = s.solve()
>>> r.status, sorted(str(a) for a in r.symbols)
('sat', ['p(1)', 'p(2)', 'p(3)'])
>>> s = ClingoSession(facts="{p(1..2)}. {junk}. #show p/1.", project=["p/1"])
>>> s.ground([("base", [])])
>>> e = s.enumerate_distinct(lambda symbols: sorted(str(a) for a in symbols), keep=True)
>>> e.status, e.count, sorted(e.solutions)
('sat', 4, [[], ['p(1)'], ['p(1)', 'p(2)'], ['p(2)']])
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import shlex
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pyasp_games.engines.claim import Claim
from pyasp_games.engines.files import write_text
from pyasp_games.engines.horizon_search import search_horizons
from pyasp_games.engines.limits import Deadline, LimitReached
from pyasp_games.errors import InputError, MalformedAnswer


def int_arguments(symbol: Any, name: str, arity: int, what: str) -> tuple[int, ...]:
    """The integer arguments of an output atom ``name/arity``; any other shape raises
    :class:`~pyasp_games.errors.MalformedAnswer` naming the atom and what was expected.

    >>> import clingo
    >>> int_arguments(clingo.parse_term("chosen(3)"), "chosen", 1, "a subset index")
    (3,)
    >>> int_arguments(clingo.parse_term("chosen(a)"), "chosen", 1, "a subset index")
    Traceback (most recent call last):
        ...
    pyasp_games.errors.MalformedAnswer: the answer set shows chosen(a), expected chosen/1 with a subset index
    """
    import clingo

    args = symbol.arguments
    if len(args) != arity or any(a.type != clingo.SymbolType.Number for a in args):
        raise MalformedAnswer(f"the answer set shows {symbol}, expected {name}/{arity} with {what}")
    return tuple(a.number for a in args)


#: The user's clingo options for the backend running now (``--clingo-option``, ``-c``,
#: ``--parallel-mode``): every :class:`ClingoSession` started under :func:`clingo_setting`
#: passes them to clingo before its own, and :func:`write_facts` puts them on the
#: ``% run:`` line -- one place for every ASP backend of every domain.
_SETTING: ContextVar[tuple[str, ...]] = ContextVar("clingo_setting", default=())

#: ``-c NAME=VALUE``: a constant's name, as clingo's grammar has it
_CONSTANT = re.compile(r"[_']*[a-z][A-Za-z0-9_']*=\S.*")


@contextmanager
def clingo_setting(arguments: Sequence[str]) -> Iterator[None]:
    """Run the block with ``arguments`` added to every clingo session it starts.

    >>> with clingo_setting(["--configuration=crafty"]):
    ...     ClingoSession(facts="a.").arguments[:1]
    ['--configuration=crafty']
    """
    token = _SETTING.set(tuple(arguments))
    try:
        yield
    finally:
        _SETTING.reset(token)


_OPENED: ContextVar[list | None] = ContextVar("opened_sessions", default=None)


@contextmanager
def sessions_opened() -> Iterator[list]:
    """Collect the clingo sessions the block opens, so that a run ending without an
    outcome (an answer of the wrong shape) still reports what grounding and solving cost.

    >>> with sessions_opened() as opened:
    ...     _ = ClingoSession(facts="a.")
    >>> len(opened)
    1
    """
    opened: list = []
    token = _OPENED.set(opened)
    try:
        yield opened
    finally:
        _OPENED.reset(token)


def current_setting() -> tuple[str, ...]:
    """The clingo options of the backend running now (``()``: clingo's defaults)."""
    return _SETTING.get()


def clingo_arguments(
    options: Sequence[str] = (), constants: Sequence[str] = (), parallel_mode: str | None = None
) -> list[str]:
    """clingo's command-line arguments for ``--clingo-option`` (each as given),
    ``-c NAME=VALUE`` and ``--parallel-mode N[,MODE]``, checked by clingo itself before
    any work: a refused option is an :class:`InputError` with clingo's own message.

    >>> clingo_arguments(["--configuration=crafty"], ["n=3"], "2")
    ['--configuration=crafty', '-c', 'n=3', '--parallel-mode=2']
    >>> clingo_arguments(["--configuration=sluggish"])
    Traceback (most recent call last):
        ...
    pyasp_games.errors.InputError: clingo refuses --configuration=sluggish: Could not open config file 'sluggish'
    >>> clingo_arguments(constants=["n"])
    Traceback (most recent call last):
        ...
    pyasp_games.errors.InputError: -c n: expected NAME=VALUE (NAME starting with a lower-case letter)
    >>> clingo_arguments(["--enum-mode=brave"])
    Traceback (most recent call last):
        ...
    pyasp_games.errors.InputError: clingo option --enum-mode=brave: enumeration mode brave reports consequences, not answer sets, which is what this tool reads (run clingo itself for consequences)
    """
    import clingo

    args = list(options)
    for constant in constants:
        if not _CONSTANT.fullmatch(constant):
            raise InputError(
                f"-c {constant}: expected NAME=VALUE (NAME starting with a lower-case letter)"
            )
        args += ["-c", constant]
    if parallel_mode is not None:
        args.append(f"--parallel-mode={parallel_mode}")
    said: list[str] = []
    try:
        ctl = clingo.Control(args, logger=lambda code, message: said.append(message), message_limit=1)
    except RuntimeError as err:
        reason = said[0] if said else str(err)
        reason = " ".join(reason.replace("In context '<libclingo>': ", "").split())
        raise InputError(f"clingo refuses {' '.join(args)}: {reason}") from None
    mode = str(ctl.configuration.solve.enum_mode)
    if mode in CONSEQUENCES:
        # each "model" would be the brave or cautious consequences, not an answer set:
        # every answer read from it (a cover, a count, a plan) would mean something else
        raise InputError(
            f"clingo option {' '.join(options)}: enumeration mode {mode} reports consequences, "
            "not answer sets, which is what this tool reads (run clingo itself for consequences)"
        )
    return args


#: clingo's enumeration modes whose models are consequences, not answer sets.
CONSEQUENCES = ("brave", "cautious", "query")


#: What runs an emitted file: clingo's own application, or for an incremental program
#: (``#include <incmode>.``) our runner of it -- ``python -m clingo`` ignores ``<incmode>``
#: (an empty model), and pip's clingo installs no ``clingo`` program.
RUNNERS = {False: "clingo", True: "pyasp_games.engines.incmode"}


def write_facts(
    path: Path | str,
    facts: str,
    encodings: Sequence[Path | str],
    about: str,
    incremental: bool = False,
    options: Sequence[str] = (),
    program: str = "",
    notes: Sequence[str] = (),
) -> None:
    """Write what ``--emit-lp`` gives: a header, then ``program`` (``#include``/``#const``
    lines the run needs), then ``facts``.

    The header says what the file holds (``about``), the ``encodings`` to run it with,
    the call that runs it (``% run: python -m clingo|pyasp_games.engines.incmode
    OPTIONS ENCODINGS PATH``, to be run as printed) and ``notes`` (e.g. how positions
    are numbered). A path that cannot be written is an :class:`InputError`.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     write_facts(f"{d}/f.lp", "p(1).\\n", ["enc.lp"], "a toy", options=["0"])
    ...     print(Path(f"{d}/f.lp").read_text().replace(d, "DIR"), end="")
    % pyasp-games a toy
    % encoding: enc.lp
    % run: python -m clingo 0 enc.lp DIR/f.lp
    p(1).
    """
    files = [str(e) for e in encodings]
    options = [*current_setting(), *options]  # the user's clingo options ran too
    call = shlex.join(["python", "-m", RUNNERS[incremental], *options, *files, str(path)])
    header = [f"pyasp-games {about}", f"encoding: {' '.join(files)}", f"run: {call}", *notes]
    write_text(path, "".join(f"% {line}\n" for line in header) + program + facts)


@dataclass
class SolveResult:
    """One solve call: ``status`` is ``sat``, ``unsat`` or ``unknown`` (limit).

    For optimisation problems ``optimal`` tells whether the last model's cost was
    proved optimal; ``symbols`` are the shown atoms of the last (best) model.
    """

    status: str
    symbols: list[Any] = field(default_factory=list)
    cost: list[int] = field(default_factory=list)
    optimal: bool = False
    models: int = 0


@dataclass
class Enumeration:
    """What :meth:`ClingoSession.enumerate_distinct` found.

    ``status``: ``sat``/``unsat`` (search space exhausted or ``limit`` reached),
    ``unknown`` (deadline) or ``invalid`` (an answer set decoded to a solution that
    failed its check: ``invalid`` holds it and the reason, and the search stopped).
    ``count``: distinct solutions; ``models``: answer sets seen; ``solutions``: the
    distinct solutions in order of appearance when asked to keep them.
    """

    status: str
    count: int = 0
    models: int = 0
    solutions: list[Any] = field(default_factory=list)
    invalid: tuple[Any, str] | None = None


class ClingoSession:
    """One clingo control: encodings + facts + constants, under a deadline.

    Args:
        encodings: ``.lp`` files to load.
        facts: program text added to the ``base`` part.
        consts: ``-c name=value`` definitions.
        deadline: wall-clock limit for grounding (checked between parts) and
            solving (enforced by cancelling the asynchronous search).
        arguments: further clingo command-line options (e.g. ``["--opt-mode=optN"]``).
        project: output predicates (``"chosen/1"``) that enumeration projects on:
            answer sets that agree on them count once (clingo's ``--project``).
    """

    def __init__(
        self,
        encodings: Iterable[Path | str] = (),
        facts: str = "",
        consts: dict[str, int | str] | None = None,
        deadline: Deadline | None = None,
        arguments: Sequence[str] = (),
        project: Sequence[str] = (),
    ) -> None:
        import clingo  # lazily: keeps `pyasp-games --help` fast

        self._clingo = clingo
        # the user's options first: the backend's own (projection, models) must hold
        args = [*current_setting(), *arguments]
        if project:
            # our #project statements (any of the encoding's own add to them)
            args.append("--project=project")
            facts = facts + "".join(f"\n#project {sig}." for sig in project)
        for name, value in (consts or {}).items():
            args += ["-c", f"{name}={value}"]
        self.messages: list[str] = []
        self.arguments = args
        try:
            self.control = clingo.Control(args, logger=self._log, message_limit=20)
        except RuntimeError as err:  # the user's options clash with the backend's own
            reason = " ".join(str(err).replace("In context '<libclingo>': ", "").split())
            raise InputError(
                f"clingo refuses the options with the backend's own ({' '.join(args)}): {reason}"
            ) from None
        self.deadline = deadline or Deadline(None)
        try:
            for path in encodings:
                self.control.load(str(path))
            if facts:
                self.control.add("base", [], facts)
        except RuntimeError as err:  # clingo reports syntax errors through the logger
            detail = self.messages[0] if self.messages else str(err)
            raise InputError(
                f"clingo cannot parse the program: {' '.join(detail.split())}"
            ) from None
        self.solve_calls = 0
        self.seconds = {"ground": 0.0, "solve": 0.0}
        self.totals = {"choices": 0, "conflicts": 0, "restarts": 0, "lemmas": 0}
        #: what each horizon of :meth:`solve_horizons` cost (grounding vs solving)
        self.per_horizon: list[dict[str, Any]] = []
        opened = _OPENED.get()
        if opened is not None:
            opened.append(self)

    def _log(self, code: Any, message: str) -> None:
        self.messages.append(message.strip())

    def ground(self, parts: Sequence[tuple[str, Sequence[int]]]) -> None:
        """Ground program parts, e.g. ``[("base", []), ("step", [3])]``.

        Grounding itself cannot be interrupted, so the deadline is checked before. An
        error clingo reports while grounding (an unsafe variable, the commonest mistake in
        a program) is the program's: :class:`InputError` with clingo's own messages (the
        file, the line, the rule).
        """
        self.deadline.check()
        number = self._clingo.Number
        started = time.perf_counter()
        try:
            self.control.ground([(name, [number(a) for a in args]) for name, args in parts])
        except RuntimeError:
            errors = [m for m in self.messages if ": error:" in m]
            if not errors:  # not the program's (e.g. out of memory): as it is
                raise
            said = "; ".join(" ".join(m.split()) for m in errors[:3])
            more = f" (and {len(errors) - 3} more)" if len(errors) > 3 else ""
            raise InputError(f"clingo cannot ground the program: {said}{more}") from None
        self.seconds["ground"] += time.perf_counter() - started

    def set_external(self, name: str, args: Sequence[int], value: bool | None) -> None:
        """Assign an external atom; ``None`` releases it for good (false forever)."""
        atom = self._clingo.Function(name, [self._clingo.Number(a) for a in args])
        if value is None:
            self.control.release_external(atom)
        else:
            self.control.assign_external(atom, value)

    def solve(self, assumptions: Sequence[tuple[Any, bool]] = ()) -> SolveResult:
        """Solve; on reaching the deadline cancel and return status ``unknown``.

        For optimisation the result is ``sat`` only when the optimum is proved; a
        cancelled optimisation keeps its best model but has status ``unknown``.
        """
        self.deadline.check()
        best: dict[str, Any] = {"symbols": [], "cost": [], "models": 0}

        def on_model(model: Any) -> None:
            best["symbols"] = list(model.symbols(shown=True))
            best["cost"] = list(model.cost)
            best["models"] += 1

        try:
            handle = self.control.solve(
                assumptions=list(assumptions), on_model=on_model, async_=True
            )
        except RuntimeError as err:
            if str(err) == os.strerror(errno.EAGAIN):
                # the solving thread's stack could not be had under the memory cap
                raise MemoryError("clingo could not start its solving thread") from None
            raise
        result = self._wait(handle)
        if result is None:
            return SolveResult("unknown", best["symbols"], best["cost"], False, best["models"])
        if result.interrupted:
            return SolveResult("unknown", best["symbols"], best["cost"], False, best["models"])
        if result.unsatisfiable:
            return SolveResult("unsat", models=best["models"])
        optimal = bool(result.exhausted) if best["cost"] else True
        status = "sat" if optimal else "unknown"
        return SolveResult(status, best["symbols"], best["cost"], optimal, best["models"])

    def enumerate(
        self, on_model: Callable[[list[Any]], None], limit: int | None = None
    ) -> SolveResult:
        """Enumerate answer sets (all, or the first ``limit``), each passed to ``on_model``.

        ``on_model`` receives the shown symbols of every model (copied out of the
        callback) and may return ``False`` to stop the search. Status ``sat``/``unsat`` once the search space is exhausted (or
        ``limit`` models were found), ``unknown`` at the deadline; ``models`` counts
        the models seen either way.
        """
        self.deadline.check()
        seen: dict[str, Any] = {"models": 0, "malformed": None}

        def collect(model: Any) -> bool:
            seen["models"] += 1
            try:
                keep_going = on_model(list(model.symbols(shown=True))) is not False
            except MalformedAnswer as err:  # clingo would turn it into a RuntimeError
                seen["malformed"] = err
                return False  # stop the search
            return keep_going

        self.control.configuration.solve.models = 0 if limit is None else limit
        result = self._wait(self.control.solve(on_model=collect, async_=True))
        if seen["malformed"] is not None:
            raise seen["malformed"]
        if result is None:
            return SolveResult("unknown", models=seen["models"])
        if result.interrupted:
            return SolveResult("unknown", models=seen["models"])
        status = "sat" if seen["models"] else "unsat"
        return SolveResult(status, models=seen["models"])

    def enumerate_distinct(
        self,
        decode: Callable[[list[Any]], Any],
        check: Callable[[Any], tuple[bool, str]] | None = None,
        keep: bool = False,
        limit: int | None = None,
    ) -> Enumeration:
        """Enumerate distinct solutions: each answer set's shown atoms are decoded to a
        solution, checked (``check(solution) -> (ok, message)``) and counted once.

        Projection (the session's ``project``) already makes clingo give each
        assignment of the output predicates once; the 128-bit digests of the decoded
        solutions make the count one of *solutions* whatever the encoding adds (its
        own ``#project`` or ``#show`` statements, two answer sets decoding alike),
        in memory per solution that does not grow with the solution's size.
        """
        found = Enumeration("unsat")
        seen: set[bytes] = set()

        def on_model(symbols: list[Any]) -> bool:
            try:
                solution = decode(symbols)
            except (KeyError, IndexError, TypeError, ValueError, AttributeError) as err:
                shown = " ".join(sorted(str(a) for a in symbols))
                found.invalid = (shown, f"its atoms do not form a solution ({err!r})")
                return False
            if check is not None:
                ok, message = check(solution)
                if not ok:
                    found.invalid = (solution, message)
                    return False
            key = _digest(solution)
            if key not in seen:
                seen.add(key)
                if keep:
                    found.solutions.append(solution)
            return True

        result = self.enumerate(on_model, limit)
        found.models, found.count = result.models, len(seen)
        found.status = "invalid" if found.invalid is not None else result.status
        return found

    def _wait(self, handle: Any) -> Any:
        """Wait for an asynchronous solve until the deadline; ``None`` if cancelled there.

        Adds the call's search statistics and wall-clock time to the session's totals.
        """
        self.solve_calls += 1
        started = time.perf_counter()
        with handle:
            finished = self.deadline.wait_for(handle.wait)  # a CPU limit waits again
            if not finished:
                handle.cancel()
                handle.wait()
            result = handle.get() if finished else None
        self.seconds["solve"] += time.perf_counter() - started
        solvers = self.control.statistics.get("solving", {}).get("solvers", {})
        for key in ("choices", "conflicts", "restarts"):
            self.totals[key] += int(solvers.get(key, 0))
        self.totals["lemmas"] += int(solvers.get("extra", {}).get("lemmas", 0))
        return result

    def solve_horizons(
        self,
        start: int,
        stop: int | None,
        stride: int = 1,
        step_part: str = "step",
        check_part: str = "check",
        query: str = "query",
    ) -> tuple[int | None, SolveResult, list[int]]:
        """Multi-shot planning: horizons ``start, start+stride, ...`` up to ``stop``.

        ``base`` must have been grounded. For each horizon ``h`` the missing
        ``step(t)`` parts and ``check(h)`` are grounded, ``query(h)`` is assumed
        true and the program solved; an unsatisfiable horizon's ``query`` is
        released so its goal constraints vanish. Returns the first satisfiable
        horizon (or ``None``), its result (``unsat`` when every horizon up to
        ``stop`` failed, ``unknown`` at the deadline) and the horizons tried
        (the loop is :func:`~pyasp_games.engines.horizon_search.search_horizons`).
        """
        grounded = 0
        last = SolveResult("unknown")

        def extend(h: int) -> bool:
            nonlocal grounded, last
            try:
                self.ground(
                    [(step_part, [t]) for t in range(grounded + 1, h + 1)] + [(check_part, [h])]
                )
            except LimitReached:
                last = SolveResult("unknown")
                return False
            grounded = h
            self.set_external(query, [h], True)
            return True

        def attempt(h: int) -> str:
            nonlocal last
            try:
                last = self.solve()
            except LimitReached:
                last = SolveResult("unknown")
            self._horizon_done(h, last.status)  # before a release changes the statistics
            if last.status == "unsat":
                self.set_external(query, [h], None)  # its goal constraints vanish
            return last.status

        self._mark = self._snapshot()

        h, status, tried = search_horizons(start, stop, stride, extend, attempt)
        return h, (SolveResult("unsat") if status == "unsat" else last), tried

    def _snapshot(self) -> dict[str, float]:
        return {"ground": self.seconds["ground"], "solve": self.seconds["solve"], **self.totals}

    def _horizon_done(self, horizon: int, status: str) -> None:
        """Record what horizon ``horizon`` cost since the previous one: its grounding and
        solving time, its search effort, and the ground program's size after it."""
        now, before = self._snapshot(), self._mark
        lp = self.control.statistics.get("problem", {}).get("lp", {})
        self.per_horizon.append({
            "horizon": horizon,
            "status": status,
            "time_ground": round(now["ground"] - before["ground"], 4),
            "time_solve": round(now["solve"] - before["solve"], 4),
            "choices": int(now["choices"] - before["choices"]),
            "conflicts": int(now["conflicts"] - before["conflicts"]),
            "lp_atoms": int(lp.get("atoms", 0)),
            "lp_rules": int(lp.get("rules", 0)),
        })  # fmt: skip
        self._mark = now

    def statistics(self) -> dict[str, Any]:
        """A flat summary: wall-clock grounding and solving time and search effort summed
        over all solve calls, and the size of the ground program (``Control.statistics``);
        after :meth:`solve_horizons`, ``per_horizon``: the same for each horizon (the
        ground program's size cumulative, as grounded up to that horizon)."""
        stats = self.control.statistics
        out: dict[str, Any] = {"solve_calls": self.solve_calls}
        out["time_ground"] = round(self.seconds["ground"], 4)
        out["time_solve"] = round(self.seconds["solve"], 4)
        out.update(self.totals)
        lp = stats.get("problem", {}).get("lp", {})
        for key in ("atoms", "rules", "bodies"):
            if key in lp:
                out[f"lp_{key}"] = int(lp[key])
        generator = stats.get("problem", {}).get("generator", {})
        # clingo's own figures under its own names (its --stats lines "Variables" and
        # "Constraints"): the generator's "constraints" counts only the long ones, the
        # "Other" of clingo's line, so the total adds the binary and ternary ones
        if "vars" in generator:
            out["variables"] = int(generator["vars"])
        if "constraints" in generator:
            split = {kind: int(generator.get(f"constraints_{kind}", 0)) for kind in ("binary", "ternary")}
            split["other"] = int(generator["constraints"])
            out["constraints"] = sum(split.values())
            out.update({f"constraints_{kind}": n for kind, n in split.items()})
        if _statistics_level(self.arguments) >= 2:  # asked for: clingo's whole tree
            out["clingo_statistics"] = _plain(stats)
        if self.per_horizon:
            out["per_horizon"] = [dict(h) for h in self.per_horizon]
        if self.messages:  # clingo's warnings: an atom no rule defines, an undefined operation
            out["clingo_warnings"] = [" ".join(m.split()) for m in self.messages]
        return out


#: What :func:`run_program` answers: the first answer set, or the distinct solutions
#: counted (and kept, for ``all``).
PROGRAM_MODES = ("one", "count", "all")


def run_program(
    encodings: Iterable[Path | str],
    facts: str,
    deadline: Deadline | None,
    read: Callable[[list[Any]], Any],
    mode: str = "one",
    *,
    claim: Callable[[Any], Claim] | None = None,
    check: Callable[[Any], tuple[bool, str]] | None = None,
    no_answer_set: str | None = None,
    project: Sequence[str] = (),
    consts: dict[str, int | str] | None = None,
    arguments: Sequence[str] = (),
) -> Claim:
    """Ground the ``base`` part of ``encodings`` with ``facts`` and solve it under
    ``deadline``: the one call of every backend that asks clingo for one answer set, or
    counts them, as a :class:`~pyasp_games.engines.claim.Claim`.

    ``read(symbols)`` turns an answer set's shown atoms into a solution (an atom of the
    wrong shape raises :class:`~pyasp_games.errors.MalformedAnswer`, which the runner
    reports as a failed answer).

    - ``mode="one"``: the first answer set, as ``claim(solution)`` (default:
      ``Claim.solved(True, solution)``; a ``read`` that made a claim itself is taken as
      it), its statistics joined by the session's. No answer set is ``no-solution``
      with answer ``False``; for a program that always has one (a well-founded model,
      a table) pass ``no_answer_set``, the reason of the ``error`` it is then.
    - ``mode="count"`` (or ``"all"``, which keeps them as the witness): the distinct
      solutions (:meth:`ClingoSession.enumerate_distinct`, projected on ``project``),
      each checked by ``check(solution) -> (ok, message)``: ``solved`` with their
      number, ``no-solution`` with ``0``; a solution that fails its check makes the
      claim refuted (:meth:`Claim.refuted <pyasp_games.engines.claim.Claim.refuted>`),
      ``stats["models"]`` counts the answer sets seen.

    A limit reached while grounding or solving is ``unknown``, with the statistics of
    what ran (``found_before_limit`` when counting).

    >>> def atoms(symbols):
    ...     return sorted(str(a) for a in symbols)
    >>> c = run_program([], "{p(1..2)}. :- not p(1). #show p/1.", None, atoms)
    >>> c.status, c.answer, c.witness in (["p(1)"], ["p(1)", "p(2)"]), c.stats["solve_calls"]
    ('solved', True, True, 1)
    >>> c = run_program([], "{p(1..2)}. {junk}. #show p/1.", None, atoms, "count", project=["p/1"])
    >>> c.status, c.answer, c.stats["models"]
    ('solved', 4, 4)
    >>> run_program([], "p. :- p.", None, atoms).answer
    False
    >>> c = run_program([], "p. :- p.", None, atoms, no_answer_set="the encoding has no answer set")
    >>> c.status, c.stats["error"]
    ('error', 'the encoding has no answer set')
    >>> c = run_program([], "{p(1..2)}. #show p/1.", None, atoms, "all",
    ...                 check=lambda s: (len(s) < 2, "two at once"), project=["p/1"])
    >>> c.malformed
    "an answer set gives ['p(1)', 'p(2)']: two at once"
    """
    if mode not in PROGRAM_MODES:
        raise ValueError(f"unknown mode {mode!r} (one of {', '.join(PROGRAM_MODES)})")
    session = ClingoSession(
        encodings, facts, consts=consts, deadline=deadline, arguments=arguments,
        project=project if mode != "one" else (),
    )  # fmt: skip
    try:
        session.ground([("base", [])])
        if mode == "one":
            result = session.solve()
        else:
            found = session.enumerate_distinct(read, check, keep=mode == "all")
    except LimitReached:
        return Claim.unknown(session.statistics())
    stats = session.statistics()
    if mode == "one":
        if result.status == "unknown":
            return Claim.unknown(stats)
        if result.status != "sat":
            if no_answer_set is not None:
                return Claim.error(no_answer_set, stats)
            return Claim.none(False, stats=stats)
        solution = read(result.symbols)
        if claim is not None:
            answer = claim(solution)
        elif isinstance(solution, Claim):
            answer = solution
        else:
            answer = Claim.solved(True, solution)
        answer.stats = {**stats, **answer.stats}
        return answer
    stats["models"] = found.models
    if found.status == "unknown":
        stats["found_before_limit"] = found.count
        return Claim.unknown(stats)
    if found.invalid is not None:
        bad, why = found.invalid
        stats["invalid_witness"] = bad
        return Claim.refuted(f"an answer set gives {bad}: {why}", stats)
    if not found.count:
        return Claim.none(0, stats=stats)
    return Claim.solved(found.count, found.solutions if mode == "all" else None, stats=stats)


def _statistics_level(arguments: Sequence[str]) -> int:
    """The level of clingo's ``--stats`` among ``arguments`` (0: not asked for).

    >>> _statistics_level(["--stats=2"]), _statistics_level(["--stats"]), _statistics_level([])
    (2, 1, 0)
    """
    level = 0
    for arg in arguments:
        if arg == "--stats":
            level = max(level, 1)
        elif arg.startswith("--stats="):
            head = arg.split("=", 1)[1].split(",")[0]
            level = max(level, int(head) if head.isdigit() else 1)
    return level


def _plain(tree: Any) -> Any:
    """clingo's statistics as plain data (numbers, lists, dicts) for JSON."""
    if isinstance(tree, dict):
        return {key: _plain(value) for key, value in tree.items()}
    if isinstance(tree, list | tuple):
        return [_plain(x) for x in tree]
    return int(tree) if isinstance(tree, float) and tree.is_integer() else tree


def _digest(solution: Any) -> bytes:
    """A 128-bit digest of a solution's canonical text (dicts by sorted items)."""
    text = repr(sorted(solution.items())) if isinstance(solution, dict) else repr(solution)
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


def split_options(text: str, where: str) -> list[str]:
    """A string of clingo options as the shell would split it (quotes group words); an
    unbalanced quote is :class:`InputError` naming ``where``.

    >>> split_options("--configuration=crafty -c 'n=3'", "--setting x")
    ['--configuration=crafty', '-c', 'n=3']
    """
    import shlex

    try:
        return shlex.split(text)
    except ValueError as err:  # "No closing quotation", "No escaped character"
        raise InputError(f"{where}: {str(err).lower()} in {text!r}") from None
