"""``errtype download LANG``: fetch the optional model of a language into the user cache."""

from __future__ import annotations

import argparse
import sys

from ..download import MODELS, download
from .common import new_parser, run
from .files import FOLDER

PROG = "errtype download"


def build_parser() -> argparse.ArgumentParser:
    ap = new_parser(
        PROG,
        "Download the UDPipe 1 model (UD 2.5, LINDAT, CC BY-NC-SA 4.0) of a "
        "language into the user cache; the language then uses it by default "
        "(cs: the Czech ERRANT's czech-pdt-ud-2.5-191206, for exact reproduction).")
    ap.add_argument("lang", choices=sorted(MODELS), metavar="LANG",
                    help="language code: " + ", ".join(sorted(MODELS)))
    ap.add_argument("--url", help="download from this URL instead of the default")
    ap.add_argument("--sha256", help="expected SHA-256 of the file (enforced instead of the "
                                     "digests pinned for the published model)")
    ap.add_argument("--no-language-check", action="store_true",
                    help="accept a model that does not tag the language's test sentence "
                         "plausibly (e.g. one trained with other lemma conventions)")
    ap.add_argument("--cache-dir", type=FOLDER,
                    help="store under this directory instead of the user cache")
    ap.add_argument("--force", action="store_true", help="download even if already present")
    ap.add_argument("--timeout", type=float, default=60.0, help="network timeout in seconds")
    ap.add_argument("--quiet", action="store_true", help="print only the resulting path")
    return ap


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit status."""
    args = build_parser().parse_args(argv)
    spec = MODELS[args.lang]
    show = not args.quiet and sys.stderr.isatty()

    def progress(done: int, total: int | None) -> None:
        if show:
            pct = f" ({100 * done // total} %)" if total else ""
            print(f"\r{done / 1e6:.1f} MB{pct}", end="", file=sys.stderr, flush=True)

    def body() -> int:
        if not args.quiet:
            print(f"Downloading {spec.filename} ({spec.licence})", file=sys.stderr)
        try:
            path = download(args.lang, url=args.url, sha256=args.sha256,
                            directory=args.cache_dir, force=args.force, timeout=args.timeout,
                            progress=progress,
                            check_lang=not args.no_language_check)
        finally:
            if show:
                print(file=sys.stderr)  # end the progress line
        print(path)
        return 0

    return run(PROG, body, args=args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
