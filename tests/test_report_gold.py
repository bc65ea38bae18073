"""A gold whose types are not the annotator's type set is re-typed by default, and cached:
the type-set rule, the cache key, its place (the user cache, never the gold's folder), corrupt
entries, the opt-out, and the same default in ``errtype score``. Small golds written by the
tests; the English annotator."""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import errtype
from errtype.cli.main import main as errtype_main
from errtype.convert import m2_to_m2
from errtype.lang import get_language
from errtype.lang.typesets import foreign_types, type_set
from errtype.m2 import read_m2
from errtype.report import ReportOptions, build_report, load_input
from errtype.retype import annotator_signature, cache_key, cache_paths

from .conftest import shared_path

NUCLE = """S He go to school .
A 1 2|||SVA|||goes|||REQUIRED|||-NONE-|||0

S I like apple .
A 2 3|||Nn|||apples|||REQUIRED|||-NONE-|||0

S The sky is blue .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

"""
SYSTEM = "He goes to school .\nI like apple .\nThe sky was blue .\n"


@pytest.fixture(scope="module")
def en() -> Any:
    return errtype.load("en")


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    monkeypatch.setenv("ERRTYPE_CACHE_DIR", str(tmp_path / "user-cache"))
    data = tmp_path / "data"
    data.mkdir()
    (data / "gold.m2").write_text(NUCLE, encoding="utf-8")
    (data / "sys.txt").write_text(SYSTEM, encoding="utf-8")
    return {"gold": data / "gold.m2", "sys": data / "sys.txt", "dir": data}


def test_type_sets() -> None:
    en, cs, uk = (type_set(get_language(c)) for c in ("en", "cs", "uk"))
    assert en is not None and cs is not None and uk is not None
    for t in ("R:VERB:SVA", "M:DET", "U:PUNCT", "R:WO", "UNK", "noop", "U:SPACE"):
        assert en(t), t
    for t in ("SVA", "Vt", "ArtOrDet", "R:ADP", "R:NOUN:INFL:Case", "VERB:SVA", "X:DET"):
        assert not en(t), t
    for t in ("R:ADP", "R:NOUN:INFL", "R:WO:SPELL", "R:ORTH:CASING", "M:AUX", "R:DIACR"):
        assert cs(t) and uk(t), t
    assert not cs("R:DET:INFL") and uk("R:DET:INFL")  # DET does not inflect in Czech ERRANT
    assert not cs("R:PREP") and uk("R:PREP")  # the UD classifier's dependency map
    assert not uk("R:NOUN:INFL:Case")  # feature names only with feats
    assert type_set(get_language("uk", feats=True))("R:NOUN:INFL:Case+Number")
    assert type_set(get_language("cs", feats=True))("R:PRON:INFL:Gender")
    blocks = list(read_m2(NUCLE.splitlines()))
    assert foreign_types(blocks, en) == {"SVA": 1, "Nn": 1}


def test_foreign_gold_is_retyped_and_cached(en: Any, files: dict[str, Path],
                                            tmp_path: Path) -> None:
    inp = load_input([files["gold"]], [("sys", files["sys"])], annotator=en)
    assert inp.retyped is not None and not inp.retyped.cached
    entry = inp.retyped.path
    assert entry is not None and entry.parent == tmp_path / "user-cache" / "retyped"
    assert entry.name.startswith("gold.m2.") and entry.suffix == ".m2"
    assert sorted(p.name for p in files["dir"].iterdir()) == ["gold.m2", "sys.txt"]
    assert [e.type for b in inp.gold for e in b.edits] == ["R:VERB:SVA", "R:NOUN:NUM", "noop"]
    assert [b.line for b in inp.gold] == [1, 4, 7]  # errors still name the gold's lines
    assert inp.edit_gold == "retype"
    assert any("re-typed" in n and "SVA" in n and f"cached in {entry}" in n
               for n in inp.notes)
    # the cache holds exactly what errtype-m2 -gold writes
    m2_to_m2(en, files["gold"], tmp_path / "m2.m2", mode="gold")
    assert entry.read_text(encoding="utf-8") == (tmp_path / "m2.m2").read_text(encoding="utf-8")
    report = build_report(inp, ReportOptions(bootstrap=50, trials=50))
    assert report.per_type["sys"]["R:VERB:SVA"]["tp"] == 1
    assert report.per_type["sys"]["R:NOUN:NUM"]["fn"] == 1
    again = load_input([files["gold"]], [("sys", files["sys"])], annotator=en)
    assert again.retyped is not None and again.retyped.cached and again.retyped.path == entry
    assert [b.edits for b in again.gold] == [b.edits for b in inp.gold]
    assert any("read from the cache" in n for n in again.notes)


