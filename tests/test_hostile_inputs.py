"""Hostile input (issue 6): a corpus of small files the tests write, run through the input layer,
the M2 reader, errtype-m2 and the API. Every case asserts the exact error or the exact output."""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import errtype
from errtype import EncodingError, InputError, LineCountError, M2FormatError, read_m2
from errtype.cli import m2 as cli
from errtype.textio import count_lines, read_lines, read_parallel

from .conftest import apply_m2

ROOT = Path(__file__).resolve().parents[1]
NOOP = "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0"


def write(folder: Path, name: str, data: str | bytes) -> Path:
    p = folder / name
    p.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return p


def lines_file(folder: Path, name: str, lines: list[str]) -> str:
    return str(write(folder, name, "".join(x + "\n" for x in lines)))


@pytest.fixture(scope="module")
def en() -> errtype.Annotator:
    return errtype.load("en")


# --- the input layer ---------------------------------------------------------------------------

@pytest.mark.parametrize("data,line,offset,byte", [
    (b"ok\nbad \xff here\n", 2, 7, "b'\\xff'"),                 # stray byte
    (b"ok\nend \xc3", 2, 7, "b'\\xc3'"),                         # truncated sequence at EOF
    (b"\xc0\xaf overlong\n", 1, 0, "b'\\xc0'"),                  # overlong encoding
    (b"a\r\n\xed\xa0\x80 surrogate\r\n", 2, 3, "b'\\xed'"),      # encoded surrogate, CRLF
    (b"\xef\xbb\xbfx \xfe\n", 1, 5, "b'\\xfe'"),                 # after a BOM: file offset
    (b"latin-1 caf\xe9\n", 1, 11, "b'\\xe9'"),
])
def test_invalid_utf8_names_file_line_and_byte(tmp_path: Path, data: bytes, line: int,
                                               offset: int, byte: str) -> None:
    path = write(tmp_path, "t.txt", data)
    with pytest.raises(EncodingError) as info:
        list(read_lines(path))
    err = info.value
    assert (err.path, err.line, err.offset) == (str(path), line, offset)
    assert str(err) == (f"{path}, line {line}, byte {offset}: invalid utf-8 byte {byte} "
                        "(errtype-m2 and errtype-compare: --encoding-errors replace "
                        "substitutes U+FFFD)")
    assert isinstance(err, InputError) and isinstance(err, ValueError)
    replaced = [ln.text for ln in read_lines(path, errors="replace")]
    assert "\ufffd" in replaced[line - 1]
    assert len(replaced) == count_lines(path)


def test_quirky_text_files_read_the_same(tmp_path: Path) -> None:
    expected = [(1, ["first  ", "a"]), (2, ["", "b"]), (3, ["last", "c "])]
    lf = lines_file(tmp_path, "lf.txt", ["first  ", "", "last"])
    crlf_bom_nofinal = write(tmp_path, "w.txt", b"\xef\xbb\xbfa\r\nb\r\nc ")
    assert list(read_parallel([lf, crlf_bom_nofinal])) == expected
    assert count_lines(crlf_bom_nofinal) == 3


@pytest.mark.parametrize("contents,counts", [
    ([b"1\n2\n3\n", b"1\n2\n", b"1\n2\n3\n"], (3, 2, 3)),
    ([b"1\n2", b"1\n2\n\n"], (2, 3)),           # a final blank line is a line
    ([b"", b"\n"], (0, 1)),
    ([b"1\r\n2\r\n", b"1\n2\n3"], (2, 3)),
])
def test_line_count_mismatch_lists_every_count(tmp_path: Path, contents: list[bytes],
                                               counts: tuple[int, ...]) -> None:
    paths = [write(tmp_path, f"f{i}.txt", c) for i, c in enumerate(contents)]
    with pytest.raises(LineCountError) as info:
        next(read_parallel(paths))
    detail = ", ".join(f"{p}: {c}" for p, c in zip(paths, counts, strict=True))
    assert str(info.value) == (f"{paths[0]}: parallel files have different numbers of lines "
                               f"({detail})")


