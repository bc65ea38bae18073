"""Table 8 of Napoles et al. (TACL 2019) reproduced with errtype's metrics on GMEG-Data.

GMEG-Data is read from a local clone (``git clone https://github.com/grammarly/GMEG``; the Yahoo
texts are only in its commit 7d994c3: ``git -C GMEG checkout 7d994c3 -- data``), given as
``--data GMEG/data`` or the environment variable ERRTYPE_GMEG. For each domain of the test split
whose texts are there, every metric of Table 8 that the registry has is computed once (one edit
extraction) and correlated with the human scores over the six systems and 674 hybrids
(:mod:`errtype.score.meta.gmeg`), for ``--seeds`` seeds of the hybrids (default 10): the table
prints errtype's r and ρ at seed 0, the published values, the differences, whether both are within
0.05, and the spread (min-max) over the seeds. ERRANT is given both ways: as the paper defines
it (mean F over its error categories, the default of ``errtype-meta gmeg``) and as errant's own
corpus F ("micro"); CHRF++ also as the reading that reproduces the paper's FCE row (chrF without
word n-grams, a system scored by the mean of its sentence scores: ``--system-score mean``).

    python bench/bench_gmeg.py [--data GMEG/data] [--seeds 10] [--synthetic 674] [--json OUT]
                               [--rows LABEL ...] [--single-references]

``--mix-candidates`` prints how many references the official I-measure scorer's default mode
(mixing the annotators' corrections; the paper ran ``-nomix``) would build from errtype's gold:
the product over each sentence's clusters of overlapping edits of the alternatives, one per
annotator, and "no change" where not every annotator corrected, before duplicates are removed.
``--single-references`` also prints, at seed 0, each row's r and ρ against each reference alone
(ref0 ... ref3 as the only gold): how far the paper's unreleased choice of gold could move a row.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from errtype.errors import InputError  # noqa: E402
from errtype.score.meta import gmeg  # noqa: E402
from errtype.score.meta.protocol import build_metrics  # noqa: E402
from errtype.score.registry import available_metrics, factory_of, missing_extra  # noqa: E402

CLONE = ("git clone https://github.com/grammarly/GMEG (the Yahoo texts: git -C GMEG checkout "
         "7d994c3 -- data)")

TABLE8 = gmeg.TABLE8

#: Table 8's rows as errtype metric entries (``errtype-meta gmeg --metric``), as the paper's
#: section 5.1 defines them: charGLEU with character n-grams n = 1..5 (``gleu-char``'s default is
#: the ``gleu`` package's 4), I-measure with -nomix
ENTRIES = {
    "CHRF++": "chrf",
    "ERRANT0.2": "errant:beta=0.2",
    "ERRANT0.5": "errant",
    "GLEU": "gleu",
    "charGLEU": "gleu-char:order=5",
    "I-measure": "imeasure",
    "M20.2": "m2:beta=0.2",
    "M20.5": "m2",
}
MICRO = {"ERRANT0.2 (micro)": "errant:beta=0.2", "ERRANT0.5 (micro)": "errant"}
#: rows scored by the mean of their sentence scores (``errtype-meta gmeg --system-score mean``)
MEAN = {"CHRF++ (chrF, sentence mean)": "chrf:word_order=0"}
TOLERANCE = 0.05


def _available(entry: str) -> str | None:
    """None, or why the metric of an entry cannot run here."""
    name = entry.partition(":")[0]
    if name not in available_metrics() and name != "m2":
        return "not yet available (no such registry metric)"
    missing = missing_extra(getattr(factory_of(name), "extra", None))
    return f"needs {', '.join(missing)}" if missing else None


def read_test_split(folder: str, domains: list[str]) -> Iterator[gmeg.GmegDomain]:
    """The test split of each domain whose files are there; a missing one is printed as
    skipped, with the reason (the Yahoo texts: the commit to check out)."""
    for d in domains:
        try:
            yield gmeg.read_gmeg(folder, "test", d)
        except InputError as exc:
            print(f"# {d}: skipped: {exc}\n")


def overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether edit span a falls on span b, as the scorer's M2-to-XML step clusters edits."""
    if a == b:
        return True
    if a[0] == a[1]:
        return b[0] < a[0] < b[1]
    if b[0] == b[1]:
        return a[0] < b[0] < a[1]
    return b[0] < a[1] <= b[1] or b[0] <= a[0] < b[1]


