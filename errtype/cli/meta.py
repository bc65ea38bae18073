"""``errtype-meta``: meta-evaluation of metrics against human judgments.

    errtype-meta ew JUDGMENTS.xml
    errtype-meta ts JUDGMENTS.xml [--runs 20] [--seed 0]
    errtype-meta seeda SEEDA_DIR --ref official-2014.combined.m2 -m m2 sentm2 errant gleu ...
                       [--sets base +INPUT +fluent all] [--window 4] [--json OUT.json]
                       [--aggregation default|trueskill|expected_wins] [--plots DIR]
    errtype-meta gmeg --data GMEG/data [--split test] [--domain fce|wiki|yahoo] -m errant m2 gleu
                      [--synthetic 674] [--samples 100] [--seed 0] [--tsv] [--plots DIR]
    errtype-meta system --human HUMAN (--metric FILE | --json-results RESULTS.json ... |
                        --scribendi SOURCE SYSTEM ... | --m2 GOLD.m2 SYSTEM ...) [--bootstrap 100]
    errtype-meta sentence --judgments JUDGMENTS.xml (--json-results RESULTS.json ... |
                          --scribendi SOURCE SYSTEM ... | --m2 GOLD.m2 SYSTEM ...)
    errtype-meta textlevel --data RATINGS [RATINGS ...] -m gleu green maxmatch ... | all
                           [--rater NAME ...] [--lang sv] [--udpipe-model PATH] [--tsv]

SEEDA_DIR is a checkout of tmu-nlp/SEEDA: the metrics are computed on its judged subset with
the CoNLL-2014 gold and correlated with SEEDA-S and SEEDA-E (TrueSkill and ExpectedWins) over
its system sets, at system and sentence level, as SEEDA's own scripts do.

textlevel reads the ratings of the gec-evaluation annotation tool (Östling et al. 2024:
robertostling/gec-evaluation's Swedish sentences, harisont/text-level-gec-evaluation's Swedish
essays): RATINGS is a rater's JSON file, or a folder of the rater files of the same items. Each
item (a sentence or a whole text, scored as one line) is scored against its reference, and the
metrics are correlated with the mean ratings (Grammaticality, Fluency, Meaning Preservation,
1-4; NLD, lower is better) at system and item level. A metric that cannot run is listed with
the reason.

GMEG is GMEG-Data's data/ folder (github.com/grammarly/GMEG): the protocol of Napoles et al.
(TACL 2019) per domain, the six systems and 674 seeded hybrids of them, r and ρ with a bootstrap,
the Williams test between the metrics and a β sweep of each F-measure (docs/meta-evaluation.md).

HUMAN is a score file (``system value ...`` rows, a TSV with a header, or JSON) or a ranking XML
(ExpectedWins is then computed). Computed metrics name each system by its file name.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..score.common import signature
from ..score.meta.correlation import (
    aggregate_fscore,
    aggregate_mean,
    aggregate_sum,
    bootstrap_system_correlation,
    expected_wins,
    read_judgments,
    read_scores,
    sentence_agreement,
    sentence_stats_from_json,
    system_correlation,
)
from ..score.meta.gmeg import DOMAINS
from ..textio import atomic_output
from .common import (
    add_backend_options,
    add_output_option,
    describe,
    details,
    new_parser,
    run,
    spellings,
)
from .files import INPUT, INPUT_TREE, OUTPUT, SVG_FOLDER, m2_input, text_input

PROG = "errtype-meta"
M2_NOT_TEXT = "--scribendi takes plain text (SOURCE SYSTEM ...); an M2 gold goes after --m2"


def build_parser() -> argparse.ArgumentParser:
    p = new_parser(PROG, describe(__doc__), formatter_class=argparse.RawDescriptionHelpFormatter,
                   epilog=details(__doc__))
    sub = p.add_subparsers(dest="command", required=True)

    ew = sub.add_parser("ew", help="ExpectedWins of the systems in a ranking XML",
                        description="ExpectedWins of the systems in a ranking XML")
    ew.add_argument("judgments", type=INPUT, help="ranking XML (WMT/Appraise judgments)")
    add_output_option(ew, "the table")
    ew.add_argument("--json", metavar="FILE", type=OUTPUT,
                    help="write the scores as JSON (- = stdout)")

    ts = sub.add_parser("ts", help="TrueSkill of the systems in a ranking XML",
                        description="TrueSkill of the systems in a ranking XML (mean skill "
                                    "averaged over seeded shuffles of the comparisons)")
    ts.add_argument("judgments", type=INPUT, help="ranking XML (WMT/Appraise judgments)")
    ts.add_argument("--runs", type=int, default=20, help="shuffled passes averaged (default 20)")
    ts.add_argument("--seed", type=int, default=0, help="seed of the first shuffle (default 0)")
    add_output_option(ts, "the table")
    ts.add_argument("--json", metavar="FILE", type=OUTPUT,
                    help="write the scores as JSON (- = stdout)")

    sd = sub.add_parser("seeda", help="meta-evaluate metrics on SEEDA (Kobayashi et al. 2024)",
                        description="Compute metrics on SEEDA's judged subset and correlate "
                                    "them with its human scores.")
    sd.add_argument("seeda", type=INPUT_TREE,
                    help="a checkout of github.com/tmu-nlp/SEEDA (a folder)")
    sd.add_argument(*spellings("ref"), dest="ref", required=True, type=m2_input(
        "give the CoNLL-2014 gold M2 (official-2014.combined.m2)"),
        help="the gold M2 of the whole CoNLL-2014 test set")
    sd.add_argument("-m", "--metrics", nargs="+", required=True, metavar="METRIC",
                    help="metrics of the registry (errtype score --list)")
    sd.add_argument("--sets", nargs="+", default=["base", "+INPUT", "+fluent", "all"],
                    help="system sets (default: base +INPUT +fluent all)")
    sd.add_argument("--window", type=int, default=None, metavar="N",
                    help="also the window analysis with N systems (base set)")
    sd.add_argument("--aggregation", choices=["default", "trueskill", "expected_wins"],
                    default="default",
                    help="system scores: the metrics' corpus scores (default), or each set's "
                         "systems ranked by TrueSkill or ExpectedWins over sentence-level "
                         "comparisons of the metric's sentence scores (Goto et al. 2025)")
    sd.add_argument("--plots", metavar="DIR", type=SVG_FOLDER,
                    help="write SVG charts to DIR: the window analysis against each human "
                         "score (with --window) and each metric's pairwise analysis (sentence "
                         "agreement per pair of human ranks, first set of --sets)")
    sd.add_argument("--ties", choices=["seeda", "disagree"], default="seeda",
                    help="a metric tie at sentence level: as SEEDA's script counts it (a "
                         "preference for the system later in its order), or a disagreement")
    sd.add_argument("--edit-gold", choices=["m2", "auto", "retype"], default="auto",
                    help="gold edits of errant/senterrant/goto (default auto, as SEEDA's)")
    add_output_option(sd, "the tables")
    sd.add_argument("--json", metavar="FILE", type=OUTPUT,
                    help="write every number as JSON (- = stdout)")

    tl = sub.add_parser("textlevel", help="meta-evaluate metrics on gec-evaluation ratings "
                                          "(Östling et al. 2024; Swedish sentences or texts)",
                        description="Compute metrics on the items of gec-evaluation rater "
                                    "files and correlate them with the mean ratings.")
    tl.add_argument("--data", nargs="+", required=True, metavar="RATINGS", type=INPUT_TREE,
                    help="a rater's JSON file, or a folder of the JSON files of several raters "
                         "of the same items (several are concatenated)")
    tl.add_argument("-m", "--metrics", nargs="+", required=True, metavar="METRIC",
                    help="metrics of the registry (errtype score --list), or all")
    tl.add_argument("--rater", nargs="+", metavar="NAME",
                    help="only these raters' ratings (default: every rater)")
    add_backend_options(tl)
    for action in tl._actions:
        if action.dest == "lang":
            action.default = "sv"
            action.help = ("language of the texts, for the metrics that extract edits "
                           "(default: sv); any code of a UD language works")
    tl.add_argument("--tsv", action="store_true",
                    help="print only the correlation table, one metric and human measure a "
                         "row (a metric that cannot run: NaN values and the reason)")
    add_output_option(tl, "the tables")
    tl.add_argument("--json", metavar="FILE", type=OUTPUT,
                    help="write every number as JSON (- = stdout)")

    gm = sub.add_parser("gmeg", help="meta-evaluate metrics on GMEG-Data (Napoles et al. 2019)",
                        description="Correlate registry metrics with GMEG-Data's human scores "
                                    "per domain, with hybrid synthetic systems, a bootstrap, "
                                    "the Williams test and a beta sweep.")
    gm.add_argument("--data", required=True, metavar="PATH", type=INPUT_TREE,
                    help="GMEG-Data's data/ folder (holding dev/ and test/; git clone "
                         "https://github.com/grammarly/GMEG)")
    gm.add_argument("--split", choices=["dev", "test"], default="test",
                    help="split (default test)")
    gm.add_argument("--domain", action="append", choices=list(DOMAINS), default=None,
                    help="a domain (repeatable; default every domain whose texts are there)")
    gm.add_argument("-m", "--metric", "--metrics", dest="metrics", nargs="+", action="extend",
                    metavar="METRIC", default=None,
                    help="registry metrics (errtype score --list), NAME or NAME:KEY=VALUE,... "
                         "for a setting of that entry alone, e.g. errant:beta=0.2 "
                         "(default: errant m2 gleu)")
    gm.add_argument("-O", "--option", action="append", default=[], metavar="METRIC.KEY=VALUE",
                    help="a metric setting for every entry of that metric, e.g. "
                         "-O gleu.iterations=100")
    gm.add_argument("--synthetic", type=int, default=674, metavar="N",
                    help="hybrid systems per domain (default 674, as in the paper; 0 = the six "
                         "real systems alone)")
    gm.add_argument("--samples", type=int, default=100, metavar="N",
                    help="bootstrap resamples of the systems (default 100)")
    gm.add_argument("--seed", type=int, default=0,
                    help="seed of the hybrids and the bootstrap (default 0)")
    gm.add_argument("--average", choices=["categories", "micro"], default="categories",
                    help="errant as the mean F over its error categories (default, as the "
                         "paper defines ERRANT) or its own corpus F (micro)")
    gm.add_argument("--system-score", choices=["corpus", "mean"], default="corpus",
                    help="a system's (and hybrid's) metric score: the metric's corpus score of "
                         "its sentences (default, the paper's) or the mean of its sentence "
                         "scores, as its human score is (e.g. -m chrf:word_order=0 "
                         "--system-score mean: the reading that reproduces the paper's FCE "
                         "CHRF++ row)")
    gm.add_argument("--no-sweep", dest="sweep", action="store_false",
                    help="skip the beta sweep (0-2) of the F-measures")
    gm.add_argument("--tsv", action="store_true",
                    help="print only a TSV: domain, metric, r, rho")
    gm.add_argument("--plots", metavar="DIR", type=SVG_FOLDER,
                    help="write SVG charts to DIR: the Williams p-value matrix and the beta "
                         "sweep of each domain")
    add_output_option(gm, "the tables")
    gm.add_argument("--json", metavar="FILE", type=OUTPUT,
                    help="write every number as JSON (- = stdout)")
    gm.add_argument("--html", metavar="FILE", type=OUTPUT,
                    help="write a self-contained HTML page: the correlations, the Williams "
                         "p-value matrix (table and SVG) and the beta sweep of each domain")

    for name, helptext in (("system", "system-level Pearson/Spearman (optional bootstrap)"),
                           ("sentence", "sentence-level pairwise accuracy and Kendall")):
        sp = sub.add_parser(name, help=helptext, description=helptext)
        if name == "system":
            sp.add_argument("--human", required=True, type=INPUT,
                            help="human scores (score file, or ranking XML for ExpectedWins)")
            sp.add_argument("--human-column", help="column of the human score file")
            sp.add_argument("--metric", type=INPUT,
                            help="metric system scores (score file or JSON)")
            sp.add_argument("--metric-column", help="column of the metric score file")
            sp.add_argument("--bootstrap", type=int, default=None, metavar="N",
                            help="bootstrap samples over sentences when sentence-level scores "
                                 "are given or computed (default 100, as in the GECCC paper; "
                                 "0 = off)")
            sp.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
            sp.add_argument("--confidence", type=float, default=0.95,
                            help="confidence level of the interval (default 0.95)")
            sp.add_argument("--aggregate", choices=["sum", "mean", "f"], default=None,
                            help="corpus score from sentence values (default: F-beta for "
                                 "tp/fp/fn counts, sum for scores)")
            sp.add_argument("--systems", help="comma-separated systems to use (default: all "
                                              "with both scores)")
        else:
            sp.add_argument("--judgments", required=True, type=INPUT, help="ranking XML")
            sp.add_argument("--lower-is-better", action="store_true",
                            help="lower metric values are better")
        sp.add_argument("--json-results", "--results", dest="results", nargs="+", type=INPUT,
                        metavar="JSON", help="metric results with per-sentence values "
                        "({system: result} JSON as written by the scorer CLIs)")
        sp.add_argument("--stat", help="sentence field to use (default: tp/fp/fn or score)")
        sp.add_argument("--scribendi", nargs="+", metavar="FILE", type=text_input(M2_NOT_TEXT),
                        help="compute Scribendi: SOURCE SYSTEM [SYSTEM ...]")
        sp.add_argument("--lm", default="default", help="LM for --scribendi (default: default)")
        sp.add_argument("--m2", nargs="+", metavar="FILE", type=INPUT,
                        help="compute MaxMatch: GOLD.m2 SYSTEM [SYSTEM ...]")
        sp.add_argument("--beta", type=float, default=0.5, help="F beta (default 0.5)")
        add_output_option(sp, "the table")
        sp.add_argument("--json", metavar="FILE", type=OUTPUT,
                        help="write the report as JSON (- = stdout)")
    return p


def _computed_results(args: argparse.Namespace) -> dict[str, dict[str, Any]] | None:
    """{system: ScoreResult dict} from --results, --scribendi or --m2 (None if none given)."""
    if args.results:
        out: dict[str, dict[str, Any]] = {}
        for path in args.results:
            try:
                data = json.loads(Path(path).read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError) as exc:
                raise InputError(f"cannot read JSON results: {exc}", path=path) from None
            if isinstance(data, dict) and "metric" in data and "sentences" in data:
                data = {Path(path).stem: data}
            out.update(data)
        return out
    if args.scribendi:
        if len(args.scribendi) < 2:
            raise InputError("--scribendi needs SOURCE SYSTEM [SYSTEM ...]")
        from ..score.lm.scribendi import Scribendi
        from ..textio import read_parallel

        rows = [[t.strip() for t in r] for _, r in read_parallel(args.scribendi)]
        scorer = Scribendi(args.lm)
        src = [r[0] for r in rows]
        return {Path(f).name: scorer.score(src, [r[k + 1] for r in rows]).to_dict()
                for k, f in enumerate(args.scribendi[1:])}
    if args.m2:
        if len(args.m2) < 2:
            raise InputError("--m2 needs GOLD.m2 SYSTEM [SYSTEM ...]")
        from ..m2 import read_m2
        from ..score.edits.maxmatch import read_hypotheses
        from ..score.registry import ScoreInput, get_metric

        gold = list(read_m2(args.m2[0]))
        metric = get_metric("maxmatch", beta=args.beta)  # sentences carry tp/fp/fn
        out = {}
        for f in args.m2[1:]:
            hyps = read_hypotheses(f, len(gold), args.m2[0])
            out[Path(f).name] = metric.score(ScoreInput(gold, hyps, name=f)).to_dict()
        return out
    return None


def _aggregator(kind: str, choice: str | None, beta: float) -> Any:
    if choice == "f" or (choice is None and kind == "counts"):
        if kind != "counts":
            raise InputError("--aggregate f needs tp/fp/fn per sentence")
        return aggregate_fscore(beta)
    if kind == "counts":
        raise InputError(f"--aggregate {choice} needs numeric sentence values (use --stat)")
    return aggregate_mean if choice == "mean" else aggregate_sum


def _fmt(x: float) -> str:
    return "nan" if isinstance(x, float) and math.isnan(x) else f"{x:.3f}"


def _cmd_ew(args: argparse.Namespace) -> int:
    ew = expected_wins(read_judgments(args.judgments))
    print("rank\tsystem\texpected_wins")
    for i, (s, v) in enumerate(ew.items(), 1):
        print(f"{i}\t{s}\t{v:.3f}")
    print(signature("expected_wins", {"judgments": Path(args.judgments).name}))
    if args.json:
        with atomic_output(args.json) as fh:
            json.dump(ew, fh, indent=1)
            fh.write("\n")
    return 0


def _cmd_ts(args: argparse.Namespace) -> int:
    from ..score.meta.trueskill import TrueSkill

    if args.runs < 1:
        raise InputError("--runs must be at least 1")
    rater = TrueSkill(runs=args.runs, seed=args.seed)
    ts = rater.rate(read_judgments(args.judgments))
    print("rank\tsystem\ttrueskill")
    for i, (s, v) in enumerate(ts.items(), 1):
        print(f"{i}\t{s}\t{v:.3f}")
    print(rater.signature())
    if args.json:
        with atomic_output(args.json) as fh:
            json.dump(ts, fh, indent=1)
            fh.write("\n")
    return 0


def _cmd_seeda(args: argparse.Namespace) -> int:
    from ..score.meta import seeda as sd
    from ..score.registry import get_metric

    for name in args.sets:
        sd.systems_of(name)  # an unknown set is an input error before any work
    seeda = sd.read_seeda(args.seeda)
    metrics = []
    for n in args.metrics:
        try:
            metric = get_metric(n)
            if hasattr(metric, "gold_edits"):
                metric = get_metric(n, gold_edits=args.edit_gold)
        except (KeyError, TypeError) as exc:
            raise InputError(f"metric {n}: {exc}") from None
        metrics.append((n, metric))
    scores = sd.score_subset(seeda, args.ref, metrics)
    res = sd.meta_evaluate(seeda, scores, args.sets, args.window, args.ties, args.aggregation)
    print("metric\thuman\tset\tpearson\tspearman")
    for m, r in res.items():
        for key, by_set in r["system"].items():
            for name, c in by_set.items():
                print(f"{m}\t{key}\t{name}\t{_fmt(c['pearson'])}\t{_fmt(c['spearman'])}")
    print("\nmetric\tjudgments\tset\taccuracy\tkendall\tpairs\tmetric_ties")
    for m, r in res.items():
        for g, by_set in r["sentence"].items():
            for name, c in by_set.items():
                print(f"{m}\tSEEDA-{g[0].upper()}\t{name}\t{_fmt(c['accuracy'])}\t"
                      f"{_fmt(c['kendall'])}\t{c['pairs']}\t{c['metric_ties']}")
    if args.window:
        print("\nmetric\thuman\twindow\tpearson\tspearman")
        for m, r in res.items():
            for key, windows in r["window"].items():
                for w in windows:
                    print(f"{m}\t{key}\t{w['from']}-{w['to']}\t{_fmt(w['pearson'])}\t"
                          f"{_fmt(w['spearman'])}")
    settings = {"sets": "+".join(args.sets), "ties": args.ties, "edit_gold": args.edit_gold}
    if args.aggregation != "default":
        from ..score.meta.aggregation import describe_aggregation

        settings["aggregation"] = describe_aggregation(args.aggregation)
    sig = signature("meta-seeda", settings)
    print(sig)
    for m, r in res.items():
        print(f"{m}: {r['signature']}")
    _write_json(args.json, {"metrics": res}, sig)
    if args.plots:
        for path in _write_plots(Path(args.plots), res):
            print(f"{PROG}: wrote {path}", file=sys.stderr)
    return 0


TEXTLEVEL_COLUMNS = ("metric", "human", "system_pearson", "system_spearman", "systems",
                     "item_pearson", "item_spearman", "items", "status")


def _cmd_textlevel(args: argparse.Namespace) -> int:
    from ..score.meta import textlevel as tl
    from ..score.registry import available_metrics, get_metric
    from .common import backend_options

    names = available_metrics() if args.metrics == ["all"] else args.metrics
    if len(set(names)) != len(names):
        raise InputError("a metric is asked for twice")
    metrics: list[tuple[str, Any]] = []
    failed: dict[str, str] = {}
    for n in names:
        try:
            metrics.append((n, get_metric(n)))
        except InputError:
            raise
        except Exception as exc:  # a missing extra or model: reported, not fatal
            failed[n] = str(exc).splitlines()[0]
    js = tl.read_judgment_set(args.data)
    raters = args.rater
    if raters:
        unknown = sorted(set(raters) - set(js.raters()))
        if unknown:
            raise InputError(f"no rating by {', '.join(unknown)} (raters: "
                             f"{', '.join(js.raters()) or 'none'})")
    items = tl.rated_items_or_error(js, raters)
    options = backend_options(args)
    state: dict[str, Any] = {}

    def annotator() -> Any:
        if "ann" not in state:
            from .. import load

            state["ann"] = load(args.lang, **options)
        return state["ann"]

    scores, not_run = tl.score_metrics(js, metrics, items, args.lang, annotator)
    failed.update(not_run)
    rows = tl.correlate(js, scores, items, raters)
    order = {n: i for i, n in enumerate(names)}
    rows.sort(key=lambda r: (order.get(r["metric"], len(order)), tl.HUMAN.index(r["human"])))
    settings = {"data": "+".join(Path(d).name for d in args.data), "items": len(items),
                "raters": "+".join(raters or js.raters()), "lang": args.lang,
                "unit": "item-as-line"}
    sig = signature("meta-textlevel", settings)
    if not args.tsv:
        systems = js.systems()
        print(f"# {len(js.items)} items from {len(js.files)} file(s); {len(items)} rated for "
              f"every system by {', '.join(raters or js.raters())}")
        print("system\t" + "\t".join(tl.HUMAN))
        table = tl.human_table(js, items, raters)
        for s in systems:
            print(s + "\t" + "\t".join(_fmt(table[h][s]) for h in tl.HUMAN))
        print()
    print("\t".join(TEXTLEVEL_COLUMNS))
    for r in rows:
        caveat = tl.ENGLISH_MODELS.get(r["metric"]) if args.lang != "en" else None
        r["status"] = f"caveat: {caveat}" if caveat else "ok"
        print(f"{r['metric']}\t{r['human']}\t{_fmt(r['system_pearson'])}\t"
              f"{_fmt(r['system_spearman'])}\t{r['systems']}\t{_fmt(r['item_pearson'])}\t"
              f"{_fmt(r['item_spearman'])}\t{r['items']}\t{r['status']}")
    for n in names:
        if n in failed:
            reason = " ".join(failed[n].split())
            for h in tl.HUMAN:
                print(f"{n}\t{h}\tnan\tnan\t0\tnan\tnan\t0\tnot run: {reason}")
    if not args.tsv:
        print(sig)
        for m in scores:
            print(f"{m.name}: {m.signature}")
    _write_json(args.json, {"correlations": rows, "not_run": failed,
                            "human": tl.human_table(js, items, raters),
                            "metric_scores": {m.name: m.system for m in scores}}, sig)
    return 0


def _write_plots(folder: Path, res: dict[str, Any]) -> list[Path]:
    """The window and pairwise analysis charts of a SEEDA meta-evaluation, as SVG files."""
    from ..report.svg import pairwise_chart, window_chart

    charts: dict[str, str] = {}
    humans = dict.fromkeys(k for r in res.values() for k in r["window"])
    for human in humans:
        charts[f"window-{human}"] = window_chart(
            {m: r["window"][human] for m, r in res.items() if human in r["window"]}, human)
    for m, r in res.items():
        for g, cells in r["pairwise"].items():
            charts[f"pairwise-{m}-{g}"] = pairwise_chart(cells, m, f"SEEDA-{g[0].upper()}")
    return _write_charts(folder, charts)


def _write_charts(folder: Path, charts: dict[str, str]) -> list[Path]:
    """Each SVG chart written (atomically) to ``folder/STEM.svg`` (the folder made if need be),
    its stem made file-safe."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for stem, svg in charts.items():
        path = folder / f"{''.join(c if c.isalnum() or c in '-_.' else '_' for c in stem)}.svg"
        with atomic_output(str(path)) as fh:
            fh.write(svg + "\n")
        out.append(path)
    return out


