"""The conventions of every metric errtype score serves, on hand-built data with hand-computed
values: empty gold, empty hypothesis, several annotators, ``-NONE-``; SentM2/SentERRANT/GLEU on
CoNLL-2014 against published numbers; GoToScorer's chunks and weights."""

from __future__ import annotations

from pathlib import Path

import pytest

from errtype.errors import InputError
from errtype.m2 import M2Block, M2Edit, read_m2
from errtype.score import ScoreInput, get_metric
from errtype.score.common import prf
from errtype.score.edits.goto import Chunk, chunks, judge, read_weights
from errtype.score.extract import gold_references
from errtype.score.ngram.gleu import GLEU

from .conftest import shared_path

E = M2Edit
# S1 no edit line at all; S2 annotator 0 corrects, annotator 1 wrote a noop; S3 a deletion written
# -NONE- by annotator 0 only; S4 no edit line, the system changes a token.
GOLD = [
    M2Block("a b c", []),
    M2Block("he go home", [E(1, 2, "R:VERB", "goes", 0), E(-1, -1, "noop", "-NONE-", 1)]),
    M2Block("the the cat", [E(0, 1, "U:DET", "-NONE-", 0)]),
    M2Block("x y", []),
]
HYPS = ["a b c", "he go home", "the cat", "x z"]
NOOP = E(-1, -1, "noop", "-NONE-", 0)
#: the system's edits as ERRANT writes them (a deletion has an empty correction)
HYP_BLOCKS = [
    M2Block("a b c", [NOOP]),
    M2Block("he go home", [NOOP]),
    M2Block("the the cat", [E(0, 1, "U:DET", "", 0)]),
    M2Block("x y", [E(1, 2, "R:NOUN", "z", 0)]),
]


def score(name: str, hyps=HYPS, blocks=HYP_BLOCKS, gold=GOLD, **settings):
    return get_metric(name, **settings).score(ScoreInput(gold, hyps, blocks, name="H"))


def test_m2_conventions() -> None:
    # m2scorer: -NONE- deletes, so S3 is correct; S2 takes annotator 1 (no edit); S4 proposes 1
    res = score("m2")
    assert (res.counts["correct"], res.counts["proposed"], res.counts["gold"]) == (1, 2, 1)
    assert res.corpus["f0.5"] == pytest.approx(prf(1, 1, 0)[2]) == pytest.approx(5 / 9)
    # no edit on either side: P = R = F = 1 (m2scorer 3.2); an empty hypothesis deletes
    empty = [M2Block("ok .", [])]
    assert score("m2", ["ok ."], None, empty).corpus == {"p": 1.0, "r": 1.0, "f0.5": 1.0}
    deleted = score("m2", [""], None, empty)
    assert deleted.counts["correct"] == 0 and deleted.counts["proposed"] >= 1
    assert deleted.corpus["f0.5"] == 0.0


def test_sentm2_conventions() -> None:
    res = score("sentm2")
    # S1 no gold, no edit -> 1; S2 best annotator (1: no edit) -> 1; S3 -NONE- deletion found
    # -> 1; S4 no gold but one edit -> P 0, R 1, F 0
    assert [s["f"] for s in res.sentences] == [1.0, 1.0, 1.0, 0.0]
    assert [s["annotator"] for s in res.sentences][:2] == [0, 1]
    assert res.corpus["f0.5"] == 0.75
    # the corpus M2 of the same counts is not the mean of the sentences
    assert score("m2").corpus["f0.5"] != res.corpus["f0.5"]


def test_sentm2_empty_hypothesis_and_ties() -> None:
    gold = [M2Block("ok .", []), M2Block("a b", [E(0, 1, "R:X", "c", 0), E(0, 1, "R:X", "d", 1)])]
    res = score("sentm2", ["", "d b"], None, gold)
    # an empty hypothesis deletes every token: P = 0 against an empty gold, F = 0
    assert res.sentences[0]["f"] == 0.0 and res.sentences[0]["fp"] >= 1
    # the second annotator matches: F = 1, chosen although the first comes first
    assert res.sentences[1]["annotator"] == 1 and res.sentences[1]["f"] == 1.0


