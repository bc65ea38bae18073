"""Command-line paths with a role, checked before any work starts.

An option declares its role with its argparse ``type`` (:func:`text_input`, :func:`m2_input`,
:data:`INPUT`, :data:`NAMED_INPUT`, :data:`OUTPUT`, :data:`PREFIX`, :data:`FOLDER`); its value is
then a :class:`PathArg` (a ``str``). :func:`check_paths` checks every such value of the parsed
arguments before a model is loaded or a statistic computed: inputs exist and are readable, text is
not M2 and M2 is not text (the message names the option to use instead), outputs can be written
(:func:`errtype.textio.check_output`).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from ..errors import InputError
from ..m2 import sniff_m2
from ..textio import check_input, check_output, read_head

#: role -> how the CLI reference describes it
ROLES = {
    "text": "input, plain text",
    "m2": "input, M2",
    "input": "input",
    "named": "input, NAME=FILE",
    "output": "output file",
    "prefix": "output prefix",
    "folder": "output folder",
}
OUTPUT_KINDS = {"output": "file", "prefix": "prefix", "folder": "folder"}


class PathArg(str):
    """A path given on the command line, with its role and the hint shown when the file has
    the wrong format."""

    role: str
    hint: str

    @property
    def path(self) -> str | None:
        """The file name (``NAME=FILE`` arguments: the part after ``=``; None when malformed,
        which the command itself reports)."""
        if self.role != "named" or "=" not in self:
            return str(self)
        name, _, path = self.partition("=")
        return path if name and path else None

    def check(self) -> None:
        """Raise :class:`InputError`/:class:`OutputError` unless the path can play its role."""
        if self.role in OUTPUT_KINDS:
            check_output(self, OUTPUT_KINDS[self.role])
            return
        if self.path is None:
            return
        check_input(self.path)
        if self.role in ("text", "m2"):
            found = sniff_m2(read_head(self.path))
            if self.role == "text" and found is True:
                raise InputError(f"this is an M2 file, not plain text; {self.hint}",
                                 path=self.path)
            if self.role == "m2" and found is False:
                raise InputError("this is plain text, not an M2 file (an M2 block starts "
                                 f"with an 'S ' line); {self.hint}", path=self.path)


def path_type(role: str, hint: str = "") -> Callable[[str], PathArg]:
    """An argparse ``type`` marking the option's values as paths with ``role`` (see ROLES)."""
    if role not in ROLES:
        raise ValueError(f"unknown path role {role!r}")

    def convert(value: str) -> PathArg:
        arg = PathArg(value)
        arg.role, arg.hint = role, hint
        return arg

    convert.__name__ = ROLES[role]  # argparse names the type in its messages
    convert.role = role  # type: ignore[attr-defined]  # read by the CLI reference
    return convert


def text_input(hint: str) -> Callable[[str], PathArg]:
    """Plain text; ``hint`` says what to do with an M2 file given here instead."""
    return path_type("text", hint)


def m2_input(hint: str) -> Callable[[str], PathArg]:
    """An M2 file; ``hint`` says what to do with plain text given here instead."""
    return path_type("m2", hint)


INPUT = path_type("input")
NAMED_INPUT = path_type("named")
OUTPUT = path_type("output")
PREFIX = path_type("prefix")
FOLDER = path_type("folder")


def check_paths(args: argparse.Namespace) -> None:
    """Check every path of the parsed arguments, inputs first, in option order."""
    found = [v for value in vars(args).values()
             for v in (value if isinstance(value, list) else [value]) if isinstance(v, PathArg)]
    for arg in sorted(found, key=lambda a: a.role in OUTPUT_KINDS):
        arg.check()
