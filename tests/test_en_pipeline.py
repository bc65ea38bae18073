"""The English spaCy pipeline runs only the components English reads, with ERRANT's annotations."""

from __future__ import annotations

from errtype.lang.en import DEFAULT_MODELS, English
from errtype.parse.spacy import doc_to_sentence

from .conftest import shared_path


def test_only_declared_components_are_loaded() -> None:
    parser = English().make_parser()
    assert set(parser.nlp.pipe_names) <= set(English.spacy_components)
    assert {"tagger", "parser", "attribute_ruler", "lemmatizer"} <= set(parser.nlp.pipe_names)
    assert "ner" not in parser.nlp.component_names


def test_annotations_equal_errant_loading() -> None:
    """Same Tokens as the pipeline loaded the way ERRANT 3.0.2 loads it (NER disabled), on real
    learner sentences: excluding components changes nothing that is read."""
    import spacy
    from spacy.tokens import Doc

    parser = English().make_parser()
    name = parser.nlp.meta["lang"] + "_" + parser.nlp.meta["name"]
    assert name in DEFAULT_MODELS
    errant_nlp = spacy.load(name, disable=["ner"])
    lines = shared_path("jfleg", "dev.src").read_text(encoding="utf-8").splitlines()[:150]
    texts = [t.strip() for t in lines if t.strip()]
    ours = list(parser.parse_many(texts))
    theirs = [doc_to_sentence(errant_nlp(Doc(errant_nlp.vocab, words=t.split()))) for t in texts]
    assert ours == theirs
