"""``errtype score``: any metrics of the registry over any systems, in one call.

    errtype score -m m2 sentm2 errant senterrant gleu goto --ref GOLD.m2 \\
                  --hyp BART=bart.txt T5=t5.txt ... [--json | --tsv] [-o OUT] [--sent]
    errtype score -m gleu errant --src SRC --ref REF1.txt REF2.txt --hyp SYS=sys.txt --lang cs
    errtype score -m scribendi --src SRC --hyp SYS=sys.txt
    errtype score -m impara some llm-s --src SRC --hyp A=a.txt B=b.txt --device cuda
    errtype score -m cherrant --ref REF.m2.char --hyp SYS=hyp.m2.char [--tsv] [--cat 1]
    errtype score -m m2 gleu --lang zh --ref REF.m2.char --hyp SYS=sys.txt   (characters)

    errtype score -m green --aggregation trueskill --src SRC --ref REF.m2 --hyp A=a B=b --tsv

Prints a table (one row per system, one column per metric; proportions as percentages) and the
signature of every metric; ``--tsv``/``--json`` give one row per system and metric with the raw
values, ``--sent`` the per-sentence scores. ``--aggregation trueskill|expected_wins`` ranks the
systems from sentence-level comparisons instead (the score is then a TrueSkill mean skill or an
ExpectedWins rate, printed as is). Text systems are edit-extracted once, by ``--lang``'s
annotator, and only when an edit-based metric is asked for. ``--unit char`` (the default for
Chinese and Japanese) scores characters; ``--cat`` adds errant's/ChERRANT's per-type tables.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from ..errors import InputError, ResourceError
from ..textio import atomic_output
from .common import (
    add_backend_options,
    add_edit_gold_options,
    add_output_option,
    add_realign_option,
    add_unit_option,
    backend_options,
    edit_gold,
    gold_hint,
    language_options,
    new_parser,
    positive_int,
    run,
    spellings,
)
from .files import INPUT, NAMED_INPUT, OUTPUT, text_input

PROG = "errtype score"

#: metrics with an F-beta that are not ERRANT-edit metrics (those all have one: --beta)
_F_METRICS = ("maxmatch", "sentm2", "cherrant")
#: metrics that run torch models (``--device``, ``--dtype``)
_TORCH_METRICS = ("impara", "some", "bertscore", "scribendi")
#: errant_compare's options, which ChERRANT's scorer shares: option name -> metric setting
_COMPARE_OPTIONS = {"cat": "cat", "single": "single", "multi": "multi", "filt": "filt"}
#: ChERRANT's own options: option name -> setting of the cherrant metric
_CHERRANT_OPTIONS = {"cherrant_mode": "mode", "max_answer_num": "max_answer_num",
                     "reference_num": "reference_num", "start": "start", "end": "end"}


def build_parser() -> argparse.ArgumentParser:
    p = new_parser(PROG, "Score GEC systems with any metrics.")
    p.add_argument("-m", "--metrics", nargs="+", default=[], metavar="METRIC",
                   help="metrics of the registry (errtype score --list): e.g. m2 sentm2 errant "
                        "senterrant gleu goto scribendi")
    p.add_argument(*spellings("hyp"), dest="hyp", nargs="+", metavar="NAME=FILE", type=NAMED_INPUT,
                   help="systems: tokenised text or M2, one sentence per line (named by NAME, "
                        "else the file name)")
    p.add_argument(*spellings("ref"), dest="ref", nargs="+", default=[], metavar="FILE", type=INPUT,
                   help="gold M2 file, or reference texts parallel to --src (one per annotator)")
    p.add_argument(*spellings("orig", "--src"), dest="src",
                   type=text_input("give the gold M2 as --ref GOLD.m2"),
                   help="source text, one tokenised sentence per line (needed with reference "
                        "texts or without references)")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="write JSON (every result in full)")
    fmt.add_argument("--tsv", action="store_true",
                     help="write TSV: one row per system and metric")
    add_output_option(p, "the scores")
    p.add_argument("--sent", action="store_true",
                   help="also per-sentence scores (the table: on its scale, percentages; "
                        "--tsv/--json: raw values, as their corpus scores)")
    p.add_argument("--list", action="store_true",
                   help="list the available metrics (with the other names they answer to, "
                        "e.g. maxmatch = m2) and exit")
    p.add_argument("--aggregation", choices=["default", "trueskill", "expected_wins"],
                   default="default",
                   help="system score: the metric's corpus score (default), or the systems "
                        "ranked from sentence-level comparisons by TrueSkill or ExpectedWins, "
                        "as human evaluations are (Goto et al. 2025; gec-metrics' "
                        "rank_systems); needs a metric with sentence scores and 2+ systems")
    g = p.add_argument_group("metric settings")
    g.add_argument("--beta", type=float, default=None,
                   help="F beta of the F-score metrics (default: each metric's, 0.5)")
    add_edit_gold_options(g)
    g.add_argument("--goto-weights", metavar="FILE", type=INPUT,
                   help="GoToScorer: read the chunk weights from FILE (default: weigh them by "
                        "all --hyp systems)")
    g.add_argument("--goto-save-weights", metavar="FILE", type=OUTPUT,
                   help="GoToScorer: write the chunk weights used (the authors' format)")
    g.add_argument("--lm", default=None, help="scribendi: language model spec (default: default)")
    g.add_argument("--device", default=None,
                   help="impara, some, bertscore, scribendi's hf: models: torch device cpu, "
                        "cuda, cuda:N or auto (a GPU when one is visible; the default, "
                        "scribendi's: cpu)")
    g.add_argument("--dtype", choices=["float32", "bfloat16", "float16"], default=None,
                   help="the same metrics: model weights in float32 (default: the reference "
                        "scores) or bfloat16/float16 (faster on a GPU)")
    add_unit_option(g)
    add_realign_option(g, "each MultiGEC Markdown essay (--src/--ref/--hyp .md)")
    c = p.add_argument_group("errant and cherrant (errant_compare's and ChERRANT's options)")
    c.add_argument("--cat", type=int, choices=[1, 2, 3], default=None,
                   help="per-type scores: 1 operation (M, R, S, W / M, R, U), 2 the type without "
                        "its operation, 3 the full type; printed as the scripts print them")
    c.add_argument("--single", action="store_true", default=None,
                   help="only edits of at most one token on each side")
    c.add_argument("--multi", action="store_true", default=None,
                   help="only edits of two or more tokens on a side")
    c.add_argument("--filt", nargs="+", default=None, metavar="TYPE",
                   help="leave out edits of these types")
    c.add_argument("--cherrant-mode", choices=["cs", "cse", "ds", "dt"], default=None,
                   help="cherrant: span-based correction (cs, the default), with types (cse), "
                        "span-based detection (ds) or token-based detection (dt)")
    c.add_argument("--max-answer-num", type=int, default=None, metavar="N",
                   help="cherrant: only the edits of annotators 0 to N-1 (ChERRANT's "
                        "--max_answer_num)")
    c.add_argument("--reference-num", type=int, default=None, metavar="N",
                   help="cherrant: only the sentences with exactly N references "
                        "(ChERRANT's --reference_num)")
    c.add_argument("--start", type=int, default=None, metavar="I",
                   help="cherrant: score the blocks from index I on, in both files "
                        "(ChERRANT's --start)")
    c.add_argument("--end", type=int, default=None, metavar="J",
                   help="cherrant: score the blocks before index J, in both files "
                        "(ChERRANT's --end)")
    g.add_argument("--compat", choices=["multigec"], default=None,
                   help="reproduce an official pipeline: multigec = MultiGEC-2025's scorer "
                        "(-m errant gleu; --src/--ref/--hyp are Markdown essay files, each essay "
                        "pre-tokenised with syntok and aligned whole by ERRANT's English rules "
                        "as the official errant fork does; needs the multigec extra)")
    g.add_argument("--side-by-side", action="store_true",
                   help="with --compat: also errtype's own scores of the same metrics (essays "
                        "realigned, the language's own extraction and types), each official "
                        "column labelled METRIC@COMPAT beside METRIC")
    t = p.add_argument_group("edit attribution (docs/metrics.md)")
    t.add_argument("--attribution", choices=["shapley", "add", "sub"], default=None,
                   help="also each system edit's contribution to every metric's sentence "
                        "score, summed per error type: Shapley values over the sentence's "
                        "edits, or gec-metrics' add (the edit alone) or sub (the hypothesis "
                        "without it); --sent: every edit's value")
    t.add_argument("--max-exact", type=int, default=None, metavar="N",
                   help="exact Shapley values up to N edits a sentence (default 10; also while "
                        "2^n <= samples x n, as sampling would score as many subsets), sampled "
                        "orders above")
    t.add_argument("--samples", type=positive_int, default=None, metavar="N",
                   help="orders sampled for a sentence with more edits (default 1000)")
    t.add_argument("--seed", type=int, default=None,
                   help="seed of the sampled orders (default 0)")
    g.add_argument("-O", "--option", action="append", default=[], metavar="METRIC.KEY=VALUE",
                   help="any metric setting, e.g. -O goto.coder=1 -O gleu.iterations=100")
    add_backend_options(p)
    p.set_defaults(lang=None)
    for action in p._actions:
        if action.dest == "lang":
            action.help = ("language code (default: zh when cherrant is asked for, else en); "
                           "any code of a UD language works")
    return p


def metric_settings(names: Sequence[str], args: argparse.Namespace) -> dict[str, dict[str, Any]]:
    """Settings per requested metric name from the command-line options."""
    from ..score.options import check_settings, declared_options, parse_value
    from ..score.registry import ALIASES, factory_of

    out: dict[str, dict[str, Any]] = {n: {} for n in names}
    #: how each setting was given on the command line, for messages
    given: dict[str, dict[str, str]] = {n: {} for n in names}
    for n in names:
        canon = ALIASES.get(n, n)
        edits = _is_edit_metric(n)
        if args.beta is not None and (edits or canon in _F_METRICS):
            out[n]["beta"] = args.beta
            given[n]["beta"] = f"--beta {args.beta:g}"
        if (edits or canon == "cherrant") and args.lang is not None:
            out[n]["lang"] = args.lang  # None: the metric's own default
        if edits:
            out[n]["gold_edits"] = edit_gold(args)
        if canon == "goto" and args.goto_weights:
            out[n]["weights"] = args.goto_weights
        if canon == "scribendi" and args.lm:
            out[n]["lm"] = args.lm
        if canon in _TORCH_METRICS:
            for opt in ("device", "dtype"):
                if getattr(args, opt) is not None:
                    out[n][opt] = getattr(args, opt)
        flags = {**(_COMPARE_OPTIONS if canon in ("errant", "cherrant") else {}),
                 **(_CHERRANT_OPTIONS if canon == "cherrant" else {})}
        for opt, key in flags.items():
            if getattr(args, opt) is not None:
                out[n][key] = getattr(args, opt)
                given[n][key] = f"--{opt.replace('_', '-')} {getattr(args, opt)}"
    for opt in args.option:
        key, sep, val = opt.partition("=")
        metric, dot, field = key.partition(".")
        if not sep or not dot or not field:
            raise InputError(f"-O expects METRIC.KEY=VALUE, got {opt!r}")
        if metric not in out:
            raise InputError(f"-O {opt}: {metric!r} is not one of the metrics asked for "
                             f"({', '.join(names)})")
        if ALIASES.get(metric, metric) == "goto" and field == "annotator" and \
                val.strip().isdigit():
            field = "coder"  # the gold coder's old name (annotator = the edit extractor now)
        specs = declared_options(factory_of(metric)) or {}
        out[metric][field] = parse_value(specs.get(field), val)
        given[metric][field] = f"-O {opt}"
    for n in names:  # every value checked before any work, -O values named as given
        out[n] = check_settings(n, factory_of(n), out[n], given[n])
    return out


def _is_edit_metric(name: str) -> bool:
    """Whether ``name`` is an ERRANT-edit metric (:class:`errtype.score.edits.base.EditMetric`:
    it takes ``lang``, ``beta`` and ``gold_edits``)."""
    from ..score.edits.base import EditMetric
    from ..score.registry import get_metric

    try:
        return isinstance(get_metric(name), EditMetric)
    except (InputError, ResourceError, TypeError):  # reported when built, or needs settings
        return False


def _build(names: Sequence[str], args: argparse.Namespace) -> list[tuple[str, Any]]:
    """(name, configured metric) pairs; a setting the metric does not take is an input error."""
    from ..score.registry import get_metric
    from ..score.suite import check_ready

    built = []
    for name, settings in metric_settings(names, args).items():
        try:
            built.append((name, get_metric(name, **settings)))
        except (TypeError, ValueError) as exc:
            raise InputError(f"metric {name}: {exc}") from None
    check_ready(built)  # before the inputs are read
    return built


def _fmt(value: float, scale: float) -> str:
    return f"{100 * value:.2f}" if scale == 100 else f"{value * scale:g}"


def _table(rows: Sequence[Any], systems: Sequence[str], labels: Sequence[str]) -> str:
    cell = {(r.system, r.metric): _fmt(r.value, r.scale) for r in rows}
    head = ["system", *labels]
    body = [[s, *(cell[(s, m)] for m in labels)] for s in systems]
    widths = [max(len(row[i]) for row in [head, *body]) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                       for i, (c, w) in enumerate(zip(row, widths, strict=True)))
             for row in [head, *body]]
    return "\n".join(lines) + "\n"


def _signatures(rows: Sequence[Any], labels: Sequence[str]) -> list[str]:
    out = []
    for m in labels:
        for sig in dict.fromkeys(r.signature for r in rows if r.metric == m):
            out.append(f"{m}: {sig}")
    return out


def _sentence_value(s: dict[str, Any]) -> Any:
    from ..score.common import sentence_value

    return sentence_value(s) if any(k in s for k in ("f", "gleu", "score")) else ""


def _sentence_lines(rows: Sequence[Any], scaled: bool = False) -> list[str]:
    """Per-sentence scores; ``scaled``: on the corpus table's scale (percentages)."""
    out = ["system\tmetric\tsentence\tscore"]
    for r in rows:
        for i, s in enumerate(r.result.sentences, 1):
            value = _sentence_value(s)
            if scaled and isinstance(value, (int, float)):
                value = _fmt(float(value), r.scale)
            out.append(f"{r.system}\t{r.metric}\t{s.get('index', i - 1) + 1}\t{value}")
    return out


