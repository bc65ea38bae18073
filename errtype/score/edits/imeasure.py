"""The I-measure (Felice & Briscoe 2015, "Towards a standard evaluation method for grammatical
error detection and correction", NAACL): weighted accuracy of a token-level three-way alignment
of source, hypothesis and reference, and its improvement over the source left unchanged.

Written from the paper and the public description of its scorer (no code of it is used).

Alignment. Source S, hypothesis H and reference R (whitespace tokens) are aligned exactly under
the sum-of-pairs cost: per column, each pair of the three rows costs 0 for equal tokens (two gaps
are equal), 3 for different tokens and 2 for a token against a gap (mismatch < 2 gaps, so a
substitution is preferred to an insertion plus a deletion). Among alignments of minimal cost the
one chosen is the one a backtrace from the end takes when it prefers, in this order, a column of
three tokens, then the columns with one gap (in R, in H, in S), then those with two (only S, only
H, only R). A decision the paper leaves open; it decides the columns of tied alignments (``the
the`` → ``the``) and is the scorer's.

Counts. Per column (correction; detection in brackets, where it differs):

* S = H = R: TN; S = H ≠ R: FN (a missed correction);
* S ≠ H and S = R: FP (an unnecessary change);
* S ≠ H ≠ R ≠ S: FP, FN and FPN (a wrong correction: both errors, counted once in accuracy;
  detection: TP); S ≠ H = R: TP.

WAcc = (w·TP + TN) / (w·(TP + FP) + TN + FN − (w + 1)·FPN / 2) with w = 2 (the paper's
default), Acc = (TP + TN) / (TP + TN + FP + FN − FPN). The baseline is the source as hypothesis
(H = S), and I = ⌊WAcc⌋ when WAcc = WAcc_b, (WAcc − WAcc_b) / (1 − WAcc_b) when it is higher,
WAcc / WAcc_b − 1 when lower: I is in [−1, 1], 0 for no change, 1 for a perfect correction.

References. Each sentence is scored against each of its references (the reference texts, or one
per annotator of the M2 gold; the source itself when an annotator made no change) and keeps the
one that maximises the sentence's correction WAcc; ties are broken by correction I, Acc, then
detection WAcc, I and Acc, then by the reference's order. The corpus counts are the sums over
the kept references (of the system and of the baseline), and the corpus I is computed from them;
a sentence's score is its own I against its kept reference. An empty reference of a non-empty
source (NUCLE's annotators delete a whole sentence they judge unintelligible) counts as the
source, as the official scorer's reference generation does. A sentence without any token (empty
source, hypothesis and reference) has WAcc 1. The official scorer's default of mixing the
annotators' corrections into new references (its ``-nomix`` turns that off) is not implemented:
each annotator's correction is one reference, as the paper scores.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar
from xml.sax.saxutils import escape, quoteattr

import numpy as np

from ...m2 import ALT, NONE, M2Block
from ..common import ScoreResult, check_parallel, signature
from ..extract import MISSING
from ..options import option
from ..registry import ScoreInput, register

__all__ = ["ImeasureMetric", "align3", "counts", "gold_xml", "i_measure", "imeasure",
           "wacc"]

GAP = ""  # the gap in an aligned row (a whitespace token is never empty)
MATCH, MISMATCH, GAPCOST = 0, 3, 2
#: count names: correction, and detection (``d_`` prefix)
KEYS = ("tp", "tn", "fp", "fn", "fpn")


def _pair_table(a: Sequence[str], b: Sequence[str]) -> list[list[int]]:
    """Pairwise edit costs of prefixes (MATCH/MISMATCH/GAPCOST)."""
    t = [[j * GAPCOST for j in range(len(b) + 1)]]
    for i in range(1, len(a) + 1):
        row = [i * GAPCOST]
        for j in range(1, len(b) + 1):
            row.append(min(t[i - 1][j] + GAPCOST, row[j - 1] + GAPCOST,
                           t[i - 1][j - 1] + (MATCH if a[i - 1] == b[j - 1] else MISMATCH)))
        t.append(row)
    return t


def _table(s1: Sequence[str], s2: Sequence[str], s3: Sequence[str]) -> np.ndarray:
    """The sum-of-pairs cost of every prefix triple: ``D[i, j, k]``."""
    n1, n2, n3 = len(s1) + 1, len(s2) + 1, len(s3) + 1
    d = np.zeros((n1, n2, n3), dtype=np.int64)
    g2 = 2 * GAPCOST
    # faces: one sequence empty, so the other two align pairwise and every token of theirs also
    # faces a gap in the third row
    for (a, b, face) in ((s1, s2, d[:, :, 0]), (s1, s3, d[:, 0, :]), (s2, s3, d[0, :, :])):
        t = np.array(_pair_table(a, b), dtype=np.int64)
        face[:, :] = t + GAPCOST * (np.arange(len(a) + 1)[:, None] + np.arange(len(b) + 1))
    if n1 == 1 or n2 == 1 or n3 == 1:
        return d
    v3 = list(s3)
    c13 = [np.array([MATCH if x == y else MISMATCH for y in v3], dtype=np.int64) for x in s1]
    c23 = [np.array([MATCH if x == y else MISMATCH for y in v3], dtype=np.int64) for x in s2]
    ramp = g2 * np.arange(n3, dtype=np.int64)
    for i in range(1, n1):
        prev, cur = d[i - 1], d[i]
        cik = c13[i - 1]
        for j in range(1, n2):
            cij = MATCH if s1[i - 1] == s2[j - 1] else MISMATCH
            cjk = c23[j - 1]
            cand = np.minimum.reduce([
                prev[j - 1, :-1] + (cij + cik + cjk),   # S H R
                prev[j - 1, 1:] + (cij + g2),           # S H -
                prev[j, :-1] + (cik + g2),              # S - R
                cur[j - 1, :-1] + (cjk + g2),           # - H R
                prev[j, 1:] + g2,                       # S - -
                cur[j - 1, 1:] + g2,                    # - H -
            ])
            # - - R: D[k] = min(cand[k], D[k - 1] + g2), a running minimum along k
            row = np.concatenate(([cur[j, 0]], cand)) - ramp
            cur[j, :] = np.minimum.accumulate(row) + ramp
    return d


def align3(src: Sequence[str], hyp: Sequence[str], ref: Sequence[str]
           ) -> list[tuple[str, str, str]]:
    """The alignment's columns ``(s, h, r)``, ``""`` for a gap (see the module docstring)."""
    if list(src) == list(hyp) == list(ref):
        return list(zip(src, hyp, ref, strict=True))
    d = _table(src, hyp, ref)
    g2 = 2 * GAPCOST
    out: list[tuple[str, str, str]] = []
    i, j, k = len(src), len(hyp), len(ref)

    def c(x: str, y: str) -> int:
        return MATCH if x == y else MISMATCH

    while i or j or k:
        here = int(d[i, j, k])
        a = src[i - 1] if i else GAP
        b = hyp[j - 1] if j else GAP
        r = ref[k - 1] if k else GAP
        if i and j and k and here == d[i - 1, j - 1, k - 1] + c(a, b) + c(a, r) + c(b, r):
            out.append((a, b, r))
            i, j, k = i - 1, j - 1, k - 1
        elif i and j and here == d[i - 1, j - 1, k] + c(a, b) + g2:
            out.append((a, b, GAP))
            i, j = i - 1, j - 1
        elif i and k and here == d[i - 1, j, k - 1] + c(a, r) + g2:
            out.append((a, GAP, r))
            i, k = i - 1, k - 1
        elif j and k and here == d[i, j - 1, k - 1] + c(b, r) + g2:
            out.append((GAP, b, r))
            j, k = j - 1, k - 1
        elif i and here == d[i - 1, j, k] + g2:
            out.append((a, GAP, GAP))
            i -= 1
        elif j and here == d[i, j - 1, k] + g2:
            out.append((GAP, b, GAP))
            j -= 1
        else:
            out.append((GAP, GAP, r))
            k -= 1
    out.reverse()
    return out