def _cmd_gmeg(args: argparse.Namespace) -> int:
    from ..score.meta import gmeg as gm
    from ..score.meta.protocol import build_metrics

    for opt, v, low in (("--synthetic", args.synthetic, 0), ("--samples", args.samples, 0)):
        if v < low:
            raise InputError(f"{opt} must be at least {low}")
    metrics = build_metrics(args.metrics or ["errant", "m2", "gleu"], args.option)
    domains = args.domain or list(DOMAINS)
    read = []
    for d in domains:
        try:
            read.append(gm.read_gmeg(args.data, args.split, d))
        except InputError as exc:
            if args.domain:
                raise
            print(f"{PROG}: skipped {d}: {exc}", file=sys.stderr)
    if not read:
        raise InputError(f"no GMEG domain could be read from {args.data}")
    results = []
    for data in read:
        prep = gm.prepare(data, metrics, args.average, system=args.system_score)
        results.append(gm.evaluate_domain(prep, synthetic=args.synthetic, samples=args.samples,
                                          seed=args.seed, sweep=args.sweep and not args.tsv))
    if args.tsv:
        print("domain\tmetric\tr\trho")
        for res in results:
            for m, c in res["metrics"].items():
                print(f"{res['domain']}\t{m}\t{_fmt(c['pearson']['value'])}"
                      f"\t{_fmt(c['spearman']['value'])}")
    else:
        _print_gmeg(results)
    settings = {"split": args.split, "synthetic": args.synthetic, "share": "0.1-0.9",
                "samples": args.samples, "seed": args.seed, "errant": args.average,
                "system": args.system_score}
    sig = signature("meta-gmeg", settings)
    print(sig, file=sys.stderr if args.tsv else sys.stdout)
    if args.json:
        clean = json.loads(json.dumps(results, default=str),
                           parse_constant=lambda c: None)  # nan -> null
        _write_json(args.json, {"domains": clean}, sig)
    charts = _gmeg_charts(results) if args.plots or args.html else {}
    if args.plots:
        for path in _write_charts(Path(args.plots), charts):
            print(f"{PROG}: wrote {path}", file=sys.stderr)
    if args.html:
        from ..report.meta_html import render_gmeg_html

        with atomic_output(args.html) as fh:
            fh.write(render_gmeg_html(results, charts, sig))
        print(f"{PROG}: wrote {args.html}", file=sys.stderr)
    return 0


