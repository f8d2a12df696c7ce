"""Differential testing of an encoding: find the smallest instance on which it is wrong.

``pyasp-games fuzz DOMAIN [QUESTION] --encoding FILE`` draws instances from the domain's
own families (:class:`~pyasp_games.engines.fuzzing.Fuzzing`, declared in the domain
package) and answers each twice: by the encoding under test (``--backend``, by default
the domain's ASP backend) and by the question's *reference backend*, the independent
algorithm that cross-checks user encodings (:mod:`pyasp_games.engines.reference`).
Both witnesses are verified by the domain's checker; the answers are compared in every
mode the question answers (``one``: existence and its witness, ``count``: the number of
solutions; optima and winners where the question has no modes).

1. **Small scope** first: every instance up to a tiny size (the family's ``small``),
   smallest first, so the first failure found there is already one of the smallest.
2. **Random instances**, their size growing stage by stage up to ``max_size``: drawn by
   hypothesis, which, on a failure, **shrinks** the instance (fewer vertices, arcs,
   subsets, moves) while the failure persists.

The smallest failing instance is written as an ordinary instance file into ``out``
(``DOMAIN-QUESTION-FAMILY-counterexample.txt``, never over an existing file), with the
command that reproduces the disagreement. That folder is the database of found
failures: a rerun first replays the counterexamples already there (after a fix, they
are the first check that it holds).
A run whose encoding or reference reaches its time limit counts as unknown, not as a
failure. Deterministic in ``seed`` (and the database's contents).

>>> from pyasp_games.domains import domain_spec
>>> report = fuzz(domain_spec("cover"), runs=10, seed=1, max_size=3, run_limit=10)
>>> report.failure is None, report.small_scope[:2], report.runs, report.exit_code()
(True, (34, 34), 44, 0)
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pyasp_games.engines.agreement import Relation
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.domain import DomainSpec
from pyasp_games.engines.files import cannot_write, write_new
from pyasp_games.engines.fuzzing import Family, Fuzzing
from pyasp_games.engines.limits import Limits, checked_seconds
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.question import Question, find_question
from pyasp_games.engines.resources import ENCODING
from pyasp_games.engines.runner import GRACE
from pyasp_games.errors import InputError
from pyasp_games.tools.fuzz.report import Failure, FuzzReport, Undecided, reproduce, shown
from pyasp_games.tools.fuzz.report import said as answer_of
from pyasp_games.tools.fuzz.worker import Worker

#: The modes compared, where a question answers in modes: existence (with its verified
#: witness) and the count (which an extra free choice or a missing solution changes).
COMPARED_MODES = ("one", "count")


#: The largest --max-size: fuzzing looks for the smallest counterexample, and an answer on
#: an instance this large is out of reach of any time limit of a session.
MAX_SIZE = 10_000


def fuzz(
    spec: DomainSpec,
    question: str | None = None,
    encoding: str | None = None,
    backend: str | None = None,
    family: str | None = None,
    runs: int = 100,
    seed: int = 0,
    max_size: int | None = None,
    run_limit: float | None = 10.0,
    total_limit: float | None = None,
    out: Path | None = None,
    replay: bool = True,
    small_scope: bool = True,
    on_run: Callable[[FuzzReport], None] | None = None,
    export: Path | None = None,
    started: float | None = None,
    coverage: bool = False,
    blame: bool = True,
) -> FuzzReport:
    """Fuzz an encoding against the question's reference backend; see the module docstring.

    Parameters
    ----------
    spec : DomainSpec
        The domain; its ``fuzzing`` declares the families drawn.
    question : str or None, optional
        The question to fuzz; ``None``: the domain's first fuzzable one.
    encoding : str or None, optional
        The encoding under test (a bundled name or a ``.lp`` file).
    backend : str or None, optional
        The backend under test; ``None``: the domain's encoding backend.
    family : str or None, optional
        The instance family; ``None``: every family.
    runs : int, optional
        Random instances to try after the whole small scope.
    seed : int, optional
        The random seed: a session is deterministic in it (and in ``out``'s contents).
    max_size : int or None, optional
        The largest instance size drawn; ``None``: the family's own.
    run_limit : float or None, optional
        Seconds for each answer.
    total_limit : float or None, optional
        Seconds for the whole session.
    out : Path or None, optional
        The folder where the failing instance is written and, with ``replay``, where
        earlier counterexamples are replayed from first (``None``: nowhere).
    replay : bool, optional
        Replay ``out``'s counterexamples first.
    small_scope : bool, optional
        Try every tiny instance first (``False``: random ones only).
    on_run : callable or None, optional
        Called with the report after each run.
    export : Path or None, optional
        A folder where each counterexample (and time-out) also becomes a regression
        case (:mod:`pyasp_games.tools.fuzz.regression`).
    coverage : bool, optional
        Measure which rules of the encoding the instances fire
        (:mod:`pyasp_games.tools.fuzz.coverage`; ``report.coverage``), and prefer, in
        the random phase, instances that fire a rule not yet fired.
    started : float or None, optional
        When the session's clock started, on :func:`time.perf_counter`'s clock
        (default: now; the command line gives its process's start,
        :func:`~pyasp_games.engines.processes.process_started`, so that ``--total-time``
        holds for the whole command, its start-up included).
    blame : bool, optional
        Say the rule to blame for a failure (the diagnosis, with the few more failing
        instances it reads beside the first); ``False``: the counterexample alone,
        seconds sooner on a bug whose diagnosis grounds a large program.

    Returns
    -------
    FuzzReport
        What was run and the smallest failure found, if any (``report.failure``;
        ``report.exit_code()`` 0: none, 1: a failure).

    Raises
    ------
    InputError
        Bad limits or sizes, an ``out`` that is no folder, a domain or question that
        cannot be fuzzed, an unknown family or encoding.

    References
    ----------
    .. [1] D. Jackson, Software Abstractions, MIT Press, 2006 (the small scope
       hypothesis).
    .. [2] D. R. MacIver, Z. Hatfield-Dodds et al., "Hypothesis: a new approach to
       property-based testing", Journal of Open Source Software 4(43), 2019.
    """
    checked_seconds(total_limit, "--total-time")  # NaN would mean no limit at all
    checked_seconds(run_limit, "--time-limit")
    if out is not None and out.exists() and not out.is_dir():
        raise InputError(f"--out {out}: not a folder")
    if out is not None:  # a folder that cannot be made is said before any work
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise cannot_write(out, err) from None
    fuzzing: Fuzzing | None = spec.fuzzing
    if fuzzing is None:
        raise InputError(f"the {spec.name} domain declares nothing to fuzz")
    q = find_question(spec.questions, question or fuzzing.questions[0])
    if q.name not in fuzzing.questions:
        raise InputError(
            f"{spec.name} {q.name} cannot be fuzzed (choose from {', '.join(fuzzing.questions)})"
        )
    if q.reference is None:
        raise InputError(f"{spec.name} {q.name} has no reference backend to compare with")
    backend = backend or spec.encoding_backend or _encoding_backend(q)
    says = encoding_claims(spec.name, encoding, fuzzing.keys())
    fam = joined(fuzzing.families_for(family, says))
    if runs < 1:
        raise InputError(f"--runs must be at least 1, got {runs}")
    largest = fam.sizes[1] if max_size is None else max_size
    if largest < 1:
        raise InputError(f"--max-size must be at least 1, got {largest}")
    if largest > MAX_SIZE:  # drawing such an instance alone ran out of memory
        raise InputError(
            f"--max-size {largest:,} is beyond this tool's limit of {MAX_SIZE:,} {fuzzing.unit}"
        )
    modes = [m for m in COMPARED_MODES if m in q.modes] or [None]
    values = {} if encoding is None else {ENCODING: encoding}
    # as the question runs them (its fixed options too: the reference asks the same)
    options = {m: {**q.fixed, **q.backend_options(backend, values, m)} for m in modes}
    small = list(fam.small())
    ref_name = q.reference.choose(small[0], options[modes[0]])[0]
    if backend == ref_name:
        raise InputError(f"{backend} is the reference backend: fuzz another backend against it")

    report = FuzzReport(spec.name, q.name, backend, encoding, ref_name, fam.name, seed,
                        planned=runs, unit=fuzzing.unit)  # fmt: skip
    checked: tuple[Any, Path] | None = None  # the assertions checked, and the file
    if encoding is not None:  # what it does not handle of the documented interface
        from pyasp_games.engines.interface import check
        from pyasp_games.engines.resources import encoding_path
        from pyasp_games.tools.fuzz.assertions import read_assertions

        report.interface = check(spec.name, encoding_path(spec.name, encoding))
        said = read_assertions(encoding_path(spec.name, encoding))
        report.assertions = len(said.assertions)
        if said.assertions and said.multi_shot:
            report.assertions_note = "not checked: the encoding is multi-shot (#program parts)"
        elif said.assertions and backend not in (q.encoding.backends if q.encoding else ()):
            report.assertions_note = f"not checked: {backend} runs no encoding"
        elif said.assertions:
            checked = (said, encoding_path(spec.name, encoding))
    started = time.perf_counter() if started is None else started
    deadline = None if total_limit is None else started + total_limit
    session = _Session(q, backend, options, modes, run_limit, deadline, report, fuzzing, on_run)
    session.diagnosing = blame
    if checked is not None:
        session.assertions, session.encoding_file = checked
    if coverage:
        from pyasp_games.engines.resources import encoding_path
        from pyasp_games.tools.fuzz.coverage import Coverage

        if encoding is None or q.encoding is None or backend not in q.encoding.backends:
            raise InputError("--coverage measures an encoding: give --encoding FILE (and its "
                             "ASP backend)")  # fmt: skip
        session.coverage = Coverage(encoding_path(spec.name, encoding))
    session.family, session.applies = fam, spec.applies
    # a session with time left after its runs draws larger instances (a bug that shows
    # only beyond the family's sizes); a --max-size given is the user's bound
    session.grow = max_size is None and total_limit is not None
    budget = len(small) if small_scope else 0
    report.planned = budget + runs
    try:
        done = _run(session, spec, q, fuzzing, fam, small, budget, runs, largest, seed, out,
                    replay, backend, encoding, report, started)  # fmt: skip
    finally:
        session.worker.close()
    if session.coverage is not None:
        report.coverage = session.coverage
    if export is not None:
        from pyasp_games.tools.fuzz.regression import export as export_case

        for found in (done.failure, done.timeout):
            if found is not None and found.assertion is None \
                    and found.reference.status in ("solved", "no-solution"):
                found.case = export_case(export, spec.name, q.name, fam.name, found.mode,
                                         options[found.mode], fuzzing.write(found.instance),
                                         found.reference)  # fmt: skip
    return done


def _run(session: _Session, spec: DomainSpec, q: Question, fuzzing: Fuzzing, fam: Family,
         small: list[Any], budget: int, runs: int, largest: int, seed: int, out: Path | None,
         replay: bool, backend: str, encoding: str | None, report: FuzzReport,
         started: float) -> FuzzReport:  # fmt: skip
    session.first_check(small[0])
    stem = f"{spec.name}-{q.name}-{fam.name}-counterexample"
    earlier = sorted(out.glob(f"{stem}*.txt")) if out is not None and replay else []
    failure = session.replay(earlier, spec)
    if failure is None:
        failure = session.small_scope(small[:budget], fam)
    if failure is None:
        failure = session.random(fam, runs, largest, seed)
    if failure is None and session.timeout is not None:  # the smallest time-out, in time left
        failure = session.shrink_timeout()
    if failure is not None and failure.phase != "earlier counterexample":
        failure = session.shrink(failure)
    if session.diagnosing and failure is not None and failure.assertion is None:  # an assertion's line is its blame
        failure.blame = session.blame(failure)
    if failure is None and session.timeout is not None:  # undecided, but a finding
        report.timeout = slow = session.timeout
        slow.phase = slow.phase or session.slow_phase(slow)
        if out is not None:
            slow.file = write_new(out, stem.replace("counterexample", "timeout"),
                                  fuzzing.write(slow.instance))  # fmt: skip
            slow.command = reproduce(spec.name, q, slow, backend, encoding, fuzzing.command_words)
    if failure is not None:
        report.failure = failure
        if failure.file is None and out is not None:
            failure.file = write_new(out, stem, fuzzing.write(failure.instance))
        if failure.file is not None and failure.assertion is not None:
            # an answer alone shows no assertion: a rerun of fuzz replays the file first
            import shlex

            words = ["pyasp-games", "fuzz", spec.name, q.name, "--encoding", str(encoding),
                     "--out", str(failure.file.parent), "--runs", "1", "--no-small-scope"]
            failure.command = " ".join(shlex.quote(w) for w in words)
        elif failure.file is not None:
            failure.command = reproduce(spec.name, q, failure, backend, encoding,
                                        fuzzing.command_words)  # fmt: skip
    report.seconds = time.perf_counter() - started
    return report


def encoding_claims(domain: str, encoding: str | None, keys: list[str]) -> dict[str, str]:
    """What an encoding says it answers: its comment lines ``% key: value`` for the
    domain's keys (``% variant: edge``), the first of each key.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".lp", delete=False) as f:
    ...     _ = f.write("% Edge geography.\\n%  Variant: edge\\nwin(H) :- next(H,G).\\n")
    >>> encoding_claims("geography", f.name, ["variant"]); os.unlink(f.name)
    {'variant': 'edge'}
    """
    if encoding is None or not keys:
        return {}
    from pyasp_games.engines.resources import encoding_path
    from pyasp_games.errors import read_text

    said: dict[str, str] = {}
    for line in read_text(encoding_path(domain, encoding)).splitlines():
        text = line.strip()
        if not text.startswith("%"):
            continue
        key, colon, value = text.lstrip("%").partition(":")
        key = key.strip().lower()
        if colon and key in keys and key not in said and value.strip():
            said[key] = value.strip().lower()
    return said


def joined(families: list[Family]) -> Family:
    """One family drawing from all of ``families`` (every variant an encoding answers):
    their small scopes taken in turn, one instance of each (each smallest first, so a
    session cut by its total time has tried the small ones of every family), random
    instances from any of them, each family's size growing over its own range.

    >>> a = Family("a", "", strategy=lambda n: n, small=lambda: iter("ab"), small_help="")
    >>> b = Family("b", "", strategy=lambda n: n, small=lambda: iter("xyz"), small_help="",
    ...            sizes=(4, 10))
    >>> both = joined([a, b])
    >>> "".join(both.small()), both.sizes
    ('axbyz', (2, 10))
    """
    if len(families) == 1:
        return families[0]
    from itertools import zip_longest

    lo = min(f.sizes[0] for f in families)
    hi = max(f.sizes[1] for f in families)

    def own(family: Family, size: int) -> int:
        """``size`` of the joined range (lo..hi, beyond hi for a larger --max-size) as
        the same point of ``family``'s own range."""
        a, b = family.sizes
        if size >= hi:
            return b + size - hi
        return a + round((size - lo) * (b - a) / max(1, hi - lo))

    def strategy(size: int) -> Any:
        from hypothesis import strategies as st

        return st.one_of(*(f.strategy(own(f, size)) for f in families))

    def small() -> Any:
        gap = object()
        for row in zip_longest(*(f.small() for f in families), fillvalue=gap):
            yield from (x for x in row if x is not gap)

    first = families[0]
    return Family(
        "+".join(f.name for f in families),
        "; ".join(f.help for f in families),
        strategy=strategy,
        small=small,
        small_help="; ".join(dict.fromkeys(f.small_help for f in families)),
        sizes=(lo, hi),
        unit=first.unit,
        relabel=next((f.relabel for f in families if f.relabel), None),
        parts=next((f.parts for f in families if f.parts), None),
    )


def _encoding_backend(question: Question) -> str:
    if question.encoding is not None and question.encoding.backends:
        return question.encoding.backends[0]
    raise InputError(f"{question.domain} {question.name} takes no --encoding: name a --backend")


#: Relabellings of each small-scope instance tried beside it (its canonical labels are
#: the instance itself; these are the orders a program may depend on: parity, reversal).
SMALL_RELABELLINGS = 2

#: Relabellings of each smaller candidate the shrinker tries after deleting a part.
SHRINK_RELABELLINGS = 12

#: The undecided instances a report names (the first ones met; the count says the rest).
UNDECIDED_SHOWN = 5

#: The fewest runs of a stage grown past the planned sizes (hypothesis' first example
#: of a stage is its simplest one).
GROWN_EXAMPLES = 10

#: The intended answer's atoms a report lists (a multi-shot answer has many).
UNROLLED_SHOWN = 12

#: The universe's rounds in the diagnosis of an unrolled multi-shot program: each round
#: multiplies its atoms by the horizon's steps (Cops and Robbers' placements grow a cop
#: a round past k), one is within a session's seconds.
UNROLLED_ROUNDS = 1

#: Seconds for the run that writes an instance's facts (cut short after them): enough
#: for a backend that checks the instance first (routing's solvability) on a loaded
#: machine, where 0.2 s wrote none.
FACTS_SECONDS = 1.0

#: Below this many seconds left of the total time, no answer is started.
MIN_ANSWER = 0.05

#: The failing instances diagnosed besides the one reported (the smallest others met:
#: the small scope's next ones, the shrinker's steps), and the small-scope instances
#: tried past the first failure to find them: one instance may not tell two equal
#: explanations apart, several may (:func:`pyasp_games.tools.fuzz.diagnosis.several`).
MORE_FAILING = 2
MORE_TRIED = 30

#: The optimal explanations enumerated on each failing instance diagnosed.
EXPLANATIONS = 12

#: The instances the encoding answered right kept for the repair test (the first met,
#: the small scope's smallest), and how many of the smallest it reads.
PASSING_KEPT = 40
PASSING_READ = 3
#: The instances of the small scope checked for the repair test past the first
#: failure (evenly spread over those left), and the failing ones it reads at most.
PASSING_SPREAD = 24
FAILING_READ = 5


def _examined(failure: Failure, first: str) -> Any:
    """The wrong answer of ``failure`` whose atoms are examined (its smallest wrong
    part, the rules deriving it): the tested answer in the first mode; in another (a
    count), the answer set the runner found failing verification
    (``stats['invalid_witness']``); ``None`` where there is none."""
    import dataclasses

    tested = failure.tested
    if failure.mode == first:
        return tested if tested.witness is not None else None
    bad = (tested.stats or {}).get("invalid_witness")
    return None if bad is None else dataclasses.replace(tested, witness=bad)


class _OutOfTime(BaseException):
    """The session's total time ran out inside hypothesis' search.

    A ``BaseException``, as ``KeyboardInterrupt`` is: hypothesis takes an ``Exception``
    raised by the condition for a failure and *shrinks* the instance that raised it
    (every step raising again) before passing it on, seconds on a large instance past
    the total time (a 50 x 50 matrix game: 6 to 50 s)."""


class _Session:
    """One fuzz session's runs: answering, comparing, counting."""

    def __init__(
        self,
        question: Question,
        backend: str,
        options: dict[str | None, dict[str, Any]],
        modes: list[str | None],
        run_limit: float | None,
        deadline: float | None,
        report: FuzzReport,
        fuzzing: Fuzzing,
        on_run: Callable[[FuzzReport], None] | None,
    ) -> None:
        self.question, self.backend, self.options, self.modes = question, backend, options, modes
        self.limits_each = Limits(time_limit=run_limit)
        self.deadline, self.report, self.fuzzing, self.on_run = deadline, report, fuzzing, on_run
        self.family: Family | None = None
        #: the smallest instance on which the tested backend, not the reference, ran out
        #: of time or memory
        self.timeout: Failure | None = None
        self.run_limit = run_limit
        self.worker = Worker(question)
        #: whether the random phase grows past its largest size while the total time
        #: allows (no --max-size given)
        self.grow = False
        #: the random phase is past its planned runs, drawing larger instances: an
        #: instance the total time cuts, or the reference does not answer, is not
        #: counted undecided (only the tested backend's own time-out is a finding)
        self.growing = False
        self._part: list[str] | None = None  # the smallest wrong part of an accepted answer
        #: the encoding's assertions, checked on every instance where both agree
        #: (``None``: it has none, or they cannot be checked)
        self.assertions: Any = None
        self.encoding_file: Path | None = None
        #: which rules the instances fired (``fuzz --coverage``), and how many rules the
        #: last instance fired first (what the random phase maximises)
        self.coverage: Any = None
        self.gain = 0
        self._agreed: tuple[Outcome, Outcome] | None = None
        #: whether the tested backend takes an instance (the domain's ``applies``: a
        #: backend's size cap, e.g. hex asp's game trees); others are not runs
        self.applies: Callable[[Any, str], bool] | None = None
        self.started = time.perf_counter()
        #: every failing instance met (found, shrunk, looked for past the first): the
        #: diagnosis reads the smallest few besides the one reported
        self.failing: list[Failure] = []
        #: the first instances the encoding answered right, with the reference's
        #: answer: a repair of one rule must keep them right (:meth:`repaired`)
        self.passing: list[tuple[Any, Outcome]] = []
        self._rest: list[Any] = []  # the small scope's instances past those checked
        #: whether a failure's rule to blame is wanted (:func:`fuzz`'s ``blame``)
        self.diagnosing = True

    def expired(self) -> bool:
        """The session's total time is (all but) used up: no answer is started any more."""
        if self.deadline is not None and time.perf_counter() >= self.deadline - MIN_ANSWER:
            if not self.growing:  # past the planned runs, the total time is the plan's end
                self.report.stopped = self.report.stopped or "the total time limit"
            return True
        return False

    def limits(self) -> Limits | None:
        """The limits of the next answer: its own time limit, cut to what is left of the
        session's total time (the session ends by ``--total-time``, not one answer after
        it); ``None`` when nothing is left."""
        if self.deadline is None:
            return self.limits_each
        left = self.deadline - time.perf_counter()
        if left <= MIN_ANSWER:
            self.expired()
            return None
        # an answer that does not stop at its limit (a grounding) is killed GRACE later:
        # near the end, that kill falls at the total time, not after it
        left = max(MIN_ANSWER, left - GRACE)
        each = self.limits_each.time_limit
        return Limits(time_limit=left if each is None else min(each, left))

    def budget(self) -> float:
        """Seconds for one step after the search (blame, the slow phase): an answer's
        time limit, cut to what is left of the total time (0: nothing is left)."""
        each = self.run_limit or 10.0
        if self.deadline is None:
            return each
        return max(0.0, min(each, self.deadline - time.perf_counter() - GRACE))

    def first_check(self, instance: Any) -> None:
        """Run the encoding once so that a program clingo refuses is bad input (exit 2),
        not a counterexample."""
        mode = self.modes[0]
        limits = self.limits()
        if limits is None:  # the session's total time is spent already
            return
        self.question.solve(instance, self.backend, limits, trust_encoding=True,
                            **self.options[mode])  # fmt: skip

    def check(self, instance: Any, counted: bool = True) -> Failure | None:
        """Answer ``instance`` both ways in every mode; the first difference, if any; then,
        where both agree, the encoding's assertions on it
        (:mod:`pyasp_games.tools.fuzz.assertions`)."""
        self.gain = 0
        if self.assertions is None and self.coverage is None:
            return self._compare(instance, counted, None)
        import tempfile

        with tempfile.TemporaryDirectory() as folder:
            lp = Path(folder) / "facts.lp"  # the facts the tested run grounds, written by it
            failure = self._compare(instance, counted, lp)
            if not lp.exists() or self.expired():
                return failure
            facts = _without_includes(lp)
        if self.coverage is not None and counted:  # the rules this instance fires
            self.gain = self.coverage.add(facts, self.budget())
        if failure is not None or self._agreed is None or self.assertions is None:
            return failure
        from pyasp_games.tools.fuzz.assertions import check as check_assertions

        broken = check_assertions(self.encoding_file, facts, self.assertions, self.budget())
        if broken is None:
            return None
        tested, reference = self._agreed
        shape, size = self.fuzzing.describe(instance), self.fuzzing.size(instance)
        if self.report.first_found is None:
            self.report.first_found = time.perf_counter() - self.started
        failure = Failure(instance, self.modes[0], tested, reference, broken.reason, "", size,
                          shape, shape)  # fmt: skip
        failure.assertion = broken.assertion.where
        return failure

    def _compare(self, instance: Any, counted: bool, facts: Path | None) -> Failure | None:
        """Answer ``instance`` both ways in every mode; the first difference, if any
        (``facts``: where the tested run of the first mode writes the facts it grounds;
        :attr:`_agreed` keeps that mode's two outcomes when they agree)."""
        self._agreed = None
        report = self.report
        if self.expired():  # not started: neither a run nor an undecided one
            return None
        if self.applies is not None and not self.applies(instance, self.backend):
            report.out_of_reach += 1 if counted else 0  # refused by design (a size cap): no run
            return None
        if counted:
            report.runs += 1
            report.sizes[self.fuzzing.size(instance)] += 1
        for mode in self.modes:
            options = self.options[mode]
            if facts is not None and mode == self.modes[0]:
                options = {**options, "emit_lp": str(facts)}
            limits = self.limits()
            if limits is None:  # the total time ran out: this instance is not decided
                if counted and not self.growing:
                    report.unknown += 1
                    self._undecided(instance, mode, "the session's total time ran out")
                return None
            # an answer whose limit the total time cut short is no time-out of its own
            cut = limits.time_limit is not None and (
                self.run_limit is None or limits.time_limit < self.run_limit)
            try:
                tested = self.worker.solve(instance, self.backend, limits, options,
                                           trust_encoding=True)  # fmt: skip
            except InputError as err:  # clingo refusing this instance's program
                tested = Outcome(getattr(instance, "name", ""), self.backend, "error",
                                 stats={"error": str(err)})  # fmt: skip
            ref_backend, ref_options = self.question.reference.choose(instance, options)
            report.reference = ref_backend
            limits = self.limits()
            if limits is None:
                if counted and not self.growing:
                    report.unknown += 1
                    self._undecided(instance, mode, "the session's total time ran out")
                return None
            reference = self.worker.solve(instance, ref_backend, limits, ref_options)
            if counted and reference.status in ("solved", "no-solution"):
                report.answers.setdefault(mode or "answer", Counter())[shown(reference.answer)] += 1
            reason = _difference(tested, reference, self.question.relation)
            if reason == "unknown":
                answered = reference.status in ("solved", "no-solution")
                if cut and tested.status == "unknown":  # the session's end, not the encoding's
                    if counted and not self.growing:
                        report.unknown += 1
                        self._undecided(instance, mode, "the session's total time ran out")
                    return None
                finding = tested.status == "unknown" and answered
                if counted and (finding or not self.growing):
                    report.unknown += 1
                    late = [o.backend for o in (tested, reference)
                            if o.status not in ("solved", "no-solution")]  # fmt: skip
                    self._undecided(instance, mode, " and ".join(late) + " reached "
                                    "its limit" if late else "no comparable answers")  # fmt: skip
                if finding:
                    self._slow(instance, mode, tested, reference)
                continue
            if reason is not None:
                if report.first_found is None:  # seconds to the first failure, before shrinking
                    report.first_found = time.perf_counter() - self.started
                shape = self.fuzzing.describe(instance)
                size = self.fuzzing.size(instance)
                found = Failure(instance, mode, tested, reference, reason, "", size, shape, shape)
                self.failing.append(found)
                return found
            if mode == self.modes[0]:
                self._agreed = (tested, reference)
                if len(self.passing) < PASSING_KEPT and reference.status == "solved":
                    self.passing.append((instance, reference))
        return None

    def _undecided(self, instance: Any, mode: str | None, why: str) -> None:
        """Say which instance was left undecided, and why (the first few)."""
        if len(self.report.undecided) >= UNDECIDED_SHOWN:
            return
        self.report.undecided.append(Undecided(self.fuzzing.describe(instance), mode, why,
                                               self.fuzzing.write(instance)))  # fmt: skip

    def _slow(self, instance: Any, mode: str | None, tested: Outcome, reference: Outcome) -> None:
        """Keep ``instance`` if it is the smallest on which only the tested backend ran
        out of time or memory."""
        size = self.fuzzing.size(instance)
        if self.timeout is not None and (self.timeout.size, len(self.fuzzing.write(
                self.timeout.instance))) <= (size, len(self.fuzzing.write(instance))):
            return
        limit = tested.stats.get("limit", "time")
        what = "memory" if limit == "memory" else "time"
        reason = f"it ran out of {what} ({self.run_limit} s each), the reference " \
            f"{reference.backend} answered in {reference.seconds:.2f} s"
        shape = self.fuzzing.describe(instance)
        if self.report.first_found is None:
            self.report.first_found = time.perf_counter() - self.started
        self.timeout = Failure(instance, mode, tested, reference, reason, "", size, shape, shape)
        # told now, within the session's time (after it, none may be left)
        self.timeout.phase = self.slow_phase(self.timeout)

    def facts(self, instance: Any, mode: str | None, lp: Path) -> bool:
        """Write the facts the tested backend runs on ``instance`` into ``lp`` (its
        ``--emit-lp`` file; the run itself is cut short); whether it could."""
        if self.question.encoding is None or self.backend not in self.question.encoding.backends:
            return False
        # the facts are written before the solving the limit cuts short; on a loaded
        # machine a child's start-up alone may take the first second: once more, longer
        for seconds in (FACTS_SECONDS, 5 * FACTS_SECONDS):
            try:
                self.question.solve(instance, self.backend, Limits(time_limit=seconds),
                                    trust_encoding=True, emit_lp=str(lp), **self.options[mode])  # fmt: skip
            except Exception:
                return False
            if lp.exists():
                return True
        return False

    def instance_facts(self, instance: Any) -> str | None:
        """The facts the tested backend grounds for ``instance`` (:meth:`facts`, its
        ``#include`` lines left out), or ``None`` where it writes none."""
        import tempfile

        with tempfile.TemporaryDirectory() as folder:
            lp = Path(folder) / "facts.lp"
            return _without_includes(lp) if self.facts(instance, self.modes[0], lp) else None

    def blame(self, failure: Failure) -> list[str]:
        """The rules of the user's encoding that reject the reference's verified answer,
        where the encoding missed it (:mod:`pyasp_games.tools.fuzz.blame`); a multi-shot
        encoding's unrolled at the intended answer's horizon first (:meth:`unrolled`)."""

        from pyasp_games.engines.resources import encoding_path
        from pyasp_games.tools.fuzz.blame import blame
        from pyasp_games.tools.fuzz.diagnosis import assumed_or_not, diagnose

        witness = self.fuzzing.witness
        given = self.options[self.modes[0]].get(ENCODING)
        tested = failure.tested
        claimed = tested.verdict.failed_status if tested.verdict.failed else tested.status
        if given and claimed in ("solved", "no-solution", "error"):
            from pyasp_games.errors import read_text
            from pyasp_games.tools.fuzz.unroll import multi_shot

            path = encoding_path(self.question.domain, given)
            if multi_shot(read_text(path)):
                if self.fuzzing.horizon is None and self.fuzzing.fixpoint is None:
                    return ["  blame: not diagnosed: the domain gives no intended answer for a "
                            "multi-shot program (no plan, no bundled fixpoint)"]  # fmt: skip
                return self.unrolled(failure, path)
            if self.fuzzing.horizon is not None:
                return []  # a plan's atoms say nothing to a program without its horizon
        if witness is None or not given or claimed not in ("solved", "no-solution", "error"):
            return []
        # a wrong answer: beside the checker's message, its smallest wrong part
        accepted = tested.verdict.failed and claimed == "solved"
        wrong = self.violating(failure) if accepted else []
        if accepted and failure.mode != self.modes[0]:
            # a count: the answer set it gave that fails verification, where one is said
            return [*wrong, *self.traced(failure)]
        if accepted:
            # a wrong answer: the rules that derive its wrong part are to blame (a
            # constraint is missing); else, below, those that keep out the reference's
            # witness (a solution missed: a saddle point not listed)
            derived = self.traced(failure)
            if derived:
                return [*wrong, *derived]
            if failure.reference.status == "no-solution":
                # an answer where none is right, with no atom to trace (an empty one):
                # the bound that lets it exist
                return [*wrong, *self.tightened(failure)]
        reference = failure.reference
        if failure.mode != self.modes[0]:  # a witness of mode one
            ref_backend, ref_options = self.question.reference.choose(
                failure.instance, self.options[self.modes[0]])
            limits = self.limits()
            if limits is None:
                return wrong
            reference = self.worker.solve(failure.instance, ref_backend, limits,
                                          ref_options)  # fmt: skip
        if reference.status != "solved":
            return wrong
        atoms = list(witness(failure.instance, reference))  # an answer alone may say them
        if not atoms:
            return wrong
        facts = self.instance_facts(failure.instance)
        if facts is None:
            return []
        path = encoding_path(self.question.domain, given)
        if self.budget() < MIN_ANSWER:  # the total time holds for blame too
            return [*wrong, "  blame: not tried: the session's total time ran out"]
        started, others = time.perf_counter(), self.others(failure)
        # first under the meaning the bundled program's one answer set gives the
        # predicates of its names (a wrong definition then derives what that answer
        # does not hold), kept where it explains with no more faulty rules
        bundled = self.bundled_program(path)
        assumed = self.assumed(path, bundled, facts, atoms, self.budget() / 3,
                               EXPLANATIONS if others else 0, accepted) if bundled else None  # fmt: skip
        # a wrong answer accepted: the chain of wrong derivations blamed at its source
        said: Any = self.diagnosed(diagnose, path, facts, atoms,
                                   explanations=EXPLANATIONS if others else 0,
                                   open_outputs=self.fuzzing.open_outputs,
                                   **({"chain": True} if accepted else {}))  # fmt: skip
        if assumed is not None and assumed_or_not(assumed, said):
            said = assumed
        else:
            bundled = None
        took = time.perf_counter() - started
        # the rules one edit repairs (before the others' diagnoses, which may take
        # the time left: what they are given, twice this one's time each, is kept for
        # them, and half of the time left at least)
        left = self.budget()
        fixes = self.repair_test(failure, (facts, atoms), path, said,
                                 max(left / 2, left - 2 * took * len(others))) if said.rules else None  # fmt: skip
        if said.rules and others:  # the others, each in at most twice the time this one took
            said = self.observed(others, path, said, 2 * took, chain=accepted, bundled=bundled)
        if fixes is not None:
            from pyasp_games.tools.fuzz.diagnosis import repaired

            said = repaired(said, fixes, sources=accepted)  # a chain's source kept first
        if not said.rules and self.budget() >= MIN_ANSWER:  # switches over whole rules
            switched = blame(path, facts, atoms, budget=self.budget())
            said = switched if switched.rules else said
        shown = " ".join(a for a, truth in atoms if truth) or "(no atom true)"
        if wrong and not said.rules:  # its answer holds the reference's and more: said above
            return wrong
        return [*wrong, f"  the reference's answer as atoms: {shown}",
                *(_assuming(said) if bundled is not None else said.lines)]  # fmt: skip

    def others(self, failure: Failure) -> list[Failure]:
        """The smallest :data:`MORE_FAILING` failing instances met besides ``failure``
        (:attr:`failing`) in its mode, each once, where the reference has an answer."""
        write, seen = self.fuzzing.write, {self.fuzzing.write(failure.instance)}
        others: list[Failure] = []
        for other in sorted(self.failing, key=lambda f: (f.size, len(write(f.instance)))):
            text = write(other.instance)
            if other.mode == failure.mode and other.reference.status == "solved" \
                    and other.assertion is None and text not in seen:
                seen.add(text)
                others.append(other)
        return others[:MORE_FAILING]

    def observed(self, others: list[Failure], path: Path, first: Any, each: float,
                 chain: bool = False, bundled: Path | None = None) -> Any:  # fmt: skip
        """The diagnosis ``first`` of a failure, its rules ranked by how many failing
        instances their optimal explanations explain: ``others`` too, each diagnosed in
        ``each`` seconds at most, within what is left of the session's time
        (:func:`pyasp_games.tools.fuzz.diagnosis.several`); ``chain``: as
        :func:`~pyasp_games.tools.fuzz.diagnosis.diagnose` says, for a wrong answer;
        ``bundled``: the program whose meaning of the predicates ``first`` assumed
        (:meth:`assumed`), assumed for the others too where it has their answer."""
        from pyasp_games.tools.fuzz.diagnosis import diagnose, several

        observed = []
        for k, other in enumerate(others):
            try:
                atoms = list(self.fuzzing.witness(other.instance, other.reference))
            except (KeyError, TypeError, ValueError, IndexError):  # an answer of another shape
                continue
            facts = self.instance_facts(other.instance) if atoms else None
            share = min(each, self.budget() / (len(others) - k))  # the time left, shared
            if facts is None or share < MIN_ANSWER:
                continue
            said = self.assumed(path, bundled, facts, atoms, share, EXPLANATIONS, chain) if bundled else None
            if said is None or not said.rules:  # the usual diagnosis in the time left
                share = min(share, self.budget())
                if share < MIN_ANSWER:
                    continue
                said = diagnose(path, facts, atoms, budget=share / 2, time_limit=share,
                                explanations=EXPLANATIONS, chain=chain,
                                open_outputs=self.fuzzing.open_outputs)  # fmt: skip
            observed.append(said)
        return several(first, observed)

    def bundled_program(self, path: Path) -> Path | None:
        """The question's bundled encoding (:meth:`bundled_name`), whose one answer set
        on an instance may fix the meaning of ``path``'s predicates of its names
        (:meth:`assumed`); ``None`` where there is none, or it is ``path`` itself."""
        from pyasp_games.engines.resources import encoding_path

        name = self.bundled_name()
        if name is None:
            return None
        bundled = encoding_path(self.question.domain, name)
        return None if bundled.resolve() == Path(path).resolve() else bundled

    def bundled_name(self) -> str | None:
        """The name of the question's bundled encoding: its default, else the one its
        fixed options name (grundy exists: ``find="grundy"``); ``None``: none."""
        from pyasp_games.engines.resources import bundled_encodings

        param, domain = self.question.encoding, self.question.domain
        fixed = [v for v in self.question.fixed.values() if isinstance(v, str)]
        return (param.default if param is not None else None) or next(
            (v for v in fixed if v in bundled_encodings(domain)), None)

    def assumed(self, path: Path, bundled: Path, facts: str, atoms: list[tuple[str, bool]],
                seconds: float, explanations: int, chain: bool = False) -> Any:  # fmt: skip
        """The diagnosis of ``path`` on ``facts`` under the meaning ``bundled``'s one
        answer set there gives the predicates of its names, in ``seconds`` at most
        (:func:`pyasp_games.tools.fuzz.diagnosis.diagnose_assumed`; ``chain``: a
        wrong answer accepted, as :func:`~pyasp_games.tools.fuzz.diagnosis.diagnose`
        says); ``None`` where too little time is left."""
        from pyasp_games.tools.fuzz.diagnosis import diagnose_assumed

        seconds = min(seconds, self.budget())
        if seconds < MIN_ANSWER:
            return None
        return diagnose_assumed(path, bundled, facts, atoms, budget=seconds / 2, time_limit=seconds,
                                explanations=explanations, open_outputs=self.fuzzing.open_outputs,
                                called=f"the bundled {bundled.name}", **({"chain": True} if chain else {}))  # fmt: skip

    def repair_test(self, failure: Failure, first: tuple[str, list[tuple[str, bool]]],
                    path: Path, said: Any, seconds: float) -> Any:  # fmt: skip
        """The rules near those ``said`` blames that one edit repairs, in ``seconds`` at
        most: on ``failure`` (``first``: its facts and intended atoms) and the largest
        other failing instances met, keeping right the largest of those the encoding
        answered right (:attr:`passing`; a spread of the small scope's instances left
        is checked first, for a quarter of the time); ``None`` where none is tried
        (:func:`pyasp_games.tools.fuzz.diagnosis.repairs`)."""
        from pyasp_games.tools.fuzz.diagnosis import repairs

        until = time.perf_counter() + seconds
        write = self.fuzzing.write
        self.more_passing(self._rest, seconds / 4)

        def observations(found: list[tuple[Any, Outcome]], most: int) -> list[tuple[str, list[tuple[str, bool]]]]:
            """Facts and intended atoms of ``found``, the largest first (the smallest are
            the easiest for an edit tailored to them: the largest reach cases they do not,
            a drawn game, a longer play), ``most`` at most."""
            out, seen = [], {write(failure.instance)}
            for instance, reference in sorted(found, key=lambda p: (-self.fuzzing.size(p[0]), len(write(p[0])))):
                if len(out) >= most or time.perf_counter() >= until:
                    break
                if write(instance) in seen:
                    continue
                seen.add(write(instance))
                try:
                    atoms = list(self.fuzzing.witness(instance, reference))
                except (KeyError, TypeError, ValueError, IndexError):  # an answer of another shape
                    continue
                facts = self.instance_facts(instance) if atoms else None
                if facts is not None:
                    out.append((facts, atoms))
            return out

        failing = [first, *observations([(f.instance, f.reference) for f in self.failing
                                         if f.reference.status == "solved" and f.assertion is None
                                         and f.mode == self.modes[0]], FAILING_READ - 1)]  # fmt: skip
        passing = observations(self.passing, PASSING_READ)
        left = min(until - time.perf_counter(), self.budget())
        if left < MIN_ANSWER:
            return None
        blamed = {rule[1] for rule in said.rules}
        blamed |= {rule[1] for explanation in said.explanations for rule, _ in explanation}
        return repairs(path, failing, passing, open_outputs=self.fuzzing.open_outputs,
                       budget=left, time_limit=left, near=sorted(blamed))  # fmt: skip

    def unrolled(self, failure: Failure, path: Path) -> list[str]:
        """The rules of a multi-shot encoding (``#program step(t)``) to blame: its parts
        unrolled into one program at the horizon of the intended answer
        (:mod:`pyasp_games.tools.fuzz.unroll`) and diagnosed there. The intended answer
        is the reference's plan at its length (a planner that refutes every plan up to
        some length), or, for a least-fixpoint program, the bundled encoding's values at
        its last round where its answer agrees with the reference's."""
        from pyasp_games.engines.fuzzing import plural
        from pyasp_games.errors import read_text
        from pyasp_games.tools.fuzz.diagnosis import diagnose
        from pyasp_games.tools.fuzz.unroll import answer_at, horizon_facts, unroll

        reference, instance = failure.reference, failure.instance
        if reference.status != "solved" or failure.mode != self.modes[0]:
            return []
        try:
            program = unroll(read_text(path))
        except (ValueError, RuntimeError) as why:  # a part incmode does not have
            return [f"  blame: not diagnosed: {str(why).splitlines()[0]}"]
        facts = self.instance_facts(instance)
        if facts is None:
            return ["  blame: not diagnosed: the instance's facts could not be written"]
        # the domain's own files run beside the user's (routing's move rule), as given
        background = [unroll(read_text(f)) for f in _companions(facts, path)]
        facts = "\n".join([facts, *background])
        closed: tuple[str, ...] = ()  # the fixpoint's output predicates, held or not
        within: list[str] | None = None  # the bundled program's whole answer set
        if self.fuzzing.horizon is not None and self.fuzzing.witness is not None:
            horizon = self.fuzzing.horizon(instance, reference)
            atoms = list(self.fuzzing.witness(instance, reference))
            what = f"the reference's plan of {plural(horizon, 'step')}"
        elif self.fuzzing.fixpoint is not None:
            bundled, predicates = self.fuzzing.fixpoint(instance)
            limits = self.limits()
            if limits is None:
                return []
            options = {**self.options[failure.mode], ENCODING: bundled}
            ours = self.worker.solve(instance, self.backend, limits, options, trust_encoding=True)
            if _difference(ours, reference, self.question.relation) is not None:
                return ["  blame: not diagnosed: the bundled encoding's values do not agree "
                        "with the reference's answer here"]  # fmt: skip
            from pyasp_games.engines.resources import encoding_path

            found = self.bounded(answer_at, encoding_path(self.question.domain, bundled), facts,
                                 None if self.fuzzing.auxiliary else predicates)  # fmt: skip
            if found is None:
                return [f"  blame: not diagnosed: the bundled {bundled} program gave no values "
                        f"within {self.budget():.1f} s"]  # fmt: skip
            horizon, shown_atoms = found
            if self.fuzzing.auxiliary:  # its whole answer set fixes the interpretation
                within = shown_atoms
                shown_atoms = [a for a in within if a.split("(")[0] in predicates]
            atoms, closed = [(a, True) for a in shown_atoms], predicates
            what = f"the bundled {bundled} program's {'/'.join(predicates)} at round {horizon}"
        else:
            return []
        if self.budget() < MIN_ANSWER:
            return ["  blame: not tried: the session's total time ran out"]
        said = self.diagnosed(diagnose, path, f"{facts}\n{horizon_facts(horizon)}", atoms,
                              program=program, deepest=False,
                              rounds=UNROLLED_ROUNDS, closed=closed, within=within)  # fmt: skip
        listed = " ".join(a for a, _ in atoms[:UNROLLED_SHOWN]) or "(no atom true)"
        more = f" and {len(atoms) - UNROLLED_SHOWN} more" if len(atoms) > UNROLLED_SHOWN else ""
        intended = f"  the intended answer ({what}) as atoms: {listed}{more}"
        if not said.rules and said.status == "solved":
            refuted = self.refuted(failure, path, program, facts, atoms)
            if refuted:
                return [intended, *refuted]
        return [intended, *said.lines]

    def refuted(self, failure: Failure, path: Path, program: str, facts: str,
                intended: list[tuple[str, bool]]) -> list[str]:
        """Where a multi-shot encoding holds the intended answer and accepts a wrong plan
        beside it whose atoms are not wrong themselves (an idle step that loses every
        pebble): the cases its definitions miss that would let one of its constraints
        reject that plan (``diagnose(..., refute=True)``), the plan's predicates fixed
        whole; ``[]`` where the failure is no wrong plan accepted."""
        from pyasp_games.engines.fuzzing import plural
        from pyasp_games.tools.fuzz.diagnosis import diagnose
        from pyasp_games.tools.fuzz.unroll import horizon_facts

        tested = failure.tested
        examined = _examined(failure, self.modes[0])
        if not (tested.verdict.failed and tested.verdict.failed_status == "solved") or examined is None \
                or self.fuzzing.horizon is None or self.fuzzing.witness is None:
            return []
        try:
            # the horizon at which the incremental run found it (an idle step counts
            # no step of the plan), else the plan's length
            horizons = (examined.stats or {}).get("horizons") or []
            horizon = horizons[-1] if horizons else self.fuzzing.horizon(failure.instance, examined)
            accepted = list(self.fuzzing.witness(failure.instance, examined))
        except (KeyError, TypeError, ValueError, IndexError):  # an answer of another shape
            return []
        if not isinstance(horizon, int) or self.budget() < MIN_ANSWER:
            return []
        import clingo

        names = tuple(sorted({clingo.parse_term(a).name for a, _ in [*accepted, *intended]}))
        if not names:  # nothing says which predicates the plan is made of
            return []
        said = self.diagnosed(diagnose, path, f"{facts}\n{horizon_facts(horizon)}", accepted,
                              program=program, deepest=False, rounds=UNROLLED_ROUNDS,
                              closed=names, refute=True)  # fmt: skip
        shown = " ".join(a for a, truth in accepted[:UNROLLED_SHOWN] if truth) or "(no atom true)"
        return [f"  the wrong answer it accepts (its plan of {plural(horizon, 'step')}) as atoms: "
                f"{shown}", *said.lines]  # fmt: skip

    def bounded(self, how: Callable[..., Any], *args: Any) -> Any:
        """``how(*args)`` in a child that holds the session's time (``None`` past it, or
        where it found nothing): a bundled program run to its fixpoint on an instance
        fuzz drew cannot be stopped from inside either."""
        from pyasp_games.engines.runner import run_backend

        def run(_: Any, limits: Limits) -> Claim:
            return Claim.solved(how(*args))

        done = run_backend({"run": run}, "run", None, "", Limits(time_limit=self.budget()),
                           lambda i, o: (None, ""))  # fmt: skip
        return done.answer if done.status == "solved" else None

    def diagnosed(self, how: Callable[..., Any], *args: Any, **options: Any) -> Any:
        """``how(*args)`` (a diagnosis) within the session's time (its ``time_limit``:
        a child process, since the grounding of a relaxed program cannot be stopped
        from inside)."""
        budget = self.budget()
        return how(*args, budget=max(budget / 2, MIN_ANSWER), time_limit=budget, **options)

    def traced(self, failure: Failure) -> list[str]:
        """The rule instances of the user's encoding that derive the smallest wrong
        part of its answer (:func:`pyasp_games.tools.fuzz.diagnosis.trace`)."""

        from pyasp_games.engines.resources import encoding_path
        from pyasp_games.tools.fuzz.diagnosis import trace

        part = self._part
        given = self.options[self.modes[0]].get(ENCODING)
        examined = _examined(failure, self.modes[0])
        if part is None or not given or self.fuzzing.witness is None or examined is None:
            return []
        try:
            answer = list(self.fuzzing.witness(failure.instance, examined))
        except (KeyError, TypeError, ValueError, IndexError):
            return []
        if not part:  # no answer is right: every atom of this one is wrong
            part = [a for a, truth in answer if truth]
        facts = self.instance_facts(failure.instance)
        if facts is None:
            return []
        if self.budget() < MIN_ANSWER:
            return []
        path = encoding_path(self.question.domain, given)
        said = self.diagnosed(trace, path, facts, answer, part,
                              open_outputs=self.fuzzing.open_outputs)  # fmt: skip
        lacked = [a[4:].strip() for a in part if a.startswith("not ")]
        if lacked and len(lacked) == len(part) and self.budget() >= MIN_ANSWER:
            # only atoms it lacks, which a free choice may leave out: the constraint that
            # should require them is blocked by an atom some rule derives wrongly
            from pyasp_games.tools.fuzz.diagnosis import blocked

            why = self.diagnosed(blocked, path, facts, answer, lacked,
                                 open_outputs=self.fuzzing.open_outputs)  # fmt: skip
            if why.rules:
                return [*why.lines, *(said.lines if said.rules else [])]
        return said.lines if said.rules else []

    def tightened(self, failure: Failure) -> list[str]:
        """The choice rule whose lower bound lets the user's encoding have an answer
        set on ``failure``'s instance, where the reference has none
        (:func:`pyasp_games.tools.fuzz.diagnosis.tightened`)."""
        from pyasp_games.engines.resources import encoding_path
        from pyasp_games.tools.fuzz.diagnosis import tightened

        given = self.options[self.modes[0]].get(ENCODING)
        facts = self.instance_facts(failure.instance) if given else None
        if facts is None or self.budget() < MIN_ANSWER:
            return []
        said = self.bounded(tightened, encoding_path(self.question.domain, given), facts,
                            self.budget() / 2)  # fmt: skip
        return said.lines if said is not None and said.rules else []

    def violating(self, failure: Failure) -> list[str]:
        """The smallest part of a wrong answer that no right one contains: its atoms
        assumed in the question's bundled encoding, a minimal unsatisfiable core
        (:func:`pyasp_games.tools.fuzz.blame.violating_part`); ``[]`` where it cannot be
        said (no witness in the answer, a multi-shot encoding)."""

        from pyasp_games.engines.resources import encoding_path
        from pyasp_games.tools.fuzz.blame import violating_part

        domain, name = self.question.domain, self.bundled_name()
        examined = _examined(failure, self.modes[0])
        if self.fuzzing.witness is None or examined is None or name is None:
            return []
        try:
            answer = list(self.fuzzing.witness(failure.instance, examined))
        except (KeyError, TypeError, ValueError, IndexError):  # an answer of another shape
            return []
        if not answer:  # an answer the witness cannot say (none)
            return []
        facts = self.instance_facts(failure.instance)
        if facts is None:
            return []
        correct = encoding_path(domain, name)
        if self.budget() < MIN_ANSWER:
            return []
        part = violating_part(correct, facts, answer, budget=self.budget())
        self._part = part
        if part is None:
            return []
        if not part:
            return ["  no answer is right on this instance (it has no solution)"]
        return [f"  the smallest part of its answer that no right answer holds: {' '.join(part)}"]

    def slow_phase(self, slow: Failure) -> str:
        """Which phase of the tested encoding did not finish on ``slow``: ``grounding``
        when clingo's grounding alone does not end within the time limit, else
        ``solving`` (``unknown`` where it cannot be told: no facts to ground)."""
        import tempfile

        from pyasp_games.engines.runner import run_backend

        options = self.options[slow.mode]
        budget = self.budget()
        if budget < MIN_ANSWER:  # the total time holds: not told rather than run past it
            return "grounding or solving (no time was left to tell which)"
        with tempfile.TemporaryDirectory() as folder:
            lp = Path(folder) / "facts.lp"
            if not self.facts(slow.instance, slow.mode, lp):
                return "unknown"
            from pyasp_games.engines.resources import encoding_path

            given = options.get(ENCODING)
            program = [str(encoding_path(self.question.domain, given)) if given else "", str(lp)]

            def ground(_: Any, limits: Limits) -> Claim:
                import clingo

                control = clingo.Control(["--warn=none"])
                for path in program:
                    if path:
                        control.load(path)
                control.ground([("base", [])])
                return Claim.solved(True)

            grounded = run_backend({"ground": ground}, "ground", None, "",
                                   Limits(time_limit=budget),
                                   lambda i, o: (None, ""))  # fmt: skip
        return "solving" if grounded.status == "solved" else "grounding"

    def shrink(self, failure: Failure) -> Failure:
        """Delete every part the family knows (each subset, arc, vertex) while the
        failure persists, then try relabellings of each smaller candidate (a program
        may depend on the numbers), and finally the canonical smallest labels."""
        family = self.family
        if family is None or (family.parts is None and family.relabel is None):
            return failure
        write = self.fuzzing.write
        current, steps = failure, 0

        def relabelled(instance: Any, most: int) -> list[Any]:
            if family.relabel is None:
                return []
            seen, found = {write(instance)}, []
            for other in family.relabel(instance):
                text = write(other)
                if text not in seen:
                    seen.add(text)
                    found.append(other)
                if len(found) >= most:
                    break
            return found

        def attempt(candidate: Any) -> bool:
            nonlocal current, steps
            if self.expired():
                return False
            self.report.shrink_steps += 1
            found = self.check(candidate, counted=False)
            if found is None:
                return False
            found.phase, found.found_shape = current.phase, current.found_shape
            current, steps = found, steps + 1
            return True

        improved = family.parts is not None
        while improved and not self.expired():
            improved = False
            smaller = list(family.parts(current.instance))
            for candidate in smaller:  # every deletion, as labelled
                if attempt(candidate):
                    improved = True
                    break
            if improved:
                continue
            for candidate in smaller:  # every deletion, under other labels
                if any(attempt(other) for other in relabelled(candidate, SHRINK_RELABELLINGS)):
                    improved = True
                    break
        if family.relabel is not None and not self.expired():  # the canonical labels
            canonical = next(iter(family.relabel(current.instance)), None)
            if canonical is not None and write(canonical) != write(current.instance):
                attempt(canonical)
        return current

    def shrink_timeout(self) -> Failure | None:
        """Delete every part the family knows of the time-out found while the tested
        backend still runs out of time on it (each try costs up to the answer's time
        limit: only while the total time allows); a wrong answer met on the way is
        returned, to be shrunk as one."""
        family = self.family
        if family is None or family.parts is None:
            return None
        improved = True
        while improved and self.timeout is not None and not self.expired():
            improved, current = False, self.timeout
            for candidate in family.parts(current.instance):
                if self.expired():
                    return None
                self.report.shrink_steps += 1
                found = self.check(candidate, counted=False)  # a smaller time-out replaces it
                if found is not None:
                    found.phase, found.found_shape = "random", current.shape
                    return found
                if self.timeout is not current:
                    improved = True
                    break
        return None

    def replay(self, files: list[Path], spec: DomainSpec) -> Failure | None:
        """The counterexamples an earlier session wrote, first (not counted as runs)."""
        for path in files:
            for instance in spec.load_file(path):
                failure = None if self.expired() else self.check(instance, counted=False)
                if failure is not None:
                    failure.phase, failure.file = "earlier counterexample", path
                    return failure
        return None

    def small_scope(self, instances: list[Any], family: Family) -> Failure | None:
        total = len(instances)
        self.report.small_scope = (0, total, family.small_help)
        write = self.fuzzing.write
        for k, instance in enumerate(instances, 1):
            if self.expired():
                break
            tried = [instance]
            if family.relabel is not None:  # the same instance under other numbers
                seen = {write(instance)}
                for other in family.relabel(instance):
                    if len(tried) > SMALL_RELABELLINGS:
                        break
                    if (text := write(other)) not in seen:
                        seen.add(text)
                        tried.append(other)
            for variant in tried:
                failure = self.check(variant, counted=variant is instance)
                if failure is not None:
                    break
            self.report.small_scope = (k, total, family.small_help)
            self._progress()
            if failure is not None:
                failure.phase = "small scope"
                self.more_failing(instances[k : k + MORE_TRIED])
                self._rest = instances[k:]  # read by the repair test
                return failure
        return None

    def more_passing(self, instances: list[Any], seconds: float) -> None:
        """Check :data:`PASSING_SPREAD` of ``instances``, evenly spread over them (not
        counted as runs), for ``seconds`` at most: observations for the repair test
        (:meth:`repaired`) past the smallest instances, which one edit tailored to
        them can keep right, failing or not."""
        if not instances:
            return
        until = time.perf_counter() + seconds
        step = max(len(instances) // PASSING_SPREAD, 1)
        for instance in instances[step - 1 :: step][:PASSING_SPREAD]:
            if self.expired() or time.perf_counter() >= until:
                return
            self.check(instance, counted=False)

    def more_failing(self, instances: list[Any]) -> None:
        """Check the next few ``instances`` (not counted as runs) until
        :data:`MORE_FAILING` more fail: observations the diagnosis reads beside the
        first failure (:attr:`failing`)."""
        if not self.diagnosing:  # read by the diagnosis only
            return
        first = len(self.failing)
        for instance in instances:
            if self.expired() or len(self.failing) - first >= MORE_FAILING:
                return
            self.check(instance, counted=False)

    def random(self, family: Family, runs: int, largest: int, seed: int) -> Failure | None:
        """hypothesis' search, one stage per size from the family's first to ``largest``.

        Seeded, so hypothesis keeps no example database of its own (a seeded search
        never reads one): the counterexample files are that database (:meth:`replay`).
        """
        if self.expired():  # before importing hypothesis (a second on a loaded machine)
            return None
        from random import Random

        from hypothesis import HealthCheck, Phase, find, settings
        from hypothesis.errors import Flaky, NoSuchExample

        first = min(family.sizes[0], largest)
        sizes = list(range(first, largest + 1))
        # a grown stage's runs: as many as a planned one's, and enough that hypothesis
        # draws past its first, simplest example (an empty instance)
        each = max(GROWN_EXAMPLES, runs // len(sizes))

        def stages() -> Any:
            """The planned sizes, then (``grow``: time is left) larger ones, one by one."""
            yield from enumerate(sizes)
            size = largest
            # not past a time-out found: the time left goes to shrinking it
            while self.grow and self.deadline is not None and size < MAX_SIZE \
                    and self.timeout is None:
                size += 1
                yield len(sizes), size

        left = runs
        previous: tuple[int, int] | None = None  # the last grown stage's runs and skips
        for k, size in stages():
            if self.expired() or (left <= 0 and size <= largest):
                if self.expired() or not self.grow:
                    break
                continue
            if previous is not None and self.report.runs == previous[0] \
                    and self.report.out_of_reach > previous[1]:
                break  # a grown stage the backend took nothing of: larger ones are beyond it
            if size > largest:  # grown past the planned sizes: the session's time allows
                previous = (self.report.runs, self.report.out_of_reach)
                self.growing = True
                examples = each
                self.report.planned += each
                self.report.grown_to = size
            else:
                examples = max(1, left // (len(sizes) - k))
            before = self.report.runs
            state: dict[str, Any] = {"found": None, "smallest": None}

            def fails(instance: Any, state: dict = state, stop: int = before + examples) -> bool:
                if self.expired():  # out of hypothesis' search at once, not example by example
                    raise _OutOfTime
                if state["found"] is None:
                    if self.report.runs >= stop:  # hypothesis may ask past max_examples
                        return False
                    failure = self.check(instance)
                    self._progress()
                    if self.coverage is not None:  # prefer instances that fire new rules
                        from hypothesis import target

                        target(float(self.gain), label="rules fired for the first time")
                    if failure is not None:
                        state["found"] = state["smallest"] = failure
                    return failure is not None
                self.report.shrink_steps += 1  # shrinking: is this smaller one still wrong?
                smaller = self.check(instance, counted=False)
                if smaller is not None:
                    state["smallest"] = smaller
                return smaller is not None

            config = settings(
                max_examples=examples,
                deadline=None,
                database=None,
                suppress_health_check=list(HealthCheck),
                phases=[Phase.reuse, Phase.generate, Phase.target, Phase.shrink],
                print_blob=False,
            )
            try:
                smallest = find(family.strategy(size), fails, settings=config,
                                random=Random(seed * 1_000_003 + size))  # fmt: skip
            except NoSuchExample:
                left -= self.report.runs - before
                continue
            except (_OutOfTime, Flaky):  # the smallest failure shrunk so far, if any
                # (Flaky: the time ran out while hypothesis replayed an example, or an
                # answer changed between two runs, a time limit reached once and not again)
                failure = state["smallest"]
                if failure is not None:
                    failure.phase, failure.found_shape = "random", state["found"].shape
                    return failure
                if self.expired():
                    return None
                left -= self.report.runs - before
                continue
            failure = self.check(smallest, counted=False)
            if failure is None:  # the shrinker's last step was cut by the total time
                failure = state["smallest"] or state["found"]
            failure.phase = "random"
            failure.found_shape = state["found"].shape
            return failure
        return None

    def _progress(self) -> None:
        if self.on_run is not None:
            self.on_run(self.report)


def _assuming(said: Any) -> list[str]:
    """The lines of a diagnosis made under a bundled program's meaning
    (:func:`~pyasp_games.tools.fuzz.diagnosis.diagnose_assumed`), its note of what was
    assumed said under the first rule blamed rather than as a blame of its own.

    >>> from pyasp_games.tools.fuzz.diagnosis import Diagnosis
    >>> said = Diagnosis([("mine.lp", 3, "b :- a.")], [["it derives b"]], note="assumed: b/0 ...")
    >>> _assuming(said)
    ['  blame: mine.lp:3: b :- a.', '    it derives b', '    assumed: b/0 ...']
    """
    if not said.rules or not said.note.startswith("assumed: "):
        return list(said.lines)
    lines = [line for line in said.lines if line != f"  blame: {said.note}"]
    first = 1 + len(said.details[0]) if said.details else 1
    return [*lines[:first], f"    {said.note}", *lines[first:]]


def _difference(
    tested: Outcome, reference: Outcome, relate: Callable[[Outcome, Outcome], Relation]
) -> str | None:
    """Why the tested outcome is wrong, ``"unknown"`` when either gave no answer in time
    (or answers nothing the other can be compared with), ``None`` when both agree
    (``relate``: the question's rule, :meth:`Question.relation`)."""
    if tested.verdict.failed:
        return f"its answer fails verification: {tested.verdict.message}"
    if tested.status == "error":
        return f"it failed: {tested.stats.get('error') or 'no reason given'}"
    if reference.status == "error":
        why = reference.verdict.message or reference.stats.get("error")
        return f"the reference {reference.backend} failed: {why}"
    relation = relate(tested, reference)
    if relation is Relation.NOT_COMPARABLE:
        return "unknown"
    if relation is Relation.DIFFERS:
        return (
            f"it answers {answer_of(tested)}, the reference {reference.backend} answers "
            f"{answer_of(reference)}"
        )
    return None


def _companions(facts: str, encoding: Path) -> list[Path]:
    """The files an ``--emit-lp`` file's ``% encoding:`` line runs beside ``encoding``
    (routing's move rule beside the dynamics under test).

    >>> _companions("% encoding: /a/mine.lp /b/matching.lp\\nedge(0,1).", Path("/a/mine.lp"))
    [PosixPath('/b/matching.lp')]
    """
    for line in facts.splitlines():
        if line.startswith("% encoding: "):
            rest = line[len("% encoding: "):].replace(str(encoding), " ")
            return [Path(w) for w in rest.split()]
    return []


def _without_includes(lp: Path) -> str:
    """An ``--emit-lp`` file's facts, its ``#include`` of the encoding left out."""
    return "\n".join(line for line in lp.read_text().splitlines() if not line.startswith("#include"))
