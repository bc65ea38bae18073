"""CLEME2.0 (Ye et al., ACL 2025): a system's corrections split into hit-, wrong-, under- and
over-correction, and one score that weighs them, as THUKElab/CLEME's code computes it.

Definition (one sentence; the hypothesis' first coder and every reference annotator of the gold;
``noop`` edits ignored; a reference whose corrected sentence is empty is dropped unless it is the
only one):

1. **Chunks** (:func:`errtype.score.edits.chunks.chunks` with ``adjacent=True``): the spans of
   all edits of the hypothesis and of every reference are joined where they overlap *or touch*;
   each group is a changed chunk, and each maximal stretch of source tokens between them an
   unchanged chunk. A side *marks* a chunk when it has an edit in it; its *correction* of the
   chunk is the chunk's source tokens with its edits applied.
2. **Counts against reference k** (``dependent``, the default), chunk by chunk:
   hypothesis marks the chunk and its correction equals reference k's -> **TP** (a hit);
   marks it otherwise -> **FP**, *necessary* (FP_NE, a wrong correction) when reference k marks
   the chunk, else *unnecessary* (FP_UN, an over-correction); hypothesis leaves it and its text
   differs from reference k's -> **FN** (an under-correction); otherwise TN.
   ``independent`` (``cleme2-ind``) pools the references of a chunk: TP when any reference
   corrects it the same way; FP_NE when some reference marks it; FN when the hypothesis leaves
   it and *every* reference marks it.
3. **Weights.** Every counted chunk weighs 1 (``weighting="none"``), or by its length
   (``"length"``, CLEME's length weigher, no model: with L = max(source length, corrected
   length) of the hypothesis' chunk and b = the mean of L over the references' marked chunks of
   the whole corpus, ``w = a / (1 + (a - 1) e^(b - L))`` for TP and FN, ``a / (1 + (a - 1)
   e^(L - b))`` for FP (longer false corrections weigh less), clipped to [0.75, 1.25], a = 2;
   TN weigh 1), or by similarity (``"similarity"``: |sim(source, ref) - sim(pseudo, ref)| where
   the pseudo sentence is the source with only this chunk corrected: by the hypothesis for TP and
   FP, by the reference for FN; sim defaults to BERTScore F1, errtype's ``bertscore`` plug-in).
4. **Scores** from (weighted) counts: with NE = TP + FP_NE + FN,
   hit = TP / NE, wrong = FP_NE / NE, under = FN / NE (0 when NE = 0), over = FP_UN / (TP + FP)
   (0 when TP + FP = 0), and ``cleme2 = f_hit * hit + f_wrong * (1 - wrong) + f_under *
   (1 - under) + f_over * (1 - over)``; the factors sum to 1 (corpus level 0.45, 0.35, 0.15,
   0.05; sentence level 0.35, 0.25, 0.20, 0.20, CLEME's defaults).
   **Corpus level**: per sentence the reference whose counts, added to the corpus counts so far,
   give the best score (ties: more TP, fewer FP, fewer FN, more TN; else the first); the scores
   of the summed chosen counts. **Sentence level**: per sentence the reference with the best own
   score (ties: higher hit, lower wrong, under, over); the scores averaged over sentences.

Two places where this follows CLEME's code rather than its configuration: its length weigher
ignores the arguments it is constructed with (every configuration in its ``main.py`` runs with the
defaults above), and a corrected chunk whose text equals the source (an ``UNK`` edit) is *marked*
yet equal to an unmarked one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ...errors import InputError
from ...m2 import M2Edit
from ..common import ScoreResult, signature
from ..options import option
from ..registry import ScoreInput, register
from .chunks import _correction, _first_coder, _references, chunks

__all__ = ["CHUNK_KINDS", "Cleme2Metric", "ChunkCounts", "LengthWeights", "SentenceChunks",
           "heuo", "sentence_chunks"]

Span = tuple[int, int]
#: the counted kinds of a chunk
CHUNK_KINDS = ("tp", "fp_ne", "fp_un", "fn", "tn")
CORPUS_FACTORS = (0.45, 0.35, 0.15, 0.05)
SENTENCE_FACTORS = (0.35, 0.25, 0.20, 0.20)
WEIGHTINGS = ("none", "length", "similarity")
#: sim(candidates, references) -> one similarity per pair
Similarity = Callable[[Sequence[str], Sequence[str]], Sequence[float]]


@dataclass(frozen=True)
class Side:
    """One side's view of a chunk: does it mark it, and its correction."""

    marked: bool
    tokens: tuple[str, ...]