@pytest.mark.parametrize("data", [b"a b\rc d\re f\r", b"a b\rc d", b"\xef\xbb\xbfa\rb\r"])
def test_cr_only_text_is_refused_by_name_when_counted_and_read(
        tmp_path: Path, data: bytes, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture) -> None:
    """Lines ended by a carriage return alone (classic Mac OS) would be one line to a reader
    that splits on \\n: counting and reading refuse the file by name at line 1, so
    errtype-m2 no longer reports 'cr.txt: 1' lines against the other file's 3 (nor, with as
    many CR-ended lines on both sides, makes one sentence of all of them); CRLF and a final
    lone CR are still line ends."""
    monkeypatch.setattr(errtype, "load", lambda *a, **k: pytest.fail("work started"))
    cr = write(tmp_path, "cr.txt", data)
    message = (f"{cr}, line 1: carriage return inside a line: the lines end in a carriage "
               "return alone (classic Mac OS text)")
    for read in (count_lines, lambda p: list(read_lines(p))):
        with pytest.raises(InputError, match="^" + re.escape(message)):
            read(cr)
    lf = lines_file(tmp_path, "lf.txt", ["a b", "c d", "e f"])
    for pair in ([str(cr), lf], [lf, str(cr)], [str(cr), str(cr)]):
        assert cli.main(["-orig", pair[0], "-cor", pair[1], "-o", str(tmp_path / "o.m2"),
                         "-q"]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"errtype-m2: error: {message}") and err.count("\n") == 1, err
    ok = write(tmp_path, "ok.txt", b"a b\r\nc d\r")
    assert count_lines(ok) == 2 and [ln.text for ln in read_lines(ok)] == ["a b", "c d"]
    # in a file of \n lines a carriage return inside a line is whitespace (hostile text)
    inner = write(tmp_path, "inner.txt", b"a\rb\r\nc d\n")
    assert count_lines(inner) == 2 and [ln.text for ln in read_lines(inner)] == ["a\rb", "c d"]


# --- the M2 reader -----------------------------------------------------------------------------

EDIT = "|||R:X|||y|||REQUIRED|||-NONE-|||0"


@pytest.mark.parametrize("text,line,message", [
    ("S a b\nA 0 1|||R:X|||y|||REQUIRED|||-NONE-\n", 2,
     "an edit line needs 6 fields separated by '|||', found 5: "
     "'A 0 1|||R:X|||y|||REQUIRED|||-NONE-'"),
    ("S a b\nA 0 1||R:X||y||REQUIRED||-NONE-||0\n", 2,
     "an edit line needs 6 fields separated by '|||', found 1: "
     "'A 0 1||R:X||y||REQUIRED||-NONE-||0'"),
    ("S a b\nA 0 1|||R:X|||y|||z|||REQUIRED|||-NONE-|||0\n", 2,
     "an edit line needs 6 fields separated by '|||', found 7: "
     "'A 0 1|||R:X|||y|||z|||REQUIRED|||-NONE-|||0'"),
    ("S a b\nA 0 1 2" + EDIT + "\n", 2, "edit span must be two integers, got '0 1 2'"),
    ("S a b\nA" + EDIT + "\n", 2, "expected a line starting with 'S ' or 'A ', got 'A|||R:X|||y"
     "|||REQUIRED|||-NONE-|||0'"),
    ("S a b\nA 0.5 1" + EDIT + "\n", 2, "edit offsets must be integers, got '0.5 1'"),
    ("S a b\nA zero one" + EDIT + "\n", 2, "edit offsets must be integers, got 'zero one'"),
    ("S a b\nA -1 0" + EDIT + "\n", 2, "edit span -1 0 is outside the sentence of 2 tokens"),
    ("S a b\nA 0 3" + EDIT + "\n", 2, "edit span 0 3 is outside the sentence of 2 tokens"),
    ("S a b\nA 2 1" + EDIT + "\n", 2, "edit span 2 1 is outside the sentence of 2 tokens"),
    ("S \nA 0 1" + EDIT + "\n", 2, "edit span 0 1 is outside the sentence of 0 tokens"),
    ("S a b\nA 0 1|||R:X|||y|||REQUIRED|||-NONE-|||\n", 2,
     "annotator id must be an integer, got ''"),
    ("S a\n\n\nA 0 1" + EDIT + "\n", 4, "edit line before any 'S' line"),
    ("S a\nS b\n a\n", 3, "expected a line starting with 'S ' or 'A ', got ' a'"),
    ("S a\ns b\n", 2, "expected a line starting with 'S ' or 'A ', got 's b'"),
    ("Sa b\n", 1, "expected a line starting with 'S ' or 'A ', got 'Sa b'"),
    ("S a\r\nA 0 1|||R:X\r\n", 2, "an edit line needs 6 fields separated by '|||', found 2: "
     "'A 0 1|||R:X'"),
])
def test_malformed_m2_exact_errors(tmp_path: Path, text: str, line: int, message: str) -> None:
    path = write(tmp_path, "bad.m2", text)
    with pytest.raises(M2FormatError) as info:
        list(read_m2(path))
    assert str(info.value) == f"{path}, line {line}: {message}"
    assert (info.value.path, info.value.line) == (str(path), line)
    with pytest.raises(M2FormatError) as info:  # the same from memory
        list(read_m2(io.StringIO(text)))
    assert str(info.value) == f"<m2>, line {line}: {message}"


