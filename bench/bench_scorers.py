"""Side-by-side timings of errtype's MaxMatch and GLEU on CoNLL-2014 and JFLEG, in one process.

* MaxMatch: every CoNLL-2014 system in ../shared/data, plus a pathological case (AMU shifted by
  one line against the source, so every pair is misaligned). There is no PyPI port of the
  official m2scorer; its times are the ones measured in METRICS.md §4 (py3 port, CPython 3.11,
  2-core VM).
* GLEU: JFLEG dev (source as hypothesis, 4 references, and the human figure) and the CoNLL-2014
  systems (references = each annotator's corrected text from the combined M2), against the PyPI
  package ``gleu`` (shotakoyama) with ``--fix-seed`` (same draws, same numbers) and without it.

    python bench/bench_scorers.py [--data ../shared/data] [--shift-lines N] [--repeat R]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from errtype.score._checks import misaligned  # noqa: E402
from errtype.score.edits.maxmatch import MaxMatch, load_gold, read_hypotheses  # noqa: E402
from errtype.score.ngram.gleu import GLEU, draw_table, m2_references, read_gleu_inputs  # noqa: E402

#: METRICS.md §4: official m2scorer 3.2 (py3 port), CPython 3.11, seconds per CoNLL-2014 system
OFFICIAL_M2 = {"AMU": 6.3, "all 12 systems": 360.0, "NTHU": 113.0, "NTHU line 41": 85.0}


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """Best CPU time (seconds, this process) of ``repeat`` runs and the last result.

    CPU time rather than wall time, so that other load on a shared machine does not skew the
    comparison; every tool here is single-threaded and runs in this process.
    """
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.process_time()
        out = fn()
        best = min(best, time.process_time() - t0)
    return best, out


def peer_gleu(src: Path, refs: list[Path], hyp: Path, fix_seed: bool, iters: int = 500) -> float:
    """The PyPI ``gleu`` package, in process (its n-gram caches cleared first)."""
    from gleu import count
    from gleu.corpus_main import corpus_main

    for fn in (count.ngram_counter, count.split_word_ngram, count.split_char_ngram):
        fn.cache_clear()
    count.set_tokenization("word")
    args = argparse.Namespace(n=4, source_path=str(src), ref_path_list=[str(r) for r in refs],
                              hyp_path_list=[str(hyp)], iter=iters, digit=4, proc=1,
                              token="word", max=False, fix_seed=fix_seed, verbose=False)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        corpus_main(args)
    return float(buf.getvalue().split("\t")[-1])


def bench_maxmatch(data: Path, shift_lines: int, repeat: int, tmp: Path) -> None:
    conll = data / "conll14"
    gold_path = conll / "official-2014.combined.m2"
    systems = sorted(p.name for p in (conll / "systems").iterdir())
    print("== MaxMatch (M2) on CoNLL-2014, 1,312 sentences, both annotators ==")
    print("system\tP\tR\tF0.5\tcorrect/proposed/gold\terrtype s\tofficial s (METRICS.md §4)"
          "\tratio")
    t0 = time.process_time()
    gold = load_gold(gold_path)
    print(f"(reading the M2 file: {time.process_time() - t0:.3f} s, once; all times are CPU s)")
    for name in systems:
        hyps = read_hypotheses(conll / "systems" / name, len(gold))
        secs, res = timed(lambda h=hyps: MaxMatch().score(h, gold), repeat)
        c = res.counts
        off = OFFICIAL_M2.get(name)
        ratio = f"{off / secs:.0f}x" if off else "-"
        p, r, f = (100 * v for v in res.corpus.values())
        print(f"{name}\t{p:.4f}\t{r:.4f}\t{f:.4f}\t{c['correct']}/{c['proposed']}/{c['gold']}"
              f"\t{secs:.3f}\t{off if off else '6.3-17.2 (range)'}\t{ratio}")
    # Pathological: AMU shifted by one line, so every hypothesis belongs to another source.
    hyps = read_hypotheses(conll / "systems" / "AMU", len(gold))
    shifted = hyps[1:] + hyps[:1]
    n = min(shift_lines, len(gold)) if shift_lines > 0 else len(gold)
    per: list[tuple[float, int, int, int]] = []
    scorer = MaxMatch()
    t0 = time.process_time()
    for i in range(n):
        t1 = time.process_time()
        scorer.score([shifted[i]], [gold[i]])
        per.append((time.process_time() - t1, i, len(gold[i].tokens), len(shifted[i].split())))
    total = time.process_time() - t0
    per.sort(reverse=True)
    flagged = misaligned([g.source for g in gold[:n]], shifted[:n])
    print(f"\npathological: AMU shifted by one line, first {n} sentences (every pair misaligned;"
          f" {len(flagged)} flagged in the result's warning)")
    print(f"  errtype total {total:.2f} s, mean {total / n:.3f} s/sentence, median "
          f"{statistics.median(p[0] for p in per):.3f} s")
    print("  slowest (s, line, source tokens, hypothesis tokens): "
          + ", ".join(f"({s:.2f}, {i + 1}, {a}, {b})" for s, i, a, b in per[:5]))
    print(f"  official: one such NTHU line (54 vs 37 tokens) takes {OFFICIAL_M2['NTHU line 41']}"
          f" s (measured with m2scorer 3.2); users report 5 h+ for degenerate outputs")


def bench_gleu(data: Path, repeat: int, tmp: Path) -> None:
    jf = data / "jfleg"
    src, refs = jf / "dev.src", [jf / f"dev.ref{i}" for i in range(4)]
    try:
        import gleu  # noqa: F401
        have_peer = True
    except ImportError:
        have_peer = False
        print("(the peer package is not installed: pip install gleu)")
    print("\n== GLEU (500 iterations) ==")
    print("corpus\thypothesis\terrtype\tsecs\tgleu -f\tsecs\tratio\tgleu (unseeded)\tsecs\tratio")

    def row(label: str, name: str, s: Path, r: list[Path], h: Path) -> None:
        def ours() -> float:
            draw_table.cache_clear()  # cold: draws are cached across calls otherwise
            a, b, c = read_gleu_inputs(s, r, h)
            return GLEU(sentence_level=False).score(a, b, c).corpus["gleu"]

        t_ours, g = timed(ours, repeat)
        line = f"{label}\t{name}\t{100 * g:.4f}\t{t_ours:.3f}"
        if have_peer:
            t_fix, g_fix = timed(lambda: peer_gleu(s, r, h, True), 1)
            t_rnd, g_rnd = timed(lambda: peer_gleu(s, r, h, False), 1)
            same = "" if f"{100 * g:.4f}" == f"{g_fix:.4f}" else " (DIFFERENT)"
            line += (f"\t{g_fix:.4f}{same}\t{t_fix:.3f}\t{t_fix / t_ours:.1f}x"
                     f"\t{g_rnd:.4f}\t{t_rnd:.3f}\t{t_rnd / t_ours:.1f}x")
        print(line)

    row("JFLEG dev", "source", src, refs, src)
    conll = data / "conll14"
    crefs = []  # each annotator's corrected text, materialised for the peer tool
    for a, lines in enumerate(m2_references(conll / "official-2014.combined.m2")):
        crefs.append(tmp / f"conll14.ref{a}")
        crefs[-1].write_text("".join(f"{x}\n" for x in lines), encoding="utf-8")
    inp = conll / "systems" / "INPUT"
    for name in sorted(p.name for p in (conll / "systems").iterdir()):
        row("CoNLL-14", name, inp, crefs, conll / "systems" / name)

    def human() -> float:
        draw_table.cache_clear()
        a, b, _ = read_gleu_inputs(src, refs)
        return GLEU(sentence_level=False).human(a, b).corpus["gleu"]

    t_h, g_h = timed(human, repeat)
    print(f"JFLEG dev\thuman (each ref vs the other 3)\t{100 * g_h:.4f}\t{t_h:.3f}")
    t_s, res = timed(lambda: GLEU(iterations=1).score(*read_gleu_inputs(src, refs, src)), repeat)
    print(f"JFLEG dev\tsentence-level GLEU, 754 sentences x 4 refs\t-\t{t_s:.3f}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--shift-lines", type=int, default=0,
                    help="sentences of the shifted file to score (default 0 = all 1,312)")
    ap.add_argument("--repeat", type=int, default=3, help="best of R runs for errtype")
    args = ap.parse_args()
    data = Path(args.data)
    if not (data / "conll14").exists():
        print(f"shared data not found under {data}")
        return 1
    import platform
    import tempfile

    print(f"Python {platform.python_version()} on {platform.machine()}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; CPU seconds, "
          f"best of {args.repeat} for errtype, 1 run for the peer")
    with tempfile.TemporaryDirectory() as tmp:
        bench_maxmatch(data, args.shift_lines, args.repeat, Path(tmp))
        bench_gleu(data, args.repeat, Path(tmp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