def counts(columns: Sequence[tuple[str, str, str]]) -> dict[str, int]:
    """Correction counts (``tp`` ... ``fpn``) and detection counts (``d_tp`` ...) of an
    alignment."""
    out = dict.fromkeys(KEYS, 0) | {f"d_{k}": 0 for k in KEYS}
    for s, h, r in columns:
        if s == h:
            key = "tn" if h == r else "fp" if s == r else "fn"
            out[key] += 1
            out[f"d_{key}"] += 1
        elif s == r:
            out["fp"] += 1
            out["d_fp"] += 1
        else:
            out["d_tp"] += 1
            if h == r:
                out["tp"] += 1
            else:
                out["fp"] += 1
                out["fn"] += 1
                out["fpn"] += 1
    return out


def wacc(c: dict[str, int], w: float = 2.0, prefix: str = "") -> float:
    """Weighted accuracy of counts (``prefix="d_"``: detection); 1 for no token at all."""
    tp, tn, fp, fn, fpn = (c[prefix + k] for k in KEYS)
    den = w * (tp + fp) + tn + fn - (w + 1) * (float(fpn) / 2)
    return float(w * tp + tn) / den if den else 1.0


def _acc(c: dict[str, int], prefix: str = "") -> float:
    tp, tn, fp, fn, fpn = (c[prefix + k] for k in KEYS)
    den = tp + tn + fp + fn - fpn
    return float(tp + tn) / den if den else 1.0


