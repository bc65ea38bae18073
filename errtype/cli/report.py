"""``errtype report``: one self-contained HTML report (or CSV/Markdown/LaTeX tables) of one or
more systems against an M2 gold.

    errtype report --ref GOLD.m2 --hyp AMU=amu.txt CAMB=camb.m2 -o report.html
    errtype report --src SRC.txt --ref REF1.txt REF2.txt --hyp SYS=sys.txt --format md -o -

Text systems (tokenised, one sentence per line) are annotated with ``--lang``'s annotator.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import InputError
from ..textio import atomic_output
from .common import add_backend_options, backend_options, new_parser, run
from .files import FOLDER, INPUT, NAMED_INPUT, OUTPUT, text_input

PROG = "errtype report"


def build_parser() -> argparse.ArgumentParser:
    p = new_parser(PROG, "HTML report / tables of GEC systems.")
    p.add_argument("--ref", nargs="+", required=True, type=INPUT,
                   help="gold M2 file, or corrected texts parallel to --src")
    p.add_argument("--src", type=text_input("the gold M2 goes after --ref (it holds the source)"),
                   help="source text, one tokenised sentence per line")
    p.add_argument("--hyp", nargs="+", required=True, metavar="NAME=FILE", type=NAMED_INPUT,
                   help="systems: tokenised text or M2 (named by NAME, else the file name)")
    p.add_argument("-o", "--out", required=True, type=OUTPUT, metavar="FILE",
                   help="output file ('-' = standard output)")
    p.add_argument("--format", choices=["html", "csv", "md", "tex"], default="html",
                   help="html report (default) or tables as CSV, Markdown or LaTeX")
    p.add_argument("--svg-dir", type=FOLDER,
                   help="also write every chart as a standalone SVG file here")
    p.add_argument("--title", default="errtype report", help="report title")
    p.add_argument("--beta", type=float, default=0.5, help="F beta (default 0.5)")
    p.add_argument("--bootstrap", type=int, default=1000, metavar="N",
                   help="bootstrap resamples (default 1000)")
    p.add_argument("--trials", type=int, default=1000, metavar="N",
                   help="approximate-randomisation trials (default 1000)")
    p.add_argument("--seed", type=int, default=0, help="resampling seed (default 0)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--keep-gold-types", action="store_true",
                   help="keep the gold's own types (default: a gold whose types are not the "
                        "annotator's type set, e.g. NUCLE, is re-typed, and the result cached)")
    g.add_argument("--retype-gold", action="store_true",
                   help="re-type the gold edits with the annotator even when its types are in "
                        "the annotator's set")
    p.add_argument("--unit", choices=["token", "char"], default=None,
                   help="scoring unit: whitespace tokens, or characters (every input "
                        "re-segmented; the default for Chinese when the M2 inputs are in "
                        "characters); default: token")
    p.add_argument("--no-maxmatch", action="store_true", help="skip MaxMatch")
    p.add_argument("--no-gleu", action="store_true", help="skip GLEU")
    add_backend_options(p)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)

    def body() -> int:
        from ..report import (
            ReportOptions,
            all_charts,
            build_report,
            load_input,
            render_html,
            render_tables,
        )
        from ..score.suite import parse_system_arg

        if args.bootstrap < 1 or args.trials < 1:
            raise InputError("--bootstrap and --trials must be at least 1")
        systems = [parse_system_arg(h) for h in args.hyp]
        gold_types = ("keep" if args.keep_gold_types else
                      "retype" if args.retype_gold else "auto")
        annotator = None
        opts = backend_options(args)
        if opts:
            from .. import load

            annotator = load(args.lang, **opts)
        inp = load_input(args.ref, systems, src=args.src, lang=args.lang, annotator=annotator,
                         unit=args.unit,
                         gold_types=gold_types)
        options = ReportOptions(beta=args.beta, bootstrap=args.bootstrap, trials=args.trials,
                                seed=args.seed, gleu=not args.no_gleu,
                                maxmatch=not args.no_maxmatch)
        report = build_report(inp, options)
        text = (render_html(report, args.title) if args.format == "html"
                else render_tables(report, args.format))
        with atomic_output(args.out) as fh:
            fh.write(text)
        if args.svg_dir:
            folder = Path(args.svg_dir)
            folder.mkdir(parents=True, exist_ok=True)
            for stem, svg in all_charts(report).items():
                with atomic_output(folder / f"{stem}.svg") as fh:
                    fh.write(svg)
        sys.stdout.flush()
        return 0

    return run(PROG, body, args=args)


if __name__ == "__main__":
    raise SystemExit(main())
