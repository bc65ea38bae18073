"""errtype convert: M2 -> parallel text per annotator, M2 -> JSON lines, parallel text -> M2,
parallel text or M2 -> GECToR edit tags, and back.

  errtype convert m2-to-text IN.m2 -o PREFIX     PREFIX.orig + PREFIX.cor.<annotator id>
  errtype convert m2-to-json IN.m2 -o OUT.jsonl  one JSON object per block, character offsets
  errtype convert m2-to-table IN.m2 -o OUT --format jsonl|tsv|parquet   one row per edit line
  errtype convert text-to-m2 ORIG COR [COR ...] -o OUT.m2 [errtype-m2 options]
  errtype convert m2-to-cherrant IN.m2 -o OUT.m2  standard M2 -> ChERRANT's dialect (T lines)
  errtype convert cherrant-to-m2 IN.m2 -o OUT.m2  ChERRANT's dialect -> standard M2
  errtype convert parallel-to-gector -orig SRC -cor TGT -o OUT   GECToR's preprocess_data.py
  errtype convert parallel-to-gector --from-m2 IN.m2 -o OUT      tags from the M2's edits
  errtype convert gector-to-text TAGS -o OUT                     tags -> corrected text
  errtype convert m2-to-multigec ESSAYS.m2 -o OUT.md [--annotator N] [--ids ORIG.md]
                                 essay-level M2 (a block per essay) -> MultiGEC Markdown essays
  errtype convert multigec-to-text ESSAYS.md -o OUT.txt [--align ORIG.md]
                                 MultiGEC Markdown -> one essay per line (newlines as tabs)
  errtype convert bea-json-to-m2 IN.json -o OUT.m2 [--auto|--keep-codes]   BEA-2019 JSON -> M2
  errtype convert uagec-to-m2 IN.ann [IN.ann ...] -o OUT.m2      UA-GEC annotated text -> M2
"""

from __future__ import annotations

import argparse
import sys

from .common import (
    add_backend_options,
    add_encoding_option,
    add_max_tokens_option,
    backend_options,
    describe,
    details,
    new_parser,
    run,
    spellings,
)
from .files import INPUT, OUTPUT, m2_input, path_type, text_input

PROG = "errtype convert"
TEXT_NOT_M2 = "convert parallel text with: errtype convert text-to-m2 ORIG COR -o OUT.m2"
#: m2-to-text's output: PREFIX.orig and PREFIX.cor.<annotator id>
PREFIX = path_type("prefix", writes=(".orig", ".cor.*"))


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
        s.add_argument(*spellings("out"), dest="out", required=True, type=kind, metavar="FILE",
                       help=what)
        s.add_argument("--missing", choices=("first", "empty"), default="first",
                       help="an annotator absent from a block: same as the block's first "
                            "annotator (default, the CoNLL-2014 convention) or no correction")
        s.add_argument("--errant-compat", action="store_true",
                       help="apply edits as ERRANT 3.0.2 does ('-NONE-' and 'a||b' literal, no "
                            "overlap resolution) instead of the m2scorer reading")
        add_encoding_option(s)
        s.add_argument("--quiet", "-q", action="store_true", help="no summary on standard error")
    for name, what in (("m2-to-cherrant", "standard M2 -> ChERRANT's M2 dialect: a 'T{i}-A0' "
                                          "line with the corrected tokens before each "
                                          "annotator's edits"),
                       ("cherrant-to-m2", "ChERRANT's M2 dialect -> standard M2")):
        s = sub.add_parser(name, help=what.split(":")[0], description=what)
        s.add_argument("m2_file", type=m2_input(TEXT_NOT_M2),
                       help="M2 file, either dialect ('-' = standard input)")
        s.add_argument(*spellings("out"), dest="out", required=True, type=OUTPUT, metavar="FILE",
                       help="output M2 file ('-' = standard output)")
        if name == "cherrant-to-m2":
            s.add_argument("--alternatives", choices=("first", "split"), default="first",
                           help="a reference's equal-cost edit sequences (T{i}-A{j}): keep the "
                                "first, annotator id = reference index (default), or make each "
                                "an annotator of its own")
        add_encoding_option(s)
        s.add_argument("--quiet", "-q", action="store_true", help="no summary on standard error")
    tb = sub.add_parser("m2-to-table", help="M2 -> one row per edit line (JSONL, TSV, Parquet)",
                        description="M2 -> one row per edit line: sentence, annotator, span, "
                                    "original and corrected text, type and its parts; noops "
                                    "included (see docs/formats.md)")
    tb.add_argument("m2_file", type=m2_input(TEXT_NOT_M2), help="M2 file ('-' = standard input)")
    tb.add_argument(*spellings("out"), dest="out", required=True, type=OUTPUT, metavar="FILE",
                    help="output file ('-' = standard output, not for parquet)")
    tb.add_argument("--format", required=True, choices=("jsonl", "tsv", "parquet"),
                    help="JSON lines, TSV with a header, or Parquet (needs errtype[table])")
    add_encoding_option(tb)
    tb.add_argument("--quiet", "-q", action="store_true", help="no summary on standard error")
    t = sub.add_parser("text-to-m2", help="parallel text -> M2 (errtype-m2 -orig/-cor)",
                       description="parallel text -> M2; every other option is errtype-m2's "
                                   "(--lang, -tok, -lev, -merge, -j, ...)")
    m2_hint = "an M2 file is converted with m2-to-text or m2-to-json"
    t.add_argument("orig", type=text_input(m2_hint), help="original text, one sentence per line")
    t.add_argument("cors", nargs="+", type=text_input(m2_hint),
                   help="corrected text file(s), one per annotator")
    t.add_argument(*spellings("out"), dest="out", required=True, type=OUTPUT, metavar="FILE",
                   help="output M2 file ('-' = standard output)")
    _gector_parsers(sub)
    _multigec_parsers(sub)
    _corpus_parsers(sub)
    return p


