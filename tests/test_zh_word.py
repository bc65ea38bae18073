"""Chinese at word granularity: jieba's words and tags, mapped to UPOS by the language pack, with
ChERRANT's word-level alignment and merging and errtype's generic types."""

from __future__ import annotations

from pathlib import Path

import pytest

from errtype import ErrtypeError, load
from errtype.convert import para_to_m2
from errtype.lang.packs import JIEBA_UPOS, get_pack
from errtype.m2 import read_m2

from .conftest import zh_extra


@pytest.fixture(scope="module")
def word():
    zh_extra()
    return load("zh", granularity="word")


def test_pack_maps_every_jieba_tag_class() -> None:
    pack = get_pack("zh")
    assert pack is not None and pack.segmenter == "jieba" and pack.tag_map == JIEBA_UPOS
    upos = dict(JIEBA_UPOS)
    assert (upos["n"], upos["nr"], upos["v"], upos["a"], upos["d"], upos["p"], upos["c"],
            upos["r"], upos["m"], upos["q"], upos["uj"], upos["ul"]) == (
        "NOUN", "PROPN", "VERB", "ADJ", "ADV", "ADP", "CCONJ", "PRON", "NUM", "NOUN", "PART",
        "AUX")
    assert set(upos.values()) <= {"ADJ", "ADP", "ADV", "AUX", "CCONJ", "INTJ", "NOUN", "NUM",
                                  "PART", "PRON", "PROPN", "PUNCT", "VERB", "X"}


def test_word_segmentation_and_tags(word) -> None:
    sent = word.parse("因为在冰箱里 没什么东西也做很好吃的菜。")
    assert sent.texts == ("因为", "在", "冰箱", "里", "没什么", "东西", "也", "做", "很",
                          "好吃", "的", "菜", "。")
    assert [t.pos for t in sent][:4] == ["CCONJ", "ADP", "NOUN", "ADP"]
    assert sent[-1].pos == "PUNCT" and sent[0].tag == "c"
    assert word.language.granularity == "word" and load("zh").language.granularity == "char"


def test_word_level_m2(word, tmp_path: Path) -> None:
    para = tmp_path / "w.para"
    para.write_text("1\t因为在冰箱里没什么东西也做很好吃的菜。\t即使在冰箱里没什么东西也能做很好吃的菜。\n",
                    encoding="utf-8")
    out = tmp_path / "w.m2"
    para_to_m2(word, para, out)
    block = next(read_m2(out))
    assert block.source.split()[:3] == ["因为", "在", "冰箱"]
    assert [t.label for t in block.targets] == ["T0-A0"]
    assert [(e.start, e.end, e.type, e.cor) for e in block.edits] == [
        (0, 1, "R:CCONJ", "即使"), (7, 7, "M:VERB", "能")]


def test_cherrant_word_scheme_is_refused_until_implemented() -> None:
    zh_extra()
    with pytest.raises(ErrtypeError, match="not implemented yet"):
        load("zh", granularity="word", scheme="cherrant")
    assert load("zh", scheme="cherrant").language.scheme == "cherrant"  # char level: letters
