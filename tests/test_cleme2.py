"""CLEME2.0: chunking with touching spans joined, hit/wrong/under/over-correction counts with
dependent and independent references, the three weightings and both levels, on hand-built
sentences whose numbers are worked out in the comments. ``bench/cleme2.py`` compares with
THUKElab/CLEME's code on CoNLL-2014 (AMU): equal to 1e-15 in all 12 configurations."""

from __future__ import annotations

import math

import pytest

from errtype.errors import InputError
from errtype.m2 import M2Block, M2Edit
from errtype.score.edits.chunks import chunks
from errtype.score.edits.cleme2 import (
    ChunkCounts,
    Cleme2Metric,
    LengthWeights,
    classify,
    heuo,
    sentence_chunks,
)
from errtype.score.registry import ScoreInput, get_metric

TOKS = "he go to school yesterday .".split()


def E(start: int, end: int, cor: str, ann: int = 0, typ: str = "X") -> M2Edit:
    return M2Edit(start, end, typ, cor, ann)


def test_touching_spans_are_joined_only_with_adjacent() -> None:
    assert chunks([(1, 2), (2, 3)]) == [(1, 2), (2, 3)]
    assert chunks([(1, 2), (2, 3)], adjacent=True) == [(1, 3)]
    assert chunks([(2, 2), (3, 3)], adjacent=True) == [(2, 2), (3, 3)]
    assert chunks([(1, 2), (2, 2)], adjacent=True) == [(1, 2)]


def test_chunks_and_kinds_dependent() -> None:
    hyp = [E(1, 2, "goes"), E(4, 5, "today")]           # a hit, and an over-correction
    ref0 = [E(1, 2, "went"), E(2, 3, "to the")]          # touches: one chunk [1, 3)
    ref1 = [E(1, 2, "goes")]
    sc = sentence_chunks(TOKS, hyp, [ref0, ref1])
    assert sc.spans == [(0, 1), (1, 3), (3, 4), (4, 5), (5, 6)]
    assert [h.marked for h in sc.hyp] == [False, True, False, True, False]
    assert sc.hyp[1].tokens == ("goes", "to") and sc.refs[0][1].tokens == ("went", "to", "the")
    kinds = classify(sc)
    # against ref0: [1,3) corrected differently (wrong), [4,5) not in ref0 (over)
    assert kinds[0] == ["tn", "fp_ne", "tn", "fp_un", "tn"]
    # against ref1: [1,3) equal (hit)
    assert kinds[1] == ["tn", "tp", "tn", "fp_un", "tn"]
    # a missed chunk is an under-correction
    sc2 = sentence_chunks(TOKS, [], [ref0])
    assert sc2.spans == [(0, 1), (1, 3), (3, 6)]
    assert classify(sc2)[0] == ["tn", "fn", "tn"]


def test_kinds_independent() -> None:
    ref0 = [E(1, 2, "went")]
    ref1 = [E(1, 2, "goes")]
    sc = sentence_chunks(TOKS, [E(1, 2, "goes")], [ref0, ref1])
    assert classify(sc, independent=True) == [["tn", "tp", "tn"]] * 2
    # left alone: FN only when every reference marks the chunk
    sc = sentence_chunks(TOKS, [], [ref0, []])
    assert classify(sc, independent=True)[0] == ["tn", "tn", "tn"]
    assert classify(sc)[0] == ["tn", "fn", "tn"]  # dependent, against ref0
    # corrected where only one reference marks it, otherwise: necessary FP
    sc = sentence_chunks(TOKS, [E(1, 2, "gone")], [ref0, []])
    assert classify(sc, independent=True)[0] == ["tn", "fp_ne", "tn"]


def test_heuo_arithmetic() -> None:
    # TP 2, FP_NE 1, FN 1 -> NE 4: hit .5, wrong .25, under .25; FP_UN 1 of TP+FP 4: over .25
    h = heuo(ChunkCounts(tp=2, fp_ne=1, fp_un=1, fn=1), (0.45, 0.35, 0.15, 0.05))
    assert (h["hit"], h["wrong"], h["under"], h["over"]) == (0.5, 0.25, 0.25, 0.25)
    assert h["score"] == pytest.approx(0.45 * 0.5 + 0.35 * 0.75 + 0.15 * 0.75 + 0.05 * 0.75)
    empty = heuo(ChunkCounts(tn=3), (0.45, 0.35, 0.15, 0.05))
    assert empty["hit"] == 0 and empty["score"] == pytest.approx(0.55)