@dataclass
class SentenceChunks:
    """A sentence cut into chunks: every chunk's span (changed and unchanged, in order), and the
    hypothesis' and each reference's view of each."""

    tokens: list[str]
    spans: list[Span]
    hyp: list[Side]
    refs: list[list[Side]]
    ref_texts: list[str]


def _edits(edits: Sequence[M2Edit]) -> list[M2Edit]:
    return [e for e in edits if not e.is_noop]


def sentence_chunks(tokens: Sequence[str], hyp: Sequence[M2Edit],
                    refs: Sequence[Sequence[M2Edit]]) -> SentenceChunks:
    """Cut one sentence into CLEME's chunks (see the module docstring, step 1)."""
    from ..extract import apply_edits

    hyp = _edits(hyp)
    refs = [_edits(r) for r in refs] or [[]]
    texts = [apply_edits(tokens, r) for r in refs]
    keep = [k for k, t in enumerate(texts) if t] or [0]
    refs, texts = [refs[k] for k in keep], [texts[k] for k in keep]
    changed = chunks([(e.start, e.end) for e in hyp] + [(e.start, e.end) for r in refs
                                                        for e in r], adjacent=True)
    spans: list[Span] = []
    pos = 0
    for s, e in changed:
        if s > pos:
            spans.append((pos, s))
        spans.append((s, e))
        pos = max(pos, e)
    if pos < len(tokens):
        spans.append((pos, len(tokens)))
    marked = set(changed)

    def view(edits: Sequence[M2Edit]) -> list[Side]:
        out = []
        for sp in spans:
            inside = sp in marked and any(sp[0] <= x.start and x.end <= sp[1] for x in edits)
            out.append(Side(inside, _correction(tokens, sp, edits) if inside
                            else tuple(tokens[sp[0]:sp[1]])))
        return out

    return SentenceChunks(list(tokens), spans, view(hyp), [view(r) for r in refs], texts)


def classify(sc: SentenceChunks, independent: bool = False) -> list[list[str]]:
    """Per reference, the kind (:data:`CHUNK_KINDS`) of every chunk (step 2)."""
    out = []
    for k in range(len(sc.refs)):
        kinds = []
        for i, h in enumerate(sc.hyp):
            rs = [r[i] for r in sc.refs] if independent else [sc.refs[k][i]]
            if h.marked:
                if any(h.tokens == r.tokens for r in rs):
                    kinds.append("tp")
                else:
                    kinds.append("fp_ne" if any(r.marked for r in rs) else "fp_un")
            elif (all(r.marked for r in rs) if independent else h.tokens != rs[0].tokens):
                kinds.append("fn")
            else:
                kinds.append("tn")
        out.append(kinds)
    return out


@dataclass(frozen=True)
class ChunkCounts:
    """(Weighted) chunk counts of one sentence against one reference, or summed."""

    tp: float = 0.0
    fp_ne: float = 0.0
    fp_un: float = 0.0
    fn: float = 0.0
    tn: float = 0.0

    def __add__(self, other: ChunkCounts) -> ChunkCounts:
        return ChunkCounts(self.tp + other.tp, self.fp_ne + other.fp_ne,
                           self.fp_un + other.fp_un, self.fn + other.fn, self.tn + other.tn)

    @property
    def fp(self) -> float:
        return self.fp_ne + self.fp_un


def heuo(c: ChunkCounts, factors: Sequence[float]) -> dict[str, float]:
    """hit, wrong, under, over and the combined score of counts (step 4)."""
    ne = c.tp + c.fp_ne + c.fn
    hit = float(c.tp) / ne if ne else 0.0
    wrong = float(c.fp_ne) / ne if ne else 0.0
    under = float(c.fn) / ne if ne else 0.0
    over = float(c.fp_un) / (c.tp + c.fp) if c.tp + c.fp else 0.0
    fh, fw, fu, fo = factors
    score = fh * hit + fw * (1 - wrong) + fu * (1 - under) + fo * (1 - over)
    return {"score": score, "hit": hit, "wrong": wrong, "under": under, "over": over}


@dataclass(frozen=True)
class LengthWeights:
    """CLEME's length weigher: ``alpha``, and the clip range of TP, FP and FN weights."""

    alpha: float = 2.0
    low: float = 0.75
    high: float = 1.25

    def weight(self, length: int, bias: float, reverse: bool) -> float:
        a = self.alpha
        w = a / (1 + (a - 1) * math.exp(length - bias if reverse else bias - length))
        return min(max(w, self.low), self.high)


def _length(sc: SentenceChunks, i: int) -> int:
    s, e = sc.spans[i]
    return max(e - s, len(sc.hyp[i].tokens))


