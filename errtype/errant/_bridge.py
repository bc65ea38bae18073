"""spaCy Doc <-> errtype Sentence: what lets ERRANT's Doc-based API run on errtype's engine."""

from __future__ import annotations

from typing import Any

from ..lang import Language, get_language
from ..parse.spacy import doc_to_sentence
from ..tokens import Sentence

#: key under which a Doc built by the shim keeps the Sentence errtype parsed it from
_KEY = "errtype.sentence"


def sentence_of(doc: Any) -> Sentence:
    """The errtype Sentence behind a spaCy Doc (or Span): the parser's own when the shim built
    the Doc, else converted from the Doc's annotation."""
    base = getattr(doc, "doc", doc)
    if base is doc:
        cached = doc.user_data.get(_KEY)
        if isinstance(cached, Sentence) and len(cached) == len(doc):
            return cached
    return doc_to_sentence(doc)


def sentence_to_doc(sentence: Sentence, vocab: Any) -> Any:
    """A spaCy Doc carrying the annotation of ``sentence`` (for parsers that are not spaCy)."""
    from spacy.tokens import Doc

    toks = sentence.tokens
    n = len(toks)
    heads = [t.head if 0 <= t.head < n else i for i, t in enumerate(toks)]
    doc = Doc(vocab, words=[t.text for t in toks], spaces=[bool(t.ws) for t in toks],
              lemmas=[t.lemma or t.text for t in toks], pos=[t.pos or "X" for t in toks],
              tags=[t.tag or t.pos or "X" for t in toks], deps=[t.dep or "dep" for t in toks],
              heads=heads, morphs=[t.feats or "" for t in toks])
    doc.user_data[_KEY] = sentence
    return doc


def language_of(doc: Any, language: Language | str | None = None) -> Language:
    """``language`` if given, else the errtype language of the Doc's ``lang_`` (default English)."""
    if isinstance(language, Language):
        return language
    if language:
        return get_language(language)
    try:
        return get_language(getattr(doc, "lang_", "") or "en")
    except LookupError:  # a pipeline of a language errtype does not type: ERRANT's English
        return get_language("en")