def test_keep_gold_types(en: Any, files: dict[str, Path]) -> None:
    inp = load_input([files["gold"]], [("sys", files["sys"])], annotator=en, gold_types="keep")
    assert inp.retyped is None
    assert [e.type for b in inp.gold for e in b.edits] == ["SVA", "Nn", "noop"]
    report = build_report(inp, ReportOptions(bootstrap=50, trials=50))
    assert any("disjoint type sets" in n for n in report.notes)
    assert not (files["dir"].parent / "user-cache").exists() and inp.edit_gold == "m2"
    with pytest.raises(ValueError, match="gold_types"):
        load_input([files["gold"]], [("sys", files["sys"])], gold_types="nucle")
    with pytest.raises(ValueError, match="edit_gold"):
        load_input([files["gold"]], [("sys", files["sys"])], edit_gold="keep")
    same = load_input([files["gold"]], [("sys", files["sys"])], annotator=en, edit_gold="m2")
    assert same.gold == inp.gold


def test_gold_kept_when_the_systems_share_its_types(files: dict[str, Path]) -> None:
    """M2 systems typed in the gold's own scheme: re-typing the gold would break them."""
    inp = load_input([files["gold"]], [("same", files["gold"])])
    assert inp.retyped is None and inp.lang == "en"
    assert any("the gold keeps its own types" in n and "same" in n for n in inp.notes)


