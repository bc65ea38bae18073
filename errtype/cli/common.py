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


def _raise_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def run(prog: str, body: Callable[[], int], progress_note: Callable[[], str] | None = None) -> int:
    """Run a command body: typed errors -> message + exit 2; Ctrl-C/SIGTERM -> exit 130."""
    previous = signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        return body()
    except ErrtypeError as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        note = f" ({progress_note()})" if progress_note else ""
        print(f"\n{prog}: interrupted{note}; no partial output was written", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1
    finally:
        signal.signal(signal.SIGTERM, previous)
