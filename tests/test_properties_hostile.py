"""Property-based tests (hypothesis) over random Unicode text pairs, English and Czech (issue 6):
no crash; one M2 block per input line; applying the edits reproduces the correction; M2
write -> read -> write is byte-identical."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import errtype
from errtype.convert import parallel_to_m2
from errtype.m2 import M2Block, M2Edit, read_m2

from .conftest import apply_m2, peer

# Words: real words (so that edits get typed like real ones) or arbitrary Unicode without
# whitespace or surrogates: controls, zero-width and format characters, non-BMP, any script.
_CHARS = st.characters(blacklist_categories=("Cs",), blacklist_characters="\n")
_RANDOM_WORD = st.text(_CHARS, min_size=1, max_size=8).map(lambda w: "".join(w.split())).filter(
    bool)
_EN_WORDS = st.sampled_from("the a an cat cats go goes went is are . , ! ? ' 's n't | - "
                            "house houses quickly quick He She They".split())
_CS_WORDS = st.sampled_from("bydlím bydlim v Praze praze je jsou byl byla pes psi kočka , . ! "
                            "ten ta to se si já ty on ona".split())
_SPACE = st.sampled_from([" ", " ", " ", "  ", "\t", "\u00a0", "\u2028", "\x0c", "\x1f", "\r"])


def _line(words: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    tokens = st.lists(st.one_of(words, words, _RANDOM_WORD), max_size=12)
    return st.tuples(tokens, st.lists(_SPACE, min_size=13, max_size=13)).map(
        lambda tw: "".join(t + s for t, s in zip(tw[0], tw[1], strict=False)))


def _pairs(words: st.SearchStrategy[str]) -> st.SearchStrategy[list[tuple[str, str]]]:
    pair = _line(words).flatmap(lambda o: st.tuples(st.just(o), st.one_of(
        st.just(o), _line(words),
        st.lists(st.sampled_from(o.split() or ["x"]), max_size=14).map(" ".join))))
    return st.lists(pair, min_size=1, max_size=6)


_ANNOTATORS: dict[str, errtype.Annotator] = {}


def annotator(lang: str) -> errtype.Annotator:
    if lang not in _ANNOTATORS:
        _ANNOTATORS[lang] = errtype.load(lang)
    return _ANNOTATORS[lang]


def check_pairs(lang: str, pairs: list[tuple[str, str]]) -> None:
    # M2 cannot express a correction with '||' (alternatives) or an edit that is '-NONE-'
    # (a deletion): errtype-m2 refuses those (tests/test_faults_m2.py)
    assume(all("||" not in c and "-NONE-" not in c.split() for _, c in pairs))
    ann = annotator(lang)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        orig, cor, out = folder / "o.txt", folder / "c.txt", folder / "out.m2"
        orig.write_bytes("".join(o + "\n" for o, _ in pairs).encode("utf-8"))
        cor.write_bytes("".join(c + "\r\n" for _, c in pairs).encode("utf-8"))
        report = parallel_to_m2(ann, orig, [cor], out, batch_size=4)
        assert report.blocks == len(pairs) and not report.skipped
        text = out.read_text(encoding="utf-8")
        blocks = list(read_m2(out))
        assert len(blocks) == len(pairs)
        for (o, c), block in zip(pairs, blocks, strict=True):
            assert block.tokens == o.split()
            assert block.annotators() == [0]
            assert apply_m2(block.tokens, block.edits) == c.split()
            if o.split() == c.split():
                assert [e.is_noop for e in block.edits] == [True]
        assert "".join(b.to_m2() for b in blocks) == text  # write -> read -> write
    for o, c in pairs:  # the API gives the same edits
        edits = ann.annotate(o, c)
        assert apply_m2(o.split(), [M2Edit(e.o_start, e.o_end, e.type, e.c_str) for e in edits]) \
            == c.split()


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_pairs(_EN_WORDS))
def test_english_random_pairs(pairs: list[tuple[str, str]]) -> None:
    check_pairs("en", pairs)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_pairs(_CS_WORDS))
def test_czech_random_pairs(pairs: list[tuple[str, str]]) -> None:
    peer("cs_core_news_sm", "the cs extra")
    check_pairs("cs", pairs)


_FIELD = st.text(st.characters(blacklist_categories=("Cs", "Zs", "Zl", "Zp", "Cc")),
                 min_size=1, max_size=6).filter(lambda s: "|" not in s and s.split() == [s])
_COR = st.lists(st.text(_CHARS, min_size=1, max_size=5).filter(
    lambda s: s.split() == [s] and "|||" not in s), max_size=3).map(" ".join)


@st.composite
def _blocks(draw: st.DrawFn) -> list[M2Block]:
    out = []
    for _ in range(draw(st.integers(1, 4))):
        tokens = draw(st.lists(_COR.filter(bool).map(lambda s: s.split()[0]), max_size=8))
        edits = []
        for _ in range(draw(st.integers(0, 4))):
            if draw(st.integers(0, 5)) == 0:
                edits.append(M2Edit(-1, -1, "noop", "-NONE-", draw(st.integers(0, 3))))
                continue
            start = draw(st.integers(0, len(tokens)))
            end = draw(st.integers(start, len(tokens)))
            edits.append(M2Edit(start, end, draw(_FIELD), draw(_COR), draw(st.integers(0, 12)),
                                draw(st.sampled_from(["REQUIRED", "OPTIONAL"])), "-NONE-"))
        out.append(M2Block(" ".join(tokens), edits))
    return out


@settings(max_examples=300, deadline=None)
@given(_blocks(), st.sampled_from(["\n", "\r\n"]), st.booleans())
def test_m2_write_read_write_is_identical(blocks: list[M2Block], newline: str, bom: bool
                                          ) -> None:
    text = "".join(b.to_m2() for b in blocks)
    data = ("\ufeff" if bom else "") + text.replace("\n", newline)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "x.m2"
        path.write_bytes(data.encode("utf-8"))
        again = list(read_m2(path))
        out = Path(tmp) / "y.m2"
        errtype.write_m2(again, out)
        assert out.read_bytes() == text.encode("utf-8")
    assert [(b.source, b.edits) for b in again] == [(b.source, b.edits) for b in blocks]
