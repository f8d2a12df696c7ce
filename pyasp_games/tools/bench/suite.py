"""Benchmark suites: a small TOML file naming a domain, instances, backends and limits.

A suite is read and validated in full before anything runs (unknown keys, wrong
types, unknown generators or backends are one clear :class:`InputError`), then
expanded into instance references: a file and the index of the instance in it, or
a generator name with its parameters and seed. A run re-creates its instance from
that reference in its own process, so nothing pickled can differ between the
campaign and the run. The format (every key) is described in ``benchmarks/README.md``;
TOML only (Python's ``tomllib``), no YAML.

>>> suite = parse_suite('''
... domain = "cover"
... time_limit = 5
... [[instances]]
... generator = "x3c-regular"
... params = {d = 3}
... grid = {q = [4, 5], planted = [true]}
... seeds = 2
... [scaling]
... x = "q"
... ''', name="tiny")
>>> [ref.id for ref, _ in expand(suite, domain_of(suite))]
['x3c-regular:d=3,planted=True,q=4:s0', 'x3c-regular:d=3,planted=True,q=4:s1', 'x3c-regular:d=3,planted=True,q=5:s0', 'x3c-regular:d=3,planted=True,q=5:s1']
>>> parse_suite('domain = "cover"\\ntime_limit = "5"\\n[[instances]]\\nbundled = "tiny-cover.txt"\\n')
Traceback (most recent call last):
...
pyasp_games.errors.InputError: suite suite: time_limit must be a number, got '5'
"""

from __future__ import annotations

import importlib
import itertools
import os
import sys
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pyasp_games.engines.clingo_runner import split_options
from pyasp_games.engines.domain import BackendSpec, DomainSpec
from pyasp_games.engines.limits import checked_megabytes, checked_seconds
from pyasp_games.engines.resources import ENCODING
from pyasp_games.errors import InputError, checked_int, read_text

#: The most runs one campaign may plan (a larger one is a typing slip, not a plan); the
#: instances of a suite are counted against it before any is generated.
MAX_RUNS = 1_000_000

#: Top-level keys of a suite file, and what each must be.
TOP_KEYS = {
    "name": str,
    "description": str,
    "domain": str,
    "backends": list,
    "encodings": list,
    "settings": dict,
    "options": dict,
    "variants": list,
    "time_limit": (int, float),
    "cpu_limit": (int, float),
    "repeat": int,
    "memory_limit": int,
    "instances": list,
    "scaling": dict,
}
GROUP_KEYS = {
    "file": str,
    "bundled": str,
    "select": list,
    "first": int,
    "generator": str,
    "params": dict,
    "grid": dict,
    "seeds": (int, list),
}
VARIANT_KEYS = {"label": str, "backend": str, "options": dict}
SCALING_KEYS = {"x": str, "series": str}


@dataclass(frozen=True)
class InstanceRef:
    """How a run finds its instance again, in any process.

    ``ref`` is ``{"file": path, "index": i}`` or ``{"generator": name, "params":
    {...}, "seed": s}``; ``size`` the numbers the scaling plot may use (generator
    parameters and seed, or the file index).
    """

    id: str
    ref: dict[str, Any]
    size: dict[str, Any] = field(default_factory=dict)


@dataclass
class Suite:
    """A validated suite (see ``benchmarks/README.md`` for the keys)."""

    name: str
    domain: str
    folder: Path
    text: str
    description: str = ""
    backends: list[str] | None = None
    encodings: list[str] | None = None
    #: named clingo settings (``[settings] crafty = ["--configuration=crafty"]``): the asp
    #: backend runs once per setting, each its own column ``asp[NAME]``
    settings: dict[str, list[str]] = field(default_factory=dict)
    options: dict[str, dict[str, Any]] = field(default_factory=dict)
    variants: list[BackendSpec] = field(default_factory=list)
    time_limit: float = 60.0
    #: CPU seconds per run (every process and thread of the run), ``None``: none
    cpu_limit: float | None = None
    repeat: int = 1
    memory_limit: int | None = None
    groups: list[dict[str, Any]] = field(default_factory=list)
    scaling_x: str | None = None
    scaling_series: str | None = None


def _type_name(types: Any) -> str:
    names = {int: "an integer", float: "a number", str: "a string", list: "a list", dict: "a table"}
    if isinstance(types, tuple):
        return "a number" if set(types) == {int, float} else " or ".join(names[t] for t in types)
    return names[types]


def _check_table(table: dict, keys: dict[str, Any], where: str) -> None:
    for key, value in table.items():
        if key not in keys:
            raise InputError(f"{where}: unknown key {key!r} (allowed: {', '.join(keys)})")
        wanted = keys[key]
        # bool is an int in Python; a suite saying `repeat = true` is a mistake
        if isinstance(value, bool) or not isinstance(value, wanted):
            raise InputError(f"{where}: {key} must be {_type_name(wanted)}, got {value!r}")