def _print_gmeg(results: list[dict[str, Any]]) -> None:
    for res in results:
        print(f"# {res['domain']} ({res['split']}): {len(res['systems'])} systems + "
              f"{res['synthetic']} hybrids, {res['sentences']} sentences, seed {res['seed']}")
        print("metric\tr\tr_ci_low\tr_ci_high\trho\trho_ci_low\trho_ci_high\tscored_by")
        for m, c in res["metrics"].items():
            p, s = c["pearson"], c["spearman"]
            print(f"{m}\t{_fmt(p['value'])}\t{_fmt(p['ci'][0])}\t{_fmt(p['ci'][1])}"
                  f"\t{_fmt(s['value'])}\t{_fmt(s['ci'][0])}\t{_fmt(s['ci'][1])}\t{c['kind']}")
        if res["williams"]:
            names = list(res["williams"])
            print("\nWilliams test, one-sided p that the row metric correlates (r) better "
                  "than the column metric")
            print("\t".join(["metric", *names]))
            for a in names:
                print("\t".join([a, *("-" if a == b else f"{res['williams'][a][b]:.3g}"
                                      for b in names)]))
        sweeps = {m: c["beta_sweep"] for m, c in res["metrics"].items() if "beta_sweep" in c}
        if sweeps:
            print("\nbeta sweep (r / rho)")
            print("\t".join(["beta", *sweeps]))
            for k, row in enumerate(next(iter(sweeps.values()))):
                print("\t".join([f"{row['beta']:g}", *(
                    f"{_fmt(sw[k]['pearson'])}/{_fmt(sw[k]['spearman'])}"
                    for sw in sweeps.values())]))
        for note in res["notes"]:
            print(f"note: {note}")
        print()


