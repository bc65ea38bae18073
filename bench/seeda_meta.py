"""SEEDA meta-evaluation with errtype's own metrics, side by side with published numbers.

Reads a local SEEDA checkout (github.com/tmu-nlp/SEEDA; it has no licence file, so it is never
copied into errtype) and CoNLL-2014's official gold (``../shared/data/conll14``), then:

1. **The protocol, checked on a metric anyone can compute**: "length" (a system's score is the
   number of characters of its subset outputs, a sentence's the characters of its output), whose
   SEEDA correlations gec-metrics pins in its tests (``src/gec_metrics/meta_eval/seeda_test.py``):
   system level against all four human scores, sentence level for SEEDA-S and SEEDA-E, and the
   window analysis (4 systems, TS_edit). errtype's numbers are printed beside them.
2. **Human scores from the judgments**: ExpectedWins and TrueSkill (errtype's own, averaged over
   seeded shuffles) against SEEDA's ``scores/human`` files.
3. **Metrics**: M2, SentM2, ERRANT, SentERRANT, GLEU and GoToScorer (``errtype score``'s
   registry, one edit extraction) on ``outputs/subset``; system-level Pearson/Spearman against
   SEEDA-S/SEEDA-E (TrueSkill and ExpectedWins) for the four system sets, sentence-level
   accuracy/Kendall, and GLEU beside the numbers gec-metrics' README prints for it.

4. **Aggregation** (``--aggregation``): the system-level correlations again, each set's systems
   ranked by TrueSkill or ExpectedWins over the metric's sentence-level comparisons (Goto et al.
   2025; gec-metrics' ``corr_system(metric, aggregation)``), for every metric with sentence
   scores, base set, beside the metric's own corpus scores.

    python bench/seeda_meta.py --seeda PATH [--gold CONLL14_GOLD.m2] [--json OUT]
                               [--metrics m2 sentm2 errant senterrant gleu goto]
                               [--aggregation default trueskill expected_wins]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from errtype.errors import InputError  # noqa: E402
from errtype.score.meta import seeda as sd  # noqa: E402
from errtype.score.meta.correlation import expected_wins, pearson, spearman  # noqa: E402
from errtype.score.meta.trueskill import TrueSkill  # noqa: E402
from errtype.score.registry import get_metric  # noqa: E402

#: gec-metrics' tests (src/gec_metrics/meta_eval/seeda_test.py): the "length" metric, base set
LENGTH_PUBLISHED = {
    "system": {"EW_edit": (0.42736690406501093, 0.4545454545454546),
               "EW_sent": (0.4532076150049142, 0.5454545454545455),
               "TS_edit": (0.4834645229702062, 0.5944055944055945),
               "TS_sent": (0.4880423593992749, 0.5524475524475525)},
    "sentence": {"edit": (0.5365853658536586, 0.07317073170731707),
                 "sent": (0.5455708346658139, 0.09114166933162776)},
    "window_TS_edit_4": [(-0.12719090478691203, 0.19999999999999998),
                         (0.5900362463225375, 0.7999999999999999),
                         (0.15518369973793955, 0.39999999999999997),
                         (0.1205407475751627, 0.39999999999999997),
                         (0.02436579076767783, 0.0),
                         (-0.02121433684516863, 0.19999999999999998),
                         (-0.16182645121353734, -0.39999999999999997),
                         (-0.23114390326454237, -0.39999999999999997),
                         (0.40786665626270313, 0.39999999999999997)],
}
#: gec-metrics' README: its GLEU (500 iterations) on SEEDA's subset, base set, (Pearson, Spearman)
GLEU_GEC_METRICS = {"EW_edit": (0.9007842791853424, 0.9300699300699302),
                    "EW_sent": (0.8749437873537543, 0.9090909090909092),
                    "TS_edit": (0.9123732084071973, 0.9440559440559443),
                    "TS_sent": (0.8856173179230024, 0.9020979020979022)}


def _f(x: float) -> str:
    return "   nan" if math.isnan(x) else f"{x:6.3f}"


def protocol_check(seeda: sd.Seeda) -> bool:
    length = sd.MetricScores(
        "length", "length", {s: float(sum(len(h) for h in seeda.subset(s))) for s in sd.SYSTEMS},
        {s: [float(len(h)) for h in seeda.subset(s)] for s in sd.SYSTEMS})
    res = sd.meta_evaluate(seeda, [length], sets=("base",), window=4)["length"]
    ok = True
    print("1. protocol check: the 'length' metric, base systems (ours | gec-metrics' tests)")
    for key, (p, s) in LENGTH_PUBLISHED["system"].items():
        got = res["system"][key]["base"]
        same = math.isclose(got["pearson"], p, rel_tol=1e-9) and math.isclose(
            got["spearman"], s, rel_tol=1e-9)
        ok &= same
        print(f"   system {key:8} r {got['pearson']:.6f} | {p:.6f}   rho {got['spearman']:.6f} | "
              f"{s:.6f}   {'equal' if same else 'DIFFERENT'}")
    for g, (a, k) in LENGTH_PUBLISHED["sentence"].items():
        got = res["sentence"][g]["base"]
        same = math.isclose(got["accuracy"], a, rel_tol=1e-9) and math.isclose(
            got["kendall"], k, rel_tol=1e-9)
        ok &= same
        print(f"   sentence {g:6} acc {got['accuracy']:.6f} | {a:.6f}   tau {got['kendall']:.6f} "
              f"| {k:.6f}   {'equal' if same else 'DIFFERENT'} ({got['pairs']} pairs, "
              f"{got['metric_ties']} metric ties)")
    windows = res["window"]["TS_edit"]
    same = all(math.isclose(w["pearson"], p, rel_tol=1e-9, abs_tol=1e-12)
               and math.isclose(w["spearman"], s, rel_tol=1e-9, abs_tol=1e-12)
               for w, (p, s) in zip(windows, LENGTH_PUBLISHED["window_TS_edit_4"], strict=True))
    ok &= same
    print(f"   window analysis (4 systems, TS_edit): {len(windows)} windows "
          f"{'all equal' if same else 'DIFFERENT'}")
    return ok


def human_check(seeda: sd.Seeda, runs: int) -> None:
    print(f"\n2. human scores from the judgments (ours vs scores/human; TrueSkill: {runs} runs)")
    systems = list(sd.SYSTEMS)
    for g in sd.GRANULARITIES:
        ew = expected_wins(seeda.judgments[g])
        pub = seeda.human[("EW", g)]
        diff = max(abs(ew[s] - pub[s]) for s in systems)
        t0 = time.process_time()
        ts = TrueSkill(runs=runs).rate(seeda.judgments[g])
        secs = time.process_time() - t0
        pts = seeda.human[("TS", g)]
        x, y = [ts[s] for s in systems], [pts[s] for s in systems]
        print(f"   {g:4}: ExpectedWins max |difference| {diff:.4f} (files print 3 decimals); "
              f"TrueSkill Pearson {pearson(x, y):.4f}, Spearman {spearman(x, y):.4f} "
              f"({secs:.1f} CPU s)")


def metrics_table(seeda: sd.Seeda, gold: Path, names: list[str],
                  aggregations: list[str] | None = None) -> dict:
    metrics = []
    for n in names:
        settings = {"gold_edits": "auto"} if n in ("errant", "senterrant", "goto") else {}
        metrics.append((n, get_metric(n, **settings)))
    t0, c0 = time.perf_counter(), time.process_time()
    scores = sd.score_subset(seeda, gold, metrics)
    print(f"\n3. metrics on outputs/subset ({len(seeda.subset('INPUT'))} sentences x 15 systems):"
          f" {time.perf_counter() - t0:.1f} s wall, {time.process_time() - c0:.1f} CPU s")
    sets = ("base", "+INPUT", "+fluent", "all")
    res = sd.meta_evaluate(seeda, scores, sets=sets)
    print("   system level, Pearson r / Spearman rho (TS = TrueSkill, EW = ExpectedWins)")
    head = "   metric      human   " + "".join(f"{s:>16}" for s in sets)
    print(head)
    for m, r in res.items():
        for key in ("TS_sent", "TS_edit", "EW_sent", "EW_edit"):
            cells = "".join(f"   {_f(r['system'][key][s]['pearson'])} "
                            f"{_f(r['system'][key][s]['spearman'])}" for s in sets)
            print(f"   {m:11} {key:8}{cells}")
    print("   sentence level, accuracy / Kendall tau (ties as SEEDA's script counts them)")
    for m, r in res.items():
        for g in sd.GRANULARITIES:
            cells = "".join(f"   {_f(r['sentence'][g][s]['accuracy'])} "
                            f"{_f(r['sentence'][g][s]['kendall'])}" for s in sets)
            print(f"   {m:11} SEEDA-{g[0].upper()} {cells}")
    if aggregations:
        print("   aggregation, base systems: Pearson r / Spearman rho of the system scores")
        print("   metric       aggregation     " + "".join(
            f"{k:>16}" for k in ("TS_sent", "TS_edit", "EW_sent", "EW_edit")))
        for m in scores:
            for agg in aggregations:
                try:
                    r = sd.meta_evaluate(seeda, [m], sets=("base",), aggregation=agg)[m.name]
                except InputError as exc:  # a metric without sentence scores
                    print(f"   {m.name:12} {agg:14}  ({exc})")
                    continue
                cells = "".join(f"   {_f(r['system'][k]['base']['pearson'])} "
                                f"{_f(r['system'][k]['base']['spearman'])}"
                                for k in ("TS_sent", "TS_edit", "EW_sent", "EW_edit"))
                print(f"   {m.name:12} {agg:14}{cells}")
    if "gleu" in res:
        print("   GLEU, base systems, ours (official GLEU, Python-2 draws) | gec-metrics' README "
              "(its GLEU)")
        for key, (p, s) in GLEU_GEC_METRICS.items():
            got = res["gleu"]["system"][key]["base"]
            print(f"   {key:8} r {got['pearson']:.4f} | {p:.4f}   rho {got['spearman']:.4f} | "
                  f"{s:.4f}")
    return res


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeda", required=True, help="local checkout of tmu-nlp/SEEDA")
    ap.add_argument("--gold", default=str(ROOT.parent / "shared" / "data" / "conll14" /
                                          "official-2014.combined.m2"))
    ap.add_argument("--metrics", nargs="+",
                    default=["m2", "sentm2", "errant", "senterrant", "gleu", "goto"])
    ap.add_argument("--trueskill-runs", type=int, default=50)
    ap.add_argument("--aggregation", nargs="*", default=["default", "trueskill", "expected_wins"],
                    help="system-score aggregations to correlate (part 4; none: skip)")
    ap.add_argument("--json", help="write the metric results as JSON here")
    args = ap.parse_args()
    seeda = sd.read_seeda(args.seeda)
    ok = protocol_check(seeda)
    human_check(seeda, args.trueskill_runs)
    res = metrics_table(seeda, Path(args.gold), args.metrics, args.aggregation)
    if args.json:
        Path(args.json).write_text(json.dumps(res, indent=1, default=str), encoding="utf-8")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
