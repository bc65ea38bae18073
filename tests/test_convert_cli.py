"""errtype convert: M2 -> parallel text (checked against GECCC's own gold text), M2 -> JSON lines
with character offsets, parallel text -> M2; atomic output and errors naming file and line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from errtype.cli.main import main as errtype_main
from errtype.m2 import read_m2

from .conftest import shared_path


def test_m2_to_text_reproduces_geccc_gold(tmp_path: Path) -> None:
    """GECCC dev: sentence.gold holds each annotator's correction as detokenised text (one
    tab-separated column per annotator); PREFIX.cor.<id> rebuilt from sentence.m2 matches every
    one of them once spaces are ignored, and PREFIX.orig is the M2 source."""
    m2 = shared_path("geccc", "sentence.m2")
    prefix = tmp_path / "geccc"
    assert errtype_main(["convert", "m2-to-text", str(m2), "-o", str(prefix), "--missing",
                         "empty", "-q"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["geccc.cor.0", "geccc.cor.1",
                                                          "geccc.orig"]
    blocks = list(read_m2(m2))
    orig = (tmp_path / "geccc.orig").read_text(encoding="utf-8").splitlines()
    assert orig == [b.source for b in blocks]
    cors = [(tmp_path / f"geccc.cor.{a}").read_text(encoding="utf-8").splitlines()
            for a in (0, 1)]
    gold = shared_path("geccc", "sentence.gold").read_text(encoding="utf-8").splitlines()
    assert len(cors[0]) == len(cors[1]) == len(gold) == 8478
    checked = 0
    for i, (b, line) in enumerate(zip(blocks, gold, strict=True)):
        for col, ann in zip(line.split("\t"), sorted(b.annotators()), strict=True):
            assert cors[ann][i].replace(" ", "") == col.replace(" ", "")
            checked += 1
    assert checked == 12954


def test_m2_to_text_missing_annotator_and_compat(tmp_path: Path) -> None:
    m2 = tmp_path / "in.m2"
    m2.write_text("S a b c\nA 1 2|||X|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
                  "S d e\nA 0 1|||X|||D||DD|||REQUIRED|||-NONE-|||1\n\n", encoding="utf-8")
    assert errtype_main(["convert", "m2-to-text", str(m2), "-o", str(tmp_path / "p"),
                         "-q"]) == 0
    read = {n: (tmp_path / f"p.{n}").read_text(encoding="utf-8") for n in ("cor.0", "cor.1")}
    assert read == {"cor.0": "a c\nD e\n", "cor.1": "a c\nD e\n"}  # absent: like the first
    assert errtype_main(["convert", "m2-to-text", str(m2), "-o", str(tmp_path / "q"), "-q",
                         "--missing", "empty", "--errant-compat"]) == 0
    assert (tmp_path / "q.cor.0").read_text(encoding="utf-8") == "a -NONE- c\nd e\n"
    assert (tmp_path / "q.cor.1").read_text(encoding="utf-8") == "a b c\nD||DD e\n"


def test_m2_to_json_offsets_on_estgec(tmp_path: Path) -> None:
    src = shared_path("multilingual", "estgec.dev.m2")
    out = tmp_path / "est.jsonl"
    assert errtype_main(["convert", "m2-to-json", str(src), "-o", str(out), "-q"]) == 0
    rows = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 1692
    n = 0
    for row in rows:
        for ann in row["annotators"].values():
            for e in ann["edits"]:
                tokens = row["source"].split()
                assert row["source"][e["start"]:e["end"]] == " ".join(
                    tokens[e["token_start"]:e["token_end"]])
                if e["applied"]:
                    assert ann["correction"][e["cor_start"]:e["cor_end"]] == e["correction"]
                n += 1
    assert n > 5000
    row = next(r for r in rows if r["source"].startswith("või ennem helista"))
    edits = row["annotators"]["0"]["edits"]
    assert row["annotators"]["0"]["correction"] == "Või helista mulle enne ."
    assert [(e["start"], e["end"], e["applied"], e["line"]) for e in edits] == [
        (0, 3, True, 51), (4, 9, False, 52), (4, 23, True, 53)]


def test_errors_name_file_and_line_and_write_nothing(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture) -> None:
    m2 = tmp_path / "bad.m2"
    m2.write_text("S a b\nA 0 1|||X|||c|||REQUIRED|||-NONE-|||0\n\nS c\nA 0 5|||X|||d|||"
                  "REQUIRED|||-NONE-|||0\n", encoding="utf-8")
    assert errtype_main(["convert", "m2-to-text", str(m2), "-o", str(tmp_path / "p")]) == 2
    assert f"{m2}, line 5: edit span 0 5 is outside" in capsys.readouterr().err
    assert errtype_main(["convert", "m2-to-json", str(m2), "-o", str(tmp_path / "j")]) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.m2"]


def test_text_to_m2_delegates_to_errtype_m2(tmp_path: Path) -> None:
    """errtype-m2's options pass through; the output is ERRANT 3.0.2's (oracles/en_oracles)."""
    d = shared_path("oracles", "en_oracles")
    out = tmp_path / "out.m2"
    assert errtype_main(["convert", "text-to-m2", str(d / "orig.txt"), str(d / "cor.txt"),
                         "-o", str(out), "-q", "-merge", "all-split"]) == 0
    assert out.read_bytes() == (d / "out.all-split.m2").read_bytes()