def _gmeg_charts(results: list[dict[str, Any]]) -> dict[str, str]:
    """The Williams matrix and the beta sweep of each domain, as SVG by name."""
    from ..report.svg import Series, grid_heatmap, line_chart

    charts: dict[str, str] = {}
    for res in results:
        d = res["domain"]
        w = res["williams"]
        if w:
            names = list(w)
            charts[f"williams-{d}"] = grid_heatmap(
                f"Williams test p-values, {d} ({res['split']})", names, names,
                [[None if a == b else w[a][b] for b in names] for a in names],
                centre=0.05, span=0.05, row_title="better metric (row)",
                col_title="than metric (column)", chart_id=f"williams-{d}", cell=64)
        sweeps = {m: c["beta_sweep"] for m, c in res["metrics"].items() if "beta_sweep" in c}
        if sweeps:
            betas = [f"{row['beta']:g}" for row in next(iter(sweeps.values()))]
            series = []
            for m, sw in sweeps.items():
                series.append(Series(f"{m} r", [row["pearson"] for row in sw]))
                series.append(Series(f"{m} \u03c1", [row["spearman"] for row in sw]))
            charts[f"beta-{d}"] = line_chart(f"Correlation by F beta, {d} ({res['split']})",
                                             betas, series, x_title="beta",
                                             chart_id=f"beta-{d}", width=720)
    return charts


