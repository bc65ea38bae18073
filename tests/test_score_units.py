"""Scoring units: characters for Chinese (MaxMatch, GLEU and ChERRANT on characters, as MuCGEC
and the CGEC shared tasks report them), whitespace tokens for everything else (unchanged).

Char-level GLEU is checked against the PyPI ``gleu`` package's own character mode
(``gleu -t char -f``), which counts character n-grams of the raw text."""

from __future__ import annotations

from pathlib import Path

import pytest

from errtype.cli.score import main as score_main
from errtype.errors import InputError
from errtype.m2 import M2Block, M2Edit, M2Target, read_m2, write_m2
from errtype.score.units import char_block, char_text, char_tokens, is_char_segmented, resolve_unit

from .gleu_peer import gleu_package_char

# a word-segmented gold (PKUNLP-style, as NLPCC-2018's) and the same in characters (ChERRANT's)
WORD_GOLD = """S 我们 去 公园 玩 了 。
A 1 1|||M|||一起|||REQUIRED|||-NONE-|||0
A 4 5|||R|||-NONE-|||REQUIRED|||-NONE-|||0
A 1 1|||M|||一块儿|||REQUIRED|||-NONE-|||1

S 他 的 中文 说 得 很 流力 。
A 6 7|||S|||流利|||REQUIRED|||-NONE-|||0

S 今天 天气 很 好 。
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

"""
CHAR_GOLD = """S 我 们 去 公 园 玩 了 。
A 2 2|||M|||一 起|||REQUIRED|||-NONE-|||0
A 6 7|||R|||-NONE-|||REQUIRED|||-NONE-|||0
A 2 2|||M|||一 块 儿|||REQUIRED|||-NONE-|||1

S 他 的 中 文 说 得 很 流 力 。
A 7 9|||S|||流 利|||REQUIRED|||-NONE-|||0

S 今 天 天 气 很 好 。
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

"""
HYP = "我们一起去公园玩了。\n他的中文说得很流利。\n今天天气很好！\n"


def test_char_tokens() -> None:
    assert char_tokens(" 我 们a b\u3000。") == ["我", "们", "a", "b", "。"]
    assert char_tokens("这里[缺失成分]很好") == ["这", "里", "[缺失成分]", "很", "好"]
    assert char_tokens("a [ b ]") == ["a", "[", "b", "]"]
    assert char_text("iPhone 手机") == "i P h o n e 手 机"


def test_char_block() -> None:
    word = next(read_m2(WORD_GOLD.splitlines(keepends=True)))
    char = next(read_m2(CHAR_GOLD.splitlines(keepends=True)))
    assert char_block(word) == char
    assert char_block(char) == char  # characters already: unchanged
    b = M2Block("他 把 书 放 好",
                [M2Edit(1, 3, "W", "书 把||把书", 0), M2Edit(-1, -1, "NA", "-NONE-", 1)],
                targets=[M2Target(0, 0, "他 书 把 放 好", 1), M2Target(1, None, "无法标注", 1)])
    got = char_block(b)
    assert got.edits == [M2Edit(1, 3, "W", "书 把||把 书", 0), M2Edit(-1, -1, "NA", "-NONE-", 1)]
    assert [t.text for t in got.targets] == ["他 书 把 放 好", "无法标注"]
    assert is_char_segmented([char, got]) and not is_char_segmented([word])


def test_resolve_unit() -> None:
    word = list(read_m2(WORD_GOLD.splitlines(keepends=True)))
    char = list(read_m2(CHAR_GOLD.splitlines(keepends=True)))
    assert resolve_unit(None, "en", [("g", word)], True) == "token"
    assert resolve_unit(None, "zh", [("g", char)], True) == "char"
    assert resolve_unit(None, "zh", [], True) == "char"
    assert resolve_unit(None, "zh", [("g", word)], False) == "token"  # M2 only: as segmented
    assert resolve_unit("char", "en", [("g", word)], True) == "char"
    with pytest.raises(InputError, match="--unit token"):
        resolve_unit(None, "zh", [("g.m2", word)], True)
    with pytest.raises(InputError, match="unknown unit"):
        resolve_unit("word", "zh", [], True)


def _score(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[list[str]], str]:
    code = score_main(list(args))
    cap = capsys.readouterr()
    return code, [ln.split("\t") for ln in cap.out.splitlines()], cap.err


