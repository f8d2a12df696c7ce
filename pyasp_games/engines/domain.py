"""What the domain-agnostic layers (crosscheck, bench, CLI) know about a domain.

A domain package ``pyasp_games.<name>`` exposes ``domain() -> DomainSpec``: how to
load its instance files, which files are bundled for crosscheck, its ``solve``
entry point (see :func:`pyasp_games.engines.runner.run_backend`), its backends and
each instance's known answer. The spec stamps its name on the questions it lists
(:attr:`~pyasp_games.engines.question.Question.domain`); a spec built by
:meth:`DomainSpec.asking` takes its name from the registry
(:func:`pyasp_games.domains.domain_spec`: the package's name).

>>> spec = DomainSpec("toy", ["a", "asp"], solve=None, load_file=None,
...                   bundled_files=list, known=lambda i: (False, None),
...                   encoding_backend="asp", default_encodings=["base"])
>>> [b.label for b in spec.backends(encodings=["base", "mine.lp"])]
['a', 'asp[base]', 'asp[mine.lp]']
>>> [(b.label, b.options) for b in spec.backends(["asp"], settings={"crafty": ["--configuration=crafty"]})]
[('asp[crafty]', {'encoding': 'base', 'clingo': ['--configuration=crafty']})]
"""

from __future__ import annotations

import importlib
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from pyasp_games.engines.agreement import Refinement, Relation, relation
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.resources import ENCODING
from pyasp_games.errors import InputError


@dataclass(frozen=True)
class BackendSpec:
    """One column of a comparison: a backend with fixed options, under a label."""

    label: str
    backend: str
    options: dict[str, Any] = field(default_factory=dict)


@dataclass
class DomainSpec:
    """What crosscheck and bench need to know about a domain.

    ``name`` is stamped on every question of :attr:`questions` (their
    :attr:`~pyasp_games.engines.question.Question.domain`); ``""`` until the registry
    names a spec built by :meth:`asking`."""

    name: str
    backend_names: list[str]
    solve: Callable[..., Outcome]
    load_file: Callable[[Path], list[Any]]
    #: ``(True, answer)`` when the instance states its answer, else ``(False, None)``
    known: Callable[[Any], tuple[bool, Any]]
    #: The instance files crosscheck answers by default (``None``: those
    #: ``instances/<name>/index.toml`` lists, :func:`bundled_files`).
    bundled_files: Callable[[], list[Path]] | None = None
    encoding_backend: str | None = None
    default_encodings: list[str] = field(default_factory=list)
    #: Whether a backend answers an instance at all (e.g. an algorithm for undirected
    #: graphs only); crosscheck runs a backend only where it applies.
    applies: Callable[[Any, str], bool] | None = None
    #: Named instance generators for bench suites: ``generators[name](seed=s, **params)``
    #: returns one instance and must be deterministic in its arguments (each bench run
    #: re-creates its instance from them in its own process).
    generators: dict[str, Callable[..., Any]] = field(default_factory=dict)
    #: The questions the domain answers (:class:`~pyasp_games.engines.question.Question`);
    #: the command line is generated from them.
    questions: tuple[Any, ...] = ()
    #: What ``pyasp-games fuzz`` draws and shrinks
    #: (:class:`~pyasp_games.engines.fuzzing.Fuzzing`); ``None``: not fuzzed.
    fuzzing: Any = None
    #: The formatter of the question crosscheck and bench ask:
    #: ``describe(instance, outcome, options) -> (answer in words or None, lines)``
    #: (``None``: the answer as it is).
    describe: Callable[[Any, Outcome, dict[str, Any]], tuple[str | None, list[str]]] | None = None
    #: The question's own rule of agreement (:attr:`Question.compare
    #: <pyasp_games.engines.question.Question.compare>`; ``None``: the general one).
    compare: Refinement | None = None

    def relation(self, a: Outcome, b: Outcome) -> Relation:
        """How two answers of the domain's question stand
        (:func:`~pyasp_games.engines.agreement.relation`, refined by :attr:`compare`)."""
        return relation(a, b, self.compare)

    def __post_init__(self) -> None:
        if self.name:
            for question in self.questions:
                question.declared_in(self.name)

    def answer_text(self, instance: Any, outcome: Outcome, options: dict[str, Any]) -> str:
        """An outcome's answer in words, by the question's own formatter (an error: why)."""
        if outcome.status == "error":
            return f"({outcome.reason})"
        if self.describe is not None:
            said = self.describe(instance, outcome, options)[0]
            if said:
                return said
        return "-" if outcome.answer is None else str(outcome.answer)

    @classmethod
    def asking(
        cls,
        question: Any,
        load_file: Callable[[Path], list[Any]],
        known: Callable[[Any], tuple[bool, Any]],
        **rest: Any,
    ) -> DomainSpec:
        """The spec of a domain whose instances crosscheck and bench answer by ``question``
        (a :class:`~pyasp_games.engines.question.Question`): the backends, ``solve``
        (unless given), its formatter, and the backend taking ``--encoding`` with its
        default (none: the backend's own choice, e.g. after the game's variant) come from
        the declaration; ``rest`` are the other fields. Its ``name`` is ``""`` unless
        given: the registry (:func:`pyasp_games.domains.domain_spec`) names it, and the
        name then reaches the questions."""
        encoding = question.encoding
        if encoding is not None and encoding.backends:
            rest.setdefault("encoding_backend", encoding.backends[0])
            defaults = [] if encoding.default is None else [encoding.default]
            rest.setdefault("default_encodings", defaults)
        rest.setdefault("solve", question.solve)
        rest.setdefault("describe", question.describe)
        rest.setdefault("compare", question.compare)
        rest.setdefault("name", "")
        return cls(
            backend_names=list(question.backends),
            load_file=load_file,
            known=known,
            **rest,
        )

    def load(self, files: Sequence[Path]) -> list[Any]:
        return [inst for f in files for inst in self.load_file(Path(f))]

    def bundled(self) -> list[Any]:
        files = self.bundled_files or partial(bundled_files, self.name)
        return self.load(files())

    def backends(
        self,
        names: Sequence[str] | None = None,
        encodings: Sequence[str] | None = None,
        settings: Mapping[str, Sequence[str]] | None = None,
    ) -> list[BackendSpec]:
        """Backends to compare: ``names`` (default all); each encoding is its own ASP
        backend, and so is each of the named clingo ``settings`` (``{name: clingo
        options}``, checked by clingo; :func:`with_settings`)."""
        chosen = list(names) if names else list(self.backend_names)
        unknown = [n for n in chosen if n not in self.backend_names]
        if unknown:
            raise InputError(
                f"unknown {self.name} backend {unknown[0]!r} (choose from {', '.join(self.backend_names)})"
            )
        if encodings and self.encoding_backend is None:
            raise InputError(f"the {self.name} domain has no ASP encodings to choose")
        if encodings and self.encoding_backend not in chosen:
            raise InputError(
                f"--encoding applies to the {self.encoding_backend} backend, "
                f"which --backend leaves out"
            )
        specs = []
        for name in chosen:
            if name == self.encoding_backend and (encodings or self.default_encodings):
                encs = list(encodings or self.default_encodings)
                for enc in encs:
                    label = (
                        name
                        if not encodings and enc == self.default_encodings[0]
                        else f"{name}[{_encoding_name(enc, encs)}]"
                    )
                    specs.append(BackendSpec(label, name, {ENCODING: enc}))
            else:
                specs.append(BackendSpec(name, name))
        return with_settings(specs, settings)


