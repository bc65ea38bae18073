"""``errtype-compare``: the ERRANT scorer, option- and output-compatible with ``errant_compare``.

The default standard output is byte-identical to errant_compare 3.0.2, except that a ``-NONE-``
correction is a deletion (errant_compare: a literal token; ``--errant-compat`` reads it so).
Extras never change it:
``--json FILE`` / ``--tsv FILE`` write the result (``-`` = standard output, after the tables),
``--signature`` prints the signature line last, ``-o/--out FILE`` writes the tables to FILE, and
text mode (``-orig SRC -hyp_text HYP -ref_text REF [REF ...]``) extracts the edits itself with
``--lang``'s annotator.
"""

from __future__ import annotations

import argparse
import sys

from ..m2 import read_m2
from ..score.edits.errant import ErrantResult, errant_score_text
from ..score.registry import get_metric
from .common import (
    add_backend_options,
    add_encoding_option,
    add_output_option,
    backend_options,
    new_parser,
    run,
    spellings,
)
from .files import OUTPUT, m2_input, text_input

PROG = "errtype-compare"
TEXT_NOT_M2 = "score plain text with -orig SRC -hyp_text HYP -ref_text REF, or annotate it " \
              "first: errtype-m2 -orig SRC -cor HYP -o HYP.m2"
