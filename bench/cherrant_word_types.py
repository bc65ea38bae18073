"""errtype's ChERRANT word-level types against ChERRANT's own, on ChERRANT's gold spans.

ChERRANT's repository (HillZhang1999/MuCGEC @ 3922193, ``scorers/ChERRANT/samples``) ships the
word-level M2 that ChERRANT itself wrote with LTP for the NLPCC-2018 test set
(``nlpcc2018_official.ref.m2.word``: 2,000 sentences) and its demo. Every edit of those files is
re-typed by ``errtype-m2 --lang zh --granularity word --scheme cherrant -gold`` (same spans and
segmentation; jieba tags the words instead of LTP) and compared with the type ChERRANT wrote:
overall, per ChERRANT type, for the operation letter alone, and as a confusion list. The time of
the re-typing is printed too (CPU seconds of this process).

FASPell's character table (ChERRANT's spelling test) is read from the same repository, a checkout
named by ``--cherrant DIR`` or ``$ERRTYPE_CHERRANT`` (``git clone
https://github.com/HillZhang1999/MuCGEC``; ``bench/peer_repos.py``).

    python bench/cherrant_word_types.py [--cherrant DIR] [--file NAME ...] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from peer_repos import bench_checkout  # noqa: E402

from errtype.annotator import Annotator  # noqa: E402
from errtype.convert import m2_to_m2  # noqa: E402
from errtype.m2 import read_m2  # noqa: E402

SAMPLES = "scorers/ChERRANT/samples/"
FILES = ("nlpcc2018_official.ref.m2.word", "demo.ref.m2.word")


def types_of(path: Path) -> list[str]:
    return [e.type for b in read_m2(path) for e in b.edits if not e.is_noop and e.type != "NA"]


def compare(gold: list[str], ours: list[str]) -> dict:
    per: dict[str, list[int]] = {}
    confusion: Counter = Counter()
    for g, o in zip(gold, ours, strict=True):
        row = per.setdefault(g, [0, 0])
        row[0] += g == o
        row[1] += 1
        if g != o:
            confusion[f"{g} -> {o}"] += 1
    letters = sum(g[0] == o[0] for g, o in zip(gold, ours, strict=True))
    return {"edits": len(gold), "agree": sum(a for a, _ in per.values()),
            "letter_agree": letters, "per_type": per,
            "confusion": confusion.most_common(15)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cherrant", type=Path,
                    help="a checkout of HillZhang1999/MuCGEC (default: $ERRTYPE_CHERRANT)")
    ap.add_argument("--file", nargs="+", default=list(FILES))
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    results = {}
    checkout = bench_checkout("cherrant", args.cherrant)
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        table = checkout / "scorers/ChERRANT/data/char_meta.txt"
        os.environ["ERRTYPE_ZH_CHAR_META"] = str(table)
        ann = Annotator("zh", granularity="word", scheme="cherrant")
        for name in args.file:
            gold = checkout / SAMPLES / name
            out = tmp / (name + ".retyped")
            cpu = time.process_time()
            m2_to_m2(ann, gold, out, mode="gold", minimise=False)
            cpu = time.process_time() - cpu
            res = compare(types_of(gold), types_of(out))
            res["cpu_s"] = round(cpu, 2)
            results[name] = res
            n = res["edits"]
            print(f"{name}: {res['agree']}/{n} types agree ({100 * res['agree'] / n:.1f} %), "
                  f"operation letter {res['letter_agree']}/{n} "
                  f"({100 * res['letter_agree'] / n:.1f} %); re-typing {cpu:.1f} CPU s")
            print(f"  {'ChERRANT type':14} {'n':>5} {'agree':>6} {'%':>6}")
            for typ, (a, k) in sorted(res["per_type"].items(), key=lambda kv: -kv[1][1]):
                print(f"  {typ:14} {k:5} {a:6} {100 * a / k:6.1f}")
            print("  most frequent disagreements: "
                  + ", ".join(f"{c} ({k})" for c, k in res["confusion"]))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
