"""Command-line values converted without Pydantic, for the plain types snapsolve's options use.

Typer converts every option's value through a Pydantic TypeAdapter, built on first use;
importing Pydantic and building the adapters costs 0.15-0.25 s, which is more than all of
snapsolve's own start-up and about half the time it takes to start Python, import OpenCV
and decode a photo. Here the plain cases (a string, strings, a path, a whole number or a
decimal within range, a choice of an Enum) are converted directly, giving what typer gives;
any other value (one that typer would refuse, or a type not handled here) goes to typer's
own conversion, so its error messages are unchanged.

This uses one private hook of typer's parameters (`_runtime_param`, the converter typer
builds lazily) and three of its private functions; where a typer version lacks them, nothing
is changed and typer converts as before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, get_args, get_origin

__all__ = ["quicken"]

WHOLE = re.compile(r"0|[1-9][0-9]{0,17}")  # plain digits: what int() and Pydantic read alike
DECIMAL = re.compile(r"(0|[1-9][0-9]{0,14})(\.[0-9]{1,15})?")  # plain decimals, read alike


@dataclass(frozen=True)
class QuickConversion:
    """A parameter's converter: the plain cases directly, the rest by typer's own."""

    annotation: Any
    parameter_info: Any
    descriptor: Any

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        multiple = param.multiple or param.nargs == -1
        if value is None:
            return () if multiple else None
        quick = _plain(self.annotation, self.parameter_info, value, param, ctx)
        if quick is not _UNHANDLED:
            return quick
        from typer._coercion import build_runtime_param

        return build_runtime_param(self.descriptor).coerce(value, param=param, ctx=ctx)


_UNHANDLED = object()


def _plain(annotation: Any, info: Any, value: Any, param: Any, ctx: Any) -> Any:
    """The converted value, or _UNHANDLED when typer's own conversion must decide."""
    if get_origin(annotation) is list and get_args(annotation) == (str,):
        ok = isinstance(value, list | tuple) and all(isinstance(v, str) for v in value)
        return list(value) if ok else _UNHANDLED
    if annotation is bool:
        return value if isinstance(value, bool) else _UNHANDLED
    if annotation is str:
        return value if isinstance(value, str) else _UNHANDLED
    if annotation is int or annotation is float:
        return _number(annotation, info, value)
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return _choice(annotation, info, value, ctx)
    if annotation is Path and not info.path_type and isinstance(value, str) and value:
        from typer._param_types import coerce_cli_path

        return coerce_cli_path(Path(value), info, path_type=Path, param=param, ctx=ctx)
    return _UNHANDLED


def _number(kind: type, info: Any, value: Any) -> Any:
    """An int or float within the option's bounds, from a default or plain digits."""
    if type(value) is kind:
        number = value
    elif isinstance(value, str) and (WHOLE if kind is int else DECIMAL).fullmatch(value):
        number = kind(value)
    else:
        return _UNHANDLED
    if info.clamp:
        return _UNHANDLED
    if (info.min is not None and number < info.min) or (info.max is not None and number > info.max):
        return _UNHANDLED  # typer's own conversion explains the bounds
    return number


def _choice(enum: type[Enum], info: Any, value: Any, ctx: Any) -> Any:
    """The Enum member named, as typer's choice conversion finds it."""
    from typer._param_types import coerce_cli_choice

    try:
        return coerce_cli_choice(value, choices=tuple(enum), case_sensitive=info.case_sensitive,
                                 ctx=ctx)
    except ValueError:
        return _UNHANDLED


def quicken(params: Any) -> None:
    """Give typer parameters the quick converter (where typer allows it)."""
    try:  # the typer functions the quick converter falls back on or shares
        from typer._coercion import build_runtime_param  # noqa: F401
        from typer._param_types import coerce_cli_choice, coerce_cli_path  # noqa: F401
    except ImportError:  # another typer: its own conversion throughout
        return
    for param in params:
        descriptor = getattr(param, "type_descriptor", None)
        if descriptor is None or getattr(param, "_runtime_param", _UNHANDLED) is not None:
            continue  # not typer's, or already converting
        if descriptor.file_annotation is None:
            param._runtime_param = QuickConversion(
                descriptor.annotation, descriptor.parameter_info, descriptor)