def _pseudo(sc: SentenceChunks, i: int, side: Sequence[Side]) -> str:
    toks: list[str] = []
    for j, (s, e) in enumerate(sc.spans):
        toks += side[j].tokens if j == i else sc.tokens[s:e]
    return " ".join(t for t in toks if t)


def _similarity_weights(data: Sequence[tuple[SentenceChunks, list[list[str]]]],
                        sim: Similarity) -> list[list[list[float]]]:
    """Per sentence, reference and chunk the similarity weight (TN: 1)."""
    cands: list[str] = []
    refs: list[str] = []
    where: list[tuple[int, int, int]] = []  # (sentence, reference, chunk) or chunk -1: anchor
    for n, (sc, kinds) in enumerate(data):
        src = " ".join(sc.tokens)
        for k, ks in enumerate(kinds):
            todo = [(i, _pseudo(sc, i, sc.refs[k] if kd == "fn" else sc.hyp))
                    for i, kd in enumerate(ks) if kd != "tn"]
            if not todo:
                continue
            cands.append(src)
            refs.append(sc.ref_texts[k])
            where.append((n, k, -1))
            for i, text in todo:
                cands.append(text or src)
                refs.append(sc.ref_texts[k])
                where.append((n, k, i))
    scores = list(sim(cands, refs)) if cands else []
    out = [[[1.0] * len(sc.spans) for _ in kinds] for sc, kinds in data]
    anchor = 0.0
    for (n, k, i), value in zip(where, scores, strict=True):
        if i < 0:
            anchor = float(value)
        else:
            out[n][k][i] = abs(anchor - float(value))
    return out


def _counts(kinds: Sequence[str], weights: Sequence[float] | None) -> ChunkCounts:
    tot = dict.fromkeys(CHUNK_KINDS, 0.0)
    for i, kd in enumerate(kinds):
        tot[kd] += 1.0 if weights is None else weights[i]
    return ChunkCounts(**tot)


def _better(a: Sequence[float], b: Sequence[float]) -> bool:
    """CLEME's strict lexicographic 'greater' of two score lists."""
    for x, y in zip(a, b, strict=True):
        if x != y:
            return x > y
    return False


