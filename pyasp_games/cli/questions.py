"""Commands generated from the questions the domains declare (:mod:`pyasp_games.engines.question`).

A command group adds its domain's questions with :func:`add_questions`; each becomes a
command whose options are the question's parameters (help texts say which backend each
applies to), plus the ones every solving command has: ``--backend`` (choices: the
backend table), ``--all``/``--count`` (with modes), ``--encoding``'s
``--trust-encoding``, the emitted files and ``--force``, ``--time-limit``,
``--cpu-limit``, ``--memory-limit`` and ``--json``. Running it: options checked (one line, exit 2, for
an option that does not apply), files to emit checked before any work, the input read
under the time limit, the question asked, the outcome printed by the question's
formatter (or as JSON), exit code by the CLI contract.

>>> from pyasp_games.engines.question import Param
>>> _annotation(Param("rule", "--rule", type=("xor", "or")))[0].__members__["or"].value
'or'
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing, nullcontext
from enum import Enum, StrEnum
from pathlib import Path
from typing import Any

import typer

from pyasp_games.cli.common import (
    CPU_LIMIT,
    JSON,
    MEMORY_LIMIT,
    TIME_LIMIT,
    TRUST_ENCODING,
    answered,
    answering,
    ascii_int_option,
    exit_code,
    new_file,
    print_json,
    progress_reporter,
    report_error,
    trust_encoding,
    verdict,
    warn,
)
from pyasp_games.engines.enforcement import arm
from pyasp_games.engines.files import checked_suffix
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.question import Param, Question
from pyasp_games.engines.resources import ENCODING
from pyasp_games.errors import InputError

#: Keywords every generated command has; a question's parameter may not take one.
COMMON = (
    "backend", "all_", "count", "trust", "output", "force", "workers", "time_limit",
    "cpu_limit", "memory_limit", "json", "no_certificate",
)  # fmt: skip


def domain_group(domain: str) -> typer.Typer:
    """The command group of ``domain`` (a name in :data:`pyasp_games.domains.DOMAINS`):
    one command per question of its :class:`~pyasp_games.engines.domain.DomainSpec`,
    the group's help the first paragraph of the domain package's docstring."""
    from pyasp_games.domains import domain_package, domain_spec

    package, spec = domain_package(domain), domain_spec(domain)
    summary = " ".join((package.__doc__ or domain).split("\n\n")[0].split())
    app = typer.Typer(help=summary, no_args_is_help=True)
    add_questions(app, spec.questions)
    return app


def add_questions(app: typer.Typer, questions: Sequence[Question]) -> None:
    """Add one command per question to ``app`` (a domain's command group)."""
    for question in questions:
        app.command(question.name, help=question.help)(command(question))


def command(question: Question) -> Callable[..., None]:
    """The Typer command of ``question``: a function whose signature is its options."""
    parameters: list[inspect.Parameter] = []
    annotations: dict[str, Any] = {}

    def add(name: str, annotation: Any, default: Any) -> None:
        parameters.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default))
        annotations[name] = annotation

    for param in question.params:
        if param.name in COMMON:
            raise ValueError(f"{question.name}: parameter {param.name!r} is a common option")
    for param in question.params:  # the arguments first, as the usage line shows them
        if not param.flags:
            add(param.name, *_annotation(param))
    if len(question.backends) > 1:
        choices = StrEnum("Backend", {b: b for b in question.backends})
        add("backend", choices, typer.Option(
            question.default_backend, "--backend", "-b", help="Which solver.",
            case_sensitive=False,
        ))  # fmt: skip
    if question.modes:
        add("all_", bool, typer.Option(False, "--all", help="List every answer (and count them)."))
        add("count", bool, typer.Option(False, "--count", help="Count the answers."))
    for param in question.params:
        if param.flags:
            add(param.name, *_annotation(param))
    if question.encoding is not None:
        add("trust", bool, TRUST_ENCODING)
    for emit in question.emits:
        add(emit.name, Path, typer.Option(None, emit.flag, help=f"{emit.backend}: {emit.help}"))
    if question.output is not None:
        add("output", Path, typer.Option(None, "--output", "-o", help=question.output.help))
    if question.emits or question.output is not None:
        add("force", bool, typer.Option(False, "--force", help="Overwrite the files to write."))
    if question.workers:
        add("workers", int, typer.Option(
            1, "--workers", help="Answer the instances of a file in this many processes."
        ))  # fmt: skip
    add("time_limit", float, TIME_LIMIT)
    add("cpu_limit", float, CPU_LIMIT)
    add("memory_limit", float, MEMORY_LIMIT)
    add("json", bool, JSON)
    if question.without_certificate:
        add("no_certificate", bool, typer.Option(
            False, "--no-certificate",
            help="With --json: leave the certificate out of the answer (it can be large); "
            f"'pyasp-games verify' then checks {question.without_certificate}.",
        ))  # fmt: skip

    def run(**values: Any) -> None:
        ask(question, values)

    run.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    run.__annotations__ = annotations
    run.__name__ = question.name
    run.__doc__ = question.help
    return run