def metric_list() -> str:
    """The metrics of the registry, one a line, each with the other names it answers to."""
    from ..score.registry import ALIASES, available_metrics

    lines = []
    for name in available_metrics():
        aliases = [a for a, target in ALIASES.items() if target == name]
        lines.append(name + (f" (also: {', '.join(aliases)})" if aliases else ""))
    return "\n".join(lines)


def _attribution_lines(attribution: dict[tuple[str, str], Any], sent: bool) -> list[str]:
    """Per system and metric: the per-type sums of the edit attributions; ``sent``: then every
    edit's value (sentence numbers 1-based, token offsets of the source)."""
    from ..score.attribution import per_type

    if not attribution:
        return []
    out = ["", "system\tmetric\tmethod\ttype\tedits\tsum\tmean"]
    for (system, metric), (method, _, sents) in attribution.items():
        out += [f"{system}\t{metric}\t{method}\t{t}\t{x['n']}\t{x['sum']}\t{x['mean']}"
                for t, x in per_type(sents).items()]
    if sent:
        out += ["", "system\tmetric\tmethod\tsentence\tstart\tend\ttype\tcorrection\tvalue"]
        out += [f"{system}\t{metric}\t{method}\t{s.index + 1}\t{a.edit.start}\t{a.edit.end}\t"
                f"{a.edit.type}\t{a.edit.cor}\t{a.value}"
                for (system, metric), (method, _, sents) in attribution.items()
                for s in sents for a in s.edits]
    return out


