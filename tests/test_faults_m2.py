"""Issue 19 faults 7 and 8: M2 that would read back as something else is refused by the writer,
malformed M2 is refused by the reader (naming file and line); and the one M2 renderer."""

from __future__ import annotations

from pathlib import Path

import pytest

import errtype
from errtype.cli import compare
from errtype.cli import m2 as cli
from errtype.convert import format_annotation
from errtype.errors import M2FormatError
from errtype.m2 import annotation_block, read_m2, unwritable

from .conftest import apply_m2


@pytest.fixture(scope="module")
def en() -> errtype.Annotator:
    return errtype.load("en")


def _files(tmp_path: Path, orig: list[str], cor: list[str]) -> tuple[str, str]:
    o, c = tmp_path / "orig.txt", tmp_path / "cor.txt"
    o.write_text("".join(x + "\n" for x in orig), encoding="utf-8")
    c.write_text("".join(x + "\n" for x in cor), encoding="utf-8")
    return str(o), str(c)


# --- fault 7: literal M2 tokens in corrections --------------------------------------------------

def test_unwritable_corrections() -> None:
    assert unwritable("a|||b") and unwritable("a||b") and unwritable("||")
    assert unwritable("-NONE-") and unwritable(" -NONE- ")
    assert unwritable("x -NONE-") is None  # read literally by every M2 reader
    assert unwritable("|") is None and unwritable("a | b") is None and unwritable("") is None


@pytest.mark.parametrize(("cor", "why"), [
    ("He -NONE- home .", "is '-NONE-', which M2 readers take for a deletion"),
    ("He went a||b home .", "contains '||', which M2 readers take for a separator of "
                            "alternative corrections"),
])
def test_a_correction_m2_cannot_express_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture,
                                                   cor: str, why: str) -> None:
    """Written unescaped, these read back as a deletion or as alternatives."""
    o, c = _files(tmp_path, ["He go home .", "He go home .", "Fine ."],
                  ["He goes home .", cor, "Fine !"])
    out = tmp_path / "out.m2"
    out.write_text("previous\n")
    assert cli.main(["-orig", o, "-cor", c, "-out", str(out), "-q"]) == 2
    reason = f"the correction {why}, which cannot be written in an edit line"
    assert capsys.readouterr().err == (f"errtype-m2: error: {c}, line 2: {reason} (use "
                                       "--on-error skip to write a noop block and continue)\n")
    assert out.read_text() == "previous\n"
    assert cli.main(["-orig", o, "-cor", c, "-out", str(out), "--on-error", "skip"]) == 0
    assert f"errtype-m2: skipped line 2: {c}: {reason}\n" in capsys.readouterr().err
    blocks = list(read_m2(out))
    assert [b.source for b in blocks] == ["He go home .", "He go home .", "Fine ."]
    assert [e.is_noop for e in blocks[1].edits] == [True]
    for block, want in zip(blocks, ["He goes home .", "He go home .", "Fine !"], strict=True):
        assert apply_m2(block.tokens, block.edits) == want.split()  # nothing misread


def test_unchanged_literal_tokens_are_fine(tmp_path: Path) -> None:
    """'||' or '-NONE-' that no edit has to write is not a problem."""
    o, c = _files(tmp_path, ["a || b -NONE- c"], ["a || b -NONE- c ."])
    out = tmp_path / "out.m2"
    assert cli.main(["-orig", o, "-cor", c, "-out", str(out), "-q"]) == 0
    (block,) = read_m2(out)
    assert [(e.start, e.end, e.cor) for e in block.edits] == [(5, 5, ".")]


def test_m2_auto_mode_refuses_an_extracted_none(tmp_path: Path,
                                                capsys: pytest.CaptureFixture) -> None:
    """'b -NONE-' is two literal tokens; re-extraction leaves '-NONE-' alone in an edit."""
    src = tmp_path / "in.m2"
    src.write_text("S a b c\nA 1 2|||R:X|||b -NONE-|||REQUIRED|||-NONE-|||0\n\n", "utf-8")
    out = tmp_path / "out.m2"
    assert cli.main(["-auto", str(src), "-out", str(out), "-q"]) == 2
    assert "cannot be written in an edit line" in capsys.readouterr().err
    # ERRANT reads every field literally: --errant-compat writes what ERRANT writes
    assert cli.main(["-auto", str(src), "-out", str(out), "-q", "--errant-compat"]) == 0


