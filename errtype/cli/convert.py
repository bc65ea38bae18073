"""errtype convert: M2 -> parallel text per annotator, M2 -> JSON lines, parallel text -> M2.

  errtype convert m2-to-text IN.m2 -o PREFIX     PREFIX.orig + PREFIX.cor.<annotator id>
  errtype convert m2-to-json IN.m2 -o OUT.jsonl  one JSON object per block, character offsets
  errtype convert text-to-m2 ORIG COR [COR ...] -o OUT.m2 [errtype-m2 options]
"""

from __future__ import annotations

import argparse
import sys

PROG = "errtype convert"


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 1)[1])
    sub = p.add_subparsers(dest="command", required=True)
    for name, what in (("m2-to-text", "output prefix"), ("m2-to-json", "output file ('-')")):
        s = sub.add_parser(name, help=f"M2 -> {'parallel text' if 'text' in name else 'JSONL'}")
        s.add_argument("m2_file", help="M2 file ('-' = standard input)")
        s.add_argument("-o", "--out", required=True, help=what)
        s.add_argument("--missing", choices=("first", "empty"), default="first",
                       help="an annotator absent from a block: same as the block's first "
                            "annotator (default, the CoNLL-2014 convention) or no correction")
        s.add_argument("--errant-compat", action="store_true",
                       help="apply edits as ERRANT 3.0.2 does ('-NONE-' and 'a||b' literal, no "
                            "overlap resolution) instead of the m2scorer reading")
        s.add_argument("--encoding-errors", choices=("strict", "replace"), default="strict")
        s.add_argument("--quiet", "-q", action="store_true")
    t = sub.add_parser("text-to-m2", help="parallel text -> M2 (errtype-m2 -orig/-cor)")
    t.add_argument("orig")
    t.add_argument("cors", nargs="+")
    t.add_argument("-o", "--out", required=True)
    return p


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if argv and argv[0] == "text-to-m2":  # everything else goes to errtype-m2 unchanged
        args, rest = parser.parse_known_args(argv)
        from . import m2

        return m2.main(["-orig", args.orig, "-cor", *args.cors, "-out", args.out, *rest])
    args = parser.parse_args(argv)

    def body() -> int:
        from .. import m2
        from ..convert import m2_to_jsonl, m2_to_text

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

    from .common import run

    return run(PROG, body)


if __name__ == "__main__":
    raise SystemExit(main())