MD_HINT = "a MultiGEC Markdown file is turned into text with: errtype convert multigec-to-text"


def _multigec_parsers(sub: argparse._SubParsersAction) -> None:
    m = sub.add_parser(
        "m2-to-multigec", help="essay-level M2 -> MultiGEC Markdown essays",
        description="Essay-level M2 (one block per essay, its S line the whole essay's tokens) "
                    "-> an annotator's corrected essays in MultiGEC-2025's Markdown format "
                    "(### essay_id = ID lines; see docs/formats.md). The corrected tokens are "
                    "joined by spaces.")
    m.add_argument("m2_file", type=m2_input(MD_HINT), help="M2 file ('-' = standard input)")
    m.add_argument(*spellings("out"), dest="out", required=True, type=OUTPUT, metavar="FILE",
                   help="output Markdown file ('-' = standard output)")
    m.add_argument("--annotator", type=int, default=0, metavar="ID",
                   help="whose corrections (default: 0)")
    m.add_argument("--ids", type=INPUT, metavar="FILE.md",
                   help="take the essay ids, in block order, from this MultiGEC file (e.g. "
                        "the orig file the M2 was made from; default: 1, 2, ...)")
    m.add_argument("--missing", choices=("skip", "first", "orig"), default="skip",
                   help="a block without --annotator's edit lines: leave the essay out "
                        "(default, as MultiGEC reference files lack essays), use the block's "
                        "first annotator (errtype's M2 convention) or write it unchanged")
    m.add_argument("--errant-compat", action="store_true",
                   help="apply edits as ERRANT 3.0.2 does ('-NONE-' and 'a||b' literal, no "
                        "overlap resolution) instead of the m2scorer reading")
    t = sub.add_parser(
        "multigec-to-text", help="MultiGEC Markdown essays -> one essay per line",
        description="MultiGEC-2025 Markdown essays -> one essay per line, as the official "
                    "evaluation's utils_transform_markdown_to_one_essay_per_line.py writes them: "
                    "a newline inside an essay becomes a tab (--newline), and with --align the "
                    "lines follow an orig file's essays, a missing essay written as '!'.")
    t.add_argument("md_file", type=INPUT, help="MultiGEC Markdown file ('-' = standard input)")
    t.add_argument(*spellings("out"), dest="out", required=True, type=OUTPUT, metavar="FILE",
                   help="output text file ('-' = standard output)")
    t.add_argument("--align", type=INPUT, metavar="ORIG.md",
                   help="write the essays in this orig file's order; an essay MD_FILE lacks is "
                        "'!' (the official scorer's choice for a hypothesis), an essay ORIG.md "
                        "lacks is an error")
    t.add_argument("--newline", choices=("tab", "space"), default="tab",
                   help="a newline inside an essay: a tab (default; the official script's "
                        "replace) or a space (what the official syntok pretokenisation, run "
                        "before that replace, leaves)")
    t.add_argument("--ids-out", type=OUTPUT, metavar="FILE",
                   help="also write each line's essay id, one per line")
    for s in (m, t):
        add_encoding_option(s)
        s.add_argument("--quiet", "-q", action="store_true", help="no summary on standard error")


