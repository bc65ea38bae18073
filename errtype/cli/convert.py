"""errtype convert: M2 -> parallel text per annotator, M2 -> JSON lines, parallel text -> M2.

  errtype convert m2-to-text IN.m2 -o PREFIX     PREFIX.orig + PREFIX.cor.<annotator id>
  errtype convert m2-to-json IN.m2 -o OUT.jsonl  one JSON object per block, character offsets
  errtype convert text-to-m2 ORIG COR [COR ...] -o OUT.m2 [errtype-m2 options]
  errtype convert m2-to-cherrant IN.m2 -o OUT.m2  standard M2 -> ChERRANT's dialect (T lines)
  errtype convert cherrant-to-m2 IN.m2 -o OUT.m2  ChERRANT's dialect -> standard M2
"""

from __future__ import annotations

import argparse
import sys

from .common import describe, details, new_parser, run
from .files import OUTPUT, PREFIX, m2_input, text_input

PROG = "errtype convert"
TEXT_NOT_M2 = "convert parallel text with: errtype convert text-to-m2 ORIG COR -o OUT.m2"


def build_parser() -> argparse.ArgumentParser:
    p = new_parser(PROG, describe(__doc__), formatter_class=argparse.RawDescriptionHelpFormatter,
                   epilog=details(__doc__))
    sub = p.add_subparsers(dest="command", required=True)
    for name, kind, what in (("m2-to-text", PREFIX, "output prefix: PREFIX.orig, PREFIX.cor.N"),
                             ("m2-to-json", OUTPUT, "output file ('-' = standard output)")):
        s = sub.add_parser(name, help=f"M2 -> {'parallel text' if 'text' in name else 'JSONL'}",
                           description=f"M2 -> {'parallel text' if 'text' in name else 'JSONL'}")
        s.add_argument("m2_file", type=m2_input(TEXT_NOT_M2),
                       help="M2 file ('-' = standard input)")
        s.add_argument("-o", "--out", required=True, type=kind, metavar="FILE", help=what)
        s.add_argument("--missing", choices=("first", "empty"), default="first",
                       help="an annotator absent from a block: same as the block's first "
                            "annotator (default, the CoNLL-2014 convention) or no correction")
        s.add_argument("--errant-compat", action="store_true",
                       help="apply edits as ERRANT 3.0.2 does ('-NONE-' and 'a||b' literal, no "
                            "overlap resolution) instead of the m2scorer reading")
        s.add_argument("--encoding-errors", choices=("strict", "replace"), default="strict",
                       help="invalid UTF-8: stop with an error naming file, line and byte "
                            "(default), or replace it with U+FFFD")
        s.add_argument("--quiet", "-q", action="store_true", help="no summary on standard error")
    for name, what in (("m2-to-cherrant", "standard M2 -> ChERRANT's M2 dialect: a 'T{i}-A0' "
                                          "line with the corrected tokens before each "
                                          "annotator's edits"),
                       ("cherrant-to-m2", "ChERRANT's M2 dialect -> standard M2")):
        s = sub.add_parser(name, help=what.split(":")[0], description=what)
        s.add_argument("m2_file", type=m2_input(TEXT_NOT_M2),
                       help="M2 file, either dialect ('-' = standard input)")
        s.add_argument("-o", "--out", required=True, type=OUTPUT, metavar="FILE",
                       help="output M2 file ('-' = standard output)")
        if name == "cherrant-to-m2":
            s.add_argument("--alternatives", choices=("first", "split"), default="first",
                           help="a reference's equal-cost edit sequences (T{i}-A{j}): keep the "
                                "first, annotator id = reference index (default), or make each "
                                "an annotator of its own")
        s.add_argument("--encoding-errors", choices=("strict", "replace"), default="strict",
                       help="invalid UTF-8: stop with an error naming file, line and byte "
                            "(default), or replace it with U+FFFD")
        s.add_argument("--quiet", "-q", action="store_true", help="no summary on standard error")
    t = sub.add_parser("text-to-m2", help="parallel text -> M2 (errtype-m2 -orig/-cor)",
                       description="parallel text -> M2; every other option is errtype-m2's "
                                   "(--lang, -tok, -lev, -merge, -j, ...)")
    m2_hint = "an M2 file is converted with m2-to-text or m2-to-json"
    t.add_argument("orig", type=text_input(m2_hint), help="original text, one sentence per line")
    t.add_argument("cors", nargs="+", type=text_input(m2_hint),
                   help="corrected text file(s), one per annotator")
    t.add_argument("-o", "--out", required=True, type=OUTPUT, metavar="FILE",
                   help="output M2 file ('-' = standard output)")
    return p


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if argv and argv[0] == "text-to-m2":  # everything else goes to errtype-m2 unchanged
        args, rest = parser.parse_known_args(argv)
        from . import m2

        prog = f"{PROG} text-to-m2"
        return run(prog, lambda: m2.main(["-orig", args.orig, "-cor", *args.cors, "--out",
                                          args.out, *rest], prog=prog), args=args)
    args = parser.parse_args(argv)

    def body() -> int:
        from .. import m2
        from ..convert import m2_to_dialect, m2_to_jsonl, m2_to_text

        if args.command in ("m2-to-cherrant", "cherrant-to-m2"):
            dialect = "cherrant" if args.command == "m2-to-cherrant" else "standard"
            n = m2_to_dialect(args.m2_file, args.out, dialect,
                              alternatives=getattr(args, "alternatives", "first"),
                              encoding_errors=args.encoding_errors)
            if not args.quiet:
                print(f"{PROG}: wrote {args.out} ({n} blocks)", file=sys.stderr)
            return 0
        rules = m2.ERRANT if args.errant_compat else m2.M2SCORER
        opts = {"missing": args.missing, "rules": rules, "encoding_errors": args.encoding_errors}
        if args.command == "m2-to-text":
            written = m2_to_text(args.m2_file, args.out, **opts)
            summary = ", ".join(f"{name} ({n} lines)" for name, n in written.items())
        else:
            summary = f"{args.out} ({m2_to_jsonl(args.m2_file, args.out, **opts)} lines)"
        if not args.quiet:
            print(f"{PROG}: wrote {summary}", file=sys.stderr)
        return 0

    return run(PROG, body, args=args)


if __name__ == "__main__":
    raise SystemExit(main())
