"""The I-measure (``imeasure``): alignment, counts, WAcc and I on hand-computed cases, and the
official scorer (mfelice/imeasure, Python 2) side by side when ``$ERRTYPE_IMEASURE`` names a
checkout of it."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from errtype.m2 import M2Block, M2Edit, read_m2
from errtype.score.common import sentence_scores
from errtype.score.edits.imeasure import align3, counts, gold_xml, i_measure, imeasure, wacc
from errtype.score.registry import ScoreInput, get_metric

from .conftest import bench_module, peer_repo, shared_path

PY2_REASON = ("ERRTYPE_IMEASURE_PYTHON must name a Python 2.7 with numpy for the official "
              "I-measure scorer (default python2; e.g. pip2 install numpy==1.16.6)")


def test_alignment_columns_and_tie_break() -> None:
    """A substitution is one column (mismatch 3 < two gaps 4); of the two ``the`` the backtrace
    from the end keeps the last one aligned, so the first one is the deleted one."""
    assert align3("a b c".split(), "a y c".split(), "a x c".split()) == [
        ("a", "a", "a"), ("b", "y", "x"), ("c", "c", "c")]
    assert align3("the the cat".split(), "the cat".split(), "the cat".split()) == [
        ("the", "", ""), ("the", "the", "the"), ("cat", "cat", "cat")]
    # an insertion in hypothesis and reference: one column with a gap in the source
    assert align3("a c".split(), "a b c".split(), "a b c".split()) == [
        ("a", "a", "a"), ("", "b", "b"), ("c", "c", "c")]
    assert align3([], [], ["x"]) == [("", "", "x")]


def test_counts_of_each_case() -> None:
    """The paper's classes: TN, FN (missed), FP (unnecessary), TP, and a wrong correction that
    is FP, FN and FPN at once (detection: a TP)."""
    c = counts([("a", "a", "a"), ("b", "b", "x"), ("c", "z", "c"), ("d", "y", "y"),
                ("e", "v", "w")])
    assert {k: c[k] for k in ("tp", "tn", "fp", "fn", "fpn")} == {
        "tp": 1, "tn": 1, "fp": 2, "fn": 2, "fpn": 1}
    assert {k: c[k] for k in ("d_tp", "d_tn", "d_fp", "d_fn", "d_fpn")} == {
        "d_tp": 2, "d_tn": 1, "d_fp": 1, "d_fn": 1, "d_fpn": 0}


def test_wacc_and_i_hand_computed() -> None:
    """Source ``a b c``, reference ``a x c``, hypothesis ``a y c``: TN 2, FP = FN = FPN = 1:
    WAcc = (2·0 + 2) / (2·1 + 2 + 1 − 3·1/2) = 2/3.5; baseline TN 2, FN 1: 2/3;
    lower than the baseline: I = (4/7) / (2/3) − 1 = −1/7."""
    res = imeasure(["a b c"], [["a x c"]], ["a y c"])
    assert res.corpus["wacc"] == pytest.approx(2 / 3.5)
    assert res.corpus["wacc_base"] == pytest.approx(2 / 3)
    assert res.corpus["i"] == pytest.approx(-1 / 7)
    # the correction: WAcc 1 > baseline: I = (1 − 2/3) / (1 − 2/3) = 1
    assert imeasure(["a b c"], [["a x c"]], ["a x c"]).corpus["i"] == pytest.approx(1.0)
    # unchanged with an error: WAcc = baseline < 1: I = floor(2/3) = 0
    assert imeasure(["a b c"], [["a x c"]], ["a b c"]).corpus["i"] == 0.0
    # unchanged and nothing to correct: WAcc = baseline = 1: I = floor(1) = 1
    assert imeasure(["a b c"], [["a b c"]], ["a b c"]).corpus["i"] == 1.0
    # an unnecessary change: TN 2, FP 1: WAcc 2/4 vs 1: I = 0.5 − 1
    assert imeasure(["a b c"], [["a b c"]], ["a z c"]).corpus["i"] == pytest.approx(-0.5)
    assert i_measure(0.8, 0.6) == pytest.approx(0.5)
    assert wacc(dict.fromkeys(("tp", "tn", "fp", "fn", "fpn"), 0)) == 1.0


def test_official_readme_example() -> None:
    """The official scorer's example (example/gold.xml, sys.txt), one reference per annotator:
    annotator 1's reference gives TP 1, TN 5, FP 1, FN 1, WAcc 7/10 against the baseline's 6/8,
    I = 0.7/0.75 − 1 = −6.67 %, which is what the official scorer prints with -nomix; annotator
    0's gives WAcc 6/10 only."""
    src = "This machines is designed for help people ."
    refs = [["These machines are designed for helping people ."],
            ["This machine is designed to help people ."]]
    res = imeasure([src], refs, ["This machines are designed to help people ."])
    row = res.sentences[0]
    assert row["counts"] == {"tp": 1, "tn": 5, "fp": 1, "fn": 1, "fpn": 0}
    assert row["reference"] == 1
    assert row["wacc"] == pytest.approx(0.7) and row["wacc_base"] == pytest.approx(0.75)
    assert res.corpus["i"] == pytest.approx(0.7 / 0.75 - 1)
    assert f"{100 * res.corpus['i']:.2f}" == "-6.67"


