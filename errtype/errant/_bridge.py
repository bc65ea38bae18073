"""spaCy Doc <-> errtype Sentence: what lets ERRANT's Doc-based API run on errtype's engine."""

from __future__ import annotations

from typing import Any

from ..lang import Language, get_language
from ..parse.spacy import doc_to_sentence
from ..tokens import Sentence

#: key under which a Doc built by the shim keeps the Sentence errtype parsed it from
_KEY = "errtype.sentence"
#: key of the conversion cache of other Docs: (annotation fingerprint, Sentence)
_CACHE_KEY = "errtype.sentence.cache"


def _fingerprint(doc: Any) -> bytes:
    from spacy.attrs import DEP, HEAD, LEMMA, ORTH, POS, TAG

    return bytes(doc.to_array([ORTH, LEMMA, POS, TAG, DEP, HEAD]).tobytes())


def sentence_of(doc: Any) -> Sentence:
    """The errtype Sentence behind a spaCy Doc (or Span): the parser's own when the shim built
    the Doc, else converted from the Doc's annotation (cached on the Doc while that annotation
    is unchanged)."""
    if getattr(doc, "doc", doc) is not doc:  # a Span
        return doc_to_sentence(doc)
    own = doc.user_data.get(_KEY)
    if isinstance(own, Sentence) and len(own) == len(doc):
        return own
    key = _fingerprint(doc)
    cached = doc.user_data.get(_CACHE_KEY)
    if cached is not None and cached[0] == key:
        return cached[1]
    sentence = doc_to_sentence(doc)
    doc.user_data[_CACHE_KEY] = (key, sentence)
    return sentence


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