#: The backend clingo's options apply to (the questions' ``--clingo-option``).
CLINGO_BACKEND = "asp"


def with_settings(
    specs: Sequence[BackendSpec], settings: Mapping[str, Sequence[str]] | None
) -> list[BackendSpec]:
    """Each ``asp`` column once per named clingo setting (``asp[crafty]``,
    ``asp[x3c,crafty]``), the setting's options checked by clingo and passed as
    ``clingo=``; the other columns as they are."""
    if not settings:
        return list(specs)
    from pyasp_games.engines.clingo_runner import clingo_arguments

    checked = {name: clingo_arguments(list(options)) for name, options in settings.items()}
    if not any(s.backend == CLINGO_BACKEND for s in specs):
        raise InputError(f"clingo settings apply to the {CLINGO_BACKEND} backend, which does not run")
    out = []
    for s in specs:
        if s.backend != CLINGO_BACKEND:
            out.append(s)
            continue
        inner = s.label[len(s.backend) + 1 : -1] if s.label.endswith("]") else ""
        for name, args in checked.items():
            label = f"{s.backend}[{inner + ',' if inner else ''}{name}]"
            out.append(BackendSpec(label, s.backend, {**s.options, "clingo": args}))
    return out


def _encoding_name(encoding: str, encodings: Sequence[str]) -> str:
    """How a backend label names an encoding: a bundled one by its name, a file by its
    file name (its whole path when another file of the same name is compared too).

    >>> _encoding_name("/home/me/mine.lp", ["sliding", "/home/me/mine.lp"])
    'mine.lp'
    """
    name = Path(encoding).name
    same = [e for e in encodings if Path(e).name == name]
    return name if len(same) == 1 else encoding


def bundled_files(domain: str) -> list[Path]:
    """The instance files ``instances/<domain>/index.toml`` lists under ``[crosscheck]``."""
    from pyasp_games.engines.resources import instance_dir

    folder = instance_dir(domain)
    with open(folder / "index.toml", "rb") as f:
        index = tomllib.load(f)
    return [folder / name for name in index["crosscheck"]["files"]]


def within_limits(backend: str, check: str) -> Callable[[Any, str], bool]:
    """A :attr:`DomainSpec.applies` for a ``backend`` with size limits: it takes every
    instance its ``check`` (``"module:function"``, imported only when asked: the check's
    module may load a solver) does not refuse with :class:`InputError`; every other
    backend takes everything. crosscheck and fuzz then skip what the backend refuses by
    design, rather than taking the refusal for a failure.

    >>> from pyasp_games.domains.catch.model import random_instance
    >>> applies = within_limits("asp", "pyasp_games.domains.catch.asp:check_size")
    >>> [applies(random_instance(n, seed=2), b) for n, b in ((8, "asp"), (40, "asp"), (40, "native"))]
    [True, False, True]
    """
    module, _, name = check.partition(":")

    def applies(instance: Any, name_of_backend: str) -> bool:
        if name_of_backend != backend:
            return True
        try:
            getattr(importlib.import_module(module), name)(instance)
        except InputError:
            return False
        return True

    return applies