@pytest.fixture()
def files(tmp_path: Path) -> dict[str, Path]:
    out = {"word": tmp_path / "word.m2", "char": tmp_path / "char.m2",
           "hyp": tmp_path / "hyp.txt", "seg": tmp_path / "hyp.seg.txt"}
    out["word"].write_text(WORD_GOLD, encoding="utf-8")
    out["char"].write_text(CHAR_GOLD, encoding="utf-8")
    out["hyp"].write_text(HYP, encoding="utf-8")
    out["seg"].write_text("".join(char_text(h) + "\n" for h in HYP.splitlines()),
                          encoding="utf-8")
    return out


def test_chinese_text_is_scored_in_characters(files: dict[str, Path],
                                              capsys: pytest.CaptureFixture[str]) -> None:
    # unsegmented hypotheses with --lang zh = the same hypotheses segmented in characters
    code, zh, err = _score(capsys, "-m", "m2", "gleu", "--lang", "zh", "--ref",
                           str(files["char"]), "--hyp", f"S={files['hyp']}", "--tsv")
    assert code == 0, err
    code, seg, _ = _score(capsys, "-m", "m2", "gleu", "--ref", str(files["char"]), "--hyp",
                          f"S={files['seg']}", "--tsv")
    assert [r[:6] for r in zh] == [r[:6] for r in seg]
    # m2, annotator 0: 一起 and 流利 found, 了 left in, ！ proposed: P = R = F = 2/3
    assert zh[1][1:3] == ["m2", str(2 / 3)]
    assert all("|unit:char|version:" in r[6] for r in zh[1:])
    assert all("unit:" not in r[6] for r in seg[1:])  # the default unit leaves no trace
    # a word-segmented gold with texts: the unit is the user's choice
    code, _, err = _score(capsys, "-m", "m2", "--lang", "zh", "--ref", str(files["word"]),
                          "--hyp", f"S={files['hyp']}")
    assert code == 2 and "--unit token" in err and "--unit char" in err
    # --unit char re-segments the word gold: the character gold's numbers
    code, conv, _ = _score(capsys, "-m", "m2", "gleu", "--unit", "char", "--ref",
                           str(files["word"]), "--hyp", f"S={files['hyp']}", "--tsv")
    assert [r[:6] for r in conv] == [r[:6] for r in zh]


def test_word_level_m2_keeps_its_segmentation(files: dict[str, Path], tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """NLPCC-2018's official setting: a word-segmented gold and hypotheses segmented alike."""
    hyp = tmp_path / "hyp.word.txt"
    hyp.write_text("我们 一起 去 公园 玩 。\n他 的 中文 说 得 很 流利 。\n今天 天气 很 好 ！\n",
                   encoding="utf-8")
    code, rows, err = _score(capsys, "-m", "m2", "--lang", "zh", "--unit", "token", "--ref",
                             str(files["word"]), "--hyp", f"S={hyp}", "--tsv")
    assert code == 0, err
    # 一起, the deletion of 了 and the spelling found, ！ for 。 not in the gold: P = 3/4, R = 1
    assert rows[1][3:5] == ["0.75", "1.0"] and "unit:" not in rows[1][6]
    # M2 systems against the word gold with --lang zh: as segmented (nothing to choose)
    sys_m2 = tmp_path / "sys.m2"
    write_m2(read_m2(files["word"]), sys_m2)
    code, rows, _ = _score(capsys, "-m", "cherrant", "--ref", str(files["word"]), "--hyp",
                           f"S={sys_m2}", "--tsv")
    assert code == 0 and rows[1] == ["S", "cherrant", "3", "0", "0", "1.0", "1.0", "1.0"]


SRC = ["我们去公园玩了。", "他的中文说得很流力。", "今天天气很好。", "这是我第一次来北京。",
       "我昨天买了三本书。", "他们正在讨论这个问题吗。"]
REF1 = ["我们一起去公园玩。", "他的中文说得很流利。", "今天天气很好。", "这是我第一次来北京。",
        "我昨天买了三本书。", "他们正在讨论这个问题。"]
REF2 = ["我们去公园玩了。", "他的中文说得很流利。", "今天的天气很好。", "这是我头一次来北京。",
        "昨天我买了三本书。", "他们在讨论这个问题。"]
SYS = ["我们一起去公园玩了。", "他的中文说得很流利。", "今天天气很好！", "这是我第一次来北京。",
       "我昨天买了三书。", "他们正在讨论这个问题。"]


def test_char_gleu_same_as_gleu_package(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    theirs, paths = gleu_package_char(tmp_path, SRC, [REF1, REF2], SYS)
    code, rows, err = _score(capsys, "-m", "gleu", "--lang", "zh", "--src", str(paths["src"]),
                             "--ref", str(paths["ref1"]), str(paths["ref2"]), "--hyp",
                             f"S={paths['sys']}", "--tsv")
    assert code == 0, err
    assert f"{100 * float(rows[1][2]):.4f}" == theirs
