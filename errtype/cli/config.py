"""Command options from a TOML file (``--config FILE``), for repeatable runs.

Every option of the command is a key: its long name without the dashes (``svg-dir``; ``svg_dir``
is read the same), e.g.::

    ref = "../shared/data/conll14/official-2014.combined.m2"
    out = "conll14.html"
    baseline = "INPUT"
    types = ["DET", "R:VERB*", "M:*"]
    subset = ["len:10-40"]
    bootstrap = 2000
    no-gleu = true

    [hyp]                      # NAME = FILE, in order (or a list of "NAME=FILE" strings)
    AMU = "../shared/data/conll14/systems/AMU"
    INPUT = "../shared/data/conll14/systems/INPUT"

Options given on the command line win over the file. Values have the option's type (a TOML
string, integer, float or boolean for a flag; a list, or one value, for an option taking
several); relative paths are read from the file's folder, not the working directory. An
unknown key, a value of the wrong type or outside the option's choices is an error naming the
file, the line and the key.
"""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..errors import InputError

__all__ = ["UNSET", "from_config", "unset_namespace"]

#: a value the command line did not give
UNSET: Any = type("Unset", (), {"__repr__": lambda self: "UNSET"})()
#: keys only the command line sets
COMMAND_LINE_ONLY = frozenset({"config", "help", "version"})


def unset_namespace(parser: argparse.ArgumentParser) -> argparse.Namespace:
    """A namespace in which every option is :data:`UNSET`: parsed into it, the options the
    command line leaves out stay UNSET (argparse sets defaults only for absent attributes)."""
    return argparse.Namespace(**{a.dest: UNSET for a in parser._actions
                                 if a.dest is not argparse.SUPPRESS})


def _line_of(text: str, key: str) -> int | None:
    """The line where ``key`` is set in the TOML text (None when not found)."""
    pattern = re.compile(rf"^\s*[\"']?{re.escape(key)}[\"']?\s*=", re.MULTILINE)
    m = pattern.search(text)
    if m is None:
        m = re.compile(rf"^\s*\[\s*[\"']?{re.escape(key)}[\"']?\s*\]", re.MULTILINE).search(text)
    return text.count("\n", 0, m.start()) + 1 if m else None


def _read(path: str) -> tuple[dict[str, Any], str]:
    import tomllib

    from ..textio import check_input

    check_input(path)
    try:  # utf-8-sig: a byte order mark (Windows editors write one) is not part of the TOML
        text = Path(path).read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text ({exc.reason})", path=path) from None
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as exc:
        where = re.search(r"\(at line (\d+), column \d+\)", str(exc))
        reason = str(exc).split(" (at line")[0]
        raise InputError(f"not a valid TOML file: {reason}", path=path,
                         line=int(where.group(1)) if where else None) from None


