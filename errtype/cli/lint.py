"""errtype lint: check M2 files for duplicate, overlapping and out-of-range edits and more.

Exit status: 0 no finding, 1 findings, 2 a file cannot be read (malformed line, missing file,
invalid UTF-8). Findings are printed as ``file:line: CODE message`` (or one JSON document).
"""

from __future__ import annotations

import argparse
import json
import sys

from ..lint import CODES
from .common import add_encoding_option, add_output_option, new_parser, run
from .files import m2_input

PROG = "errtype lint"


def build_parser() -> argparse.ArgumentParser:
    p = new_parser(PROG, "Check M2 files. Exit status: 0 clean, 1 findings, 2 unreadable.",
                   epilog="codes: " + ", ".join(CODES))
    p.add_argument("files", nargs="+", metavar="FILE.m2", type=m2_input(
        "errtype lint checks M2 files; make one from parallel text with errtype-m2 -orig ORIG "
        "-cor COR -o OUT.m2"), help="M2 file(s) ('-' = standard input)")
    add_output_option(p, "the findings")
    p.add_argument("--json", action="store_true",
                   help="print one JSON document: per file its blocks, counts and findings")
    p.add_argument("--ignore", default="", metavar="CODE[,CODE]",
                   help="codes not to report (e.g. alternatives,none-deletion)")
    p.add_argument("--annotators", type=int, metavar="N",
                   help="expected annotators (ids 0 … N-1): report blocks missing one and ids "
                        "outside (default: every id seen in the file is expected everywhere)")
    add_encoding_option(p, "invalid UTF-8: unreadable file (default), or replace it with U+FFFD")
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    ignore = {c.strip() for c in args.ignore.split(",") if c.strip()}
    if unknown := ignore - set(CODES):
        parser.error(f"unknown code(s) for --ignore: {', '.join(sorted(unknown))}")

    def body() -> int:
        from ..lint import lint_m2

        results = []
        for path in args.files:
            result = lint_m2(path, args.encoding_errors, args.annotators)
            result.findings = [f for f in result.findings if f.code not in ignore]
            results.append(result)
        if args.json:
            print(json.dumps({"files": [r.to_dict() for r in results]}, ensure_ascii=False,
                             indent=1))
        else:
            for r in results:
                for f in r.findings:
                    print(f)
                counts = ", ".join(f"{n} {c}" for c, n in sorted(r.counts().items()))
                print(f"{PROG}: {r.path}: {r.blocks} blocks, "
                      f"{len(r.findings)} findings" + (f" ({counts})" if counts else ""),
                      file=sys.stderr)
        return 1 if any(r.findings for r in results) else 0

    return run(PROG, body, args=args, stdout_to=args.out)


if __name__ == "__main__":
    raise SystemExit(main())
