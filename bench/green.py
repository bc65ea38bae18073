"""GREEN and the TrueSkill aggregation, errtype beside gec-metrics, on SEEDA's 15 system outputs
of the whole CoNLL-2014 test set (``outputs/all``), with the official two-annotator references
(``official-2014.combined.m2``: one corrected text per annotator).

For word and character units: every system's corpus GREEN (errtype | gec-metrics, 4 decimals),
the largest difference of corpus and sentence scores, and the system scores of
``rank_systems(aggregation="trueskill")`` (systems in SEEDA's order) against errtype's
``aggregate(..., "trueskill")``; CPU seconds of each side. gec-metrics is loaded without its
package ``__init__`` (bench/gec_metrics_peer.py); without it, errtype's numbers are printed alone.

    .venv/bin/python bench/green.py --seeda PATH [--gold official-2014.combined.m2]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import gec_metrics_peer  # noqa: E402
from seeda_scores import seeda_files  # noqa: E402

from errtype.m2 import read_m2  # noqa: E402
from errtype.score.extract import gold_references  # noqa: E402
from errtype.score.meta.aggregation import aggregate  # noqa: E402
from errtype.score.meta.seeda import SYSTEMS  # noqa: E402
from errtype.score.ngram.green import Green  # noqa: E402

DEFAULT_GOLD = ROOT.parent / "shared" / "data" / "conll14" / "official-2014.combined.m2"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeda", required=True, type=Path, help="SEEDA checkout or git directory")
    ap.add_argument("--gold", type=Path, default=DEFAULT_GOLD)
    ap.add_argument("--units", nargs="+", default=["word", "char"])
    args = ap.parse_args()
    try:
        peer = gec_metrics_peer.load("metrics.green").GREEN
        version = gec_metrics_peer.version()
    except ImportError as exc:
        print(f"gec-metrics not available ({exc}): errtype's numbers only")
        peer, version = None, "-"
    gold = list(read_m2(args.gold))
    src = [b.source for b in gold]
    refs = gold_references(gold)
    with tempfile.TemporaryDirectory() as tmp:
        _, outputs = seeda_files(args.seeda, Path(tmp))
        hyps = {s: [ln.rstrip("\n") for ln in
                    (outputs / f"{s}.txt").read_text(encoding="utf-8").splitlines()]
                for s in SYSTEMS}
    print(f"{len(src)} sentences, {len(refs)} references, {len(SYSTEMS)} systems; "
          f"gec-metrics {version}")
    ok = True
    for unit in args.units:
        t0 = time.process_time()
        ours = Green(unit=unit)
        res = {s: ours.score(src, refs, hyps[s]) for s in SYSTEMS}
        agg = aggregate({s: [x["score"] for x in res[s].sentences] for s in SYSTEMS},
                        "trueskill")
        cpu_ours = time.process_time() - t0
        theirs = ranked = sent = None
        if peer is not None:
            t0 = time.process_time()
            g = peer(peer.Config(unit=unit))
            theirs = {s: g.score_corpus(src, hyps[s], refs) for s in SYSTEMS}
            sent = {s: g.score_sentence(src, hyps[s], refs) for s in SYSTEMS}
            ranked = dict(zip(SYSTEMS, g.rank_systems(src, [hyps[s] for s in SYSTEMS], refs,
                                                      aggregation="trueskill"), strict=True))
            cpu_theirs = time.process_time() - t0
        print(f"\nGREEN ({unit} unit, n=4, beta=2): corpus x100 | TrueSkill mu "
              "(errtype | gec-metrics)")
        for s in SYSTEMS:
            c = 100 * res[s].corpus["green"]
            line = f"  {s:13} {c:8.4f}"
            line += f" | {100 * theirs[s]:8.4f}" if theirs else ""
            line += f"    {agg[s]:8.4f}" + (f" | {ranked[s]:8.4f}" if ranked else "")
            print(line)
        if theirs is not None:
            d_corpus = max(abs(res[s].corpus["green"] - theirs[s]) for s in SYSTEMS)
            d_sent = max(abs(a["score"] - b) for s in SYSTEMS
                         for a, b in zip(res[s].sentences, sent[s], strict=True))
            d_ts = max(abs(agg[s] - ranked[s]) for s in SYSTEMS)
            same = all(f"{100 * res[s].corpus['green']:.4f}" == f"{100 * theirs[s]:.4f}"
                       and f"{agg[s]:.4f}" == f"{ranked[s]:.4f}" for s in SYSTEMS)
            ok &= same
            print(f"  max |difference|: corpus {d_corpus:.1e}, sentence {d_sent:.1e}, "
                  f"TrueSkill {d_ts:.1e}; equal to 4 decimals: {'yes' if same else 'NO'}")
            print(f"  CPU seconds (GREEN + TrueSkill): errtype {cpu_ours:.1f}, gec-metrics "
                  f"{cpu_theirs:.1f} ({cpu_theirs / cpu_ours:.1f}x)")
        else:
            print(f"  CPU seconds: errtype {cpu_ours:.1f}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