def i_measure(w_sys: float, w_base: float) -> float:
    """I of a system's WAcc against the baseline's (the paper's three cases)."""
    if w_sys == w_base:
        return float(math.floor(w_sys))
    if w_sys > w_base:
        return (w_sys - w_base) / (1.0 - w_base)
    return w_sys / w_base - 1.0


def _key(c: dict[str, int], b: dict[str, int], w: float) -> tuple[float, ...]:
    """What a reference is chosen by: correction WAcc, I, Acc, then detection's."""
    out: list[float] = []
    for p in ("", "d_"):
        ws = wacc(c, w, p)
        out += [ws, i_measure(ws, wacc(b, w, p)), _acc(c, p)]
    return tuple(out)


def _add(total: dict[str, int], c: dict[str, int]) -> None:
    for k, v in c.items():
        total[k] = total.get(k, 0) + v


def _scores(c: dict[str, int], b: dict[str, int], w: float) -> dict[str, float]:
    ws, wb = wacc(c, w), wacc(b, w)
    ds, db = wacc(c, w, "d_"), wacc(b, w, "d_")
    tp, fp, fn = c["tp"], c["fp"], c["fn"]
    return {"i": i_measure(ws, wb), "wacc": ws, "wacc_base": wb, "acc": _acc(c),
            "acc_base": _acc(b), "p": tp / (tp + fp) if tp + fp else 1.0,
            "r": tp / (tp + fn) if tp + fn else 1.0, "d_i": i_measure(ds, db), "d_wacc": ds,
            "d_wacc_base": db}


