"""Essays with and without sentence realignment (issue 34): time, edit agreement, and the scores
of a pseudo-system whose sentences are merged.

On the essay sets of ``bench/essay_corpus.py`` (shared data: Ukrainian UA-GEC with the stand-in
``models/uk.udpipe``, Czech GECCC with spaCy's ``cs_core_news_sm``):

(a) time (CPU and wall seconds) to annotate reference 1 sentence by sentence (the line-aligned
    sentence files, ``annotate_stream``), as essays realigned (:func:`annotate_essays`), and as
    essays each aligned as one sentence (``realign=False``);
(b) agreement: the share of the sentence-by-sentence edits, as a multiset of (original words,
    corrected words), that each essay-level run also finds;
(c) ERRANT P/R/F0.5 (``cs`` mode, errtype's scorer) of the ``partial`` pseudo-system and of the
    same system ``merged`` (every boundary of some essays joined by a comma), against the
    references annotated as essays: essay-level blocks and sentence-level units, with
    realignment (also with the system's edits that only join or split sentences left out:
    :func:`~errtype.essay.realign.boundary_edit`), with each essay aligned as
    one sentence, and with sentences paired by index (no realignment); and sentence by sentence
    on the line-aligned files.

Usage: ``python bench/bench_realign.py [--langs uk cs] [--max-essays N]``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
BENCH = Path(__file__).resolve().parent
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import essay_corpus  # noqa: E402

import errtype  # noqa: E402
from errtype.essay import read_multigec  # noqa: E402
from errtype.essay.realign import annotate_essays, pair_by_index  # noqa: E402
from errtype.m2 import M2Block, annotation_block  # noqa: E402
from errtype.score.edits.errant import errant_score  # noqa: E402

MODELS = essay_corpus.SHARED.parent / "models"
Pairs = Counter[tuple[str, str]]


def load(lang: str) -> errtype.Annotator:
    if lang == "cs":
        return errtype.load("cs", backend="spacy")
    return errtype.load(lang, udpipe_model=MODELS / f"{lang}.udpipe")


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def pairs(ann: errtype.Annotation, k: int = 0) -> Pairs:
    return Counter((" ".join(ann.orig.texts[e.o_start:e.o_end]),
                    " ".join(ann.cors[k].texts[e.c_start:e.c_end])) for e in ann.edits[k])


def timed(run: Callable[[], Any]) -> tuple[Any, float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    out = run()
    return out, time.process_time() - cpu, time.perf_counter() - wall


def prf(hyp: Iterable[M2Block], ref: Iterable[M2Block]) -> tuple[float, float, float]:
    c = errant_score(list(hyp), list(ref)).corpus
    return c["p"], c["r"], c["f0.5"]


def essay_scores(annotator: errtype.Annotator, origs: Sequence[str],
                 refs: Sequence[Sequence[str | None]], system: Sequence[str],
                 aligner: str, joins: bool = True) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """(essay-level P, R, F), (sentence-unit P, R, F) of ``system`` against ``refs``; the
    original, references and system in one EssayAnnotation each, so the units are shared.
    ``joins=False``: the system's edits that only join or split sentences are left out."""
    kw: dict[str, Any] = {"realign": aligner != "whole"}
    if aligner == "index":
        kw["aligner"] = pair_by_index
    items = [(o, [*r, s]) for o, r, s in zip(origs, refs, system, strict=True)]
    hyp_e, ref_e, hyp_u, ref_u = [], [], [], []
    for ea in annotate_essays(annotator, items, **kw):
        hyp_k = len(ea.present) - 1
        keep = [True] * hyp_k + [joins]
        ann = ea.annotation(keep)
        ref_e.append(annotation_block(ann, range(hyp_k)))
        hyp_e.append(annotation_block(ann, [hyp_k]))
        for u in ea.units(keep):
            ref_u.append(annotation_block(u.annotation, range(hyp_k)))
            hyp_u.append(annotation_block(u.annotation, [hyp_k]))
    return prf(hyp_e, ref_e), prf(hyp_u, ref_u)


def sentence_scores(annotator: errtype.Annotator, orig: Sequence[str],
                    refs: Sequence[Sequence[str]], system: Sequence[str]) -> tuple[float, ...]:
    """P, R, F of the line-aligned sentence files (no essays)."""
    items = [(o, [*r, s]) for o, r, s in zip(orig, zip(*refs, strict=True), system,
                                             strict=True)]
    hyp, ref = [], []
    for ann in annotator.annotate_stream(items, tokenize=True):
        ref.append(annotation_block(ann, range(len(refs))))
        hyp.append(annotation_block(ann, [len(refs)]))
    return prf(hyp, ref)