def _multigec(args: argparse.Namespace) -> str:
    """Run a MultiGEC subcommand; the summary to print."""
    from .. import m2
    from ..convert.multigec import m2_to_multigec, multigec_to_text, read_ids
    from ..errors import InputError
    from ..essay import is_multigec

    if args.command == "m2-to-multigec":
        ids = None if args.ids is None else read_ids(args.ids, args.encoding_errors)
        written, skipped = m2_to_multigec(
            args.m2_file, args.out, annotator=args.annotator, ids=ids, missing=args.missing,
            rules=m2.ERRANT if args.errant_compat else m2.M2SCORER,
            encoding_errors=args.encoding_errors)
        left = f", {skipped} without annotator {args.annotator} left out" if skipped else ""
        return f"wrote {args.out} ({written} essays{left})"
    for path in (args.md_file, args.align):
        if path is not None and path != "-" and not is_multigec(path) and m2_sniff(path):
            raise InputError("this is an M2 file, not MultiGEC Markdown; convert it with: "
                             "errtype convert m2-to-multigec", path=str(path))
    lines, missing = multigec_to_text(args.md_file, args.out, align=args.align,
                                      newline=args.newline, ids_out=args.ids_out,
                                      encoding_errors=args.encoding_errors)
    note = f", {missing} missing essays written as '!'" if missing else ""
    return f"wrote {args.out} ({lines} essays{note})"


def m2_sniff(path: str) -> bool:
    """Whether the start of ``path`` reads as M2."""
    from ..m2 import sniff_m2
    from ..textio import read_head

    return sniff_m2(read_head(path)) is True


def _corpus_parsers(sub: argparse._SubParsersAction) -> None:
    b = sub.add_parser(
        "bea-json-to-m2", help="BEA-2019 JSON (W&I+LOCNESS, FCE) -> M2",
        description="BEA-2019's JSON release of W&I+LOCNESS and FCE (one essay per line, edits "
                    "as character offsets per annotator) -> M2, one block per sentence; the "
                    "edits are typed by errtype's classifier (see docs/formats.md)")
    b.add_argument("json_file", type=INPUT, help="JSON lines file, one essay per line")
    b.add_argument(*spellings("out"), dest="out", required=True, type=OUTPUT, metavar="FILE",
                   help="output M2 file ('-' = standard output)")
    mode = b.add_mutually_exclusive_group()
    mode.add_argument("--gold-spans", dest="mode", action="store_const", const="gold",
                      help="keep the annotators' edit spans and type them (default)")
    mode.add_argument("--auto", dest="mode", action="store_const", const="auto",
                      help="extract the edits from each corrected sentence automatically")
    b.add_argument("--no-min", action="store_true",
                   help="--gold-spans: do not minimise the edits (as errtype-m2 -no_min)")
    b.add_argument("--keep-codes", action="store_true",
                   help="--gold-spans: type the edits by the file's own error codes (FCE's CLC "
                        "codes, the fourth field of an edit; NA where absent) instead of "
                        "errtype's classifier")
    add_backend_options(b)
    add_encoding_option(b)
    b.add_argument("--quiet", "-q", action="store_true", help="no summary on standard error")
    u = sub.add_parser(
        "uagec-to-m2", help="UA-GEC annotated text (.ann) -> M2",
        description="UA-GEC's annotated documents ({source=>correction:::error_type=T}) -> "
                    "M2, one block per sentence, the corpus's error types kept; NNNN.aK.ann "
                    "files of one document become its annotators K-1 (see docs/formats.md)")
    u.add_argument("ann_files", nargs="+", type=INPUT, metavar="ANN",
                   help="annotated files, e.g. data/gec-only/test/annotated/*.ann")
    u.add_argument(*spellings("out"), dest="out", required=True, type=OUTPUT, metavar="FILE",
                   help="output M2 file ('-' = standard output)")
    add_backend_options(u)
    for action in u._actions:  # the language's parser only tokenises here, and only if asked
        if action.dest == "lang":
            action.default = None
            action.help = ("tokenise with this language's parser (errtype.load, with the "
                           "options below); default: words and punctuation marks, no model "
                           "needed")
    add_encoding_option(u)
    u.add_argument("--quiet", "-q", action="store_true", help="no summary on standard error")


