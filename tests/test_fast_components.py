"""The accelerated parser, lemmatizer and Doc conversion give exactly spaCy's annotations
(issue 21): errtype's SpacyParser against spaCy's own ``nlp.pipe`` and Token attributes."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from errtype.lang.en import English
from errtype.parse import fast_lemmatizer, fast_parser
from errtype.parse.spacy import SpacyParser, doc_to_sentence
from errtype.tokens import Sentence, Token

from .conftest import shared_path

#: written sentences: learner errors, contractions, numbers, one word, a long one
WRITTEN = [
    "He go to school every days and do n't likes it .",
    "Their is many reason why peoples likes to travelling abroad , I think .",
    "The results was published in 2014 and 3.5 % of the 1,000 participant disagree .",
    "Yes",
    "",
    "Although she had not ate anything since morning , she refused the sandwich which I have "
    "offered her , because she was afraid that it contain peanuts and she is allergic to them .",
    "Mr. Smith 's dog barked at the the postman ; nobody knows why !",
]


@cache
def parser() -> SpacyParser:
    return English().make_parser()


def reference(nlp: Any, texts: list[str]) -> list[Sentence]:
    """spaCy's own ``nlp.pipe`` (its DependencyParser and Lemmatizer) and a conversion through
    spaCy's Token attributes, one attribute at a time."""
    from spacy.tokens import Doc

    docs = nlp.pipe((Doc(nlp.vocab, words=t.split()) for t in texts), batch_size=256)
    return [Sentence([Token(t.text, t.lemma_, t.pos_, t.tag_, t.dep_, t.head.i, str(t.morph),
                            t.whitespace_, t.lower_) for t in doc]) for doc in docs]


def test_pipeline_steps_are_accelerated() -> None:
    nlp = parser().nlp
    assert fast_parser.accelerable(nlp.get_pipe("parser"))
    assert fast_lemmatizer.accelerable(nlp.get_pipe("lemmatizer"))
    assert not fast_parser.accelerable(nlp.get_pipe("tagger"))
    assert not fast_lemmatizer.accelerable(nlp.get_pipe("tagger"))


def test_written_sentences_identical_single_and_batched() -> None:
    p = parser()
    want = reference(p.nlp, WRITTEN)
    assert list(p.parse_many(WRITTEN)) == want
    assert [p.parse(t) for t in WRITTEN] == want
    assert [doc_to_sentence(p.parse_doc(t)) for t in WRITTEN] == want
    unaccelerated = SpacyParser(p.nlp, accelerate=False)
    assert list(unaccelerated.parse_many(WRITTEN)) == want