VALID = ("S a b c\nA 0 1|||R:X|||y|||REQUIRED|||-NONE-|||0\nA -1 -1|||noop|||-NONE-|||REQUIRED|||"
         "-NONE-|||1\n\nS \nA 0 0|||M:X|||new words|||REQUIRED|||-NONE-|||0\n\nS x\n"
         "A 1 1|||M:PUNCT|||" + "|" + "|||REQUIRED|||-NONE-|||0\n"
         "A 0 1|||R:X|||" + "|a|b |" + "|||REQUIRED|||-NONE-|||1\n\n")


@pytest.mark.parametrize("variant", [
    VALID,
    VALID.rstrip("\n"),                       # no final blank line, no final newline
    VALID.rstrip("\n") + "\n",                # final newline, no blank line
    VALID.replace("\n\n", "\n\n\n\n"),        # repeated blank lines
    VALID.replace("\n\n", "\n \t\n  \n"),     # whitespace-only separator lines
    "\n\n" + VALID,                           # leading blank lines
    "\ufeff" + VALID.replace("\n", "\r\n"),   # BOM + CRLF
    VALID.replace("S a b c\n", "S a b c  \n"),  # trailing spaces on S
    VALID.replace("S a b c\n", "S a b c\r \x0c\u2028\r\n"),  # any trailing whitespace (fuzzer)
])
def test_valid_m2_variants_read_exactly(tmp_path: Path, variant: str) -> None:
    blocks = list(read_m2(write(tmp_path, "ok.m2", variant)))
    assert "".join(b.to_m2() for b in blocks) == VALID
    assert [b.source for b in blocks] == ["a b c", "", "x"]
    assert [e.cor for e in blocks[2].edits] == ["|", "|a|b |"]  # '|' at either end of a field
    assert list(read_m2([variant])) == blocks == list(read_m2(io.StringIO(variant)))


def test_m2_reader_replace_mode_and_encoding_error(tmp_path: Path) -> None:
    path = write(tmp_path, "x.m2", b"S ok\n\nS caf\xe9\nA 0 1" + EDIT.encode() + b"\n")
    with pytest.raises(EncodingError, match=r"line 3, byte 11: invalid utf-8 byte b'\\xe9'"):
        list(read_m2(path))
    assert [b.source for b in read_m2(path, errors="replace")] == ["ok", "caf\ufffd"]


# --- errtype-m2: hostile parallel text --------------------------------------------------------