# --- fault 8: silent misreads of malformed M2 ---------------------------------------------------

@pytest.mark.parametrize(("text", "line", "message"), [
    ("S a b\nA \u0662 \u0663|||R:X|||y|||REQUIRED|||-NONE-|||0\n", 2,
     "edit offsets must be integers, got '\u0662 \u0663'"),
    ("S a b\nA 0 1|||R:X|||y|||REQUIRED|||-NONE-|||1_0\n", 2,
     "annotator id must be an integer, got '1_0'"),
    ("S a b\nA 0 1|||R:X|||y|||REQUIRED|||-NONE-|||\uff11\n", 2,
     "annotator id must be an integer, got '\uff11'"),
    ("S a b\nA +0 1|||R:X|||y|||REQUIRED|||-NONE-|||0\n", 2,
     "edit offsets must be integers, got '+0 1'"),
    ("S a b\rA 0 1|||R:X|||y|||REQUIRED|||-NONE-|||0\r\rS c\r", 1,
     "carriage return inside a line"),
])
def test_malformed_m2_is_refused(tmp_path: Path, text: str, line: int, message: str) -> None:
    path = tmp_path / "bad.m2"
    path.write_bytes(text.encode("utf-8"))
    with pytest.raises(M2FormatError, match=f"^{path}, line {line}: ") as info:
        list(read_m2(path))
    assert message in str(info.value)


def test_cr_only_files_no_longer_score_perfectly(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture) -> None:
    """A CR-only M2 file read as one block made errtype-compare report F0.5 = 1.0."""
    hyp, ref = tmp_path / "hyp.m2", tmp_path / "ref.m2"
    hyp.write_bytes(b"S a b\r\rS c d\r")
    ref.write_bytes(b"S a b\rA 0 1|||R:X|||y|||REQUIRED|||-NONE-|||0\r\rS c d\r")
    assert compare.main(["-hyp", str(hyp), "-ref", str(ref)]) == 2
    assert "line 1: carriage return inside a line" in capsys.readouterr().err


def test_crlf_and_negative_noop_offsets_still_read(tmp_path: Path) -> None:
    path = tmp_path / "ok.m2"
    path.write_bytes(b"S a b\r\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\r\n\r\n")
    (block,) = read_m2(path)
    assert block.edits[0].is_noop and block.source == "a b"


# --- the one renderer -----------------------------------------------------------------------------

def test_one_renderer_with_the_correction_text_as_a_parameter(en: errtype.Annotator) -> None:
    """``-tok`` splits "won't" into wo + n't: M2 from text writes the correction as the text had
    it (ERRANT), scorers compare the tokens joined by spaces; one function renders both."""
    item = ("He will go .", ["He won't go .", "He will go ."])
    (ann,) = en.annotate_stream([item], tokenize=True)
    tokens = annotation_block(ann)
    source = annotation_block(ann, source_text=True)
    assert [e.cor for e in tokens.edits] == ["wo n't", "-NONE-"]
    assert [e.cor for e in source.edits] == ["won't", "-NONE-"]
    assert [e.is_noop for e in source.edits] == [False, True]
    formatted = format_annotation(ann, item)
    assert formatted.block == source.to_m2() and formatted.noops == 1
    # ERRANT's noop rule: a noop line only for the identical raw text
    errant = annotation_block(ann, source_text=True, errant_noop=item[1])
    assert [e.is_noop for e in errant.edits] == [False, True]
    assert format_annotation(ann, item, errant_noop=True).block == errant.to_m2()
    # a difference in whitespace only: a noop line by default, no line at all for ERRANT
    item = ("He will go .", ["He  will go ."])
    (ann,) = en.annotate_stream([item])
    assert [e.is_noop for e in annotation_block(ann).edits] == [True]
    assert annotation_block(ann, errant_noop=item[1]).edits == []
