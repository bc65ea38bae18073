"""Scoring languages written without spaces (issue 33): unsegmented system output, references and
sources are segmented by the segmenter that made the gold's tokens (``errtype-m2``'s), or every
input is scored in characters (``--unit char``); a perfect system gets every metric's maximum
and the source recall 0 in both units, in Japanese and in Chinese words. The API segments raw
text in such languages unless told it is pre-tokenised."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import errtype
from errtype.cli.m2 import main as m2_main
from errtype.cli.main import main as errtype_main

from .conftest import peer

ROOT = Path(__file__).resolve().parents[1]
#: count-based metrics that compare tokens of the hypothesis (MaxMatch, GLEU, the ERRANT family)
METRICS = ["m2", "sentm2", "gleu", "errant", "senterrant", "cleme"]
#: Chinese sentences corrected by substitutions and insertions (deletions: another check)
ZH_ORIG = "我们在学校学习了很多知识。\n他昨天去北京。\n我很喜欢看书。\n"
ZH_COR = "我们在学校学到了很多知识。\n他昨天去了北京。\n我非常喜欢看书。\n"


@pytest.fixture(scope="module")
def ja_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    peer("fugashi", "pip install 'errtype[ja]'")
    peer("unidic_lite", "pip install 'errtype[ja]'")
    tmp = tmp_path_factory.mktemp("ja")
    orig, cor = ROOT / "samples" / "ja.orig.txt", ROOT / "samples" / "ja.cor.txt"
    gold = tmp / "ja.m2"
    assert m2_main(["--lang", "ja", "-orig", str(orig), "-cor", str(cor), "-o", str(gold),
                    "-q"]) == 0
    return {"orig": str(orig), "cor": str(cor), "gold": str(gold)}


@pytest.fixture(scope="module")
def zh_word_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    peer("jieba", "pip install 'errtype[zh]'")
    tmp = tmp_path_factory.mktemp("zh")
    (tmp / "orig.txt").write_text(ZH_ORIG, encoding="utf-8")
    (tmp / "cor.txt").write_text(ZH_COR, encoding="utf-8")
    gold = tmp / "zh.m2"
    assert m2_main(["--lang", "zh", "--granularity", "word", "-orig", str(tmp / "orig.txt"),
                    "-cor", str(tmp / "cor.txt"), "-o", str(gold), "-q"]) == 0
    assert "学到" in gold.read_text(encoding="utf-8")
    return {"orig": str(tmp / "orig.txt"), "cor": str(tmp / "cor.txt"), "gold": str(gold)}


def _scores(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[tuple[str, str], dict]:
    assert errtype_main(["score", "-m", *METRICS, *argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    return {(r["system"], r["metric"]): r for r in data["results"]}


def _check(scores: dict[tuple[str, str], dict]) -> None:
    for metric in METRICS:
        perfect, source = scores[("PERFECT", metric)], scores[("SRC", metric)]
        assert perfect["score"] == pytest.approx(1.0), (metric, perfect)
        recall = source["corpus"].get("r", source["corpus"].get("recall"))
        if metric == "gleu":
            assert source["score"] < 1.0
        else:
            assert recall == 0.0, (metric, source)


@pytest.mark.parametrize("unit", ["token", "char"])
def test_japanese_unsegmented_systems(ja_files: dict[str, str], unit: str,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """The corrections as a system get every metric's maximum, the source recall 0 (was m2
    13.16 and gleu 0 for both at token level; errant 50 at character level)."""
    _check(_scores(["--lang", "ja", "--ref", ja_files["gold"], "--src", ja_files["orig"],
                    "--hyp", f"PERFECT={ja_files['cor']}", f"SRC={ja_files['orig']}",
                    "--unit", unit], capsys))


def test_japanese_report(ja_files: dict[str, str], tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    assert errtype_main(["report", "--lang", "ja", "--ref", ja_files["gold"], "--hyp",
                         f"PERFECT={ja_files['cor']}", "--format", "csv", "-o", str(out),
                         "-q", "--bootstrap", "5", "--trials", "5"]) == 0
    rows = [r for r in out.read_text(encoding="utf-8").splitlines() if r.startswith("PERFECT,")]
    assert rows and all(",0.00," not in r for r in rows[:1]), rows[:1]
    assert rows[0].count("100.00") >= 4, rows[0]


def test_chinese_words(zh_word_files: dict[str, str], capsys: pytest.CaptureFixture[str]
                       ) -> None:
    """Chinese words (jieba, --granularity word): texts segmented as the gold at token level;
    characters need character edits, so word granularity with --unit char is refused."""
    files = zh_word_files
    common = ["--lang", "zh", "--granularity", "word", "--ref", files["gold"], "--src",
              files["orig"], "--hyp", f"PERFECT={files['cor']}", f"SRC={files['orig']}"]
    _check(_scores([*common, "--unit", "token"], capsys))
    assert errtype_main(["score", "-m", "m2", *common, "--unit", "char"]) == 2
    err = capsys.readouterr().err
    assert "--unit char" in err and "--granularity char" in err and len(err.splitlines()) == 1
    common[common.index("--granularity") + 1] = "char"
    _check(_scores([*common, "--unit", "char"], capsys))


def test_foreign_segmentation_is_refused_for_unsegmented_text(
        zh_word_files: dict[str, str], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A word gold errtype's segmenter did not make (here: characters read as words by the
    char segmenter's language) and unsegmented texts: one line, before any scoring."""
    files = zh_word_files
    assert errtype_main(["score", "-m", "m2", "--lang", "zh", "--ref", files["gold"], "--src",
                         files["orig"], "--hyp", f"S={files['cor']}", "--unit", "token"]) == 2
    err = capsys.readouterr().err
    assert "not segmented as errtype segments it" in err and len(err.splitlines()) == 1


def test_api_segments_raw_text_in_languages_without_spaces(ja_files: dict[str, str]) -> None:
    """docs/api.md's route (parse, align, merge, classify) on raw Japanese: the edit, not one
    whole-sentence R:SPELL; tokenize=False keeps pre-tokenised text; English is unchanged."""
    ann = errtype.load("ja")
    orig, cor = ann.parse("私は学校を行きます。"), ann.parse("私は学校に行きます。")
    assert len(orig) == 7
    edits = [ann.classify(e, orig, cor) for e in ann.merge(ann.align(orig, cor), "rules")]
    assert [(e.o_str, e.c_str, e.type) for e in edits] == [("を", "に", "R:ADP")]
    assert ann.parse("私 は 学校", tokenize=False).texts == ("私", "は", "学校")
    assert ann.segment(["私は学校に行きます。"]) == ["私 は 学校 に 行き ます 。"]
    en = errtype.load("en")
    assert en.parse("She goes home.").texts == ("She", "goes", "home.")
    assert en.segment(["She goes home."]) == ["She goes home."]
