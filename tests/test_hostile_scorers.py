"""Hostile input for the scorer commands (issue 6): mismatched line/sentence counts, invalid
UTF-8 and malformed M2 give one exact error message naming the file (and line), never a
traceback, and write no output file."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from errtype.cli import compare, gleu, m2score, meta, ratio, scribendi

GOOD = ("S a b .\nA 0 1|||R:DET|||the|||REQUIRED|||-NONE-|||0\n\n"
        "S c d .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n")
UTF8 = "(errtype-m2 and errtype-compare: --encoding-errors replace substitutes U+FFFD)"


@pytest.fixture
def data(tmp_path: Path) -> dict[str, str]:
    files = {
        "good.m2": GOOD.encode(),
        "bad.m2": b"S a b .\nA 0 x|||R:DET|||the|||REQUIRED|||-NONE-|||0\n\n",
        "one.m2": b"S a b .\n\n",
        "sys.txt": b"the b .\nc d .\n",
        "sys1.txt": b"the b .\n",
        "sysbad.txt": b"the b .\nc \xff d .\n",
        "src.txt": b"a b .\r\nc d .",
        "ref.txt": b"the b .\nc d !\n",
        "ref2.txt": b"\xef\xbb\xbfthe b .\nc d .\n",
        "human.txt": b"sys.txt 1.0\n",
    }
    out = {}
    for name, content in files.items():
        (tmp_path / name).write_bytes(content)
        out[name] = str(tmp_path / name)
    out["out"] = str(tmp_path / "out.json")
    return out


def run(main: Callable[[list[str]], int], argv: list[str], capsys: pytest.CaptureFixture
        ) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().err


def test_m2score(data: dict[str, str], capsys: pytest.CaptureFixture) -> None:
    d = data
    assert run(m2score.main, [d["sys1.txt"], d["good.m2"], "--json", d["out"]], capsys) == (
        2, f"errtype-m2score: error: {d['sys1.txt']}: system output has 1 lines but there are 2 "
           f"source sentences in {d['good.m2']}\n")
    assert run(m2score.main, [d["sysbad.txt"], d["good.m2"]], capsys) == (
        2, f"errtype-m2score: error: {d['sysbad.txt']}, line 2, byte 10: invalid utf-8 byte "
           f"b'\\xff' {UTF8}\n")
    assert run(m2score.main, [d["sys.txt"], d["bad.m2"]], capsys) == (
        2, f"errtype-m2score: error: {d['bad.m2']}, line 2: edit offsets must be integers, got "
           "'0 x'\n")
    assert not Path(d["out"]).exists()


def test_gleu(data: dict[str, str], capsys: pytest.CaptureFixture) -> None:
    d = data
    assert run(gleu.main, ["-s", d["src.txt"], "-r", d["ref.txt"], "-o", d["sys1.txt"],
                           "--json", d["out"]], capsys) == (
        2, f"errtype-gleu: error: {d['sys1.txt']}: parallel files have different numbers of "
           f"lines ({d['src.txt']}: 2, {d['ref.txt']}: 2, {d['sys1.txt']}: 1)\n")
    assert run(gleu.main, ["-s", d["src.txt"], "-r", d["ref.txt"], "-o", d["sysbad.txt"]],
               capsys) == (2, f"errtype-gleu: error: {d['sysbad.txt']}, line 2, byte 10: "
                              f"invalid utf-8 byte b'\\xff' {UTF8}\n")
    assert not Path(d["out"]).exists()
    # CRLF, BOM and a missing final newline are read like clean files
    assert gleu.main(["-s", d["src.txt"], "-r", d["ref.txt"], d["ref2.txt"], "-o",
                      d["sys.txt"]]) == 0


def test_scribendi(data: dict[str, str], capsys: pytest.CaptureFixture) -> None:
    d = data
    assert run(scribendi.main, [d["src.txt"], d["sys1.txt"], "--json", d["out"]], capsys) == (
        2, f"errtype-scribendi: error: {d['src.txt']}: parallel files have different numbers of "
           f"lines ({d['src.txt']}: 2, {d['sys1.txt']}: 1)\n")
    assert run(scribendi.main, [d["src.txt"], d["sysbad.txt"]], capsys) == (
        2, f"errtype-scribendi: error: {d['sysbad.txt']}, line 2, byte 10: invalid utf-8 byte "
           f"b'\\xff' {UTF8}\n")
    assert not Path(d["out"]).exists()


def test_ratio(data: dict[str, str], capsys: pytest.CaptureFixture) -> None:
    d = data
    assert run(ratio.main, ["--m2", d["bad.m2"], d["sys.txt"]], capsys) == (
        2, f"errtype-ratio: error: {d['bad.m2']}, line 2: edit offsets must be integers, got "
           "'0 x'\n")
    assert run(ratio.main, ["--source", d["src.txt"], "--refs", d["ref.txt"], d["ref2.txt"],
                            d["sys1.txt"], "--json", d["out"]], capsys) == (
        2, f"errtype-ratio: error: {d['src.txt']}: parallel files have different numbers of "
           f"lines ({d['src.txt']}: 2, {d['ref.txt']}: 2, {d['ref2.txt']}: 2, "
           f"{d['sys1.txt']}: 1)\n")
    assert run(ratio.main, ["--source", d["src.txt"], "--refs", d["ref.txt"], d["sysbad.txt"],
                            d["sys.txt"]], capsys) == (
        2, f"errtype-ratio: error: {d['sysbad.txt']}, line 2, byte 10: invalid utf-8 byte "
           f"b'\\xff' {UTF8}\n")
    assert not Path(d["out"]).exists()


def test_meta(data: dict[str, str], capsys: pytest.CaptureFixture) -> None:
    d = data
    base = ["system", "--human", d["human.txt"]]
    assert run(meta.main, [*base, "--m2", d["bad.m2"], d["sys.txt"]], capsys) == (
        2, f"errtype-meta: error: {d['bad.m2']}, line 2: edit offsets must be integers, got "
           "'0 x'\n")
    assert run(meta.main, [*base, "--m2", d["good.m2"], d["sys1.txt"]], capsys) == (
        2, f"errtype-meta: error: {d['sys1.txt']}: system output has 1 lines but there are 2 "
           f"source sentences in {d['good.m2']}\n")


def test_compare(data: dict[str, str], capsys: pytest.CaptureFixture) -> None:
    d = data
    assert run(compare.main, ["-hyp", d["good.m2"], "-ref", d["bad.m2"]], capsys) == (
        2, f"errtype-compare: error: {d['bad.m2']}, line 2: edit offsets must be integers, got "
           "'0 x'\n")
    assert run(compare.main, ["-hyp", d["good.m2"], "-ref", d["one.m2"]], capsys) == (
        2, f"errtype-compare: error: {d['good.m2']}, line 4: the hypothesis has more sentences "
           f"than the reference: sentence 2 starts here but {d['one.m2']} has only 1\n")
    assert run(compare.main, ["-hyp", d["sys.txt"], "-ref", d["good.m2"]], capsys) == (
        2, f"errtype-compare: error: {d['sys.txt']}: this is plain text, not an M2 file (an M2 "
           "block starts with an 'S ' line); score plain text with -orig SRC -hyp_text HYP "
           "-ref_text REF, or annotate it first: errtype-m2 -orig SRC -cor HYP -o HYP.m2\n")
    assert run(compare.main, ["-orig", d["src.txt"], "-hyp_text", d["sys1.txt"], "-ref_text",
                              d["ref.txt"]], capsys) == (
        2, f"errtype-compare: error: {d['src.txt']}: parallel files have different numbers of "
           f"lines ({d['src.txt']}: 2, {d['sys1.txt']}: 1, {d['ref.txt']}: 2)\n")
    assert run(compare.main, ["-orig", d["src.txt"], "-hyp_text", d["sysbad.txt"], "-ref_text",
                              d["ref.txt"]], capsys) == (
        2, f"errtype-compare: error: {d['sysbad.txt']}, line 2, byte 10: invalid utf-8 byte "
           f"b'\\xff' {UTF8}\n")


def test_compare_encoding_errors_replace(data: dict[str, str], tmp_path: Path,
                                         capsys: pytest.CaptureFixture) -> None:
    d = data
    latin = tmp_path / "latin.m2"
    latin.write_bytes(GOOD.replace("c d .", "c d\xe9 .").encode("latin-1"))
    assert run(compare.main, ["-hyp", str(latin), "-ref", d["good.m2"]], capsys) == (
        2, f"errtype-compare: error: {latin}, line 4, byte 58: invalid utf-8 byte b'\\xe9' "
           f"{UTF8}\n")
    assert compare.main(["-hyp", str(latin), "-ref", d["good.m2"], "--encoding-errors",
                         "replace"]) == 2  # replaced, then the sources really differ
    assert "differs from the reference source" in capsys.readouterr().err
    assert compare.main(["-hyp", str(latin), "-ref", str(latin), "--encoding-errors",
                         "replace"]) == 0
    assert "1.0\t1.0\t1.0" in capsys.readouterr().out
    assert compare.main(["-orig", d["src.txt"], "-hyp_text", d["sysbad.txt"], "-ref_text",
                         d["ref.txt"], "--encoding-errors", "replace"]) == 0
