"""The real corpora's quirks (issue 6), read from ../shared/data: trailing spaces on every line
(CoNLL-14 INPUT, JFLEG), M2 files without a final blank line (GECCC, cs_demo), text files without
a final newline (cs_demo corrections), and CRLF / BOM variants of them written by the tests."""

from __future__ import annotations

from pathlib import Path

import pytest

import errtype
from errtype import Annotator, InputError
from errtype.cli import m2 as cli
from errtype.convert import m2_to_m2
from errtype.m2 import (
    DETECTION_TYPES,
    GOLD,
    LITERAL,
    M2Block,
    M2Edit,
    apply_edits,
    overlaps,
    read_m2,
    write_m2,
)
from errtype.textio import count_lines, read_parallel

from .conftest import SHARED, shared_path


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
        assert apply_edits(block.tokens, block.edits, LITERAL).tokens == c.split()


# --------------------------------------------------------------------------------------------
# errtype-m2 -gold / -auto on every shared real M2 corpus (issue 12): no error, one output block
# per input block, and the correction rebuilt from the output edits equals the one built from the
# input edits for every annotator whose edits do not overlap.

def _annotator(lang: str, model: str | None = None) -> Annotator:
    key = (lang, model)
    if key not in _ANNOTATORS:
        opts = {}
        if model is not None:
            path = SHARED / "models" / model
            if not path.exists():
                pytest.skip(f"stand-in UDPipe model not available: {path}")
            opts["udpipe_model"] = str(path)
        _ANNOTATORS[key] = errtype.load(lang, **opts)
    return _ANNOTATORS[key]


_ANNOTATORS: dict[tuple[str, str | None], Annotator] = {}


def _interesting(block: M2Block) -> bool:
    """Overlapping edits, '-NONE-' deletions, alternatives or noops beside edits."""
    for edits in block.edits_by_annotator().values():
        real = [e for e in edits if not e.is_noop]
        if len(real) < len(edits) and real:
            return True
        if any(e.cor.strip() == "-NONE-" or "||" in e.cor for e in real):
            return True
        if any(overlaps(a, b) for i, a in enumerate(real) for b in real[:i]):
            return True
    return False


#: (corpus under ../shared/data, language, stand-in UDPipe model, blocks kept). uk/et are typed
#: with the Czech rules and the stand-in uk/et UDPipe models (`--lang uk/et` lands separately):
#: these tests are about M2 handling, not typing. A slice keeps the first N blocks plus every
#: block with overlapping edits, '-NONE-', alternatives or noops beside edits; None = whole file.
#: Slices keep the suite within minutes on two shared cores (EstGEC -gold runs the whole file).
CORPORA = [
    ("multilingual/estgec.dev.m2", "gold", "cs", "et.udpipe", None),
    ("multilingual/estgec.dev.m2", "auto", "cs", "et.udpipe", 200),
    ("multilingual/uagec.dev.m2", "gold", "cs", "uk.udpipe", 400),
    ("multilingual/uagec.dev.m2", "auto", "cs", "uk.udpipe", 200),
    ("conll14/official-2014.combined.m2", "gold", "en", None, 150),
    ("conll14/official-2014.combined.m2", "auto", "en", None, 100),
    ("conll14/official-2014.0.m2", "gold", "en", None, 100),
    ("conll14/official-2014.1.m2", "auto", "en", None, 100),
    ("geccc/sentence.m2", "gold", "cs", "cs.udpipe", 300),
    ("geccc/sentence.m2", "auto", "cs", "cs.udpipe", 200),
    ("oracles/en_compare/ref.m2", "gold", "en", None, None),
    ("oracles/en_issue49/ref.m2", "auto", "en", None, None),
    ("oracles/en_demo/out_v3.0.2_spacy3.8_sm3.8.m2", "gold", "en", None, None),
    ("oracles/en_quirks/out.m2", "auto", "en", None, None),
    ("oracles/en_oracles/out.rules.m2", "gold", "en", None, None),
    ("oracles/cs_demo/out.m2", "auto", "cs", "cs.udpipe", None),
]


