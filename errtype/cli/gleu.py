"""``errtype-gleu``: GLEU+ as published (500 seeded iterations, Python-2 reference draws).

    errtype-gleu -s SOURCE -r REF [REF ...] --hyp HYP [HYP ...] [-n 4] [--iter 500] [--sent]
                 [--py3-random] [--human] [--out FILE] [--json FILE]

Prints one row per hypothesis file: GLEU ×100 (4 decimals), the standard deviation over the
iterations and the normal 95% interval, then the signature. ``--human`` adds the "human" figure
(each reference against the others); ``--sent`` prints sentence-level GLEU (mean over references);
``--json`` writes every result.

``-o`` is the hypothesis here, as in the GLEU scripts (the one exception to errtype's ``-o/--out``
= output): write the output with ``--out``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from ..score.ngram.gleu import read_gleu_inputs
from ..score.registry import get_metric
from ..textio import atomic_output
from .common import add_output_option, describe, new_parser, run, spellings
from .files import INPUT, OUTPUT, text_input

PROG = "errtype-gleu"
M2_NOT_TEXT = "GLEU scores plain text (an M2 file is accepted as -r REF only)"


def build_parser() -> argparse.ArgumentParser:
    p = new_parser(PROG, describe(__doc__), epilog="-o is the hypothesis, as in the GLEU "
                   "scripts (the one exception to errtype's -o/--out = output); the output "
                   "file is --out.")
    p.add_argument("-s", *spellings("orig", "--source"), dest="source", required=True,
                   type=text_input(M2_NOT_TEXT),
                   help="source sentences")
    p.add_argument("-r", "--reference", *spellings("ref"), dest="reference", nargs="+",
                   required=True, type=INPUT,
                   help="reference files (one per annotator); a FILE.m2 gives one reference per "
                        "annotator, and its sentences must match the source")
    p.add_argument(*spellings("hyp"), "--hypothesis", dest="hypothesis", nargs="+", default=[],
                   metavar="HYP", type=text_input(M2_NOT_TEXT), help="hypothesis files to score")
    p.add_argument("-o", dest="gleu_hypothesis", nargs="+", default=[], metavar="HYP",
                   type=text_input(M2_NOT_TEXT),
                   help="the GLEU scripts' spelling of --hyp (not the output: that is --out)")
    p.add_argument("-n", type=int, default=4, help="maximum n-gram order (default: 4)")
    p.add_argument("-l", "--iter", "--iterations", dest="iterations", type=int, default=500,
                   help="sampling iterations (default: 500; 1 with a single reference)")
    p.add_argument("--sent", action="store_true", help="print sentence-level GLEU")
    p.add_argument("--py3-random", action="store_true",
                   help="draw references with Python 3's randint (differs from published "
                        "numbers); default: Python 2's draw, as the official runs")
    p.add_argument("--tokenize", choices=["py2", "unicode"], default="py2",
                   help="whitespace set for tokens: ASCII like the official Python 2 code "
                        "(default) or str.split")
    p.add_argument("--human", action="store_true",
                   help="also score each reference against the others (the human figure)")
    add_output_option(p, flags=("--out", "-out"))  # -o is the hypothesis here
    p.add_argument("--json", metavar="FILE", type=OUTPUT,
                   help="write all results as JSON (- = stdout)")
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.hypothesis and args.gleu_hypothesis:
        parser.error("-o is the hypothesis in errtype-gleu (the GLEU scripts' spelling): give "
                     "the hypotheses with --hyp only, and the output file with --out")
    args.hypothesis = args.hypothesis or args.gleu_hypothesis
    if not args.hypothesis and not args.human:
        parser.error("give --hyp HYP (or -o HYP) or --human")

    def body() -> int:
        scorer = get_metric("gleu", order=args.n, iterations=args.iterations,
                            draw="py3" if args.py3_random else "py2", tokenize=args.tokenize,
                            sentence_level=args.sent or bool(args.json)).scorer()
        results = {}
        for hpath in args.hypothesis:
            src, refs, hyp = read_gleu_inputs(args.source, args.reference, hpath)
            results[os.path.basename(hpath)] = scorer.score(src, refs, hyp)
        if args.human:
            src, refs, _ = read_gleu_inputs(args.source, args.reference)
            results["HUMAN"] = scorer.human(src, refs)
        for name, res in results.items():
            for note in res.notes:
                if note.startswith("warning:"):
                    print(f"{PROG}: {name}: {note}", file=sys.stderr)
        quiet = args.json == "-"
        if not quiet:
            print("hypothesis\tGLEU\tstd\t95%CI")
            for name, res in results.items():
                c = res.corpus
                if "std" in c:
                    print(f"{name}\t{100 * c['gleu']:.4f}\t{100 * c['std']:.4f}\t"
                          f"({100 * c['ci95_low']:.3f},{100 * c['ci95_high']:.3f})")
                else:
                    each = " ".join(f"{k}={100 * v:.4f}" for k, v in c.items() if k != "gleu")
                    print(f"{name}\t{100 * c['gleu']:.4f}\t-\t-\t{each}")
            for res in dict.fromkeys(r.signature for r in results.values()):
                print(res)
            if args.sent:
                for name, res in results.items():
                    for s in res.sentences:
                        print(f"{name}\t{s['id']}\t{100 * s['gleu']:.4f}\t{100 * s['std']:.4f}")
        if args.json:
            with atomic_output(args.json) as fh:
                json.dump({k: v.to_dict() for k, v in results.items()}, fh, indent=2,
                          ensure_ascii=False)
                fh.write("\n")
        return 0

    return run(PROG, body, args=args, stdout_to=args.out)


if __name__ == "__main__":
    sys.exit(main())