def render(rows: Sequence[Any], systems: Sequence[str], labels: Sequence[str], fmt: str,
           sent: bool = False, notes: Sequence[str] = (), seconds: dict[str, float] | None = None,
           columns: Sequence[str] | None = None,
           attribution: dict[tuple[str, str], Any] | None = None) -> str:
    """The command's output in ``fmt`` (``table``, ``tsv`` or ``json``); ``columns``: the TSV
    columns after system and metric (default ``score p r f signature``); ``attribution``:
    (system, metric) -> (method, signature, sentence attributions) of ``--attribution``."""
    attribution = attribution or {}
    if fmt == "json":
        from ..score.attribution import per_type, to_dict

        data = {
            "systems": list(systems),
            "metrics": {m: [r.signature for r in rows if r.metric == m][0] for m in labels},
            "results": [{"system": r.system, "metric": r.metric, "score": r.value,
                         **{k: v for k, v in r.result.to_dict().items()
                            if k != "metric" and (sent or k != "sentences")},
                         **({"aggregation": r.aggregation, "signature": r.signature}
                            if r.aggregation != "default" else {}),
                         **({"attribution": _attribution_json(attribution[(r.system, r.metric)],
                                                              sent, per_type, to_dict)}
                            if (r.system, r.metric) in attribution else {})} for r in rows],
            "notes": list(notes),
            "seconds": {k: round(v, 3) for k, v in (seconds or {}).items()},
        }
        return json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    if fmt == "tsv":
        if columns:
            lines = ["\t".join(["system", "metric", *columns])]
            lines += ["\t".join([r.system, r.metric, *(str(r.value if k == "score" else
                                                          _column(r.result, k))
                                                      for k in columns)])
                      for r in rows]
        else:
            lines = ["system\tmetric\tscore\tp\tr\tf\tsignature"]
            for r in rows:
                plain = r.aggregation == "default"
                c = r.result.corpus if plain else {}
                f = _column(r.result, "f") if plain else ""
                lines.append(f"{r.system}\t{r.metric}\t{r.value}\t{c.get('p', '')}\t"
                             f"{c.get('r', '')}\t{f}\t{r.signature}")
        if any(_cat(r) for r in rows):
            lines += ["", "system\tmetric\ttype\ttp\tfp\tfn\tp\tr\tf"]
            lines += [f"{r.system}\t{r.metric}\t{t}\t{c['tp']}\t{c['fp']}\t{c['fn']}\t{c['p']}\t"
                      f"{c['r']}\t{c['f']}" for r in rows if _cat(r)
                      for t, c in r.result.per_type.items()]
        if sent:
            lines += ["", *_sentence_lines(rows)]
        lines += _attribution_lines(attribution, sent)
        return "\n".join(lines) + "\n"
    out = _table(rows, systems, labels) + "\n" + "\n".join(_signatures(rows, labels)) + "\n"
    for r in rows:
        if _cat(r):  # the scripts' own text: the per-type table, then the main table
            out += f"\n{r.system} ({r.metric}):\n{r.result.errant_text()}"
    if sent:  # on the table's scale: percentages beside percentages
        out += "\n" + "\n".join(_sentence_lines(rows, scaled=True)) + "\n"
    if attribution:
        sigs = dict.fromkeys(f"{m}: {sig}" for (_, m), (_, sig, _) in attribution.items())
        out += "\n".join([*_attribution_lines(attribution, sent), *sigs]) + "\n"
    return out