def test_corpus_sums_the_chosen_references() -> None:
    """The corpus I is computed from counts summed over sentences, not averaged."""
    res = imeasure(["a b c", "d e"], [["a x c", "d e"]], ["a x c", "d z"])
    # sentence 1: TP 1, TN 2 (baseline FN 1, TN 2): I = 1; sentence 2: FP 1, TN 1 (baseline
    # TN 2): WAcc 1/3 against 1, I = −2/3
    assert res.counts["tp"] == 1 and res.counts["fp"] == 1 and res.counts["tn"] == 3
    assert res.corpus["wacc"] == pytest.approx((2 + 3) / (2 * 2 + 3))
    assert res.corpus["wacc_base"] == pytest.approx(4 / 5)
    assert res.corpus["i"] == pytest.approx(5 / 7 / 0.8 - 1)
    assert [r["score"] for r in res.sentences] == pytest.approx([1.0, -2 / 3])
    # what --sent, bootstraps and meta-evaluation read as a sentence's score: its I
    assert sentence_scores(res) == pytest.approx([1.0, -2 / 3])


def test_registry_reads_m2_annotators_and_empty_references() -> None:
    gold = [M2Block("I has a apple .", [M2Edit(1, 2, "R:VERB", "have", 0),
                                        M2Edit(2, 3, "R:DET", "an", 0),
                                        M2Edit(0, 5, "Um", "", 1)])]
    m = get_metric("imeasure")
    res = m.score(ScoreInput(gold, ["I have an apple ."]))
    assert res.corpus["i"] == 1.0 and res.sentences[0]["reference"] == 0
    # annotator 1 deleted the sentence: read as the source, which the unchanged hypothesis
    # matches exactly (WAcc 1 = the baseline's against that reference)
    res = m.score(ScoreInput(gold, ["I has a apple ."]))
    assert res.sentences[0]["reference"] == 1 and res.corpus["i"] == 1.0
    assert get_metric("imeasure", w=3).settings()["w"] == 3.0


def test_perfect_system_gets_the_maximum() -> None:
    res = imeasure(["a b c", "d e", "f"], [["a x c", "d e", "g h"]], ["a x c", "d e", "g h"])
    assert res.corpus["i"] == 1.0 and all(r["score"] == 1.0 for r in res.sentences)


# --- the official scorer side by side ---------------------------------------------------------

def _official() -> tuple[str, Path]:
    checkout = peer_repo("imeasure")  # skipped with the git clone command when not named
    python = os.environ.get("ERRTYPE_IMEASURE_PYTHON", "python2")
    if not shutil.which(python):
        pytest.skip(PY2_REASON)
    return python, checkout


def _run_official(tmp: Path, blocks: list[M2Block], hyps: list[str]
                  ) -> tuple[dict[int, list[str]], list[str]]:
    """The official per-sentence correction rows (by sentence index) and overall row."""
    python, checkout = _official()
    rows, overall, _ = bench_module("bench_imeasure").run_official(
        checkout, python, gold_xml(blocks), hyps, tmp)
    return rows, overall


def _compare(tmp: Path, blocks: list[M2Block], hyps: list[str]) -> None:
    rows, overall = _run_official(tmp, blocks, hyps)
    res = get_metric("imeasure").score(ScoreInput(blocks, hyps))
    assert len(rows) == len(blocks)
    assert bench_module("bench_imeasure").differing(res, rows) == []
    keys = ("tp", "tn", "fp", "fn", "fpn")
    assert [res.counts[k] for k in keys] == [int(x) for x in overall[:5]]
    assert f"{100 * res.corpus['i']:.2f}" == overall[12]
    assert f"{100 * res.corpus['wacc']:.2f}" == overall[10]
    assert f"{100 * res.corpus['wacc_base']:.2f}" == overall[11]


