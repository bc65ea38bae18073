"""Edit-weighted ERRANT (pt-errant): weights from a pluggable scorer, on hand-built data; each
convention has a case an off-by-one would break."""

from __future__ import annotations

import pytest

from errtype.errors import InputError
from errtype.m2 import M2Block
from errtype.m2 import M2Edit as E
from errtype.score.edits.weighted import apply_one
from errtype.score.registry import ScoreInput, get_metric

SRC = "This are a example sentence ."


def chars(tokens, references) -> float:  # type: ignore[no-untyped-def]
    """A toy scorer: the sentence's length in characters (weights = length changes)."""
    return float(len(" ".join(tokens)))


def _data(gold: list[E], hyp: list[E]) -> ScoreInput:
    return ScoreInput([M2Block(SRC, gold or [E.noop()])], ["unused"],
                      [M2Block(SRC, hyp or [E.noop()])])


def _counts(gold: list[E], hyp: list[E], scorer=chars) -> tuple[float, float, float]:  # type: ignore[no-untyped-def]
    c = get_metric("pt-errant", scorer=scorer).score(_data(gold, hyp)).counts
    return c["tp"], c["fp"], c["fn"]


def test_apply_one() -> None:
    toks = SRC.split()
    assert apply_one(toks, (1, 2, "is")) == "This is a example sentence .".split()
    assert apply_one(toks, (2, 3, "-NONE-")) == "This are example sentence .".split()
    assert apply_one(toks, (2, 2, "very||so")) == "This are very a example sentence .".split()


def test_weights_are_score_changes() -> None:
    # "are"->"is": 1 character less (weight 1); "a"->"an": 1 more (1); "sentence"->"one": 5
    gold = [E(1, 2, "R:VERB:SVA", "is", 0), E(2, 3, "R:DET", "an", 0)]
    hyp = [E(1, 2, "R:VERB:SVA", "is", 0), E(4, 5, "R:NOUN", "one", 0)]
    assert _counts(gold, hyp) == (1.0, 5.0, 1.0)
    res = get_metric("pt-errant", scorer=chars, beta=1.0).score(_data(gold, hyp))
    assert res.corpus["f1"] == pytest.approx(2 * (1 / 6) * 0.5 / (1 / 6 + 0.5))
    assert "weights:abs-delta:chars" in res.signature


def test_conventions() -> None:
    gold = [E(1, 2, "R:VERB:SVA", "is", 0)]
    # empty hypothesis: all gold weight is FN, F = 0
    assert _counts(gold, []) == (0.0, 0.0, 1.0)
    # empty gold: all hypothesis weight is FP
    assert _counts([], gold) == (0.0, 1.0, 0.0)
    # both empty: nothing counted, P = R = F = 1 (the scorers' rule)
    res = get_metric("pt-errant", scorer=chars).score(_data([], []))
    assert res.corpus["f0.5"] == 1.0
    # -NONE- deletion: weight of deleting "a" is 2 characters ("a" and its space)
    assert _counts([E(2, 3, "U:DET", "-NONE-", 0)], [E(2, 3, "U:DET", "-NONE-", 0)]) == (
        2.0, 0.0, 0.0)
    # a zero-weight edit (same length) counts nothing either way
    assert _counts([E(4, 5, "R:NOUN", "sentencE", 0)], []) == (0.0, 0.0, 0.0)
    # several annotators: the best one is chosen (annotator 1 agrees)
    multi = [E(1, 2, "R:VERB:SVA", "was", 0), E(1, 2, "R:VERB:SVA", "is", 1)]
    assert _counts(multi, [E(1, 2, "R:VERB:SVA", "is", 0)]) == (1.0, 0.0, 0.0)
    # UNK (detection only) edits are ignored, as errant_compare does
    assert _counts([E(1, 2, "UNK", "are", 0)], []) == (0.0, 0.0, 0.0)


def test_language_model_scorer_and_errors() -> None:
    """The offline default language model: an edit that makes the sentence more fluent carries
    weight; the weights are deterministic."""
    gold = [E(1, 2, "R:VERB:SVA", "is", 0), E(2, 3, "R:DET", "an", 0)]
    tp, fp, fn = _counts(gold, gold[:1], scorer="lm:default")
    assert tp > 0 and fp == 0 and fn > 0
    assert _counts(gold, gold[:1], scorer="lm:default") == (tp, fp, fn)
    with pytest.raises(InputError, match="unknown scorer"):
        get_metric("pt-errant", scorer="bertscore").score(_data(gold, gold))