def _corpus(args: argparse.Namespace) -> str:
    """Run a corpus-reader subcommand; the summary to print."""
    from .. import load

    if args.command == "bea-json-to-m2":
        from ..corpora.bea_json import bea_json_to_m2, read_bea_json

        if args.json_file != "-":  # a malformed record is reported before a model is loaded
            for _ in read_bea_json(args.json_file, args.encoding_errors):
                pass
        annotator = load(args.lang, **backend_options(args))
        r = bea_json_to_m2(annotator, args.json_file, args.out, args.mode or "gold",
                           minimise=not args.no_min, keep_codes=args.keep_codes,
                           encoding_errors=args.encoding_errors)
        dropped = f"; {r.dropped} edits across a paragraph break left out" if r.dropped else ""
        return f"wrote {args.out} ({r.essays} essays, {r.blocks} blocks{dropped})"
    from ..corpora.spans import parser_tokenizer, simple_tokenize
    from ..corpora.uagec import uagec_to_m2

    tokenize = simple_tokenize
    if args.lang is not None:
        annotator = load(args.lang, **backend_options(args))
        tokenize = parser_tokenizer(lambda t: annotator.parse(t, True).texts)
    docs, blocks = uagec_to_m2(args.ann_files, args.out, tokenize,
                               encoding_errors=args.encoding_errors)
    return f"wrote {args.out} ({docs} documents, {blocks} blocks)"


def _gector_parsers(sub: argparse._SubParsersAction) -> None:
    g = sub.add_parser(
        "parallel-to-gector", help="parallel text or M2 -> GECToR edit tags",
        description="Parallel text -> the labelled format of GECToR's utils/preprocess_data.py "
                    "(byte-identical given the same --verb-vocab; the pairs GECToR leaves out "
                    "are left out and counted on standard error), or, with --from-m2, tags "
                    "from the edits of an M2 file (see docs/training.md).")
    hint = "an M2 file is tagged with --from-m2 FILE.m2"
    g.add_argument(*spellings("orig"), dest="orig", type=text_input(hint),
                   help="original text, one sentence per line")
    g.add_argument(*spellings("cor"), dest="cor", type=text_input(hint),
                   help="corrected text, one sentence per line")
    g.add_argument("--from-m2", metavar="M2", type=m2_input(TEXT_NOT_M2),
                   help="tag the corrections of this M2 file with the spans of its edits "
                        "instead of GECToR's difflib alignment of -orig and -cor")
    g.add_argument("--annotator", type=int, metavar="ID",
                   help="--from-m2: only this annotator's corrections (default: one line per "
                        "block and annotator)")
    g.add_argument(*spellings("out"), dest="out", required=True, type=OUTPUT, metavar="FILE",
                   help="output tag file ('-' = standard output)")
    g.add_argument("--keep-untaggable", action="store_true",
                   help="write a line for every pair, also those GECToR's script leaves out "
                        "(empty lines, tags that do not read back to the correction)")
    add_max_tokens_option(g, "pairs", "whitespace tokens, as GECToR's; --keep-untaggable "
                                     "writes a skipped pair with $KEEP labels only")
    g.add_argument("--jobs", "-j", type=int, default=1,
                   help="worker processes (default: 1; the output is the same)")
    t = sub.add_parser("gector-to-text", help="GECToR edit tags -> corrected text",
                       description="GECToR tag lines -> the corrected sentences, as GECToR's "
                                   "preprocess_data.py reads its tags back")
    t.add_argument("tags", type=INPUT, help="tag file, one tagged sentence per line")
    t.add_argument(*spellings("out"), dest="out", required=True, type=OUTPUT, metavar="FILE",
                   help="corrected text ('-' = standard output)")
    t.add_argument("--source-out", type=OUTPUT, metavar="FILE",
                   help="also write the source tokens of every line to FILE")
    for s in (g, t):
        s.add_argument("--verb-vocab", type=INPUT, metavar="FILE",
                       help="verb-form vocabulary (GECToR's data/verb-form-vocab.txt format; "
                            "default: errtype's, generated from LemmInflect)")
        add_encoding_option(s)
        s.add_argument("--quiet", "-q", action="store_true", help="no summary on standard error")


