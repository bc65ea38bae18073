"""Declared metric options, checked before a metric is built.

A metric's options are the init fields of its dataclass (the registry's factory, or the class its
factory's return annotation names), typed by their annotations; :func:`option` adds what values
a field allows (a number's range, a string's choices). Fields whose names start with ``_`` are
internal, not options. :func:`check_settings` checks settings against the declaration
(``get_metric`` calls it, so the library and every command refuse a bad value before any work),
and :func:`parse_value` reads the text of ``-O METRIC.KEY=VALUE`` as the option's type.

Numbers must be finite; an ``int`` option takes integers only, a ``float`` one integers too.
"""

from __future__ import annotations

import ast
import collections.abc
import dataclasses
import math
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import InputError

__all__ = ["Allowed", "OptionSpec", "check_settings", "declared_options", "option",
           "parse_value"]

_KEY = "errtype.option"
_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}
_NONE = {"none", "null"}


@dataclass(frozen=True)
class Allowed:
    """The values an option allows beyond its type: ``ge``/``gt`` and ``le`` bound a number,
    ``choices`` lists a string's values. No bound: any finite number."""

    ge: float | None = None
    gt: float | None = None
    le: float | None = None
    choices: tuple[Any, ...] | None = None

    def admits(self, value: Any) -> bool:
        """Whether the (type-checked) ``value`` is allowed."""
        if self.choices is not None and value not in self.choices:
            return False
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return ((self.ge is None or value >= self.ge) and (self.gt is None or value > self.gt)
                    and (self.le is None or value <= self.le))
        return True

    def __str__(self) -> str:
        if self.choices is not None:
            return "one of " + ", ".join(map(str, self.choices))
        low = (f">= {self.ge:g}" if self.ge is not None
               else f"> {self.gt:g}" if self.gt is not None else None)
        if low and self.le is not None:
            return f"{low} and <= {self.le:g}"
        return low or (f"<= {self.le:g}" if self.le is not None else "")


def option(default: Any = dataclasses.MISSING, *, ge: float | None = None,
           gt: float | None = None, le: float | None = None,
           choices: typing.Iterable[Any] | None = None, **field_args: Any) -> Any:
    """A dataclass field declaring what an option allows (see :class:`Allowed`); ``field_args``
    go to :func:`dataclasses.field`."""
    allowed = Allowed(ge, gt, le, tuple(choices) if choices is not None else None)
    return dataclasses.field(default=default, metadata={_KEY: allowed}, **field_args)


@dataclass(frozen=True)
class OptionSpec:
    """One declared option: its name, annotated type, default and allowed values (None: the
    field declares none)."""

    name: str
    type: Any
    default: Any
    allowed: Allowed | None

    def describe(self) -> str:
        """What the option takes, in words (``an integer >= 0``, ``one of cs, cse``)."""
        allowed = str(self.allowed or "")
        if self.allowed is not None and self.allowed.choices is not None:
            return f"none or {allowed}" if _optional(self.type) is not None else allowed
        return " ".join(x for x in (_kind(self.type), allowed) if x)


def _declaring_class(factory: Callable[..., Any]) -> type | None:
    if isinstance(factory, type):
        return factory if dataclasses.is_dataclass(factory) else None
    try:
        built = typing.get_type_hints(factory).get("return")
    except (NameError, TypeError):
        return None
    return built if isinstance(built, type) and dataclasses.is_dataclass(built) else None


def declared_options(factory: Callable[..., Any]) -> dict[str, OptionSpec] | None:
    """The options of the metric ``factory`` builds, by name; None when it declares none (a
    plug-in factory that is not a dataclass and names none as its return type)."""
    cls = _declaring_class(factory)
    if cls is None:
        return None
    hints = typing.get_type_hints(cls)
    out = {}
    for f in dataclasses.fields(cls):
        if not f.init or f.name.startswith("_"):
            continue
        default = f.default if f.default is not dataclasses.MISSING else None
        out[f.name] = OptionSpec(f.name, hints[f.name], default, f.metadata.get(_KEY))
    return out


def _args(tp: Any) -> tuple[Any, ...]:
    return typing.get_args(tp)


def _optional(tp: Any) -> Any | None:
    """``X`` of ``X | None``, else None."""
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        rest = [a for a in _args(tp) if a is not type(None)]
        if len(rest) == 1 and len(_args(tp)) == 2:
            return rest[0]
    return None