def input_command(
    question: Question, use: Callable[..., None], json: bool = False
) -> Callable[..., None]:
    """A command that reads ``question``'s input (its ``to="read"`` parameters, declared
    once) and hands the instance to ``use``: a command on the same input that is not a
    question (``geography play``). With ``json``, the command takes ``--json`` too and
    hands it on (``use(instance, json=...)``): a command that prints a result (``hex show``)."""
    params = [p for p in question.params if p.to == "read"]
    ordered = [p for p in params if not p.flags] + [p for p in params if p.flags]
    typed = [(p.name, *_annotation(p)) for p in ordered]
    if json:
        typed.append(("json", bool, JSON))
    annotations = {name: kind for name, kind, _ in typed}
    parameters = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default)
        for name, _, default in typed
    ]

    def run(**values: Any) -> None:
        values = {k: (v.value if isinstance(v, Enum) else v) for k, v in values.items()}
        instance = question.read(**question.read_values(values))
        if json:
            use(instance, json=bool(values.get("json")))
        else:
            use(instance)

    run.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    run.__annotations__ = annotations
    return run


def ask(question: Question, values: dict[str, Any]) -> None:
    """Run ``question`` with the command-line ``values``; print; exit by the contract."""
    values = {k: (v.value if isinstance(v, Enum) else v) for k, v in values.items()}
    backend = values.pop("backend", None) or question.default_backend
    given = next((values.get(p.name) for p in question.params if not p.flags and p.to == "read"), None)
    if given is not None:  # until the input is read, named as it was given
        answering(str(given), backend)
    lean = values.pop("no_certificate", False)
    if lean and not values["json"]:
        raise InputError("--no-certificate leaves the certificate out of --json's answer: give --json")
    workers = values.pop("workers", 1)
    if workers < 1:
        raise InputError(f"--workers must be at least 1, got {workers}")
    options = question.backend_options(backend, values, _mode(question, values))
    lim = Limits.given(
        values["time_limit"],
        memory_megabytes=values["memory_limit"],
        cpu_seconds=values["cpu_limit"],
        **question.limit_values(values),
    )
    # from here on the command keeps its limits: a set of boards has one per board
    arm(lim, whole_command=not question.several)
    for emit in question.emits:
        new_file(values.get(emit.name), values.get("force", False), emit.flag)
    if values.get("output") is not None and question.output.suffixes:
        checked_suffix(values["output"], question.output.suffixes, question.output.what)
    output = new_file(values.get("output"), values.get("force", False), "--output")
    trust = trust_encoding(question.domain, values.get("trust", False), values.get(ENCODING))
    options.update(trust)
    read = question.read(**question.read_values(values))
    instances = read if question.several else [read]
    if question.several and len(instances) > 1 and any(values.get(e.name) for e in question.emits):
        raise InputError(", ".join(e.flag for e in question.emits) + " need a file with one instance")
    if question.several and len(instances) > 1 and output is not None:
        raise InputError("--output needs a file with one instance")
    emitted = {e: values[e.name] for e in question.emits if values.get(e.name) is not None}
    before = {emit: _written(path) for emit, path in emitted.items()}
    outcomes = []
    # closed on the way out, also by an interrupt: a pool of workers stops with it
    with closing(_answers(question, instances, backend, lim, workers, options)) as answers:
        for index, (instance, outcome) in enumerate(zip(instances, answers, strict=True)):
            outcomes.append(outcome)
            if output is not None:  # first: a closed pipe after the printing cannot lose it
                write_answer(question, instance, outcome, output)
            source = (question.read_values(values), index if question.several else None)
            show(question, instance, outcome, options, values["json"],
                 cpu=lim.cpu_limit is not None, source=source, lean=lean)  # fmt: skip
    for emit, path in emitted.items():
        if _written(path) == before[emit]:  # never silently: say why the file is not there
            warn(f"{emit.flag} {path}: nothing written: {_unemitted(emit, outcomes[0])}")
    raise typer.Exit(exit_code(outcomes))