def mix_candidates(gold: list) -> dict[str, float]:
    """Per sentence, the references mixing would enumerate (an upper bound: duplicates and
    edits on the same span are dropped after enumeration), summarised."""
    sizes = []
    for block in gold:
        annotators = {e.annotator for e in block.edits}
        edits = sorted(((e.start, e.end, e.annotator) for e in block.edits if not e.is_noop),
                       key=lambda e: e[0] - e[1])  # longest first
        clusters: list[list[tuple[int, int, int]]] = []
        for e in edits:
            home = next((c for c in clusters if any(overlap(e[:2], x[:2]) for x in c)), None)
            if home is None:
                clusters.append([e])
            else:
                home.append(e)
        size = 1
        for c in clusters:
            alternatives = len({x[2] for x in c})
            size *= alternatives + (alternatives < len(annotators))
        sizes.append(size)
    sizes.sort()
    summary = {"sentences": len(sizes), "total": sum(sizes), "median": sizes[len(sizes) // 2],
               "p90": sizes[int(0.9 * len(sizes))], "max": sizes[-1]}
    print("I-measure mixing, references per sentence: " + ", ".join(
        f"{k} {v:,}" for k, v in summary.items()) + "\n")
    return summary


def _single_references(data: gmeg.GmegDomain, rows: dict[str, str]) -> dict[str, list]:
    """Seed-0 r and ρ of every row with each reference alone as the gold, printed."""
    out: dict[str, list] = {label: [] for label in rows}
    print("metric\t" + "\t".join(f"ref{k} r / rho" for k in range(len(data.references)))
          + "\tpublished")
    for ref in data.references:
        one = dataclasses.replace(data, references=[ref])
        res = gmeg.evaluate_domain(gmeg.prepare(one, build_metrics(list(rows.values()), [])),
                                   samples=2, seed=0, sweep=False)
        for label, entry in rows.items():
            c = res["metrics"][entry]
            out[label].append((c["pearson"]["value"], c["spearman"]["value"]))
    for label, vals in out.items():
        pub = TABLE8[label][data.domain]
        print(label + "\t" + "\t".join(f"{r:.3f} / {rho:.3f}" for r, rho in vals)
              + f"\t{pub[0]:.3f} / {pub[1]:.3f}")
    print()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=os.environ.get("ERRTYPE_GMEG"),
                    help="GMEG-Data's data/ folder (default $ERRTYPE_GMEG)")
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--synthetic", type=int, default=674)
    ap.add_argument("--domains", nargs="+", default=list(gmeg.DOMAINS))
    ap.add_argument("--json", help="write every number as JSON")
    ap.add_argument("--rows", nargs="+", metavar="LABEL",
                    help="only these rows (labels as printed, e.g. charGLEU M20.5)")
    ap.add_argument("--mix-candidates", action="store_true",
                    help="also the number of references the I-measure's mixing would build")
    ap.add_argument("--single-references", action="store_true",
                    help="also each row against each reference alone (seed 0)")
    args = ap.parse_args()
    if not args.data:
        print(f"skipped: set ERRTYPE_GMEG or --data to GMEG-Data's data/ folder ({CLONE})")
        return 0
    rows = {**ENTRIES, **MICRO, **MEAN}
    if args.rows:
        unknown = sorted(set(args.rows) - set(rows))
        if unknown:
            ap.error(f"unknown rows {', '.join(unknown)}; choose from {', '.join(rows)}")
        rows = {label: e for label, e in rows.items() if label in args.rows}
    unavailable = {label: why for label, e in rows.items() if (why := _available(e))}
    runnable = {label: e for label, e in rows.items() if label not in unavailable}
    out: dict[str, dict] = {}
    for data in read_test_split(args.data, args.domains):
        d = data.domain
        t0 = time.perf_counter()
        plain = {lab: e for lab, e in runnable.items() if lab not in MICRO and lab not in MEAN}
        micro = {lab: e for lab, e in runnable.items() if lab in MICRO}
        mean = {lab: e for lab, e in runnable.items() if lab in MEAN}
        prep = gmeg.prepare(data, build_metrics(list(plain.values()), []))
        preps = [(prep, plain)]
        if micro:
            preps.append((gmeg.prepare(data, build_metrics(list(micro.values()), []), "micro",
                                       suite=prep.suite), micro))
        if mean:
            preps.append((gmeg.prepare(data, build_metrics(list(mean.values()), []),
                                       suite=prep.suite, system="mean"), mean))
        prepared = time.perf_counter() - t0
        per_label: dict[str, list[tuple[float, float]]] = {}
        for seed in range(args.seeds):
            for p, labels in preps:
                res = gmeg.evaluate_domain(p, synthetic=args.synthetic, seed=seed, sweep=False)
                for label, entry in labels.items():
                    c = res["metrics"][entry]
                    per_label.setdefault(label, []).append(
                        (c["pearson"]["value"], c["spearman"]["value"]))
        out[d] = {"seconds_prepare": round(prepared, 1),
                  "seconds_total": round(time.perf_counter() - t0, 1), "rows": {}}
        print(f"# {d} (test): {data.n_sentences} sentences, 6 systems + {args.synthetic} hybrids,"
              f" {args.seeds} seeds; extraction and scoring {prepared:.0f} s")
        print("metric\terrtype r\tpublished r\tdiff\terrtype rho\tpublished rho\tdiff\twithin"
              "\tr spread\trho spread")
        for label in rows:
            pub = TABLE8[label.split(" ")[0]][d]
            if label in unavailable:
                print(f"{label}\t-\t{pub[0]:.3f}\t-\t-\t{pub[1]:.3f}\t-\t{unavailable[label]}")
                out[d]["rows"][label] = {"published": pub, "unavailable": unavailable[label]}
                continue
            vals = per_label[label]
            r, rho = vals[0]
            rs = [v[0] for v in vals]
            rhos = [v[1] for v in vals]
            ok = abs(r - pub[0]) <= TOLERANCE and abs(rho - pub[1]) <= TOLERANCE
            print(f"{label}\t{r:.3f}\t{pub[0]:.3f}\t{r - pub[0]:+.3f}\t{rho:.3f}\t{pub[1]:.3f}"
                  f"\t{rho - pub[1]:+.3f}\t{'yes' if ok else 'NO'}\t{min(rs):.3f}-{max(rs):.3f}"
                  f"\t{min(rhos):.3f}-{max(rhos):.3f}")
            out[d]["rows"][label] = {"published": pub, "r": rs, "rho": rhos, "within": ok}
        print()
        if args.mix_candidates:
            out[d]["mix_candidates"] = mix_candidates(prep.suite.gold())
        if args.single_references:
            out[d]["single_references"] = _single_references(data, plain)
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
