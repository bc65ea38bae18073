"""Shared command-line plumbing: the parser convention, the one error path, interrupts, backend
options.

Every command builds its parser with :func:`new_parser` (``--version``), declares its paths with
the types of :mod:`errtype.cli.files` and runs its body through :func:`run`, which checks those
paths before any work, prints every typed error as one line ``PROG: error: FILE, line N: what;
what to do`` and returns the exit status: 0 success, 1 findings (``errtype lint``), 2 usage or
input error (argparse exits with 2 itself), 128 + the signal when stopped (130 Ctrl-C, 143
SIGTERM).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import signal
import sys
from collections.abc import Callable
from typing import Any

from ..errors import ErrtypeError, InputError
from .files import INPUT, OUTPUT, check_paths, name_options

#: exit status of a usage or input error (argparse's own)
USAGE_ERROR = 2


def describe(doc: str | None) -> str:
    """The first paragraph of a module docstring as plain text (no reST ``literals``)."""
    first = (doc or "").strip().split("\n\n")[0]
    return re.sub(r"``(.+?)``", r"\1", " ".join(first.split()))


def details(doc: str | None) -> str:
    """The paragraphs after the first of a module docstring, line breaks kept, for an epilog."""
    rest = (doc or "").strip().split("\n\n", 1)[1:]
    return re.sub(r"``(.+?)``", r"\1", rest[0]) if rest else ""


class CommandParser(argparse.ArgumentParser):
    """The parser of every command (and of its subcommands, which argparse makes with
    ``type(parent)``): no prefix matching (``allow_abbrev=False``), so ``--hyp`` never silently
    means ``--hyp-text``; its path values know the option that gave them
    (:func:`errtype.cli.files.name_options`), for the messages of
    :func:`errtype.cli.files.check_paths`."""

    def __init__(self, *args: Any, allow_abbrev: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, allow_abbrev=allow_abbrev, **kwargs)

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        name_options(self)
        return super().parse_known_args(args, namespace)


def new_parser(prog: str, description: str, **kwargs: Any) -> argparse.ArgumentParser:
    """An argument parser (:class:`CommandParser`) with the options every command has
    (``--version``)."""
    from .. import __version__

    p = CommandParser(prog=prog, description=description, **kwargs)
    p.add_argument("--version", action="version", version=f"{prog} (errtype {__version__})")
    return p


#: the spellings of each input or option that several commands take: one set per concept, the
#: same in every command (ERRANT's single-dash long spellings are aliases of the double-dash
#: ones; a command may put its traditional spelling first, which names the value in its help)
SPELLINGS: dict[str, tuple[str, ...]] = {
    "orig": ("-orig", "--orig", "--src", "--source"),
    "cor": ("-cor", "--cor"),
    "hyp": ("--hyp", "-hyp"),
    "ref": ("--ref", "-ref"),
    "out": ("-o", "--out", "-out"),
}


def spellings(concept: str, first: str | None = None) -> tuple[str, ...]:
    """The option strings of ``concept`` (:data:`SPELLINGS`), ``first`` put first."""
    flags = SPELLINGS[concept]
    return flags if first is None else (first, *(f for f in flags if f != first))


def add_output_option(parser: argparse.ArgumentParser | argparse._ArgumentGroup,
                      what: str = "the printed result",
                      flags: tuple[str, ...] = SPELLINGS["out"]) -> None:
    """``-o/--out FILE``: write what the command prints (default: standard output)."""
    parser.add_argument(*flags, dest="out", type=OUTPUT, default="-", metavar="FILE",
                        help=f"write {what} to FILE, atomically (default: '-', standard output)")


def add_encoding_option(parser: argparse.ArgumentParser | argparse._ArgumentGroup,
                        help: str = "invalid UTF-8 in the input: stop with an error naming "
                                    "file, line and byte (default), or replace it with U+FFFD"
                        ) -> None:
    """``--encoding-errors strict|replace``: what invalid UTF-8 in an input file does."""
    parser.add_argument("--encoding-errors", choices=("strict", "replace"), default="strict",
                        help=help)


def add_unit_option(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """``--unit token|char``: the scoring unit (:func:`errtype.score.units.resolve_unit`)."""
    parser.add_argument("--unit", choices=["token", "char"], default=None,
                        help="scoring unit: whitespace tokens, or characters (every text and M2 "
                             "input re-segmented; the default for a language written without "
                             "spaces, such as --lang zh or ja, when the M2 inputs are in "
                             "characters); default: token")


def positive_int(text: str) -> int:
    """An argparse type: an integer of at least 1."""
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {n}")
    return n


def add_max_tokens_option(parser: argparse.ArgumentParser | argparse._ArgumentGroup,
                          what: str = "sentences",
                          note: str = "tokens as the language aligns them: characters for "
                                      "Chinese") -> None:
    """``--max-tokens N``: skip (and report) over-long items, every command alike (an item is
    too long when its original or a correction has more than N tokens)."""
    parser.add_argument("--max-tokens", type=positive_int, default=None, metavar="N",
                        help=f"skip (and report) {what} longer than N tokens ({note}; "
                             "default: no limit)")


def add_realign_option(parser: argparse.ArgumentParser | argparse._ArgumentGroup,
                       what: str = "an essay") -> None:
    """``--no-realign``: align ``what`` as one sentence instead of realigning its sentences
    (:mod:`errtype.essay.realign`), every command alike; sets ``args.realign``."""
    parser.add_argument("--no-realign", dest="realign", action="store_false",
                        help=f"align {what} as one sentence (the old, quadratic behaviour) "
                             "instead of sentence by sentence with realignment (default)")


def add_backend_options(parser: argparse.ArgumentParser) -> None:
    """``--lang``, the parser backend's options, and the options each language declares
    (:func:`errtype.lang.declared_options`, under the language's heading)."""
    from ..lang import declared_options

    g = parser.add_argument_group("language and backend")
    g.add_argument("--lang", "-lang", default="en",
                   help="language code (default: en); any code of a UD language works")
    g.add_argument("--spacy-model", help="spaCy pipeline name or path (default per language)")
    g.add_argument("--udpipe-model", type=INPUT,
                   help="UDPipe 1 .udpipe model file (any language; default: the model fetched "
                        "by 'errtype download LANG')")
    g.add_argument("--blis", action="store_true",
                   help="spaCy: multiply matrices with thinc's blis as spaCy does, not numpy's "
                        "BLAS (slower; see README, Differences from ERRANT)")
    groups: dict[str | None, Any] = {None: g}
    for title, option, _ in declared_options():  # as each language declares them
        if title not in groups:
            groups[title] = parser.add_argument_group(title)
        option.add_to(groups[title], INPUT)


def language_options(args: argparse.Namespace) -> dict[str, Any]:
    """The language options given on the command line (:func:`add_backend_options`; the keyword
    arguments of :func:`errtype.lang.get_language`); an :class:`InputError` when ``--lang``
    takes one of them not."""
    from ..lang import declared_options, option_names

    opts: dict[str, Any] = {}
    refused: list[tuple[str | None, Any, tuple[str, ...]]] = []
    lang = getattr(args, "lang", None) or "en"
    for title, option, codes in declared_options():
        given, value = option.given(args)
        if not given:
            continue
        opts[option.name] = value
        if option.name not in option_names(lang):
            refused.append((title, option, codes))
    if refused:
        flags = ", ".join(o.spellings[0] for _, o, _ in refused)
        titles = {t for t, _, _ in refused}
        if len(titles) == 1 and None not in titles:
            raise InputError(f"{flags} apply to {titles.pop()}, not --lang {lang}")
        raise InputError(f"--lang {lang} takes no {flags}")
    return opts


def backend_given(args: argparse.Namespace) -> bool:
    """Whether the command line gave any backend option or language option
    (:func:`add_backend_options` but ``--lang``), e.g. to refuse them without ``--lang``."""
    from ..lang import declared_options

    return any(getattr(args, k, None) for k in ("spacy_model", "udpipe_model", "blis")) or \
        any(option.given(args)[0] for _, option, _ in declared_options())


def add_edit_gold_options(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """``--edit-gold MODE`` and its shorthands ``--keep-gold-types`` (= m2) and
    ``--retype-gold`` (= retype), which exclude each other: the gold edits of the metrics that
    compare the annotator's edits (:data:`errtype.score.suite.EDIT_GOLD`)."""
    from ..score.suite import EDIT_GOLD

    g = parser.add_mutually_exclusive_group()
    g.add_argument("--edit-gold", choices=list(EDIT_GOLD), default="detect",
                   help="gold edits of the ERRANT-edit metrics (errant, senterrant, cleme, "
                        "goto, pt-errant) from an M2 gold: " + "; ".join(
                       f"{k} = {v}" for k, v in EDIT_GOLD.items()) + " (default: detect)")
    g.add_argument("--keep-gold-types", action="store_true",
                   help="the gold's own edits and types (= --edit-gold m2)")
    g.add_argument("--retype-gold", action="store_true",
                   help="re-type the gold edits even when their types are in the annotator's "
                        "set (= --edit-gold retype)")


def edit_gold(args: argparse.Namespace) -> str:
    """The gold edit mode that :func:`add_edit_gold_options`'s options ask for."""
    return ("m2" if args.keep_gold_types else "retype" if args.retype_gold
            else args.edit_gold)


def backend_options(args: argparse.Namespace) -> dict[str, Any]:
    """The annotator options given on the command line: backend and language options (what
    ``errtype.load`` takes)."""
    opts: dict[str, Any] = language_options(args)
    if getattr(args, "spacy_model", None):
        opts["spacy_model"] = args.spacy_model
    if getattr(args, "udpipe_model", None):
        opts["udpipe_model"] = args.udpipe_model
    if getattr(args, "blis", False):
        opts["numpy_blas"] = False
    return opts


def gold_hint(note: str) -> str:
    """What a command adds to a note that the gold was re-typed: how to keep its own edits."""
    return ("; --edit-gold m2 scores the gold's own edits and types"
            if note.startswith("gold edits re-typed") else "")


def error_line(prog: str, exc: ErrtypeError) -> str:
    """The one error message format: ``PROG: error: FILE, line N: what; what to do``."""
    return f"{prog}: error: {exc}"


class Interrupted(KeyboardInterrupt):
    """A stop signal (SIGINT, SIGTERM, SIGHUP) delivered as KeyboardInterrupt; ``signum`` is it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


_STOPPING: list[int] = []  # the signal being handled: later ones wait for the clean-up


_SIGPIPE = int(getattr(signal, "SIGPIPE", 13))


def _detach_stdout() -> None:
    """Point standard output at the null device, so that flushing it again at exit does not
    raise a second BrokenPipeError (Python would print it and exit 120)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)


def _raise_interrupt(signum: int, frame: object) -> None:
    if _STOPPING:  # already unwinding: a second Ctrl-C must not interrupt the clean-up
        return
    _STOPPING.append(signum)
    raise Interrupted(signum)


def _stop_signals() -> list[int]:
    """SIGINT and SIGTERM, and SIGHUP unless it is ignored (nohup)."""
    names = [signal.SIGINT, signal.SIGTERM]
    hup = getattr(signal, "SIGHUP", None)
    if hup is not None and signal.getsignal(hup) is signal.SIG_DFL:
        names.append(hup)
    return names


def is_command_process() -> bool:
    """Whether this process was started as an errtype command (a console script ``errtype*``
    or ``python -m errtype.cli...``), not a program or test calling a command's ``main()``."""
    script = os.path.basename(sys.argv[0] if sys.argv else "")
    here = os.path.dirname(os.path.abspath(__file__))
    return script.startswith("errtype") or (
        bool(script) and os.path.dirname(os.path.abspath(sys.argv[0])) == here)


def run(prog: str, body: Callable[[], int], progress_note: Callable[[], str] | None = None,
        kept_note: Callable[[], str | None] | None = None, *,
        args: argparse.Namespace | None = None, stdout_to: str | None = None,
        before: Callable[[], None] | None = None) -> int:
    """Run a command body: ``before()`` completes the arguments (e.g. from a config file,
    :mod:`errtype.cli.config`), then the paths of ``args`` are checked (:func:`check_paths`); what
    the body prints goes to ``stdout_to`` (atomically) when given; typed errors -> one line +
    exit 2; a stop signal (SIGINT, SIGTERM, SIGHUP) -> one line and exit 128 + its number
    (Ctrl-C 130, SIGTERM 143); standard output closed by its reader -> silence and exit 141,
    as a tool that SIGPIPE stops. ``kept_note()`` says what partial output was kept (None:
    nothing was)."""
    _STOPPING.clear()
    if is_command_process():
        from ..parse import spacy_import

        spacy_import.enable()
    previous = {s: signal.signal(s, _raise_interrupt) for s in _stop_signals()}
    try:
        if before is not None:
            before()
        if args is not None:
            check_paths(args)
        if stdout_to is None or stdout_to == "-":
            return body()
        from ..textio import atomic_output

        with atomic_output(stdout_to) as fh, contextlib.redirect_stdout(fh):
            return body()
    except ErrtypeError as exc:
        print(error_line(prog, exc), file=sys.stderr)
        return USAGE_ERROR
    except KeyboardInterrupt as exc:
        signum = exc.signum if isinstance(exc, Interrupted) else signal.SIGINT
        name = "interrupted" if signum == signal.SIGINT else \
            f"stopped by {signal.Signals(signum).name}"
        note = f" ({progress_note()})" if progress_note else ""
        kept = (kept_note() if kept_note else None) or "no partial output was written"
        print(f"\n{prog}: {name}{note}; {kept}", file=sys.stderr)
        return 128 + signum
    except BrokenPipeError:  # the reader went away (``| head``): stop as SIGPIPE would
        _detach_stdout()
        return 128 + _SIGPIPE
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
        _STOPPING.clear()