def _attribution_json(item: Any, sent: bool, per_type: Any, to_dict: Any) -> dict[str, Any]:
    method, sig, sents = item
    return {"method": method, "signature": sig, "per_type": per_type(sents),
            **({"sentences": [to_dict(s) for s in sents]} if sent else {})}


def _attribute(metrics: Sequence[tuple[str, Any]], suite: Any, args: argparse.Namespace
               ) -> dict[tuple[str, str], Any]:
    """``--attribution``: (system, metric label) -> (method, signature, sentence attributions),
    the edits those the edit-based metrics score (the systems' M2 or the annotator's)."""
    from ..score.attribution import MAX_EXACT, SAMPLES, attribute_corpus
    from ..score.common import with_setting
    from ..score.registry import describe, metric_signature

    max_exact = MAX_EXACT if args.max_exact is None else args.max_exact
    samples = SAMPLES if args.samples is None else args.samples
    seed = 0 if args.seed is None else args.seed
    out = {}
    for label, metric in metrics:
        view = suite.view(describe(metric).level)  # essays: the units or the essays
        blocks = view.hyp_blocks()
        sig = with_setting(metric_signature(metric), "attribution", args.attribution)
        if args.attribution == "shapley":
            for key, value in (("max_exact", max_exact), ("samples", samples), ("seed", seed)):
                sig = with_setting(sig, key, value)
        for data in view.inputs(metric):
            out[(data.name, label)] = (args.attribution, sig, attribute_corpus(
                metric, data, blocks[data.name], method=args.attribution, max_exact=max_exact,
                samples=samples, seed=seed, beta=args.beta if args.beta is not None else 0.5))
    return out


