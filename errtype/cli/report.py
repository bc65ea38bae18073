"""``errtype report``: one self-contained HTML report (or CSV/Markdown/LaTeX tables) of one or
more systems against an M2 gold.

    errtype report --ref GOLD.m2 --hyp AMU=amu.txt CAMB=camb.m2 -o report.html
    errtype report --src SRC.txt --ref REF1.txt REF2.txt --hyp SYS=sys.txt --format md -o -
    errtype report --ref GOLD.m2 --hyp A=a.txt B=b.txt INPUT=in.txt --baseline INPUT \\
        --types DET 'R:VERB*' 'M:*' --subset len:10-40 -o report.html
    errtype report --config report.toml [--seed 1]

Text systems (tokenised, one sentence per line) are annotated with ``--lang``'s annotator.
Every option may come from a TOML file (``--config``; docs/reports.md); the command line wins.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..textio import atomic_output
from .common import (
    add_backend_options,
    add_edit_gold_options,
    add_realign_option,
    add_unit_option,
    backend_options,
    edit_gold,
    gold_hint,
    new_parser,
    run,
    spellings,
)
from .files import INPUT, NAMED_INPUT, OUTPUT, SVG_FOLDER, text_input

PROG = "errtype report"


def build_parser() -> argparse.ArgumentParser:
    p = new_parser(PROG, "HTML report / tables of GEC systems.")
    p.add_argument(*spellings("ref"), dest="ref", nargs="+", type=INPUT,
                   help="gold M2 file, or corrected texts parallel to --src (required, here "
                        "or in --config)")
    p.add_argument(*spellings("orig", "--src"), dest="src",
                   type=text_input("the gold M2 goes after --ref (it holds the source)"),
                   help="source text, one tokenised sentence per line")
    p.add_argument(*spellings("hyp"), dest="hyp", nargs="+", metavar="NAME=FILE", type=NAMED_INPUT,
                   help="systems: tokenised text or M2 (named by NAME, else the file name; "
                        "required, here or in --config)")
    p.add_argument(*spellings("out"), dest="out", type=OUTPUT, metavar="FILE",
                   help="output file ('-' = standard output; required, here or in --config)")
    p.add_argument("--config", type=INPUT, metavar="FILE",
                   help="read options from a TOML file (keys: the long option names, e.g. "
                        "baseline = \"INPUT\"; [hyp] NAME = FILE); the command line wins")
    p.add_argument("--format", choices=["html", "csv", "md", "tex"], default="html",
                   help="html report (default) or tables as CSV, Markdown or LaTeX")
    p.add_argument("--svg-dir", type=SVG_FOLDER,
                   help="also write every chart (and the heatmap) as a standalone SVG file here")
    p.add_argument("--title", default="errtype report", help="report title")
    p.add_argument("--beta", type=float, default=0.5, help="F beta (default 0.5)")
    p.add_argument("--bootstrap", type=int, default=1000, metavar="N",
                   help="bootstrap resamples (default 1000)")
    p.add_argument("--trials", type=int, default=1000, metavar="N",
                   help="approximate-randomisation trials (default 1000)")
    p.add_argument("--seed", type=int, default=0, help="resampling seed (default 0)")
    a = p.add_argument_group("what is compared")
    a.add_argument("--baseline", metavar="NAME",
                   help="test every other system against this one (paired bootstrap and "
                        "approximate randomisation, Holm over the systems): ERRANT and M2 F, "
                        "detection, success, over-correction, and per type F, type-only F and "
                        "detection (default: every pair, on ERRANT and M2 F)")
    a.add_argument("--types", nargs="+", metavar="SELECTOR",
                   help="error types of the per-type tables, charts, heatmap and tests: "
                        "shell patterns; one starting with M:, R: or U: matches the whole "
                        "type (R:VERB*, M:*), any other the type after its operation (DET = "
                        "M:DET, R:DET, U:DET)")
    a.add_argument("--subset", nargs="+", metavar="SPEC",
                   help="only the sentences every SPEC keeps: len:A-B (source tokens; len:-20, "
                        "len:30-), edits:A-B (gold edits of the annotator with the most; "
                        "edits:0 = unchanged by every annotator), ids:FILE (1-based sentence "
                        "numbers or ranges A-B)")
    a.add_argument("--attribution", nargs="+", metavar="METRIC[:METHOD]",
                   help="per-type tables: also the system edits' contributions to a "
                        "sentence-level metric's score (green, sentm2, scribendi, impara, ...), "
                        "summed per type: METHOD shapley (default; exact up to 13 edits a "
                        "sentence, 1000 sampled orders above, --seed), add or sub "
                        "(gec-metrics' attributors)")
    add_edit_gold_options(a)
    add_unit_option(p)
    add_realign_option(p, "each MultiGEC Markdown essay (--src/--ref/--hyp .md)")
    p.add_argument("--no-maxmatch", action="store_true", help="skip MaxMatch")
    p.add_argument("--no-gleu", action="store_true", help="skip GLEU")
    p.add_argument("-q", "--quiet", action="store_true",
                   help="print nothing on success (default: what was written, and the notes)")
    add_backend_options(p)
    return p


def _config_value(key: str, value: Any, folder: Path) -> Any:
    """A subset ``ids:FILE`` of a config file names a file relative to the file's folder."""
    if key == "subset" and isinstance(value, str) and value.startswith("ids:"):
        path = os.path.expanduser(value[4:])
        return value if os.path.isabs(path) else f"ids:{folder / path}"
    return value


