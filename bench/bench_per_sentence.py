"""Per-sentence use, as an ERRANT client does it: ``parse`` + ``parse`` + ``annotate`` per pair.

Runs in one process, interleaved and best of ``--repeat``: ERRANT 3.0.2 (``errant.load("en")``
on its own ``spacy.load(name, disable=["ner"])``, as ERRANT loads it), errtype's drop-in
(``errtype.errant.load("en")``, the same calls) and errtype's own string API
(``Annotator.annotate(orig, cor)``, what ``errtype.annotate`` runs). Prints CPU seconds of the
whole process (every thread, BLAS threads included) beside wall time, and checks that every edit
(span, correction, type: the M2 line) is the same.

``--busy 0,3`` repeats the comparison with 0 and then 3 busy processes beside it (pure Python
loops, one per process: the machine oversubscribed), where extra BLAS threads would compete for
the cores; errtype parses under one BLAS thread (``errtype.parse.blas``).

    python bench/bench_per_sentence.py [--pairs 1000] [--repeat 3] [--busy 0,3] [--data D]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_m2 import load_pairs, peer_errant  # noqa: E402

Run = Callable[[list[tuple[str, str]]], list[list[str]]]


def spread(pairs: list[tuple[str, str]], n: int) -> list[tuple[str, str]]:
    """``n`` pairs taken evenly from all of them (both corpora, every reference)."""
    step = max(1, len(pairs) // n)
    return pairs[::step][:n]


def busy(n: int) -> list[subprocess.Popen[bytes]]:
    """``n`` processes spinning on one core each."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--pairs", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--busy", default="0,3", help="comma-separated numbers of busy processes")
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    args = ap.parse_args()
    errant = peer_errant()
    if errant is None:
        return 1
    import spacy
    from threadpoolctl import threadpool_info

    import errtype
    import errtype.errant as shim

    pairs = spread(load_pairs(Path(args.data), 10**9), args.pairs)
    ours = shim.load("en")
    name = f"{ours.nlp.meta['lang']}_{ours.nlp.meta['name']}"
    peer = errant.load("en", spacy.load(name, disable=["ner"]))
    engine = errtype.load("en")
    blas = [(i["internal_api"], i["num_threads"]) for i in threadpool_info()
            if i["user_api"] == "blas"]
    print(f"{len(pairs)} pairs (JFLEG dev x 4 refs, CoNLL-2014 INPUT x 3 systems); spaCy "
          f"{spacy.__version__}, {name}; {os.cpu_count()} CPUs; BLAS outside parses: {blas}")

    def client(annotator: object) -> Run:
        def run(items: list[tuple[str, str]]) -> list[list[str]]:
            parse, annotate = annotator.parse, annotator.annotate  # type: ignore[attr-defined]
            return [[e.to_m2() for e in annotate(parse(o), parse(c))] for o, c in items]
        return run

    def strings(items: list[tuple[str, str]]) -> list[list[str]]:
        return [[e.to_m2() for e in engine.annotate(o, c)] for o, c in items]

    runs: list[tuple[str, Run]] = [("ERRANT 3.0.2 parse+parse+annotate", client(peer)),
                                   ("errtype.errant parse+parse+annotate", client(ours)),
                                   ("errtype Annotator.annotate(str, str)", strings)]
    for warm in runs:  # first use loads lazily (word lists, caches): not what is measured
        warm[1](pairs[:20])
    status = 0
    for n_busy in (int(x) for x in args.busy.split(",")):
        spinners = busy(n_busy)
        try:
            best: dict[str, tuple[float, float]] = {}
            outputs: dict[str, list[list[str]]] = {}
            for _ in range(args.repeat):
                for label, run in runs:
                    w0, c0 = time.perf_counter(), time.process_time()
                    outputs[label] = run(pairs)
                    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
                    old = best.get(label, (wall, cpu))
                    best[label] = (min(old[0], wall), min(old[1], cpu))
        finally:
            for p in spinners:
                p.kill()
                p.wait()
        ref_label = runs[0][0]
        print(f"\n{n_busy} busy processes beside it (best of {args.repeat}, interleaved):")
        print(f"{'run':<40}{'wall s':>8}{'CPU s':>8}{'CPU ms/pair':>12}{'CPU vs ERRANT':>15}"
              "  edits")
        for label, _ in runs:
            wall, cpu = best[label]
            same = outputs[label] == outputs[ref_label]
            status |= not same
            print(f"{label:<40}{wall:>8.2f}{cpu:>8.2f}{1000 * cpu / len(pairs):>12.2f}"
                  f"{cpu / best[ref_label][1]:>14.2f}x  {'identical' if same else 'DIFFERENT'}")
    print("\nCPU s = time.process_time() of this process (all its threads); the machine's load "
          "from other users adds to wall time and, through shared caches, to CPU time.")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
