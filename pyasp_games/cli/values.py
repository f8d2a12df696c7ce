"""Option values converted without pydantic: what every command pays for at start-up.

typer (from 0.22) converts each option's text through a pydantic ``TypeAdapter`` built
for it on the command's first run, and importing pydantic's core and building the
adapters costs about 0.13 s of CPU in every ``pyasp-games`` process, more than importing
clingo (issue 32, section 3: the puzzle's ASP command against two bare clingo calls).
The command line has only plain options (text, numbers, paths, choices and lists of
them), so :func:`convert_plainly` gives each such parameter a converter of its own,
with the same rules (a path is checked by typer's own code, a choice by typer's own
matching), and leaves every other parameter, and every typer that works otherwise, to
typer.

>>> import typer
>>> app = typer.Typer()
>>> @app.command()
... def run(limit: float = typer.Option(None, "--limit")) -> None:
...     print(limit * 2)
>>> command = typer.main.get_command(app)
>>> convert_plainly(command)
>>> command.main(["--limit", "1.5"], standalone_mode=False)
3.0
>>> try:
...     command.main(["--limit", "soon"], standalone_mode=False)
... except typer.BadParameter as err:
...     print(err.format_message())
Invalid value for '--limit': 'soon' is not a number
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import Any, get_args, get_origin

import typer

from pyasp_games.cli.common import ascii_int_option


def convert_plainly(command: Any) -> None:
    """Give every plain parameter of ``command`` (a click command or group made by typer,
    its sub-commands too) a converter that needs no pydantic."""
    for param in command.params:
        _convert_plainly(param)
    made = getattr(command, "get_help_option", None)
    if made is not None:  # --help, made when the command runs: converted once made

        def help_option(ctx: Any) -> Any:
            option = made(ctx)
            if option is not None:
                _convert_plainly(option)
            return option

        command.get_help_option = help_option
    for sub in getattr(command, "commands", {}).values():
        convert_plainly(sub)


def _convert_plainly(param: Any) -> None:
    descriptor = getattr(param, "type_descriptor", None)
    # typer's cache of the parameter's converter, built on first use: set only when it
    # is there and empty (another typer keeps its own way)
    if descriptor is None or getattr(param, "_runtime_param", False) is not None:
        return
    convert = _converter(descriptor)
    if convert is not None:
        param._runtime_param = _Plain(convert)


class _Plain:
    """typer's converter interface (``coerce``) around a function of one value, which
    raises ``typer.BadParameter``, or ``ValueError`` with the message to show."""

    def __init__(self, convert: Callable[[Any, Any, Any], Any]) -> None:
        self.convert = convert

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        several = param.multiple or param.nargs == -1
        if value is None:
            return () if several else None
        try:
            if several:
                if isinstance(value, str):
                    raise ValueError("Value must be an iterable.")
                return [self.convert(item, param, ctx) for item in value]
            return self.convert(value, param, ctx)
        except ValueError as err:
            raise typer.BadParameter(str(err), ctx=ctx, param=param) from None


def _converter(descriptor: Any) -> Callable[[Any, Any, Any], Any] | None:
    """The converter of a parameter's values, or ``None``: left to typer."""
    info, annotation = descriptor.parameter_info, descriptor.annotation
    if descriptor.file_annotation is not None or getattr(info, "min", None) is not None:
        return None
    if getattr(info, "max", None) is not None or getattr(info, "clamp", False):
        return None
    if get_origin(annotation) is list:
        (annotation,) = get_args(annotation)
    if getattr(info, "parser", None) is not None:
        parser = info.parser
        return lambda value, param, ctx: parser(value)
    if annotation is str:
        return lambda value, param, ctx: str(value)
    if annotation is bool:
        return _truth
    if annotation is int:
        return _integer
    if annotation is float:
        return _number
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return _choice(annotation, info.case_sensitive)
    if annotation is Path and getattr(info, "path_type", None) is None:
        try:  # the checks a path option may declare (exists, readable, ...), typer's own
            from typer._param_types import coerce_cli_path
        except ImportError:  # pragma: no cover - another typer
            return None
        return _path(info, coerce_cli_path)
    return None


def _integer(value: Any, param: Any, ctx: Any) -> int:
    """ASCII digits only, as every integer option reads (Python's ``int`` reads '1_0' as
    10 and '٧' as 7)."""
    return ascii_int_option(value)


#: The words of a yes/no option's value (pydantic's, case-folded; '' is no).
_TRUE, _FALSE = {"1", "true", "t", "yes", "y", "on"}, {"", "0", "false", "f", "no", "n", "off"}


def _truth(value: Any, param: Any, ctx: Any) -> bool:
    """A yes/no value: a switch is one already; as text, the words of :data:`_TRUE` or
    :data:`_FALSE`."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    word = str(value).strip().casefold()
    if word in _TRUE or word in _FALSE:
        return word in _TRUE
    raise ValueError(f"{value!r} is not a valid boolean")


def _number(value: Any, param: Any, ctx: Any) -> float:
    """A float in ASCII (as pydantic reads one: 'inf' and 'nan' too, which the limits refuse)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    text = str(value)
    try:
        if not text.isascii():
            raise ValueError
        return float(text)
    except ValueError:
        raise ValueError(f"{value!r} is not a number") from None


def _choice(kind: type[Enum], case_sensitive: bool) -> Callable[[Any, Any, Any], Any]:
    """One of the members of ``kind``, by its value (case-folded unless ``case_sensitive``)."""

    def fold(text: Any, ctx: Any) -> str:
        text = str(text.value) if isinstance(text, Enum) else str(text)
        if ctx is not None and ctx.token_normalize_func is not None:
            text = ctx.token_normalize_func(text)
        return text if case_sensitive else text.casefold()

    def choose(value: Any, param: Any, ctx: Any) -> Enum:
        if isinstance(value, kind):
            return value
        for member in kind:
            if fold(member, ctx) == fold(value, ctx):
                return member
        choices = ", ".join(repr(fold(member, ctx)) for member in kind)
        raise ValueError(f"{value!r} is not one of {choices}.")

    return choose


def _path(info: Any, check: Callable[..., Any]) -> Callable[[Any, Any, Any], Any]:
    """A ``Path``, checked by typer's own rules (``check``: exists, readable, ...)."""

    def path(value: Any, param: Any, ctx: Any) -> Path:
        # a Path already: typer's check then converts nothing (with pydantic)
        value = value if isinstance(value, Path) else Path(value)
        return check(value, info, path_type=Path, param=param, ctx=ctx)

    return path