def bench(lang: str, max_essays: int | None, quick: bool = False) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        s = essay_corpus.build(lang, tmp, max_essays=max_essays)
        orig = {e.id: e.text for e in read_multigec(s.orig)}
        ids = list(orig)
        ref1 = {e.id: e.text for e in read_multigec(s.refs[0])}
        ref2 = {e.id: e.text for e in read_multigec(s.refs[1])}
        systems = {n: {e.id: e.text for e in read_multigec(p)} for n, p in s.systems.items()}
        s_orig, s_ref1 = lines(s.sentence_orig), lines(s.sentence_refs[0])
        s_ref2 = lines(s.sentence_refs[1])
        s_sys = {n: lines(p) for n, p in s.sentence_systems.items()}
    annotator = load(lang)
    annotator.warm_up()
    list(annotate_essays(annotator, [(orig[i], ref1[i]) for i in ids[:2]]))  # load lazily
    n_tok = sum(len(x.split()) for x in s_orig)
    print(f"\n## {lang}: {len(ids)} essays, {len(s_orig)} sentences, {n_tok} tokens "
          f"({len(s.merged_ids)} essays merged); parser {annotator.parser!r}")

    # (a) time and (b) agreement, reference 1
    sent, cpu_s, wall_s = timed(lambda: list(annotator.annotate_stream(
        list(zip(s_orig, s_ref1, strict=True)), tokenize=True)))
    ref_pairs: Pairs = Counter()
    for ann in sent:
        ref_pairs.update(pairs(ann))
    print("\n| run | CPU s | wall s | CPU ratio | edits | agreement |")
    print("|---|---:|---:|---:|---:|---:|")
    print(f"| sentence by sentence | {cpu_s:.2f} | {wall_s:.2f} | 1.00 | "
          f"{sum(ref_pairs.values())} | 100 % |")
    for name, realign in (("essays, realigned", True), ("essays, no realignment", False)):
        got, cpu, wall = timed(lambda r=realign: list(annotate_essays(
            annotator, [(orig[i], ref1[i]) for i in ids], r)))
        found: Pairs = Counter()
        for ea in got:
            found.update(pairs(ea.annotation()))
        share = sum((ref_pairs & found).values()) / max(sum(ref_pairs.values()), 1)
        print(f"| {name} | {cpu:.2f} | {wall:.2f} | {cpu / cpu_s:.2f} | "
              f"{sum(found.values())} | {100 * share:.2f} % |")

    # (c) the merged pseudo-system against the unmerged one
    refs = [[ref1[i], ref2.get(i)] for i in ids]
    print("\n| scoring | partial P / R / F0.5 | merged P / R / F0.5 | ΔP | ΔR |")
    print("|---|---|---|---:|---:|")
    rows: dict[str, dict[str, tuple[float, ...]]] = {}
    for aligner, joins, label in (
            ("realign", True, "realigned"),
            ("realign", False, "realigned, the system's join/split edits left out"),
            ("whole", True, "no realignment (essay as one sentence)"),
            ("index", True, "no realignment (sentences paired by index)")):
        if quick and aligner == "whole":
            continue
        for system in ("partial", "merged"):
            e, u = essay_scores(annotator, [orig[i] for i in ids], refs,
                                [systems[system][i] for i in ids], aligner, joins)
            rows.setdefault(f"essay level, {label}", {})[system] = e
            if aligner != "whole":
                rows.setdefault(f"sentence units, {label}", {})[system] = u
    for system in ("partial", "merged"):
        rows.setdefault("line-aligned sentences (old)", {})[system] = sentence_scores(
            annotator, s_orig, [s_ref1, s_ref2], s_sys[system])
    for label, r in rows.items():
        a, b = r["partial"], r["merged"]
        print(f"| {label} | {a[0]:.4f} / {a[1]:.4f} / {a[2]:.4f} | {b[0]:.4f} / {b[1]:.4f} / "
              f"{b[2]:.4f} | {100 * (b[0] - a[0]):+.2f} | {100 * (b[1] - a[1]):+.2f} |")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--langs", nargs="+", default=["uk", "cs"], choices=["uk", "cs"])
    ap.add_argument("--max-essays", type=int, help="the first N essays of each set")
    ap.add_argument("--quick", action="store_true",
                    help="score without the slow whole-essay alignment (c)")
    a = ap.parse_args(argv)
    for lang in a.langs:
        if not essay_corpus.source_path(lang).exists():
            print(f"{lang}: shared data absent ({essay_corpus.source_path(lang)}); skipped")
            continue
        bench(lang, a.max_essays, a.quick)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
