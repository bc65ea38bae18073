"""The real corpora's quirks (issue 6), read from ../shared/data: trailing spaces on every line
(CoNLL-14 INPUT, JFLEG), M2 files without a final blank line (GECCC, cs_demo), text files without
a final newline (cs_demo corrections), and CRLF / BOM variants of them written by the tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from errtype.cli import m2 as cli
from errtype.m2 import read_m2
from errtype.textio import count_lines, read_parallel

from .conftest import shared_path


@pytest.mark.parametrize("name,blocks,edits", [
    ("conll14/official-2014.combined.m2", 1312, 5873),
    ("conll14/official-2014.0.m2", 1312, 2391),
])
def test_conll14_m2_round_trip(tmp_path: Path, name: str, blocks: int, edits: int) -> None:
    path = shared_path(*name.split("/"))
    read = list(read_m2(path))
    assert (len(read), sum(len(b.edits) for b in read)) == (blocks, edits)
    raw = path.read_bytes()
    assert "".join(b.to_m2() for b in read).encode("utf-8") == raw
    variant = tmp_path / "crlf.m2"  # CRLF + BOM + no final blank line or newline
    variant.write_bytes(b"\xef\xbb\xbf" + raw.rstrip(b"\n").replace(b"\n", b"\r\n"))
    assert list(read_m2(variant)) == read


def test_geccc_m2_without_final_blank_line() -> None:
    m2 = shared_path("geccc", "sentence.m2")
    assert not m2.read_bytes().endswith(b"\n\n")
    blocks = list(read_m2(m2))
    inputs = [t for _, (t,) in read_parallel([shared_path("geccc", "sentence.input")])]
    assert len(blocks) == len(inputs) == 8478
    assert ["".join(b.tokens) for b in blocks] == ["".join(t.split()) for t in inputs]
    assert "".join(b.to_m2() for b in blocks) == m2.read_text(encoding="utf-8") + "\n"


def test_cs_demo_missing_final_newlines() -> None:
    folder = shared_path("oracles", "cs_demo")
    paths = [folder / "orig.txt", folder / "cor1.txt", folder / "cor2.txt"]
    assert [p.read_bytes().endswith(b"\n") for p in paths] == [True, False, False]
    rows = list(read_parallel(paths))
    assert len(rows) == 4 == count_lines(paths[1])
    assert all(not t.endswith(("\n", "\r")) for _, texts in rows for t in texts)
    blocks = list(read_m2(folder / "out.m2"))  # made with -tok: compare untokenised text
    assert ["".join(b.tokens) for b in blocks] == ["".join(texts[0].split()) for _, texts in rows]


def test_trailing_spaces_conll_input_and_jfleg() -> None:
    systems = shared_path("conll14", "systems")
    rows = list(read_parallel([systems / "INPUT", systems / "AMU", systems / "CAMB"]))
    assert len(rows) == 1312 and all(r[1][0].endswith(" ") for r in rows)
    jfleg = [shared_path("jfleg", f) for f in ("dev.src", "dev.ref0", "dev.ref1", "dev.ref2",
                                               "dev.ref3")]
    rows = list(read_parallel(jfleg))
    assert len(rows) == 754 and all(t.endswith(" ") for _, texts in rows for t in texts)


def test_errtype_m2_on_a_quirky_jfleg_slice(tmp_path: Path) -> None:
    """The first 40 JFLEG dev pairs, rewritten with CRLF, a BOM and no final newline."""
    rows = [texts for _, texts in read_parallel([shared_path("jfleg", "dev.src"),
                                                 shared_path("jfleg", "dev.ref0")])][:40]
    orig, cor, out = tmp_path / "o.txt", tmp_path / "c.txt", tmp_path / "out.m2"
    orig.write_bytes("\r\n".join(r[0] for r in rows).encode("utf-8"))
    cor.write_bytes(("\ufeff" + "".join(r[1] + "\n" for r in rows)).encode("utf-8"))
    assert cli.main(["-orig", str(orig), "-cor", str(cor), "-out", str(out), "-q"]) == 0
    blocks = list(read_m2(out))
    assert len(blocks) == 40
    assert [b.source for b in blocks] == [" ".join(r[0].split()) for r in rows]
    for block, (_, c) in zip(blocks, rows, strict=True):
        edits = block.edits_by_annotator()[0]
        tokens, shift = list(block.tokens), 0
        for e in (e for e in edits if e.start >= 0):
            new = e.cor.split()
            tokens[e.start + shift:e.end + shift] = new
            shift += len(new) - (e.end - e.start)
        assert tokens == c.split()