def imeasure(sources: Sequence[str], references: Sequence[Sequence[str]],
             hypotheses: Sequence[str], w: float = 2.0, name: str = "imeasure") -> ScoreResult:
    """Corpus and sentence I-measure; ``references[k][i]`` is reference k of sentence i."""
    check_parallel("the I-measure", sources, references, hypotheses)
    n = len(sources)
    total: dict[str, int] = {}
    base: dict[str, int] = {}
    rows = []
    for i in range(n):
        src, hyp = sources[i].split(), hypotheses[i].split()
        # an empty reference of a non-empty source (an annotator deleting the whole sentence,
        # as NUCLE's "Um" edits do) is read as the source, as the official scorer does
        cands = list(dict.fromkeys(" ".join(r[i].split()) or " ".join(src)
                                   for r in references))
        best: tuple[Any, ...] | None = None
        for k, ref in enumerate(cands):
            rt = ref.split()
            c = counts(align3(src, hyp, rt))
            b = counts(align3(src, src, rt))
            key = _key(c, b, w)
            if best is None or key > best[0]:
                best = (key, k, c, b)
        assert best is not None
        _, k, c, b = best
        _add(total, c)
        _add(base, b)
        # the counts are kept apart: a sentence's tp/fp/fn would read as an F-based metric's
        rows.append({"id": i, "score": _scores(c, b, w)["i"], "wacc": wacc(c, w),
                     "wacc_base": wacc(b, w), "reference": k,
                     "counts": {x: c[x] for x in KEYS}})
    corpus = _scores(total, base, w)
    return ScoreResult(metric=name, corpus=corpus,
                       signature=signature(name, {"w": float(w), "align": "sp-exact3",
                                                  "refs": "best-per-sentence-wacc",
                                                  "mix": "no"}),
                       counts={**total, **{f"base_{k}": v for k, v in base.items()},
                               "sentences": n},
                       sentences=rows)


def gold_xml(blocks: Sequence[M2Block]) -> str:
    """The gold in the official scorer's XML format (its README's DTD), for running it as a peer:
    one ``error`` per span an annotator edits, its one ``alt`` by that annotator holding the
    span's corrections in M2 order (first alternative; ``-NONE-`` deletes); ``numann`` the
    annotators named in the block (noop lines included). Two insertions of one annotator at one
    position share an ``error``, as the scorer's ``m2_to_ixml.py`` groups them: the scorer then
    joins them in order, where as separate errors it would apply them last first."""
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', "<scripts>", '<script id="1">']
    for s, b in enumerate(blocks, 1):
        anns = {e.annotator for e in b.edits}
        lines.append(f'<sentence id="{s}" numann="{len(anns)}">')
        lines.append(f"<text>{escape(b.source)}</text>")
        lines.append("<error-list>")
        spans: dict[tuple[int, int, int], list[Any]] = {}
        for e in b.edits:
            if not e.is_noop:
                spans.setdefault((e.annotator, e.start, e.end), []).append(e)
        for n, ((ann, start, end), edits) in enumerate(spans.items(), 1):
            cs = []
            for e in edits:
                cor = e.cor.split(ALT)[0]
                cor = "" if cor.strip() == NONE else cor
                cs.append(f'<c start="{start}" end="{end}">{escape(cor)}</c>')
            types = "/".join(dict.fromkeys(e.type for e in edits))
            lines.append(f'<error id="{n}" req="yes" type={quoteattr(types)}>'
                         f'<alt ann="{ann}">{"".join(cs)}</alt></error>')
        lines.append("</error-list>")
        lines.append("</sentence>")
    lines += ["</script>", "</scripts>"]
    return "\n".join(lines) + "\n"


@register("imeasure")
@dataclass
class ImeasureMetric:
    """The I-measure against the reference texts, or else the gold annotators' corrected
    sentences (one reference per annotator; ``missing``: see
    :func:`errtype.score.extract.gold_references`); ``w``: the weight of TP and FP."""

    w: float = option(2.0, gt=0)
    missing: str = option("first", choices=MISSING)
    name: str = "imeasure"
    main: ClassVar[str] = "i"
    uses: ClassVar[tuple[str, ...]] = ("references",)

    def settings(self) -> dict[str, Any]:
        return {"w": float(self.w), "gold": f"texts-or-m2-{self.missing}"}

    def score(self, data: ScoreInput) -> ScoreResult:
        from ..extract import gold_references

        refs = (data.references if data.references is not None
                else gold_references(data.gold, self.missing))
        return imeasure(list(data.sources or []), refs, list(data.hypotheses), self.w,
                        self.name)