M2_NOT_TEXT = "give M2 files with -hyp HYP.m2 -ref REF.m2"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (single-dash options exactly as errant_compare's)."""
    p = new_parser(
        PROG,
        "Calculate F-scores for error detection and/or correction.\n"
        "Flags let you evaluate at different levels of granularity.",
        formatter_class=argparse.RawTextHelpFormatter,
        usage="%(prog)s [options] (-hyp HYP -ref REF | -orig ORIG -hyp_text HYP "
              "-ref_text REF [REF ...])",
    )
    p.add_argument(*spellings("hyp", "-hyp"), dest="hyp", type=m2_input(TEXT_NOT_M2),
                   help="A hypothesis M2 file.")
    p.add_argument(*spellings("ref", "-ref"), dest="ref", type=m2_input(TEXT_NOT_M2),
                   help="A reference M2 file.")
    p.add_argument("-b", "--beta", type=float, default=0.5,
                   help="Value of beta in F-score. (default: 0.5)")
    p.add_argument("-v", "--verbose", action="store_true", help="Print verbose output.")
    eval_type = p.add_mutually_exclusive_group()
    eval_type.add_argument("-dt", action="store_true",
                           help="Evaluate Detection in terms of Tokens.")
    eval_type.add_argument("-ds", action="store_true", help="Evaluate Detection in terms of Spans.")
    eval_type.add_argument("-cs", action="store_true",
                           help="Evaluate Correction in terms of Spans. (default)")
    eval_type.add_argument("-cse", action="store_true",
                           help="Evaluate Correction in terms of Spans and Error types.")
    p.add_argument("-single", action="store_true",
                   help="Only evaluate single token edits; i.e. 0:1, 1:0 or 1:1")
    p.add_argument("-multi", action="store_true",
                   help="Only evaluate multi token edits; i.e. 2+:n or n:2+")
    p.add_argument("-filt", nargs="+", default=[],
                   help="Do not evaluate the specified error types.")
    p.add_argument("-cat", type=int, choices=[1, 2, 3],
                   help="Show error category scores.\n"
                        "1: Only show operation tier scores; e.g. R.\n"
                        "2: Only show main tier scores; e.g. NOUN.\n"
                        "3: Show all category scores; e.g. R:NOUN.")
    text = p.add_argument_group("text mode (errtype extension: extract the edits first)")
    text.add_argument(*spellings("orig"), dest="orig", type=text_input(M2_NOT_TEXT),
                      help="Source text, one sentence per line (tokenised unless -tok).")
    text.add_argument("-hyp_text", "--hyp-text", dest="hyp_text", type=text_input(M2_NOT_TEXT),
                      help="Hypothesis text, parallel to -orig.")
    text.add_argument("-ref_text", "--ref-text", dest="ref_text", nargs="+",
                      type=text_input(M2_NOT_TEXT),
                      help="Reference text file(s), parallel to -orig; one coder each.")
    text.add_argument("-tok", action="store_true", help="Word tokenise the text.")
    text.add_argument("-lev", action="store_true", help="Align using standard Levenshtein.")
    text.add_argument("-merge", choices=["rules", "all-split", "all-merge", "all-equal"],
                      default="rules", help="Merging strategy (default: rules).")
    add_backend_options(p)
    extra = p.add_argument_group("errtype extensions (the default output is unchanged)")
    add_output_option(extra, "the tables")
    extra.add_argument("--json", metavar="FILE", type=OUTPUT,
                       help="Write the full result (counts, per-sentence, per-type, signature) "
                            "as JSON; '-' = standard output.")
    extra.add_argument("--tsv", metavar="FILE", type=OUTPUT,
                       help="Write per-type P/R/F (at the -cat level, default 3) as TSV; "
                            "'-' = standard output.")
    extra.add_argument("--signature", action="store_true",
                       help="Print the signature line after the tables.")
    extra.add_argument("--errant-compat", action="store_true",
                       help="Read a '-NONE-' correction as the literal token, as errant_compare "
                            "does (default: a deletion, so it matches an empty correction).")
    add_encoding_option(extra)
    return p


def _mode(args: argparse.Namespace) -> str:
    if args.dt:
        return "dt"
    if args.ds:
        return "ds"
    if args.cse:
        return "cse"
    return "cs"


def _write(target: str, text: str) -> None:
    from ..textio import atomic_output  # "-" writes to standard output

    with atomic_output(target) as fh:
        fh.write(text)


def main(argv: list[str] | None = None) -> int:
    """Run the command; returns the exit status (argparse exits with 2 on bad options)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    text_mode = args.orig is not None or args.hyp_text is not None or args.ref_text is not None
    if text_mode:
        if args.hyp is not None or args.ref is not None:
            parser.error("use either -hyp/-ref (M2) or -orig/-hyp_text/-ref_text (text)")
        if not (args.orig and args.hyp_text and args.ref_text):
            parser.error("text mode needs -orig, -hyp_text and -ref_text")
    elif args.hyp is None or args.ref is None:
        parser.error("the following arguments are required: -hyp, -ref")
    metric = get_metric("errant", mode=_mode(args), beta=args.beta, single=args.single,
                        multi=args.multi, filt=args.filt, cat=args.cat,
                        literal_none=args.errant_compat)

    def body() -> int:
        result: ErrantResult
        if text_mode:
            annotator = None  # default: errtype.load(lang), after the files are read
            if backend_options(args):
                from .. import load
                from ..textio import check_line_counts

                check_line_counts([args.orig, args.hyp_text, *args.ref_text])
                annotator = load(args.lang, **backend_options(args))
            result = errant_score_text(args.orig, args.hyp_text, args.ref_text, lang=args.lang,
                                       tokenize=args.tok, lev=args.lev, merging=args.merge,
                                       annotator=annotator,
                                       encoding_errors=args.encoding_errors,
                                       **metric.options(), trace=args.verbose)
        else:
            result = metric.score_blocks(read_m2(args.hyp, errors=args.encoding_errors),
                                         read_m2(args.ref, errors=args.encoding_errors),
                                         hyp_name=args.hyp, ref_name=args.ref,
                                         trace=args.verbose)
        out = result.errant_text(verbose=args.verbose)
        sys.stdout.write(out)
        if args.signature:
            sys.stdout.write(result.signature + "\n")
        if args.json:
            _write(args.json, result.to_json() + "\n")
        if args.tsv:
            _write(args.tsv, result.tsv())
        return 0

    return run(PROG, body, args=args, stdout_to=args.out)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
