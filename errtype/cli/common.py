"""Shared command-line plumbing: error reporting, interrupts, backend options."""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Callable
from typing import Any

from ..errors import ErrtypeError


def add_backend_options(parser: argparse.ArgumentParser) -> None:
    g = parser.add_argument_group("language and backend")
    g.add_argument("--lang", "-lang", default="en",
                   help="language code (default: en); any code of a UD language works")
    g.add_argument("--spacy-model", help="spaCy pipeline name or path (default per language)")
    g.add_argument("--udpipe-model",
                   help="UDPipe 1 .udpipe model file (any language; default: the model fetched "
                        "by 'errtype download LANG')")
    g.add_argument("--blis", action="store_true",
                   help="spaCy: multiply matrices with thinc's blis as spaCy does, not numpy's "
                        "BLAS (slower; see README, Differences from ERRANT)")
    g.add_argument("--feats", action="store_true",
                   help="UD languages: name the differing UD features of inflection errors "
                        "(R:NOUN:INFL:Case)")


def backend_options(args: argparse.Namespace) -> dict[str, Any]:
    opts: dict[str, Any] = {}
    if getattr(args, "spacy_model", None):
        opts["spacy_model"] = args.spacy_model
    if getattr(args, "udpipe_model", None):
        opts["udpipe_model"] = args.udpipe_model
    if getattr(args, "feats", False):
        opts["feats"] = True
    if getattr(args, "blis", False):
        opts["numpy_blas"] = False
    return opts


class Interrupted(KeyboardInterrupt):
    """A stop signal (SIGINT, SIGTERM, SIGHUP) delivered as KeyboardInterrupt; ``signum`` is it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


_STOPPING: list[int] = []  # the signal being handled: later ones wait for the clean-up


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


def run(prog: str, body: Callable[[], int], progress_note: Callable[[], str] | None = None,
        kept_note: Callable[[], str | None] | None = None) -> int:
    """Run a command body: typed errors -> message + exit 2; a stop signal -> one line and exit
    128 + its number (Ctrl-C 130, SIGTERM 143). ``kept_note()`` says what partial output was
    kept (None: nothing was)."""
    _STOPPING.clear()
    previous = {s: signal.signal(s, _raise_interrupt) for s in _stop_signals()}
    try:
        return body()
    except ErrtypeError as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:
        signum = exc.signum if isinstance(exc, Interrupted) else signal.SIGINT
        name = "interrupted" if signum == signal.SIGINT else \
            f"stopped by {signal.Signals(signum).name}"
        note = f" ({progress_note()})" if progress_note else ""
        kept = (kept_note() if kept_note else None) or "no partial output was written"
        print(f"\n{prog}: {name}{note}; {kept}", file=sys.stderr)
        return 128 + signum
    except BrokenPipeError:
        return 1
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
        _STOPPING.clear()