def test_errant_conventions() -> None:
    # -NONE- is a deletion (issue 33), so S3's deletion is found; S4 proposes one edit
    res = score("errant")
    assert (res.counts["tp"], res.counts["fp"], res.counts["fn"]) == (1, 1, 0)
    assert res.corpus["f0.5"] == round(prf(1, 1, 0)[2], 4)
    # errant_compare's reading (literal_none): a literal correction, so S3 is one FP and one FN
    literal = score("errant", literal_none=True)
    assert (literal.counts["tp"], literal.counts["fp"], literal.counts["fn"]) == (0, 2, 1)
    assert literal.corpus["f0.5"] == 0.0 and "none:literal" in literal.signature
    # nothing to find and nothing proposed: errant_compare's P = R = F = 1
    nothing = score("errant", ["a b c"], [HYP_BLOCKS[0]], [GOLD[0]])
    assert nothing.corpus == {"p": 1.0, "r": 1.0, "f0.5": 1.0}


def test_senterrant_conventions() -> None:
    res = score("senterrant")
    # S3's deletion, written -NONE- in the gold and empty by the system, is found
    assert [s["f"] for s in res.sentences] == [1.0, 1.0, 1.0, 0.0]
    assert [(s["tp"], s["fp"], s["fn"]) for s in res.sentences][2] == (1, 0, 0)
    assert res.corpus["f0.5"] == 0.75
    # an UNK gold edit is not a correction to find: the unchanged hypothesis scores 1
    gold = [M2Block("a b", [E(0, 1, "UNK", "a", 0)])]
    unk = score("senterrant", ["a b"], [M2Block("a b", [NOOP])], gold)
    assert unk.sentences[0]["f"] == 1.0


def test_gleu_reference_conventions() -> None:
    refs = gold_references(GOLD)
    # annotator 1 wrote a noop in S2 (unchanged) and is absent from S3 (corrects as annotator 0)
    assert refs == [["a b c", "he goes home", "the cat", "x y"],
                    ["a b c", "he go home", "the cat", "x y"]]
    assert gold_references(GOLD, "unchanged")[1][2] == "the the cat"
    res = score("gleu")
    direct = GLEU().score([b.source for b in GOLD], refs, HYPS)
    assert res.corpus == direct.corpus
    # an empty hypothesis file scores 0 (every statistic is 0), not an error
    assert score("gleu", ["", "", "", ""]).corpus["gleu"] == 0.0


def test_goto_chunks_and_judging() -> None:
    gold = chunks(["a", "b"], [E(1, 1, "M:DET", "the", 0), E(1, 2, "R:X", "c", 0)])
    assert gold == [Chunk(0, 0, ""), Chunk(0, 1, "a"), Chunk(1, 1, "the", True, "M:DET"),
                    Chunk(1, 2, "c", True, "R:X"), Chunk(2, 2, "")]
    # noop, UNK and Um edits make no chunk
    assert chunks(["a"], [E(0, 1, "UNK", "a", 0), E(0, 1, "Um", "", 0)]) == \
        [Chunk(0, 0, ""), Chunk(0, 1, "a"), Chunk(1, 1, "")]
    unchanged = chunks(["a", "b"], [])
    assert judge(gold[2], unchanged) == (False, False)  # a missed insertion
    assert judge(gold[1], unchanged) == (False, True)  # an untouched token
    replaced = chunks(["a", "b"], [E(0, 2, "R:X", "z", 0)])
    assert judge(gold[1], replaced) == (True, False)  # an overlapping change
    assert judge(gold[2], replaced) == (False, False)  # insertions only see their own span


