"""Sentence-level MaxMatch and ERRANT (SentM2, SentERRANT): the mean over sentences of each
sentence's F-beta against its best annotator.

The conventions are those of the published SentM2/SentERRANT numbers (PT-M2, Gong et al. 2022;
the SEEDA table, Kobayashi et al. 2024), which these metrics reproduce:

* every sentence is scored on its own: its P, R and F-beta from its own counts, with P = 1 when
  the system proposes nothing, R = 1 when the annotator has no edit, F = 0 when P + R = 0 (so a
  sentence with no gold edit and no system edit scores 1, and an unchanged hypothesis scores 1
  exactly where some annotator left the sentence unchanged);
* the annotator is chosen per sentence, not on running corpus totals: the highest sentence F,
  ties to more true positives, then to the smaller ``proposed + beta² gold``, then to the first
  annotator;
* the corpus score is the unweighted mean of the sentence F (``p`` and ``r`` are the means of the
  chosen annotators' sentence P and R, reported for information).

SentM2 takes MaxMatch's edits (m2scorer 3.2's edit lattice, per annotator); SentERRANT takes
errant_compare's edit keys and counts (span-based correction: ``(start, end, correction)``,
``noop`` and ``UNK`` edits ignored) of the system's ERRANT edits.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ..common import ScoreResult, f_key, prf, signature
from ..options import option
from ..registry import ScoreInput, register
from .base import EditMetric
from .errant import coder_edits, compare_edits
from .maxmatch import MaxMatch, gold_from_blocks, shared_edits

__all__ = ["SentErrantMetric", "SentM2Metric", "best_sentence_counts", "sentence_level_result"]

Counts = tuple[float, float, float]  # tp, fp, fn


def best_sentence_counts(candidates: Iterable[tuple[Any, Counts]], beta: float
                         ) -> tuple[Any, Counts, tuple[float, float, float]]:
    """The (key, counts, (P, R, F)) of the candidate with the best sentence F-beta; ties go to
    more TP, then to the smaller ``proposed + beta² gold``, then to the earlier candidate."""
    b2 = beta * beta
    best: tuple[Any, Counts, tuple[float, float, float]] | None = None
    best_rank: tuple[float, float, float] | None = None
    for key, (tp, fp, fn) in candidates:
        p, r, f = prf(tp, fp, fn, beta)
        rank = (f, tp, -((tp + fp) + b2 * (tp + fn)))
        if best_rank is None or rank > best_rank:
            best, best_rank = (key, (tp, fp, fn), (p, r, f)), rank
    if best is None:
        raise ValueError("no candidate to choose from")
    return best


def sentence_level_result(metric: str, rows: Sequence[dict[str, Any]], beta: float,
                          settings: dict[str, Any], notes: Sequence[str] = ()) -> ScoreResult:
    """Corpus result of per-sentence rows carrying ``tp``/``fp``/``fn``/``p``/``r``/``f``."""
    n = len(rows)
    mean = (lambda k: sum(s[k] for s in rows) / n) if n else (lambda k: 0.0)
    counts = {k: sum(s[k] for s in rows) for k in ("tp", "fp", "fn")}
    counts["sentences"] = n
    corpus = {"p": mean("p"), "r": mean("r"), f_key(beta): mean("f")}
    return ScoreResult(metric=metric, corpus=corpus, signature=signature(metric, settings),
                       counts=counts, sentences=list(rows), notes=list(notes))


@register("sentm2")
@dataclass
class SentM2Metric:
    """SentM2: the mean sentence F-beta of MaxMatch (m2scorer 3.2 edits), best annotator per
    sentence."""

    level: ClassVar[str] = "sentence"  # essays: scored on the realigned units
    beta: float = option(0.5, ge=0)
    max_unchanged_words: int = option(2, ge=0)
    ignore_whitespace_casing: bool = False
    name: str = "sentm2"

    @property
    def main(self) -> str:
        return f_key(self.beta)

    def settings(self) -> dict[str, Any]:
        return {"beta": float(self.beta), "max_unchanged_words": self.max_unchanged_words,
                "ignore_whitespace_casing": self.ignore_whitespace_casing,
                "annotators": "best-per-sentence", "average": "sentences",
                "edits": "m2scorer-3.2"}

    def score(self, data: ScoreInput) -> ScoreResult:
        scorer = MaxMatch(self.beta, self.max_unchanged_words, self.ignore_whitespace_casing)
        gold = gold_from_blocks(data.gold)
        rows = []
        for i, (sent, per) in enumerate(zip(gold, shared_edits(scorer, data, gold),
                                            strict=True)):
            cands = []
            for ann, gedits in sent.annotators.items():
                seq, matched = per[ann]
                c = len(matched)
                cands.append((ann, (c, len(seq) - c, len(gedits) - c)))
            ann, (tp, fp, fn), (p, r, f) = best_sentence_counts(cands, self.beta)
            rows.append({"id": i, "annotator": ann, "tp": tp, "fp": fp, "fn": fn,
                         "p": p, "r": r, "f": f})
        notes = []
        if scorer.budget_hits:
            notes.append(f"warning: budget: {len(scorer.budget_hits)} sentences scored as "
                         f"unchanged output")
        return sentence_level_result(self.name, rows, self.beta, self.settings(), notes)


@register("senterrant")
@dataclass(kw_only=True)
class SentErrantMetric(EditMetric):
    """SentERRANT: the mean sentence F-beta of errant_compare's span-based correction counts,
    best (hypothesis coder, reference coder) pair per sentence; text hypotheses are annotated
    with ``errtype.load(lang)`` (or the given annotator)."""

    level: ClassVar[str] = "sentence"  # essays: scored on the realigned units
    name: str = "senterrant"

    def settings(self) -> dict[str, Any]:
        return {"mode": "cs", "beta": float(self.beta), "annotators": "best-per-sentence",
                "average": "sentences", **self.edit_settings()}

    def score(self, data: ScoreInput) -> ScoreResult:
        hyp = self.hyp_blocks(data)
        rows = []
        for i, (hb, rb) in enumerate(zip(hyp, data.gold, strict=True)):
            hc, rc = coder_edits(hb.edits, "cs"), coder_edits(rb.edits, "cs")
            cands = [((h, r), compare_edits(hd, rd)[:3]) for h, hd in hc.items()
                     for r, rd in rc.items()]
            (h, r), (tp, fp, fn), (p, rr, f) = best_sentence_counts(cands, self.beta)
            rows.append({"id": i, "hyp_coder": h, "ref_coder": r, "tp": tp, "fp": fp, "fn": fn,
                         "p": p, "r": rr, "f": f})
        return sentence_level_result(self.name, rows, self.beta, self.settings())
