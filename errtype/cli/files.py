"""Command-line paths with a role, checked before any work starts.

An option declares its role with its argparse ``type`` (:func:`text_input`, :func:`m2_input`,
:data:`INPUT`, :data:`NAMED_INPUT`, :data:`INPUT_TREE`, :data:`OUTPUT`, :data:`FOLDER`,
:data:`SVG_FOLDER`,
:func:`path_type` for a prefix); its value is then a :class:`PathArg` (a ``str``) that knows its
option (:func:`name_options`, called by the parser of :func:`errtype.cli.common.new_parser`).
:func:`check_paths` checks every such value of the parsed arguments before a model is loaded or a
statistic computed: inputs exist and are readable, text is not M2 and M2 is not text (the message
names the option to use instead), outputs can be written (:func:`errtype.textio.check_output`), and
no output is an input or another output (:func:`check_clashes`: resolved paths, symbolic and hard
links included).
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import os
import stat
from collections.abc import Callable, Sequence
from fnmatch import fnmatchcase

from ..errors import InputError, PathClashError
from ..m2 import sniff_m2
from ..textio import check_input, check_output, read_head

#: role -> how the CLI reference describes it
ROLES = {
    "text": "input, plain text",
    "m2": "input, M2",
    "input": "input",
    "named": "input, NAME=FILE",
    "tree": "input, a file or a folder of them",
    "output": "output file",
    "prefix": "output prefix",
    "folder": "output folder",
}
OUTPUT_KINDS = {"output": "file", "prefix": "prefix", "folder": "folder"}
#: output role -> what it writes by default: glob patterns appended to the path
WRITES = {"output": ("",), "prefix": (".*",), "folder": ("/*",)}


class PathArg(str):
    """A path given on the command line, with its role and the hint shown when the file has
    the wrong format."""

    role: str
    hint: str
    #: the option that gave it, for messages ("--out"; a positional: its name); "" when unknown
    option: str = ""
    #: outputs: the files written, as glob patterns appended to the path (see WRITES)
    writes: tuple[str, ...] = ()

    @property
    def path(self) -> str | None:
        """The file name (``NAME=FILE`` arguments: the part after ``=``; None when malformed,
        which the command itself reports)."""
        if self.role != "named" or "=" not in self:
            return str(self)
        name, _, path = self.partition("=")
        return path if name and path else None

    @property
    def is_folder_input(self) -> bool:
        """An input folder whose every file is an input (the ``tree`` role given a folder)."""
        return self.role == "tree" and self.path is not None and os.path.isdir(self.path)

    def check(self) -> None:
        """Raise :class:`InputError`/:class:`OutputError` unless the path can play its role."""
        if self.role in OUTPUT_KINDS:
            check_output(self, OUTPUT_KINDS[self.role])
            return
        if self.path is None:
            return
        if self.is_folder_input:
            if not os.access(self.path, os.R_OK | os.X_OK):
                raise InputError("permission denied", path=self.path)
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


def path_type(role: str, hint: str = "", writes: Sequence[str] | None = None,
              option: str = "") -> Callable[[str], PathArg]:
    """An argparse ``type`` marking the option's values as paths with ``role`` (see ROLES);
    an output writes ``writes`` (glob patterns appended to its path, default :data:`WRITES`),
    e.g. ``(".orig", ".cor.*")`` for a prefix, ``("/*.svg",)`` for a folder of charts."""
    if role not in ROLES:
        raise ValueError(f"unknown path role {role!r}")
    patterns = tuple(WRITES.get(role, ()) if writes is None else writes)

    def convert(value: str) -> PathArg:
        arg = PathArg(value)
        arg.role, arg.hint, arg.writes, arg.option = role, hint, patterns, option
        return arg

    convert.__name__ = ROLES[role]  # argparse names the type in its messages
    # read by the CLI reference and name_options
    convert.role, convert.hint, convert.writes, convert.option = (  # type: ignore[attr-defined]
        role, hint, patterns, option)
    return convert


def name_options(parser: argparse.ArgumentParser) -> None:
    """Let the path values of every option of ``parser`` know the option's name (its first long
    spelling, ``--out`` or ERRANT's ``-orig``, else the first; a positional: its metavar or name),
    for messages."""
    for action in parser._actions:  # argparse has no public listing of its actions
        convert = action.type
        role = getattr(convert, "role", None)
        if role is None or getattr(convert, "option", ""):
            continue
        longs = [o for o in action.option_strings if len(o) > 2]
        name = (longs or action.option_strings or [action.metavar or action.dest])[0]
        action.type = path_type(role, convert.hint, convert.writes,  # type: ignore[union-attr]
                                option=str(name))


def text_input(hint: str) -> Callable[[str], PathArg]:
    """Plain text; ``hint`` says what to do with an M2 file given here instead."""
    return path_type("text", hint)


def m2_input(hint: str) -> Callable[[str], PathArg]:
    """An M2 file; ``hint`` says what to do with plain text given here instead."""
    return path_type("m2", hint)


INPUT = path_type("input")
NAMED_INPUT = path_type("named")
#: an input file or a folder whose every file is an input (a corpus checkout, rating folders)
INPUT_TREE = path_type("tree")
OUTPUT = path_type("output")
FOLDER = path_type("folder")
#: a folder the command writes SVG charts into
SVG_FOLDER = path_type("folder", writes=("/*.svg",))


def _path_args(args: argparse.Namespace) -> list[PathArg]:
    return [v for value in vars(args).values()
            for v in (value if isinstance(value, list) else [value]) if isinstance(v, PathArg)]


def check_paths(args: argparse.Namespace) -> None:
    """Check every path of the parsed arguments, inputs first, in option order, then that no
    output is an input or another output (:func:`check_clashes`)."""
    found = _path_args(args)
    for arg in sorted(found, key=lambda a: a.role in OUTPUT_KINDS):
        arg.check()
    check_clashes(args)


def _regular_or_absent(path: str) -> bool:
    """Whether ``path`` is a regular file or does not exist (a pipe, a terminal or /dev/null
    named twice overwrites nothing)."""
    if os.path.realpath(path) == os.devnull:
        return False
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return True


def _written(out: PathArg, resume: bool) -> dict[str, str]:
    """Glob pattern (over resolved paths) -> its suffix, for the files ``out`` writes;
    ``resume``: also the checkpoint files of ``--resume``."""
    from ..convert.checkpoint import SUFFIXES

    extra = SUFFIXES if resume and out.role == "output" else ()
    base = _resolved(out)
    return {glob.escape(base) + s: s for s in (*out.writes, *extra)}


def _resolved(out: PathArg) -> str:
    """The output's path with symbolic links resolved (a prefix: its folder's; its files are
    written beside it)."""
    if out.role != "prefix":
        return os.path.realpath(out)
    folder, name = os.path.split(str(out))
    return os.path.join(os.path.realpath(folder or "."), name)


def _files(arg: PathArg, resume: bool) -> list[str]:
    """The files of an argument that can be named: an input's, an output's without wildcard."""
    if arg.role not in OUTPUT_KINDS:
        if arg.is_folder_input:
            out = []
            for top, dirs, files in os.walk(arg.path):
                dirs[:] = [d for d in dirs if d != ".git"]  # a checkout's history is not read
                out += [os.path.join(top, f) for f in files]
            return out
        return [] if arg.path in (None, "-") else [arg.path]
    return [_resolved(arg) + s for s in _written(arg, resume).values() if not glob.has_magic(s)]


def _hit(pattern: str, path: str) -> str | None:
    """The file of ``pattern`` that is ``path``: by resolved name, or an existing file that is
    the same file (a hard link); None when there is none."""
    real = os.path.realpath(path)
    if fnmatchcase(os.path.normcase(real), os.path.normcase(pattern)):
        return real
    if os.path.isfile(path):
        for existing in glob.glob(pattern):
            with contextlib.suppress(OSError):
                if os.path.samefile(existing, path):
                    return existing
    return None


def _overwrites(out: PathArg, other: PathArg, resume: bool) -> tuple[str, str] | None:
    """(the file ``out`` writes as the user would name it, "" for ``out`` itself; the file of
    ``other`` it is) when ``out`` would overwrite a file of ``other`` (an input, or another
    output), else None."""
    mine = _written(out, resume)
    if other.role in OUTPUT_KINDS and set(mine) & set(_written(other, resume)):
        return "", os.path.realpath(other)  # e.g. one folder twice
    for path in _files(other, resume):
        if _regular_or_absent(path):
            for pattern, suffix in mine.items():
                hit = _hit(pattern, path)
                if hit is not None:
                    return (hit if glob.has_magic(suffix) else f"{out}{suffix}"
                            if suffix else ""), path
    return None


def _describe(arg: PathArg) -> str:
    return f"{arg.option} {arg}" if arg.option else str(arg)


def check_clashes(args: argparse.Namespace) -> None:
    """Raise :class:`PathClashError` when an output of ``args`` would overwrite one of its
    inputs or another of its outputs: paths compared resolved (relative or absolute spellings,
    symbolic links), existing files also by identity (hard links); standard input and output
    (``-``) and files that are not regular (pipes, /dev/null) never clash."""
    found = _path_args(args)
    resume = bool(getattr(args, "resume", False))
    outputs = [a for a in found if a.role in OUTPUT_KINDS and a != "-"
               and (a.role == "folder" or _regular_or_absent(a))]
    inputs = [a for a in found if a.role not in OUTPUT_KINDS]
    pairs = [(out, other) for out in outputs for other in inputs] + [
        pair for i, out in enumerate(outputs) for other in outputs[i + 1:]
        for pair in ((out, other), (other, out))]
    for out, other in pairs:
        found_clash = _overwrites(out, other, resume)
        if found_clash is None:
            continue
        written, theirs = found_clash
        derived = bool(written)
        same_name = os.path.realpath(theirs) == os.path.realpath(out)
        link = "" if derived or same_name else " (the same file)"
        what = "also the output" if other.role in OUTPUT_KINDS else "the input"
        fix = "each output its own path" if other.role in OUTPUT_KINDS else \
            "the output another path"
        named = (f"{theirs} (under {_describe(other)})" if other.is_folder_input
                 else _describe(other))
        raise PathClashError(
            f"output {_describe(out)}{f' writes {written}, which' if derived else ''} is "
            f"{what} {named}{link}; give {fix}", path=str(out))
