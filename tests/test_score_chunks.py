"""Chunk-level multi-reference evaluation (cleme, cleme-ind) on hand-built cases, beside the M2
and ERRANT scorers where they disagree; each convention has a case that an off-by-one breaks."""

from __future__ import annotations

import pytest

from errtype.errors import InputError
from errtype.m2 import M2Block
from errtype.m2 import M2Edit as E
from errtype.score.edits.chunks import chunk_counts, chunks
from errtype.score.registry import ScoreInput, get_metric

SRC = "This are a example sentence ."


def _input(gold: list[list[E]], hyp: list[E], hyp_text: str, src: str = SRC) -> ScoreInput:
    ref = M2Block(src, [e for k, edits in enumerate(gold) for e in
                        (edits or [E.noop(k)])])
    return ScoreInput([ref], [hyp_text], [M2Block(src, hyp or [E.noop()])])


def _counts(metric: str, data: ScoreInput) -> tuple[float, float, float]:
    c = get_metric(metric).score(data).counts
    if "correct" in c:  # MaxMatch counts correct, proposed and gold edits
        return c["correct"], c["proposed"] - c["correct"], c["gold"] - c["correct"]
    return c["tp"], c["fp"], c["fn"]


def test_chunks_join_overlaps_and_touching_insertions() -> None:
    assert chunks([(1, 3), (2, 4), (6, 7)]) == [(1, 4), (6, 7)]
    assert chunks([(1, 2), (2, 3)]) == [(1, 2), (2, 3)]  # adjacent replacements stay apart
    assert chunks([(1, 2), (2, 2), (2, 3)]) == [(1, 3)]  # an insertion between joins both
    assert chunks([(0, 0), (0, 0), (5, 5)]) == [(0, 0), (5, 5)]
    assert chunks([]) == []


def test_one_edit_for_two_reference_edits() -> None:
    """The hypothesis writes one edit where the reference has two: ERRANT counts 1 FP + 2 FN,
    M2 regroups the hypothesis into 2 TP, chunks count 1 TP."""
    data = _input([[E(1, 2, "R:VERB:SVA", "is", 0), E(2, 3, "R:DET", "an", 0)]],
                  [E(1, 3, "R:OTHER", "is an", 0)], "This is an example sentence .")
    assert _counts("errant", data) == (0, 1, 2)
    assert _counts("maxmatch", data) == (2, 0, 0)
    assert _counts("cleme", data) == (1, 0, 0)
    assert get_metric("cleme").score(data).corpus["f0.5"] == 1.0


def test_other_references_cut_the_chunks() -> None:
    """Reference 0 corrects "are a" as one edit, reference 1 only "are": one chunk [1, 3). The
    hypothesis fixing only "are" equals reference 1's correction of that chunk (TP against it),
    and against reference 0 it is a wrong correction (FP + FN)."""
    gold = [[E(1, 3, "R:OTHER", "is an", 0)], [E(1, 2, "R:VERB:SVA", "is", 1)]]
    hyp = [E(1, 2, "R:VERB:SVA", "is", 0)]
    cut, per, ind = chunk_counts(SRC.split(), hyp, [gold[0], gold[1]])
    assert cut == [(1, 3)] and per == [(0, 1, 1), (1, 0, 0)] and ind == (1, 0, 0)
    data = _input(gold, hyp, "This is a example sentence .")
    assert _counts("cleme", data) == (1, 0, 0)  # the best reference, 1
    assert get_metric("cleme").score(data).sentences[0]["reference"] == 1


def test_independent_pools_the_references_per_chunk() -> None:
    """Chunk 1 matches reference 0, chunk 2 reference 1: dependent picks one reference for the
    sentence (1 TP, 1 FP, 1 FN); independent takes each chunk from whichever reference matches
    (2 TP)."""
    src = "He go to school in monday ."
    gold = [[E(1, 2, "R:VERB:SVA", "goes", 0), E(4, 5, "R:PREP", "at", 0)],
            [E(1, 2, "R:VERB:TENSE", "went", 1), E(4, 5, "R:PREP", "on", 1)]]
    hyp = [E(1, 2, "R:VERB:SVA", "goes", 0), E(4, 5, "R:PREP", "on", 0)]
    data = _input(gold, hyp, "He goes to school on monday .", src)
    assert _counts("cleme", data) == (1, 1, 1)
    assert _counts("cleme-ind", data) == (2, 0, 0)


def test_conventions_empty_gold_empty_hypothesis_none_and_noop() -> None:
    # no gold edit, no hypothesis edit: nothing to count, P = R = F = 1 (the scorers' rule)
    nothing = _input([[]], [], SRC)
    res = get_metric("cleme").score(nothing)
    assert res.counts == {"tp": 0, "fp": 0, "fn": 0} and res.corpus["f0.5"] == 1.0
    # empty hypothesis against one gold edit: one FN, F = 0
    data = _input([[E(1, 2, "R:VERB:SVA", "is", 0)]], [], SRC)
    assert _counts("cleme", data) == (0, 0, 1) and _counts("cleme-ind", data) == (0, 0, 1)
    # an annotator who left the sentence unchanged makes "no change" acceptable independently
    data = _input([[E(1, 2, "R:VERB:SVA", "is", 0)], []], [], SRC)
    assert _counts("cleme-ind", data) == (0, 0, 0)
    assert _counts("cleme", data) == (0, 0, 0)  # the unchanged annotator is the best one
    # -NONE- is a deletion: the hypothesis deleting "a" matches it
    data = _input([[E(2, 3, "U:DET", "-NONE-", 0)]], [E(2, 3, "U:DET", "", 0)],
                  "This are example sentence .")
    assert _counts("cleme", data) == (1, 0, 0)
    # a||b: the first alternative is the reference's correction of the chunk
    data = _input([[E(1, 2, "R:VERB:SVA", "is||was", 0)]], [E(1, 2, "R:VERB:SVA", "is", 0)],
                  "This is a example sentence .")
    assert _counts("cleme", data) == (1, 0, 0)


def test_cleme_in_the_registry_and_corpus_counts() -> None:
    m = get_metric("cleme", beta=1.0)
    assert m.main == "f1" and "references:best-cumulative" in m.score(
        _input([[]], [], SRC)).signature
    assert get_metric("cleme-ind").settings()["references"] == "independent"
    with pytest.raises(InputError, match="metric cleme has no option 'no_such_setting'"):
        get_metric("cleme", no_such_setting=1)