def _options(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    """Config key -> action: each long option name without its dashes."""
    out = {}
    for action in parser._actions:
        for opt in action.option_strings:
            if opt.startswith("--"):
                out[opt[2:]] = action
    return out


def _convert(action: argparse.Action, value: Any, key: str, base: Path,
             fail: Callable[[str], InputError],
             resolve: Callable[[str, Any, Path], Any] | None) -> Any:
    """A TOML value as the option's parsed value (paths read from ``base``)."""
    if action.nargs == 0:  # a flag
        if not isinstance(value, bool):
            raise fail(f"{key} is a flag: true or false, not {value!r}")
        const = action.const if action.const is not None else True
        return const if value else action.default
    several = action.nargs in ("+", "*") or isinstance(action.nargs, int)
    if several and isinstance(value, dict):  # NAME = FILE tables (--hyp)
        value = [f"{k}={v}" for k, v in value.items()]
    items = value if isinstance(value, list) else [value]
    if not several and isinstance(value, list):
        raise fail(f"{key} takes one value, not a list")
    if several and action.nargs == "+" and not items:
        raise fail(f"{key} needs at least one value")
    out = []
    for item in items:
        if isinstance(item, (dict, list)) or isinstance(item, bool) and action.type is not None:
            raise fail(f"{key}: not a {_kind(action)}: {item!r}")
        if action.type is int and not isinstance(item, int):
            raise fail(f"{key} is an integer, not {item!r}")
        if action.type is float and not isinstance(item, (int, float)):
            raise fail(f"{key} is a number, not {item!r}")
        if action.type in (None, str) and not isinstance(item, str):
            raise fail(f"{key} is a string, not {item!r}")
        text = item if isinstance(item, str) else str(item)
        role = getattr(action.type, "role", None)
        if role is not None and isinstance(item, str):
            text = _relative(text, base, named=role == "named")
        elif resolve is not None:
            text = resolve(key, text, base)
        try:
            converted = action.type(text) if callable(action.type) else text
        except (TypeError, ValueError):
            raise fail(f"{key}: not a {_kind(action)}: {item!r}") from None
        if action.choices is not None and converted not in action.choices:
            raise fail(f"{key} must be one of {', '.join(map(str, action.choices))}, not "
                       f"{item!r}")
        out.append(converted)
    return out if several else out[0]


def _kind(action: argparse.Action) -> str:
    return {int: "integer", float: "number"}.get(action.type, "string")  # type: ignore[arg-type]


def _relative(text: str, base: Path, named: bool = False) -> str:
    """A path of the config file read from its folder (``-`` and absolute paths as they
    are); ``named``: the part after ``NAME=``."""
    if named and "=" in text:
        name, _, path = text.partition("=")
        return f"{name}={_relative(path, base)}"
    if text == "-" or os.path.isabs(os.path.expanduser(text)):
        return os.path.expanduser(text)
    return str(base / text)


def from_config(parser: argparse.ArgumentParser, args: argparse.Namespace, *,
                required: Sequence[str] = (),
                resolve: Callable[[str, Any, Path], Any] | None = None) -> list[str]:
    """Complete ``args`` (parsed into :func:`unset_namespace`): options the command line did
    not give are taken from ``args.config`` (a TOML file) when it sets them, else get their
    defaults; ``required`` dests must then be set. ``resolve(key, value, folder)`` may rewrite
    a config value of an option without a path type (e.g. a path inside it). Returns the keys
    the file set."""
    config = getattr(args, "config", UNSET)
    used: list[str] = []
    if config not in (UNSET, None):
        path = str(config)
        data, text = _read(path)
        base = Path(path).resolve().parent
        options = _options(parser)
        given = {a.dest for a in parser._actions if getattr(args, a.dest, None) is not UNSET}
        groups = [{a.dest for a in g._group_actions} for g in parser._mutually_exclusive_groups]
        chosen: dict[int, str] = {}
        for raw, value in data.items():
            key = raw.replace("_", "-")

            def fail(reason: str, raw: str = raw) -> InputError:
                return InputError(reason, path=path, line=_line_of(text, raw))

            action = options.get(key)
            if action is None or key in COMMAND_LINE_ONLY:
                why = ("is set on the command line only" if key in COMMAND_LINE_ONLY else
                       "is not an option of this command")
                known = ", ".join(sorted(k for k in options if k not in COMMAND_LINE_ONLY))
                raise fail(f"unknown key {raw!r}: it {why} (keys: {known})")
            converted = _convert(action, value, key, base, fail, resolve)  # checked anyway
            overridden = action.dest in given
            for k, members in enumerate(groups):
                if action.dest in members:
                    overridden = overridden or bool(members & given)  # the command line chose
                    if value is not False and not overridden:
                        if k in chosen and chosen[k] != key:
                            raise fail(f"{key} and {chosen[k]} exclude each other")
                        chosen[k] = key
            if not overridden:
                setattr(args, action.dest, converted)
                used.append(key)
    for action in parser._actions:
        if action.dest is argparse.SUPPRESS or getattr(args, action.dest, None) is not UNSET:
            continue
        default = action.default
        if isinstance(default, str) and callable(action.type):
            default = action.type(default)  # as argparse converts string defaults
        setattr(args, action.dest, default)
    missing = [d for d in required if getattr(args, d, None) in (None, [], "")]
    if missing:
        names = ", ".join("--" + d.replace("_", "-") for d in missing)
        raise InputError(f"the following options are required: {names} (on the command "
                         f"line or in a --config file)")
    return used