def write_answer(question: Question, instance: Any, outcome: Outcome, path: Path) -> None:
    """``--output``: the question's file of a verified answer, else a warning saying why
    there is none (the answer failed its check, or a limit came first)."""
    from pyasp_games.engines.files import write_text

    assert question.output is not None
    if outcome.status in ("unknown", "error") or outcome.verdict.verified is False:
        warn(f"--output {path}: nothing written: the answer is {outcome.status}")
        return
    write_text(path, question.output.write(instance, outcome))


def _written(path: Path) -> tuple[int, int] | None:
    """When and how large ``path`` was written last (``None``: it is not there)."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_mtime_ns, stat.st_size


def _unemitted(emit: Any, outcome: Outcome) -> str:
    """Why the backend wrote no file: it stopped first, or needed none for its answer."""
    what = {"sat": "SAT call", "asp": "clingo run"}.get(emit.backend, "solver call")
    if outcome.status in ("unknown", "error"):
        return f"the {emit.backend} backend ended ({outcome.status}) before building one"
    grounds = outcome.certificate  # what the answer rests on: a reason, or terms with one
    why = grounds.get("reason") if isinstance(grounds, dict) else grounds
    why = why if isinstance(why, str) else None
    return f"the answer needed no {what}" + (f" ({why})" if why else "")


def _answers(
    question: Question,
    instances: list[Any],
    backend: str,
    lim: Any,
    workers: int,
    options: dict[str, Any],
) -> Iterator[Outcome]:
    """The outcomes in order: the first alone, so that what a backend builds once (and
    caches) is ready for the others, with a progress line for that work
    (``Question.progress``); the others in ``workers`` processes."""
    label = question.progress.get(backend)
    for instance in instances[:1]:
        with progress_reporter() if label else nullcontext() as report:
            name = getattr(instance, "name", question.name)
            answering(name, backend)
            extra = {"progress": report(f"{label} for {name}")} if label else {}
            outcome = question.solve(instance, backend, lim, **options, **extra)
        yield outcome
    yield from question.solve_each(instances[1:], backend, lim, workers, **options)


def _mode(question: Question, values: dict[str, Any]) -> str | None:
    if not question.modes:
        return None
    all_, count = values.pop("all_", False), values.pop("count", False)
    if all_ and count:
        raise InputError("--all and --count exclude each other (--all also reports the count)")
    return "all" if all_ else "count" if count else "one"


def show(
    question: Question,
    instance: Any,
    outcome: Outcome,
    options: dict[str, Any],
    json: bool,
    cpu: bool = False,
    source: tuple[dict[str, Any], int | None] | None = None,
    lean: bool = False,
) -> None:
    """Print one outcome: one JSON object, or a headline and the formatter's lines
    (``cpu``: the run was held to a CPU limit, so the headline gives its CPU seconds
    beside the wall-clock ones). The JSON object names the command and, with ``source``
    (the reader's values, the instance's index in its file), the input, so that
    ``pyasp-games verify`` can check the answer again (:func:`~pyasp_games.tools.saved.saved`);
    ``lean`` (``--no-certificate``) leaves its certificate out."""
    answered()
    if json:
        from pyasp_games.tools.saved import saved

        given, index = source if source is not None else ({}, None)
        data = saved(question, outcome, given, index, lean=lean)
        notes = _interface_of_yours(question, outcome, options)
        if notes:
            data["interface"] = notes
        print_json(data)
        return
    answer, lines = question.describe(instance, outcome.claimed, options)
    said = f", {answer}" if answer else ""
    if answer and outcome.status == "error" and outcome.verdict.verified is False:
        said = f", the claim '{answer}' failed"  # never repeated as if it stood
    took = f"{outcome.seconds:.3f} s"
    if cpu and isinstance(outcome.stats.get("cpu_seconds"), int | float):
        took += f", {outcome.stats['cpu_seconds']:.3f} s CPU"
    typer.echo(
        f"{outcome.problem}: {outcome.status}{said} ({outcome.backend}, "
        f"{took}, {verdict(outcome, question.unchecked)})"
    )
    for line in lines:
        typer.echo(line)
    for said in _warnings_of_yours(question, outcome, options):
        typer.echo(f"  clingo warns: {said}")
    for note in _interface_of_yours(question, outcome, options):  # beside clingo's warnings
        typer.echo(f"  interface: {note}")
    report_error(outcome)


def _warnings_of_yours(question: Question, outcome: Outcome, options: dict[str, Any]) -> list[str]:
    """clingo's warnings on the user's own encoding (an atom no rule defines, an undefined
    operation: the hints to a typo), at most five; the bundled encodings' are known and
    left in the JSON's ``stats["clingo_warnings"]``."""
    from pyasp_games.engines.resources import user_encoding

    if user_encoding(question.domain, options.get(ENCODING)) is None:
        return []
    said = outcome.stats.get("clingo_warnings") or []
    return said[:5] + ([f"... and {len(said) - 5} more (--json lists them)"] if len(said) > 5 else [])