def _correction(tokens: list[str], edits: list[M2Edit]) -> str:
    return apply_edits(tokens, edits, GOLD).text


@pytest.mark.slow
@pytest.mark.parametrize("name,mode,lang,model,keep", CORPORA,
                         ids=[f"{c[0].split('/')[-1]}-{c[1]}" for c in CORPORA])
def test_m2_to_m2_on_real_corpora(tmp_path: Path, name: str, mode: str, lang: str,
                                  model: str | None, keep: int | None) -> None:
    blocks = list(read_m2(shared_path(*name.split("/"))))
    if keep is not None:
        blocks = [b for i, b in enumerate(blocks) if i < keep or _interesting(b)]
    src, out = tmp_path / "in.m2", tmp_path / "out.m2"
    write_m2(blocks, src)
    report = m2_to_m2(_annotator(lang, model), src, out, mode=mode)
    got = list(read_m2(out))
    assert report.blocks == len(got) == len(blocks) and not report.skipped
    checked = 0
    for b, g in zip(blocks, got, strict=True):
        assert g.source == b.source
        want, have = b.edits_by_annotator(), g.edits_by_annotator()
        assert sorted(have) == sorted(want)
        for ann, edits in want.items():
            real = [e for e in edits if not e.is_noop]
            if any(overlaps(x, y) for i, x in enumerate(real) for y in real[:i]):
                continue
            if mode == "gold":
                assert len([e for e in have[ann] if not e.is_noop]) == len(real)
            elif any(e.type in DETECTION_TYPES for e in real):
                continue  # -auto adds detection edits to extracted ones: they may overlap
            assert _correction(g.tokens, have[ann]) == _correction(b.tokens, real)
            checked += 1
    assert checked > 0


def test_estgec_overlaps_and_none_deletions_are_resolved(tmp_path: Path) -> None:
    """EstGEC dev line 103: a deleted comma written '-NONE-' and a word-order edit holding the
    inner form correction; the inner edit is typed in its own context."""
    lines = shared_path("multilingual", "estgec.dev.m2").read_text(encoding="utf-8").splitlines()
    assert lines[102] == "S Kirjuta mulle , kas sa saad tulla , aidata mind ."
    src = tmp_path / "in.m2"
    src.write_text("\n".join(lines[102:106]) + "\n\n", encoding="utf-8")
    out = tmp_path / "out.m2"
    m2_to_m2(_annotator("cs", "et.udpipe"), src, out)
    a_lines = out.read_text(encoding="utf-8").splitlines()[1:4]
    assert [x.split("|||")[0] for x in a_lines] == ["A 7 8", "A 8 9", "A 8 10"]  # input order
    assert a_lines[0].split("|||")[1:3] == ["U:PUNCT", ""]  # '-NONE-' = deletion
    assert a_lines[1].split("|||")[2] == "aitama" and a_lines[2].split("|||")[2] == "mind aitama"
    compat = tmp_path / "compat.m2"
    m2_to_m2(_annotator("cs", "et.udpipe"), src, compat, errant_compat=True)
    assert "|||-NONE-|||REQUIRED" in compat.read_text(encoding="utf-8")  # ERRANT: literal token


def test_span_outside_the_sentence_names_the_line(tmp_path: Path) -> None:
    """ERRANT's -tok output (oracles/en_oracles/out.tok.m2) indexes spaCy's whitespace tokens."""
    src = shared_path("oracles", "en_oracles", "out.tok.m2")
    out = tmp_path / "out.m2"
    with pytest.raises(InputError, match=r"out\.tok\.m2, line 101: edit span 7 8 is outside"):
        m2_to_m2(_annotator("en"), src, out)
    assert not out.exists()
    report = m2_to_m2(_annotator("en"), src, out, on_error="skip")
    assert report.blocks == 40 and len(list(read_m2(out))) == 40
    assert [line for line, _ in report.skipped] == [97]
    assert "edit line 101" in report.skipped[0][1]