@register("cleme2")
@dataclass
class Cleme2Metric:
    """CLEME2.0's hit/wrong/under/over-correction scores and their combination (see the module
    docstring); ``independent=True`` or the name ``cleme2-ind`` for the independent variant.

    Settings: ``weighting`` (``none``, ``length``, ``similarity``), ``level`` (``corpus`` or
    ``sentence``: which aggregation the corpus numbers report; the sentence rows always hold each
    sentence's best-reference scores), ``factors`` (hit, wrong, under, over; default by level),
    ``similarity`` (a callable ``sim(candidates, references)``, or a BERTScore model name or
    path for the ``bertscore`` plug-in; default ``bert-base-uncased``), ``alpha``/``low``/``high``
    of the length weights. Text hypotheses are annotated with ``errtype.load(lang)``.
    """

    independent: bool = False
    weighting: str = "none"
    level: str = "corpus"
    factors: tuple[float, float, float, float] | None = None
    similarity: Any = None
    alpha: float = option(2.0, gt=0)
    low: float = option(0.75, ge=0)
    high: float = option(1.25, ge=0)
    lang: str = "en"
    annotator: Any = field(default=None, repr=False, compare=False)
    gold_edits: str = "m2"
    name: str = "cleme2"
    main: ClassVar[str] = "cleme2"
    uses: ClassVar[tuple[str, ...]] = ("gold", "hyp_edits")

    def __post_init__(self) -> None:
        if self.weighting not in WEIGHTINGS:
            raise InputError(f"CLEME2.0 weighting must be one of {', '.join(WEIGHTINGS)}, not "
                             f"{self.weighting!r}")
        if self.level not in ("corpus", "sentence"):
            raise InputError(f"CLEME2.0 level must be corpus or sentence, not {self.level!r}")
        f = tuple(self.factors) if self.factors is not None else (
            CORPUS_FACTORS if self.level == "corpus" else SENTENCE_FACTORS)
        if len(f) != 4 or abs(sum(f) - 1.0) > 1e-5:
            raise InputError(f"CLEME2.0 needs 4 factors summing to 1, got {f}")
        self.factors = f  # type: ignore[assignment]
        self._sim: Similarity | None = None

    def settings(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "references": "independent" if self.independent else "dependent",
            "level": self.level, "factors": ",".join(f"{x:g}" for x in self.factors or ()),
            "weighting": self.weighting, "chunks": "cleme-merge", "edits": f"errtype-{self.lang}",
            "gold": self.gold_edits}
        if self.weighting == "length":
            out["length"] = f"alpha={self.alpha:g},clip={self.low:g}-{self.high:g}"
        elif self.weighting == "similarity":
            out["similarity"] = (self.similarity if isinstance(self.similarity, str) else
                                 getattr(self.similarity, "__name__", "callable")
                                 if self.similarity is not None else "bertscore:bert-base-uncased")
        return out

    def similarity_function(self) -> Similarity:
        """The similarity of the ``similarity`` weighting (loaded on first use)."""
        if self._sim is None:
            if callable(self.similarity):
                self._sim = self.similarity
            else:
                from ..lm.bertscore import BertScore

                scorer = BertScore(model=self.similarity or "bert-base-uncased")
                self._sim = lambda c, r: scorer.pairs(c, r)["f"]
        return self._sim

    def weights(self, data: Sequence[tuple[SentenceChunks, list[list[str]]]]
                ) -> list[list[list[float]]] | None:
        """Per sentence, reference and chunk the weight (None: all 1)."""
        if self.weighting == "none":
            return None
        if self.weighting == "similarity":
            return _similarity_weights(data, self.similarity_function())
        lengths = [max(e - s, len(r[i].tokens)) for sc, _ in data for r in sc.refs
                   for i, (s, e) in enumerate(sc.spans) if r[i].marked]
        bias = sum(lengths) / len(lengths) if lengths else math.nan
        lw = LengthWeights(self.alpha, self.low, self.high)
        out = []
        for sc, kinds in data:
            out.append([[1.0 if kd == "tn" else lw.weight(_length(sc, i), bias,
                                                          kd.startswith("fp"))
                         for i, kd in enumerate(ks)] for ks in kinds])
        return out

    def score(self, data: ScoreInput) -> ScoreResult:
        from ..extract import hypothesis_blocks

        hyp = hypothesis_blocks(data, self.lang, self.annotator)
        prepared = []
        for hb, rb in zip(hyp, data.gold, strict=True):
            sc = sentence_chunks(rb.tokens, _first_coder(hb), _references(rb))
            prepared.append((sc, classify(sc, self.independent)))
        weights = self.weights(prepared)
        factors = tuple(self.factors or CORPUS_FACTORS)
        total = ChunkCounts()
        rows = []
        sums = dict.fromkeys(("score", "hit", "wrong", "under", "over"), 0.0)
        for n, (sc, kinds) in enumerate(prepared):
            per_ref = [_counts(ks, None if weights is None else weights[n][k])
                       for k, ks in enumerate(kinds)]
            # corpus level: the reference that makes the running counts best
            best_key: list[float] = [-1.0, 0, 0, 0, 0]
            best = ChunkCounts()
            for c in per_ref:
                key = [heuo(total + c, factors)["score"], c.tp, -c.fp, -c.fn, c.tn]
                if _better(key, best_key):
                    best_key, best = key, c
            total = total + best
            # sentence level: the reference with the best own scores
            s_key: list[float] = [-1.0, -1.0, 1.0, 1.0, 1.0]
            s_best, s_ref = heuo(per_ref[0], factors), 0
            for k, c in enumerate(per_ref):
                h = heuo(c, factors)
                key = [h["score"], h["hit"], -h["wrong"], -h["under"], -h["over"]]
                if _better(key, s_key):
                    s_key, s_best, s_ref = key, h, k
            for key_name in sums:
                sums[key_name] += s_best[key_name]
            c = per_ref[s_ref]
            rows.append({"id": n, "reference": s_ref, "chunks": len(sc.spans), **s_best,
                         "tp": c.tp, "fp_ne": c.fp_ne, "fp_un": c.fp_un, "fn": c.fn,
                         "tn": c.tn})
        if self.level == "corpus":
            head = heuo(total, factors)
        else:
            head = {k: v / len(prepared) if prepared else 0.0 for k, v in sums.items()}
        corpus = {"cleme2": head["score"], "hit": head["hit"], "wrong": head["wrong"],
                  "under": head["under"], "over": head["over"]}
        return ScoreResult(metric=self.name, corpus=corpus,
                           signature=signature(self.name, self.settings()),
                           counts={"tp": total.tp, "fp_ne": total.fp_ne, "fp_un": total.fp_un,
                                   "fn": total.fn, "tn": total.tn},
                           sentences=rows)


def _independent(**settings: Any) -> Cleme2Metric:
    settings.setdefault("name", "cleme2-ind")
    return Cleme2Metric(independent=True, **settings)


register("cleme2-ind", _independent)
