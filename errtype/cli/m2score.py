"""``errtype-m2score``: the MaxMatch (M2) scorer, identical in numbers to m2scorer 3.2.

    errtype-m2score [-v] [--beta B] [--max_unchanged_words N] [--ignore_whitespace_casing]
                    SYSTEM SOURCE_GOLD [-o FILE] [--json FILE] [--sentences FILE]
                    [--per-type [FILE]]

Prints ``Precision``/``Recall``/``F_beta`` with 4 decimals as the official scorer does, the counts
and the signature. ``--json`` writes the whole result (per-sentence counts and per-type recall),
``--sentences`` a per-sentence TSV, ``--per-type`` a per-gold-type TSV table.
"""

from __future__ import annotations

import argparse
import sys

from ..score.common import ScoreResult
from ..score.edits.maxmatch import MaxMatch, load_gold, read_hypotheses
from ..score.registry import get_metric
from ..textio import atomic_output
from .common import add_output_option, describe, new_parser, run
from .files import OUTPUT, m2_input, text_input

PROG = "errtype-m2score"


def build_parser() -> argparse.ArgumentParser:
    p = new_parser(PROG, describe(__doc__))
    p.add_argument("system", type=text_input(
        "the system output is plain text (SYSTEM comes first: errtype-m2score SYSTEM GOLD.m2); "
        "an M2 hypothesis is scored with errtype-compare -hyp HYP.m2 -ref GOLD.m2"),
        help="system output, one tokenised sentence per line")
    p.add_argument("source_gold", type=m2_input(
        "the gold comes second as M2 (errtype-m2score SYSTEM GOLD.m2); make one with "
        "errtype-m2 -orig SRC -cor REF -o GOLD.m2"),
        help="M2 file with the source sentences and gold edits")
    p.add_argument("-v", "--verbose", "--very_verbose", action="store_true",
                   help="print every sentence's edits, gold edits and chosen annotator "
                        "(--very_verbose is accepted as a synonym)")
    p.add_argument("--beta", type=float, default=0.5, help="F-beta weight (default: 0.5)")
    p.add_argument("--max_unchanged_words", "--max-unchanged-words", type=int, default=2,
                   help="most unchanged tokens inside one system edit (default: 2)")
    p.add_argument("--ignore_whitespace_casing", "--ignore-whitespace-casing",
                   action="store_true",
                   help="drop system edits that only change spacing or case")
    p.add_argument("--max-arcs", type=int, default=None, metavar="N",
                   help="time budget (default: none): a sentence whose edit lattice grows past N "
                        "transitive arcs is scored as unchanged output and reported; scores then "
                        "differ from m2scorer's")
    add_output_option(p, "the scores")
    p.add_argument("--json", metavar="FILE", type=OUTPUT,
                   help="write the result as JSON (- = stdout)")
    p.add_argument("--sentences", metavar="FILE", type=OUTPUT,
                   help="write per-sentence counts as TSV")
    p.add_argument("--per-type", nargs="?", const="-", metavar="FILE", type=OUTPUT,
                   help="per-gold-type TP/FP/FN/P/R/F table as TSV (default: stdout)")
    return p


def _verbose(scorer: MaxMatch, hyps: list[str], gold: list) -> ScoreResult:
    """Score while printing each sentence like the official ``-v`` output."""
    for i, (s, h, g) in enumerate(zip(scorer.iter_sentences(hyps, gold), hyps, gold,
                                      strict=True), 1):
        print(f"SOURCE        : {g.source}")
        print(f"HYPOTHESIS    : {h}")
        print(f"EDIT SEQ      : {[(e.start, e.end, e.orig, e.cor) for e in s.edits]}")
        print(f"GOLD EDITS    : {[(e.start, e.end, e.orig, list(e.cors)) for e in s.gold_edits]}")
        print(f"CORRECT EDITS : {[(e.start, e.end, e.orig, list(e.cors)) for e in s.matched]}")
        print(f"# correct     : {s.correct}")
        print(f"# proposed    : {s.proposed}")
        print(f"# gold        : {s.gold}")
        print(f">> Chosen Annotator for line {i} : {s.annotator}")
        print("-------------------------------------------")
    return scorer.score(hyps, gold)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)

    def body() -> int:
        scorer = get_metric("maxmatch", beta=args.beta,
                            max_unchanged_words=args.max_unchanged_words,
                            ignore_whitespace_casing=args.ignore_whitespace_casing,
                            max_arcs=args.max_arcs).scorer()
        gold = load_gold(args.source_gold)
        hyps = read_hypotheses(args.system, len(gold), args.source_gold)
        res = _verbose(scorer, hyps, gold) if args.verbose else scorer.score(hyps, gold)
        for note in res.notes:
            if note.startswith("warning:"):
                print(f"{PROG}: {note}", file=sys.stderr)
        p, r, f = res.corpus.values()
        c = res.counts
        if args.json != "-":
            print(f"Precision   : {p:.4f}")
            print(f"Recall      : {r:.4f}")
            print(f"F_{args.beta:.1f}       : {f:.4f}")
            print(f"correct {c['correct']}  proposed {c['proposed']}  gold {c['gold']}  "
                  f"sentences {c['sentences']}")
            print(res.signature)
        if args.per_type:
            with atomic_output(args.per_type) as fh:
                fh.write(res.type_table(args.beta) + "\n")
        if args.sentences:
            with atomic_output(args.sentences) as fh:
                fh.write("id\tannotator\tcorrect\tproposed\tgold\tp\tr\tf\n")
                for s in res.sentences:
                    fh.write(f"{s['id']}\t{s['annotator']}\t{s['correct']}\t{s['proposed']}\t"
                             f"{s['gold']}\t{s['p']:.4f}\t{s['r']:.4f}\t{s['f']:.4f}\n")
        if args.json:
            with atomic_output(args.json) as fh:
                fh.write(res.to_json() + "\n")
        return 0

    return run(PROG, body, args=args, stdout_to=args.out)


if __name__ == "__main__":
    sys.exit(main())