def test_length_weights() -> None:
    lw = LengthWeights()
    # L = bias: 2 / (1 + 1) = 1 either way; longer TP weighs more, longer FP less (clipped)
    assert lw.weight(2, 2.0, False) == 1.0 == lw.weight(2, 2.0, True)
    assert lw.weight(2, 2.2, False) == pytest.approx(2 / (1 + math.exp(0.2)))
    assert lw.weight(2, 2.2, True) == pytest.approx(2 / (1 + math.exp(-0.2)))
    assert lw.weight(10, 2.0, False) == 1.25 and lw.weight(10, 2.0, True) == 0.75


def _data(hyp_edits, ref_blocks) -> ScoreInput:
    gold = [M2Block(" ".join(TOKS), [e for r in ref_blocks for e in r])]
    hyp = [M2Block(" ".join(TOKS), list(hyp_edits))]
    return ScoreInput(gold, ["x"], hyp)


def test_metric_corpus_and_sentence_levels() -> None:
    hyp = [E(1, 2, "goes"), E(4, 5, "today")]
    refs = [[E(1, 2, "went", 0), E(2, 3, "to the", 0)], [E(1, 2, "goes", 1)]]
    res = get_metric("cleme2").score(_data(hyp, refs))
    # corpus: ref1 gives TP 1, FP_UN 1: hit 1, wrong 0, under 0, over .5
    assert res.sentences[0]["reference"] == 1
    assert res.corpus == pytest.approx({"cleme2": 0.45 + 0.35 + 0.15 + 0.05 * 0.5, "hit": 1.0,
                                        "wrong": 0.0, "under": 0.0, "over": 0.5})
    sent = get_metric("cleme2", level="sentence").score(_data(hyp, refs))
    assert sent.corpus["cleme2"] == pytest.approx(0.35 + 0.25 + 0.20 + 0.20 * 0.5)
    assert sent.sentences[0]["score"] == sent.corpus["cleme2"]
    ind = get_metric("cleme2-ind").score(_data(hyp, refs))
    assert ind.corpus["hit"] == 1.0 and "independent" in ind.signature


def test_similarity_weighting_uses_pseudo_sentences() -> None:
    seen = []

    def sim(cands, refs):
        seen.extend(zip(cands, refs, strict=True))
        return [len(c) / 100 for c in cands]

    hyp = [E(1, 2, "goes")]
    refs = [[E(1, 2, "goes"), E(4, 5, "today")]]
    m = Cleme2Metric(weighting="similarity", similarity=sim)
    res = m.score(_data(hyp, refs))
    src = " ".join(TOKS)
    ref = "he goes to school today ."
    # the anchor, the hit (source with only "goes") and the miss (source with only "today")
    assert seen == [(src, ref), ("he goes to school yesterday .", ref),
                    ("he go to school today .", ref)]
    w_tp = abs(len(src) - len("he goes to school yesterday .")) / 100
    w_fn = abs(len(src) - len("he go to school today .")) / 100
    assert res.counts["tp"] == pytest.approx(w_tp) and res.counts["fn"] == pytest.approx(w_fn)
    assert res.corpus["hit"] == pytest.approx(w_tp / (w_tp + w_fn))


def test_length_weighting_and_bad_settings() -> None:
    hyp = [E(1, 2, "goes")]
    refs = [[E(1, 2, "goes"), E(3, 5, "")]]
    res = Cleme2Metric(weighting="length").score(_data(hyp, refs))
    # reference chunks: L 1 and 2, bias 1.5; TP L 1 -> 2/(1+e^0.5), FN (hyp chunk) L 2
    assert res.counts["tp"] == pytest.approx(max(2 / (1 + math.exp(0.5)), 0.75))
    assert res.counts["fn"] == pytest.approx(min(2 / (1 + math.exp(-0.5)), 1.25))
    with pytest.raises(InputError):
        Cleme2Metric(weighting="llm")
    with pytest.raises(InputError):
        Cleme2Metric(factors=(0.5, 0.5, 0.5, 0.5))


def test_empty_reference_is_dropped() -> None:
    toks = ["oops"]
    sc = sentence_chunks(toks, [], [[E(0, 1, "-NONE-", 0)], [E(0, 1, "ok", 1)]])
    assert sc.ref_texts == ["ok"]
