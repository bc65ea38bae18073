"""Scores of essays side by side: realigned, aligned whole (``--no-realign``), and line files.

For each language of :mod:`essay_corpus` (uk, cs, et; the shared data and the stand-in UDPipe
model ``models/LANG.udpipe`` of ERRTYPE_SHARED), the essay set is built (``--max-essays``) and
its pseudo-systems ``partial``, ``merged`` (every boundary inside a paragraph of ~30 % of the
essays joined by a comma) and ``split`` (half of the long sentences split at a comma) are scored
by errant, maxmatch, gleu, green and sentm2 three ways:

* ``realigned``: ``errtype score`` on the Markdown essays (:mod:`errtype.score.essays`);
* ``whole``: the same with ``--no-realign`` (each essay aligned whole, one line per essay);
* ``lines``: the sentence-by-sentence files of the set (``sentences/*.txt``), one line per
  original sentence (a merged sentence ends in its comma, a split one holds two sentences).

Prints one Markdown table per language: P/R/F0.5 (gleu, green: the score) per system and way,
and the largest move of P or R of ``merged`` and ``split`` from ``partial``.

Usage: ``python bench/bench_essay_scores.py [--langs uk cs et] [--max-essays 40]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "bench"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import essay_corpus  # noqa: E402

import errtype  # noqa: E402
from errtype.score.registry import get_metric  # noqa: E402
from errtype.score.suite import load_suite, score_systems  # noqa: E402

METRICS = ("errant", "maxmatch", "gleu", "green", "sentm2")
WAYS = ("realigned", "whole", "lines")
MODELS = Path(os.environ.get("ERRTYPE_SHARED", ROOT.parent / "shared")) / "models"


def score(lang: str, folder: Path, ann: object, way: str) -> dict[tuple[str, str], dict]:
    """(system, metric) -> corpus scores of one way."""
    systems = essay_corpus.SYSTEMS
    if way == "lines":
        d = folder / "sentences"
        suite = load_suite([(s, d / f"{s}.txt") for s in systems],
                           [d / "ref1.txt", d / "ref2.txt"], d / "orig.txt", lang=lang,
                           annotator=lambda: ann)
    else:
        refs = [r for r in (folder / "ref1.md", folder / "ref2.md") if r.read_text("utf-8").strip()]
        suite = load_suite([(s, folder / f"{s}.md") for s in systems], refs, folder / "orig.md",
                           lang=lang, annotator=lambda: ann, realign=way == "realigned")
        # (a ref2.md without essays, Estonian's: no essay has a second reference)
    rows = score_systems([(m, get_metric(m)) for m in METRICS], suite)
    return {(r.system, r.metric): r.result.corpus for r in rows}


def _main(c: dict) -> str | None:
    """The score of a metric without P/R/F (gleu, green), None for P/R/F."""
    f = next((k for k in c if k.startswith("f")), None)
    if "p" in c and "r" in c and f is not None:
        return None
    return next((k for k in ("gleu", "green") if k in c), next(iter(c)))


def _cell(c: dict) -> str:
    key = _main(c)
    if key is None:
        f = next(k for k in c if k.startswith("f"))
        return f"{100 * c['p']:.1f}/{100 * c['r']:.1f}/{100 * c[f]:.1f}"
    return f"{100 * c[key]:.1f}"


def _move(a: dict, b: dict) -> float:
    key = _main(a)
    keys = ("p", "r") if key is None else (key,)
    return max(abs(a[k] - b[k]) for k in keys) * 100


def table(lang: str, got: dict[str, dict], n_essays: int, seconds: dict[str, float]) -> str:
    out = [f"### {lang} ({n_essays} essays)", "",
           "| way | system | " + " | ".join(METRICS) + " |",
           "|---|---|" + "---|" * len(METRICS)]
    for way in WAYS:
        for s in essay_corpus.SYSTEMS:
            out.append(f"| {way} | {s} | " + " | ".join(_cell(got[way][s, m]) for m in METRICS)
                       + " |")
        for s in ("merged", "split"):
            out.append(f"| {way} | move {s} | " + " | ".join(
                f"{_move(got[way]['partial', m], got[way][s, m]):.2f}" for m in METRICS) + " |")
    out.append("")
    out.append("seconds: " + ", ".join(f"{w} {seconds[w]:.0f}" for w in WAYS))
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--langs", nargs="+", default=["uk", "cs", "et"])
    ap.add_argument("--max-essays", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    print("cells: P/R/F0.5 (x100), gleu and green: the score; 'move': the largest change of P "
          "or R (or the score) from partial, in points\n")
    for lang in args.langs:
        model = MODELS / f"{lang}.udpipe"
        if not model.exists():
            print(f"{lang}: skipped, no stand-in model {model}\n")
            continue
        ann = errtype.load(lang, udpipe_model=str(model))
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            built = essay_corpus.build(lang, folder, seed=args.seed, max_essays=args.max_essays)
            got, seconds = {}, {}
            for way in WAYS:
                t0 = time.perf_counter()
                got[way] = score(lang, folder, ann, way)
                seconds[way] = time.perf_counter() - t0
            n = len(getattr(built, "essays", []) or []) or args.max_essays
            print(table(lang, got, n, seconds), "\n", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
