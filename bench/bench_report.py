"""CPU and wall time of ``errtype report`` on the 13 CoNLL-2014 systems (12 teams + INPUT).

Runs the README's recipe (``errtype report --ref official-2014.combined.m2 --hyp NAME=FILE ...``)
as a child process ``--repeat`` times with the systems of ``--systems`` (the files of
``data/original/official_submissions`` of ``git clone https://github.com/grammatical/evaluation``;
the shared data holds 4 of the 13), first with an empty cache (the gold is re-typed: parsed and
annotated) and then with the re-typed gold cached, and prints the medians (CPU seconds from
``getrusage`` of the child, and wall seconds). ``--html-as FILE`` compares the page with an
earlier one (identical apart from the note saying where the re-typed gold is cached);
``--baseline TREE`` runs another checkout of errtype (e.g. ``git worktree add ../base
COMMIT``) interleaved with this one and compares their pages.

    python bench/bench_report.py --systems DIR [--repeat 3] [--baseline TREE] [--html-as OLD]
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SYSTEMS = ["AMU", "CAMB", "CUUI", "IITB", "INPUT", "IPN", "NTHU", "PKU", "POST", "RAC", "SJTU",
           "UFC", "UMC"]
_CACHE_NOTE = re.compile(r"(cached in|read from the cache) [^;<]*")


def run(tree: Path, gold: Path, systems: Path, out: Path, cache: Path) -> tuple[float, float]:
    """One report by the errtype of ``tree``; (CPU s, wall s) of the child process."""
    argv = [sys.executable, "-m", "errtype.cli.main", "report", "--ref", str(gold), "--hyp",
            *(f"{n}={systems / n}" for n in SYSTEMS), "-o", str(out)]
    env = {**os.environ, "PYTHONPATH": str(tree), "ERRTYPE_CACHE_DIR": str(cache)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    # run in the tree: ``python -m`` puts the working folder first on the path
    subprocess.run(argv, check=True, env=env, capture_output=True, cwd=tree)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def page(path: Path) -> str:
    """The HTML without the cache note's path (the only part that differs between runs)."""
    return _CACHE_NOTE.sub("CACHE", path.read_text(encoding="utf-8"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--systems", type=Path, required=True)
    ap.add_argument("--gold", type=Path,
                    default=ROOT.parent / "shared" / "data" / "conll14" /
                    "official-2014.combined.m2")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--baseline", type=Path, help="another errtype checkout to run alongside")
    ap.add_argument("--html-as", type=Path, help="an earlier page to compare with")
    ap.add_argument("--keep", type=Path, help="write the last page here")
    args = ap.parse_args()
    missing = [n for n in SYSTEMS if not (args.systems / n).is_file()]
    if missing:
        print(f"missing in {args.systems}: {', '.join(missing)}")
        return 2
    trees = {"this tree": ROOT} | ({"baseline": args.baseline} if args.baseline else {})
    kinds = ["empty cache (gold re-typed)", "gold cached"]
    times: dict[tuple[str, str], list[tuple[float, float]]] = {
        (t, k): [] for t in trees for k in kinds}
    pages = set()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "report.html"
        for r in range(args.repeat):
            for t, tree in trees.items():
                cache = Path(tmp) / f"cache-{r}-{len(t)}"
                for kind in kinds:
                    times[(t, kind)].append(run(tree, args.gold, args.systems, out, cache))
                    pages.add(page(out))
        if args.keep:
            args.keep.write_text(out.read_text(encoding="utf-8"), encoding="utf-8")
        last = page(out)
    print(f"errtype report, {len(SYSTEMS)} CoNLL-2014 systems; medians of {args.repeat} "
          "interleaved runs")
    med = {key: statistics.median(c for c, _ in got) for key, got in times.items()}
    for (t, kind), got in times.items():
        cpu, wall = med[(t, kind)], statistics.median(w for _, w in got)
        ratio = (f"  {cpu / med[('baseline', kind)]:.2f}x baseline CPU"
                 if t != "baseline" and ("baseline", kind) in med else "")
        print(f"  {t:<10}{kind:<28} CPU {cpu:6.1f} s  wall {wall:6.1f} s{ratio}   (per run "
              "CPU/wall: " + "  ".join(f"{c:.1f}/{w:.1f}" for c, w in got) + ")")
    same = len(pages) == 1
    print(f"identical pages across runs: {'yes' if same else 'NO'}")
    if args.html_as:
        equal = page(args.html_as) == last
        same &= equal
        print(f"identical to {args.html_as}: {'yes' if equal else 'NO'}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
