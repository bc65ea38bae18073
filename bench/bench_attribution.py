"""Edit attribution, errtype beside gec-metrics' attributors (add, sub, shapley), on CoNLL-2014
system outputs with GREEN (word n-grams, n=4, beta=2) against the official two-annotator
references.

Both sides get the same edits (errtype's extraction of each hypothesis, ``inputs_edits`` for
gec-metrics: its ERRANT is not loaded) and the same reference texts (gec-metrics' GREEN with the
sentence's references bound: bench/gec_metrics_peer.py). Printed per method: sentences and edits
compared, how many edit values are equal (|difference| <= 1e-9) and the largest difference, and
CPU seconds of each side on the same sentences (errtype: every variant in one metric call;
gec-metrics: one attribute() call a sentence). Shapley: the sentences with at most --max-exact
edits (gec-metrics' exact Shapley scores 2^n subsets; errtype samples orders above).

    PYTHONPATH=. .venv/bin/python bench/bench_attribution.py [--sentences 300] [--systems AMU CAMB]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import gec_metrics_peer  # noqa: E402

from errtype import load  # noqa: E402
from errtype.m2 import read_m2  # noqa: E402
from errtype.score.attribution import MAX_EXACT, attribute_corpus  # noqa: E402
from errtype.score.extract import extract_edits, gold_references  # noqa: E402
from errtype.score.registry import ScoreInput, get_metric  # noqa: E402

CONLL = ROOT.parent / "shared" / "data" / "conll14"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--conll", type=Path, default=CONLL, help="folder of "
                    "official-2014.combined.m2 and systems/NAME")
    ap.add_argument("--systems", nargs="+", default=None, help="default: every system there")
    ap.add_argument("--sentences", type=int, default=300, help="the first N sentences")
    ap.add_argument("--max-exact", type=int, default=MAX_EXACT)
    ap.add_argument("--methods", nargs="+", default=["add", "sub", "shapley"])
    args = ap.parse_args()
    gold = list(read_m2(args.conll / "official-2014.combined.m2"))[:args.sentences]
    names = args.systems or sorted(p.name for p in (args.conll / "systems").iterdir()
                                   if p.name != "INPUT")
    hyps = {s: (args.conll / "systems" / s).read_text(encoding="utf-8").splitlines()[:len(gold)]
            for s in names}
    blocks = extract_edits(load("en"), [b.source for b in gold], hyps)
    refs = gold_references(gold)
    metric = get_metric("green")
    print(f"{len(gold)} sentences x {len(names)} systems ({', '.join(names)}), GREEN, "
          f"{len(refs)} references; gec-metrics attributors @ "
          f"{gec_metrics_peer.ATTRIBUTOR_COMMIT[:7]}")
    for method in args.methods:
        gec_metrics_peer.attributor(method)  # loaded before the clock starts
        t_ours = t_theirs = 0.0
        sents = edits = equal = 0
        worst = 0.0
        for s in names:
            # the sentences both sides attribute: edited, and for Shapley with at most
            # --max-exact edits (gec-metrics' is exact only); each side timed on them alone
            keep = [i for i, b in enumerate(blocks[s])
                    if 0 < sum(not e.is_noop for e in b.edits)
                    and (method != "shapley" or len(b.edits) <= args.max_exact)]
            data = ScoreInput([gold[i] for i in keep], [hyps[s][i] for i in keep])
            t0 = time.process_time()
            ours = attribute_corpus(metric, data, [blocks[s][i] for i in keep], method=method,
                                    max_exact=args.max_exact)
            t_ours += time.process_time() - t0
            t0 = time.process_time()
            theirs = [gec_metrics_peer.attribute(
                method, gec_metrics_peer.bound_green([r[i] for r in refs]), gold[i].source,
                [a.edit for a in sent.edits]) for i, sent in zip(keep, ours, strict=True)]
            t_theirs += time.process_time() - t0
            for sent, values in zip(ours, theirs, strict=True):
                assert not sent.sampled
                sents += 1
                for a, b in zip(sent.edits, values, strict=True):
                    edits += 1
                    d = abs(a.value - b)
                    worst = max(worst, d)
                    equal += d <= 1e-9
        print(f"{method:8} {sents} sentences, {edits} edits: {equal} equal, max |diff| "
              f"{worst:.2e}; CPU s errtype {t_ours:.2f}, gec-metrics {t_theirs:.2f} "
              f"(gec-metrics / errtype {t_theirs / max(t_ours, 1e-9):.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