def _cmd_system(args: argparse.Namespace) -> int:
    human = read_scores(args.human, args.human_column)
    systems = args.systems.split(",") if args.systems else None
    results = _computed_results(args)
    settings: dict[str, Any] = {"human": Path(args.human).name}
    if results is None:
        if not args.metric:
            raise InputError("give --metric, --results, --scribendi or --m2")
        metric = read_scores(args.metric, args.metric_column)
        report: dict[str, Any] = system_correlation(metric, human, systems)
        report["metric_scores"] = {s: metric[s] for s in report["systems"]}
        settings["metric"] = Path(args.metric).name
    else:
        stats, kind = sentence_stats_from_json(results, args.stat)
        agg = _aggregator(kind, args.aggregate, args.beta)
        settings["stat"] = f"f{args.beta:g}" if kind == "counts" else kind
        names = systems or [s for s in human if s in stats]
        n_boot = 100 if args.bootstrap is None else args.bootstrap
        if n_boot:
            report = bootstrap_system_correlation(
                stats, human, agg, n_samples=n_boot, seed=args.seed,
                confidence=args.confidence, systems=names)
            settings.update(bootstrap=n_boot, seed=args.seed,
                            confidence=args.confidence)
        else:
            metric = {s: agg(stats[s]) for s in names}
            report = system_correlation(metric, human, names)
            report["metric_scores"] = metric
    print("system\tmetric\thuman")
    for s in report["systems"]:
        print(f"{s}\t{report['metric_scores'][s]:.4f}\t{human[s]:.4f}")
    if "n_samples" in report:
        print("coefficient\tvalue\tmean\tstd\tci_low\tci_high")
        for c in ("pearson", "spearman"):
            b = report[c]
            print(f"{c}\t{_fmt(b['value'])}\t{_fmt(b['mean'])}\t{_fmt(b['std'])}"
                  f"\t{_fmt(b['ci'][0])}\t{_fmt(b['ci'][1])}")
    else:
        print(f"pearson\t{_fmt(report['pearson'])}\nspearman\t{_fmt(report['spearman'])}")
    sig = signature("meta-system", settings)
    print(sig)
    _write_json(args.json, report, sig)
    return 0