def _kind(tp: Any) -> str:
    """A type in words."""
    inner = _optional(tp)
    if inner is not None:
        return f"none or {_kind(inner)}"
    origin = typing.get_origin(tp)
    if tp is bool:
        return "true or false"
    if tp is int:
        return "an integer"
    if tp is float:
        return "a finite number"
    if tp is str:
        return "a string"
    if origin is tuple:
        return f"{len(_args(tp))} numbers" if _args(tp) and Ellipsis not in _args(tp) else \
            "a list"
    if origin is not None and issubclass(origin, collections.abc.Sequence):
        return "a list of strings"
    return "any value" if tp is Any else f"a {getattr(tp, '__name__', tp)}"


def supported(tp: Any) -> bool:
    """Whether :func:`check_settings` can check values of the type ``tp``."""
    inner = _optional(tp)
    if inner is not None:
        return supported(inner)
    origin = typing.get_origin(tp)
    if tp in (bool, int, float, str) or tp is Any:
        return True
    if origin is tuple:
        return all(a in (int, float) for a in _args(tp))
    return origin is collections.abc.Sequence and _args(tp) == (str,)


def _typed(tp: Any, value: Any) -> tuple[bool, Any]:
    """``(ok, value)``: whether ``value`` has the type ``tp`` (a number as float where ``tp`` is
    float, a sequence as a tuple)."""
    inner = _optional(tp)
    if inner is not None:
        return (True, None) if value is None else _typed(inner, value)
    if tp is Any:
        return True, value
    if tp is bool:
        return isinstance(value, bool), value
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if tp is int:
        return isinstance(value, int) and number, value
    if tp is float:
        return number and math.isfinite(value), float(value) if number else value
    if tp is str:
        return isinstance(value, str), value
    origin = typing.get_origin(tp)
    if not isinstance(value, (list, tuple)):
        return False, value
    if origin is tuple:
        items = [_typed(a, v) for a, v in zip(_args(tp), value, strict=False)]
        ok = len(value) == len(_args(tp)) and all(k for k, _ in items)
        return ok, tuple(v for _, v in items)
    return all(isinstance(v, str) for v in value), tuple(value)


def _refusal(metric: str, spec: OptionSpec, value: Any, where: str) -> InputError:
    shown = where or f"{metric}.{spec.name}={value!r}"
    return InputError(f"{shown}: option {spec.name!r} of metric {metric} must be "
                      f"{spec.describe()}")


def check_settings(metric: str, factory: Callable[..., Any], settings: Mapping[str, Any],
                   where: Mapping[str, str] | None = None) -> dict[str, Any]:
    """``settings`` checked against the options ``factory`` declares (numbers that are ints
    where floats are declared made floats, lists made tuples); InputError names the option, the
    value and what is allowed (``where[key]``: how the value was given, e.g. ``-O x.k=v``).
    A factory that declares no options gets ``settings`` unchanged."""
    specs = declared_options(factory)
    if specs is None:
        return dict(settings)
    where = where or {}
    out = {}
    for key, value in settings.items():
        spec = specs.get(key)
        if spec is None:
            shown = where.get(key) or f"{metric}.{key}={value!r}"
            raise InputError(f"{shown}: metric {metric} has no option {key!r} (its options: "
                             f"{', '.join(specs)})")
        ok, checked = _typed(spec.type, value)
        if not ok or (checked is not None and spec.allowed is not None
                      and not spec.allowed.admits(checked)):
            raise _refusal(metric, spec, value, where.get(key, ""))
        out[key] = checked
    return out


def parse_value(spec: OptionSpec | None, text: str) -> Any:
    """The value the command-line ``text`` gives an option of the declared type (an undeclared
    option: a Python literal, else the text). Text that is not of the type is returned as is,
    for :func:`check_settings` to refuse by name."""
    tp = Any if spec is None else spec.type
    inner = _optional(tp)
    if inner is not None:
        return None if text.strip().lower() in _NONE else parse_value(
            OptionSpec(spec.name, inner, None, None), text)  # type: ignore[union-attr]
    low = text.strip().lower()
    if tp is bool:
        return True if low in _TRUE else False if low in _FALSE else text
    if tp in (int, float):
        try:
            return int(text) if tp is int else float(text)
        except ValueError:
            return text
    literal = _literal(text)
    if tp is str:
        return literal if isinstance(literal, str) else text
    if tp is not Any and isinstance(literal, str):  # a list given as a,b,c
        items = [p.strip() for p in text.split(",")] if text.strip() else []
        if typing.get_origin(tp) is tuple:
            return [parse_value(OptionSpec("", a, None, None), v)
                    for a, v in zip(_args(tp), items, strict=False)] + items[len(_args(tp)):]
        return items
    return literal


def _literal(text: str) -> Any:
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return text
