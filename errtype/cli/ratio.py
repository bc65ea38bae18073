"""``errtype-ratio``: system scores relative to human performance (Bryant & Ng 2015).

    errtype-ratio --m2 GOLD.m2 [SYSTEM ...]                      # several annotator ids
    errtype-ratio [SYSTEM ...] --source SRC --refs REF1 REF2 [REF ...]   # N corrected texts

Each annotator is scored against the other annotators (leave-one-out), their mean is the human
score, and every system is scored against the same subsets; the ratio is system / human.
``--curve`` adds the averages for every subset size. System outputs must be tokenised like the
gold sources (whitespace tokens).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..errors import InputError
from ..score.meta.ratio import (
    Annotations,
    errant_scorer,
    exact_scorer,
    maxmatch_scorer,
    ratio_score,
)
from ..textio import atomic_output, read_lines, read_parallel
from .common import (
    add_backend_options,
    add_output_option,
    backend_options,
    describe,
    details,
    new_parser,
    run,
    spellings,
)
from .files import OUTPUT, m2_input, text_input

PROG = "errtype-ratio"
M2_NOT_TEXT = "an M2 gold goes after --m2; sources, references and systems are plain text"
TEXT_NOT_M2 = "plain-text references go after --source SRC --refs REF1 REF2 ..."


def build_parser() -> argparse.ArgumentParser:
    p = new_parser(PROG, describe(__doc__), formatter_class=argparse.RawDescriptionHelpFormatter,
                   epilog=details(__doc__))
    g = p.add_argument_group("gold (one of)")
    g.add_argument("--m2", type=m2_input(TEXT_NOT_M2),
                   help="M2 file with at least 2 annotator ids")
    g.add_argument(*spellings("orig", "--source"), dest="source", type=text_input(M2_NOT_TEXT),
                   help="source text (with --refs)")
    g.add_argument("--refs", *spellings("ref"), dest="refs", nargs="+",
                   type=text_input(M2_NOT_TEXT),
                   help="N >= 2 corrected texts, parallel to --source")
    p.add_argument("systems", nargs="*", type=text_input(M2_NOT_TEXT),
                   help="system outputs, one sentence per line (before --refs, which takes "
                        "every following file name, or give --systems)")
    p.add_argument("--systems", *spellings("hyp"), dest="more_systems", nargs="+", default=[],
                   metavar="SYSTEM",
                   type=text_input(M2_NOT_TEXT),
                   help="system outputs (an alternative to the positional arguments)")
    p.add_argument("--scorer", choices=["maxmatch", "errant", "exact"], default="maxmatch",
                   help="maxmatch (M2 scorer 3.2, default), errant (errant_compare -cs) or "
                        "exact (edit-set matching; annotators only)")
    p.add_argument("--beta", type=float, default=0.5, help="F beta (default 0.5)")
    p.add_argument("--annotators", help="comma-separated annotator ids to use (M2 mode)")
    p.add_argument("--missing", choices=["first", "empty"], default="first",
                   help="an annotator absent from a block agrees with the first one (default; "
                        "the CoNLL-2014 combined M2 drops duplicates) or made no edit")
    p.add_argument("--curve", action="store_true", help="also every subset size k = 1..N-1")
    p.add_argument("--max-pairs", type=int, default=200,
                   help="per k, sample this many (annotator, subset) pairs when there are "
                        "more (default 200; 0 = all)")
    p.add_argument("--seed", type=int, default=0, help="sampling seed (default 0)")
    p.add_argument("--tokenize", action="store_true",
                   help="tokenise --source/--refs with the parser (default: whitespace)")
    add_output_option(p, "the scores")
    p.add_argument("--json", metavar="FILE", type=OUTPUT,
                   help="write the result as JSON (- = stdout)")
    add_backend_options(p)  # the annotator of --refs and of --scorer errant
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)

    def body() -> int:
        if bool(args.m2) == bool(args.source or args.refs):
            raise InputError("give either --m2 or --source with --refs")
        annotator = None  # default: errtype.load(lang), when needed
        if backend_options(args) and (args.refs or args.scorer == "errant"):
            from .. import load

            annotator = load(args.lang, **backend_options(args))
        if args.m2:
            anns = [int(a) for a in args.annotators.split(",")] if args.annotators else None
            data = Annotations.from_m2(args.m2, anns, args.missing)
        else:
            if not args.source or not args.refs:
                raise InputError("--source and --refs go together")
            rows = [[t.strip() for t in r] for _, r in read_parallel([args.source, *args.refs])]
            refs = [[r[k + 1] for r in rows] for k in range(len(args.refs))]
            data = Annotations.from_texts([r[0] for r in rows], refs, annotator, args.lang,
                                          tokenize=args.tokenize)
        systems = {}
        for path in [*args.systems, *args.more_systems]:
            name = Path(path).name if Path(path).name not in systems else path
            systems[name] = [ln.text.strip() for ln in read_lines(path)]
        scorer = {"maxmatch": lambda: maxmatch_scorer(args.beta),
                  "errant": lambda: errant_scorer(beta=args.beta, lang=args.lang,
                                                  annotator=annotator),
                  "exact": lambda: exact_scorer}[args.scorer]()
        if args.scorer == "exact" and systems:
            raise InputError("the exact scorer cannot score system text; use maxmatch or errant")
        res = ratio_score(data, systems, scorer, beta=args.beta, curve=args.curve,
                          max_pairs=args.max_pairs or None, seed=args.seed)
        fb = f"F{args.beta:g}"
        print(f"annotator\tP\tR\t{fb}\t(against the other {len(data.annotators) - 1})")
        for a, v in res.annotators.items():
            print(f"{a}\t{100 * v['p']:.2f}\t{100 * v['r']:.2f}\t{100 * v['f']:.2f}")
        print(f"human\t\t\t{100 * res.human:.2f}")
        if systems:
            print(f"system\t{fb}\tratio")
            for name, v in res.systems.items():
                print(f"{name}\t{100 * v['f']:.2f}\t{v['ratio']:.4f}")
        if res.curve:
            print("k\tpairs\thuman" + "".join(f"\t{n}\t{n}:ratio" for n in systems))
            for pt in res.curve:
                cells = "".join(f"\t{100 * s['f']:.2f}\t{s['ratio']:.4f}"
                                for s in pt["systems"].values())
                print(f"{pt['k']}\t{pt['pairs']}/{pt['all_pairs']}\t{100 * pt['human']:.2f}"
                      + cells)
        print(res.signature)
        if args.json:
            with atomic_output(args.json) as fh:
                json.dump(res.to_dict(), fh, indent=1)
                fh.write("\n")
        sys.stdout.flush()
        return 0

    return run(PROG, body, args=args, stdout_to=args.out)


if __name__ == "__main__":
    raise SystemExit(main())
