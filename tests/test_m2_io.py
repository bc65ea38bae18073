"""M2 reader/writer and the text input layer on files the tests write."""

from __future__ import annotations

from pathlib import Path

import pytest

from errtype import EncodingError, LineCountError, M2Edit, M2FormatError, read_m2, write_m2
from errtype.textio import atomic_output, count_lines, read_lines, read_parallel

GOOD = ("S This are a sentences .\n"
        "A 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||0\n"
        "A 3 4|||R:NOUN:NUM|||sentence|||REQUIRED|||-NONE-|||0\n"
        "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n"
        "\n"
        "S Fine .\n"
        "A 2 2|||M:PUNCT|||!|||REQUIRED|||-NONE-|||0\n"
        "\n")


def write(tmp_path: Path, text: str | bytes, name: str = "f.m2") -> Path:
    p = tmp_path / name
    p.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return p


def test_read_write_read_is_identical(tmp_path: Path) -> None:
    blocks = list(read_m2(write(tmp_path, GOOD)))
    assert [b.source for b in blocks] == ["This are a sentences .", "Fine ."]
    assert blocks[0].annotators() == [0, 1]
    assert blocks[0].edits[2].is_noop and blocks[1].edits[0].start == 2
    out = tmp_path / "out.m2"
    assert write_m2(blocks, out) == 2
    assert out.read_text(encoding="utf-8") == GOOD


@pytest.mark.parametrize("variant", [
    GOOD.replace("\n", "\r\n"),                     # CRLF
    GOOD.rstrip("\n"),                              # no final blank line / newline
    GOOD.replace("\n\n", "\n\n\n\n"),               # runs of blank lines
    "\ufeff" + GOOD,                                # BOM
    GOOD.replace("sentences .\n", "sentences . \n"),  # trailing space
])
def test_quirky_files_read_the_same(tmp_path: Path, variant: str) -> None:
    blocks = list(read_m2(write(tmp_path, variant)))
    assert "".join(b.to_m2() for b in blocks) == GOOD


@pytest.mark.parametrize("bad,line,message", [
    ("A 1 2|||X|||y|||REQUIRED|||-NONE-|||0\n", 1, "edit line before any 'S' line"),
    ("S a b\nA 1 2|||X|||y|||REQUIRED|||0\n", 2, "needs 6 fields"),
    ("S a b\nA 1 x|||X|||y|||REQUIRED|||-NONE-|||0\n", 2, "offsets must be integers"),
    ("S a b\nA 1|||X|||y|||REQUIRED|||-NONE-|||0\n", 2, "two integers"),
    ("S a b\nA 1 5|||X|||y|||REQUIRED|||-NONE-|||0\n", 2, "outside the sentence of 2 tokens"),
    ("S a b\nA 2 1|||X|||y|||REQUIRED|||-NONE-|||0\n", 2, "outside the sentence"),
    ("S a b\nA 0 1|||X|||y|||REQUIRED|||-NONE-|||zero\n", 2, "annotator id must be an integer"),
    ("S a b\n\nS c\nfoo\n", 4, "expected a line starting with 'S ' or 'A '"),
])
def test_malformed_m2_names_file_and_line(tmp_path: Path, bad: str, line: int,
                                          message: str) -> None:
    path = write(tmp_path, bad)
    with pytest.raises(M2FormatError, match=message) as info:
        list(read_m2(path))
    assert info.value.line == line and info.value.path == str(path)
    assert f"{path}, line {line}:" in str(info.value)


def test_invalid_utf8_names_line_and_byte(tmp_path: Path) -> None:
    path = write(tmp_path, b"ok line\nbad \xff here\n", "t.txt")
    with pytest.raises(EncodingError) as info:
        list(read_lines(path))
    assert (info.value.line, info.value.offset) == (2, 12)
    assert list(read_lines(path, errors="replace"))[1].text == "bad \ufffd here"


def test_lines_split_only_on_newline(tmp_path: Path) -> None:
    path = write(tmp_path, "a\u2028b\x0cc\x1cd\r\ne\n", "t.txt")
    assert [ln.text for ln in read_lines(path)] == ["a\u2028b\x0cc\x1cd", "e"]
    assert count_lines(path) == 2
    assert count_lines(write(tmp_path, "x\ny", "u.txt")) == 2
    assert count_lines(write(tmp_path, "", "v.txt")) == 0


def test_parallel_count_mismatch_before_any_work(tmp_path: Path) -> None:
    a = write(tmp_path, "1\n2\n3\n", "a.txt")
    b = write(tmp_path, "1\n2\n", "b.txt")
    it = read_parallel([a, b])
    with pytest.raises(LineCountError, match=r"a.txt: 3, .*b.txt: 2"):
        next(it)


def test_atomic_output_keeps_target_on_failure(tmp_path: Path) -> None:
    target = write(tmp_path, "old\n", "out.txt")
    with pytest.raises(RuntimeError), atomic_output(target) as fh:
        fh.write("partial")
        raise RuntimeError("boom")
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]
    with atomic_output(target) as fh:
        fh.write("new\n")
    assert target.read_text() == "new\n"
    assert oct(target.stat().st_mode & 0o777) != oct(0o600)


def test_lenient_reading_records_spans_outside_the_sentence(tmp_path: Path) -> None:
    path = tmp_path / "x.m2"
    path.write_text("S a b\nA 0 1|||X|||c|||REQUIRED|||-NONE-|||0\nA 1 5|||X|||d|||REQUIRED|||"
                    "-NONE-|||0\nS c\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n",
                    encoding="utf-8")
    with pytest.raises(M2FormatError, match="line 3: edit span 1 5 is outside"):
        list(read_m2(path))
    first, second = read_m2(path, lenient=True)
    assert first.problems == [(3, "edit span 1 5 is outside the sentence of 2 tokens")]
    assert [first.edit_line_number(i) for i in range(2)] == [2, 3]
    assert (first.unseparated, second.unseparated, second.line) == (False, True, 4)
    assert second.problems == [] and second.edits == [M2Edit.noop(0)]


def test_edit_and_noop_lines_come_from_one_place() -> None:
    from errtype.edit import Edit, noop_m2
    from errtype.m2 import edit_line

    assert noop_m2(3) == M2Edit.noop(3).to_m2() == edit_line(-1, -1, "noop", "-NONE-", 3)
    e = Edit(1, 2, 1, 3, "x", "y z", "R:X")
    assert e.to_m2(1) == M2Edit(1, 2, "R:X", "y z", 1).to_m2() == \
        "A 1 2|||R:X|||y z|||REQUIRED|||-NONE-|||1"


def test_document_marker_blocks() -> None:
    """UA-GEC's ``S # NNNN`` blocks name a document; a sentence starting with ``#`` does not."""
    from errtype.m2 import M2Block

    assert M2Block("# 0042").document == "0042"
    assert M2Block("# Логічно ?").document is None
    assert M2Block("# Так").document is None
    assert M2Block("Він читає .").document is None
