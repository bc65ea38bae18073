"""Essays: sentence segmentation, sentence alignment and edits per aligned group
(:mod:`errtype.essay.realign`, :mod:`errtype.essay.segment`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest

import errtype
from errtype.essay import realign
from errtype.essay.realign import (
    Group,
    align_sentences,
    annotate_essay,
    annotate_essays,
    joint_units,
)
from errtype.essay.segment import segment_essay
from errtype.m2 import apply_edits, read_m2
from errtype.tokens import Sentence, join_sentences, split_sentence

from .conftest import SHARED, peer, shared_path


def words(*sentences: str) -> list[Sentence]:
    return [Sentence.from_words(s.split()) for s in sentences]


# --- generic segmentation ----------------------------------------------------------------------

def test_segment_generic_rule_unspaced() -> None:
    """A parser without sentence splitting of its own (Chinese characters): each line is
    tokenised, then cut by errtype.document.sentence_starts."""
    zh = errtype.load("zh")
    sents = segment_essay(zh, "今天天气好。明天下雨！「真的？」是的\n新行")
    assert [s.text for s in sents] == ["今 天 天 气 好 。", "明 天 下 雨 ！", "「 真 的 ？ 」",
                                       "是 的", "新 行"]
    ea = annotate_essay(zh, "今天天气好。明天下雨！", "今天天气很好，明天下雨！")
    assert ea.groups[0] == [Group(0, 2, 0, 1)]
    assert [(e.o_start, e.o_end, e.c_str) for e in ea.annotation().edits[0]] == [
        (4, 4, "很"), (5, 6, "，")]


def test_join_and_split_sentences_rebase_heads() -> None:
    from errtype.tokens import Token

    a = Sentence([Token("He", head=1, ws=" "), Token("left", head=1, ws="")])
    b = Sentence([Token("Then", head=1), Token("no", head=1, ws="")])
    joined = join_sentences([a, b])
    assert [t.head for t in joined] == [1, 1, 3, 3]
    assert joined.span_text(0, 4) == "He left Then no"  # a space where the tokenizer left none
    assert split_sentence(joined, [2]) == [Sentence([*a.tokens[:1], Token("left", head=1)]), b]


# --- sentence alignment ------------------------------------------------------------------------

def test_align_one_to_one_and_identical() -> None:
    o = words("He go to school .", "Then he sleep .", "It was late .")
    c = words("He goes to school .", "Then he sleeps .", "It was late .")
    assert align_sentences(o, c) == [Group(0, 1, 0, 1), Group(1, 2, 1, 2), Group(2, 3, 2, 3)]


def test_align_merge_split_insert_delete() -> None:
    o = words("He go to school .", "Then he sleep .", "It was late .", "Bye .")
    merged = words("He goes to school , then he sleeps .", "It was late .", "Bye .")
    assert align_sentences(o, merged)[0] == Group(0, 2, 0, 1)
    split = words("He goes .", "To school .", "Then he sleeps .", "It was late .", "Bye .")
    assert align_sentences(o, split)[0] == Group(0, 1, 0, 2)
    deleted = words("He goes to school .", "It was late .", "Bye .")
    assert align_sentences(o, deleted) == [Group(0, 1, 0, 1), Group(1, 2, 1, 1),
                                           Group(2, 3, 1, 2), Group(3, 4, 2, 3)]
    added = words("He goes to school .", "Then he sleeps .", "Zzz .", "It was late .", "Bye .")
    assert align_sentences(o, added)[2] == Group(2, 2, 2, 3)
    assert align_sentences([], []) == []
    assert align_sentences(o, []) == [Group(0, 4, 0, 0)]


def test_align_whole_essay_merged_into_one() -> None:
    o = words(*(f"Sentence number {k} is here ." for k in range(30)))
    one = words(" , ".join(f"sentence number {k} is here" for k in range(30)) + " .")
    assert align_sentences(o, one) == [Group(0, 30, 0, 1)]


def test_boundary_not_anchored_joins_groups() -> None:
    # the segmenters cut "3 :" | "Do" against "3" | ". Do": no token pair anchors the boundary
    o = words("Rules : 1 : Eat . 2 : Sleep . 3 :", "Do things . 4 : Rest .")
    c = words("Rules : 1 . Eat . 2 . Sleep . 3", ". Do things . 4 . Rest .")
    assert align_sentences(o, c) == [Group(0, 2, 0, 2)]


def test_alignment_work_is_linear(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    extend = realign._extend

    def counted(**kw: object) -> None:
        calls.append(1)
        extend(**kw)  # type: ignore[arg-type]

    monkeypatch.setattr(realign, "_extend", counted)
    sizes = []
    for n in (200, 800):
        o = words(*(f"w{k} x{k} y{k} z {k % 7} ." for k in range(n)))
        c = words(*(f"W{k} x{k} y{k} q {k % 7} ." for k in range(n)))
        calls.clear()
        assert len(align_sentences(o, c)) == n
        sizes.append(len(calls))
    assert sizes[1] <= 4 * sizes[0] * 1.1  # 4 times the sentences, at most ~4 times the work


# --- essays with an English pipeline -----------------------------------------------------------

@pytest.fixture(scope="module")
def en() -> errtype.Annotator:
    return errtype.load("en")


ESSAY = "He go to school. Then he sleep. It was late."


def edits_of(ann: errtype.Annotation, k: int = 0) -> list[tuple[int, int, str, str]]:
    return [(e.o_start, e.o_end, e.o_str, e.c_str) for e in ann.edits[k]]


def test_segment_essay_spacy(en: errtype.Annotator) -> None:
    sents = segment_essay(en, "He go to school. Then he sleep!\nNo stop here Next line")
    assert [s.text for s in sents] == ["He go to school .", "Then he sleep !",
                                       "No stop here Next line"]
    assert all(t.pos for s in sents for t in s)


def test_one_to_one_equals_sentence_annotation(en: errtype.Annotator) -> None:
    cor = "He goes to school. Then he sleeps. It was late."
    ea = annotate_essay(en, ESSAY, cor)
    assert ea.groups[0] == [Group(0, 1, 0, 1), Group(1, 2, 1, 2), Group(2, 3, 2, 3)]
    expected = []
    at_o = at_c = 0
    for o, c in zip(ea.orig, ea.cors[0], strict=True):  # type: ignore[arg-type]
        expected += [(e.o_start + at_o, e.o_end + at_o, e.c_start + at_c, e.c_end + at_c,
                      e.o_str, e.c_str, e.type) for e in en.annotate(o, c)]
        at_o, at_c = at_o + len(o), at_c + len(c)
    ann = ea.annotation()
    assert [(e.o_start, e.o_end, e.c_start, e.c_end, e.o_str, e.c_str, e.type)
            for e in ann.edits[0]] == expected
    assert len(expected) == 2
    assert ann.orig.text == "He go to school . Then he sleep . It was late ."


def test_merge_is_one_edit_at_the_boundary(en: errtype.Annotator) -> None:
    merged = "He goes to school, then he sleeps. It was late."
    ea = annotate_essay(en, ESSAY, merged)
    assert ea.groups[0] == [Group(0, 2, 0, 1), Group(2, 3, 1, 2)]
    assert edits_of(ea.annotation()) == [(1, 2, "go", "goes"), (4, 6, ". Then", ", then"),
                                         (7, 8, "sleep", "sleeps")]
    unmerged = annotate_essay(en, ESSAY, "He goes to school. Then he sleeps. It was late.")
    moved = Counter(edits_of(ea.annotation())) - Counter(edits_of(unmerged.annotation()))
    assert list(moved) == [(4, 6, ". Then", ", then")]  # nothing else moves
    # the join alone can be left out (a boundary edit), the other edits stay
    assert edits_of(ea.annotation(boundary_edits=False)) == edits_of(unmerged.annotation())
    # sentence level: one unit for the merged sentences, one for the last
    units = ea.units()
    assert [(u.o_start, u.o_end, u.cors) for u in units] == [(0, 2, [(0, 1)]), (2, 3, [(1, 2)])]
    assert [b.to_m2().splitlines()[0] for b in ea.m2_blocks()] == [
        "S He go to school . Then he sleep .", "S It was late ."]


def test_split_is_one_edit_at_the_boundary(en: errtype.Annotator) -> None:
    orig = "He go to school, then he sleep. It was late."
    ea = annotate_essay(en, orig, "He goes to school. Then he sleeps. It was late.")
    assert ea.groups[0][0] == Group(0, 1, 0, 2)
    assert edits_of(ea.annotation()) == [(1, 2, "go", "goes"), (4, 6, ", then", ". Then"),
                                         (7, 8, "sleep", "sleeps")]
    assert [e[2] for e in edits_of(ea.annotation(boundary_edits=False))] == ["go", "sleep"]
    # a changed word at the boundary is no mere join or split: only the "," -> "." goes
    other = annotate_essay(en, orig, "He goes to school. So he sleeps. It was late.")
    assert [e[2:] for e in edits_of(other.annotation())] == [
        ("go", "goes"), (",", "."), ("then", "So"), ("sleep", "sleeps")]
    assert [e[2] for e in edits_of(other.annotation(boundary_edits=False))] == [
        "go", "then", "sleep"]


def test_missing_and_several_corrections(en: errtype.Annotator) -> None:
    merged = "He goes to school, then he sleeps. It was late."
    plain = "He goes to school. Then he sleeps. It was late."
    ea = annotate_essay(en, ESSAY, [plain, None, merged])
    assert ea.present == [0, 2]
    assert ea.groups[1] is None
    block = ea.m2_block()
    assert block.annotators() == [0, 1]
    assert len(block.edits_by_annotator()[1]) == 3
    # the units respect both corrections: the merge of the third joins sentences 1 and 2
    assert joint_units(ea) == [
        ("He go to school . Then he sleep .",
         ["He goes to school . Then he sleeps .", None, "He goes to school , then he sleeps ."]),
        ("It was late .", ["It was late .", None, "It was late ."])]
    nothing = annotate_essay(en, ESSAY, None)
    assert nothing.present == [] and nothing.annotation().cors == []


def test_empty_essay_and_deleted_text(en: errtype.Annotator) -> None:
    ea = annotate_essay(en, "", "")
    assert ea.orig == [] and ea.groups == [[]] and ea.units() == []
    assert ea.annotation().edits == [[]]
    gone = annotate_essay(en, ESSAY, "")
    assert [(e.o_start, e.o_end, e.c_str) for e in gone.annotation().edits[0]] == [(0, 13, "")]
    added = annotate_essay(en, "", "Hello there.")
    assert [e.c_str for e in added.annotation().edits[0]] == ["Hello there."]
    assert [u.cors for u in added.units()] == [[(0, 1)]]


def test_boundary_edit() -> None:
    from errtype.edit import Edit

    def edit(o: str, c: str) -> Edit:
        return Edit(0, len(o.split()), 0, len(c.split()), o, c)

    assert realign.boundary_edit(edit(". Then", ", then"))
    assert realign.boundary_edit(edit(",", "."))
    assert realign.boundary_edit(edit("", "."))
    assert realign.boundary_edit(edit("。", "，"))
    assert not realign.boundary_edit(edit(".", "!"))
    assert not realign.boundary_edit(edit(". Then", ", so"))
    assert not realign.boundary_edit(edit("", ","))


def test_pair_by_index_baseline(en: errtype.Annotator) -> None:
    merged = "He goes to school, then he sleeps. It was late."
    ea = annotate_essay(en, ESSAY, merged, aligner=realign.pair_by_index)
    assert ea.groups[0] == [Group(0, 1, 0, 1), Group(1, 2, 1, 2), Group(2, 3, 2, 2)]
    assert len(ea.annotation().edits[0]) > 3  # everything after the merge moves
    with pytest.raises(ValueError, match="merging"):
        annotate_essay(en, ESSAY, merged, merging="nope")


def test_without_realignment_one_group(en: errtype.Annotator) -> None:
    merged = "He goes to school, then he sleeps. It was late."
    whole = annotate_essay(en, ESSAY, merged, realign=False)
    assert whole.groups[0] == [Group(0, 3, 0, 2)]
    assert len(whole.units()) == 1
    assert edits_of(whole.annotation()) == edits_of(annotate_essay(en, ESSAY, merged)
                                                    .annotation())


def test_unchanged_groups_are_not_tagged(en: errtype.Annotator) -> None:
    """Only the sentences of groups that differ are tagged (spaCy tags while segmenting, so
    this checks the generic path: a parser without parse_text)."""

    class Plain:
        def __init__(self, parser: object) -> None:
            self.parser = parser
            self.tagged: list[str] = []

        def parse_many(self, texts: Sequence[str], tokenize: bool = False):  # type: ignore[no-untyped-def]
            texts = list(texts)
            if not tokenize:
                self.tagged += texts
            return self.parser.parse_many(texts, tokenize)  # type: ignore[attr-defined]

        def segment(self, text: str, tokenize: bool = False) -> Sentence:
            return self.parser.segment(text, tokenize)  # type: ignore[attr-defined]

    plain = Plain(en.parser)
    ann = errtype.Annotator(en.language, plain)  # type: ignore[arg-type]
    ea = annotate_essay(ann, ESSAY, "He goes to school. Then he sleep. It was late.")
    assert plain.tagged == ["He go to school .", "He goes to school ."]
    assert edits_of(ea.annotation()) == [(1, 2, "go", "goes")]


# --- shared data: essays of consecutive gold sentences -----------------------------------------

def gold_essays(path: str, meta: str | None, count: int) -> list[list[tuple[str, str]]]:
    """Essays of the M2 file's consecutive sentences (documents: ``S # ID`` marker blocks, or
    the ids of a ``.meta`` file), each sentence as (original tokens, annotator 0's corrected
    tokens), joined by spaces."""
    ids = meta.splitlines() if meta is not None else None
    docs: list[list[tuple[str, str]]] = []
    prev = None
    for n, block in enumerate(read_m2(path)):
        if ids is None and block.source.startswith("# "):
            docs.append([])
            continue
        if ids is not None and ids[n] != prev:
            docs.append([])
            prev = ids[n]
        mine = [e for e in block.edits if e.annotator == 0]
        docs[-1].append((block.source, apply_edits(block.tokens, mine).text))
    return [d for d in docs if d][:count]


def edit_pairs(ann: errtype.Annotation) -> Counter[tuple[str, str]]:
    return Counter((" ".join(ann.orig.texts[e.o_start:e.o_end]),
                    " ".join(ann.cors[0].texts[e.c_start:e.c_end])) for e in ann.edits[0])


def agreement(annotator: errtype.Annotator, docs: list[list[tuple[str, str]]]) -> float:
    """The share of the sentence-by-sentence edits (original words, corrected words) that the
    essay-level run finds too (multisets)."""
    ref: Counter[tuple[str, str]] = Counter()
    for ann in annotator.annotate_stream([p for d in docs for p in d], tokenize=True):
        ref.update(edit_pairs(ann))
    got: Counter[tuple[str, str]] = Counter()
    items = [(" ".join(o for o, _ in d), " ".join(c for _, c in d)) for d in docs]
    for ea in annotate_essays(annotator, items):
        got.update(edit_pairs(ea.annotation()))
    assert sum(ref.values()) > 200
    return sum((ref & got).values()) / sum(ref.values())


def test_ukrainian_essays_agree_with_sentences() -> None:
    peer("ufal.udpipe", "pip install 'errtype[cs]'")
    data = shared_path("multilingual", "uagec.dev.m2")
    model = SHARED / "models" / "uk.udpipe"
    if not model.exists():
        pytest.skip(f"stand-in UDPipe model not available: {model}")
    annotator = errtype.load("uk", udpipe_model=model)
    assert agreement(annotator, gold_essays(str(data), None, 15)) >= 0.99


def test_czech_essays_agree_with_sentences() -> None:
    peer("cs_core_news_sm", "pip install 'errtype[cs]'")
    data = shared_path("geccc", "sentence.m2")
    meta = shared_path("geccc", "sentence.meta").read_text(encoding="utf-8")
    annotator = errtype.load("cs", backend="spacy")
    assert agreement(annotator, gold_essays(str(data), meta, 15)) >= 0.99