HOSTILE = [  # (original, correction, exact block)
    ("", "", "S \n" + NOOP),
    ("", "Hello .", "S \nA 0 0|||M:OTHER|||Hello .|||REQUIRED|||-NONE-|||0"),
    ("Hello .", "", "S Hello .\nA 0 2|||U:OTHER||||||REQUIRED|||-NONE-|||0"),
    ("   ", "\t ", "S \n" + NOOP),
    ("Same text .", "Same text .", "S Same text .\n" + NOOP),
    ("He go\x00 home .", "He goes\x00 home .",
     "S He go\x00 home .\nA 1 2|||R:VERB|||goes\x00|||REQUIRED|||-NONE-|||0"),
    ("bell\x07 here", "bell\x07 there", "S bell\x07 here\nA 1 2|||R:ADV|||there|||REQUIRED|||"
     "-NONE-|||0"),
    ("zero\u200bwidth word", "zero\u200bwidth words",
     "S zero\u200bwidth word\nA 1 2|||R:NOUN:NUM|||words|||REQUIRED|||-NONE-|||0"),
    ("\u200b", "\u2060", "S \u200b\nA 0 1|||R:NOUN|||\u2060|||REQUIRED|||-NONE-|||0"),
    ("I like 😀 .", "I like 😃 .", "S I like 😀 .\nA 2 3|||R:NOUN|||😃|||REQUIRED|||-NONE-|||0"),
    ("𝔘𝔫𝔦 code", "𝔘𝔫𝔦 codes", "S 𝔘𝔫𝔦 code\nA 1 2|||R:NOUN:NUM|||codes|||REQUIRED|||-NONE-|||0"),
    ("Praha je 東京 и Москва", "Praha je 東京 и Москва .",
     "S Praha je 東京 и Москва\nA 5 5|||M:PUNCT|||.|||REQUIRED|||-NONE-|||0"),
    ("a\u2028b", "a b", "S a b\n" + NOOP),          # U+2028 separates words, not lines
    ("non\u00a0break", "non break", "S non break\n" + NOOP),
    ("tab\there", "tab here", "S tab here\n" + NOOP),
    ("RTL \u202e text", "RTL text", "S RTL \u202e text\nA 1 2|||U:DET||||||REQUIRED|||-NONE-|||0"),
    ("\u0301", "a", "S \u0301\nA 0 1|||R:OTHER|||a|||REQUIRED|||-NONE-|||0"),
    ("a b", "a | b", "S a b\nA 1 1|||M:NOUN|||" + "|" + "|||REQUIRED|||-NONE-|||0"),
]


def test_hostile_lines_give_one_exact_block_each(tmp_path: Path) -> None:
    o = write(tmp_path, "orig.txt", "".join(h[0] + "\n" for h in HOSTILE))
    c = write(tmp_path, "cor.txt", "\ufeff" + "".join(h[1] + "\r\n" for h in HOSTILE).rstrip("\n"))
    out = tmp_path / "out.m2"
    assert cli.main(["-orig", str(o), "-cor", str(c), "-out", str(out), "-q"]) == 0
    text = out.read_text(encoding="utf-8")
    assert text.split("\n\n")[:-1] == [h[2] for h in HOSTILE]
    blocks = list(read_m2(out))
    assert len(blocks) == len(HOSTILE)
    for (orig, cor, _), block in zip(HOSTILE, blocks, strict=True):
        assert block.tokens == orig.split()
        assert apply_m2(block.tokens, block.edits) == cor.split()
    assert "".join(b.to_m2() for b in blocks) == text


def test_very_long_sentences(tmp_path: Path) -> None:
    long_o = " ".join(f"w{i % 50}" for i in range(1500))
    long_c = long_o.replace("w7 ", "w7 inserted ", 3).replace(" w20 ", " ", 2)
    o, c = [lines_file(tmp_path, "o.txt", [long_o, "short"]),
            lines_file(tmp_path, "c.txt", [long_c, "short ."])]
    out = tmp_path / "out.m2"
    assert cli.main(["-orig", o, "-cor", c, "-out", str(out), "-q"]) == 0
    blocks = list(read_m2(out))
    assert [len(b.tokens) for b in blocks] == [1500, 1]
    assert apply_m2(blocks[0].tokens, blocks[0].edits) == long_c.split()
    assert len(blocks[0].edits) == 5