def _gector(args: argparse.Namespace) -> str:
    """Run a GECToR subcommand; the summary to print."""
    from ..convert.gector import VerbForms
    from ..convert.gector_files import gector_to_text, m2_to_gector, parallel_to_gector

    verbs = None if args.verb_vocab is None else VerbForms.read(args.verb_vocab)
    if args.command == "gector-to-text":
        n = gector_to_text(args.tags, args.out, source_out=args.source_out, verbs=verbs,
                           encoding_errors=args.encoding_errors)
        return f"wrote {args.out} ({n} lines)"
    opts = dict(verbs=verbs, keep_untaggable=args.keep_untaggable, jobs=args.jobs,
                encoding_errors=args.encoding_errors, max_tokens=args.max_tokens)
    if args.from_m2 is not None:
        report = m2_to_gector(args.from_m2, args.out, annotator=args.annotator, **opts)
    else:
        report = parallel_to_gector(args.orig, args.cor, args.out, **opts)
    return f"wrote {args.out}: {report.summary()}"


def _usage(args: argparse.Namespace) -> str | None:
    if args.command == "bea-json-to-m2" and (args.no_min or args.keep_codes) \
            and args.mode == "auto":
        return "--no-min and --keep-codes apply to --gold-spans"
    if args.command == "uagec-to-m2" and args.lang is None and any(
            getattr(args, k) for k in ("spacy_model", "udpipe_model", "blis", "feats",
                                       "granularity", "scheme", "no_simplified")):
        return "the language and backend options need --lang (the parser that tokenises)"
    if args.command == "m2-to-table" and args.format == "parquet" and args.out == "-":
        return "--format parquet needs an output file (-o FILE), not standard output"
    if args.command != "parallel-to-gector":
        return None
    if args.from_m2 is not None and (args.orig or args.cor):
        return "give either -orig and -cor, or --from-m2"
    if args.from_m2 is None and not (args.orig and args.cor):
        return "give -orig and -cor (or --from-m2 FILE.m2)"
    if args.annotator is not None and args.from_m2 is None:
        return "--annotator applies to --from-m2"
    if args.jobs < 1:
        return "--jobs must be at least 1"
    return None


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
    if error := _usage(args):
        parser.error(error)

    def body() -> int:
        if args.command == "m2-to-table":
            from ..convert.table import check_format, m2_to_table

            check_format(args.format)
            n = m2_to_table(args.m2_file, args.out, args.format,
                            encoding_errors=args.encoding_errors)
            if not args.quiet:
                print(f"{PROG}: wrote {args.out} ({n} rows)", file=sys.stderr)
            return 0
        if args.command in ("bea-json-to-m2", "uagec-to-m2"):
            summary = _corpus(args)
            if not args.quiet:
                print(f"{PROG} {args.command}: {summary}", file=sys.stderr)
            return 0
        if "multigec" in args.command:
            summary = _multigec(args)
            if not args.quiet or "left out" in summary or "missing" in summary:
                print(f"{PROG} {args.command}: {summary}", file=sys.stderr)
            return 0
        if "gector" in args.command:
            summary = _gector(args)
            if not args.quiet or "left out" in summary or "skipped" in summary:
                print(f"{PROG} {args.command}: {summary}", file=sys.stderr)
            return 0
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
