"""errtype's I-measure beside the official scorer (mfelice/imeasure, Python 2), side by side.

For every system of GMEG-Data's test split (``--gmeg DATA``, or the environment variable
ERRTYPE_GMEG: a clone's ``data/`` folder; the Yahoo texts need its commit 7d994c3), the gold
is errtype's extraction from the four reference texts, written in the scorer's XML
(:func:`errtype.score.edits.imeasure.gold_xml`). The official ``ieval.py -nomix -per-sent`` and
errtype's ``imeasure`` score the same system; the bench prints, per system, how many sentences
differ in any count (TP, TN, FP, FN, FPN) or in the printed sentence I, both corpus I values,
and both CPU times with their ratio. The checkout comes from ``--imeasure`` or
``$ERRTYPE_IMEASURE`` and the Python 2.7 (with numpy) from ``--python2`` or
``$ERRTYPE_IMEASURE_PYTHON`` (``bench/peer_repos.py``).

    python bench/bench_imeasure.py [--gmeg GMEG/data] [--domains fce wiki yahoo]
                                   [--systems amu ...] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_gmeg import read_test_split  # noqa: E402
from peer_repos import bench_checkout  # noqa: E402

from errtype.score.edits.imeasure import KEYS, gold_xml, imeasure  # noqa: E402
from errtype.score.meta import gmeg  # noqa: E402

GMEG_CLONE = ("git clone https://github.com/grammarly/GMEG (the Yahoo texts: git -C GMEG "
              "checkout 7d994c3 -- data)")


def run_official(checkout: Path, python: str, gold: str, hypotheses: list[str], tmp: Path
                 ) -> tuple[dict[int, list[str]], list[str], float]:
    """Run ``ieval.py -nomix -per-sent`` on ``gold`` (the scorer's XML) and the hypotheses:
    its correction row per sentence (0-based index: the printed columns after the label),
    its overall correction row, and the CPU seconds it took."""
    (tmp / "gold.xml").write_text(gold, encoding="utf-8")
    (tmp / "hyp.txt").write_text("".join(h + "\n" for h in hypotheses), encoding="utf-8")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([python, "ieval.py", f"-ref:{tmp / 'gold.xml'}",
                           f"-hyp:{tmp / 'hyp.txt'}", "-nomix", "-per-sent"], cwd=checkout,
                          capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"the official I-measure scorer failed: {done.stderr[-2000:]}")
    rows, overall = {}, []
    for line in done.stdout.splitlines():
        p = line.split()
        if len(p) == 15 and p[1] == "Cor":
            rows[int(p[0]) - 1] = p[2:]
        elif p[:1] == ["Correction"]:
            overall = p[1:]
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return rows, overall, cpu


def differing(result, rows: dict[int, list[str]]) -> list[int]:
    """Sentences whose counts or printed sentence I differ from the official rows."""
    out = []
    for s in result.sentences:
        theirs = rows.get(s["id"])
        if (theirs is None or [s["counts"][k] for k in KEYS] != [int(x) for x in theirs[:5]]
                or f"{100 * s['score']:.2f}" != theirs[12]):
            out.append(s["id"])
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gmeg", default=os.environ.get("ERRTYPE_GMEG"),
                    help="GMEG-Data's data/ folder (default $ERRTYPE_GMEG)")
    ap.add_argument("--imeasure", help="the official scorer's checkout (default "
                                       "$ERRTYPE_IMEASURE)")
    ap.add_argument("--python2", default=os.environ.get("ERRTYPE_IMEASURE_PYTHON", "python2"))
    ap.add_argument("--domains", nargs="+", default=list(gmeg.DOMAINS))
    ap.add_argument("--systems", nargs="+", help="default: all six")
    ap.add_argument("--json", help="write every number as JSON")
    args = ap.parse_args()
    if not args.gmeg:
        print(f"skipped: set ERRTYPE_GMEG or --gmeg to GMEG-Data's data/ folder ({GMEG_CLONE})")
        return 0
    checkout = bench_checkout("imeasure", args.imeasure)
    from errtype.score.suite import load_suite

    out: dict[str, dict] = {}
    print("domain\tsystem\tsentences\tdiffering\terrtype I\tofficial I\terrtype CPU s"
          "\tofficial CPU s\tratio")
    for data in read_test_split(args.gmeg, args.domains):
        d = data.domain
        systems = args.systems or list(data.systems)
        suite = load_suite(list(data.systems.items()), data.references, data.source)
        gold = suite.gold()
        xml = gold_xml(gold)
        refs = [list(r) for r in suite.references()]
        sources = list(suite.sources)
        for name in systems:
            hyps = list(next(s for s in suite.systems if s.name == name).hypotheses)
            with tempfile.TemporaryDirectory() as tmp:
                rows, overall, their_cpu = run_official(checkout, args.python2, xml, hyps,
                                                        Path(tmp))
            t0 = time.process_time()
            res = imeasure(sources, refs, hyps)
            our_cpu = time.process_time() - t0
            diff = differing(res, rows)
            ours, theirs = f"{100 * res.corpus['i']:.2f}", overall[12]
            same_totals = [res.counts[k] for k in KEYS] == [int(x) for x in overall[:5]]
            print(f"{d}\t{name}\t{len(hyps)}\t{len(diff)}\t{ours}\t{theirs}"
                  f"{'' if same_totals else ' (totals differ)'}\t{our_cpu:.1f}\t{their_cpu:.1f}"
                  f"\t{their_cpu / our_cpu:.1f}x", flush=True)
            out.setdefault(d, {})[name] = {
                "sentences": len(hyps), "differing": diff, "errtype_i": ours,
                "official_i": theirs, "same_totals": same_totals,
                "errtype_cpu_s": round(our_cpu, 2), "official_cpu_s": round(their_cpu, 2)}
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