def test_fast_tok2vec_and_parser_run_for_batches_spacys_for_one_or_two(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """One or two Docs (a client parsing sentence by sentence) get every tok2vec row computed
    and spaCy's own parser, cheaper there; FAST_BATCH Docs or more the sharing tok2vec and the
    fast parser. The annotations are spaCy's either way."""
    from errtype.parse import fast_tok2vec
    from errtype.parse.spacy import FAST_BATCH

    p = SpacyParser(parser().nlp)
    calls: list[tuple[str, bool]] = []
    real_process, real_parse = fast_tok2vec.process_docs, fast_parser.parse_docs

    def process(component: Any, docs: Any, size: int, share: bool = True) -> Any:
        calls.append(("tok2vec", share))
        return real_process(component, docs, size, share)

    def parse(*args: Any) -> Any:
        calls.append(("parser", True))
        return real_parse(*args)

    monkeypatch.setattr(fast_tok2vec, "process_docs", process)
    monkeypatch.setattr(fast_parser, "parse_docs", parse)
    want = reference(p.nlp, WRITTEN)
    assert [p.parse(t) for t in WRITTEN] == want
    assert list(p.parse_many(WRITTEN[:FAST_BATCH - 1])) == want[:FAST_BATCH - 1]
    assert set(calls) == {("tok2vec", False)}
    calls.clear()
    assert list(p.parse_many(WRITTEN[:FAST_BATCH])) == want[:FAST_BATCH]
    assert calls == [("tok2vec", True), ("parser", True)]


def test_tok2vec_without_sharing_is_spacys_exactly() -> None:
    """Every row computed (one or two Docs) gives spaCy's Tok2Vec.predict bit for bit."""
    import numpy
    from spacy.tokens import Doc

    from errtype.parse import fast_tok2vec

    nlp = parser().nlp
    tok2vec = nlp.get_pipe("tok2vec")
    docs = [Doc(nlp.vocab, words=t.split()) for t in WRITTEN + real_texts()[:300]]
    with parser().blas:
        for k in (1, 2):
            for i in range(0, len(docs), k):
                batch = docs[i:i + k]
                for want, got in zip(tok2vec.predict(batch),
                                     fast_tok2vec.predict(tok2vec, batch, share=False),
                                     strict=True):
                    assert numpy.array_equal(want, got)


def real_texts() -> list[str]:
    texts: list[str] = []
    for system in ("INPUT", "AMU"):
        path = shared_path("conll14", "systems", system)
        texts += [t for t in path.read_text(encoding="utf-8").splitlines() if t.split()]
    return texts


@pytest.mark.slow  # 2,624 sentences; the slow test below covers every bench sentence
def test_identical_on_real_corpus() -> None:
    """Every CoNLL-2014 source sentence and AMU output (2,624 sentences): the same tokens, tags,
    POS, lemmas, features, dependencies and heads as spaCy's own components."""
    texts = real_texts()
    assert list(parser().parse_many(texts)) == reference(parser().nlp, texts)


@pytest.mark.slow
def test_identical_on_every_bench_sentence() -> None:
    """Every distinct sentence of bench/bench_m2.py's corpora (JFLEG dev and its references,
    CoNLL-2014 INPUT and three systems: 7,6xx sentences)."""
    texts: set[str] = set()
    for rel in ("dev.src", "dev.ref0", "dev.ref1", "dev.ref2", "dev.ref3"):
        texts.update(shared_path("jfleg", rel).read_text(encoding="utf-8").splitlines())
    for system in ("INPUT", "AMU", "CAMB", "CUUI"):
        path = shared_path("conll14", "systems", system)
        texts.update(path.read_text(encoding="utf-8").splitlines())
    ordered = sorted({t.strip() for t in texts} - {""})
    assert list(parser().parse_many(ordered)) == reference(parser().nlp, ordered)


def test_span_conversion_counts_heads_within_the_span() -> None:
    doc = parser().parse_doc("The cat sat on the mat . It was happy .")
    span = doc[7:]
    want = [Token(t.text, t.lemma_, t.pos_, t.tag_, t.dep_, t.head.i - span.start, str(t.morph),
                  t.whitespace_, t.lower_) for t in span]
    assert list(doc_to_sentence(span)) == want
    assert doc_to_sentence(doc[0:0]) == Sentence()


def test_lemmatizer_keeps_earlier_lemmas_unless_overwriting() -> None:
    from spacy.tokens import Doc

    nlp = parser().nlp
    component = nlp.get_pipe("lemmatizer")
    fast = fast_lemmatizer.FastLemmatizer(component)
    doc = Doc(nlp.vocab, words=["dogs", "ran"], pos=["NOUN", "VERB"], lemmas=["DOGS", ""])
    fast(doc)
    assert [t.lemma_ for t in doc] == ["DOGS", "run"]
    component.overwrite = True
    try:
        fast(doc)
        assert [t.lemma_ for t in doc] == ["dog", "run"]
    finally:
        component.overwrite = False


def test_lemmatizer_answers_follow_replaced_tables() -> None:
    from spacy.lookups import Lookups
    from spacy.tokens import Doc

    nlp = parser().nlp
    component = nlp.get_pipe("lemmatizer")
    fast = fast_lemmatizer.FastLemmatizer(component)
    words, pos = ["geese"], ["NOUN"]
    assert fast(Doc(nlp.vocab, words=words, pos=pos))[0].lemma_ == "goose"
    original = component.lookups
    changed = Lookups()
    for name in original.tables:
        changed.add_table(name, dict(original.get_table(name).items()))
    changed.get_table("lemma_exc")["noun"] = {"geese": ["gander"]}
    component.lookups = changed
    try:
        assert fast(Doc(nlp.vocab, words=words, pos=pos))[0].lemma_ == "gander"
    finally:
        component.lookups = original
    assert fast(Doc(nlp.vocab, words=words, pos=pos))[0].lemma_ == "goose"


def test_what_cannot_be_reproduced_is_left_to_spacy() -> None:
    from spacy.pipeline import Lemmatizer

    nlp = parser().nlp
    dep = nlp.get_pipe("parser")
    beam = dep.cfg["beam_width"]
    dep.cfg["beam_width"] = 4
    try:
        assert not fast_parser.accelerable(dep)
    finally:
        dep.cfg["beam_width"] = beam

    class Custom(Lemmatizer):  # may read anything: not known to be a function of the token
        pass

    assert not fast_lemmatizer.accelerable(Custom(nlp.vocab, None, mode="lookup"))
    with pytest.raises(ValueError, match="memoised"):
        fast_lemmatizer.FastLemmatizer(nlp.get_pipe("tagger"))


def test_tok2vec_embeds_distinct_tokens_once() -> None:
    """The shared embedding gives spaCy's token vectors up to the last bits of a float (a
    different number of rows in one matrix product), and only row-wise embeddings qualify."""
    import numpy
    import spacy
    from spacy.tokens import Doc

    from errtype.parse import fast_tok2vec

    nlp = parser().nlp
    tok2vec = nlp.get_pipe("tok2vec")
    assert fast_tok2vec.accelerable(tok2vec)
    assert not fast_tok2vec.accelerable(nlp.get_pipe("tagger"))
    docs = [Doc(nlp.vocab, words=t.split()) for t in WRITTEN * 3]
    ours, theirs = fast_tok2vec.predict(tok2vec, docs), tok2vec.predict(docs)
    assert [a.shape for a in ours] == [b.shape for b in theirs]
    gaps = [float(numpy.abs(a - b).max(initial=0)) for a, b in zip(ours, theirs, strict=True)]
    assert max(gaps) < 1e-4
    assert fast_tok2vec.predict(tok2vec, [Doc(nlp.vocab, words=[])])[0].shape == (0, 96)
    blank = spacy.blank("en")
    chars = blank.add_pipe("tok2vec", config={"model": {
        "@architectures": "spacy.Tok2Vec.v2",
        "embed": {"@architectures": "spacy.CharacterEmbed.v2", "width": 32, "rows": 100,
                  "nM": 8, "nC": 4, "include_static_vectors": False},
        "encode": {"@architectures": "spacy.MaxoutWindowEncoder.v2", "width": 32, "depth": 1,
                   "window_size": 1, "maxout_pieces": 2}}})
    blank.initialize()
    assert not fast_tok2vec.accelerable(chars)


def _tok2vec(encoder: str, **settings: Any) -> Any:
    """A freshly initialised tok2vec (random weights) with a hash embedding and ``encoder``."""
    import spacy

    nlp = spacy.blank("en")
    component = nlp.add_pipe("tok2vec", config={"model": {
        "@architectures": "spacy.Tok2Vec.v2",
        "embed": {"@architectures": "spacy.MultiHashEmbed.v2", "width": 32,
                  "attrs": ["NORM", "SHAPE"], "rows": [500, 100],
                  "include_static_vectors": False},
        "encode": {"@architectures": encoder, "width": 32, **settings}}})
    nlp.initialize()
    return nlp, component


@pytest.mark.parametrize(("depth", "window"), [(1, 1), (2, 2), (4, 1)])
def test_tok2vec_encoder_computes_each_window_once(depth: int, window: int,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The encoder computed per distinct window (class) gives spaCy's vectors, for any depth
    and window; repeated sentences and shared parts (a GEC correction beside its original)
    need fewer rows than spaCy computes."""
    import numpy
    from spacy.tokens import Doc

    from errtype.parse import fast_tok2vec

    nlp, component = _tok2vec("spacy.MaxoutWindowEncoder.v2", depth=depth,
                              window_size=window, maxout_pieces=3)
    encode = component.model.layers[1]
    pad, found_window, blocks = fast_tok2vec._blocks(encode)  # type: ignore[misc]
    assert (pad, found_window, len(blocks)) == (depth * window, window, depth)
    texts = [*WRITTEN, "He goes to school every day and does n't like it .", *WRITTEN[:2]]
    docs = [Doc(nlp.vocab, words=t.split()) for t in texts]
    rows: list[int] = []  # rows of the first block's maxout: spaCy's run, then ours
    maxout = blocks[0][0]
    forward, fast = maxout._func, fast_tok2vec._maxout

    def counting(model: Any, x: Any, is_train: bool) -> Any:
        rows.append(len(x))
        return forward(model, x, is_train)

    def counting_fast(layer: Any, x: Any) -> Any:
        if layer is maxout:
            rows.append(len(x))
        return fast(layer, x)

    maxout._func = counting
    try:
        theirs = component.predict(docs)
    finally:
        maxout._func = forward
    monkeypatch.setattr(fast_tok2vec, "_maxout", counting_fast)
    ours = fast_tok2vec.predict(component, docs)
    assert [a.shape for a in ours] == [b.shape for b in theirs]
    gaps = [float(numpy.abs(a - b).max(initial=0)) for a, b in zip(ours, theirs, strict=True)]
    assert max(gaps) < 1e-5
    joined = sum(len(d) + pad for d in docs if len(d)) + pad  # the rows spaCy's encoder runs
    assert rows[0] == joined and rows[1] < 0.8 * joined


@pytest.mark.parametrize("pieces", [1, 2, 3, 4])
def test_maxout_without_argmax_is_thincs_maxout_exactly(pieces: int) -> None:
    """The encoder's maxout keeps only the largest piece (no argmax): the same floats, bit for
    bit, as thinc's ``Maxout.predict``, ties and negative values included."""
    import numpy
    from thinc.api import Maxout

    from errtype.parse import fast_tok2vec

    layer = Maxout(nO=24, nI=40, nP=pieces)
    layer.initialize()
    rng = numpy.random.default_rng(pieces)
    X = rng.normal(size=(300, 40)).astype("float32")
    X[:50] = 0.0  # pad rows: every piece equals its bias
    ours = fast_tok2vec._maxout(layer, X)
    assert ours.dtype == numpy.float32 and ours.flags.c_contiguous
    assert numpy.array_equal(ours, layer.predict(X))


def test_tok2vec_other_encoders_run_as_spacy_runs_them() -> None:
    import numpy
    from spacy.tokens import Doc

    from errtype.parse import fast_tok2vec

    nlp, component = _tok2vec("spacy.MishWindowEncoder.v2", depth=2, window_size=1)
    assert fast_tok2vec.accelerable(component)  # the embedding is still shared
    assert fast_tok2vec._blocks(component.model.layers[1]) is None
    docs = [Doc(nlp.vocab, words=t.split()) for t in WRITTEN]
    ours, theirs = fast_tok2vec.predict(component, docs), component.predict(docs)
    assert all(numpy.allclose(a, b, atol=1e-5) for a, b in zip(ours, theirs, strict=True))


def test_tokens_from_columns_are_the_tokens_the_constructor_builds() -> None:
    import dataclasses

    from errtype.tokens import tokens_from_columns

    rows = [("He", "he", "PRON", "PRP", "nsubj", 1, "Case=Nom", " ", "he"),
            ("went", "go", "VERB", "VBD", "ROOT", 1, "", "", "went")]
    made = tokens_from_columns(*map(list, zip(*rows, strict=True)))
    want = tuple(Token(*row) for row in rows)
    assert made == want and hash(made) == hash(want)
    assert [dataclasses.astuple(t) for t in made] == [dataclasses.astuple(t) for t in want]
    with pytest.raises(dataclasses.FrozenInstanceError):
        made[0].text = "She"  # type: ignore[misc]
    p = parser()
    for text in WRITTEN:
        got, ref = p.parse(text), reference(p.nlp, [text])[0]
        assert [(t.lower, t.ws) for t in got] == [(t.lower, t.ws) for t in ref]
