"""Long pairs: anchors, the block-by-block alignment, its bounds, its equality with the full DP."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import errtype.align
from errtype.align import BLOCK_CELLS, LONG_PAIR_CELLS, AlignOp, _anchored, align
from errtype.anchors import anchors, plan
from errtype.lang.en import English
from errtype.tokens import Sentence, Token

from .conftest import bench_module, peer, shared_path

EN = English()
POS = ("NOUN", "VERB", "DET", "ADJ", "ADP", "PUNCT")
#: the stressed setting of bench/bench_align.py: 1-token anchors and margins
STRESS = {"first_k": 1, "refine_ks": (1,), "margin": 1}


def tok(word: str) -> Token:
    return Token(word, word[:2], POS[sum(map(ord, word)) % len(POS)])


def edited(rng: random.Random, n: int, vocab: int, rate: float) -> tuple[Sentence, Sentence]:
    """A random text and a copy with substitutions, insertions, deletions, swaps and moved
    3-token blocks (``rate`` edits per token)."""
    orig = [tok(f"w{rng.randrange(vocab)}") for _ in range(n)]
    cor = list(orig)
    for _ in range(int(n * rate)):
        at, what, new = rng.randrange(len(cor) + 1), rng.random(), tok(f"w{rng.randrange(vocab)}")
        if what < 0.3 and at < len(cor):
            cor[at] = new
        elif what < 0.5 and at < len(cor):
            del cor[at]
        elif what < 0.7:
            cor.insert(at, new)
        elif what < 0.85 and at + 1 < len(cor):
            cor[at], cor[at + 1] = cor[at + 1], cor[at]
        elif at + 4 < len(cor):
            block = cor[at:at + 3]
            del cor[at:at + 3]
            where = rng.randrange(len(cor) + 1)
            cor[where:where] = block
    return Sentence(orig), Sentence(cor)


def path_cost(seq: Sequence[AlignOp], orig: Sentence, cor: Sentence, lev: bool) -> float:
    """The cost of an operation sequence, added up in order as the DP adds it; also checks that
    it is a valid alignment of the whole pair."""
    i = j = 0
    cost = 0.0
    for a in seq:
        assert (a.o_start, a.c_start) == (i, j)
        o, c = orig[a.o_start:a.o_end], cor[a.c_start:a.c_end]
        if a.op == "M":
            assert len(o) == len(c) == 1 and o[0].text == c[0].text
        elif a.op == "S":
            assert len(o) == len(c) == 1 and o[0].text != c[0].text
            cost += 1 if lev else EN.substitution_cost(o[0], c[0])
        elif a.op in ("I", "D"):
            assert len(o) + len(c) == 1
            cost += 1
        else:
            k = int(a.op[1:])
            assert not lev and len(o) == len(c) == k and EN.transposable(o, c)
            cost += k - 1
        i, j = a.o_end, a.c_end
    assert (i, j) == (len(orig), len(cor))
    return cost


# --- anchors ----------------------------------------------------------------------------------


def test_anchors_are_maximal_unique_runs_in_order() -> None:
    o = "a b c d e f g h x y z a b c d e f g h q r s t u v w".split()
    c = "a b c d e f g h X y z q r s t u v w".split()
    # "a..h" occurs twice in o: its k-grams are not unique there; "q..w" is
    assert anchors(o, c, 4) == [(19, 11, 7)]
    assert anchors(o[:8] + o[19:], c, 4) == [(0, 0, 8), (8, 11, 7)]


def test_anchor_grows_to_its_maximal_run_without_crossing_the_previous() -> None:
    o = "p q r s t u v w x".split()
    c = "p q r s t u v w x".split()
    assert anchors(o, c, 3) == [(0, 0, 9)]
    assert anchors(o, list(reversed(c)), 3) == []


def test_anchors_far_from_every_neighbour_are_chance() -> None:
    """Consecutive anchors of related texts lie on nearby diagonals; a short anchor whose
    neighbours are all far off (a chance match between unrelated stretches) is not used."""
    shared = [f"s{i}" for i in range(20)]
    o = [*shared[:10], *(f"o{i}" for i in range(40)), "x1", "x2", "x3", "x4", *shared[10:]]
    c = [*shared[:10], "x1", "x2", "x3", "x4", *(f"c{i}" for i in range(90)), *shared[10:]]
    assert [a[2] for a in anchors(o, c, 4)] == [10, 10]  # x1..x4 (diagonal -40) is dropped
    assert anchors(o[10:-10], c[10:-10], 4) == [(40, 0, 4)]  # a lone anchor is kept
    r1, r2 = ["r1", "r2", "r3", "r4", "r5"], ["t1", "t2", "t3", "t4", "t5"]
    o = [*shared[:10], *(f"o{i}" for i in range(40)), *r1, "Q", *r2, *shared[10:]]
    c = [*shared[:10], *r1, "W", *r2, *(f"c{i}" for i in range(90)), *shared[10:]]
    # two short runs on one diagonal confirm each other
    assert [a[2] for a in anchors(o, c, 4)] == [10, 5, 5, 10]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from("abcde"), max_size=60), st.lists(st.sampled_from("abcde"),
                                                                 max_size=60),
       st.integers(1, 4))
def test_anchors_are_identical_increasing_runs(o: list[str], c: list[str], k: int) -> None:
    end_o = end_c = 0
    for p, q, n in anchors(o, c, k):
        assert n >= 1 and p >= end_o and q >= end_c
        assert o[p:p + n] == c[q:q + n]
        end_o, end_c = p + n, q + n


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from("ab,.;"), max_size=300), st.lists(st.sampled_from("ab,.;"),
                                                                  max_size=300),
       st.integers(1, 4), st.sampled_from([50, 400, 3000]))
def test_plan_bounds_every_block(o: list[str], c: list[str], margin: int, cells: int) -> None:
    """Every block the plan leaves (from an anchor's margin to the next stop) fits the budget,
    unless it is a single row or column pair that cannot be cut further."""
    stops = [*plan(o, c, cells, margin), (len(o), len(c), 0)]
    start = (0, 0, 0)
    for stop in stops:
        p, q, n = start
        w = min(n, margin)
        rows, cols = stop[0] - (p + n - w), stop[1] - (q + n - w)
        assert rows >= 0 and cols >= 0
        assert rows * cols <= max(cells, (w + 2) ** 2)
        start = stop


# --- the block-by-block alignment --------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_anchored_equals_full_dp_on_edited_texts(seed: int) -> None:
    """Random texts with every kind of edit, default and 3-token anchors: the alignment of the
    full DP (regression pin: 0 differences on these seeds; random texts are harder than real
    ones, where even 1-token anchors give none: bench/bench_align.py, the slow tests below)."""
    rng = random.Random(seed)
    for _ in range(15):
        orig, cor = edited(rng, rng.randrange(20, 250), rng.choice([20, 200, 2000]),
                           rng.choice([0.02, 0.1, 0.3]))
        for lev in (False, True):
            full = align(orig, cor, EN, lev, max_full_cells=None)
            for opts in ({}, {"first_k": 3, "refine_ks": (3,), "margin": 2}):
                seq, cost, _ = _anchored(orig, cor, EN, lev, **opts)
                assert (seq, cost) == (full.align_seq, full.cost)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(0, 300), st.sampled_from([3, 12, 300]),
       st.sampled_from([0.0, 0.1, 0.5, 1.0]), st.sampled_from([60, 500, 5000]), st.booleans())
def test_anchored_is_always_a_valid_alignment_with_its_cost(
        seed: int, n: int, vocab: int, rate: float, cells: int, lev: bool) -> None:
    """Whatever the input (repetitive, unrelated, blocks cut by a tiny budget): the operations
    cover both texts in order, M only on identical tokens, and ``cost`` is their cost."""
    orig, cor = edited(random.Random(seed), n, vocab, rate)
    seq, cost, _ = _anchored(orig, cor, EN, lev, block_cells=cells, **STRESS)
    assert path_cost(seq, orig, cor, lev) == cost


def test_short_pairs_take_the_full_dp() -> None:
    orig, cor = edited(random.Random(1), 400, 500, 0.1)
    assert len(orig) * len(cor) <= LONG_PAIR_CELLS
    al = align(orig, cor, EN)
    assert al.blocks == 1 and al.op_matrix  # the table is kept
    long_o, long_c = edited(random.Random(2), 1000, 500, 0.1)
    long_al = align(long_o, long_c, EN)
    assert long_al.blocks > 1
    assert long_al.align_seq == align(long_o, long_c, EN, max_full_cells=None).align_seq


def _record_blocks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Patch the DP so that the cells of every table it fills are recorded."""
    cells: list[int] = []
    fill = errtype.align._fill

    def recording(orig: Sentence, cor: Sentence, *args: object) -> object:
        cells.append((len(orig) + 1) * (len(cor) + 1))
        return fill(orig, cor, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(errtype.align, "_fill", recording)
    return cells


def test_twenty_thousand_tokens_in_bounded_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 20,000-token edited text: no DP table above the block budget, and in all a few times
    the length in cells (linear), not its square."""
    cells = _record_blocks(monkeypatch)
    orig, cor = edited(random.Random(7), 20_000, 5_000, 0.1)
    al = align(orig, cor, EN)
    assert max(cells) <= BLOCK_CELLS
    assert sum(cells) < 200 * len(orig)  # measured ~40x (regression pin); the full DP is 20,000x
    assert path_cost(al.align_seq, orig, cor, False) == al.cost


def test_unrelated_pair_is_cut_into_bounded_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """No anchors at all: the pair is cut along its diagonal into blocks within the budget."""
    cells = _record_blocks(monkeypatch)
    orig = Sentence([tok(f"o{i % 97}") for i in range(1_500)])
    cor = Sentence([tok(f"c{i % 89}") for i in range(1_500)])
    seq, cost, blocks = _anchored(orig, cor, EN, False, block_cells=40_000)
    assert blocks == len(cells) > 1 and max(cells) <= 40_000 * 1.1
    assert path_cost(seq, orig, cor, False) == cost


def test_an_anchor_the_best_path_avoids_is_dropped() -> None:
    """JFLEG dev: the correction's "your skin will be as soft as the" occurs once in each text,
    but the best alignment matches it to the original's first, misspelt occurrence ("your skin
    wil be as soft as a") and deletes the second: the block that reaches back over the anchor
    sees that and drops it (with ``lookback=0`` the anchor is kept and the result differs)."""
    o = ("because they say your skin wil be as soft as a fifteen years old princess , or that "
         "your skin will be as soft as the Jennife Lopez 's skin .").split()
    c = ("because your skin will be as soft as the skin of a fifteen-year-old princess or "
         "Jennifer Lopez .").split()
    orig, cor = Sentence([tok(w) for w in o]), Sentence([tok(w) for w in c])
    full = align(orig, cor, EN, max_full_cells=None)
    assert plan(o, c, BLOCK_CELLS, 2, first_k=4) == [(o.index("your", 5), 1, 8)]
    kept = _anchored(orig, cor, EN, False, lookback=0, first_k=4, margin=2)[0]
    assert kept != full.align_seq
    assert _anchored(orig, cor, EN, False, first_k=4, margin=2)[0] == full.align_seq


# --- real corpora (bench/bench_align.py) ------------------------------------------------------


def _bench():
    return bench_module("bench_align")


@pytest.mark.slow
@pytest.mark.parametrize("corpus", [
    "CoNLL-2014 source x systems", "CoNLL-2014 source x gold", "CoNLL-2014 systems x gold",
    "JFLEG dev x references", "GECCC dev sentences", "GECCC dev paragraphs", "EstGEC dev",
    "UA-GEC dev"])
def test_long_pair_path_equals_full_dp_on_every_shared_corpus(corpus: str) -> None:
    """The long-pair path forced on every pair of every shared corpus, linguistic and
    Levenshtein: the full DP's alignment, every time (bench/bench_align.py also reports the
    stressed setting of 1-token anchors: 1 difference in ~100,000 comparisons)."""
    data = shared_path()
    lang, options, load = _bench().corpora(data)[corpus]
    if lang == "cs":
        peer("cs_core_news_sm", "the default Czech backend: pip install 'errtype[cs]'")
    if "udpipe_model" in options:
        peer("ufal.udpipe", "pip install 'errtype[ud]'")
        if not (data.parent / "models").is_dir():
            pytest.skip("stand-in UDPipe models not available")
    ann, sents = _bench().parsed_pairs(lang, options, load())
    # the bench compares every paragraph; here one in five (the Czech full DP is the slow part)
    sents = sents[::5] if corpus == "GECCC dev paragraphs" else sents
    res = _bench().compare(ann.language, sents, {"default": {}})
    assert all(r["pairs"] == len(sents) > 500 for r in res.values())
    assert all(r["split"] > 0 for r in res.values())
    assert {k: r["differ"] for k, r in res.items()} == dict.fromkeys(res, 0)


@pytest.mark.slow
def test_long_documents_equal_the_full_dp() -> None:
    """The GECCC dev documents (paragraphs joined) that take the long-pair path by default
    (more than 250,000 DP cells, i.e. ~500 tokens and more): align() gives the full DP's
    alignment. bench/bench_align.py documents forces the path on all 1,543 documents."""
    peer("cs_core_news_sm", "the default Czech backend: pip install 'errtype[cs]'")
    bench = _bench()
    docs = bench.geccc_documents(shared_path())
    long_docs = [(o, c) for o, c in docs if len(o.split()) * len(c.split()) > LONG_PAIR_CELLS]
    ann, sents = bench.parsed_pairs("cs", {"backend": "spacy"}, long_docs)
    assert max(len(o) for o, _ in sents) > 800
    split = 0
    for o, c in sents:
        fast = align(o, c, ann.language)
        split += fast.blocks > 1  # a long common suffix can bring a pair under the threshold
        full = align(o, c, ann.language, max_full_cells=None)
        assert (fast.align_seq, fast.cost) == (full.align_seq, full.cost)
    assert (len(sents), split) == (13, 9)  # regression pin: 13 long documents, 9 split


@pytest.mark.slow
def test_three_thousand_tokens_of_system_output_equal_the_full_dp() -> None:
    """CoNLL-2014: the source vs each system's output, concatenated to ~3,000 tokens, parsed by
    spaCy: the default path of align() (anchored) gives the full DP's alignment."""
    import errtype

    data = shared_path("conll14", "systems")
    ann = errtype.load("en")
    src = (data / "INPUT").read_text(encoding="utf-8").splitlines()[:130]
    orig = Sentence([t for s in ann.parser.parse_many(src) for t in s])
    assert len(orig) > 2500
    for system in ("AMU", "CAMB", "CUUI"):
        hyp = (data / system).read_text(encoding="utf-8").splitlines()[:130]
        cor = Sentence([t for s in ann.parser.parse_many(hyp) for t in s])
        fast = align(orig, cor, ann.language)
        assert fast.blocks > 10
        full = align(orig, cor, ann.language, max_full_cells=None)
        assert (fast.align_seq, fast.cost) == (full.align_seq, full.cost)


def test_repetitive_text_is_cut_on_its_identical_runs() -> None:
    """A paragraph pasted many times has no unique k-gram, so no anchor: its blocks were cut
    along the straight diagonal, off the best path by the net insertions so far, and a cut
    forced a spurious deletion and insertion (Japanese: an M:/U: pair every ~800 tokens). The
    cuts now sit on nearby identical runs: the full DP's alignment, block by block."""
    rng = random.Random(3)
    unit = [f"w{rng.randrange(40)}" for _ in range(60)]
    o_words, c_words = [], []
    for k in range(12):  # the first copies get insertions: the path leaves the diagonal
        o_words += unit
        c_words += unit[:10] + ["new"] * (4 if k < 6 else 0) + unit[10:30] + ["x"] + unit[31:]
    orig, cor = Sentence([tok(w) for w in o_words]), Sentence([tok(w) for w in c_words])
    full = align(orig, cor, EN, max_full_cells=None)
    seq, cost, blocks = _anchored(orig, cor, EN, False, block_cells=40_000)
    assert blocks > 1 and not anchors(o_words, c_words, 64)
    assert (seq, cost) == (full.align_seq, full.cost)
    assert [op.op for op in seq].count("I") == 24  # the insertions, none at the cuts


def test_a_cut_is_kept_only_where_the_path_goes_through_it() -> None:
    """A cut (a zero-length anchor) has no match cell: the path passing the cell diagonally
    after it does not touch it (was kept, and the path then split at a point it never visits:
    StopIteration). Repetitive text with a tiny budget puts cuts next to identical runs."""
    orig, cor = edited(random.Random(1), 162, 3, 0.1)
    seq, cost, _ = _anchored(orig, cor, EN, False, block_cells=60, **STRESS)
    assert path_cost(seq, orig, cor, False) == cost
