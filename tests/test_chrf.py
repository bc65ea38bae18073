"""chrF++ through sacreBLEU (``chrf``) and charGLEU (``gleu-char``) as registry metrics."""

from __future__ import annotations

from pathlib import Path

import pytest

from errtype.cli.score import main as score_main
from errtype.errors import ResourceError
from errtype.score import registry
from errtype.score.ngram.gleu import GLEU, units
from errtype.score.registry import ScoreInput, get_metric

from .conftest import peer
from .gleu_peer import gleu_package_char

SRC = ["I has a apple .", "She go to home yesterday .", "This is fine ."]
REFS = [["I have an apple .", "She went home yesterday .", "This is fine ."],
        ["I have one apple .", "She went home yesterday .", "This is fine ."]]
HYP = ["I have a apple .", "She goes to home yesterday .", "This is fine ."]


def _data(hyp: list[str] = HYP) -> ScoreInput:
    return ScoreInput([], hyp, sources=SRC, references=REFS)


def test_chrf_equals_sacrebleu_corpus_and_sentences() -> None:
    """The corpus score and every sentence score are sacreBLEU's CHRF(word_order=2)."""
    sacrebleu = peer("sacrebleu", "pip install '.[meta]'")
    res = get_metric("chrf").score(_data())
    ref = sacrebleu.metrics.CHRF(word_order=2)
    assert res.corpus["chrf"] == pytest.approx(ref.corpus_score(HYP, REFS).score / 100, abs=1e-12)
    for i, row in enumerate(res.sentences):
        want = ref.sentence_score(HYP[i], [r[i] for r in REFS]).score / 100
        assert row["score"] == pytest.approx(want, abs=1e-12)
    assert res.signature.startswith("chrf|nc:6|nw:2|beta:2.0")
    # chrF (no word n-grams) is an option; it differs from chrF++ on this input
    plain = get_metric("chrf", word_order=0).score(_data())
    assert plain.corpus["chrf"] == pytest.approx(
        sacrebleu.metrics.CHRF().corpus_score(HYP, REFS).score / 100, abs=1e-12)
    assert plain.corpus["chrf"] != res.corpus["chrf"]


def test_chrf_reads_the_m2_gold_annotators_as_references() -> None:
    peer("sacrebleu", "pip install '.[meta]'")
    from errtype.m2 import M2Block, M2Edit

    gold = [M2Block("I has a apple .", [M2Edit(1, 2, "R:VERB", "have", 0),
                                        M2Edit(2, 3, "R:DET", "an", 0)])]
    res = get_metric("chrf").score(ScoreInput(gold, ["I have an apple ."]))
    assert res.corpus["chrf"] == pytest.approx(1.0)
    assert res.sentences[0]["score"] == pytest.approx(1.0)


def test_chrf_refused_without_its_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """A missing sacreBLEU is named with the extra's install line before any work."""
    monkeypatch.setitem(registry.EXTRAS, "meta", ("no_such_package_xyz",))
    with pytest.raises(ResourceError, match=r"errtype\[meta\]"):
        get_metric("chrf")


def test_char_units_keep_single_spaces() -> None:
    assert units("a  b\tc", unit="char") == list("a b c")
    assert units("a  b") == ["a", "b"]
    with pytest.raises(ValueError):
        units("a", unit="byte")


def test_gleu_char_is_gleu_over_characters() -> None:
    """gleu-char is the GLEU implementation fed characters: equal to GLEU scoring the
    character lists directly (one implementation, two units)."""
    res = get_metric("gleu-char").score(_data())
    chars = GLEU().score([units(s, unit="char") for s in SRC],
                         [[units(s, unit="char") for s in r] for r in REFS],
                         [units(s, unit="char") for s in HYP])
    assert res.corpus["gleu"] == pytest.approx(chars.corpus["gleu"], abs=1e-15)
    assert [r["gleu"] for r in res.sentences] == [r["gleu"] for r in chars.sentences]
    assert res.metric == "gleu-char" and "unit:char" in res.signature
    words = get_metric("gleu").score(_data())
    assert res.corpus["gleu"] != words.corpus["gleu"]


def test_gleu_char_hand_computed() -> None:
    """One sentence, one reference: source "ab", reference "ac", hypothesis "ac" (n = 2).
    Unigrams of the hypothesis a, c both in the reference: 2/2; bigram "ac" in the reference:
    1/1; lengths equal: GLEU = 1. Hypothesis "ab" (the source): unigram a matches (1), b is a
    source n-gram absent from the reference (penalty 1): max(1 - 1, 0) = 0 → corpus 0."""
    g = GLEU(order=2, unit="char")
    assert g.score(["ab"], [["ac"]], ["ac"]).corpus["gleu"] == 1.0
    assert g.score(["ab"], [["ac"]], ["ab"]).corpus["gleu"] == 0.0
    # a space is a unit: joining two words is a change charGLEU sees, and word GLEU sees too
    assert g.score(["a b"], [["ab"]], ["ab"]).corpus["gleu"] == 1.0
    assert g.score(["a b"], [["ab"]], ["a b"]).corpus["gleu"] < 1.0


def test_perfect_system_scores_the_maximum() -> None:
    """A hypothesis equal to a reference everywhere scores 1 in gleu-char (and chrf)."""
    res = get_metric("gleu-char").score(ScoreInput([], REFS[0], sources=SRC,
                                                   references=REFS[:1]))
    assert res.corpus["gleu"] == pytest.approx(1.0)
    assert all(r["gleu"] == pytest.approx(1.0) for r in res.sentences)
    if registry.missing_extra("meta"):
        return
    res = get_metric("chrf").score(ScoreInput([], REFS[0], sources=SRC, references=REFS))
    assert res.corpus["chrf"] == pytest.approx(1.0)


def test_gleu_char_equals_the_gleu_package_char_mode(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """``errtype score -m gleu-char`` on spaced English text = the PyPI ``gleu`` package's
    character mode (``gleu -t char -f``: character n-grams of the line, spaces included)."""
    theirs, paths = gleu_package_char(tmp_path, SRC, REFS[:2], HYP)
    code = score_main(["-m", "gleu-char", "--src", str(paths["src"]), "--ref", str(paths["ref1"]),
                       str(paths["ref2"]), "--hyp", f"S={paths['sys']}", "--tsv"])
    cap = capsys.readouterr()
    assert code == 0, cap.err
    rows = [ln.split("\t") for ln in cap.out.splitlines()]
    assert f"{100 * float(rows[1][2]):.4f}" == theirs
    words = get_metric("gleu").score(_data()).corpus["gleu"]
    assert f"{100 * words:.4f}" != theirs  # the test tells characters from words
