"""The metric protocol and registry: adapters give the scorers' own numbers, plus per-sentence
tp/fp/fn; one F-beta rule and one F key."""

from __future__ import annotations

import pytest

from errtype.errors import InputError
from errtype.m2 import M2Block, M2Edit
from errtype.score import available_metrics
from errtype.score.common import corpus_f, f_key, macro_f, prf, sentence_counts
from errtype.score.edits.errant import ErrantMetric, errant_prf, errant_score
from errtype.score.edits.maxmatch import final_prf, gold_from_blocks, maxmatch
from errtype.score.extract import gold_references
from errtype.score.ngram.gleu import GLEU
from errtype.score.registry import Metric, ScoreInput, get_metric, metric_signature

GOLD = [
    M2Block("The cat sat on mat .", [M2Edit(4, 4, "M:DET", "the", 0),
                                      M2Edit(4, 4, "M:DET", "a", 1)]),
    M2Block("He go home .", [M2Edit(1, 2, "R:VERB:SVA", "goes", 0),
                             M2Edit(1, 2, "R:VERB:SVA", "goes", 1)]),
    M2Block("Fine sentence .", [M2Edit(-1, -1, "noop", "-NONE-", 0)]),
]
HYPS = ["The cat sat on the mat .", "He goes home !", "Fine sentence ."]
HYP_BLOCKS = [
    M2Block(GOLD[0].source, [M2Edit(4, 4, "M:DET", "the", 0)]),
    M2Block(GOLD[1].source, [M2Edit(1, 2, "R:VERB:SVA", "goes", 0),
                             M2Edit(3, 4, "R:PUNCT", "!", 0)]),
    M2Block(GOLD[2].source, [M2Edit(-1, -1, "noop", "-NONE-", 0)]),
]


def test_registry_builds_configured_metrics() -> None:
    assert {"errant", "maxmatch", "gleu", "scribendi"} <= set(available_metrics())
    m = get_metric("maxmatch", beta=1.0, max_unchanged_words=3)
    assert isinstance(m, Metric) and m.name == "maxmatch"
    assert "max_unchanged_words:3" in metric_signature(m)
    with pytest.raises(InputError, match="unknown metric 'bleu'"):
        get_metric("bleu")


def test_errant_adapter_is_errant_score() -> None:
    res = get_metric("errant").score(ScoreInput(GOLD, HYPS, HYP_BLOCKS))
    direct = errant_score(HYP_BLOCKS, GOLD)
    assert res.corpus == direct.corpus and res.counts == direct.counts
    assert res.signature == direct.signature
    assert sentence_counts(res) == [(1, 0, 0), (1, 1, 0), (0, 0, 0)]


def test_maxmatch_adapter_adds_counts_without_changing_scores() -> None:
    res = get_metric("maxmatch").score(ScoreInput(GOLD, HYPS))
    direct = maxmatch(HYPS, gold_from_blocks(GOLD))
    assert res.corpus == direct.corpus and res.signature == direct.signature
    for s in res.sentences:
        assert (s["tp"], s["fp"], s["fn"]) == (s["correct"], s["proposed"] - s["correct"],
                                                 s["gold"] - s["correct"])
    tp, fp, fn = map(sum, zip(*sentence_counts(res), strict=True))
    assert prf(tp, fp, fn)[2] == corpus_f(res)


def test_gleu_adapter_uses_each_annotator_as_a_reference() -> None:
    refs = gold_references(GOLD)
    assert refs == [["The cat sat on the mat .", "He goes home .", "Fine sentence ."],
                    ["The cat sat on a mat .", "He goes home .", "Fine sentence ."]]
    res = get_metric("gleu").score(ScoreInput(GOLD, HYPS))
    assert res.corpus == GLEU().score([b.source for b in GOLD], refs, HYPS).corpus


def test_errant_adapter_annotates_text_hypotheses() -> None:
    res = ErrantMetric().score(ScoreInput(GOLD, HYPS))
    assert (res.counts["tp"], res.counts["fp"], res.counts["fn"]) == (2, 1, 0)


def test_one_f_rule_and_key() -> None:
    for tp, fp, fn in [(0, 0, 0), (3, 0, 2), (0, 4, 0), (5, 3, 7), (0, 2, 3)]:
        for beta in (0.5, 1.0, 2.0):
            p, r, f = prf(tp, fp, fn, beta)
            assert errant_prf(tp, fp, fn, beta) == (round(p, 4), round(r, 4), round(f, 4))
            assert final_prf(tp, tp + fp, tp + fn, beta) == (p, r, f)
    assert (f_key(0.5), f_key(1.0), f_key(2)) == ("f0.5", "f1", "f2")
    res = errant_score(HYP_BLOCKS, GOLD, beta=1.0)
    assert corpus_f(res, 1.0) == res.corpus["f1.0"]  # errant's historic key still read


def test_macro_f_averages_types_with_gold_edits() -> None:
    per_type = {"A": {"tp": 1, "fp": 0, "fn": 1}, "B": {"tp": 0, "fp": 2, "fn": 0},
                "C": {"tp": 0, "fp": 0, "fn": 3}}
    assert macro_f(per_type) == pytest.approx((prf(1, 0, 1)[2] + 0.0) / 2)
    assert macro_f({}) == 0.0


def test_score_input_checks_lengths() -> None:
    with pytest.raises(InputError, match="2 hypotheses for 3 gold sentences"):
        ScoreInput(GOLD, HYPS[:2], name="sys.txt")


def test_gold_references_are_errtype_gleu_references() -> None:
    from errtype.m2 import read_m2
    from errtype.score.ngram.gleu import m2_references

    from .conftest import shared_path

    path = shared_path("conll14", "official-2014.combined.m2")
    assert gold_references(list(read_m2(path))) == m2_references(path)