def test_invalid_utf8_fails_cleanly_or_is_replaced(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture) -> None:
    o = write(tmp_path, "orig.txt", b"Fine .\nA caf\xe9 .\n")
    c = lines_file(tmp_path, "cor.txt", ["Fine !", "A cafe ."])
    out = tmp_path / "out.m2"
    assert cli.main(["-orig", str(o), "-cor", c, "-out", str(out), "-q"]) == 2
    assert capsys.readouterr().err == (
        f"errtype-m2: error: {o}, line 2, byte 12: invalid utf-8 byte b'\\xe9' "
        "(errtype-m2 and errtype-compare: --encoding-errors replace substitutes U+FFFD)\n")
    assert not out.exists() and list(tmp_path.glob(".out.m2*")) == []
    assert cli.main(["-orig", str(o), "-cor", c, "-out", str(out), "-q",
                     "--encoding-errors", "replace"]) == 0
    assert out.read_text(encoding="utf-8").split("\n\n")[1] == (
        "S A caf\ufffd .\nA 1 2|||R:NOUN|||cafe|||REQUIRED|||-NONE-|||0")


def test_line_count_mismatch_before_loading_anything(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    def no_work(*a: object, **k: object) -> None:
        raise AssertionError("work started")

    monkeypatch.setattr(errtype, "load", no_work)
    o = lines_file(tmp_path, "orig.txt", ["a", "b", "c"])
    c1 = lines_file(tmp_path, "c1.txt", ["a", "b", "c"])
    c2 = str(write(tmp_path, "c2.txt", "a\r\nb"))
    out = tmp_path / "out.m2"
    assert cli.main(["-orig", o, "-cor", c1, c2, "-out", str(out), "-q"]) == 2
    assert capsys.readouterr().err == (
        f"errtype-m2: error: {o}: parallel files have different numbers of lines "
        f"({o}: 3, {c1}: 3, {c2}: 2)\n")
    assert not out.exists() and list(tmp_path.glob(".out.m2*")) == []


@pytest.mark.parametrize("bad", ["a ||| b", "x|||y", "|||"])
def test_field_separator_in_a_correction(tmp_path: Path, capsys: pytest.CaptureFixture,
                                         bad: str) -> None:
    o = lines_file(tmp_path, "orig.txt", ["a b", "a b", "c d"])
    c = lines_file(tmp_path, "cor.txt", ["a b .", bad, "c d ."])
    out = tmp_path / "out.m2"
    assert cli.main(["-orig", o, "-cor", c, "-out", str(out), "-q"]) == 2
    reason = "the correction contains the M2 field separator '|||', which cannot be written in " \
             "an edit line"
    assert capsys.readouterr().err == (
        f"errtype-m2: error: {c}, line 2: {reason} (use --on-error skip to write a noop block "
        "and continue)\n")
    assert not out.exists() and list(tmp_path.glob(".out.m2*")) == []
    assert cli.main(["-orig", o, "-cor", c, "-out", str(out), "--on-error", "skip"]) == 0
    blocks = out.read_text(encoding="utf-8").split("\n\n")[:-1]
    assert blocks == ["S a b\nA 2 2|||M:PUNCT|||.|||REQUIRED|||-NONE-|||0", "S a b\n" + NOOP,
                      "S c d\nA 2 2|||M:PUNCT|||.|||REQUIRED|||-NONE-|||0"]
    err = capsys.readouterr().err
    assert f"errtype-m2: skipped line 2: {c}: {reason}\n" in err
    assert err.endswith("errtype-m2: 3 sentences written, 0 noop annotations, 1 sentences skipped "
                        "(written as noop blocks)\n")


def test_separator_in_the_original_is_kept(tmp_path: Path) -> None:
    o = lines_file(tmp_path, "orig.txt", ["a ||| b"])
    c = lines_file(tmp_path, "cor.txt", ["a b"])
    out = tmp_path / "out.m2"
    assert cli.main(["-orig", o, "-cor", c, "-out", str(out), "-q"]) == 0
    assert out.read_text(encoding="utf-8") == (
        "S a ||| b\nA 1 2|||U:NOUN||||||REQUIRED|||-NONE-|||0\n\n")
    assert list(read_m2(out))[0].tokens == ["a", "|||", "b"]


def test_m2_mode_errors(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "out.m2"
    missing = tmp_path / "nope.m2"
    assert cli.main(["-gold", str(missing), "-out", str(out), "-q"]) == 2
    assert capsys.readouterr().err == f"errtype-m2: error: {missing}: no such file\n"
    bad = write(tmp_path, "bad.m2", "S a b\nA 0 1|||R:X|||y|||REQUIRED|||-NONE-|||0\n\nS c\n"
                "A 0 9|||R:X|||y|||REQUIRED|||-NONE-|||0\n")
    assert cli.main(["-gold", str(bad), "-out", str(out), "-q"]) == 2
    assert capsys.readouterr().err == (
        f"errtype-m2: error: {bad}, line 5: edit span 0 9 is outside the sentence of 1 tokens"
        " (use --on-error skip to write a noop block and continue)\n")
    assert not out.exists() and list(tmp_path.glob(".out.m2*")) == []
    latin = write(tmp_path, "latin.m2", b"S caf\xe9 au lait\nA 0 1|||R:SPELL|||cafe|||REQUIRED"
                  b"|||-NONE-|||0\n")
    assert cli.main(["-auto", str(latin), "-out", str(out), "-q"]) == 2
    assert "line 1, byte 5: invalid utf-8 byte b'\\xe9'" in capsys.readouterr().err
    assert cli.main(["-gold", str(latin), "-out", str(out), "-q",
                     "--encoding-errors", "replace"]) == 0
    assert out.read_text(encoding="utf-8").startswith("S caf\ufffd au lait\nA 0 1|||R:")


def test_sigterm_leaves_no_output_and_reports_progress(tmp_path: Path) -> None:
    n = 40000
    o = write(tmp_path, "orig.txt", "".join(f"He go to school number {i} .\n" for i in range(n)))
    c = write(tmp_path, "cor.txt", "".join(f"He goes to school number {i} .\n" for i in range(n)))
    out = tmp_path / "out.m2"
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-m", "errtype.cli.m2", "-orig", str(o), "-cor",
                             str(c), "-out", str(out), "-q", "--batch-size", "64"],
                            stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 300
    while not list(tmp_path.glob(".out.m2.*.tmp")):  # the output has been started
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        assert time.monotonic() < deadline, "errtype-m2 never started writing"
        time.sleep(0.05)
    time.sleep(1.0)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 143, err  # 128 + SIGTERM (Ctrl-C: 130)
    assert err.startswith("\nerrtype-m2: stopped by SIGTERM (after ")
    done = int(err.split("(after ")[1].split(" of ")[0])
    assert 0 < done < n
    assert err.endswith(f" of {n} sentences); no partial output was written\n")
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cor.txt", "orig.txt"]


# --- the API -----------------------------------------------------------------------------------

def test_api_on_hostile_strings(en: errtype.Annotator, capsys: pytest.CaptureFixture) -> None:
    for orig, cor, _ in HOSTILE:
        edits = errtype.annotate(orig, cor)
        assert edits == en.annotate(orig, cor)
        blocks = list(read_m2([f"S {' '.join(orig.split())}\n",
                               *(e.to_m2() + "\n" for e in edits)]))
        assert len(blocks) == 1 and apply_m2(blocks[0].tokens, blocks[0].edits) == cor.split()
    assert errtype.annotate("", "") == [] and errtype.annotate("same", "same") == []
    stream = list(en.annotate_stream([(h[0], [h[1], h[0]]) for h in HOSTILE], batch_size=5))
    assert len(stream) == len(HOSTILE) and all(a.noop[1] for a in stream)
    assert capsys.readouterr() == ("", "")  # library code prints nothing


def test_api_typed_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError) as info:
        list(read_m2(tmp_path / "missing.m2"))
    assert str(info.value) == f"{tmp_path / 'missing.m2'}: no such file"
    with pytest.raises(InputError, match="is a directory"):
        list(read_m2(tmp_path))
    with pytest.raises(M2FormatError, match=r"^<m2>, line 2: edit offsets must be integers"):
        list(read_m2(["S a\n", "A x 1" + EDIT + "\n"]))
    with pytest.raises(M2FormatError, match=r"^in.m2, line 1: expected"):
        list(read_m2(["Q\n"], name="in.m2"))
    with pytest.raises(errtype.UnknownLanguageError):
        errtype.load("xx-nope")