def _interface_of_yours(question: Question, outcome: Outcome, options: dict[str, Any]) -> list[str]:
    """What the user's own encoding does not handle of the interface its domain's README
    documents (:func:`pyasp_games.engines.interface.check`), beside a failed answer (an
    input it never reads: the likely cause); beside any answer, the older version it says
    it was written for."""
    from pyasp_games.engines.interface import check
    from pyasp_games.engines.resources import encoding_path, user_encoding

    mine = user_encoding(question.domain, options.get(ENCODING))
    if mine is None:
        return []
    try:
        notes = check(question.domain, encoding_path(question.domain, mine))
    except InputError as err:  # a version the README does not know: said, not raised after the answer
        return [str(err)]
    if outcome.status == "error":
        return notes
    return [note for note in notes if note.startswith("the encoding says it was written for")]


def _annotation(param: Param) -> tuple[Any, Any]:
    """The type annotation and the Typer default (Argument or Option) of ``param``."""
    kind: Any = param.type
    if isinstance(kind, tuple):  # choices
        kind = StrEnum(param.name.title().replace("_", ""), {c: c for c in kind})
    help_text = param.help
    if param.backends is not None:
        help_text = f"{'/'.join(param.backends)}: {help_text}"
    if param.flags and param.default is not None and kind is not bool:
        help_text = f"{help_text} [default: {param.default}]"
    if not param.flags:
        required = ... if param.default is None and not param.optional else param.default
        return kind, typer.Argument(required, help=help_text, metavar=param.metavar)
    flags = param.flags.split()
    if kind is bool:
        return bool, typer.Option(param.default is True, *flags, help=help_text)
    if kind is int:  # click's INT is Python's int: '0_7' would be 7
        return int, typer.Option(None, *flags, help=help_text, metavar=param.metavar or "INTEGER",
                                 parser=ascii_int_option)  # fmt: skip
    return kind, typer.Option(None, *flags, help=help_text, metavar=param.metavar)