def _multigec(args: argparse.Namespace, metrics: list[tuple[str, Any]]
              ) -> tuple[Any, list[tuple[str, Any]], list[Any]]:
    """``--compat multigec``: the suite of Markdown essays and the metrics as the official
    MultiGEC-2025 scorer computes them (:mod:`errtype.score.compat.multigec`)."""
    from ..score.compat import multigec
    from ..score.registry import describe
    from ..score.suite import parse_system_arg

    metrics = multigec.compat_metrics(metrics)
    suite = multigec.load_suite([parse_system_arg(h) for h in args.hyp], args.ref, args.src,
                                args.lang, edits=multigec.needs_edits(metrics))
    if args.udpipe_model:
        suite.notes.append("--udpipe-model is not read under --compat multigec: the official "
                           "scorer's errant fork replaces spacy-udpipe's tokenizer, and with it "
                           "the whole UDPipe pipeline, before every parse")
    return suite, metrics, [describe(m) for _, m in metrics]


def _compat_columns() -> tuple[str, ...]:
    from ..score.compat.multigec import COLUMNS

    return COLUMNS


def _column(result: Any, key: str) -> Any:
    """A TSV cell: a corpus count (``tp``/``fp``/``fn``), score, or the F-beta for ``f``."""
    if key == "f":
        c = result.corpus
        return next((v for k, v in c.items() if k.startswith("f") and k[1:2].isdigit()), "")
    if key in result.corpus:
        return result.corpus[key]
    return result.counts.get(key, "")