def test_unrelated_2000_token_pair_finishes(en: errtype.Annotator) -> None:
    import random

    rnd = random.Random(6)
    a = "the a cat dog runs quickly over under house tree blue green is are was have".split()
    b = "apple banana cherry date elder fig grape kiwi lemon mango orange papaya".split()
    orig = " ".join(rnd.choice(a) for _ in range(2000))
    cor = " ".join(rnd.choice(b) for _ in range(2000))
    edits = en.annotate(orig, cor)
    m2 = [errtype.M2Edit(e.o_start, e.o_end, e.type, e.c_str) for e in edits]
    assert apply_m2(orig.split(), m2) == cor.split()


def test_m2_mode_on_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                          capsys: pytest.CaptureFixture) -> None:
    real = errtype.Annotator.import_edit

    def flaky(self: errtype.Annotator, orig: object, cor: object, edit: object,
              *a: object, **k: object) -> errtype.Edit:
        if "boom" in cor.texts:  # type: ignore[attr-defined]
            raise RuntimeError("tagger exploded")
        return real(self, orig, cor, edit, *a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(errtype.Annotator, "import_edit", flaky)
    m2 = write(tmp_path, "in.m2", "S a b\nA 0 1|||R:X|||c|||REQUIRED|||-NONE-|||0\n\n"
               "S d e\nA 0 1|||R:X|||boom|||REQUIRED|||-NONE-|||3\n"
               "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n\nS f\n")
    out = tmp_path / "out.m2"
    assert cli.main(["-gold", str(m2), "-out", str(out), "-q"]) == 2
    assert capsys.readouterr().err == (
        f"errtype-m2: error: {m2}, line 4: annotation failed: RuntimeError: tagger exploded "
        "(use --on-error skip to write a noop block and continue)\n")
    assert not out.exists() and list(tmp_path.glob(".out.m2*")) == []
    assert cli.main(["-gold", str(m2), "-out", str(out), "--on-error", "skip"]) == 0
    blocks = out.read_text(encoding="utf-8").split("\n\n")[:-1]
    assert blocks[1:] == ["S d e\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n"
                          "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||3", "S f"]
    err = capsys.readouterr().err
    assert "errtype-m2: skipped line 4: RuntimeError: tagger exploded\n" in err
    assert "3 sentences written" in err and "1 sentences skipped" in err


def test_standard_input_is_refused_as_a_parallel_file(tmp_path: Path) -> None:
    c = lines_file(tmp_path, "cor.txt", ["a"])
    with pytest.raises(InputError) as info:
        next(read_parallel(["-", c]))
    assert str(info.value) == ("-: standard input cannot be one of several parallel files (its "
                               "lines cannot be counted before the work starts); give a file name")


def test_a_file_holding_only_a_bom_is_empty(tmp_path: Path) -> None:
    bom = write(tmp_path, "bom.txt", b"\xef\xbb\xbf")
    empty = write(tmp_path, "empty.txt", b"")
    assert count_lines(bom) == 0 and list(read_lines(bom)) == []
    assert list(read_parallel([bom, empty])) == []
    assert [ln.text for ln in read_lines(write(tmp_path, "b.txt", b"\xef\xbb\xbf\n"))] == [""]


def test_library_code_never_prints_or_exits() -> None:
    import ast

    offenders = []
    for path in sorted((ROOT / "errtype").rglob("*.py")):
        parts = path.relative_to(ROOT / "errtype").parts
        # command code may print: cli/, and errant/commands/ (ERRANT's command modules, whose
        # print_results/print_table/verbose evaluate_edits print by ERRANT's API contract)
        if "cli" in parts or parts[:2] == ("errant", "commands"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                f = node.func
                name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(
                    f, ast.Attribute) else ""
                if name in {"print", "exit", "_exit", "quit"}:
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}()")
    assert offenders == []