def _cmd_sentence(args: argparse.Namespace) -> int:
    results = _computed_results(args)
    if results is None:
        raise InputError("give --results, --scribendi or --m2")
    stats, kind = sentence_stats_from_json(results, args.stat or (
        "f" if args.m2 else None))
    if kind == "counts":
        raise InputError("sentence-level agreement needs one number per sentence (use --stat)")
    report = sentence_agreement(read_judgments(args.judgments), stats,
                                higher_is_better=not args.lower_is_better)
    print("accuracy\tkendall\tpairs\tmetric_ties")
    print(f"{_fmt(report['accuracy'])}\t{_fmt(report['kendall'])}\t{report['pairs']}"
          f"\t{report['metric_ties']}")
    sig = signature("meta-sentence", {"judgments": Path(args.judgments).name, "stat": kind,
                                      "tie": "disagree"})
    print(sig)
    _write_json(args.json, report, sig)
    return 0


def _write_json(path: str | None, report: dict[str, Any], sig: str) -> None:
    if path:
        with atomic_output(path) as fh:
            json.dump({**report, "signature": sig}, fh, indent=1)
            fh.write("\n")


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    commands = {"ew": _cmd_ew, "ts": _cmd_ts, "seeda": _cmd_seeda, "gmeg": _cmd_gmeg,
                "system": _cmd_system, "sentence": _cmd_sentence, "textlevel": _cmd_textlevel}

    def body() -> int:
        code = commands[args.command](args)
        sys.stdout.flush()
        return code

    return run(PROG, body, args=args, stdout_to=args.out)


if __name__ == "__main__":
    raise SystemExit(main())