def _cat(row: Any) -> bool:
    """Whether the row's result has errant_compare/ChERRANT per-type tables to print."""
    return bool(getattr(row.result, "cat", None))


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)

    def body() -> int:
        from ..score.registry import ALIASES, describe
        from ..score.suite import aggregate_rows, load_suite, parse_system_arg, score_systems

        if args.list:
            print(metric_list())
            return 0
        if not args.metrics:
            raise InputError("no metric given (-m METRIC ...; errtype score --list)")
        if not args.hyp:
            raise InputError("no system given (--hyp NAME=FILE)")
        if len(set(args.metrics)) != len(args.metrics):
            raise InputError("a metric is asked for twice")
        if args.attribution is None and any(getattr(args, o) is not None
                                            for o in ("max_exact", "samples", "seed")):
            raise InputError("--max-exact, --samples and --seed set the edit attribution "
                             "(--attribution METHOD)")
        if args.max_exact is not None and args.max_exact < 0:
            raise InputError("--max-exact must be at least 0")
        if args.lang is None:
            cherrant = any(ALIASES.get(m, m) == "cherrant" for m in args.metrics)
            args.lang = "zh" if cherrant else "en"
        state: dict[str, Any] = {}
        options = backend_options(args)  # checked before any work

        def annotator() -> Any:
            if "ann" not in state:
                from .. import load

                state["ann"] = load(args.lang, **options)
            return state["ann"]

        if args.side_by_side and not args.compat:
            raise InputError("--side-by-side puts errtype's scores beside an official "
                             "pipeline's: give --compat too")
        metrics = _build(args.metrics, args)
        infos = [describe(m) for _, m in metrics]
        if args.attribution:
            for (label, _), info in zip(metrics, infos, strict=True):
                if info.needs_systems:
                    raise InputError(f"--attribution: {label} depends on the set of systems "
                                     "scored together; its scores cannot be attributed to "
                                     "edits sentence by sentence")
        language = None
        chosen = language_options(args)
        if chosen:
            from ..lang import get_language

            language = get_language(args.lang, **chosen)
        if args.compat == "multigec":
            suite, metrics, infos = _multigec(args, metrics)
        else:
            suite = load_suite([parse_system_arg(h) for h in args.hyp], args.ref, args.src,
                               lang=args.lang, annotator=annotator, unit=args.unit,
                               same_source=any(i.same_source for i in infos), language=language,
                               realign=args.realign)
        seconds: dict[str, float] = {}
        rows = aggregate_rows(score_systems(metrics, suite, seconds), args.aggregation)
        labels = list(args.metrics)
        if args.compat == "multigec":
            from ..score.compat.multigec import sign

            sign(rows)
        if args.side_by_side:
            for r in rows:
                r.metric = f"{r.metric}@{args.compat}"
            own = load_suite([parse_system_arg(h) for h in args.hyp], args.ref, args.src,
                             lang=args.lang, annotator=annotator, language=language,
                             realign=args.realign)
            own_metrics = _build(args.metrics, args)
            rows += aggregate_rows(score_systems(own_metrics, own, seconds), args.aggregation)
            infos += [describe(m) for _, m in own_metrics]
            suite.notes.extend(own.notes)
            labels = [x for m in labels for x in (f"{m}@{args.compat}", m)]
        for note in suite.notes:
            if note.startswith("warning:"):
                print(f"{PROG}: {note}", file=sys.stderr)
            else:
                print(f"{PROG}: note: {note}{gold_hint(note)}", file=sys.stderr)
        for r in rows:
            for note in r.result.notes:
                if note.startswith("warning:"):
                    print(f"{PROG}: {r.system}: {r.metric}: {note}", file=sys.stderr)
        if args.goto_save_weights:
            goto = [m for n, m in metrics if getattr(m, "name", "") == "goto"]
            if not goto:
                raise InputError("--goto-save-weights needs -m goto")
            goto[0].weight_file(args.goto_save_weights)
        fmt = "json" if args.json else "tsv" if args.tsv else "table"
        columns = {i.columns for i in infos} if not args.compat else {_compat_columns()}
        attribution = _attribute(metrics, suite, args) if args.attribution else None
        text = render(rows, [s.name for s in suite.systems], labels, fmt,
                      args.sent, suite.notes, seconds,
                      columns.pop() if len(columns) == 1 else None, attribution)
        with atomic_output(args.out) as fh:
            fh.write(text)
        return 0

    return run(PROG, body, args=args)


if __name__ == "__main__":
    sys.exit(main())