def _strings(value: list, where: str) -> list[str]:
    if not all(isinstance(v, str) for v in value):
        raise InputError(f"{where} must be a list of strings, got {value!r}")
    return list(value)


def _check_name(name: str, where: str) -> None:
    """A suite's name becomes a folder (``results/<name>``) and a title: a plain name,
    never a path that would put results elsewhere (``../../etc/x``)."""
    if (
        not name.strip()
        or name in (".", "..")
        or any(sep in name for sep in ("/", "\\", os.sep))
        or any(ord(c) < 32 or ord(c) == 127 for c in name)
    ):
        raise InputError(
            f"{where}: name {name!r} must be a plain name (no path separators, not '.' or '..')"
        )


def read_suite(path: Path | str) -> Suite:
    """Read and validate a suite file (its folder anchors relative instance paths)."""
    path = Path(path)
    try:
        text = read_text(path)  # the one reader of user files (a named pipe, a directory...)
    except InputError as err:
        raise InputError(f"suite {err}") from None
    return parse_suite(text, name=path.stem, folder=path.resolve().parent)


def parse_suite(text: str, name: str = "suite", folder: Path | None = None) -> Suite:
    """Validate a suite's TOML text (see :func:`read_suite`)."""
    where = f"suite {name}"
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise InputError(f"{where}: not valid TOML ({err})") from None
    _check_table(data, TOP_KEYS, where)
    if "domain" not in data:
        raise InputError(f"{where}: missing key 'domain'")
    if not data.get("instances"):
        raise InputError(f"{where}: no [[instances]] given")
    suite = Suite(
        name=data.get("name", name),
        domain=data["domain"],
        folder=folder or Path.cwd(),
        text=text,
        description=data.get("description", ""),
        time_limit=float(data.get("time_limit", 60.0)),
        cpu_limit=None if data.get("cpu_limit") is None else float(data["cpu_limit"]),
        repeat=data.get("repeat", 1),
        memory_limit=data.get("memory_limit"),
    )
    _check_name(suite.name, where)
    checked_seconds(suite.time_limit, f"{where}: time_limit")
    checked_seconds(suite.cpu_limit, f"{where}: cpu_limit")
    if suite.repeat < 1:
        raise InputError(f"{where}: repeat must be at least 1, got {suite.repeat}")
    checked_megabytes(suite.memory_limit, f"{where}: memory_limit")
    if "backends" in data:
        suite.backends = _strings(data["backends"], f"{where}: backends")
    if "encodings" in data:
        suite.encodings = _strings(data["encodings"], f"{where}: encodings")
    for name, options in data.get("settings", {}).items():
        if isinstance(options, str):
            options = split_options(options, f"{where}: settings.{name}")
        suite.settings[name] = _strings(options, f"{where}: settings.{name}")
    for backend, opts in data.get("options", {}).items():
        if not isinstance(opts, dict):
            raise InputError(f"{where}: options.{backend} must be a table, got {opts!r}")
        suite.options[backend] = dict(opts)
    for i, variant in enumerate(data.get("variants", [])):
        vwhere = f"{where}: variants[{i}]"
        if not isinstance(variant, dict):
            raise InputError(f"{vwhere} must be a table")
        _check_table(variant, VARIANT_KEYS, vwhere)
        if "label" not in variant or "backend" not in variant:
            raise InputError(f"{vwhere}: needs a label and a backend")
        suite.variants.append(
            BackendSpec(variant["label"], variant["backend"], dict(variant.get("options", {})))
        )
    for i, group in enumerate(data["instances"]):
        gwhere = f"{where}: instances[{i}]"
        if not isinstance(group, dict):
            raise InputError(f"{gwhere} must be a table")
        _check_table(group, GROUP_KEYS, gwhere)
        sources = [k for k in ("file", "bundled", "generator") if k in group]
        if len(sources) != 1:
            raise InputError(f"{gwhere}: give exactly one of file, bundled, generator")
        if sources[0] == "generator":
            extra = {"select", "first"} & set(group)
            if extra:
                raise InputError(f"{gwhere}: {sorted(extra)[0]} applies to files only")
            for key, values in group.get("grid", {}).items():
                if not isinstance(values, list) or not values:
                    raise InputError(f"{gwhere}: grid.{key} must be a non-empty list")
            seeds = group.get("seeds", 1)
            if isinstance(seeds, int):
                checked_int(seeds, f"{gwhere}: seeds", 1, MAX_RUNS)
            if isinstance(seeds, list) and not all(
                isinstance(s, int) and not isinstance(s, bool) for s in seeds
            ):
                raise InputError(f"{gwhere}: seeds must be a count or a list of integers")
        else:
            extra = {"params", "grid", "seeds"} & set(group)
            if extra:
                raise InputError(f"{gwhere}: {sorted(extra)[0]} applies to generators only")
            if "select" in group and not all(
                isinstance(s, int) and not isinstance(s, bool) for s in group["select"]
            ):
                raise InputError(f"{gwhere}: select must be a list of instance indices")
        suite.groups.append(dict(group))
    scaling = data.get("scaling", {})
    _check_table(scaling, SCALING_KEYS, f"{where}: scaling")
    suite.scaling_x = scaling.get("x")
    suite.scaling_series = scaling.get("series")
    named = {k for g in suite.groups for k in (*g.get("params", {}), *g.get("grid", {}), "seed")}
    if suite.scaling_series is not None and suite.scaling_series not in named:
        raise InputError(
            f"{where}: scaling.series {suite.scaling_series!r} is not a generator parameter"
        )
    if suite.scaling_x not in (None, "known", "answer", *named):
        raise InputError(
            f"{where}: scaling.x {suite.scaling_x!r} is neither a generator parameter nor 'known' or 'answer'"
        )
    return suite