def test_corrupt_cache_entries_are_rebuilt(en: Any, files: dict[str, Path]) -> None:
    key = cache_key(files["gold"], en)
    entry = cache_paths(files["gold"], key)[0]
    entry.parent.mkdir(parents=True)
    good = None
    for broken in ("garbage\n", "S He go to school .\nA 1 2|||R:VERB|||goes|||REQUIRED|||-NONE-"
                   "|||0\n\n", "\xff\xfe not UTF-8", None):
        if broken is not None:
            entry.write_bytes(broken.encode("latin-1"))
        inp = load_input([files["gold"]], [("sys", files["sys"])], annotator=en)
        assert inp.retyped is not None and inp.retyped.path == entry
        assert inp.retyped.cached == (broken is None)
        good = good or entry.read_text(encoding="utf-8")
        assert entry.read_text(encoding="utf-8") == good


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX permissions")
def test_read_only_folder_and_the_xdg_cache(en: Any, files: dict[str, Path], tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    files["dir"].chmod(0o555)  # no write bit: left alone, even by root
    try:
        inp = load_input([files["gold"]], [("sys", files["sys"])], annotator=en)
        assert inp.retyped is not None and inp.retyped.path is not None
        assert inp.retyped.path.parent == tmp_path / "user-cache" / "retyped"
        monkeypatch.delenv("ERRTYPE_CACHE_DIR")
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
        inp = load_input([files["gold"]], [("sys", files["sys"])], annotator=en)
        assert inp.retyped is not None and inp.retyped.path is not None
        assert inp.retyped.path.parent == tmp_path / "xdg" / "errtype" / "retyped"
        assert sorted(p.name for p in files["dir"].iterdir()) == ["gold.m2", "sys.txt"]
    finally:
        files["dir"].chmod(0o755)


def test_cache_key(en: Any, files: dict[str, Path]) -> None:
    key = cache_key(files["gold"], en)
    assert key == cache_key(files["gold"], en)
    sig = annotator_signature(en)
    assert sig.startswith("retype|lang:en|feats:0|parser:spacy:en_core_web_sm")
    assert f"errtype:{errtype.__version__}" in sig and "merging:rules" in sig
    other = SimpleNamespace(lang="en", language=SimpleNamespace(feats=True), parser=en.parser)
    assert annotator_signature(other) != sig
    files["gold"].write_text(NUCLE.replace("goes", "went"), encoding="utf-8")
    assert cache_key(files["gold"], en) != key  # another gold file, another entry


def test_cli_options(files: dict[str, Path], tmp_path: Path,
                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.md"
    base = ["report", "--ref", str(files["gold"]), "--hyp", f"sys={files['sys']}", "-o",
            str(out), "--format", "md", "--bootstrap", "20", "--trials", "20"]
    with pytest.raises(SystemExit):
        errtype_main([*base, "--keep-gold-types", "--retype-gold"])
    assert "not allowed with" in capsys.readouterr().err
    assert errtype_main([*base, "--keep-gold-types"]) == 0
    assert "| SVA |" in out.read_text(encoding="utf-8")
    kept = out.read_text(encoding="utf-8")
    assert errtype_main([*base, "--edit-gold", "m2"]) == 0
    assert out.read_text(encoding="utf-8") == kept  # the same option, spelt as in score
    with pytest.raises(SystemExit):
        errtype_main([*base, "--edit-gold", "m2", "--retype-gold"])
    assert "not allowed with" in capsys.readouterr().err
    assert errtype_main(base) == 0
    text = out.read_text(encoding="utf-8")
    assert "| R:VERB:SVA |" in text and "| SVA |" not in text


@pytest.mark.slow
def test_batched_parsing_changes_nothing(en: Any, tmp_path: Path) -> None:
    """Re-typing with sentences parsed in batches (windows crossing block boundaries) writes
    exactly what errtype-m2 -gold writes parsing one sentence at a time (CoNLL-2014 slice)."""
    from itertools import islice

    from errtype.m2 import write_m2
    from errtype.retype import BatchParsed

    blocks = list(islice(read_m2(shared_path("conll14", "official-2014.combined.m2")), 80))
    gold = tmp_path / "gold.m2"
    write_m2(blocks, gold)
    m2_to_m2(en, gold, tmp_path / "plain.m2", mode="gold")
    m2_to_m2(BatchParsed(en, list(read_m2(gold)), window=7), gold, tmp_path / "batch.m2",
             mode="gold")
    plain = (tmp_path / "plain.m2").read_text(encoding="utf-8")
    assert plain == (tmp_path / "batch.m2").read_text(encoding="utf-8")
    assert plain.count("\nA ") > 200


def test_score_and_report_share_one_default(en: Any, files: dict[str, Path], tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """errtype score -m errant and errtype report re-type a foreign gold alike by default
    (the ERRANT numbers agree), both say so and where the re-typed gold is cached; --edit-gold
    m2 scores the gold as it is."""
    from errtype.cli.score import main as score_main

    base = ["-m", "errant", "cleme", "--ref", str(files["gold"]), "--hyp", f"sys={files['sys']}",
            "--tsv"]
    assert score_main(base) == 0
    out, err = capsys.readouterr()
    entry = next((tmp_path / "user-cache" / "retyped").iterdir())
    assert ("errtype score: note: gold edits re-typed by errtype's en annotator" in err
            and f"cached in {entry}" in err and "--edit-gold m2 scores the gold's own" in err)
    rows = {r.split("\t")[1]: r.split("\t") for r in out.splitlines()[1:]}
    assert "|gold:retype|" in rows["errant"][-1] and "|gold:retype|" in rows["cleme"][-1]
    report = build_report(load_input([files["gold"]], [("sys", files["sys"])], annotator=en),
                          ReportOptions(bootstrap=20, trials=20))
    assert float(rows["errant"][2]) == report.corpus["sys"]["errant_compare"]["f0.5"]
    assert score_main([*base, "--edit-gold", "m2"]) == 0
    out, err = capsys.readouterr()
    kept = {r.split("\t")[1]: r.split("\t") for r in out.splitlines()[1:]}
    assert "re-typed" not in err and "gold:" not in kept["errant"][-1]
    assert "|gold:m2|" in kept["cleme"][-1]
    out_file = tmp_path / "r.md"
    assert errtype_main(["report", "--ref", str(files["gold"]), "--hyp", f"sys={files['sys']}",
                         "-o", str(out_file), "--format", "md", "--bootstrap", "20",
                         "--trials", "20"]) == 0
    err = capsys.readouterr().err
    assert f"read from the cache {entry}" in err and "--edit-gold m2 scores" in err
    assert f"errtype report: wrote {out_file} (Markdown tables: 1 system, 3 sentences" in err
