"""The aligner's fast paths are exact: same matrices as the plain ERRANT walk."""

from __future__ import annotations

from collections.abc import Sequence
from math import inf

import pytest
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


def reference(orig: Sentence, cor: Sentence, lang: English, lev: bool = False
              ) -> tuple[list[list[float]], list[list[str]]]:
    """ERRANT's DP written out literally (spec section 3): every cell, the plain diagonal walk,
    candidates [T, S, I, D] with the first minimum winning. Costs and tests from ``lang``."""
    n, m = len(orig), len(cor)
    cost = [[0.0] * (m + 1) for _ in range(n + 1)]
    ops = [["O"] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        cost[i][0], ops[i][0] = cost[i - 1][0] + 1, "D"
    for j in range(1, m + 1):
        cost[0][j], ops[0][j] = cost[0][j - 1] + 1, "I"
    for i in range(n):
        for j in range(m):
            if orig[i].text == cor[j].text:
                cost[i + 1][j + 1], ops[i + 1][j + 1] = cost[i][j], "M"
                continue
            trans, k = inf, 1
            if lev:
                sub = cost[i][j] + 1
            else:
                sub = cost[i][j] + lang.substitution_cost(orig[i], cor[j])
                while i - k >= 0 and j - k >= 0:
                    step = cost[i - k + 1][j - k + 1] - cost[i - k][j - k]
                    if (step <= 0) if lang.strict_walk else (step == 0):
                        break
                    if lang.transposable(orig[i - k:i + 1], cor[j - k:j + 1]):
                        trans = cost[i - k][j - k] + k
                        break
                    k += 1
            options = [trans, sub, cost[i + 1][j] + 1, cost[i][j + 1] + 1]
            best = options.index(min(options))
            cost[i + 1][j + 1] = options[best]
            ops[i + 1][j + 1] = [f"T{k + 1}", "S", "I", "D"][best]
    return cost, ops


def reference_seq(ops: list[list[str]]) -> list[tuple]:
    """The single back-trace from the bottom-right cell (spec 3.4)."""
    i, j = len(ops) - 1, len(ops[0]) - 1
    seq: list[tuple] = []
    while i + j:
        op = ops[i][j]
        k = int(op[1:]) if op[0] == "T" else 1
        di, dj = {"M": (1, 1), "S": (1, 1), "D": (1, 0), "I": (0, 1)}.get(op, (k, k))
        seq.append((op, i - di, i, j - dj, j))
        i, j = i - di, j - dj
    return seq[::-1]


def assert_reference(orig: Sentence, cor: Sentence, lang: English, lev: bool = False) -> None:
    """align() equals the literal DP: full matrices, back-trace and total cost."""
    al = align(orig, cor, lang, lev)
    cost, ops = reference(orig, cor, PLAIN if lang is FAST else lang, lev)
    assert [tuple(a) for a in al.align_seq] == reference_seq(ops)
    assert al.cost == cost[-1][-1]
    assert (al.cost_matrix, al.op_matrix) == (cost, ops)


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
    assert_reference(orig, cor, FAST)


@settings(max_examples=150, deadline=None)
@given(sentences(), sentences())
def test_levenshtein_equals_reference(orig: Sentence, cor: Sentence) -> None:
    assert_reference(orig, cor, FAST, lev=True)


@settings(max_examples=50, deadline=None)
@given(sentences(max_len=40), sentences(max_len=40))
def test_fast_paths_equal_plain_walk_long(orig: Sentence, cor: Sentence) -> None:
    assert align(orig, cor, FAST).op_matrix == align(orig, cor, PLAIN).op_matrix
    assert_reference(orig, cor, FAST)


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


class PlainCzech(__import__("errtype.lang.cs", fromlist=["Czech"]).Czech):
    def transposition_keys(self, sent: Sentence) -> None:
        return None


_CS_FAST: list = []


def _czech_pair() -> tuple:
    if not _CS_FAST:
        from errtype.lang.cs import Czech

        lexicon = lambda w: True  # noqa: E731 - no spelling lexicon needed for alignment
        _CS_FAST.append((Czech(is_valid_word=lexicon), PlainCzech(is_valid_word=lexicon)))
    return _CS_FAST[0]


cs_words = st.sampled_from(["mas", "máš", "se", "dneska", "byl", "bil", "Byl", "a", "i", "y"])


@st.composite
def czech_pairs(draw: st.DrawFn) -> tuple[Sentence, Sentence]:
    toks = draw(st.lists(cs_words, min_size=0, max_size=14))
    cor = list(toks)
    if len(cor) > 1:  # move a block so that long reorderings occur
        a = draw(st.integers(0, len(cor) - 1))
        b = draw(st.integers(a, len(cor)))
        block = cor[a:b]
        del cor[a:b]
        at = draw(st.integers(0, len(cor)))
        cor[at:at] = block
    cor += draw(st.lists(cs_words, max_size=2))

    def sent(words: list[str]) -> Sentence:
        return Sentence([Token(w, w.lower(), draw(poses)) for w in words])

    return sent(toks), sent(cor)


@settings(max_examples=300, deadline=None)
@given(czech_pairs())
def test_czech_fast_path_equals_plain_walk(pair: tuple[Sentence, Sentence]) -> None:
    fast_lang, plain_lang = _czech_pair()
    orig, cor = pair
    fast, plain = align(orig, cor, fast_lang), align(orig, cor, plain_lang)
    assert fast.op_matrix == plain.op_matrix
    assert fast.cost_matrix == plain.cost_matrix
    assert_reference(orig, cor, fast_lang)


@pytest.mark.parametrize("words,moved", [
    ("a b c d e f", "f e d c b a"),
    ("ab cd ef gh ij kl", "cd ef gh ij kl ab"),
    ("Ab cd ef gh ij kl", "kl cd ef gh ij ab"),
])
def test_czech_long_reorderings_equal_plain_walk(words: str, moved: str) -> None:
    fast_lang, plain_lang = _czech_pair()
    orig = Sentence([Token(w, w.lower(), "NOUN") for w in ["x", *words.split(), "y"]])
    cor = Sentence([Token(w, w.lower(), "NOUN") for w in ["x", *moved.split(), "y"]])
    fast, plain = align(orig, cor, fast_lang), align(orig, cor, plain_lang)
    assert fast.op_matrix == plain.op_matrix and fast.align_seq == plain.align_seq


def test_czech_unrelated_long_pair_walks_only_short_windows() -> None:
    """Bounded work: the fuzzy test runs only for windows of at most 5 tokens."""
    from errtype.lang.cs import Czech

    sizes: list[int] = []

    class Counting(Czech):
        def transposable(self, o: Sequence[Token], c: Sequence[Token]) -> bool:
            sizes.append(len(o))
            return super().transposable(o, c)

    lang = Counting(is_valid_word=lambda w: True)
    orig = Sentence([Token(f"o{i % 53}", f"o{i % 53}", "NOUN") for i in range(150)])
    cor = Sentence([Token(f"c{i % 47}", f"c{i % 47}", "VERB") for i in range(150)])
    align(orig, cor, lang)
    assert sizes and max(sizes) <= 5


class _TinyRandom:
    """Weights 1 or 2: fingerprints collide all the time, so every fallback path runs."""

    def __init__(self, seed: int) -> None:
        self.n = seed

    def getrandbits(self, bits: int) -> int:
        self.n += 1
        return 1 + self.n % 2


@settings(max_examples=150, deadline=None)
@given(sentences(max_len=16), sentences(max_len=16))
def test_fingerprint_collisions_fall_back_to_the_walk(orig: Sentence, cor: Sentence) -> None:
    import errtype.align

    saved = errtype.align._RNG
    errtype.align._RNG = _TinyRandom(0)  # type: ignore[assignment]
    try:
        fast = align(orig, cor, FAST)
    finally:
        errtype.align._RNG = saved
    assert (fast.cost_matrix, fast.op_matrix) == reference(orig, cor, PLAIN)
    assert [tuple(a) for a in fast.align_seq] == reference_seq(fast.op_matrix)


@st.composite
def edited_pairs(draw: st.DrawFn) -> tuple[Sentence, Sentence]:
    """A sentence and a lightly edited copy: long common prefixes and suffixes, as in GEC."""
    orig = draw(sentences(max_len=14))
    toks = list(orig.tokens)
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(toks)))
        what = draw(st.sampled_from(["ins", "del", "sub", "swap"]))
        new = Token(draw(words), draw(st.sampled_from(["x", "y", "a"])), draw(poses))
        if what == "ins" or not toks or at == len(toks):
            toks.insert(at, new)
        elif what == "del":
            del toks[at]
        elif what == "sub":
            toks[at] = new
        elif at + 1 < len(toks):
            toks[at], toks[at + 1] = toks[at + 1], toks[at]
    return orig, Sentence(toks)


@settings(max_examples=300, deadline=None)
@given(edited_pairs(), st.booleans())
def test_edited_pairs_equal_reference(pair: tuple[Sentence, Sentence], lev: bool) -> None:
    """The common suffix is skipped by the DP: the back-trace and matrices are still ERRANT's."""
    assert_reference(*pair, FAST, lev)