HAND = [  # (source, {annotator: [(start, end, correction)]}, hypothesis)
    ("This machines is designed for help people .",
     {0: [(0, 1, "These"), (2, 3, "are"), (5, 6, "helping")], 1: [(1, 2, "machine"),
                                                                  (4, 5, "to")]},
     "This machines are designed to help people ."),
    ("a b c", {0: [(1, 2, "x")]}, "a y c"),
    ("the the cat sat", {0: [(1, 2, "")]}, "the cat sat"),
    ("the the cat sat", {0: [(1, 2, "")]}, "the cat sat on"),
    ("He go to school .", {0: [(1, 2, "goes")], 1: [(1, 2, "went")]}, "He going to school ."),
    ("He go to school .", {0: [], 1: [(1, 2, "goes")]}, "He go to school ."),
    ("I like cat .", {0: [(2, 3, "cats")]}, "I like the cats very much ."),
    ("I like cat .", {0: [(2, 2, "the")]}, ""),
    ("Once upon a time , there was .", {0: [(0, 7, "")], 1: [(6, 6, "a king")]},
     "Once upon a time , there was a king ."),
    ("x y z", {}, "x y z w"),
    ("a b a b a", {0: [(1, 3, "b")], 1: [(0, 1, "b")]}, "b a b a"),
    # two insertions of one annotator at one position (ERRANT writes M:PUNCT and M:PRON apart):
    # the reference is "a . You b", which the scorer builds only from one error holding both
    ("a b", {0: [(1, 1, "."), (1, 1, "You")]}, "a . You b"),
]


def _blocks(cases: list[tuple[str, dict[int, list[tuple[int, int, str]]], str]]
            ) -> tuple[list[M2Block], list[str]]:
    blocks = []
    for src, anns, _ in cases:
        edits = []
        for a, es in anns.items():
            edits += ([M2Edit(s, e, "X", c, a) for s, e, c in es] if es
                      else [M2Edit(-1, -1, "noop", "-NONE-", a)])
        blocks.append(M2Block(src, edits))
    return blocks, [h for _, _, h in cases]


def test_equal_to_the_official_scorer_on_hand_built_cases(tmp_path: Path) -> None:
    """Per sentence and corpus: every count, WAcc and I as the official scorer prints them
    (``-nomix``: one reference per annotator; 2 decimals)."""
    _compare(tmp_path, *_blocks(HAND))


@pytest.mark.slow
def test_equal_to_the_official_scorer_on_conll14(tmp_path: Path) -> None:
    """CoNLL-2014: the unchanged input (all 1312 sentences) and AMU's first 200."""
    gold = list(read_m2(shared_path("conll14", "official-2014.combined.m2")))
    _official()
    for name, n in (("INPUT", len(gold)), ("AMU", 200)):
        hyps = shared_path("conll14", "systems", name).read_text(encoding="utf-8").splitlines()
        run = tmp_path / name
        run.mkdir()
        _compare(run, gold[:n], hyps[:n])


def test_mixing_candidates_are_counted_by_clusters_of_overlapping_edits() -> None:
    """``bench/bench_gmeg.py --mix-candidates`` (the documented reason the scorer's mixing
    cannot run on GMEG-Data): per cluster of overlapping edits, one alternative per annotator
    who edited there, plus "no change" unless every annotator did; the product per sentence."""
    bench = bench_module("bench_gmeg")
    blocks, _ = _blocks([
        # (0,1): annotators 0 and 1 of 3 -> 3 choices; (2,3): annotator 0 -> 2; the insertion at
        # 3 touches (2,3) only at its end, so it is its own cluster -> 2: 12
        ("a b c d", {0: [(0, 1, "x"), (2, 3, "y")], 1: [(0, 1, "z"), (3, 3, "w")], 2: []}, ""),
        # a span inside a longer one joins its cluster; both annotators there -> 2
        ("a b c", {0: [(0, 3, "q")], 1: [(1, 2, "r")]}, ""),
        ("a b", {0: []}, ""),  # no edit: the source alone
    ])
    assert bench.overlap((1, 2), (0, 3)) and not bench.overlap((0, 3), (1, 2))
    assert not bench.overlap((3, 3), (2, 3)) and bench.overlap((2, 2), (1, 3))
    assert bench.mix_candidates(blocks) == {"sentences": 3, "total": 15, "median": 2, "p90": 12,
                                            "max": 12}
