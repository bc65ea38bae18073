"""The UDPipe backend for real: a tiny model trained here, loaded through the production code."""

from __future__ import annotations

from pathlib import Path

import pytest

import errtype
from errtype.errors import ResourceError
from errtype.lang.cs import UDPIPE_ENV, Czech
from errtype.parse.udpipe import UDPipeParser


def test_load_with_udpipe_model_option(tiny_udpipe_model: Path) -> None:
    ann = errtype.load("cs", udpipe_model=str(tiny_udpipe_model))
    assert isinstance(ann.parser, UDPipeParser)
    orig = ann.parse("Bydlim v Praze .")
    assert orig.texts == ("Bydlim", "v", "Praze", ".")
    assert all(t.pos for t in orig) and all(t.lemma for t in orig)
    assert sum(t.dep == "ROOT" for t in orig) == 1
    root = next(i for i, t in enumerate(orig) if t.dep == "ROOT")
    assert orig[root].head == root
    assert all(0 <= t.head < len(orig) for t in orig)
    edits = ann.annotate("Bydlim v Praze .", "Bydlím v Praze .")
    assert [(e.o_start, e.o_end, e.c_str, e.type) for e in edits] == [(0, 1, "Bydlím", "R:DIACR")]


def test_annotate_czech_pairs(tiny_udpipe_model: Path) -> None:
    ann = errtype.load("cs", udpipe_model=tiny_udpipe_model)
    edits = ann.annotate("Jak mas se dneska", "Jak se dneska máš ?")
    assert [(e.o_start, e.o_end, e.c_str, e.type) for e in edits] == [
        (1, 4, "se dneska máš", "R:WO:SPELL"), (4, 4, "?", "M:PUNCT")]
    edits = ann.annotate("Zeptal se ho co má za předměty .", "Zeptal se ho , co má za předměty .")
    assert [(e.o_start, e.o_end, e.c_str, e.type) for e in edits] == [(3, 3, ",", "M:PUNCT")]


def test_environment_variable(tiny_udpipe_model: Path, monkeypatch: pytest.MonkeyPatch,
                              tmp_path: Path) -> None:
    monkeypatch.setenv("ERRTYPE_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv(UDPIPE_ENV, str(tiny_udpipe_model))
    parser = Czech().make_parser()
    assert isinstance(parser, UDPipeParser)
    assert parser.path == str(tiny_udpipe_model)


def test_horizontal_input_keeps_tokens(tiny_udpipe_model: Path) -> None:
    parser = UDPipeParser(tiny_udpipe_model)
    # runs of spaces/tabs separate words; a NO-BREAK SPACE stays inside its word (as a space)
    s = parser.parse("Bydlím  v\tPraze\u00a0hned .")
    assert s.texts == ("Bydlím", "v", "Praze hned", ".")
    assert [t.ws for t in s] == [" ", " ", " ", ""]
    assert parser.parse("").texts == ()
    assert [x.texts for x in parser.parse_many(["v Praze", "Bydlím"])] == [("v", "Praze"),
                                                                         ("Bydlím",)]


def test_tokenize_mode(tiny_udpipe_model: Path) -> None:
    parser = UDPipeParser(tiny_udpipe_model)
    s = parser.parse("Bydlím v Praze. Jak se dneska máš?", tokenize=True)
    assert s.texts == ("Bydlím", "v", "Praze", ".", "Jak", "se", "dneska", "máš", "?")
    assert s[2].ws == ""  # SpaceAfter=No before the full stop
    assert sum(t.dep == "ROOT" for t in s) == 2  # two sentences, one Sentence
    assert all(0 <= t.head < len(s) for t in s)


def test_missing_or_bad_model(tmp_path: Path) -> None:
    with pytest.raises(ResourceError, match="not found"):
        errtype.load("cs", udpipe_model=tmp_path / "nope.udpipe")
    bad = tmp_path / "bad.udpipe"
    bad.write_bytes(b"not a model")
    with pytest.raises(ResourceError, match="cannot load"):
        UDPipeParser(bad)


def test_backend_udpipe_without_model(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(UDPIPE_ENV, raising=False)
    monkeypatch.setenv("ERRTYPE_CACHE_DIR", str(tmp_path))
    with pytest.raises(ResourceError, match="no UDPipe model"):
        Czech().make_parser(backend="udpipe")
