"""errtype-m2: parallel text -> M2, or re-annotate an M2 file (ERRANT-compatible options)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..errors import InputError
from ..merge import MAX_RULE_RUN, STRATEGIES
from .common import (
    add_backend_options,
    add_encoding_option,
    add_max_tokens_option,
    add_realign_option,
    backend_options,
    language_options,
    new_parser,
    run,
    spellings,
)
from .files import INPUT, OUTPUT, m2_input, text_input

if TYPE_CHECKING:
    from ..convert import Report
    from ..convert.options import JobOptions

PROG = "errtype-m2"


#: what to do with an M2 file given as text, and with text given as the M2 file
M2_NOT_TEXT = "re-annotate an M2 file with -gold or -auto: errtype-m2 -gold FILE.m2 -o OUT.m2"
TEXT_NOT_M2 = "give parallel text with -orig ORIG -cor COR [COR ...]"
#: --format choices (errtype.convert.table.FORMATS, not imported at start-up)
FORMATS = ("m2", "jsonl", "tsv", "parquet")


def build_parser(prog: str = PROG) -> argparse.ArgumentParser:
    p = new_parser(
        prog,
        "Extract and type edits. Parallel mode: -orig F -cor F [F ...] -o F (one sentence "
        "per line, or MultiGEC Markdown essays, recognised by their content), or "
        "pre-parsed: --conllu-orig F --conllu-cor F [F ...] -o F, or ChERRANT's parallel "
        "format: --para F -o F. M2 mode: (-gold | -auto) M2_FILE -o F.")
    p.add_argument("m2_file", nargs="?", type=m2_input(TEXT_NOT_M2),
                   help="M2 file to re-annotate (with -gold or -auto)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("-gold", action="store_true", help="re-type the gold edits of M2_FILE")
    mode.add_argument("-auto", action="store_true", help="re-extract edits from M2_FILE")
    p.add_argument(*spellings("orig"), dest="orig", type=text_input(M2_NOT_TEXT),
                   help="original text, one sentence per line, or MultiGEC Markdown essays "
                        "('### essay_id = ID' headers; found by content, whatever the name)")
    p.add_argument(*spellings("cor"), dest="cor", nargs="+", type=text_input(M2_NOT_TEXT),
                   help="corrected text file(s), one per annotator (Markdown essays, matched "
                        "by id, when -orig is Markdown)")
    p.add_argument("--para", metavar="F", type=text_input(M2_NOT_TEXT),
                   help="ChERRANT's parallel file: id<TAB>source<TAB>reference 1<TAB>reference "
                        "2 ... (any number of references, none included), one block per line")
    p.add_argument("--conllu-orig", metavar="F", type=INPUT,
                   help="original sentences pre-parsed as CoNLL-U (Stanza, UDPipe, Trankit)")
    p.add_argument("--conllu-cor", nargs="+", metavar="F", type=INPUT,
                   help="corrected sentences as CoNLL-U, one file per annotator (same number "
                        "of sentences as --conllu-orig)")
    p.add_argument(*spellings("out"), dest="out", required=True, type=OUTPUT, metavar="FILE",
                   help="output M2 file ('-' = standard output; -out is ERRANT's spelling); a "
                        "name ending in .md writes the first annotator's corrected text as "
                        "MultiGEC Markdown instead (errtype convert m2-to-multigec)")
    p.add_argument("-tok", action="store_true",
                   help="tokenise the text with the parser (Markdown essays always are)")
    p.add_argument("--unit", choices=("essay", "sentence"), default=None,
                   help="Markdown essays: one M2 block per essay, its tokens on one S line "
                        "(default), or one per sentence-level unit of the realignment")
    add_realign_option(p, "a Markdown essay, or a line of more than one sentence,")
    p.add_argument("-lev", action="store_true", help="plain Levenshtein alignment")
    p.add_argument("-merge", choices=STRATEGIES, default="rules",
                   help="merging strategy (default: rules)")
    p.add_argument("-no_min", action="store_true", help="M2 mode: do not minimise gold edits")
    p.add_argument("-old_cats", action="store_true", help="M2 mode: keep the old edit types")
    p.add_argument("--on-error", choices=("fail", "skip"), default="fail",
                   help="on a sentence that cannot be annotated: stop (default), or write a noop "
                        "block, report it and go on")
    add_max_tokens_option(p)
    p.add_argument("--errant-noop", action="store_true",
                   help="ERRANT's noop rule: a correction differing only in whitespace gets no "
                        "line at all (default: a noop line, so no annotator is lost)")
    p.add_argument("--errant-compat", action="store_true",
                   help="every ERRANT 3.0.2 behaviour errtype changes: --errant-noop; in M2 mode "
                        "'-NONE-' and 'a||b' are literal tokens, edits are applied in span order "
                        "without overlap resolution and written sorted by span, and an annotator "
                        "whose first line is a noop gets only a noop line")
    p.add_argument("--merge-run-limit", type=int, default=MAX_RULE_RUN, metavar="N",
                   help="rule merging examines runs of at most N non-matching tokens at a time "
                        f"(default {MAX_RULE_RUN}; 0 = unbounded, exactly as ERRANT, cubic on "
                        "long rewrites)")
    p.add_argument("--resume", action="store_true",
                   help="write OUT.partial with a checkpoint (OUT.partial.json) and rename it "
                        "to OUT at the end; if a run of the same command died, continue it "
                        "from its last complete batch (output identical to an uninterrupted "
                        "run)")
    p.add_argument("--jobs", "-j", type=int, default=1,
                   help="worker processes (default: 1; the output is the same)")
    p.add_argument("--dask", metavar="ADDRESS",
                   help="parallel mode on a Dask cluster: 'local:N' (N local worker processes) "
                        "or a scheduler address 'tcp://HOST:PORT' (needs errtype[dask]; the "
                        "workers read the input files at the same paths)")
    p.add_argument("--partition-size", type=int, default=2000, metavar="N",
                   help="--dask: lines per partition (default: 2000)")
    add_encoding_option(p)
    p.add_argument("--batch-size", type=int, default=256, help="sentences parsed per batch")
    p.add_argument("--format", choices=FORMATS, default="m2",
                   help="output format: M2 (default), or one row per edit line as JSON lines, "
                        "TSV or Parquet (needs errtype[table]); see docs/formats.md")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar or summary")
    add_backend_options(p)
    return p


def main(argv: list[str] | None = None, prog: str = PROG) -> int:
    """Run errtype-m2 (``prog``: the name in messages, e.g. ``errtype convert``)."""
    parser = build_parser(prog)
    args = parser.parse_args(argv)
    error = _check_modes(args)
    if error:
        parser.error(error)
    parallel = args.orig is not None
    essays = parallel and _essay_input(args, parser)
    error = _check_essay_options(args, essays)
    if error:
        parser.error(error)
    conllu = args.conllu_orig is not None
    para = args.para is not None
    state = {"done": 0, "total": None}

    def note() -> str:
        total = state["total"]
        return f"after {state['done']}" + (f" of {total}" if total else "") + " sentences"

    def body() -> int:
        from .. import load
        from ..convert import m2_block_count, m2_to_m2, parallel_to_m2
        from ..progress import Progress
        from ..textio import check_line_counts

        if language_options(args):  # e.g. a resource --scheme needs: refused before any work
            from ..lang import get_language

            get_language(args.lang, **language_options(args))
        # input problems found without reading the data are reported before the model loads
        if essays:
            from ..essay.multigec import read_multigec

            state["total"] = len(read_multigec(args.orig, args.encoding_errors))
        elif parallel:
            state["total"] = check_line_counts([args.orig, *args.cor])
        elif para:
            from ..textio import count_lines

            state["total"] = None if args.para == "-" else count_lines(args.para)
        elif conllu:
            from ..parse.conllu import check_sentence_counts

            state["total"] = check_sentence_counts([args.conllu_orig, *args.conllu_cor])
        else:
            state["total"] = m2_block_count(args.m2_file)
        options = job_options(args)  # the one options object of this run
        if args.dask:
            return _run_dask(args, options, state, prog)
        if conllu:  # the sentences come parsed: no parser is loaded
            from ..annotator import Annotator
            from ..parse.conllu import PreParsed

            annotator = Annotator(args.lang, parser=PreParsed(), **language_options(args))
        else:
            annotator = load(args.lang, **backend_options(args))
        with Progress(state["total"], prog, enabled=None if not args.quiet else False
                      ) as bar:
            def tick(n: int) -> None:
                state["done"] += n
                bar.update(n)

            if conllu:
                from ..convert import conllu_to_m2

                report = conllu_to_m2(annotator, args.conllu_orig, args.conllu_cor, args.out,
                                      options, progress=tick)
            elif para:
                from ..convert import para_to_m2

                report = para_to_m2(annotator, args.para, args.out, options, progress=tick)
            elif essays:
                from ..convert.essays import essays_to_m2
                from ..essay.multigec import metadata_notes

                for line in metadata_notes(args.orig, args.cor, args.lang):
                    if not args.quiet or line.startswith("warning"):
                        print(f"{prog}: {line}", file=sys.stderr)

                report = essays_to_m2(annotator, args.orig, args.cor, args.out, options,
                                      progress=tick)
            elif parallel:
                report = parallel_to_m2(annotator, args.orig, args.cor, args.out, options,
                                        progress=tick)
            else:
                report = m2_to_m2(annotator, args.m2_file, args.out, options, progress=tick)
        _print_report(args, report, prog)
        return 0

    def tabled() -> int:
        """``body``, its M2 written to a temporary file and turned into ``--format`` (or, for
        an output ending in ``.md``, into MultiGEC Markdown)."""
        if _markdown_out(args):
            return _to_markdown(args, body, essays, prog)
        if args.format == "m2":
            return body()
        import os
        import tempfile

        from ..convert.table import check_format, m2_to_table
        from ..textio import sibling_temporary

        check_format(args.format)  # a missing extra stops here, before any work

        out = args.out
        fd, tmp = tempfile.mkstemp(suffix=".m2") if out == "-" else \
            sibling_temporary(out, ".m2.tmp")
        os.close(fd)
        try:
            args.out = tmp
            code = body()
            args.out = out
            rows = m2_to_table(tmp, out, args.format)
        finally:
            args.out = out
            os.unlink(tmp)
        if not args.quiet:
            print(f"{prog}: wrote {rows} edit rows as {args.format}", file=sys.stderr)
        return code

    def kept() -> str | None:
        from ..convert.checkpoint import PARTIAL, kept_items

        n = kept_items(args.out) if args.resume and args.out != "-" else None
        if n is None:
            return None
        return (f"{n} sentences are kept in {args.out}{PARTIAL}; rerun the same command to "
                "continue")

    return run(prog, tabled, note, kept, args=args)


def _essay_input(args: argparse.Namespace, parser: argparse.ArgumentParser) -> bool:
    """Whether -orig/-cor are MultiGEC Markdown essays (by content); a usage error when only
    some of the files are."""
    from ..essay.multigec import is_multigec

    if not args.cor or args.orig == "-":
        return False
    orig = is_multigec(args.orig)
    for cor in args.cor:
        if cor != "-" and is_multigec(cor) != orig:
            parser.error(f"{args.orig} is {'' if orig else 'not '}MultiGEC Markdown but {cor} "
                         f"is{' not' if orig else ''}: give every -orig/-cor file in one format "
                         "(Markdown essays matched by id, or text with one sentence per line)")
        if cor == "-" and orig:
            parser.error("MultiGEC Markdown corrections must be files, not standard input")
    return orig


def _check_essay_options(args: argparse.Namespace, essays: bool) -> str | None:
    """The usage error of options that do not fit (or need) Markdown essay input."""
    if not essays:
        if args.unit is not None:
            return "--unit applies to MultiGEC Markdown essays (-orig/-cor .md files)"
        return None
    if args.dask:
        return "--dask runs text with one sentence per line, not Markdown essays"
    if args.max_tokens is not None:
        return "--max-tokens does not apply to Markdown essays (they are realigned sentence " \
               "by sentence; --no-realign aligns each as one sentence)"
    if args.errant_noop or args.errant_compat:
        return "--errant-noop/--errant-compat do not apply to Markdown essays (ERRANT has no " \
               "essay input)"
    return None


def _markdown_out(args: argparse.Namespace) -> bool:
    return isinstance(args.out, str) and args.out != "-" and args.out.lower().endswith(".md")


def _to_markdown(args: argparse.Namespace, body: Callable[[], int], essays: bool,
                 prog: str) -> int:
    """``body`` writing M2 to a temporary file, then annotator 0's corrected essays written to
    ``args.out`` as MultiGEC Markdown by :func:`errtype.convert.multigec.m2_to_multigec` (essay
    ids from the orig file for Markdown input, else 1..n; a block without annotator 0 leaves
    its essay out, as the correction file did)."""
    import os

    from ..convert.multigec import m2_to_multigec, read_ids
    from ..textio import sibling_temporary

    if args.format != "m2":
        raise InputError(f"an output ending in .md is MultiGEC Markdown, not --format "
                         f"{args.format}", path=args.out)
    if args.unit == "sentence":
        raise InputError("-o X.md writes one essay per M2 block: use --unit essay",
                         path=args.out)
    if args.resume:
        raise InputError("--resume writes M2: resume to OUT.m2, then errtype convert "
                         "m2-to-multigec OUT.m2 -o OUT.md", path=args.out)
    out = args.out
    fd, tmp = sibling_temporary(out, ".m2.tmp")
    os.close(fd)
    try:
        args.out = tmp
        code = body()
        args.out = out
        ids = read_ids(args.orig, args.encoding_errors) if essays else None
        written, left = m2_to_multigec(tmp, out, ids=ids, encoding_errors=args.encoding_errors)
    finally:
        args.out = out
        os.unlink(tmp)
    if not args.quiet:
        print(f"{prog}: wrote {written} essays as MultiGEC Markdown"
              + (f" ({left} without annotator 0 left out)" if left else ""), file=sys.stderr)
    return code


def _check_modes(args: argparse.Namespace) -> str | None:
    """The usage error of an inconsistent set of mode options, if any."""
    parallel = args.orig is not None or args.cor is not None
    conllu = args.conllu_orig is not None or args.conllu_cor is not None
    para = args.para is not None
    m2 = args.gold or args.auto or args.m2_file
    if sum(map(bool, (parallel, conllu, para, m2))) > 1:
        return "use one of -orig/-cor, --para, --conllu-orig/--conllu-cor or -gold/-auto " \
               "M2_FILE"
    try:
        language_options(args)
    except InputError as exc:
        return str(exc)
    if parallel and not (args.orig and args.cor):
        return "parallel mode needs both -orig and -cor"
    if conllu and not (args.conllu_orig and args.conllu_cor):
        return "CoNLL-U mode needs both --conllu-orig and --conllu-cor"
    if not (parallel or conllu or para) and not ((args.gold or args.auto) and args.m2_file):
        return "give -orig/-cor files, a --para file, --conllu-orig/--conllu-cor files, or " \
               "-gold/-auto with an M2 file"
    if conllu and args.tok:
        return "-tok does not apply to pre-parsed CoNLL-U input"
    if args.dask and not parallel:
        return "--dask runs parallel mode (-orig/-cor) only"
    if para and args.tok:
        return "-tok does not apply to --para (the language segments its text)"
    if args.dask and args.jobs != 1:
        return "use either --dask or --jobs"
    if args.jobs < 1:
        return "--jobs must be at least 1"
    if args.merge_run_limit < 0:
        return "--merge-run-limit must be at least 0"
    if args.resume and args.out == "-":
        return "--resume needs an output file (-o FILE), not standard output"
    if args.resume and args.format != "m2":
        return (f"--resume writes M2; resume to M2, then convert it: errtype convert "
                f"m2-to-table OUT.m2 -o OUT.{args.format} --format {args.format}")
    if args.format == "parquet" and args.out == "-":
        return "--format parquet needs an output file (-o FILE), not standard output"
    return None


def _print_report(args: argparse.Namespace, report: Report, prog: str = PROG) -> None:
    for line, reason in report.skipped:
        print(f"{prog}: skipped line {line}: {reason}", file=sys.stderr)
    if not args.quiet:
        print(f"{prog}: {report.summary()}", file=sys.stderr)


def job_options(args: argparse.Namespace) -> JobOptions:
    """The one :class:`~errtype.convert.options.JobOptions` of a run, from its command line:
    built here once and handed to whichever producer the mode runs."""
    from ..convert.options import JobOptions

    return JobOptions(
        lev=args.lev, merging=args.merge, tokenize=args.tok, on_error=args.on_error,
        max_tokens=args.max_tokens, merge_run_limit=args.merge_run_limit,
        batch_size=args.batch_size, errant_noop=args.errant_noop or args.errant_compat,
        errant_compat=args.errant_compat, encoding_errors=args.encoding_errors,
        jobs=args.jobs, resume=args.resume, mode="gold" if args.gold else "auto",
        minimise=not args.no_min, old_cats=args.old_cats, realign=args.realign,
        unit=args.unit or "essay")


def _run_dask(args: argparse.Namespace, options: JobOptions, state: dict,
              prog: str = PROG) -> int:
    from ..convert.dask import Settings, parallel_to_m2_dask
    from ..progress import Progress

    settings = Settings.make(args.lang, backend_options(args), options)
    with Progress(state["total"], prog, enabled=None if not args.quiet else False
                  ) as bar:
        def tick(n: int) -> None:
            state["done"] += n
            bar.update(n)

        report = parallel_to_m2_dask(args.dask, args.orig, args.cor, args.out, settings,
                                     partition_size=args.partition_size, progress=tick)
    _print_report(args, report, prog)
    return 0


def errant_main(argv: list[str] | None = None) -> int:
    """The ERRANT drop-in commands (``errant_parallel``, ``errant_m2``): :func:`main` aligning a
    line of several sentences as one sequence, as ERRANT does (``--no-realign``)."""
    return main(["--no-realign", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    raise SystemExit(main())
