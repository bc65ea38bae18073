"""Chunk-level evaluation against several references, in the spirit of CLEME (Ye et al., EMNLP
2023): the hypothesis and every reference are cut at the same places, so a system is not
penalised for grouping its edits differently from the reference it matches.

Definition (one sentence; edits as in M2, ``-NONE-`` a deletion, ``a||b`` its first
alternative, noop and ``UNK`` edits ignored):

1. **Chunks.** Collect the spans of every hypothesis edit and of every reference edit. Two spans
   are joined when they overlap, or when one is an insertion at a position inside the other or
   at either of its ends. Each maximal group of joined spans is a *changed chunk*: the source
   tokens from the group's first start to its last end.
2. **Corrections.** For the hypothesis and for each reference, a chunk's correction is its source
   tokens with that side's edits inside the chunk applied. A side *changes* a chunk when its
   correction differs from the source tokens.
3. **Counts against reference k.** TP: chunks the hypothesis changes exactly as reference k does.
   FP: chunks the hypothesis changes otherwise (reference k keeps them, or corrects them
   differently). FN: chunks reference k changes that the hypothesis does not change to the same
   correction. (A chunk corrected differently is one FP and one FN, as in the M2 and ERRANT
   scorers.)
4. **cleme** (dependent): per sentence the reference giving the best running F-beta (the
   errant_compare rule: the corpus counts so far plus this sentence's; ties to more TP, then to
   fewer FP, then fewer FN, then to the first reference); corpus P/R/F-beta from the summed
   counts. **cleme-ind** (independent): the references of a chunk pool their corrections; a
   changed hypothesis chunk is a TP when some reference corrects it the same way, else an FP;
   a chunk is an FN when no reference keeps it unchanged and the hypothesis matches no
   reference's correction.

How it differs: where the hypothesis writes one edit ``[1, 3) "is an"`` and the reference two,
``[1, 2) "is"`` and ``[2, 3) "an"``, ERRANT's span-based scorer counts 1 FP and 2 FN and M2
(which may regroup hypothesis edits) 2 TP; chunks count the same 1 TP as for any grouping.
Boundaries of *other* references also cut the chunk, which is what makes corrections from
different references comparable.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from ...m2 import ALT, NONE, M2Block, M2Edit
from ..common import ScoreResult, f_key, prf, signature
from ..registry import ScoreInput, register
from .base import EditMetric

__all__ = ["ChunkMetric", "chunk_counts", "chunks"]

Span = tuple[int, int]


def _real(edits: Sequence[M2Edit]) -> list[M2Edit]:
    return [e for e in edits if not e.is_noop and e.type != "UNK"]


def _joined(a: Span, b: Span, adjacent: bool = False) -> bool:
    (s1, e1), (s2, e2) = a, b
    if max(s1, s2) < min(e1, e2) or adjacent and max(s1, s2) == min(e1, e2):
        return True
    if s1 == e1:
        return s2 <= s1 <= e2
    if s2 == e2:
        return s1 <= s2 <= e1
    return False


def chunks(spans: Sequence[Span], adjacent: bool = False) -> list[Span]:
    """The changed chunks of a set of edit spans (see the module docstring), in order.

    ``adjacent=True`` also joins spans that touch (``[1, 2)`` and ``[2, 3)``), as THUKElab's
    CLEME code does (its ``merge_edits`` with ``merge_distance=0``; used by CLEME2.0).
    """
    items = sorted(set(spans))
    group = list(range(len(items)))

    def root(i: int) -> int:
        while group[i] != i:
            group[i] = group[group[i]]
            i = group[i]
        return i

    for i, j in combinations(range(len(items)), 2):
        if _joined(items[i], items[j], adjacent):
            group[root(i)] = root(j)
    extent: dict[int, Span] = {}
    for i, (s, e) in enumerate(items):
        r = root(i)
        lo, hi = extent.get(r, (s, e))
        extent[r] = (min(lo, s), max(hi, e))
    return sorted(extent.values())


def _correction(tokens: Sequence[str], chunk: Span, edits: Sequence[M2Edit]) -> tuple[str, ...]:
    s, e = chunk
    inside = sorted((x for x in edits if s <= x.start and x.end <= e),
                    key=lambda x: (x.start, x.end))
    out: list[str] = []
    at = s
    for x in inside:
        if x.start < at:  # overlapping edits of one side: the first one wins
            continue
        out += tokens[at:x.start]
        first = x.cor.split(ALT)[0]
        out += [] if first in (NONE, "") else first.split()
        at = x.end
    out += tokens[at:e]
    return tuple(out)


def chunk_counts(tokens: Sequence[str], hyp: Sequence[M2Edit],
                 refs: Sequence[Sequence[M2Edit]]) -> tuple[list[Span], list[tuple[int, int, int]],
                                                            tuple[int, int, int]]:
    """(chunks, per-reference (tp, fp, fn), independent (tp, fp, fn)) of one sentence."""
    hyp, refs = _real(hyp), [_real(r) for r in refs]
    spans = [(x.start, x.end) for x in hyp] + [(x.start, x.end) for r in refs for x in r]
    cut = chunks(spans)
    per = [[0, 0, 0] for _ in refs]
    ind = [0, 0, 0]
    for c in cut:
        src = tuple(tokens[c[0]:c[1]])
        h = _correction(tokens, c, hyp)
        rs = [_correction(tokens, c, r) for r in refs]
        for k, r in enumerate(rs):
            if h != src and h == r:
                per[k][0] += 1
                continue
            if h != src:
                per[k][1] += 1
            if r != src:
                per[k][2] += 1
        pool = set(rs)
        if h != src:
            if h in pool:
                ind[0] += 1
                continue
            ind[1] += 1
        if src not in pool and h not in pool:
            ind[2] += 1
    return cut, [tuple(p) for p in per], tuple(ind)  # type: ignore[misc]


@register("cleme")
@dataclass(kw_only=True)
class ChunkMetric(EditMetric):
    """Chunk-level P/R/F-beta against several references (CLEME-style; ``independent=True`` or
    the name ``cleme-ind`` for the independent variant). Text hypotheses are annotated with
    ``errtype.load(lang)`` (or the given annotator)."""

    independent: bool = False
    name: str = "cleme"

    def settings(self) -> dict[str, Any]:
        return {"beta": float(self.beta),
                "references": "independent" if self.independent else "best-cumulative",
                "chunks": "joined-spans", **self.edit_settings()}

    def score(self, data: ScoreInput) -> ScoreResult:
        hyp = self.hyp_blocks(data)
        total = [0, 0, 0]
        rows = []
        for i, (hb, rb) in enumerate(zip(hyp, data.gold, strict=True)):
            cut, per, ind = chunk_counts(rb.tokens, _first_coder(hb), _references(rb))
            if self.independent:
                chosen, counts = None, ind
            else:
                chosen, counts = _best(per, total, self.beta)
            total = [t + c for t, c in zip(total, counts, strict=True)]
            tp, fp, fn = counts
            rows.append({"id": i, "reference": chosen, "chunks": len(cut), "tp": tp, "fp": fp,
                         "fn": fn, "f": prf(tp, fp, fn, self.beta)[2]})
        p, r, f = prf(*total, self.beta)
        return ScoreResult(metric=self.name, corpus={"p": p, "r": r, f_key(self.beta): f},
                           signature=signature(self.name, self.settings()),
                           counts={"tp": total[0], "fp": total[1], "fn": total[2]},
                           sentences=rows)


def _first_coder(block: M2Block) -> list[M2Edit]:
    by = block.edits_by_annotator()
    return by[min(by)] if by else []


def _references(block: M2Block) -> list[list[M2Edit]]:
    by = block.edits_by_annotator()
    return [by[k] for k in sorted(by)] or [[]]


def _best(per: Sequence[tuple[int, int, int]], total: Sequence[int], beta: float
          ) -> tuple[int, tuple[int, int, int]]:
    best_k, best_rank = 0, None
    for k, (tp, fp, fn) in enumerate(per):
        f = prf(total[0] + tp, total[1] + fp, total[2] + fn, beta)[2]
        rank = (f, tp, -fp, -fn)
        if best_rank is None or rank > best_rank:
            best_k, best_rank = k, rank
    return best_k, per[best_k]


def _independent(**settings: Any) -> ChunkMetric:
    return ChunkMetric(independent=True, name="cleme-ind", **settings)


register("cleme-ind", _independent)