# -- the domain ------------------------------------------------------------------------


def load_domain(name: str, folder: Path | str | None = None) -> DomainSpec:
    """A built-in domain by name, or ``module:function`` returning a :class:`DomainSpec`.

    The module is imported with ``folder`` (the suite's folder) first on the path, so
    a suite can sit next to the Python file of its own domain.
    """
    if ":" not in name:
        from pyasp_games.domains import domain_spec

        return domain_spec(name)
    module_name, _, function = name.partition(":")
    if folder is not None and str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    try:
        module = importlib.import_module(module_name)
        spec = getattr(module, function)()
    except (ImportError, AttributeError) as err:
        raise InputError(f"domain {name!r}: cannot load it ({err})") from None
    if not isinstance(spec, DomainSpec):
        raise InputError(f"domain {name!r}: {function}() did not return a DomainSpec")
    return spec


def domain_of(suite: Suite) -> DomainSpec:
    return load_domain(suite.domain, suite.folder)


def backend_specs(
    suite: Suite,
    spec: DomainSpec,
    backends: Sequence[str] | None = None,
    encodings: Sequence[str] | None = None,
) -> list[BackendSpec]:
    """The columns of the campaign: command-line choices override the suite's.

    Each encoding is its own backend; the suite's ``options`` apply to every
    column of that backend, and its ``variants`` are added as they are (unless the
    command line names backends, in which case only variants of those backends stay).
    """
    names = list(backends) if backends else suite.backends
    encs = list(encodings) if encodings else suite.encodings
    if encs and names and spec.encoding_backend not in names:
        raise InputError(
            f"encodings {', '.join(encs)} given but no {spec.encoding_backend or 'ASP'} backend runs"
        )
    for backend in suite.options:
        if backend not in spec.backend_names:
            raise InputError(
                f"suite {suite.name}: options for unknown {spec.name} backend {backend!r}"
            )
    specs = spec.backends(names, encs, suite.settings) if names or not suite.variants else []
    specs = [
        BackendSpec(s.label, s.backend, {**suite.options.get(s.backend, {}), **s.options})
        for s in specs
    ]
    for v in suite.variants:
        if v.backend not in spec.backend_names:
            raise InputError(f"suite {suite.name}: variant {v.label!r}: unknown backend {v.backend!r}")
        if backends and v.backend not in backends:
            continue
        specs.append(BackendSpec(v.label, v.backend, {**suite.options.get(v.backend, {}), **v.options}))
    if ":" not in suite.domain and spec.encoding_backend is not None:
        # a built-in domain: every encoding is a bundled name or a file, checked now
        # (not once per run), a file made absolute so that every run reads the same one
        base = Path.cwd() if encodings else suite.folder
        specs = [
            BackendSpec(s.label, s.backend, {**s.options, ENCODING: _encoding(spec.name, s.options[ENCODING], base)})
            if s.backend == spec.encoding_backend and ENCODING in s.options
            else s
            for s in specs
        ]
    labels = [s.label for s in specs]
    if len(set(labels)) != len(labels):
        duplicate = next(label for label in labels if labels.count(label) > 1)
        raise InputError(f"suite {suite.name}: two backends are labelled {duplicate!r}")
    if not specs:
        raise InputError(f"suite {suite.name}: no backend to run")
    return specs


