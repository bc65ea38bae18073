"""The compiled attribute_ruler gives exactly spaCy's AttributeRuler annotations (issue 10)."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from errtype.lang.en import English
from errtype.parse.fast_attribute_ruler import CompiledRules, accelerate, fast_class

from .conftest import shared_path

#: tokenised sentences reaching the model's rare rules: two-token patterns (index 0 and 1), REGEX
#: tests, NOT_IN sets, DEP conditions, whitespace tokens
RARE: list[str | list[str]] = [
    "I ai n't gon na do it , let 's go , y' all .",
    "C'm on , you got ta see this : nothin' is better and there 's more and there are two .",
    "Ya all ai nt happy , I 'm gon na stop and gets what he got .",
    "It is n't the one that I want , which is whose ?",
    ["Hello", "  ", "world", "\n", "and", "\t", "more", " "],
]


@cache
def pipelines() -> tuple[Any, Any]:
    """(original, accelerated) default English pipelines."""
    original = English().make_parser(fast_attribute_ruler=False).nlp
    fast = English().make_parser().nlp
    return original, fast


def annotations(doc: Any) -> list[tuple]:
    return [(t.text, t.pos_, t.tag_, t.lemma_, str(t.morph), t.dep_, t.head.i) for t in doc]


def sentences() -> list[str]:
    """Every third sentence of the real corpora (~3,400 of the 10,330 the full check uses)."""
    texts: list[str] = []
    for rel in ("dev.src", "dev.ref0", "dev.ref1", "dev.ref2", "dev.ref3"):
        texts += shared_path("jfleg", rel).read_text(encoding="utf-8").splitlines()
    for system in ("AMU", "CAMB", "CUUI", "INPUT"):
        texts += shared_path("conll14", "systems", system).read_text(encoding="utf-8").splitlines()
    m2 = shared_path("conll14", "official-2014.combined.m2").read_text(encoding="utf-8")
    texts += [line[2:] for line in m2.splitlines() if line.startswith("S ")]
    return [t for t in texts if t.split()][::3]


def parse_all(nlp: Any, texts: list, piped: bool = True) -> list[list[tuple]]:
    """Annotations of each text (split on whitespace) or list of words."""
    from spacy.tokens import Doc

    docs = (Doc(nlp.vocab, words=t.split() if isinstance(t, str) else t) for t in texts)
    if piped:
        return [annotations(d) for d in nlp.pipe(docs, batch_size=256)]
    return [annotations(nlp(d)) for d in docs]


def test_default_pipeline_is_accelerated_and_opt_out_is_not() -> None:
    original, fast = pipelines()
    assert type(fast.get_pipe("attribute_ruler")) is fast_class()
    assert type(original.get_pipe("attribute_ruler")).__name__ == "AttributeRuler"
    assert fast.pipe_names == original.pipe_names


def test_every_model_pattern_compiles() -> None:
    original, _ = pipelines()
    ruler = original.get_pipe("attribute_ruler")
    compiled = CompiledRules(ruler)
    entries = {id(e) for found in compiled.index.values() for e in found}  # IN sets: repeated
    assert len(entries) + len(compiled.scan) == sum(len(p["patterns"]) for p in ruler.patterns)
    assert len(compiled.scan) <= 3  # only the regex-first patterns are tried at every token


def test_rare_rules_identical() -> None:
    original, fast = pipelines()
    ours, theirs = parse_all(fast, RARE), parse_all(original, RARE)
    assert ours == theirs
    lemmas = {(a[0], a[3]) for sent in theirs for a in sent}
    assert {("gon", "go"), ("na", "to"), ("ta", "to"), ("'s", "us"), ("ai", "be")} <= lemmas


@pytest.mark.slow  # a whole corpus; test_pipe_equals_per_sentence_call parses 400
def test_real_sentences_identical() -> None:
    original, fast = pipelines()
    texts = sentences()
    assert len(texts) > 3000
    ours, theirs = parse_all(fast, texts), parse_all(original, texts)
    diffs = [t for t, a, b in zip(texts, ours, theirs, strict=True) if a != b]
    assert diffs == []


def test_pipe_equals_per_sentence_call() -> None:
    _, fast = pipelines()
    texts = sentences()[:400] + RARE
    assert parse_all(fast, texts, piped=True) == parse_all(fast, texts, piped=False)


def test_uncompilable_pattern_keeps_the_matcher() -> None:
    import spacy

    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("attribute_ruler")
    ruler.add([[{"LOWER": "a"}, {"LOWER": "b", "OP": "?"}]], {"LEMMA": "x"})
    assert not accelerate(nlp)
    assert type(ruler).__name__ == "AttributeRuler"


def test_patterns_added_later_are_honoured() -> None:
    import spacy
    from spacy.tokens import Doc

    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("attribute_ruler")
    ruler.add([[{"LOWER": "dogs"}]], {"LEMMA": "dog", "POS": "NOUN"})
    ruler.add([[{"LOWER": {"IN": ["dogs", "cats"]}}]], {"LEMMA": "pet"})
    assert accelerate(nlp)
    doc = nlp(Doc(nlp.vocab, words=["Dogs", "and", "cats"]))
    assert [(t.lemma_, t.pos_) for t in doc] == [("pet", "NOUN"), ("", ""), ("pet", "")]
    ruler.add([[{"ORTH": "and"}, {"LOWER": "cats"}]], {"LEMMA": "&"}, index=0)
    doc = nlp(Doc(nlp.vocab, words=["Dogs", "and", "cats"]))
    assert [t.lemma_ for t in doc] == ["pet", "&", "pet"]
    ruler.add([[{"LOWER": "dogs", "OP": "+"}]], {"LEMMA": "hound"})  # not compilable: Matcher
    doc = nlp(Doc(nlp.vocab, words=["Dogs", "and", "cats"]))
    assert [t.lemma_ for t in doc] == ["hound", "&", "pet"]


@pytest.mark.parametrize("index", [2, -3])
def test_index_outside_pattern_is_not_compiled(index: int) -> None:
    import spacy

    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("attribute_ruler")
    ruler.add([[{"LOWER": "a"}, {"LOWER": "b"}]], {"LEMMA": "x"}, index=index)
    assert not accelerate(nlp)


def test_rule_setting_a_lexeme_attribute_is_not_compiled() -> None:
    import spacy

    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("attribute_ruler")
    ruler.add([[{"LOWER": "a"}]], {"LOWER": "b"})
    assert not accelerate(nlp)
