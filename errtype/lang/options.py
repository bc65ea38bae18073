"""Options a language declares as data (:attr:`errtype.lang.base.Language.options`): the keyword
:func:`errtype.load`, :class:`errtype.Annotator` and :func:`errtype.lang.get_language` take, and
how the command line spells it. The commands and the annotator build from these declarations
(:func:`errtype.lang.declared_options`); nothing outside a language's package names its
options."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

__all__ = ["LanguageOption"]


@dataclass(frozen=True)
class LanguageOption:
    """One language option: ``name`` (its keyword), ``help`` and the command line's ``flags``
    (default ``--name``). With ``choices`` it takes one of them; without, it is a switch: on
    (``True``) when given, or with ``negative`` off (``False``; the flag reads ``--no-...``).
    With ``metavar`` it takes a value (``path``: an input file, checked by the command line's
    path roles)."""

    name: str
    help: str
    flags: tuple[str, ...] = ()
    choices: tuple[str, ...] | None = None
    negative: bool = False
    metavar: str | None = None
    path: bool = False

    @property
    def spellings(self) -> tuple[str, ...]:
        return self.flags or (f"--{self.name.replace('_', '-')}",)

    @property
    def dest(self) -> str:
        """The attribute of the parsed arguments."""
        return f"no_{self.name}" if self.negative else self.name

    def add_to(self, parser: argparse.ArgumentParser | argparse._ArgumentGroup,
               path_type: Any = None) -> None:
        """Add the option to a command line (not given: the language's default); ``path_type``:
        the argparse type of a ``path`` option's value."""
        if self.metavar is not None:
            parser.add_argument(*self.spellings, dest=self.dest, metavar=self.metavar,
                                type=path_type if self.path else None, help=self.help)
        elif self.choices is not None:
            parser.add_argument(*self.spellings, dest=self.dest, choices=self.choices,
                                help=self.help)
        else:
            parser.add_argument(*self.spellings, dest=self.dest, action="store_true",
                                help=self.help)

    def given(self, args: argparse.Namespace) -> tuple[bool, Any]:
        """Whether the command line gave the option, and the value it gave."""
        value = getattr(args, self.dest, None)
        if self.choices is not None or self.metavar is not None:
            return value is not None, value
        return bool(value), not self.negative
