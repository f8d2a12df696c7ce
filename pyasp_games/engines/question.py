"""A question a domain answers, declared once: its backends, checker, options and formatter.

A domain lists its questions (``QUESTIONS`` in ``pyasp_games.<domain>.questions``):
``cover solve``, ``grundy exists``, ``games nim``, ... Each :class:`Question` holds

- one **backend table** (name -> ``backend(instance, limits, **options) -> Claim``),
- one **checker** from the domain's ``verify.py`` (run on every outcome by
  :func:`~pyasp_games.engines.runner.run_backend`),
- its **parameters** (:class:`Param`): the input it reads and the options of each
  backend, with the backends each one applies to,
- the **modes** it answers in (a subset of :data:`MODES`) and the files it can
  **emit** (``--emit-lp`` for the ASP backend, ``--emit-cnf`` for the SAT backend),
- one **formatter**: the answer in words and the lines shown under it.

The command line is generated from this declaration (:mod:`pyasp_games.cli.questions`):
the backend choices, the help texts, the "does not apply" errors and the printing. The
library needs no command line: :meth:`Question.ask` checks and completes the options as
the command does, and :meth:`Question.solve` runs one backend, verified.

>>> def double(n, limits, factor=2):
...     return Claim.solved(n * factor)
>>> def check(n, outcome):
...     return outcome.answer % n == 0, "a multiple of n"
>>> q = Question(
...     "double", "Multiply a number.", backends={"native": double}, check=check,
...     read=int, params=(Param("factor", "--factor", "The factor.", type=int, default=2),),
...     describe=lambda n, outcome, options: (f"{outcome.answer}", []),
... )
>>> out = q.ask(21, "native", factor=None)
>>> out.problem, out.answer, out.verdict.verified
('double', 42, True)
>>> q.ask(21, "native", factor=3).answer
63
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pyasp_games.engines.agreement import Refinement, Relation, relation
from pyasp_games.engines.claim import Claim, Status
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.reference import Reference, cross_check, trusted
from pyasp_games.engines.resources import ENCODING
from pyasp_games.engines.runner import Checker, run_backend
from pyasp_games.engines.sat_runner import SOLVERS
from pyasp_games.errors import InputError

#: How many answers a question gives: one (with its witness), all of them (listed and
#: counted), or their number. Every backend that answers in modes takes ``mode=`` one of these.
MODES = ("one", "all", "count")


def checked_mode(mode: str) -> str:
    """``mode`` if it is one of :data:`MODES`, else :class:`InputError`."""
    if mode not in MODES:
        raise InputError(f"unknown mode {mode!r} (choose from {', '.join(MODES)})")
    return mode


#: Where a parameter's value goes: a backend option, the reader's keyword, a Limits field.
DESTINATIONS = ("backend", "read", "limits")


@dataclass(frozen=True)
class Param:
    """One parameter of a question: a positional argument (no ``flags``) or an option.

    Attributes:
        name: the keyword its value is passed under (to the backend, the reader, or
            :class:`Limits` as ``max_length``).
        flags: its spellings, separated by spaces (``"--position -p"``); a bool option
            is a switch (``"--core/--no-core"``). Empty: a positional argument.
        help: the help text (the CLI adds which backends it applies to).
        type: ``str``, ``int``, ``float``, ``bool``, ``Path``, ``list[str]`` (repeatable
            option, or an argument taking one or more values), or a tuple of choices.
        default: the value used when the user gives none (``None``: not passed at all).
        backends: the backends it applies to (``None``: every one); given with another
            backend, the command refuses it with one line.
        to: ``"backend"`` (an option of the backend), ``"read"`` (of the reader) or
            ``"limits"`` (a :class:`Limits` field).
        metavar: how the help names the value.
        optional: a positional argument the user may omit (its value is then ``None``).
        role: what the parameter is to the tools over all domains: :data:`ENCODING` for
            the program the ``asp`` backend runs (:func:`encoding_param`), else ``""``.
    """

    name: str
    flags: str = ""
    help: str = ""
    type: Any = str
    default: Any = None
    backends: tuple[str, ...] | None = None
    to: str = "backend"
    metavar: str | None = None
    optional: bool = False
    role: str = ""

    def __post_init__(self) -> None:
        if self.to not in DESTINATIONS:
            raise ValueError(f"Param.to must be one of {DESTINATIONS}, got {self.to!r}")

    @property
    def option(self) -> str:
        """How messages name it: its first flag, or its name in capitals."""
        if not self.flags:
            return self.name.upper()
        spellings = self.flags.split()[0].split("/")  # a switch: the one away from the default
        return spellings[-1] if self.type is bool and self.default is True else spellings[0]

    def given(self, value: Any) -> bool:
        """Whether the user gave this parameter (a switch: set away from its default)."""
        if self.type is bool:  # not passed at all (None, from the library) is not given
            return value is not None and bool(value) != bool(self.default)
        return value is not None and value != []


@dataclass(frozen=True)
class Emit:
    """A file the backend ``backend`` writes of what it runs (``--emit-lp``, ``--emit-cnf``).

    The path reaches the backend as the option ``name``; the backend writes the file
    (the program's facts, the CNF of the last horizon) where it builds it, so the file is
    what was run. The CLI refuses it up front for another backend and for a path it
    could not write, and never overwrites a file without ``--force``.
    """

    name: str
    flag: str
    backend: str
    help: str


@dataclass(frozen=True)
class Output:
    """A file of the answer the command writes (``--output FILE``, ``-o``): the text
    ``write(instance, outcome)`` returns, written through the one writer
    (:func:`~pyasp_games.engines.files.write_text`) once the outcome is verified; an
    answer that failed its check, or none (a limit), writes nothing and says so. Never
    over an existing file without ``--force``."""

    help: str
    write: Callable[[Any, Outcome], str]
    #: the names the file may end in (its format; empty: any), and what it is, for the
    #: one-line refusal of another name (:func:`~pyasp_games.engines.files.checked_suffix`)
    suffixes: tuple[str, ...] = ()
    what: str = "file"


def encoding_param(help: str, default: str | None = None, backend: str = "asp") -> Param:
    """The ``--encoding`` parameter of a question: the program ``backend`` runs, a bundled
    name or an ``.lp`` file of the user's (whose claims no checker confirms alone are
    cross-checked, :mod:`~pyasp_games.engines.reference`). Declared so, the question takes
    ``--trust-encoding``, and crosscheck, bench and fuzz find the encoding by its role
    (:attr:`Question.encoding`)."""
    return Param(
        ENCODING, "--encoding", help, default=default, backends=(backend,), role=ENCODING
    )


#: The files a question can emit, by the backend that writes them.
EMIT_LP = Emit("emit_lp", "--emit-lp", "asp", "write the program (facts, and how to run them).")
EMIT_CNF = Emit("emit_cnf", "--emit-cnf", "sat", "write the CNF as DIMACS.")

#: The ``--solver`` option of every SAT backend, its choices the offered solvers (a
#: domain may give it another default or help: ``dataclasses.replace(SOLVER, ...)``).
SOLVER = Param(
    "solver", "--solver", "the PySAT solver.", type=SOLVERS, default="glucose4", backends=("sat",)
)

#: How clingo runs the ``asp`` backend, given to every question that has one (added by
#: :class:`Question` itself): the options reach the backend as one list ``clingo=``,
#: checked by clingo before any work (:func:`~pyasp_games.engines.clingo_runner.clingo_arguments`).
CLINGO = (
    Param(
        "clingo_option",
        "--clingo-option",
        "a clingo option such as --configuration=crafty (repeatable).",
        type=list[str],
        backends=("asp",),
        metavar="OPTION",
    ),
    Param(
        "const",
        "--const -c",
        "a constant of the program, NAME=VALUE (repeatable; clingo's -c).",
        type=list[str],
        backends=("asp",),
        metavar="NAME=VALUE",
    ),
    Param(
        "parallel_mode",
        "--parallel-mode",
        "clingo's threads, N or N,compete|split (clingo's --parallel-mode).",
        backends=("asp",),
        metavar="N[,MODE]",
    ),
)

#: ``describe(instance, outcome, options) -> (answer in words or None, lines below it)``
Describe = Callable[[Any, Outcome, dict[str, Any]], tuple[str | None, list[str]]]


def in_words(describe: Describe, instance: Any, outcome: Outcome, options: dict[str, Any]) -> str:
    """An outcome told on one line by its question's formatter: the answer in words, then
    the lines below it (the witness) in parentheses; where there is no answer, the status.

    >>> told = lambda inst, o, opts: (f"{o.answer} moves", [f"  plan: {o.witness}"])
    >>> in_words(told, None, Outcome("b", "asp", "solved", 2, "RR"), {})
    '2 moves (plan: RR)'
    """
    answer, lines = describe(instance, outcome, options)
    shown = "; ".join(line.strip() for line in lines if line.strip())
    said = answer or outcome.status
    return f"{said} ({shown})" if shown else said


@dataclass(frozen=True)
class Question:
    """A question of a domain; see the module docstring.

    Attributes:
        name: the command's name (``solve``, ``exists``, ...).
        domain: the domain's name (where its bundled encodings are): the domain whose
            :class:`~pyasp_games.engines.domain.DomainSpec` lists the question stamps
            its name here (:meth:`declared_in`); ``""`` for a question no domain lists
            (those of the ``games`` and ``reduce`` groups).
        help: the command's help: a first line, then details (e.g. the JSON shape).
        backends: the backend table; the first one is the default.
        check: the checker (``verify.py``), run on every outcome.
        read: ``read(**values of the params with to="read") -> instance`` (or a list of
            instances, with ``several``).
        describe: the formatter (:data:`Describe`).
        params: the input and the options (:class:`Param`).
        modes: the modes it answers in (``()``: one answer, no ``--all``/``--count``).
        emits: the files it can write (:data:`EMIT_LP`, :data:`EMIT_CNF`).
        fixed: options every backend receives (e.g. ``find="kernel"``).
        reference: the trusted backend that cross-checks a user encoding's claims (a
            question with a parameter ``encoding`` takes the user's own programs).
        several: ``read`` returns a list of instances; each is answered under its own
            time limit, and the exit code is the most severe of their outcomes.
        unchecked: how an outcome no checker confirms reads (``nothing to verify``).
        workers: with ``several``, the command takes ``--workers N`` and answers the
            instances after the first in N processes (:meth:`solve_each`).
        progress: the backends that build something once on first use (e.g. pattern
            databases), with what they build: the command passes such a backend
            ``progress=`` a progress line for the first instance.
        output: the file of the answer the command can write (:class:`Output`).
        compare: the question's own rule of agreement between two of its answers,
            asked before the general one
            (:data:`~pyasp_games.engines.agreement.Refinement`; ``None``: the general
            :func:`~pyasp_games.engines.agreement.relation` alone): the reference
            cross-check, crosscheck, fuzz and the bench report all use it.
        without_certificate: what the checker still confirms on a saved answer whose
            certificate was left out (``""``: the certificate always travels). Declared,
            the command takes ``--no-certificate``: with ``--json``, the answer is
            printed without its certificate (which can be large: a strategy, a table)
            and marked ``"certificate_left_out": true``, and ``pyasp-games verify``
            says this sentence beside its verdict. The command's own check, before
            printing, still reads the certificate.
        revive: ``revive(instance, outcome) -> outcome``: a saved answer read back from
            JSON (:meth:`Outcome.from_dict
            <pyasp_games.engines.outcome.Outcome.from_dict>`) made what the checker reads
            (tuples where JSON wrote lists, fractions where it wrote strings), for
            :meth:`recheck`; ``None``: the JSON form is what the checker reads.
    """

    name: str
    help: str
    backends: Mapping[str, Callable[..., Claim]]
    check: Checker
    read: Callable[..., Any]
    describe: Describe
    params: tuple[Param, ...] = ()
    modes: tuple[str, ...] = ()
    emits: tuple[Emit, ...] = ()
    fixed: Mapping[str, Any] = field(default_factory=dict)
    reference: Reference | None = None
    several: bool = False
    unchecked: str = "nothing to verify"
    domain: str = ""
    workers: bool = False
    progress: Mapping[str, str] = field(default_factory=dict)
    output: Output | None = None
    compare: Refinement | None = None
    revive: Callable[[Any, Outcome], Outcome] | None = None
    without_certificate: str = ""

    def __post_init__(self) -> None:
        if "asp" in self.backends and not any(p.name == "clingo_option" for p in self.params):
            object.__setattr__(self, "params", (*self.params, *CLINGO))  # every ASP backend
        for mode in self.modes:
            checked_mode(mode)
        for param in self.params:
            if param.backends is not None and not set(param.backends) <= set(self.backends):
                raise ValueError(f"{self.name}: {param.option} names an unknown backend")

    def declared_in(self, domain: str) -> None:
        """Record ``domain`` as the question's domain: its ``DomainSpec`` lists it. The
        one change a frozen question takes, once: a question two domains list is an
        error."""
        if self.domain and self.domain != domain:
            raise ValueError(f"{self.name}: listed by the {self.domain} and the {domain} domains")
        object.__setattr__(self, "domain", domain)

    @property
    def encoding(self) -> Param | None:
        """The parameter of the encoding the question's ASP backend runs
        (:func:`encoding_param`), or ``None``: the question takes no ``--encoding``."""
        return next((p for p in self.params if p.role == ENCODING), None)

    @property
    def default_backend(self) -> str:
        return next(iter(self.backends))

    def solve(
        self, instance: Any, backend: str, limits: Limits = Limits(), **options: Any
    ) -> Outcome:
        """Run ``backend`` on ``instance`` under ``limits``: timed and verified
        (:func:`run_backend`); then, with a :attr:`reference`, a user encoding's claims
        that no checker confirms alone are cross-checked against the reference backend
        (:func:`~pyasp_games.engines.reference.cross_check`) under the same started
        limits, unless ``trust_encoding=True`` (then they read "trusted, not
        cross-checked", :func:`~pyasp_games.engines.reference.trusted`). The outcome's ``seconds`` are the
        backend's own; the reference's are in its verdict's ``cross_check``."""
        if backend not in self.backends:
            raise InputError(
                f"unknown backend {backend!r} (choose from {', '.join(self.backends)})"
            )
        problem = getattr(instance, "name", self.name)
        options = fold_clingo({**self.fixed, **options})
        trust = bool(options.pop("trust_encoding", False))
        self._refuse_unknown_options(backend, options)
        limits = limits.started()  # one clock for the backend and the reference after it

        def run(name: str, lim: Limits, opts: dict[str, Any]) -> Outcome:
            return run_backend(self.backends, name, instance, problem, lim, self.check, **opts)

        outcome = run(backend, limits, options)
        if self.reference is not None and trust:
            trusted(self.reference, outcome, options)  # said, never shown as confirmed
        elif self.reference is not None:

            def words(told: Outcome) -> str:
                return in_words(self.describe, instance, told, options)

            cross_check(
                self.reference, instance, outcome, options, limits, run, words, self.compare
            )
        return outcome

    def recheck(self, instance: Any, saved: dict[str, Any]) -> Outcome:
        """A saved answer (the JSON :meth:`Outcome.to_dict
        <pyasp_games.engines.outcome.Outcome.to_dict>` wrote) checked again, alone, by the
        question's checker on ``instance``: the outcome as its backend claimed it (a
        failed claim's answer and status put back), every check and cross-check it
        carried dropped, then :func:`~pyasp_games.engines.runner.judged` anew. The
        verdict's kind and bound stay: they are part of the claim. A saved answer that
        is not an outcome is a :class:`ValueError`."""
        from pyasp_games.engines.runner import judged
        from pyasp_games.engines.verdict import Verdict

        outcome = Outcome.from_dict(saved)
        claimed = outcome.verdict
        if claimed.failed_status is not None:  # the claim as made, not as it was judged
            outcome.status = Status.of(claimed.failed_status)
        if claimed.failed_answer is not None:
            outcome.answer = claimed.failed_answer
        outcome.verdict = Verdict(kind=claimed.kind, bound=claimed.bound)
        if self.revive is not None:
            outcome = self.revive(instance, outcome)
        return judged(outcome, instance, self.check)

    def _refuse_unknown_options(self, backend: str, options: Mapping[str, Any]) -> None:
        """An option the backend does not take is the caller's mistake, named as such (a
        misspelt keyword would otherwise be a TypeError naming an internal function)."""
        import difflib
        import inspect

        try:
            signature = inspect.signature(self.backends[backend])
        except (TypeError, ValueError):  # a callable without a signature: it decides
            return
        takes = signature.parameters
        if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in takes.values()):
            return
        accepted = [name for name in list(takes)[2:]] + ["clingo"]
        for name in options:
            if name not in accepted:
                known = sorted({*accepted[:-1], *(p.name for p in CLINGO)})
                close = difflib.get_close_matches(name, known, n=1)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                raise InputError(
                    f"{self.name} --backend {backend} takes no option "
                    f"{name!r}{hint} (it takes: {', '.join(known) or 'none'})"
                )

    def relation(self, a: Outcome, b: Outcome) -> Relation:
        """How two answers of this question stand: its own rule (:attr:`compare`), else
        the general :func:`~pyasp_games.engines.agreement.relation`."""
        return relation(a, b, self.compare)

    def backend_options(
        self, backend: str, values: Mapping[str, Any], mode: str | None = None
    ) -> dict[str, Any]:
        """The options ``backend`` receives for the parameter ``values`` the user gave.

        A parameter given for a backend it does not apply to, a mode this question
        does not answer in, or a file to emit from another backend is an
        :class:`InputError`. Defaults fill what was not given.
        """
        if backend not in self.backends:
            raise InputError(
                f"unknown backend {backend!r} (choose from {', '.join(self.backends)})"
            )
        options: dict[str, Any] = {}
        for param in self.params:
            value = values.get(param.name)
            applies = param.backends is None or backend in param.backends
            if param.given(value) and not applies:
                raise InputError(f"{param.option} applies to {_backends(param.backends)} only")
            if applies and param.to == "backend":
                chosen = value if param.given(value) else param.default
                if chosen is not None:
                    options[param.name] = chosen
        for emit in self.emits:
            path = values.get(emit.name)
            if path is not None and backend != emit.backend:
                raise InputError(f"{emit.flag} applies to {_backends((emit.backend,))} only")
            if path is not None:
                options[emit.name] = path
        if mode is not None:
            if mode not in self.modes:
                raise InputError(f"{self.name} answers in one mode only, not {mode!r}")
            options["mode"] = mode
        return fold_clingo(options)

    def read_values(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """The reader's keywords among the parameter ``values``."""
        return {p.name: values.get(p.name) for p in self.params if p.to == "read"}

    def limit_values(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """The :class:`Limits` fields among the parameter ``values`` (e.g. ``max_length``);
        a negative number is an :class:`InputError` naming the option as the user wrote
        it (``--max-moves``, not the field)."""
        out = {}
        for p in self.params:
            if p.to == "limits":
                value = values.get(p.name) if p.given(values.get(p.name)) else p.default
                if isinstance(value, int | float) and value < 0:
                    raise InputError(f"{p.option} must be non-negative, got {value}")
                out[p.name] = value
        return out

    def ask(
        self,
        instance: Any,
        backend: str | None = None,
        limits: Limits = Limits(),
        mode: str | None = None,
        **values: Any,
    ) -> Outcome:
        """Answer for ``instance`` as the command does: options checked and completed by
        :meth:`backend_options`, then :meth:`solve`."""
        backend = backend or self.default_backend
        return self.solve(instance, backend, limits, **self.backend_options(backend, values, mode))

    def solve_each(
        self,
        instances: Sequence[Any],
        backend: str,
        limits: Limits = Limits(),
        workers: int = 1,
        **options: Any,
    ) -> Iterator[Outcome]:
        """The outcomes of ``instances`` in their order, each by :meth:`solve`, in
        ``workers`` processes when there are several (the question must then pickle:
        module-level functions, no lambdas). Answer one instance first when a backend
        builds something once and caches it, so the processes find it ready."""
        if workers <= 1 or len(instances) <= 1:
            yield from (self.solve(instance, backend, limits, **options) for instance in instances)
            return
        from functools import partial

        from pyasp_games.engines.processes import process_pool

        # stopped at once when the caller stops reading (an interrupt, a closed generator)
        with process_pool(min(workers, len(instances))) as pool:
            solve = partial(self.solve, backend=backend, limits=limits, **options)
            yield from pool.map(solve, instances)


def fold_clingo(options: dict[str, Any]) -> dict[str, Any]:
    """``options`` with the :data:`CLINGO` parameters folded into one checked list of
    clingo arguments, ``clingo=`` (which :func:`~pyasp_games.engines.runner.run_backend`
    hands to every clingo session of the backend)."""
    given = [options.pop(p.name, None) for p in CLINGO]
    if any(given):
        from pyasp_games.engines.clingo_runner import clingo_arguments

        options["clingo"] = clingo_arguments(given[0] or (), given[1] or (), given[2])
    return options


def _backends(names: Sequence[str] | None) -> str:
    return "--backend " + " and ".join(names or ())


def find_question(questions: Sequence[Question], name: str) -> Question:
    """The question called ``name`` among ``questions``."""
    for question in questions:
        if question.name == name:
            return question
    raise InputError(f"unknown question {name!r} (choose from {', '.join(q.name for q in questions)})")


__all__ = [
    "CLINGO",
    "EMIT_CNF",
    "EMIT_LP",
    "MODES",
    "SOLVER",
    "Emit",
    "Output",
    "Param",
    "Question",
    "checked_mode",
    "find_question",
    "in_words",
]
