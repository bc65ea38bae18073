"""Round trip: applying extracted edits to the original tokens gives the corrected tokens."""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from errtype.align import align
from errtype.edit import Edit
from errtype.lang import get_language
from errtype.merge import STRATEGIES, merge
from errtype.tokens import Sentence, Token

from .conftest import shared_path

EN = get_language("en")
WORDS = ["the", "The", "a", "an", "cat", "cats", "dog", "'s", "is", "are", "was", "were", "go",
         "goes", "going", "to", "in", "on", ",", ".", "-", "sub", "way", "subway", "can", "not",
         "cannot", "n't", "do", "does", "more", "free", "freer", "colour", "color", "it", "It"]
TAGS = [("DT", "DET"), ("NN", "NOUN"), ("NNS", "NOUN"), ("POS", "PART"), ("VBZ", "AUX"),
        ("VBP", "VERB"), ("VBD", "VERB"), ("VBG", "VERB"), ("TO", "PART"), ("IN", "ADP"),
        (",", "PUNCT"), (".", "PUNCT"), ("JJ", "ADJ"), ("JJR", "ADJ"), ("RB", "ADV"),
        ("PRP", "PRON"), ("MD", "AUX"), ("CD", "NUM"), ("UH", "INTJ"), ("XX", "X")]
DEPS = ["det", "nsubj", "aux", "auxpass", "ROOT", "prep", "pobj", "punct", "amod", "advmod",
        "dobj", "poss", "prt", "case"]


@st.composite
def sentences(draw: st.DrawFn) -> Sentence:
    n = draw(st.integers(0, 9))
    toks = []
    for _ in range(n):
        word = draw(st.sampled_from(WORDS))
        tag, pos = draw(st.sampled_from(TAGS))
        lemma = draw(st.sampled_from([word.lower(), word.lower().rstrip("s"), "be"]))
        toks.append(Token(word, lemma, pos, tag, draw(st.sampled_from(DEPS)),
                          draw(st.integers(0, max(n - 1, 0)))))
    return Sentence(toks)


def check_roundtrip(orig: Sentence, cor: Sentence, spans: list[tuple[int, int, int, int]]) -> None:
    out = list(orig.texts)
    shift = 0
    last_end = -1
    for o_s, o_e, c_s, c_e in sorted(spans):
        assert o_s >= last_end, "edits overlap"
        assert c_s == o_s + shift, "corrected offsets inconsistent with original offsets"
        out[o_s + shift:o_e + shift] = cor.texts[c_s:c_e]
        shift += (c_e - c_s) - (o_e - o_s)
        last_end = o_e
    assert out == list(cor.texts)


@settings(max_examples=300, deadline=None)
@given(sentences(), sentences(), st.booleans(), st.sampled_from(STRATEGIES))
def test_roundtrip_generated(orig: Sentence, cor: Sentence, lev: bool, strategy: str) -> None:
    al = align(orig, cor, EN, lev)
    spans = merge(al.align_seq, orig, cor, EN, strategy)
    check_roundtrip(orig, cor, spans)
    for s in spans:  # every edit can be typed
        e = Edit.from_spans(orig, cor, *s)
        assert EN.classify(e, orig, cor)


@functools.cache
def _annotator():  # noqa: ANN202
    import errtype

    return errtype.load("en")


def _pairs_from(*parts: str, refs: tuple[str, ...]) -> list[tuple[str, str]]:
    folder = shared_path(*parts)
    src = (folder / refs[0]).read_text(encoding="utf-8").splitlines()
    pairs = []
    for ref in refs[1:]:
        cor = (folder / ref).read_text(encoding="utf-8").splitlines()
        pairs += list(zip(src, cor, strict=False))
    return pairs


SHARED_SETS = {
    "en_oracles": (("oracles", "en_oracles"), ("orig.txt", "cor.txt")),
    "en_demo": (("oracles", "en_demo"), ("orig.txt", "cor1.txt", "cor2.txt")),
    "en_quirks": (("oracles", "en_quirks"), ("orig.txt", "cor1.txt", "cor2.txt")),
    "jfleg_dev": (("jfleg",), ("dev.src", "dev.ref0", "dev.ref1", "dev.ref2", "dev.ref3")),
}


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n == "jfleg_dev"
                                  else n for n in SHARED_SETS])  # jfleg_dev: a whole corpus
@pytest.mark.parametrize("tokenize", [False, True], ids=["pretok", "tok"])
def test_roundtrip_shared_english(name: str, tokenize: bool) -> None:
    parts, files = SHARED_SETS[name]
    pairs = _pairs_from(*parts, refs=files)
    if tokenize and name == "jfleg_dev":
        pairs = pairs[:800]
    ann = _annotator()
    texts = [t for pair in pairs for t in pair]
    parsed = list(ann.parser.parse_many(texts, tokenize))
    checked = 0
    for k in range(0, len(parsed), 2):
        orig, cor = parsed[k], parsed[k + 1]
        for lev in (False, True):
            al = align(orig, cor, EN, lev)
            for strategy in STRATEGIES:
                check_roundtrip(orig, cor, merge(al.align_seq, orig, cor, EN, strategy))
                checked += 1
    assert checked == 8 * len(pairs) > 0
