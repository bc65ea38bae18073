"""The aligner's fast paths are exact: same matrices as the plain ERRANT walk."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from errtype.align import align
from errtype.lang.en import English
from errtype.tokens import Sentence, Token


class PlainEnglish(English):
    """English without the fast paths: per-cell costs and the diagonal walk of ERRANT."""

    def substitution_matrix(self, orig: Sentence, cor: Sentence) -> None:
        return None

    def transposition_keys(self, sent: Sentence) -> None:
        return None


class CountingEnglish(English):
    calls = 0

    def transposable(self, o: Sequence[Token], c: Sequence[Token]) -> bool:
        CountingEnglish.calls += 1
        return super().transposable(o, c)


FAST, PLAIN = English(), PlainEnglish()
words = st.sampled_from(["a", "b", "c", "A", "B", "d", "ab", "ba", "the", "The"])
poses = st.sampled_from(["NOUN", "VERB", "DET", "ADJ", "AUX", "PUNCT"])


@st.composite
def sentences(draw: st.DrawFn, max_len: int = 12) -> Sentence:
    n = draw(st.integers(0, max_len))
    return Sentence([Token(draw(words), draw(st.sampled_from(["x", "y", "a"])), draw(poses))
                     for _ in range(n)])


@settings(max_examples=400, deadline=None)
@given(sentences(), sentences())
def test_fast_paths_equal_plain_walk(orig: Sentence, cor: Sentence) -> None:
    fast, plain = align(orig, cor, FAST), align(orig, cor, PLAIN)
    assert fast.op_matrix == plain.op_matrix
    assert fast.cost_matrix == plain.cost_matrix
    assert fast.align_seq == plain.align_seq


@settings(max_examples=50, deadline=None)
@given(sentences(max_len=40), sentences(max_len=40))
def test_fast_paths_equal_plain_walk_long(orig: Sentence, cor: Sentence) -> None:
    assert align(orig, cor, FAST).op_matrix == align(orig, cor, PLAIN).op_matrix


def test_transpositions_found() -> None:
    o = Sentence.from_words("I the want pizza .".split())
    c = Sentence.from_words("I want the pizza .".split())
    assert [a.op for a in align(o, c, FAST).align_seq] == ["M", "T2", "M", "M"]


def test_unrelated_long_pair_never_walks() -> None:
    """No diagonal walk (hence O(n*m)) on 400 vs 400 unrelated tokens."""
    lang = CountingEnglish()
    o = Sentence([Token(f"o{i % 97}", pos="NOUN") for i in range(400)])
    c = Sentence([Token(f"c{i % 89}", pos="VERB") for i in range(400)])
    al = align(o, c, lang)
    assert CountingEnglish.calls == 0
    assert len(al.align_seq) >= 400 and not any(a.op[0] == "T" for a in al.align_seq)
