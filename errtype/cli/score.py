"""``errtype score``: any metrics of the registry over any systems, in one call.

    errtype score -m m2 sentm2 errant senterrant gleu goto --ref GOLD.m2 \\
                  --hyp BART=bart.txt T5=t5.txt ... [--json | --tsv] [-o OUT] [--sent]
    errtype score -m gleu errant --src SRC --ref REF1.txt REF2.txt --hyp SYS=sys.txt --lang cs
    errtype score -m scribendi --src SRC --hyp SYS=sys.txt
    errtype score -m green --aggregation trueskill --src SRC --ref REF.m2 --hyp A=a B=b --tsv

Prints a table (one row per system, one column per metric; proportions as percentages) and the
signature of every metric; ``--tsv``/``--json`` give one row per system and metric with the raw
values, ``--sent`` the per-sentence scores. ``--aggregation trueskill|expected_wins`` ranks the
systems from sentence-level comparisons instead (the score is then a TrueSkill mean skill or an
ExpectedWins rate, printed as is). Text systems are edit-extracted once, by ``--lang``'s
annotator, and only when an edit-based metric is asked for.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from collections.abc import Sequence
from typing import Any

from ..errors import InputError
from ..textio import atomic_output
from .common import add_backend_options, add_output_option, backend_options, new_parser, run
from .files import INPUT, NAMED_INPUT, OUTPUT, text_input

PROG = "errtype score"

#: options of this command that set a metric setting of the same meaning
_F_METRICS = ("maxmatch", "sentm2", "errant", "senterrant", "goto")


def build_parser() -> argparse.ArgumentParser:
    from ..score.suite import EDIT_GOLD

    p = new_parser(PROG, "Score GEC systems with any metrics.")
    p.add_argument("-m", "--metrics", nargs="+", default=[], metavar="METRIC",
                   help="metrics of the registry (errtype score --list): e.g. m2 sentm2 errant "
                        "senterrant gleu goto scribendi")
    p.add_argument("--hyp", nargs="+", metavar="NAME=FILE", type=NAMED_INPUT,
                   help="systems: tokenised text or M2, one sentence per line (named by NAME, "
                        "else the file name)")
    p.add_argument("--ref", nargs="+", default=[], metavar="FILE", type=INPUT,
                   help="gold M2 file, or reference texts parallel to --src (one per annotator)")
    p.add_argument("--src", type=text_input("give the gold M2 as --ref GOLD.m2"),
                   help="source text, one tokenised sentence per line (needed with reference "
                        "texts or without references)")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="write JSON (every result in full)")
    fmt.add_argument("--tsv", action="store_true",
                     help="write TSV: one row per system and metric")
    add_output_option(p, "the scores")
    p.add_argument("--sent", action="store_true", help="also per-sentence scores")
    p.add_argument("--list", action="store_true", help="list the available metrics and exit")
    p.add_argument("--aggregation", choices=["default", "trueskill", "expected_wins"],
                   default="default",
                   help="system score: the metric's corpus score (default), or the systems "
                        "ranked from sentence-level comparisons by TrueSkill or ExpectedWins, "
                        "as human evaluations are (Goto et al. 2025; gec-metrics' "
                        "rank_systems); needs a metric with sentence scores and 2+ systems")
    g = p.add_argument_group("metric settings")
    g.add_argument("--beta", type=float, default=None,
                   help="F beta of the F-score metrics (default: each metric's, 0.5)")
    g.add_argument("--edit-gold", choices=list(EDIT_GOLD), default="m2",
                   help="gold edits of errant/senterrant/goto from an M2 gold: " + "; ".join(
                       f"{k} = {v}" for k, v in EDIT_GOLD.items()) + " (default: m2)")
    g.add_argument("--goto-weights", metavar="FILE", type=INPUT,
                   help="GoToScorer: read the chunk weights from FILE (default: weigh them by "
                        "all --hyp systems)")
    g.add_argument("--goto-save-weights", metavar="FILE", type=OUTPUT,
                   help="GoToScorer: write the chunk weights used (the authors' format)")
    g.add_argument("--lm", default=None, help="scribendi: language model spec (default: default)")
    g.add_argument("-O", "--option", action="append", default=[], metavar="METRIC.KEY=VALUE",
                   help="any metric setting, e.g. -O goto.annotator=1 -O gleu.iterations=100")
    add_backend_options(p)
    return p


def _value(text: str) -> Any:
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def metric_settings(names: Sequence[str], args: argparse.Namespace) -> dict[str, dict[str, Any]]:
    """Settings per requested metric name from the command-line options."""
    from ..score.registry import ALIASES

    out: dict[str, dict[str, Any]] = {n: {} for n in names}
    for n in names:
        canon = ALIASES.get(n, n)
        if args.beta is not None and canon in _F_METRICS:
            out[n]["beta"] = args.beta
        if canon in ("errant", "senterrant", "goto"):
            out[n]["lang"] = args.lang
            out[n]["gold_edits"] = args.edit_gold
        if canon == "goto" and args.goto_weights:
            out[n]["weights"] = args.goto_weights
        if canon == "scribendi" and args.lm:
            out[n]["lm"] = args.lm
    for opt in args.option:
        key, sep, val = opt.partition("=")
        metric, dot, field = key.partition(".")
        if not sep or not dot or not field:
            raise InputError(f"-O expects METRIC.KEY=VALUE, got {opt!r}")
        if metric not in out:
            raise InputError(f"-O {opt}: {metric!r} is not one of the metrics asked for "
                             f"({', '.join(names)})")
        out[metric][field] = _value(val)
    return out


def _build(names: Sequence[str], args: argparse.Namespace) -> list[tuple[str, Any]]:
    """(name, configured metric) pairs; a setting the metric does not take is an input error."""
    from ..score.registry import get_metric

    built = []
    for name, settings in metric_settings(names, args).items():
        try:
            built.append((name, get_metric(name, **settings)))
        except TypeError as exc:
            raise InputError(f"metric {name}: {exc}") from None
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


def _sentence_lines(rows: Sequence[Any]) -> list[str]:
    out = ["system\tmetric\tsentence\tscore"]
    for r in rows:
        out += [f"{r.system}\t{r.metric}\t{i}\t{_sentence_value(s)}"
                for i, s in enumerate(r.result.sentences, 1)]
    return out


def render(rows: Sequence[Any], systems: Sequence[str], labels: Sequence[str], fmt: str,
           sent: bool = False, notes: Sequence[str] = (), seconds: dict[str, float] | None = None
           ) -> str:
    """The command's output in ``fmt`` (``table``, ``tsv`` or ``json``)."""
    if fmt == "json":
        data = {
            "systems": list(systems),
            "metrics": {m: [r.signature for r in rows if r.metric == m][0] for m in labels},
            "results": [{"system": r.system, "metric": r.metric, "score": r.value,
                         **{k: v for k, v in r.result.to_dict().items()
                            if k != "metric" and (sent or k != "sentences")},
                         **({"aggregation": r.aggregation, "signature": r.signature}
                            if r.aggregation != "default" else {})} for r in rows],
            "notes": list(notes),
            "seconds": {k: round(v, 3) for k, v in (seconds or {}).items()},
        }
        return json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    if fmt == "tsv":
        lines = ["system\tmetric\tscore\tp\tr\tf\tsignature"]
        for r in rows:
            c = r.result.corpus if r.aggregation == "default" else {}
            f = next((v for k, v in c.items() if k.startswith("f") and k[1:2].isdigit()), "")
            lines.append(f"{r.system}\t{r.metric}\t{r.value}\t{c.get('p', '')}\t"
                         f"{c.get('r', '')}\t{f}\t{r.signature}")
        if sent:
            lines += ["", *_sentence_lines(rows)]
        return "\n".join(lines) + "\n"
    out = _table(rows, systems, labels) + "\n" + "\n".join(_signatures(rows, labels)) + "\n"
    if sent:
        out += "\n" + "\n".join(_sentence_lines(rows)) + "\n"
    return out


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)

    def body() -> int:
        from ..score.registry import available_metrics
        from ..score.suite import aggregate_rows, load_suite, parse_system_arg, score_systems

        if args.list:
            print("\n".join(available_metrics()))
            return 0
        if not args.metrics:
            raise InputError("no metric given (-m METRIC ...; errtype score --list)")
        if not args.hyp:
            raise InputError("no system given (--hyp NAME=FILE)")
        if len(set(args.metrics)) != len(args.metrics):
            raise InputError("a metric is asked for twice")
        state: dict[str, Any] = {}

        def annotator() -> Any:
            if "ann" not in state:
                from .. import load

                state["ann"] = load(args.lang, **backend_options(args))
            return state["ann"]

        metrics = _build(args.metrics, args)
        suite = load_suite([parse_system_arg(h) for h in args.hyp], args.ref, args.src,
                           lang=args.lang, annotator=annotator)
        seconds: dict[str, float] = {}
        rows = aggregate_rows(score_systems(metrics, suite, seconds), args.aggregation)
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
        text = render(rows, [s.name for s in suite.systems], list(args.metrics), fmt,
                      args.sent, suite.notes, seconds)
        with atomic_output(args.out) as fh:
            fh.write(text)
        return 0

    return run(PROG, body, args=args)


if __name__ == "__main__":
    sys.exit(main())
