"""``errtype download LANG``: fetch the optional model of a language into the user cache."""

from __future__ import annotations

import argparse
import sys

from ..download import MODELS, download
from ..errors import ErrtypeError
from .common import run


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="errtype download",
        description="Download the UDPipe 1 model (UD 2.5, LINDAT, CC BY-NC-SA 4.0) of a "
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
    ap.add_argument("--cache-dir", help="store under this directory instead of the user cache")
    ap.add_argument("--force", action="store_true", help="download even if already present")
    ap.add_argument("--timeout", type=float, default=60.0, help="network timeout in seconds")
    ap.add_argument("--quiet", action="store_true", help="print only the resulting path")
    return ap


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit status."""
    args = _parser().parse_args(argv)
    spec = MODELS[args.lang]
    if not args.quiet:
        print(f"Downloading {spec.filename} ({spec.licence})", file=sys.stderr)
    show = not args.quiet and sys.stderr.isatty()

    def progress(done: int, total: int | None) -> None:
        if show:
            pct = f" ({100 * done // total} %)" if total else ""
            print(f"\r{done / 1e6:.1f} MB{pct}", end="", file=sys.stderr, flush=True)

    def body() -> int:
        try:
            path = download(args.lang, url=args.url, sha256=args.sha256,
                            directory=args.cache_dir, force=args.force, timeout=args.timeout,
                            progress=progress, check_lang=not args.no_language_check)
        except ErrtypeError as exc:
            print(f"{chr(10) if show else ''}errtype download: error: {exc}", file=sys.stderr)
            return 1
        if show:
            print(file=sys.stderr)
        print(path)
        return 0

    # Ctrl-C / SIGTERM: one line and 130 / 143; the partial file is removed on the way out
    return run("errtype download", body)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