def _encoding(domain: str, name: Any, base: Path) -> str:
    """A bundled encoding's name as it is, or an encoding file's absolute path (a
    relative one is taken from ``base``: the current directory for ``--encoding``, the
    suite's folder for the suite's own)."""
    from pyasp_games.engines.resources import bundled_encodings

    bundled = bundled_encodings(domain)
    if not isinstance(name, str) or not name:
        raise InputError(f"a {domain} encoding must be a bundled name or a file, got {name!r}")
    if name in bundled:
        return name
    path = Path(name).expanduser()
    if not path.is_absolute():
        path = base / path
    if not path.is_file():
        raise InputError(
            f"unknown {domain} encoding {name!r}: not a file, and not one of the bundled "
            f"{domain} encodings ({', '.join(bundled)})"
        )
    return str(path.resolve())


# -- instances ---------------------------------------------------------------------------


def _file_path(suite: Suite, spec: DomainSpec, group: dict[str, Any]) -> Path:
    if "bundled" in group:
        from pyasp_games.engines.resources import instance_dir

        path = instance_dir(spec.name) / group["bundled"]
    else:
        path = Path(group["file"]).expanduser()
        if not path.is_absolute():
            path = suite.folder / path
    if not path.is_file():
        raise InputError(f"suite {suite.name}: instance file {path}: no such file")
    return path.resolve()


def _label(value: Any) -> str:
    return str(value)


def expand(suite: Suite, spec: DomainSpec) -> list[tuple[InstanceRef, Any]]:
    """Every instance of the suite with its reference, loaded or generated here (the
    generated ones counted first: more than :data:`MAX_RUNS` is refused before any work)."""
    generated = sum(_generated_count(g) for g in suite.groups if "generator" in g)
    if generated > MAX_RUNS:
        raise InputError(f"suite {suite.name}: {generated:,} generated instances, at most {MAX_RUNS:,}")
    out: list[tuple[InstanceRef, Any]] = []
    for group in suite.groups:
        if "generator" in group:
            out += _generated(suite, spec, group)
            continue
        path = _file_path(suite, spec, group)
        instances = spec.load_file(path)
        indices = list(range(len(instances)))
        if "select" in group:
            bad = [i for i in group["select"] if not 0 <= i < len(instances)]
            if bad:
                raise InputError(
                    f"suite {suite.name}: {path.name} has {len(instances)} instances, no index {bad[0]}"
                )
            indices = list(group["select"])
        if "first" in group:
            indices = indices[: group["first"]]
        for i in indices:
            name = getattr(instances[i], "name", None) or f"{path.stem}#{i}"
            out.append((InstanceRef(name, {"file": str(path), "index": i}, {"index": i}), instances[i]))
    ids = [ref.id for ref, _ in out]
    if len(set(ids)) != len(ids):  # e.g. one file listed twice: make each run findable
        seen: dict[str, int] = {}
        renamed = []
        for ref, inst in out:
            seen[ref.id] = seen.get(ref.id, 0) + 1
            new_id = ref.id if seen[ref.id] == 1 else f"{ref.id}#{seen[ref.id]}"
            renamed.append((InstanceRef(new_id, ref.ref, ref.size), inst))
        out = renamed
    return out


def _generated_count(group: dict[str, Any]) -> int:
    seeds = group.get("seeds", 1)
    count = seeds if isinstance(seeds, int) else len(seeds)
    for values in group.get("grid", {}).values():
        count *= len(values)
    return count


def _generated(suite: Suite, spec: DomainSpec, group: dict[str, Any]) -> list[tuple[InstanceRef, Any]]:
    name = group["generator"]
    if name not in spec.generators:
        choices = ", ".join(spec.generators) or "none"
        raise InputError(f"suite {suite.name}: unknown {spec.name} generator {name!r} (choose from {choices})")
    seeds = group.get("seeds", 1)
    seeds = list(range(seeds)) if isinstance(seeds, int) else list(seeds)
    grid = group.get("grid", {})
    out = []
    for combo in itertools.product(*grid.values()):
        params = {**group.get("params", {}), **dict(zip(grid, combo, strict=True))}
        for seed in seeds:
            ref = {"generator": name, "params": params, "seed": seed}
            instance = make_instance(spec, ref)
            text = ",".join(f"{k}={_label(v)}" for k, v in sorted(params.items()))
            out.append((InstanceRef(f"{name}:{text}:s{seed}", ref, {**params, "seed": seed}), instance))
    return out


def make_instance(spec: DomainSpec, ref: dict[str, Any]) -> Any:
    """Re-create one instance from its reference (in the run's own process)."""
    if "file" in ref:
        return spec.load_file(Path(ref["file"]))[ref["index"]]
    try:
        return spec.generators[ref["generator"]](seed=ref["seed"], **ref["params"])
    except TypeError as err:  # a parameter the generator does not take
        raise InputError(f"generator {ref['generator']!r}: {err}") from None