def test_goto_weights_and_scores(tmp_path: Path) -> None:
    gold = [M2Block("a b", [E(1, 2, "R:X", "c", 0)])]
    blocks = {"S1": [M2Block("a b", [E(1, 2, "R:X", "c", 0)])],  # corrects the error
              "S2": [M2Block("a b", [NOOP])],  # changes nothing
              "S3": [M2Block("a b", [E(0, 1, "R:X", "x", 0)])]}  # changes the wrong token
    hyps = {"S1": ["a c"], "S2": ["a b"], "S3": ["x b"]}
    inputs = [ScoreInput(gold, hyps[n], blocks[n], name=n) for n in blocks]
    m = get_metric("goto")
    with pytest.raises(InputError, match="needs weights"):
        m.score(inputs[0])
    m.prepare(inputs)
    # chunks: ins0, a, ins1, b->c, ins2; corrected by 3, 2, 3, 1, 3 of 3 systems
    assert m.n_correct == [[3, 2, 3, 1, 3]]
    res = {d.name: m.score(d) for d in inputs}
    s1, s2, s3 = (res[n].counts for n in ("S1", "S2", "S3"))
    assert (s1["tp"], s1["tn"]) == pytest.approx((2 / 3, 1 / 3))
    assert res["S1"].corpus == pytest.approx({"p": 1.0, "r": 1.0, "f0.5": 1.0, "accuracy": 1.0})
    # changing nothing scores 0 (P and R are 0 on empty denominators), unlike M2
    assert (s2["tn"], s2["fn"]) == pytest.approx((1 / 3, 2 / 3))
    assert res["S2"].corpus["f0.5"] == 0.0
    assert res["S2"].corpus["accuracy"] == pytest.approx(1 / 3)
    # an empty gold weighs nothing: GoToScorer gives 0, not M2's 1
    empty = ScoreInput([M2Block("a b", [])], ["a b"], [M2Block("a b", [NOOP])])
    quiet = get_metric("goto")
    quiet.prepare([empty])
    assert quiet.score(empty).corpus == {"p": 0.0, "r": 0.0, "f0.5": 0.0, "accuracy": 0.0}
    assert (s3["fp"], s3["fn"]) == pytest.approx((1 / 3, 2 / 3))
    # the weight file round trip (the authors' format)
    path = tmp_path / "w.txt"
    m.weight_file(path)
    assert path.read_text() == "3\n3 2 3 1 3\n"
    assert read_weights(path) == (3, [[3, 2, 3, 1, 3]])
    again = get_metric("goto", weights=str(path))
    assert again.score(inputs[1]).corpus == res["S2"].corpus
    with pytest.raises(InputError, match="do not fit"):
        again.score(ScoreInput([M2Block("a b c", [])], ["a b c"], [M2Block("a b c", [NOOP])]))


def test_goto_wrong_insertion_is_a_false_positive_and_a_false_negative() -> None:
    """One gold insertion, three systems; by hand from the definition, w = 1 - n_c / N."""
    gold = [M2Block("we go", [E(1, 1, "M:VERB", "will", 0)])]
    sys_blocks = [[M2Block("we go", [E(1, 1, "M:VERB", "will", 0)])],
                  [M2Block("we go", [E(1, 1, "M:VERB", "shall", 0)])],
                  [M2Block("we go", [NOOP])]]
    hyps = ["we will go", "we shall go", "we go"]
    inputs = [ScoreInput(gold, [h], b, name=str(i))
              for i, (h, b) in enumerate(zip(hyps, sys_blocks, strict=True))]
    m = get_metric("goto")
    m.prepare(inputs)
    # the insertion chunk at 1 is corrected by 1 of 3 systems: weight 2/3; the rest weigh 0
    assert m.n_correct == [[3, 3, 1, 3, 3]]
    second = m.score(inputs[1]).counts  # a wrong insertion: FP and FN
    assert (second["fp"], second["fn"], second["tp"]) == pytest.approx((2 / 3, 2 / 3, 0))


# ------------------------------------------------------------------ published CoNLL-2014 numbers


def _conll() -> tuple[list[M2Block], dict[str, list[str]]]:
    gold = list(read_m2(shared_path("conll14", "official-2014.combined.m2")))
    systems = {}
    for name in ("AMU", "CAMB", "INPUT"):
        lines = shared_path("conll14", "systems", name).read_text(encoding="utf-8").splitlines()
        systems[name] = [ln.strip() for ln in lines]
    return gold, systems


def test_conll14_sentm2_gleu_published() -> None:
    gold, systems = _conll()
    sentm2, gleu = get_metric("sentm2"), get_metric("gleu")
    got = {}
    for name, hyps in systems.items():
        data = ScoreInput(gold, hyps, name=name)
        got[name] = (sentm2.score(data).corpus["f0.5"], gleu.score(data).corpus["gleu"])
    # SEEDA README (Kobayashi et al. 2024), INPUT SentM2 on the whole CoNLL-2014 test: 31.33
    assert round(100 * got["INPUT"][0], 2) == 31.33
    # PyPI gleu README with -f (Python 2 draws), references from the two annotators
    # (METRICS.md 2.3): AMU 58.3256, CAMB 59.2553, INPUT 56.6048
    assert [f"{100 * got[n][1]:.4f}" for n in ("AMU", "CAMB", "INPUT")] == \
        ["58.3256", "59.2553", "56.6048"]
    # regression pins (errtype's own SentM2 of the official submissions)
    assert [round(100 * got[n][0], 2) for n in ("AMU", "CAMB")] == [38.36, 35.81]