def main(argv: list[str] | None = None) -> int:
    from .config import from_config, unset_namespace

    parser = build_parser()
    args = parser.parse_args(argv, namespace=unset_namespace(parser))
    from_file: list[str] = []

    def complete() -> None:
        from_file.extend(from_config(parser, args, required=("ref", "hyp", "out"),
                                     resolve=_config_value))

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
        options = ReportOptions(beta=args.beta, bootstrap=args.bootstrap, trials=args.trials,
                                seed=args.seed, gleu=not args.no_gleu,
                                maxmatch=not args.no_maxmatch, baseline=args.baseline,
                                types=tuple(args.types or ()), subset=tuple(args.subset or ()),
                                attribution=tuple(args.attribution or ()))
        _check_early(options, args)
        systems = [parse_system_arg(h) for h in args.hyp]
        annotator = None
        opts = backend_options(args)
        if opts:
            from .. import load

            annotator = load(args.lang, **opts)
        inp = load_input(args.ref, systems, src=args.src, lang=args.lang, annotator=annotator,
                         unit=args.unit, realign=args.realign,
                         edit_gold=edit_gold(args))
        inp.notes = [n + gold_hint(n) for n in inp.notes]
        if from_file:
            inp.notes.append(f"options from {args.config}: {', '.join(from_file)}")
        report = build_report(inp, options)
        text = (render_html(report, args.title) if args.format == "html"
                else render_tables(report, args.format))
        with atomic_output(args.out) as fh:
            fh.write(text)
        charts = all_charts(report) if args.svg_dir else {}
        if args.svg_dir:
            folder = Path(args.svg_dir)
            folder.mkdir(parents=True, exist_ok=True)
            for stem, svg in charts.items():
                with atomic_output(folder / f"{stem}.svg") as fh:
                    fh.write(svg)
        sys.stdout.flush()
        if not args.quiet:
            for note in report.notes:
                print(f"{PROG}: note: {note}", file=sys.stderr)
            where = "standard output" if args.out == "-" else args.out
            what = {"html": "HTML report", "csv": "CSV tables", "md": "Markdown tables",
                    "tex": "LaTeX tables"}[args.format]
            sentences = (f"{report.n_sentences} of {report.n_total} sentences"
                         if report.n_sentences != report.n_total
                         else f"{report.n_sentences} sentences")
            k = len(report.systems)
            print(f"{PROG}: wrote {where} ({what}: {k} system{'s' * (k != 1)}, {sentences}, "
                  f"{len(report.types)} error types)", file=sys.stderr)
            if charts:
                print(f"{PROG}: wrote {len(charts)} SVG charts in {args.svg_dir}: "
                      f"{', '.join(f'{s}.svg' for s in charts)}", file=sys.stderr)
        return 0

    return run(PROG, body, args=args, before=complete)


def _check_early(options: Any, args: argparse.Namespace) -> None:
    """Mistakes found before any model is loaded: an F-beta the ERRANT metric does not take, a
    baseline that names no system, a subset spec that does not parse (an ids file is read
    here)."""
    from ..report.select import parse_subset
    from ..score.edits.errant import ErrantMetric
    from ..score.options import check_settings
    from ..score.suite import parse_system_arg

    check_settings("errant", ErrantMetric, {"beta": args.beta}, {"beta": f"--beta {args.beta:g}"})

    names = [parse_system_arg(h)[0] for h in args.hyp]
    if options.baseline is not None and options.baseline not in names:
        raise InputError(f"--baseline {options.baseline!r} is not one of the systems "
                         f"({', '.join(names)})")
    for spec in options.subset:
        parse_subset(spec)
    from ..report.attribution import parse_attribution
    from ..score.registry import get_metric

    for spec in options.attribution:  # an unknown metric or method, a missing extra
        get_metric(parse_attribution(spec)[0])


if __name__ == "__main__":
    raise SystemExit(main())
